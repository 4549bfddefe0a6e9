"""The daily puzzle's rows on both backends: one attempt a day, moves written once, streaks."""

from __future__ import annotations

import datetime as dt

from bot.storage import Storage
from bot.storage.puzzles import streak_of

DAY = dt.date(2026, 11, 20)


async def test_an_attempt_is_created_once_and_moves_are_written_once(storage: Storage) -> None:
    first = await storage.start_puzzle_attempt(5, 1, DAY)
    again = await storage.start_puzzle_attempt(5, 1, DAY)
    assert first == again and first.status == "playing" and first.moves == ()
    assert await storage.advance_puzzle_attempt(5, 1, DAY, (), ("0 attack 6s", "1 take"), "playing")
    # a second click made on the older message finds the moves moved on: nothing written
    assert not await storage.advance_puzzle_attempt(5, 1, DAY, (), ("0 attack 7s",), "playing")
    moves = ("0 attack 6s", "1 take", "0 pass")
    assert await storage.advance_puzzle_attempt(5, 1, DAY, moves[:2], moves, "solved")
    done = await storage.puzzle_attempt(5, 1, DAY)
    assert done is not None and done.status == "solved" and done.moves == moves
    assert done.finished_at is not None
    # over is over: no move after the end, and another server's attempt is its own
    assert not await storage.advance_puzzle_attempt(5, 1, DAY, moves, (*moves, "x"), "failed")
    assert await storage.puzzle_attempt(6, 1, DAY) is None


async def test_the_streak_counts_solved_days_in_a_row_on_this_server(storage: Storage) -> None:
    for offset, status in ((-3, "solved"), (-2, "failed"), (-1, "solved"), (0, "solved")):
        day = DAY + dt.timedelta(days=offset)
        await storage.start_puzzle_attempt(5, 1, day)
        assert await storage.advance_puzzle_attempt(5, 1, day, (), ("0 take",), status)
    streak = await storage.puzzle_streak(5, 1, DAY)
    assert (streak.current, streak.best, streak.solved) == (2, 2, 3)
    assert (await storage.puzzle_streak(7, 1, DAY)).solved == 0


async def test_the_first_serving_of_a_day_is_kept(storage: Storage) -> None:
    await storage.record_puzzle_served(DAY, "podkidnoy", "s/1", "0 take", "easy", 2)
    await storage.record_puzzle_served(DAY, "podkidnoy", "s/2", "0 pass", "hard", 5)
    assert await storage.puzzle_served(DAY) == ("podkidnoy", "s/1", "0 take")
    assert await storage.puzzle_served(DAY + dt.timedelta(days=1)) is None


def test_a_streak_survives_until_the_day_after_its_last_solve() -> None:
    days = [DAY - dt.timedelta(days=i) for i in (1, 2, 3, 5)]
    assert streak_of(days, DAY).current == 3  # today not solved yet: still running
    assert streak_of(days, DAY + dt.timedelta(days=1)).current == 0
    assert streak_of(days, DAY).best == 3 and streak_of([], DAY).current == 0
