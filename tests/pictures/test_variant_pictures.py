"""The table picture of the catalogue variants: what each makes public is drawn, and nothing
else ever is.

The leak test plays a random game of every preset at its smallest and largest table, builds
the channel's scene at many moments and checks it against both the public observation (every
card drawn is a face-up card of the observation) and the truth (no card drawn is in a hand,
in the talon, closed, out of play or lying face down).
"""

from __future__ import annotations

import io
import random
from dataclasses import fields

import pytest
from PIL import Image

from bot.game.models import PublicEvent, public_events
from bot.i18n import t
from bot.pictures import render_png, table_scene
from bot.pictures.samples import sample_session, session_of
from bot.pictures.scene import Scene, SeatScene
from bot.rendering.common import score_texts
from bot.rendering.table import table_embed
from engine import PRESETS, Game, Observation, RuleError, RuleSet
from engine.cards import NO_TRUMP, SUIT_NAMES, bits
from engine.variants.base import aside_masks


def _sizes(preset: str) -> list[int]:
    """The smallest and the largest table the preset allows."""
    ok = []
    for players in range(2, 7):
        try:
            RuleSet.preset(preset, players=players)
        except RuleError:
            continue
        ok.append(players)
    return sorted({ok[0], ok[-1]})


def _face_up(obs: Observation) -> set[int]:
    """The cards the channel may see: the table's face-up cards and the turned-up trump."""
    up = {int(a) for a, _ in obs.table} | {int(d) for _, d in obs.table if d is not None}
    if obs.trump_card_in_talon and obs.trump_card is not None:
        up.add(int(obs.trump_card))
    return up


def _shown(scene: Scene) -> set[int]:
    cards = {a for a, _ in scene.pairs} | {d for _, d in scene.pairs if d is not None}
    if scene.trump_card is not None:
        cards.add(scene.trump_card)
    return cards


def _hidden_truth(g: Game, obs: Observation) -> set[int]:
    """Every card that lies face down right now, from the engine's true state."""
    hidden = 0
    for hand in g.hands:
        hidden |= hand
    for i, card in enumerate(g.talon):
        if i != g.trump_index:
            hidden |= 1 << card
    if g.trump_index >= 0 and obs.trump_card is None:
        hidden |= 1 << g.talon[g.trump_index]  # shown to nobody (invisible fool)
    out, closed = aside_masks(g.vstate, g.n)
    hidden |= out & ~obs.out_of_play_seen
    for mask in closed:
        hidden |= mask
    for i in obs.face_down:
        hidden |= 1 << g.table[i][1]
    return {int(c) for c in bits(hidden)}


#: SeatScene may hold counts and labels, never a card: a new field must be looked at here.
SEAT_FIELDS = {"name", "role", "tone", "cards", "turn", "trump", "closed", "score", "team"}


def test_a_seat_scene_has_no_field_that_could_hold_a_card() -> None:
    assert {f.name for f in fields(SeatScene)} == SEAT_FIELDS


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in PRESETS for n in _sizes(p)])
def test_the_picture_shows_only_face_up_cards(preset: str, players: int) -> None:
    rules = RuleSet.preset(preset, players=players)
    for game_no in range(2):
        game = Game.new(rules, seed=f"leak:{preset}:{players}:{game_no}")
        rng = random.Random(f"leak:{preset}:{game_no}")
        events: list[PublicEvent] = []
        moments = 0
        for step in range(400):
            over = game.result is not None
            if step % 3 == 0 or over:
                session = session_of(game, preset, events=events)
                scene = table_scene(session)
                obs = game.public_observation()
                shown = _shown(scene)
                assert shown <= _face_up(obs), (preset, step)
                assert not shown & _hidden_truth(game, obs), (preset, step)
                for i in scene.face_down:  # drawn as a back, whatever the truth is
                    assert scene.pairs[i][1] is None
                assert set(scene.last_played) <= shown
                assert [s.cards for s in scene.seats] == list(obs.hand_sizes)
                assert [s.closed for s in scene.seats] == list(obs.closed or [0] * players)
                moments += 1
            if over:
                break
            actions = game.all_legal_actions()
            events += public_events(game.apply(rng.choice(actions)))
        assert moments >= 3


def test_double_trump_shows_each_seat_its_own_trump_and_marks_the_defenders() -> None:
    session = sample_session("double-trump", 4, "attack", seed=3)
    assert session is not None
    obs = session.game.public_observation()
    scene = table_scene(session)
    assert [s.trump for s in scene.seats] == list(obs.trumps)
    assert len(set(obs.trumps)) == 4
    assert scene.pair_trump == obs.trumps[obs.defender]
    # a game with one trump suit marks no seat
    plain = sample_session("podkidnoy", 4, "attack", seed=3)
    assert plain is not None
    assert all(s.trump == -1 for s in table_scene(plain).seats)
    assert table_scene(plain).pair_trump == -1


