"""``/durak tournament``: who may open one, private answers, withdrawing, calling off, and a
tournament without enough players at its start."""

from __future__ import annotations

from typing import Any

import simcord

from tests.bot.helpers import message, service


def _fields(msg: Any) -> str:
    embed = msg.embeds[0]
    return " ".join(f"{f.name} {f.value}" for f in embed.fields)


async def test_opening_signing_up_and_calling_off(world: Any, simcord_env: simcord.Env) -> None:
    channel, alice, bob, mod = world["channel"], world["alice"], world["bob"], world["mod"]
    refused = await alice.slash(channel, "durak tournament new")
    assert refused.ephemeral and "server managers" in (refused.response.content or "")
    shown = await alice.slash(channel, "durak tournament settings")
    assert shown.ephemeral and "server managers" in (shown.response.content or "")
    changed = await alice.slash(channel, "durak tournament settings", anyone=True)
    assert changed.ephemeral and "Only server managers" in (changed.response.content or "")
    allowed = await mod.slash(channel, "durak tournament settings", anyone=True, seconds=60)
    assert "every member" in (allowed.response.content or "") and "60 s" in (
        allowed.response.content or ""
    )
    bad = await alice.slash(channel, "durak tournament new", format="elimination", tables=3)
    assert bad.ephemeral and "tables of two" in (bad.response.content or "")
    opened = await alice.slash(channel, "durak tournament new", minutes=10)
    assert not opened.ephemeral
    announcement = message(channel, opened.response.id)
    assert "Sign-up closes" in _fields(announcement)

    joined = await bob.slash(channel, "durak tournament join")
    assert joined.ephemeral and "#1" in (joined.response.content or "")
    assert "bob" in _fields(message(channel, opened.response.id))
    standings = await bob.slash(channel, "durak tournament show")
    assert standings.ephemeral and standings.response.embeds
    left = await bob.click(message(channel, opened.response.id), label="Withdraw")
    assert left.ephemeral and "withdrew" in (left.response.content or "")
    again = await bob.click(message(channel, opened.response.id), label="Withdraw")
    assert "not playing in this tournament" in (again.response.content or "")
    await bob.click(message(channel, opened.response.id), label="Sign up")

    # Nobody but its opener (or a manager) calls it off.
    other = await bob.slash(channel, "durak tournament cancel")
    assert other.ephemeral and "Only the member who opened" in (other.response.content or "")

    # One player at the start time: called off, and the announcement says so.
    await simcord_env.advance_time(10 * 60 + 1)
    await simcord_env.settle()
    view = await service(simcord_env).tournament_view(1)
    assert view.row.status == "cancelled"
    assert "called off" in _fields(message(channel, opened.response.id))
    late = await alice.slash(channel, "durak tournament join", tournament=1)
    assert late.ephemeral and "closed" in (late.response.content or "")
    none = await alice.slash(channel, "durak tournament show")
    assert none.ephemeral and "No tournament" in (none.response.content or "")

    second = await alice.slash(channel, "durak tournament new")
    assert not second.ephemeral
    gone = await alice.slash(channel, "durak tournament cancel")
    assert gone.ephemeral and "called off" in (gone.response.content or "")
    assert "called off" in _fields(message(channel, second.response.id))
    assert not message(channel, second.response.id).components
