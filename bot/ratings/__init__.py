"""Skill ratings, tiers and achievements: pure functions over what finished games recorded.

* :mod:`.model` - the finishing order of a deal as ranked teams, OpenSkill's update, the
  number shown and its named tier.
* :mod:`.achievements` - which achievements a player's game earns, from facts storage
  gathers (no Discord, no database, no clock).

Storage (``bot/storage/ratings.py``) reads the results, calls these, and writes ratings in
the transaction that records the game, so ratings are a pure function of the results.
"""

from __future__ import annotations

from .model import (
    COMPUTER_IDS,
    PROVISIONAL_GAMES,
    TIERS,
    Participant,
    Placed,
    Skill,
    Tier,
    computer_id,
    display_rating,
    is_computer,
    out_groups_from_events,
    placements,
    rate,
    record_outs,
    tier_of,
    week_start,
)

__all__ = [
    "COMPUTER_IDS",
    "PROVISIONAL_GAMES",
    "TIERS",
    "Participant",
    "Placed",
    "Skill",
    "Tier",
    "computer_id",
    "display_rating",
    "is_computer",
    "out_groups_from_events",
    "placements",
    "rate",
    "record_outs",
    "tier_of",
    "week_start",
]
