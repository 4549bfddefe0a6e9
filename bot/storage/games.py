"""Games from start to end: starting a lobby, storing each new state under the optimistic
version check, leaving, finishing with results, cancelling, and the look-ups a restart needs.

Ending a game records what it owes the channel in the same transaction, hence the outbox base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .backend import STATE_UPDATE
from .core import (
    ACTIVE_STATUSES,
    FORFEIT_REASONS,
    OUTCOMES,
    _dumps,
    _game_from_row,
    _seat_from_row,
    _state_params,
)
from .dialect import Connection
from .rating_games import RATINGS_SCHEMA, rate_game
from .records import RecordStorage
from .rows import (
    GameNotFound,
    GameRow,
    InvalidGameStatus,
    ResultEntry,
    ResultRow,
    SeatRow,
    StaleVersion,
)

__all__ = ["GameStorage"]


class GameStorage(RecordStorage):
    """Running-game operations of :class:`~bot.storage.store.Storage`."""

    async def get_game(self, game_id: int) -> GameRow | None:
        """Fetch a game regardless of status; None if it does not exist."""
        async with self._read() as conn:
            try:
                return await self._fetch_game(conn, game_id)
            except GameNotFound:
                return None

    @classmethod
    async def _start_lobby(
        cls,
        conn: Connection,
        game_id: int,
        state_json: str,
        version: int,
        deadline: float | None,
        ts: float,
        record: str | None = None,
    ) -> None:
        """The lobby -> running write, guarded in the UPDATE itself: if another process
        started or cancelled the lobby since it was read, nothing changes and we say so.
        ``record`` is the first line of the game's record (engine/record.py); each stored
        move appends its line to it."""
        # (the column is named only when there is a record: tests drive old schemas here)
        cur = await conn.execute(
            "UPDATE games SET status = 'running', state_json = ?, version = ?,"
            " turn_deadline = ?, timer_strikes = '{}', updated_at = ?"
            + (", record = ?" if record is not None else "")
            + " WHERE id = ? AND status = 'lobby'",
            (state_json, version, deadline, ts, *(() if record is None else (record,)), game_id),
        )
        if cur.rowcount != 1:
            game = await cls._fetch_game(conn, game_id)
            raise InvalidGameStatus(game_id, game.status, ("lobby",))

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the half-time reminder for ``version``'s turn went out. False when the
        game moved on meanwhile (then the reminder belongs to a turn that is over)."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET turn_reminded = 1"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (game_id, version),
            )
            return cur.rowcount == 1

    async def save_state(
        self,
        game_id: int,
        state_json: str,
        expected_version: int,
        new_version: int,
        deadline: float | None = None,
        *,
        timer_strikes: Mapping[str, int] | None = None,
        now: float | None = None,
        record_line: str | None = None,
    ) -> None:
        """Persist a new engine state iff the stored version is still ``expected_version``.

        Raises :class:`StaleVersion` otherwise (a raise, not a bool, so a forgotten check can
        never silently apply an action twice). ``deadline`` is written as given - None clears
        the turn timer. ``timer_strikes`` is left unchanged when None. ``record_line`` (the
        move in the record's notation, newline first) is appended to the game's record in the
        same statement.
        """
        if new_version <= expected_version:
            raise ValueError("new_version must be greater than expected_version")
        ts = self._now(now)
        params = _state_params(
            game_id,
            state_json,
            expected_version,
            new_version,
            deadline,
            timer_strikes,
            ts,
            record_line,
        )
        if not await self._db.store_state(game_id, params):
            async with self._read() as conn:
                game = await self._require_status(conn, game_id, ("running",))
            raise StaleVersion(game_id, expected_version, game.version)

    async def _store_state(
        self,
        conn: Connection,
        game_id: int,
        state_json: str,
        expected_version: int,
        new_version: int,
        deadline: float | None,
        timer_strikes: Mapping[str, int] | None,
        ts: float,
        record_line: str | None = None,
    ) -> None:
        """The optimistic-version write shared by every path that stores a running game's
        state: it changes one row or raises, inside the caller's transaction."""
        cur = await conn.execute(
            STATE_UPDATE,
            _state_params(
                game_id,
                state_json,
                expected_version,
                new_version,
                deadline,
                timer_strikes,
                ts,
                record_line,
            ),
        )
        if cur.rowcount != 1:
            game = await self._require_status(conn, game_id, ("running",))
            raise StaleVersion(game_id, expected_version, game.version)

    async def load_running_games(self) -> list[GameRow]:
        """Every running game with its state, for resuming after a restart."""
        return await self._games_where("status = 'running'", ())

    async def load_lobbies(self) -> list[GameRow]:
        """Open lobbies, so their buttons can be re-attached after a restart."""
        return await self._games_where("status = 'lobby'", ())

    async def running_games(self, guild_id: int) -> list[GameRow]:
        """Running games of one guild (for admin/status commands)."""
        return await self._games_where("status = 'running' AND guild_id = ?", (guild_id,))

    async def guild_lobbies(self, guild_id: int) -> list[GameRow]:
        """Open lobbies of one guild, oldest first (``/durak games`` lists them)."""
        return await self._games_where("status = 'lobby' AND guild_id = ?", (guild_id,))

    async def _games_where(self, where: str, params: tuple[Any, ...]) -> list[GameRow]:
        async with (
            self._read() as conn,
            conn.execute(f"SELECT * FROM games WHERE {where} ORDER BY id", params) as cur,
        ):
            return [_game_from_row(r) async for r in cur]

    async def finish_game(
        self,
        game_id: int,
        results: Sequence[ResultEntry],
        state_json: str,
        *,
        expected_version: int | None = None,
        new_version: int | None = None,
        now: float | None = None,
        record_line: str | None = None,
    ) -> None:
        """Record the end of a game atomically: results, final state, status and releasing
        the players all commit together or not at all, so stats can never count a game that is
        still "running", and nobody stays locked out of joining.

        With ``expected_version`` the same optimistic check as :meth:`save_state` applies.
        ``record_line`` is the last move's line; the finished record is compressed into
        ``game_records`` in the same transaction (see bot/storage/records.py).
        """
        ts = self._now(now)
        for entry in results:
            if entry.outcome not in OUTCOMES:
                raise ValueError(f"unknown outcome {entry.outcome!r}")
            if entry.forfeit_reason is not None and (
                entry.outcome != "forfeit" or entry.forfeit_reason not in FORFEIT_REASONS
            ):
                raise ValueError(f"bad forfeit reason {entry.forfeit_reason!r}")
        async with self._transaction() as conn:
            game = await self._require_status(conn, game_id, ("running",))
            if expected_version is not None and game.version != expected_version:
                raise StaleVersion(game_id, expected_version, game.version)
            version = new_version if new_version is not None else game.version + 1
            cur = await conn.execute(
                "UPDATE games SET status = 'finished', state_json = ?, version = ?,"
                " finished_at = ?, updated_at = ?, turn_deadline = NULL"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (state_json, version, ts, ts, game_id, game.version),
            )
            if cur.rowcount != 1:  # another process moved the game on since it was read
                raise StaleVersion(game_id, game.version, None)
            await conn.executemany(
                "INSERT INTO results (game_id, guild_id, user_id, seat, outcome, preset,"
                " finished_at, forfeit_text, forfeit_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        game.guild_id,
                        r.user_id,
                        r.seat,
                        r.outcome,
                        game.preset,
                        ts,
                        r.forfeit_text,
                        r.forfeit_reason,
                    )
                    for r in results
                ],
            )
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            if self._db.schema_version >= RATINGS_SCHEMA:  # older only in migration tests
                # Ratings commit with the results or not at all (bot/storage/rating_games.py).
                await rate_game(conn, game_id)
            await self._owe(conn, game_id, version, ("table", "result"), ts)
            await self._close_record(conn, game_id, record_line, ts)

    async def last_ended_game_in_channel(self, channel_id: int) -> int | None:
        """The latest finished game whose table lived in this channel or thread: after a
        game, ``/durak rules`` in its thread means the mode just played."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT id FROM games WHERE status = 'finished'"
                " AND COALESCE(thread_id, channel_id) = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    async def preset_counts(self, guild_id: int) -> dict[str, int]:
        """Finished games per mode in a guild that counted (the empty mode list shows the
        most played first). Only a game that left result rows counts, the same games the
        stats count: a lesson of ``/durak learn`` (never counted) or a game that ended
        counting for nothing must not push its mode up a list the players see."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT g.preset, COUNT(*) FROM games g WHERE g.guild_id = ?"
                " AND g.status = 'finished'"
                " AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)"
                " GROUP BY g.preset",
                (guild_id,),
            ) as cur,
        ):
            return {str(r[0]): int(r[1]) async for r in cur}

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The lobby or running game whose table lives in this channel or thread, if any.

        A channel holds at most one game so that "this channel's game" (e.g. for rules or
        cancelling) is never ambiguous; several channels of a guild may each have one.
        """
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT id FROM games WHERE status IN ('lobby', 'running')"
                " AND COALESCE(thread_id, channel_id) = ? ORDER BY id LIMIT 1",
                (channel_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    async def begin_game(
        self,
        game_id: int,
        seat_order: Sequence[int],
        state_json: str,
        version: int = 1,
        *,
        deadline: float | None = None,
        now: float | None = None,
        record: str | None = None,
    ) -> None:
        """Start a lobby: renumber its seats to ``0..n-1`` (``seat_order`` lists the lobby's
        seat numbers in table order) and store the dealt state, in one transaction.

        Lobby seats can have gaps after people leave, while the engine's seats are dense; doing
        both together means a crash can never leave a running game whose seat rows do not
        match its state.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            async with conn.execute(
                "SELECT seat FROM game_seats WHERE game_id = ?", (game_id,)
            ) as cur:
                present = {int(r[0]) async for r in cur}
            if present != set(seat_order) or len(seat_order) != len(present):
                raise ValueError(f"seat_order {list(seat_order)} does not match seats {present}")
            # Two steps through a disjoint range so the (game_id, seat) key never collides.
            offset = 1000 + max(present, default=0)
            await conn.execute(
                "UPDATE game_seats SET seat = seat + ? WHERE game_id = ?", (offset, game_id)
            )
            for new, old in enumerate(seat_order):
                await conn.execute(
                    "UPDATE game_seats SET seat = ? WHERE game_id = ? AND seat = ?",
                    (new, game_id, old + offset),
                )
            await self._start_lobby(conn, game_id, state_json, version, deadline, ts, record)

    async def leave_running_game(
        self,
        game_id: int,
        seat: int,
        state_json: str,
        *,
        expected_version: int,
        new_version: int,
        deadline: float | None = None,
        timer_strikes: Mapping[str, int] | None = None,
        now: float | None = None,
        record_line: str | None = None,
    ) -> SeatRow:
        """A human leaves a running game: mark the seat left, release the user and store the
        new state (a computer plays on) atomically, with the usual optimistic version check.
        """
        if new_version <= expected_version:
            raise ValueError("new_version must be greater than expected_version")
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._store_state(
                conn,
                game_id,
                state_json,
                expected_version,
                new_version,
                deadline,
                timer_strikes,
                ts,
                record_line,
            )
            async with conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cur2:
                row = await cur2.fetchone()
            if row is None or row["user_id"] is None:
                raise ValueError(f"game {game_id}: seat {seat} is not a human seat")
            await conn.execute(
                "UPDATE game_seats SET left_at = COALESCE(left_at, ?)"
                " WHERE game_id = ? AND seat = ?",
                (ts, game_id, seat),
            )
            await conn.execute(
                "DELETE FROM active_players WHERE user_id = ? AND game_id = ?",
                (row["user_id"], game_id),
            )
            return replace(_seat_from_row(row), left_at=row["left_at"] or ts)

    async def cancel_game(self, game_id: int, *, now: float | None = None) -> bool:
        """Cancel a lobby or running game (no results are written). False if it had already
        ended, which makes a double-clicked Cancel harmless."""
        ts = self._now(now)
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            if game.status not in ACTIVE_STATUSES:
                return False
            cur = await conn.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ?,"
                " turn_deadline = NULL WHERE id = ? AND status IN ('lobby', 'running')",
                (ts, ts, game_id),
            )
            if cur.rowcount != 1:  # ended by another process meanwhile
                return False
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            await self._owe(conn, game_id, game.version, ("table",), ts)
        return True

    async def expire_lobby(self, game_id: int, *, now: float | None = None) -> bool:
        """Close a lobby whose idle deadline has passed, freeing its players; False if it
        started, ended or was touched since (its deadline moved on). One transaction, so a
        Join racing the expiry either lands first (and moves the deadline) or is refused.

        The lobby is stored as cancelled with ``options.closed = "expired"``: every reader of
        statuses keeps working and the lobby message can still say *why* it closed."""
        ts = self._now(now)
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            if game.status != "lobby" or game.turn_deadline is None or game.turn_deadline > ts:
                return False
            options = {**game.options, "closed": "expired"}
            await conn.execute(
                "UPDATE games SET status = 'cancelled', options = ?, finished_at = ?,"
                " updated_at = ?, turn_deadline = NULL WHERE id = ? AND status = 'lobby'",
                (_dumps(options), ts, ts, game_id),
            )
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            await self._owe(conn, game_id, game.version, ("table",), ts)
        return True

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """Results of one finished game ordered by seat (for the final announcement)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur,
        ):
            return [
                ResultRow(
                    game_id=r["game_id"],
                    guild_id=r["guild_id"],
                    user_id=r["user_id"],
                    seat=r["seat"],
                    outcome=r["outcome"],
                    preset=r["preset"],
                    finished_at=r["finished_at"],
                    forfeit_text=r["forfeit_text"],
                    forfeit_reason=r["forfeit_reason"],
                )
                async for r in cur
            ]
