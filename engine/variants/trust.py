"""Take on trust fool: a defence may be laid face down; the attacker accepts it or turns it up.

The face-down card lies in its table pair like any defence (so every card is always somewhere
``check_invariants`` can count it), and ``Game.vstate`` says which cards lie face down and who
laid them. Everything a seat may not see is kept out of its view here: the card in the table
pair (shown as ``None`` with the pair listed in ``Observation.face_down``), its rank (it opens
no throw-ins, or the legal moves would tell its rank), the ``conceal`` event's second card,
and, when an accepted card leaves the game unseen, the discard: it goes to the engine's
out-of-play cards (``OUT_OF_PLAY``), face down, which the computer players' sampled worlds
already place among the cards they cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, ActionKind, Event
from ..cards import CARDS, bits
from .base import OUT_OF_PLAY, Variant, card_list

if TYPE_CHECKING:
    from ..moves import GameMoves

CONCEAL, ACCEPT, CHALLENGE = ActionKind.CONCEAL, ActionKind.ACCEPT, ActionKind.CHALLENGE


def _down(g: GameMoves) -> list[list[int]]:
    """``[card, seat]`` of every face-down card on the table, in the order laid."""
    return g.vstate.get("down") or []


class TakeOnTrust(Variant):
    name = "take-on-trust"
    title = "Take on trust fool"
    rule_text = (
        "The Take on Trust game differs from the Simple, Thrown on or Transfer Fool only by the"
        " following. Each player can conceal from the other player the cards he beats. The other"
        " player is supposed to check whether his opponent’s declarations are truthful."
    )
    reading = (
        "The defender may cover an attack card with any card of their hand face down, claiming"
        " that it beats it. Before anything else happens the principal attacker (after a"
        " transfer, the one who transferred; co-attackers' cards are judged by the principal,"
        " who speaks for the attack as when saying 'done') either accepts it, and the pair counts"
        " as beaten, or challenges: the card is turned up. A card that does not beat is a lie and"
        " the defender takes the whole table at once; a card that beats means the challenger"
        " takes the whole table into their own hand, and the bout counts as beaten off for the"
        " defender, who leads next. An accepted card is never shown: it leaves the game face"
        " down with the beaten-off bout (or goes back to the defender's hand, unseen, if they"
        " take later), and its rank opens no throw-ins. Whoever lays a card face down makes what"
        " the others knew of their hand uncertain, so that knowledge is forgotten."
    )
    defends = True
    edits = True
    bout_end = True
    observes = True

    # ---------------------------------------------------------------- moves

    def face_down(self, g: GameMoves) -> int:
        m = 0
        for c, _ in _down(g):
            m |= 1 << c
        return m

    def after_load(self, g: GameMoves) -> None:
        if g.vstate.get("pending", -1) >= 0:
            g._unb += 1  # the pair awaiting its verdict is not answered yet

    def add_defences(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        hand = g.hands[seat]
        out.extend(
            Action(seat, CONCEAL, (CARDS[a], CARDS[c]))
            for a, d in g.table
            if d < 0
            for c in bits(hand)
        )

    def edit_actions(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        if g.vstate.get("pending", -1) >= 0:
            out.clear()  # the bout waits for the verdict
            if seat == g.attacker:
                out += [Action(seat, ACCEPT), Action(seat, CHALLENGE)]

    def apply_own(self, g: GameMoves, action: Action) -> list[Event]:
        seat, kind, cards = action
        if kind is CONCEAL:
            a, c = int(cards[0]), int(cards[1])
            g.hands[seat] &= ~(1 << c)
            # which card left the hand is secret, so what was known of the hand is not any more
            g.known[seat] = 0
            for p in g.table:
                if p[0] == a:
                    p[1] = c
                    break
            g.passed = 0
            # _unb is left as it was: the pair is not answered until it is accepted, so the
            # bout cannot end while the verdict is awaited
            g.vstate = {**g.vstate, "down": [*_down(g), [c, seat]], "pending": c}
            return [Event("conceal", seat, cards, g.attacker, 0, (cards[0],))]
        pending = int(g.vstate.get("pending", -1))
        g.vstate = {**g.vstate, "pending": -1}
        if kind is ACCEPT:
            g._unb = sum(1 for p in g.table if p[1] < 0)
            g.passed = 0
            return [Event("accept", seat, (), g.defender)]
        # CHALLENGE: turn the card up
        pair = next(p for p in g.table if p[1] == pending)
        owner = next(s for c, s in _down(g) if c == pending)
        g.vstate = {**g.vstate, "down": [x for x in _down(g) if x[0] != pending]}
        beats = bool(g._beat_tab[owner][pair[0]] >> pending & 1)
        a, d = g.attacker, g.defender
        ev = [
            Event("challenge", seat, (), d),
            Event("reveal", owner, (CARDS[pair[0]], CARDS[pending]), seat, int(beats)),
        ]
        if not beats:
            # a lie: the defender takes the whole table at once
            g.taking = True
            g._end_bout(ev)
            return ev
        # a true card wrongly challenged: the challenger takes the whole table
        still_down = self.face_down(g)
        m = 0
        for p in g.table:
            for c in p:
                if c >= 0:
                    m |= 1 << c
        g.hands[seat] |= m
        g.known[seat] |= m & ~still_down
        if m >> g._low & 1 and not g._ex_regained:
            g.lowest_origin = -1  # picked up: nobody may exchange it any more (pagat)
        public = tuple(CARDS[c] for c in bits(m & ~still_down))
        ev.append(Event("picked_up", seat, public, -1, m.bit_count()))
        g.vstate = {**g.vstate, "down": []}
        g._after_bout(a, d, False, ev)  # beaten off, as far as the defender is concerned
        return ev

    def explain_edited(self, g: GameMoves, action: Action) -> tuple[str, str] | None:
        if g.vstate.get("pending", -1) < 0:
            return None
        if action.kind in (ACCEPT, CHALLENGE) and not action.cards:
            return "not_judge", "only the principal attacker accepts or challenges the card"
        return "verdict_pending", "wait: the face-down card must be accepted or challenged"

    def explain_own(self, g: GameMoves, action: Action) -> tuple[str, str]:
        seat, kind = action.seat, action.kind
        if kind in (ACCEPT, CHALLENGE):
            if action.cards:
                return "malformed", f"{kind.value} takes no cards"
            return "nothing_face_down", "there is no face-down card waiting for a verdict"
        if kind is not CONCEAL:
            return super().explain_own(g, action)
        if len(action.cards) != 2:
            return "malformed", "conceal takes an attack card and a card of your hand"
        a, c = action.cards
        if not 0 <= c < 52 or not g.hands[seat] >> c & 1:
            return "not_in_hand", f"you do not hold {CARDS[c] if 0 <= c < 52 else c}"
        if seat != g.defender or not g.table:
            return "not_defender", "only the defender can lay a card face down"
        if g.taking:
            return "taking", "you have already decided to take"
        return "not_unbeaten", f"{a} is not an unbeaten card on the table"

    # ---------------------------------------------------------------- bout end

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        down = _down(g)
        if not down:
            return
        mask = self.face_down(g)
        if taken:
            # the defender takes the face-down cards back unseen: keep them out of public view
            d = g.defender
            g.known[d] &= ~mask
            for i in range(len(ev) - 1, -1, -1):
                e = ev[i]
                if e.kind == "picked_up":
                    shown = tuple(c for c in e.cards if not mask >> c & 1)
                    ev[i] = Event("picked_up", e.seat, shown, -1, e.amount)
                    break
            g.vstate = {**g.vstate, "down": [], "pending": -1}
            return
        # accepted cards leave the game face down: out of play, never in the (face-up) discard,
        # so the narration's "bito: N cards discarded" counts only the cards that went there
        g.discard &= ~mask
        for i in range(len(ev) - 1, -1, -1):
            e = ev[i]
            if e.kind == "beaten":
                ev[i] = e._replace(amount=e.amount - mask.bit_count())
                break
        away = [*g.vstate.get(OUT_OF_PLAY, []), *card_list(list(bits(mask)))]
        g.vstate = {**g.vstate, OUT_OF_PLAY: away, "down": [], "pending": -1}

    # ---------------------------------------------------------------- seeing

    def observe(self, g: GameMoves, seat: int, fields: dict[str, object]) -> None:
        down = _down(g)
        if not down:
            return
        owner = {c: s for c, s in down}
        table = list(fields["table"])  # type: ignore[call-overload]
        face_down = []
        for i, (a, d) in enumerate(table):
            if d is not None and int(d) in owner:
                face_down.append(i)
                if owner[int(d)] != seat:
                    table[i] = (a, None)
        fields["table"] = tuple(table)
        fields["face_down"] = tuple(face_down)
        pending = g.vstate.get("pending", -1)
        if pending >= 0:
            fields["judging"] = next(i for i, p in enumerate(g.table) if p[1] == pending)


TAKE_ON_TRUST = TakeOnTrust()
