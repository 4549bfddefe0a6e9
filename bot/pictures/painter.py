"""Table pictures that cost little: redraw only what changed, encode only the rows that changed.

A move changes a small part of the table: a card in the middle, a count and a role or two on
the seats' panels. :func:`.table.layers` cuts the picture into layers (a panel per seat, the
talon, the discard pile, each attack with its defence, the timer, the banner) with a key for
what each one shows and a box for the pixels it may touch. The painter remembers, per game,
the layers of the last picture and the picture itself (a game's first picture starts from the
empty table, whose PNG all games share), and for a new scene:

1. compares the layers' keys; an identical picture is not drawn at all (the last bytes are
   returned), otherwise the boxes of the layers that appeared or went away are *dirty*;
2. draws each dirty box from the empty table up, with every layer that reaches into it, in a
   scratch image, and maps just that box onto the fixed palette (:mod:`.palette`). A box is
   a pure function of those layers' keys, so drawn boxes are kept (shared by all games, up
   to :data:`PATCH_PIXELS`) and a panel back in a state it was in before is pasted as it is.
   A box that holds one seat's panel or one pair alone is not drawn but pasted together
   from palette tiles kept for its parts (:mod:`.panels`), and an emptied box is the empty
   table's indices;
3. rewrites only the PNG rows those boxes cross. The image data is deflated in bands (cut
   where the boxes that change begin and end, :data:`.table.BAND_EDGES`), each band on its
   own (a fresh compressor, flushed to a byte boundary: no band refers back into another),
   so a band whose rows did not change keeps its compressed bytes, and the checksum of the
   whole is put together from the bands' own (:mod:`.png`). A band a move crosses is the
   empty table's rows with the new boxes pasted in, and the kept boxes of every other layer
   in it (:meth:`Painter._kept_around`); only if one of those is not kept any more are the
   last picture's rows inflated instead. It is then deflated again.

Memory per game is the last PNG (which the picture cache holds anyway) and a few short lists,
not its pixels. A picture drawn this way is the same PNG as one drawn whole
(:func:`.table.render_png`): the same chunks and the same image data, deflated in the same
bytes but for ISA-L's occasional variation (:mod:`.png`), which tests/pictures/test_painter.py
checks for every state of random games of several presets.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageDraw

from .palette import to_palette
from .panels import lone_pair, panel
from .png import Encoded, assemble, deflate, encode_indexed, with_filter_bytes, within_limit
from .scene import Scene
from .table import BAND_EDGES, HEIGHT, WIDTH, Layer, background, layers, render_image

__all__ = ["GAMES_KEPT", "PATCH_PIXELS", "Costs", "Painter"]

#: Above this share of the picture dirty, drawing it whole is cheaper than box by box.
_WHOLE_SHARE = 0.6
#: Games whose last picture the painter remembers (least recently drawn forgotten first);
#: about 50 KB each (the PNG and the layers' keys), so 100 MB at most. Tables edited in turn
#: are a cycle, which a least-recently-used list serves not at all once it is shorter: past
#: this many tables edited at once, every picture is drawn whole (several times the cost).
#: A finished game is forgotten at its last picture, so only running tables count.
GAMES_KEPT = 2048
#: Pixels (bytes: one palette index each) of drawn boxes kept for reuse, shared by all games:
#: a seat's panel in a state it was in before (the same role, count and turn) is pasted,
#: not drawn, and a band a move crosses is put together from the kept boxes of what did not
#: change instead of inflated (:meth:`Painter._kept_around`). Tables edited in turn are a
#: cycle, which a least-recently-used store serves not at all once it is too short: what
#: counts is holding every running table's current boxes (the talon's and the discard
#: pile's, ~100,000 pixels each, most of all). 100 two-seat tables drawn in turn
#: (bench/picture_game.py --seats 2 --at-once 100) need between 8 and 16 M: at 8 M a
#: seventh of the bands a move crosses were inflated (2,216 of 15,843) and a picture cost
#: 2.1 ms, at 16 M 100 bands and 1.4 ms (bench/bot_load.py's hundred games, a name each,
#: churn more panels through the store: a sixth of their bands still inflated). 16 MB; the
#: panels' parts and pairs in :mod:`.panels` keep about 30 MB more.
PATCH_PIXELS = 16_000_000

_Box = tuple[int, int, int, int]
_PatchKey = tuple[_Box, tuple[tuple[tuple[object, ...], _Box], ...]]
_STRIDE = WIDTH + 1  # each PNG row: the filter byte (0, none) and the row's palette indices


@dataclass
class Costs:
    """CPU seconds the painter's thread spent, by stage (for bench/render.py)."""

    draw: float = 0.0
    convert: float = 0.0
    encode: float = 0.0
    #: Pictures drawn whole, drawn in part, and not drawn at all (nothing visible changed).
    whole: int = 0
    partial: int = 0
    unchanged: int = 0
    #: Boxes put together from kept parts rather than drawn: seat panels and pairs alone in
    #: their boxes (:mod:`.panels`), and boxes left empty.
    assembled: int = 0
    #: Bands deflated again for a picture drawn in part: put together from the empty table's
    #: rows and kept boxes, or the last picture's rows inflated (a box around them not kept).
    rebuilt: int = 0
    inflated: int = 0

    @property
    def total(self) -> float:
        return self.draw + self.convert + self.encode


