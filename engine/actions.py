"""Actions and events: small immutable values with a stable one-line text notation.

The notation is what logs, replays, tests and the terminal game use, so it never changes
meaning: ``"<seat> <verb> <cards>"``, e.g. ``0 attack 6s 6h``, ``1 defend 6s/8s`` (the 6s is
beaten by the 8s), ``1 transfer 6d``, ``1 show 6h``, ``1 take``, ``2 throw 7c``, ``2 pile 7c``,
``0 pass``, ``3 exchange 6h``; catalogue variants add ``0 top`` (Armenian fool: lead the
talon's top card) and ``1 swap 7c 8d`` (poker fool: exchange two cards with the talon).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .cards import CARDS, Card, CardError


class ActionKind(StrEnum):
    """What a seat does. ``str`` values are the notation verbs."""

    ATTACK = "attack"  # lead a bout with one or several cards of one rank
    THROW = "throw"  # throw in one card of a rank already on the table
    DEFEND = "defend"  # beat one attack card
    TRANSFER = "transfer"  # Perevodnoy: add card(s) of the attack rank, pass the attack on
    SHOW = "show"  # pass card: show the trump of the attack rank, keep it, pass the attack on
    TAKE = "take"  # the defender gives up the bout and will pick up
    PILE = "pile"  # give the taking defender one more card
    PASS = "pass"  # "done" / "bito": nothing (more) to throw in for now
    EXCHANGE = "exchange"  # swap the lowest trump for the turned-up trump
    # catalogue variants (engine/variants), applied by ``Variant.apply_own``:
    TOP = "top"  # Armenian fool: lead the top card of the talon, unseen, instead of a hand card
    SWAP = "swap"  # poker fool: put two hand cards under the talon and take its top two
    CONCEAL = "conceal"  # take on trust: cover an attack card face down, claiming it beats
    ACCEPT = "accept"  # take on trust: the attacker takes the face-down card on trust
    CHALLENGE = "challenge"  # take on trust: the attacker turns the face-down card up
    # reverse fool (engine/variants/reverse.py): a card of one's own hand named by its slot
    LEAD_BLIND = "lead_blind"  # lead the card in a slot
    THROW_BLIND = "throw_blind"  # throw in (or pile on) the card in a slot
    BEAT_BLIND = "beat_blind"  # beat an attack card with the card in a slot
    TRANSFER_BLIND = "transfer_blind"  # transfer with the card in a slot


#: One-letter aliases for the hot loops of the engine and the computer players.
A, T, D, TR, SH, TK, PI, PA, EX = (
    ActionKind.ATTACK,
    ActionKind.THROW,
    ActionKind.DEFEND,
    ActionKind.TRANSFER,
    ActionKind.SHOW,
    ActionKind.TAKE,
    ActionKind.PILE,
    ActionKind.PASS,
    ActionKind.EXCHANGE,
)


_CARD_COUNT = {
    ActionKind.THROW: 1,
    ActionKind.DEFEND: 2,
    ActionKind.SHOW: 1,
    ActionKind.TAKE: 0,
    ActionKind.PILE: 1,
    ActionKind.PASS: 0,
    ActionKind.EXCHANGE: 1,
    ActionKind.TOP: 0,
    ActionKind.SWAP: 2,
    ActionKind.CONCEAL: 2,
    ActionKind.ACCEPT: 0,
    ActionKind.CHALLENGE: 0,
    ActionKind.LEAD_BLIND: 1,
    ActionKind.THROW_BLIND: 1,
    ActionKind.BEAT_BLIND: 2,
    ActionKind.TRANSFER_BLIND: 1,
}
#: Blind moves carry a slot of the player's own hand where a card would be: ``CARDS[slot]``.
BLIND_KINDS = frozenset(
    {
        ActionKind.LEAD_BLIND,
        ActionKind.THROW_BLIND,
        ActionKind.BEAT_BLIND,
        ActionKind.TRANSFER_BLIND,
    }
)


class ActionParseError(ValueError):
    """Text that is not an action in notation."""


def _slot(text: str) -> Card:
    """``#3`` -> the third slot of a blind hand, carried as ``CARDS[2]``."""
    if not text[1:].isdigit() or not 1 <= int(text[1:]) <= 52:
        raise CardError(f"{text!r} is not a card slot (#1 to #52)")
    return CARDS[int(text[1:]) - 1]


