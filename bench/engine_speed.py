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

    .venv/bin/python bench/engine_speed.py [--seconds 1] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import PRESETS, Game, RuleSet

TARGET = 2400.0
#: The pagat presets the target is about, then one line per catalogue-variant preset (two
#: players), so a variant that slows random play down shows up here.
CONFIGS = [("perevodnoy", 2), ("perevodnoy", 4), ("podkidnoy", 2), ("podkidnoy", 4)] + [
    (name, 2) for name, rules in PRESETS.items() if rules.variant != "none"
]


def run(preset: str, players: int, seconds: float, seed: int = 12345) -> tuple[int, int, float]:
    """Play random games until ``seconds`` have passed; (games, actions, elapsed)."""
    rules = RuleSet.preset(preset, players=players)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = Game.new(rules, seed=rng.getrandbits(32), dealer=games % players)
        g.narrate = False  # as in search's worlds: nobody reads the events
        while g.result is None:
            g.apply_unchecked(rng.choice(g.all_legal_actions()))
        actions += g.version
        games += 1
    return games, actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0, help="length of one time box")
    p.add_argument("--repeats", type=int, default=5, help="time boxes per configuration")
    args = p.parse_args(argv)
    print(
        f"random self-play, 36 cards, {args.repeats} x {args.seconds:g} s per configuration"
        " after a warm-up, seed 12345; games/s as median (best)"
    )
    for preset, players in CONFIGS:
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


if __name__ == "__main__":
    main()
