"""Answers to interactions under Discord trouble and to input Discord's client would not send:
always an answer in time (or one log line), the right words, never a public message edited
by a forged click, never "something went wrong" with a traceback."""

from __future__ import annotations

import asyncio
import datetime
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions
from discord import app_commands

import bot.surfaces.answers
import bot.surfaces.callbacks
import bot.surfaces.delivery
from bot.game.models import GameSession
from bot.surfaces.answers import acknowledge
from bot.surfaces.callbacks import ANSWER_DEADLINE_SECONDS
from bot.surfaces.delivery import PROMPT_ATTEMPTS
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import (
    acting_seat,
    click_first_move,
    custom_ids,
    hand_moves,
    leave_running,
    message,
    message_text,
    move,
    play_out,
    service,
)
from tests.bot.test_delivery import PLAYERS, _moves_to_the_end
from tests.bot.test_live_hands import seen
from tests.bot.test_play import start_game


def _next_actor(world: dict[str, Any], session: GameSession) -> Any:
    seat = acting_seat(session, range(session.game.n))
    assert seat is not None
    return next(world[n] for n in PLAYERS if world[n].id == session.seats[seat].user_id)


async def _open_hand(actor: Any, channel: Any, session: GameSession) -> Any:
    shown = await actor.click(
        message(channel, session.message_id or 0), custom_id=f"durak:show:{session.game_id}"
    )
    assert shown.response is not None and shown.response.ephemeral
    return shown.response.message


async def _mover_with_hand(env: simcord.Env, world: dict[str, Any]) -> tuple[GameSession, Any, Any]:
    """A running two-player game, the player whose move it is, and their opened hand."""
    game_id = await start_game(world, PLAYERS)
    session = service(env).session(game_id)
    assert session is not None
    actor = _next_actor(world, session)
    return session, actor, await _open_hand(actor, world["channel"], session)


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


# --------------------------------------------------------------------------- Discord trouble


@pytest.fixture
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries of an answer pause for nothing (simcord would wait short sleeps in real time)."""
    monkeypatch.setattr(bot.surfaces.delivery, "PROMPT_BACKOFF_SECONDS", 0.0)
    monkeypatch.setattr(bot.surfaces.callbacks, "PAUSES", (0.0,) * 4)


@pytest.mark.usefixtures("no_pause")
@pytest.mark.parametrize("status", [429, 503])
async def test_one_refused_acknowledgement_is_tried_again_within_the_deadline(
    simcord_env: simcord.Env, world: Any, caplog: pytest.LogCaptureFixture, status: int
) -> None:
    session, actor, hand = await _mover_with_hand(simcord_env, world)
    version = session.version
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=status, times=1)
    with caplog.at_level(logging.INFO):
        clicked = await move(actor, hand)
    # Discord took the second try: the click was answered and the move counted.
    assert clicked.acknowledged and session.version == version + 1
    assert not [r for r in caplog.records if "answer lost" in r.getMessage()]
    _no_tracebacks(caplog)


@pytest.mark.usefixtures("no_pause")
async def test_a_lasting_503_on_the_acknowledgement_still_applies_the_move(
    simcord_env: simcord.Env, world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The click was real: the move counts, and the player's live hand shows it (the
    unanswered click cannot edit anything, the previous answer's token can)."""
    channel = world["channel"]
    session, actor, hand = await _mover_with_hand(simcord_env, world)
    version = session.version
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=503, times=None)
    with caplog.at_level(logging.INFO):
        clicked = await actor.click(hand, custom_id=hand_moves(hand)[0])
    simcord_env.backend.faults.clear()
    assert not clicked.acknowledged
    assert session.version > version
    lost = [r for r in caplog.records if "answer lost" in r.getMessage()]
    assert len(lost) == 1 and "503" in lost[0].getMessage()
    _no_tracebacks(caplog)
    # the hand the player looks at was redrawn at the new version: a stale click is
    # impossible, and their next click on it works
    shown = seen(channel, actor, hand.id)
    assert all(f":{session.version}:" in c for c in custom_ids(shown, "durak:act:")), custom_ids(
        shown
    )


@pytest.mark.parametrize("budget", [0.0, 5.0])
async def test_a_move_is_answered_with_its_outcome_when_it_is_applied_in_time(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch, budget: float
) -> None:
    """Applied within the budget, the hand after the move is the click's first answer (one
    request); a slower move is acknowledged first and its hand edited after, as before."""
    monkeypatch.setattr(bot.surfaces.answers, "QUICK_ANSWER_SECONDS", budget)
    channel = world["channel"]
    session, actor, hand = await _mover_with_hand(simcord_env, world)
    version = session.version
    clicked = await move(actor, hand)
    assert clicked.acknowledged and session.version == version + 1
    assert clicked.deferred is (budget == 0.0)
    shown = seen(channel, actor, hand.id)
    assert all(f":{version + 1}:" in c for c in hand_moves(shown)), custom_ids(shown, "durak:act:")


