"""A guild's house rules for its Discord games: which engine options a server may override,
how "done" is handled at its tables, and the rules a preset gets with those options (a twist
of a catalogue variant included). Shared by the service and the renderers."""

from __future__ import annotations

from typing import Any

from engine import RuleSet
from engine.rules import PRESETS, RuleError
from engine.variants import VARIANTS

from .errors import ServiceError

#: Rule options a guild may override in its house rules (besides seats and deck size).
RULE_OVERRIDES: tuple[str, ...] = ("throw_in", "trump_exchange")
#: How seats with nothing to add are handled at a server's tables (house rule ``done``):
#: ``online`` (the Discord default) passes them over by themselves, ``pagat`` keeps the table
#: etiquette of the rule text, where every attacker still holding cards says "done".
DONE_STYLES: tuple[str, ...] = ("online", "pagat")


def auto_done_for(house_options: dict[str, Any], preset: str | None = None) -> bool:
    """The engine's ``auto_done`` for a new Discord game of a guild.

    On Discord, unlike at a real table, saying "done" costs every seat a click per bout (in a
    4-player game most clicks were such "done"s by seats that could add nothing), so the bot
    plays the online style unless the server asked for pagat's etiquette. It applies to every
    mode: it is a table manner, not a variant, and it is fixed in the game's rules at creation
    so that changing the house rule never alters a game already under way. A catalogue variant
    that cannot be played with it wins (reverse fool: passing a blind player over would show
    them their hand).
    """
    if preset in PRESETS:
        needed = VARIANTS[PRESETS[preset].variant].requires.get("auto_done")
        if needed is not None:
            return bool(needed[0])
    return house_options.get("done", "online") != "pagat"


def rules_for(preset: str, options: dict[str, Any], players: int) -> RuleSet:
    """The rules of ``preset`` with the house-rule ``options`` applied (RuleError if bad)."""
    overrides = {k: options[k] for k in (*RULE_OVERRIDES, "deck_size") if k in options}
    return RuleSet.preset(preset, players=players, **overrides)


def twist_options(
    preset: str, twist: str, overrides: dict[str, Any], deck_size: int, seats: int
) -> dict[str, Any]:
    """The rule options that put catalogue variant ``twist`` on ``preset`` (the variant and
    the option values it needs), or a polite ServiceError with the engine's reason."""
    if twist not in VARIANTS or twist == "none":
        raise ServiceError("error.unknown_twist", twist=twist)
    own = PRESETS[preset].variant
    if own != "none" and own != twist:
        raise ServiceError("error.twist_on_variant", preset=preset, twist=twist)
    try:
        base = rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
        combined = base.with_variant(twist)
    except RuleError as exc:
        raise ServiceError("error.bad_twist", twist=twist, reason=str(exc)) from None
    return combined.diff(base)
