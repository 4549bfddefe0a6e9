"""The /metrics and /healthz endpoint (bot/httpd.py) of a bot playing on simcord, scraped over
real HTTP on 127.0.0.1 as Prometheus or a container orchestrator would."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot.app import DurakBot
from bot.game.reviews import ReviewQueue
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import message, play_out, start_against_computer

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def _get(bot: DurakBot, path: str) -> tuple[int, str, str]:
    server = bot.metrics_server
    assert server is not None
    url = f"http://127.0.0.1:{server.port}{path}"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, response.headers["Content-Type"], await response.text()


async def _scrape(bot: DurakBot) -> Samples:
    status, content_type, text = await _get(bot, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _total(samples: Samples, name: str) -> float:
    """A sample summed over its labels (the think time is labelled by level)."""
    return sum(value for (sample, _), value in samples.items() if sample == name)


@pytest.mark.slow(sample=1)  # a game of a few moves: in make test, not make check
async def test_metrics_move_during_a_game_and_healthz_follows_the_database(
    db_path: Path,
) -> None:
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        await env.settle()
        assert bot.metrics_server is None  # off unless a port is configured
        await bot.start_metrics("127.0.0.1", 0)
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        before = await _scrape(bot)
        assert _value(before, "durak_games_running") == 0

        session = await start_against_computer(channel, alice, env)
        # One transient failure of a table edit: the delivery tries it again.
        env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=503, times=1)
        await play_out(env, channel, session.game_id, [alice], stop_after=4)
        await env.advance_time(5.0)  # the retried edit's backoff
        await env.settle()
        after = await _scrape(bot)

        assert _value(after, "durak_games_running") == 1
        moved = session.version - 1  # a game starts at version 1; each move adds one
        assert moved >= 4
        assert _value(after, "durak_moves_total") - _value(before, "durak_moves_total") == moved
        for histogram in ("durak_move_commit_seconds", "durak_move_acknowledge_seconds"):
            grown = _value(after, f"{histogram}_count") - _value(before, f"{histogram}_count")
            assert grown >= (moved if "commit" in histogram else 4), histogram
        assert _total(after, "durak_computer_think_seconds_count") > _total(
            before, "durak_computer_think_seconds_count"
        )
        assert _value(after, "durak_computer_think_seconds_count", level="easy") >= 1
        for counter in (
            "durak_table_edits_total",
            "durak_picture_renders_total",
            "durak_picture_render_seconds_count",
            "durak_delivery_retries_total",
        ):
            assert _value(after, counter) > _value(before, counter), counter
        assert _value(after, "durak_deliveries_owed") == 0  # all delivered
        assert ("durak_reviews_queued", ()) in after and ("durak_pings_posted_total", ()) in after
        assert _value(after, "process_cpu_seconds_total") > 0
        assert message(channel, session.message_id or 0) is not None

        status, content_type, body = await _get(bot, "/healthz")
        assert (status, content_type) == (200, "application/json; charset=utf-8")
        assert json.loads(body) == {"status": "ok", "discord": "ok", "database": "ok"}

        assert bot.storage is not None
        await bot.storage.close()  # the database is gone
        status, _, body = await _get(bot, "/healthz")
        report: dict[str, Any] = json.loads(body)
        assert status == 503 and report["status"] == "unhealthy"
        assert report["discord"] == "ok"
        assert report["database"].startswith("the database did not answer")
        bot.storage = None
        await bot.close()
    assert bot.metrics_server is None


class _StuckWorker(Executor):
    """A review worker that never finishes: the reviews stay queued."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


async def test_reviews_queued_and_healthz_is_503_without_discord(db_path: Path) -> None:
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        await env.settle()
        server = await bot.start_metrics("127.0.0.1", 0)
        assert server.port > 0
        queue = bot.review_queue = ReviewQueue(executor=_StuckWorker())  # as review_views does
        waiting = [
            asyncio.create_task(queue.review(guild, user, "record", 0))
            for guild, user in ((1, 10), (1, 11), (2, 12))
        ]
        await asyncio.sleep(0)
        assert _value(await _scrape(bot), "durak_reviews_queued") == 3
        queue.close()
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        await bot.shards[0].disconnect()
        status, _, body = await _get(bot, "/healthz")
        assert status == 503
        assert json.loads(body)["discord"] == "gateway shard(s) 0 disconnected"
        await bot.close()
