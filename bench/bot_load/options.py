"""What shapes a bot_load run: the aims, the constants and the command line."""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bot.config import config_from_mapping
from bot.surfaces.live_hands import DEBOUNCE, INTERVAL

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
#: Live games of every run of ``--capacity``.
CAPACITY_GAMES = TARGET_GAMES
#: The PostgreSQL goal: this many live games across two processes, same p99 target.
TARGET_GAMES_POSTGRES = 5000
FREEZE_EVERY = 50  # clicks; see simulator_history_out_of_gc
#: Mean seconds between two clicks of one live game. A Durak player needs a few seconds per
#: decision and every move is followed by someone opening or refreshing a hand, so a busy
#: two-player game makes a click every few seconds; 4 s is the busy end of that.
DESCRIPTION = "Load on one bot process: many live games driven by real clicks through simcord."
THINK_SECONDS = 4.0
KINDS = ("lobby", "open", "hand", "move")
GAMES_PER_GUILD = 200  # a real guild is capped at 500 channels
SEED = 20260101
SETTLE_SECONDS = 600.0
#: The setup waits at most this long (real seconds) for what one batch of games needs.
SETUP_WAIT_SECONDS = 600.0
#: A round waits at most this long (real seconds) for its moves to be applied.
MOVE_WAIT_SECONDS = 60.0
#: The setup's clicks go out at most this many at once: under load the last answers of a
#: wave of 100 took over Discord's 3 s (simcord's clock follows the real one), and a lost
#: answer to Start is a game the setup waits for in vain.
SETUP_INFLIGHT = 25
#: A wave waits at most this long (real seconds) for the answers to its clicks.
ANSWER_WAIT_SECONDS = 60.0
#: Games set up per batch (their slash commands and clicks go out at once).
SETUP_BATCH = 100
DRAIN_SECONDS = 120.0
#: Frames kept per traced allocation. One put what json, copy or dataclasses allocate for the
#: bot in "other": the same 200-game snapshot (kept 25 deep) gives the bot 35.6 KB per idle
#: game read at one frame, 46.3 at three, 46.5 at six or 25; three is the least that counts
#: the bot's heap whole.
TRACE_FRAMES = 3
T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    """Everything that shapes a run besides the number of games."""

    clicks: int = 4
    players: int = 2
    think: float = THINK_SECONDS
    inflight: int = 100
    #: Games set up per batch (see open_tables); each batch's clicks go in waves of inflight.
    setup_batch: int = SETUP_BATCH
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


def _sizes(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def parse_args(
    argv: Sequence[str] | None,
) -> tuple[list[int], Options, Path | None, list[tuple[bool, int]], bool]:
    """The sizes, the options, a child's output file, the (pictures, processes)
    configurations to run every size in, and whether to run the capacity plan instead."""
    defaults = Options()
    p = argparse.ArgumentParser(description=DESCRIPTION)
    p.add_argument(
        "--sizes",
        type=_sizes,
        default=None,
        help=f"live games per run (default 10,100,1000; with --capacity, {CAPACITY_GAMES})",
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
        "--setup-batch",
        type=int,
        default=defaults.setup_batch,
        help="games set up per batch: their /durak new, Join and Start go out in waves, then the "
        "batch waits until its tables are up",
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
    p.add_argument(
        "--capacity",
        action="store_true",
        help=f"every capacity figure of issue 30 in one run: SQLite at {CAPACITY_GAMES} games (or "
        "--sizes) with pictures on and off, and with --database PostgreSQL with 1 and 2 bot "
        "processes (the other options still apply; --pictures and --processes are the plan's)",
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
    if args.setup_batch < 1:
        p.error("--setup-batch must be at least 1")
    if args.sizes is None:
        args.sizes = [CAPACITY_GAMES] if args.capacity else [10, 100, 1000]
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
        setup_batch=args.setup_batch,
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
    return args.sizes, opts, args.child, configs, args.capacity
