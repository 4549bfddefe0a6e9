"""Words every message shares: cards as text or emoji, seat and preset names, colours and
Discord's length limits.

Hidden information is protected by construction across :mod:`bot.rendering`: the public
table is drawn *only* from ``game.public_observation()`` plus the public event log, and a
hand only from ``game.observation(seat)``. No function here receives a whole ``Game`` for
public output, so a refactor cannot accidentally print someone's hand into the channel.
Every word goes through :mod:`bot.i18n`; callers pass the locale (the guild's for public
messages, the user's for ephemeral ones).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord

from engine import PRESETS, Card, Observation
from engine.cards import SUIT_NAMES, SUIT_SYMBOLS, sort_key
from engine.variants import VARIANTS

from ..cardart.emojis import registry as card_emojis
from ..cardart.labels import card_label
from ..discord_limits import EMBED_FIELD_VALUE
from ..game.models import GameSession, LobbyInfo, SeatInfo
from ..i18n import LocaleLike, t, tn
from ..usertext import inert
from .kept import Kept

COLOUR_LOBBY = discord.Colour.blurple()


COLOUR_TABLE = discord.Colour.dark_green()


COLOUR_OVER = discord.Colour.dark_grey()


EVENTS_SHOWN = 5


def card_text(card: Card, locale: LocaleLike = None, *, local_ranks: bool = True) -> str:
    """``10♥``, ``Т♠`` in Russian: suit symbols, because that is how people read cards at a
    glance, and the reader's own rank letters (:func:`bot.cardart.labels.card_label`)."""
    return card_label(card, locale, local_ranks=local_ranks)


def cards_text(
    cards: Iterable[Card],
    trump: int | None = None,
    locale: LocaleLike = None,
    *,
    local_ranks: bool = True,
) -> str:
    """Cards in hand order (by suit and rank, trumps last when the trump is known)."""
    items = list(cards)
    if trump is not None:
        items.sort(key=lambda c: sort_key(c, trump))
    return " ".join(card_text(c, locale, local_ranks=local_ranks) for c in items)


def card_face(
    card: Card, trump: int | None, locale: LocaleLike = None, *, local_ranks: bool = True
) -> str:
    """``<:dk_As_…:id> A♠`` when card emojis are available, else ``A♠``.

    The notation stays next to the picture: screen readers read it, and it is the whole card
    whenever emojis are unavailable. Cards of the ``trump`` suit get the trump face."""
    key = (int(card), card.suit == trump, locale, local_ranks, card_emojis.generation)
    return _FACES.get(key, lambda: _card_face(card, key[1], locale, local_ranks))


def _card_face(card: Card, trump_face: bool, locale: LocaleLike, local_ranks: bool) -> str:
    emoji = card_emojis.markdown(card, trump_face, locale, local_ranks=local_ranks)
    text = card_text(card, locale, local_ranks=local_ranks)
    return f"{emoji} {text}" if emoji else text


#: card_face by (card, trump face, locale, letters, the emojis' generation): every render of
#: a table or a hand writes the same few dozen faces. A few thousand at most (108 cards of
#: two packs, two faces, a few locales), so the bound only matters after emojis change.
_FACES: Kept[str] = Kept(8192)


def cards_face(
    cards: Iterable[Card],
    trump: int | None,
    locale: LocaleLike = None,
    *,
    sort: bool = False,
    local_ranks: bool = True,
) -> str:
    """Like :func:`cards_text`, each card with its emoji when available."""
    items = list(cards)
    if sort and trump is not None:
        items.sort(key=lambda c: sort_key(c, trump))
    return " ".join(card_face(c, trump, locale, local_ranks=local_ranks) for c in items)


def score_texts(obs: Observation, locale: str) -> list[str]:
    """Each seat's running score (point and epaulet fool; [] in other games), from the
    variant's public state: every bout beaten off or taken was seen by the whole table."""
    state = obs.variant_state
    if "points" in state:
        return [tn("plural.points", int(p), locale) for p in state["points"]]
    if "epaulets" in state:
        return [tn("plural.epaulets", len(won), locale) for won in state["epaulets"]]
    return []


def _fitting(build: Callable[[bool], str], limit: int = EMBED_FIELD_VALUE) -> str:
    """``build(True)`` (with card emojis) if it fits Discord's ``limit``, else text only."""
    text = build(True)
    if len(text) <= limit:
        return text
    return build(False)[:limit]


def deck_text(info: LobbyInfo, loc: str) -> str:
    """ "36-card deck", or for a two-pack game (big fool) "two packs of 36 cards"."""
    preset = PRESETS.get(info.preset)
    variant = str(info.overrides.get("variant", preset.variant if preset else "none"))
    v = VARIANTS.get(variant)
    if v is not None and v.packs == 2:
        return t("option.deck_size_two_packs", loc, count=info.deck_size)
    return t("option.deck_size", loc, count=info.deck_size)


def preset_name(preset: str, locale: str) -> str:
    return t(f"preset.{preset}.name", locale)


def seat_name(seat: SeatInfo, locale: str, *, markdown: bool = True) -> str:
    """Computers get a translated name; a human who left is marked as played by a computer.

    A human's name is made :func:`inert` for a message (a name with nothing visible in it is
    "Player 2"); ``markdown=False`` gives it as typed, for a picture, whose drawing makes it
    safe its own way (:func:`bot.pictures.fonts.safe_text`)."""
    return _SEAT_NAMES.get(
        (seat.seat, seat.name, seat.user_id, seat.left, locale, markdown),
        lambda: _seat_name(seat, locale, markdown),
    )


#: seat_name by everything it reads: a table and a hand name the same few seats on every
#: render (about ten a move), each a placeholder text, a cleaned name and maybe a marker.
_SEAT_NAMES: Kept[str] = Kept(8192)


def _seat_name(seat: SeatInfo, locale: str, markdown: bool) -> str:
    if seat.user_id is None:
        return t("lobby.ai_name", locale, number=seat.name.lstrip("#"))
    if markdown:
        placeholder = t("picture.seat_placeholder", locale, number=seat.seat + 1)
        name = inert(seat.name, fallback=placeholder)
    else:
        name = seat.name
    if seat.left:
        return t("table.left_marker", locale, name=name)
    return name


def _who(session: GameSession, seat: int, locale: str) -> str:
    if 0 <= seat < len(session.seats):
        return seat_name(session.seats[seat], locale)
    return "?"


def _mention(seat: SeatInfo, locale: str) -> str:
    return f"<@{seat.user_id}>" if seat.is_human else seat_name(seat, locale)


def suit_text(suit: int, locale: str) -> str:
    return f"{SUIT_SYMBOLS[suit]} {t(f'suit.{SUIT_NAMES[suit]}', locale)}"
