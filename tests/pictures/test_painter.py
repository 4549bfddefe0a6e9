"""The painter: a picture drawn from the game's last one is the same PNG as one drawn whole.

The incremental path can go wrong in ways no single picture shows (a layer whose key misses
something it draws, a box smaller than what it touches, a band spliced at the wrong place),
so every state of random games of several presets is drawn both ways and compared (every
chunk byte for byte, the image data once inflated: :mod:`.pngdata` says why not the deflated
bytes), and every layer of those states is drawn alone to check that it stays in its box.
"""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.pictures import lobby_scene, png, table_scene
from bot.pictures.fonts import draw_text, font
from bot.pictures.painter import Painter
from bot.pictures.palette import PALETTE, to_palette
from bot.pictures.panels import lone_pair, panel
from bot.pictures.png import adler32_combine, assemble, encode, encode_indexed
from bot.pictures.samples import sample_game, sample_lobby
from bot.pictures.scene import Scene
from bot.pictures.table import HEIGHT, WIDTH, background, layers, render_image, render_png

from .pngdata import png_data

#: (preset, seats): the base games, and the variants that draw more (closed cards, own
#: trumps, face-down defences, scores, teams, no trump card, cards out of play, a hidden
#: trump).
GAMES = [
    ("podkidnoy", 2),
    ("perevodnoy", 4),
    ("podkidnoy", 6),
    ("magadan", 2),
    ("double-trump", 4),
    ("take-on-trust", 2),
    ("point", 6),
    ("teams-2v2", 4),
    ("trumpless", 3),
    ("chukchi", 2),
    ("invisible", 4),
]


def _scenes(preset: str, seats: int, seed: int, limit: int = 400) -> list[Scene]:
    """The scene after every move of a random game; every other game in Russian."""
    scenes = []
    locale = "ru" if seed % 2 else "en"
    for session in sample_game(preset, seats, seed=seed, locale=locale, limit=limit):
        scenes.append(table_scene(session))
    return scenes


@pytest.mark.slow(sample=5, check=1)  # a sweep: one case in make check, a sample in make test
@pytest.mark.parametrize(("preset", "seats"), GAMES)
def test_every_incremental_picture_is_the_whole_picture(preset: str, seats: int) -> None:
    painter = Painter()
    scenes = _scenes(preset, seats, seed=seats)
    for scene in scenes:
        same = png_data(painter.png(scene)) == png_data(render_png(scene))
        assert same, f"{preset} version {scene.version}"
    costs = painter.costs
    assert costs.whole + costs.partial + costs.unchanged == len(scenes)
    # the incremental path is what ran for most moves (else this test checks nothing)
    assert costs.partial > len(scenes) // 3


def test_bands_put_together_from_kept_boxes_or_inflated_are_the_whole_picture() -> None:
    """A band a move crosses is the empty table's rows with every box in it pasted in when
    all those boxes are kept, else the last picture's rows inflated; with nothing kept (no
    room for boxes) only bands holding nothing but what the move drew are put together.
    Both give the picture drawn whole."""
    scenes = _scenes("podkidnoy", 6, seed=3, limit=30)
    for painter in (Painter(), Painter(patch_pixels=0)):
        for scene in scenes:
            assert png_data(painter.png(scene)) == png_data(render_png(scene)), scene.version
        assert painter.costs.rebuilt > 0
        assert (painter.costs.inflated > 0) == (painter.patch_pixels == 0)


def test_a_lobby_turning_into_a_table_and_two_games_in_turn() -> None:
    painter = Painter()
    lobby = lobby_scene(sample_lobby(2, 4))
    assert png_data(painter.png(lobby)) == png_data(render_png(lobby))
    first, other = (
        _scenes("podkidnoy", 2, seed=5, limit=30),
        _scenes("perevodnoy", 2, seed=6, limit=30),
    )
    other = [Scene(**{**_fields(s), "game_id": 7}) for s in other]
    for a, b in zip(first, other, strict=False):
        assert png_data(painter.png(a)) == png_data(render_png(a))
        assert png_data(painter.png(b)) == png_data(render_png(b))


def _meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _fields(scene: Scene) -> dict[str, object]:
    return {name: getattr(scene, name) for name in Scene.__dataclass_fields__}


