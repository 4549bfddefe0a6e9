"""The rows of the ratings feature (migration 0008) as the rest of the bot sees them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..ratings.model import PROVISIONAL_GAMES, Tier, tier_of

__all__ = [
    "ALL_MODES",
    "CROSS_SERVER_GUILD",
    "DEFAULT_MIN_GAMES",
    "BoardEntry",
    "GameRating",
    "PlayerChange",
    "Profile",
    "RatingSettings",
    "Season",
    "season_from_row",
]

#: ``rating_seasons.guild_id`` of the cross-server ladder.
CROSS_SERVER_GUILD = 0
#: ``ratings.mode`` of the rating over every mode together.
ALL_MODES = ""
DEFAULT_MIN_GAMES = 5


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


def season_from_row(row: Any) -> Season:
    return Season(
        int(row["id"]),
        int(row["guild_id"]),
        int(row["number"]),
        str(row["name"]),
        float(row["started_at"]),
        None if row["ended_at"] is None else float(row["ended_at"]),
    )
