"""The table picture: every preset's typical moments draw, deterministically, and a few look
the way they did when they were last reviewed by eye (golden images, small tolerance).

Regenerate the goldens after an intended change of the drawing, then look at them:

    python -m tests.pictures.test_table_picture --regenerate
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.pictures import lobby_scene, render_png, table_scene
from bot.pictures.cards import face
from bot.pictures.fonts import drawable, fit, font, recording, safe_text
from bot.pictures.samples import STAGES, sample_lobby, sample_session
from bot.pictures.scene import Scene, SeatScene, last_played
from bot.pictures.table import HEIGHT, WIDTH, render_image
from engine import PRESETS, RuleError, RuleSet

from .pngdata import png_data

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
#: (file, preset, players, stage); the seed is fixed so each is the same position every run.
GOLDENS = (
    ("two_attack.png", "podkidnoy", 2, "attack"),
    ("four_transfer.png", "perevodnoy", 4, "transfer"),
    ("six_pickup.png", "podkidnoy", 6, "pickup"),
    ("four_end.png", "perevodnoy", 4, "end"),
    # The catalogue variants whose picture differs from the base game's (docs/variants.md):
    ("double_trump.png", "double-trump", 4, "attack"),
    ("magadan.png", "magadan", 2, "attack"),
    ("take_on_trust.png", "take-on-trust", 2, "defence"),
    ("invisible.png", "invisible", 2, "attack"),
    ("trumpless.png", "trumpless", 2, "attack"),
    ("chukchi.png", "chukchi", 2, "attack"),
    ("point.png", "point", 4, "pickup"),
    ("epaulet.png", "epaulet", 4, "pickup"),
    ("teams.png", "teams-2v2", 4, "defence"),
)
#: Goldens are compared at this fraction of their size: the files stay small, and a
#: different FreeType build that moves an antialiased edge by a pixel still passes.
GOLDEN_SCALE = 2
#: Per-channel difference allowed anywhere, and the share of pixels allowed to exceed it.
TOLERANCE = 24
MAX_DIFFERENT = 0.002


def _golden_state(preset: str, players: int, stage: str) -> Scene:
    session = sample_session(preset, players, stage, seed=3)
    assert session is not None
    return table_scene(session)


def _small(img: Image.Image) -> Image.Image:
    return img.convert("RGB").resize(
        (WIDTH // GOLDEN_SCALE, HEIGHT // GOLDEN_SCALE), Image.Resampling.BOX
    )


def _sizes(preset: str) -> list[int]:
    """The typical table sizes the preset allows (severnyi needs talon cards, so not 6)."""
    sizes = []
    for players in (2, 4, 6):
        try:
            RuleSet.preset(preset, players=players)
        except RuleError:
            continue
        sizes.append(players)
    return sizes


CASES = [
    (preset, players, stage) for preset in PRESETS for players in _sizes(preset) for stage in STAGES
]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "stage"), CASES)
def test_every_preset_and_moment_draws(preset: str, players: int, stage: str) -> None:
    session = sample_session(preset, players, stage, seed=5, tries=15)
    if session is None:
        # Only moments the rules do not have may be missing: a transfer without transfers;
        # without throw-ins a bout ends the moment all is beaten or the defender takes.
        rules = RuleSet.preset(preset, players=players)
        assert (stage == "transfer" and rules.transfer == "off") or (
            stage in ("defence", "pickup") and rules.throw_in == "none"
        )
        return
    png = render_png(table_scene(session))
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.size == (WIDTH, HEIGHT)
    assert len(png) < 150_000


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_lobby_draws_with_free_seats(players: int) -> None:
    info = sample_lobby(players, max_seats=6)
    scene = lobby_scene(info)
    assert scene.free_seats == 6 - players
    assert Image.open(io.BytesIO(render_png(scene))).size == (WIDTH, HEIGHT)


def test_same_state_same_picture_and_no_metadata() -> None:
    a = sample_session("perevodnoy", 4, "defence", seed=8)
    b = sample_session("perevodnoy", 4, "defence", seed=8)
    assert a is not None and b is not None and a is not b
    first, second = render_png(table_scene(a)), render_png(table_scene(b))
    assert png_data(first) == png_data(second)  # the same rows (pngdata: not always bytes)
    img = Image.open(io.BytesIO(first))
    assert img.info == {} or set(img.info) <= {"dpi", "gamma"}, img.info
    for chunk in (b"tIME", b"tEXt", b"iTXt", b"zTXt"):
        assert chunk not in first


def test_different_moments_differ() -> None:
    attack = sample_session("podkidnoy", 4, "attack", seed=8)
    pickup = sample_session("podkidnoy", 4, "pickup", seed=8)
    assert attack is not None and pickup is not None
    assert render_png(table_scene(attack)) != render_png(table_scene(pickup))


def test_scene_holds_only_public_information() -> None:
    """The scene has card counts per seat and the face-up cards, nothing from a hand."""
    session = sample_session("podkidnoy", 4, "attack", seed=2)
    assert session is not None
    scene = table_scene(session)
    g = session.game
    assert [s.cards for s in scene.seats] == [g.hand_size(s) for s in range(g.n)]
    face_up = {c for pair in scene.pairs for c in pair if c is not None}
    if scene.trump_card is not None:
        face_up.add(scene.trump_card)
    hidden = set()
    for seat in range(g.n):
        hidden |= {int(c) for c in g.hand(seat)}
    assert not face_up & hidden
    assert all(not hasattr(s, "hand") for s in scene.seats)


def test_turn_is_highlighted_for_the_seats_the_game_waits_for() -> None:
    session = sample_session("podkidnoy", 2, "attack", seed=4)
    assert session is not None
    scene = table_scene(session)
    defender = session.game.defender
    assert [s.turn for s in scene.seats] == [i == defender for i in range(2)]
    assert scene.seats[defender].tone == "defend"


def test_names_in_any_script_never_break_the_drawing() -> None:
    odd = (
        "",
        "🂡🃏🎲👑" * 10,
        "Ω\u200d\u202e\u0000\ud800Z",
        "Ж" * 200,
        "a\u0301\u0308\u0327" * 30,
        "中文名字",
    )
    seats = tuple(SeatScene(name=n, role=n, tone="wait", cards=36, turn=True) for n in odd)
    scene = Scene(kind="table", game_id=1, version=1, seats=seats, trump_label=odd[1])
    assert render_image(scene).size == (WIDTH, HEIGHT)
    lobby = Scene(
        kind="lobby",
        game_id=1,
        version=0,
        seats=seats[:2],
        free_seats=3,
        free_label=odd[3],
        title=odd[1],
        subtitle=odd[2],
        banner=odd[3],
    )
    assert render_image(lobby).size == (WIDTH, HEIGHT)


def test_long_names_are_cut_to_fit() -> None:
    face_ = font(21, bold=True)
    cut = fit("Дмитрий Константинопольский-Длинный", face_, 176, bold=True)
    assert cut.endswith("…") and face_.getlength(cut) <= 176
    assert fit("Eve", face_, 176) == "Eve"
    assert safe_text("a\u200db\u202ec") == "abc"


@pytest.mark.parametrize("name", ["🎲\ufe0f", "👍🏽🔥", "\u200d\ufe0f", "  "])
def test_an_emoji_only_name_is_shown_as_a_placeholder(name: str) -> None:
    """U+FE0F passed the glyph check, so such a name was drawn as nothing at all."""
    assert not drawable(name, bold=True)
    session = sample_session("podkidnoy", 2, "attack", seed=3)
    assert session is not None
    session.seats[0].name = name
    scene = table_scene(session)
    assert scene.seats[0].name == "Player 1"
    with recording() as drawn:
        render_image(scene)
    assert "Player 1" in {d.text for d in drawn}
    ru = sample_session("podkidnoy", 2, "attack", seed=3, locale="ru")
    assert ru is not None
    ru.seats[0].name = name
    assert table_scene(ru).seats[0].name == "Игрок 1"
    # a name with something drawable keeps it, emoji left out
    session.seats[0].name = "Carol 🎲\ufe0f"
    assert table_scene(session).seats[0].name == "Carol 🎲\ufe0f"
    assert safe_text("Carol 🎲\ufe0f") == "Carol"


def test_the_last_cards_played_are_outlined() -> None:
    session = sample_session("podkidnoy", 4, "defence", seed=3)
    assert session is not None
    scene = table_scene(session)
    last = session.events[-1]
    assert last.kind == "defend" and len(scene.last_played) == 1
    defences = {d for _, d in scene.pairs if d is not None}
    assert set(scene.last_played) <= defences
    assert scene.last_played[0] in {int(c) for c in last.cards}
    unmarked = Scene(**{**_fields(scene), "last_played": ()})
    assert render_png(scene) != render_png(unmarked)
    # after a bito or a pick-up nothing on the table is the last move's
    ended = sample_session("podkidnoy", 2, "end", seed=3)
    assert ended is not None and last_played(ended) == ()


def _fields(scene: Scene) -> dict[str, object]:
    return {name: getattr(scene, name) for name in Scene.__dataclass_fields__}


def test_trump_cards_are_marked() -> None:
    assert face(0, True).tobytes() != face(0, False).tobytes()


@pytest.mark.parametrize(("name", "preset", "players", "stage"), GOLDENS)
def test_golden_images(name: str, preset: str, players: int, stage: str) -> None:
    path = GOLDEN_DIR / name
    assert path.exists(), f"missing golden {name}: see this module's docstring"
    got = _small(render_image(_golden_state(preset, players, stage)))
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = (
        ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > TOLERANCE else 0)
    )
    different = sum(diff.histogram()[255:]) / (got.width * got.height)
    assert different <= MAX_DIFFERENT, f"{name}: {different:.2%} of pixels differ"


def _regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, preset, players, stage in GOLDENS:
        img = _small(render_image(_golden_state(preset, players, stage)))
        img.save(GOLDEN_DIR / name, "PNG", optimize=True)
        print(f"wrote {GOLDEN_DIR / name}")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        _regenerate()
    else:
        print(__doc__)
