"""How strong and how fast the computer players are.

Duplicate deals: every deal (one seed) is played once per distinct rotation of the seats, so
each kind sits in every seat with every hand and luck of the deal largely cancels (two players:
the same deal twice, seats swapped). A kind's score is its not-fool rate (draws count as not
fool; in team games, not on the losing team) with a 95% Wilson interval, over "games" =
seat-games. Besides our levels it knows the sparring league (``bench/sparring``): the
``collector``, the trump ``hoarder``, the ``spender``, the ``transferer`` and ``hard-v1``
(hard as it was before issue 20, frozen).

The searching players (``hard``, ``hard-v1``) get the bot's think budget from
``engine.ai.BOT_MAX_SECONDS``/``BOT_MAX_ITERATIONS`` unless ``--iterations``/``--seconds``
override it. Hard's wall-clock cap (``engine.ai.hard.WALL_FACTOR`` times the budget, which in
the bot keeps a person from waiting long on a loaded machine) is lifted here unless
``--wall-cap`` is given: the bench measures judgement at the bot's CPU budget, and on a
shared machine the wall cap would cut hard's search by an amount that depends on the load
(both players then count CPU time of their thread). Think time is printed per level as CPU
time of one core (what the budget bounds) and wall time, for the moves that searched and
for all moves, with hard's playouts per CPU-second.

    .venv/bin/python bench/ai_strength.py --deals 200 --jobs 2      # 400 games per 2p match-up
    .venv/bin/python bench/ai_strength.py --deals 20 --only "hoarder"
    .venv/bin/python bench/ai_strength.py --quick                   # smoke: 2 deals, 8 playouts
    .venv/bin/python bench/ai_strength.py --variants --deals 10     # each level vs the one below
    .venv/bin/python bench/ai_strength.py --variants --deals 10 --only "reverse "
    .venv/bin/python bench/ai_strength.py --league --jobs 2 --only "normal vs"
    .venv/bin/python bench/ai_strength.py --trumps --deals 40 --jobs 2   # hard vs collector

``--league`` plays ``hard`` and ``normal`` against each member of the sparring league
(issue 31): ``hard`` against every member and ``hard-v1``, ``normal`` against the
rules-of-thumb members (its aim is about those), and ``hard-model`` (``hard`` with the
opponent model of ``engine.ai.opponents`` on) against the collector and the hoarder, on the
three tables of ``TABLES``.
``--trumps`` plays one pair (``--pair``, default hard and the collector) on the two-handed
tables and prints issue 31's trump table for both sides (``bench/trump_table.py``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.sparring.base import SparringPlayer
from bench.sparring.collector import Collector
from bench.sparring.hard_v1 import HardV1
from bench.sparring.hoarder import Hoarder
from bench.sparring.spender import Spender
from bench.sparring.transferer import Transferer
from bench.trump_table import TrumpCounts, held_gap, play_counted, table_text
from engine import Action, Game, Observation, RuleSet
from engine.ai import BOT_MAX_ITERATIONS, BOT_MAX_SECONDS, Player, make_player
from engine.ai import hard as hard_module
from engine.ai.arena import play_game
from engine.ai.hard import HardPlayer
from engine.rules import PRESETS

SEARCHERS = ("hard", "hard-v1", "hard-model")
#: The rules-of-thumb members of the sparring league (``bench/sparring``), by kind.
SPARRING: dict[str, type[SparringPlayer]] = {
    "collector": Collector,
    "hoarder": Hoarder,
    "spender": Spender,
    "transferer": Transferer,
}
T = TypeVar("T")
R = TypeVar("R")


def new_player(kind: str, seed: int, iters: int | None, secs: float | None) -> Player:
    """Our levels through ``make_player``; the sparring partners from ``bench/sparring``."""
    if kind in SPARRING:
        return SPARRING[kind](seed)
    if kind == "hard-v1":
        return HardV1(seed, max_seconds=secs, max_iterations=iters)
    if kind == "hard-model":  # hard with the opponent model on (engine.ai.opponents)
        return HardPlayer(seed, max_seconds=secs, max_iterations=iters, model_opponents=True)
    return make_player(kind, seed=seed, max_iterations=iters, max_seconds=secs)


class Timed:
    """Wraps a player and records how long each decision took (the bench reads the clock,
    the players never do): CPU time of this thread and wall time."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.kind = inner.kind
        self.searched: list[float] = []
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.playouts = 0
        self.playout_cpu = 0.0

    def choose(self, obs: Observation) -> Action | None:
        w, t = time.perf_counter(), time.thread_time()
        a = self.inner.choose(obs)
        dt, dw = time.thread_time() - t, time.perf_counter() - w
        self.cpu.append(dt)
        self.wall.append(dw)
        method = getattr(self.inner, "last_method", ("policy", 0))  # hard and hard-v1
        if method[0] != "policy":
            self.searched.append(dt)
            if method[0] == "sampling":
                self.playouts += method[1]
                self.playout_cpu += dt
        return a


