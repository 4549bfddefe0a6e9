"""Shared by the scoring variants (point and epaulet fool): turning scores into a result.

The catalogue names only "the winner" of a two-player game. The bot's results, the leaderboard
and the forfeit tasks need one fool per deal for any table, so the scores rank every seat and
the lowest is the fool. A tie on the score is broken by the ordinary result of the deal (who
went out first is ahead; the one left holding cards is behind everybody who went out); only
when the ordinary result was itself a draw and the lowest score is shared does the deal stay a
draw.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..result import Result

if TYPE_CHECKING:
    from ..moves import GameMoves


def settle_by_score(g: GameMoves, score: Callable[[int], Sequence[int]]) -> Result | None:
    """The result once the deal is over: the seat with the lowest ``score`` is the fool."""
    natural = g.result
    if natural is None:
        return None
    order = natural.finish_order
    n = g.n

    def place(s: int) -> int:  # 0 went out first; n: still holding cards (the ordinary fool)
        return order.index(s) if s in order else n

    keys = {s: (tuple(score(s)), -place(s)) for s in range(n)}
    lowest = min(keys[s][0] for s in range(n))
    tied = [s for s in range(n) if keys[s][0] == lowest]
    if natural.kind == "draw" and len(tied) > 1:
        ranking = tuple(sorted(range(n), key=lambda s: keys[s], reverse=True))
        return Result("draw", None, (), None, ranking)
    fool = min(range(n), key=keys.__getitem__)
    ranking = tuple(sorted((s for s in range(n) if s != fool), key=keys.__getitem__, reverse=True))
    return Result("fool", fool, (fool,), None, ranking)
