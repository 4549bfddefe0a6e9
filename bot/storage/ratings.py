"""Ratings, seasons, achievements and the rating settings of a server (migration 0008).

Design notes (the *why*):

* Ratings are derived data. :func:`rate_game` reads what a finished game recorded (its
  ``results`` rows, its seats, the final snapshot in ``games.state_json``) and writes the
  rating rows, inside the transaction the caller gives it. The bot calls it in the
  transaction that records the game's results, the backfill calls it for every older game in
  finishing order, and :meth:`RatingStorage.rebuild_ratings` wipes the derived rows and calls
  it again: one code path, so ratings are a pure function of the results (plus two things
  that are not results: when each season started, and whether the server shared its games
  with the cross-server ladder at the time, recorded per game in ``rated_games``).
* Scopes: every rated game updates the server's current season, per mode (``''`` = all
  modes together, and the game's preset), and, when the server opted in, the cross-server
  ladder (``rating_seasons.guild_id = 0``, one season). A server that did not opt in keeps
  its games to itself: nothing of them reaches the cross-server ladder.
* Computer seats are rated entities per level (bot/ratings/model.py), per server and season;
  they never appear on a board (``player_id > 0`` there) but anchor what beating them is worth.
* Written once for both engines, like store.py: portable SQL with ``?`` placeholders run
  through :class:`~bot.storage.dialect.Connection`.
"""

from __future__ import annotations

from typing import Any

from ..ratings import achievements as ach
from ..ratings.model import week_start
from .core import StorageCore
from .dialect import Connection
from .rating_games import backfill, rate_all, rate_game, read_settings
from .rating_rows import (
    ALL_MODES,
    CROSS_SERVER_GUILD,
    DEFAULT_MIN_GAMES,
    BoardEntry,
    GameRating,
    PlayerChange,
    Profile,
    RatingSettings,
    Season,
    season_from_row,
)
from .rows import FOOL_OUTCOMES, PERIOD_SECONDS

__all__ = [
    "ALL_MODES",
    "CROSS_SERVER_GUILD",
    "DEFAULT_MIN_GAMES",
    "BoardEntry",
    "GameRating",
    "PlayerChange",
    "Profile",
    "RatingSettings",
    "RatingStorage",
    "Season",
    "backfill",
    "rate_game",
]


# --------------------------------------------------------------------------- the area


