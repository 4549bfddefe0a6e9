"""A player's past games and two players' record against each other (``/durak history``,
``/durak profile vs``).

Both read ``results`` (every finished game a human played, whether rated or not) and join the
server's own rating rows where there are some: a game played while ratings were off, or one
the ratings skipped, still shows, only without a place or a rating change. The place of an
unrated game is not guessed: only "fool" or "not the fool" is known for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .core import StorageCore
from .rating_rows import ALL_MODES
from .rows import FOOL_OUTCOMES

__all__ = ["HeadToHead", "HistoryEntry", "HistorySeat", "HistoryStorage", "SharedGame"]

#: The server's own rating rows of a game (never the cross-server ladder's, guild 0).
_CHANGE = (
    "LEFT JOIN rating_changes {c} ON {c}.game_id = {r}.game_id AND {c}.player_id = {r}.user_id"
    " AND {c}.mode = ? AND {c}.season_id IN (SELECT id FROM rating_seasons WHERE guild_id = ?)"
)


@dataclass(frozen=True, slots=True)
class HistorySeat:
    """Who sat at a past game: a member (``user_id``) or a computer (``ai``)."""

    seat: int
    name: str
    user_id: int | None
    ai: str | None


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game as one player lived it."""

    game_id: int
    preset: str
    finished_at: float
    outcome: str
    seats: tuple[HistorySeat, ...]
    #: Finishing place (1 = first out) when the game was rated, else None.
    place: int | None = None
    rating_before: int | None = None
    rating_after: int | None = None

    @property
    def fool(self) -> bool:
        return self.outcome in FOOL_OUTCOMES


@dataclass(frozen=True, slots=True)
class SharedGame:
    """A game two players both played: their outcomes, places and ratings after it."""

    game_id: int
    finished_at: float
    outcome_a: str
    outcome_b: str
    place_a: int | None
    place_b: int | None
    rating_a: int | None
    rating_b: int | None

    @property
    def ahead(self) -> int:
        """1: the first player finished ahead, -1: the second, 0: neither can be said (a
        draw, or an unrated game where neither or both were the fool)."""
        if self.place_a is not None and self.place_b is not None:
            return (self.place_a < self.place_b) - (self.place_a > self.place_b)
        fool_a, fool_b = self.outcome_a in FOOL_OUTCOMES, self.outcome_b in FOOL_OUTCOMES
        return int(fool_b) - int(fool_a)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' shared games in a server, oldest first."""

    user_a: int
    user_b: int
    games: tuple[SharedGame, ...] = field(default=())

    @property
    def ahead_a(self) -> int:
        return sum(g.ahead > 0 for g in self.games)

    @property
    def ahead_b(self) -> int:
        return sum(g.ahead < 0 for g in self.games)

    @property
    def fools_a(self) -> int:
        return sum(g.outcome_a in FOOL_OUTCOMES for g in self.games)

    @property
    def fools_b(self) -> int:
        return sum(g.outcome_b in FOOL_OUTCOMES for g in self.games)


class HistoryStorage(StorageCore):
    """Past games of :class:`~bot.storage.store.Storage`."""

    async def player_games(
        self, guild_id: int, user_id: int, *, offset: int, limit: int
    ) -> tuple[list[HistoryEntry], int]:
        """A page of the finished games ``user_id`` played here, newest first, and how many
        there are in all."""
        async with self._read() as conn:
            async with conn.execute(
                "SELECT COUNT(*) FROM results WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ) as cur:
                row = await cur.fetchone()
            total = int(row[0]) if row is not None else 0
            async with conn.execute(
                "SELECT r.game_id, r.preset, r.finished_at, r.outcome, c.place,"
                " c.display_before, c.display_after FROM results r "
                + _CHANGE.format(c="c", r="r")
                + " WHERE r.guild_id = ? AND r.user_id = ?"
                " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ? OFFSET ?",
                (ALL_MODES, guild_id, guild_id, user_id, limit, offset),
            ) as cur:
                rows = [r async for r in cur]
            seats: dict[int, list[HistorySeat]] = {}
            if rows:
                marks = ", ".join("?" for _ in rows)
                async with conn.execute(
                    "SELECT game_id, seat, display_name, user_id, ai_difficulty FROM game_seats"
                    f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                    tuple(int(r[0]) for r in rows),
                ) as cur:
                    async for s in cur:
                        seats.setdefault(int(s[0]), []).append(
                            HistorySeat(
                                int(s[1]),
                                str(s[2]),
                                None if s[3] is None else int(s[3]),
                                None if s[4] is None else str(s[4]),
                            )
                        )
        entries = [
            HistoryEntry(
                int(r[0]),
                str(r[1]),
                float(r[2]),
                str(r[3]),
                tuple(seats.get(int(r[0]), ())),
                None if r[4] is None else int(r[4]),
                None if r[5] is None else int(r[5]),
                None if r[6] is None else int(r[6]),
            )
            for r in rows
        ]
        return entries, total

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        """Every finished game here that both players played, oldest first."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT a.game_id, a.finished_at, a.outcome, b.outcome, ca.place, cb.place,"
                " ca.display_after, cb.display_after FROM results a"
                " JOIN results b ON b.game_id = a.game_id AND b.user_id = ? "
                + _CHANGE.format(c="ca", r="a")
                + " "
                + _CHANGE.format(c="cb", r="b")
                + " WHERE a.guild_id = ? AND a.user_id = ?"
                " ORDER BY a.finished_at, a.game_id",
                (user_b, ALL_MODES, guild_id, ALL_MODES, guild_id, guild_id, user_a),
            ) as cur,
        ):
            games = tuple(
                [
                    SharedGame(
                        int(r[0]),
                        float(r[1]),
                        str(r[2]),
                        str(r[3]),
                        *(None if v is None else int(v) for v in (r[4], r[5], r[6], r[7])),
                    )
                    async for r in cur
                ]
            )
        return HeadToHead(user_a, user_b, games)