@pytest.mark.usefixtures("no_pause")
@pytest.mark.parametrize("status", [429, 500])
async def test_a_refused_edit_after_the_acknowledgement_falls_back_to_the_live_hand(
    simcord_env: simcord.Env,
    world: Any,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    # a move slower than the quick answer's budget: acknowledged, then its hand edited
    monkeypatch.setattr(bot.surfaces.answers, "QUICK_ANSWER_SECONDS", 0.0)
    channel = world["channel"]
    session, actor, hand = await _mover_with_hand(simcord_env, world)
    version = session.version
    # every try of the answer's edit fails; the live hand's redraw after them gets through
    simcord_env.inject_error(
        "PATCH", "/webhooks/*/*/messages/@original", status=status, times=PROMPT_ATTEMPTS
    )
    with caplog.at_level(logging.INFO):
        clicked = await move(actor, hand)
    # Acknowledged in time, the move counted; showing it failed (one line in the log) ...
    assert clicked.acknowledged
    assert session.version == version + 1
    assert len([r for r in caplog.records if "answer lost" in r.getMessage()]) == 1
    _no_tracebacks(caplog)
    # ... and the live hand drew the new state instead: its buttons carry the new version
    shown = seen(channel, actor, hand.id)
    assert all(f":{version + 1}:" in c for c in hand_moves(shown)), custom_ids(shown, "durak:act:")


# --------------------------------------------------------------------------- the right words


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_the_move_that_ends_the_game_says_so(tmp_path: Path) -> None:
    total = await _moves_to_the_end(tmp_path / "reference.db")
    async with simcord.run(make_bot(tmp_path / "durak.db")) as env:
        world = build_world(env)
        channel = world["channel"]
        game_id = await start_game(world, PLAYERS, deck=24)
        await play_out(env, channel, game_id, [world[n] for n in PLAYERS], stop_after=total - 1)
        session = service(env).session(game_id)
        assert session is not None and not session.finished
        _, last = await click_first_move(
            _next_actor(world, session), channel, session.message_id or 0
        )
        assert session.finished
        assert last.response is not None
        text = last.response.content or ""
        assert text.startswith("Your move ended the game.")
        assert "fool" in text.lower()
        assert "already finished" not in text
        assert custom_ids(last.response.message) == []
        await env.bot.close()


@pytest.mark.slow(sample=1)  # a whole game and a restart: in make test, not make check
async def test_a_hand_of_an_ended_game_says_so_before_and_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "durak.db"
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        channel = world["channel"]
        game_id = await start_game(world, PLAYERS, deck=24)
        session = service(env).session(game_id)
        assert session is not None
        watcher = world["alice"]
        hand = await _open_hand(watcher, channel, session)
        await play_out(env, channel, game_id, [world[n] for n in PLAYERS])
        assert session.finished
        # The hand was live until its player opened newer ones while playing; it shows the
        # version it was last edited to. Click the Refresh button it carries now.
        shown = env.backend.get_message(channel.id, hand.id)
        refresh = next(
            c["custom_id"]
            for row in shown.components
            for c in row["components"]
            if c.get("custom_id", "").startswith("durak:hand:")
        )
        before = await watcher.click(hand, custom_id=refresh)
        assert before.response is not None and before.response.ephemeral
        assert before.response.content.startswith("This game is over")
        assert "attacking" not in message_text(before.response.message)
        assert custom_ids(before.response.message) == []

        # The same hand, clicked after a restart, reads the same. (The first click turned the
        # message into that sentence; give it its old button back, as a second copy would be.)
        stored = env.backend.get_message(channel.id, hand.id)
        stored.components = [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "R", "custom_id": refresh}]}
        ]
        stale_hand = hand
        await env.bot.close()
        await env.restart_bot(make_bot(db))
        after = await watcher.click(stale_hand, custom_id=refresh)
        assert after.response is not None
        assert after.response.content == before.response.content
        await env.bot.close()


async def test_a_hand_of_a_cancelled_game_says_so(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    game_id = await start_game(world, PLAYERS)
    session = service(simcord_env).session(game_id)
    assert session is not None
    hand = await _open_hand(world["bob"], channel, session)
    refresh = custom_ids(hand, "durak:hand:")[-1]
    await world["alice"].slash(channel, "durak cancel")
    assert session.status == "cancelled"
    # Bob's hand is live: the cancellation reaches it without a click.
    shown = simcord_env.backend.get_message(channel.id, hand.id)
    assert shown.content.startswith("This game was cancelled")
    assert not shown.embeds and not shown.components
    # A copy of the hand that was not live (token expired) still has its button: same answer.
    shown.components = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "R", "custom_id": refresh}]}
    ]
    clicked = await world["bob"].click(hand, custom_id=refresh)
    assert clicked.response is not None
    assert clicked.response.content.startswith("This game was cancelled")
    assert custom_ids(clicked.response.message) == []


