"""Boring fool: a lead is always of the highest rank in the leader's hand."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ..actions import Action, ActionKind
from ..cards import CARDS, RANK_MASK
from .base import Variant

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


#: The leads of each (cards of one rank, most cards, seat), built once like the engine's own.
_LEADS: dict[int, tuple[Action, ...]] = {}


class Boring(Variant):
    name = "boring"
    title = "Boring fool"
    rule_text = (
        "The Boring Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the player can only lead the card of the strongest value. Thus, if the strongest"
        " card is an ace, it should open the game, if the strongest card is the king, it should"
        " be lead first, etc."
    )
    reading = (
        "'Strongest value' is the highest rank in the leader's hand, whatever the suit (the"
        " examples name ranks only, and a trump is not a higher value). The leader may lead one"
        " or several cards of that rank; throw-ins are as in the base game."
    )
    leads = True
    lead_error = ("lead_strongest", "in boring fool you may only lead your highest rank")

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.players > 2:
            # Seen in self-play: three players, the trump ace and queen each "must open"
            # their holder's next attack, nobody can beat them, and they go round for ever.
            out.append(
                f"{self.title} is played by two: with more players the strongest cards can go"
                " round for ever, since each holder must lead them and nobody can beat them"
            )
        return out

    def add_leads(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        limit = g.lead_limit()
        hand = g.hands[seat]
        if limit <= 0 or not hand:
            return
        for rank in range(14, 1, -1):
            same = hand & RANK_MASK[rank]
            if same:
                most = min(limit, same.bit_count())
                key = (same << 3 | most) << 3 | seat  # bounded: subsets of one rank per seat
                got = _LEADS.get(key)
                if got is None:
                    cards = [CARDS[c] for c in range(52) if same >> c & 1]
                    got = _LEADS[key] = tuple(
                        Action(seat, ActionKind.ATTACK, c)
                        for k in range(1, most + 1)
                        for c in combinations(cards, k)
                    )
                out += got
                return


BORING = Boring()
