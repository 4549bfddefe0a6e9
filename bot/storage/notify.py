"""PostgreSQL ``LISTEN/NOTIFY`` between the bot's processes: short messages over the database
they already share, for what must reach another process now (the Activity's relay,
bot/activity/relay.py) rather than at its next read.

Design notes (the *why*):

* The database the processes share is the broker: no second server to run, secure and
  reachable wherever the bot's storage is. SQLite deployments are one process and never
  need it.
* One connection of its own, outside the pool: a ``LISTEN`` belongs to a session, and a
  pooled connection goes back to the pool (and to other work) after each use.
* Channels are named after the database *and schema* the bot uses (``durak_<hash>_<name>``):
  ``NOTIFY`` is database-wide, so two deployments (or two tests) in separate schemas of one
  database never hear each other.
* Sending is one writer task that passes everything queued in one round trip
  (``executemany`` of ``pg_notify``, one transaction). One connection, one writer: messages
  from this process arrive in the order they were sent, which the relay's frames rely on.
* A lost connection (the server restarts, a network cut) is opened again with a growing
  pause; what was queued while it was down is dropped, and the owner is told when it is
  back (``reconnected``) so it can ask again for what it missed. A notification is
  best-effort by nature: nothing here stands in for the database's own rows.
* PostgreSQL refuses a payload over 8000 bytes: :data:`MAX_PAYLOAD` leaves room below it;
  splitting a longer message is the caller's (it knows its format).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

__all__ = ["MAX_PAYLOAD", "Notifier"]

log = logging.getLogger(__name__)

#: Bytes (UTF-8) of one payload at most; PostgreSQL's limit is 8000.
MAX_PAYLOAD = 7900
#: Seconds between attempts to open a lost connection again: from the first to the last.
RECONNECT_PAUSES = (0.2, 10.0)


class Notifier:
    """One process's end of the channels: ``send`` to any, ``heard`` for those it listens to.

    ``heard(name, payload)`` is called in the event loop for every notification on a channel
    given to :meth:`start`, its own sends included; it must not block. ``reconnected()`` is
    called after a lost connection is back and listening again."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.prefix = ""
        self._conn: asyncpg.Connection | None = None
        self._names: tuple[str, ...] = ()
        self._heard: Callable[[str, str], None] = lambda name, payload: None
        self._reconnected: Callable[[], None] = lambda: None
        self._queue: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self._lost = asyncio.Event()
        self._closing = False
        self._tasks: list[asyncio.Task[None]] = []

    async def start(
        self,
        names: Sequence[str],
        heard: Callable[[str, str], None],
        reconnected: Callable[[], None] = lambda: None,
    ) -> None:
        """Connect, listen to ``names`` and start the writer; raises if the database cannot
        be reached now (the bot's start-up then fails with the storage's own error)."""
        self._names, self._heard, self._reconnected = tuple(names), heard, reconnected
        await self._connect()
        self._tasks = [
            asyncio.create_task(self._write(), name="durak-notify-writer"),
            asyncio.create_task(self._keep(), name="durak-notify-keeper"),
        ]

    def channel(self, name: str) -> str:
        """The database's name of channel ``name`` for this database and schema."""
        return f"{self.prefix}_{name}"

    def send(self, name: str, payload: str) -> None:
        """Queue one notification on channel ``name`` (sent in order, soon)."""
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a notification payload is {MAX_PAYLOAD} bytes at most")
        if not self._closing:
            self._queue.append((self.channel(name), payload))
            self._wake.set()

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        self._lost.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    # ----------------------------------------------------------------- the connection

    async def _connect(self) -> None:
        conn: asyncpg.Connection = await asyncpg.connect(
            self.url,
            # no timer per cached statement (see postgres.py's pool for why)
            max_cached_statement_lifetime=0,
            server_settings={"application_name": "durak-bot-notify"},
        )
        try:
            if not self.prefix:
                where = await conn.fetchrow("SELECT current_database(), current_schema()")
                assert where is not None
                digest = hashlib.sha256(f"{where[0]}\0{where[1]}".encode()).hexdigest()
                self.prefix = f"durak_{digest[:12]}"
            for name in self._names:
                await conn.add_listener(self.channel(name), self._on_notification)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._on_termination)
        self._conn = conn

    def _on_notification(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        name = channel.removeprefix(self.prefix + "_")
        try:
            self._heard(name, payload)
        except Exception:
            log.exception("notify: a message on %s could not be handled", name)

    def _on_termination(self, conn: Any) -> None:
        if conn is self._conn:
            self._conn = None
            self._lost.set()

    async def _keep(self) -> None:
        """Open the connection again whenever it is lost, then tell the owner."""
        while not self._closing:
            await self._lost.wait()
            self._lost.clear()
            pause = RECONNECT_PAUSES[0]
            while not self._closing:
                try:
                    await self._connect()
                    break
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("notify: no connection to the database (%s); trying again", exc)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RECONNECT_PAUSES[1])
            if not self._closing:
                log.info("notify: connected again")
                self._reconnected()

    async def _write(self) -> None:
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, []
            conn = self._conn
            if not batch:
                continue
            if conn is None:
                log.warning("notify: %d message(s) dropped: no connection", len(batch))
                continue
            try:
                await conn.executemany("SELECT pg_notify($1, $2)", batch)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("notify: %d message(s) dropped: %s", len(batch), exc)
                if conn.is_closed() and conn is self._conn:
                    self._conn = None
                    self._lost.set()
