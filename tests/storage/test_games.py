"""Lobby/game lifecycle: seats, one active game per user, versioning, atomic finish."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

import bot.storage.sqlite as sqlite_backend
from bot.storage import (
    AlreadyInGame,
    GameNotFound,
    InvalidGameStatus,
    LobbyFull,
    ResultEntry,
    SeatTaken,
    StaleVersion,
    Storage,
)
from bot.storage.postgres import PostgresDatabase
from tests.postgres import fresh_schema
from tests.storage.conftest import FakeClock
from tests.storage.helpers import start_lobby

GUILD, CHANNEL = 100, 200


async def _running_game(storage: Storage, *users: int) -> int:
    game_id = await storage.create_lobby(
        GUILD, CHANNEL, users[0], "podkidnoy", {"deck": 36}, host_display_name=f"u{users[0]}"
    )
    for user in users[1:]:
        await storage.add_seat(game_id, user_id=user, display_name=f"u{user}")
    await start_lobby(storage, game_id, '{"v": 1}', 1)
    return game_id


async def test_create_lobby_and_seats(storage: Storage, clock: FakeClock) -> None:
    game_id = await storage.create_lobby(
        GUILD, CHANNEL, 1, "perevodnoy", {"deck": 36}, host_display_name="Host"
    )
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.status, game.preset, game.options, game.version) == (
        "lobby",
        "perevodnoy",
        {"deck": 36},
        0,
    )
    assert game.created_at == clock.now
    assert await storage.user_active_game(1) == game_id
    assert await storage.add_seat(game_id, ai_difficulty="hard", display_name="Bot") == 1
    assert await storage.add_seat(game_id, user_id=2, display_name="Two") == 2
    seats = await storage.seats(game_id)
    assert [(s.seat, s.user_id, s.ai_difficulty, s.is_ai) for s in seats] == [
        (0, 1, None, False),
        (1, None, "hard", True),
        (2, 2, None, False),
    ]
    removed = await storage.remove_seat(game_id, 1)
    assert removed is not None and removed.is_ai
    # Lowest free seat is reused.
    assert await storage.add_seat(game_id, ai_difficulty="easy", display_name="Bot2") == 1
    with pytest.raises(SeatTaken):
        await storage.add_seat(game_id, user_id=3, display_name="x", seat=2)
    with pytest.raises(LobbyFull):
        await storage.add_seat(game_id, user_id=3, display_name="x", max_seats=3)
    assert await storage.user_active_game(3) is None  # failed join claimed nothing
    with pytest.raises(ValueError):
        await storage.add_seat(game_id, display_name="nobody")
    assert await storage.remove_seat(game_id, 9) is None


async def test_set_table_message(storage: Storage) -> None:
    game_id = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy")
    await storage.set_table_message(game_id, message_id=555, thread_id=777)
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.table_message_id, game.thread_id, game.channel_id) == (555, 777, CHANNEL)
    assert game.message_channel_id == 777
    with pytest.raises(GameNotFound):
        await storage.set_table_message(999, message_id=1)


async def test_one_active_game_per_user(storage: Storage) -> None:
    first = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy", host_display_name="A")
    with pytest.raises(AlreadyInGame) as err:
        await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy", host_display_name="A")
    assert err.value.game_id == first
    # The failed create must not leave an orphan lobby behind.
    assert [g.id for g in await storage.load_lobbies()] == [first]

    second = await storage.create_lobby(GUILD, CHANNEL, 2, "podkidnoy", host_display_name="B")
    with pytest.raises(AlreadyInGame):
        await storage.add_seat(second, user_id=1, display_name="A")
    with pytest.raises(AlreadyInGame):  # joining the same game twice
        await storage.add_seat(first, user_id=1, display_name="A")

    await storage.remove_seat(first, 0)
    assert await storage.user_active_game(1) is None
    await storage.add_seat(second, user_id=1, display_name="A")
    assert await storage.user_active_game(1) == second


async def test_concurrent_joins_only_one_wins(storage: Storage) -> None:
    a = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy")
    b = await storage.create_lobby(GUILD, CHANNEL, 2, "podkidnoy")
    outcomes = await asyncio.gather(
        storage.add_seat(a, user_id=9, display_name="x"),
        storage.add_seat(b, user_id=9, display_name="x"),
        return_exceptions=True,
    )
    assert sum(isinstance(o, AlreadyInGame) for o in outcomes) == 1
    assert sum(isinstance(o, int) for o in outcomes) == 1


async def test_optimistic_versioning(storage: Storage) -> None:
    game_id = await _running_game(storage, 1, 2)
    await storage.save_state(game_id, '{"v": 2}', 1, 2, deadline=123.0, timer_strikes={"0": 1})
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.state_json, game.version, game.turn_deadline, game.timer_strikes) == (
        '{"v": 2}',
        2,
        123.0,
        {"0": 1},
    )
    # A duplicated action based on the old version is refused and changes nothing.
    with pytest.raises(StaleVersion) as err:
        await storage.save_state(game_id, '{"dup": true}', 1, 2)
    assert (err.value.expected, err.value.actual) == (1, 2)
    game = await storage.get_game(game_id)
    assert game is not None and game.state_json == '{"v": 2}'
    # deadline None clears the timer, strikes untouched when not given.
    await storage.save_state(game_id, '{"v": 3}', 2, 3)
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.turn_deadline, game.timer_strikes) == (None, {"0": 1})
    with pytest.raises(ValueError):
        await storage.save_state(game_id, "{}", 3, 3)


async def test_concurrent_saves_one_wins(storage: Storage) -> None:
    game_id = await _running_game(storage, 1, 2)
    outcomes = await asyncio.gather(
        *(storage.save_state(game_id, f'{{"click": {i}}}', 1, 2) for i in range(5)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 4


def _spy_batches(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Sizes of the group-commit batches the storage's backend takes from its queue."""
    backend = sys.modules[type(storage.database).__module__]
    real = backend.take_batch
    batches: list[int] = []

    def spy(queue: Any) -> Any:
        batch = real(queue)
        if batch:
            batches.append(len(batch))
        return batch

    monkeypatch.setattr(backend, "take_batch", spy)
    return batches


