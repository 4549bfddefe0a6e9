"""Clicks per game with and without the online-style "done" (``auto_done``).

The issue measured a 4-player Discord game: 103 of 183 move clicks were "done" presses by
players who had nothing to add. Discord games now default to ``auto_done=true`` (house rule
``/durak settings done:pagat`` restores the explicit "done"). This script plays the same deals
both ways with the engine's ``normal`` computer players standing in for people (every action
a seat takes is one click of that player) and prints, per game:

* move clicks (lead, throw in, beat, take, transfer, pile on, exchange),
* pass clicks ("done"/"bito"/"pass"), and among them
* forced passes: the seat could do nothing but pass (no card it could add) — the pointless
  click. The online style must have none.

Deterministic (fixed seeds): the figures change only when the engine or the players do.

    .venv/bin/python bench/click_count.py [--games 200] [--players 4] [--preset podkidnoy]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import ActionKind, Game, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order


@dataclass
class Clicks:
    games: int = 0
    moves: int = 0
    passes: int = 0
    forced: int = 0

    def line(self, label: str) -> str:
        g = max(self.games, 1)
        total = self.moves + self.passes
        return (
            f"{label:<28} {total / g:6.1f} clicks/game: {self.moves / g:6.1f} moves,"
            f" {self.passes / g:5.1f} passes ({self.forced / g:5.1f} forced),"
            f" {self.passes / max(total, 1):4.0%} of clicks are passes ({self.games} games)"
        )


def play(rules: RuleSet, seed: int, clicks: Clicks, max_steps: int = 5000) -> None:
    """One game by computer players; every applied action is one click."""
    game = Game.new(rules, seed, dealer=seed % rules.players)
    players = [make_player("normal", f"{seed}:{i}") for i in range(rules.players)]
    for _ in range(max_steps):
        if game.result is not None:
            clicks.games += 1
            return
        for seat in ask_order(game):
            legal = game.legal_actions(seat)
            if not legal:
                continue
            action = players[seat].choose(game.observation(seat))
            if action is None:
                continue
            if action.kind is ActionKind.PASS:
                clicks.passes += 1
                if all(a.kind in (ActionKind.PASS, ActionKind.EXCHANGE) for a in legal):
                    clicks.forced += 1
            else:
                clicks.moves += 1
            game.apply(action)
            break
        else:
            raise RuntimeError(f"nobody moved in game {seed}")
    raise RuntimeError(f"game {seed} did not finish")


def measure(preset: str, players: int, games: int, auto_done: bool) -> Clicks:
    rules = RuleSet.preset(preset, players=players, auto_done=auto_done)
    clicks = Clicks()
    for seed in range(games):
        play(rules, 1000 + seed, clicks)
    return clicks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="podkidnoy")
    args = parser.parse_args(argv)
    before = measure(args.preset, args.players, args.games, auto_done=False)
    after = measure(args.preset, args.players, args.games, auto_done=True)
    print(f"{args.preset}, {args.players} players, same {args.games} deals both ways:")
    print(before.line("before (pagat 'done'):"))
    print(after.line("after (online style):"))
    verdict = "met" if after.forced == 0 else "NOT met"
    print(f"no forced pass in the online style: {verdict} ({after.forced} forced)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
