"""What the storage hands out and takes in: errors, row types and their conversion.

Shared by both database backends, so a row read from SQLite and one read from PostgreSQL are
the same Python value. Rows arrive as ``sqlite3.Row`` or ``asyncpg.Record``; both index by
column name and by position, which is all the converters below use (see :class:`Row`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

__all__ = [
    "DEFAULT_TURN_TIMER_SECONDS",
    "FOOL_OUTCOMES",
    "PERIOD_SECONDS",
    "AlreadyInGame",
    "Forfeit",
    "GameNotFound",
    "GameRow",
    "GuildSettings",
    "InvalidGameStatus",
    "LeaderboardEntry",
    "LobbyFull",
    "OutboxRow",
    "PlayerPrefs",
    "ResultEntry",
    "ResultRow",
    "Row",
    "SeatRow",
    "SeatTaken",
    "StaleVersion",
    "StorageError",
    "UserStats",
]

GameStatus = Literal["lobby", "running", "finished", "cancelled"]
Outcome = Literal["fool", "win", "draw", "forfeit", "lost_team"]
ForfeitReason = Literal["left", "timeout"]
Period = Literal["all", "month", "week"]
#: Outcomes that count as "being the fool" (in stats, ratings and streaks): in team games the
#: whole losing team is, and a player who left a running game or was timed out of it (outcome
#: 'forfeit') is counted as the fool of that game *and* as a forfeit, so walking away never
#: protects a record.
FOOL_OUTCOMES: tuple[str, ...] = ("fool", "lost_team", "forfeit")
#: The leaderboards' periods (fools board and rating board). Rolling windows rather than
#: calendar months/weeks: no timezone is right for every guild.
PERIOD_SECONDS: dict[str, float | None] = {"all": None, "month": 30 * 86400.0, "week": 7 * 86400.0}
LeaderboardSort = Literal["fools", "record"]

DEFAULT_TURN_TIMER_SECONDS = 90

# --------------------------------------------------------------------------- errors


class StorageError(Exception):
    """Base class so callers can catch every storage refusal in one place."""


class GameNotFound(StorageError):
    """The game id does not exist (stale button, or the row was purged)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class InvalidGameStatus(StorageError):
    """The operation does not fit the game's current status (e.g. joining a finished game)."""

    def __init__(self, game_id: int, status: str, expected: Iterable[str]) -> None:
        expected_list = sorted(expected)
        super().__init__(f"game {game_id} is {status!r}, expected one of {expected_list}")
        self.game_id = game_id
        self.status = status
        self.expected = tuple(expected_list)


