"""Rating one finished game, and the backfill of the games finished before migration 0008.

:func:`rate_game` reads what a finished game recorded (its ``results`` rows, its seats, the
final snapshot in ``games.state_json``) and writes the rating rows inside the transaction it
is given: the one that records the game's results, or the backfill's, or a rebuild's. One
code path, so the same results always give the same ratings. Every statement here is a
constant number per game (never one per player or per row of history): the backfill runs it
for every old game of a server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.rules import PRESETS

from ..ratings import achievements as ach
from ..ratings.model import (
    Participant,
    Placed,
    Skill,
    computer_id,
    out_groups_from_events,
    placements,
    rate,
    week_start,
)
from .backend import Database
from .dialect import Connection
from .rating_rows import (
    ALL_MODES,
    CROSS_SERVER_GUILD,
    GameRating,
    PlayerChange,
    RatingSettings,
)
from .rows import FOOL_OUTCOMES

__all__ = ["RATINGS_SCHEMA", "backfill", "rate_all", "rate_game", "read_settings"]

#: The schema version that has the rating tables (migration 0008); databases held at an
#: older one (only the migration tests do that) record results without rating them.
RATINGS_SCHEMA = 8

# --------------------------------------------------------------------------- rating a game


async def read_settings(conn: Connection, guild_id: int) -> RatingSettings:
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
    # No season at all yet. Two processes finishing a server's first games at once may both
    # get here: ON CONFLICT keeps the loser's transaction alive (on PostgreSQL a failed
    # statement would abort it, and with it the game's last move), and it reads the winner's.
    season_id = await conn.insert_returning_id(
        "INSERT INTO rating_seasons (guild_id, number, name, started_at) VALUES (?, 1, '1', ?)"
        " ON CONFLICT DO NOTHING",
        (guild_id, ts),
    )
    if season_id is not None:
        return season_id
    async with conn.execute(
        "SELECT id FROM rating_seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


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
                int(outcome in FOOL_OUTCOMES),
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
        # A game finished by a very old build may lack finished_at; its last update is when.
        "SELECT guild_id, preset, state_json, COALESCE(finished_at, updated_at) AS finished_at,"
        " status FROM games WHERE id = ?",
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
    # A game someone played with the hard player's hints (migration 0009) measures the
    # hints as much as the player: it is counted in the results but not rated.
    async with conn.execute(
        "SELECT 1 FROM game_hints WHERE game_id = ? AND hints > 0", (game_id,)
    ) as cur:
        hinted = await cur.fetchone() is not None
    placed = [] if hinted else placements(people, result, groups, teams=teams, n_seats=n_seats)
    if cross_server is None:
        cross_server = (await read_settings(conn, guild_id)).cross_server
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
        fool = outcome in FOOL_OUTCOMES
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
        done = await rate_all(conn, {})
        await conn.execute("DELETE FROM rating_jobs WHERE name = 'backfill'")
    return done


async def rate_all(conn: Connection, cross: Mapping[int, bool]) -> int:
    async with conn.execute(
        "SELECT g.id FROM games g WHERE g.status = 'finished'"
        " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
        " ORDER BY COALESCE(g.finished_at, g.updated_at), g.id"
    ) as cur:
        ids = [int(r[0]) async for r in cur]
    for game_id in ids:
        await rate_game(conn, game_id, cross_server=cross.get(game_id, False))
    return len(ids)
