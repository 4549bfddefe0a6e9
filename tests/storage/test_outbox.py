"""What ended games still owe the channel (table ``outbox``, bot/surfaces/delivery.py)."""

from __future__ import annotations

import pytest

from bot.storage import OutboxRow, ResultEntry, Storage
from tests.storage.test_games import _running_game


async def test_finishing_a_game_owes_its_table_and_result_in_the_same_transaction(
    storage: Storage,
) -> None:
    game_id = await _running_game(storage, 1, 2)
    bad = [ResultEntry(1, 0, "win"), ResultEntry(2, 0, "fool")]  # duplicate seat: rolls back
    with pytest.raises(Exception):  # noqa: B017 - any DB error; the point is the rollback
        await storage.finish_game(game_id, bad, "{}", expected_version=1, new_version=2)
    assert await storage.outbox_pending() == []
    good = [ResultEntry(1, 0, "win"), ResultEntry(2, 1, "fool")]
    await storage.finish_game(game_id, good, "{}", expected_version=1, new_version=2)
    assert await storage.outbox_pending() == [
        OutboxRow(game_id, "result", 2),
        OutboxRow(game_id, "table", 2),
    ]
    await storage.outbox_done(game_id, "table", 1)  # an older delivery clears nothing
    assert len(await storage.outbox_pending()) == 2
    await storage.outbox_done(game_id, "table", 2)
    assert await storage.outbox_pending() == [OutboxRow(game_id, "result", 2)]


async def test_cancelling_owes_the_table_once(storage: Storage) -> None:
    game_id = await _running_game(storage, 1, 2)
    assert await storage.cancel_game(game_id)
    assert await storage.outbox_pending() == [OutboxRow(game_id, "table", 1)]
    assert not await storage.cancel_game(game_id)  # a second cancel owes nothing new
    assert await storage.outbox_pending() == [OutboxRow(game_id, "table", 1)]
    lobby = await storage.create_lobby(1, 99, 5, "podkidnoy")
    assert await storage.cancel_game(lobby)
    assert OutboxRow(lobby, "table", 0) in await storage.outbox_pending()


async def test_the_delivered_ping_version_only_grows(storage: Storage) -> None:
    game_id = await _running_game(storage, 1, 2)
    assert await storage.pinged_version(game_id) == 0
    await storage.ping_delivered(game_id, 5)
    await storage.ping_delivered(game_id, 3)  # a late report of an older ping
    assert await storage.pinged_version(game_id) == 5
    assert await storage.pinged_version(12345) == 0
