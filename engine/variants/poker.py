"""Poker fool: before beating, a defender holding fewer than six may swap two cards with the
talon."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, ActionKind, Event
from ..cards import CARDS, bits
from .base import Variant, no_talon

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet

SWAPPED = "swapped"  # vstate: [bout_no, seat] of the last swap (one per defender and bout)


class Poker(Variant):
    name = "poker"
    title = "Poker fool"
    rule_text = (
        "The Poker Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the player before he beats off his opponent’s card has the right to change 2"
        " cards from the deck , but only in case he’s got less than 6 cards."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "severnyi": (False, "swapped cards go under the talon, where Severnyi's hidden card is"),
    }
    reading = (
        "The player who beats is the defender: while facing unbeaten cards and before saying"
        " 'take', a defender holding fewer cards than the hand size (six) may 'swap' two cards"
        " of their hand for the top two cards of the talon, once per bout. The two cards go"
        " face down under the talon, just above the turned-up trump, so they are drawn last;"
        " the defender sees the two new cards, the others see only that a swap happened. A card"
        " the table knew to be in that hand (it was picked up face up) is seen leaving it. The"
        " talon must hold two face-down cards. A deal that leaves no talon (six players, 36"
        " cards) is refused: it would be the base game."
    )
    defends = True

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(self, rules, "there is nothing to swap with")

    def public_state(self, g: GameMoves) -> dict[str, Any]:
        got = g.vstate.get(SWAPPED)
        return {SWAPPED: got} if got else {}

    def _may_swap(self, g: GameMoves, seat: int) -> bool:
        hand = g.hands[seat].bit_count()
        return (
            2 <= hand < g.rules.hand_size
            and len(g.talon) - (1 if g.trump_index >= 0 else 0) >= 2
            and g.vstate.get(SWAPPED) != [g.bout_no, seat]
        )

    def add_defences(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        if self._may_swap(g, seat):
            cards = list(bits(g.hands[seat]))
            out.extend(Action(seat, ActionKind.SWAP, pair) for pair in combinations(cards, 2))

    def apply_own(self, g: GameMoves, action: Action) -> list[Event]:
        seat = action.seat
        put = [int(c) for c in action.cards]
        taken = [g.talon.pop(), g.talon.pop()]  # the top card first
        below = g.trump_index + 1  # just above the turned-up trump, or at the very bottom
        g.talon[below:below] = put
        if g.trump_index >= 0:
            g.trump_index = g.talon.index(g.trump_card)
        m_put = (1 << put[0]) | (1 << put[1])
        m_taken = (1 << taken[0]) | (1 << taken[1])
        seen = tuple(CARDS[c] for c in put if g.known[seat] >> c & 1)
        g.hands[seat] = (g.hands[seat] & ~m_put) | m_taken
        g.known[seat] &= ~m_put
        if m_taken >> g._low & 1 and g.lowest_origin < 0:
            g.lowest_origin = seat
        g.vstate = {**g.vstate, SWAPPED: [g.bout_no, seat]}
        got = tuple(CARDS[c] for c in taken)
        return [
            Event("swap", seat, tuple(CARDS[c] for c in put), -1, 2, seen),
            Event("draw", seat, got, -1, 2, ()),
        ]

    def explain_own(self, g: GameMoves, action: Action) -> tuple[str, str]:
        if action.kind is not ActionKind.SWAP:
            return super().explain_own(g, action)
        seat = action.seat
        if len(action.cards) != 2 or len(set(action.cards)) != 2:
            return "malformed", "a swap names two different cards of your hand"
        for c in action.cards:
            if not 0 <= c < 52 or not g.hands[seat] >> c & 1:
                return "not_in_hand", f"you do not hold {CARDS[c] if 0 <= c < 52 else c}"
        if seat != g.defender or not g.table or g.taking:
            return "not_defender", "only the defender facing an attack may swap, before beating"
        if g.vstate.get(SWAPPED) == [g.bout_no, seat]:
            return "swapped", "you have already swapped in this bout"
        if g.hands[seat].bit_count() >= g.rules.hand_size:
            return "hand_full", f"only a player holding fewer than {g.rules.hand_size} may swap"
        if not any(d < 0 for _, d in g.table):
            return "nothing_to_beat", "every card is beaten: there is nothing left to swap for"
        return "no_talon", "the talon has fewer than two face-down cards to swap with"


POKER = Poker()
