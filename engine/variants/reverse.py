"""Reverse fool: you see everybody's cards but your own, and play blind.

In Discord a player cannot hold cards "pictures off", so the seats' views are turned round: a
seat's observation shows every other hand and hides its own (only how many cards it holds and
what the whole table saw go into it). A blind move names a *slot* of one's own hand, not a
card: "lead card #2", "beat the 9 with card #4", "throw in card #1". The engine turns the slot
into the card and resolves it; a card that turns out wrong takes the table.

Slots are the hand in an order nobody can read: sorted by a secret key drawn from the deal
(the talon's order, which nobody sees), so slot numbers say nothing about ranks or suits. Blind
actions carry the slot number where a card index would be (``Action.cards``: ``CARDS[slot]``
for the slot; the notation writes ``#<slot + 1>``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, ActionKind, Event
from ..cards import CARDS
from .base import Variant

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..result import Result

LEAD, THROW, BEAT, SWITCH = (
    ActionKind.LEAD_BLIND,
    ActionKind.THROW_BLIND,
    ActionKind.BEAT_BLIND,
    ActionKind.TRANSFER_BLIND,
)
BLIND = (LEAD, THROW, BEAT, SWITCH)
_KEEP = (ActionKind.TAKE, ActionKind.PASS)


def slot_cards(g: GameMoves, seat: int) -> list[int]:
    """``seat``'s cards in slot order (slot 0 first)."""
    key = g.vstate.get("slot_key")
    hand = [c for c in range(52) if g.hands[seat] >> c & 1]
    if key:
        hand.sort(key=key.__getitem__)
    return hand


