"""The quick-match queue's time to pair (bot/game/matchmaking.py): one pairing round over
1,000 waiting players (ratings spread like a server's, waits up to two minutes, two modes,
one of them for four), and a round over the players a first round left waiting.

Run: ``.venv/bin/python bench/quick_match.py``."""

from __future__ import annotations

import random
import statistics
import time

from bot.game.matchmaking import Waiting, pair


def queue(n: int, seed: int) -> list[Waiting]:
    rng = random.Random(seed)
    return [
        Waiting(
            i,
            "podkidnoy" if rng.random() < 0.8 else "teams-2v2",
            int(rng.gauss(1000, 150)),
            rng.uniform(0.0, 120.0),
        )
        for i in range(n)
    ]


def main() -> None:
    sizes = {"teams-2v2": 4}
    for n in (100, 1_000, 10_000):
        times: list[float] = []
        seated = 0
        for seed in range(20):
            q = queue(n, seed)
            start = time.perf_counter()
            tables = pair(q, sizes, now=120.0)
            times.append(time.perf_counter() - start)
            seated = sum(len(t) for t in tables)
        first = queue(n, 0)
        taken = {p.user_id for t in pair(first, sizes, now=120.0) for p in t}
        left = [w for w in first if w.user_id not in taken]
        start = time.perf_counter()
        pair(left, sizes, now=125.0)
        again = time.perf_counter() - start
        print(
            f"{n:>6} waiting: pairing round median {statistics.median(times) * 1000:.2f} ms"
            f" (max {max(times) * 1000:.2f} ms), {seated} seated;"
            f" round over the {len(left)} left waiting {again * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
