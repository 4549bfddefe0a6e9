"""Storage methods added for game sessions: channel lookup, atomic start with seat
renumbering, and a human leaving a running game."""

from __future__ import annotations

import pytest

from bot.storage import InvalidGameStatus, StaleVersion, Storage

GUILD, CHANNEL = 100, 200


async def test_active_game_in_channel(storage: Storage) -> None:
    assert await storage.active_game_in_channel(CHANNEL) is None
    game_id = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy", host_display_name="a")
    assert await storage.active_game_in_channel(CHANNEL) == game_id
    assert await storage.active_game_in_channel(CHANNEL + 1) is None
    in_thread = await storage.create_lobby(
        GUILD, CHANNEL, 2, "podkidnoy", host_display_name="b", thread_id=300
    )
    assert await storage.active_game_in_channel(300) == in_thread
    await storage.cancel_game(game_id)
    assert await storage.active_game_in_channel(CHANNEL) is None


async def test_begin_game_renumbers_seats_atomically(storage: Storage) -> None:
    game_id = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy", host_display_name="a")
    await storage.add_seat(game_id, user_id=2, display_name="b")  # seat 1
    await storage.add_seat(game_id, ai_difficulty="easy", display_name="#1")  # seat 2
    await storage.add_seat(game_id, user_id=3, display_name="c")  # seat 3
    await storage.remove_seat(game_id, 1)  # gap at 1
    with pytest.raises(ValueError):
        await storage.begin_game(game_id, [0, 1, 2], "{}")  # seat 1 is gone
    game = await storage.get_game(game_id)
    assert game is not None and game.status == "lobby"  # nothing happened

    await storage.begin_game(game_id, [3, 0, 2], '{"s": 1}', version=1, deadline=50.0)
    seats = await storage.seats(game_id)
    assert [(s.seat, s.user_id, s.display_name) for s in seats] == [
        (0, 3, "c"),
        (1, 1, "a"),
        (2, None, "#1"),
    ]
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.status, game.state_json, game.version, game.turn_deadline) == (
        "running",
        '{"s": 1}',
        1,
        50.0,
    )
    with pytest.raises(InvalidGameStatus):
        await storage.begin_game(game_id, [0, 1, 2], "{}")


async def test_leave_running_game(storage: Storage) -> None:
    game_id = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy", host_display_name="a")
    await storage.add_seat(game_id, user_id=2, display_name="b")
    await storage.add_seat(game_id, ai_difficulty="easy", display_name="#1")
    await storage.begin_game(game_id, [0, 1, 2], '{"v": 1}')

    with pytest.raises(StaleVersion):
        await storage.leave_running_game(game_id, 1, '{"v": 2}', expected_version=5, new_version=6)
    assert await storage.user_active_game(2) == game_id  # the refused leave changed nothing
    with pytest.raises(ValueError):
        await storage.leave_running_game(game_id, 2, "{}", expected_version=1, new_version=2)

    left = await storage.leave_running_game(
        game_id, 1, '{"v": 2}', expected_version=1, new_version=2
    )
    assert left.user_id == 2 and left.left_at is not None
    assert await storage.user_active_game(2) is None
    assert await storage.user_active_game(1) == game_id
    game = await storage.get_game(game_id)
    assert game is not None and (game.version, game.state_json) == (2, '{"v": 2}')
    seats = await storage.seats(game_id)
    assert seats[1].left_at == left.left_at
