"""The daily puzzle: an endgame where exactly one first move wins, proved by the exact solver.

A puzzle is a two-player position with the talon empty, so nothing is hidden (the other hand
is every card not in yours, on the table or in the discard) and :class:`EndgameSolver` can
decide it. "Win" means making the opponent the fool (a draw, both out at once, is not a
win). A position is a puzzle when the seat to move has at least three legal moves (two
would make a coin toss) and exactly one of them forces the win against every defence;
every other move lets the opponent escape to a draw or make the solver's seat the fool.

Positions come from the engine's own play: two ``normal`` players play a deal from a seed
until the talon runs out, and each decision after that is a candidate. The day's puzzle is a
pure function of the date (:func:`daily_puzzle`): the same for everyone on every server, so
it needs no storage to be reproduced, and yesterday's solution can be shown by recomputing
it. The grade is the depth of the win: how many choices the solver's seat still makes on the
longest defence (:func:`win_depth`), the opponent resisting as long as it can.

The line a player meets is fixed: the defence is the one that resists longest
(:func:`defence`), ties broken by the order of the legal moves, so everybody who solves the
puzzle sees the same replies.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Final

from .actions import Action
from .ai.arena import next_to_move
from .ai.policies import NORMAL, normal_policy
from .ai.search import EndgameSolver, NodeCapReached, _key
from .ai.view import view_of_game
from .game import Game
from .rules import RuleSet

#: The two modes puzzles are set in, alternating by day (even ordinal: throw-in).
MODES: Final[tuple[str, str]] = ("podkidnoy", "perevodnoy")
#: Grades by win depth (choices of the solver's seat on the longest defence, the first
#: included): at most ``EASY_MAX`` is easy, at most ``MEDIUM_MAX`` medium, more is hard.
EASY_MAX: Final = 2
MEDIUM_MAX: Final = 4
GRADES: Final[tuple[str, str, str]] = ("easy", "medium", "hard")
#: Positions with more cards than this in both hands together are skipped: bigger endgames
#: can exceed the solver's node cap and are long to play through with buttons.
MAX_CARDS: Final = 10
#: Exact-search nodes one candidate position may cost before it is skipped.
NODE_CAP: Final = 20000
#: Self-play deals tried for one day before the grade asked is given up for the nearest.
DEALS_PER_GRADE: Final = 12
#: Search nodes (the solver's and the win depth's) spent on one day's search for its grade
#: before the nearest grade will do (it bounds the search for a grade once some puzzle is
#: found; a day whose deals give no puzzle at all goes on until one does:
#: bench/puzzle_generation.py).
DAY_NODES: Final = 150_000
#: Deals tried for one day before giving up (never reached in the benchmark's days).
MAX_DEALS: Final = 400
#: Fewer legal moves than this make a guess rather than a puzzle.
MIN_MOVES: Final = 3
#: More moves than this do not fit the puzzle's buttons (four rows of five).
MAX_MOVES: Final = 20
#: A win not reached within this many of the seat's choices is not a puzzle one plays out.
MAX_DEPTH: Final = 8


class NoPuzzle(RuntimeError):
    """No deal of the day's seeds gave a puzzle: a guard, never met in the benchmark."""


@dataclass(frozen=True)
class Puzzle:
    """One proved puzzle: the position, the seat to solve it, its one winning first move."""

    day: dt.date
    mode: str
    #: the self-play deal's seed and how many moves were played from it to the position
    seed: str
    plies: int
    position: dict[str, Any]
    seat: int
    answer: Action
    depth: int
    grade: str

    def game(self) -> Game:
        """A fresh copy of the position (the puzzle's state is never shared)."""
        g = Game.from_dict(self.position, settle=False)
        g.narrate = False
        return g

    @property
    def number(self) -> int:
        """A puzzle number people can quote: days since 2026-01-01, counting from 1."""
        return (self.day - dt.date(2026, 1, 1)).days + 1


