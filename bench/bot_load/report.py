"""The printed report of bot_load: latency and memory tables, CPU per move, the aims' verdicts."""

from __future__ import annotations

import sys

from bench.bot_load.measure import SizeResult, percentile
from bench.bot_load.options import (
    DRAIN_SECONDS,
    MOVE_EVERY_SECONDS,
    PICTURE_THREAD,
    SCALING_TOLERANCE,
    TARGET_ACK_P99_MS,
    TARGET_CPU_MS,
    TARGET_CPU_MS_PICTURES,
    TARGET_GAMES,
    TARGET_GAMES_POSTGRES,
    TARGET_KB_PER_GAME,
    TARGET_LOOP_MS,
    TARGET_PICTURE_MS,
    Options,
)
from bot.storage.url import parse_database_url

# --------------------------------------------------------------------------- report


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


def _kb(value: int | None, games: int) -> str:
    return "n/a" if value is None else f"{value / games / 1024:.1f}"


def report(results: list[SizeResult], opts: Options) -> None:
    print(
        f"bot load: {opts.players} human players per game, computers off; clicks: {opts.mode}; "
        f"table edit interval {opts.edit_interval:g} s; live hands: debounce "
        f"{opts.hand_debounce:g} s, interval {opts.hand_interval:g} s; "
        f"turn timer {opts.turn_timer} s; "
        f"seed {opts.seed}; simcord "
        f"{'records compared by identity' if opts.fast_simcord else 'unmodified'}; "
        f"simulator history {'kept out of' if opts.freeze else 'scanned by'} full collections"
    )
    if opts.database:
        where = parse_database_url(opts.database).redacted()
        print(f"database: PostgreSQL {where}, the bot processes of each row sharing it")
    else:
        driver = {
            "aiosqlite": "aiosqlite (the bot's backend)",
            "thread": "its own thread (the old backend, bench/sqlite_thread.py)",
        }[opts.sqlite_driver]
        print(f"database: a fresh SQLite file through {driver}, one bot process")
    print(
        "setup: real /durak new slash command, then Join and Start clicks, per game; measured: "
        "real clicks on the table and on hand messages; times in ms"
    )
    print()
    header = (
        f"{'games':>6} {'kind':<5} {'clicks':>7} {'ack p50':>9} {'ack p99':>9} {'ack max':>9} "
        f"{'e2e p50':>9} {'e2e p99':>9} {'act p50':>9} {'act p99':>9} {'commit p50':>10} "
        f"{'commit p99':>10} {'clicks/s':>9}"
    )
    print(header)
    print("-" * len(header))
    for res in results:
        for kind, s in res.kinds.items():
            rate = len(s.ack) / s.wall if s.wall > 0 else float("nan")
            print(
                f"{res.games:>6} {kind:<5} {len(s.ack):>7} {_ms(percentile(s.ack, 50))} "
                f"{_ms(percentile(s.ack, 99))} {_ms(max(s.ack, default=float('nan')))} "
                f"{_ms(percentile(s.e2e, 50))} {_ms(percentile(s.e2e, 99))} "
                f"{_ms(percentile(s.act, 50))} {_ms(percentile(s.act, 99))} "
                f"{_ms(percentile(s.commit, 50)):>10} {_ms(percentile(s.commit, 99)):>10} "
                f"{rate:9.0f}"
            )
    print()
    header = (
        f"{'games':>6} {'bot KB/game':>12} {'simcord KB/game':>16} {'other KB/game':>14} "
        f"{'setup s':>8} {'finished':>9} {'refused':>8} {'stale':>6}"
    )
    print(header)
    print("-" * len(header))
    for res in results:
        m, n = res.memory, res.games
        refused = sum(s.refused for s in res.kinds.values())
        stale = sum(s.stale for s in res.kinds.values())
        print(
            f"{n:>6} {_kb(m.bot_bytes, n):>12} {_kb(m.simcord_bytes, n):>16} "
            f"{_kb(m.other_bytes, n):>14} {m.setup_seconds:8.1f} {res.finished:>9} "
            f"{refused:>8} {stale:>6}"
        )
    print()
    print(
        "lobby = Join/Start clicks (setup), open = Show my hand (both players of every game,\n"
        "once, after the setup, in the setup's bursts), hand = refreshes of hands the bot had\n"
        "not updated yet, move = a legal move on the (live) hand;\n"
        "ack = the bot's acknowledge time: discord.py receives the click -> the bot sends the\n"
        "interaction response; e2e = click emitted -> response recorded by simcord (adds the\n"
        "simulator's own work on both ends); act = GameService.act;\n"
        "commit = Storage.save_state/finish_game; bot KB/game = live Python heap allocated by\n"
        "bot/, cogs/, engine/, discord.py or asyncpg per idle game (tracemalloc); simcord =\n"
        "the simulated Discord's own records; other = allocations made by the stdlib alone;\n"
        "refused = moves that did not advance their game; stale = move clicks not sent because\n"
        "the hand showed no move yet, or a live edit had meanwhile redrawn it without that\n"
        "move (the bot was behind)"
    )
    for res in results:
        lost = {kind: s.lost for kind, s in res.kinds.items() if s.lost}
        if lost:
            print(
                f"{res.games} games: answers lost (Discord's 3 s had passed, so simcord refused "
                f"them; not in the times above): "
                + ", ".join(f"{kind} {n}" for kind, n in lost.items())
            )
    for res in results:
        longest = max(res.full_gcs, default=0.0) * 1000
        print(
            f"{res.games} games: {len(res.full_gcs)} full garbage collections during the clicks, "
            f"longest {longest:.1f} ms; the process (bot and simulated Discord, all threads) "
            f"was busy {res.busy:.0%} of the clicks' wall time"
        )
    for res in results:
        _print_cpu(res, opts)
    _print_scaling(results)
    target_games = TARGET_GAMES_POSTGRES if opts.database else TARGET_GAMES
    for res in results:
        lv = res.live
        if lv is None:
            continue
        print(
            f"{res.games} games, live hands: {lv.hands} open; {lv.hand_edits} hand edits in "
            f"{lv.seconds:.1f} s = {lv.per_hand():.3f} edits/s per hand, "
            f"{lv.per_channel():.3f} per channel (table edits {lv.table_per_channel():.3f}/s "
            f"per channel); {lv.retried} retried, {lv.dropped} dropped; the mover's hand was "
            f"already current {lv.current} times, refreshed by a click {lv.refreshed} times; "
            + (
                f"everything owed to Discord was sent {lv.drained:.1f} s after the last click"
                if lv.drained is not None
                else f"edits still owed {DRAIN_SECONDS:g} s after the last click"
            )
        )
    for res in results:
        if res.games != target_games:
            continue
        clicks = [x for kind in ("hand", "move") for x in res.kinds[kind].ack]
        p99 = percentile(clicks, 99) * 1000
        verdict = "met" if p99 < TARGET_ACK_P99_MS else "NOT met"
        line = (
            f"target at {target_games} games ({opts.mode}; {_label(res)}; {_load(res)}): "
            f"p99 acknowledge (hand and move "
            f"clicks) {p99:.1f} ms vs < {TARGET_ACK_P99_MS:g} ms: {verdict}"
        )
        if res.memory.bot_bytes is not None:
            kb = res.memory.bot_bytes / res.games / 1024
            verdict = "met" if kb < TARGET_KB_PER_GAME else "NOT met"
            line += f"; {kb:.1f} KB per idle game vs < {TARGET_KB_PER_GAME:g} KB: {verdict}"
        print(line)
    for res in results:
        for error in res.errors:
            print(f"bot error at {res.games} games: {error}", file=sys.stderr)


