"""Big fool: two packs shuffled together; a card never beats its twin; 52 cards in hand lose.

The second pack's cards are the ids 52-103 (``cards``: the twin of ``c`` is ``c + 52``), so a
two-pack game is the base engine with wider masks: the beat table of both packs
(``cards.TWO_PACK_BEATERS``) already says that a card's twin cannot beat it (it is of the same
suit and rank, and only a higher card or a trump beats), and the deck, talon and hands simply
hold 72 or 104 ids. What is left to this module is the hand limit and the readings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Event
from ..cards import PACK, TWO_PACK_BEATERS
from ..result import Result
from .base import Variant

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet

#: "The player who has 52 cards and more loses the game at once."
LOSING_HAND = 52
#: The pack sizes two packs of which are played (24: 48 cards, nobody could ever hold 52).
PACK_SIZES = (36, 52)


def losing_result(g: GameMoves, fool: int) -> Result:
    """The result when ``fool`` holds 52 cards: that player (or team) loses at once. The
    others are placed as the deal stood: those already out in the order they went, then the
    players still holding cards by fewer cards first, equal hands clockwise from the fool's
    left (the next to play after the fool)."""
    n = g.n
    holding = [s for s in range(n) if s != fool and g._active >> s & 1 and s not in g.out]
    holding.sort(key=lambda s: (g.hands[s].bit_count(), (s - fool) % n))
    order = (*g.out, *holding)
    if g.rules.teams == "none":
        return Result("fool", fool, (fool,), None, order)
    team = fool % 2
    losers = tuple(range(team, n, 2))
    return Result("team", fool, losers, team, tuple(s for s in order if s % 2 != team))


class Big(Variant):
    name = "big"
    title = "Big fool"
    rule_text = (
        "The Big Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that"
        " the game is played with two decks of cards. You can’t beat off the card of the same"
        " suit and value. The player who has 52 cards and more loses the game at once."
    )
    reading = (
        "Two packs of the chosen size (36, the default, or 52; two 24-card packs are refused:"
        " 48 cards, nobody could ever hold 52) are shuffled together and dealt as in the base"
        " game, six each, the next card turned up for trumps. Every card is there twice; a card"
        " never beats its twin (nor any card of its rank), only a higher card of its suit or a"
        " trump. The lowest trump leads; when its two copies are in different hands, the holder"
        " nearer the dealer's left leads. There is no trump exchange: with two sixes of trumps"
        " the rule's 'the six of trumps' names no single card. A player who picks up and then"
        " holds 52 cards or more loses at once: the deal ends there with that player the fool;"
        " the others are placed as the deal stood (those already out in the order they went,"
        " then fewer cards first, equal hands clockwise from the fool). In the bot a player"
        " holding both twins sees one button per distinct move."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": (
            "off",
            "two packs hold two lowest trumps: 'the' six of trumps is no single card",
        ),
    }
    packs = 2
    bout_end = True

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.deck_size not in PACK_SIZES:
            out.append(
                f"{self.title}: two packs of {rules.deck_size} hold {2 * rules.deck_size} cards,"
                f" so nobody could ever hold {LOSING_HAND}; play two packs of 36 or 52"
            )
        return out

    def beat_tables(self, g: GameMoves, trump: int) -> tuple[tuple[int, ...], ...]:
        return (TWO_PACK_BEATERS[trump],) * g.n

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        rule = g.rules.first_lead if previous is None else g.rules.next_deal_lead
        if rule != "lowest_trump" or not 0 <= g.trump <= 3:
            return None
        n = g.n
        first = (g.dealer + 1) % n
        base = g.trump * 13
        for r in range(13):
            both = 1 << (base + r) | 1 << (base + r + PACK)
            if not g._deck & both:
                continue
            for i in range(n):
                s = (first + i) % n
                if g.hands[s] & both:
                    return s
        return first  # nobody holds a trump: the dealer's left, as in the base game

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if not taken:
            return
        d = g.defender
        count = g.hands[d].bit_count()
        if count < LOSING_HAND:
            return
        g.result = losing_result(g, d)
        ev.append(Event("hand_limit", d, (), -1, count, ()))
        ev.append(Event("game_over", d))


BIG = Big()
