"""A compact view of one seat's situation, shared by the heuristics and the search.

The heuristic policies read a :class:`View` rather than an ``Observation`` so the same code can
play out the hypothetical worlds the ``hard`` player samples (where building a full observation
per move would dominate the cost). A view built from a ``Game`` holds only what the seat could
see anyway (its own hand, the table, counts and the discard), so a playout policy never peeks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..actions import Action, ActionKind
from ..cards import bits, deck_mask
from ..game import Game
from ..observation import Observation
from ..rules import RuleSet

TRUMP_BONUS = 13


@dataclass(slots=True)
class View:
    seat: int
    rules: RuleSet
    hand: int
    trump: int
    talon_count: int
    table: list[tuple[int, int]]  # (attack, defence or -1)
    hand_sizes: tuple[int, ...]
    attacker: int
    defender: int
    taking: bool
    active: tuple[bool, ...]
    #: cards that may be in another hand or the talon (face-down from this seat's view)
    unseen: int
    #: cards publicly known to be in each seat's hand
    known: tuple[int, ...]
    acts: list[Action]
    #: actions applied so far this deal (lets a policy notice a game going round in circles)
    version: int = 0
    #: beaters[seat][card]: what beats ``card`` when ``seat`` defends (variants change it)
    beaters: tuple[tuple[int, ...], ...] = ()
    #: take on trust: the attack card under a face-down card awaiting this seat's verdict
    judging: int = -1

    @property
    def n(self) -> int:
        return len(self.hand_sizes)

    def value(self, card: int) -> int:
        """How much a card is worth keeping: rank, plus a trump premium."""
        return card % 13 + 2 + (TRUMP_BONUS if card // 13 & 3 == self.trump else 0)

    def is_trump(self, card: int) -> bool:
        return card // 13 & 3 == self.trump  # & 3: a twin of big fool too

    def possible(self, seat: int) -> int:
        """Cards ``seat`` might hold, from this seat's point of view."""
        if seat == self.seat:
            return self.hand
        return self.unseen | self.known[seat]

    def opponent(self, other: int) -> bool:
        return other != self.seat and (self.rules.teams == "none" or (other - self.seat) % 2 == 1)

    def must_act(self) -> bool:
        """Whether waiting would stall the game (see the contract in ``engine.ai``)."""
        if not self.acts:
            return False
        if not self.table:
            return self.seat == self.attacker
        if self.seat == self.defender and not self.taking:
            return any(d < 0 for _, d in self.table)
        return any(a.kind is ActionKind.PASS or a.kind is ActionKind.ACCEPT for a in self.acts)


def view_of_observation(obs: Observation) -> View:
    return View(
        seat=obs.seat,
        rules=obs.rules,
        hand=obs.hand_mask,
        trump=obs.trump,
        talon_count=obs.talon_count,
        table=[(int(a), -1 if d is None else int(d)) for a, d in obs.table],
        hand_sizes=obs.hand_sizes,
        attacker=obs.attacker,
        defender=obs.defender,
        taking=obs.taking,
        active=obs.active,
        unseen=obs.unseen_mask,
        known=obs.known_masks,
        acts=list(obs.legal_actions),
        version=obs.version,
        beaters=obs.beaters,
        judging=int(obs.table[obs.judging][0]) if obs.judging >= 0 else -1,
    )


_ACTIVE: dict[tuple[int, int], tuple[bool, ...]] = {}


def _active(mask: int, n: int) -> tuple[bool, ...]:
    t = _ACTIVE.get((mask, n))
    if t is None:
        t = _ACTIVE[mask, n] = tuple(bool(mask >> s & 1) for s in range(n))
    return t


def view_of_game(g: Game, seat: int, acts: list[Action]) -> View:
    """The seat's view of a (sampled) game: its own hand and public facts only.

    This runs once per move of every playout, so the plain game (no variant) takes a fast
    path: what the seat cannot place is the deck less what it can see (its hand, the table,
    the discard, cards known to be in other hands, the turned-up trump while it lies in the
    talon), by mask arithmetic instead of walking the hands and the talon. A test checks it
    against the general path below.
    """
    if g.rules.variant == "none":
        hands = g.hands
        own = hands[seat]
        known = g.known
        seen = own | g.discard
        for p in g.table:
            seen |= 1 << p[0]
            if p[1] >= 0:
                seen |= 1 << p[1]
        for s, k in enumerate(known):
            if s != seat:
                seen |= k
        if g.trump_index >= 0 and g.trump_card_public:
            seen |= 1 << g.trump_card
        rules = g.rules
        return View(
            seat,
            rules,
            own,
            g.trump,
            len(g.talon),
            [(p[0], p[1]) for p in g.table],
            tuple([h.bit_count() for h in hands]),
            g.attacker,
            g.defender,
            g.taking,
            _active(g._active, g.n),
            deck_mask(rules.deck_size, rules.packs) & ~seen,
            tuple(known),
            acts,
            g.version,
            g.beat_tables,
            -1,
        )
    return _view_of_game(g, seat, acts)


def _view_of_game(g: Game, seat: int, acts: list[Action]) -> View:
    """The general path of :func:`view_of_game` (every variant)."""
    hands = g.hands
    other = 0
    own = hands[seat]
    known: tuple[int, ...] = tuple(g.known)
    if g.rules.variant == "reverse":
        # the seat sees every other hand and none of its own: what it cannot place is its own
        # hand (less what the table saw go into it, which it may count on) and the talon
        other, own = own, 0
        known = tuple(hands[s] if s != seat else g.known[s] for s in range(g.n))
    else:
        for s in range(g.n):
            if s != seat:
                other |= hands[s] & ~g.known[s]
    for c in g.talon:
        other |= 1 << c
    if g.trump_index >= 0 and g.trump_card_public:
        other &= ~(1 << g.trump_card)
    judging = -1
    if g.vstate:
        # take on trust: a card another seat laid face down is one this seat cannot place,
        # and the attack card under the one awaiting a verdict is what it judges
        for c, s in g.vstate.get("down") or ():
            if s != seat:
                other |= 1 << c
        pending = g.vstate.get("pending", -1)
        if pending >= 0:
            judging = next(p[0] for p in g.table if p[1] == pending)
    return View(
        seat=seat,
        rules=g.rules,
        hand=own,
        trump=g.seat_trump(seat),
        talon_count=len(g.talon),
        table=[(p[0], p[1]) for p in g.table],
        hand_sizes=tuple(h.bit_count() for h in hands),
        attacker=g.attacker,
        defender=g.defender,
        taking=g.taking,
        active=tuple(g.is_active(s) for s in range(g.n)),
        unseen=other & deck_mask(g.rules.deck_size, g.rules.packs),
        known=known,
        acts=acts,
        version=g.version,
        beaters=g.beat_tables,
        judging=judging,
    )


def defence_plan(
    v: View, unbeaten: list[int], pick: Callable[..., int] = min
) -> list[tuple[int, int]] | None:
    """Beat every unbeaten card, most constrained first, each with its cheapest beater (with
    ``pick=max`` its most valuable one: round fool, where what is not spent goes to the other
    player with the hand)."""
    beaters = v.beaters[v.seat]
    free = v.hand
    order = sorted(unbeaten, key=lambda a: ((free & beaters[a]).bit_count(), -v.value(a)))
    plan: list[tuple[int, int]] = []
    for a in order:
        m = free & beaters[a]
        if not m:
            return None
        best = pick(bits(m), key=v.value)
        plan.append((a, int(best)))
        free &= ~(1 << best)
    return plan