async def _many_games_in_few_batches(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [await _running_game(storage, 10 + 2 * i, 11 + 2 * i) for i in range(20)]
    batches = _spy_batches(storage, monkeypatch)
    await asyncio.gather(*(storage.save_state(g, f'{{"g": {g}}}', 1, 2) for g in games))
    for g in games:
        row = await storage.get_game(g)
        assert row is not None and (row.state_json, row.version) == (f'{{"g": {g}}}', 2)
    # the moves queued together were committed together, not one transaction each
    assert sum(batches) == len(games) and len(batches) < len(games)


async def _stale_move_isolated(storage: Storage) -> None:
    a, b, c = [await _running_game(storage, 100 + 2 * i, 101 + 2 * i) for i in range(3)]
    await storage.save_state(a, '{"a": 2}', 1, 2)
    outcomes = await asyncio.gather(
        storage.save_state(a, '{"a": "late"}', 1, 2),
        storage.save_state(b, '{"b": 2}', 1, 2),
        storage.save_state(c, '{"c": 2}', 1, 2),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], StaleVersion) and outcomes[0].actual == 2
    assert outcomes[1:] == [None, None]
    states = [await storage.get_game(g) for g in (a, b, c)]
    assert [(s.state_json, s.version) for s in states if s is not None] == [
        ('{"a": 2}', 2),
        ('{"b": 2}', 2),
        ('{"c": 2}', 2),
    ]


