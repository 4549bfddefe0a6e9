"""One bot_load run: a fresh bot, database and simulated Discord per size, on SQLite or
PostgreSQL (one or several bot processes), then the report."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, asynccontextmanager, contextmanager, nullcontext
from dataclasses import asdict, replace
from pathlib import Path

import asyncpg
import simcord

from bench.bot_load.clicks import (
    Clicker,
    _finished,
    _hand_phase,
    _move_phase,
    _open_all_hands,
    make_config,
    open_tables,
    owes_discord,
    progress,
    service_of,
    timed,
    warm_up,
)
from bench.bot_load.measure import (
    CpuSplit,
    LiveFigures,
    Memory,
    PictureFigures,
    Samples,
    SizeResult,
    classify,
    cpu_split,
    full_collections,
    profiled,
    simulator_history_out_of_gc,
)
from bench.bot_load.options import (
    DRAIN_SECONDS,
    GAMES_PER_GUILD,
    KINDS,
    SETTLE_SECONDS,
    TRACE_FRAMES,
    Options,
    parse_args,
)
from bench.bot_load.report import print_aims, report
from bench.simcord_shortcuts import (
    callbacks_pruned,
    card_faces_drawn_once,
    clock_moved,
    identity_callback_records,
    own_copies_of_what_the_bot_sends,
    timers_follow_the_clock,
)
from bot.app import DurakBot
from bot.cardart.labels import rank_labels
from bot.pictures.cards import face, sideways_face
from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[2]


async def run_size(
    games: int, opts: Options, barrier: Callable[[str], Awaitable[None]] | None = None
) -> SizeResult:
    """A fresh bot, database and simulated Discord with ``games`` live games.

    ``barrier`` (several processes, see :func:`run_processes`) waits until every process
    has started its bot and again until every one has set up its games, so that no bot
    restores another's games at its start and the click rounds of all run at once."""
    seeds = itertools.count(opts.seed)
    rng = random.Random(opts.seed)
    with tempfile.TemporaryDirectory(prefix="durak-load-") as tmp:
        bot = DurakBot(
            make_config(Path(tmp) / "durak.db", 0.0, opts.turn_timer, opts.database or None),
            sync="global",
            seed_factory=lambda: next(seeds),
        )
        # Settling also fires bot timers due within settle_timeout, so with turn timers on
        # it must stay below the half-time reminder.
        settle = opts.turn_timer / 2 - 1 if opts.turn_timer else SETTLE_SECONDS
        async with (
            _card_faces(opts),
            simcord.run(bot, settle_timeout=settle, check_errors=False) as env,
        ):
            clicker = Clicker(env, opts)
            assert env.bot.live_hands is not None
            env.bot.live_hands.debounce = opts.hand_debounce
            env.bot.live_hands.interval = opts.hand_interval
            kinds = {kind: Samples() for kind in KINDS}
            if opts.process_index:
                # simcord's ids come from its clock, which starts at the same instant in
                # every process: a day apart per process, their users never share an id
                clock_moved(env, 86400.0 * opts.process_index)
            full_gcs: list[float] = []
            try:
                with (
                    clicker.watching(),
                    identity_callback_records(opts.fast_simcord),
                    ExitStack() as following,
                ):
                    guilds = [
                        env.create_guild(f"Load {i}")
                        for i in range(max(1, -(-games // GAMES_PER_GUILD)))
                    ]
                    if barrier is not None:
                        await barrier("started")
                    if not opts.pictures:
                        for guild in guilds:
                            await service_of(env).storage.update_guild_settings(
                                guild.id, pictures=False
                            )
                    await warm_up(env, clicker, guilds[0], opts)
                    if opts.pictures:  # off the loop: simcord's timers keep running
                        await asyncio.get_running_loop().run_in_executor(None, _table_faces_drawn)
                    service = service_of(env)

                    # From here on a bot timer due in real time only moves simcord's clock
                    # (see timers_follow_the_clock): no settle of the whole bot, which at
                    # hundreds of games ran out of time during the setup.
                    following.enter_context(timers_follow_the_clock(env, opts.fast_simcord))
                    gc.collect()
                    if opts.trace:
                        tracemalloc.start(TRACE_FRAMES)
                    start = time.perf_counter()
                    with own_copies_of_what_the_bot_sends() if opts.trace else nullcontext():
                        tables = await open_tables(
                            env, clicker, guilds, games, opts.players, kinds["lobby"], opts
                        )
                    setup = time.perf_counter() - start
                    progress(f"{games} games set up in {setup:.0f} s")
                    clicker.forget()
                    memory = Memory(None, None, None, setup)
                    if opts.trace:
                        # the simulator's records of callbacks that ran keep what those
                        # callbacks referenced alive, which a real loop lets go at once
                        callbacks_pruned(env)
                        gc.collect()
                        snapshot = tracemalloc.take_snapshot()
                        tracemalloc.stop()
                        memory = Memory(*classify(snapshot), setup)
                        del snapshot

                    # Every player opens their hand once: from now on the bot keeps it live.
                    await _open_all_hands(env, service, clicker, tables, kinds["open"], opts)
                    bot_live = env.bot.live_hands
                    publisher = env.bot.publisher
                    assert bot_live is not None and publisher is not None
                    live_hands = bot_live.count()
                    stats0 = (
                        bot_live.stats.edits,
                        publisher.table_edits,
                        bot_live.stats.retried,
                        bot_live.stats.dropped,
                    )
                    counts = [0, 0]  # hands found current / refreshed by a click

                    # the table edit interval of the rounds (the setup ran with 0)
                    publisher.interval = publisher.delivery.interval = opts.edit_interval
                    move = kinds["move"]
                    storage = service.storage
                    service.act = timed(move.act, service.act)  # type: ignore[method-assign,assignment]
                    for name in ("save_state", "finish_game"):
                        setattr(storage, name, timed(move.commit, getattr(storage, name)))
                    if barrier is not None:
                        await barrier("set-up")
                    # Freezing starts only now: frozen cyclic garbage is never collected, so
                    # freezing during the setup would count it in the memory figure above.
                    cpu, wall = time.process_time(), time.perf_counter()
                    load = os.getloadavg()
                    drawn0 = PictureFigures.of(publisher.pictures)
                    splits: list[CpuSplit] = []
                    with full_collections(full_gcs), cpu_split(splits), profiled(opts):
                        for round_ in range(opts.clicks):
                            live = [t for t in tables if not _finished(service, t)]
                            if not live:
                                break
                            progress(f"{games} games: round {round_ + 1}, {len(live)} live")
                            simulator_history_out_of_gc(opts)
                            await _hand_phase(
                                env, service, clicker, live, kinds["hand"], opts, counts
                            )
                            simulator_history_out_of_gc(opts)
                            await _move_phase(env, service, clicker, live, move, opts, rng)
                    busy = (time.process_time() - cpu) / max(time.perf_counter() - wall, 1e-9)
                    moves = len(move.commit)
                    live_figures = LiveFigures(
                        live_hands,
                        len(tables),
                        time.perf_counter() - wall,
                        bot_live.stats.edits - stats0[0],
                        publisher.table_edits - stats0[1],
                        bot_live.stats.retried - stats0[2],
                        bot_live.stats.dropped - stats0[3],
                        *counts,
                    )
                    progress(f"{games} games: clicks done, draining the backlog")
                    with cpu_split(splits), profiled(opts, append=True):
                        # the edits the moves caused that are still owed count too
                        drained = await _drain(bot, DRAIN_SECONDS)
                    unsettled = (
                        []
                        if drained is not None
                        else [
                            f"live hand edits or deliveries still owed {DRAIN_SECONDS:g} s "
                            "after the last click"
                        ]
                    )
                    live_figures = replace(live_figures, drained=drained)
                    drawn = PictureFigures.of(publisher.pictures).since(drawn0)
                    load += os.getloadavg()
                finished = sum(1 for t in tables if _finished(service, t))
                errors = [repr(e) for e in env.errors] + unsettled
            finally:
                await env.bot.close()
                gc.unfreeze()
    return SizeResult(
        games, memory, kinds, finished, errors, full_gcs, busy, live_figures,
        CpuSplit.total(splits), moves, opts.pictures, 1, load,
        "postgresql" if opts.database else "sqlite", drawn if opts.pictures else None,
    )  # fmt: skip


def _table_faces_drawn() -> None:
    """Every card face a table picture shows, in both languages' rank letters (208 faces and
    104 turned-up trumps, ~5 ms each, once per process), drawn before the clicks: a bot that
    has run for a while has them all, and the first hundreds of moves of a fresh process
    would otherwise pay them (bench/picture_game.py warms its caches the same way)."""
    for locale in ("en", "ru"):
        ranks = rank_labels(locale)
        for card in range(52):
            sideways_face(card, ranks)
            for trump in (False, True):
                face(card, trump, ranks)


@asynccontextmanager
async def _card_faces(opts: Options) -> AsyncIterator[None]:
    with card_faces_drawn_once(opts.fast_simcord):
        yield


async def _drain(bot: DurakBot, limit: float) -> float | None:
    """Seconds until the bot owed Discord nothing more (no live hand edit and no table edit,
    result or ping pending), or None if that took longer than ``limit``.

    This replaces simcord's settle after the clicks: at 1,000 games that settle checks every
    task against every timer again and again and did not finish in minutes, while the bot's
    own queues say directly whether it kept up. Polled from a worker thread's sleep, as the
    pacing is (the loop's clock is simcord's)."""
    loop = asyncio.get_running_loop()
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        if not owes_discord(bot):
            return time.perf_counter() - start
        await loop.run_in_executor(None, time.sleep, 0.05)
    return None


# --------------------------------------------------------------------------- PostgreSQL


@asynccontextmanager
async def fresh_schema(url: str) -> AsyncIterator[str]:
    """A new, empty schema of the given database for one run, dropped afterwards, so every
    size starts from empty tables as the SQLite runs do (``?search_path=`` in the URL)."""
    schema = f"bench_{os.getpid()}_{time.time_ns()}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        try:
            yield f"{url}{'&' if '?' in url else '?'}search_path={schema}"
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


async def run_in_schema(games: int, opts: Options) -> SizeResult:
    """One bot process on PostgreSQL."""
    async with fresh_schema(opts.database) as url:
        return await run_size(games, replace(opts, database=url))


def _child_args(opts: Options, games: int, url: str, index: int, out: Path) -> list[str]:
    args = [
        sys.executable, "-m", "bench.bot_load", "--child", str(out), "--sizes", str(games),
        "--database", url, "--seed", str(opts.seed + 1000 * index),
        "--process-index", str(index),
        "--clicks", str(opts.clicks), "--players", str(opts.players),
        "--think", str(opts.think), "--inflight", str(opts.inflight),
        "--setup-batch", str(opts.setup_batch), "--rate", str(opts.rate),
        "--edit-interval", str(opts.edit_interval), "--turn-timer", str(opts.turn_timer),
        "--hand-debounce", str(opts.hand_debounce), "--hand-interval", str(opts.hand_interval),
        "--no-trace", "--pictures", "on" if opts.pictures else "off",
    ]  # fmt: skip
    if not opts.freeze:
        args.append("--no-freeze")
    if not opts.fast_simcord:
        args.append("--pristine-simcord")
    return args


async def run_processes(games: int, opts: Options) -> SizeResult:
    """``opts.processes`` bot processes, each with its own simulated Discord and its share
    of the games, on one PostgreSQL database, as shards of one bot would be.

    The processes start their bots, then wait for each other (no bot may find another's
    games at its start: the shard filter of restart recovery is not what is measured
    here), set up their games, wait again, and then click at the same time; their samples
    are merged, so the percentiles are over every click of every process."""
    shares = [games // opts.processes + (i < games % opts.processes) for i in range(opts.processes)]
    async with fresh_schema(opts.database) as url:
        async with await Storage.open(url):  # migrate once, before the processes start
            pass
        with tempfile.TemporaryDirectory(prefix="durak-load-") as tmp:
            procs = []
            for i, share in enumerate(shares):
                out = Path(tmp) / f"process-{i}.json"
                proc = await asyncio.create_subprocess_exec(
                    *_child_args(opts, share, url, i, out),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    cwd=ROOT,
                )
                procs.append((proc, out))
            try:
                for stage in ("started", "set-up"):
                    for proc, _ in procs:
                        assert proc.stdout is not None
                        line = (await proc.stdout.readline()).decode().strip()
                        if line != stage:
                            raise RuntimeError(f"a bot process said {line!r}, not {stage!r}")
                    for proc, _ in procs:
                        assert proc.stdin is not None
                        proc.stdin.write(b"go\n")
                        await proc.stdin.drain()
                for proc, _ in procs:
                    await proc.wait()
            finally:
                for proc, _ in procs:
                    if proc.returncode is None:
                        proc.kill()
                        await proc.wait()
            parts = [_load_result(out) for _, out in procs]
    return _merge(games, parts)


async def _stdin_barrier(stage: str) -> None:
    """In a child process: say which stage is reached, wait for the parent's go."""
    print(stage, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def _load_result(path: Path) -> SizeResult:
    data = json.loads(path.read_text(encoding="utf-8"))
    return SizeResult(
        games=data["games"],
        memory=Memory(**data["memory"]),
        kinds={k: Samples(**v) for k, v in data["kinds"].items()},
        finished=data["finished"],
        errors=data["errors"],
        full_gcs=data["full_gcs"],
        busy=data["busy"],
        live=LiveFigures(**data["live"]) if data.get("live") else None,
        cpu=CpuSplit(**data["cpu"]) if data.get("cpu") else None,
        moves=data.get("moves", 0),
        pictures=data.get("pictures", True),
        load=tuple(data.get("load", ())),
        backend=data.get("backend", "sqlite"),
        drawn=PictureFigures(**data["drawn"]) if data.get("drawn") else None,
    )


def _merge(games: int, parts: Sequence[SizeResult]) -> SizeResult:
    """One result over every process: samples pooled, the clicks' wall time is the longest
    process's (they click at once), CPU busy is summed (2.0 = both cores all the time)."""
    kinds = {kind: Samples() for kind in KINDS}
    for part in parts:
        for kind, s in part.kinds.items():
            total = kinds[kind]
            for name in ("ack", "e2e", "act", "commit"):
                getattr(total, name).extend(getattr(s, name))
            total.wall = max(total.wall, s.wall)
            total.refused += s.refused
            total.stale += s.stale
            total.lost += s.lost
    setup = max(p.memory.setup_seconds for p in parts)
    return SizeResult(
        games,
        Memory(None, None, None, setup),
        kinds,
        sum(p.finished for p in parts),
        [e for p in parts for e in p.errors],
        [g for p in parts for g in p.full_gcs],
        sum(p.busy for p in parts),
        cpu=CpuSplit.total([p.cpu for p in parts if p.cpu is not None]),
        moves=sum(p.moves for p in parts),
        pictures=parts[0].pictures,
        processes=len(parts),
        # the first process's load at its start, the last one's at its end
        load=parts[0].load[:3] + parts[-1].load[3:],
        backend=parts[0].backend,
        drawn=(
            PictureFigures.total([p.drawn for p in parts if p.drawn is not None])
            if parts[0].drawn is not None
            else None
        ),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run every size in a fresh bot and database; 1 if the bot reported errors."""
    sizes, opts, child, configs, capacity = parse_args(argv)
    with sqlite_driver(opts.sqlite_driver):
        if child is not None:  # one of run_processes' bot processes
            result = asyncio.run(run_size(sizes[0], opts, _stdin_barrier))
            child.write_text(json.dumps(asdict(result)), encoding="utf-8")
            return 1 if result.errors else 0
        if capacity:
            groups = capacity_plan(opts, sizes)
        else:
            runs = [replace(opts, pictures=pic, processes=n) for pic, n in configs]
            groups = [(opts, [(run, games) for run in runs for games in sizes])]
        reported: list[tuple[Options, list[SizeResult]]] = []
        for shown, plan in groups:
            results = []
            for run, games in plan:
                start = time.perf_counter()
                if run.processes > 1:
                    results.append(asyncio.run(run_processes(games, run)))
                elif run.database:
                    results.append(asyncio.run(run_in_schema(games, run)))
                else:
                    results.append(asyncio.run(run_size(games, run)))
                progress(f"{games} games done in {time.perf_counter() - start:.0f} s")
            reported.append((shown, results))
    everything = []
    for shown, results in reported:
        report(results, shown)
        print()
        everything += results
    print_aims(everything, postgres=bool(opts.database))
    return 1 if any(r.errors for r in everything) else 0


def capacity_plan(
    opts: Options, sizes: list[int]
) -> list[tuple[Options, list[tuple[Options, int]]]]:
    """``--capacity``: every capacity figure of issue 30 in one command, as report groups.

    SQLite at each size (CAPACITY_GAMES live games unless ``--sizes`` says otherwise) with
    pictures on (traced: the heap per idle game) and off (untraced), and, given
    ``--database``, PostgreSQL with one and with two bot processes at the same sizes, for
    games per core against the process count."""
    sqlite = replace(opts, database="", processes=1)
    on, off = replace(sqlite, pictures=True), replace(sqlite, pictures=False, trace=False)
    groups = [(sqlite, [(run, games) for run in (on, off) for games in sizes])]
    if opts.database:
        pg = replace(opts, pictures=True, trace=False)
        runs = [replace(pg, processes=n) for n in (1, 2)]
        groups.append((pg, [(run, games) for run in runs for games in sizes]))
    return groups


@contextmanager
def sqlite_driver(name: str) -> Iterator[None]:
    """``--sqlite-driver thread``: the old backend in place of the bot's for the block
    (``Storage.open`` imports ``SqliteDatabase`` from its module when it opens a file)."""
    if name != "thread":
        yield
        return
    import bot.storage.sqlite as sqlite_backend
    from bench.sqlite_thread import ThreadSqliteDatabase

    original = sqlite_backend.SqliteDatabase
    sqlite_backend.SqliteDatabase = ThreadSqliteDatabase  # type: ignore[misc]
    try:
        yield
    finally:
        sqlite_backend.SqliteDatabase = original  # type: ignore[misc]
