"""Ratings, seasons, achievements and the rating settings of a server (migration 0008).

Design notes (the *why*):

* Ratings are derived data. :func:`rate_game` reads what a finished game recorded (its
  ``results`` rows, its seats, the final snapshot in ``games.state_json``) and writes the
  rating rows, inside the transaction the caller gives it. The bot calls it in the
  transaction that records the game's results, the backfill calls it for every older game in
  finishing order, and :meth:`RatingStore.rebuild` wipes the derived rows and calls it again:
  one code path, so ratings are a pure function of the results (plus two things that are not
  results: when each season started, and whether the server shared its games with the
  cross-server ladder at the time, recorded per game in ``rated_games``).
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

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rules import PRESETS

from ..ratings import achievements as ach
from ..ratings.model import (
    PROVISIONAL_GAMES,
    Participant,
    Placed,
    Skill,
    Tier,
    computer_id,
    out_groups_from_events,
    placements,
    rate,
    tier_of,
    week_start,
)
from .backend import Database
from .dialect import Connection

__all__ = [
    "ALL_MODES",
    "CROSS_SERVER_GUILD",
    "DEFAULT_MIN_GAMES",
    "BoardEntry",
    "GameRating",
    "PlayerChange",
    "Profile",
    "RatingSettings",
    "RatingStore",
    "Season",
    "backfill",
    "rate_game",
]

#: ``rating_seasons.guild_id`` of the cross-server ladder.
CROSS_SERVER_GUILD = 0
#: ``ratings.mode`` of the rating over every mode together.
ALL_MODES = ""
DEFAULT_MIN_GAMES = 5
_FOOL_OUTCOMES = ("fool", "lost_team", "forfeit")
#: Periods of the rating board (rolling windows, as the fools board has).
PERIOD_SECONDS: dict[str, float | None] = {"all": None, "month": 30 * 86400.0, "week": 7 * 86400.0}


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    number: int
    name: str
    started_at: float
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class RatingSettings:
    guild_id: int
    #: Rated games a player needs before appearing on the rating board.
    min_games: int = DEFAULT_MIN_GAMES
    #: The server shares its games with the cross-server ladder and may show it.
    cross_server: bool = False


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """One player's rating change in one game (the result message's ``+12``)."""

    player_id: int
    place: int
    before: int
    after: int
    games: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class GameRating:
    """What a finished game did to the server's ratings (empty when it was not rated)."""

    game_id: int
    rated: bool
    changes: tuple[PlayerChange, ...] = ()
    #: (user id, achievement key) earned by this game.
    achievements: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class BoardEntry:
    rank: int
    player_id: int
    name: str
    display: int
    games: int
    #: Places moved since Monday 00:00 UTC (positive: up); None: not on the board then.
    rank_change: int | None = None
    #: Rating gained in the chosen period (period boards only).
    period_delta: int | None = None

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def tier(self) -> Tier:
        return tier_of(self.display)


@dataclass(slots=True)
class Profile:
    """Everything ``/durak profile`` shows, as data (the card and the text both read it)."""

    guild_id: int
    user_id: int
    name: str
    season: Season | None
    display: int | None = None
    best_display: int | None = None
    rated_games: int = 0
    rank: int | None = None
    history: list[int] = field(default_factory=list)
    games: int = 0
    fools: int = 0
    forfeits: int = 0
    draws: int = 0
    by_mode: list[tuple[str, int]] = field(default_factory=list)
    current_streak: int = 0
    best_streak: int = 0
    favourite_mode: str | None = None
    #: (player id, name, times) - the players this one finished ahead of / behind most.
    beats: list[tuple[int, str, int]] = field(default_factory=list)
    loses_to: list[tuple[int, str, int]] = field(default_factory=list)
    #: (key, earned_at), newest first.
    achievements: list[tuple[str, float]] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES

    @property
    def tier(self) -> Tier | None:
        return None if self.display is None else tier_of(self.display)

    @property
    def fool_rate(self) -> float:
        return self.fools / self.games if self.games else 0.0

    @property
    def not_fool_rate(self) -> float:
        return 1.0 - self.fool_rate if self.games else 0.0


# --------------------------------------------------------------------------- rating a game


