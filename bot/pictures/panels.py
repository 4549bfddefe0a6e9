"""A seat's panel put together from kept palette tiles instead of drawn.

The seat panels are most of what changes from one picture of a game to the next (the turn's
frame, a role, a count of cards), and a panel drawn again costs rounded rectangles, three
texts and a fan of card backs, then mapping its 46,000 pixels onto the palette. A panel is
four parts that do not overlap: the frame (the panel, the turn's frame, a partner's team, a
seat's own trump) and, each on the frame's flat fill, the name, the role and the hand row
(:func:`.seats._seat`). Each part is drawn once (the frame on the empty table, the others on
their fill), mapped onto the palette once and kept; a panel is then its frame's palette
indices with the other parts' indices pasted in. Mapping onto the fixed palette goes pixel by
pixel (:mod:`.palette`), so that gives the indices of the panel drawn whole, as long as each
part lies on flat fill and no two parts overlap: :func:`panel` checks both and answers None
otherwise, and the painter then draws the panel. A pair of cards alone in its box is kept
the same way, by the cards and marks it shows and not by where it lies (:func:`lone_pair`).
tests/pictures/test_painter.py compares the painter's pictures (every chunk and the image
data) with pictures drawn whole.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from .look import PANEL_H, PANEL_W
from .palette import to_palette
from .scene import SeatScene
from .seats import _name_colour, _panel_fill, _seat_frame, _seat_hand, _seat_name, _seat_role
from .table import (
    LAYER_MARGIN,
    _Pair,
    _pair,
    background,
    pair_box,
    panel_box,
)

__all__ = ["lone_pair", "panel"]

_Box = tuple[int, int, int, int]
#: A colour no part of a panel is drawn in: drawn on it, a part shows the pixels it touches.
_UNUSED = (255, 0, 255)
#: Frames kept (ten places a panel can have, three fills, with and without the turn, a few
#: teams and trumps), about 95 KB each: 6 MB at most.
_FRAMES = 64
#: Parts kept (the names, roles and hand rows of the tables being played; a part does not
#: depend on where its panel is), 10-15 KB each: 12 MB at most.
_PARTS = 1024
#: Where a part is drawn on its canvas: the panel's corner this far in, plus the picture's
#: parity (a position rounded half to even, the fan's cards, rounds as on the picture).
_MARGIN = 6


_FrameKey = tuple[tuple[int, int], str, bool, int, int]


@lru_cache(maxsize=_FRAMES)
def _frame(frame: _FrameKey) -> tuple[Image.Image, Image.Image, int]:
    """The frame of a seat's panel on the empty table, over its layer's box: its palette
    indices, where it is not the flat fill of the panel (non-zero), and the room it leaves
    for the name. ``frame``: the panel's centre and what the frame shows (the tone as far
    as the fill goes, the turn, the team, the seat's own trump)."""
    centre, tone, turn, team, trump = frame
    seat = SeatScene(name="", role="", tone=tone, turn=turn, team=team, trump=trump)
    canvas = background().copy()
    room = _seat_frame(ImageDraw.Draw(canvas), centre, seat)
    rgb = canvas.crop(panel_box(centre))
    flat = Image.new("RGB", rgb.size, _panel_fill(tone))
    off_fill = ImageChops.difference(rgb, flat).convert("L")
    return to_palette(rgb), off_fill, room


@lru_cache(maxsize=_PARTS)
def _fits(frame: _FrameKey, rects: tuple[_Box, ...]) -> bool:
    """Whether parts at ``rects`` (from the corner of the layer box) lie inside the box, on
    the frame's flat fill, and apart: then pasting them gives the panel drawn whole."""
    off_fill = _frame(frame)[1]
    width, height = off_fill.size
    for i, rect in enumerate(rects):
        if rect[0] < 0 or rect[1] < 0 or rect[2] > width or rect[3] > height:
            return False
        if off_fill.crop(rect).getbbox() is not None:
            return False
        if any(_meets(rect, other) for other in rects[:i]):
            return False
    return True


