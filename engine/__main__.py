"""Engine command line: ``python -m engine selfplay ...`` and ``python -m engine legal FILE``.

``selfplay`` is the quickest way to see whether a rule set plays sensibly (does the first
defender lose too often? do games stall?) and how fast the engine is; ``legal`` answers "what
may each seat do here?" for a hand-written position (docs/positions.md), which is how rule
questions and bug reports are checked. Every figure is reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from .ai import PLAYER_KINDS, make_player
from .ai.arena import Stalled, play_game
from .cards import CARDS, SUIT_NAMES
from .game import Game, InvalidPosition
from .rules import PRESETS, RuleError, RuleSet


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play computer-vs-computer games and print statistics")
    sp.add_argument("--preset", default="podkidnoy", choices=sorted(PRESETS))
    sp.add_argument("--players", type=int, default=None, help="seats (default: the preset's)")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--ai", default="random", choices=PLAYER_KINDS)
    lg = sub.add_parser("legal", help="print every seat's legal actions in a position file")
    lg.add_argument("position", help="a position JSON file (see docs/positions.md)")
    return p


def selfplay(
    preset: str, players: int | None, games: int, seed: int, ai: str, out: TextIO
) -> dict[str, object]:
    """Play ``games`` deals and print (and return) the statistics."""
    rules = RuleSet.preset(preset) if players is None else RuleSet.preset(preset, players=players)
    n = rules.players
    losses = [0] * n
    fools = [0] * n
    draws = 0
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        g = Game.new(rules, seed=f"{seed}:{i}", dealer=i % n)
        seats = [make_player(ai, seed=f"{seed}:{i}:{s}") for s in range(n)]
        result = play_game(g, seats)
        actions += g.version
        if result.kind == "draw":
            draws += 1
        if result.fool is not None:
            fools[result.fool] += 1
        for s in result.losers:
            losses[s] += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    stats: dict[str, object] = {
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "mean_actions": actions / games if games else 0.0,
        "fool_rate": [f / games if games else 0.0 for f in fools],
        "loss_rate": [x / games if games else 0.0 for x in losses],
        "draws": draws,
    }
    print(f"rules: {preset} ({n} players), ai: {ai}, seed: {seed}", file=out)
    print(f"games: {games} in {elapsed:.2f} s = {games / elapsed:.1f} games/s", file=out)
    print(f"mean actions per game: {stats['mean_actions']:.1f}", file=out)
    for s in range(n):
        line = f"seat {s}: fool {fools[s]} ({fools[s] / max(games, 1):.1%})"
        if rules.teams != "none":
            line += f", on the losing team {losses[s]} ({losses[s] / max(games, 1):.1%})"
        print(line, file=out)
    print(f"draws: {draws} ({draws / max(games, 1):.1%})", file=out)
    return stats


def legal(path: str, out: TextIO) -> None:
    """Print each seat's legal actions; raises ``InvalidPosition``/``OSError``/``ValueError``."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    g = Game.from_dict(data)
    if g.result is not None:
        print(f"game over: {g.result.to_dict()}", file=out)
        return
    talon = f"talon {len(g.talon)}" if g.talon else "talon empty"
    if g.trump_index >= 0:
        talon += f" (turned-up {CARDS[g.trump_card]})"
    print(f"trumps {SUIT_NAMES[g.trump]}; {talon}; phase {g.phase}", file=out)
    for s in range(g.n):
        role = "attacker" if s == g.attacker else "defender" if s == g.defender else "seat"
        acts = g.legal_actions(s)
        moves = ", ".join(a.notation for a in acts) if acts else "(waits)"
        size = g.hand_size(s)
        print(f"seat {s} ({role}, {size} card{'' if size == 1 else 's'}): {moves}", file=out)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.command == "selfplay":
            if args.games < 1:
                raise ValueError("--games must be at least 1")
            selfplay(args.preset, args.players, args.games, args.seed, args.ai, out)
        else:
            legal(args.position, out)
    except json.JSONDecodeError as exc:
        print(f"error: {args.position}: not JSON ({exc})", file=sys.stderr)
        return 2
    except (InvalidPosition, RuleError, Stalled, OSError, ValueError) as exc:
        where = f"{args.position}: " if args.command == "legal" else ""
        print(f"error: {where}{exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