class Action(NamedTuple):
    """One move by one seat. For DEFEND, ``cards`` is ``(attack_card, defending_card)``;
    for ATTACK and TRANSFER the cards are in ascending order (so equal moves compare equal)."""

    seat: int
    kind: ActionKind
    cards: tuple[Card, ...] = ()

    @property
    def notation(self) -> str:
        """The move without its seat, as shown to the player making it."""
        if self.kind is ActionKind.DEFEND or self.kind is ActionKind.CONCEAL:
            return f"{self.kind.value} {self.cards[0]!s}/{self.cards[1]!s}"
        if self.kind in BLIND_KINDS and self.cards:
            slot = f"#{int(self.cards[-1]) + 1}"
            on = f"{self.cards[0]!s}/" if len(self.cards) > 1 else ""
            return f"{self.kind.value} {on}{slot}"
        if not self.cards:
            return str(self.kind.value)
        return str(self.kind.value) + " " + " ".join(str(c) for c in self.cards)

    def __str__(self) -> str:
        return f"{self.seat} {self.notation}"

    @classmethod
    def parse(cls, text: str, seat: int | None = None) -> Action:
        """Parse notation. Without a leading seat number, ``seat`` must be given."""
        parts = text.replace(",", " ").split()
        if parts and parts[0].lstrip("-").isdigit():
            seat = int(parts.pop(0))
        if seat is None:
            raise ActionParseError(f"{text!r}: which seat? (start with the seat number)")
        if not parts:
            raise ActionParseError(f"{text!r}: no action verb")
        verb = parts.pop(0).lower()
        try:
            kind = ActionKind(verb)
        except ValueError:
            verbs = ", ".join(k.value for k in ActionKind)
            raise ActionParseError(f"{text!r}: unknown action {verb!r} (one of {verbs})") from None
        try:
            if kind in BLIND_KINDS:
                joined = " ".join(parts).replace("/", " ").split()
                cards = tuple(_slot(p) if p.startswith("#") else Card.parse(p) for p in joined)
            elif kind is ActionKind.DEFEND or kind is ActionKind.CONCEAL:
                joined = " ".join(parts).replace("/", " ").split()
                cards = tuple(Card.parse(p) for p in joined)
            else:
                cards = tuple(Card.parse(p) for p in parts)
        except CardError as exc:
            raise ActionParseError(f"{text!r}: {exc}") from None
        want = _CARD_COUNT.get(kind)
        if want is not None and len(cards) != want:
            raise ActionParseError(f"{text!r}: {kind.value} takes {want} card(s)")
        if kind in (ActionKind.ATTACK, ActionKind.TRANSFER, ActionKind.SWAP):
            if not cards:
                raise ActionParseError(f"{text!r}: {kind.value} needs at least one card")
            cards = tuple(sorted(cards))
        return cls(seat, kind, cards)


class Event(NamedTuple):
    """Something that happened, for narration and logs.

    ``cards`` may be private: a DRAW event carries the drawn cards for the drawer only (so
    does poker fool's SWAP, the cards put back under the talon, and take on trust's CONCEAL,
    its face-down card); use
    :meth:`visible_cards` to get what a given seat (or the public, ``seat=None``) may see.
    """

    kind: str
    seat: int = -1
    cards: tuple[Card, ...] = ()
    target: int = -1
    amount: int = 0
    public_cards: tuple[Card, ...] = ()

    def visible_cards(self, seat: int | None) -> tuple[Card, ...]:
        if self.kind in ("draw", "swap", "conceal") and seat != self.seat:
            return self.public_cards
        return self.cards

    def describe(self, seat: int | None = None) -> str:
        """Compact English text, for logs and the terminal game."""
        cards = " ".join(c.pretty() for c in self.visible_cards(seat))
        k = self.kind
        if k == "draw":
            shown = f" ({cards})" if cards else ""
            return f"seat {self.seat} draws {self.amount}{shown}"
        if k in ("attack", "throw", "pile", "transfer", "show"):
            return f"seat {self.seat} {k}s {cards}".rstrip()
        if k == "defend":
            a, d = self.cards
            return f"seat {self.seat} beats {a.pretty()} with {d.pretty()}"
        if k == "take":
            return f"seat {self.seat} takes"
        if k == "pass":
            return f"seat {self.seat} is done"
        if k == "exchange":
            return f"seat {self.seat} exchanges {cards} for the turned-up trump"
        if k == "beaten":
            return f"bito: {self.amount} cards discarded"
        if k == "swap":
            shown = f" ({cards})" if cards else ""
            return f"seat {self.seat} puts {self.amount} cards under the talon{shown}"
        if k == "top":
            return f"seat {self.seat} leads {cards} from the top of the talon"
        if k == "open":
            return f"seat {self.seat} turns up {cards}"
        if k == "reshuffle":
            return f"{cards} shuffled back into the talon"
        if k == "picked_up":
            return f"seat {self.seat} picks up {self.amount} cards"
        if k == "conceal":
            seen = self.visible_cards(seat)
            down = f" with {seen[1].pretty()}" if len(seen) > 1 else ""
            return f"seat {self.seat} covers {seen[0].pretty()} face down{down}"
        if k == "accept":
            return f"seat {self.seat} accepts the face-down card"
        if k == "challenge":
            return f"seat {self.seat} challenges the face-down card"
        if k == "reveal":
            a, d = self.cards
            verdict = "beats" if self.amount else "does not beat"
            return f"the face-down card is {d.pretty()}: it {verdict} {a.pretty()}"
        if k == "blind_miss":
            return f"seat {self.seat} plays {cards} blind: a wrong card"
        if k == "swap_hands":
            return f"seats {self.seat} and {self.target} exchange hands"
        if k == "trump_change":
            return f"trumps change to {cards}"
        if k == "out":
            return f"seat {self.seat} is out (place {self.amount})"
        if k == "game_over":
            return "game over"
        if k == "bout":
            return f"seat {self.seat} attacks seat {self.target}"
        return k
