"""What a storage backend provides, and the group commit of moves both backends share.

:class:`bot.storage.store.Storage` runs every operation through a :class:`Database`:
``transaction()`` for writes (one transaction each), ``read()`` for reads, and
:meth:`Database.store_state` for the one write that is hot, a move of a running game.

Group commit: every accepted move waits for its own commit before the player sees it, and
at a few hundred moves a second one transaction per move would make the commit the
bottleneck. Moves are therefore queued and a single writer commits whatever is queued in
batches (``_drain_states`` of each backend), each batch in one transaction and, where the
engine allows, in one statement. Every move in a batch is still checked against the
version stored in the database (``WHERE id = ? AND version = ?``), so a stale move is
refused even if another process wrote the game; a batch holds each game at most once, so
two moves of one game keep their order and their version check.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from .dialect import Connection, DialectName
from .rows import StorageError

__all__ = ["STATE_UPDATE", "Database", "StateWrite", "take_batch"]

log = logging.getLogger(__name__)

#: The optimistic-version write of a running game's state: changes one row or none. The
#: move's line is appended to the game's record in the same statement (a NULL record, a game
#: from before records, stays NULL; a NULL line leaves the record as it was).
STATE_UPDATE = (
    "UPDATE games SET state_json = ?, version = ?, turn_deadline = ?,"
    " timer_strikes = COALESCE(?, timer_strikes), turn_reminded = 0, updated_at = ?,"
    " record = record || COALESCE(?, '')"
    " WHERE id = ? AND version = ? AND status = 'running'"
)

#: Most moves one group commit writes; keeps a transaction (and the write lock) short.
STATE_BATCH_MAX = 256


@dataclass
class StateWrite:
    """One queued move: its parameters for ``STATE_UPDATE`` (in its order) and whether it
    was stored."""

    game_id: int
    params: tuple[object, ...]
    stored: asyncio.Future[bool]


def take_batch(queue: deque[StateWrite]) -> list[StateWrite]:
    """The oldest queued moves, at most one per game and ``STATE_BATCH_MAX`` in all.

    Strictly first in, first out: a game's second move ends the batch, so it is written after
    its first and its version check sees the first one's version.
    """
    batch: list[StateWrite] = []
    seen: set[int] = set()
    while queue and len(batch) < STATE_BATCH_MAX:
        w = queue.popleft()
        if w.game_id in seen:
            queue.appendleft(w)
            break
        seen.add(w.game_id)
        batch.append(w)
    return batch


class Database(ABC):
    """One open database: its transactions, its reads and its group commit of moves."""

    dialect: DialectName

    def __init__(self) -> None:
        self.schema_version = 0
        #: Moves waiting for the group commit and its writer task. (A deque: the SQLite
        #: database thread takes from it while the loop adds to it.)
        self._state_queue: deque[StateWrite] = deque()
        self._state_writer: asyncio.Task[None] | None = None
        self._state_closing = threading.Event()  # set once the writer is cancelled
        self._state_wake = threading.Event()

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads; it never sees another transaction's uncommitted rows."""

    @abstractmethod
    async def _drain_states(self) -> None:
        """Commit queued moves batch by batch until the queue is empty, answering each batch
        through :meth:`_settle` (thread-safe callers use ``loop.call_soon_threadsafe``)."""

    @abstractmethod
    async def _close(self) -> None:
        """Release the connections; queued moves are already written."""

    async def store_state(self, game_id: int, params: tuple[object, ...]) -> bool:
        """Queue one move for the group commit; True once committed, False if its version
        (or status) was stale in the database."""
        write = StateWrite(game_id, params, asyncio.get_running_loop().create_future())
        if self._state_closing.is_set():
            raise StorageError("the database is closing")
        self._state_queue.append(write)
        self._state_wake.set()
        if self._state_writer is None:
            self._state_writer = asyncio.create_task(self._write_states())
        return await write.stored

    async def _write_states(self) -> None:
        try:
            while self._state_queue and not self._state_closing.is_set():
                await self._drain_states()
        except BaseException as exc:
            # cancelled (shutdown) or the connection failed: nobody may wait forever for a
            # write that never ran
            self._state_closing.set()
            error = exc if isinstance(exc, Exception) else StorageError("the database is closing")
            while self._state_queue:
                w = self._state_queue.popleft()
                if not w.stored.done():
                    w.stored.set_exception(error)
            raise
        finally:
            self._state_writer = None

    def _settle(self, batch: Sequence[StateWrite], result: list[bool] | BaseException) -> None:
        """In the event loop: answer the moves of one committed (or failed) batch."""
        if isinstance(result, BaseException):
            for w in batch:
                if not w.stored.done():
                    w.stored.set_exception(result)
            return
        for w, ok in zip(batch, result, strict=True):
            if not w.stored.done():
                w.stored.set_result(ok)
        self._wrote(sum(len(str(w.params[0])) for w in batch))

    def _wrote(self, size: int) -> None:  # noqa: B027 - an optional hook
        """Bytes of game state just committed (SQLite uses it to schedule checkpoints)."""

    async def close(self) -> None:
        """Close; waits for queued moves and any in-flight transaction first."""
        if self._state_writer is not None:
            await asyncio.wait([self._state_writer])  # never raises: its waiters get that
        await self._close()
