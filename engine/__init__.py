"""Durak rules engine: pure, deterministic, no I/O.

>>> from engine import Game, RuleSet
>>> g = Game.new(RuleSet.preset("perevodnoy"), seed=1)
>>> acts = g.legal_actions(g.attacker)
>>> events = g.apply(acts[0])
"""

from .actions import Action, ActionKind, ActionParseError, Event
from .cards import Card, CardError
from .game import Game, IllegalAction, InvalidPosition, Result
from .observation import SPECTATOR, Observation
from .rules import PRESET_DESCRIPTIONS, PRESETS, RuleError, RuleSet

__all__ = [
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "SPECTATOR",
    "Action",
    "ActionKind",
    "ActionParseError",
    "Card",
    "CardError",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidPosition",
    "Observation",
    "Result",
    "RuleError",
    "RuleSet",
]
