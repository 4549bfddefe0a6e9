"""The daily puzzle: CPU seconds to generate one day's puzzle (self-play, prove, grade).

For ``--days`` consecutive days from ``--start`` it computes ``engine.puzzles.daily_puzzle``
in this process and prints, per mode (days alternate Podkidnoy and Perevodnoy), the median
and the largest CPU time (``time.process_time``: the machine's load does not count), the
deals tried, and the grades served against the grades asked. The aim is < 10 s of CPU for a
day. Figures are printed, never asserted.

    .venv/bin/python bench/puzzle_generation.py [--days 30] [--start 2026-12-01]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.puzzles import MODES, daily_puzzle, grade_of_day


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2026, 12, 1))
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {m: [] for m in MODES}
    deals: dict[str, list[int]] = {m: [] for m in MODES}
    grades: Counter[tuple[str, str, str]] = Counter()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    for i in range(args.days):
        day = args.start + dt.timedelta(days=i)
        t = time.process_time()
        p = daily_puzzle(day)
        cpu = time.process_time() - t
        times[p.mode].append(cpu)
        deals[p.mode].append(int(p.seed.rsplit("/", 1)[1]) + 1)
        grades[(p.mode, grade_of_day(day), p.grade)] += 1
        print(
            f"{day} {p.mode:<10} asked {grade_of_day(day):<6} served {p.grade:<6}"
            f" depth {p.depth}  deal {p.seed:<26} {cpu:6.2f} CPU-s"
        )
    print()
    for m in MODES:
        ts = sorted(times[m])
        if not ts:
            continue
        print(
            f"{m:<10} {len(ts)} days: p50 {statistics.median(ts):.2f} s, max {ts[-1]:.2f} s CPU;"
            f" deals tried p50 {statistics.median(deals[m]):.0f}, max {max(deals[m])}"
        )
    every = sorted(t for ts in times.values() for t in ts)
    p50 = statistics.median(every)
    print(f"all        {len(every)} days: p50 {p50:.2f} s, max {every[-1]:.2f} s")
    served = sum(n for (_, asked, got), n in grades.items() if asked == got)
    print(f"grade asked = grade served on {served} of {len(every)} days")


if __name__ == "__main__":
    main()