class Reverse(Variant):
    name = "reverse"
    title = "Reverse fool"
    rule_text = (
        "The game follows the rules of the Simple, Thrown on or Transfer Fool only the players"
        " hold the cards pictures off and thus can see only the shirts of the cards.  The player"
        " who beats off with a wrong card, or tosses up the wrong card or transfers the card that"
        " does not match, gets all of the cards of the lead."
    )
    reading = (
        "Each player sees every other hand and none of their own cards (only what the whole"
        " table saw go into it); the channel sees no hand. Moves name a slot of one's own hand"
        " (the slots are in a secret order that says nothing of the cards): lead a card, beat"
        " an attack card with a card, throw a card in, or transfer with one; taking and 'done'"
        " are as usual. One card is led at a time (a blind player cannot know two match). A"
        " card that does not beat, match a rank on the table, or match the attack for a transfer"
        " is turned up and its player gets all the cards of the bout: a defender's miss is a"
        " pick-up; a thrower's miss ends the bout with the thrower picking up and the defender"
        " leading next. There is no trump exchange (nobody knows they hold the lowest trump),"
        " no pass card, and nobody is passed over for holding nothing of a rank (that would tell"
        " them their hand)."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "nobody can see that they hold the lowest trump"),
        "auto_done": (False, "passing a player over for having nothing to add shows their hand"),
        "pass_card": (False, "showing a trump one cannot see is not possible"),
    }
    edits = True
    observes = True

    # ---------------------------------------------------------------- dealing

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        # the secret slot order, from the talon's order (seen by nobody) and the deal
        seed = ",".join(map(str, [*g.talon, *g.hands, g.deal_no]))
        key = list(range(52))
        random.Random(seed).shuffle(key)
        g.vstate = {**g.vstate, "slot_key": key}
        return None

    # ---------------------------------------------------------------- moves

    def _base(self, g: GameMoves, seat: int) -> list[Action]:
        """The sighted game's legal actions of ``seat`` (what a blind move is checked against)."""
        g._v_edits = False
        try:
            return g.legal_actions(seat)
        finally:
            g._v_edits = True

    def edit_actions(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        keep = [a for a in out if a.kind in _KEEP]
        out.clear()
        k = g.hands[seat].bit_count()
        if not k or g.result is not None:
            return
        slots = [CARDS[i] for i in range(k)]
        if not g.table:
            if seat == g.attacker:
                out += [Action(seat, LEAD, (s,)) for s in slots]
            return
        if seat == g.defender:
            if g.taking or not g._unb:
                return
            unbeaten = [a for a, d in g.table if d < 0]
            for a in unbeaten:
                out += [Action(seat, BEAT, (CARDS[a], s)) for s in slots]
            if self._may_transfer(g, seat, len(unbeaten)):
                out += [Action(seat, SWITCH, (s,)) for s in slots]
            out += keep
            return
        if seat in g._elig and self._may_throw(g, seat):
            out += [Action(seat, THROW, (s,)) for s in slots]
        out += keep

    def _may_throw(self, g: GameMoves, seat: int) -> bool:
        """The sighted rules for adding a card, except that the rank is not checked."""
        if g._limit <= len(g.table) or (g.taking and not g._pile_on) or g.passed >> seat & 1:
            return False
        return not (g._priority and g._elig[0] != seat and g._waits_for_earlier(seat))

    def _may_transfer(self, g: GameMoves, seat: int, n_unb: int) -> bool:
        if not g._transfer or (g._transfer == 1 and n_unb != len(g.table)):
            return False
        nd = g._nd
        if nd == seat:
            return False
        room = min(g._blimit - len(g.table), g.hands[nd].bit_count() - n_unb)
        return room > 0

    def apply_own(self, g: GameMoves, action: Action) -> list[Event]:
        seat, kind, cards = action
        slot = int(cards[-1])
        card = slot_cards(g, seat)[slot]
        base = self._base(g, seat)
        if kind is LEAD:
            sighted = Action(seat, ActionKind.ATTACK, (CARDS[card],))
        elif kind is THROW:
            verb = ActionKind.PILE if g.taking else ActionKind.THROW
            sighted = Action(seat, verb, (CARDS[card],))
        elif kind is BEAT:
            sighted = Action(seat, ActionKind.DEFEND, (cards[0], CARDS[card]))
        else:
            sighted = Action(seat, ActionKind.TRANSFER, (CARDS[card],))
        if sighted in base:
            ev = g.apply_unchecked(sighted)
            g.version -= 1  # one move, counted once
            return ev
        # a wrong card: turned up, and its player gets all the cards of the bout
        g.known[seat] |= 1 << card
        ev = [Event("blind_miss", seat, (CARDS[card],), g.defender, 0)]
        if seat == g.defender:
            g.taking = True
            g._end_bout(ev)
            return ev
        m = 0
        for p in g.table:
            for c in p:
                if c >= 0:
                    m |= 1 << c
        g.hands[seat] |= m
        g.known[seat] |= m
        shown = tuple(CARDS[c] for c in range(52) if m >> c & 1)
        ev.append(Event("picked_up", seat, shown, -1, m.bit_count()))
        g._after_bout(g.attacker, g.defender, False, ev)
        return ev

    def explain_edited(self, g: GameMoves, action: Action) -> tuple[str, str] | None:
        seat, kind = action.seat, action.kind
        if kind not in BLIND:
            return "blind", "you play blind: pick a card of your hand by its number"
        want = 2 if kind is BEAT else 1
        if len(action.cards) != want:
            return "malformed", f"{kind} takes {want} card(s)"
        if int(action.cards[-1]) >= g.hands[seat].bit_count():
            return "no_slot", "you do not hold that many cards"
        return "not_now", "that move is not possible now"

    # ---------------------------------------------------------------- seeing

    def observe(self, g: GameMoves, seat: int, fields: dict[str, object]) -> None:
        if seat < 0:
            return  # the channel sees no hand, as in every game
        fields["hand"] = ()
        fields["hand_mask"] = 0
        known = [g.hands[t] if t != seat else g.known[seat] for t in range(g.n)]
        fields["known_masks"] = tuple(known)


REVERSE = Reverse()

__all__ = ["BLIND", "REVERSE", "slot_cards"]
