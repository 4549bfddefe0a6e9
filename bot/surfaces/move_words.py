"""A move in plain words, the way the review, the hint and the reasons name it."""

from __future__ import annotations

from engine import Action, ActionKind, Card

from ..i18n import t
from ..rendering.common import card_text

__all__ = ["action_words"]


def action_words(
    action: Action, locale: str, local_ranks: bool = True, *, taking: bool = False
) -> str:
    """A move in plain words ("beat the 8♠ with the 10♠", "take the cards"), its cards in
    the server's rank letters (``local_ranks``). A pass is named by the button that makes
    it, which depends on whether the defender is taking (``taking``): "bito" would be
    untrue of cards about to be picked up."""

    def card(c: Card) -> str:
        return card_text(c, locale, local_ranks=local_ranks)

    k = action.kind
    cards = " ".join(card(c) for c in action.cards)
    if k is ActionKind.DEFEND and len(action.cards) == 2:
        return t(
            "review.words.defend", locale, attack=card(action.cards[0]), card=card(action.cards[1])
        )
    if k is ActionKind.PASS:
        button = t("hand.button.pass" if taking else "hand.button.done", locale)
        return t("review.words.pass", locale, button=button)
    key = f"review.words.{k.value}"
    return t(
        key if k.value in _WORDS else "review.words.other", locale, cards=cards, move=str(action)
    )


_WORDS = frozenset({"attack", "throw", "transfer", "show", "take", "pile", "exchange"})
