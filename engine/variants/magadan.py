"""Magadan fool: five of each player's six dealt cards stay closed, face down, until they open
one at a time (one per beaten-off bout) or all at once when the talon runs out."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Event
from ..cards import CARDS
from .base import CLOSED, Deal, Variant, card_list, no_talon, parse_list, standard_deal

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class Magadan(Variant):
    name = "magadan"
    title = "Magadan fool"
    rule_text = (
        "The Magadan Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that from the 6 cards which are laid out, 5 are not available for the game. Once the"
        " cards are burned one of the 5 cards opens. Thus,  in case the player lead, the"
        " computer opens one of his closed cards. When the deck is out, all of the unavailable"
        " cards are open and come into game."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "severnyi": (False, "one hidden rule at a time: Severnyi's hidden card is not played here"),
    }
    reading = (
        "Of the cards dealt to each player, the last one is their hand and the other five lie"
        " closed in front of them: face down, seen by nobody, their owner included ('not"
        " available for the game'), so they cannot be played and nobody chooses among them."
        " When a defender beats a bout off ('once the cards are burned'; 'in case the player"
        " lead, the computer opens'), the defender turns one of their closed cards face up and"
        " takes it into the hand: everybody sees it. When the refill empties the talon, every"
        " closed card is turned up the same way. Closed cards count towards the six a player"
        " refills to, and a player still holding closed cards is not out. The first lead goes"
        " to the lowest trump among the open cards (the dealer's left when nobody shows one)."
        " A deal that leaves no talon would open every card at once, so it is refused."
        " The limit of attack cards in a bout counts the defender's open cards only: closed"
        " cards cannot beat anything until they are turned up."
    )
    draws = True
    bout_end = True

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.hand_size < 2:
            out.append(f"{self.title}: a hand of one card leaves nothing to keep closed")
        return out + no_talon(self, rules, "every closed card would open at once")

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        n, k = rules.players, rules.hand_size
        hands = dealt.hands[:]
        closed: list[list[int]] = [[] for _ in range(n)]
        for j in range(n):
            seat = (dealer + 1 + j) % n
            mine = deck[j : k * n : n]  # this seat's cards in the order dealt
            closed[seat] = mine[:-1]  # the last card dealt stays open
            hands[seat] = 1 << mine[-1]
        return dealt._replace(hands=hands, vstate={CLOSED: [card_list(c) for c in closed]})

    def draw_need(self, g: GameMoves, seat: int) -> int:
        closed = g.vstate.get(CLOSED, ())
        held = len(closed[seat]) if seat < len(closed) else 0
        return g.rules.hand_size - g.hands[seat].bit_count() - held

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if not taken:
            self._open(g, g.defender, 1, ev)

    def after_refill(self, g: GameMoves, ev: list[Event]) -> None:
        if not g.talon:
            for s in range(g.n):
                self._open(g, s, 99, ev)

    def _open(self, g: GameMoves, seat: int, count: int, ev: list[Event]) -> None:
        """Turn up to ``count`` of ``seat``'s closed cards face up into the hand."""
        closed = g.vstate.get(CLOSED, [])
        if seat >= len(closed) or not closed[seat]:
            return
        cards = parse_list(closed[seat][:count])
        rest = [*closed[:seat], closed[seat][count:], *closed[seat + 1 :]]
        g.vstate = {**g.vstate, CLOSED: rest if any(rest) else []}
        m = 0
        for c in cards:
            m |= 1 << c
        g.hands[seat] |= m
        g.known[seat] |= m  # turned face up: everybody saw them
        if m >> g._low & 1 and g.lowest_origin < 0:
            g.lowest_origin = seat
        ev.append(Event("open", seat, tuple(CARDS[c] for c in cards), -1, len(cards), ()))


MAGADAN = Magadan()
