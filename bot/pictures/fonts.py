"""The bundled DejaVu Sans, and text helpers that never raise.

Player names are whatever Discord allows: Cyrillic, emoji, combining marks, very long. DejaVu
covers Latin, Cyrillic and the card suits; a glyph it lacks (most emoji) is drawn as the
font's empty box, which is acceptable. What is *not* acceptable is an exception in the middle
of a move, so every text call here is guarded and degrades to a shorter or plainer text.

The basic layout engine is used on purpose: libraqm may or may not be installed on a host,
and the two engines place glyphs differently, which would make the same state render
different bytes on different machines.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw

# One font loader for cards and names: cached, basic layout, Pillow's own font if the
# bundled file is missing.
from ..cardart.cardface import FONT_DIR, Font, font

__all__ = ["FONT_DIR", "draw_text", "fit", "font", "has_glyph", "safe_text", "text_width"]

log = logging.getLogger(__name__)


def _render(ch: str, face: Font) -> bytes:
    img = Image.new("L", (32, 32))
    ImageDraw.Draw(img).text((4, 4), ch, font=face, fill=255)
    return img.tobytes()


@lru_cache(maxsize=8192)
def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether DejaVu draws ``ch`` (a character it lacks comes out as its empty box, the
    same picture as a private-use code point that no font has)."""
    face = font(20, bold)
    try:
        return _render(ch, face) != _render("\U0010fffd", face)
    except Exception:
        return False


def safe_text(text: str, bold: bool = False) -> str:
    """What of ``text`` the font can draw. Dropped: control and format characters (direction
    marks, zero-width joiners), lone surrogates (the encoder would raise), and glyphs DejaVu
    lacks (most emoji: "Carol 🎲" reads better as "Carol" than with a box), unless that
    would leave nothing, in which case the boxes at least show that a name is there."""
    drawable = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        drawable.append(ch)
    kept = [ch for ch in drawable if ch.isspace() or has_glyph(ch, bold)]
    result = " ".join("".join(kept).split())
    return result or "".join(drawable).strip()


def text_width(text: str, face: Font) -> float:
    try:
        return float(face.getlength(text))
    except Exception:  # a glyph the font engine chokes on: count it as wide, never raise
        return 10.0 * len(text) * (getattr(face, "size", 12) / 10)


def fit(text: str, face: Font, width: float, bold: bool = False) -> str:
    """``text`` (what of it the font can draw) cut with an ellipsis to ``width`` pixels."""
    text = safe_text(text, bold)
    if text_width(text, face) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", face) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: tuple[int, ...],
    *,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: tuple[int, ...] | None = None,
) -> None:
    """``ImageDraw.text`` that logs and skips instead of raising (see the module doc)."""
    try:
        draw.text(
            xy,
            text,
            font=face,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
    except Exception:
        log.warning("could not draw a text of %d characters; skipped", len(text))
