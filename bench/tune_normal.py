"""Tune ``normal``'s trump economy (``engine.ai.policies.Weights``) by playing.

Each candidate setting (the tuned defaults with one knob changed) plays seat-swapped deals
against the trump hoarder (``bench/sparring/hoarder.py``; ``--against`` names any member of
the sparring league) and against ``normal`` with the weights it had before issue 20
(``OLD``), on Podkidnoy and Perevodnoy two-handed; the
not-fool rate is printed with its 95% interval. Pick a knob's value from the rows, put it in
``Weights``' defaults and note the run there.

    .venv/bin/python bench/tune_normal.py --deals 100 --jobs 2
    .venv/bin/python bench/tune_normal.py --deals 100 --knob take_talon=2,4,6,99

Figures of the run that set the defaults (2 cores shared by other work; 100 deals = 200
games per row and preset, Podkidnoy | Perevodnoy; draws count as not fool) are in the
commit that set them and in ``Weights``' docstring.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.ai_strength import SPARRING, wilson
from engine import Action, Game, Observation, RuleSet
from engine.ai import Player
from engine.ai.arena import play_game
from engine.ai.policies import NORMAL, Weights, normal_policy
from engine.ai.view import view_of_observation

#: ``normal``'s judgement before issue 20: no trump-saving take, cautious throw-ins.
OLD = Weights(take_talon=99, take_ace=False, throw_rank=10, pile_rank=9, lead_trump_penalty=25)


class Weighted:
    """``normal`` with the given weights."""

    kind = "normal-w"

    def __init__(self, w: Weights, seed: int) -> None:
        self.w = w
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action | None:
        return normal_policy(view_of_observation(obs), self.rng, self.w)


def play(args: tuple[str, Weights, str, int]) -> tuple[int, int]:
    """(not-fool count of the weighted player, games) over one deal, seats swapped."""
    preset, w, opponent, seed = args
    rules = RuleSet.preset(preset)
    wins = 0
    for me in (0, 1):
        players: list[Player] = [
            Weighted(w, seed * 7 + me),
            SPARRING[opponent](seed) if opponent in SPARRING else Weighted(OLD, seed * 3 + me),
        ]
        if me:
            players.reverse()
        result = play_game(Game.new(rules, seed=seed), players)
        wins += me not in result.losers
    return wins, 2


def rate(preset: str, w: Weights, opponent: str, deals: int, jobs: int) -> str:
    work = [(preset, w, opponent, 10_000 + s) for s in range(deals)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            res = list(ex.map(play, work, chunksize=4))
    else:
        res = [play(x) for x in work]
    k, n = sum(r[0] for r in res), sum(r[1] for r in res)
    lo, hi = wilson(k, n)
    return f"{k / n:5.1%} [{lo:.0%}-{hi:.0%}]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--knob", action="append", default=[], help="name=v1,v2,... (repeatable)")
    ap.add_argument(
        "--against",
        default="hoarder,old",
        help=f"comma-separated: old, {', '.join(SPARRING)} (the sparring league)",
    )
    ap.add_argument("--presets", default="podkidnoy,perevodnoy")
    ap.add_argument("--no-base", action="store_true", help="skip the defaults and old rows")
    ns = ap.parse_args(argv)
    settings: list[tuple[str, Weights]] = [] if ns.no_base else [("defaults", NORMAL), ("old", OLD)]
    for spec in ns.knob:
        name, values = spec.split("=")
        kind = type(getattr(NORMAL, name))
        for raw in values.split(","):
            value = raw == "1" if kind is bool else kind(raw)
            settings.append((f"{name}={raw}", dataclasses.replace(NORMAL, **{name: value})))
    opponents = ns.against.split(",")
    presets = " | ".join(p[:5] for p in ns.presets.split(","))
    print(f"{'setting':24s} " + " ".join(f"{o:>16s} {presets}" for o in opponents))
    for label, w in settings:
        cells = []
        for o in opponents:
            cells.append(
                " | ".join(rate(p, w, o, ns.deals, ns.jobs) for p in ns.presets.split(","))
            )
        print(f"{label:24s} " + "   ".join(cells), flush=True)


if __name__ == "__main__":
    main()
