"""Japanese fool: diamonds are always trumps, and only a higher spade beats a spade."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..cards import BEATERS, DIAMONDS, SPADES, SUIT_MASK
from .base import Deal, Variant, standard_deal

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet

#: The plain diamonds-trump table, except that a spade is beaten by higher spades only.
_TABLE: tuple[int, ...] = tuple(
    m & SUIT_MASK[SPADES] if c // 13 == SPADES else m for c, m in enumerate(BEATERS[DIAMONDS])
)


class Japanese(Variant):
    name = "japanese"
    title = "Japanese fool"
    rule_text = (
        "The Japanese Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the trumps are always diamonds, and the spades can be only beaten by the spades."
    )
    reading = (
        "Diamonds are trumps in every deal, so no card is turned up; a trump beats clubs and"
        " hearts as usual but not spades. The holder of the lowest diamond leads the first deal."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "no card is turned up to exchange the lowest trump for"),
        "severnyi": (False, "diamonds are always trumps, so Severnyi cannot change them"),
    }

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        return Deal(dealt.hands, dealt.talon, -1, -1, -1)  # trumps need no turned-up card

    def trump_suit(self, turned_up: int) -> int:
        return DIAMONDS

    def beat_tables(self, g: GameMoves, trump: int) -> tuple[tuple[int, ...], ...]:
        return (_TABLE,) * g.n


JAPANESE = Japanese()
