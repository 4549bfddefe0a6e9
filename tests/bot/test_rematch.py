"""Play again: the next deal at the same table (bot/game/rematch.py), driven through simcord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.game import rematch
from bot.game.series import Series
from engine import Game, RuleSet
from engine.ai import make_player
from engine.ai.arena import play_game
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import add_computer, custom_ids, message, message_text, play_out, service
from tests.bot.test_play import start_game


def _result_message(channel: Any, game_id: int) -> discord.Message:
    """The result announcement of ``game_id``: the message carrying its Play again button."""
    for msg in reversed(channel.history()):
        if f"durak:again:{game_id}:play" in custom_ids(msg):
            return msg
    raise AssertionError(f"no Play again button for game {game_id}")


async def _finish(env: simcord.Env, world: dict[str, Any], game_id: int, names: list[str]) -> Any:
    await play_out(env, world["channel"], game_id, [world[n] for n in names])
    session = service(env).session(game_id)
    assert session is not None and session.status == "finished"
    return session


@pytest.mark.slow(sample=1)  # whole games: in make test, not make check
async def test_play_again_keeps_seats_deals_by_the_rules_and_keeps_the_tally(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    names = ["alice", "bob"]
    first_id = await start_game(world, names)
    first = await _finish(simcord_env, world, first_id, names)
    assert first.series is None
    announcement = _result_message(channel, first_id)
    assert "Play again" in message_text(announcement)

    # A spectator is told politely that only the players can play again.
    eve = await world["eve"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert eve.response is not None and eve.response.ephemeral
    assert "Only the players of game" in (eve.response.content or "")
    # Bob sits in another game (a lobby in another channel): told so, nothing is created.
    other = world["guild"].create_text_channel("other")
    await world["bob"].slash(other, "durak new", seats=2)
    busy = await world["bob"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert busy.response is not None and "already in another game" in (busy.response.content or "")
    assert await service(simcord_env).storage.rematch_of(first_id) is None
    left = await world["bob"].slash(other, "durak leave")
    assert left.response is not None

    # Alice opens the rematch: a public message listing the same seats, Bob still to confirm.
    opened = await world["alice"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert opened.response is not None and not opened.response.ephemeral
    lobby = opened.response
    text = message_text(message(channel, lobby.id))
    assert "alice" in text.lower() or f"<@{world['alice'].id}>" in text
    assert "not confirmed yet" in text
    # A second click is answered, not applied twice.
    again = await world["alice"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert again.response is not None and again.response.ephemeral
    assert "already confirmed" in (again.response.content or "")
    # The channel now holds the rematch: a new /durak new here is refused as busy.
    carol = await world["carol"].slash(channel, "durak new", seats=2)
    assert carol.response is not None and "already a game in this channel" in (
        carol.response.content or ""
    )

    # Bob confirms from the rematch message: the deal starts, the message becomes the table.
    started = await world["bob"].click(
        message(channel, lobby.id), custom_id=f"durak:again:{first_id}:play"
    )
    assert started.response is not None and started.response.ephemeral
    assert "next deal has started" in (started.response.content or "")
    second_id = await service(simcord_env).storage.rematch_of(first_id)
    assert second_id is not None and second_id != first_id
    second = service(simcord_env).session(second_id)
    assert second is not None and not second.finished
    assert [(s.seat, s.user_id) for s in second.seats] == [(s.seat, s.user_id) for s in first.seats]
    # The engine's next deal: the fool deals, and (next_deal_lead = left_of_dealer) the player
    # to the dealer's left leads, "from under the fool".
    result = first.game.result
    assert result is not None
    dealer = result.fool if result.kind == "fool" else first.game.dealer
    assert second.game.dealer == dealer and second.game.deal_no == 2
    assert second.game.rules == first.game.rules
    assert second.game.attacker == (dealer + 1) % 2
    assert second.series is not None and second.series.previous == first_id
    assert second.series.series_id == first_id and second.series.deal == 2
    table = message(channel, second.message_id or 0)
    assert custom_ids(table, "durak:show:") == [f"durak:show:{second_id}"]
    # The first announcement's button now points at the game the session went on in.
    late = await world["bob"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert late.response is not None and late.response.ephemeral
    assert f"already goes on in game #{second_id}" in (late.response.content or "")
    table_text = message_text(table)
    assert "Matchsticks after 1 deal" in table_text

    # The second deal counts on the leaderboard like any game, and the tally adds it up.
    second = await _finish(simcord_env, world, second_id, names)
    storage = service(simcord_env).storage
    assert len(await storage.game_results(first_id)) == 2
    assert len(await storage.game_results(second_id)) == 2
    final = _result_message(channel, second_id)
    assert "Matchsticks after 2 deals" in (final.content or "")
    expected = [0, 0]
    for session in (first, second):
        r = session.game.result
        if r is not None and r.fool is not None:
            expected[r.fool] += 1
    fools, _draws = second.series.after(
        (second.game.result.fool,) if second.game.result.fool is not None else None
    )
    assert list(fools) == expected


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_declining_calls_the_rematch_off(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    names = ["alice", "bob"]
    first_id = await start_game(world, names)
    await _finish(simcord_env, world, first_id, names)
    announcement = _result_message(channel, first_id)
    opened = await world["alice"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert opened.response is not None
    lobby_id = opened.response.id
    no = await world["bob"].click(
        message(channel, lobby_id), custom_id=f"durak:again:{first_id}:no"
    )
    assert no.response is not None and "declined" in (no.response.content or "")
    await simcord_env.advance_time(0.1)
    shown = message(channel, lobby_id)
    assert "called off" in message_text(shown) and custom_ids(shown) == []
    assert await service(simcord_env).game_for_user(world["alice"].id) is None
    # Somebody else opens a table in the channel meanwhile: Play again finds it busy.
    carol = await world["carol"].slash(channel, "durak new", seats=2)
    assert carol.response is not None and not carol.response.ephemeral
    busy = await world["bob"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert busy.response is not None and busy.response.ephemeral
    assert "already a game in this channel" in (busy.response.content or "")
    await world["carol"].slash(channel, "durak cancel")
    # The channel is free again, and a fresh Play again may open a new rematch.
    reopened = await world["bob"].click(announcement, custom_id=f"durak:again:{first_id}:play")
    assert reopened.response is not None and not reopened.response.ephemeral


@pytest.mark.slow(sample=1)  # whole games and a restart: in make test, not make check
async def test_against_a_computer_one_click_deals_again_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rematch.db"
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        channel = world["channel"]
        created = await world["alice"].slash(channel, "durak new", seats=2)
        assert created.response is not None
        lobby = created.response.id
        await add_computer(world["alice"], channel, lobby)
        await world["alice"].click(message(channel, lobby), label="Start")
        first = await _finish(env, world, 1, ["alice"])
        clicked = await world["alice"].click(
            _result_message(channel, 1), custom_id="durak:again:1:play"
        )
        # Nobody else to wait for: the click answers with the new table at once.
        assert clicked.response is not None and not clicked.response.ephemeral
        assert custom_ids(message(channel, clicked.response.id), "durak:show:") == ["durak:show:2"]
        second = service(env).session(2)
        assert second is not None and second.seats[1].user_id is None
        assert second.seats[1].difficulty == first.seats[1].difficulty
        series = second.series
        assert series is not None

        await env.bot.close()
        await env.restart_bot(make_bot(db))
        restored = service(env).session(2)
        assert restored is not None and restored.series == series
        assert "Matchsticks after 1 deal" in message_text(message(channel, clicked.response.id))
        await env.bot.close()


@pytest.mark.parametrize(
    ("lead", "expected"),
    [("left_of_dealer", 1), ("duraka_uchat", -1), ("lowest_trump", None)],
)
def test_next_deal_follows_next_deal_lead(lead: str, expected: int | None) -> None:
    """The rematch deals with the engine's own rule: the fool deals, the lead follows
    next_deal_lead (checked on a finished four-player game)."""
    rules = RuleSet(players=4, next_deal_lead=lead)
    game = Game.new(rules, 7)
    play_game(game, [make_player("easy", i) for i in range(4)])
    assert game.result is not None
    nxt = rematch._deal(game, {}, 99)
    dealer = game.result.fool if game.result.fool is not None else game.dealer
    assert nxt.dealer == dealer and nxt.deal_no == 2
    if expected is not None:
        assert nxt.attacker == (dealer + expected) % 4
    else:
        assert nxt.attacker == Game.new(rules, 99, dealer=dealer).attacker


def test_a_game_ended_by_a_forfeit_is_dealt_by_the_forfeiter() -> None:
    game = Game.new(RuleSet(players=3), 5)
    nxt = rematch._deal(game, {2: "left"}, 11)
    assert nxt.dealer == 2 and nxt.attacker == 0


def test_series_round_trips_and_counts_matchsticks() -> None:
    s = Series.first(5, 3)
    s2 = s.next(5, (1,), 1)
    assert s2.deal == 2 and s2.fools == (0, 1, 0) and s2.dealer == 1
    s3 = s2.next(8, None, 1)
    assert s3.draws == 1 and s3.previous == 8 and s3.series_id == 5
    assert Series.from_json(s3.to_json()) == s3
    assert Series.from_json({"id": "x"}) is None and Series.from_json(None) is None


@pytest.mark.slow(sample=1)  # a whole game and a restart: in make test, not make check
async def test_a_pending_rematch_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "pending.db"
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        channel = world["channel"]
        names = ["alice", "bob"]
        first_id = await start_game(world, names)
        await _finish(env, world, first_id, names)
        announcement = _result_message(channel, first_id)
        opened = await world["alice"].click(announcement, custom_id=f"durak:again:{first_id}:play")
        assert opened.response is not None
        lobby_id = opened.response.id

        await env.bot.close()
        await env.restart_bot(make_bot(db))

        # The confirmation made before the restart still counts: Bob's click starts the deal.
        again = await world["alice"].click(
            message(channel, lobby_id), custom_id=f"durak:again:{first_id}:play"
        )
        assert again.response is not None and "already confirmed" in (again.response.content or "")
        started = await world["bob"].click(
            message(channel, lobby_id), custom_id=f"durak:again:{first_id}:play"
        )
        assert started.response is not None and "has started" in (started.response.content or "")
        second = service(env).session(first_id + 1)
        assert second is not None and second.series is not None
        assert second.series.previous == first_id and second.game.deal_no == 2
        await env.advance_time(0.1)
        assert custom_ids(message(channel, lobby_id), "durak:show:") == [
            f"durak:show:{first_id + 1}"
        ]
        await env.bot.close()
