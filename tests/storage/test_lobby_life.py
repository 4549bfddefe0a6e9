"""Storage of a lobby's life on both backends: the idle deadline, expiry that frees the
players, the host hand-over and the merged options (where the channel notice lives)."""

from __future__ import annotations

import pytest

from bot.storage import InvalidGameStatus, Storage
from tests.storage.conftest import FakeClock


async def test_expiry_waits_for_the_deadline_and_frees_players(
    storage: Storage, clock: FakeClock
) -> None:
    game = await storage.create_lobby(1, 10, 100, "podkidnoy", {"seats": 3}, host_display_name="h")
    await storage.add_seat(game, display_name="b", user_id=200, max_seats=3)
    assert not await storage.expire_lobby(game)  # no deadline: never expires
    await storage.set_lobby_deadline(game, clock() + 60)
    assert not await storage.expire_lobby(game)  # not yet
    clock.advance(60)
    assert await storage.expire_lobby(game)
    row = await storage.get_game(game)
    assert row is not None and row.status == "cancelled" and row.options["closed"] == "expired"
    assert row.options["seats"] == 3 and row.turn_deadline is None
    assert await storage.user_active_game(100) is None
    assert await storage.user_active_game(200) is None
    assert not await storage.expire_lobby(game)  # once


async def test_host_hand_over_needs_a_seated_player(storage: Storage) -> None:
    game = await storage.create_lobby(1, 10, 100, "podkidnoy", {}, host_display_name="h")
    await storage.add_seat(game, display_name="b", user_id=200)
    with pytest.raises(ValueError):
        await storage.set_host(game, 300)
    await storage.set_host(game, 200)
    row = await storage.get_game(game)
    assert row is not None and row.host_id == 200
    await storage.update_game_options(game, {"notice": [10, 99]})
    row = await storage.get_game(game)
    assert row is not None and row.options["notice"] == [10, 99]
    await storage.cancel_game(game)
    with pytest.raises(InvalidGameStatus):
        await storage.set_host(game, 100)
