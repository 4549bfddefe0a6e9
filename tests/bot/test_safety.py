"""Refusals: stale and double clicks, foreign users, malformed ids, finished games."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
import simcord

from bot.game.errors import NotAPlayer, StaleAction
from engine import Action
from tests.bot.helpers import (
    custom_ids,
    hand_moves,
    message,
    message_text,
    move,
    play_out,
    plays,
    service,
)
from tests.bot.test_play import start_game


def _attacker(world: dict[str, Any], env: simcord.Env, game_id: int) -> tuple[Any, Any]:
    session = service(env).session(game_id)
    assert session is not None
    attacker_id = session.seats[session.game.attacker].user_id
    defender_id = session.seats[session.game.defender].user_id
    by_id = {world[n].id: world[n] for n in ("alice", "bob")}
    return by_id[attacker_id], by_id[defender_id]


async def _open_hand(actor: Any, channel: Any, table_id: int) -> discord.Message:
    shown = await actor.click(
        message(channel, table_id), custom_id=f"durak:show:{_gid(channel, table_id)}"
    )
    assert shown.ephemeral and shown.response is not None and shown.response.ephemeral
    return shown.response.message


def _gid(channel: Any, table_id: int) -> int:
    return int(custom_ids(message(channel, table_id), "durak:show:")[0].split(":")[2])


async def test_stale_click_shows_current_hand_and_applies_nothing(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None
    table_id = session.message_id or 0
    attacker, _ = _attacker(world, simcord_env, game_id)

    old_hand = await _open_hand(attacker, channel, table_id)
    fresh_hand = await _open_hand(attacker, channel, table_id)
    second = hand_moves(old_hand)[0]
    applied = await move(attacker, fresh_hand)
    assert applied.response is not None and applied.response.ephemeral
    assert session.version == 2

    # The older message still shows version-1 buttons: refused, re-rendered, not applied.
    stale = await attacker.click(old_hand, custom_id=second)
    assert stale.response is not None and stale.response.ephemeral
    assert stale.response.id == old_hand.id
    assert "out of date" in stale.response.content
    assert session.version == 2
    refreshed = stale.response.message
    assert all(":2:" in cid for cid in hand_moves(refreshed))
    assert "Your hand" in message_text(refreshed)


async def test_double_click_applies_once(simcord_env: simcord.Env, world: Any) -> None:
    """Two interactions carrying the same button (a double click reaching the bot twice, or
    the same hand open in two clients): the first applies, the second is answered as stale.
    simcord cannot overlap two clicks, so the second copy comes from a second hand message
    drawn at the same version; truly concurrent calls are covered at the service level below.
    """
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    attacker, _ = _attacker(world, simcord_env, game_id)
    hand_a = await _open_hand(attacker, channel, session.message_id or 0)
    hand_b = await _open_hand(attacker, channel, session.message_id or 0)
    if not plays(hand_a):  # every card has partners: select the first card on both hands
        tap = custom_ids(hand_a, "durak:card:")[0]
        hand_a = (await attacker.click(hand_a, custom_id=tap)).response.message
        hand_b = (await attacker.click(hand_b, custom_id=tap)).response.message
    move = plays(hand_a)[0]
    assert move in plays(hand_b)
    events_before = len(session.events)
    first = await attacker.click(hand_a, custom_id=move)
    second = await attacker.click(hand_b, custom_id=move)
    assert session.version == 2
    assert len(session.events) == events_before + 1
    assert first.response is not None and not first.response.content
    assert second.response is not None and "out of date" in second.response.content


async def test_concurrent_service_calls_apply_exactly_once(
    simcord_env: simcord.Env, world: Any
) -> None:
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None
    seat = session.game.attacker
    user = session.seats[seat].user_id
    assert user is not None
    action: Action = session.game.legal_actions(seat)[0]
    outcomes = await asyncio.gather(
        svc.act(game_id, user, 1, action),
        svc.act(game_id, user, 1, action),
        return_exceptions=True,
    )
    assert sum(1 for o in outcomes if isinstance(o, StaleAction)) == 1
    assert session.version == 2
    row = await svc.storage.get_game(game_id)
    assert row is not None and row.version == 2
    with pytest.raises(NotAPlayer):
        await svc.act(game_id, world["eve"].id, 2, action)


async def test_foreign_users_get_polite_answers(simcord_env: simcord.Env, world: Any) -> None:
    channel, eve = world["channel"], world["eve"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    table = message(channel, session.message_id or 0)
    shown = await eve.click(table, custom_id=f"durak:show:{game_id}")
    assert shown.ephemeral and shown.response is not None
    assert shown.response.content.startswith(f"You are not playing in game #{game_id}.")
    assert "Watch" in shown.response.content  # pointed to the spectator's view
    hand = await eve.slash(channel, "durak hand")
    assert hand.ephemeral and "not in a game" in hand.response.content
    left = await eve.slash(channel, "durak leave")
    assert left.ephemeral and "not in a game" in left.response.content
    cancel = await eve.slash(channel, "durak cancel")
    assert cancel.ephemeral and "Only the host" in cancel.response.content
    assert session.version == 1 and not session.finished


async def test_malformed_and_unknown_ids_get_polite_answers(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice = world["channel"], world["alice"]
    await start_game(world, ["alice", "bob"])
    view = discord.ui.View(timeout=None)
    for cid in (
        "durak:act:1:x:attack:6s",
        "durak:act:1:1:attack:ZZ",
        "durak:zzz:1",
        "durak:show:x",
    ):
        view.add_item(discord.ui.Button(label=cid, custom_id=cid))
    posted = await simcord_env.bot.get_partial_messageable(channel.id).send("test", view=view)
    for cid in (
        "durak:act:1:x:attack:6s",
        "durak:act:1:1:attack:ZZ",
        "durak:zzz:1",
        "durak:show:x",
    ):
        answer = await alice.click(message(channel, posted.id), custom_id=cid)
        assert answer.ephemeral and answer.response is not None, cid
        assert answer.response.content.startswith("This button could not be understood"), cid


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_clicks_on_a_finished_game(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    attacker, _ = _attacker(world, simcord_env, game_id)
    old_hand = await _open_hand(attacker, channel, session.message_id or 0)
    await play_out(simcord_env, channel, game_id, [world["alice"], world["bob"]])
    assert session.finished
    late = await attacker.click(old_hand, custom_id=hand_moves(old_hand)[0])
    assert late.response is not None and late.response.ephemeral
    assert late.response.content.startswith("This game is over")
    assert custom_ids(late.response.message) == []
