"""What one seat may know: the only view of a game that players, AIs and renderers receive.

OpenSpiel separates the true state from an information state; so do we. An ``Observation`` is
built from a ``Game`` but holds no reference to it, so code given an observation cannot reach
another seat's hand by accident. Public knowledge is tracked by the engine: cards seen going
into a hand (a pick-up, the turned-up trump drawn, a shown pass card, an exchange) stay known
until played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import CARDS, Card, bits, sorted_hand
from .rules import RuleSet
from .variants.base import CLOSED, aside_masks

if TYPE_CHECKING:
    from .moves import GameMoves
    from .result import Result

#: The pseudo-seat of someone watching the table: sees only face-up and public cards.
SPECTATOR = -1


def _aside_fields(g: GameMoves, fields: dict[str, object]) -> None:
    """What a seat sees of the cards a variant set aside: only how many lie face down (and the
    face-up trump among the out-of-play cards)."""
    out, closed = aside_masks(g.vstate, g.n)
    seen = out & (1 << g.trump_card) if g.trump_card >= 0 and not g._trump_hidden else 0
    fields["out_of_play"] = (out & ~seen).bit_count()
    fields["out_of_play_seen"] = seen
    if g.vstate.get(CLOSED):
        fields["closed"] = tuple(m.bit_count() for m in closed)


@dataclass(frozen=True)
class Observation:
    """A seat's view. Masks (``*_mask``) are bit sets of card indices for fast AI code."""

    seat: int
    rules: RuleSet
    version: int
    phase: str
    hand: tuple[Card, ...]
    hand_mask: int
    hand_sizes: tuple[int, ...]
    talon_count: int
    trump: int
    #: The face-up card that showed trumps; None when this seat may not see it (invisible
    #: fool) or no card was turned up (trumpless and Japanese fool).
    trump_card: Card | None
    trump_card_in_talon: bool
    table: tuple[tuple[Card, Card | None], ...]
    discard_mask: int
    known_masks: tuple[int, ...]
    attacker: int
    defender: int
    first_attacker: int
    eligible_attackers: tuple[int, ...]
    taking: bool
    passed: tuple[int, ...]
    out: tuple[int, ...]
    active: tuple[bool, ...]
    bout_no: int
    deal_no: int
    dealer: int
    result: Result | None
    legal_actions: tuple[Action, ...]
    #: Each seat's own trump suit (0-3, or ``cards.NO_TRUMP``): the same for every seat except
    #: in double-trump fool. ``trump`` is the observer's own.
    trumps: tuple[int, ...] = ()
    #: ``beaters[seat][card]``: the mask of cards that beat ``card`` when ``seat`` defends
    #: (the rules are public; variants change them). AI code reads this, never ``BEATERS``.
    beaters: tuple[tuple[int, ...], ...] = ()
    #: Face-down cards a variant put out of play (Chukchi fool's talon): how many, and the mask
    #: of the out-of-play cards everybody saw (Chukchi's turned-up trump). Neither is unseen
    #: talon: nobody will draw them.
    out_of_play: int = 0
    out_of_play_seen: int = 0
    #: Each seat's face-down closed cards (Magadan fool): how many. They are not in the hand
    #: (nobody, the owner included, may see or play them) and not in ``hand_sizes``.
    closed: tuple[int, ...] = ()
    #: What every seat may know of the variant's own state (``Variant.public_state``).
    variant_state: dict[str, Any] = field(default_factory=dict)
    #: Take on trust fool: indices of the table pairs whose defence lies face down (its card is
    #: ``None`` in ``table`` unless this seat laid it), and of the one awaiting the attacker's
    #: verdict (-1: none).
    face_down: tuple[int, ...] = ()
    judging: int = -1

    @classmethod
    def of(cls, g: GameMoves, seat: int) -> Observation:
        """The view of ``seat``; ``seat == SPECTATOR`` (-1) is what the channel may see."""
        if not -1 <= seat < g.n:
            raise ValueError(f"there is no seat {seat}")
        known = tuple(g.hands[s] if s == seat else g.known[s] for s in range(g.n))
        own = g.hands[seat] if seat >= 0 else 0
        variant = g._variant
        trumps = variant.seat_trumps(g)
        trump = trumps[seat] if seat >= 0 else g.trump
        up = g.trump_card
        fields: dict[str, object] = dict(
            seat=seat,
            rules=g.rules,
            version=g.version,
            phase=g.phase,
            hand=tuple(sorted_hand(own, trump)),
            hand_mask=own,
            hand_sizes=tuple(h.bit_count() for h in g.hands),
            talon_count=len(g.talon),
            trump=trump,
            trump_card=CARDS[up] if up >= 0 and not g._trump_hidden else None,
            trump_card_in_talon=g.trump_index >= 0,
            table=tuple((CARDS[a], CARDS[d] if d >= 0 else None) for a, d in g.table),
            discard_mask=g.discard,
            known_masks=known,
            attacker=g.attacker,
            defender=g.defender,
            first_attacker=g.first_attacker,
            eligible_attackers=tuple(g.eligible_attackers()) if g.table else (g.attacker,),
            taking=g.taking,
            passed=tuple(s for s in range(g.n) if g.passed >> s & 1),
            out=tuple(g.out),
            active=tuple(g.is_active(s) for s in range(g.n)),
            bout_no=g.bout_no,
            deal_no=g.deal_no,
            dealer=g.dealer,
            result=g.result,
            legal_actions=tuple(g.legal_actions(seat)) if seat >= 0 else (),
            trumps=trumps,
            beaters=g._beat_tab,
        )
        if g.vstate:
            _aside_fields(g, fields)
            fields["variant_state"] = variant.public_state(g)
        if variant.observes:
            variant.observe(g, seat, fields)
        return cls(**fields)  # type: ignore[arg-type]

    @property
    def n(self) -> int:
        return len(self.hand_sizes)

    @property
    def discard(self) -> tuple[Card, ...]:
        return tuple(bits(self.discard_mask))

    @property
    def table_mask(self) -> int:
        m = 0
        for a, d in self.table:
            m |= 1 << a
            if d is not None:
                m |= 1 << d
        return m

    @property
    def unseen_mask(self) -> int:
        """Cards this seat cannot place: in other hands (not publicly known) or in the talon.

        The turned-up trump, while in the talon, is seen; it is excluded too.
        """
        from .cards import deck_mask

        m = deck_mask(self.rules.deck_size, self.rules.packs) & ~self.hand_mask & ~self.discard_mask
        m &= ~self.table_mask
        for s, k in enumerate(self.known_masks):
            if s != self.seat:
                m &= ~k
        if self.trump_card_in_talon and self.trump_card is not None:
            m &= ~(1 << self.trump_card)
        return m & ~self.out_of_play_seen
