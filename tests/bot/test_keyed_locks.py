"""bot/game/keyed_locks.py: callers of one key take turns, and no key's lock outlives its use."""

from __future__ import annotations

import asyncio

import pytest

from bot.game.keyed_locks import KeyedLocks


async def test_one_key_serialises_and_is_forgotten_after_its_last_user() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(7):
            order.append("first in")
            first_in.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        await first_in.wait()
        async with locks.hold(7):
            order.append("second in")

    async def other_key() -> None:
        await first_in.wait()
        async with locks.hold(8):
            order.append("other key")

    tasks = [asyncio.create_task(f()) for f in (first, second, other_key)]
    await first_in.wait()
    for _ in range(5):
        await asyncio.sleep(0)
    # the other key did not wait; the second caller of key 7 did, and shares its lock
    assert order == ["first in", "other key"]
    assert len(locks) == 1
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "other key", "first out", "second in"]
    assert len(locks) == 0


async def test_a_failing_holder_leaves_no_lock_behind() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    with pytest.raises(RuntimeError):
        async with locks.hold("lobby"):
            raise RuntimeError("boom")
    assert len(locks) == 0
    async with locks.hold("lobby"):
        assert len(locks) == 1
