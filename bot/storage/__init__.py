"""Persistent storage of lobbies, games, results, guild settings and forfeits.

A package so that each part has a name that says what it is; ``from bot import storage as st``
and every ``st.X`` of the single-module days keep working through the re-exports below.
"""

from __future__ import annotations

from .store import *  # noqa: F403 - the public names, as listed in store.__all__
from .store import (
    AI_DIFFICULTIES,
    DEFAULT_TURN_TIMER_SECONDS,
    FOOL_OUTCOMES,
    FORFEIT_REASONS,
    LOCALES,
    OUTCOMES,
    PERIOD_SECONDS,
    ForfeitReason,
    GameStatus,
    LeaderboardSort,
    Outcome,
    Period,
)
from .store import __all__ as _store_all
from .store import _dumps as _dumps  # used by bot/rematch_store.py, written like store.py

__all__ = [
    *_store_all,
    "AI_DIFFICULTIES",
    "DEFAULT_TURN_TIMER_SECONDS",
    "FOOL_OUTCOMES",
    "FORFEIT_REASONS",
    "LOCALES",
    "OUTCOMES",
    "PERIOD_SECONDS",
    "ForfeitReason",
    "GameStatus",
    "LeaderboardSort",
    "Outcome",
    "Period",
]