class StaleVersion(StorageError):
    """Someone else advanced the game first; the caller must reload and re-validate."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class AlreadyInGame(StorageError):
    """The user already sits in a lobby or running game (``game_id``), maybe this very one."""

    def __init__(self, user_id: int, game_id: int) -> None:
        super().__init__(f"user {user_id} is already in active game {game_id}")
        self.user_id = user_id
        self.game_id = game_id


class LobbyFull(StorageError):
    """No free seat below ``max_seats``."""

    def __init__(self, game_id: int, max_seats: int) -> None:
        super().__init__(f"game {game_id} is full ({max_seats} seats)")
        self.game_id = game_id
        self.max_seats = max_seats


class SeatTaken(StorageError):
    """An explicit seat number was requested but is occupied."""

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(f"game {game_id}: seat {seat} is taken")
        self.game_id = game_id
        self.seat = seat


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class GameRow:
    """A ``games`` row with JSON columns decoded. ``state_json`` stays a string: only the
    engine knows how to parse it, and keeping it opaque keeps storage engine-independent."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    table_message_id: int | None
    host_id: int
    status: str
    preset: str
    options: dict[str, Any]
    state_json: str | None
    version: int
    created_at: float
    updated_at: float
    finished_at: float | None
    turn_deadline: float | None
    timer_strikes: dict[str, int]
    turn_reminded: bool = False

    @property
    def message_channel_id(self) -> int:
        """Where the table message lives: the thread if the game uses one."""
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat; ``user_id`` is None for a computer player."""

    game_id: int
    seat: int
    user_id: int | None
    ai_difficulty: str | None
    display_name: str
    left_at: float | None

    @property
    def is_ai(self) -> bool:
        """Computer seats have no Discord user behind them."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """Input for :meth:`Storage.finish_game`: one per *human* seat."""

    user_id: int
    seat: int
    outcome: Outcome
    forfeit_text: str | None = None
    forfeit_reason: ForfeitReason | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A stored ``results`` row."""

    game_id: int
    guild_id: int
    user_id: int
    seat: int
    outcome: str
    preset: str
    finished_at: float
    forfeit_text: str | None
    forfeit_reason: str | None = None


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings; a guild with no row gets these defaults without a write."""

    guild_id: int
    locale: str = "en"
    default_preset: str = "podkidnoy"
    default_options: dict[str, Any] = field(default_factory=dict)
    turn_timer_seconds: int = DEFAULT_TURN_TIMER_SECONDS
    #: Each game in its own thread (where the bot may create threads). Until the guild sets
    #: it (``threads_explicit``) it follows :attr:`Storage.default_use_threads`.
    use_threads: bool = True
    default_ai_difficulty: str = "normal"
    allowed_channel_ids: tuple[int, ...] | None = None
    #: False until the guild picks a language: public messages then follow the server's
    #: Discord language rather than ``locale``.
    locale_explicit: bool = False
    #: The table message carries a picture of the table (False: text only).
    pictures: bool = True
    #: False until the guild sets ``threads`` itself.
    threads_explicit: bool = False
    #: Card ranks in each reader's letters (В Д К Т in Russian); False keeps J Q K A.
    local_ranks: bool = True
    #: Spectators' live views trail the table by one move (bot/surfaces/spectators.py).
    spectator_delay: bool = False
    #: Seconds a quick-match player waits before being offered the computer; 0: never
    #: (bot/game/quick_offers.py).
    quick_computer_seconds: int = 0

    def channel_allowed(self, channel_id: int) -> bool:
        """None means no restriction, which is the friendlier default for a new guild."""
        return self.allowed_channel_ids is None or channel_id in self.allowed_channel_ids


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """One user's own preferences, the same on every server; no row means the defaults."""

    user_id: int
    pings: bool = True


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """Something the channel is still owed for an ended game: its final ``table`` or its
    ``result`` announcement, as of game ``version`` (see bot/surfaces/delivery.py)."""

    game_id: int
    kind: str
    version: int


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A forfeit; ``id`` is None (and ``is_default`` True) for built-in, never-edited lists."""

    id: int | None
    text: str
    is_default: bool = False


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """Aggregates over ``results`` for one user in the chosen period.

    ``fools`` counts outcomes ``fool``, ``lost_team`` and ``forfeit`` (see FOOL_OUTCOMES);
    ``forfeits`` counts games the user abandoned or was timed out of (outcome ``forfeit``), so
    a forfeit shows in both columns. ``wins`` = went out before the last player (``win``).
    """

    rank: int
    user_id: int
    games: int
    fools: int
    wins: int
    draws: int
    forfeits: int

    @property
    def fool_rate(self) -> float:
        """Share of games ending as the fool, 0.0–1.0."""
        return self.fools / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class UserStats:
    """Lifetime stats of a user in one guild.

    The streak statistic is the longest run of consecutive games (by finish time) in which the
    user was *not* the fool (``fool``/``lost_team``/``forfeit``: walking away is being the
    fool, so it cannot protect a streak). Draws and wins extend it.
    """

    guild_id: int
    user_id: int
    games: int
    fools: int
    wins: int
    draws: int
    forfeits: int
    favourite_preset: str | None
    longest_fool_free_streak: int
    current_fool_free_streak: int
    last_played_at: float | None

    @property
    def fool_rate(self) -> float:
        """Share of games ending as the fool, 0.0–1.0."""
        return self.fools / self.games if self.games else 0.0


class Row(Protocol):
    """A result row of either backend: ``row["column"]``, ``row[0]`` and ``row.keys()``."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str] | Iterator[str]: ...
