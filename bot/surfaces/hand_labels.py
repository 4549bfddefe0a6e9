"""The words and emojis on a hand's controls: move labels, card buttons, the limits of
Discord's rows and menus (split from bot.surfaces.hand_views, which lays them out)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from engine import Action, ActionKind, Card, Observation

from ..cardart.emojis import registry as card_emojis
from ..i18n import has_key, t
from ..rendering.common import card_text, cards_text

#: Moves that answer one attack card; CONCEAL: take on trust.
_ANSWERS = (ActionKind.DEFEND, ActionKind.CONCEAL, ActionKind.BEAT_BLIND)


#: Reverse fool: moves that name a slot of the player's own (unseen) hand, not a card.
_PAIR_LABELS = {
    ActionKind.DEFEND: "hand.button.defend_with",
    ActionKind.CONCEAL: "hand.button.conceal_with",
}


_BLIND_LABELS = {
    ActionKind.LEAD_BLIND: "hand.button.lead_blind",
    ActionKind.THROW_BLIND: "hand.button.throw_blind",
    ActionKind.BEAT_BLIND: "hand.button.beat_blind",
    ActionKind.TRANSFER_BLIND: "hand.button.transfer_blind",
}


#: Locale keys of the move verbs shown on card buttons.
_VERB_KEYS: dict[ActionKind, str] = {
    ActionKind.ATTACK: "hand.button.attack",
    ActionKind.THROW: "hand.button.throw_in",
    ActionKind.TRANSFER: "hand.button.transfer",
    ActionKind.SHOW: "hand.button.show_trump",
    ActionKind.PILE: "hand.button.pile_on",
    ActionKind.EXCHANGE: "hand.button.exchange_trump",
    ActionKind.SWAP: "hand.button.swap",
}


def _move_label(a: Action, obs: Observation, locale: str, local_ranks: bool = True) -> str:
    """A move's words, its cards in the reader's rank letters (``local_ranks``: the
    server's choice, see :func:`bot.cardart.labels.card_label`)."""

    def card(c: Card) -> str:
        return card_text(c, locale, local_ranks=local_ranks)

    blind = _BLIND_LABELS.get(a.kind)
    if blind is not None:  # the last "card" is the slot number
        attack = card(a.cards[0]) if len(a.cards) > 1 else ""
        return t(blind, locale, slot=int(a.cards[-1]) + 1, attack=attack)
    cards = cards_text(a.cards, None, locale, local_ranks=local_ranks)
    if a.kind in _PAIR_LABELS:  # a card on the table and the card laid on it
        return t(_PAIR_LABELS[a.kind], locale, attack=card(a.cards[0]), card=card(a.cards[1]))
    if a.kind is ActionKind.TOP:
        # the card is unseen until it lies on the table: the button names no card
        return t("hand.button.lead_top", locale)
    key = _VERB_KEYS.get(a.kind)
    if key is None and has_key(f"hand.button.{a.kind.value}"):
        key = f"hand.button.{a.kind.value}"
    # A kind of move this view does not know yet (a new catalogue variant's) still gets a
    # button: its notation verb, never a KeyError that would take the whole hand down.
    verb = t(key, locale) if key else a.kind.value
    if not a.cards:
        return verb
    return t("hand.button.card_action", locale, verb=verb, cards=cards)


def _move_emoji(
    a: Action, obs: Observation, locale: str, local_ranks: bool = True
) -> discord.PartialEmoji | None:
    """The picture on a move's button: the card the player puts down (for a defence the
    beating card, for several cards of one rank the last), or None for text-only buttons."""
    if not a.cards or a.kind in _BLIND_LABELS:
        return None  # (a blind move's last "card" is a slot number, not a card to picture)
    card = a.cards[-1]
    return card_emojis.card(card, card.suit == obs.trump, locale, local_ranks=local_ranks)


def _simple_label(a: Action, obs: Observation, locale: str, local_ranks: bool = True) -> str:
    if a.kind is ActionKind.TAKE:
        return t("hand.button.take", locale)
    if a.kind is ActionKind.PASS:
        return t("hand.button.pass" if obs.taking else "hand.button.done", locale)
    if a.kind is ActionKind.ACCEPT:
        return t("hand.button.accept", locale)
    if a.kind is ActionKind.CHALLENGE:
        return t("hand.button.challenge", locale)
    return _move_label(a, obs, locale, local_ranks)


def _unit_label(
    card: Card, blind: bool, selected: bool, locale: str, local_ranks: bool = True
) -> str:
    """A card button's words: the card itself ("10♦", read out as such by screen readers),
    a slot of a blind hand ("Card #3"), a tick when it is selected."""
    text = (
        t("hand.button.slot", locale, slot=int(card) + 1)
        if blind
        else card_text(card, locale, local_ranks=local_ranks)
    )
    return f"✓ {text}" if selected else text


def _unit_emoji(
    card: Card, blind: bool, obs: Observation, locale: str, local_ranks: bool = True
) -> discord.PartialEmoji | None:
    if blind:
        return None
    return card_emojis.card(card, card.suit == obs.trump, locale, local_ranks=local_ranks)


def _selection_id(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards) or "-"