_Placed = tuple[tuple[object, ...], _Box]  # a layer's key and box


@dataclass(slots=True)
class _Game:
    """A game's last picture: its layers' keys and boxes (not the layers, which hold the
    scene), in order and as a set, and its PNG."""

    placed: tuple[_Placed, ...]
    keys: frozenset[_Placed]
    encoded: Encoded


@dataclass
class Painter:
    """Per-game incremental table pictures; one instance per drawing thread (its scratch
    image is shared by the games it draws)."""

    games_kept: int = GAMES_KEPT
    patch_pixels: int = PATCH_PIXELS
    costs: Costs = field(default_factory=Costs)
    _games: OrderedDict[int, _Game] = field(default_factory=OrderedDict)
    _patches: OrderedDict[_PatchKey, Image.Image] = field(default_factory=OrderedDict)
    _patch_pixels: int = 0
    _scratch: Image.Image | None = None
    _draw: ImageDraw.ImageDraw | None = None

    def png(self, scene: Scene) -> bytes:
        """The picture of ``scene``, drawn from the game's last one where that is cheaper."""
        clock = time.thread_time
        start = clock()
        new_layers = layers(scene)
        placed = tuple([(layer.key, layer.box) for layer in new_layers])
        keys = frozenset(placed)
        old = self._games.get(scene.game_id)
        if old is not None:
            self._games.move_to_end(scene.game_id)
        else:
            # A game's first picture (or one forgotten): drawn from the empty table, which
            # all games share, so its boxes come from the parts and patches kept across games.
            old = _blank()
        if old.keys == keys and old.placed == placed:
            self.costs.unchanged += 1
            self.costs.draw += clock() - start
            return old.encoded.png
        old_keys = old.keys
        changed = {_clip(x[1]) for x in old.placed if x not in keys}
        changed.update(_clip(x[1]) for x in placed if x not in old_keys)
        boxes = sorted(box for box in changed if box[0] < box[2] and box[1] < box[3])
        order_kept = [x for x in old.placed if x in keys] == [x for x in placed if x in old_keys]
        under, overlays = _overlays(new_layers)
        work = [(box, self._patch_key(box, under, overlays)) for box in boxes]
        missing = sum(
            (box[2] - box[0]) * (box[3] - box[1])
            for box, key in work
            if key not in self._patches and not _from_parts(box, key)
        )
        if order_kept and missing < _WHOLE_SHARE * WIDTH * HEIGHT:
            encoded = self._partial(under, overlays, work, old.encoded, start)
            self._remember(scene.game_id, placed, keys, encoded, bool(scene.banner))
            return encoded.png
        rgb = render_image(scene)
        drawn = clock()
        indexed = to_palette(rgb)
        converted = clock()
        encoded = encode_indexed(indexed, BAND_EDGES)
        self.costs.draw += drawn - start
        self.costs.convert += converted - drawn
        self.costs.encode += clock() - converted
        self.costs.whole += 1
        self._remember(scene.game_id, placed, keys, encoded, bool(scene.banner))
        return encoded.png

    @staticmethod
    def _patch_key(box: _Box, under: list[Layer], overlays: list[Layer]) -> _PatchKey:
        """What the pixels of ``box`` depend on: the box and the layers drawn in it
        (:func:`_showing`)."""
        return box, tuple((x.key, x.box) for x in _showing(box, under, overlays))

    def _remember(
        self,
        game_id: int,
        placed: tuple[_Placed, ...],
        keys: frozenset[_Placed],
        encoded: Encoded,
        over: bool = False,
    ) -> None:
        if over:  # the game is over (its banner is up): this picture will not change
            self._games.pop(game_id, None)
            return
        self._games[game_id] = _Game(placed, keys, encoded)
        self._games.move_to_end(game_id)
        while len(self._games) > self.games_kept:
            self._games.popitem(last=False)

    def _keep_patch(self, key: _PatchKey, patch: Image.Image) -> None:
        self._patches[key] = patch
        self._patch_pixels += patch.width * patch.height
        while self._patch_pixels > self.patch_pixels and self._patches:
            _, dropped = self._patches.popitem(last=False)
            self._patch_pixels -= dropped.width * dropped.height

    def _kept_around(
        self,
        top: int,
        bottom: int,
        around: list[_Box],
        under: list[Layer],
        found: dict[_Box, Image.Image | None],
    ) -> list[tuple[_Box, Image.Image]] | None:
        """The kept boxes (:attr:`_patches`) of the layers ``around`` (boxes of the picture's
        layers that lie in no box drawn or pasted for it) between rows ``top`` and
        ``bottom``, or None if one is not kept; ``found`` remembers them for the picture's
        other bands.

        Every pixel of a picture lies in a layer's box or is the empty table's, and a kept
        box holds the picture's own pixels (every layer reaching into it was drawn there), so
        a band is then the empty table's rows with these and the dirty boxes pasted in: the
        last picture's band need not be inflated (that took longer than deflating it)."""
        kept: list[tuple[_Box, Image.Image]] = []
        for box in around:
            if box[1] >= bottom or box[3] <= top:
                continue
            if box in found:
                patch = found[box]
            else:
                key = self._patch_key(box, under, [])
                patch = found[box] = self._patches.get(key)
                if patch is not None:
                    self._patches.move_to_end(key)
            if patch is None:
                return None
            kept.append((box, patch))
        return kept

    def _partial(
        self,
        under: list[Layer],
        overlays: list[Layer],
        work: list[tuple[_Box, _PatchKey]],
        old: Encoded,
        start: float,
    ) -> Encoded:
        clock = time.thread_time
        if self._scratch is None or self._draw is None:
            self._scratch = Image.new("RGB", (WIDTH, HEIGHT))
            self._draw = ImageDraw.Draw(self._scratch)  # made once: it costs a box's pastes
        scratch, draw = self._scratch, self._draw
        empty = background()
        patches: list[tuple[_Box, Image.Image]] = []
        convert = 0.0
        for box, key in work:
            patch = self._patches.get(key)
            if patch is not None:
                self._patches.move_to_end(key)
            else:
                patch = _assembled(box, key)
                if patch is not None:
                    self.costs.assembled += 1
                else:
                    scratch.paste(empty.crop(box), box[:2])
                    for layer in _showing(box, under, overlays):
                        layer.paint(scratch, draw)
                    mark = clock()
                    patch = to_palette(scratch.crop(box))
                    convert += clock() - mark
                self._keep_patch(key, patch)
            patches.append((box, patch))
        drawn = clock()
        view = memoryview(old.png)
        segments: list[bytes | memoryview] = [view[a:b] for a, b in old.spans]
        adlers = list(old.adlers)
        raws: dict[int, bytes | bytearray] = {}
        dirty = [box for box, _ in work]
        on_top = []
        for layer in overlays:  # pasted last wherever a band is made again
            box = _clip(layer.box)
            key = self._patch_key(box, under, overlays)
            patch = self._patches.get(key)
            if patch is None:
                scratch.paste(empty.crop(box), box[:2])
                layer.paint(scratch, draw)
                patch = to_palette(scratch.crop(box))
                self._keep_patch(key, patch)
            else:
                self._patches.move_to_end(key)
            on_top.append((box, patch))
        around = []
        for layer in under:
            box = _clip(layer.box)
            if box[0] < box[2] and box[1] < box[3] and not any(_inside(box, d) for d in dirty):
                around.append(box)
        found: dict[_Box, Image.Image | None] = {}
        for index, (top, bottom) in enumerate(old.rows):
            crossing = [(box, patch) for box, patch in patches if box[1] < bottom and box[3] > top]
            if not crossing:
                if old.dense:  # a dense picture's bands: back to ISA-L
                    raws[index] = old.raw(index)
                    segments[index] = deflate(raws[index])
                continue
            crossing += [(box, patch) for box, patch in on_top if box[1] < bottom and box[3] > top]
            kept = self._kept_around(top, bottom, around, under, found)
            if kept is None:
                self.costs.inflated += 1
                raws[index] = _pasted(bytearray(old.raw(index)), top, bottom, crossing)
            else:
                self.costs.rebuilt += 1
                rows = bytearray(memoryview(_empty_rows())[top * _STRIDE : bottom * _STRIDE])
                raws[index] = _pasted(rows, top, bottom, kept + crossing)
            segments[index] = deflate(raws[index])
            adlers[index] = isal_zlib.adler32(raws[index])
        light = assemble(WIDTH, HEIGHT, segments, adlers, old.rows)
        encoded = within_limit(light, lambda i: raws[i] if i in raws else light.raw(i))
        self.costs.draw += drawn - start - convert
        self.costs.convert += convert
        self.costs.encode += clock() - drawn
        self.costs.partial += 1
        return encoded