@lru_cache(maxsize=_PARTS)
def _part(
    odd: tuple[int, int], fill: tuple[int, int, int], part: tuple[object, ...]
) -> tuple[_Box, Image.Image] | None:
    """One part of a panel (``part``: its kind and what it shows) drawn on the flat ``fill``:
    the box of every pixel it touches (from the corner of the panel's layer box) and those
    pixels in palette indices; None if it draws nothing. ``odd``: the parity of the panel's
    corner on the picture."""
    x0, y0 = _MARGIN + odd[0], _MARGIN + odd[1]
    size = (PANEL_W + 2 * _MARGIN + 2, PANEL_H + 2 * _MARGIN + 2)
    # every pixel the part changes on its fill, and on a colour it never uses (a faint
    # antialiased pixel may round to no change on one of them)
    drawn = _draw(x0, y0, fill, part, size)
    boxes = [
        ImageChops.difference(canvas, Image.new("RGB", size, ground)).getbbox()
        for canvas, ground in ((drawn, fill), (_draw(x0, y0, _UNUSED, part, size), _UNUSED))
    ]
    found = [b for b in boxes if b is not None]
    if not found:
        return None
    bbox = (
        min(b[0] for b in found),
        min(b[1] for b in found),
        max(b[2] for b in found),
        max(b[3] for b in found),
    )
    corner_x, corner_y = x0 - LAYER_MARGIN, y0 - LAYER_MARGIN
    rect = (bbox[0] - corner_x, bbox[1] - corner_y, bbox[2] - corner_x, bbox[3] - corner_y)
    return rect, to_palette(drawn.crop(bbox))


def _draw(
    x0: int, y0: int, ground: tuple[int, int, int], part: tuple[object, ...], size: tuple[int, int]
) -> Image.Image:
    """``part`` of a panel whose corner is at (``x0``, ``y0``), on a canvas of the flat colour
    ``ground``."""
    canvas = Image.new("RGB", size, ground)
    draw = ImageDraw.Draw(canvas)
    kind, *args = part
    if kind == "name":
        name, colour, room = args
        _seat_name(draw, x0, y0, name, colour, room)  # type: ignore[arg-type]
    elif kind == "role":
        role, tone = args
        _seat_role(draw, x0, y0, role, tone)  # type: ignore[arg-type]
    else:
        cards, closed, score = args
        _seat_hand(canvas, draw, x0, y0, cards, closed, score)  # type: ignore[arg-type]
    return canvas


def panel(centre: tuple[int, int], seat: SeatScene) -> Image.Image | None:
    """The palette indices of the seat's panel (its layer's box, :func:`.table.panel_box`),
    put together from kept parts; None where the parts would not give the panel drawn whole
    (a part off the flat fill or out of the box, or two parts overlapping)."""
    frame = (centre, _fill_tone(seat), seat.turn, seat.team, seat.trump)
    indexed, _, room = _frame(frame)
    fill = _panel_fill(seat.tone)
    x0, y0 = centre[0] - PANEL_W // 2, centre[1] - PANEL_H // 2
    odd = (x0 & 1, y0 & 1)
    parts = [
        _part(odd, fill, ("name", seat.name, _name_colour(seat), room)),
        _part(odd, fill, ("role", seat.role, seat.tone)),
        _part(odd, fill, ("hand", seat.cards, seat.closed, seat.score)),
    ]
    placed = [p for p in parts if p is not None]
    if not _fits(frame, tuple(rect for rect, _ in placed)):
        return None
    out = indexed.copy()
    for rect, tile in placed:
        out.im.paste(tile.im, rect)
    return out


#: Pairs kept (an attack and what lies on it, wherever it lies), about 25 KB each: 13 MB.
_PAIRS = 512


def lone_pair(pair: _Pair) -> Image.Image | None:
    """The palette indices of a pair's layer box (:func:`.table.pair_box`) when the pair lies
    there alone, on flat felt: kept by what the pair shows, not where (the pairs of a row
    move sideways when a card joins them, and the same cards lie on many tables); None
    where the empty table is not flat felt under the box."""
    box = pair_box(pair.x, pair.y)
    felt = _flat_felt(box)
    if felt is None:
        return None
    odd = (pair.x & 1, pair.y & 1)
    return _pair_tile(replace(pair, x=_MARGIN + odd[0], y=_MARGIN + odd[1]), felt)


@lru_cache(maxsize=64)
def _flat_felt(box: _Box) -> tuple[int, int, int] | None:
    """The colour of the empty table under ``box`` if it is one flat colour there."""
    extrema = background().crop(box).getextrema()
    if any(low != high for low, high in extrema):  # type: ignore[misc]
        return None
    return tuple(low for low, _ in extrema)  # type: ignore[return-value,misc]


@lru_cache(maxsize=_PAIRS)
def _pair_tile(pair: _Pair, felt: tuple[int, int, int]) -> Image.Image:
    """``pair`` (placed near the corner of a canvas, at the picture's parity) drawn on flat
    ``felt``: its layer box in palette indices."""
    box = pair_box(pair.x, pair.y)
    canvas = Image.new("RGB", (box[2] + 2, box[3] + 2), felt)
    _pair(canvas, ImageDraw.Draw(canvas), pair)
    return to_palette(canvas.crop(box))


def _fill_tone(seat: SeatScene) -> str:
    """The tone as far as the frame shows it (its fill): out, fool, or any other."""
    return seat.tone if seat.tone in ("out", "fool") else ""


def _meets(a: _Box, b: _Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
