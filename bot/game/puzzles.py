"""The daily puzzle (``/durak puzzle``): one proved endgame a day, solved privately move by move.

The puzzle of a day is a pure function of the date in UTC (``engine.puzzles.daily_puzzle``):
the same for everyone on every server, and the day ends at midnight UTC for everyone, so
one reveal time is true everywhere. Computing it takes seconds of CPU: in a thread of the bot
it would hold the GIL against every game's buttons, so it runs in a worker process of the
service's own (one: it never takes both cores from the games) and is kept in memory per day;
what was served is written to ``puzzles_served``. Nobody waits for it: serving a day's puzzle
starts the next day's in that worker, and a restarted bot whose server served a puzzle today
or yesterday computes today's and tomorrow's at start (the date alone decides the puzzle, so
a recomputed one is the same puzzle).

A player's attempt is their moves since the puzzle's position (``puzzle_attempts``): the
position is rebuilt by replaying them, so an attempt survives a restart and needs no game
row. After each of the player's moves the solver's defence is played (the reply that keeps
the win furthest away) and any move the player could only make one way, until the player
has a choice again or the deal is over. A move counts as right when the solver proves it
still forces the win: the first move must be the puzzle's one answer; later, any winning
move is right (a player who finds a second way to win has not failed). A move that lets
the opponent escape ends the attempt: one attempt a day per player and server, and only a
solved one extends the streak.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass

from engine.actions import Action
from engine.ai.arena import next_to_move
from engine.ai.search import EndgameSolver, NodeCapReached
from engine.game import Game
from engine.puzzles import NODE_CAP, Puzzle, after, daily_puzzle, defence, solution_line

from .. import metrics
from ..storage.puzzles import PuzzleAttempt, PuzzleStreak
from .core import _ServiceCore
from .errors import ServiceError

__all__ = ["PuzzleState", "_PuzzleFlow", "puzzle_day_id"]

log = logging.getLogger(__name__)

#: Puzzles kept in memory: today's, yesterday's (the reveal) and a spare across midnight.
_KEPT = 3
_cache: dict[dt.date, Puzzle] = {}
_computing: dict[dt.date, asyncio.Future[Puzzle]] = {}


def puzzle_day_id(day: dt.date) -> str:
    """The day as the buttons carry it (``20261126``)."""
    return day.strftime("%Y%m%d")


def _parse_day(text: str) -> dt.date:
    try:
        return dt.datetime.strptime(text, "%Y%m%d").date()
    except ValueError:
        raise ServiceError("puzzle.error.stale") from None


@dataclass(frozen=True)
class PuzzleState:
    """An attempt as the player sees it now."""

    puzzle: Puzzle
    status: str  # playing | solved | failed
    game: Game
    moves: tuple[Action, ...]
    #: the moves played since the player's last choice (their move, the replies, forced moves)
    last: tuple[Action, ...]
    streak: PuzzleStreak

    @property
    def step(self) -> int:
        return len(self.moves)

    @property
    def choices(self) -> list[Action]:
        """The player's legal moves (none once the attempt is over)."""
        if self.status != "playing" or self.game.result is not None:
            return []
        mover, acts = next_to_move(self.game)
        return acts if mover == self.puzzle.seat else []


def _replay(p: Puzzle, moves: tuple[str, ...]) -> tuple[Game, tuple[Action, ...]]:
    g = p.game()
    played = []
    for text in moves:
        a = Action.parse(text)
        g.apply_unchecked(a)
        played.append(a)
    return g, tuple(played)


def _play_on(g: Game, seat: int) -> list[Action]:
    """The replies and forced moves after the player's move, until the player has a choice
    or the deal is over (``g`` changes in place)."""
    applied = []
    while g.result is None:
        mover, acts = next_to_move(g)
        if g.is_opponent(mover, seat):
            a = defence(g, seat)
        elif len(acts) == 1:
            a = acts[0]
        else:
            break
        g.apply_unchecked(a)
        applied.append(a)
    return applied


def _judge(p: Puzzle, g: Game, move: Action, first: bool) -> tuple[bool, list[Action]]:
    """Whether ``move`` keeps the win, and the moves that follow it on the puzzle's line
    (empty when it does not: the attempt ends on the player's move)."""
    if first:
        right = move == p.answer
    else:
        try:
            right = EndgameSolver(p.seat, NODE_CAP * 10, target=2).wins(after(g, move))
        except NodeCapReached:  # a part of a proved win is smaller than the whole: a guard
            right = False
    g.apply_unchecked(move)
    return right, (_play_on(g, p.seat) if right else [])


def _won(g: Game, seat: int) -> bool:
    r = g.result
    return r is not None and seat not in r.losers and r.kind != "draw"


