"""What bot_load measures besides the clicks: latencies, heap by owner, garbage
collections, and the process's CPU split between the bot and the simulated Discord."""

from __future__ import annotations

import cProfile
import faulthandler
import gc
import math
import os
import re
import threading
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import discord
import PIL
import simcord

from bench.bot_load.options import Options
from bot.pictures import TablePictures

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- measurements


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile: p99 of 100 samples is the worst but one, never interpolated."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class Samples:
    """Latencies (seconds) of one kind of click at one size, plus the act/commit timings."""

    ack: list[float] = field(default_factory=list)  # bot side: received -> response sent
    e2e: list[float] = field(default_factory=list)  # click emitted -> answer recorded by simcord
    act: list[float] = field(default_factory=list)
    commit: list[float] = field(default_factory=list)
    wall: float = 0.0
    refused: int = 0
    #: Move clicks not sent: the hand showed no move yet when the click was planned, or a
    #: live edit had redrawn it without any move on it between planning the click and its
    #: turn in the round (the bot was behind either way; see Clicker.wave).
    stale: int = 0
    #: Clicks whose answer never came (Discord's 3 s had passed: simcord refused it).
    lost: int = 0


@dataclass
class Memory:
    """Live heap after setup (None when tracing was off), split by owner; see classify()."""

    bot_bytes: int | None
    simcord_bytes: int | None
    other_bytes: int | None
    setup_seconds: float


@dataclass
class SizeResult:
    games: int
    memory: Memory
    kinds: dict[str, Samples]
    finished: int
    errors: list[str]
    full_gcs: list[float] = field(default_factory=list)  # pauses during the click rounds
    busy: float = float("nan")  # CPU seconds of the whole process per wall second of clicks
    live: LiveFigures | None = None
    cpu: CpuSplit | None = None  # CPU of the click rounds, bot vs simulated Discord
    moves: int = 0  # moves applied (committed) during the click rounds
    pictures: bool = True  # table pictures on (every guild's setting)
    processes: int = 1  # bot processes that shared the games (PostgreSQL)
    #: The machine's load averages (1, 5, 15 min) when the click rounds began and ended: the
    #: machine is shared, so every CPU figure is printed beside them.
    load: tuple[float, ...] = ()
    #: "sqlite" or "postgresql": where the games were stored.
    backend: str = "sqlite"
    #: What the picture thread drew in the rounds (None: pictures off).
    drawn: PictureFigures | None = None


@dataclass
class PictureFigures:
    """What the picture thread drew during the click rounds and the drain
    (bot.pictures.painter.Costs): how many pictures, how, and the painter's CPU by stage.
    Its own count, beside the thread's CPU per move: a table edit coalesced away draws no
    picture, and a game's first pictures cost more than its later ones."""

    whole: int = 0
    partial: int = 0
    unchanged: int = 0
    draw: float = 0.0  # CPU seconds
    convert: float = 0.0
    encode: float = 0.0
    #: Table edits dropped before their picture was drawn (a newer edit was owed).
    superseded: int = 0
    #: PNG bands deflated again: put together from kept boxes, or inflated first.
    rebuilt: int = 0
    inflated: int = 0

    @staticmethod
    def of(pictures: TablePictures) -> PictureFigures:
        """The counts so far of the bot's picture service (its painter's costs)."""
        c = pictures.painter.costs
        return PictureFigures(
            c.whole,
            c.partial,
            c.unchanged,
            c.draw,
            c.convert,
            c.encode,
            pictures.superseded,
            c.rebuilt,
            c.inflated,
        )

    @property
    def pictures(self) -> int:
        return self.whole + self.partial + self.unchanged

    @property
    def seconds(self) -> float:
        return self.draw + self.convert + self.encode

    def since(self, before: PictureFigures) -> PictureFigures:
        return PictureFigures(
            *(getattr(self, f) - getattr(before, f) for f in PictureFigures.__dataclass_fields__)
        )

    @staticmethod
    def total(parts: Sequence[PictureFigures]) -> PictureFigures:
        return PictureFigures(
            *(sum(getattr(p, f) for p in parts) for f in PictureFigures.__dataclass_fields__)
        )


