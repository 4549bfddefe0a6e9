"""Why an action is illegal: a stable code and a sentence, computed only on the error path.

Kept apart from ``moves.py`` so the move generator stays small: ``Game.apply`` calls this only
after an action has been refused, so none of it is on a hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import EX, PA, PI, SH, TK, TR, A, Action, ActionKind, D, T
from .cards import CARDS

if TYPE_CHECKING:
    from .moves import GameMoves

#: The kinds of move only a catalogue variant generates (``Variant.explain_own`` explains).
_OWN_KINDS = frozenset(
    {
        ActionKind.TOP,
        ActionKind.SWAP,
        ActionKind.CONCEAL,
        ActionKind.ACCEPT,
        ActionKind.CHALLENGE,
    }
)


def explain_illegal(g: GameMoves, action: Action) -> tuple[str, str]:
    """Why ``action`` is not legal: a stable code and a sentence (only on the error path)."""
    seat, kind = action.seat, action.kind
    if g.result is not None:
        return "game_over", "the game is over"
    if not 0 <= seat < g.n:
        return "bad_seat", f"there is no seat {seat}"
    if not g.is_active(seat):
        return "out", "you are out of the game and have nothing to play"
    if g._v_edits:
        why = g._variant.explain_edited(g, action)
        if why is not None:
            return why
    if kind in _OWN_KINDS:  # a catalogue variant's own kind of move
        return g._variant.explain_own(g, action)
    # Actions built directly (not via Action.parse) may have the wrong number of cards;
    # the checks below unpack them, so refuse those first instead of crashing.
    want = 2 if kind is D else 0 if kind in (TK, PA) else -1 if kind in (A, TR) else 1
    if (want >= 0 and len(action.cards) != want) or (want < 0 and not action.cards):
        return "malformed", f"{kind} does not take {len(action.cards)} card(s)"
    hand = g.hands[seat]
    for c in action.cards[1:] if kind is D else action.cards:
        if not 0 <= c < len(CARDS) or not hand >> c & 1:
            return "not_in_hand", f"you do not hold {CARDS[c] if 0 <= c < len(CARDS) else c}"
    if kind is EX:
        return "no_exchange", "you cannot exchange a trump now"
    if kind is A:
        if g.table:
            return "bout_running", "a bout is already under way; throw in instead"
        if seat != g.attacker:
            return "not_attacker", "it is not your turn to lead"
        if g._v_leads:
            return g._variant.lead_error
        if len({c % 13 for c in action.cards}) > 1:
            return "mixed_ranks", "a lead must be cards of one rank"
        return "too_many", "that is more cards than the defender can be attacked with"
    if not g.table:
        if seat == g.attacker:
            return "must_lead", "you lead this bout: play one or more cards of one rank"
        return "wait", "wait for the attacker to lead"
    if kind in (D, TR, SH, TK):
        if seat != g.defender:
            return "not_defender", "only the defender can do that"
        if g.taking:
            return "taking", "you have already decided to take"
        if kind is D:
            a, d = action.cards
            if not any(p[0] == a and p[1] < 0 for p in g.table):
                return "not_unbeaten", f"{CARDS[a]} is not an unbeaten card on the table"
            return "does_not_beat", f"{CARDS[d]} does not beat {CARDS[a]}"
        if kind is TK:
            return "nothing_to_take", "every card is beaten: there is nothing to take"
        if g.rules.transfer == "off":
            return "no_transfer", "transfers are not played in this game"
        if kind is SH and not g.rules.pass_card:
            return "no_pass_card", "showing a trump is not played in this game"
        return "cannot_transfer", (
            "this attack cannot be transferred now (a card is beaten, the ranks differ,"
            " the bout is full, or the next player has too few cards)"
        )
    if seat == g.defender:
        return "defender", "the defender cannot add attack cards"
    order = g._eligible(g.attacker, g.defender)
    if seat not in order:
        if not g.is_opponent(seat, g.defender):
            return "partner", "you cannot attack your partner"
        return "not_attacking", "you may not throw in to this bout"
    if kind is PA:
        if g.passed >> seat & 1:
            return "already_done", "you have already said done"
        return "beat_first", "wait until the defender has answered every card"
    if kind is PI and not g.taking:
        return "not_taking", "the defender is not taking; throw in instead"
    if kind is T and g.taking:
        return "taking_now", "the defender is taking; pile on instead"
    if kind is PI and not g.rules.pile_on:
        return "no_pile_on", "piling on is not played in this game"
    if g._room() <= 0:
        return "full", "the bout already holds as many cards as allowed"
    if g.passed >> seat & 1:
        return "already_done", "you said done; wait for the table to change"
    if g._join_late and not g.taking and seat != order[0] and all(p[1] < 0 for p in g.table):
        return "first_not_beaten", (
            "other players join the attack once the defender has beaten a card"
        )
    if g._priority and g._waits_for_earlier(seat):
        return "priority", "wait: a player before you may still throw in"
    return "rank_not_on_table", "you may only add a rank that is already on the table"
