"""Shortcuts through the simulated Discord's bookkeeping for bench/bot_load.py.

simcord is built for tests: it settles the whole bot after every operation and keeps every
callback in a list. At 1,000 live games those costs dwarfed the bot's own (a profiler put
them at two thirds of the event loop), so the load bench takes these shortcuts, each
keeping what simcord computes and only making it cheaper. ``--pristine-simcord`` turns them
off. A real bot has none of this bookkeeping: its timers are the loop's own.
"""

from __future__ import annotations

import heapq
import itertools
import json as _json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import simcord
import simcord._runtime as sim_runtime
import simcord.env as sim_env
import simcord.http.router as sim_router
from simcord.backend.cdn import CdnStore

from bot.cardart import emojis as bot_emojis

__all__ = [
    "callbacks_pruned",
    "card_faces_drawn_once",
    "clock_moved",
    "identity_callback_records",
    "own_copies_of_what_the_bot_sends",
    "timers_follow_the_clock",
]


@contextmanager
def identity_callback_records(enabled: bool) -> Iterator[None]:
    """Make simcord's callback records compare by identity while the bench runs.

    simcord tracks every bot callback in a list and removes each record when it runs with
    ``list.remove``, i.e. with dataclass equality (which compares asyncio handles field by
    field) against every record before it. Each stored ephemeral hand view keeps a 15-minute
    timeout timer in that list, so at 1,000 games those comparisons took two thirds of the
    event loop and tripled every latency: an artefact of the simulator, not of the bot.
    Identity is what removing one unique record means, so the result is the same.
    """
    record_cls: Any = sim_runtime._CallbackRecord
    original = record_cls.__eq__
    if enabled:
        record_cls.__eq__ = object.__eq__
    try:
        yield
    finally:
        record_cls.__eq__ = original


class _TrackedCallbacks(list[Any]):
    """simcord's list of the bot's pending callbacks, cheap to maintain at 1,000 games.

    simcord appends a record per scheduled callback and, when one runs, takes it out with
    ``list.remove``: a scan from the oldest record, which passes every long-lived timer (a
    live hand's 15-minute expiry, one per open hand) for each short-lived one. Under a
    profiler that scan was 45% of the event loop at 1,000 games. Here a removal only notes
    the record as gone, and the list drops the gone records in one pass when they have
    piled up or before anyone reads it; the timers also sit in a heap by due time, so
    finding the due ones needs no scan either.
    """

    def __init__(self, records: Iterable[Any] = ()) -> None:
        super().__init__(records)
        self._gone: set[int] = set()
        self._order = itertools.count()
        self.timers: list[tuple[float, int, Any]] = []
        for record in list.__iter__(self):
            if record.when is not None:
                heapq.heappush(self.timers, (record.when, next(self._order), record))

    def append(self, record: Any) -> None:
        super().append(record)
        if record.when is not None:
            heapq.heappush(self.timers, (record.when, next(self._order), record))

    def remove(self, record: Any) -> None:
        self._gone.add(id(record))  # the list still holds the record: its id stays unique
        if len(self._gone) > 4096:
            self.prune()

    def __iter__(self) -> Iterator[Any]:
        if self._gone:
            self.prune()
        return super().__iter__()

    def __len__(self) -> int:
        if self._gone:
            self.prune()
        return super().__len__()

    def due(self, now: float) -> Iterator[Any]:
        """Each timer due by ``now`` once, in due order (cancelled or run ones are dropped)."""
        while self.timers and self.timers[0][0] <= now:
            record = heapq.heappop(self.timers)[2]
            if (
                id(record) not in self._gone
                and record.handle is not None
                and not record.handle.cancelled()
            ):
                yield record

    def prune(self) -> None:
        """Drop removed and cancelled records (simcord drops the cancelled ones in its settle,
        which does not run here)."""
        gone = self._gone
        self[:] = [
            r
            for r in list.__iter__(self)
            if id(r) not in gone and (r.handle is None or not r.handle.cancelled())
        ]
        gone.clear()


