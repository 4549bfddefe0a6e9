"""Reviews off the event loop: a fair queue in front of one worker process.

A review plays thousands of playouts (seconds of CPU). Run on the event loop it would stall
every game's buttons, and even in a thread it would hold the GIL against them, so reviews run
in a separate process (``engine.ai.review`` is pure: the record's text and a seat go in, the
review comes back). One worker: reviews never take both cores from the games. Requests wait
in one queue per server and are served round robin, so one busy server cannot starve the
others; a server has at most ``PER_GUILD_LIMIT`` waiting, and a person one at a time.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict, deque
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.ai.review import REVIEW_ITERATIONS, Review, review_game
from engine.record import Record

from .errors import ServiceError

__all__ = ["PER_GUILD_LIMIT", "ReviewQueue", "run_review"]

log = logging.getLogger(__name__)

#: Reviews one server may have waiting or running at once.
PER_GUILD_LIMIT = 3


def run_review(text: str, seat: int, iterations: int = REVIEW_ITERATIONS) -> Review:
    """The worker's job (top level, so a process pool can pickle it)."""
    return review_game(Record.from_text(text), seat, iterations=iterations, seed=0)


@dataclass
class _Job:
    guild_id: int
    user_id: int
    text: str
    seat: int
    done: asyncio.Future[Review] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ReviewQueue:
    """Round-robin over servers, one review at a time, in ``executor`` (default: a process
    of its own, started on first use)."""

    def __init__(self, executor: Executor | None = None, iterations: int = REVIEW_ITERATIONS):
        self._executor = executor
        self.iterations = iterations
        self._queues: OrderedDict[int, deque[_Job]] = OrderedDict()
        self._users: set[int] = set()
        self._worker: asyncio.Task[None] | None = None
        self.completed = 0

    def _pool(self) -> Executor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded event loop
            self._executor = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
        return self._executor

    def waiting(self, guild_id: int) -> int:
        return len(self._queues.get(guild_id, ()))

    def total_waiting(self) -> int:
        """Reviews waiting or running, every server together."""
        return sum(len(q) for q in self._queues.values())

    async def review(self, guild_id: int, user_id: int, text: str, seat: int) -> Review:
        """Queue a review and wait for it. Refused politely when the person already has one
        under way or the server's queue is full."""
        if user_id in self._users:
            raise ServiceError("review.already_running")
        if self.waiting(guild_id) >= PER_GUILD_LIMIT:
            raise ServiceError("review.busy", limit=PER_GUILD_LIMIT)
        job = _Job(guild_id, user_id, text, seat)
        self._queues.setdefault(guild_id, deque()).append(job)
        self._users.add(user_id)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work(), name="durak-review")
        try:
            return await asyncio.shield(job.done)
        finally:
            self._users.discard(user_id)

    def _next(self) -> _Job | None:
        """The next server's oldest request; that server goes to the back of the line."""
        while self._queues:
            guild_id, queue = next(iter(self._queues.items()))
            self._queues.move_to_end(guild_id)
            if queue:
                return queue[0]
            del self._queues[guild_id]
        return None

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while (job := self._next()) is not None:
            try:
                review = await loop.run_in_executor(
                    self._pool(), run_review, job.text, job.seat, self.iterations
                )
            except Exception as exc:
                log.exception("review for user %d failed", job.user_id)
                if not job.done.done():
                    job.done.set_exception(
                        ServiceError("review.failed") if not isinstance(exc, ServiceError) else exc
                    )
            else:
                self.completed += 1
                if not job.done.done():
                    job.done.set_result(review)
            finally:
                queue = self._queues.get(job.guild_id)
                if queue and queue[0] is job:
                    queue.popleft()
                    if not queue:
                        del self._queues[job.guild_id]

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        if isinstance(self._executor, ProcessPoolExecutor):
            self._executor.shutdown(wait=False, cancel_futures=True)