class RatingStorage(StorageCore):
    """Reads and admin writes of ratings, the ratings area of
    :class:`~bot.storage.store.Storage`; one transaction (or read) per method, as every area.

    Its names say ``rating`` (``rating_leaderboard``, ``rating_settings``, ...) because the
    results board and the guild settings have a leaderboard and settings of their own. Rating
    a game is not here but inside ``finish_game``'s transaction (bot/storage/rating_games.py).
    """

    # ----------------------------------------------------------------- settings

    async def rating_settings(self, guild_id: int) -> RatingSettings:
        async with self._read() as conn:
            return await read_settings(conn, guild_id)

    async def update_rating_settings(
        self,
        guild_id: int,
        *,
        min_games: int | None = None,
        cross_server: bool | None = None,
        now: float | None = None,
    ) -> RatingSettings:
        if min_games is not None and not 1 <= min_games <= 1000:
            raise ValueError("min_games must be 1-1000")
        async with self._transaction() as conn:
            old = await read_settings(conn, guild_id)
            new = RatingSettings(
                guild_id,
                old.min_games if min_games is None else min_games,
                old.cross_server if cross_server is None else cross_server,
            )
            await conn.execute(
                "INSERT INTO rating_settings (guild_id, min_games, cross_server, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " min_games = excluded.min_games, cross_server = excluded.cross_server,"
                " updated_at = excluded.updated_at",
                (guild_id, new.min_games, int(new.cross_server), self._now(now)),
            )
        return new

    # ----------------------------------------------------------------- seasons

    async def rating_seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM rating_seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
            ) as cur,
        ):
            return [season_from_row(r) async for r in cur]

    async def current_season(self, guild_id: int) -> Season | None:
        async with self._read() as conn:
            return await self._current_season(conn, guild_id)

    @staticmethod
    async def _current_season(conn: Connection, guild_id: int) -> Season | None:
        async with conn.execute(
            "SELECT * FROM rating_seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else season_from_row(row)

    async def rating_season(self, guild_id: int, number: int) -> Season | None:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM rating_seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else season_from_row(row)

    async def new_season(
        self, guild_id: int, name: str | None = None, *, now: float | None = None
    ) -> Season:
        """End the current season (its table stays, read-only) and start the next one: from
        now on every rating of the server starts over."""
        if guild_id == CROSS_SERVER_GUILD:
            raise ValueError("the cross-server ladder has no seasons")
        ts = self._now(now)
        async with self._transaction() as conn:
            async with conn.execute(
                # No row lock (PostgreSQL refuses FOR UPDATE with an aggregate): two admins at
                # once collide on UNIQUE (guild_id, number) and the second is refused.
                "SELECT COALESCE(MAX(number), 0) FROM rating_seasons WHERE guild_id = ?",
                (guild_id,),
            ) as cur:
                row = await cur.fetchone()
            number = int(row[0]) + 1 if row is not None else 1
            name = (name or "").strip()[:60] or str(number)
            await conn.execute(
                "UPDATE rating_seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL",
                (ts, guild_id),
            )
            season_id = await conn.insert_returning_id(
                "INSERT INTO rating_seasons (guild_id, number, name, started_at)"
                " VALUES (?, ?, ?, ?)",
                (guild_id, number, name, ts),
            )
            assert season_id is not None
        return Season(season_id, guild_id, number, name, ts, None)

    # ----------------------------------------------------------------- a game's rating

    async def game_rating(self, game_id: int) -> GameRating:
        """The rating changes and achievements of one finished game (result message)."""
        async with self._read() as conn:
            async with conn.execute(
                "SELECT r.guild_id, r.rated FROM rated_games r WHERE r.game_id = ?", (game_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None or not row["rated"]:
                return GameRating(game_id, False)
            guild_id = int(row["guild_id"])
            async with conn.execute(
                "SELECT c.player_id, c.place, c.display_before, c.display_after, c.season_id,"
                " (SELECT COUNT(*) FROM rating_changes p WHERE p.season_id = c.season_id"
                "  AND p.mode = c.mode AND p.player_id = c.player_id"
                "  AND p.finished_at <= c.finished_at) AS games"
                " FROM rating_changes c JOIN rating_seasons s ON s.id = c.season_id"
                " WHERE c.game_id = ? AND c.mode = ? AND s.guild_id = ? ORDER BY c.place,"
                " c.player_id",
                (game_id, ALL_MODES, guild_id),
            ) as cur:
                changes = tuple(
                    [
                        PlayerChange(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[5]))
                        async for r in cur
                    ]
                )
            async with conn.execute(
                "SELECT user_id, key FROM achievements WHERE game_id = ? AND guild_id = ?"
                " ORDER BY user_id, earned_at",
                (game_id, guild_id),
            ) as cur:
                found = [(int(r[0]), str(r[1])) async for r in cur]
        order = {a.key: i for i, a in enumerate(ach.ACHIEVEMENTS)}
        earned = tuple(sorted(found, key=lambda e: (e[0], order.get(e[1], 99))))
        return GameRating(game_id, True, changes, earned)

    # ----------------------------------------------------------------- boards

    async def _rating_season_for(
        self, conn: Connection, guild_id: int, number: int | None
    ) -> Season | None:
        if number is None:
            return await self._current_season(conn, guild_id)
        async with conn.execute(
            "SELECT * FROM rating_seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else season_from_row(row)

    async def rating_leaderboard(
        self,
        guild_id: int,
        *,
        season: int | None = None,
        mode: str = ALL_MODES,
        period: str = "all",
        min_games: int = DEFAULT_MIN_GAMES,
        limit: int = 10,
        offset: int = 0,
        cross_server: bool = False,
        now: float | None = None,
    ) -> tuple[Season | None, list[BoardEntry], int]:
        """(season, a page of the rating board, how many are ranked).

        Ranked by the shown rating (ties: more games, then id). ``period`` 'week'/'month'
        ranks the players who played at least ``min_games`` rated games in that window, by
        their rating now, and says how much they gained in it. ``cross_server`` reads the
        cross-server ladder, restricted to players who played in this server (a server sees
        nobody it has never seen).
        """
        if period not in PERIOD_SECONDS:
            raise ValueError(f"period must be one of {sorted(PERIOD_SECONDS)}")
        ts = self._now(now)
        async with self._read() as conn:
            board_guild = CROSS_SERVER_GUILD if cross_server else guild_id
            number = None if cross_server else season
            the_season = await self._rating_season_for(conn, board_guild, number)
            if the_season is None:
                return None, [], 0
            sid = the_season.id
            members = ""
            params: list[Any] = [sid, mode]
            if cross_server:
                members = (
                    " AND r.player_id IN (SELECT player_id FROM ratings m JOIN rating_seasons s"
                    " ON s.id = m.season_id WHERE s.guild_id = ? AND m.mode = ?)"
                )
                params += [guild_id, ALL_MODES]
            span = PERIOD_SECONDS[period]
            if span is None:
                sql = (
                    "SELECT r.player_id, r.name, r.display, r.games, r.week_start,"
                    " r.week_display, r.week_games FROM ratings r"
                    " WHERE r.season_id = ? AND r.mode = ? AND r.player_id > 0"
                    f"{members}"
                )
                async with conn.execute(sql, params) as cur:
                    rows = [r async for r in cur]
                eligible = [r for r in rows if int(r["games"]) >= min_games]
                deltas: dict[int, int] = {}
            else:
                # Players active in the window, their games and rating change in it. The
                # change is a sum: each change starts where the player's previous one ended,
                # so the sum over the window is "rating now - rating before the window".
                sql = (
                    "SELECT c.player_id, COUNT(*) AS n,"
                    " SUM(c.display_after - c.display_before) AS gained"
                    " FROM rating_changes c WHERE c.season_id = ? AND c.mode = ?"
                    " AND c.finished_at >= ?"  # no player_id range: it hid the time index
                    " GROUP BY c.player_id HAVING COUNT(*) >= ?"
                )
                async with conn.execute(sql, (sid, mode, ts - span, min_games)) as cur:
                    deltas = {int(r[0]): int(r[2]) async for r in cur if int(r[0]) > 0}
                rows = []
                if deltas:
                    sql = (
                        "SELECT r.player_id, r.name, r.display, r.games, r.week_start,"
                        " r.week_display, r.week_games FROM ratings r"
                        " WHERE r.season_id = ? AND r.mode = ? AND r.player_id > 0"
                        f"{members}"
                    )
                    async with conn.execute(sql, params) as cur:
                        rows = [r async for r in cur if int(r["player_id"]) in deltas]
                eligible = rows
        this_week = week_start(ts)
        ranked = sorted(
            eligible, key=lambda r: (-int(r["display"]), -int(r["games"]), int(r["player_id"]))
        )
        rank_now = {int(r["player_id"]): i + 1 for i, r in enumerate(ranked)}

        def then(r: Any) -> tuple[int, int]:
            """(rating, games) as the week began."""
            if float(r["week_start"]) < this_week:
                return int(r["display"]), int(r["games"])
            return int(r["week_display"]), int(r["week_games"])

        before = sorted(
            ((then(r), int(r["player_id"])) for r in eligible if then(r)[1] >= min_games),
            key=lambda x: (-x[0][0], -x[0][1], x[1]),
        )
        rank_then = {pid: i + 1 for i, (_, pid) in enumerate(before)}
        page = ranked[offset : offset + limit]
        entries = []
        for r in page:
            pid = int(r["player_id"])
            was = rank_then.get(pid)
            entries.append(
                BoardEntry(
                    rank=rank_now[pid],
                    player_id=pid,
                    name=str(r["name"]),
                    display=int(r["display"]),
                    games=int(r["games"]),
                    rank_change=None if was is None else was - rank_now[pid],
                    period_delta=deltas.get(pid),
                )
            )
        return the_season, entries, len(ranked)

    # ----------------------------------------------------------------- profile

    async def rating_profile(
        self, guild_id: int, user_id: int, *, name: str = "", min_games: int = DEFAULT_MIN_GAMES
    ) -> Profile:
        """A player's profile in this server (rating of the current season, lifetime stats).
        ``rank`` is the place on the rating board, None while under ``min_games``."""
        async with self._read() as conn:
            season = await self._current_season(conn, guild_id)
            p = Profile(guild_id, user_id, name, season)
            if season is not None:
                async with conn.execute(
                    "SELECT name, display, best_display, games FROM ratings"
                    " WHERE season_id = ? AND mode = ? AND player_id = ?",
                    (season.id, ALL_MODES, user_id),
                ) as cur:
                    row = await cur.fetchone()
                if row is not None:
                    p.name = p.name or str(row["name"])
                    p.display, p.best_display = int(row["display"]), int(row["best_display"])
                    p.rated_games = int(row["games"])
                    async with conn.execute(
                        "SELECT COUNT(*) FROM ratings WHERE season_id = ? AND mode = ?"
                        " AND player_id > 0 AND games >= ?"
                        " AND (display > ? OR (display = ? AND games > ?)"
                        " OR (display = ? AND games = ? AND player_id < ?))",
                        (
                            season.id,
                            ALL_MODES,
                            min_games,
                            p.display,
                            p.display,
                            p.rated_games,
                            p.display,
                            p.rated_games,
                            user_id,
                        ),
                    ) as cur:
                        above = await cur.fetchone()
                    if above is not None and p.rated_games >= min_games:
                        p.rank = int(above[0]) + 1
                    async with conn.execute(
                        "SELECT display_after FROM rating_changes WHERE season_id = ? AND mode = ?"
                        " AND player_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT 40",
                        (season.id, ALL_MODES, user_id),
                    ) as cur:
                        p.history = [int(r[0]) async for r in cur][::-1]
                    p.beats, p.loses_to = await _rivals(conn, season.id, user_id)
            async with conn.execute(
                "SELECT outcome, preset FROM results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY finished_at, game_id",
                (guild_id, user_id),
            ) as cur:
                rows = [(str(r[0]), str(r[1])) async for r in cur]
            async with conn.execute(
                "SELECT key, earned_at FROM achievements WHERE guild_id = ? AND user_id = ?"
                " ORDER BY earned_at DESC, key",
                (guild_id, user_id),
            ) as cur:
                p.achievements = [(str(r[0]), float(r[1])) async for r in cur]
        p.games = len(rows)
        p.fools = sum(o in FOOL_OUTCOMES for o, _ in rows)
        p.forfeits = sum(o == "forfeit" for o, _ in rows)
        p.draws = sum(o == "draw" for o, _ in rows)
        counts: dict[str, int] = {}
        last: dict[str, int] = {}
        for i, (_, preset) in enumerate(rows):
            counts[preset] = counts.get(preset, 0) + 1
            last[preset] = i
        p.by_mode = sorted(counts.items(), key=lambda kv: (-kv[1], -last[kv[0]]))
        p.favourite_mode = p.by_mode[0][0] if p.by_mode else None
        run = 0
        for outcome, _ in rows:
            run = 0 if outcome in FOOL_OUTCOMES else run + 1
            p.best_streak = max(p.best_streak, run)
        p.current_streak = run
        return p

    # ----------------------------------------------------------------- maintenance

    async def rebuild_ratings(self) -> int:
        """Forget every derived row and rate all finished games again, in finishing order.
        Seasons, settings and each game's cross-server flag are kept, so the result is the
        same ratings (tests check it; an operator may run it after fixing a rule)."""
        async with self._transaction() as conn:
            async with conn.execute("SELECT game_id, cross_server FROM rated_games") as cur:
                cross = {int(r[0]): bool(r[1]) async for r in cur}
            for table in (
                "rating_changes",
                "ratings",
                "achievements",
                "rating_players",
                "rated_games",
            ):
                await conn.execute(f"DELETE FROM {table}")
            rated = await rate_all(conn, cross)
            # Not derived from games: a tournament's winner keeps the champion achievement.
            await conn.execute(
                "INSERT INTO achievements (guild_id, user_id, key, game_id, earned_at)"
                " SELECT guild_id, winner_id, 'tournament_win', 0, finished_at FROM tournaments"
                " WHERE status = 'finished' AND winner_id IS NOT NULL ON CONFLICT DO NOTHING"
            )
            return rated


async def _rivals(
    conn: Connection, season_id: int, user_id: int
) -> tuple[list[tuple[int, str, int]], list[tuple[int, str, int]]]:
    """The humans this player finished ahead of / behind most often this season."""
    async with conn.execute(
        "SELECT o.player_id,"
        " SUM(CASE WHEN me.place < o.place THEN 1 ELSE 0 END) AS ahead,"
        " SUM(CASE WHEN me.place > o.place THEN 1 ELSE 0 END) AS behind"
        # CROSS JOIN: SQLite keeps this order (this player's games first, then the others
        # at each of them); left to choose, it scanned every change of the season.
        " FROM rating_changes me CROSS JOIN rating_changes o"
        " WHERE o.season_id = me.season_id AND o.mode = me.mode AND o.game_id = me.game_id"
        " AND o.player_id <> me.player_id"
        " AND me.season_id = ? AND me.mode = ? AND me.player_id = ?"
        " GROUP BY o.player_id",
        (season_id, ALL_MODES, user_id),
    ) as cur:
        rows = [(int(r[0]), int(r[1]), int(r[2])) async for r in cur if int(r[0]) > 0]
    ids = [r[0] for r in rows]
    names: dict[int, str] = {}
    if ids:
        marks = ", ".join("?" for _ in ids)
        async with conn.execute(
            f"SELECT player_id, name FROM ratings WHERE season_id = ? AND mode = ?"
            f" AND player_id IN ({marks})",
            (season_id, ALL_MODES, *ids),
        ) as cur:
            names = {int(r[0]): str(r[1]) async for r in cur}
    beats = sorted(
        ((pid, names.get(pid, ""), a) for pid, a, _ in rows if a), key=lambda x: (-x[2], x[0])
    )
    loses = sorted(
        ((pid, names.get(pid, ""), b) for pid, _, b in rows if b), key=lambda x: (-x[2], x[0])
    )
    return beats[:3], loses[:3]