def rules_for(mode: str) -> RuleSet:
    return RuleSet.preset(mode)


def mode_of(day: dt.date) -> str:
    return MODES[day.toordinal() % 2]


def grade_of_day(day: dt.date) -> str:
    """The grade asked of a day: easy, medium, hard in turn over three days of each mode."""
    return GRADES[(day.toordinal() // 2) % 3]


def grade(depth: int) -> str:
    if depth <= EASY_MAX:
        return "easy"
    return "medium" if depth <= MEDIUM_MAX else "hard"


def choices(g: Game) -> tuple[int, list[Action]]:
    """Who moves next and their legal moves, under the arena's convention (the defender
    answers before attackers add cards), the convention the solver proves under."""
    return next_to_move(g)


def after(g: Game, action: Action) -> Game:
    child = g.copy()
    child.apply_unchecked(action)
    return child


def win_depth(
    g: Game, seat: int, cap: int = NODE_CAP, solver: EndgameSolver | None = None
) -> int | None:
    """How many choices ``seat`` makes before the opponent is the fool, the opponent
    resisting longest and ``seat`` winning fastest; ``None`` when the win is not forced.

    A forced move (one legal action) is not a choice and does not count. Raises
    :class:`NodeCapReached` past ``cap`` positions.
    """
    return _Depth(seat, cap, solver).depth(g)


class _Depth:
    """Minimax over the distance to a forced win, with a transposition table."""

    def __init__(self, seat: int, cap: int, solver: EndgameSolver | None = None) -> None:
        self.seat = seat
        #: proves first whether a move of the seat wins at all (cheap, with cut-offs), so
        #: that only winning moves are searched for their depth
        self.solver = solver or EndgameSolver(seat, cap, target=2)
        self.cap = cap
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], int | None] = {}
        self.path: set[tuple[Any, ...]] = set()

    def depth(self, g: Game) -> int | None:
        r = g.result
        if r is not None:
            return 0 if self.seat not in r.losers and r.kind != "draw" else None
        key = _key(g)
        if key in self.memo:
            return self.memo[key]
        if key in self.path:
            return None  # a repetition proves nothing
        self.nodes += 1
        if self.nodes > self.cap or len(self.path) > 150:
            raise NodeCapReached
        self.path.add(key)
        try:
            value = self._search(g)
        finally:
            self.path.discard(key)
        self.memo[key] = value
        return value

    def _search(self, g: Game) -> int | None:
        mover, acts = next_to_move(g)
        mine = not g.is_opponent(mover, self.seat)
        counted = 1 if mine and len(acts) > 1 else 0
        best: int | None = None
        for a in acts:
            child = after(g, a)
            if mine and len(acts) > 1 and not self.solver.wins(child):
                continue
            d = self.depth(child)
            if mine:
                if d is not None and (best is None or d < best):
                    best = d
            else:
                if d is None:
                    return None
                best = d if best is None else max(best, d)
        return None if best is None else best + counted


