"""CPU time to build one Activity frame (bot/activity/frames.py), per seat, over a random
game of a few presets: what each socket's frame costs the bot after every move.

    .venv/bin/python bench/activity_frames.py [--steps 60] [--repeat 20]

Prints process CPU time (not wall time: the machine is shared), per frame and per preset.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bot.activity.frames import seat_frame
from bot.game.models import GameSession, SeatInfo
from engine import Game, RuleSet

PRESETS = (("podkidnoy", 2), ("podkidnoy", 6), ("teams-2v2", 4), ("point", 3), ("reverse", 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60, help="moves of each random game")
    parser.add_argument("--repeat", type=int, default=20, help="frames built per seat and move")
    args = parser.parse_args()
    total_cpu, total_frames = 0.0, 0
    for preset, players in PRESETS:
        rng = random.Random(f"{preset}/{players}")
        game = Game.new(RuleSet.preset(preset, players=players), seed=rng.randrange(10**6))
        seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(players)]
        session = GameSession(1, 10, 20, 30, 100, preset, seats, game, seed=7, version=0)
        cpu, frames, size = 0.0, 0, 0
        for step in range(args.steps):
            session.game, session.version = game, step
            start = time.process_time()
            for _ in range(args.repeat):
                for seat in (None, *range(players)):
                    frame = seat_frame(session, seat)
            cpu += time.process_time() - start
            frames += args.repeat * (players + 1)
            size += len(json.dumps(frame))
            legal = [a for s in range(players) for a in game.legal_actions(s)]
            if game.result is not None or not legal:
                break
            game = game.copy()
            game.apply(rng.choice(legal))
        total_cpu, total_frames = total_cpu + cpu, total_frames + frames
        print(
            f"{preset:>10} x{players}: {cpu / frames * 1e6:7.1f} µs CPU per frame,"
            f" {size / (step + 1):6.0f} bytes of JSON per frame"
        )
    print(f"all: {total_cpu / total_frames * 1e6:.1f} µs CPU per frame ({total_frames} frames)")


if __name__ == "__main__":
    main()
