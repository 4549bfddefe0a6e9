"""How many playouts per CPU-second the ``hard`` player's search gets, and where time goes.

Positions are collected from seeded ``normal`` vs ``normal`` games (every position where a
seat must act and the talon is not empty, so the exact endgame solver is not involved), then
``hard`` and the frozen ``hard-v1`` (bench/sparring: hard before issue 20) search each with a
fixed number of playouts, in turns. The figure is playouts divided by CPU time of the search
(thread time), so it depends less on how busy the machine is than wall time would; the
ratio of the two players' medians is the speed-up. (A playout's length depends on how the
policy plays, so a policy that takes more plays longer playouts: that is counted too.)
``--profile`` prints cProfile's top functions instead.

    .venv/bin/python bench/playout_speed.py [--positions 60] [--iterations 200] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.sparring.hard_v1 import HardV1
from engine import Game, Observation, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order
from engine.ai.hard import HardPlayer


def positions(preset: str, players: int, count: int, seed: int = 1) -> list[Observation]:
    """Observations of a seat that must act with cards left in the talon."""
    out: list[Observation] = []
    rules = RuleSet.preset(preset, players=players)
    deal = seed
    while len(out) < count:
        g = Game.new(rules, seed=deal)
        bots = [make_player("normal", seed=deal * 10 + s) for s in range(players)]
        step = 0
        while g.result is None:
            for s in ask_order(g):
                if not g.legal_actions(s):
                    continue
                obs = g.observation(s)
                a = bots[s].choose(obs)
                if a is None:
                    continue
                if g.talon and step % 3 == 0 and len(obs.legal_actions) > 1 and len(out) < count:
                    out.append(obs)
                g.apply(a)
                step += 1
                break
        deal += 1
    return out


def measure(obs_list: list[Observation], iterations: int, kind: str = "hard") -> tuple[int, float]:
    p: HardPlayer | HardV1
    if kind == "hard":
        p = HardPlayer(0, max_iterations=iterations)
    else:
        p = HardV1(0, max_iterations=iterations)
    total, cpu = 0, 0.0
    for obs in obs_list:
        t = time.thread_time()
        p.choose(obs)
        dt = time.thread_time() - t
        if p.last_method[0] == "sampling":
            total += p.last_method[1]
            cpu += dt
    return total, cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per player")
    ap.add_argument("--profile", action="store_true")
    ns = ap.parse_args(argv)
    for preset, players in (("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 4)):
        obs_list = positions(preset, players, ns.positions)
        if ns.profile:
            prof = cProfile.Profile()
            prof.enable()
            measure(obs_list, ns.iterations)
            prof.disable()
            print(f"--- {preset} {players}p")
            pstats.Stats(prof).sort_stats("tottime").print_stats(18)
            continue
        # today's hard and the frozen hard-v1 in turns, so a busy machine slows both alike
        rates: dict[str, list[float]] = {"hard": [], "hard-v1": []}
        for _ in range(ns.rounds):
            for kind, out in rates.items():
                n, cpu = measure(obs_list, ns.iterations, kind)
                out.append(n / cpu)
        line = " | ".join(
            f"{kind} {statistics.median(r):5.0f} playouts/s" for kind, r in rates.items()
        )
        ratio = statistics.median(rates["hard"]) / statistics.median(rates["hard-v1"])
        print(
            f"{preset:<11} {players}p: {line} | ratio {ratio:.2f}"
            f" ({len(obs_list)} positions, {ns.iterations} playouts each, median of {ns.rounds})",
            flush=True,
        )


if __name__ == "__main__":
    main()
