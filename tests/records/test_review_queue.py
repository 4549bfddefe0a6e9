"""The review queue: one review at a time, servers served round robin, a per-server limit and
one review per person."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.records import play
from bot.game import reviews
from bot.game.errors import ServiceError
from bot.game.reviews import PER_GUILD_LIMIT, ReviewQueue


async def test_servers_take_turns_and_limits_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[tuple[str, int]] = []
    gate = threading.Event()

    def fake_review(text: str, seat: int, iterations: int) -> object:
        gate.wait(5)
        order.append((text, seat))
        return (text, seat)

    monkeypatch.setattr(reviews, "run_review", fake_review)
    queue = ReviewQueue(ThreadPoolExecutor(1), iterations=1)
    jobs = [
        asyncio.create_task(queue.review(1, 10, "a1", 0)),
        asyncio.create_task(queue.review(1, 11, "a2", 0)),
        asyncio.create_task(queue.review(1, 12, "a3", 0)),
        asyncio.create_task(queue.review(2, 20, "b1", 0)),
    ]
    await asyncio.sleep(0.05)
    assert queue.total_waiting() == 4
    with pytest.raises(ServiceError) as full:
        await queue.review(1, 13, "a4", 0)
    assert full.value.key == "review.busy" and PER_GUILD_LIMIT == 3
    with pytest.raises(ServiceError) as twice:
        await queue.review(2, 20, "b2", 0)
    assert twice.value.key == "review.already_running"
    gate.set()
    await asyncio.gather(*jobs)
    # Server 2's only request is served second, not after all of server 1's.
    assert [t for t, _ in order] == ["a1", "b1", "a2", "a3"]
    assert queue.total_waiting() == 0 and queue.completed == 4
    queue.close()


@pytest.mark.slow(sample=1)  # a worker process: in make test, not make check
def test_the_worker_job_reviews_a_record() -> None:
    record = play("podkidnoy", 2, 3)
    review = reviews.run_review(record.to_text(), 0, 2)
    assert review.seat == 0 and review.decisions
    assert all(d.seat == 0 for d in review.decisions)