async def test_group_commit_writes_many_games_in_one_transaction(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _many_games_in_few_batches(storage, monkeypatch)


async def test_group_commit_isolates_a_stale_move(storage: Storage) -> None:
    await _stale_move_isolated(storage)


async def test_group_commit_on_sqlite_older_than_returning(
    sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite before 3.35 has no UPDATE ... FROM ... RETURNING: a batch is written row by
    row, still in one transaction, and still gives each move its own answer."""
    monkeypatch.setattr(sqlite_backend, "_BATCH_STATEMENT", False)
    await _many_games_in_few_batches(sqlite_storage, monkeypatch)
    await _stale_move_isolated(sqlite_storage)


async def test_a_move_written_by_another_process_makes_ours_stale(db_url: str) -> None:
    """Two storages on one database (two bot processes): the version check is in the
    database, so the second writer of the same version is refused, not only by a lock."""
    async with await Storage.open(db_url) as one, await Storage.open(db_url) as two:
        game_id = await _running_game(one, 1, 2)
        await two.save_state(game_id, '{"by": "two"}', 1, 2)
        with pytest.raises(StaleVersion) as err:
            await one.save_state(game_id, '{"by": "one"}', 1, 2)
        assert err.value.actual == 2
        with pytest.raises(StaleVersion):
            await one.finish_game(game_id, [], '{"end": 1}', expected_version=1)
        # finishing from the other process, then a late move from the first
        await one.finish_game(game_id, [], '{"end": 1}', expected_version=2)
        with pytest.raises(InvalidGameStatus):
            await two.save_state(game_id, '{"late": 1}', 2, 3)
        game = await two.get_game(game_id)
        assert game is not None and (game.status, game.state_json) == ("finished", '{"end": 1}')


async def test_moves_queued_during_a_commit_ride_the_same_trip(
    sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves queued while a batch is being committed go into the very next batch of the
    same writer run: they wait for one commit in flight, not for a writer of their own."""
    monkeypatch.setattr(sqlite_backend, "_STATE_TRIP_SECONDS", 60.0)  # no slow-machine split
    storage = sqlite_storage
    db = storage.database
    assert isinstance(db, sqlite_backend.SqliteDatabase)
    games = [await _running_game(storage, 10 + 2 * i, 11 + 2 * i) for i in range(4)]
    real_update, real_drain = db._update_states, db._drain_states
    batches: list[int] = []
    trips: list[int] = []
    later: list[asyncio.Task[None]] = []

    async def update(batch: Any) -> list[bool]:
        batches.append(len(batch))
        if len(batches) == 1:  # while the first move commits, three more arrive
            later.extend(
                asyncio.create_task(storage.save_state(g, f'{{"g": {g}}}', 1, 2)) for g in games[1:]
            )
            await asyncio.sleep(0)
        return await real_update(batch)

    async def drain() -> None:
        trips.append(1)
        await real_drain()

    monkeypatch.setattr(db, "_update_states", update)
    monkeypatch.setattr(db, "_drain_states", drain)
    await storage.save_state(games[0], f'{{"g": {games[0]}}}', 1, 2)
    await asyncio.gather(*later)
    assert batches == [1, 3] and trips == [1]
    for g in games:
        row = await storage.get_game(g)
        assert row is not None and (row.state_json, row.version) == (f'{{"g": {g}}}', 2)


async def test_a_batch_committing_when_the_writer_is_cancelled_gets_its_answer(
    sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelling the group commit's writer (shutdown) while aiosqlite's thread commits a
    batch: the commit still happens and its moves get the database's answer."""
    storage = sqlite_storage
    db = storage.database
    assert isinstance(db, sqlite_backend.SqliteDatabase)
    game_id = await _running_game(storage, 1, 2)
    real_update = db._update_states
    committing = asyncio.Event()

    async def update(batch: Any) -> list[bool]:
        committing.set()
        for _ in range(5):  # the writer is cancelled meanwhile
            await asyncio.sleep(0)
        return await real_update(batch)

    monkeypatch.setattr(db, "_update_states", update)
    save = asyncio.create_task(storage.save_state(game_id, '{"v": 2}', 1, 2))
    await committing.wait()
    writer = db._state_writer
    assert writer is not None
    writer.cancel()
    await asyncio.wait_for(save, 60)  # stored, no error (the bound only stops a hang)
    assert writer.cancelled()
    row = await storage.get_game(game_id)
    assert row is not None and (row.state_json, row.version) == ('{"v": 2}', 2)


async def test_close_waits_for_queued_moves(db_url: str, clock: FakeClock) -> None:
    st = await Storage.open(db_url, clock=clock)
    games = [await _running_game(st, 10 + 2 * i, 11 + 2 * i) for i in range(5)]
    saves = [asyncio.create_task(st.save_state(g, '{"v": 2}', 1, 2)) for g in games]
    await asyncio.sleep(0)  # queued, not yet written
    await st.close()
    await asyncio.gather(*saves)
    async with await Storage.open(db_url, clock=clock) as st2:
        assert [g.version for g in await st2.load_running_games()] == [2] * 5


async def test_start_requires_lobby_and_save_requires_running(storage: Storage) -> None:
    game_id = await storage.create_lobby(GUILD, CHANNEL, 1, "podkidnoy")
    with pytest.raises(InvalidGameStatus):
        await storage.save_state(game_id, "{}", 0, 1)
    await start_lobby(storage, game_id, "{}", 1)
    with pytest.raises(InvalidGameStatus):
        await start_lobby(storage, game_id, "{}", 1)
    with pytest.raises(InvalidGameStatus):
        await storage.add_seat(game_id, user_id=5, display_name="late")
    with pytest.raises(GameNotFound):
        await storage.save_state(12345, "{}", 0, 1)


async def test_load_running_games_survives_reopen(db_url: str, clock: FakeClock) -> None:
    async with await Storage.open(db_url, clock=clock) as st:
        game_id = await _running_game(st, 1, 2)
        await st.save_state(game_id, '{"v": 2}', 1, 2, deadline=clock.now + 90)
        await st.create_lobby(GUILD, CHANNEL, 3, "podkidnoy")
    async with await Storage.open(db_url, clock=clock) as st:
        running = await st.load_running_games()
        assert [(g.id, g.state_json, g.version) for g in running] == [(game_id, '{"v": 2}', 2)]
        assert running[0].turn_deadline == clock.now + 90
        assert [g.id for g in await st.running_games(GUILD)] == [game_id]
        assert await st.running_games(GUILD + 1) == []
        assert len(await st.load_lobbies()) == 1


async def test_leaving_running_game_marks_seat(storage: Storage, clock: FakeClock) -> None:
    game_id = await _running_game(storage, 1, 2)
    left = await storage.remove_seat(game_id, 1)
    assert left is not None and left.left_at == clock.now
    seats = await storage.seats(game_id)
    assert len(seats) == 2 and seats[1].left_at == clock.now
    assert await storage.user_active_game(2) is None
    assert await storage.user_active_game(1) == game_id


async def test_finish_game_is_atomic(storage: Storage, clock: FakeClock) -> None:
    game_id = await _running_game(storage, 1, 2, 3)
    bad = [
        ResultEntry(1, 0, "win"),
        ResultEntry(2, 1, "fool"),
        ResultEntry(3, 1, "win"),  # duplicate seat -> primary key violation mid-insert
    ]
    with pytest.raises(Exception):  # noqa: B017 - any DB error; the point is the rollback
        await storage.finish_game(game_id, bad, '{"final": true}')
    game = await storage.get_game(game_id)
    assert game is not None and game.status == "running" and game.version == 1
    assert await storage.game_results(game_id) == []
    assert await storage.user_active_game(1) == game_id

    clock.advance(60)
    good = [
        ResultEntry(1, 0, "win"),
        ResultEntry(2, 1, "fool", forfeit_text="Sing"),
        ResultEntry(3, 2, "win"),
    ]
    with pytest.raises(StaleVersion):
        await storage.finish_game(game_id, good, "{}", expected_version=7)
    await storage.finish_game(game_id, good, '{"final": true}', expected_version=1)
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.status, game.finished_at, game.version, game.state_json) == (
        "finished",
        clock.now,
        2,
        '{"final": true}',
    )
    results = await storage.game_results(game_id)
    assert [(r.user_id, r.outcome, r.forfeit_text, r.guild_id, r.preset) for r in results] == [
        (1, "win", None, GUILD, "podkidnoy"),
        (2, "fool", "Sing", GUILD, "podkidnoy"),
        (3, "win", None, GUILD, "podkidnoy"),
    ]
    for user in (1, 2, 3):
        assert await storage.user_active_game(user) is None
    with pytest.raises(InvalidGameStatus):
        await storage.finish_game(game_id, good, "{}")
    assert await storage.load_running_games() == []


async def test_the_mode_list_counts_only_games_that_counted(storage: Storage) -> None:
    """A lesson (no result rows: never rated or counted) does not rank its mode."""
    counted = await _running_game(storage, 1, 2)
    await storage.finish_game(counted, [ResultEntry(1, 0, "win"), ResultEntry(2, 1, "fool")], "{}")
    lesson = await storage.create_lobby(
        GUILD, CHANNEL + 1, 3, "perevodnoy", {"lesson": "first"}, host_display_name="u3"
    )
    await storage.add_seat(lesson, display_name="#1", ai_difficulty="easy")
    await start_lobby(storage, lesson, "{}", 1)
    await storage.finish_game(lesson, [], "{}")
    row = await storage.get_game(lesson)
    assert row is not None and row.status == "finished"
    assert await storage.preset_counts(GUILD) == {"podkidnoy": 1}


async def test_cancel_game(storage: Storage) -> None:
    game_id = await _running_game(storage, 1, 2)
    assert await storage.cancel_game(game_id) is True
    assert await storage.cancel_game(game_id) is False
    assert await storage.user_active_game(1) is None
    game = await storage.get_game(game_id)
    assert game is not None and game.status == "cancelled"
    assert await storage.game_results(game_id) == []
    with pytest.raises(GameNotFound):
        await storage.cancel_game(4242)


async def test_wal_checkpoints_run_off_the_commit_path(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_BYTES", 1)
    async with await Storage.open(db_path, clock=clock) as st:
        db = st.database
        assert isinstance(db, sqlite_backend.SqliteDatabase)
        async with db.read() as conn, conn.execute("PRAGMA wal_autocheckpoint") as cur:
            row = await cur.fetchone()
        assert row is not None and row[0] == 0  # a commit never checkpoints by itself
        ran: list[tuple[int, int]] = []
        real = db.checkpoint

        async def spy() -> tuple[int, int]:
            ran.append(await real())
            return ran[-1]

        monkeypatch.setattr(db, "checkpoint", spy)
        game_id = await _running_game(st, 1, 2)
        while db._checkpoint_task is not None:
            await asyncio.sleep(0.01)
        before = len(ran)
        await st.save_state(game_id, '{"v": 2}', 1, 2)
        while db._checkpoint_task is not None:
            await asyncio.sleep(0.01)
        # the move's commit started a checkpoint of its own, which emptied the WAL
        assert len(ran) == before + 1 and ran[-1][0] > 0 and ran[-1][0] == ran[-1][1]
    async with await Storage.open(db_path, clock=clock) as st:
        assert [g.state_json for g in await st.load_running_games()] == ['{"v": 2}']


async def test_postgresql_writer_survives_an_unreachable_server(clock: FakeClock) -> None:
    """While no connection can be had, queued moves fail with that error; the next move,
    once the server answers again, is written: the group commit never gives up for good."""
    async with fresh_schema() as url, await Storage.open(url, clock=clock) as st:
        game_id = await _running_game(st, 1, 2)
        db = st.database
        assert isinstance(db, PostgresDatabase)
        pool = db.pool

        class Down:
            def acquire(self) -> Any:
                raise ConnectionRefusedError("the server is restarting")

        db.pool = Down()  # type: ignore[assignment]
        try:
            with pytest.raises(ConnectionRefusedError):
                await st.save_state(game_id, '{"v": 2}', 1, 2)
        finally:
            db.pool = pool
        await st.save_state(game_id, '{"v": 2}', 1, 2)
        game = await st.get_game(game_id)
        assert game is not None and (game.state_json, game.version) == ('{"v": 2}', 2)
