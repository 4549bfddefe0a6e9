"""The rules of a tournament, as pure functions of who entered and what was played.

Nothing here is stored or timed: the service keeps entrants and tables in storage and asks
these functions, at each round's start, who sits where, and after each table, who leads.
Keeping them pure is what lets a restart mid-round (or a test) rebuild any round exactly.

**Scoring.** A table of ``n`` players scores each player ``(behind + ½·tied) / (n − 1)``:
the players who finished behind them, plus half of those who shared their place. At two
players that is the chess score (win 1, draw ½, loss 0); at three 1 / ½ / 0; at four
1 / ⅔ / ⅓ / 0. The fool is last, a forfeiter (a no-show) is last, and a bye scores 1 (a win).

**Standings** (:func:`standings`): score, then **Buchholz** (the sum of the scores of
everyone one sat with; a bye adds nothing), then **Sonneborn-Berger** (for each opponent,
their score times what one scored at that table, divided by the table's other seats), then
the rating at sign-up, then who signed up first.

**Swiss pairing** (:func:`swiss_round`), two-player tables: the players in standings order
(rating order in round 1); with an odd count the lowest-placed player who has not had a bye
yet gets it (at most one bye each while anybody is left without one). The rest are paired
top-down: the highest unpaired player meets the next one below them they have not met, and
when that leaves the lower players unpairable the search backs up and tries the next
(a depth-first search, so equal scores meet first and scores float down one group at a
time). Only when no pairing without a rematch exists is a rematch allowed. Tables of three
or four: as many tables as the count needs, sizes as even as possible (10 players at
four-seat tables: 4, 3, 3); each table takes the highest player left, then fills its seats
with the highest players left who have met nobody at it yet (anyone, if nobody is left who
has not).

**Single elimination** (:func:`elimination_round`): two-player tables only. Seeded by
rating into the standard bracket (1 v 16, 8 v 9, …, so the top two can meet only in the
final); the bracket is the next power of two and its empty slots are byes, which fall to
the top seeds. A table's winner goes on; a draw, or a table nobody finished, sends the
better seed on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "FORMATS",
    "Entrant",
    "Standing",
    "Table",
    "elimination_round",
    "elimination_rounds",
    "place_points",
    "standings",
    "swiss_round",
    "table_sizes",
]

FORMATS: tuple[str, ...] = ("swiss", "elimination")
#: The pairing search gives up on "no rematch" after this many steps (a field where it
#: cannot succeed would otherwise try every pairing there is).
_SEARCH_BUDGET = 20_000


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player signed up. ``order`` is the sign-up order (the last tie-break)."""

    user_id: int
    name: str
    rating: int
    order: int
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One table of one round: who sits there and, once it is over, each one's points.

    One player and no game is a bye."""

    round: int
    number: int
    players: tuple[int, ...]
    points: Mapping[int, float] | None = None
    game_id: int | None = None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def over(self) -> bool:
        return self.points is not None


@dataclass(slots=True)
class Standing:
    entrant: Entrant
    score: float = 0.0
    buchholz: float = 0.0
    sonneborn: float = 0.0
    played: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    rank: int = 0

    @property
    def user_id(self) -> int:
        return self.entrant.user_id


def place_points(places: Mapping[int, int]) -> dict[int, float]:
    """Points of each player at a finished table from their places (1 = best; ties share
    a place): see the module docstring."""
    n = len(places)
    if n < 2:
        return {p: 1.0 for p in places}
    out: dict[int, float] = {}
    for player, place in places.items():
        behind = sum(1 for q, other in places.items() if q != player and other > place)
        tied = sum(1 for q, other in places.items() if q != player and other == place)
        out[player] = (behind + 0.5 * tied) / (n - 1)
    return out


def standings(entrants: Iterable[Entrant], tables: Iterable[Table]) -> list[Standing]:
    """Everyone who entered, best first, with score and tie-breaks; ``rank`` is 1-based and
    shared only by players equal on every tie-break but the sign-up order."""
    rows = {e.user_id: Standing(e) for e in entrants}
    played = [t for t in tables if t.points is not None]
    for table in played:
        assert table.points is not None
        for player in table.players:
            row = rows.get(player)
            if row is None:
                continue
            row.score += table.points.get(player, 0.0)
            if table.bye:
                row.byes += 1
            else:
                row.played += 1
                row.opponents.extend(q for q in table.players if q != player)
    for table in played:
        assert table.points is not None
        if table.bye:
            continue
        others = len(table.players) - 1
        for player in table.players:
            row = rows.get(player)
            if row is None:
                continue
            mine = table.points.get(player, 0.0)
            for q in table.players:
                if q != player and q in rows:
                    row.buchholz += rows[q].score
                    row.sonneborn += rows[q].score * mine / others
    ordered = sorted(rows.values(), key=_sort_key)
    for i, row in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        same = previous is not None and _sort_key(previous)[:4] == _sort_key(row)[:4]
        row.rank = previous.rank if same and previous is not None else i + 1
    return ordered


def _sort_key(row: Standing) -> tuple[float, float, float, int, int]:
    return (
        -round(row.score, 6),
        -round(row.buchholz, 6),
        -round(row.sonneborn, 6),
        -row.entrant.rating,
        row.entrant.order,
    )


def _met(tables: Iterable[Table]) -> set[frozenset[int]]:
    pairs: set[frozenset[int]] = set()
    for table in tables:
        for a in table.players:
            for b in table.players:
                if a < b:
                    pairs.add(frozenset((a, b)))
    return pairs


def table_sizes(count: int, seats: int) -> list[int]:
    """Tables for ``count`` players at up to ``seats`` each, sizes as even as possible
    (two-seat tables with an odd count leave one player out: the bye)."""
    if seats == 2:
        return [2] * (count // 2)
    if count < 2:
        return []
    tables = -(-count // seats)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def swiss_round(
    entrants: Sequence[Entrant], tables: Sequence[Table], seats: int
) -> list[tuple[int, ...]]:
    """The next Swiss round: tables of players (a one-player table is the bye), from the
    standings after ``tables`` (see the module docstring). Dropped entrants sit out."""
    order = [s.user_id for s in standings(entrants, tables) if not s.entrant.dropped]
    met = _met(t for t in tables if not t.bye)
    byes = {t.players[0] for t in tables if t.bye}
    out: list[tuple[int, ...]] = []
    if seats == 2 and len(order) % 2 == 1:
        fresh = [p for p in reversed(order) if p not in byes]
        bye = fresh[0] if fresh else order[-1]
        order.remove(bye)
        out.append((bye,))
    if seats == 2:
        pairs = _pair(order, met, allow_rematch=False) or _pair(order, met, allow_rematch=True)
        assert pairs is not None
        return [*pairs, *out]
    return _group(order, met, table_sizes(len(order), seats)) + out


def _pair(
    order: list[int], met: set[frozenset[int]], *, allow_rematch: bool
) -> list[tuple[int, ...]] | None:
    budget = [_SEARCH_BUDGET]

    def search(rest: list[int]) -> list[tuple[int, ...]] | None:
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if not allow_rematch and frozenset((top, other)) in met:
                continue
            tail = search(others[:i] + others[i + 1 :])
            if tail is not None:
                return [(top, other), *tail]
        return None

    return search(order)


def _group(order: list[int], met: set[frozenset[int]], sizes: list[int]) -> list[tuple[int, ...]]:
    left = list(order)
    out: list[tuple[int, ...]] = []
    for size in sizes:
        seated = [left.pop(0)]
        while len(seated) < size:
            fresh = next(
                (p for p in left if all(frozenset((p, s)) not in met for s in seated)), left[0]
            )
            left.remove(fresh)
            seated.append(fresh)
        out.append(tuple(seated))
    return out


def elimination_rounds(count: int) -> int:
    """Rounds a single-elimination bracket of ``count`` players takes."""
    rounds = 0
    while (1 << rounds) < count:
        rounds += 1
    return max(rounds, 1)


def _bracket_slots(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    slots = [1]
    while len(slots) < size:
        total = 2 * len(slots) + 1
        slots = [s for seed in slots for s in (seed, total - seed)]
    return slots


def _seeds(entrants: Sequence[Entrant]) -> list[int]:
    return [e.user_id for e in sorted(entrants, key=lambda e: (-e.rating, e.order))]


def elimination_round(
    entrants: Sequence[Entrant], tables: Sequence[Table], number: int
) -> list[tuple[int, ...]]:
    """Round ``number`` of a single-elimination bracket, in bracket order (byes included as
    one-player tables, so the next round pairs neighbours)."""
    seeds = _seeds(entrants)
    if number == 1:
        size = 1 << elimination_rounds(len(seeds))
        slots = [seeds[s - 1] if s <= len(seeds) else None for s in _bracket_slots(size)]
        out: list[tuple[int, ...]] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            out.append(tuple(p for p in (a, b) if p is not None))
        return out
    previous = sorted((t for t in tables if t.round == number - 1), key=lambda t: t.number)
    winners = [elimination_winner(t, seeds) for t in previous]
    return [tuple(winners[i : i + 2]) for i in range(0, len(winners), 2)]


def elimination_winner(table: Table, seeds: Sequence[int]) -> int:
    """Who goes on from a finished elimination table: the higher score, else the better
    seed."""
    rank = {p: i for i, p in enumerate(seeds)}
    points = table.points or {}
    return min(table.players, key=lambda p: (-points.get(p, 0.0), rank.get(p, len(rank))))