class _PuzzleFlow(_ServiceCore):
    """The daily puzzle: serving it, the player's moves, the streak and the reveal."""

    #: Where puzzles are computed: a worker process started on first use (a test may put
    #: a thread pool here).
    puzzle_executor: Executor | None = None
    _puzzle_ahead: asyncio.Task[None] | None = None

    def puzzle_today(self) -> dt.date:
        return dt.datetime.fromtimestamp(self.clock(), dt.UTC).date()

    def _puzzle_pool(self) -> Executor:
        if self.puzzle_executor is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a threaded event loop
            self.puzzle_executor = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
        return self.puzzle_executor

    async def puzzle_of(self, day: dt.date) -> Puzzle:
        """The puzzle of ``day``, computed once per process (in the puzzle worker) and kept;
        serving today's starts tomorrow's."""
        p = await self._compute_puzzle(day)
        if day == self.puzzle_today():
            self._puzzle_in_advance(day + dt.timedelta(days=1))
        return p

    async def _compute_puzzle(self, day: dt.date) -> Puzzle:
        hit = _cache.get(day)
        if hit is not None:
            return hit
        pending = _computing.get(day)
        if pending is None:
            loop = asyncio.get_running_loop()
            pending = loop.run_in_executor(self._puzzle_pool(), daily_puzzle, day)
            _computing[day] = pending
        try:
            p = await asyncio.shield(pending)
        finally:
            if pending.done():
                _computing.pop(day, None)
        _cache[day] = p
        for old in sorted(_cache)[:-_KEPT]:
            del _cache[old]
        return p

    def _puzzle_in_advance(self, *days: dt.date) -> None:
        """Compute ``days`` in the background, one after the other, unless already kept or
        under way."""
        wanted = [d for d in days if d not in _cache and d not in _computing]
        if not wanted or self._closing:
            return
        if self._puzzle_ahead is not None and not self._puzzle_ahead.done():
            return  # the running one serves the next call

        async def ahead() -> None:
            for d in wanted:
                try:
                    await self._compute_puzzle(d)
                except Exception:
                    log.exception("computing the puzzle of %s in advance failed", d)

        self._puzzle_ahead = asyncio.get_running_loop().create_task(
            ahead(), name="durak-puzzle-ahead"
        )

    async def warm_puzzles(self) -> None:
        """At start: when this bot served a puzzle today or yesterday (its servers play
        them), compute today's and tomorrow's before anyone asks."""
        today = self.puzzle_today()
        if any([await self.storage.puzzle_served(today - dt.timedelta(days=d)) for d in (0, 1)]):
            self._puzzle_in_advance(today, today + dt.timedelta(days=1))

    async def stop_puzzles(self) -> None:
        """Stop computing in advance and let the worker process go."""
        task, self._puzzle_ahead = self._puzzle_ahead, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        pool, self.puzzle_executor = self.puzzle_executor, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
            _computing.clear()  # futures of this pool and loop: nobody else may await them

    async def _state(self, p: Puzzle, attempt: PuzzleAttempt, last: int) -> PuzzleState:
        g, moves = _replay(p, attempt.moves)
        streak = await self.storage.puzzle_streak(
            attempt.guild_id, attempt.user_id, self.puzzle_today()
        )
        return PuzzleState(p, attempt.status, g, moves, moves[len(moves) - last :], streak)

    async def open_puzzle(self, guild_id: int, user_id: int) -> PuzzleState:
        """Today's puzzle for this player: their attempt, started now if new."""
        day = self.puzzle_today()
        p = await self.puzzle_of(day)
        await self.storage.record_puzzle_served(
            day, p.mode, p.seed, str(p.answer), p.grade, p.depth, now=self.clock()
        )
        attempt = await self.storage.start_puzzle_attempt(guild_id, user_id, day, self.clock())
        return await self._state(p, attempt, 0)

    async def puzzle_move(
        self, guild_id: int, user_id: int, day_id: str, step: int, index: int
    ) -> PuzzleState:
        """The player's ``index``-th legal move at ``step`` of the attempt of the day the
        button names. A button of another day, or of a step the attempt has left, is refused
        with a word on where to find the current one."""
        day = _parse_day(day_id)
        if day != self.puzzle_today():
            raise ServiceError("puzzle.error.day_over")
        p = await self.puzzle_of(day)
        attempt = await self.storage.puzzle_attempt(guild_id, user_id, day)
        if attempt is None or attempt.status != "playing" or len(attempt.moves) != step:
            raise ServiceError("puzzle.error.stale")
        g, _ = _replay(p, attempt.moves)
        mover, acts = next_to_move(g)
        if mover != p.seat or not 0 <= index < len(acts):
            raise ServiceError("puzzle.error.stale")
        move = acts[index]
        right, follow = await asyncio.to_thread(_judge, p, g, move, step == 0)
        played = (move, *follow)
        status = ("solved" if _won(g, p.seat) else "playing") if right else "failed"
        after_moves = attempt.moves + tuple(str(a) for a in played)
        if not await self.storage.advance_puzzle_attempt(
            guild_id, user_id, day, attempt.moves, after_moves, status, now=self.clock()
        ):
            raise ServiceError("puzzle.error.stale")
        if status != "playing":
            metrics.PUZZLES_FINISHED.labels(outcome=status).inc()
        moved = PuzzleAttempt(
            guild_id, user_id, day, status, after_moves, attempt.started_at, self.clock()
        )
        return await self._state(p, moved, len(played))

    async def puzzle_solution(self, day_id: str) -> tuple[Puzzle, list[Action]]:
        """A past day's puzzle and its winning line; refused while the day is not over."""
        day = _parse_day(day_id)
        if day >= self.puzzle_today():
            raise ServiceError("puzzle.error.not_yet")
        p = await self.puzzle_of(day)
        return p, await asyncio.to_thread(solution_line, p)

    async def puzzle_streak(self, guild_id: int, user_id: int) -> PuzzleStreak:
        return await self.storage.puzzle_streak(guild_id, user_id, self.puzzle_today())
