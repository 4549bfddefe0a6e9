"""The outbox (migration 0006): what an ended game still owes its channel, and which turn
ping was delivered, so that bot/surfaces/delivery.py resumes after a Discord failure or a
restart."""

from __future__ import annotations

from collections.abc import Iterable

from .core import StorageCore
from .dialect import Connection
from .rows import OutboxRow

__all__ = ["OUTBOX_KINDS", "OutboxStorage"]

#: What an ended game can still owe the channel (table ``outbox``, migration 0006).
OUTBOX_KINDS: tuple[str, ...] = ("table", "result")


class OutboxStorage(StorageCore):
    """Outbox operations of :class:`~bot.storage.store.Storage`."""

    @staticmethod
    async def _owe(
        conn: Connection, game_id: int, version: int, kinds: Iterable[str], ts: float
    ) -> None:
        """Inside the transaction that ends a game: record what its end owes the channel, so
        a Discord failure or a restart between this commit and the delivery loses nothing."""
        await conn.executemany(
            "INSERT INTO outbox (game_id, kind, version, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET version = excluded.version,"
            " created_at = excluded.created_at WHERE excluded.version >= outbox.version",
            [(game_id, kind, version, ts) for kind in kinds],
        )

    async def outbox_pending(self) -> list[OutboxRow]:
        """Everything still owed to the channel, oldest first (delivery resumes it)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT game_id, kind, version FROM outbox ORDER BY created_at, game_id, kind"
            ) as cur,
        ):
            return [OutboxRow(int(r[0]), str(r[1]), int(r[2])) async for r in cur]

    async def outbox_done(self, game_id: int, kind: str, version: int) -> None:
        """Discord took (or can never take) ``kind`` of ``game_id`` as of ``version``; a newer
        obligation of the same kind stays."""
        async with self._transaction() as conn:
            await conn.execute(
                "DELETE FROM outbox WHERE game_id = ? AND kind = ? AND version <= ?",
                (game_id, kind, version),
            )

    async def ping_delivered(self, game_id: int, version: int) -> None:
        """Discord took the turn ping owed at ``version``: a restart does not repeat it."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET pinged_version = ? WHERE id = ? AND pinged_version < ?",
                (version, game_id, version),
            )

    async def pinged_version(self, game_id: int) -> int:
        """The version of the last turn ping delivered for ``game_id`` (0: none)."""
        async with (
            self._read() as conn,
            conn.execute("SELECT pinged_version FROM games WHERE id = ?", (game_id,)) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0
