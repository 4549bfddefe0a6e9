"""Everything a committed change owes the channel reaches Discord eventually.

The service commits a change first and tells the channel afterwards. Discord can refuse that
second step (a 503, a 429, a network error), and before this module one refusal on the two
writes after the final move left the table showing a running game and no result, for good.
This module makes those writes *obligations* that are retried until they are done or have
become pointless:

* An obligation is a kind (``table``, ``result``, ``ping``, ``remind``), a game and the game
  version it belongs to. It carries no text: the content is rendered at delivery time by the
  transport (bot/surfaces/publisher.py with bot/rendering/), so a retry shows the newest state
  and the newest wording.
* One slot per game and kind: a newer table supersedes an older one (the edit draws the
  latest state anyway), a newer ping replaces an older one, and the transport refuses
  (:class:`Obsolete`) a ping whose turn has passed or a reminder whose turn moved on.
* Each game has one worker that delivers its slots in order (table, result, ping,
  reminders), coalescing table edits to one per ``interval``. A transient failure (5xx, 429,
  a network error) is retried with exponential backoff (429 honours Discord's
  ``retry_after``); a permanent one (403: the bot lost access, 404: the message or channel is
  gone, other 4xx) is logged once and dropped, since no retry can fix it.
* Durability comes from storage, written in the same transaction as the change itself: a
  lobby or running game's own ``games`` row is its record (after a restart every open table
  is drawn again from it), and the transaction that ends a game also writes ``outbox`` rows
  for the final table and the result. :meth:`Delivery.resume` reloads those rows after a
  restart; a durable slot deletes its row only once Discord took it (or never can).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

import aiohttp
import discord

from ..storage import OutboxRow

if TYPE_CHECKING:
    from ..game.models import GameSession

__all__ = [
    "BACKOFF_MAX_SECONDS",
    "BACKOFF_SECONDS",
    "PROMPT_ATTEMPTS",
    "PROMPT_BACKOFF_SECONDS",
    "Delivery",
    "Obsolete",
    "Transport",
    "backoff_delay",
    "ping_due",
    "prompt_retry",
]

log = logging.getLogger(__name__)

Kind = Literal["table", "result", "ping", "remind"]

#: First retry delay after a transient failure; it doubles per failure of the same game.
BACKOFF_SECONDS = 1.0
#: Longest wait between two attempts (Discord outages rarely last longer; a restart resumes
#: durable obligations anyway).
BACKOFF_MAX_SECONDS = 300.0
#: Order in which a game's obligations go out: the table first (it is what people look at),
#: then the result under it, then pings.
_ORDER: dict[str, int] = {"table": 0, "result": 1, "ping": 2, "remind": 3}


#: A write somebody is waiting for *now* (a new table's thread and lobby post, a click's
#: answer) is tried this many times in all; the pause before the second try, doubling.
#: Bounded, unlike the obligations above: past it the caller cleans up or falls back.
PROMPT_ATTEMPTS = 3
PROMPT_BACKOFF_SECONDS = 0.25

T = TypeVar("T")


class Obsolete(Exception):
    """The obligation no longer applies (its turn passed, the game it announced is gone)."""


class Transport(Protocol):
    """Renders and sends; raises :class:`Obsolete` for what no longer applies."""

    async def deliver_table(self, game_id: int) -> None: ...

    async def deliver_result(self, game_id: int) -> None: ...

    async def deliver_ping(self, game_id: int, seat: int, kind: str, version: int) -> None: ...

    async def deliver_reminder(
        self, game_id: int, seat: int, version: int, deadline: float
    ) -> None: ...


class Outbox(Protocol):
    """Where what ended games still owe is kept across a restart (the game service, which
    writes it in the same transaction as the change that owes it)."""

    async def outbox_pending(self) -> list[OutboxRow]: ...

    async def outbox_done(self, game_id: int, kind: str, version: int) -> None: ...


@dataclass(slots=True)
class _Owed:
    kind: Kind
    version: int
    durable: bool = False
    seat: int = -1
    detail: str = ""
    deadline: float = 0.0

    @property
    def slot(self) -> str:
        return f"remind:{self.seat}" if self.kind == "remind" else self.kind


@dataclass(slots=True)
class _Game:
    slots: dict[str, _Owed] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    failures: int = 0


def ping_due(session: GameSession, seat: int, kind: str) -> bool:
    """Whether a ping still announces the turn it was owed for: the seat still leads, or still
    defends the bout, and a human still plays it. A ping for a turn that passed is obsolete."""
    game = session.game
    if session.finished or game.result is not None or not session.seats[seat].is_human:
        return False
    if kind == "lead":
        return bool(game.phase == "lead" and game.attacker == seat)
    if kind == "defend":
        return bool(game.phase == "bout" and game.defender == seat)
    return False


def backoff_delay(failures: int, retry_after: float | None = None) -> float:
    """Seconds to wait after the ``failures``-th failure in a row: 1, 2, 4 … 300, and never
    less than what a 429 asked for."""
    delay = min(BACKOFF_SECONDS * 2 ** max(failures - 1, 0), BACKOFF_MAX_SECONDS)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay


def _transient(exc: BaseException) -> tuple[bool, float | None]:
    """(worth retrying, Discord's retry_after) for a failed delivery."""
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            retry_after = getattr(exc, "retry_after", None)
            if retry_after is None and isinstance(exc.response, aiohttp.ClientResponse):
                header = exc.response.headers.get("Retry-After")
                with contextlib.suppress(TypeError, ValueError):
                    retry_after = float(header) if header is not None else None
            return True, retry_after
        return exc.status >= 500, None
    return isinstance(exc, OSError | aiohttp.ClientError | asyncio.TimeoutError), None


async def prompt_retry(
    call: Callable[[], Awaitable[T]],
    *,
    deadline: float | None = None,
    attempts: int | None = None,
    sleep: Callable[[float], Awaitable[object]] | None = None,
) -> T:
    """``await call()``, tried again after a transient failure (5xx, 429, a network error)
    up to :data:`PROMPT_ATTEMPTS` times with short doubling pauses from
    :data:`PROMPT_BACKOFF_SECONDS`. A permanent failure (403, 404, other 4xx) is raised at
    once, and so is the last transient one, or one whose pause (a 429's ``retry_after``
    included) would end after ``deadline`` (a ``loop.time()``; an interaction's answer is
    due within 3 s). For the writes that cannot wait for :class:`Delivery`'s patient queue
    because a person is looking at a spinner or at a "… is opening a table" notice.
    ``call`` is called anew each try, so a message with a file is built again."""
    loop = asyncio.get_running_loop()
    tries = PROMPT_ATTEMPTS if attempts is None else attempts
    pause = PROMPT_BACKOFF_SECONDS
    for attempt in range(1, tries + 1):
        try:
            return await call()
        except Exception as exc:
            transient, retry_after = _transient(exc)
            wait = max(pause, retry_after or 0.0)
            late = deadline is not None and loop.time() + wait >= deadline
            if not transient or attempt == tries or late:
                raise
            log.info("retrying in %.2f s after %s", wait, _describe(exc))
            await (sleep or asyncio.sleep)(wait)
            pause *= 2
    raise AssertionError("unreachable")  # the loop returns or raises


class Delivery:
    """Per-game queues of obligations with retry; see the module docstring."""

    def __init__(
        self,
        transport: Transport,
        outbox: Callable[[], Outbox | None],
        *,
        interval: float = 0.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.transport = transport
        self._outbox = outbox
        self.interval = interval
        self._sleep = sleep
        self._games: dict[int, _Game] = {}
        #: When each game's table was last edited (loop time), kept while it still matters
        #: for coalescing, i.e. for ``interval`` after the edit.
        self._last_table: dict[int, float] = {}
        self._closing = False
        #: Attempts that failed transiently and were tried again (read by bot/metrics.py).
        self.retried = 0

    # ----------------------------------------------------------------- owing

    def owe_table(self, game_id: int, version: int, *, durable: bool = False) -> None:
        self._owe(game_id, _Owed("table", version, durable))

    def owe_result(self, game_id: int, version: int, *, durable: bool = False) -> None:
        self._owe(game_id, _Owed("result", version, durable))

    def owe_ping(self, game_id: int, seat: int, kind: str, version: int) -> None:
        self._owe(game_id, _Owed("ping", version, seat=seat, detail=kind))

    def owe_reminder(self, game_id: int, seat: int, version: int, deadline: float) -> None:
        self._owe(game_id, _Owed("remind", version, seat=seat, deadline=deadline))

    def pending(self, game_id: int) -> list[str]:
        """Slots still owed for a game (for tests and diagnostics)."""
        game = self._games.get(game_id)
        return sorted(game.slots, key=lambda s: _ORDER[s.split(":")[0]]) if game else []

    def owes_newer_table(self, game_id: int, version: int) -> bool:
        """Whether a table edit of a version after ``version`` is owed: an edit of
        ``version`` whose picture is still queued is then dropped (bot/pictures/service.py).
        Asked from the picture thread: two dict reads, each atomic under the GIL."""
        game = self._games.get(game_id)
        owed = game.slots.get("table") if game is not None else None
        return owed is not None and owed.version > version

    def owed(self) -> int:
        """Obligations not yet taken by Discord, over every game."""
        return sum(len(game.slots) for game in self._games.values())

    def _owe(self, game_id: int, owed: _Owed) -> None:
        if self._closing:
            return
        if len(self._last_table) > 1024:  # forget edits too old to delay anything
            now = asyncio.get_running_loop().time()
            for gid, last in list(self._last_table.items()):
                if last + self.interval <= now:
                    del self._last_table[gid]
        game = self._games.setdefault(game_id, _Game())
        old = game.slots.get(owed.slot)
        if old is not None:
            # The newer obligation supersedes; a durable row stays owed until delivered.
            owed.durable = owed.durable or old.durable
            if old.version > owed.version:
                owed.version = old.version
        game.slots[owed.slot] = owed
        if game.task is None or game.task.done():
            game.task = asyncio.get_running_loop().create_task(
                self._run(game_id, game), name=f"durak-delivery-{game_id}"
            )

    async def resume(self) -> int:
        """After a restart: owe again what ended games still owe (their outbox rows)."""
        outbox = self._outbox()
        if outbox is None:
            return 0
        rows = await outbox.outbox_pending()
        for row in rows:
            if row.kind == "table":
                self.owe_table(row.game_id, row.version, durable=True)
            elif row.kind == "result":
                self.owe_result(row.game_id, row.version, durable=True)
        if rows:
            log.info("delivery: %d obligation(s) resumed from the outbox", len(rows))
        return len(rows)

    # ----------------------------------------------------------------- delivering

    async def _run(self, game_id: int, game: _Game) -> None:
        loop = asyncio.get_running_loop()
        try:
            while game.slots and not self._closing:
                owed = min(game.slots.values(), key=lambda o: _ORDER[o.kind])
                if owed.kind == "table":
                    last = self._last_table.get(game_id, float("-inf"))
                    wait = last + self.interval - loop.time()
                    if wait > 0:
                        await self._sleep(wait)
                        continue  # the slot may have changed meanwhile
                done, retry_after = await self._attempt(game_id, owed)
                if owed.kind == "table":
                    self._last_table[game_id] = loop.time()
                if not done:
                    game.failures += 1
                    self.retried += 1
                    await self._sleep(backoff_delay(game.failures, retry_after))
                    continue
                game.failures = 0
                if game.slots.get(owed.slot) is owed:
                    del game.slots[owed.slot]
                if owed.durable:
                    await self._forget(game_id, owed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: delivery worker failed", game_id)
        finally:
            if self._games.get(game_id) is game and not game.slots:
                del self._games[game_id]
            edited = self._last_table.get(game_id)
            if edited is not None and edited + self.interval <= loop.time():
                del self._last_table[game_id]

    async def _attempt(self, game_id: int, owed: _Owed) -> tuple[bool, float | None]:
        """One try; (done, retry_after). Done also when the obligation is obsolete or can
        never succeed."""
        try:
            if owed.kind == "table":
                await self.transport.deliver_table(game_id)
            elif owed.kind == "result":
                await self.transport.deliver_result(game_id)
            elif owed.kind == "ping":
                await self.transport.deliver_ping(game_id, owed.seat, owed.detail, owed.version)
            else:
                await self.transport.deliver_reminder(
                    game_id, owed.seat, owed.version, owed.deadline
                )
        except Obsolete:
            log.debug("game %d: %s v%d is obsolete", game_id, owed.kind, owed.version)
            return True, None
        except Exception as exc:
            transient, retry_after = _transient(exc)
            if transient:
                log.warning(
                    "game %d: %s v%d not delivered (%s), retrying",
                    game_id,
                    owed.kind,
                    owed.version,
                    _describe(exc),
                )
                return False, retry_after
            if isinstance(exc, discord.HTTPException):
                log.warning(
                    "game %d: %s v%d cannot be delivered (%s); dropped",
                    game_id,
                    owed.kind,
                    owed.version,
                    _describe(exc),
                )
            else:
                log.exception("game %d: %s v%d failed; dropped", game_id, owed.kind, owed.version)
            return True, None
        return True, None

    async def _forget(self, game_id: int, owed: _Owed) -> None:
        outbox = self._outbox()
        if outbox is None:
            return
        try:
            await outbox.outbox_done(game_id, owed.kind, owed.version)
        except Exception:
            # Harmless: the row is delivered again after the next restart (an idempotent
            # table edit, at worst a repeated result).
            log.warning("game %d: could not clear the delivered %s", game_id, owed.kind)

    async def close(self) -> None:
        self._closing = True
        tasks = [g.task for g in self._games.values() if g.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.text or exc.__class__.__name__}"[:200]
    return f"{type(exc).__name__}: {exc}"[:200]
