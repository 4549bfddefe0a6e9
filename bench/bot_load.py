"""Load on one bot process: many live games driven by real clicks through simcord.

The issue's targets, on the 2-core reference machine, at 1,000 live games: p99 time to
acknowledge an interaction under 50 ms, and under 100 KB of memory per idle game. This
script measures them in-process against the same offline simulated Discord the tests use
(simcord), so the whole path is real: gateway payload -> discord.py -> DynamicItem ->
``GameService.act`` -> engine -> SQLite commit -> interaction response. It prints figures and
never asserts them (they are machine-dependent).

How each figure is taken:

* Setup: for every game a host runs the real ``/durak new`` slash command in its own channel,
  then the other players click Join and the host clicks Start (one game per channel, every
  user in exactly one game, all seats human: computers are off, turn timers too by default).
  Seeds come from a counter, so a run is reproducible.
* Memory per idle game: ``tracemalloc`` runs only while the measured games are set up (after
  a warm-up game has loaded lazy imports and caches, then been cancelled); once every game is
  idle, the live heap is split by the innermost frame that belongs to either side: the bot
  (bot/, cogs/, engine/, discord.py, asyncpg) or the simulated Discord (simcord keeps every
  message, interaction and a transcript, which a real bot does not); "other" is what the
  stdlib allocated with no owner in the recorded frame. One frame is recorded: deeper
  tracebacks move most of "other" to simcord, leave the bot's share within a few percent and
  triple the setup time. SQLite's own C allocations are not traced (its page cache is
  bounded, about 2 MB).
* Clicks: after the setup every player opens their hand once with the table's "Show my
  hand" button ("open" rows, in the setup's bursts); from then on the bot keeps each hand
  live. Every round, each live game's next human (defender first, then attackers, the
  order in which waiting is harmless) refreshes their hand only if no live edit has brought
  it up to date yet ("hand" rows), then clicks one of the legal-move buttons on it ("move"
  rows). simcord's ``actor.click()``
  refuses overlapping operations (each actor verb settles the whole loop before returning),
  so ``asyncio.gather`` of actor clicks is impossible; instead the bench builds each click
  exactly as ``actor.click`` does (same interaction payload, same visibility check) and
  emits the INTERACTION_CREATE events itself.
* Load: by default the players of every live game click independently, on average every
  ``--think`` seconds (4 s), so the clicks of a round form a Poisson stream of games/4
  clicks per second: 250/s at 1,000 games, the busy end of real play (a person needs a few
  seconds per decision). ``--rate R`` spaces clicks evenly instead; ``--think 0`` sends
  bursts of ``--inflight`` simultaneous clicks (100), a stress test far beyond real play,
  whose tail is queueing behind the other 99 clicks (and simcord's work for them). The
  games are always set up in such bursts.
* Acknowledge ("ack"): from discord.py starting to parse the click's gateway event to the
  bot sending its interaction response, by ``time.perf_counter``. For a hand click it
  includes the rendering; a move click is acknowledged before the game lock, the engine and
  the SQLite commit (bot/surfaces/answers.py: the outcome follows as an edit, and "act"/"commit"
  below time that part), so its ack is the parsing and any queueing on the event loop,
  which the simulated Discord shares; it excludes only simcord's own work before the
  event reaches the bot and after the response leaves it (deep copies of every payload),
  which a real Discord does on its own machines. "e2e" adds that work back: click emitted
  to response recorded by simcord, an upper bound.
* The simulated Discord keeps every message and interaction it ever saw, so its heap grows
  with every click; CPython's full garbage collections scan that whole history and paused
  the loop for up to a second at 1,000 games. The bench therefore freezes the heap
  (``gc.freeze``) before each round and every 50 clicks, which a real bot (whose history
  lives on Discord) does not need, and prints the full collections left during the
  clicks; ``--no-freeze`` keeps those pauses in the figures. Nothing is frozen during the
  setup, so the memory figure is not affected.
* Act: ``perf_counter`` around ``GameService.act`` (lock, engine apply on a copy, SQLite
  commit); "commit" is ``Storage.save_state``/``finish_game`` alone, which waits for the
  storage lock every write shares. Both are measured by wrapping the service's methods from
  the outside; neither bot/ nor cogs/ is changed.
* CPU per move: the bot's CPU seconds over the moves committed, during the click rounds and
  the drain after them, at the bot's own table edit interval (1 s; the setup runs with 0),
  live hands and pictures on; the event loop's thread is shared between the bot and the
  simulated Discord by sampling its stack (see ``CpuSplit``). From it, the games one core
  carries at a move every 4 s. ``--profile PATH`` writes a cProfile of the same stretch.

    .venv/bin/python bench/bot_load.py [--sizes 10,100,1000] [--clicks 4] [--think 4]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import itertools
import json
import math
import os
import random
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402
import asyncpg  # noqa: E402
import discord  # noqa: E402
import PIL  # noqa: E402
import simcord  # noqa: E402
from discord.webhook.async_ import AsyncWebhookAdapter  # noqa: E402
from simcord import interactions as sim_interactions  # noqa: E402
from simcord.backend import serializers as sim_serializers  # noqa: E402
from simcord.backend.access import can_access_message  # noqa: E402
from simcord.backend.models import Interaction as SimInteraction  # noqa: E402
from simcord.components import walk_components  # noqa: E402
from simcord.enums import ComponentType, InteractionType  # noqa: E402

from bench.simcord_shortcuts import (  # noqa: E402
    card_faces_drawn_once,
    identity_callback_records,
    timers_follow_the_clock,
)
from bot.app import DurakBot  # noqa: E402
from bot.config import Config, config_from_mapping  # noqa: E402
from bot.game.models import GameSession  # noqa: E402
from bot.game.service import GameService  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.storage.url import parse_database_url  # noqa: E402
from bot.surfaces.live_hands import DEBOUNCE, INTERVAL  # noqa: E402

#: The bot's defaults, as an empty environment gives them.
PRODUCTION = config_from_mapping({})
#: A game makes a move every this many seconds in the capacity figure (games per core).
MOVE_EVERY_SECONDS = 4.0
#: Issue 30's aims, in ms of the bot's CPU per move: the event loop, the picture thread, all
#: of it with pictures on, and with pictures off.
TARGET_LOOP_MS = 1.0
TARGET_PICTURE_MS = 2.0
TARGET_CPU_MS_PICTURES = 3.0
TARGET_CPU_MS = 1.0
#: Several processes on PostgreSQL carry as many games per core as one, within this.
SCALING_TOLERANCE = 0.10
#: The picture renderer's thread (bot/pictures/service.py names it so).
PICTURE_THREAD = "durak-picture"
TARGET_ACK_P99_MS = 50.0
TARGET_KB_PER_GAME = 50.0
TARGET_GAMES = 1000
#: The PostgreSQL goal: this many live games across two processes, same p99 target.
TARGET_GAMES_POSTGRES = 5000
FREEZE_EVERY = 50  # clicks; see simulator_history_out_of_gc
#: Mean seconds between two clicks of one live game. A Durak player needs a few seconds per
#: decision and every move is followed by someone opening or refreshing a hand, so a busy
#: two-player game makes a click every few seconds; 4 s is the busy end of that.
THINK_SECONDS = 4.0
KINDS = ("lobby", "open", "hand", "move")
GAMES_PER_GUILD = 200  # a real guild is capped at 500 channels
SEED = 20260101
SETTLE_SECONDS = 600.0
DRAIN_SECONDS = 120.0
TRACE_FRAMES = 1  # deeper tracebacks move stdlib allocations to an owner but triple setup time
T = TypeVar("T")

# simcord marks an interaction answered through one of these methods of its record.
_RESPONSE_MARKERS = ("respond_with_message", "defer", "defer_update", "update_source")


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
            if name.startswith(_SIMCORD_DIR):
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

    def sample() -> None:
        last = time.clock_gettime(clock)
        while not stop.wait(SAMPLE_SECONDS):
            frame = sys._current_frames().get(loop_ident)
            now = time.clock_gettime(clock)
            used, last = now - last, now
            side = "plumbing"
            if frame is not None and frame.f_code.co_name in ("select", "poll", "epoll"):
                side = "idle"
            while frame is not None and side == "plumbing":
                name = frame.f_code.co_filename
                if name == _THREAD_BACKEND:
                    side = "bot"
                elif name.startswith(_CPU_SIM_DIRS):
                    side = "sim"
                elif name.startswith(_CPU_BOT_DIRS):
                    side = "bot"
                frame = frame.f_back
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


# --------------------------------------------------------------------------- clicks


class Clicker:
    """Emits component clicks without settling in between and times their responses."""

    def __init__(self, env: simcord.Env, opts: Options) -> None:
        self.env = env
        self.opts = opts
        self.pace = random.Random(opts.seed + 1)  # arrivals; the moves have their own stream
        self.sent: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        #: bot side: discord.py starts parsing the event / the bot sends its response
        self.received: dict[int, float] = {}
        self.responded: dict[int, float] = {}
        self._pending: set[int] = set()
        self._emitting = False
        self._all_answered: asyncio.Future[None] | None = None

    def on_response(self, record: SimInteraction) -> None:
        if record.id in self.sent and record.id not in self.answered:
            self.answered[record.id] = time.perf_counter()
            self._pending.discard(record.id)
            done = self._all_answered
            if not (self._pending or self._emitting) and done is not None and not done.done():
                done.set_result(None)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Timestamp each click where the bot receives it and answers it, and where simcord
        records the answer; every hook wraps a library method from the outside."""
        with self._bot_side():
            yield

    @contextmanager
    def _bot_side(self) -> Iterator[None]:
        """The bot's own acknowledge time: from discord.py starting to parse the gateway event
        to the bot issuing the interaction-response request. This is what Discord's 3-second
        deadline and a player's wait depend on; simcord's work to build the event and to
        record the answer (deep copies of every payload) is outside it, though simcord's
        other callbacks still share the event loop and so still delay it."""
        parsers: dict[str, Callable[[Any], None]] = self.env.bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]  # bound when the bot was built
        respond = AsyncWebhookAdapter.create_interaction_response
        received, responded = self.received, self.responded

        def on_parse(data: Any) -> None:
            received.setdefault(int(data["id"]), time.perf_counter())
            parse(data)

        def on_respond(adapter: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
            responded.setdefault(int(interaction_id), time.perf_counter())
            return respond(adapter, interaction_id, *args, **kwargs)

        parsers["INTERACTION_CREATE"] = on_parse
        AsyncWebhookAdapter.create_interaction_response = on_respond  # type: ignore[method-assign]
        try:
            with self._simcord_side():
                yield
        finally:
            parsers["INTERACTION_CREATE"] = parse
            AsyncWebhookAdapter.create_interaction_response = respond  # type: ignore[method-assign]

    @contextmanager
    def _simcord_side(self) -> Iterator[None]:
        """Wrap simcord's response markers (from the outside) to timestamp each answer."""
        originals = {name: getattr(SimInteraction, name) for name in _RESPONSE_MARKERS}

        def wrap(original: Callable[..., None]) -> Callable[..., None]:
            def marker(record: SimInteraction, *args: Any, **kwargs: Any) -> None:
                original(record, *args, **kwargs)
                self.on_response(record)

            return marker

        for name, original in originals.items():
            setattr(SimInteraction, name, wrap(original))
        try:
            yield
        finally:
            for name, original in originals.items():
                setattr(SimInteraction, name, original)

    def press(
        self, actor: simcord.MemberActor, channel_id: int, message_id: int, custom_id: str
    ) -> SimInteraction:
        """What ``actor.click(message, custom_id=...)`` sends, minus the settle."""
        backend = self.env.backend
        stored = backend.get_message(channel_id, message_id)
        if not can_access_message(self.env, channel_id, stored, actor):
            raise simcord.SetupError(f"{actor.name} cannot see message {message_id}")
        buttons = [
            c
            for c in walk_components(stored.components)
            if c.get("type") == ComponentType.BUTTON and c.get("custom_id") == custom_id
        ]
        if not buttons and custom_id.startswith(("durak:hand:", "durak:act:", "durak:card:")):
            # A live edit redrew this hand between planning the click and sending it (the
            # clicks of a round are spread over seconds): press the same kind of button on
            # the hand as it is now, as the player would.
            kind = ":".join(custom_id.split(":")[:2]) + ":"
            same = [
                c
                for c in walk_components(stored.components)
                if c.get("type") == ComponentType.BUTTON
                and str(c.get("custom_id") or "").startswith(kind)
            ]
            buttons = same[:1]
            custom_id = str(buttons[0]["custom_id"]) if buttons else custom_id
        if len(buttons) != 1 or buttons[0].get("disabled"):
            raise StaleHand(f"no clickable button {custom_id!r} on {message_id}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        if buttons[0].get("id") is not None:
            data["id"] = buttons[0]["id"]
        record, payload = sim_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=channel_id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        payload["message"] = dict(sim_serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        self.sent[record.id] = time.perf_counter()
        self._pending.add(record.id)
        backend.emit("INTERACTION_CREATE", payload)
        return record

    async def wave(
        self,
        clicks: Sequence[tuple[simcord.MemberActor, int, int, str]],
        *,
        paced: bool = True,
        stale: list[int] | None = None,
    ) -> list[SimInteraction]:
        """Emit the clicks (all at once, or paced as :meth:`Options.gaps` says) and wait for
        every answer. ``paced`` is False for the setup: its clicks go out at once and nothing
        is frozen (see :func:`simulator_history_out_of_gc`).

        Background work (table edits, pings) is not drained: it overlaps the next wave, as
        under continuous load, and simcord's settle scans every parked task against every
        pending timer, which at 1,000 games would cost more than the clicks. Pacing sleeps in
        a worker thread: simcord makes the loop's clock virtual, so an ``asyncio.sleep`` here
        would wait for simulated time. With ``stale`` given, a click whose button a live edit
        has meanwhile removed is not sent and its index goes there (a player would see the
        new hand and not press anything)."""
        loop = asyncio.get_running_loop()
        self._pending.clear()
        self._all_answered = loop.create_future()
        self._emitting = True
        records = []
        gaps = self.opts.gaps(len(clicks), self.pace) if paced else []
        start = time.perf_counter()
        try:
            due = start
            for i, click in enumerate(clicks):
                if gaps:
                    due += gaps[i]
                    delay = due - time.perf_counter()
                    if delay > 0.0002:
                        await loop.run_in_executor(None, time.sleep, delay)
                try:
                    records.append(self.press(*click))
                except StaleHand:
                    if stale is None:
                        raise
                    stale.append(i)
                if paced and (i + 1) % FREEZE_EVERY == 0:  # rounds only: see run_size
                    simulator_history_out_of_gc(self.opts)
        finally:
            self._emitting = False
        if self._pending:
            await self._all_answered
        self._all_answered = None
        return records

    def forget(self) -> None:
        """Drop the timestamps of finished waves (they would count as the bench's memory)."""
        for times in (self.sent, self.answered, self.received, self.responded):
            times.clear()

    def latency(self, record: SimInteraction) -> float:
        return self.answered[record.id] - self.sent[record.id]

    def record(self, samples: Samples, records: Sequence[SimInteraction]) -> None:
        """Add the waves' two acknowledge times (bot side and end to end) to ``samples``."""
        for r in records:
            samples.e2e.append(self.latency(r))
            samples.ack.append(self.responded[r.id] - self.received[r.id])


def timed(sink: list[float], method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """An async method wrapper that appends its wall time to ``sink``."""

    async def wrapper(*args: Any, **kwargs: Any) -> T:
        start = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            sink.append(time.perf_counter() - start)

    return wrapper


class StaleHand(simcord.SetupError):
    """The button to press is gone from the message (a live edit redrew it meanwhile)."""


# --------------------------------------------------------------------------- the world


@dataclass
class Table:
    """One live game as its players see it."""

    game_id: int
    channel: simcord.ChannelHandle
    message_id: int
    actors: dict[int, simcord.MemberActor]  # user id -> actor
    hands: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (msg, version)

    @property
    def channel_id(self) -> int:
        return self.channel.id


def make_config(
    db_path: Path, edit_interval: float, turn_timer: int, database_url: str | None = None
) -> Config:
    return Config(
        discord_token=None,
        database_path=db_path,
        dev_guild_id=None,
        log_level="WARNING",
        ai_delay_seconds=0.0,
        table_edit_interval=edit_interval,
        default_turn_timer_seconds=turn_timer,
        shard_count=1,  # simcord needs the count Discord would recommend for the sharded bot
        database_url=database_url,
        # One channel per game, the table in it: the thread default would add a notice and
        # a thread per game to the setup, and nothing to the clicks measured.
        default_threads=False,
    )


def service_of(env: simcord.Env) -> GameService:
    service = getattr(env.bot, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the bot has no game service")
    return service


def one_click_moves(ids: list[str], session: Any, seat: int) -> list[str]:
    """The ids on a hand that make a move in one click: verbs, and taps on a card whose
    one-card use is one move (tap-a-card: a tap on a card with several uses selects it)."""
    from bot.surfaces.hand_controls import controls

    direct = {str(tp.card) for tp in controls(session.game.observation(seat)).taps if tp.action}
    return [
        c
        for c in ids
        if c.startswith("durak:act:")
        or (c.startswith("durak:card:") and c.rsplit(":", 1)[1] in direct)
    ]


def custom_ids(env: simcord.Env, channel_id: int, message_id: int, prefix: str) -> list[str]:
    stored = env.backend.get_message(channel_id, message_id)
    return [
        str(c["custom_id"])
        for c in walk_components(stored.components)
        if str(c.get("custom_id") or "").startswith(prefix)
    ]


async def open_lobby(
    env: simcord.Env, guild: simcord.GuildHandle, index: int, players: int
) -> tuple[simcord.ChannelHandle, list[simcord.MemberActor], simcord.ResponseMessage]:
    """A channel, its players, and a lobby opened by the first of them with ``/durak new``."""
    channel = guild.create_text_channel(f"table-{index}")
    actors = [guild.add_member(env.create_user(f"p{index}-{seat}")) for seat in range(players)]
    created = await actors[0].slash(channel, "durak new", seats=players)
    if created.response is None or created.ephemeral:
        raise RuntimeError(f"/durak new was refused in table {index}")
    return channel, actors, created.response


def lobby_button(env: simcord.Env, channel_id: int, message_id: int, op: str) -> str:
    ids = custom_ids(env, channel_id, message_id, "durak:lobby:")
    found = [i for i in ids if i.endswith(f":{op}")]
    if len(found) != 1:
        raise RuntimeError(f"lobby {message_id} has no {op} button")
    return found[0]


async def open_tables(
    env: simcord.Env,
    clicker: Clicker,
    guilds: Sequence[simcord.GuildHandle],
    games: int,
    players: int,
    samples: Samples,
    opts: Options,
    first: int = 0,
) -> list[Table]:
    """Start ``games`` games: sequential slash commands (simcord settles after each), then
    the Join clicks of every lobby in waves, then the Start clicks."""
    lobbies = [
        await open_lobby(env, guilds[(first + i) // GAMES_PER_GUILD], first + i, players)
        for i in range(games)
    ]
    for step in range(1, players + 1):
        clicks = []
        for channel, actors, lobby in lobbies:
            op = "start" if step == players else "join"
            actor = actors[0] if op == "start" else actors[step]
            clicks.append(
                (actor, channel.id, lobby.id, lobby_button(env, channel.id, lobby.id, op))
            )
        for wave in _waves(clicks, opts, setup=True):
            start = time.perf_counter()
            records = await clicker.wave(wave, paced=False)
            samples.wall += time.perf_counter() - start
            clicker.record(samples, records)
    await env.settle()  # the lobby messages have become tables; the games are idle
    tables = []
    for channel, actors, lobby in lobbies:
        shows = custom_ids(env, channel.id, lobby.id, "durak:show:")
        if len(shows) != 1:
            raise RuntimeError(f"the game in {channel.name} did not start")
        game_id = int(shows[0].split(":")[2])
        tables.append(Table(game_id, channel, lobby.id, {a.id: a for a in actors}))
    return tables


async def warm_up(
    env: simcord.Env, clicker: Clicker, guild: simcord.GuildHandle, opts: Options
) -> None:
    """One game started, played one move and cancelled: loads lazy imports and caches so the
    per-game memory figures do not carry one-off costs."""
    (table,) = await open_tables(env, clicker, [guild], 1, opts.players, Samples(), opts, first=-1)
    session = service_of(env).session(table.game_id)
    if session is None:
        raise RuntimeError("the warm-up game did not start")
    actor = table.actors[session.seats[session.game.attacker].user_id or 0]
    (shown,) = await clicker.wave(
        [(actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")], paced=False
    )
    assert shown.message_id is not None
    # A tap on the first card leads it: every card of a leader's hand has a one-card lead,
    # which is one click even when the card has partners of its rank (their leads together
    # are in the "Play several cards…" menu).
    tap = custom_ids(env, table.channel_id, shown.message_id, "durak:card:")[0]
    version = session.version
    await clicker.wave([(actor, table.channel_id, shown.message_id, tap)], paced=False)
    # (the click is acknowledged before the move is applied: wait for the move)
    await _moves_applied(service_of(env), [(table.game_id, version)])
    after = service_of(env).session(table.game_id)
    if after is None or after.version == version:
        raise RuntimeError("the warm-up game's first tap made no move")
    await table.actors[session.host_id].slash(table.channel, "durak cancel")


def next_seat(session: GameSession) -> int | None:
    """Defender first, then attackers by priority, then anyone: never a harmful wait."""
    g = session.game
    order: list[int] = [g.defender, *g.eligible_attackers(), *range(g.n)]
    for seat in order:
        if g.legal_actions(seat):
            return seat
    return None


# --------------------------------------------------------------------------- one size


@dataclass(frozen=True)
class Options:
    """Everything that shapes a run besides the number of games."""

    clicks: int = 4
    players: int = 2
    think: float = THINK_SECONDS
    inflight: int = 100
    rate: float = 0.0
    #: TABLE_EDIT_INTERVAL of the click rounds: the bot's default (1 s, coalescing a table's
    #: edits). The setup always runs with 0: under simcord each pending sleep of the setup
    #: makes the simulator settle the whole bot (the click rounds let timers follow the clock
    #: instead, see timers_follow_the_clock, but the setup needs simcord's settles), and with
    #: 1 s the setup of 1,000 games took 458 s instead of 50 s. 0 in the rounds edits the
    #: table on every move at once: more work for the bot than its default.
    edit_interval: float = PRODUCTION.table_edit_interval
    #: Live hands (bot.surfaces.live_hands): wait before rendering, and least time between
    #: two edits
    #: of one hand. The bot's defaults.
    hand_debounce: float = DEBOUNCE
    hand_interval: float = INTERVAL
    turn_timer: int = 0  # off: simcord fires bot timers after that many real seconds
    trace: bool = True
    freeze: bool = True
    fast_simcord: bool = True
    seed: int = SEED
    #: PostgreSQL URL ("" = a fresh SQLite file) and how many bot processes share it.
    database: str = ""
    processes: int = 1
    process_index: int = 0  # which of those processes this is
    #: Table pictures (every guild's ``/durak settings pictures``); production's default is on.
    pictures: bool = True
    #: The SQLite backend: the bot's (aiosqlite) or the one it had before (its own thread,
    #: bench/sqlite_thread.py), for the comparison docs/benchmarks.md reports.
    sqlite_driver: str = "aiosqlite"
    profile: str = ""  # write a cProfile of the click rounds there

    @property
    def paced(self) -> bool:
        return self.rate > 0 or self.think > 0

    @property
    def mode(self) -> str:
        if self.rate > 0:
            return f"paced at {self.rate:g} clicks/s"
        if self.think > 0:
            return f"each game clicks every {self.think:g} s on average (Poisson arrivals)"
        if self.inflight > 0:
            return f"waves of {self.inflight} simultaneous clicks"
        return "every live game clicks at once"

    def gaps(self, clicks: int, rng: random.Random) -> list[float]:
        """Seconds between consecutive clicks of one round (every live game clicks once).

        Live players click independently of each other, so their clicks form a Poisson
        stream: exponential gaps with a mean of think time / games. ``rate`` spaces them
        evenly instead, and burst mode (no think time) sends them back to back."""
        if self.rate > 0:
            return [0.0] + [1 / self.rate] * (clicks - 1)
        if self.think > 0 and clicks:
            return [rng.expovariate(clicks / self.think) for _ in range(clicks)]
        return []


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
                await env.advance_time(86400.0 * opts.process_index)
            full_gcs: list[float] = []
            try:
                with clicker.watching(), identity_callback_records(opts.fast_simcord):
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
                    service = service_of(env)

                    gc.collect()
                    if opts.trace:
                        tracemalloc.start(TRACE_FRAMES)
                    start = time.perf_counter()
                    tables = await open_tables(
                        env, clicker, guilds, games, opts.players, kinds["lobby"], opts
                    )
                    setup = time.perf_counter() - start
                    progress(f"{games} games set up in {setup:.0f} s")
                    clicker.forget()
                    memory = Memory(None, None, None, setup)
                    if opts.trace:
                        gc.collect()
                        snapshot = tracemalloc.take_snapshot()
                        tracemalloc.stop()
                        memory = Memory(*classify(snapshot), setup)
                        del snapshot

                    # Every player opens their hand once: from now on the bot keeps it live.
                    with timers_follow_the_clock(env, opts.fast_simcord):
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
                        load += os.getloadavg()
                finished = sum(1 for t in tables if _finished(service, t))
                errors = [repr(e) for e in env.errors] + unsettled
            finally:
                await env.bot.close()
                gc.unfreeze()
    return SizeResult(
        games, memory, kinds, finished, errors, full_gcs, busy, live_figures,
        CpuSplit.total(splits), moves, opts.pictures, 1, load,
    )  # fmt: skip


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
    live, delivery = bot.live_hands, bot.publisher.delivery if bot.publisher else None
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        busy_hands = live is not None and any(
            w.task is not None and not w.task.done() for w in live._workers.values()
        )
        if not busy_hands and (delivery is None or not delivery._games):
            return time.perf_counter() - start
        await loop.run_in_executor(None, time.sleep, 0.05)
    return None


def progress(text: str) -> None:
    """A line on stderr while a long run goes on (the figures come at the end, on stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


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


def _finished(service: GameService, table: Table) -> bool:
    session = service.session(table.game_id)
    return session is None or session.finished


def _waves(items: list[T], opts: Options, *, setup: bool = False) -> Iterator[list[T]]:
    """Paced rounds are one wave; bursts, and the setup of the games, come in waves of
    ``--inflight`` (setting up 1,000 games at human pace would only make the run longer)."""
    paced = opts.paced and not setup
    step = opts.inflight if opts.inflight > 0 and not paced else max(1, len(items))
    for i in range(0, len(items), step):
        yield items[i : i + step]


async def _open_all_hands(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    tables: list[Table],
    samples: Samples,
    opts: Options,
) -> None:
    """Every player of every game presses "Show my hand" once (two live hands per game)."""
    planned: list[tuple[Table, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in tables:
        session = service.session(table.game_id)
        assert session is not None
        for seat in session.seats:
            actor = table.actors[seat.user_id or 0]
            click = (actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")
            planned.append((table, seat.seat, click))
    for wave in _waves(planned, opts, setup=True):
        start = time.perf_counter()
        records = await clicker.wave([click for _, _, click in wave], paced=False)
        samples.wall += time.perf_counter() - start
        clicker.record(samples, records)
        for (table, seat, _), record in zip(wave, records, strict=True):
            session = service.session(table.game_id)
            assert session is not None and record.message_id is not None
            table.hands[seat] = (record.message_id, session.version)


def _shown_version(env: simcord.Env, channel_id: int, message_id: int) -> int | None:
    """The game version a hand message's buttons were drawn for (live edits change it)."""
    for cid in custom_ids(env, channel_id, message_id, "durak:"):
        parts = cid.split(":")
        if parts[1] in ("act", "hand") and parts[3].isdigit():
            return int(parts[3])
    return None


async def _hand_phase(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    live: list[Table],
    samples: Samples,
    opts: Options,
    counts: list[int],
) -> None:
    """Make sure the next player's hand is up to date. With live hands the bot has usually
    done it already (counted in ``counts[0]``); otherwise (the edit is still coalescing, or
    was dropped) the player refreshes it with a click, as before live hands."""
    planned: list[tuple[Table, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in live:
        session = service.session(table.game_id)
        assert session is not None
        seat = next_seat(session)
        if seat is None:
            continue
        actor = table.actors[session.seats[seat].user_id or 0]
        hand = table.hands.get(seat)
        if hand is not None and hand[1] == session.version:
            continue
        if hand is not None and _shown_version(env, table.channel_id, hand[0]) == session.version:
            table.hands[seat] = (hand[0], session.version)
            counts[0] += 1
            continue
        counts[1] += 1
        if hand is None:
            click = (actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")
        else:
            refresh = _refresh_button(env, table.channel_id, hand[0])
            click = (actor, table.channel_id, hand[0], refresh)
        planned.append((table, seat, click))
    for wave in _waves(planned, opts):
        start = time.perf_counter()
        records = await clicker.wave([click for _, _, click in wave])
        samples.wall += time.perf_counter() - start
        clicker.record(samples, records)
        for (table, seat, _), record in zip(wave, records, strict=True):
            session = service.session(table.game_id)
            assert session is not None and record.message_id is not None
            table.hands[seat] = (record.message_id, session.version)


def _refresh_button(env: simcord.Env, channel_id: int, message_id: int) -> str:
    stored = env.backend.get_message(channel_id, message_id)
    for c in walk_components(stored.components):
        if str(c.get("custom_id") or "").startswith("durak:hand:") and c.get("emoji"):
            return str(c["custom_id"])
    raise RuntimeError(f"hand message {message_id} has no refresh button")


async def _move_phase(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    live: list[Table],
    samples: Samples,
    opts: Options,
    rng: random.Random,
) -> None:
    """Every live game's next player clicks one of the legal moves offered on their hand."""
    planned: list[tuple[Table, int, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in live:
        session = service.session(table.game_id)
        assert session is not None
        seat = next_seat(session)
        if seat is None or seat not in table.hands:
            continue
        message_id, _ = table.hands[seat]
        moves = one_click_moves(
            custom_ids(env, table.channel_id, message_id, "durak:"), session, seat
        )
        if not moves:
            # the hand's redraw for this turn has not reached Discord yet (a loaded machine:
            # the refresh click was answered, its edit is still on its way): the bot is
            # behind, as with a stale click; the game moves in a later round
            samples.stale += 1
            continue
        actor = table.actors[session.seats[seat].user_id or 0]
        click = (actor, table.channel_id, message_id, rng.choice(moves))
        planned.append((table, seat, session.version, click))
    for wave in _waves(planned, opts):
        start = time.perf_counter()
        skipped: list[int] = []
        records = await clicker.wave([click for *_, click in wave], stale=skipped)
        samples.wall += time.perf_counter() - start
        clicker.record(samples, records)
        samples.stale += len(skipped)
        gone = set(skipped)
        wave = [entry for i, entry in enumerate(wave) if i not in gone]
        await _moves_applied(service, [(table.game_id, version) for table, _, version, _ in wave])
        for table, seat, version, _ in wave:
            session = service.session(table.game_id)
            assert session is not None
            if session.version != version + 1:
                samples.refused += 1
            table.hands[seat] = (table.hands[seat][0], session.version)


async def _moves_applied(
    service: GameService, clicked: list[tuple[int, int]], limit: float = 5.0
) -> None:
    """Wait (a few real seconds at most) until every clicked game moved past the version its
    move was made on. A move click is acknowledged before the move is applied
    (bot/surfaces/answers.py), so the wave's answers come back first; the next round must see
    the moves."""
    waiting = list(clicked)
    end = time.perf_counter() + limit
    while waiting and time.perf_counter() < end:
        waiting = [
            (gid, version)
            for gid, version in waiting
            if (s := service.session(gid)) is not None and not s.finished and s.version == version
        ]
        if waiting:
            await asyncio.sleep(0)


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
        f"hands); one core carries {MOVE_EVERY_SECONDS / (total / 1000):,.0f} games at a move "
        f"every {MOVE_EVERY_SECONDS:g} s; aims (ms): {'; '.join(aims)}; {_load(res)}"
    )
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


def _sizes(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def parse_args(
    argv: Sequence[str] | None,
) -> tuple[list[int], Options, Path | None, list[tuple[bool, int]]]:
    """The sizes, the options, a child's output file, and the (pictures, processes)
    configurations to run every size in."""
    defaults = Options()
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument(
        "--sizes", type=_sizes, default=[10, 100, 1000], help="live games per run (10,100,1000)"
    )
    p.add_argument(
        "--clicks", type=int, default=defaults.clicks, help="rounds: move clicks per game"
    )
    p.add_argument("--players", type=int, choices=range(2, 7), default=defaults.players)
    p.add_argument(
        "--inflight",
        type=int,
        default=defaults.inflight,
        help="wave size: clicks in flight at once (0 = every live game)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=defaults.think,
        help="mean seconds between two clicks of one game (Poisson); 0 = bursts of --inflight",
    )
    p.add_argument(
        "--rate", type=float, default=0.0, help="instead emit clicks evenly at this many per second"
    )
    p.add_argument(
        "--edit-interval",
        type=float,
        default=defaults.edit_interval,
        help="TABLE_EDIT_INTERVAL of the click rounds (the bot's default); 0 edits the table on "
        "every move, concurrently with clicks (the setup always runs with 0)",
    )
    p.add_argument(
        "--hand-debounce",
        type=float,
        default=defaults.hand_debounce,
        help="live hands: seconds a change waits before its hand edit (coalescing)",
    )
    p.add_argument(
        "--hand-interval",
        type=float,
        default=defaults.hand_interval,
        help="live hands: least seconds between two edits of one hand",
    )
    p.add_argument(
        "--turn-timer",
        type=int,
        default=defaults.turn_timer,
        help="DEFAULT_TURN_TIMER_SECONDS (0 = off); under simcord a bot timer also fires after "
        "that many real seconds, so keep a run shorter than half of it",
    )
    p.add_argument(
        "--pristine-simcord",
        action="store_true",
        help="keep simcord's value equality of callback records (slow at 1,000 games)",
    )
    p.add_argument("--no-trace", action="store_true", help="skip tracemalloc (faster setup)")
    p.add_argument(
        "--no-freeze",
        action="store_true",
        help="let full garbage collections scan the simulator's ever-growing history",
    )
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument(
        "--database",
        default="",
        help="a PostgreSQL URL (postgresql://...) to run on, each size in a fresh schema; "
        "default: a fresh SQLite file",
    )
    p.add_argument(
        "--processes",
        type=_sizes,
        default=[1],
        help="bot processes sharing the PostgreSQL database, each with its share of the games; "
        "a list (1,2) runs every size with each, and compares their games per core",
    )
    p.add_argument(
        "--pictures",
        choices=("on", "off", "both"),
        default="on",
        help="table pictures (every guild's setting; production's default is on); both = "
        "every size twice",
    )
    p.add_argument(
        "--sqlite-driver",
        choices=("aiosqlite", "thread"),
        default=defaults.sqlite_driver,
        help="SQLite backend: the bot's (aiosqlite) or the old one with its own thread",
    )
    p.add_argument("--profile", default="", help="write a cProfile of the click rounds here")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--process-index", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.database and not args.database.startswith(("postgresql://", "postgres://")):
        p.error("--database must be a postgresql:// URL (SQLite is the default)")
    if not args.processes or min(args.processes) < 1 or max(args.processes) > 4:
        p.error("--processes takes numbers from 1 to 4")
    if max(args.processes) > 1 and not args.database:
        p.error("--processes needs --database: processes can only share PostgreSQL")
    numbers = (args.clicks, args.rate, args.think, args.hand_debounce, args.hand_interval)
    if not args.sizes or min(args.sizes) < 1 or min(numbers) < 0:
        p.error(
            "--sizes needs positive numbers; --clicks, --rate, --think and the --hand-* "
            "options must be >= 0"
        )
    if 0 < args.turn_timer < 10:
        p.error("--turn-timer must be 0 (off) or at least 10 seconds")
    opts = Options(
        clicks=args.clicks,
        players=args.players,
        think=args.think,
        inflight=args.inflight,
        rate=args.rate,
        edit_interval=args.edit_interval,
        hand_debounce=args.hand_debounce,
        hand_interval=args.hand_interval,
        turn_timer=args.turn_timer,
        trace=not args.no_trace,
        freeze=not args.no_freeze,
        fast_simcord=not args.pristine_simcord,
        seed=args.seed,
        database=args.database,
        processes=args.processes[0],
        process_index=args.process_index,
        pictures=args.pictures != "off",
        sqlite_driver=args.sqlite_driver,
        profile=args.profile,
    )
    pictures = {"on": [True], "off": [False], "both": [True, False]}[args.pictures]
    configs = [(pic, n) for pic in pictures for n in args.processes]
    return args.sizes, opts, args.child, configs


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
        sys.executable, __file__, "--child", str(out), "--sizes", str(games),
        "--database", url, "--seed", str(opts.seed + 1000 * index),
        "--process-index", str(index),
        "--clicks", str(opts.clicks), "--players", str(opts.players),
        "--think", str(opts.think), "--inflight", str(opts.inflight), "--rate", str(opts.rate),
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
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run every size in a fresh bot and database; 1 if the bot reported errors."""
    sizes, opts, child, configs = parse_args(argv)
    with sqlite_driver(opts.sqlite_driver):
        if child is not None:  # one of run_processes' bot processes
            result = asyncio.run(run_size(sizes[0], opts, _stdin_barrier))
            child.write_text(json.dumps(asdict(result)), encoding="utf-8")
            return 1 if result.errors else 0
        results = []
        for pictures, processes in configs:
            run = replace(opts, pictures=pictures, processes=processes)
            for games in sizes:
                start = time.perf_counter()
                if run.processes > 1:
                    results.append(asyncio.run(run_processes(games, run)))
                elif run.database:
                    results.append(asyncio.run(run_in_schema(games, run)))
                else:
                    results.append(asyncio.run(run_size(games, run)))
                print(f"{games} games done in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    report(results, opts)
    return 1 if any(r.errors for r in results) else 0


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


if __name__ == "__main__":
    sys.exit(main())
