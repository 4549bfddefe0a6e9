"""Statistics read from the results table: the guild leaderboard and a player's own stats."""

from __future__ import annotations

from collections.abc import Sequence

from .core import StorageCore
from .rating_games import RATINGS_SCHEMA
from .rows import (
    FOOL_OUTCOMES,
    PERIOD_SECONDS,
    LeaderboardEntry,
    LeaderboardSort,
    Period,
    UserStats,
)

__all__ = ["StatsStorage"]


def _streaks(outcomes: Sequence[str]) -> tuple[int, int]:
    """(longest, current) run of games without a fool/forfeit outcome, in the given order."""
    longest = current = 0
    for outcome in outcomes:
        if outcome in FOOL_OUTCOMES:
            current = 0
        else:
            current += 1
            longest = max(longest, current)
    return longest, current


class StatsStorage(StorageCore):
    """Leaderboard and statistics queries of :class:`~bot.storage.store.Storage`."""

    def _period_start(self, period: str, now: float | None) -> float | None:
        if period not in PERIOD_SECONDS:
            raise ValueError(f"period must be one of {sorted(PERIOD_SECONDS)}, got {period!r}")
        span = PERIOD_SECONDS[period]
        return None if span is None else self._now(now) - span

    def _window(self, period: str, now: float | None) -> tuple[str, tuple[float, ...]]:
        """The WHERE condition of a period (empty for 'all') and its parameters.

        Built in Python rather than as ``? IS NULL OR ...``: PostgreSQL cannot tell the type
        of a parameter that is only compared with NULL.
        """
        start = self._period_start(period, now)
        if start is None:
            return "", ()
        return " AND finished_at >= ? AND finished_at <= ?", (start, self._now(now))

    async def leaderboard(
        self,
        guild_id: int,
        period: Period = "all",
        sort: LeaderboardSort = "fools",
        limit: int = 10,
        offset: int = 0,
        now: float | None = None,
        *,
        min_games: int = 1,
    ) -> list[LeaderboardEntry]:
        """A page of the guild leaderboard.

        ``period``: rolling windows - 'week' = last 7 days, 'month' = last 30 days, up to
        ``now``. ``sort='fools'`` is the hall of shame: most fools first (ties: higher fool
        rate, then more games). ``sort='record'`` is the best record: lowest fool rate first
        (ties: more games, more wins); use ``min_games`` to keep one-game wonders out of it.
        Ties finally break by user id so pagination is stable.
        """
        if sort == "fools":
            order = "fools DESC, fool_rate DESC, games DESC, user_id"
        elif sort == "record":
            order = "fool_rate ASC, games DESC, wins DESC, user_id"
        else:
            raise ValueError(f"sort must be 'fools' or 'record', got {sort!r}")
        window, window_params = self._window(period, now)
        if not window and self._db.schema_version >= RATINGS_SCHEMA:
            # All time: the counts kept per player (migration 0008) rather than adding up
            # every result row of the server (614 ms at 100,000 results, bench/ratings_board.py).
            sql = (
                "SELECT user_id, results AS games, fools, wins, draws, forfeits,"
                " CAST(fools AS DOUBLE PRECISION) / results AS fool_rate"
                " FROM rating_players WHERE guild_id = ? AND results >= ?"
                f" ORDER BY {order} LIMIT ? OFFSET ?"
            )
            params: tuple[object, ...] = (guild_id, max(min_games, 1), limit, offset)
            async with self._read() as conn, conn.execute(sql, params) as cur:
                rows = [r async for r in cur]
            return [
                LeaderboardEntry(
                    rank=offset + i + 1,
                    user_id=r["user_id"],
                    games=r["games"],
                    fools=r["fools"],
                    wins=r["wins"],
                    draws=r["draws"],
                    forfeits=r["forfeits"],
                )
                for i, r in enumerate(rows)
            ]
        # CASE rather than SUM(boolean), which PostgreSQL has no SUM of; DOUBLE PRECISION is
        # a float in both engines (PostgreSQL's REAL is single precision).
        fools = "SUM(CASE WHEN outcome IN ('fool', 'lost_team', 'forfeit') THEN 1 ELSE 0 END)"
        sql = (
            f"SELECT user_id, COUNT(*) AS games, {fools} AS fools,"
            " SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS wins,"
            " SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS draws,"
            " SUM(CASE WHEN outcome = 'forfeit' THEN 1 ELSE 0 END) AS forfeits,"
            f" CAST({fools} AS DOUBLE PRECISION) / COUNT(*) AS fool_rate"
            f" FROM results WHERE guild_id = ?{window}"
            " GROUP BY user_id HAVING COUNT(*) >= ?"
            f" ORDER BY {order} LIMIT ? OFFSET ?"
        )
        params = (guild_id, *window_params, min_games, limit, offset)
        async with self._read() as conn, conn.execute(sql, params) as cur:
            rows = [r async for r in cur]
        return [
            LeaderboardEntry(
                rank=offset + i + 1,
                user_id=r["user_id"],
                games=r["games"],
                fools=r["fools"],
                wins=r["wins"],
                draws=r["draws"],
                forfeits=r["forfeits"],
            )
            for i, r in enumerate(rows)
        ]

    async def leaderboard_size(
        self,
        guild_id: int,
        period: Period = "all",
        now: float | None = None,
        *,
        min_games: int = 1,
    ) -> int:
        """Number of ranked users, for "page X of Y"."""
        window, window_params = self._window(period, now)
        if not window and self._db.schema_version >= RATINGS_SCHEMA:
            async with (
                self._read() as conn,
                conn.execute(
                    "SELECT COUNT(*) FROM rating_players WHERE guild_id = ? AND results >= ?",
                    (guild_id, max(min_games, 1)),
                ) as cur,
            ):
                row = await cur.fetchone()
            return int(row[0]) if row is not None else 0
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT COUNT(*) FROM (SELECT user_id FROM results WHERE guild_id = ?"
                f"{window} GROUP BY user_id HAVING COUNT(*) >= ?) AS ranked",
                (guild_id, *window_params, min_games),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def user_stats(self, guild_id: int, user_id: int) -> UserStats:
        """Lifetime stats in a guild; see :class:`UserStats` for the streak definition.

        Favourite preset = most played; ties go to the most recently played one.
        """
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT outcome, preset, finished_at FROM results"
                " WHERE guild_id = ? AND user_id = ? ORDER BY finished_at, game_id",
                (guild_id, user_id),
            ) as cur,
        ):
            rows = [(str(r[0]), str(r[1]), float(r[2])) async for r in cur]
        outcomes = [r[0] for r in rows]
        preset_counts: dict[str, tuple[int, float]] = {}
        for _, preset, finished in rows:
            count, _last = preset_counts.get(preset, (0, 0.0))
            preset_counts[preset] = (count + 1, finished)
        favourite = max(preset_counts, key=lambda p: preset_counts[p]) if preset_counts else None
        longest, current = _streaks(outcomes)
        return UserStats(
            guild_id=guild_id,
            user_id=user_id,
            games=len(rows),
            fools=sum(o in FOOL_OUTCOMES for o in outcomes),
            wins=outcomes.count("win"),
            draws=outcomes.count("draw"),
            forfeits=outcomes.count("forfeit"),
            favourite_preset=favourite,
            longest_fool_free_streak=longest,
            current_fool_free_streak=current,
            last_played_at=rows[-1][2] if rows else None,
        )
