"""Turn timers: waiting seats and safe defaults, the half-time reminder, expiry, two expiries
→ forfeit, timers across restarts, and computer failures. Time only moves through
``env.advance_time`` (virtual clock); nothing sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import DurakBot
from bot.game.models import GameSession, PublicEvent
from bot.game.turns import safe_default, waiting_seats
from engine import Action, Card, Game, Observation, RuleSet
from tests.bot.conftest import build_world
from tests.bot.helpers import message, message_text, play_out, service, start_against_computer
from tests.bot.test_play import start_game
from tests.bot.test_server_life import life_bot

TIMER = 60


@pytest.fixture
def simcord_bot(db_path: Path) -> DurakBot:
    return life_bot(db_path, default_turn_timer_seconds=TIMER)


def reminders(channel: Any) -> list[str]:
    return [m.content for m in channel.history() if "half of your time is gone" in m.content]


def lowest_lead(game: Game, seat: int) -> Card:
    return min(game.hand(seat), key=lambda c: (c.suit == game.trump, c.rank, c.suit))


def table_text(channel: Any, session: GameSession) -> str:
    return message_text(message(channel, session.message_id or 0))


# --------------------------------------------------------------------------- pure rules


def _position(**kwargs: Any) -> Game:
    rules = RuleSet.preset("podkidnoy", players=kwargs.pop("players", 2))
    return Game.from_position(rules, trump_card="Ah", talon=kwargs.pop("talon", []), **kwargs)


def test_safe_default_and_waiting_seats() -> None:
    lead = _position(hands=[["Th", "9s", "Kc"], ["7d"]], attacker=0, defender=1)
    assert waiting_seats(lead) == [0]
    assert safe_default(lead, 0) == Action.parse("0 attack 9s")
    assert safe_default(lead, 1) is None
    trumps_only = _position(hands=[["Th", "7h"], ["7d"]], attacker=0, defender=1)
    assert safe_default(trumps_only, 0) == Action.parse("0 attack 7h")

    defending = _position(
        hands=[["9s"], ["7d", "Qs"], ["9d"]],
        players=3,
        table=[["8s", None]],
        attacker=0,
        defender=1,
    )
    # The defender is waited for; attackers may throw in (or wave others on) but are not timed.
    assert waiting_seats(defending) == [1]
    assert safe_default(defending, 1) == Action.parse("1 take")

    beaten = _position(
        hands=[["8d"], ["7d", "Ks"], ["8c"]],
        players=3,
        table=[["8s", "Qs"]],
        attacker=0,
        defender=1,
    )
    # Everything is beaten: the attackers who could still add a card owe a "done".
    assert waiting_seats(beaten) == [0, 2]
    assert safe_default(beaten, 2) == Action.parse("2 pass")
    assert safe_default(beaten, 1) is None


# --------------------------------------------------------------------------- simcord


async def test_reminder_safe_default_and_forfeit_after_two_expiries(
    simcord_env: simcord.Env, world: Any
) -> None:
    env, channel = simcord_env, world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(env)
    session = svc.session(game_id)
    assert session is not None and session.timer_seconds == TIMER
    leader = session.game.attacker
    defender = 1 - leader
    leader_id = session.seats[leader].user_id
    assert waiting_seats(session.game) == [leader]
    assert session.deadline == pytest.approx(env.now().timestamp() + TIMER)
    assert "Time runs out <t:" in table_text(channel, session)
    expected = lowest_lead(session.game, leader)
    version = session.version

    await env.advance_time(TIMER / 2 - 1)
    assert reminders(channel) == [] and session.version == version
    await env.advance_time(2)
    (reminder,) = reminders(channel)
    assert reminder.startswith(f"⏰ <@{leader_id}>, half of your time is gone in game #{game_id}")
    assert session.version == version  # a reminder is not a move

    await env.advance_time(TIMER / 2 - 1)  # the leader's turn expires
    assert session.version == version + 1
    events = [(e.kind, e.seat, e.cards, e.amount) for e in session.events]
    assert events[-2:] == [("timeout", leader, (), 1), ("attack", leader, (expected,), 0)]
    assert session.strikes == {leader: 1}
    row = await svc.storage.get_game(game_id)
    assert row is not None and row.timer_strikes == {str(leader): 1}
    assert "ran out of time (1/2) — the safe move was made" in table_text(channel, session)

    # The defender's turn expires: the defender takes.
    assert waiting_seats(session.game) == [defender]
    await env.advance_time(TIMER)
    kinds = [(e.kind, e.seat) for e in session.events]
    assert ("timeout", defender) in kinds and ("take", defender) in kinds
    assert session.strikes == {leader: 1, defender: 1}

    # The leader's second expiry in a row is a forfeit; with one human left the game ends.
    assert leader in waiting_seats(session.game)
    await env.advance_time(TIMER)
    assert session.status == "finished" and session.ended_by == leader
    rows = await svc.storage.game_results(game_id)
    assert [(r.user_id, r.outcome, r.forfeit_reason) for r in rows if r.seat == leader] == [
        (leader_id, "forfeit", "timeout")
    ]
    assert [r.outcome for r in rows if r.seat == defender] == ["win"]
    text = table_text(channel, session)
    assert "ran out of time too often and is the fool (forfeit)" in text
    assert "the game ends here" in text and "wins" in text
    # Nothing is left ticking.
    final = session.version
    await env.advance_time(10 * TIMER)
    assert session.version == final


@pytest.mark.slow(sample=1)  # timer expiries over a game: in make test, not make check
async def test_own_move_clears_strikes_and_a_three_player_game_goes_on(
    simcord_env: simcord.Env, world: Any
) -> None:
    env, channel = simcord_env, world["channel"]
    names = ["alice", "bob", "carol"]
    game_id = await start_game(world, names)
    session = service(env).session(game_id)
    assert session is not None
    (first,) = waiting_seats(session.game)
    await env.advance_time(TIMER)
    assert session.strikes == {first: 1}
    # Everybody plays by hand until `first` has moved again themselves.
    actors = [world[n] for n in names]
    for _ in range(40):
        if first not in session.strikes:
            break
        await play_out(env, channel, game_id, actors, stop_after=1)
    assert first not in session.strikes, "the player's own move should clear their strike"

    # Now nobody moves: each expiry is a strike for someone, so within four expiries a
    # player reaches two in a row and forfeits. Two humans remain, so the game goes on with
    # a computer (at the server's default difficulty) in that seat.
    for _ in range(4):
        await env.advance_time(TIMER)
        if any(s.left for s in session.seats):
            break
    forfeited = [s for s in session.seats if s.left]
    assert session.status == "running" and len(forfeited) == 1
    assert forfeited[0].computer == "normal"
    assert session.forfeits == {forfeited[0].seat: "timeout"}
    assert "ran out of time too often, a forfeit" in table_text(channel, session)


async def test_timers_survive_restarts(db_path: Path) -> None:
    async with simcord.run(life_bot(db_path, default_turn_timer_seconds=TIMER)) as env:
        world = build_world(env)
        channel = world["channel"]
        game_id = await start_game(world, ["alice", "bob"])
        session = service(env).session(game_id)
        assert session is not None
        leader = session.game.attacker
        expected = lowest_lead(session.game, leader)
        deadline, version = session.deadline, session.version
        await env.advance_time(40)
        assert len(reminders(channel)) == 1

        await env.bot.close()
        await env.restart_bot(life_bot(db_path, default_turn_timer_seconds=TIMER))
        restored = service(env).session(game_id)
        assert restored is not None and restored is not session
        assert (restored.deadline, restored.reminded, restored.version) == (deadline, True, version)
        await env.advance_time(19)
        assert restored.version == version and len(reminders(channel)) == 1
        await env.advance_time(2)
        assert restored.version == version + 1
        last = list(restored.events)[-1]
        assert (last.kind, last.seat, last.cards) == ("attack", leader, (expected,))

        # The defender's deadline passes while the bot is down: it acts as soon as it is back.
        await env.bot.close()
        await env.advance_time(3 * TIMER)
        await env.restart_bot(life_bot(db_path, default_turn_timer_seconds=TIMER))
        again = service(env).session(game_id)
        assert again is not None and again.version == version + 2
        assert PublicEvent("timeout", 1 - leader, amount=1) in again.events
        assert ("take", 1 - leader) in [(e.kind, e.seat) for e in again.events]
        assert again.strikes == {leader: 1, 1 - leader: 1}
        await env.bot.close()


class BrokenPlayer:
    def choose(self, obs: Observation) -> Action | None:
        raise RuntimeError("the computer crashed")


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_a_failing_computer_does_not_freeze_the_table(db_path: Path) -> None:
    bot = life_bot(db_path)  # no turn timer: the fallback itself must keep the game going
    bot._ai_factory = lambda kind, seed: BrokenPlayer()
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        session = await start_against_computer(channel, alice, env)
        computer = next(s.seat for s in session.seats if s.user_id is None)
        await play_out(env, channel, 1, [alice])
        assert session.status == "finished"
        # The computer's moves were the safe defaults: it took or led its lowest card.
        kinds = {e.kind for e in session.events if e.seat == computer}
        assert kinds and kinds <= {"take", "attack", "pass", "out", "picked_up", "game_over"}
        assert all(
            len(e.cards) == 1 for e in session.events if e.seat == computer and e.kind == "attack"
        )
        await env.bot.close()
