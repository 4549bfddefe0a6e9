"""Rematch rows (bot/storage/rematch.py) on both backends: one live rematch per game, seats
confirmed through active_players."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import AlreadyInGame, ResultEntry, Storage
from bot.storage.rematch import RematchSeat
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
        storage.create_rematch(previous, previous, 1, "podkidnoy", {}, SEATS),
        storage.create_rematch(previous, previous, 1, "podkidnoy", {}, SEATS),
    )
    assert first[0] == second[0] and sorted([first[1], second[1]]) == [False, True]
    rematch = first[0]
    assert await storage.rematch_of(previous) == rematch
    assert await storage.rematch_confirmed(rematch) == {1}
    assert await storage.confirm_rematch(rematch, 2) is True
    assert await storage.confirm_rematch(rematch, 2) is False  # a second click
    assert await storage.rematch_confirmed(rematch) == {1, 2}
    # called off: the old button may open a new one
    assert await storage.cancel_game(rematch)
    assert await storage.rematch_of(previous) is None
    again, created = await storage.create_rematch(previous, previous, 2, "podkidnoy", {}, SEATS)
    assert created and again != rematch


async def test_a_host_playing_elsewhere_writes_nothing(storage: Storage) -> None:
    previous = await _finished_game(storage)
    elsewhere = await storage.create_lobby(GUILD, 9, 1, "podkidnoy", host_display_name="A")
    with pytest.raises(AlreadyInGame) as err:
        await storage.create_rematch(previous, previous, 1, "podkidnoy", {}, SEATS)
    assert err.value.game_id == elsewhere
    assert await storage.rematch_of(previous) is None
