"""A quiet channel (issue #10): a whole 2-player game, with the real defaults (a thread per
game where the bot may create threads, live hands, pings only for players who are away),
creates at most five public messages. Before live hands the same game made 51."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import DurakBot
from bot.game.models import GameSession
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import acting_seat, assert_no_leak, hand_moves, message, move, service
from tests.bot.test_live_hands import actor_of, open_hand, pings, seen, version_on


@pytest.fixture
def simcord_bot(db_path: Path) -> DurakBot:
    return make_bot(db_path, default_threads=True)


def bot_messages_created(env: simcord.Env) -> int:
    """Public messages the bot created: channel sends and non-ephemeral interaction answers
    and followups (deleted ones count too). The system line simcord adds to the channel when
    the bot starts the game's thread is Discord's, not a message the bot sends."""
    created = 0
    for r in env.http_requests:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method != "POST":
            continue
        if r.path.startswith("/channels/") and r.path.endswith("/messages"):
            created += 1
        elif r.path.startswith("/interactions/") and body.get("type") == 4:
            if not (body.get("data", {}).get("flags", 0) & 64):
                created += 1
        elif (
            r.path.startswith("/webhooks/")
            and "/messages" not in r.path
            and not (body.get("flags", 0) & 64)
        ):
            created += 1
    return created


async def play_with_thinking(
    env: simcord.Env, where: Any, session: GameSession, world: Any, rng: random.Random
) -> int:
    """Play to the end by clicks on each player's own (live) hand, thinking between moves;
    a player's hand is opened once, when they first need it. Returns the moves made."""
    hands: dict[int, int] = {}
    humans = [s.seat for s in session.seats]
    for moves in range(1, 3000):
        if session.finished:
            return moves - 1
        seat = acting_seat(session, humans)
        assert seat is not None
        actor = actor_of(world, session, seat)
        if seat not in hands:
            shown = await open_hand(actor, where, session)
            assert shown.response is not None
            hands[seat] = shown.response.id
        hand = seen(where, actor, hands[seat])
        if version_on(hand) != session.version:
            # The live edit is still on its way (debounce): a real player sees it a moment
            # later; a click on the older buttons would be answered with the current hand.
            await env.advance_time(2)
            hand = seen(where, actor, hands[seat])
        assert version_on(hand) == session.version, "the hand did not follow the game"
        assert hand_moves(hand)
        result = await move(actor, hand)
        assert result.response is not None and result.response.id == hands[seat]
        # Thinking: mostly seconds; once, somebody leaves for a few minutes (and is pinged).
        await env.advance_time(rng.choice([2, 3, 5, 8, 13, 20]) if moves != 20 else 400)
    raise AssertionError("the game did not end")


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_a_whole_two_player_game_makes_at_most_five_public_messages(
    simcord_env: simcord.Env,
) -> None:
    world = build_world(simcord_env)
    try:
        channel, alice, bob = world["channel"], world["alice"], world["bob"]
        created = await alice.slash(channel, "durak new", seats=2)
        assert not created.ephemeral
        (thread,) = channel.threads
        lobby = thread.history()[-1]
        await bob.click(lobby, label="Join")
        await simcord_env.advance_time(90)  # bob wanders off while alice starts
        await alice.click(message(thread, lobby.id), label="Start")
        session = service(simcord_env).session(1)
        assert session is not None and session.channel_id == thread.id
        moves = await play_with_thinking(simcord_env, thread, session, world, random.Random(5))
        assert moves > 10 and session.finished
        await simcord_env.advance_time(5)
        total = bot_messages_created(simcord_env)
        # The notice, the table, the result, and the pings: for bob, away when the game
        # started, and maybe one after the long pause (when the turn changed hands then).
        assert total <= 5, total
        assert 1 <= pings(simcord_env).posted <= 2
        # The game is over: no ping of it is left standing, only the result mentions people.
        *rest, result = thread.history()
        assert "fool" in result.content or "draw" in result.content
        assert not [m for m in rest if "<@" in (m.content or "")]
        # The channel itself only holds the notice that points to the thread, which now says
        # the game finished and links its result.
        notice, started = channel.history()
        assert "Durak table has finished" in notice.content and started.is_system()
        assert "See the result" in notice.content
        assert_no_leak(thread, world["eve"], session)
        assert_no_leak(channel, world["eve"], session)
    finally:
        await simcord_env.bot.close()
