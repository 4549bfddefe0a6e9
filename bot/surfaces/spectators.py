"""Spectators: a member's private, live view of a running game's public table.

The view is the channel's table (:func:`bot.rendering.table.table_embed`, built from
``game.public_observation()`` and the public events only) in the spectator's language, with
the move number and the number of spectators; nothing else is ever rendered into it, so it
cannot hold a card the channel may not see. It is kept current by
:class:`bot.surfaces.live_hands.LiveHands` (the same registry, coalescing, retries and 15-minute
token expiry as a player's live hand): there is one machinery for private live messages.

Why it is shaped like this:

* **One render per version and language.** A hundred spectators of one game see the same
  table, so the embed is built once per (game, version, language, delay) and shared; each
  spectator then costs one edit request, coalesced to at most one per
  ``LiveHands.watch_interval`` seconds (see bench/spectators.py for the figures).
* **Delay.** A server may make spectators see the table one move late (``/durak settings``
  ``spectator_delay``), so a spectator cannot relay the table faster than the channel's
  players read it. The view then renders ``GameSession.previous`` (the state before the
  last move). Before the first move, and after a restart, nothing earlier than the current
  state is in memory, so a delayed view says it starts after the next move instead of
  showing the current state early.
  The result is never delayed: the view ends with it.
* **Picture.** The view carries the public table picture when the channel's table does
  (the server's ``pictures`` setting): the same scene the channel's picture is drawn from
  (:func:`bot.pictures.scene.table_scene`, public observation only) of the same frame as
  the text — so the delayed state under a delay — in the spectator's language, drawn by the
  publisher's :class:`~bot.pictures.TablePictures` (its thread, cache and painter): a
  hundred spectators of one game in one language cost one picture per move.
* **Restart.** Interaction tokens live in memory only (they are secrets), so a restart ends
  every live view without an edit; the view's Refresh button carries the game in its custom
  id and reopens a live view after the restart, and the table's Watch does too.
* A player of the game who presses Watch is given their hand instead; a spectator who
  presses "Show my hand" is pointed to Watch (bot/surfaces/hand_items.py).
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

import discord

from ..game.models import GameSession
from ..i18n import t
from ..pictures import TablePictures
from ..rendering.table import table_embed
from .answers import on_public_message, update_message
from .door import _Guarded
from .hand_answers import send_hand
from .interactions import _components_view, _service
from .language import reader_locale

__all__ = [
    "UnwatchButton",
    "WatchButton",
    "send_watch",
    "watch_message",
    "watch_picture",
    "watch_reopen_view",
]

log = logging.getLogger(__name__)

#: Shared renders kept (per game, version, language, delay); a handful of games at once.
_CACHE_SIZE = 64
_cache: dict[tuple[int, int, str, bool, int], discord.Embed] = {}


def spectator_frame(session: GameSession) -> GameSession | None:
    """The session as spectators may see it now: itself, or with the server's delay the
    state before the last move (None when that is not in memory: just after a restart)."""
    if not session.spectator_delay or session.finished:
        return session
    previous = session.previous
    if previous is None:
        return None
    frame = copy.copy(session)
    frame.game = previous.game
    frame.events = previous.events
    frame.version = previous.version
    frame.deadline = previous.deadline
    return frame


def _embed(session: GameSession, frame: GameSession, locale: str) -> discord.Embed:
    key = (session.game_id, frame.version, locale, frame is not session, session.watchers)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    embed = table_embed(frame, locale)
    lines = [t("watch.move", locale, move=frame.version)]
    if frame is not session:
        lines.append(t("watch.delayed", locale))
    embed.add_field(name=t("watch.title", locale), value="\n".join(lines), inline=False)
    while len(_cache) >= _CACHE_SIZE:
        _cache.pop(next(iter(_cache)))
    _cache[key] = embed
    return embed


def watch_message(
    session: GameSession, locale: str
) -> tuple[str | None, discord.Embed | None, discord.ui.View]:
    """A spectator's view of ``session`` now: the public table (delayed if the server says
    so), or the final table and result once the game is over (then without buttons)."""
    if session.finished:
        return t("watch.ended_note", locale), _embed(session, session, locale), _components_view()
    frame = spectator_frame(session)
    view = _watch_buttons(session.game_id, locale)
    if frame is None:
        return t("watch.delay_waiting", locale), None, view
    return None, _embed(session, frame, locale), view


async def watch_picture(
    pictures: TablePictures | None,
    session: GameSession,
    locale: str,
    embed: discord.Embed | None,
) -> tuple[discord.Embed | None, list[discord.File]]:
    """The spectator's embed pointed at the public table picture of the frame it shows, and
    the file; the embed as it was and no file when there is no table to draw (a delayed view
    before its first frame), the server wants text only, or drawing failed. The embed is
    copied first: the text one is shared with every spectator (see :func:`_embed`)."""
    if pictures is None or embed is None:
        return embed, []
    frame = session if session.finished else spectator_frame(session)
    if frame is None:
        return embed, []
    shown = copy.copy(frame)
    shown.locale = locale
    pictured = embed.copy()
    files = await pictures.attach(shown, pictured)
    return (pictured, files) if files else (embed, [])


def _pictures(interaction: discord.Interaction) -> TablePictures | None:
    publisher = getattr(interaction.client, "publisher", None)
    pictures = getattr(publisher, "pictures", None)
    return pictures if isinstance(pictures, TablePictures) else None


def _watch_buttons(game_id: int, locale: str) -> discord.ui.View:
    view = _components_view()
    view.add_item(WatchButton(game_id, t("watch.button.refresh", locale), emoji="🔄"))
    view.add_item(UnwatchButton(game_id, t("watch.button.stop", locale)))
    return view


def watch_reopen_view(session: GameSession, locale: str) -> discord.ui.View:
    """The one button of a view whose live updates are about to stop (the token dies): a
    click shows the table again in place and brings a fresh token."""
    view = _components_view()
    view.add_item(
        WatchButton(
            session.game_id,
            t("watch.button.reopen", locale),
            style=discord.ButtonStyle.primary,
        )
    )
    return view


def _live(interaction: discord.Interaction) -> Any:
    return getattr(interaction.client, "live_hands", None)


async def send_watch(
    interaction: discord.Interaction, game_id: int, *, new_message: bool = False
) -> None:
    """Answer a Watch (button or ``/durak watch``): the live view, in a new private message
    (``new_message``, or from a public message or a command) or in place of the spectator's
    own view; a player of the game gets their hand instead."""
    session, seat = await _service(interaction).watchable(game_id, interaction.user.id)
    if seat is not None:
        await send_hand(interaction, session, seat)
        return
    locale = reader_locale(interaction, session.locale)
    content, embed, view = watch_message(session, locale)
    embed, files = await watch_picture(_pictures(interaction), session, locale, embed)
    own = interaction.message is not None and not on_public_message(interaction)
    own = own and not new_message and interaction.type is discord.InteractionType.component
    live = _live(interaction)
    if live is not None:
        live.watch_opened(interaction, session, locale, new_message=not own)
    if own:
        await update_message(
            interaction, content=content, embed=embed, view=view, attachments=files
        )
    else:
        fields: dict[str, Any] = {"embed": embed} if embed is not None else {}
        await interaction.response.send_message(
            content=content, view=view, ephemeral=True, files=files, **fields
        )
    log.info("game %d: watched by %d", game_id, interaction.user.id)


class WatchButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:watch:(?P<rest>.*)"
):
    """Watch (under the table and in ``/durak games``: ``durak:watch:<game>:new``, always a
    new private message), Refresh and "Keep watching" (on a spectator's view:
    ``durak:watch:<game>``, redrawn in place): each opens or renews the live view."""

    def __init__(
        self,
        game_id: int | None,
        label: str = "?",
        *,
        emoji: str | None = "👁",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        new_message: bool = False,
        rest: str | None = None,
    ) -> None:
        if rest is None:
            rest = f"{game_id}:new" if new_message else str(game_id)
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"durak:watch:{self.rest}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WatchButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        game, _, flag = self.rest.partition(":")
        if not game.isdigit() or flag not in ("", "new"):
            await self.malformed(interaction)
            return
        await send_watch(interaction, int(game), new_message=flag == "new")


class UnwatchButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"durak:unwatch:(?P<rest>.*)",
):
    """Stop watching: the view stops updating (and no longer counts as a spectator)."""

    def __init__(self, game_id: int | None, label: str = "?", *, rest: str | None = None) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"durak:unwatch:{self.rest}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnwatchButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if not self.rest.isdigit() or on_public_message(interaction):
            await self.malformed(interaction)
            return
        game_id = int(self.rest)
        live = _live(interaction)
        hand = live.hand(game_id, interaction.user.id) if live is not None else None
        if hand is not None and hand.watching:
            live.forget(game_id, interaction.user.id)
        locale = reader_locale(interaction)
        await update_message(
            interaction, content=t("watch.stopped", locale), embed=None, view=_components_view()
        )
