"""The fixed palette every table picture is stored in, so that no picture pays for choosing one.

A table picture is flat colours, card faces and antialiased text: a few thousand distinct
colours, nearly all of them blends of some forty base colours. Choosing a 256-colour palette
per picture (Pillow's fast octree) took longer than drawing the picture; mapping onto a palette
fixed in advance is a table lookup per pixel (Pillow's palette cache), and mapping a part of a
picture gives exactly the same indices as mapping the whole, which is what lets the painter
(:mod:`.painter`) convert only what it redrew.

The palette is data, generated from the sample tables of every preset and moment
(``python -m bot.pictures.palette`` prints it): the colours that cover most pixels are kept
exactly (felt, panels, card paper, gold, text), the rest is Pillow's median cut of what is left.
docs/pictures.md says how far a picture is from its unquantised drawing, before and after.
"""

from __future__ import annotations

import sys
from functools import lru_cache

from PIL import Image

__all__ = ["PALETTE", "palette_image", "to_palette"]

#: Colours kept exactly by the generator: every one covering at least this share of pixels.
_EXACT_SHARE = 0.0005
_EXACT_MAX = 64

# fmt: off
#: 256 RGB colours, generated (see the module doc); index 0 is the most common (the felt).
PALETTE: tuple[tuple[int, int, int], ...] = (
    (27, 94, 60), (16, 56, 37), (252, 251, 247), (62, 66, 72), (245, 197, 66), (48, 96, 184),
    (104, 32, 36), (44, 112, 76), (16, 24, 20), (43, 45, 49), (244, 244, 240), (97, 62, 38),
    (123, 83, 51), (109, 73, 45), (97, 63, 39), (27, 93, 59), (120, 100, 40), (20, 72, 46),
    (96, 62, 38), (95, 62, 38), (94, 60, 37), (42, 45, 49), (19, 72, 46), (19, 70, 45),
    (28, 96, 61), (14, 73, 47), (129, 88, 54), (22, 72, 46), (23, 83, 53), (20, 73, 47),
    (46, 46, 48), (93, 61, 39), (38, 44, 50), (58, 67, 42), (101, 63, 37), (92, 60, 37),
    (103, 62, 38), (69, 53, 44), (92, 63, 38), (24, 71, 46), (254, 253, 249), (200, 32, 40),
    (244, 243, 240), (157, 157, 156), (32, 72, 148), (214, 232, 220), (250, 222, 120),
    (24, 24, 28), (26, 91, 58), (49, 97, 184), (170, 176, 172), (24, 84, 54), (143, 146, 150),
    (37, 75, 146), (44, 82, 155), (44, 93, 183), (193, 207, 235), (61, 106, 189), (25, 88, 56),
    (255, 255, 255), (23, 80, 51), (21, 75, 48), (255, 176, 64), (120, 190, 255),
    (255, 255, 253), (253, 255, 252), (252, 252, 249), (252, 250, 246), (251, 250, 247),
    (251, 250, 246), (252, 250, 244), (250, 250, 247), (252, 249, 245), (251, 248, 244),
    (250, 249, 245), (249, 249, 246), (249, 248, 245), (249, 248, 244), (248, 248, 246),
    (249, 248, 243), (248, 246, 242), (244, 243, 239), (249, 240, 238), (239, 241, 243),
    (238, 237, 236), (237, 232, 224), (229, 235, 250), (225, 231, 239), (220, 229, 248),
    (213, 230, 221), (218, 226, 222), (219, 221, 228), (203, 215, 241), (202, 214, 239),
    (226, 216, 170), (228, 201, 132), (227, 188, 120), (228, 188, 65), (227, 180, 52),
    (235, 179, 24), (232, 178, 29), (232, 178, 28), (232, 178, 27), (231, 178, 29),
    (231, 175, 18), (196, 213, 224), (192, 205, 217), (200, 201, 200), (200, 200, 200),
    (200, 200, 199), (191, 201, 194), (196, 190, 155), (182, 203, 199), (179, 182, 172),
    (160, 185, 187), (128, 180, 200), (251, 161, 153), (240, 165, 73), (205, 162, 76),
    (165, 168, 167), (169, 165, 117), (162, 156, 104), (146, 168, 203), (142, 153, 172),
    (146, 157, 133), (143, 148, 134), (227, 136, 135), (255, 120, 110), (237, 120, 72),
    (238, 115, 105), (156, 142, 101), (188, 112, 94), (142, 145, 150), (133, 143, 163),
    (138, 143, 129), (132, 138, 133), (131, 128, 96), (97, 157, 223), (106, 147, 132),
    (105, 131, 172), (107, 132, 99), (113, 120, 125), (95, 120, 142), (109, 119, 63),
    (90, 116, 91), (74, 118, 125), (62, 117, 83), (101, 103, 102), (88, 103, 96), (92, 100, 46),
    (68, 98, 156), (74, 104, 88), (58, 104, 188), (50, 97, 184), (49, 102, 110), (38, 100, 64),
    (173, 83, 78), (127, 86, 54), (123, 84, 52), (116, 78, 48), (108, 72, 45), (100, 64, 38),
    (78, 92, 121), (78, 86, 83), (65, 87, 49), (92, 65, 41), (68, 69, 62), (202, 43, 50),
    (201, 35, 43), (200, 33, 41), (199, 28, 36), (197, 19, 27), (101, 62, 38), (95, 61, 38),
    (128, 43, 44), (93, 61, 38), (75, 56, 42), (58, 94, 164), (47, 95, 184), (47, 95, 183),
    (46, 95, 183), (45, 94, 184), (45, 94, 183), (45, 94, 182), (44, 94, 183), (44, 93, 181),
    (43, 87, 168), (48, 84, 152), (43, 81, 154), (41, 78, 148), (46, 86, 80), (49, 82, 55),
    (37, 75, 147), (33, 75, 152), (33, 73, 150), (33, 73, 148), (33, 73, 147), (33, 72, 148),
    (40, 74, 89), (42, 71, 42), (52, 55, 61), (45, 63, 38), (44, 45, 49), (46, 46, 47),
    (39, 42, 46), (28, 95, 61), (27, 93, 60), (30, 76, 154), (26, 92, 59), (26, 90, 57),
    (26, 89, 57), (32, 71, 148), (31, 71, 150), (31, 71, 148), (31, 70, 148), (30, 71, 148),
    (30, 70, 148), (29, 70, 148), (30, 70, 145), (25, 89, 56), (26, 87, 55), (25, 87, 56),
    (25, 87, 55), (24, 87, 55), (25, 86, 55), (24, 84, 53), (23, 82, 52), (22, 76, 48),
    (21, 74, 48), (21, 72, 46), (20, 70, 45), (17, 72, 46), (30, 69, 146), (29, 69, 148),
    (29, 69, 146), (29, 69, 145), (28, 69, 147), (27, 68, 146), (22, 65, 147), (26, 65, 139),
    (24, 66, 47), (27, 64, 40), (19, 66, 42), (18, 64, 41), (17, 59, 125), (19, 58, 38),
    (16, 52, 102), (27, 28, 31), (25, 25, 29), (21, 21, 25), (14, 14, 19), (8, 8, 12),
    (8, 8, 12), (8, 8, 12), (8, 8, 12), (8, 8, 12),
)
# fmt: on


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    """A 1x1 "P" image carrying :data:`PALETTE`, the form ``Image.quantize`` wants."""
    img = Image.new("P", (1, 1))
    img.putpalette([c for rgb in PALETTE for c in rgb])
    return img


def to_palette(rgb: Image.Image) -> Image.Image:
    """``rgb`` mapped pixel by pixel onto :data:`PALETTE` (nearest colour, no dithering: a
    pixel's index depends on that pixel alone)."""
    return rgb.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def _generate() -> list[tuple[int, int, int]]:
    from engine import PRESETS

    from .samples import STAGES, sample_lobby, sample_session
    from .scene import lobby_scene, table_scene
    from .table import render_image

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
                        session.deadline = 1042.0
                        images.append(render_image(table_scene(session, now=1000.0)))
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
    colours = _generate()
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