@dataclass
class Times:
    searched: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    playouts: int = 0
    playout_cpu: float = 0.0

    def add(self, other: Times) -> None:
        self.searched += other.searched
        self.cpu += other.cpu
        self.wall += other.wall
        self.playouts += other.playouts
        self.playout_cpu += other.playout_cpu


@dataclass
class Tally:
    games: dict[str, int] = field(default_factory=dict)
    not_fool: dict[str, int] = field(default_factory=dict)
    times: dict[str, Times] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for k, v in other.games.items():
            self.games[k] = self.games.get(k, 0) + v
        for k, v in other.not_fool.items():
            self.not_fool[k] = self.not_fool.get(k, 0) + v
        for k, t in other.times.items():
            self.times.setdefault(k, Times()).add(t)


def seatings(kinds: Sequence[str], n: int) -> list[list[str]]:
    """Every distinct rotation of ``kinds`` round the table (A B A B has two, not four)."""
    out: list[list[str]] = []
    for rot in range(n):
        seat_kinds = [kinds[(s + rot) % len(kinds)] for s in range(n)]
        if seat_kinds not in out:
            out.append(seat_kinds)
    return out


def play_deal(
    args: tuple[RuleSet, Sequence[str], int, int | None, float | None, bool],
) -> Tally:
    rules, kinds, seed, iters, secs, wall_cap = args
    if not wall_cap:
        # per process (workers too): the bot's safety net, not part of the judgement measured
        hard_module.WALL_FACTOR = 1e9
    n = rules.players
    tally = Tally()
    for rot, seat_kinds in enumerate(seatings(kinds, n)):
        players = [
            Timed(new_player(k, seed * 101 + rot * 7 + s, iters, secs))
            for s, k in enumerate(seat_kinds)
        ]
        g = Game.new(rules, seed=seed)
        result = play_game(g, players)
        for s, k in enumerate(seat_kinds):
            # a kind seated twice at one table counts once per seat
            tally.games[k] = tally.games.get(k, 0) + 1
            tally.not_fool[k] = tally.not_fool.get(k, 0) + (s not in result.losers)
        for p in players:
            if p.kind in SEARCHERS:
                t = tally.times.setdefault(p.kind, Times())
                t.add(Times(p.searched, p.cpu, p.wall, p.playouts, p.playout_cpu))
    return tally


def play_trump_deal(
    args: tuple[RuleSet, Sequence[str], int, int | None, float | None, bool],
) -> tuple[dict[str, TrumpCounts], float | None]:
    """``play_deal`` with issue 31's trump counts per kind instead of times, and the deal's
    gap in trumps held between the first two kinds."""
    rules, kinds, seed, iters, secs, wall_cap = args
    if not wall_cap:
        hard_module.WALL_FACTOR = 1e9
    out: dict[str, TrumpCounts] = {k: TrumpCounts() for k in dict.fromkeys(kinds)}
    games: list[tuple[list[TrumpCounts], list[str]]] = []
    for rot, seat_kinds in enumerate(seatings(kinds, rules.players)):
        players = [
            new_player(k, seed * 101 + rot * 7 + s, iters, secs) for s, k in enumerate(seat_kinds)
        ]
        _, counts = play_counted(Game.new(rules, seed=seed), players)
        for k, c in zip(seat_kinds, counts, strict=True):
            out[k].add(c)
        games.append((counts, seat_kinds))
    return out, held_gap(games, kinds[0], kinds[1])


