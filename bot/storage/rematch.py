"""Storage of rematches: the rows behind "Play again" (migration 0004).

The rematch area of :class:`~bot.storage.store.Storage`, a mixin like every other area: every
method is one transaction, and the invariants live in the schema, not in check-then-insert
Python:

* one live rematch per game: the partial unique index ``games_previous`` (two players
  clicking at once, or a click replayed after a restart, find the same rematch);
* one active game per person: a player confirms by getting their ``active_players`` row,
  whose primary key refuses somebody already playing elsewhere.

A rematch is an ordinary lobby row (status ``lobby``) with every seat already in place: the
computers, and the humans of the previous deal. A human's seat counts as *confirmed* once
they hold the ``active_players`` row for it; the lobby starts when every human has one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import StorageCore, _dumps
from .rows import AlreadyInGame, GameNotFound, InvalidGameStatus, StorageError

__all__ = ["RematchSeat", "RematchStorage"]


@dataclass(frozen=True, slots=True)
class RematchSeat:
    """A seat of the rematch: a human (``user_id``) or a computer (``ai_difficulty``)."""

    seat: int
    display_name: str
    user_id: int | None = None
    ai_difficulty: str | None = None


class RematchStorage(StorageCore):
    """Rematch operations of :class:`~bot.storage.store.Storage`."""

    async def rematch_of(self, game_id: int) -> int | None:
        """The live (not cancelled) rematch of ``game_id``, if there is one."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT id FROM games WHERE previous_game_id = ? AND status <> 'cancelled'",
                (game_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    async def create_rematch(
        self,
        previous_id: int,
        series_id: int,
        host_id: int,
        preset: str,
        options: Mapping[str, Any],
        seats: Sequence[RematchSeat],
    ) -> tuple[int, bool]:
        """Create the rematch lobby of ``previous_id`` with all its seats, the host confirmed.

        Returns (rematch id, created). When another rematch of the same game won the race, that
        one's id comes back with ``created`` False and nothing is written. Raises
        :class:`AlreadyInGame` when the host plays elsewhere (nothing is written either).
        """
        ts = self.clock()
        async with self._transaction() as conn:
            prev = await self._fetch_game(conn, previous_id)
            # ON CONFLICT rather than catching the unique index's error: on PostgreSQL a failed
            # statement aborts the transaction, so the look-up below could not run after it.
            game_id = await conn.insert_returning_id(
                "INSERT INTO games (guild_id, channel_id, thread_id, host_id, status, preset,"
                " options, created_at, updated_at, previous_game_id, series_id)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    prev.guild_id,
                    prev.channel_id,
                    prev.thread_id,
                    host_id,
                    preset,
                    _dumps(dict(options)),
                    ts,
                    ts,
                    previous_id,
                    series_id,
                ),
            )
            if game_id is None:  # another rematch of the same game won the race
                async with conn.execute(
                    "SELECT id FROM games WHERE previous_game_id = ? AND status <> 'cancelled'",
                    (previous_id,),
                ) as found:
                    row = await found.fetchone()
                if row is None:
                    raise StorageError(f"game {previous_id}: the rematch insert was refused")
                return int(row[0]), False
            await conn.executemany(
                "INSERT INTO game_seats (game_id, seat, user_id, ai_difficulty, display_name)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.ai_difficulty, s.display_name) for s in seats],
            )
            await self._claim_user(conn, host_id, game_id)  # AlreadyInGame rolls it all back
        return game_id, True

    async def confirm_rematch(self, game_id: int, user_id: int) -> bool:
        """Confirm ``user_id``'s seat in the rematch lobby ``game_id``. False when they had
        already confirmed; :class:`AlreadyInGame` when they play elsewhere."""
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            if game.status != "lobby":
                raise InvalidGameStatus(game_id, game.status, ("lobby",))
            async with conn.execute(
                "SELECT 1 FROM game_seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            ) as cur:
                if await cur.fetchone() is None:
                    raise GameNotFound(game_id)
            try:
                await self._claim_user(conn, user_id, game_id)
            except AlreadyInGame as exc:
                if exc.game_id == game_id:
                    return False
                raise
        return True

    async def rematch_confirmed(self, game_id: int) -> set[int]:
        """Humans who confirmed their seat in the rematch lobby ``game_id``."""
        async with (
            self._read() as conn,
            conn.execute("SELECT user_id FROM active_players WHERE game_id = ?", (game_id,)) as cur,
        ):
            return {int(r[0]) async for r in cur}
