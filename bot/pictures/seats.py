"""A seat's panel on the table picture: its frame (turn, team, own trump), the name, the role
and the hand's cards or count. :mod:`.panels` pastes a panel together from these same parts.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.cards import SUIT_SYMBOLS

from ..cardart.cardface import Font
from .cards import (
    MINI_H,
    MINI_W,
    mini_back,
    sideways_mini_back,
    suit_colour,
)
from .fonts import draw_text, fit, font, record, text_width
from .look import (
    _DIM,
    _FELT_DARK,
    _GOLD,
    _LABEL,
    _NAME,
    _PANEL,
    _PANEL_EDGE,
    _PANEL_FOOL,
    _PANEL_OUT,
    _PAPER,
    _TEAM_COLOURS,
    _TONE_COLOURS,
    _WHITE,
    MIN_TEXT,
    PANEL_H,
    PANEL_W,
)
from .scene import SeatScene


def _seat(
    img: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[int, int], seat: SeatScene
) -> None:
    x0, y0 = centre[0] - PANEL_W // 2, centre[1] - PANEL_H // 2
    record("panel", (x0, y0, x0 + PANEL_W, y0 + PANEL_H))
    name_room = _seat_frame(draw, centre, seat)
    _seat_name(draw, x0, y0, seat.name, _name_colour(seat), name_room)
    _seat_role(draw, x0, y0, seat.role, seat.tone)
    _seat_hand(img, draw, x0, y0, seat.cards, seat.closed, seat.score)


def _panel_fill(tone: str) -> tuple[int, int, int]:
    return {"out": _PANEL_OUT, "fool": _PANEL_FOOL}.get(tone, _PANEL)


def _name_colour(seat: SeatScene) -> tuple[int, int, int]:
    return _DIM if seat.tone == "out" else (_GOLD if seat.turn else _WHITE)


def _seat_frame(draw: ImageDraw.ImageDraw, centre: tuple[int, int], seat: SeatScene) -> int:
    """The panel, the turn's frame, a partner's team and a seat's own trump; returns the room
    left for the name."""
    cx, cy = centre
    x0, y0 = cx - PANEL_W // 2, cy - PANEL_H // 2
    box = (x0, y0, x0 + PANEL_W, y0 + PANEL_H)
    fill = _panel_fill(seat.tone)
    if seat.turn:
        draw.rounded_rectangle(
            (x0 - 4, y0 - 4, x0 + PANEL_W + 4, y0 + PANEL_H + 4),
            18,
            outline=(120, 100, 40),
            width=2,
        )
        draw.rounded_rectangle(box, 14, fill=fill, outline=_GOLD, width=4)
    else:
        draw.rounded_rectangle(box, 14, fill=fill, outline=_PANEL_EDGE, width=2)
    name_room = PANEL_W - 28
    disc_x = x0 + PANEL_W - 30
    if seat.team:
        # Partners: the team's number on a disc of its colour, and a stripe down the left.
        colour = _TEAM_COLOURS[(seat.team - 1) % 2]
        draw.rounded_rectangle((x0 + 5, y0 + 16, x0 + 10, y0 + PANEL_H - 16), 2, fill=colour)
        draw.ellipse((disc_x - 21, y0 + 8, disc_x + 21, y0 + 50), fill=colour, outline=_WHITE)
        number = str(seat.team)
        draw_text(
            draw, (disc_x, y0 + 30), number, font(MIN_TEXT, True), _WHITE, anchor="mm", badge=True
        )
        name_room -= 48
        disc_x -= 48
    if seat.trump >= 0:
        # Double-trump fool: the seat's own trump on a small card-white disc, top right.
        name_room -= 48
        _suit_disc(draw, disc_x, y0 + 29, 21, seat.trump, font(MIN_TEXT))
    return name_room


def _seat_name(
    draw: ImageDraw.ImageDraw, x0: int, y0: int, name: str, colour: tuple[int, int, int], room: int
) -> None:
    name_font = font(_NAME, bold=True)
    draw_text(draw, (x0 + 16, y0 + 10), fit(name, name_font, room, bold=True), name_font, colour)


def _seat_role(draw: ImageDraw.ImageDraw, x0: int, y0: int, role: str, tone: str) -> None:
    if role:
        role_font = font(MIN_TEXT)
        draw_text(
            draw,
            (x0 + 16, y0 + 50),
            fit(role, role_font, PANEL_W - 30),
            role_font,
            _TONE_COLOURS.get(tone, _LABEL),
        )


def _seat_hand(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    cards: int,
    closed: int,
    score: str,
) -> None:
    """The bottom row: the hand as a fan of backs on the left; on the right what a variant
    adds (a score, closed cards), drawn right to left so the fan gets what is left."""
    row_y = y0 + PANEL_H - MINI_H - 10
    right = x0 + PANEL_W - 14
    if score:
        # regular weight: "12 эполет" in bold would leave the fan no room
        score_font = font(MIN_TEXT)
        text = fit(score, score_font, 180)
        draw_text(draw, (right, row_y + MINI_H // 2), text, score_font, _GOLD, anchor="rm")
        right -= int(text_width(text, score_font)) + 14
    if closed:
        right = _closed(img, draw, right, row_y, closed)
    if cards:
        _fan(img, draw, x0 + 16, row_y, cards, right - (x0 + 16))


def _suit_disc(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, suit: int, face_: Font) -> None:
    """A trump suit on a card-white disc with a gold ring (suit 4, no trumps: a dash)."""
    ring = max(2, r // 11)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_PAPER, outline=_GOLD, width=ring)
    symbol = SUIT_SYMBOLS[suit] if 0 <= suit < len(SUIT_SYMBOLS) else "–"
    draw_text(
        draw,
        (cx, cy + max(1, r // 17)),
        symbol,
        face_,
        suit_colour(suit % 4),
        anchor="mm",
        badge=True,
    )


def _closed(img: Image.Image, draw: ImageDraw.ImageDraw, right: int, y: int, count: int) -> int:
    """Magadan fool's closed cards, ending at ``right``: a squared stack of backs lying across
    (set apart from the held fan: nobody, the owner included, may look at them) and their
    count in the label colour (the hand's count is white). Returns where the space left of
    them ends."""
    face_ = font(MIN_TEXT, bold=True)
    text = str(count)
    draw_text(draw, (right, y + MINI_H // 2), text, face_, _LABEL, anchor="rm")
    sprite = sideways_mini_back()
    left = right - int(text_width(text, face_)) - 8 - sprite.width - 4
    top = y + (MINI_H - sprite.height) // 2 + 2
    for i in reversed(range(min(3, count))):
        img.paste(sprite, (left + 2 * i, top - 2 * i), sprite)
    record("card", (left, top - 4, left + sprite.width + 4, top + sprite.height))
    return left - 16


def _fan(
    img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, count: int, width: int
) -> None:
    """``count`` card backs overlapping like a held hand, and the number next to them, in
    ``width`` pixels."""
    shown = min(count, 18)
    face_ = font(MIN_TEXT, bold=True)
    room = max(0, width - MINI_W - 12 - int(text_width(str(count), face_)))
    step = min(14, room / (shown - 1)) if shown > 1 else 0
    sprite = mini_back()
    for i in range(shown):
        img.paste(sprite, (round(x + i * step), y), sprite)
    right = round(x + (shown - 1) * step) + MINI_W
    record("card", (x, y, right, y + MINI_H))
    draw_text(draw, (right + 10, y + MINI_H // 2), str(count), face_, _WHITE, anchor="lm")


def _free_seat(draw: ImageDraw.ImageDraw, centre: tuple[int, int], label: str) -> None:
    """An empty place in a lobby: a dashed outline with the label in the middle."""
    cx, cy = centre
    x0, y0 = cx - PANEL_W // 2, cy - PANEL_H // 2
    draw.rounded_rectangle((x0, y0, x0 + PANEL_W, y0 + PANEL_H), 14, fill=_FELT_DARK)
    record("panel", (x0, y0, x0 + PANEL_W, y0 + PANEL_H))
    for x in range(x0 + 16, x0 + PANEL_W - 16, 16):
        draw.line((x + 2, y0 + 1, x + 10, y0 + 1), fill=_PANEL_EDGE, width=2)
        draw.line((x + 2, y0 + PANEL_H - 1, x + 10, y0 + PANEL_H - 1), fill=_PANEL_EDGE, width=2)
    for y in range(y0 + 16, y0 + PANEL_H - 16, 16):
        draw.line((x0 + 1, y + 2, x0 + 1, y + 10), fill=_PANEL_EDGE, width=2)
        draw.line((x0 + PANEL_W - 1, y + 2, x0 + PANEL_W - 1, y + 10), fill=_PANEL_EDGE, width=2)
    face_ = font(MIN_TEXT)
    draw_text(
        draw, (cx, cy), fit(label, face_, PANEL_W - 14), face_, _TONE_COLOURS["free"], anchor="mm"
    )
