"""Game records: bytes per game as stored (and, with --review, review time per game).

Games are played by the ``normal`` computer player for every seat with human-like pauses
between moves (the times go into the record), from fixed seeds. For each preset/size it
prints the record's text size and the bytes stored for a finished game (zlib where it pays,
``engine.record.pack``): the target is < 2 KB for a typical 2-player game. Figures are
printed, never asserted.

    .venv/bin/python bench/records.py [--games 20] [--review 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order
from engine.record import Record, pack

TABLES = [("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 4), ("perevodnoy", 6)]


def play(preset: str, players: int, seed: int) -> Record:
    rules = RuleSet.preset(preset, players=players)
    game = Game.new(rules, seed)
    record = Record.start(
        game, seed, extra={"game_id": seed, "names": [f"p{i}" for i in range(players)]}
    )
    bots = [make_player("normal", f"{seed}:{s}") for s in range(players)]
    rng = random.Random(seed)
    t = 0.0
    for _ in range(5000):
        if game.result is not None:
            break
        for seat in ask_order(game):
            action = bots[seat].choose(game.observation(seat))
            if action is not None:
                game.apply(action)
                t += rng.lognormvariate(1.5, 0.8)
                record.add(t, action)
                break
    return record


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games per table")
    p.add_argument("--review", type=int, default=0, help="2-player games to review (timed)")
    args = p.parse_args(argv)
    for preset, players in TABLES:
        texts, packed, moves = [], [], []
        for seed in range(args.games):
            rec = play(preset, players, seed)
            text = rec.to_text()
            texts.append(len(text.encode()))
            packed.append(len(pack(text)))
            moves.append(len(rec.moves))
        print(
            f"{preset} {players} players: {statistics.median(moves):.0f} moves,"
            f" text {statistics.median(texts):.0f} B, stored {statistics.median(packed):.0f} B"
            f" per game (median; max {max(packed)} B)"
        )
    if args.review:
        from engine.ai.review import review_game

        times = []
        for seed in range(args.review):
            rec = play("podkidnoy", 2, 1000 + seed)
            start = time.process_time()
            review_game(rec, 0)
            times.append(time.process_time() - start)
        print(
            f"review of a 2-player game: {statistics.median(times):.1f} CPU-s median,"
            f" {max(times):.1f} CPU-s max over {len(times)} games (target < 20 s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