async def _settings(conn: Connection, guild_id: int) -> RatingSettings:
    async with conn.execute(
        "SELECT min_games, cross_server FROM rating_settings WHERE guild_id = ?", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return RatingSettings(guild_id)
    return RatingSettings(guild_id, int(row[0]), bool(row[1]))


async def _season_at(conn: Connection, guild_id: int, ts: float) -> int:
    """The season of ``guild_id`` a game finished at ``ts`` belongs to; a server's first
    rated game opens its season 1 (backfilled games: the oldest one)."""
    async with conn.execute(
        "SELECT id FROM rating_seasons WHERE guild_id = ? AND started_at <= ?"
        " AND (ended_at IS NULL OR ended_at > ?) ORDER BY number DESC LIMIT 1",
        (guild_id, ts, ts),
    ) as cur:
        row = await cur.fetchone()
    if row is not None:
        return int(row[0])
    async with conn.execute(
        "SELECT id FROM rating_seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is not None:  # a game older than the open season's start (clock skew): rate it there
        return int(row[0])
    season_id = await conn.insert_returning_id(
        "INSERT INTO rating_seasons (guild_id, number, name, started_at)"
        " SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ? FROM rating_seasons WHERE guild_id = ?",
        (guild_id, "1", ts, guild_id),
    )
    assert season_id is not None
    return season_id


def _participants(
    seats: Sequence[Any], outcomes: Mapping[int, str]
) -> tuple[list[Participant], dict[int, str]]:
    """Rated entities at the table and their names (computers by level)."""
    people: list[Participant] = []
    names: dict[int, str] = {}
    for s in seats:
        seat = int(s["seat"])
        if s["user_id"] is not None:
            outcome = outcomes.get(seat)
            if outcome is None:
                continue  # no result row: nothing to rate
            pid = int(s["user_id"])
            people.append(Participant(pid, seat, forfeit=outcome == "forfeit"))
            names[pid] = str(s["display_name"])
        elif s["ai_difficulty"] is not None:
            pid = computer_id(str(s["ai_difficulty"]))
            people.append(Participant(pid, seat))
            names[pid] = f"computer:{s['ai_difficulty']}"
    return people, names


def _order_of(
    snapshot: Mapping[str, Any],
) -> tuple[Mapping[str, Any] | None, list[list[int]], bool, int]:
    """(engine result, who went out together in order, team game?, seats) from a snapshot."""
    game = snapshot.get("game") or {}
    result = game.get("result")
    order = list(result.get("finish_order", ())) if result else list(game.get("out", ()))
    groups = snapshot.get("out_groups")
    if groups is None:
        groups = out_groups_from_events(snapshot.get("events") or (), order)
    teams = (game.get("rules") or {}).get("teams", "none") != "none"
    return result, [list(map(int, g)) for g in groups], teams, len(game.get("hands") or ())


async def _count_results(conn: Connection, guild_id: int, seats: Sequence[Any]) -> None:
    """Move on every human's counts of results (rated game or not)."""
    rows = []
    for s in seats:
        outcome = s["outcome"]
        if s["user_id"] is None or outcome is None:
            continue
        rows.append(
            (
                guild_id,
                int(s["user_id"]),
                int(outcome in _FOOL_OUTCOMES),
                int(outcome == "win"),
                int(outcome == "draw"),
                int(outcome == "forfeit"),
            )
        )
    await conn.executemany(
        "INSERT INTO rating_players (guild_id, user_id, results, fools, wins, draws, forfeits)"
        " VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " results = rating_players.results + 1,"
        " fools = rating_players.fools + excluded.fools,"
        " wins = rating_players.wins + excluded.wins,"
        " draws = rating_players.draws + excluded.draws,"
        " forfeits = rating_players.forfeits + excluded.forfeits",
        rows,
    )


async def rate_game(
    conn: Connection, game_id: int, *, cross_server: bool | None = None
) -> GameRating:
    """Rate one finished game inside the caller's transaction (idempotent: a game already
    rated is left alone). ``cross_server`` overrides the server's setting (the rebuild uses
    what was recorded when the game was first rated)."""
    async with conn.execute("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)) as cur:
        if await cur.fetchone() is not None:
            return GameRating(game_id, False)
    async with conn.execute(
        "SELECT guild_id, preset, state_json, finished_at, status FROM games WHERE id = ?",
        (game_id,),
    ) as cur:
        g = await cur.fetchone()
    if g is None or g["status"] != "finished":
        return GameRating(game_id, False)
    guild_id, preset, ts = int(g["guild_id"]), str(g["preset"]), float(g["finished_at"])
    async with conn.execute(
        "SELECT s.seat, s.user_id, s.ai_difficulty, s.display_name, r.outcome"
        " FROM game_seats s LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
        " WHERE s.game_id = ? ORDER BY s.seat",
        (game_id,),
    ) as cur:
        seats = [r async for r in cur]
    outcomes = {int(r["seat"]): str(r["outcome"]) for r in seats if r["outcome"] is not None}
    await _count_results(conn, guild_id, seats)
    people, names = _participants(seats, outcomes)
    try:
        snapshot = json.loads(g["state_json"] or "{}")
    except ValueError:
        snapshot = {}
    result, groups, teams, n_seats = _order_of(snapshot)
    placed = placements(people, result, groups, teams=teams, n_seats=n_seats)
    if cross_server is None:
        cross_server = (await _settings(conn, guild_id)).cross_server
    await conn.execute(
        "INSERT INTO rated_games (game_id, guild_id, finished_at, rated, cross_server)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, guild_id, ts, int(bool(placed)), int(cross_server)),
    )
    if not placed:
        return GameRating(game_id, False)
    season_id = await _season_at(conn, guild_id, ts)
    changes: list[PlayerChange] = []
    for mode in (ALL_MODES, preset):
        rows = await _update_scope(conn, season_id, mode, game_id, placed, names, ts)
        if mode == ALL_MODES:
            changes = rows
    if cross_server:
        ladder = await _season_at(conn, CROSS_SERVER_GUILD, ts)
        for mode in (ALL_MODES, preset):
            await _update_scope(conn, ladder, mode, game_id, placed, names, ts)
    earned = await _award(conn, guild_id, game_id, preset, ts, placed, changes, outcomes, teams)
    return GameRating(game_id, True, tuple(changes), tuple(earned))


_UPSERT_RATING = (
    "INSERT INTO ratings (season_id, mode, player_id, name, mu, sigma, display, best_display,"
    " games, updated_at, week_start, week_display, week_games)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (season_id, mode, player_id) DO UPDATE SET name = excluded.name,"
    " mu = excluded.mu, sigma = excluded.sigma, display = excluded.display,"
    " best_display = excluded.best_display, games = excluded.games,"
    " updated_at = excluded.updated_at, week_start = excluded.week_start,"
    " week_display = excluded.week_display, week_games = excluded.week_games"
)
_INSERT_CHANGE = (
    "INSERT INTO rating_changes (season_id, mode, game_id, player_id, place, mu_before,"
    " sigma_before, mu_after, sigma_after, display_before, display_after, finished_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def _update_scope(
    conn: Connection,
    season_id: int,
    mode: str,
    game_id: int,
    placed: Sequence[Placed],
    names: Mapping[int, str],
    ts: float,
) -> list[PlayerChange]:
    """One scope's update: three statements whatever the table size (the backfill runs this
    for every old game, so statements per player would multiply its time)."""
    ids = sorted({m.player_id for p in placed for m in p.members})
    marks = ", ".join("?" for _ in ids)
    async with conn.execute(
        "SELECT player_id, mu, sigma, games, best_display, week_start, week_display, week_games,"
        f" display FROM ratings WHERE season_id = ? AND mode = ? AND player_id IN ({marks})"
        + conn.for_update,
        (season_id, mode, *ids),
    ) as cur:
        current = {int(r["player_id"]): r async for r in cur}
    skills = {pid: Skill(float(r["mu"]), float(r["sigma"])) for pid, r in current.items()}
    updates = rate(placed, skills)
    place_of = {m.player_id: p.place for p in placed for m in p.members}
    week = week_start(ts)
    out: list[PlayerChange] = []
    upserts: list[tuple[Any, ...]] = []
    inserts: list[tuple[Any, ...]] = []
    for pid in ids:
        before, after = updates[pid]
        d_before, d_after = before.display, after.display
        row = current.get(pid)
        if row is None:
            games, best, week_display, week_games = 1, d_after, d_before, 0
        else:
            games = int(row["games"]) + 1
            best = max(int(row["best_display"]), d_after)
            # The first game of a new week remembers where the player stood before it.
            if float(row["week_start"]) < week:
                week_display, week_games = int(row["display"]), games - 1
            else:
                week_display, week_games = int(row["week_display"]), int(row["week_games"])
        upserts.append(
            (
                season_id,
                mode,
                pid,
                names.get(pid, ""),
                after.mu,
                after.sigma,
                d_after,
                best,
                games,
                ts,
                week,
                week_display,
                week_games,
            )
        )
        inserts.append(
            (
                season_id,
                mode,
                game_id,
                pid,
                place_of[pid],
                before.mu,
                before.sigma,
                after.mu,
                after.sigma,
                d_before,
                d_after,
                ts,
            )
        )
        out.append(PlayerChange(pid, place_of[pid], d_before, d_after, games))
    await conn.executemany(_UPSERT_RATING, upserts)
    await conn.executemany(_INSERT_CHANGE, inserts)
    return out


async def _award(
    conn: Connection,
    guild_id: int,
    game_id: int,
    preset: str,
    ts: float,
    placed: Sequence[Placed],
    changes: Sequence[PlayerChange],
    outcomes: Mapping[int, str],
    teams: bool,
) -> list[tuple[int, str]]:
    """Achievements this game earns its human players (server-wide, across seasons).

    The player's running record (games, streaks, modes played) is kept in ``rating_players``
    and moved on here, so this costs the same at a player's thousandth game as at the first.
    """
    by_player = {c.player_id: c for c in changes}
    shared: dict[int, int] = {}
    for p in placed:
        shared[p.place] = shared.get(p.place, 0) + len(p.members)
    everyone = [(m, p.place) for p in placed for m in p.members]
    humans = sorted(
        m.player_id for m, _ in everyone if m.player_id > 0 and m.player_id in by_player
    )
    if not humans:
        return []
    marks = ", ".join("?" for _ in humans)
    async with conn.execute(
        "SELECT user_id, rated, streak, fools_in_row, presets FROM rating_players"
        f" WHERE guild_id = ? AND user_id IN ({marks})" + conn.for_update,
        (guild_id, *humans),
    ) as cur:
        records = {int(r[0]): (int(r[1]), int(r[2]), int(r[3]), str(r[4])) async for r in cur}
    async with conn.execute(
        f"SELECT user_id, key FROM achievements WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *humans),
    ) as cur:
        held: dict[int, set[str]] = {}
        async for r in cur:
            held.setdefault(int(r[0]), set()).add(str(r[1]))
    earned: list[tuple[int, str]] = []
    new_records: list[tuple[Any, ...]] = []
    all_presets = frozenset(PRESETS)
    for member, place in everyone:
        pid = member.player_id
        if pid not in humans:
            continue
        games, streak, in_row, presets_json = records.get(pid, (0, 0, 0, "[]"))
        outcome = outcomes.get(member.seat, "win")
        fool = outcome in _FOOL_OUTCOMES
        presets = frozenset(json.loads(presets_json)) | {preset}
        change = by_player[pid]
        facts = ach.PlayerGame(
            player_id=pid,
            place=place,
            place_shared=shared[place],
            players=len(everyone),
            teams=teams,
            outcome=outcome,
            preset=preset,
            display_before=change.before,
            display_after=change.after,
            opponents=tuple(
                (m.player_id, by_player[m.player_id].before if m.player_id in by_player else 0, pl)
                for m, pl in everyone
                if m.player_id != pid
            ),
            games=games + 1,
            streak=0 if fool else streak + 1,
            fools_in_row_before=in_row,
            presets_played=presets,
            all_presets=all_presets,
        )
        new_records.append(
            (
                facts.games,
                facts.streak,
                in_row + 1 if fool else 0,
                json.dumps(sorted(presets), separators=(",", ":")),
                guild_id,
                pid,
            )
        )
        earned += [(pid, key) for key in ach.earned(facts, held.get(pid, ()))]
    await conn.executemany(  # the rows exist: _count_results wrote them first
        "UPDATE rating_players SET rated = ?, streak = ?, fools_in_row = ?, presets = ?"
        " WHERE guild_id = ? AND user_id = ?",
        new_records,
    )
    if earned:
        await conn.executemany(
            "INSERT INTO achievements (guild_id, user_id, key, game_id, earned_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(guild_id, pid, key, game_id, ts) for pid, key in earned],
        )
    return earned


async def backfill(db: Database) -> int:
    """Rate every finished game not rated yet, oldest first, if migration 0008 asked for it
    (``rating_jobs``). One transaction: an interrupted backfill is redone whole. Returns the
    number of games looked at."""
    async with db.transaction() as conn:
        async with conn.execute(
            "SELECT name FROM rating_jobs WHERE name = 'backfill'" + conn.for_update
        ) as cur:
            if await cur.fetchone() is None:
                return 0
        done = await _rate_all(conn, {})
        await conn.execute("DELETE FROM rating_jobs WHERE name = 'backfill'")
    return done


async def _rate_all(conn: Connection, cross: Mapping[int, bool]) -> int:
    async with conn.execute(
        "SELECT g.id FROM games g WHERE g.status = 'finished'"
        " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
        " ORDER BY g.finished_at, g.id"
    ) as cur:
        ids = [int(r[0]) async for r in cur]
    for game_id in ids:
        await rate_game(conn, game_id, cross_server=cross.get(game_id, False))
    return len(ids)


# --------------------------------------------------------------------------- the service


class RatingStore:
    """Reads and admin writes of ratings; one transaction (or read) per method, as Storage."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    # ----------------------------------------------------------------- settings

    async def settings(self, guild_id: int) -> RatingSettings:
        async with self._db.read() as conn:
            return await _settings(conn, guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        min_games: int | None = None,
        cross_server: bool | None = None,
        now: float | None = None,
    ) -> RatingSettings:
        if min_games is not None and not 1 <= min_games <= 1000:
            raise ValueError("min_games must be 1-1000")
        async with self._db.transaction() as conn:
            old = await _settings(conn, guild_id)
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

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        async with (
            self._db.read() as conn,
            conn.execute(
                "SELECT * FROM rating_seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
            ) as cur,
        ):
            return [_season(r) async for r in cur]

    async def current_season(self, guild_id: int) -> Season | None:
        async with self._db.read() as conn:
            return await self._current(conn, guild_id)

    @staticmethod
    async def _current(conn: Connection, guild_id: int) -> Season | None:
        async with conn.execute(
            "SELECT * FROM rating_seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _season(row)

    async def season(self, guild_id: int, number: int) -> Season | None:
        async with (
            self._db.read() as conn,
            conn.execute(
                "SELECT * FROM rating_seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else _season(row)

    async def new_season(
        self, guild_id: int, name: str | None = None, *, now: float | None = None
    ) -> Season:
        """End the current season (its table stays, read-only) and start the next one: from
        now on every rating of the server starts over."""
        if guild_id == CROSS_SERVER_GUILD:
            raise ValueError("the cross-server ladder has no seasons")
        ts = self._now(now)
        async with self._db.transaction() as conn:
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
        async with self._db.read() as conn:
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

    async def _season_for(
        self, conn: Connection, guild_id: int, number: int | None
    ) -> Season | None:
        if number is None:
            return await self._current(conn, guild_id)
        async with conn.execute(
            "SELECT * FROM rating_seasons WHERE guild_id = ? AND number = ?", (guild_id, number)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _season(row)

    async def leaderboard(
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
        async with self._db.read() as conn:
            board_guild = CROSS_SERVER_GUILD if cross_server else guild_id
            the_season = await self._season_for(conn, board_guild, None if cross_server else season)
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

    async def profile(
        self, guild_id: int, user_id: int, *, name: str = "", min_games: int = DEFAULT_MIN_GAMES
    ) -> Profile:
        """A player's profile in this server (rating of the current season, lifetime stats).
        ``rank`` is the place on the rating board, None while under ``min_games``."""
        async with self._db.read() as conn:
            season = await self._current(conn, guild_id)
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
        p.fools = sum(o in _FOOL_OUTCOMES for o, _ in rows)
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
            run = 0 if outcome in _FOOL_OUTCOMES else run + 1
            p.best_streak = max(p.best_streak, run)
        p.current_streak = run
        return p

    # ----------------------------------------------------------------- maintenance

    async def rebuild(self) -> int:
        """Forget every derived row and rate all finished games again, in finishing order.
        Seasons, settings and each game's cross-server flag are kept, so the result is the
        same ratings (tests check it; an operator may run it after fixing a rule)."""
        async with self._db.transaction() as conn:
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
            return await _rate_all(conn, cross)


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


def _season(row: Any) -> Season:
    return Season(
        int(row["id"]),
        int(row["guild_id"]),
        int(row["number"]),
        str(row["name"]),
        float(row["started_at"]),
        None if row["ended_at"] is None else float(row["ended_at"]),
    )


def changes_by_player(rating: GameRating) -> dict[int, PlayerChange]:
    return {c.player_id: c for c in rating.changes}


def achievements_by_player(rating: GameRating) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for pid, key in rating.achievements:
        out.setdefault(pid, []).append(key)
    return out