def _label(res: SizeResult) -> str:
    return (
        f"{res.games} games, pictures {'on' if res.pictures else 'off'}, "
        f"{res.processes} process{'es' if res.processes > 1 else ''}"
    )


def _load(res: SizeResult) -> str:
    """The machine's load averages (1, 5, 15 min) at the start and the end of the clicks."""
    if len(res.load) < 6:
        return "load n/a"
    start, end = res.load[:3], res.load[3:6]
    return f"load {' '.join(f'{x:.1f}' for x in start)} -> {' '.join(f'{x:.1f}' for x in end)}"


def _per_move(res: SizeResult) -> tuple[float, float, float, float]:
    """Bot CPU ms per move: (all, event loop, picture thread, the bot's other threads)."""
    cpu = res.cpu
    assert cpu is not None and res.moves
    loop = cpu.loop_seconds * cpu.bot_share
    pictures = sum(v for k, v in cpu.threads.items() if k.startswith(PICTURE_THREAD))
    other = cpu.other_seconds - pictures
    return tuple(x * 1000 / res.moves for x in (cpu.bot_seconds, loop, pictures, other))  # type: ignore[return-value]


def _games_per_core(total_ms: float) -> str:
    """Games one core carries at a move every MOVE_EVERY_SECONDS; a run too short for the
    clocks to see any CPU (a smoke run of one game) has no figure rather than a crash."""
    if total_ms <= 0:
        return "n/a (no CPU measured)"
    return f"{MOVE_EVERY_SECONDS / (total_ms / 1000):,.0f}"


