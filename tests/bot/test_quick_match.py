"""``/durak quick`` by clicks (simcord): two players in the queue get a table, pinged once;
Leave and a second ``/durak quick`` take a player out; a lone player is offered the computer
by direct message after the server's wait, once, across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot.surfaces.quick_offers import QuickOfferButton
from bot.surfaces.quick_views import QuickLeaveButton
from tests.bot.conftest import make_bot
from tests.bot.helpers import labels, service


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


async def test_a_lone_player_is_offered_the_computer_once_across_a_restart(
    simcord_env: simcord.Env, world: Any, db_path: Path
) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, mod = world["alice"], world["bob"], world["mod"]
    await mod.slash(channel, "durak settings", quick_computer=60)
    await alice.slash(channel, "durak quick")
    await env.advance_time(45)
    assert alice.user.dm_channel.history() == []
    await env.advance_time(20)
    offers = alice.user.dm_channel.history()
    assert len(offers) == 1 and "Nobody has turned up yet" in offers[0].content
    assert "Durak Club" in offers[0].content
    assert labels(offers[0]) == ["Play the computer now", "Keep waiting", "Leave the queue"]
    await env.bot.close()
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(30)
    assert len(alice.user.dm_channel.history()) == 1  # not offered again
    offer = alice.user.dm_channel.history()[0]
    taken = await alice.user.click(offer, label="Play the computer now")
    assert taken.acknowledged and not taken.ephemeral
    await env.settle()
    svc = service(env)
    game_id = await svc.storage.user_active_game(alice.id)
    assert game_id is not None
    session = svc.session(game_id)
    assert session is not None and session.status == "running"
    assert [s.user_id for s in session.seats] == [alice.id, None]
    assert session.seats[1].computer == "normal"
    answer = alice.user.dm_channel.history()[0]
    assert "is open" in answer.content and str(session.message_id) in answer.content
    assert labels(answer) == []
    ready = [m for m in channel.history() if "against the computer" in (m.content or "")]
    assert len(ready) == 1 and f"<@{alice.id}>" in ready[0].content

    # Keep waiting keeps the place (and the Leave button, which works from the message)
    await bob.slash(channel, "durak quick")
    await env.advance_time(65)
    offer = bob.user.dm_channel.history()[0]
    kept = await bob.user.click(offer, label="Keep waiting")
    assert "keep your place" in (kept.response.content or "")
    assert await svc.storage.queue_entry(world["guild"].id, bob.id) is not None
    left = await bob.user.click(bob.user.dm_channel.history()[0], label="Leave the queue")
    assert "You left" in (left.response.content or "")
    assert await svc.storage.queue(world["guild"].id) == []


def test_quick_ids_old_and_new_parse() -> None:
    """The Leave button's id of before (no server) still parses beside the offer's ids."""
    leave = QuickLeaveButton.__discord_ui_compiled_template__
    offer = QuickOfferButton.__discord_ui_compiled_template__
    assert leave.fullmatch("durak:quick:leave") and leave.fullmatch("durak:quick:leave:42")
    assert offer.fullmatch("durak:quick:cpu:42") and offer.fullmatch("durak:quick:wait:42")
    assert not offer.fullmatch("durak:quick:cpu:x") and not leave.fullmatch("durak:quick:leave:")