def test_pictures_over_the_size_limit_are_zlibs_and_still_the_whole_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A picture over the limit has every band deflated again by zlib; the next one goes back
    to ISA-L. With the limit between the game's sizes, both happen, in turn."""
    scenes = _scenes("podkidnoy", 6, seed=2, limit=40)
    sizes = sorted(len(render_png(scene)) for scene in scenes)
    monkeypatch.setattr(png, "SIZE_LIMIT", sizes[len(sizes) // 2])
    painter, dense = Painter(), []
    for scene in scenes:
        picture = painter.png(scene)
        assert png_data(picture) == png_data(render_png(scene)), f"version {scene.version}"
        dense.append(painter._games[scene.game_id].encoded.dense)
        read = Image.open(io.BytesIO(picture))
        assert read.tobytes() == to_palette(render_image(scene)).tobytes()
    assert any(dense) and not all(dense)


def test_nothing_visible_changed_means_nothing_drawn() -> None:
    painter = Painter()
    scene = _scenes("podkidnoy", 2, seed=1, limit=5)[-1]
    first = painter.png(scene)
    again = painter.png(Scene(**{**_fields(scene), "version": scene.version + 1}))
    assert again is first and painter.costs.unchanged == 1


def test_a_finished_game_is_forgotten_at_its_last_picture() -> None:
    painter = Painter()
    scenes = _scenes("podkidnoy", 2, seed=1)
    for scene in scenes[-3:]:
        painter.png(scene)
    assert scenes[-1].banner and scenes[-1].game_id not in painter._games
    # the first of the three too: a game's first picture starts from the shared empty table
    assert not scenes[-2].banner and painter.costs.partial == 3 and painter.costs.whole == 0


def test_games_kept_are_bounded() -> None:
    painter = Painter(games_kept=2)
    scene = _scenes("podkidnoy", 2, seed=1, limit=2)[-1]
    for game_id in range(5):
        painter.png(Scene(**{**_fields(scene), "game_id": game_id}))
    assert len(painter._games) == 2


@pytest.mark.slow(sample=5, check=1)  # a sweep: one case in make check, a sample in make test
@pytest.mark.parametrize(("preset", "seats"), GAMES)
def test_every_layer_stays_in_its_box(preset: str, seats: int) -> None:
    """Drawn alone on a flat colour nothing on the table has, a layer changes no pixel
    outside its box (the painter redraws a box with every layer that reaches into it); an
    opaque layer gives its box the same pixels on either ground (the painter draws its box
    without the layers below)."""
    flat = Image.new("RGB", (WIDTH, HEIGHT), (255, 0, 255))
    for scene in _scenes(preset, seats, seed=seats + 1)[::4]:
        for layer in layers(scene):
            covered = []
            for ground in (flat, background()):
                img = ground.copy()
                layer.paint(img, ImageDraw.Draw(img))
                covered.append(img.crop(layer.box).tobytes())
                touched = ImageChops.difference(img, ground).getbbox()
                if touched is None:
                    continue
                box = layer.box
                assert (
                    touched[0] >= box[0]
                    and touched[1] >= box[1]
                    and touched[2] <= box[2]
                    and touched[3] <= box[3]
                ), f"{layer.key[0]} drew {touched} outside {box}"
            assert not layer.opaque or covered[0] == covered[1], layer.key


def test_the_png_is_the_palette_picture_pillow_reads_back() -> None:
    scene = _scenes("perevodnoy", 4, seed=3, limit=12)[-1]
    rgb = render_image(scene)
    png = encode(rgb)
    read = Image.open(io.BytesIO(png))
    read.load()
    assert read.mode == "P" and read.size == (WIDTH, HEIGHT)
    assert read.tobytes() == to_palette(rgb).tobytes()
    flat = read.getpalette() or []
    assert [tuple(flat[i : i + 3]) for i in range(0, 768, 3)] == list(PALETTE)
    assert not read.info.get("dpi") and not read.text  # no metadata


def test_pictures_are_compared_by_what_they_hold_not_how_it_was_deflated() -> None:
    """The same rows deflated in other bytes (as ISA-L sometimes gives them) are the same
    picture; a pixel changed, or a band's checksum wrong, is not."""
    scene = _scenes("podkidnoy", 2, seed=1, limit=8)[-1]
    indexed = to_palette(render_image(scene))
    whole = encode_indexed(indexed)
    rows = [whole.raw(i) for i in range(len(whole.spans))]
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    segments = [whole.band(i) for i in range(len(whole.spans))]
    segments[0] = packer.compress(rows[0]) + packer.flush(zlib.Z_SYNC_FLUSH)
    other = assemble(WIDTH, HEIGHT, segments, list(whole.adlers), whole.rows).png
    assert other != whole.png and png_data(other) == png_data(whole.png)
    changed = indexed.copy()
    changed.putpixel((500, 300), (indexed.getpixel((500, 300)) + 1) % 256)  # type: ignore[operator]
    assert png_data(encode_indexed(changed).png) != png_data(whole.png)
    wrong = assemble(WIDTH, HEIGHT, segments, list(reversed(whole.adlers)), whole.rows).png
    with pytest.raises(zlib.error):
        png_data(wrong)


def test_adler32_combine_is_zlibs() -> None:
    rng = random.Random(4)
    for _ in range(50):
        a = rng.randbytes(rng.randrange(0, 70000))
        b = rng.randbytes(rng.randrange(0, 70000))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_texts_drawn_from_cached_masks_are_pillows() -> None:
    """draw_text puts a cached glyph mask on the picture; the pixels are ImageDraw.text's
    (anchors, half pixels, bold, Cyrillic, twice the same text)."""

    cases = [
        ((40.0, 30.0), "Аня ♠ 12", font(31), "la"),
        ((500.0, 200.5), "Defending", font(32, bold=True), "mm"),
        ((960.5, 300.0), "7", font(34, bold=True), "rm"),
        ((100.0, 400.0), "Берёт", font(31), "lm"),
        ((100.0, 400.0), "Берёт", font(31), "lm"),
        ((500.0, 600.0), "Бито", font(31), "mt"),
    ]
    ours = Image.new("RGB", (1000, 700), (16, 56, 37))
    pillows = ours.copy()
    for xy, text, face, anchor in cases:
        draw_text(ImageDraw.Draw(ours), xy, text, face, (245, 197, 66), anchor=anchor)
        ImageDraw.Draw(pillows).text(xy, text, font=face, fill=(245, 197, 66), anchor=anchor)
    assert ours.tobytes() == pillows.tobytes()
    assert ImageChops.difference(ours, Image.new("RGB", ours.size, (16, 56, 37))).getbbox()


def test_seat_panels_put_together_from_parts_are_the_panels_drawn() -> None:
    """A seat's panel pasted together from its kept parts (frame, name, role, hand) is the
    panel drawn whole, in palette indices: every seat of a few states of six- and
    four-seat games (turns, roles, counts, out, fool, teams, own trumps), and most of them
    take that way."""
    assembled = drawn = 0
    for preset, seats in (("podkidnoy", 6), ("teams-2v2", 4), ("double-trump", 4)):
        scenes = _scenes(preset, seats, seed=3)
        for scene in scenes[:: max(1, len(scenes) // 8)] + scenes[-1:]:
            whole = to_palette(render_image(scene))
            for layer in layers(scene):
                if layer.key[0] != "seat":
                    continue
                _, centre, seat = layer.key
                indexed = panel(centre, seat)  # type: ignore[arg-type]
                if indexed is None:
                    drawn += 1
                    continue
                assembled += 1
                assert indexed.tobytes() == whole.crop(layer.box).tobytes(), seat
    assert assembled > 4 * drawn


def test_a_pair_alone_from_its_kept_tile_is_the_pair_drawn() -> None:
    """A pair pasted from the tile kept for its cards and marks is the pair drawn where it
    lies, in palette indices, wherever the row has moved it (a pair alone in its box: more
    than six pairs overlap, and the painter draws those)."""
    checked = 0
    for preset, seats, seed in (("perevodnoy", 4, 3), ("take-on-trust", 2, 2)):
        for scene in _scenes(preset, seats, seed=seed, limit=90)[::6]:
            whole = to_palette(render_image(scene))
            every = layers(scene)
            for layer in every:
                alone = not any(_meets(x.box, layer.box) for x in every if x is not layer)
                if layer.key[0] != "pair" or not alone:
                    continue
                tile = lone_pair(layer.key[1])  # type: ignore[arg-type]
                assert tile is not None
                assert tile.tobytes() == whole.crop(layer.box).tobytes(), layer.key
                checked += 1
    assert checked > 20
