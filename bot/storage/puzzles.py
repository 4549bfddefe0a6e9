"""The daily puzzle's rows (tables ``puzzles_served`` and ``puzzle_attempts``).

A player has one attempt a day per server: the row is created when the puzzle is first
shown to them (so looking, leaving and coming back is the same attempt), and each move is
written with the moves it followed (``WHERE moves = ?``), so a double click or a click on
an older message cannot apply a move twice. The streak counts days solved in a row, ending
today or yesterday (a streak is not lost before the day it could still be extended is over).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .core import StorageCore

__all__ = ["PuzzleAttempt", "PuzzleStorage", "PuzzleStreak", "streak_of"]

STATUSES = frozenset({"playing", "solved", "failed"})


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    guild_id: int
    user_id: int
    day: dt.date
    status: str
    #: every move since the puzzle's position, in notation with the seat
    moves: tuple[str, ...]
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class PuzzleStreak:
    #: days solved in a row, ending today or yesterday
    current: int
    best: int
    solved: int


def _moves(text: str) -> tuple[str, ...]:
    return tuple(m for m in text.split(";") if m)


def streak_of(days: list[dt.date], today: dt.date) -> PuzzleStreak:
    """The streak over solved ``days`` (any order), as of ``today``."""
    ordered = sorted(set(days))
    best = run = 0
    previous: dt.date | None = None
    for d in ordered:
        run = run + 1 if previous is not None and (d - previous).days == 1 else 1
        best = max(best, run)
        previous = d
    current = run if previous is not None and (today - previous).days <= 1 else 0
    return PuzzleStreak(current, best, len(ordered))


class PuzzleStorage(StorageCore):
    """Daily puzzle operations of :class:`~bot.storage.store.Storage`."""

    async def record_puzzle_served(
        self,
        day: dt.date,
        mode: str,
        seed: str,
        answer: str,
        grade: str,
        depth: int,
        now: float | None = None,
    ) -> None:
        """Keep the first serving of a day (the same puzzle every time it is computed)."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO puzzles_served (day, mode, seed, answer, grade, depth, served_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day) DO NOTHING",
                (day.isoformat(), mode, seed, answer, grade, depth, self._now(now)),
            )

    async def puzzle_served(self, day: dt.date) -> tuple[str, str, str] | None:
        """(mode, seed, answer) as served on ``day``, or None if it never was."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT mode, seed, answer FROM puzzles_served WHERE day = ?", (day.isoformat(),)
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else (row["mode"], row["seed"], row["answer"])

    async def start_puzzle_attempt(
        self, guild_id: int, user_id: int, day: dt.date, now: float | None = None
    ) -> PuzzleAttempt:
        """The player's attempt of ``day``, created (status playing, no moves) if new."""
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO puzzle_attempts (guild_id, user_id, day, status, moves, started_at)"
                " VALUES (?, ?, ?, 'playing', '', ?)"
                " ON CONFLICT (guild_id, user_id, day) DO NOTHING",
                (guild_id, user_id, day.isoformat(), self._now(now)),
            )
        attempt = await self.puzzle_attempt(guild_id, user_id, day)
        assert attempt is not None
        return attempt

    async def puzzle_attempt(
        self, guild_id: int, user_id: int, day: dt.date
    ) -> PuzzleAttempt | None:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT status, moves, started_at, finished_at FROM puzzle_attempts"
                " WHERE guild_id = ? AND user_id = ? AND day = ?",
                (guild_id, user_id, day.isoformat()),
            ) as cur,
        ):
            row = await cur.fetchone()
        if row is None:
            return None
        return PuzzleAttempt(
            guild_id,
            user_id,
            day,
            row["status"],
            _moves(row["moves"]),
            float(row["started_at"]),
            None if row["finished_at"] is None else float(row["finished_at"]),
        )

    async def advance_puzzle_attempt(
        self,
        guild_id: int,
        user_id: int,
        day: dt.date,
        before: tuple[str, ...],
        after: tuple[str, ...],
        status: str,
        now: float | None = None,
    ) -> bool:
        """Write the moves ``after`` over ``before``; False (nothing written) when the attempt
        is no longer at ``before`` or is over: the click came from an older message."""
        if status not in STATUSES:
            raise ValueError(f"unknown puzzle status {status!r}")
        finished = None if status == "playing" else self._now(now)
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE puzzle_attempts SET moves = ?, status = ?, finished_at = ?"
                " WHERE guild_id = ? AND user_id = ? AND day = ? AND moves = ?"
                " AND status = 'playing'",
                (
                    ";".join(after),
                    status,
                    finished,
                    guild_id,
                    user_id,
                    day.isoformat(),
                    ";".join(before),
                ),
            )
            return cur.rowcount == 1

    async def puzzle_streak(self, guild_id: int, user_id: int, today: dt.date) -> PuzzleStreak:
        """The player's solved days in this server, as a streak (see :func:`streak_of`)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT day FROM puzzle_attempts"
                " WHERE guild_id = ? AND user_id = ? AND status = 'solved'",
                (guild_id, user_id),
            ) as cur,
        ):
            rows = await cur.fetchall()
        return streak_of([dt.date.fromisoformat(r["day"]) for r in rows], today)