class _Within:
    """Whether ``seat`` forces the win within ``k`` of its choices: a yes/no search that stops
    at the first refutation, far cheaper than the exact minimax of :class:`_Depth` (which must
    weigh every defence). The least ``k`` that holds is the win depth, the number
    :func:`win_depth` finds; the generator asks for it one ``k`` at a time, and what a
    smaller ``k`` proved is kept for the larger (a position won within ``k`` is won within
    more, one lost within ``k`` is lost within less)."""

    def __init__(self, seat: int, cap: int) -> None:
        self.seat = seat
        self.cap = cap
        self.nodes = 0
        self.won_within: dict[tuple[Any, ...], int] = {}
        self.lost_within: dict[tuple[Any, ...], int] = {}
        self.path: set[tuple[Any, ...]] = set()

    def depth(self, g: Game, most: int) -> int | None:
        """The least ``k`` up to ``most`` within which the win holds; ``None`` past it."""
        for k in range(most + 1):
            if self.within(g, k):
                return k
        return None

    def within(self, g: Game, k: int) -> bool:
        r = g.result
        if r is not None:
            return self.seat not in r.losers and r.kind != "draw"
        key = _key(g)
        if self.won_within.get(key, MAX_DEPTH + 1) <= k:
            return True
        if self.lost_within.get(key, -1) >= k or key in self.path:
            return False  # a repetition proves nothing
        self.nodes += 1
        if self.nodes > self.cap or len(self.path) > 150:
            raise NodeCapReached
        self.path.add(key)
        try:
            value = self._search(g, k)
        finally:
            self.path.discard(key)
        if value:
            self.won_within[key] = min(k, self.won_within.get(key, k))
        else:
            self.lost_within[key] = max(k, self.lost_within.get(key, k))
        return value

    def _search(self, g: Game, k: int) -> bool:
        mover, acts = next_to_move(g)
        if g.is_opponent(mover, self.seat):
            return all(self.within(after(g, a), k) for a in acts)
        if len(acts) == 1:  # a forced move is not a choice
            return self.within(after(g, acts[0]), k)
        return k > 0 and any(self.within(after(g, a), k - 1) for a in acts)


class _Solver(EndgameSolver):
    """The exact solver searching moves in legal order. The heuristic's order (the
    ``normal`` computer's choice first) saves nodes but costs more than it saves in these
    small endgames: it took nearly half the generator's time, and without it a day's
    search takes about half as long (bench/puzzle_generation.py). The answers are the same;
    only which candidates run out of nodes can differ."""

    def order(self, g: Game, mover: int, acts: list[Action]) -> list[Action]:
        return acts


def winning_moves(
    g: Game, seat: int, acts: list[Action], solver: EndgameSolver | None = None, stop: int = 0
) -> list[Action]:
    """The moves of ``acts`` after which ``seat`` forces the opponent to be the fool; with
    ``stop``, no more than that many (a puzzle needs to know only whether there is a second).
    """
    solver = solver or EndgameSolver(seat, NODE_CAP, target=2)
    out = []
    for a in acts:
        if solver.wins(after(g, a)):
            out.append(a)
            if len(out) == stop:
                break
    return out


def defence(g: Game, seat: int, within: _Within | None = None) -> Action:
    """The opponent's reply on the puzzle's line: the move that keeps the win furthest away
    (first in legal order among equals). ``g`` must be a won position for ``seat`` with the
    opponent to move. The distances come from the yes/no search the generator proved the
    puzzle with (:class:`_Within`): the exact minimax of :func:`win_depth` cannot finish
    some of the positions the generator proves."""
    mover, acts = next_to_move(g)
    if not g.is_opponent(mover, seat):
        raise ValueError("it is not the opponent's move")
    search = within or _Within(seat, NODE_CAP * 4)
    best = acts[0]
    longest = -1
    for a in acts:
        d = search.depth(after(g, a), MAX_DEPTH)
        if d is None:
            raise ValueError("the position is not won: the opponent has an escape")
        if d > longest:
            best, longest = a, d
    return best


def _candidates(rules: RuleSet, seed: str) -> Iterator[tuple[int, Game, int, list[Action]]]:
    """Decision points of one self-play deal once the talon is empty: (plies, game, seat,
    legal moves), for a seat with at least two moves and small enough hands."""
    g = Game.new(rules, seed)
    g.narrate = False
    rng = random.Random(seed)
    for plies in range(600):
        if g.result is not None:
            return
        seat, acts = next_to_move(g)
        if seat < 0:
            return
        if (
            not g.talon
            and MIN_MOVES <= len(acts) <= MAX_MOVES
            and g.hands[0].bit_count() + g.hands[1].bit_count() <= MAX_CARDS
        ):
            yield plies, g.copy(), seat, acts
        choice = normal_policy(view_of_game(g, seat, acts), rng, PUZZLE_PLAY)
        g.apply_unchecked(choice if choice is not None else acts[0])


