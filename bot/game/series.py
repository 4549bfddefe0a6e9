"""A session of deals at one table: pagat's matchsticks, kept across rematches.

Pagat: "Sometimes matchsticks are used to keep track of how many times each player or team has
lost." A rematch (:mod:`bot.game.rematch`) is a new game row; the tally *before* that deal travels
with it in the game's stored options (``options["series"]``), so it survives restarts and
needs no query over older games to be drawn. Seats keep their numbers for the whole session
(a rematch has the same seats), so the tally is simply one count per seat.

No ``discord`` and no storage here: the service, the renderer and the rematch flow share it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Series", "deal_losers"]


@dataclass(frozen=True, slots=True)
class Series:
    """Where a game stands in its session. ``fools`` and ``draws`` count the deals *before*
    this one (use :meth:`after` for the tally including a finished deal)."""

    #: The id of the session's first game.
    series_id: int
    #: The game this one is the rematch of.
    previous: int
    #: This game's number in the session: 2 for the first rematch.
    deal: int
    #: Matchsticks per seat: deals lost so far (a losing team gives each partner one).
    fools: tuple[int, ...]
    draws: int = 0
    #: The seat dealing this deal (the fool of the previous one; -1 when unknown).
    dealer: int = -1

    def after(self, losers: tuple[int, ...] | None) -> tuple[tuple[int, ...], int]:
        """The tally once this deal ended with ``losers`` (None: a draw)."""
        if losers is None:
            return self.fools, self.draws + 1
        fools = list(self.fools)
        for seat in losers:
            if 0 <= seat < len(fools):
                fools[seat] += 1
        return tuple(fools), self.draws

    def next(self, game_id: int, losers: tuple[int, ...] | None, dealer: int) -> Series:
        """The series of the rematch of game ``game_id`` (this series' deal), which ended
        with ``losers``; ``dealer`` deals it."""
        fools, draws = self.after(losers)
        return Series(self.series_id, game_id, self.deal + 1, fools, draws, dealer)

    @classmethod
    def first(cls, game_id: int, seats: int) -> Series:
        """The series a one-off game ``game_id`` would have had: the session starts there."""
        return cls(game_id, game_id, 1, (0,) * seats, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.series_id,
            "previous": self.previous,
            "deal": self.deal,
            "fools": list(self.fools),
            "draws": self.draws,
            "dealer": self.dealer,
        }

    @classmethod
    def from_json(cls, data: Any) -> Series | None:
        """The stored series, or None for a one-off game (or unreadable data: a tally is
        never worth refusing to load a game over)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(
                int(data["id"]),
                int(data["previous"]),
                int(data["deal"]),
                tuple(int(x) for x in data["fools"]),
                int(data.get("draws", 0)),
                int(data.get("dealer", -1)),
            )
        except (KeyError, TypeError, ValueError):
            return None


def deal_losers(
    result: Any, ended_by: int | None, forfeits: Iterable[int] = (), *, void: bool = False
) -> tuple[int, ...] | None:
    """Who takes a matchstick for a finished deal: the fool, every member of a losing team,
    or the player whose forfeit ended the game. None for a draw; nobody (``()``) for a deal
    that ended before anybody moved (``void``), which counts for nothing.

    ``result`` is the engine's :class:`engine.game.Result` (None when a forfeit ended the
    game, then ``ended_by`` is that seat).
    """
    if void:
        return ()
    if result is None:
        if ended_by is not None:
            return (ended_by,)
        last = list(forfeits)
        return (last[-1],) if last else None
    if result.kind == "draw":
        return None
    if result.kind == "team":
        return tuple(result.losers)
    return (result.fool,) if result.fool is not None else None
