"""Drawing a :class:`~.scene.Scene`: the felt, the seats around it, the cards in the middle.

Layout (1000×720): seats sit in a row along the top and one along the bottom, seat 0 at the
bottom and the others clockwise (the direction play passes), so the picture reads like the
real table and the middle band keeps the whole width. In the middle: the talon with the
turned-up trump lying across under it (left), the attack/defence pairs with each defence
overlapping its attack (centre), the discard pile and the time left (right). The seats the game
waits for get a gold frame; seats that are out are greyed; the fool is red; the last card(s)
played have a gold outline; partners carry their team's numbered disc.

Sizes are chosen for Discord, which shows the picture about 450 px wide (0.45 of its size):
no text is smaller than :data:`MIN_TEXT` px (capital letters 23 px high here, 10 px there);
a test records every text and card drawn over every preset's samples and checks that, and that
no two texts and no text and card overlap (tests/pictures/test_layout.py).

Everything here is a pure function of the scene: no clock, no randomness (the untidy discard
pile uses fixed angles), the PNG is written without metadata at a fixed compression level, so
the same state gives the same pixels in the same PNG (deflated in the same bytes but for
ISA-L's rare variation, :mod:`.png`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PIL import Image, ImageDraw

from .cards import (
    CARD_H,
    CARD_W,
    SHADOW,
    back,
    face,
    rotated_back,
    sideways_face,
)
from .fonts import draw_text, fit, font, record, text_width
from .look import (
    _BAND_BOTTOM,
    _BAND_TOP,
    _BIG,
    _BOTTOM_Y,
    _CENTRE_Y,
    _COLUMN_W,
    _DIM,
    _DISCARD_ANGLES,
    _GOLD,
    _LABEL,
    _LEFT_X,
    _PAIRS_LEFT,
    _PAIRS_RIGHT,
    _PANEL,
    _RIGHT_X,
    _SHADOW_TEXT,
    _TOP_Y,
    _WHITE,
    HEIGHT,
    MIN_TEXT,
    PANEL_H,
    PANEL_W,
    WIDTH,
    _background,
    _caption,
    _paste,
    seat_slots,
)
from .png import encode
from .scene import Scene, SeatScene
from .seats import (
    _free_seat,
    _seat,
    _suit_disc,
)

__all__ = [
    "BAND_EDGES",
    "HEIGHT",
    "LAYER_MARGIN",
    "MIN_TEXT",
    "WIDTH",
    "Layer",
    "background",
    "layers",
    "pair_box",
    "panel_box",
    "render_image",
    "render_png",
]

# --------------------------------------------------------------------------- middle


def _count_disc(draw: ImageDraw.ImageDraw, cx: int, cy: int, count: int) -> None:
    """A count on a dark disc over a card's pattern, so it reads at a glance."""
    r = 27 if count < 100 else 33
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_PANEL, outline=_WHITE, width=2)
    draw_text(
        draw, (cx, cy), str(count), font(MIN_TEXT, bold=True), _WHITE, anchor="mm", badge=True
    )


#: Where the top card of the talon lies: the trump sticks out 50 px to its left, and the two
#: are centred in the column.
_TALON_X, _TALON_Y = _LEFT_X - (CARD_W + 50) // 2 + 50, _CENTRE_Y - CARD_H // 2


