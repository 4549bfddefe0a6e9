"""Lobbies: creating one, where its table message lives, taking and leaving seats, and which
game a user sits in (a lobby's start is in games.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .core import ACTIVE_STATUSES, AI_DIFFICULTIES, StorageCore, _dumps, _seat_from_row
from .rows import LobbyFull, SeatRow, SeatTaken

__all__ = ["LobbyStorage"]


class LobbyStorage(StorageCore):
    """Lobby and seat operations of :class:`~bot.storage.store.Storage`."""

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        options: Mapping[str, Any] | None = None,
        *,
        host_display_name: str | None = None,
        thread_id: int | None = None,
        now: float | None = None,
    ) -> int:
        """Create a lobby and return its id.

        If ``host_display_name`` is given the host is seated at seat 0 in the same transaction,
        so a host already in another game gets :class:`AlreadyInGame` and no orphan lobby.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            game_id = await conn.insert_returning_id(
                "INSERT INTO games (guild_id, channel_id, thread_id, host_id, status, preset,"
                " options, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    host_id,
                    preset,
                    _dumps(dict(options or {})),
                    ts,
                    ts,
                ),
            )
            assert game_id is not None  # no ON CONFLICT: a refused insert raises
            if host_display_name is not None:
                await self._claim_user(conn, host_id, game_id)
                await conn.execute(
                    "INSERT INTO game_seats (game_id, seat, user_id, display_name)"
                    " VALUES (?, 0, ?, ?)",
                    (game_id, host_id, host_display_name),
                )
        return game_id

    async def set_table_message(
        self,
        game_id: int,
        *,
        message_id: int | None,
        channel_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Remember where the public table lives so it can be re-attached after a restart.
        ``channel_id``/``thread_id`` are only changed when given."""
        async with self._transaction() as conn:
            await self._fetch_game(conn, game_id)
            await conn.execute(
                "UPDATE games SET table_message_id = ?,"
                " channel_id = COALESCE(?, channel_id), thread_id = COALESCE(?, thread_id),"
                " updated_at = ? WHERE id = ?",
                (message_id, channel_id, thread_id, self.clock(), game_id),
            )

    async def set_lobby_deadline(self, game_id: int, deadline: float | None) -> None:
        """When an idle lobby expires. Stored in ``turn_deadline`` (unused until the game
        starts, when the first turn's deadline replaces it), so an expiry survives a
        restart exactly like a turn timer does."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET turn_deadline = ? WHERE id = ? AND status = 'lobby'",
                (deadline, game_id),
            )

    async def set_host(self, game_id: int, user_id: int) -> None:
        """Hand a lobby to another human seated in it (InvalidGameStatus once it started)."""
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            async with conn.execute(
                "SELECT 1 FROM game_seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            ) as cur:
                if await cur.fetchone() is None:
                    raise ValueError(f"user {user_id} does not sit in game {game_id}")
            await conn.execute(
                "UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?",
                (user_id, self.clock(), game_id),
            )

    async def update_game_options(self, game_id: int, changes: Mapping[str, Any]) -> None:
        """Merge keys into a game's stored options (e.g. where its channel notice is)."""
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            await conn.execute(
                "UPDATE games SET options = ? WHERE id = ?",
                (_dumps({**game.options, **changes}), game_id),
            )

    async def set_computer_level(self, game_id: int, difficulty: str) -> None:
        """A lobby's computers play at ``difficulty``: those seated now and (through the
        stored ``ai_level`` option) those added next, in one transaction."""
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            await conn.execute(
                "UPDATE game_seats SET ai_difficulty = ? WHERE game_id = ? AND user_id IS NULL",
                (difficulty, game_id),
            )
            await conn.execute(
                "UPDATE games SET options = ? WHERE id = ?",
                (_dumps({**game.options, "ai_level": difficulty}), game_id),
            )

    async def add_seat(
        self,
        game_id: int,
        *,
        display_name: str,
        user_id: int | None = None,
        ai_difficulty: str | None = None,
        seat: int | None = None,
        max_seats: int | None = None,
    ) -> int:
        """Seat a human (``user_id``) or a computer (``ai_difficulty``) in a lobby.

        Returns the seat number (lowest free one unless ``seat`` is given). Raises
        AlreadyInGame, LobbyFull, SeatTaken, InvalidGameStatus or GameNotFound.
        """
        if (user_id is None) == (ai_difficulty is None):
            raise ValueError("exactly one of user_id and ai_difficulty must be given")
        if ai_difficulty is not None and ai_difficulty not in AI_DIFFICULTIES:
            raise ValueError(f"unknown AI difficulty {ai_difficulty!r}")
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            async with conn.execute(
                "SELECT seat FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur:
                taken = {int(r[0]) async for r in cur}
            if seat is None:
                seat = next(i for i in range(len(taken) + 1) if i not in taken)
            elif seat in taken:
                raise SeatTaken(game_id, seat)
            if max_seats is not None and (seat >= max_seats or len(taken) >= max_seats):
                raise LobbyFull(game_id, max_seats)
            if user_id is not None:
                await self._claim_user(conn, user_id, game_id)
            await conn.execute(
                "INSERT INTO game_seats (game_id, seat, user_id, ai_difficulty, display_name)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, ai_difficulty, display_name),
            )
        return seat

    async def remove_seat(
        self, game_id: int, seat: int, *, now: float | None = None
    ) -> SeatRow | None:
        """Remove a seat; returns the removed/updated row, or None if the seat was empty.

        In a lobby the seat row is deleted (seats may then have gaps; the session renumbers
        when starting). In a running game the row is kept with ``left_at`` set, because the
        engine state still references that seat and results need it; the human is released
        from ``active_players`` either way so they can join another game.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            game = await self._require_status(conn, game_id, ACTIVE_STATUSES)
            async with conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            removed = _seat_from_row(row)
            if game.status == "lobby":
                await conn.execute(
                    "DELETE FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
                )
            else:
                await conn.execute(
                    "UPDATE game_seats SET left_at = COALESCE(left_at, ?)"
                    " WHERE game_id = ? AND seat = ?",
                    (ts, game_id, seat),
                )
                removed = replace(removed, left_at=removed.left_at or ts)
            if removed.user_id is not None:
                await conn.execute(
                    "DELETE FROM active_players WHERE user_id = ? AND game_id = ?",
                    (removed.user_id, game_id),
                )
        return removed

    async def seats(self, game_id: int) -> list[SeatRow]:
        """All seats of a game ordered by seat number (including ones that left)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur,
        ):
            return [_seat_from_row(r) async for r in cur]

    async def user_active_game(self, user_id: int) -> int | None:
        """The lobby/running game the user sits in, if any."""
        async with (
            self._read() as conn,
            conn.execute("SELECT game_id FROM active_players WHERE user_id = ?", (user_id,)) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None