def mean_and_half(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean of independent values and the half-width of its 95% interval (normal
    approximation: sound for the benches' ≥ 50 values, only a rough width at a handful;
    infinite below two, where nothing says how far the mean can be off)."""
    if len(values) < 2:
        return (values[0] if values else 0.0), math.inf
    return statistics.fmean(values), z * statistics.stdev(values) / math.sqrt(len(values))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)  # (no "-0.0%" from rounding)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


#: Issue 20's match-ups: each pair on Podkidnoy and Perevodnoy two-handed and one 4-player
#: table (seats alternating, so each kind faces the other on both sides).
PAIRS: list[tuple[str, str]] = [
    ("hard", "hard-v1"),
    ("hard", "hoarder"),
    ("normal", "hoarder"),
    ("hard", "normal"),
]
TABLES: list[tuple[str, int]] = [("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 4)]
#: ``--league`` (issue 31): who plays each level. ``normal``'s aim is about the rules-of-thumb
#: members, so it does not spend the machine on ``hard-v1``.
LEAGUE: dict[str, tuple[str, ...]] = {
    "hard": ("collector", "hoarder", "spender", "transferer", "hard-v1"),
    "normal": ("collector", "hoarder", "spender", "transferer"),
    # hard with its opponent model on, against the members it reads as takers (issue 31)
    "hard-model": ("collector", "hoarder"),
}
LEAGUE_MATCHES: list[tuple[str, str, list[str]]] = [
    (preset, f"{n}p", [(level, member)[s % 2] for s in range(n)])
    for preset, n in TABLES
    for level, members in LEAGUE.items()
    for member in members
]
#: ``--trumps``: the tables its table is measured on (the issue's were two-handed).
TRUMP_TABLES: list[tuple[str, int]] = [("podkidnoy", 2), ("perevodnoy", 2)]
#: ``--variants``: each level against the one below it.
VARIANT_PAIRS: list[tuple[str, str]] = [("hard", "normal"), ("normal", "easy")]
MATCHES: list[tuple[str, str, list[str]]] = [
    (preset, f"{n}p", [pair[s % 2] for s in range(n)]) for preset, n in TABLES for pair in PAIRS
]


def smallest_table(name: str) -> int:
    """The fewest players ``name`` allows (two, except where teams need more)."""
    for n in range(2, 7):
        try:
            RuleSet.preset(name, players=n)
        except ValueError:
            continue
        return n
    raise ValueError(f"preset {name!r} allows no table of 2-6 players")


def variant_matches() -> list[tuple[str, str, list[str]]]:
    """Each level against the level below it (hard vs normal, normal vs easy) on every preset
    of the engine's registry (new presets join by themselves), at the smallest table each
    allows: the issue asks that every preset keeps a player at every level that beats the
    level below. Seats alternate the two levels so that in a team preset they form the two
    teams."""
    out = []
    for name in PRESETS:
        n = smallest_table(name)
        for pair in VARIANT_PAIRS:
            out.append((name, f"{n}p", [pair[s % 2] for s in range(n)]))
    return out


def rates(tally: Tally, kinds: Sequence[str]) -> str:
    """Each kind's not-fool rate with its 95% interval and number of games."""
    parts = []
    for k in dict.fromkeys(kinds):
        g, nf = tally.games.get(k, 0), tally.not_fool.get(k, 0)
        lo, hi = wilson(nf, g)
        parts.append(f"{k} {nf / max(g, 1):6.1%} [{lo:.1%}, {hi:.1%}] of {g}")
    return " | ".join(parts)


class _Serial:
    """``ProcessPoolExecutor``'s ``map`` in this process (``--jobs 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        return (fn(x) for x in items)


def ms(xs: list[float], q: float) -> str:
    return f"{pct(xs, q) * 1000:.0f}"


def print_times(times: dict[str, Times]) -> None:
    for kind, t in sorted(times.items()):
        for name, xs in (
            ("searched moves, CPU", t.searched),
            ("all moves, CPU", t.cpu),
            ("all moves, wall", t.wall),
        ):
            if xs:
                print(
                    f"{kind} think time, {name}: n={len(xs)} p50={ms(xs, 0.5)}ms"
                    f" p95={ms(xs, 0.95)}ms max={max(xs) * 1000:.0f}ms"
                )
        if t.playout_cpu > 0:
            print(
                f"{kind} playouts: {t.playouts} in {t.playout_cpu:.1f} CPU-s of sampled moves,"
                f" {t.playouts / t.playout_cpu:.0f} playouts/s"
            )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="deals per match-up")
    ap.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="seed of the first deal (runs in parallel processes take disjoint ranges)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument(
        "--iterations",
        type=int,
        default=None,
        help=f"searchers' playouts per move (default: the bot's, {BOT_MAX_ITERATIONS})",
    )
    ap.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"searchers' CPU seconds per move (default: the bot's, {BOT_MAX_SECONDS:g})",
    )
    ap.add_argument(
        "--wall-cap",
        action="store_true",
        help="keep hard's wall-clock cap (the bot's); off by default: load must not cut the search",
    )
    ap.add_argument("--only", default="", help="run match-ups whose label contains this")
    ap.add_argument("--progress", type=int, default=0, help="print the tally every N deals")
    ap.add_argument("--quick", action="store_true", help="smoke run: 2 deals, 8 playouts")
    ap.add_argument(
        "--variants",
        action="store_true",
        help="each level vs the one below (hard vs normal, normal vs easy) on every preset,"
        " smallest table each (use a small --deals)",
    )
    ap.add_argument(
        "--league",
        action="store_true",
        help="hard and normal against each member of the sparring league (issue 31)",
    )
    ap.add_argument(
        "--trumps",
        action="store_true",
        help="issue 31's trump table for one pair (--pair) on the two-handed tables",
    )
    ap.add_argument(
        "--pair",
        nargs=2,
        default=["hard", "collector"],
        metavar=("A", "B"),
        help="the two kinds --trumps plays (default: hard collector)",
    )
    ns = ap.parse_args(argv)
    if ns.quick:
        ns.deals, ns.iterations, ns.seconds = min(ns.deals, 2), 8, None
    elif ns.iterations is None and ns.seconds is None:
        ns.iterations, ns.seconds = BOT_MAX_ITERATIONS, BOT_MAX_SECONDS
    print(
        f"budget per searched move: {ns.iterations} playouts,"
        f" {'no time limit' if ns.seconds is None else f'{ns.seconds:g} CPU-s'}",
        flush=True,
    )
    if ns.trumps:
        trumps(ns)
        return
    total = Tally()
    matches = variant_matches() if ns.variants else LEAGUE_MATCHES if ns.league else MATCHES
    for preset, size, kinds in matches:
        label = f"{preset} {size}: {' vs '.join(dict.fromkeys(kinds))}"
        if ns.only and ns.only not in label:
            continue
        rules = RuleSet.preset(preset, players=len(kinds))
        seeds = range(ns.first_deal, ns.first_deal + ns.deals)
        work = [(rules, kinds, seed, ns.iterations, ns.seconds, ns.wall_cap) for seed in seeds]
        t0 = time.perf_counter()
        tally = Tally()

        done = 0
        with ProcessPoolExecutor(ns.jobs) if ns.jobs > 1 else _Serial() as ex:
            for t in ex.map(play_deal, work, chunksize=1):
                tally.add(t)
                done += 1
                if ns.progress and done % ns.progress == 0 and done < len(work):
                    # a long run that is stopped early still leaves figures behind
                    print(f"  ... {label}: {rates(tally, kinds)} after {done} deals", flush=True)
        total.add(tally)
        flag = ""
        if ns.variants:
            upper, lower = kinds[0], kinds[1]
            rate = {k: tally.not_fool[k] / tally.games[k] for k in kinds}
            ahead = rate[upper] > rate[lower]
            flag = f"  {upper} beats {lower}" if ahead else f"  {upper.upper()} NOT AHEAD"
            if "hard" in kinds:
                flag += f"; hard p95 {ms(tally.times.get('hard', Times()).cpu, 0.95)}ms"
        print(
            f"{label:48s} {rates(tally, kinds)}  ({time.perf_counter() - t0:.0f}s){flag}",
            flush=True,
        )
    print_times(total.times)


def trumps(ns: argparse.Namespace) -> None:
    """``--trumps``: the pair's not-fool rates and the trump table, per two-handed table."""
    kinds = list(ns.pair)
    for preset, n in TRUMP_TABLES:
        label = f"{preset} {n}p: {' vs '.join(kinds)}"
        if ns.only and ns.only not in label:
            continue
        rules = RuleSet.preset(preset, players=n)
        seeds = range(ns.first_deal, ns.first_deal + ns.deals)
        work = [(rules, kinds, seed, ns.iterations, ns.seconds, ns.wall_cap) for seed in seeds]
        t0 = time.perf_counter()
        counts: dict[str, TrumpCounts] = {k: TrumpCounts() for k in kinds}
        gaps: list[float] = []
        done = 0
        with ProcessPoolExecutor(ns.jobs) if ns.jobs > 1 else _Serial() as ex:
            for part, part_gap in ex.map(play_trump_deal, work, chunksize=1):
                for k, c in part.items():
                    counts[k].add(c)
                if part_gap is not None:
                    gaps.append(part_gap)
                done += 1
                if ns.progress and done % ns.progress == 0 and done < len(work):
                    _print_trumps(f"  ... {label} after {done} deals", kinds, counts, gaps)
        _print_trumps(f"{label} ({time.perf_counter() - t0:.0f}s)", kinds, counts, gaps)


def _print_trumps(
    head: str, kinds: Sequence[str], counts: dict[str, TrumpCounts], gaps: Sequence[float]
) -> None:
    tally = Tally(
        games={k: c.games for k, c in counts.items()},
        not_fool={k: c.not_fool for k, c in counts.items()},
    )
    print(f"{head}: {rates(tally, kinds)}")
    print(table_text(counts))
    mean, half = mean_and_half(gaps)
    print(
        f"trumps held, {kinds[0]} less {kinds[1]}, per game: {mean:+.2f} "
        f"[{mean - half:+.2f}, {mean + half:+.2f}] (95% over {len(gaps)} deals, the seatings"
        " of each averaged)",
        flush=True,
    )


if __name__ == "__main__":
    main()