def _talon_stack(talon: int) -> int:
    """Cards drawn in the talon's stack: a thicker stack for a fuller talon (up to four
    edges showing)."""
    return min(4, 1 + (talon - 1) // 8) if talon > 0 else 0


def _count_box(cx: int, cy: int, count: int) -> tuple[int, int, int, int]:
    """Every pixel of :func:`_count_disc` (its outline is drawn up to ``r`` out, included)."""
    r = 27 if count < 100 else 33
    return (cx - r, cy - r, cx + r + 1, cy + r + 1)


def _count_place(pile: str, angle: int) -> tuple[Image.Image, tuple[int, int], tuple[int, int]]:
    """The top card of a pile (``pile``: talon or discard; ``angle``: the discard's top
    tilt), where its sprite lies, and the centre of the pile's count."""
    if pile == "talon":
        return back(), (_TALON_X - SHADOW, _TALON_Y - SHADOW), (_TALON_X + CARD_W // 2, _CENTRE_Y)
    sprite = rotated_back(angle)
    centre = (_RIGHT_X, _CENTRE_Y)
    return sprite, (centre[0] - sprite.width // 2, centre[1] - sprite.height // 2), centre


def _count_layer(
    img: Image.Image, draw: ImageDraw.ImageDraw, *, count: int, pile: str, angle: int
) -> None:
    """The talon's or the discard pile's count on its disc, over the pile's top card. That
    card's own pixels under the disc's box are pasted first, so the layer covers its whole
    box (:attr:`Layer.opaque`): the box is then the same whatever lies under it, and a count
    that changes draws only its disc."""
    sprite, (x, y), (cx, cy) = _count_place(pile, angle)
    box = _count_box(cx, cy, count)
    part = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
    img.paste(part, box[:2], part)
    _count_disc(draw, cx, cy, count)


def _talon(img: Image.Image, draw: ImageDraw.ImageDraw, *, scene: Scene) -> None:
    """The talon with the trump across under it; once the trump card is gone, a badge with
    the trump suit stays where the talon was (players still need to know it). Its count is
    a layer of its own (:func:`_count_layer`)."""
    tx, ty = _TALON_X, _TALON_Y
    if scene.trump_card is not None:
        _paste(img, sideways_face(scene.trump_card, scene.ranks), tx - 50, _CENTRE_Y - CARD_W // 2)
    if scene.talon > 0:
        for i in reversed(range(_talon_stack(scene.talon))):
            _paste(img, back(), tx - 2 * i, ty - 2 * i)
        _caption(draw, _LEFT_X, _CENTRE_Y + CARD_H // 2 + 14, scene.talon_label)
    if scene.trump_card is None:
        _trump_badge(draw, scene)


def _trump_badge(draw: ImageDraw.ImageDraw, scene: Scene) -> None:
    """No trump card shows: it was drawn, never turned up (trumpless, Japanese fool) or is
    not shown (invisible fool). The suit on a badge, and its name. In the talon's place once
    the talon is out; above the talon while it lasts. With a trump per seat (double-trump
    fool) the seats' panels carry the suits, so only the label stays."""
    own = any(seat.trump >= 0 for seat in scene.seats)
    if scene.talon == 0:
        cy, r, size = _CENTRE_Y - 30, 40, 52
        if not own:
            _suit_disc(draw, _LEFT_X, cy, r, scene.trump, font(size))
        _caption(draw, _LEFT_X, cy + r + 14 if not own else cy - 20, scene.trump_label)
        return
    # above the talon: the label (wrapped) over a small badge
    bottom = _caption(draw, _LEFT_X, _BAND_TOP + 4, scene.trump_label)
    if not own:
        r = 24
        _suit_disc(
            draw,
            _LEFT_X,
            max(bottom + r + 2, _CENTRE_Y - CARD_H // 2 - r - 12),
            r,
            scene.trump,
            font(MIN_TEXT),
        )


def _discard_pile(discard: int) -> tuple[int, ...]:
    """The tilts of the backs drawn on the discard pile, bottom to top."""
    return _DISCARD_ANGLES[: min(3, 1 + (discard - 1) // 6)] if discard > 0 else ()


def _discard(img: Image.Image, draw: ImageDraw.ImageDraw, *, scene: Scene) -> None:
    """The discard pile, its caption, and what lies out of play unseen. Its count is a
    layer of its own (:func:`_count_layer`)."""
    cx, cy = _RIGHT_X, _CENTRE_Y
    bottom = cy + CARD_H // 2 + 14
    if scene.discard > 0:
        for angle in _discard_pile(scene.discard):
            sprite = rotated_back(angle)
            x, y = cx - sprite.width // 2, cy - sprite.height // 2
            img.paste(sprite, (x, y), sprite)
        record(
            "card",
            (cx - CARD_W // 2 - 10, cy - CARD_H // 2, cx + CARD_W // 2 + 10, cy + CARD_H // 2),
        )
        bottom = _caption(draw, cx, bottom, scene.discard_label)
    if scene.aside_label:
        # Cards out of play that nobody saw and nobody will draw (Chukchi fool's talon, take
        # on trust's accepted face-down bouts): a count under the discard pile's.
        _caption(draw, cx, bottom, scene.aside_label, colour=_DIM)


#: Where a defence lies on its attack: shifted down-right so both ranks stay readable.
_DEFENCE_DX, _DEFENCE_DY = 28, 36
#: Rows between two rows of pairs.
_ROW_GAP = 10


@dataclass(frozen=True, slots=True)
class _Pair:
    """One attack with what lies on it, placed: everything its pixels depend on."""

    x: int
    y: int
    attack: int
    defence: int | None
    attack_trump: bool
    defence_trump: bool
    attack_last: bool
    defence_last: bool
    #: take on trust: the defence lies face down; ``judging``: it awaits the verdict.
    face_down: bool
    judging: bool
    #: the rank letters of the picture's language (В Д К Т in Russian)
    ranks: tuple[str, ...]


def _pair_places(scene: Scene) -> list[_Pair]:
    """Attack cards in rows of three, each defence over its attack; the last card(s) played
    get a gold outline."""
    pairs = scene.pairs
    if not pairs:
        return []
    dx, dy = _DEFENCE_DX, _DEFENCE_DY
    cols = 3 if len(pairs) <= 6 else math.ceil(len(pairs) / 2)
    rows = math.ceil(len(pairs) / cols)
    pair_w, pair_h = CARD_W + dx, CARD_H + dy
    gap, row_gap = 14, _ROW_GAP
    area = _PAIRS_RIGHT - _PAIRS_LEFT
    step_x = min(pair_w + gap, (area - pair_w) / (cols - 1)) if cols > 1 else 0
    step_y = pair_h + row_gap
    top = _CENTRE_Y - (rows * pair_h + (rows - 1) * row_gap) // 2
    trump = scene.pair_trump if scene.pair_trump >= 0 else scene.trump
    last = set(scene.last_played)
    places = []
    for row in range(rows):
        chunk = pairs[row * cols : (row + 1) * cols]
        width = pair_w + step_x * (len(chunk) - 1)
        left = 500 - width / 2
        for i, (attack, defence) in enumerate(chunk):
            index = row * cols + i
            places.append(
                _Pair(
                    x=round(left + i * step_x),
                    y=round(top + row * step_y),
                    attack=attack % 52,  # a twin (big fool): the same face
                    defence=None if defence is None else defence % 52,
                    attack_trump=attack % 52 // 13 == trump,
                    defence_trump=defence is not None and defence % 52 // 13 == trump,
                    attack_last=attack in last,
                    defence_last=defence is not None and defence in last,
                    face_down=index in scene.face_down,
                    judging=index in scene.face_down and index == scene.judging,
                    ranks=scene.ranks,
                )
            )
    return places


def _pair(img: Image.Image, draw: ImageDraw.ImageDraw, pair: _Pair) -> None:
    x, y, dx, dy = pair.x, pair.y, _DEFENCE_DX, _DEFENCE_DY
    _paste(img, face(pair.attack, pair.attack_trump, pair.ranks), x, y)
    if pair.attack_last:
        _outline(draw, x, y)
    if pair.face_down:  # take on trust: a defence face down
        _paste(img, back(), x + dx, y + dy)
        if pair.judging:
            _verdict_mark(draw, x + dx, y + dy)
    elif pair.defence is not None:
        _paste(img, face(pair.defence, pair.defence_trump, pair.ranks), x + dx, y + dy)
        if pair.defence_last:
            _outline(draw, x + dx, y + dy)


def _outline(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The mark of a card just played: a gold frame just outside the card."""
    draw.rounded_rectangle(
        (x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), 10, outline=_GOLD, width=4
    )


def _verdict_mark(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The face-down defence the attacker must now accept or challenge: a gold frame and a
    question mark on its back."""
    frame = (x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2)
    draw.rounded_rectangle(frame, 9, outline=_GOLD, width=3)
    cx, cy = x + CARD_W // 2, y + CARD_H // 2
    draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=_PANEL, outline=_GOLD, width=2)
    draw_text(draw, (cx, cy + 1), "?", font(_BIG, bold=True), _GOLD, anchor="mm", badge=True)


def _banner(draw: ImageDraw.ImageDraw, text: str) -> None:
    face_ = font(_BIG, bold=True)
    text = fit(text, face_, 380, bold=True)
    width = int(text_width(text, face_)) + 56
    box = (500 - width // 2, _CENTRE_Y - 34, 500 + width // 2, _CENTRE_Y + 34)
    draw.rounded_rectangle(box, 18, fill=(16, 24, 20), outline=_GOLD, width=3)
    draw_text(draw, (500, _CENTRE_Y), text, face_, _GOLD, anchor="mm")


def _lobby_middle(img: Image.Image, draw: ImageDraw.ImageDraw, *, scene: Scene) -> None:
    """The mode and deck, over a squared-up deck waiting to be dealt."""
    deck_top = _BAND_TOP + 20
    for i in reversed(range(4)):
        _paste(img, back(), 500 - CARD_W // 2 - 2 * i, deck_top - 2 * i)
    title_font = font(_BIG + 4, bold=True)
    title_y = deck_top + CARD_H + 48
    draw_text(
        draw,
        (500, title_y),
        fit(scene.title, title_font, 560, bold=True),
        title_font,
        _WHITE,
        anchor="mm",
        stroke=2,
        stroke_fill=_SHADOW_TEXT,
    )
    sub_font = font(MIN_TEXT)
    draw_text(
        draw, (500, title_y + 46), fit(scene.subtitle, sub_font, 600), sub_font, _LABEL, anchor="mm"
    )


# --------------------------------------------------------------------------- entry points


@dataclass(frozen=True, slots=True)
class Layer:
    """A part of the picture that can be drawn again on its own: the incremental painter
    (:mod:`.painter`) redraws only the layers whose ``key`` changed.

    ``key`` holds everything the layer's pixels depend on (two layers with equal keys draw
    equal pixels); ``box`` (left, top, right, bottom, exclusive) holds every pixel it may
    touch, which tests/pictures/test_painter.py checks for every layer of many states;
    ``paint`` draws it over whatever lies below."""

    key: tuple[object, ...]
    box: tuple[int, int, int, int]
    paint: Callable[[Image.Image, ImageDraw.ImageDraw], None] = field(compare=False)
    #: ``paint`` sets every pixel of ``box`` to what depends on ``key`` alone, whatever lay
    #: there (tests/pictures/test_painter.py checks it): the layers below do not show in it.
    opaque: bool = field(default=False, compare=False)


#: How far a seat's layer box reaches around its panel (the turn's frame).
LAYER_MARGIN = 5


def panel_box(centre: tuple[int, int]) -> tuple[int, int, int, int]:
    """The box of a seat's layer: its panel and the turn's frame around it."""
    return _panel_box(centre, LAYER_MARGIN)


def _panel_box(centre: tuple[int, int], margin: int) -> tuple[int, int, int, int]:
    x0, y0 = centre[0] - PANEL_W // 2, centre[1] - PANEL_H // 2
    return (x0 - margin, y0 - margin, x0 + PANEL_W + margin, y0 + PANEL_H + margin)


#: The columns of the middle band: talon (left), discard (right). Only a trump's caption
#: (talon left, no trump card showing) comes near the top of the band,
#: where the top panels' turn frames reach 4 px in; the other boxes start lower, so that a
#: top panel's box meets no other layer and can be kept and pasted as it is (:mod:`.painter`).
#: The columns end where the bottom panels' boxes begin (their turn frames reach 5 px
#: above the band) and stop short of the pairs' boxes, for the same reason: a box that holds
#: one layer alone is redrawn alone (a seat's panel is then pasted together from its parts,
#: :mod:`.panels`). Their texts are fitted to the column (:data:`_COLUMN_W` wide, a pixel
#: more on the talon's side for a glyph's overhang); the lowest over every preset's samples
#: (the cards out of play under the discard pile's caption, Chukchi fool) ends at row 546,
#: and tests/pictures/test_painter.py checks that every layer stays in its box.
_MIDDLE_TOP, _MIDDLE_BOTTOM = _BAND_TOP, _BAND_BOTTOM
_COLUMNS_TOP = _BAND_TOP + 40
_COLUMNS_BOTTOM = _BAND_BOTTOM - 5
_TALON_RIGHT = _LEFT_X + _COLUMN_W // 2 + 1
_DISCARD_LEFT = _RIGHT_X - _COLUMN_W // 2
_TALON_BOX = (16, _COLUMNS_TOP, _TALON_RIGHT, _COLUMNS_BOTTOM)
_TALON_CAPTION_BOX = (16, _MIDDLE_TOP, _TALON_RIGHT, _COLUMNS_BOTTOM)
_DISCARD_BOX = (_DISCARD_LEFT, _COLUMNS_TOP, 984, _COLUMNS_BOTTOM)
#: Around a pair's cards: the shadow (5 px left, 6 right and down, under the sprite's
#: margin) and the gold outline of a card just played (4 px out, the most above); measured,
#: and checked for every layer by tests/pictures/test_painter.py. Neighbouring pairs' boxes
#: then touch without overlapping (in a row and between the two rows), and the first and
#: last column's stop short of the talon's and the discard pile's.
_PAIR_LEFT, _PAIR_TOP, _PAIR_RIGHT, _PAIR_BOTTOM = 5, 4, 6, 6

_BANNER_BOX = (264, _CENTRE_Y - 40, 736, _CENTRE_Y + 40)
_LOBBY_BOX = (160, _MIDDLE_TOP, 840, _MIDDLE_BOTTOM)


def pair_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The box of a pair's layer whose attack card lies at (``x``, ``y``)."""
    return (
        x - _PAIR_LEFT,
        y - _PAIR_TOP,
        x + _DEFENCE_DX + CARD_W + _PAIR_RIGHT,
        y + _DEFENCE_DY + CARD_H + _PAIR_BOTTOM,
    )


def _band_edges() -> tuple[int, ...]:
    """Rows where the table picture's PNG bands are cut (:mod:`.png`): where the boxes that
    change begin and end, so that a move deflates again only the bands of what it changed.
    The panels' rows (top and bottom, with their turn frames) are bands of their own, and the
    middle is cut where a row of pairs begins and ends: one row of pairs (up to six) covers
    the middle two of its four bands exactly, and each of two rows about two of them. The
    margins above and below the panels never change."""
    pair_h = CARD_H + _DEFENCE_DY
    one_row = pair_box(0, _CENTRE_Y - pair_h // 2)
    two_rows = pair_box(0, _CENTRE_Y - (2 * pair_h + _ROW_GAP) // 2)
    top_panels, bottom_panels = panel_box((0, _TOP_Y)), panel_box((0, _BOTTOM_Y))
    edges = {
        top_panels[1],
        top_panels[3],
        one_row[1],
        two_rows[3],
        one_row[3],
        bottom_panels[1],
        bottom_panels[3],
    }
    return tuple(sorted(edges))


#: Rows where the table picture's PNG bands are cut (:func:`_band_edges`).
BAND_EDGES = _band_edges()


def layers(scene: Scene) -> list[Layer]:
    """The picture as layers, bottom to top, over :func:`background`."""
    out: list[Layer] = []
    total = len(scene.seats) + scene.free_seats
    slots = seat_slots(max(total, 1))
    for seat, centre in zip(scene.seats, slots, strict=False):
        out.append(
            Layer(
                ("seat", centre, seat),
                panel_box(centre),
                partial(_seat_layer, centre=centre, seat=seat),
            )
        )
    for centre in slots[len(scene.seats) : total]:
        out.append(
            Layer(
                ("free", centre, scene.free_label),
                _panel_box(centre, 2),
                partial(_free_layer, centre=centre, label=scene.free_label),
            )
        )
    if scene.kind == "lobby":
        out.append(
            Layer(
                ("lobby", scene.title, scene.subtitle),
                _LOBBY_BOX,
                partial(_lobby_middle, scene=scene),
            )
        )
    else:
        own = any(seat.trump >= 0 for seat in scene.seats)
        stack = _talon_stack(scene.talon)
        talon = (scene.trump_card, stack, scene.talon_label, scene.trump, scene.ranks)
        out.append(
            Layer(
                ("talon", *talon, scene.trump_label, own),
                _TALON_CAPTION_BOX if scene.trump_card is None and stack else _TALON_BOX,
                partial(_talon, scene=scene),
            )
        )
        if stack:
            out.append(_count(scene.talon, "talon", 0))
        pile = _discard_pile(scene.discard)
        out.append(
            Layer(
                ("discard", len(pile), scene.discard_label, scene.aside_label),
                _DISCARD_BOX,
                partial(_discard, scene=scene),
            )
        )
        if pile:
            out.append(_count(scene.discard, "discard", pile[-1]))
        for pair in _pair_places(scene):
            out.append(Layer(("pair", pair), pair_box(pair.x, pair.y), partial(_pair, pair=pair)))
    if scene.banner:
        out.append(
            Layer(("banner", scene.banner), _BANNER_BOX, partial(_banner_layer, text=scene.banner))
        )
    return out


def _count(count: int, pile: str, angle: int) -> Layer:
    """The layer of a pile's count (:func:`_count_layer`)."""
    _, _, (cx, cy) = _count_place(pile, angle)
    return Layer(
        ("count", pile, angle, count),
        _count_box(cx, cy, count),
        partial(_count_layer, count=count, pile=pile, angle=angle),
        opaque=True,
    )


def _seat_layer(
    img: Image.Image, draw: ImageDraw.ImageDraw, *, centre: tuple[int, int], seat: SeatScene
) -> None:
    _seat(img, draw, centre, seat)


def _free_layer(
    img: Image.Image, draw: ImageDraw.ImageDraw, *, centre: tuple[int, int], label: str
) -> None:
    _free_seat(draw, centre, label)


def _banner_layer(img: Image.Image, draw: ImageDraw.ImageDraw, *, text: str) -> None:
    _banner(draw, text)


def background() -> Image.Image:
    """The empty table every picture starts from (shared: copy before drawing on it)."""
    return _background()


def render_image(scene: Scene) -> Image.Image:
    """The picture as a Pillow image, drawn whole (tests compare these, and the painter's
    incremental pictures are checked against them)."""
    img = _background().copy()
    draw = ImageDraw.Draw(img)
    for layer in layers(scene):
        layer.paint(img, draw)
    return img


def render_png(scene: Scene) -> bytes:
    """PNG bytes of the scene drawn whole: the fixed palette, deflated in bands (:mod:`.png`;
    the same state gives the same image data, and the painter's incremental pictures hold
    this same image data)."""
    return encode(render_image(scene), BAND_EDGES)
