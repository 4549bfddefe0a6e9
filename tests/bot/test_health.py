"""The heartbeat behind the Docker HEALTHCHECK: the running bot touches a file only while the
gateway and the database answer, and ``--health`` judges the file's age."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import simcord

from bot.health import HEARTBEAT_MAX_AGE, Heartbeat, check_heartbeat
from tests.bot.conftest import make_bot


def test_check_heartbeat_judges_the_age_of_the_file(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    ok, text = check_heartbeat(beat)
    assert not ok and "no heartbeat" in text
    beat.write_text("1\n", encoding="utf-8")
    os.utime(beat, (1_000_000.0, 1_000_000.0))
    assert check_heartbeat(beat, now=1_000_000.0 + HEARTBEAT_MAX_AGE)[0]
    ok, text = check_heartbeat(beat, now=1_000_000.0 + HEARTBEAT_MAX_AGE + 1)
    assert not ok and "91 s ago" in text


async def test_heartbeat_writes_only_while_healthy(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    beat = tmp_path / "run" / "beat"
    problem: list[str | None] = [None]

    async def probe() -> str | None:
        if problem[0] == "boom":
            raise RuntimeError("boom")
        return problem[0]

    heartbeat = Heartbeat(beat, probe, interval=1.0)
    assert await heartbeat.beat() and check_heartbeat(beat)[0]
    os.utime(beat, (1.0, 1.0))  # pretend the last good beat was long ago
    problem[0] = "gateway shard(s) 0 disconnected"
    with caplog.at_level(logging.WARNING, logger="bot.health"):
        assert not await heartbeat.beat()
        assert not await heartbeat.beat()
    assert [r.getMessage() for r in caplog.records] == [
        "unhealthy: gateway shard(s) 0 disconnected"  # logged once, not every beat
    ]
    assert not check_heartbeat(beat)[0]
    problem[0] = "boom"
    assert not await heartbeat.beat() and not check_heartbeat(beat)[0]
    problem[0] = None
    assert await heartbeat.beat() and check_heartbeat(beat)[0]
    heartbeat.start()
    await heartbeat.stop()
    assert not beat.exists()  # a stopped bot never looks healthy


async def test_running_bot_reports_gateway_and_database(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    bot = make_bot(tmp_path / "durak.db", heartbeat_file=beat)
    assert await bot.health_problem() == "not connected to Discord yet"
    async with simcord.run(bot) as env:
        await env.settle()
        assert await bot.health_problem() is None
        assert check_heartbeat(beat)[0]  # the first beat happens at start-up
        await bot.shards[0].disconnect()
        assert await bot.health_problem() == "gateway shard(s) 0 disconnected"
        await bot.shards[0].reconnect()
        await env.settle()
        assert await bot.health_problem() is None
        assert bot.storage is not None
        await bot.storage.close()
        problem = await bot.health_problem()
        assert problem is not None and problem.startswith("the database did not answer")
        bot.storage = None
        await bot.close()
    assert not beat.exists()
