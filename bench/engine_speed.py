"""Random self-play speed of the rules engine: games/s and actions/s, single process.

The issue's target is >= 2,400 random two-player 36-card Perevodnoy games per second on the
2-core reference machine. "Random" means what search-based players do in their playouts:
pick uniformly among ``Game.all_legal_actions()`` and apply it with ``apply_unchecked``, on a
game with ``narrate`` off as their sampled worlds are (no ``Event`` lists are built).
Each configuration is warmed up (the engine memoises per-bout tables on first use), then
timed in ``--repeats`` time boxes with fixed seeds; the script prints the median and the best
box. On a shared or frequency-scaled machine consecutive boxes differ by 20% or more, so one
box says little; the target is judged on the median, the conservative of the two. Figures are
machine-dependent: this script prints, never asserts.

``--public PATH`` also runs a public pure-Python Durak engine side by side, given the folder
of its sources (nothing is downloaded here): the ``python_version`` folder of
jorisperrenet/durak (MIT), a two-to-six-player Perevodnoy engine with its own random player
(see docs/benchmarks.md). Its random self-play (two of its ``Random`` players, its own
``random.choice`` over its ``allowed_plays``) alternates with ours on two-player Perevodnoy
in time boxes of CPU time (``time.process_time``: the machine is shared, and wall time
would count the other processes' turns), and the script prints the ratio of the medians
against the aim of at least 3x, and beside it the median of the ratios of adjacent boxes
(ours, then theirs), which the host's drift over seconds moves less.

    .venv/bin/python bench/engine_speed.py [--seconds 1] [--repeats 5] [--public PATH]
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import PRESETS, Game, RuleSet

TARGET = 2400.0
#: Our random self-play against the public engine's, games per CPU second (issue 30).
TARGET_RATIO = 3.0
#: The pagat presets the target is about, then one line per catalogue-variant preset (two
#: players), so a variant that slows random play down shows up here.
CONFIGS = [("perevodnoy", 2), ("perevodnoy", 4), ("podkidnoy", 2), ("podkidnoy", 4)] + [
    (name, 2) for name, rules in PRESETS.items() if rules.variant != "none"
]


def run(
    preset: str,
    players: int,
    seconds: float,
    seed: int = 12345,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[int, int, float]:
    """Play random games until ``seconds`` have passed on ``clock``; (games, actions,
    elapsed)."""
    rules = RuleSet.preset(preset, players=players)
    rng = random.Random(seed)
    games = actions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        g = Game.new(rules, seed=rng.getrandbits(32), dealer=games % players)
        g.narrate = False  # as in search's worlds: nobody reads the events
        while g.result is None:
            g.apply_unchecked(rng.choice(g.all_legal_actions()))
        actions += g.version
        games += 1
    return games, actions, clock() - start


#: The public engine's modules, which import each other by these bare names.
_PUBLIC_MODULES = ("main", "players", "tools", "mcts")
_PUBLIC: dict[Path, tuple[Any, Any]] = {}


def public_engine(path: Path) -> tuple[Any, Any]:
    """The public engine's ``GameTree`` and ``Random`` player, imported once from its folder.

    Its modules import each other by bare names (``main``, ``players``, ...), so the folder
    goes on sys.path for the import, and those names are taken out of sys.modules again
    afterwards (anything that had them before gets its own back)."""
    if path in _PUBLIC:
        return _PUBLIC[path]
    if not (path / "main.py").is_file() or not (path / "players.py").is_file():
        raise SystemExit(f"--public {path}: expected the engine's main.py and players.py there")
    before = {name: sys.modules.pop(name) for name in _PUBLIC_MODULES if name in sys.modules}
    sys.path.insert(0, str(path))
    try:
        public_main = importlib.import_module("main")
        public_players = importlib.import_module("players")
    finally:
        sys.path.remove(str(path))
        for name in _PUBLIC_MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(before)
    _PUBLIC[path] = public_main.GameTree, public_players.Random
    return _PUBLIC[path]


def run_public(path: Path, seconds: float, seed: int = 12345) -> tuple[int, int, float]:
    """The public engine's random self-play (two of its own random players, two-player
    Perevodnoy) for ``seconds`` of CPU time; (games, actions, elapsed). Its players draw
    from the ``random`` module, which is seeded here and restored afterwards."""
    game_tree, random_player = public_engine(path)
    saved = random.getstate()
    random.seed(seed)
    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    try:
        while time.process_time() < deadline:
            g = game_tree(
                [random_player("A"), random_player("B")], True, main_attacker="A", print_info=False
            )
            while not g.is_end_state:
                g.next()
                actions += 1
            games += 1
    finally:
        random.setstate(saved)
    return games, actions, time.process_time() - start


def side_by_side(path: Path, seconds: float, repeats: int) -> None:
    """Ours and the public engine in alternating CPU-time boxes, two-player Perevodnoy."""
    run("perevodnoy", 2, min(seconds, 1.0), clock=time.process_time)  # warm-ups
    run_public(path, min(seconds, 1.0))
    ours: list[tuple[int, int, float]] = []
    theirs: list[tuple[int, int, float]] = []
    for box in range(max(1, repeats)):
        ours.append(run("perevodnoy", 2, seconds, 12345 + box, clock=time.process_time))
        theirs.append(run_public(path, seconds, 12345 + box))
    rate = {
        name: statistics.median(g / e for g, _, e in boxes)
        for name, boxes in (("ours", ours), ("public", theirs))
    }
    per_game = {
        name: sum(a for _, a, _ in boxes) / max(1, sum(g for g, _, _ in boxes))
        for name, boxes in (("ours", ours), ("public", theirs))
    }
    ratio = rate["ours"] / rate["public"] if rate["public"] else float("inf")
    # each box of ours against the public engine's box right after it: the host's speed
    # drifts over seconds on a shared machine, less within one pair of boxes
    paired = statistics.median(
        (go / eo) / (gp / ep) if gp else float("inf")
        for (go, _, eo), (gp, _, ep) in zip(ours, theirs, strict=True)
    )
    print(
        f"side by side, perevodnoy 2p, games per CPU second (median of {len(ours)} boxes of "
        f"{seconds:g} s each): ours {rate['ours']:.1f} ({per_game['ours']:.1f} actions/game), "
        f"public engine {rate['public']:.1f} ({per_game['public']:.1f} actions/game, {path}): "
        f"{ratio:.2f}x  aim >= {TARGET_RATIO:g}x: {'met' if ratio >= TARGET_RATIO else 'NOT met'}",
        flush=True,
    )
    print(f"  median of the {len(ours)} pairs of adjacent boxes' ratios: {paired:.2f}x", flush=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0, help="length of one time box")
    p.add_argument("--repeats", type=int, default=5, help="time boxes per configuration")
    p.add_argument(
        "--public",
        type=Path,
        help="folder of a public engine's sources to run side by side (jorisperrenet/durak's "
        "python_version)",
    )
    p.add_argument(
        "--public-only", action="store_true", help="with --public: only the side-by-side line"
    )
    args = p.parse_args(argv)
    print(
        f"random self-play, 36 cards, {args.repeats} x {args.seconds:g} s per configuration"
        " after a warm-up, seed 12345; games/s as median (best)"
    )
    for preset, players in [] if args.public and args.public_only else CONFIGS:
        run(preset, players, min(args.seconds, 1.0))  # warm-up
        boxes = [run(preset, players, args.seconds) for _ in range(max(1, args.repeats))]
        rates = [games / elapsed for games, _, elapsed in boxes]
        games = sum(g for g, _, _ in boxes)
        actions = sum(a for _, a, _ in boxes)
        gps = statistics.median(rates)
        line = (
            f"{preset:<12} {players}p: {gps:8.1f} ({max(rates):.1f}) games/s"
            f" {gps * actions / max(games, 1):10.0f} actions/s"
            f" ({actions / max(games, 1):.1f} actions/game, {games} games)"
        )
        if (preset, players) == ("perevodnoy", 2):
            line += f"  target >= {TARGET:.0f} (median): {'met' if gps >= TARGET else 'NOT met'}"
        print(line, flush=True)
    if args.public is not None:
        side_by_side(args.public, args.seconds, args.repeats)


if __name__ == "__main__":
    main()
