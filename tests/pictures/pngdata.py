"""What a PNG holds, apart from how its image data happened to be deflated.

ISA-L's deflate does not always give the same bytes for the same rows: within one process,
the same band of a table picture comes out now and then a byte or two longer or shorter,
its rows identical once inflated (in about one process in five that drew a few hundred
pictures). A picture is then the same picture in other bytes, so the tests that compare two
ways of making a picture compare this instead: every chunk but the image data byte for
byte, and the image data inflated (filter bytes and palette indices of every row).
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["png_data"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_data(png: bytes) -> tuple[tuple[tuple[bytes, bytes], ...], bytes]:
    """The PNG's chunks other than IDAT (kind and data, in order) and its image data
    inflated; zlib checks the stream and its Adler-32 checksum on the way (a band spliced
    at the wrong place, or a checksum put together wrong, raises)."""
    assert png[:8] == _SIGNATURE
    chunks: list[tuple[bytes, bytes]] = []
    compressed = []
    pos = 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])
        assert zlib.crc32(kind + data) == crc, kind
        if kind == b"IDAT":
            compressed.append(data)
        else:
            chunks.append((kind, data))
        pos += 12 + length
    return tuple(chunks), zlib.decompress(b"".join(compressed))
