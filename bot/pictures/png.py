"""PNG bytes of a table picture, deflated in bands that can be replaced one by one.

The image data of a PNG is one zlib stream over its rows. Here it is deflated (by ISA-L,
Intel's deflate, three to four times zlib's speed for the same size) in bands of rows (cut
where the caller says, or every :data:`BAND_ROWS` rows), each band on its own (a fresh
compressor, flushed to a byte boundary, so no band refers back into another), and the
stream's checksum is put together from the bands' own (:func:`adler32_combine`). A band
whose rows did not change can then keep its compressed bytes in the next picture
(:mod:`.painter`), which Pillow's encoder cannot do: hence these few lines of PNG container.
Pillow still reads every picture back in the tests.

Pictures are stored with the fixed palette of :mod:`.palette`, without metadata (no time, no
software tag), so the same picture always gives the same image data. Usually the same bytes
too, but not always: ISA-L picks its code by the processor (another machine may store the
same pixels in other bytes), and even in one process it has deflated the same band's rows in
bytes a byte or two longer or shorter now and then (the rows identical once inflated). So
nothing may rely on equal pictures having equal bytes; tests compare the image data
(tests/pictures/pngdata.py).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from isal import isal_zlib
from PIL import Image

from .palette import PALETTE, to_palette

__all__ = [
    "BAND_ROWS",
    "COMPRESS_LEVEL",
    "DENSE_LEVEL",
    "SIZE_LIMIT",
    "Encoded",
    "adler32_combine",
    "assemble",
    "bands",
    "deflate",
    "encode",
    "encode_indexed",
    "with_filter_bytes",
    "within_limit",
]

#: Rows per independently deflated band of a picture that gives no band edges of its own
#: (a table picture cuts its bands where its boxes begin and end: :data:`.table.BAND_EDGES`).
#: Each band pays a compressor of its own (ISA-L sets up tens of microseconds of tables),
#: Pillow's copies and a checksum, so bands of evenly spaced rows should not be thin: encoding
#: per move over whole six-seat games (bench/render.py's painter, a loaded machine, two runs
#: each): 32 rows 2.1-2.2 ms and 31 KB; 120 rows 1.3 ms; 240 rows 1.2-1.3 ms and 30 KB; 360
#: and 720 rows 1.4 ms. (With zlib at level 3, 32 rows had been best: 2.6 ms against 2.4-3.6.)
BAND_ROWS = 240
#: ISA-L's level (0 to 3) of each band. A whole six-seat picture: ISA-L level 1 0.8 ms and
#: 30 KB, level 0 0.5 ms and 40 KB, level 3 4.5 ms and 30 KB; zlib level 1 2.4 ms and 34 KB,
#: level 3 2.6 ms and 31 KB, level 6 7.5 ms and 25 KB; zlib-ng level 1 0.9 ms and 40 KB,
#: level 3 2.3 ms and 27 KB; zlib's ``Z_RLE`` 2.8 ms and 62 KB (37 KB over rows filtered
#: *up*, which cost more than they saved with every other deflate).
COMPRESS_LEVEL = 1

#: The largest picture stored as ISA-L deflates it. A larger one (a six-seat table with a full
#: middle: about one picture in 50 of a six-seat game, up to 42-44 KB) is deflated again,
#: every band, by zlib at :data:`DENSE_LEVEL`: a sixth smaller, at several times the CPU,
#: so that no picture is over 40 KB.
SIZE_LIMIT = 40 * 1024
DENSE_LEVEL = 6


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", isal_zlib.crc32(kind + data))
    )


@lru_cache(maxsize=4)
def _head(width: int, height: int) -> bytes:
    """Everything before the image data: signature, header (8-bit palette, no interlace),
    palette."""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
        + _chunk(b"PLTE", bytes(c for rgb in PALETTE for c in rgb))
    )


_TAIL = _chunk(b"IEND", b"")
#: zlib header (deflate, 32 KB window) and a final empty block closing the stream.
_ZLIB_HEAD = b"\x78\x01"
_FINAL_BLOCK = b"\x03\x00"
_BASE = 65521


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """Adler-32 of two pieces of data from the checksums of each (zlib's
    ``adler32_combine``, which Python's zlib does not expose)."""
    rem = len2 % _BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _BASE
    sum1 += (adler2 & 0xFFFF) + _BASE - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + _BASE - rem
    if sum1 >= _BASE:
        sum1 -= _BASE
    if sum1 >= _BASE:
        sum1 -= _BASE
    if sum2 >= _BASE << 1:
        sum2 -= _BASE << 1
    if sum2 >= _BASE:
        sum2 -= _BASE
    return sum1 | (sum2 << 16)


def deflate(raw: bytes | bytearray) -> bytes:
    """One band: a fresh raw-deflate stream flushed to a byte boundary, not finished."""
    packer = isal_zlib.compressobj(COMPRESS_LEVEL, isal_zlib.DEFLATED, -15)
    return packer.compress(raw) + packer.flush(isal_zlib.Z_SYNC_FLUSH)


@lru_cache(maxsize=8)
def bands(height: int, edges: tuple[int, ...] = ()) -> tuple[tuple[int, int], ...]:
    """(top, bottom) rows of each band of a picture ``height`` rows high: cut at ``edges``
    (rows, ascending), or every :data:`BAND_ROWS` rows without them."""
    cuts = [row for row in edges if 0 < row < height] or list(range(BAND_ROWS, height, BAND_ROWS))
    tops = [0, *cuts]
    return tuple(zip(tops, [*cuts, height], strict=True))


@dataclass(frozen=True, slots=True)
class Encoded:
    """A PNG and where each band's deflated bytes lie in it."""

    png: bytes
    width: int
    height: int
    #: (start, end) of each band's bytes in ``png``.
    spans: tuple[tuple[int, int], ...]
    adlers: tuple[int, ...]
    #: (top, bottom) rows of each band (:func:`bands`).
    rows: tuple[tuple[int, int], ...]
    #: Its bands were deflated by zlib (:func:`within_limit`), not ISA-L.
    dense: bool = False

    def band(self, index: int) -> bytes:
        start, end = self.spans[index]
        return self.png[start:end]

    def raw(self, index: int) -> bytes:
        """The band's rows as they were (filter bytes included)."""
        return isal_zlib.decompressobj(-15).decompress(self.band(index))


def assemble(
    width: int,
    height: int,
    segments: Sequence[bytes | memoryview],
    adlers: list[int],
    rows: tuple[tuple[int, int], ...],
    dense: bool = False,
) -> Encoded:
    """The PNG of a picture from its bands' deflated bytes and Adler-32 checksums (``rows``:
    each band's top and bottom row)."""
    check = 1
    for (top, bottom), adler in zip(rows, adlers, strict=True):
        check = adler32_combine(check, adler, (bottom - top) * (width + 1))
    data = b"".join((_ZLIB_HEAD, *segments, _FINAL_BLOCK, struct.pack(">I", check)))
    idat = _chunk(b"IDAT", data)
    head = _head(width, height)
    offset = len(head) + 8 + len(_ZLIB_HEAD)  # IDAT's length and type, then zlib's header
    spans = []
    for segment in segments:
        spans.append((offset, offset + len(segment)))
        offset += len(segment)
    return Encoded(head + idat + _TAIL, width, height, tuple(spans), tuple(adlers), rows, dense)


def within_limit(encoded: Encoded, raw: Callable[[int], bytes | bytearray]) -> Encoded:
    """``encoded`` if it is at most :data:`SIZE_LIMIT` bytes, else every band (``raw(i)``:
    band ``i``'s rows) deflated again by zlib at :data:`DENSE_LEVEL`. Decided on the bytes at
    hand, so a picture drawn in part and the one drawn whole can differ in which way they
    went near the limit (ISA-L's sizes vary by a byte or two, see the module doc); either
    way the image data is the same."""
    if len(encoded.png) <= SIZE_LIMIT:
        return encoded
    segments = []
    for index in range(len(encoded.spans)):
        packer = zlib.compressobj(DENSE_LEVEL, zlib.DEFLATED, -15)
        segments.append(packer.compress(raw(index)) + packer.flush(zlib.Z_SYNC_FLUSH))
    return assemble(
        encoded.width, encoded.height, segments, list(encoded.adlers), encoded.rows, dense=True
    )


def with_filter_bytes(indexed: Image.Image) -> bytes:
    """The rows of a "P" image each preceded by PNG's filter byte 0 (none)."""
    wide = Image.new("P", (indexed.width + 1, indexed.height), 0)
    wide.paste(indexed, (1, 0))
    return wide.tobytes()


def encode_indexed(indexed: Image.Image, edges: tuple[int, ...] = ()) -> Encoded:
    """A whole "P" picture (indices into :data:`~.palette.PALETTE`), band by band (cut at
    ``edges``, see :func:`bands`)."""
    width, height = indexed.size
    raw = with_filter_bytes(indexed)
    stride = width + 1
    segments, adlers, rows = [], [], []
    cuts = bands(height, edges)
    for top, bottom in cuts:
        band = raw[top * stride : bottom * stride]
        rows.append(band)
        segments.append(deflate(band))
        adlers.append(isal_zlib.adler32(band))
    return within_limit(assemble(width, height, segments, adlers, cuts), rows.__getitem__)


def encode(rgb: Image.Image, edges: tuple[int, ...] = ()) -> bytes:
    """PNG bytes of a whole drawn picture: mapped onto the fixed palette, deflated band by
    band (cut at ``edges``). No metadata (no time, no software tag): the same picture gives
    the same image data."""
    return encode_indexed(to_palette(rgb), edges).png