@contextmanager
def timers_follow_the_clock(env: simcord.Env, enabled: bool) -> Iterator[None]:
    """Let a bot timer that falls due in real time just move simcord's clock and run.

    simcord's clock is virtual; a bot timer (a live hand's debounce, a table edit's
    interval) also has a real-time fallback, and when that fires simcord advances its clock
    *and settles the whole bot*: every owned task is checked against every pending timer,
    over and over until all are parked. With live hands that happens a few hundred times a
    second at 1,000 games, each settle costing tasks x timers, and the run never finished.
    During the click rounds nothing needs that settlement (the clicks are paced by the real
    clock anyway), so a fallback here only moves the clock to its instant and runs the
    timers then due, in order, as the loop would have (see :class:`_TrackedCallbacks`).
    Another artefact of the simulator, not of the bot: a real bot's timers are the loop's
    own.
    """
    if not enabled:
        yield
        return
    env_any: Any = env
    sim_module: Any = sim_env
    tracked = _TrackedCallbacks(env_any._work.callbacks)
    env_any._work.callbacks = tracked
    fired = itertools.count(1)

    async def advance(target: float, deadline: float) -> None:
        del deadline
        if target > env_any._virtual_time:
            env_any._move_clock(target)
        for record in tracked.due(env_any._virtual_time):
            record.handle._run()  # routes a failure to the loop's handler, as the loop does
        if next(fired) % 1000 == 0:
            tracked.prune()  # cancelled timers too, which no removal reports

    wakes = sim_module._wakes_recognized_wait
    env_any._advance_to = advance
    sim_module._wakes_recognized_wait = lambda state, record: False
    try:
        yield
    finally:
        del env_any._advance_to
        sim_module._wakes_recognized_wait = wakes
        tracked.prune()
        env_any._work.callbacks = list(tracked)


def callbacks_pruned(env: simcord.Env) -> None:
    """In the clock-following mode, drop the records of callbacks that ran or were
    cancelled now rather than when enough have piled up (see :class:`_TrackedCallbacks`):
    each keeps its callback, and what that references, alive."""
    callbacks: Any = env._work.callbacks
    if isinstance(callbacks, _TrackedCallbacks):
        callbacks.prune()


def clock_moved(env: simcord.Env, seconds: float) -> None:
    """Move simcord's clock ahead by ``seconds`` at once, before the bot has any game.

    ``env.advance_time`` gets there from timer to timer, settling the whole bot at each
    one, and the whole advance must fit one settle timeout: a day ahead is a settle for
    every time a periodic timer of the bot falls due in that day, and simcord gives up when
    they do not fit ("bot did not settle while advancing time"). A timer passed over is
    not lost: it is overdue, and runs at simcord's next settle or, in the clock-following
    mode, at the next timer that falls due.
    """
    env_any: Any = env
    env_any._move_clock(env_any._virtual_time + seconds)


_FACES: list[bot_emojis.EmojiSpec] = []


@contextmanager
def card_faces_drawn_once(enabled: bool) -> Iterator[None]:
    """Draw the 105 card-emoji faces once per bench process instead of at every bot start.

    A bot starts by drawing every face (PNG, in an executor) before its emoji sync, and
    simcord waits a fixed 5 s for a new bot to settle. On the shared machine under load
    (load average 6-9) the drawing took longer and runs died before their first game. The
    faces are the same for every start, so the bench draws them once and each bot start
    gets that list; the sync itself (and everything measured) is unchanged.
    """
    if not enabled:
        yield
        return
    original = bot_emojis.wanted_emojis
    if not _FACES:
        _FACES.extend(original())
    bot_emojis.wanted_emojis = lambda: list(_FACES)
    try:
        yield
    finally:
        bot_emojis.wanted_emojis = original


@contextmanager
def own_copies_of_what_the_bot_sends() -> Iterator[None]:
    """Give the simulated Discord its own copy of every request body and uploaded file.

    simcord takes a request's JSON as the bot's own dict (its log deep-copies it, which
    shares every string) and an upload as the bot's own ``bytes`` (``BytesIO.read`` of a
    whole buffer returns the very object), and keeps them for good: every table picture a
    game ever sent, every lobby text. Those were allocated by the bot, so tracemalloc put
    them in the bot's heap although only the simulator held them (a real bot's request
    leaves as JSON bytes on a socket and is gone). With copies, what simcord keeps is
    simcord's (this module counts as simcord's in bench/bot_load/measure.py) and the bot's
    share is what the bot itself keeps: the picture its painter remembers is still the
    bot's. Only for the traced setup: copying costs a little CPU on the simulator's side.
    """
    dispatch = sim_router.dispatch
    store = CdnStore.store_attachment

    def copied_dispatch(*args: Any, json: Any | None = None, **kwargs: Any) -> Any:
        own = None if json is None else _json.loads(_json.dumps(json))
        return dispatch(*args, json=own, **kwargs)

    def copied_store(self: CdnStore, *args: Any) -> dict[str, Any]:
        attachment_id, channel_id, filename, data, description = args
        own = bytes(memoryview(data))
        return store(self, attachment_id, channel_id, filename, own, description)

    sim_router.dispatch = copied_dispatch
    CdnStore.store_attachment = copied_store  # type: ignore[method-assign]
    try:
        yield
    finally:
        sim_router.dispatch = dispatch
        CdnStore.store_attachment = store  # type: ignore[method-assign]
