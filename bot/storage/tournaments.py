"""Tournaments (migration 0010): sign-ups, rounds, tables and their points, the settings.

The rules (who meets whom, who leads) are pure functions in :mod:`bot.tournaments.logic`;
this area only keeps what they are computed from, so a restart rebuilds any round exactly.
A round and all its tables are written in one transaction, and a table's points only once
(``points IS NULL`` in the update), so a game result seen twice (live and again at a
restart) scores once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .core import StorageCore
from .dialect import Connection
from .rows import Row, StorageError

__all__ = [
    "TOURNAMENT_ACHIEVEMENT",
    "TournamentRow",
    "TournamentSettings",
    "TournamentStorage",
    "TournamentTableRow",
]

#: The achievement a tournament's winner earns (bot/ratings/achievements.py lists it).
TOURNAMENT_ACHIEVEMENT = "tournament_win"


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    anyone_may_open: bool = False
    turn_seconds: int = 120


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    preset: str
    format: str
    rounds: int
    seats: int
    starts_at: float
    round: int
    message_id: int | None
    locale: str
    winner_id: int | None


@dataclass(frozen=True, slots=True)
class TournamentPlayerRow:
    user_id: int
    display_name: str
    rating: int | None
    joined_at: float
    dropped: bool


@dataclass(frozen=True, slots=True)
class TournamentTableRow:
    round: int
    number: int
    players: tuple[int, ...]
    game_id: int | None
    points: dict[int, float] | None


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        int(row["id"]),
        int(row["guild_id"]),
        int(row["channel_id"]),
        int(row["creator_id"]),
        str(row["status"]),
        str(row["preset"]),
        str(row["format"]),
        int(row["rounds"]),
        int(row["seats"]),
        float(row["starts_at"]),
        int(row["round"]),
        None if row["message_id"] is None else int(row["message_id"]),
        str(row["locale"]),
        None if row["winner_id"] is None else int(row["winner_id"]),
    )


def _table(row: Row) -> TournamentTableRow:
    points = row["points"]
    return TournamentTableRow(
        int(row["round"]),
        int(row["number"]),
        tuple(int(p) for p in json.loads(row["players"])),
        None if row["game_id"] is None else int(row["game_id"]),
        None if points is None else {int(k): float(v) for k, v in json.loads(points).items()},
    )


class TournamentStorage(StorageCore):
    """Tournament operations of :class:`~bot.storage.store.Storage`."""

    # ----------------------------------------------------------------- settings

    async def tournament_settings(self, guild_id: int) -> TournamentSettings:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT anyone_may_open, turn_seconds FROM tournament_settings WHERE guild_id = ?",
                (guild_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        if row is None:
            return TournamentSettings()
        return TournamentSettings(bool(row[0]), int(row[1]))

    async def update_tournament_settings(
        self, guild_id: int, *, anyone_may_open: bool | None = None, turn_seconds: int | None = None
    ) -> TournamentSettings:
        current = await self.tournament_settings(guild_id)
        anyone = current.anyone_may_open if anyone_may_open is None else anyone_may_open
        seconds = current.turn_seconds if turn_seconds is None else turn_seconds
        if not 15 <= seconds <= 3600:
            raise ValueError("turn_seconds must be 15-3600")
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO tournament_settings (guild_id, anyone_may_open, turn_seconds,"
                " updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " anyone_may_open = excluded.anyone_may_open,"
                " turn_seconds = excluded.turn_seconds, updated_at = excluded.updated_at",
                (guild_id, int(anyone), seconds, self.clock()),
            )
        return TournamentSettings(anyone, seconds)

    # ----------------------------------------------------------------- tournaments

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        *,
        preset: str,
        format: str,
        rounds: int,
        seats: int,
        starts_at: float,
        locale: str,
    ) -> int:
        ts = self.clock()
        async with self._transaction() as conn:
            tid = await conn.insert_returning_id(
                "INSERT INTO tournaments (guild_id, channel_id, creator_id, preset, format,"
                " rounds, seats, starts_at, locale, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    creator_id,
                    preset,
                    format,
                    rounds,
                    seats,
                    starts_at,
                    locale,
                    ts,
                ),
            )
        assert tid is not None
        return tid

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        async with (
            self._read() as conn,
            conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else _tournament(row)

    async def guild_tournaments(
        self, guild_id: int, statuses: Iterable[str] = ("signup", "running")
    ) -> list[TournamentRow]:
        wanted = tuple(statuses)
        marks = ", ".join("?" for _ in wanted)
        async with (
            self._read() as conn,
            conn.execute(
                f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
                (guild_id, *wanted),
            ) as cur,
        ):
            return [_tournament(r) async for r in cur]

    async def load_tournaments(self) -> list[TournamentRow]:
        """Every tournament still signing up or running (restored at a restart)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM tournaments WHERE status IN ('signup', 'running') ORDER BY id"
            ) as cur,
        ):
            return [_tournament(r) async for r in cur]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def cancel_tournament(self, tournament_id: int) -> bool:
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE tournaments SET status = 'cancelled', finished_at = ?"
                " WHERE id = ? AND status IN ('signup', 'running')",
                (self.clock(), tournament_id),
            )
            return cur.rowcount == 1

    # ----------------------------------------------------------------- players

    async def tournament_join(self, tournament_id: int, user_id: int, name: str) -> bool:
        """Sign up (False: already signed up). Only while signing up."""
        async with self._transaction() as conn:
            await self._require_signup(conn, tournament_id)
            cur = await conn.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, display_name, joined_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tournament_id, user_id, name, self.clock()),
            )
            return cur.rowcount == 1

    async def tournament_leave(self, tournament_id: int, user_id: int) -> bool:
        """Withdraw: before the start the sign-up goes; after it the player is dropped (no
        more tables, kept in the standings). False: not signed up (or dropped already)."""
        async with self._transaction() as conn:
            async with conn.execute(
                "SELECT status FROM tournaments WHERE id = ?" + conn.for_update, (tournament_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None or row[0] not in ("signup", "running"):
                raise StorageError("tournament is over")
            if row[0] == "signup":
                cur = await conn.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
            else:
                cur = await conn.execute(
                    "UPDATE tournament_players SET dropped = 1"
                    " WHERE tournament_id = ? AND user_id = ? AND dropped = 0",
                    (tournament_id, user_id),
                )
            return cur.rowcount == 1

    @staticmethod
    async def _require_signup(conn: Connection, tournament_id: int) -> None:
        async with conn.execute(
            "SELECT status FROM tournaments WHERE id = ?" + conn.for_update, (tournament_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None or row[0] != "signup":
            raise StorageError("sign-up is closed")

    async def tournament_players(self, tournament_id: int) -> list[TournamentPlayerRow]:
        """Entrants in sign-up order."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT user_id, display_name, rating, joined_at, dropped FROM tournament_players"
                " WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            ) as cur,
        ):
            return [
                TournamentPlayerRow(
                    int(r[0]),
                    str(r[1]),
                    None if r[2] is None else int(r[2]),
                    float(r[3]),
                    bool(r[4]),
                )
                async for r in cur
            ]

    async def display_ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, int]:
        """Each player's shown rating over all modes in the server's current season (a
        player without one is absent)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT r.player_id, r.display FROM ratings r"
                " JOIN rating_seasons s ON s.id = r.season_id"
                " WHERE s.guild_id = ? AND s.ended_at IS NULL AND r.mode = ''"
                f" AND r.player_id IN ({marks})",
                (guild_id, *user_ids),
            ) as cur,
        ):
            return {int(r[0]): int(r[1]) async for r in cur}

    # ----------------------------------------------------------------- rounds

    async def begin_tournament(
        self, tournament_id: int, ratings: Mapping[int, int], rounds: int
    ) -> bool:
        """Close the sign-up: ratings are fixed for seeding, the number of rounds is final."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?"
                " WHERE id = ? AND status = 'signup'",
                (rounds, tournament_id),
            )
            if cur.rowcount != 1:
                return False
            await conn.executemany(
                "UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?",
                [(rating, tournament_id, user) for user, rating in ratings.items()],
            )
            return True

    async def add_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[tuple[Sequence[int], Mapping[int, float] | None]],
    ) -> bool:
        """Write round ``number`` and its tables at once (False: it exists already)."""
        ts = self.clock()
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE tournaments SET round = ?"
                " WHERE id = ? AND round = ? AND status = 'running'",
                (number, tournament_id, number - 1),
            )
            if cur.rowcount != 1:
                return False
            await conn.execute(
                "INSERT INTO tournament_rounds (tournament_id, round, started_at) VALUES (?, ?, ?)",
                (tournament_id, number, ts),
            )
            await conn.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, players, points)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        number,
                        i + 1,
                        json.dumps([int(p) for p in players]),
                        None if points is None else _points_json(points),
                    )
                    for i, (players, points) in enumerate(tables)
                ],
            )
            return True

    async def tournament_tables(self, tournament_id: int) -> list[TournamentTableRow]:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT round, number, players, game_id, points FROM tournament_tables"
                " WHERE tournament_id = ? ORDER BY round, number",
                (tournament_id,),
            ) as cur,
        ):
            return [_table(r) async for r in cur]

    async def set_table_game(
        self, tournament_id: int, number: int, round_no: int, game_id: int
    ) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE tournament_tables SET game_id = ?"
                " WHERE tournament_id = ? AND round = ? AND number = ?",
                (game_id, tournament_id, round_no, number),
            )

    async def score_table(
        self, tournament_id: int, round_no: int, number: int, points: Mapping[int, float]
    ) -> bool:
        """A table's points, written once (False: scored already)."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE tournament_tables SET points = ?"
                " WHERE tournament_id = ? AND round = ? AND number = ? AND points IS NULL",
                (_points_json(points), tournament_id, round_no, number),
            )
            return cur.rowcount == 1

    async def tournament_of_game(self, game_id: int) -> int | None:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT tournament_id FROM tournament_tables WHERE game_id = ?", (game_id,)
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def round_message(self, tournament_id: int, round_no: int) -> int | None:
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT message_id FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
                (tournament_id, round_no),
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None or row[0] is None else int(row[0])

    async def set_round_message(self, tournament_id: int, round_no: int, message_id: int) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE tournament_rounds SET message_id = ? WHERE tournament_id = ? AND round = ?",
                (message_id, tournament_id, round_no),
            )

    async def finish_tournament(
        self, tournament_id: int, winner_id: int | None, game_id: int | None
    ) -> bool:
        """The tournament is over; its winner earns the tournament achievement (kept with the
        tournament's last game, 0 when it had none). False: finished already."""
        ts = self.clock()
        async with self._transaction() as conn:
            async with conn.execute(
                "SELECT guild_id FROM tournaments WHERE id = ? AND status = 'running'"
                + conn.for_update,
                (tournament_id,),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return False
            await conn.execute(
                "UPDATE tournaments SET status = 'finished', winner_id = ?, finished_at = ?"
                " WHERE id = ?",
                (winner_id, ts, tournament_id),
            )
            if winner_id is not None:
                await conn.execute(
                    "INSERT INTO achievements (guild_id, user_id, key, game_id, earned_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (int(row[0]), winner_id, TOURNAMENT_ACHIEVEMENT, game_id or 0, ts),
                )
            return True

    async def tournament_wins(self, guild_id: int, user_id: int) -> int:
        """Tournaments this player won in this server (the profile's line)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND winner_id = ?"
                " AND status = 'finished'",
                (guild_id, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0


def _points_json(points: Mapping[int, float]) -> str:
    return json.dumps({str(k): round(float(v), 6) for k, v in points.items()})
