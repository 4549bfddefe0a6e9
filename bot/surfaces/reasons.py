"""The reasons of a hint or a review in words: one sentence per fact of
``engine.ai.reasons``.

The engine decides what is true (each fact was checked on the cards before it was made);
this module only words it, in the reader's language, with the server's rank letters. A
sentence says what its fact states and no more, so a true fact gives a true sentence:
tests/i18n/test_reason_words.py words every kind in both languages and checks that it
names exactly the fact's cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.ai import reasons as r
from engine.cards import CARDS

from ..i18n import t, tn
from ..rendering.common import card_text
from .move_words import action_words

__all__ = ["MAX_REASONS", "pct", "reason_lines"]

#: Sentences one answer gives at most, the move's own first (the board comes last).
MAX_REASONS = 4


def pct(x: float) -> str:
    """A chance as a whole percentage ("62%")."""
    return f"{round(x * 100)}%"


def reason_lines(
    facts: Iterable[r.Fact],
    locale: str,
    *,
    local_ranks: bool,
    name_of: Callable[[int], str],
    limit: int = MAX_REASONS,
    taking: bool = False,
) -> list[str]:
    """One sentence per fact (at most ``limit``), in the reader's words. ``name_of`` gives a
    seat's name as a message may show it; ``taking``: the defender is taking (a move is
    named by its button, see :func:`.move_words.action_words`)."""

    def card(c: int) -> str:
        return card_text(CARDS[c], locale, local_ranks=local_ranks)

    def cards(cs: Iterable[int]) -> str:
        return " ".join(card(c) for c in cs)

    out: list[str] = []
    for f in facts:
        if len(out) >= limit:
            break
        key = f"reason.{f.kind}"
        k = f.kind
        if k in (r.CHEAPEST_BEATER, r.COULD_BEAT):
            text = t(key, locale, attack=card(f.cards[0]), card=card(f.cards[1]))
        elif k in (r.LOWEST_THROW, r.NO_BEATER, r.COULD_THROW):
            text = t(key, locale, card=card(f.cards[0]))
        elif k == r.PICK_UP:
            text = t(
                key,
                locale,
                count=tn("plural.cards", len(f.cards), locale),
                cards=cards(f.cards),
            )
        elif k == r.EXCHANGE_UP:
            text = t(key, locale, card=card(f.cards[0]), trump=card(f.cards[1]))
        elif k == r.OPPONENT_KNOWN:
            text = t(key, locale, name=name_of(f.seat), cards=cards(f.cards))
        elif k == r.TALON_EMPTY:
            if f.seat >= 0:
                text = t(
                    "reason.talon_empty_known",
                    locale,
                    name=name_of(f.seat),
                    count=tn("plural.cards", f.count, locale),
                )
            else:
                text = t(key, locale)
        elif k == r.TALON_LAST_DRAW:
            text = t(key, locale, count=tn("plural.cards", f.count, locale))
        elif k == r.SOLVED_WIN:
            text = t(key, locale)
        elif k in (r.ALTERNATIVE, r.CLOSE_CALL):
            if f.action is None:
                continue
            text = t(
                key,
                locale,
                move=action_words(f.action, locale, local_ranks, taking=taking),
                chance=pct(f.chance),
                other=pct(f.other),
                noise=pct(f.noise),
            )
        elif k == r.CHEAPER_BEATER:
            text = t(
                key, locale, attack=card(f.cards[0]), mine=card(f.cards[1]), card=card(f.cards[2])
            )
        elif k == r.LOWER_LEAD:
            text = t(key, locale, cards=cards(f.cards), better=cards(f.alt))
        else:
            text = t(key, locale, cards=cards(f.cards))
        out.append(text)
    return out
