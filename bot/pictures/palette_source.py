"""Where :data:`bot.pictures.palette.PALETTE` comes from: ``python -m bot.pictures.palette_source``
draws the sample tables of every preset and moment and prints the palette to paste into
:mod:`.palette`. A module of its own because it draws pictures, and the palette that drawing
is stored in must not depend on the drawing code.
"""

from __future__ import annotations

import sys

from PIL import Image

from engine import PRESETS

from .samples import STAGES, sample_lobby, sample_session
from .scene import lobby_scene, table_scene
from .table import render_image

#: Colours kept exactly: every one covering at least this share of pixels.
_EXACT_SHARE = 0.0005
_EXACT_MAX = 64


def generate() -> list[tuple[int, int, int]]:
    images = []
    for preset in sorted(PRESETS):
        for players in (2, 4, 6):
            for stage in STAGES:
                for locale in ("en", "ru"):
                    try:
                        session = sample_session(preset, players, stage, seed=7, locale=locale)
                    except Exception:
                        continue
                    if session is not None:
                        images.append(render_image(table_scene(session)))
    for locale in ("en", "ru"):
        images.append(render_image(lobby_scene(sample_lobby(2, 4, locale))))
    counts: dict[tuple[int, int, int], int] = {}
    for img in images:
        for n, colour in img.getcolors(1 << 24) or ():
            assert isinstance(colour, tuple)  # an RGB image's colours
            rgb = (colour[0], colour[1], colour[2])
            counts[rgb] = counts.get(rgb, 0) + n
    total = sum(counts.values())
    ranked = sorted(counts, key=lambda c: (-counts[c], c))
    exact = [c for c in ranked[:_EXACT_MAX] if counts[c] >= total * _EXACT_SHARE]
    rest = [c for c in ranked if c not in set(exact)]
    # the remaining colours, each once per 64 pixels it covers, for the median cut to weigh
    weights = [(c, max(1, counts[c] // 64)) for c in rest]
    size = sum(w for _, w in weights)
    strip = Image.new("RGB", (size, 1))
    strip.putdata([c for c, w in weights for _ in range(w)])
    cut = strip.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = (cut.getpalette() or [])[: 3 * (256 - len(exact))]
    extra = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
    out = list(exact)
    for colour in extra:
        if colour not in out:
            out.append(colour)
    while len(out) < 256:
        out.append(out[-1])
    return out[:256]


def main() -> int:
    colours = generate()
    print("PALETTE: tuple[tuple[int, int, int], ...] = (")
    line = "   "
    for c in colours:
        item = f" ({c[0]}, {c[1]}, {c[2]}),"
        if len(line) + len(item) > 96:
            print(line)
            line = "   "
        line += item
    print(line)
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
