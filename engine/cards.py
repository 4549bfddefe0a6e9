"""Cards as small immutable integers, and the bit masks the engine computes with.

A card is an ``int`` from 0 to 51: ``suit * 13 + (rank - 2)``. Big fool plays with two packs; the
second pack's cards are ``52 + ...`` (the *twin* of card ``c`` is ``c + 52``), so a one-pack game
never sees an id above 51 and its masks stay exactly as small as before. Rank and suit of any id
are ``c % 13 + 2`` and ``c // 13 & 3``. Keeping cards as integers lets a
hand be a single Python ``int`` used as a bit set, so "which of my cards beat this one" is one
``&`` with a precomputed mask instead of a loop; that is where the engine's speed comes from.
``Card`` subclasses ``int`` so the same values print as readable notation without costing a
conversion on the hot path.

Notation is ASCII and stable (logs, replays, JSON, tests): rank ``23456789TJQKA`` then suit
``cdhs`` — ``6s``, ``Th``, ``Ad``; a second-pack twin carries a prime: ``6s'``. ``Card.parse``
also accepts ``10h`` and suit symbols. ``pretty`` (for people) shows a twin with the same face:
to a player the two sixes of spades are the same card.
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
#: Cards in one full pack: the second pack's twin of card ``c`` is ``c + PACK`` (big fool).
PACK: Final = 52
#: The mark of a second-pack card in notation: ``6s'``.
TWIN_MARK: Final = "'"

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
        """0..3 in the order clubs, diamonds, hearts, spades (``& 3``: a twin's suit too)."""
        return int(self) // 13 & 3

    @property
    def pack(self) -> int:
        """0 for the first pack, 1 for the second (big fool's twins)."""
        return 1 if int(self) >= PACK else 0

    @property
    def face(self) -> Card:
        """The first-pack card with this card's rank and suit (a twin's face is its twin)."""
        return CARDS[int(self) % PACK]

    @property
    def twin(self) -> Card:
        """The other pack's card of the same rank and suit."""
        i = int(self)
        return CARDS[i - PACK if i >= PACK else i + PACK]

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        i = int(self)
        if i >= PACK:
            return RANK_CHARS[i % 13] + SUIT_CHARS[i // 13 & 3] + TWIN_MARK
        return RANK_CHARS[i % 13] + SUIT_CHARS[i // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """Human notation with a suit symbol, e.g. ``10♥``; for people, never for parsing."""
        return RANK_LABELS[int(self) % 13] + SUIT_SYMBOLS[int(self) // 13 & 3]

    @classmethod
    def make(cls, rank: int, suit: int, pack: int = 0) -> Card:
        if not 2 <= rank <= 14 or not 0 <= suit <= 3 or pack not in (0, 1):
            raise CardError(f"no card with rank {rank}, suit {suit} and pack {pack}")
        return CARDS[pack * PACK + suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``6s``, ``Th``, ``10h``, ``A♠`` (case-insensitive rank, suit letter or symbol);
        a trailing ``'`` (or ``’``) means the second pack's twin: ``6s'``."""
        t = text.strip()
        twin = 0
        if t[-1:] in ("'", "’"):
            t, twin = t[:-1].rstrip(), PACK
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
        return CARDS[twin + suit * 13 + RANK_CHARS.index(rank_part)]


#: Every card id of both packs: ``CARDS[c]`` for 0 <= c < 104 (one-pack games use 0..51).
CARDS: Final = tuple(Card(i) for i in range(2 * PACK))

#: The whole first pack (52 bits); ``twins(m)`` adds the second pack's copies.
ONE_PACK: Final = (1 << PACK) - 1


def twins(mask: int) -> int:
    """A first-pack mask with the second pack's copies of the same cards added."""
    return mask | mask << PACK


_ONE_SUIT = tuple(0x1FFF << (13 * s) for s in range(4))
#: SUIT_MASK[suit], both packs (a one-pack hand never holds the high bits, so ``hand & mask``
#: is the same as with one pack's); SUIT_MASK[NO_TRUMP] is empty, so "my trumps" is no card in
#: a trumpless game.
SUIT_MASK: Final = (*(twins(m) for m in _ONE_SUIT), 0)
_ONE_RANK = (0, 0, *(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)))
#: RANK_MASK[rank] for rank 2..14, both packs; index 0 and 1 unused so ranks index directly.
RANK_MASK: Final = tuple(twins(m) for m in _ONE_RANK)
#: Mask of every first-pack card of rank >= r, used to cut decks.
_ABOVE: Final = tuple(sum(_ONE_RANK[k] for k in range(r, 15)) for r in range(15))


def deck_mask(size: int, packs: int = 1) -> int:
    """All cards of a 24, 36 or 52 card pack (``packs=2``: and of its twin pack)."""
    if size not in LOWEST_RANK:
        raise CardError(f"deck size must be one of {DECK_SIZES}, not {size}")
    one = _ABOVE[LOWEST_RANK[size]]
    return twins(one) if packs == 2 else one


def _beaters(trump: int) -> tuple[int, ...]:
    out = []
    for c in range(52):
        suit = c // 13
        higher_same = _ONE_SUIT[suit] & ~((2 << c) - 1)
        out.append(higher_same if suit == trump else higher_same | SUIT_MASK[trump] & ONE_PACK)
    return tuple(out)


def _two_pack_beaters(trump: int) -> tuple[int, ...]:
    """Per card id of both packs: the cards of both packs that beat it. A card's twin is never
    among them: it is of the same suit and rank, and only a higher card or a trump beats."""
    one = BEATERS[trump]
    row = tuple(twins(m) for m in one)
    return row + row


#: BEATERS[trump][card]: mask of every card that beats ``card`` when ``trump`` is trumps
#: (``BEATERS[NO_TRUMP]``: only a higher card of the same suit).
BEATERS: Final = tuple(_beaters(t) for t in range(5))
#: TWO_PACK_BEATERS[trump][card id]: ``BEATERS`` for a two-pack game (big fool).
TWO_PACK_BEATERS: Final = tuple(_two_pack_beaters(t) for t in range(5))


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
    """Whether ``card`` beats ``other``: higher of the same suit, or a trump on a non-trump
    (either pack: a card never beats its twin)."""
    return bool(TWO_PACK_BEATERS[trump][other] >> card & 1)


def sort_key(card: int, trump: int) -> tuple[int, int, int]:
    """Hand order: non-trumps by suit then rank, trumps last (what players expect to see); a
    twin sorts right after its first-pack card."""
    suit, r = divmod(card % PACK, 13)
    return (1 if suit == trump else 0, suit, 2 * r + (card >= PACK))


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
