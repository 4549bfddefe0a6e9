"""The review's figures and pictures: how large the stated margin (noise) of a review is, how
many decisions are shown, and the pictures docs/playing.md shows.

Reviews seat 0 of N 2-player Podkidnoy games of ``normal`` players (bench/records.py's games)
with the bot's settings, and prints per game the decisions judged, the mistakes shown and the
margins (twice the standard error of the deal-by-deal difference, ``Estimate.noise``) of the
decisions where the computer preferred another move, and CPU time. With ``--draw DIR`` it also
writes DIR/review.png (the costliest decision of the first game, in English) and
DIR/replay.png (a step of that game with every hand face up), 1000 px wide.

    .venv/bin/python bench/review_pictures.py [--games 4] [--draw docs]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.records import play
from bot.game.models import SeatInfo
from bot.game.records import build_replay
from bot.surfaces.replay_views import replay_picture
from bot.surfaces.review_views import decision_lines, decision_picture
from engine.ai.review import REVIEW_ITERATIONS, review_game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--draw", type=Path, default=None)
    args = p.parse_args()
    margins: list[float] = []
    shown_margins: list[float] = []
    for seed in range(args.games):
        record = play("podkidnoy", 2, seed)
        start = time.process_time()
        review = review_game(record, 0, iterations=REVIEW_ITERATIONS)
        cpu = time.process_time() - start
        differ = [d for d in review.decisions if d.played != d.preferred and d.worlds]
        shown = review.costliest(3)
        margins += [d.noise for d in differ]
        shown_margins += [d.noise for d in shown]
        print(
            f"game {seed}: {len(review.decisions)} decisions, {len(differ)} with another move"
            f" preferred, {sum(d.mistake for d in review.decisions)} above their margin;"
            f" shown {len(shown)}: "
            + ", ".join(
                f"{d.after_played:.0%} vs {d.after_preferred:.0%} ±{d.noise:.0%} ({d.worlds} deals)"
                for d in shown
            )
            + f"; {cpu:.1f} CPU-s"
        )
        if args.draw is not None and seed == 0 and shown:
            seats = [SeatInfo(0, "Alice", 1, None), SeatInfo(1, "Bob", 2, None)]
            replay = build_replay(seed, 1, "podkidnoy", seats, record.to_text())
            (args.draw / "review.png").write_bytes(decision_picture(replay, shown[0], "en"))
            print("\n".join(decision_lines(replay, shown[0], "en")))
            step = len(replay.steps) // 3
            (args.draw / "replay.png").write_bytes(replay_picture(replay, step, "en", hands=True))
    if margins:
        print(
            f"margin where another move was preferred: median ±{statistics.median(margins):.0%},"
            f" max ±{max(margins):.0%} over {len(margins)} decisions"
        )
    if shown_margins:
        print(f"margin of the decisions shown: median ±{statistics.median(shown_margins):.0%}")


if __name__ == "__main__":
    main()
