"""Pictures of the standings: the rating leaderboard, a player's profile card, achievement
badges. Drawn in the table picture's style (felt green panels on the dark rim, gold for what
matters, cards as white rounded rectangles).

Like :mod:`.table`, everything here is a pure function of a frozen scene holding texts
already in the reader's language: no clock, no database, no Discord, so the same standings
give the same bytes (the tests compare against goldens) and drawing may run in a worker
thread. Players are shown by their initials on a colour picked from their id, not their
avatars: an avatar is a download from Discord's CDN at run time, which the bot never needs
otherwise.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from ..cardart.cardface import Font
from ..ratings.achievements import BY_KEY
from ..usertext import clean, visual_order
from .fonts import draw_text, fit, font, has_glyph, safe_text, text_width

__all__ = [
    "BoardRow",
    "BoardScene",
    "ProfileScene",
    "badge",
    "initials",
    "render_board_png",
    "render_profile_png",
]

_BG = (43, 45, 49)
_RIM = (96, 62, 38)
_FELT = (27, 94, 60)
_FELT_DARK = (20, 72, 46)
_PANEL = (16, 56, 37)
_PANEL_EDGE = (44, 112, 76)
_GOLD = (245, 197, 66)
_PAPER = (252, 251, 247)
_WHITE = (244, 244, 240)
_DIM = (170, 176, 172)
_LABEL = (214, 232, 220)
_UP = (120, 220, 130)
_DOWN = (255, 130, 120)
_INK = (30, 30, 34)
_AVATAR_COLOURS = (
    (186, 74, 74),
    (74, 120, 186),
    (160, 110, 40),
    (110, 80, 170),
    (40, 140, 130),
    (170, 80, 140),
    (90, 130, 60),
    (120, 120, 130),
)
PNG_COMPRESS_LEVEL = 6
PNG_COLOURS = 256


def initials(name: str) -> str:
    """Up to two letters of a display name ("Anna Karenina" -> "AK", "x_x" -> "X")."""
    # the letters in the order they are written (a right-to-left name's first letter is its
    # rightmost one on screen), each one the font can draw
    named = clean(name).replace("_", " ").replace(".", " ")
    words = [w for w in named.split() if w]
    letters = [w[0] for w in words if w[0].isalnum() and has_glyph(w[0], True)]
    if not letters:
        letters = [c for c in named if c.isalnum() and has_glyph(c, True)][:1]
    return visual_order("".join(letters[:2]).upper()) or "?"


def _avatar_colour(player_id: int) -> tuple[int, int, int]:
    return _AVATAR_COLOURS[player_id % len(_AVATAR_COLOURS)]


def _avatar(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, pid: int, name: str) -> None:
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=_avatar_colour(pid), outline=_WHITE, width=2
    )
    draw_text(draw, (cx, cy), initials(name), font(int(r * 0.9), True), _WHITE, anchor="mm")


@lru_cache(maxsize=64)
def _tier_badge(letter: str, colour: tuple[int, int, int], size: int) -> Image.Image:
    """A tier's badge: a small card with a coloured face and the tier's letter."""
    w, h = int(size * 0.72), size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), max(3, size // 7), fill=_PAPER, outline=_INK, width=1)
    d.rounded_rectangle((3, 3, w - 4, h - 4), max(2, size // 9), fill=colour)
    draw_text(d, (w / 2, h / 2 + 1), letter, font(int(size * 0.5), True), _INK, anchor="mm")
    return img


@lru_cache(maxsize=64)
def badge(key: str, size: int = 56) -> Image.Image:
    """An achievement's badge: a playing card with the achievement's glyph in its colour,
    the glyph small in two corners as on a real card."""
    a = BY_KEY[key]
    w, h = int(size * 0.72), size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), max(4, size // 8), fill=_PAPER, outline=_GOLD, width=2
    )
    big = font(int(size * (0.42 if len(a.glyph) < 3 else 0.3)), True)
    draw_text(d, (w / 2, h / 2 + 1), a.glyph, big, a.colour, anchor="mm")
    small = font(max(8, size // 6), True)
    corner = a.glyph if len(a.glyph) == 1 else "•"
    draw_text(d, (5, 3), corner, small, a.colour)
    draw_text(d, (w - 5, h - 3), corner, small, a.colour, anchor="rd")
    return img


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.convert("RGB").quantize(
        colors=PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    ).save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def _frame(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), _BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((2, 2, width - 3, height - 3), 28, fill=_RIM)
    d.rounded_rectangle((14, 14, width - 15, height - 15), 20, fill=_FELT)
    return img, d


# --------------------------------------------------------------------------- leaderboard


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    player_id: int
    name: str
    rating: str  # "1432" or "1043?" (provisional)
    tier_letter: str
    tier_name: str
    tier_colour: tuple[int, int, int]
    games: str
    #: Places moved since last week (None: new on the board).
    change: int | None


@dataclass(frozen=True, slots=True)
class BoardScene:
    title: str
    subtitle: str  # season name and start date, filters
    rows: tuple[BoardRow, ...]
    header_rating: str
    header_games: str
    empty: str = ""
    new_label: str = "new"


BOARD_W = 900
_ROW_H = 54
_HEAD_H = 128


def render_board(scene: BoardScene) -> Image.Image:
    rows = scene.rows
    height = _HEAD_H + max(1, len(rows)) * _ROW_H + 30
    img, d = _frame(BOARD_W, height)
    draw_text(d, (40, 30), fit(scene.title, font(30, True), 820, True), font(30, True), _GOLD)
    draw_text(d, (40, 70), fit(scene.subtitle, font(18), 820), font(18), _LABEL)
    draw_text(d, (730, 100), scene.header_rating, font(15, True), _DIM, anchor="ma")
    draw_text(d, (830, 100), scene.header_games, font(15, True), _DIM, anchor="ma")
    if not rows:
        draw_text(d, (BOARD_W / 2, _HEAD_H + 26), scene.empty, font(20), _LABEL, anchor="mm")
    for i, r in enumerate(rows):
        y = _HEAD_H + i * _ROW_H
        podium = r.rank <= 3
        d.rounded_rectangle(
            (30, y, BOARD_W - 30, y + _ROW_H - 8),
            12,
            fill=_PANEL if i % 2 == 0 else _FELT_DARK,
            outline=_GOLD if r.rank == 1 else _PANEL_EDGE,
            width=3 if r.rank == 1 else 1,
        )
        cy = y + (_ROW_H - 8) / 2
        draw_text(
            d, (78, cy), str(r.rank), font(24, True), _GOLD if podium else _WHITE, anchor="rm"
        )
        if r.change is None:
            draw_text(d, (90, cy), scene.new_label, font(13, True), _GOLD, anchor="lm")
        elif r.change > 0:
            d.polygon([(92, cy + 5), (104, cy + 5), (98, cy - 6)], fill=_UP)
            draw_text(d, (108, cy), str(r.change), font(14, True), _UP, anchor="lm")
        elif r.change < 0:
            d.polygon([(92, cy - 5), (104, cy - 5), (98, cy + 6)], fill=_DOWN)
            draw_text(d, (108, cy), str(-r.change), font(14, True), _DOWN, anchor="lm")
        else:
            d.line((92, cy, 104, cy), fill=_DIM, width=3)
        _avatar(d, 158, cy, 19, r.player_id, r.name)
        draw_text(
            d,
            (190, cy),
            fit(r.name, font(22, True), 325, True),
            font(22, True),
            _WHITE,
            anchor="lm",
        )
        tb = _tier_badge(r.tier_letter, r.tier_colour, 34)
        img.paste(tb, (530, int(cy - 17)), tb)
        draw_text(d, (562, cy), fit(r.tier_name, font(15), 100), font(15), _LABEL, anchor="lm")
        draw_text(d, (730, cy), r.rating, font(24, True), _GOLD if podium else _WHITE, anchor="mm")
        draw_text(d, (830, cy), r.games, font(18), _LABEL, anchor="mm")
    return img


def render_board_png(scene: BoardScene) -> bytes:
    return _png(render_board(scene))


# --------------------------------------------------------------------------- profile card


@dataclass(frozen=True, slots=True)
class ProfileScene:
    player_id: int
    name: str
    rating: str
    tier_letter: str
    tier_name: str
    tier_colour: tuple[int, int, int]
    subtitle: str  # rank, season
    history: tuple[int, ...]
    history_label: str
    #: (label, value) pairs of the stats grid.
    stats: tuple[tuple[str, str], ...]
    #: (mode name, games) - most played first.
    modes: tuple[tuple[str, int], ...]
    modes_label: str
    #: ("Beats most", "Anna ×4") lines.
    rivals: tuple[tuple[str, str], ...]
    #: (achievement key, its name), newest first.
    achievements: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    achievements_label: str = ""
    no_achievements: str = ""


PROFILE_W, PROFILE_H = 900, 600


def _chart(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], values: tuple[int, ...]) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 10, fill=_PANEL, outline=_PANEL_EDGE)
    if len(values) < 2:
        if values:
            d.ellipse((x1 - 30, (y0 + y1) / 2 - 5, x1 - 20, (y0 + y1) / 2 + 5), fill=_GOLD)
        return
    span = float(max(max(values) - min(values), 20))
    mid = (max(values) + min(values)) / 2
    lo, hi = mid - span / 2, mid + span / 2
    pad = 14
    pts = [
        (
            x0 + pad + (x1 - x0 - 2 * pad) * i / (len(values) - 1),
            y1 - pad - (y1 - y0 - 2 * pad) * (v - lo) / (hi - lo),
        )
        for i, v in enumerate(values)
    ]
    d.line(pts, fill=_GOLD, width=3, joint="curve")
    px, py = pts[-1]
    d.ellipse((px - 5, py - 5, px + 5, py + 5), fill=_GOLD, outline=_WHITE)
    draw_text(d, (x0 + 8, y0 + 4), str(max(values)), font(12), _DIM)
    draw_text(d, (x0 + 8, y1 - 4), str(min(values)), font(12), _DIM, anchor="ld")


def _two_lines(text: str, face: Font, width: float) -> list[str]:
    """``text`` on at most two lines of ``width`` pixels (the second cut with an ellipsis)."""
    words = safe_text(text, True).split()
    first = ""
    while words and text_width((first + " " + words[0]).strip(), face) <= width:
        first = (first + " " + words.pop(0)).strip()
    if not first:
        return [fit(" ".join(words), face, width, True)]
    return [first] + ([fit(" ".join(words), face, width, True)] if words else [])


def render_profile(scene: ProfileScene) -> Image.Image:
    img, d = _frame(PROFILE_W, PROFILE_H)
    _avatar(d, 86, 86, 48, scene.player_id, scene.name)
    draw_text(d, (152, 40), fit(scene.name, font(30, True), 430, True), font(30, True), _WHITE)
    draw_text(d, (152, 84), fit(scene.subtitle, font(17), 430), font(17), _LABEL)
    tb = _tier_badge(scene.tier_letter, scene.tier_colour, 58)
    img.paste(tb, (610, 36), tb)
    draw_text(d, (660, 34), scene.rating, font(42, True), _GOLD)
    draw_text(d, (662, 86), fit(scene.tier_name, font(18, True), 200, True), font(18, True), _LABEL)
    # rating history
    draw_text(d, (40, 150), scene.history_label, font(15, True), _DIM)
    _chart(d, (40, 172, 470, 300), scene.history)
    # stats grid: two columns
    for i, (label, value) in enumerate(scene.stats[:8]):
        col, row = i % 2, i // 2
        x, y = 500 + col * 180, 150 + row * 38
        draw_text(d, (x, y), fit(label, font(13), 170), font(13), _DIM)
        draw_text(d, (x, y + 15), fit(value, font(18, True), 170, True), font(18, True), _WHITE)
    # modes as bars
    draw_text(d, (40, 318), scene.modes_label, font(15, True), _DIM)
    most = max((n for _, n in scene.modes), default=1)
    for i, (mode, n) in enumerate(scene.modes[:4]):
        y = 342 + i * 26
        draw_text(d, (40, y), fit(mode, font(15), 170), font(15), _LABEL)
        w = int(200 * n / most)
        d.rounded_rectangle((220, y + 2, 220 + max(w, 6), y + 18), 5, fill=_GOLD)
        draw_text(d, (228 + max(w, 6), y + 1), str(n), font(14, True), _WHITE)
    # rivals
    for i, (label, text) in enumerate(scene.rivals[:2]):
        y = 318 + i * 50
        draw_text(d, (500, y), label, font(13), _DIM)
        draw_text(d, (500, y + 16), fit(text, font(18, True), 360, True), font(18, True), _WHITE)
    # achievements
    draw_text(d, (40, 452), scene.achievements_label, font(15, True), _DIM)
    if not scene.achievements:
        draw_text(d, (40, 482), scene.no_achievements, font(15), _LABEL)
    for i, (key, name) in enumerate(scene.achievements[:6]):
        cx = 100 + i * 140
        b = badge(key, 56)
        img.paste(b, (cx - b.width // 2, 474), b)
        for j, line in enumerate(_two_lines(name, font(13, True), 132)):
            draw_text(d, (cx, 536 + j * 16), line, font(13, True), _WHITE, anchor="ma")
    return img


def render_profile_png(scene: ProfileScene) -> bytes:
    return _png(render_profile(scene))
