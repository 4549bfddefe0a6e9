"""Whose turn it is at a Discord table, read from the engine: the seats a game waits for, the
move made for a seat whose time ran out, who gets pinged, and a move as a button names it.
Free functions, shared by the service, the surfaces and the renderers."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Action, ActionKind, Card, Game
from engine.ai.arena import ask_order

from .models import GameSession, PingKind


def waiting_seats(game: Game) -> list[int]:
    """Seats the game is waiting for, in the engine's ask order (defender first while cards are
    on the table): without their move nothing happens.

    The attacker who must lead, the defender facing unbeaten cards (who can always take),
    and attackers who owe a "done" once everything is beaten or the defender takes. An
    attacker who *may* say "done" earlier (waving co-attackers on while cards are unbeaten)
    is not waited for: the defender's answer does not depend on it.
    """
    if game.result is not None:
        return []
    settling = game.taking or not game.unbeaten()
    out: list[int] = []
    for seat in ask_order(game):
        acts = game.legal_actions(seat)
        if game.phase == "lead":
            if seat == game.attacker and any(a.kind is ActionKind.ATTACK for a in acts):
                out.append(seat)
        elif any(a.kind is ActionKind.TAKE for a in acts) or (
            settling and any(a.kind is ActionKind.PASS for a in acts)
        ):
            out.append(seat)
    return out


def computers_to_ask(session: GameSession) -> list[int]:
    """Computer seats with something to do, in the engine's ask order
    (:func:`engine.ai.arena.ask_order`): the order in which waiting is always harmless (see
    engine.ai's contract), and the one the terminal game and the benchmarks play by, so the
    strength they measure is the bot's."""
    game = session.game
    return [s for s in ask_order(game) if session.seats[s].computer and game.legal_actions(s)]


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
