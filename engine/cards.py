"""Cards as small immutable integers, and the bit masks the engine computes with.

A card is an ``int`` from 0 to 51: ``suit * 13 + (rank - 2)``. Keeping cards as integers lets a
hand be a single Python ``int`` used as a bit set, so "which of my cards beat this one" is one
``&`` with a precomputed mask instead of a loop; that is where the engine's speed comes from.
``Card`` subclasses ``int`` so the same values print as readable notation without costing a
conversion on the hot path.

Notation is ASCII and stable (logs, replays, JSON, tests): rank ``23456789TJQKA`` then suit
``cdhs`` — ``6s``, ``Th``, ``Ad``. ``Card.parse`` also accepts ``10h`` and suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_CHARS: Final = "23456789TJQKA"
RANK_LABELS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
#: The "trump suit" of a game without trumps (trumpless fool): indexes ``BEATERS`` and
#: ``SUIT_MASK`` like a suit, but no card belongs to it.
NO_TRUMP: Final = 4
ACE: Final = 14

DECK_SIZES: Final = (24, 36, 52)
#: The lowest rank in each deck size: the "six of trumps" of the exchange rule is this rank.
LOWEST_RANK: Final = {24: 9, 36: 6, 52: 2}


class CardError(ValueError):
    """Raised for text that is not a card, so callers can tell bad input from bugs."""


class Card(int):
    """One playing card; an ``int`` so it can index masks and tables directly."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..14 (ace high): ranks compare as plain integers."""
        return int(self) % 13 + 2

    @property
    def suit(self) -> int:
        """0..3 in the order clubs, diamonds, hearts, spades."""
        return int(self) // 13

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        return RANK_CHARS[int(self) % 13] + SUIT_CHARS[int(self) // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """Human notation with a suit symbol, e.g. ``10♥``; for people, never for parsing."""
        return RANK_LABELS[int(self) % 13] + SUIT_SYMBOLS[int(self) // 13]

    @classmethod
    def make(cls, rank: int, suit: int) -> Card:
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise CardError(f"no card with rank {rank} and suit {suit}")
        return CARDS[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``6s``, ``Th``, ``10h``, ``A♠`` (case-insensitive rank, suit letter or symbol)."""
        t = text.strip()
        if len(t) < 2:
            raise CardError(f"{text!r} is not a card (expected e.g. 6s, Th, A♠)")
        rank_part, suit_part = t[:-1].upper(), t[-1]
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in RANK_CHARS:
            raise CardError(f"{text!r} has no valid rank (use 2-9, T or 10, J, Q, K, A)")
        suit_char = suit_part.lower()
        if suit_char in SUIT_CHARS:
            suit = SUIT_CHARS.index(suit_char)
        elif suit_part in SUIT_SYMBOLS:
            suit = SUIT_SYMBOLS.index(suit_part)
        elif suit_part in "♤♡♢♧":
            suit = "♧♢♡♤".index(suit_part)
        else:
            raise CardError(f"{text!r} has no valid suit (use c, d, h, s or ♣♦♥♠)")
        return CARDS[suit * 13 + RANK_CHARS.index(rank_part)]


CARDS: Final = tuple(Card(i) for i in range(52))

#: SUIT_MASK[suit]; SUIT_MASK[NO_TRUMP] is empty, so "my trumps" is no card in a trumpless game.
SUIT_MASK: Final = (*(0x1FFF << (13 * s) for s in range(4)), 0)
#: RANK_MASK[rank] for rank 2..14; index 0 and 1 unused so ranks index directly.
RANK_MASK: Final = (0, 0, *(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)))
#: Mask of every card of rank >= r, used to cut decks.
_ABOVE: Final = tuple(sum(RANK_MASK[k] for k in range(r, 15)) for r in range(15))


def deck_mask(size: int) -> int:
    """All cards of a 24, 36 or 52 card pack."""
    if size not in LOWEST_RANK:
        raise CardError(f"deck size must be one of {DECK_SIZES}, not {size}")
    return _ABOVE[LOWEST_RANK[size]]


def _beaters(trump: int) -> tuple[int, ...]:
    out = []
    for c in range(52):
        suit = c // 13
        higher_same = SUIT_MASK[suit] & ~((2 << c) - 1)
        out.append(higher_same if suit == trump else higher_same | SUIT_MASK[trump])
    return tuple(out)


#: BEATERS[trump][card]: mask of every card that beats ``card`` when ``trump`` is trumps
#: (``BEATERS[NO_TRUMP]``: only a higher card of the same suit).
BEATERS: Final = tuple(_beaters(t) for t in range(5))


def bits(mask: int) -> Iterator[Card]:
    """Cards of a mask in ascending index order (suit-major)."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def beats(card: int, other: int, trump: int) -> bool:
    """Whether ``card`` beats ``other``: higher of the same suit, or a trump on a non-trump."""
    return bool(BEATERS[trump][other] >> card & 1)


def sort_key(card: int, trump: int) -> tuple[int, int, int]:
    """Hand order: non-trumps by suit then rank, trumps last (what players expect to see)."""
    suit, r = divmod(card, 13)
    return (1 if suit == trump else 0, suit, r)


def sorted_hand(mask: int, trump: int) -> list[Card]:
    return sorted(bits(mask), key=lambda c: sort_key(c, trump))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space or comma separated list of cards."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def suit_char(suit: int) -> str:
    """The notation letter of a trump suit: ``cdhs``, or ``-`` for no trumps."""
    return "-" if suit == NO_TRUMP else SUIT_CHARS[suit]


def parse_suit(text: str) -> int:
    """A suit letter, symbol or name; ``-`` or ``none`` is ``NO_TRUMP`` (a trumpless game)."""
    t = text.strip()
    if t.lower() in ("-", "none"):
        return NO_TRUMP
    if t.lower() in SUIT_CHARS and len(t) == 1:
        return SUIT_CHARS.index(t.lower())
    if t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    if t.lower() in SUIT_NAMES:
        return SUIT_NAMES.index(t.lower())
    raise CardError(f"{text!r} is not a suit (use c, d, h, s)")
