"""A lobby's life on simcord: "up to N" seats, host hand-over and a host leaving, idle expiry
(across a restart too), invites, the confirmed leave of a running game, and the channel
notice that follows a game played in a thread to its end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from tests.bot.conftest import make_bot
from tests.bot.helpers import (
    add_computer,
    custom_ids,
    labels,
    leave_running,
    message,
    message_text,
    play_out,
    service,
)


async def _new(world: dict[str, Any], host: str = "alice", **options: Any) -> tuple[int, int]:
    result = await world[host].slash(world["channel"], "durak new", **options)
    assert result.response is not None and not result.ephemeral, result.response
    ids = custom_ids(result.response.message, "durak:lobby:")
    assert ids, message_text(result.response.message)
    return int(ids[0].split(":")[2]), result.response.id


async def test_start_with_three_of_up_to_four(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    game_id, lobby_id = await _new(world, seats=4)
    for name in ("bob", "carol"):
        await world[name].click(message(channel, lobby_id), label="Join")
    text = message_text(message(channel, lobby_id))
    assert "Players (3, up to 4)" in text and "empty seats are left out" in text
    await world["alice"].click(message(channel, lobby_id), label="Start")
    session = service(simcord_env).session(game_id)
    assert session is not None and session.game.n == 3
    assert [s.user_id for s in session.seats] == [world[n].id for n in ("alice", "bob", "carol")]


async def test_default_lobby_offers_the_largest_table(simcord_env: simcord.Env, world: Any) -> None:
    _game_id, lobby_id = await _new(world)
    assert "Players (1, up to 6)" in message_text(message(world["channel"], lobby_id))


async def test_host_hands_over(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    game_id, lobby_id = await _new(world, seats=3)
    # Alone at the table there is nobody to hand over to: no host menu.
    assert f"durak:lobbyhost:{game_id}" not in custom_ids(message(channel, lobby_id))
    await bob.click(message(channel, lobby_id), label="Join")
    assert f"durak:lobbyhost:{game_id}" in custom_ids(message(channel, lobby_id))
    # Only the host may hand over.
    denied = await bob.select(
        message(channel, lobby_id), [str(bob.id)], custom_id=f"durak:lobbyhost:{game_id}"
    )
    assert denied.ephemeral and "Only the host" in denied.response.content
    await alice.select(
        message(channel, lobby_id), [str(bob.id)], custom_id=f"durak:lobbyhost:{game_id}"
    )
    assert (await service(simcord_env).lobby(game_id)).host_id == bob.id
    assert f"Host: <@{bob.id}>" in message_text(message(channel, lobby_id))
    refused = await alice.click(message(channel, lobby_id), label="Start")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await bob.click(message(channel, lobby_id), label="Start")
    assert service(simcord_env).session(game_id) is not None


async def test_host_leaving_passes_the_lobby_on(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, bob, carol = world["channel"], world["alice"], world["bob"], world["carol"]
    svc = service(simcord_env)
    game_id, lobby_id = await _new(world, seats=4)
    await bob.click(message(channel, lobby_id), label="Join")
    await carol.click(message(channel, lobby_id), label="Join")
    await alice.click(message(channel, lobby_id), label="Leave")
    info = await svc.lobby(game_id)
    assert info.status == "lobby" and info.host_id == bob.id
    assert [s.user_id for s in info.seats] == [bob.id, carol.id]
    assert await svc.game_for_user(alice.id) is None
    # The last human leaving does cancel: nobody would be left to start it.
    await carol.click(message(channel, lobby_id), label="Leave")
    await bob.click(message(channel, lobby_id), label="Leave")
    assert (await svc.lobby(game_id)).status == "cancelled"
    assert "cancelled" in message_text(message(channel, lobby_id))


async def test_idle_lobby_expires_and_frees_its_players(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, bob = world["channel"], world["bob"]
    svc = service(simcord_env)
    game_id, lobby_id = await _new(world, seats=3)
    assert "Closes <t:" in message_text(message(channel, lobby_id))
    await simcord_env.advance_time(10 * 60)
    await bob.click(message(channel, lobby_id), label="Join")  # activity: the clock restarts
    await simcord_env.advance_time(10 * 60)
    assert (await svc.lobby(game_id)).status == "lobby"
    await simcord_env.advance_time(5 * 60 + 1)
    info = await svc.lobby(game_id)
    assert info.status == "cancelled" and info.closed == "expired"
    text = message_text(message(channel, lobby_id))
    assert "This lobby expired" in text and custom_ids(message(channel, lobby_id)) == []
    assert await svc.game_for_user(world["alice"].id) is None
    assert await svc.game_for_user(bob.id) is None
    again = await world["alice"].slash(channel, "durak new")
    assert not again.ephemeral


async def test_expiry_survives_a_restart(
    simcord_env: simcord.Env, world: Any, db_path: Path
) -> None:
    channel, mod = world["channel"], world["mod"]
    await mod.slash(channel, "durak settings", lobby_idle=5, threads=False)
    game_id, lobby_id = await _new(world)
    await simcord_env.advance_time(3 * 60)
    await simcord_env.bot.close()
    await simcord_env.restart_bot(make_bot(db_path))
    svc = service(simcord_env)
    await simcord_env.advance_time(60)
    assert (await svc.lobby(game_id)).status == "lobby"
    await simcord_env.advance_time(61)
    assert (await svc.lobby(game_id)).closed == "expired"
    assert "This lobby expired" in message_text(message(channel, lobby_id))


async def test_invite_pings_with_a_join_button(simcord_env: simcord.Env, world: Any) -> None:
    channel, bob, carol = world["channel"], world["bob"], world["carol"]
    game_id, lobby_id = await _new(world, seats=3, invite=bob, invite2=carol)
    invite = channel.history()[-1]
    assert invite.id != lobby_id
    assert f"<@{bob.id}>, <@{carol.id}>: <@{world['alice'].id}> invites you" in invite.content
    assert {bob.id, carol.id} <= {u.id for u in invite.mentions}
    assert labels(invite) == ["Join"]
    joined = await bob.click(invite, label="Join")
    assert joined.acknowledged and not joined.ephemeral
    assert f"<@{bob.id}>" in message_text(message(channel, lobby_id))
    assert [s.user_id for s in (await service(simcord_env).lobby(game_id)).humans] == [
        world["alice"].id,
        bob.id,
    ]


def message_of(result: simcord.InteractionResult) -> Any:
    assert result.response is not None
    return result.response.message


async def _running_game(env: simcord.Env, world: Any) -> int:
    channel = world["channel"]
    game_id, lobby_id = await _new(world, seats=4)
    await world["bob"].click(message(channel, lobby_id), label="Join")
    await world["carol"].click(message(channel, lobby_id), label="Join")
    await add_computer(world["alice"], channel, lobby_id)
    await world["alice"].click(message(channel, lobby_id), label="Start")
    assert service(env).session(game_id) is not None
    return game_id


async def test_leave_asks_first_and_stay_keeps_the_seat(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, bob = world["channel"], world["bob"]
    game_id = await _running_game(simcord_env, world)
    asked = await bob.slash(channel, "durak leave")
    assert asked.ephemeral
    assert "**forfeit**" in asked.response.content and "a computer plays your seat" in (
        asked.response.content
    )
    assert labels(asked.response.message) == ["Forfeit and leave", "Stay"]
    stayed = await bob.click(asked.response.message, label="Stay")
    assert stayed.response is not None and "You stay in game" in stayed.response.content
    session = service(simcord_env).session(game_id)
    assert session is not None and session.seat_of(bob.id) == 1 and not session.finished


async def test_confirmed_leave_forfeits(simcord_env: simcord.Env, world: Any) -> None:
    channel, bob = world["channel"], world["bob"]
    svc = service(simcord_env)
    game_id = await _running_game(simcord_env, world)
    asked = await bob.slash(channel, "durak leave")
    done = await bob.click(asked.response.message, label="Forfeit and leave")
    assert done.response is not None and "You left game #" in done.response.content
    session = svc.session(game_id)
    assert session is not None and session.seat_of(bob.id) is None
    assert session.forfeits.get(1) == "left"
    assert await svc.game_for_user(bob.id) is None
    # The question is answered (its buttons are gone); bob sits nowhere now.
    assert labels(message_of(done)) == []
    again = await bob.slash(channel, "durak leave")
    assert again.ephemeral and "not in a game" in again.response.content


async def test_notice_follows_its_game_to_the_result(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, bob, mod = world["channel"], world["alice"], world["bob"], world["mod"]
    await mod.slash(channel, "durak settings", threads=True)
    created = await alice.slash(channel, "durak new", seats=2)
    notice_id = created.response.id
    (thread,) = channel.threads
    lobby = thread.history()[-1]
    await bob.click(lobby, label="Join")
    await alice.click(message(thread, lobby.id), label="Start")
    assert message(channel, notice_id).content == (
        f"<@{alice.id}>'s Durak table is being played: <#{thread.id}>"
    )
    await play_out(simcord_env, thread, 1, [alice, bob], stop_after=4)
    await leave_running(bob, thread)  # too few humans remain: the game ends with a result
    assert service(simcord_env).session(1).status == "finished"  # type: ignore[union-attr]
    notice = message(channel, notice_id).content
    assert notice.startswith(f"<@{alice.id}>'s Durak table has finished: <#{thread.id}>")
    link = notice.split("[See the result](", 1)[1].rstrip(")")
    result_id = int(link.rsplit("/", 1)[1])
    assert f"/{thread.id}/" in link and result_id != lobby.id
    assert message(thread, result_id).content  # the result announcement itself


async def test_notice_follows_a_cancel(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    await mod.slash(channel, "durak settings", threads=True)
    created = await alice.slash(channel, "durak new")
    (thread,) = channel.threads
    lobby = thread.history()[-1]
    await alice.click(lobby, label="Cancel")
    assert message(channel, created.response.id).content == (
        f"<@{alice.id}>'s Durak table was cancelled."
    )
