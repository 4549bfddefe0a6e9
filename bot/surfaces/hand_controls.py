"""Tap-a-card: which controls a hand offers, and what each tap does, from the engine's legal
actions only.

This module computes no rule. It *groups* the seat's legal actions (``Observation.
legal_actions``) by the hand cards they put down, which is presentation:

* A card whose only use is one move plays that move on the first tap (a lead, a throw-in, a
  beat where it answers exactly one attack card, a transfer, piling on).
* A card with several uses (beat one of two attack cards, transfer *or* beat) or one that can
  go together with others (a multi-card lead, poker fool's swap) is *selected* by a tap; the
  hand then offers the moves made of exactly the selected cards as verb buttons ("Transfer",
  "Beat 6♦", "Lead 9♣ 9♦") and the cards that can still join the selection.
* Moves that put down no hand card (take, done/bito, pass, exchange the trump, lead the
  talon's top card, accept or challenge on trust) are always verb buttons.

Every legal action is reachable this way (a single-card move in one tap, or ``n`` taps and a
verb for ``n`` cards) and no control ever leads to an action that is not legal: both are
tested over random positions of every preset (tests/bot/test_hand_taps.py), and
bench/click_count.py counts the clicks. Pure functions, no discord: the views, the bench and
the tests share them.

Big fool holds two packs: a card and its twin (``c`` and ``c + 52``) look alike and play alike,
so with nothing selected one button stands for both; a selection names physical cards, so a
twin pair can still be led together.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import Action, ActionKind, Card, Observation
from engine.actions import BLIND_KINDS
from engine.cards import PACK, sort_key

__all__ = [
    "VERB_KINDS",
    "HandControls",
    "Tap",
    "controls",
    "face_key",
    "own_cards",
    "reachable",
    "tap",
    "valid_selection",
]

#: Moves that put down no card of the hand: always a button of their own. (EXCHANGE names
#: the trump it gives, but reads as a verb: "Exchange the trump".)
VERB_KINDS = frozenset(
    {
        ActionKind.TAKE,
        ActionKind.PASS,
        ActionKind.EXCHANGE,
        ActionKind.ACCEPT,
        ActionKind.CHALLENGE,
        ActionKind.TOP,
    }
)

#: Moves whose first card is an attack card on the table and last the card put on it.
_ANSWERS = frozenset({ActionKind.DEFEND, ActionKind.CONCEAL, ActionKind.BEAT_BLIND})


def own_cards(a: Action) -> tuple[Card, ...]:
    """The hand cards (or, in reverse fool, hand slots) that ``a`` puts down, sorted."""
    if a.kind in VERB_KINDS:
        return ()
    if a.kind in _ANSWERS or a.kind in BLIND_KINDS:
        return (a.cards[-1],)
    return tuple(sorted(a.cards))


def face_key(a: Action) -> tuple[object, ...]:
    """What a move looks like to the player (a twin of the second pack plays alike)."""
    faces = [c % PACK for c in a.cards]
    if a.kind not in _ANSWERS:
        faces.sort()
    return (a.seat, a.kind, *faces)


@dataclass(frozen=True, slots=True)
class Tap:
    """What tapping ``card`` does: play ``action``, or show ``selection`` (maybe empty)."""

    card: Card
    action: Action | None
    selection: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandControls:
    """Every control of one hand message, in display order."""

    #: The current selection (physical cards or slots), sorted.
    selection: tuple[Card, ...]
    #: One per card that can be tapped now: plays, selects, extends or deselects.
    taps: tuple[Tap, ...]
    #: Moves made of exactly the selected cards ("Transfer", "Beat 6♦", "Lead 9♣ 9♦").
    completions: tuple[Action, ...]
    #: Moves that put down no hand card (take, done, exchange...): always offered.
    verbs: tuple[Action, ...]
    #: Whether the hand is blind (reverse fool): taps name slots, not cards.
    blind: bool


def _card_moves(obs: Observation) -> list[tuple[Action, frozenset[Card]]]:
    return [(a, frozenset(own)) for a in obs.legal_actions if (own := own_cards(a))]


def _sort(cards: Iterable[Card], obs: Observation) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (sort_key(c, obs.trump), int(c))))


def valid_selection(
    obs: Observation,
    selection: Sequence[Card],
    moves: list[tuple[Action, frozenset[Card]]] | None = None,
) -> tuple[Card, ...]:
    """``selection`` if some legal move still puts down all of it, else nothing: a selection
    carried over a change of the game (a live hand, a stale id) never offers a dead move."""
    chosen = set(selection)
    if not chosen or len(chosen) != len(selection):
        return ()
    if moves is None:
        moves = _card_moves(obs)
    if any(chosen <= own for _, own in moves):
        return _sort(chosen, obs)
    return ()


def tap(
    obs: Observation,
    selection: Sequence[Card],
    card: Card,
    moves: list[tuple[Action, frozenset[Card]]] | None = None,
) -> Tap | None:
    """What a tap on ``card`` does with ``selection`` shown, or None if that card offers
    nothing (a stale or forged tap: the caller says so and shows the hand)."""
    if moves is None:
        moves = _card_moves(obs)
    chosen = set(valid_selection(obs, selection, moves))
    if not chosen:
        uses = [a for a, own in moves if card in own]
        if not uses:
            return None
        single = [a for a, own in moves if own == {card}]
        if len(single) == 1 and len(uses) == 1:
            return Tap(card, single[0], ())
        return Tap(card, None, (card,))
    if card in chosen:
        return Tap(card, None, _sort(chosen - {card}, obs))
    grown = chosen | {card}
    if any(grown <= own for _, own in moves):
        return Tap(card, None, _sort(grown, obs))
    return None


def controls(obs: Observation, selection: Sequence[Card] = ()) -> HandControls:
    """The controls of a hand showing ``selection`` (dropped if no longer playable)."""
    moves = _card_moves(obs)
    chosen = valid_selection(obs, selection, moves)
    blind = any(a.kind in BLIND_KINDS for a, _ in moves)
    units: set[Card] = set()
    for _, own in moves:
        units.update(own)
    taps: list[Tap] = []
    if not chosen:
        faces: set[int] = set()
        for card in _sort(units, obs):
            if not blind and card % PACK in faces:
                continue  # big fool: the twin plays alike; one button for both
            faces.add(card % PACK)
            found = tap(obs, (), card, moves)
            if found is not None:
                taps.append(found)
        completions: list[Action] = []
    else:
        for card in _sort(units, obs):
            found = tap(obs, chosen, card, moves)
            if found is not None:
                taps.append(found)
        completions = [a for a, own in moves if own == set(chosen)]
    verbs = [a for a in obs.legal_actions if a.kind in VERB_KINDS]
    return HandControls(chosen, tuple(taps), tuple(completions), tuple(verbs), blind)


def reachable(obs: Observation) -> dict[tuple[object, ...], list[Card | Action]]:
    """Every move some click path reaches from an empty selection (by :func:`face_key`), with
    its shortest path: taps as cards, a final verb as the action. For the bench and tests."""
    found: dict[tuple[object, ...], list[Card | Action]] = {}
    start: tuple[Card, ...] = ()
    frontier: list[tuple[tuple[Card, ...], list[Card | Action]]] = [(start, [])]
    seen = {start}
    while frontier:
        nxt: list[tuple[tuple[Card, ...], list[Card | Action]]] = []
        for sel, path in frontier:
            hc = controls(obs, sel)
            for a in (*hc.completions, *hc.verbs):
                found.setdefault(face_key(a), [*path, a])
            for tp in hc.taps:
                if tp.action is not None:
                    found.setdefault(face_key(tp.action), [*path, tp.card])
                elif tp.selection not in seen and len(tp.selection) > len(sel):
                    seen.add(tp.selection)
                    nxt.append((tp.selection, [*path, tp.card]))
        frontier = nxt
    return found
