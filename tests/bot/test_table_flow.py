"""No pointless clicks: the online-style "done" by default, pagat's etiquette as a house rule."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.game.models import GameSession, PublicEvent, SeatInfo, public_events
from bot.rendering.table import event_line
from engine import ActionKind, Card, Event, Game, RuleSet
from tests.bot.helpers import message, message_text, play_out, rules_details, service
from tests.bot.test_play import start_game

NAMES = ["alice", "bob", "carol", "dave"]


async def _play_counting(env: simcord.Env, world: dict[str, Any], game_id: int) -> dict[str, int]:
    """Play a whole game by clicks (each player clicks the first move offered, so a pass is
    clicked only when nothing else is offered) and count move, pass and forced-pass clicks."""
    session = service(env).session(game_id)
    assert session is not None
    states: list[Game] = [session.game.copy()]
    moves = await play_out(
        env,
        world["channel"],
        game_id,
        [world[n] for n in NAMES],
        on_step=lambda s: states.append(s.game.copy()),
    )
    counts = {"moves": 0, "passes": 0, "forced": 0}
    for before, move in zip(states, moves, strict=False):
        seat_text, kind = move.split(":")[:2]
        if kind != ActionKind.PASS.value:
            counts["moves"] += 1
            continue
        counts["passes"] += 1
        legal = before.legal_actions(int(seat_text))
        if all(a.kind in (ActionKind.PASS, ActionKind.EXCHANGE) for a in legal):
            counts["forced"] += 1  # nothing to add, and yet a click was needed
    return counts


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_new_games_pass_seats_with_nothing_to_add_by_default(
    simcord_env: simcord.Env, world: Any
) -> None:
    game_id = await start_game(world, NAMES)
    session = service(simcord_env).session(game_id)
    assert session is not None and session.game.rules.auto_done
    counts = await _play_counting(simcord_env, world, game_id)
    # Not one click was a "done" by a seat that had nothing to add.
    assert counts["forced"] == 0 and counts["moves"] > 20, counts


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_pagat_etiquette_is_a_house_rule(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]

    async def auto_done_shown() -> str:
        rules = await rules_details(world["alice"], channel, mode="podkidnoy")
        field = next(f for f in rules.embeds[0].fields if f.name == "Automatic 'done'")
        return field.value.split("**")[1]

    # /durak rules shows a mode as it is played here: online style by default.
    assert await auto_done_shown() == "Yes"
    shown = await world["mod"].slash(channel, "durak settings", done="pagat")
    assert shown.response is not None
    assert "Pagat etiquette" in message_text(shown.response)
    assert await auto_done_shown() == "No"
    refused = await world["alice"].slash(channel, "durak settings", done="online")
    assert refused.response is not None and "Manage Server" in (refused.response.content or "")
    created = await world["alice"].slash(channel, "durak new", seats=4)
    assert created.response is not None
    assert "says “done” themselves" in message_text(message(channel, created.response.id))
    for name in NAMES[1:]:
        await world[name].click(message(channel, created.response.id), label="Join")
    await world["alice"].click(message(channel, created.response.id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None and not session.game.rules.auto_done
    counts = await _play_counting(simcord_env, world, 1)
    # The etiquette costs clicks: seats with nothing to add say "done" themselves.
    assert counts["forced"] > 0, counts
    # Back to the default: the next game is online style again.
    await world["mod"].slash(channel, "durak settings", done="online")
    settings = await service(simcord_env).settings(world["guild"].id)
    assert settings.default_options["done"] == "online"


def test_last_moves_show_what_matters_not_a_line_per_pass() -> None:
    """Passes are not kept at all (they would push real moves out of the few events kept);
    refills and the bare "game over" are kept but not narrated."""
    game = Game.new(RuleSet(players=3), 1)
    session = GameSession(
        1,
        10,
        20,
        30,
        100,
        "podkidnoy",
        [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(3)],
        game,
        seed=1,
        version=1,
    )
    events = [
        Event("attack", 0, (Card.parse("6s"),)),
        Event("pass", 2),
        Event("pass", 0),
        Event("take", 1),
        Event("game_over", 1),
    ]
    kept = public_events(events)
    assert [e.kind for e in kept] == ["attack", "take", "game_over"]
    lines = [event_line(e, session, "en") for e in kept]
    assert lines[:2] == ["p0 attacks with 6♠", "p1 takes the cards"] and lines[2] is None
    assert event_line(PublicEvent("draw", -1, (), -1, 3), session, "en") is None