@dataclass
class LiveFigures:
    """What the live hands did during the click rounds (bot.surfaces.live_hands,
    bot.surfaces.publisher)."""

    hands: int  # live hands registered when the rounds began
    channels: int
    seconds: float  # wall time of the rounds (clicks and everything between)
    hand_edits: int
    table_edits: int
    retried: int
    dropped: int
    current: int  # hands found already up to date when their player was to move
    refreshed: int  # hands that still had to be refreshed by a click
    #: Seconds after the last click until nothing was owed to Discord any more (None: not
    #: within DRAIN_SECONDS): whether the live edits keep up with the clicks.
    drained: float | None = None

    def per_hand(self) -> float:
        return self.hand_edits / max(self.hands, 1) / max(self.seconds, 1e-9)

    def per_channel(self) -> float:
        return self.hand_edits / max(self.channels, 1) / max(self.seconds, 1e-9)

    def table_per_channel(self) -> float:
        return self.table_edits / max(self.channels, 1) / max(self.seconds, 1e-9)


@contextmanager
def full_collections(sink: list[float]) -> Iterator[None]:
    """Time every full (generation 2) garbage collection: each one pauses the event loop."""
    started = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            sink.append(time.perf_counter() - started[0])

    gc.callbacks.append(callback)
    try:
        yield
    finally:
        gc.callbacks.remove(callback)


def _package_dir(module: Any) -> str:
    return str(Path(module.__file__).resolve().parent) + os.sep


_BOT_DIRS = (
    *(str(ROOT / d) + os.sep for d in ("bot", "cogs", "engine")),
    _package_dir(discord),
    _package_dir(asyncpg),
)
_SIMCORD_DIR = _package_dir(simcord)
#: The bench's shortcuts through simcord make simcord's own copies of what the bot sends
#: (see own_copies_of_what_the_bot_sends): those copies are the simulator's.
_SIMCORD_OWNED = (_SIMCORD_DIR, str(ROOT / "bench" / "simcord_shortcuts.py"))


def classify(snapshot: tracemalloc.Snapshot) -> tuple[int, int, int]:
    """Bytes held by (bot, simulated Discord, other): the innermost frame that belongs to
    either side decides, so a dict that json or copy builds for simcord counts as simcord's
    and a discord.Message that simcord's gateway feed makes discord.py build counts as the
    bot's (a real bot's message cache holds it too)."""
    totals = [0, 0, 0]
    for trace in snapshot.traces:
        side = 2
        for frame in reversed(trace.traceback):  # most recent first
            name = frame.filename
            if name.startswith(_SIMCORD_OWNED):
                side = 1
                break
            if name.startswith(_BOT_DIRS):
                side = 0
                break
        totals[side] += trace.size
    return totals[0], totals[1], totals[2]


#: Where a sampled stack of the event loop's thread belongs (innermost owned frame first):
#: the bot (its packages, discord.py, asyncpg, Pillow, aiosqlite) or the simulated Discord
#: and this bench's own clicking; a stack with neither is the event loop's own plumbing.
_CPU_BOT_DIRS = (*_BOT_DIRS, _package_dir(PIL), _package_dir(aiosqlite))
_CPU_SIM_DIRS = (_SIMCORD_DIR, str(ROOT / "bench") + os.sep)
#: The old SQLite backend lives in bench/ for the comparison (--sqlite-driver), but is the bot's.
_THREAD_BACKEND = str(ROOT / "bench" / "sqlite_thread.py")
SAMPLE_SECONDS = 0.003
#: A frame line of faulthandler's dump: file and function.
_FRAME_LINE = re.compile(r'  File "(.*)", line (?:\d+|\?\?\?) in (.*)$')

_DPY = _package_dir(discord)
#: The areas of the bot's share of the event loop (``--areas``): the innermost owned frame's
#: file decides, by the first prefix that matches (json, copy and asyncio frames count for
#: whoever called them, so the state's JSON counts as "engine and state JSON").
_AREAS: tuple[tuple[str, str], ...] = (
    (_DPY + "message.py", "discord.py: Message objects"),
    (_DPY + "interactions.py", "discord.py: Message objects"),
    (_DPY + "state.py", "discord.py: gateway events"),
    (_DPY + "gateway.py", "discord.py: gateway events"),
    (_DPY + "ui" + os.sep, "discord.py: views and items"),
    (_DPY + "embeds.py", "discord.py: embeds and components"),
    (_DPY + "components.py", "discord.py: embeds and components"),
    (_DPY + "partial_emoji.py", "discord.py: embeds and components"),
    (_DPY, "discord.py: http, webhooks, commands"),
    (str(ROOT / "engine") + os.sep, "engine and state JSON"),
    (str(ROOT / "bot" / "game" / "snapshot.py"), "engine and state JSON"),
    (str(ROOT / "bot" / "i18n.py"), "i18n"),
    (str(ROOT / "bot" / "rendering") + os.sep, "views and rendering"),
    (str(ROOT / "bot" / "cardart") + os.sep, "views and rendering"),
    (str(ROOT / "bot" / "usertext.py"), "views and rendering"),
    (str(ROOT / "bot" / "surfaces" / "live_hands.py"), "live hands"),
    (str(ROOT / "bot" / "surfaces" / "publisher.py"), "delivery"),
    (str(ROOT / "bot" / "surfaces" / "delivery.py"), "delivery"),
    (str(ROOT / "bot" / "surfaces") + os.sep, "views and rendering"),
    (str(ROOT / "bot" / "pictures") + os.sep, "pictures (event loop side)"),
    (_package_dir(PIL), "pictures (event loop side)"),
    (str(ROOT / "bot" / "storage") + os.sep, "storage"),
    (_package_dir(aiosqlite), "storage"),
    (_package_dir(asyncpg), "storage"),
    (_THREAD_BACKEND, "storage"),
    (str(ROOT / "bot" / "game") + os.sep, "sessions and service"),
    (str(ROOT), "other bot code"),
)