async def test_a_hand_of_a_player_who_left_says_so(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob", "carol"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    hand = await _open_hand(world["carol"], channel, session)
    await leave_running(world["carol"], channel)
    clicked = await world["carol"].click(hand, custom_id=custom_ids(hand, "durak:hand:")[-1])
    assert clicked.response is not None
    assert clicked.response.content.startswith("You left this game")


async def test_a_move_button_forged_onto_the_table_never_edits_it(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, PLAYERS)
    session = service(simcord_env).session(game_id)
    assert session is not None and session.message_id is not None
    actor = _next_actor(world, session)
    hand = await _open_hand(actor, channel, session)
    forged = hand_moves(hand)[0]
    nav = custom_ids(hand, "durak:hand:")[-1]
    stored = simcord_env.backend.get_message(channel.id, session.message_id)
    stored.components = [
        *stored.components,
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "forged move", "custom_id": forged},
                {"type": 2, "style": 2, "label": "forged nav", "custom_id": nav},
            ],
        },
    ]
    table_before = message_text(message(channel, session.message_id))
    version = session.version
    for label in ("forged move", "forged nav"):
        clicked = await actor.click(message(channel, session.message_id), label=label)
        assert clicked.ephemeral and clicked.response is not None and clicked.response.ephemeral
        assert clicked.response.id != session.message_id
        assert "private hand" in (clicked.response.content or "")
    assert session.version == version  # nothing applied
    assert message_text(message(channel, session.message_id)) == table_before
    # a spectator's forged click is refused privately too
    clicked = await world["eve"].click(message(channel, session.message_id), label="forged move")
    assert clicked.ephemeral and "not playing" in (clicked.response.content or "")
    assert message_text(message(channel, session.message_id)) == table_before


# --------------------------------------------------------------------------- forged input


@pytest.fixture
def unchecked_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let option values outside the declared ranges and choices through, as a forged or
    replayed interaction (not Discord's client) would send them."""
    monkeypatch.setattr(
        simcord.interactions, "validate_option_value", lambda _cmd, _opt, value: value
    )


@pytest.mark.usefixtures("unchecked_options")
async def test_a_turn_timer_outside_its_range_is_refused_politely(
    simcord_env: simcord.Env, world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    channel, mod = world["channel"], world["mod"]
    with caplog.at_level(logging.INFO):
        for timer in (99999, -5, 7):
            refused = await mod.slash(channel, "durak settings", timer=timer)
            assert refused.ephemeral and refused.response is not None
            assert "between 15 and 3600" in (refused.response.content or "")
    settings = await service(simcord_env).settings(world["guild"].id)
    assert settings.turn_timer_seconds not in (99999, -5, 7)
    saved = await mod.slash(channel, "durak settings", timer=3600)
    assert saved.response is not None and "3600" in message_text(saved.response.message)
    _no_tracebacks(caplog)


@pytest.mark.usefixtures("unchecked_options")
async def test_a_leaderboard_period_outside_the_choices_is_refused_politely(
    simcord_env: simcord.Env, world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        refused = await world["alice"].slash(world["channel"], "durak leaderboard", period="year")
    assert refused.ephemeral and refused.response is not None
    assert "no leaderboard for that" in (refused.response.content or "")
    _no_tracebacks(caplog)


async def test_an_unknown_subcommand_is_refused_politely(
    simcord_env: simcord.Env,
    world: Any,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The payload names a subcommand this build does not have (e.g. from an old command list).
    monkeypatch.setattr(
        simcord.interactions,
        "nest_options",
        lambda _root, _nesting, _leaf: [{"name": "teleport", "type": 1, "options": []}],
    )
    with caplog.at_level(logging.INFO):
        refused = await world["alice"].slash(world["channel"], "durak rules")
    assert refused.ephemeral and refused.response is not None
    assert "don't know that command" in (refused.response.content or "")
    assert "went wrong" not in (refused.response.content or "")
    _no_tracebacks(caplog)
    # simcord records every error discord.py hands to the tree's on_error, answered or not
    simcord.assert_error(simcord_env, app_commands.CommandNotFound)


# --------------------------------------------------------------------------- acknowledge


class _SlowResponse:
    """discord.py retrying a 5xx: the defer would land long after Discord's limit."""

    def __init__(self) -> None:
        self.started = False

    def is_done(self) -> bool:
        return False

    async def defer(self) -> None:
        self.started = True
        await asyncio.sleep(30)


class _Interaction:
    def __init__(self, age: float) -> None:
        self.id = 1
        self.created_at = discord.utils.utcnow() - datetime.timedelta(seconds=age)
        self.response = _SlowResponse()
        self.data = {"custom_id": "durak:act:1:2:take:"}
        self.user = discord.Object(7)


async def test_an_acknowledgement_that_would_land_late_is_given_up_in_time(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.surfaces.callbacks.ANSWER_MIN_SECONDS", 0.05)
    interaction = _Interaction(age=ANSWER_DEADLINE_SECONDS - 0.05)
    with caplog.at_level(logging.INFO):
        acknowledged = await acknowledge(interaction)  # type: ignore[arg-type]
    assert interaction.response.started and not acknowledged
    (line,) = [r for r in caplog.records if "answer lost" in r.getMessage()]
    assert "time limit" in line.getMessage() and line.exc_info is None
    # Looking too old (clocks differ): still one short try, never none.
    old = _Interaction(age=ANSWER_DEADLINE_SECONDS + 1)
    assert not await acknowledge(old)  # type: ignore[arg-type]
    assert old.response.started
