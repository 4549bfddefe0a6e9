"""Tournaments without Discord, storage or a clock: pairings, scores, tie-breaks, brackets.

:mod:`.logic` holds the pure rules (the service's tournament flow in
:mod:`bot.game.tournaments` stores and runs them); every rule is documented where it lives
and summed up for players in docs/playing.md.
"""

from __future__ import annotations

from .logic import (
    FORMATS,
    Entrant,
    Standing,
    Table,
    elimination_round,
    elimination_rounds,
    elimination_winner,
    place_points,
    standings,
    swiss_round,
    table_sizes,
)

__all__ = [
    "FORMATS",
    "Entrant",
    "Standing",
    "Table",
    "elimination_round",
    "elimination_rounds",
    "elimination_winner",
    "place_points",
    "standings",
    "swiss_round",
    "table_sizes",
]
