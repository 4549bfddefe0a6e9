"""A seat's panel put together from kept palette tiles instead of drawn.

The seat panels are most of what changes from one picture of a game to the next (the turn's
frame, a role, a count of cards), and a panel drawn again costs rounded rectangles, three
texts and a fan of card backs, then mapping its 46,000 pixels onto the palette. A panel is
four parts that do not overlap: the frame (the panel, the turn's frame, a partner's team, a
seat's own trump) and, each on the frame's flat fill, the name, the role and the hand row
(:func:`.table._seat`). Each part is drawn once (the frame on the empty table, the others on
their fill), mapped onto the palette once and kept; a panel is then its frame's palette
indices with the other parts' indices pasted in. Mapping onto the fixed palette goes pixel by
pixel (:mod:`.palette`), so that gives the indices of the panel drawn whole, as long as each
part lies on flat fill and no two parts overlap: :func:`panel` checks both and answers None
otherwise, and the painter then draws the panel. tests/pictures/test_painter.py compares the
painter's pictures, byte for byte, with pictures drawn whole.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from .palette import to_palette
from .scene import SeatScene
from .table import (
    PANEL_H,
    PANEL_W,
    _name_colour,
    _panel_fill,
    _seat_frame,
    _seat_hand,
    _seat_name,
    _seat_role,
    background,
    panel_box,
)

__all__ = ["panel"]

_Box = tuple[int, int, int, int]
#: A colour no part of a panel is drawn in: drawn on it, a part shows every pixel it touches.
_UNUSED = (255, 0, 255)
#: Frames kept: six places, three fills, with and without the turn, and a few teams and trumps.
_FRAMES = 256
#: Parts kept (names, roles and hand rows of the tables being played), a few KB each.
_PARTS = 4096


@lru_cache(maxsize=_FRAMES)
def _frame(centre: tuple[int, int], seat: SeatScene) -> tuple[Image.Image, Image.Image, int]:
    """The frame of a seat's panel on the empty table (RGB and palette, the panel's box) and
    the room it leaves for the name. ``seat`` carries only what the frame shows."""
    canvas = background().copy()
    room = _seat_frame(ImageDraw.Draw(canvas), centre, seat)
    rgb = canvas.crop(panel_box(centre))
    return rgb, to_palette(rgb), room


@lru_cache(maxsize=_PARTS)
def _part(
    centre: tuple[int, int], fill: tuple[int, int, int], part: tuple[object, ...]
) -> tuple[_Box, Image.Image] | None:
    """One part of a panel (``part``: its kind and what it shows) drawn on the flat ``fill``:
    the box of every pixel it touches (in the picture's coordinates) and those pixels in
    palette indices; None if it draws nothing."""
    box = panel_box(centre)
    # the canvas's corner: the box's, made even, so that a position rounded half to even
    # (the fan's cards) comes out where it does on the picture
    left, top = box[0] & ~1, box[1] & ~1
    size = (box[2] - left, box[3] - top)
    touched = _draw(centre, _UNUSED, part, left, top, size)
    bbox = ImageChops.difference(touched, Image.new("RGB", size, _UNUSED)).getbbox()
    if bbox is None:
        return None
    rect = (left + bbox[0], top + bbox[1], left + bbox[2], top + bbox[3])
    return rect, to_palette(_draw(centre, fill, part, left, top, size).crop(bbox))


def _draw(
    centre: tuple[int, int],
    ground: tuple[int, int, int],
    part: tuple[object, ...],
    left: int,
    top: int,
    size: tuple[int, int],
) -> Image.Image:
    """``part`` drawn as on the picture, on a canvas of the flat colour ``ground`` whose
    corner is the picture's point (``left``, ``top``)."""
    x0, y0 = centre[0] - PANEL_W // 2 - left, centre[1] - PANEL_H // 2 - top
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


@lru_cache(maxsize=_PARTS)
def _flat(frame: tuple[tuple[int, int], SeatScene], rect: _Box, fill: tuple[int, int, int]) -> bool:
    """Whether the frame is the flat ``fill`` all over ``rect``."""
    rgb = _frame(*frame)[0]
    box = panel_box(frame[0])
    inner = rgb.crop((rect[0] - box[0], rect[1] - box[1], rect[2] - box[0], rect[3] - box[1]))
    return inner.getextrema() == tuple((c, c) for c in fill)


def panel(centre: tuple[int, int], seat: SeatScene) -> Image.Image | None:
    """The palette indices of the seat's panel (its layer's box, :func:`.table.panel_box`),
    put together from kept parts; None where the parts would not give the panel drawn whole
    (a part off the flat fill, or two parts overlapping)."""
    shape = replace(seat, name="", role="", cards=0, closed=0, score="", tone=_fill_tone(seat))
    _, indexed, room = _frame(centre, shape)
    fill = _panel_fill(seat.tone)
    parts = [
        _part(centre, fill, ("name", seat.name, _name_colour(seat), room)),
        _part(centre, fill, ("role", seat.role, seat.tone)),
        _part(centre, fill, ("hand", seat.cards, seat.closed, seat.score)),
    ]
    placed = [p for p in parts if p is not None]
    for i, (rect, _) in enumerate(placed):
        if not _flat((centre, shape), rect, fill):
            return None
        if any(_meets(rect, other) for other, _ in placed[:i]):
            return None
    out = indexed.copy()
    box = panel_box(centre)
    for rect, tile in placed:
        left, top = rect[0] - box[0], rect[1] - box[1]
        out.im.paste(tile.im, (left, top, left + tile.width, top + tile.height))
    return out


def _fill_tone(seat: SeatScene) -> str:
    """The tone as far as the frame shows it (its fill): out, fool, or any other."""
    return seat.tone if seat.tone in ("out", "fool") else ""


def _meets(a: _Box, b: _Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
