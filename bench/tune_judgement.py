"""Tune ``normal``'s judgement against the whole sparring league, with the end made equal.

Every member of the league (``bench/sparring``) and ``normal`` itself play the same exact
endgame once the talon is gone and two players are left (``engine.ai.endgame``). What issue
31 asks to tune is the judgement while the talon lasts, so here the tuned ``normal``
(:class:`Judged`, the weights under test and that endgame) and the members search with one
node cap, lowered for time (``--node-cap``): a setting then wins or loses by the position it
reaches the end in, which is also what ``hard`` starts from (``normal`` is its first move and
the policy of every seat in its playouts, and hard has the endgame search anyway).

Each setting (``Weights`` with knobs changed, ``--knob name=v1,v2``) plays the same
seat-swapped deals against every member on each preset; the table prints each cell, the
league mean over all cells and, beside it, the mean's difference from the first setting with
a 95% interval from the deal-by-deal differences (the deals are the same, so luck of the
deal cancels in that difference).

    .venv/bin/python bench/tune_judgement.py --deals 60 --jobs 2 --knob take_talon_transfer=4
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.ai_strength import SPARRING, mean_and_half, wilson
from bench.sparring import base
from bench.sparring.base import SparringPlayer
from engine import Action, Game, Observation, RuleSet
from engine.ai import Player
from engine.ai.arena import play_game
from engine.ai.policies import NORMAL, Weights, normal_policy
from engine.ai.view import View, view_of_observation


class Judged(SparringPlayer):
    """``normal`` with the given weights and the league's shared exact endgame."""

    kind = "normal-judged"

    def __init__(self, w: Weights, seed: int) -> None:
        super().__init__(seed)
        self.w = w


def _policy(w: Weights) -> staticmethod[[View, random.Random], Action | None]:
    return staticmethod(lambda v, rng: normal_policy(v, rng, w))


def _judged_class(w: Weights) -> type[Judged]:
    return type("JudgedW", (Judged,), {"policy": _policy(w)})


class Plain(Judged):
    """``normal`` without its exact end, rules of thumb to the end (``--plain``): what the
    endgame is worth."""

    def choose(self, obs: Observation) -> Action | None:
        return type(self).policy(view_of_observation(obs), self.rng)


def play(args: tuple[str, Weights, str, int, int]) -> int:
    """Not-fool count (0-2) of the judged ``normal`` over one deal, seats swapped (a
    negative ``cap``: ``normal`` without the endgame, the members with ``-cap``)."""
    preset, w, opponent, seed, cap = args
    base.NODE_CAP = abs(cap)  # both sides' endgame: the same cap keeps the end equal
    rules = RuleSet.preset(preset)
    cls = _judged_class(w) if cap >= 0 else type("PlainW", (Plain,), {"policy": _policy(w)})
    wins = 0
    for me in (0, 1):
        players: list[Player] = [cls(w, seed * 7 + me), SPARRING[opponent](seed * 11 + me)]
        if me:
            players.reverse()
        result = play_game(Game.new(rules, seed=seed), players)
        wins += me not in result.losers
    return wins


def parse_settings(specs: list[str]) -> list[tuple[str, Weights]]:
    """``name=v1,v2`` one knob at a time; ``a=1+b=2`` several knobs in one setting."""
    out: list[tuple[str, Weights]] = [("defaults", NORMAL)]
    for spec in specs:
        if "+" in spec:
            changes: dict[str, Any] = {}
            for part in spec.split("+"):
                name, raw = part.split("=")
                changes[name] = _value(name, raw)
            out.append((spec, dataclasses.replace(NORMAL, **changes)))
            continue
        name, values = spec.split("=")
        for raw in values.split(","):
            out.append((f"{name}={raw}", dataclasses.replace(NORMAL, **{name: _value(name, raw)})))
    return out


def _value(name: str, raw: str) -> Any:
    kind = type(getattr(NORMAL, name))
    return raw == "1" if kind is bool else kind(raw)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--first-deal", type=int, default=30_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--knob", action="append", default=[], help="name=v1,v2 or a=1+b=2")
    ap.add_argument("--against", default=",".join(SPARRING))
    ap.add_argument("--presets", default="podkidnoy,perevodnoy")
    ap.add_argument(
        "--node-cap",
        type=int,
        default=500,
        help="endgame search nodes, both sides (the league plays 3000; the search is nearly"
        " all of a game's time, and an equal cap on both sides keeps the end equal)",
    )
    ap.add_argument(
        "--plain",
        action="store_true",
        help="add a row: the defaults without the endgame (rules of thumb to the end)",
    )
    ns = ap.parse_args(argv)
    settings = parse_settings(ns.knob)
    if ns.plain:
        settings.append(("defaults, no endgame", NORMAL))
    opponents = ns.against.split(",")
    presets = ns.presets.split(",")
    cells = [(p, o) for p in presets for o in opponents]
    deals = range(ns.first_deal, ns.first_deal + ns.deals)
    caps = [ns.node_cap] * len(settings)
    if ns.plain:
        caps[-1] = -ns.node_cap
    work = [
        (p, w, o, s, cap)
        for (_, w), cap in zip(settings, caps, strict=True)
        for p, o in cells
        for s in deals
    ]
    if ns.jobs > 1:
        with ProcessPoolExecutor(ns.jobs) as ex:
            res = list(ex.map(play, work, chunksize=4))
    else:
        res = [play(x) for x in work]
    per = len(cells) * ns.deals
    print(
        f"{ns.deals} deals ({2 * ns.deals} games) per cell, deals {deals.start}-{deals.stop - 1},"
        f" endgame node cap {ns.node_cap}"
    )
    print(f"{'setting':36s} " + " ".join(f"{p[:5]}/{o[:6]:>6s}" for p, o in cells) + "  mean")
    base: list[int] = res[:per]
    for i, (label, _) in enumerate(settings):
        mine = res[i * per : (i + 1) * per]
        row = []
        for c in range(len(cells)):
            k = sum(mine[c * ns.deals : (c + 1) * ns.deals])
            row.append(f"{k / (2 * ns.deals):12.1%}")
        k, n = sum(mine), 2 * per
        lo, hi = wilson(k, n)
        diffs = [(a - b) / 2 for a, b in zip(mine, base, strict=True)]
        mean, half = mean_and_half(diffs)
        print(
            f"{label:36s} " + " ".join(row) + f"  {k / n:.1%} [{lo:.1%}-{hi:.1%}]"
            f"  diff {mean:+.1%} ±{half:.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
