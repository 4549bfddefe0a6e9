"""The suite's patch of simcord (tests/simcord_timers.py): a timer the bot cancels leaves no
real-clock fallback behind in the event loop, so simcord's settlement does not rescan a
growing heap of dead timers at every click of a whole game."""

from __future__ import annotations

import asyncio
from typing import Any

import simcord

from tests import simcord_timers
from tests.bot.helpers import custom_ids, message, service, start_against_computer

OPENS = 12


def _live_timers() -> int:
    loop: Any = asyncio.get_running_loop()
    return sum(not handle.cancelled() for handle in loop._scheduled)


async def test_a_cancelled_timer_leaves_no_fallback(simcord_env: simcord.Env, world: Any) -> None:
    """Each "Show my hand" arms the live hand's 15-minute token timer and cancels the one
    before: the loop's live timers stay as many however often the hand is opened."""
    assert simcord_timers.install(), "simcord is not the version tests/simcord_timers.py wraps"
    alice, channel = world["alice"], world["channel"]
    session = await start_against_computer(channel, alice, simcord_env)
    assert session.message_id is not None
    table = message(channel, session.message_id)
    show = custom_ids(table, "durak:show:")[0]
    await alice.click(table, custom_id=show)
    before = _live_timers()
    for _ in range(OPENS):
        shown = await alice.click(table, custom_id=show)
        assert shown.response is not None and shown.response.ephemeral
    assert service(simcord_env).session(session.game_id) is session
    assert _live_timers() <= before + 1, (before, _live_timers())
