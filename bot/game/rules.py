"""How the service reads the engine's rules for a Discord game: house options and presets,
the seats a game is waiting for, a timed-out seat's safe move, who gets pinged, and
actions parsed from custom_ids. Free functions, shared by the service and the renderers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import Action, ActionKind, Card, Game, RuleSet
from engine.rules import PRESETS, RuleError
from engine.variants import VARIANTS

from .. import storage as st
from .errors import ServiceError
from .models import PingKind

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


def _rules_for(preset: str, options: dict[str, Any], players: int) -> RuleSet:
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
        base = _rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
        combined = base.with_variant(twist)
    except RuleError as exc:
        raise ServiceError("error.bad_twist", twist=twist, reason=str(exc)) from None
    return combined.diff(base)


def waiting_seats(game: Game) -> list[int]:
    """Seats the game is waiting for, defender first: without their move nothing happens.

    The attacker who must lead, the defender facing unbeaten cards (who can always take),
    and attackers who owe a "done" once everything is beaten or the defender takes. An
    attacker who *may* say "done" earlier (waving co-attackers on while cards are unbeaten)
    is not waited for: the defender's answer does not depend on it.
    """
    if game.result is not None:
        return []
    settling = game.taking or not game.unbeaten()
    out: list[int] = []
    for seat in [game.defender, *game.eligible_attackers(), *range(game.n)]:
        if seat in out:
            continue
        acts = game.legal_actions(seat)
        if game.phase == "lead":
            if seat == game.attacker and any(a.kind is ActionKind.ATTACK for a in acts):
                out.append(seat)
        elif any(a.kind is ActionKind.TAKE for a in acts) or (
            settling and any(a.kind is ActionKind.PASS for a in acts)
        ):
            out.append(seat)
    return out


def safe_default(game: Game, seat: int) -> Action | None:
    """The move made for a seat whose time ran out: the one that gives nothing away.

    The defender takes, an attacker who owes a "done" passes, and an attacker who must lead
    leads the lowest card (lowest non-trump, else lowest trump). None if ``seat`` is not
    waited for.
    """
    acts = game.legal_actions(seat)
    for kind in (ActionKind.TAKE, ActionKind.PASS):
        for action in acts:
            if action.kind is kind:
                return action
    leads = [a for a in acts if a.kind is ActionKind.ATTACK and len(a.cards) == 1]
    if leads:
        return min(
            leads,
            key=lambda a: (a.cards[0].suit == game.trump, a.cards[0].rank, a.cards[0].suit),
        )
    return None


def _outcome(result: Any, seat: int) -> st.Outcome:
    """Engine result → stored outcome. ``win`` = went out before the last player (or was on
    the winning team); in team games every member of the losing team is a fool (``fool`` for
    the one left holding cards, ``lost_team`` for the partners)."""
    if result.kind == "draw":
        return "draw"
    if result.kind == "fool":
        return "fool" if seat == result.fool else "win"
    if seat in result.losers:
        return "fool" if seat == result.fool else "lost_team"
    return "win"


def pings_between(before: Game, after: Game) -> list[tuple[int, PingKind]]:
    """Whose turn *became* theirs: a new defender under attack, or a new leader."""
    if after.result is not None:
        return []
    if after.phase == "lead":
        if before.phase != "lead" or before.attacker != after.attacker:
            return [(after.attacker, "lead")]
    elif after.phase == "bout" and (before.phase != "bout" or before.defender != after.defender):
        return [(after.defender, "defend")]
    return []


def parse_action(seat: int, kind: str, cards: Iterable[str]) -> Action:
    """Build an action from custom_id parts; ValueError on anything malformed."""
    try:
        action_kind = ActionKind(kind)
    except ValueError:
        raise ValueError(f"unknown action kind {kind!r}") from None
    parsed = tuple(Card.parse(c) for c in cards)
    if action_kind in (ActionKind.ATTACK, ActionKind.TRANSFER):
        parsed = tuple(sorted(parsed))
    return Action(seat, action_kind, parsed)