def _area(filename: str) -> str:
    for prefix, area in _AREAS:
        if filename.startswith(prefix):
            return area
    return "other bot code"


def _thread_cpu() -> dict[int, tuple[str, float]]:
    """CPU seconds (user + system) of every thread of this process, by native id (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[int, tuple[str, float]] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        tid = int(task.name)
        out[tid] = (names.get(tid, "?"), (int(fields[11]) + int(fields[12])) / tick)
    return out


@dataclass
class CpuSplit:
    """The process's CPU seconds during the click rounds, split between the bot and the
    simulated Discord.

    Threads other than the event loop's (aiosqlite's, the picture renderer's) are all the
    bot's and are read per thread from /proc. The event loop's thread runs both sides, so a
    sampler thread looks at its stack every ``SAMPLE_SECONDS`` and the thread's CPU time is
    shared out in proportion to the CPU the loop's thread used since the previous sample
    (its own CPU clock), given to the side of the stack the sample finds: the innermost
    frame that belongs to a side decides (json, copy or asyncio frames count for whoever
    called them); samples in the selector are idle, and the loop's own plumbing (no owned
    frame at all) is shared out pro rata. Weighing by CPU and not by samples matters on a
    busy machine: a sample that finds the loop waiting for the GIL or the processor (after
    ``os.urandom`` in every discord.py ``View``, say) used no CPU there. It is an estimate:
    a sample can only be taken when the loop's thread lets go of the GIL (every millisecond,
    the bot's switch interval).
    """

    loop_seconds: float = 0.0  # CPU of the event loop's thread
    other_seconds: float = 0.0  # CPU of every other thread but the sampler (all the bot's)
    bot: int = 0  # busy samples by side
    sim: int = 0
    plumbing: int = 0
    idle: int = 0
    threads: dict[str, float] = field(default_factory=dict)
    #: The event loop thread's CPU seconds by the side its samples found (bot, sim, ...).
    cpu: dict[str, float] = field(default_factory=dict)
    #: The bot's CPU seconds on the event loop by area of the code (see _AREAS).
    areas: dict[str, float] = field(default_factory=dict)

    @property
    def owned_cpu(self) -> float:
        return self.cpu.get("bot", 0.0) + self.cpu.get("sim", 0.0)

    @property
    def bot_share(self) -> float:
        owned = self.owned_cpu
        return self.cpu.get("bot", 0.0) / owned if owned else float("nan")

    @property
    def bot_seconds(self) -> float:
        return self.loop_seconds * self.bot_share + self.other_seconds

    @property
    def process_seconds(self) -> float:
        return self.loop_seconds + sum(self.threads.values())

    @classmethod
    def total(cls, parts: Sequence[CpuSplit]) -> CpuSplit:
        """Several measured stretches (or processes) as one."""
        out = cls()
        for p in parts:
            out.loop_seconds += p.loop_seconds
            out.other_seconds += p.other_seconds
            out.bot, out.sim, out.plumbing, out.idle = (
                out.bot + p.bot,
                out.sim + p.sim,
                out.plumbing + p.plumbing,
                out.idle + p.idle,
            )
            for name, seconds in p.threads.items():
                out.threads[name] = out.threads.get(name, 0.0) + seconds
            for name, seconds in p.areas.items():
                out.areas[name] = out.areas.get(name, 0.0) + seconds
            for name, seconds in p.cpu.items():
                out.cpu[name] = out.cpu.get(name, 0.0) + seconds
        return out


@contextmanager
def cpu_split(sink: list[CpuSplit]) -> Iterator[None]:
    """Measure a :class:`CpuSplit` over the block (appended to ``sink`` at its end)."""
    loop_ident = threading.get_ident()
    loop_tid = threading.get_native_id()
    split = CpuSplit()
    stop = threading.Event()
    clock = time.pthread_getcpuclockid(loop_ident)

    stacks = os.memfd_create("bench-cpu-sampler")
    header = f"Thread 0x{loop_ident:016x} (most recent call first):"

    def loop_stack() -> list[tuple[str, str]]:
        """The event loop thread's frames as (file, function), innermost first.

        faulthandler writes them in C from the interpreter's own frames while this thread
        holds the GIL. Walking that thread's frame objects from Python (``f_back`` after
        ``sys._current_frames()``) can lose the GIL between two steps while the thread runs
        on: with the picture thread busy, such walks met freed frames (``f_back`` a dict or a
        discord ``Button``) and once crashed the process."""
        os.ftruncate(stacks, 0)
        os.lseek(stacks, 0, os.SEEK_SET)
        faulthandler.dump_traceback(stacks, all_threads=True)
        text = os.pread(stacks, 1 << 20, 0).decode(errors="replace")
        start = text.find(header)
        if start < 0:
            return []
        frames = []
        for line in text[start + len(header) :].splitlines()[1:]:
            found = _FRAME_LINE.match(line)
            if found is None:
                break
            frames.append((found[1], found[2]))
        return frames

    def sample() -> None:
        last = time.clock_gettime(clock)
        while not stop.wait(SAMPLE_SECONDS):
            frames = loop_stack()
            now = time.clock_gettime(clock)
            used, last = now - last, now
            side = "plumbing"
            if frames and frames[0][1] in ("select", "poll", "epoll"):
                side = "idle"
            name = ""
            for name, _function in frames:
                if name == _THREAD_BACKEND:
                    side = "bot"
                elif name.startswith(_CPU_SIM_DIRS):
                    side = "sim"
                elif name.startswith(_CPU_BOT_DIRS):
                    side = "bot"
                if side != "plumbing":
                    break
            if side == "bot":
                area = _area(name)
                split.areas[area] = split.areas.get(area, 0.0) + used
            split.cpu[side] = split.cpu.get(side, 0.0) + used
            setattr(split, side, getattr(split, side) + 1)

    sampler = threading.Thread(target=sample, name="bench-cpu-sampler", daemon=True)
    before = _thread_cpu()
    sampler.start()
    try:
        yield
    finally:
        stop.set()
        sampler.join()
        os.close(stacks)
        after = _thread_cpu()
        for tid, (name, seconds) in after.items():
            used = seconds - before.get(tid, (name, 0.0))[1]
            if tid == loop_tid:
                split.loop_seconds = used
            elif tid != sampler.native_id and used > 0:
                # asyncio's default executor runs only the bench's pacing sleeps here
                # (computers are off, so the bot's own to_thread is not used)
                bench = name.startswith("asyncio_")
                if not bench:
                    split.other_seconds += used
                key = "bench executor" if bench else name.split("_")[0].split(" ")[0]
                split.threads[key] = split.threads.get(key, 0.0) + used
        sink.append(split)


_PROFILER: list[cProfile.Profile] = []


@contextmanager
def profiled(opts: Options, *, append: bool = False) -> Iterator[None]:
    """With ``--profile PATH``: a cProfile of the block (added to the last one with
    ``append``), written to PATH for ``python -m pstats``; the CPU figures of such a run
    include the profiler's own cost, so take them from a run without it."""
    if not opts.profile:
        yield
        return
    if not append or not _PROFILER:
        _PROFILER[:] = [cProfile.Profile()]
    profiler = _PROFILER[0]
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        profiler.dump_stats(opts.profile)


def simulator_history_out_of_gc(opts: Options) -> None:
    """Exempt everything alive now from the cyclic garbage collector's scans (gc.freeze).

    simcord keeps every message, interaction and payload copy it ever saw (about a thousand
    objects per click), so the heap of the bench grows with every click, and CPython's full
    collections, which scan the whole heap, grow with it: at 1,000 games they paused the
    event loop for up to a second (seen with gc.callbacks), several times a run, and still
    for 200 ms when frozen only once per round. A real bot holds none of that history
    (Discord keeps it). So the bench freezes before every round and every FREEZE_EVERY
    clicks; the full collections left are timed and reported. Frozen objects are still
    freed by reference counting; only cycles among them would stay, which is harmless for
    one run. ``--no-freeze`` keeps the pauses in.
    """
    if opts.freeze:
        gc.freeze()