#: The weights the positions are played with: ``normal``'s as the first puzzles were served.
#: A day's puzzle must not change when ``normal`` is tuned (a bot upgraded at noon would
#: replay its players' attempts against another position), so a change of ``normal``'s
#: weights reaches the puzzles only by changing this line, on a date not yet served.
PUZZLE_PLAY: Final = replace(NORMAL, take_talon_duel=4)


def _prove(
    rules: RuleSet, seed: str, day: dt.date, mode: str, spent: list[int] | None = None
) -> Iterator[Puzzle]:
    """The proved puzzles of one self-play deal, in the order play reaches them; the
    solver's nodes are added to ``spent[0]`` (what a day's search has cost so far)."""
    # one solver per seat for the whole deal: its table of proved positions holds across
    # the deal's candidates (a position's value does not depend on how it was reached), and
    # the node cap then bounds the deal rather than each candidate
    solvers: dict[int, EndgameSolver] = {}
    for plies, g, seat, acts in _candidates(rules, seed):
        solver = solvers.setdefault(seat, _Solver(seat, NODE_CAP, target=2))
        solver.nodes = 0
        within = _Within(seat, NODE_CAP)
        try:
            wins = winning_moves(g, seat, acts, solver, stop=2)
            if len(wins) != 1:
                continue
            depth = within.depth(after(g, wins[0]), MAX_DEPTH - 1)
        except NodeCapReached:
            continue
        finally:
            if spent is not None:
                spent[0] += solver.nodes + within.nodes
        if depth is None or depth + 1 > MAX_DEPTH:
            continue
        depth += 1  # the first move is a choice too
        yield Puzzle(day, mode, seed, plies, g.to_dict(), seat, wins[0], depth, grade(depth))


def daily_puzzle(day: dt.date) -> Puzzle:
    """The puzzle of ``day``: the same wherever and whenever it is computed.

    Deals seeded ``"<date>/<mode>/<n>"`` are played in turn; the first proved puzzle of the
    day's grade is the puzzle. Once ``DEALS_PER_GRADE`` deals (or ``DAY_NODES`` solver nodes:
    a count, not a clock, so the result stays the same on any machine) have given none of
    that grade,
    the proved puzzle nearest that grade is taken, the first among equals (the grade shown is
    always the puzzle's own).
    """
    mode = mode_of(day)
    rules = rules_for(mode)
    want = grade_of_day(day)
    fallback: Puzzle | None = None

    def miss(p: Puzzle) -> int:
        return abs(GRADES.index(p.grade) - GRADES.index(want))

    spent = [0]
    for n in range(MAX_DEALS):
        for p in _prove(rules, f"{day.isoformat()}/{mode}/{n}", day, mode, spent):
            if p.grade == want:
                return p
            if fallback is None or miss(p) < miss(fallback):
                fallback = p
        if fallback is not None and (n + 1 >= DEALS_PER_GRADE or spent[0] >= DAY_NODES):
            return fallback
    raise NoPuzzle(f"no puzzle in {MAX_DEALS} deals of {day}")


def solution_line(p: Puzzle) -> list[Action]:
    """The puzzle's line from the position to the end: the answer, the longest defence at
    each reply, and for the solver's seat the fastest winning move (first in legal order
    among equals); forced moves of either side included."""
    g = p.game()
    line = [p.answer]
    g.apply_unchecked(p.answer)
    search = _Within(p.seat, NODE_CAP * 4)
    while g.result is None:
        mover, acts = next_to_move(g)
        if g.is_opponent(mover, p.seat):
            a = defence(g, p.seat, search)
        else:
            depths = [(search.depth(after(g, x), MAX_DEPTH), x) for x in acts]
            a = min(((d, i, x) for i, (d, x) in enumerate(depths) if d is not None))[2]
        line.append(a)
        g.apply_unchecked(a)
    return line
