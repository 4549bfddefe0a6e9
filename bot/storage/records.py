"""Game records (engine/record.py), hints asked for, and a server's record settings.

A running game's record is text in ``games.record``: its first line is written when the game
starts and every stored move appends its line in the same statement as the move's state
(``STATE_UPDATE``), so the record can never miss or repeat a move the state has. The
transaction that finishes the game moves the record, compressed (``engine.record.pack``),
into ``game_records``: a finished game's row then stays as small as before. A game that began
before migration 0009 has neither and says "no history".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.record import pack, unpack

from .dialect import Connection
from .outbox import OutboxStorage

__all__ = ["RECORDS_SCHEMA", "RecordSettings", "RecordStorage", "StoredRecord"]

#: The migration that added records (0009_records.sql).
RECORDS_SCHEMA = 9


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """A game's record as stored: its text, or None when the game has no history."""

    game_id: int
    guild_id: int
    status: str
    text: str | None
    #: Bytes it takes in the database (compressed for a finished game).
    size: int = 0


@dataclass(frozen=True, slots=True)
class RecordSettings:
    """A server's choices (defaults: anyone in the server may replay, hints only against
    computers)."""

    replays_public: bool = True
    hints_everywhere: bool = False


class RecordStorage(OutboxStorage):
    """Record, hint and record-settings operations of :class:`~bot.storage.store.Storage`."""

    async def _close_record(
        self, conn: Connection, game_id: int, last_line: str | None, ts: float
    ) -> None:
        """Inside the transaction that finishes a game: the record, with its last line,
        compressed into ``game_records``."""
        if self._db.schema_version < RECORDS_SCHEMA:
            return  # a database held at an older schema (migration tests)
        async with conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None or row[0] is None:
            return  # a game from before records: no history
        text = str(row[0]) + (last_line or "")
        moves = text.count("\n")
        await conn.execute(
            "INSERT INTO game_records (game_id, data, moves, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, pack(text + "\n"), moves, ts),
        )
        await conn.execute("UPDATE games SET record = NULL WHERE id = ?", (game_id,))

    async def game_record(self, game_id: int) -> StoredRecord | None:
        """The record of a game (None: no such game). ``text`` is None for a game without
        history."""
        async with self._read() as conn:
            async with conn.execute(
                "SELECT guild_id, status, record FROM games WHERE id = ?", (game_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            guild_id, status, live = int(row[0]), str(row[1]), row[2]
            async with conn.execute(
                "SELECT data FROM game_records WHERE game_id = ?", (game_id,)
            ) as cur:
                packed = await cur.fetchone()
        if packed is not None:
            data = bytes(packed[0])
            return StoredRecord(game_id, guild_id, status, unpack(data), len(data))
        if live is None:
            return StoredRecord(game_id, guild_id, status, None)
        text = str(live) + "\n"
        return StoredRecord(game_id, guild_id, status, text, len(text.encode()))

    async def last_finished_game(self, guild_id: int, user_id: int) -> int | None:
        """The last game ``user_id`` finished in this server (the replay's default)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT game_id FROM results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY finished_at DESC, game_id DESC LIMIT 1",
                (guild_id, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    # ----------------------------------------------------------------- hints

    async def add_hint(self, game_id: int, seat: int, user_id: int | None) -> int:
        """Count one hint for a seat; the seat's count so far."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO game_hints (game_id, seat, user_id, hints) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET hints = game_hints.hints + 1",
                (game_id, seat, user_id),
            )
            async with conn.execute(
                "SELECT hints FROM game_hints WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cur:
                row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def game_hints(self, game_id: int) -> dict[int, int]:
        """Hints asked for in a game, per seat (seats without hints are left out)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT seat, hints FROM game_hints WHERE game_id = ? AND hints > 0 ORDER BY seat",
                (game_id,),
            ) as cur,
        ):
            return {int(r[0]): int(r[1]) async for r in cur}

    async def hint_games(self, guild_id: int, user_id: int) -> int:
        """Finished games of a player in this server in which they asked for hints (marked
        in their stats; the ratings skip them)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT COUNT(*) FROM results r JOIN game_hints h"
                " ON h.game_id = r.game_id AND h.seat = r.seat"
                " WHERE r.guild_id = ? AND r.user_id = ? AND h.hints > 0",
                (guild_id, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    # ----------------------------------------------------------------- settings

    async def record_settings(self, guild_id: int) -> RecordSettings:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT replays_public, hints_everywhere FROM record_settings WHERE guild_id = ?",
                (guild_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        settings = RecordSettings() if row is None else RecordSettings(bool(row[0]), bool(row[1]))
        return settings

    async def set_record_settings(
        self,
        guild_id: int,
        *,
        replays_public: bool | None = None,
        hints_everywhere: bool | None = None,
    ) -> RecordSettings:
        current = await self.record_settings(guild_id)
        new = RecordSettings(
            current.replays_public if replays_public is None else replays_public,
            current.hints_everywhere if hints_everywhere is None else hints_everywhere,
        )
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO record_settings (guild_id, replays_public, hints_everywhere,"
                " updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " replays_public = excluded.replays_public,"
                " hints_everywhere = excluded.hints_everywhere, updated_at = excluded.updated_at",
                (guild_id, int(new.replays_public), int(new.hints_everywhere), self._now(None)),
            )
        return new
