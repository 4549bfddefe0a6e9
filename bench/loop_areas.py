"""The bot's share of the event loop by area of the code, from a deterministic profile
(``bench/bot_load.py --profile PATH``) instead of stack samples.

bench/bot_load.py splits the event loop's CPU by sampling its stack from another thread. A
sample can only be taken where the loop's thread lets go of the GIL (a blocking call, or
every switch interval), and each sample is given all the CPU the thread used since the
previous one; so the areas that hold a GIL release point (``os.urandom`` in every discord.py
``View``, a socket write) collect the CPU of the code that ran before them. A cProfile of the
same stretch has no such bias (it has its own: a function call costs more under it, so code
made of many small calls weighs more). This script reads such a profile and groups its time
by the same areas bot_load uses: a function of the bot (bot/, cogs/, engine/, discord.py,
asyncpg, aiosqlite, Pillow) counts for its area; the simulated Discord and the bench for
themselves; a function of neither (the standard library: json, copy, asyncio, builtins)
counts for its callers, in proportion to the time each call path spent in it; the selector's
wait is idle. It prints each area's share of the bot's profiled time and, given the bot's
event loop CPU per move of a run without the profiler (``--loop-ms``, bot_load's "event
loop" figure), that share in ms per move.

    .venv/bin/python bench/bot_load.py --sizes 100 --pictures off --no-trace --profile p.prof
    .venv/bin/python bench/loop_areas.py p.prof --moves 400 --loop-ms 4.5
"""

from __future__ import annotations

import argparse
import os
import pstats
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_load import _CPU_BOT_DIRS, _CPU_SIM_DIRS, _THREAD_BACKEND, _area

Func = tuple[str, int, str]

IDLE = "idle (selector)"
SIM = "simulated Discord and bench"
PLUMBING = "event loop plumbing"


def _owner(func: Func) -> str | None:
    filename, _, name = func
    if filename == "~" and ("epoll" in name or "select" in name):
        return IDLE
    if filename == _THREAD_BACKEND or filename.startswith(_CPU_BOT_DIRS):
        return _area(filename)
    if filename.startswith(_CPU_SIM_DIRS):
        return SIM
    return None


def areas(stats: dict[Func, Any]) -> Counter[str]:
    """Profiled seconds by area (see the module docstring)."""
    memo: dict[Func, dict[str, float]] = {}

    def share(func: Func, path: frozenset[Func]) -> dict[str, float]:
        if func in memo:
            return memo[func]
        owner = _owner(func)
        if owner is not None:
            out = {owner: 1.0}
        else:
            callers = stats[func][4] if func in stats else {}
            weights = {c: edge[3] for c, edge in callers.items() if c not in path and edge[3] > 0}
            total = sum(weights.values())
            if not total:
                out = {PLUMBING: 1.0}
            else:
                acc: Counter[str] = Counter()
                for caller, weight in weights.items():
                    for area, part in share(caller, path | {func}).items():
                        acc[area] += part * weight / total
                out = dict(acc)
        if not path:
            memo[func] = out
        return out

    totals: Counter[str] = Counter()
    for func, (_, _, tottime, _, _) in stats.items():
        for area, part in share(func, frozenset()).items():
            totals[area] += tottime * part
    return totals


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("profile")
    p.add_argument("--moves", type=int, default=400, help="moves applied in the profiled run")
    p.add_argument("--loop-ms", type=float, default=0.0, help="bot's event loop ms per move")
    args = p.parse_args(argv)
    stats: dict[Func, Any] = pstats.Stats(args.profile).stats  # type: ignore[attr-defined]
    totals = areas(stats)
    aside = {IDLE, SIM, PLUMBING}
    bot = sum(v for k, v in totals.items() if k not in aside)
    print(
        f"profiled: bot {bot:.2f} s, simulated Discord and bench {totals[SIM]:.2f} s, "
        f"plumbing {totals[PLUMBING]:.2f} s, idle {totals[IDLE]:.2f} s; {args.moves} moves; "
        f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for area, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        if area in aside:
            continue
        part = seconds / bot
        scaled = f"  {part * args.loop_ms:.3f} ms per move" if args.loop_ms else ""
        profiled = seconds / args.moves * 1000
        print(f"  {part * 100:5.1f}%  {profiled:7.3f} ms profiled{scaled}  {area}")


if __name__ == "__main__":
    main()
