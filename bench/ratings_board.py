"""Rating leaderboard queries over a big server: 100,000 results in one guild.

Fills a fresh SQLite database with seeded four-player games (400 players, four modes, spread
over a year), rates them the way migration 0008's backfill does (the same code that rates a
game at its end), then times what ``/durak leaderboard`` and ``/durak profile`` ask the
database: the rating board (all time, last week, last month, one mode), the profile, and the
fools board that stays available. With ``TEST_DATABASE_URL`` set, the same rows are copied
into a fresh PostgreSQL schema with ``migrate-db``'s copy (rating 25,000 games again through
a network round trip per statement would take longer than the query it prepares) and the
same queries are timed there.

Target: every board query < 50 ms. Prints, never asserts; the last line is
``slowest board query: <ms> ms (<backend> <query>)``.

    .venv/bin/python bench/ratings_board.py [--results 100000] [--repeats 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import Storage
from bot.storage.ratings import backfill
from bot.storage.transfer import copy_database

GUILD = 4242
PLAYERS = 400
MODES = ("podkidnoy", "perevodnoy", "trumpless", "durak-online")
YEAR = 365 * 86400.0
TARGET_MS = 50.0
NOW = 1_790_000_000.0


def _games(results: int, seed: int = 7) -> list[tuple[int, str, list[int], list[int], float]]:
    """(game id, mode, user per seat, finishing order of seats, finished_at)."""
    rng = random.Random(seed)
    games = []
    for i in range(results // 4):
        users = rng.sample(range(1, PLAYERS + 1), 4)
        order = rng.sample(range(4), 4)
        games.append(
            (i + 1, rng.choice(MODES), users, order, NOW - YEAR + YEAR * i / (results // 4))
        )
    return games


async def _fill(st: Storage, results: int) -> tuple[int, float]:
    games = _games(results)
    async with st.database.transaction() as conn:
        g_rows, s_rows, r_rows = [], [], []
        for gid, mode, users, order, ts in games:
            fool = order[-1]
            snap = {
                "game": {
                    "rules": {"teams": "none"},
                    "hands": [[], [], [], []],
                    "out": order[:-1],
                    "result": {
                        "kind": "fool",
                        "fool": fool,
                        "losers": [fool],
                        "losing_team": None,
                        "finish_order": order[:-1],
                    },
                },
                "events": [["out", s, [], -1, 0] for s in order[:-1]][-1:],
            }
            g_rows.append((gid, GUILD, 1, users[0], mode, json.dumps(snap), ts, ts, ts))
            for seat, user in enumerate(users):
                s_rows.append((gid, seat, user, f"Player {user}"))
                r_rows.append((gid, GUILD, user, seat, "fool" if seat == fool else "win", mode, ts))
        await conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, state_json,"
            " created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?)",
            g_rows,
        )
        await conn.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
            s_rows,
        )
        await conn.executemany(
            "INSERT INTO results (game_id, guild_id, user_id, seat, outcome, preset, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            r_rows,
        )
        await conn.execute("DELETE FROM rating_jobs")
        await conn.execute("INSERT INTO rating_jobs (name) VALUES ('backfill')")
    start = time.perf_counter()
    rated = await backfill(st.database)
    return rated, time.perf_counter() - start


async def _time(fn: Callable[[], Awaitable[Any]], repeats: int) -> float:
    await fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def _run(
    label: str, url: str, results: int, repeats: int, *, copy_from: str | None = None
) -> list[tuple[float, str]]:
    if copy_from is not None:
        start = time.perf_counter()
        await copy_database(copy_from, url, report=lambda _line: None)
        print(f"{label}: the same rows copied in {time.perf_counter() - start:.1f} s")
        async with await Storage.open(url) as st, st.database.transaction() as conn:
            await conn.execute("ANALYZE")  # what autovacuum does after a bulk load
    async with await Storage.open(url, clock=lambda: NOW) as st:
        if copy_from is None:
            rated, seconds = await _fill(st, results)
            print(f"{label}: {results} results, {rated} games rated by the backfill", end="")
            print(f" in {seconds:.1f} s")
        queries: dict[str, Callable[[], Awaitable[Any]]] = {
            "rating board, all time": lambda: st.rating_leaderboard(GUILD),
            "rating board, last week": lambda: st.rating_leaderboard(GUILD, period="week"),
            "rating board, last month": lambda: st.rating_leaderboard(GUILD, period="month"),
            "rating board, one mode": lambda: st.rating_leaderboard(GUILD, mode="perevodnoy"),
            "profile": lambda: st.rating_profile(GUILD, 17),
            "fools board, all time": lambda: st.leaderboard(GUILD, "all", "fools"),
            "fools board, last week": lambda: st.leaderboard(GUILD, "week", "fools"),
        }
        out = []
        for name, fn in queries.items():
            ms = await _time(fn, repeats)
            print(f"{label} {name:<26} {ms:7.1f} ms")
            out.append((ms, f"{label} {name}"))
        return out


async def _main(results: int, repeats: int) -> None:
    timings = []
    pg = os.environ.get("TEST_DATABASE_URL", "").strip()
    with tempfile.TemporaryDirectory() as tmp:
        sqlite_url = f"sqlite:///{tmp}/bench.db"
        timings += await _run("sqlite", sqlite_url, results, repeats)
        if pg:
            import asyncpg

            schema = f"bench_{uuid.uuid4().hex[:8]}"
            conn = await asyncpg.connect(pg)
            await conn.execute(f"CREATE SCHEMA {schema}")
            try:
                sep = "&" if "?" in pg else "?"
                target = f"{pg}{sep}search_path={schema}"
                timings += await _run("postgresql", target, results, repeats, copy_from=sqlite_url)
            finally:
                await conn.execute(f"DROP SCHEMA {schema} CASCADE")
                await conn.close()
        else:
            print("postgresql: skipped (set TEST_DATABASE_URL)")
    board = [t for t in timings if "board" in t[1]]
    ms, name = max(board)
    verdict = "met" if ms < TARGET_MS else "NOT met"
    print(f"target < {TARGET_MS:g} ms per board query: {verdict}")
    print(f"slowest board query: {ms:.1f} ms ({name})")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=20)
    args = p.parse_args(argv)
    asyncio.run(_main(max(8, args.results), max(1, args.repeats)))


if __name__ == "__main__":
    main()
