"""Lobby flow through real slash commands and buttons."""

from __future__ import annotations

from typing import Any

import simcord

from engine import RuleSet
from tests.bot.helpers import custom_ids, labels, message, message_text, rules_details, service


async def _new(world: dict[str, Any], **options: Any) -> tuple[int, int]:
    result = await world["alice"].slash(world["channel"], "durak new", **options)
    assert result.response is not None and not result.ephemeral
    lobby = result.response.message
    ids = custom_ids(lobby, "durak:lobby:")
    game_id = int(ids[0].split(":")[2])
    return game_id, lobby.id


async def test_new_lobby_shows_host_and_buttons(simcord_env: simcord.Env, world: Any) -> None:
    game_id, lobby_id = await _new(world, mode="podkidnoy", seats=3, deck=36)
    lobby = message(world["channel"], lobby_id)
    text = message_text(lobby)
    assert "Podkidnoy" in text and f"<@{world['alice'].id}>" in text and "(1, up to 3)" in text
    assert labels(lobby)[:4] == ["Join", "Leave", "Start", "Cancel"]
    assert custom_ids(lobby) == [
        f"durak:lobby:{game_id}:{op}"
        for op in ("join", "leave", "start", "cancel", "ai", "unai", "open")
    ] + [f"durak:lobbyai:{game_id}"]


async def test_join_leave_full_and_one_game_per_user(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    _game_id, lobby_id = await _new(world, seats=2)
    joined = await world["bob"].click(message(channel, lobby_id), label="Join")
    assert joined.acknowledged and not joined.ephemeral
    assert "(2, up to 2)" in message_text(message(channel, lobby_id))
    assert f"<@{world['bob'].id}>" in message_text(message(channel, lobby_id))

    full = await world["carol"].click(message(channel, lobby_id), label="Join")
    assert full.ephemeral and full.response is not None
    assert "full" in full.response.content

    again = await world["bob"].click(message(channel, lobby_id), label="Join")
    assert again.ephemeral and again.response is not None
    assert "already" in again.response.content

    # A second lobby in the same channel is refused; in another channel bob is still busy.
    other = world["guild"].create_text_channel("other")
    busy = await world["carol"].slash(channel, "durak new")
    assert busy.ephemeral and "already a game in this channel" in busy.response.content
    elsewhere = await world["bob"].slash(other, "durak new")
    assert elsewhere.ephemeral and "already in another game" in elsewhere.response.content

    left = await world["bob"].click(message(channel, lobby_id), label="Leave")
    assert left.acknowledged
    assert "(1, up to 2)" in message_text(message(channel, lobby_id))
    assert await service(simcord_env).game_for_user(world["bob"].id) is None


async def test_only_host_or_manager_starts_and_start_needs_two(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    simcord_env.bot.pings.watch_idle = 0  # players without a live hand count as away
    game_id, lobby_id = await _new(world, seats=3)
    alone = await world["alice"].click(message(channel, lobby_id), label="Start")
    assert alone.ephemeral and "At least 2 players" in alone.response.content

    await world["bob"].click(message(channel, lobby_id), label="Join")
    denied = await world["bob"].click(message(channel, lobby_id), label="Start")
    assert denied.ephemeral and "Only the host" in denied.response.content
    assert service(simcord_env).session(game_id) is None

    # Manage Server may start someone else's table (and is not seated by doing so).
    await world["mod"].click(message(channel, lobby_id), label="Start")
    session = service(simcord_env).session(game_id)
    assert session is not None and [s.user_id for s in session.seats] == [
        world["alice"].id,
        world["bob"].id,
    ]
    table = message(channel, lobby_id)  # the lobby message became the table
    assert custom_ids(table) == [f"durak:show:{game_id}", f"durak:watch:{game_id}:new"]
    assert "Trump" in message_text(table)
    # The first attacker is pinged with a short separate message.
    pings = [m for m in channel.history() if "your turn to lead" in (m.content or "")]
    attacker = session.seats[session.game.attacker]
    assert len(pings) == 1 and f"<@{attacker.user_id}>" in pings[0].content


async def test_cancel_lobby_and_computer_seats(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    _game_id, lobby_id = await _new(world, seats=4)
    # The level menu seats nobody: it sets the level of every computer, now and added next.
    await world["alice"].click(message(channel, lobby_id), label="Add computer")
    assert "Computer 1 (computer, Normal)" in message_text(message(channel, lobby_id))
    await world["alice"].select(message(channel, lobby_id), ["hard"])
    text = message_text(message(channel, lobby_id))
    assert "Computer 1 (computer, Hard)" in text and "Computer 2" not in text
    await world["alice"].click(message(channel, lobby_id), label="Add computer")
    text = message_text(message(channel, lobby_id))
    assert "Computer 1 (computer, Hard)" in text and "Computer 2 (computer, Hard)" in text
    denied = await world["bob"].click(message(channel, lobby_id), label="Remove computer")
    assert denied.ephemeral and "Only the host" in denied.response.content
    await world["alice"].click(message(channel, lobby_id), label="Remove computer")
    assert "Computer 2" not in message_text(message(channel, lobby_id))

    cancelled = await world["alice"].click(message(channel, lobby_id), label="Cancel")
    assert cancelled.acknowledged
    lobby = message(channel, lobby_id)
    assert "cancelled" in message_text(lobby) and custom_ids(lobby) == []
    assert await service(simcord_env).game_for_user(world["alice"].id) is None
    # The channel is free again.
    again = await world["alice"].slash(channel, "durak new")
    assert not again.ephemeral


async def test_preset_autocomplete_and_rules(simcord_env: simcord.Env, world: Any) -> None:
    alice, channel = world["alice"], world["channel"]
    options = await alice.autocomplete(channel, "durak new", "mode", "perev")
    values = [o["value"] for o in options]
    assert values == ["perevodnoy", "perevodnoy-kiev", "perevodnoy-pass-card"]
    assert all(len(o["name"]) <= 100 for o in options)

    embed = (await rules_details(alice, channel, mode="prostoy")).embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Who throws in"].startswith("**nobody** — ")
    assert len(fields) == len(RuleSet.describe_options())

    await _new(world, mode="perevodnoy", seats=3, deck=52)
    here = await rules_details(alice, channel)
    fields = {f.name: f.value for f in here.embeds[0].fields}
    assert fields["Transfers"].startswith("**before any card is beaten**")
    assert fields["Deck"].startswith("**52**")

    unknown = await alice.slash(channel, "durak rules", mode="nope")
    assert unknown.ephemeral and "Unknown game mode" in unknown.response.content


async def test_bad_rules_are_refused_before_the_lobby_opens(
    simcord_env: simcord.Env, world: Any
) -> None:
    result = await world["alice"].slash(world["channel"], "durak new", seats=5, deck=24)
    assert result.ephemeral and "can't be played" in result.response.content
    assert await service(simcord_env).game_for_user(world["alice"].id) is None