def _pasted(
    rows: bytearray, top: int, bottom: int, patches: list[tuple[_Box, Image.Image]]
) -> bytearray:
    """``rows``, the PNG rows ``top`` to ``bottom`` (each a filter byte, then the pixels),
    with the parts of ``patches`` that lie in them pasted in.

    Pillow's core pastes straight into the bytearray, mapped as an image without a copy
    (``Image.frombuffer``): no ``frombytes``/``tobytes`` copies of the band. Where Pillow
    copies on mapping (:data:`_MAPPED` false, checked once), the copies are made."""
    size = (_STRIDE, bottom - top)
    if not _MAPPED:
        band = Image.frombytes("P", size, bytes(rows))
        for box, patch in patches:
            band.paste(patch, (box[0] + 1, box[1] - top))
        return bytearray(band.tobytes())
    band = _map(rows, size)
    for box, patch in patches:
        band.paste(patch.im, (box[0] + 1, box[1] - top, box[2] + 1, box[3] - top))
    return rows


def _map(data: bytearray, size: tuple[int, int]) -> Any:
    """Pillow's core image over ``data`` (one byte a pixel), not copied: a grey image, which
    pastes palette indices as they are and skips the palette a "P" image would set up."""
    return Image.frombuffer("L", size, data, "raw", "L", 0, 1).im


