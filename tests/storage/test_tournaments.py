"""Tournament rows (bot/storage/tournaments.py) on both backends: sign-up only while
signing up, a round written once, a table scored once, the winner's achievement."""

from __future__ import annotations

import pytest

from bot.storage import Storage, StorageError
from bot.storage.tournaments import TOURNAMENT_ACHIEVEMENT

GUILD = 100


async def _open(storage: Storage) -> int:
    return await storage.create_tournament(
        GUILD,
        7,
        1,
        preset="podkidnoy",
        format="swiss",
        rounds=3,
        seats=2,
        starts_at=1_700_000_600.0,
        locale="en",
    )


async def test_sign_up_withdraw_and_settings(storage: Storage) -> None:
    assert (await storage.tournament_settings(GUILD)).anyone_may_open is False
    saved = await storage.update_tournament_settings(GUILD, anyone_may_open=True)
    assert saved.anyone_may_open and saved.turn_seconds == 120
    assert (await storage.tournament_settings(GUILD)).anyone_may_open
    with pytest.raises(ValueError):
        await storage.update_tournament_settings(GUILD, turn_seconds=5)
    tid = await _open(storage)
    assert await storage.tournament_join(tid, 11, "Ann") is True
    assert await storage.tournament_join(tid, 11, "Ann") is False
    assert await storage.tournament_join(tid, 12, "Ben") is True
    assert await storage.tournament_leave(tid, 12) is True
    assert await storage.tournament_leave(tid, 12) is False
    assert [p.user_id for p in await storage.tournament_players(tid)] == [11]
    assert [r.id for r in await storage.guild_tournaments(GUILD)] == [tid]
    assert [r.id for r in await storage.load_tournaments()] == [tid]


async def test_rounds_tables_and_the_end(storage: Storage) -> None:
    tid = await _open(storage)
    for user, name in ((11, "Ann"), (12, "Ben"), (13, "Cat")):
        await storage.tournament_join(tid, user, name)
    assert await storage.begin_tournament(tid, {11: 1200, 12: 1000, 13: 1000}, 3)
    assert not await storage.begin_tournament(tid, {}, 3)
    with pytest.raises(StorageError):
        await storage.tournament_join(tid, 14, "Dan")
    # Withdrawing after the start drops the player; the row stays for the standings.
    assert await storage.tournament_leave(tid, 13) is True
    players = {p.user_id: p for p in await storage.tournament_players(tid)}
    assert players[13].dropped and players[11].rating == 1200
    assert await storage.add_round(tid, 1, [((11, 12), None), ((13,), {13: 1.0})])
    assert not await storage.add_round(tid, 1, [((11, 12), None)])  # written once
    assert not await storage.add_round(tid, 3, [((11, 12), None)])  # not the next one
    game_id = await storage.create_lobby(GUILD, 7, 11, "podkidnoy", host_display_name="Ann")
    await storage.set_table_game(tid, 1, 1, game_id)
    assert await storage.tournament_of_game(game_id) == tid
    assert await storage.score_table(tid, 1, 1, {11: 1.0, 12: 0.0})
    assert not await storage.score_table(tid, 1, 1, {11: 0.0, 12: 1.0})  # scored once
    tables = await storage.tournament_tables(tid)
    assert [(t.round, t.number, t.players, t.points) for t in tables] == [
        (1, 1, (11, 12), {11: 1.0, 12: 0.0}),
        (1, 2, (13,), {13: 1.0}),
    ]
    assert await storage.round_message(tid, 1) is None
    await storage.set_round_message(tid, 1, 555)
    assert await storage.round_message(tid, 1) == 555
    assert (await storage.get_tournament(tid)).round == 1  # type: ignore[union-attr]
    assert await storage.finish_tournament(tid, 11, game_id)
    assert not await storage.finish_tournament(tid, 11, game_id)
    assert await storage.tournament_wins(GUILD, 11) == 1
    profile = await storage.rating_profile(GUILD, 11)
    assert TOURNAMENT_ACHIEVEMENT in [k for k, _ in profile.achievements]
    assert not await storage.cancel_tournament(tid)
    with pytest.raises(StorageError):
        await storage.tournament_leave(tid, 11)


async def test_a_ratings_rebuild_keeps_the_champions(storage: Storage) -> None:
    tid = await _open(storage)
    for user, name in ((11, "Ann"), (12, "Ben")):
        await storage.tournament_join(tid, user, name)
    await storage.begin_tournament(tid, {11: 1000, 12: 1000}, 1)
    await storage.finish_tournament(tid, 12, None)
    await storage.rebuild_ratings()
    profile = await storage.rating_profile(GUILD, 12)
    assert TOURNAMENT_ACHIEVEMENT in [k for k, _ in profile.achievements]
