"""Rematch rows (bot/storage/rematch.py) on both backends: one live rematch per game, seats
confirmed through active_players."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import AlreadyInGame, ResultEntry, Storage
from bot.storage.rematch import RematchSeat, confirm, confirmed_users, create_rematch, rematch_of
from tests.storage.helpers import start_lobby

GUILD = 100


async def _finished_game(storage: Storage) -> int:
    game_id = await storage.create_lobby(GUILD, 1, 1, "podkidnoy", host_display_name="A")
    await storage.add_seat(game_id, user_id=2, display_name="B")
    await start_lobby(storage, game_id, '{"s": 1}', 1)
    await storage.finish_game(game_id, [ResultEntry(1, 0, "win"), ResultEntry(2, 1, "fool")], "{}")
    return game_id


SEATS = [RematchSeat(0, "A", user_id=1), RematchSeat(1, "B", user_id=2)]


async def test_one_live_rematch_per_game(storage: Storage) -> None:
    previous = await _finished_game(storage)
    first, second = await asyncio.gather(
        create_rematch(storage, previous, previous, 1, "podkidnoy", {}, SEATS),
        create_rematch(storage, previous, previous, 1, "podkidnoy", {}, SEATS),
    )
    assert first[0] == second[0] and sorted([first[1], second[1]]) == [False, True]
    rematch = first[0]
    assert await rematch_of(storage, previous) == rematch
    assert await confirmed_users(storage, rematch) == {1}
    assert await confirm(storage, rematch, 2) is True
    assert await confirm(storage, rematch, 2) is False  # a second click
    assert await confirmed_users(storage, rematch) == {1, 2}
    # called off: the old button may open a new one
    assert await storage.cancel_game(rematch)
    assert await rematch_of(storage, previous) is None
    again, created = await create_rematch(storage, previous, previous, 2, "podkidnoy", {}, SEATS)
    assert created and again != rematch


async def test_a_host_playing_elsewhere_writes_nothing(storage: Storage) -> None:
    previous = await _finished_game(storage)
    elsewhere = await storage.create_lobby(GUILD, 9, 1, "podkidnoy", host_display_name="A")
    with pytest.raises(AlreadyInGame) as err:
        await create_rematch(storage, previous, previous, 1, "podkidnoy", {}, SEATS)
    assert err.value.game_id == elsewhere
    assert await rematch_of(storage, previous) is None
