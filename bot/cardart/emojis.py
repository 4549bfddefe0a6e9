"""Card faces as the application's own emojis, and the registry that renders them into text.

Application emojis (Discord's "emojis owned by the app", up to 2,000) can be used by the bot in
every server without the server's admin doing anything and without the Manage Expressions
permission, which is why cards use them rather than server emojis.

Sync on start, in the background (:meth:`CardEmojis.sync`):

* every face is drawn by :mod:`bot.cardart.cardart` in an executor thread (137 pictures are
  CPU work that must not stall the gateway): the 52 faces plain and trump, the back, and the
  16 court cards again, plain and trump, in each language whose rank letters differ
  (``dk_ruQs_…`` shows «Д»), so an emoji never contradicts the letter beside it;
* each emoji's name carries a hash of its PNG bytes (``dk_As_3f9a1c0b``, trump variant
  ``dk_tAs_…``, back ``dk_back_…``), so one list call tells what exists: a face is uploaded
  only if no emoji of that exact name exists, i.e. on the first start or after the drawing
  changed. A restart uploads nothing;
* our own emojis that no longer match a face (an older drawing) are deleted; anything whose
  name is not ours is never touched;
* the registry switches on only when every face is available, so a table never mixes
  pictures and text. Until then, and for good if Discord refuses (permissions, the 2,000
  limit), cards stay text: one warning line, no traceback. An outage or a network error is
  tried again a few times, later.

The registry is process-wide (:data:`registry`) rather than threaded through every render call:
a process runs one bot, rendering functions deep in :mod:`bot.rendering` need it, and a
wrong or empty registry only ever means text cards, never a wrong card.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import aiohttp
import discord

from engine.cards import CARDS, PACK, Card

from ..i18n import SUPPORTED_LOCALES, LocaleLike, normalize_locale
from . import cardart
from .labels import LATIN_RANKS, rank_labels

__all__ = [
    "BACK_KEY",
    "NAME_PREFIX",
    "CardEmojis",
    "EmojiSpec",
    "card_key",
    "is_own_emoji_name",
    "letter_sets",
    "letters_of",
    "registry",
    "wanted_emojis",
]

log = logging.getLogger(__name__)

NAME_PREFIX = "dk_"
BACK_KEY = "back"
#: Characters of the content hash kept in a name: 8 hex digits make an accidental match of an
#: old and a new drawing (which would skip a needed upload) a one-in-four-billion event.
HASH_LENGTH = 8
#: Seconds to wait before trying a failed sync again (see :meth:`CardEmojis.sync`).
RETRY_DELAYS = (60.0, 600.0, 3600.0)
_OWN_NAME = re.compile(rf"dk_(?:back|t?(?:[a-z]{{2}})?[2-9TJQKA][cdhs])_[0-9a-f]{{{HASH_LENGTH}}}")
#: Index of the jack in the rank labels (2..A): the court cards, whose letters differ by
#: language (В Д К Т in Russian), start here.
_COURT_FROM = 9


@cache
def letter_sets() -> dict[str, tuple[str, ...]]:
    """The languages whose rank letters are not the Latin J Q K A, with their letters: each
    gets its own court-card emojis, so a Russian reader's «Д♠» button shows a «Д» face."""
    return {loc: labels for loc in SUPPORTED_LOCALES if (labels := rank_labels(loc)) != LATIN_RANKS}


def letters_of(locale: LocaleLike, local_ranks: bool = True) -> str:
    """The face set a reader sees: '' (Latin letters) or a language code of
    :func:`letter_sets`."""
    if locale is None or not local_ranks:
        return ""
    loc = normalize_locale(locale)
    return loc if loc in letter_sets() else ""


def card_key(card: Card, trump: bool = False, letters: str = "") -> str:
    """Registry key of a face: card notation, a language code in front for a court card in
    that language's letters, ``t`` in front of all for the trump variant. A second pack's
    twin (big fool) has its first-pack card's face and emoji."""
    face = card.face
    court = letters if letters and int(face) % 13 >= _COURT_FROM else ""
    return f"{'t' if trump else ''}{court}{face}"


def is_own_emoji_name(name: str) -> bool:
    """True for names this module creates: only these are ever deleted."""
    return _OWN_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class EmojiSpec:
    """One emoji the bot wants: registry key, emoji name (with content hash) and PNG bytes."""

    key: str
    name: str
    image: bytes


def _spec(key: str, image: bytes) -> EmojiSpec:
    digest = hashlib.sha256(image).hexdigest()[:HASH_LENGTH]
    return EmojiSpec(key, f"{NAME_PREFIX}{key}_{digest}", image)


def wanted_emojis() -> list[EmojiSpec]:
    """Every face of the 52-card pack, plain and trump, the court cards again in each
    language's own letters (16 plain and trump faces per language), and the back.

    Blocking CPU work: call it in an executor."""
    faces = CARDS[:PACK]  # a second pack's twin (big fool) shows its first-pack card's face
    specs = [_spec(card_key(c), cardart.face_png(c)) for c in faces]
    specs += [_spec(card_key(c, True), cardart.face_png(c, trump=True)) for c in faces]
    court = [c for c in faces if int(c) % 13 >= _COURT_FROM]
    for letters, ranks in letter_sets().items():
        for trump in (False, True):
            specs += [
                _spec(card_key(c, trump, letters), cardart.face_png(c, trump=trump, ranks=ranks))
                for c in court
            ]
    specs.append(_spec(BACK_KEY, cardart.back_png()))
    return specs