def _drawn_line(res: SizeResult, thread_ms: float) -> str:
    """What the picture thread's CPU per move bought: pictures drawn per move, how, and the
    painter's CPU per picture by stage. A move of a short run is one of the first few of its
    game, which cost more: ``--clicks 40`` gives a game's worth (docs/benchmarks.md)."""
    d = res.drawn
    assert d is not None
    per = d.seconds * 1000 / max(d.pictures, 1)
    stages = f"draw {d.draw * 1000 / max(d.pictures, 1):.2f}, palette "
    stages += f"{d.convert * 1000 / max(d.pictures, 1):.2f}, encode "
    stages += f"{d.encode * 1000 / max(d.pictures, 1):.2f}"
    return (
        f"picture thread: {d.pictures} pictures for {res.moves} moves ({d.whole} drawn whole, "
        f"{d.partial} in part, {d.unchanged} unchanged; {d.superseded} table edits dropped "
        f"before drawing), the painter {per:.2f} ms per picture ({stages}; bands deflated "
        f"again {d.rebuilt} from kept boxes, {d.inflated} inflated first); "
        f"{thread_ms:.2f} ms per move in the thread; {res.finished} of {res.games} games "
        "finished (moves early in a game cost more than later ones)"
    )


def _print_cpu(res: SizeResult, opts: Options) -> None:
    """The bot's CPU per move, the event loop and the picture thread apart, the games per
    core it allows, and the event loop's share by area of the code."""
    cpu = res.cpu
    if cpu is None or not res.moves:
        return
    total, loop, pictures, other = _per_move(res)
    whole = cpu.process_seconds * 1000 / res.moves
    threads = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(cpu.threads.items()))
    aims = [f"event loop <= {TARGET_LOOP_MS:g}: {'met' if loop <= TARGET_LOOP_MS else 'NOT met'}"]
    if res.pictures:
        aims.append(
            f"pictures <= {TARGET_PICTURE_MS:g}: "
            f"{'met' if pictures <= TARGET_PICTURE_MS else 'NOT met'}"
        )
    aim = TARGET_CPU_MS_PICTURES if res.pictures else TARGET_CPU_MS
    aims.append(f"all <= {aim:g}: {'met' if total <= aim else 'NOT met'}")
    print(
        f"{_label(res)}: bot CPU per move {total:.2f} ms = event loop {loop:.2f} + picture "
        f"thread {pictures:.2f} + database thread {other:.2f} ({res.moves} moves applied, the "
        f"clicks and the drain after them; table edit interval {opts.edit_interval:g} s, live "
        f"hands); one core carries {_games_per_core(total)} games at a move "
        f"every {MOVE_EVERY_SECONDS:g} s; aims (ms): {'; '.join(aims)}; {_load(res)}"
    )
    if res.drawn is not None:
        print("  " + _drawn_line(res, pictures))
    print(
        f"  the event loop thread {cpu.loop_seconds:.1f} s x the bot's {cpu.bot_share:.0%} of "
        f"its owned CPU in samples (samples: bot {cpu.bot}, simulated Discord and bench "
        f"{cpu.sim}, loop plumbing {cpu.plumbing}, idle {cpu.idle}); threads: {threads}; the "
        f"whole process (simulated Discord included) {whole:.2f} ms per move"
    )
    owned = cpu.owned_cpu
    if cpu.areas and owned:
        areas = sorted(cpu.areas.items(), key=lambda kv: -kv[1])
        scale = cpu.loop_seconds * 1000 / owned / res.moves  # plumbing shared pro rata
        print(
            "  event loop by area, ms per move: "
            + "; ".join(f"{name} {seconds * scale:.3f}" for name, seconds in areas)
        )


def _print_scaling(results: list[SizeResult]) -> None:
    """Several processes on PostgreSQL against one: per CPU, n processes should carry n
    times one process's games, i.e. the same games per core, within 10 %."""
    single = {(r.games, r.pictures): r for r in results if r.processes == 1 and r.cpu}
    for res in results:
        one = single.get((res.games, res.pictures))
        if res.processes == 1 or one is None or not res.moves or not one.moves:
            continue
        if _per_move(res)[0] <= 0 or _per_move(one)[0] <= 0:
            print(f"{_label(res)} against 1 process: no CPU measured (a run too short)")
            continue
        per_core = MOVE_EVERY_SECONDS * 1000 / _per_move(res)[0]
        base = MOVE_EVERY_SECONDS * 1000 / _per_move(one)[0]
        ratio = per_core / base
        verdict = "met" if abs(ratio - 1) <= SCALING_TOLERANCE else "NOT met"
        print(
            f"{_label(res)} against 1 process: {per_core:,.0f} against {base:,.0f} games per "
            f"core, so {res.processes} processes on {res.processes} cores carry "
            f"{ratio * res.processes:.2f} x one process's games (aim {res.processes} x within "
            f"{SCALING_TOLERANCE:.0%}: {verdict}); {_load(one)}; {_load(res)}"
        )