def test_magadan_closed_cards_are_counts_per_seat() -> None:
    session = sample_session("magadan", 2, "attack", seed=3)
    assert session is not None
    obs = session.game.public_observation()
    scene = table_scene(session)
    assert any(obs.closed)
    assert [s.closed for s in scene.seats] == list(obs.closed)
    without = Scene(**{**_as_dict(scene), "seats": tuple(_no_closed(s) for s in scene.seats)})
    assert render_png(scene) != render_png(without)


def _as_dict(scene: Scene) -> dict[str, object]:
    return {f.name: getattr(scene, f.name) for f in fields(Scene)}


def _no_closed(seat: SeatScene) -> SeatScene:
    return SeatScene(seat.name, seat.role, seat.tone, seat.cards, seat.turn, seat.trump, 0, "")


def _trust_verdict_game() -> Game:
    """A take-on-trust game at the moment the attacker must judge a face-down defence."""
    rules = RuleSet.preset("take-on-trust", players=2)
    for attempt in range(40):
        game = Game.new(rules, seed=f"verdict:{attempt}")
        rng = random.Random(attempt)
        for _ in range(300):
            if game.result is not None:
                break
            if game.public_observation().judging >= 0:
                return game
            game.apply(rng.choice(game.all_legal_actions()))
    raise AssertionError("no verdict moment in 40 games")


def test_take_on_trust_draws_a_back_and_marks_the_defence_awaiting_a_verdict() -> None:
    game = _trust_verdict_game()
    session = session_of(game, "take-on-trust")
    obs = game.public_observation()
    scene = table_scene(session)
    assert scene.judging == obs.judging >= 0
    assert scene.judging in scene.face_down
    assert scene.pairs[scene.judging][1] is None
    truth = game.table[scene.judging][1]
    assert truth not in _shown(scene)
    unjudged = Scene(**{**_as_dict(scene), "judging": -1})
    assert render_png(scene) != render_png(unjudged)


@pytest.mark.parametrize("preset", ["invisible", "trumpless"])
def test_no_trump_card_shows_a_badge_clear_of_the_talon(preset: str) -> None:
    session = sample_session(preset, 2, "attack", seed=3)
    assert session is not None
    scene = table_scene(session)
    obs = session.game.public_observation()
    assert scene.trump_card is None and scene.talon > 0
    assert (scene.trump == NO_TRUMP) == (preset == "trumpless")
    if preset == "invisible":
        # the engine knows the card; neither the observation nor the picture shows it
        assert obs.trump_card is None and session.game.trump_card >= 0
    if preset == "trumpless":
        assert scene.trump_label == t("table.no_trump", "en")
    else:
        suit = t(f"suit.{SUIT_NAMES[obs.trump]}", "en")
        assert scene.trump_label == t("picture.trumps", "en", suit=suit)


@pytest.mark.parametrize(("preset", "word"), [("point", "point"), ("epaulet", "epaulet")])
def test_scores_are_drawn_per_seat_and_listed_in_the_text_table(preset: str, word: str) -> None:
    session = sample_session(preset, 4, "pickup", seed=3)
    assert session is not None
    scene = table_scene(session)
    obs = session.game.public_observation()
    assert [s.score for s in scene.seats] == score_texts(obs, "en")
    assert all(word in s.score for s in scene.seats)
    description = table_embed(session).description or ""
    assert "Score:" in description and all(s.score in description for s in scene.seats)
    plain = sample_session("podkidnoy", 4, "pickup", seed=3)
    assert plain is not None
    assert all(s.score == "" for s in table_scene(plain).seats)


def test_scores_read_naturally_in_russian() -> None:
    session = sample_session("point", 4, "pickup", seed=3, locale="ru")
    assert session is not None
    obs = session.game.public_observation()
    texts = score_texts(obs, "ru")
    points = obs.variant_state["points"]
    for text, count in zip(texts, points, strict=True):
        word = "очко" if count % 10 == 1 and count % 100 != 11 else None
        if word:
            assert text == f"{count} {word}"
        else:
            assert text.split()[1] in ("очка", "очков")


def test_chukchi_out_of_play_count_is_drawn() -> None:
    session = sample_session("chukchi", 2, "attack", seed=3)
    assert session is not None
    scene = table_scene(session)
    obs = session.game.public_observation()
    assert obs.out_of_play > 0
    assert str(obs.out_of_play) in scene.aside_label
    img = Image.open(io.BytesIO(render_png(scene)))
    assert img.format == "PNG"


def test_partners_carry_their_team_number() -> None:
    session = sample_session("teams-2v2", 4, "attack", seed=3)
    assert session is not None
    assert [s.team for s in table_scene(session).seats] == [1, 2, 1, 2]
    plain = sample_session("podkidnoy", 4, "attack", seed=3)
    assert plain is not None
    assert all(s.team == 0 for s in table_scene(plain).seats)