@dataclass
class SyncReport:
    """What one sync did, for the log line and for tests."""

    uploaded: int = 0
    reused: int = 0
    deleted: int = 0


_GENERATIONS = itertools.count()


class CardEmojis:
    """Card -> emoji lookup; every lookup answers None until a sync has made all faces exist."""

    def __init__(self) -> None:
        self._emojis: dict[str, discord.PartialEmoji] = {}
        #: ``markdown`` per registry key: every table and hand render asks for its cards.
        self._markdown: dict[str, str | None] = {}
        #: Changes whenever the emojis do, so a text cached from them knows it is stale;
        #: unique across registries (a test may render with a registry of its own).
        self.generation = next(_GENERATIONS)

    @property
    def ready(self) -> bool:
        return bool(self._emojis)

    def clear(self) -> None:
        """Back to text cards (a new bot starts from here; its sync switches emojis on)."""
        self._emojis = {}
        self._markdown = {}
        self.generation = next(_GENERATIONS)

    def set(self, emojis: dict[str, discord.PartialEmoji]) -> None:
        self._emojis = dict(emojis)
        self._markdown = {}
        self.generation = next(_GENERATIONS)

    def card(
        self,
        card: Card,
        trump: bool = False,
        locale: LocaleLike = None,
        *,
        local_ranks: bool = True,
    ) -> discord.PartialEmoji | None:
        """The emoji for a face (``trump``: the card's suit is trumps) with the rank letters
        a reader of ``locale`` sees (:func:`bot.cardart.labels.card_label`), or None for
        text."""
        return self._emojis.get(card_key(card, trump, letters_of(locale, local_ranks)))

    def back(self) -> discord.PartialEmoji | None:
        return self._emojis.get(BACK_KEY)

    def markdown(
        self,
        card: Card,
        trump: bool = False,
        locale: LocaleLike = None,
        *,
        local_ranks: bool = True,
    ) -> str | None:
        """``<:dk_As_3f9a1c0b:123…>`` for message text, or None."""
        key = card_key(card, trump, letters_of(locale, local_ranks))
        try:
            return self._markdown[key]
        except KeyError:
            emoji = self._emojis.get(key)
            text = self._markdown[key] = str(emoji) if emoji is not None else None
            return text

    async def sync(self, client: discord.Client) -> SyncReport | None:
        """Make sure every face exists as an application emoji, then switch the registry on.

        A failure that may pass (Discord's 5xx, a network error) is tried again after each of
        :data:`RETRY_DELAYS`, so one hiccup at start does not cost a long-running bot its card
        pictures; a refusal (any other 4xx: permissions, the emoji cap, a bad image) is final.
        Every failure is one warning line, never a traceback; meanwhile cards are text.
        Returns what was done, or None when the faces could not be made available."""
        loop = asyncio.get_running_loop()
        specs = await loop.run_in_executor(None, wanted_emojis)
        for delay in (*RETRY_DELAYS, None):
            try:
                report = await self._sync(client, specs)
            except Exception as err:  # any failure only means text cards
                again = delay is not None and _transient(err)
                log.warning(
                    "card emojis unavailable, cards are shown as text%s: %s",
                    f" (trying again in {delay:.0f} s)" if again else "",
                    _describe(err),
                )
                if not again:
                    return None
                assert delay is not None
                await asyncio.sleep(delay)
                continue
            log.info(
                "card emojis ready: %d uploaded, %d already there, %d outdated deleted",
                report.uploaded,
                report.reused,
                report.deleted,
            )
            return report
        return None

    async def _sync(self, client: discord.Client, specs: Sequence[EmojiSpec]) -> SyncReport:
        report = SyncReport()
        wanted = {s.name for s in specs}
        found: dict[str, discord.Emoji] = {}
        stale: list[discord.Emoji] = []
        for emoji in await client.fetch_application_emojis():
            if not is_own_emoji_name(emoji.name):
                continue
            if emoji.name in wanted:
                # A duplicate (two processes of this bot uploading at once) is the same
                # picture and may be what the other process shows: it is kept, not deleted.
                found.setdefault(emoji.name, emoji)
            else:
                stale.append(emoji)
        report.reused = len(found)
        # Outdated drawings go first: they would only take room under the 2,000 cap.
        for emoji in stale:
            try:
                await emoji.delete()
                report.deleted += 1
            except discord.NotFound:
                pass  # another process (shard) of this bot deleted it first
        for spec in specs:
            if spec.name in found:
                continue
            try:
                found[spec.name] = await client.create_application_emoji(
                    name=spec.name, image=spec.image
                )
            except discord.HTTPException:
                # Another process of the same bot may have uploaded it a moment ago (names are
                # unique per application): look again before giving up.
                again = {e.name: e for e in await client.fetch_application_emojis()}
                if spec.name not in again:
                    raise
                found[spec.name] = again[spec.name]
            else:
                report.uploaded += 1
        self.set({s.key: discord.PartialEmoji(name=s.name, id=found[s.name].id) for s in specs})
        return report


def _transient(err: BaseException) -> bool:
    """Worth another try later: Discord's own errors and the network, not a refusal."""
    if isinstance(err, discord.HTTPException):
        return err.status >= 500
    return isinstance(err, (OSError, asyncio.TimeoutError, aiohttp.ClientError))


def _describe(err: BaseException) -> str:
    if isinstance(err, discord.HTTPException):
        return f"Discord answered {err.status} ({err.code}): {err.text or type(err).__name__}"
    return f"{type(err).__name__}: {err}"


#: The process's registry (see the module docstring for why it is global).
registry = CardEmojis()