def print_aims(results: list[SizeResult], *, postgres: bool) -> None:
    """One verdict line per aim of issue 30, from whichever runs measured it (the largest
    such run), each with its figure and the machine's load; an aim no run measured says so
    and names the run that would."""
    print("issue 30's capacity aims (the figures above, one line each):")
    sqlite = [r for r in results if r.backend == "sqlite" and r.processes == 1]

    def largest(rows: list[SizeResult]) -> SizeResult | None:
        rows = [r for r in rows if r.cpu is not None and r.moves]
        return max(rows, key=lambda r: r.games, default=None)

    def line(aim: str, res: SizeResult | None, figure: str, met: bool | None) -> None:
        if res is None or met is None:
            print(f"  {aim}: not measured by this run ({figure})")
            return
        verdict = "met" if met else "NOT met"
        print(f"  {aim}: {figure}: {verdict} ({_label(res)}, {res.backend}; {_load(res)})")

    how = "a SQLite run: --capacity, or --sizes 1000"
    on = largest([r for r in sqlite if r.pictures])
    if on is not None:
        total, loop, pictures, _ = _per_move(on)
        per_core = MOVE_EVERY_SECONDS * 1000 / total if total > 0 else float("inf")
        line(
            f"event loop <= {TARGET_LOOP_MS:g} ms per move",
            on,
            f"{loop:.2f} ms",
            loop <= TARGET_LOOP_MS,
        )
        line(
            f"picture thread <= {TARGET_PICTURE_MS:g} ms per move",
            on,
            f"{pictures:.2f} ms",
            pictures <= TARGET_PICTURE_MS,
        )
        line(
            f"bot CPU <= {TARGET_CPU_MS_PICTURES:g} ms per move, pictures on",
            on,
            f"{total:.2f} ms = {per_core:,.0f} games per core at a move every "
            f"{MOVE_EVERY_SECONDS:g} s",
            total <= TARGET_CPU_MS_PICTURES,
        )
    else:
        line("bot CPU per move, pictures on", None, "a SQLite run: --capacity", None)
    off = largest([r for r in sqlite if not r.pictures])
    if off is not None:
        total = _per_move(off)[0]
        line(
            f"bot CPU <= {TARGET_CPU_MS:g} ms per move, pictures off",
            off,
            f"{total:.2f} ms",
            total <= TARGET_CPU_MS,
        )
    else:
        hint = "a SQLite run: --capacity, or --pictures off"
        line("bot CPU per move, pictures off", None, hint, None)
    at_target = [r for r in sqlite if r.games == TARGET_GAMES]
    ack = max(at_target, key=lambda r: r.pictures, default=None)
    if ack is not None:
        clicks = [x for kind in ("hand", "move") for x in ack.kinds[kind].ack]
        p99 = percentile(clicks, 99) * 1000
        line(
            f"move acknowledge p99 < {TARGET_ACK_P99_MS:g} ms at {TARGET_GAMES:,} live games",
            ack,
            f"{p99:.1f} ms over {len(clicks)} hand and move clicks",
            p99 < TARGET_ACK_P99_MS,
        )
    else:
        line(f"acknowledge p99 at {TARGET_GAMES:,} games", None, how, None)
    traced = [r for r in at_target if r.memory.bot_bytes is not None]
    if traced:
        res = traced[0]
        assert res.memory.bot_bytes is not None
        kb = res.memory.bot_bytes / res.games / 1024
        line(
            f"bot heap per idle game <= {TARGET_KB_PER_GAME:g} KB",
            res,
            f"{kb:.1f} KB",
            kb <= TARGET_KB_PER_GAME,
        )
    else:
        line(f"heap per idle game at {TARGET_GAMES:,} games", None, f"{how}, traced", None)
    pg = [r for r in results if r.backend == "postgresql"]
    one = {r.games: r for r in pg if r.processes == 1 and r.moves}
    pairs = [(r, one[r.games]) for r in pg if r.processes == 2 and r.moves and r.games in one]
    if pairs:
        two, single = pairs[-1]
        ratio = _per_move(single)[0] / _per_move(two)[0]
        line(
            f"two bot processes on PostgreSQL carry 2 x one's games within {SCALING_TOLERANCE:.0%}",
            two,
            f"{2 * ratio:.2f} x (games per core {ratio:.2f} x one process's; one process: "
            f"{_load(single)})",
            abs(ratio - 1) <= SCALING_TOLERANCE,
        )
    else:
        need = "--capacity --database postgresql://..." if not postgres else "--processes 1,2"
        line("two processes against one on PostgreSQL", None, f"run {need}", None)
