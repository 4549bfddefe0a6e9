"""Persistent storage of lobbies, games, results, guild settings and forfeits.

A package so that each part has a name that says what it is; ``from bot import storage as st``
and every ``st.X`` of the single-module days keep working through the re-exports below.
"""

from __future__ import annotations

from .core import ACTIVE_STATUSES, AI_DIFFICULTIES, FORFEIT_REASONS, OUTCOMES
from .forfeits import DEFAULT_FORFEITS
from .migrations import MIGRATIONS_DIR, Migration, load_migrations
from .outbox import OUTBOX_KINDS
from .rows import (
    DEFAULT_TURN_TIMER_SECONDS,
    FOOL_OUTCOMES,
    PERIOD_SECONDS,
    AlreadyInGame,
    Forfeit,
    ForfeitReason,
    GameNotFound,
    GameRow,
    GameStatus,
    GuildSettings,
    InvalidGameStatus,
    LeaderboardEntry,
    LeaderboardSort,
    LobbyFull,
    OutboxRow,
    Outcome,
    Period,
    PlayerPrefs,
    ResultEntry,
    ResultRow,
    SeatRow,
    SeatTaken,
    StaleVersion,
    StorageError,
    UserStats,
)
from .settings import LOCALES
from .store import Storage
from .tournaments import TournamentRow, TournamentSettings, TournamentTableRow
from .url import DatabaseUrl, parse_database_url

__all__ = [
    "ACTIVE_STATUSES",
    "AI_DIFFICULTIES",
    "DEFAULT_FORFEITS",
    "DEFAULT_TURN_TIMER_SECONDS",
    "FOOL_OUTCOMES",
    "FORFEIT_REASONS",
    "LOCALES",
    "MIGRATIONS_DIR",
    "OUTBOX_KINDS",
    "OUTCOMES",
    "PERIOD_SECONDS",
    "AlreadyInGame",
    "DatabaseUrl",
    "Forfeit",
    "ForfeitReason",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "InvalidGameStatus",
    "LeaderboardEntry",
    "LeaderboardSort",
    "LobbyFull",
    "Migration",
    "OutboxRow",
    "Outcome",
    "Period",
    "PlayerPrefs",
    "ResultEntry",
    "ResultRow",
    "SeatRow",
    "SeatTaken",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TournamentRow",
    "TournamentSettings",
    "TournamentTableRow",
    "UserStats",
    "load_migrations",
    "parse_database_url",
]
