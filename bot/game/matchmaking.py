"""Quick-match pairing (``/durak quick``): who sits down with whom. Pure: no discord, no
storage, no clock (the caller passes ``now``), so it is tested and benchmarked alone.

The rule, as docs/playing.md tells players:

* Players wait per mode; a table takes the mode's number of players (two for most modes).
* The rating gap a table may have widens with waiting time: a player who has waited ``w``
  seconds accepts tablemates within ``allowed_gap(w) = BASE_GAP + WIDEN_PER_SECOND * w``
  rating points (100 at once, 400 after a minute, anyone after about three minutes). A
  table's gap is its highest rating minus its lowest, and it is allowed when it is within
  the window of its longest-waiting player: the one who has waited most decides, so a long
  wait is what widens the search, and a newcomer is never kept waiting by someone else's
  narrow window.
* The longest-waiting players are seated first, each at the closest-rated table it can make
  (the smallest gap among the runs of neighbours in rating order that include it).

Cost: per mode, one sort by rating and a doubly linked list over it, so a seated player is
unlinked in O(1) and each waiting player looks at no more than ``2 * (size - 1)`` unseated
neighbours: O(n log n) a round (bench/quick_match.py prints the figure for 1,000 players).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["BASE_GAP", "WIDEN_PER_SECOND", "Waiting", "allowed_gap", "pair"]

#: The rating gap accepted at once (a new player's rating is 1000; tiers are ~100 apart).
BASE_GAP = 100.0
#: How many rating points the accepted gap widens by per second of waiting.
WIDEN_PER_SECOND = 5.0


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the queue: their rating in this server and since when they wait."""

    user_id: int
    mode: str
    rating: int
    since: float


def allowed_gap(waited: float) -> float:
    """The rating gap a player who has waited ``waited`` seconds accepts."""
    return BASE_GAP + WIDEN_PER_SECOND * max(0.0, waited)


def pair(
    waiting: Iterable[Waiting], sizes: dict[str, int], now: float
) -> list[tuple[Waiting, ...]]:
    """The tables to open now: groups of ``sizes[mode]`` players (default 2) of one mode,
    the longest-waiting seated first. Players left out keep waiting."""
    by_mode: dict[str, list[Waiting]] = {}
    for w in waiting:
        by_mode.setdefault(w.mode, []).append(w)
    tables: list[tuple[Waiting, ...]] = []
    for mode in sorted(by_mode):
        tables += _pair_mode(by_mode[mode], max(2, sizes.get(mode, 2)), now)
    return tables


def _pair_mode(players: Sequence[Waiting], size: int, now: float) -> list[tuple[Waiting, ...]]:
    if len(players) < size:
        return []
    ranked = sorted(players, key=lambda w: (w.rating, w.since, w.user_id))
    n = len(ranked)
    left = list(range(-1, n - 1))
    right = list(range(1, n + 1))
    seated = [False] * n
    position = {id(w): i for i, w in enumerate(ranked)}
    tables: list[tuple[Waiting, ...]] = []
    for w in sorted(players, key=lambda w: (w.since, w.user_id)):
        i = position[id(w)]
        if seated[i]:
            continue
        below: list[int] = []
        j = left[i]
        while j >= 0 and len(below) < size - 1:
            below.append(j)
            j = left[j]
        above: list[int] = []
        j = right[i]
        while j < n and len(above) < size - 1:
            above.append(j)
            j = right[j]
        run = [*below[::-1], i, *above]
        best: list[int] | None = None
        for start in range(len(run) - size + 1):
            window = run[start : start + size]
            if i not in window:
                continue
            gap = ranked[window[-1]].rating - ranked[window[0]].rating
            if best is None or gap < ranked[best[-1]].rating - ranked[best[0]].rating:
                best = window
        if best is None:
            continue
        gap = ranked[best[-1]].rating - ranked[best[0]].rating
        if gap > allowed_gap(now - w.since):
            continue
        for k in best:
            seated[k] = True
            if left[k] >= 0:
                right[left[k]] = right[k]
            if right[k] < n:
                left[right[k]] = left[k]
        tables.append(tuple(sorted((ranked[k] for k in best), key=lambda x: (x.since, x.user_id))))
    return tables
