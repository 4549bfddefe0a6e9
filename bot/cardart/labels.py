"""Card ranks as the reader writes them: J Q K A in English, В Д К Т in Russian.

The engine's notation (``RANK_LABELS``, ``Card.pretty``) stays Latin and language-free: logs,
records and tests read it. What a player sees is a translation like any other word, so the
letters come from the catalogues (``card.rank.*``) and every text, button and picture asks
here. ``local_ranks=False`` keeps the Latin letters in every language, for a server that
prefers them (the per-server setting passes its value in; the default is the locale's own).
"""

from __future__ import annotations

from functools import cache

from engine import Card
from engine.cards import RANK_LABELS, SUIT_SYMBOLS

from ..i18n import LocaleLike, normalize_locale, t

__all__ = ["LATIN_RANKS", "card_label", "rank_labels"]

#: The labels of ranks 2..A in the engine's order (index = rank - 2).
LATIN_RANKS: tuple[str, ...] = RANK_LABELS
_COURT = ("jack", "queen", "king", "ace")


@cache
def _labels(locale: str) -> tuple[str, ...]:
    return (*RANK_LABELS[:9], *(t(f"card.rank.{name}", locale) for name in _COURT))


def rank_labels(locale: LocaleLike = None, *, local_ranks: bool = True) -> tuple[str, ...]:
    """The 13 rank labels (2..A) a reader of ``locale`` sees; Latin without a locale or with
    ``local_ranks=False``."""
    if locale is None or not local_ranks:
        return LATIN_RANKS
    return _labels(normalize_locale(locale))


def card_label(card: Card | int, locale: LocaleLike = None, *, local_ranks: bool = True) -> str:
    """``10♥``, ``Т♠`` (ru) or ``A♠`` (en): rank label and suit symbol; a second pack's twin
    (big fool) reads as its first-pack card, as the engine's ``pretty`` does."""
    i = int(card)
    return rank_labels(locale, local_ranks=local_ranks)[i % 13] + SUIT_SYMBOLS[i // 13 & 3]