def _maps_buffers() -> bool:
    """Whether a paste into a core image mapped over a bytearray lands in the bytearray."""
    out = bytearray(4)
    try:
        _map(out, (2, 2)).paste(Image.new("P", (1, 1), 7).im, (1, 1, 2, 2))
    except Exception:
        return False
    return out == bytearray((0, 0, 0, 7))


_MAPPED = _maps_buffers()


def _overlays(new_layers: list[Layer]) -> tuple[list[Layer], list[Layer]]:
    """The layers under the overlays, and the overlays: opaque layers (:attr:`.table.Layer.
    opaque`) that no later layer reaches into. An overlay's box is the overlay alone, so
    other boxes are drawn and kept without it (a pile's count on its disc changes, the pile's
    box around it stays the same) and it is pasted over them wherever a band is made."""
    overlays = [
        layer
        for i, layer in enumerate(new_layers)
        if layer.opaque and not any(_meets(layer.box, x.box) for x in new_layers[i + 1 :])
    ]
    if not overlays:
        return new_layers, []
    return [x for x in new_layers if x not in overlays], overlays


def _showing(box: _Box, under: list[Layer], overlays: list[Layer]) -> list[Layer]:
    """The layers drawn in ``box``: an overlay whose box it is alone, else every layer
    under the overlays reaching into it."""
    for layer in overlays:
        if _clip(layer.box) == box:
            return [layer]
    return [x for x in under if _meets(x.box, box)]


def _from_parts(box: _Box, key: _PatchKey) -> bool:
    """Whether :func:`_assembled` may put ``box`` together from kept parts (a box left empty,
    or one seat's panel or one pair alone in its box): a few pastes, not a drawing, so such
    boxes do not count towards drawing the picture whole."""
    if not key[1]:
        return True
    if len(key[1]) != 1:
        return False
    ((layer_key, layer_box),) = key[1]
    return layer_box == box and layer_key[0] in ("pair", "seat")


def _assembled(box: _Box, key: _PatchKey) -> Image.Image | None:
    """A box that holds one seat's panel or one pair and nothing else, put together from
    kept parts (:mod:`.panels`), or nothing at all (the empty table's indices), instead of
    drawn; None for any other box, or one that cannot be put together."""
    if not _from_parts(box, key):
        return None
    if not key[1]:
        return _empty_indexed().crop(box)
    ((layer_key, _),) = key[1]
    if layer_key[0] == "pair":
        return lone_pair(layer_key[1])  # type: ignore[arg-type]
    _, centre, seat = layer_key
    return panel(centre, seat)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def _blank() -> _Game:
    """The empty table as a game's last picture: no layers, and the background's PNG."""
    return _Game((), frozenset(), encode_indexed(_empty_indexed(), BAND_EDGES))


@lru_cache(maxsize=1)
def _empty_rows() -> bytes:
    """The empty table's PNG rows (filter bytes and palette indices)."""
    return with_filter_bytes(_empty_indexed())


@lru_cache(maxsize=1)
def _empty_indexed() -> Image.Image:
    """The empty table in palette indices."""
    return to_palette(background())


def _clip(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    if box[0] >= 0 and box[1] >= 0 and box[2] <= WIDTH and box[3] <= HEIGHT:
        return box
    return (max(0, box[0]), max(0, box[1]), min(WIDTH, box[2]), min(HEIGHT, box[3]))


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(inner: _Box, outer: _Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )
