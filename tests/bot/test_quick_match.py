"""``/durak quick`` by clicks (simcord): two players in the queue get a table, pinged once;
Leave and a second ``/durak quick`` take a player out."""

from __future__ import annotations

from typing import Any

import simcord

from tests.bot.helpers import service


async def test_two_players_in_the_queue_get_a_table(simcord_env: simcord.Env, world: Any) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    waiting = await alice.slash(channel, "durak quick")
    assert waiting.ephemeral and "quick-match queue" in waiting.response.content
    # carol joins and leaves by the button, then joins and leaves by the command
    carol_in = await carol.slash(channel, "durak quick", mode="perevodnoy")
    left = await carol.click(carol_in.response.message, custom_id="durak:quick:leave")
    assert "You left the quick-match queue" in left.response.content
    await carol.slash(channel, "durak quick", mode="perevodnoy")
    again = await carol.slash(channel, "durak quick", mode="perevodnoy")
    assert "You left" in again.response.content
    seated = await bob.slash(channel, "durak quick")
    assert "opening for you" in seated.response.content
    await env.settle()
    posted = channel.history() + [m for thread in channel.threads for m in thread.history()]
    ready = [m for m in posted if "quick match found" in (m.content or "")]
    assert len(ready) == 1
    assert f"<@{alice.id}>" in ready[0].content and f"<@{bob.id}>" in ready[0].content
    svc = service(env)
    game_id = await svc.storage.user_active_game(alice.id)
    assert game_id is not None and game_id == await svc.storage.user_active_game(bob.id)
    session = svc.session(game_id)
    assert session is not None and session.status == "running"
    assert [s.user_id for s in session.seats] == [alice.id, bob.id]
    assert await svc.storage.queue(world["guild"].id) == []
    busy = await alice.slash(channel, "durak quick")
    assert "already at a table" in busy.response.content
