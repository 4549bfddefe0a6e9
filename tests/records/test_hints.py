"""Hints: offered against computers (or where the server allows), computed from the seat's
own observation only, counted on the result message and stored for the ratings."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

from engine import PRESETS, Game, RuleSet
from engine.ai.review import suggest
from engine.ai.search import build_world, sample_hands, world_template
from engine.cards import bits
from tests.bot.helpers import custom_ids, message, play_out, service, start_against_computer
from tests.bot.test_play import start_game


@pytest.mark.slow(sample=4)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_hint_depends_only_on_what_the_seat_sees(preset: str) -> None:
    """In random games of every preset: deal the cards the seat cannot see differently (a
    world its observation cannot tell apart) and the hint stays the same, and it only ever
    names the seat's own cards or cards on the table."""
    rules = RuleSet.preset(preset)
    rng = random.Random(preset)
    checked = 0
    for seed in range(2):
        game = Game.new(rules, f"{preset}:{seed}")
        for _ in range(400):
            if game.result is not None:
                break
            if rng.random() < 0.05 and checked < 3 * (seed + 1):
                seat = rng.choice([s for s in range(game.n) if game.legal_actions(s)])
                obs = game.observation(seat)
                hint = suggest(obs, iterations=2, seed=1)
                try:
                    hands, talon = sample_hands(obs, random.Random(seed))
                except (ValueError, AssertionError):
                    hands = None
                if hands is not None:
                    other = build_world(obs, world_template(obs), hands, talon)
                    # (a sampled world may differ in bookkeeping the seat does see, e.g. an
                    # exchange still open: only worlds the seat cannot tell apart count)
                    if other.observation(seat) == obs:
                        assert suggest(other.observation(seat), iterations=2, seed=1) == hint
                if hint is not None:
                    visible = game.hands[seat] | sum(
                        (1 << a) | ((1 << d) if d >= 0 else 0) for a, d in game.table
                    )
                    for card in hint[0].cards:
                        if hint[0].kind.value.endswith("_blind"):
                            continue  # reverse fool names a slot, not a card
                        assert visible >> int(card) & 1, f"{hint[0]} names an unseen card"
                checked += 1
            game.apply(rng.choice(game.all_legal_actions()))
    assert checked


def _hint_ids(msg: Any) -> list[str]:
    return custom_ids(msg, "durak:hint:")


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_hint_button_against_computers_only(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice = world["channel"], world["alice"]
    session = await start_against_computer(channel, alice, simcord_env)
    table = message(channel, session.message_id or 0)
    # Wait for alice's turn (the computer may lead).
    for _ in range(50):
        if session.game.legal_actions(0):
            break
        await simcord_env.advance_time(service(simcord_env).ai_delay)
    shown = await alice.click(table, custom_id=f"durak:show:{session.game_id}")
    hand = shown.response.message
    assert _hint_ids(hand) == [f"durak:hint:{session.game_id}"]
    version = session.version
    # The first hint says that a game with hints is not rated, and counts nothing yet.
    asked = await alice.click(hand, custom_id=_hint_ids(hand)[0])
    assert asked.ephemeral and "not rated" in asked.response.content
    assert await service(simcord_env).storage.game_hints(session.game_id) == {}
    confirm = asked.response.message
    assert _hint_ids(confirm) == [f"durak:hint:{session.game_id}:ok"]
    hinted = await alice.click(confirm, custom_id=_hint_ids(confirm)[0])
    assert hinted.ephemeral
    text = hinted.response.content
    assert text.startswith("💡 I would")
    assert "\n• " in text  # the reasons, computed from the position
    assert session.version == version  # a hint is not a move
    # The next hint of the game comes at once.
    again = await alice.click(hand, custom_id=_hint_ids(hand)[0])
    assert again.response.content.startswith("💡 I would")
    hidden = [c.pretty() for c in bits(session.game.hands[1] & ~session.game.known[1])]
    assert not any(c in text for c in hidden)
    assert await service(simcord_env).storage.game_hints(session.game_id) == {0: 2}
    # The game ends: the result message counts the hint, the stats mark the game.
    await play_out(simcord_env, channel, session.game_id, [alice])
    result = next(m for m in reversed(channel.history()) if "Hints used" in (m.content or ""))
    assert "Hints used in this game: 2" in result.content
    stats = await alice.slash(channel, "durak stats")
    fields = [f.value for f in stats.response.embeds[0].fields]
    assert "1 of these games were played with hints." in fields


@pytest.mark.slow(sample=1)  # a whole game by clicks (~3 CPU s): in make test, not make check
async def test_no_hint_between_people_unless_the_server_allows(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, bob, mod = world["channel"], world["alice"], world["bob"], world["mod"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None and session.message_id is not None
    actor = alice if session.game.legal_actions(0) else bob
    shown = await actor.click(
        message(channel, session.message_id), custom_id=f"durak:show:{game_id}"
    )
    assert _hint_ids(shown.response.message) == []
    await mod.slash(channel, "durak records", hints=True)
    shown = await actor.click(
        message(channel, session.message_id), custom_id=f"durak:show:{game_id}"
    )
    assert _hint_ids(shown.response.message) == [f"durak:hint:{game_id}"]
