"""Pictures for the publisher: off the event loop, cached, and never fatal.

Drawing a whole table takes milliseconds of CPU; on the event loop that would stall every
other game's buttons, so it runs in a dedicated single worker thread (one picture at a time
keeps a burst of games from taking both cores away from the database thread and the
gateway). The thread's :class:`~.painter.Painter` draws a game's picture from its last one
(only what changed), and returns the last bytes when nothing visible changed. Pictures are
also cached by :class:`~.scene.Scene`, which contains the game id and version, so a second
edit of the same version does not even reach the thread.

Only pictures that go out are drawn: the publisher's table edits are coalesced before they
are rendered (bot/surfaces/delivery.py: an edit superseded within the interval is never
delivered, so never drawn), a table edit whose picture is still queued when a newer edit of
the same game becomes owed is dropped before it is drawn (:class:`Superseded`: the newer
edit follows, and the stale one would only have shown for an interval), and a picture is
asked for only once the guild is known to want one and the bot may attach files.
A failure of any kind is logged once with its traceback and answered with ``None``: the
caller then sends the text table, which is complete on its own.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import discord

from ..game.models import GameSession, LobbyInfo
from ..i18n import t
from ..metrics import timed_render
from .painter import Painter
from .scene import Scene, lobby_scene, table_scene

__all__ = ["ATTACHMENT_NAME", "ATTACHMENT_URL", "Superseded", "TablePictures"]

log = logging.getLogger(__name__)

ATTACHMENT_NAME = "table.png"
#: How an embed refers to a file uploaded with the same message.
ATTACHMENT_URL = f"attachment://{ATTACHMENT_NAME}"
#: Pictures kept in memory (a 6-player table is ~40 KB): enough for every busy table of a
#: large bot to hit on a repeated edit, small enough not to matter.
CACHE_SIZE = 64
#: After Discord refuses a picture in a channel (the bot lacks *Attach Files* there), that
#: channel gets text tables for this long before a picture is tried again.
PICTURE_RETRY_SECONDS = 600.0


def _moment(state: GameSession | LobbyInfo) -> object:
    """What changes whenever the state a picture would show changes: a game's service
    version and its engine game (replaced at every commit); a lobby is a snapshot read from
    storage (``GameService.lobby``), which nothing changes afterwards."""
    if isinstance(state, GameSession):
        return state.version, id(state.game), state.status
    return state


class Superseded(Exception):
    """A table edit's picture was not drawn: a newer edit of the game is already owed."""


class TablePictures:
    """Renders scenes in a worker thread, remembers the latest results, and puts them on the
    table message when the guild wants pictures.

    ``settings`` looks up a guild's settings (``GameService.settings``); its ``pictures`` flag
    is the guild's choice. Without it (tests, benchmarks) pictures are always wanted.
    ``newer(game_id, version)`` says whether a table edit of a later version than
    ``version`` is owed (``Delivery.owes_newer_table``); it is asked in the worker thread,
    when a table edit's picture comes out of the queue, so it must be a plain read.
    """

    def __init__(
        self,
        settings: Callable[[int], Awaitable[Any]] | None = None,
        cache_size: int = CACHE_SIZE,
        newer: Callable[[int, int], bool] | None = None,
    ) -> None:
        self._settings = settings
        self._newer = newer
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-picture")
        #: Used only in the worker thread (it keeps a scratch image and per-game state).
        self.painter = Painter()
        #: What draws a scene in the worker thread (tests replace it).
        self.draw: Callable[[Scene], bytes] = self.painter.png
        self._cache: OrderedDict[Scene, bytes] = OrderedDict()
        self._cache_size = cache_size
        #: channel id -> loop time until which its tables go out without a picture.
        self._refused_until: dict[int, float] = {}
        self.renders = 0
        self.failures = 0
        #: Table edits dropped because their picture was superseded before it was drawn.
        self.superseded = 0

    def scene(self, state: GameSession | LobbyInfo) -> Scene:
        """Freeze what the picture shows; must run on the event loop (reads the live game)."""
        if isinstance(state, GameSession):
            return table_scene(state)
        return lobby_scene(state)

    def _scene(self, state: GameSession | LobbyInfo) -> Scene | None:
        try:
            return self.scene(state)
        except Exception:
            self.failures += 1
            log.warning(
                "game %d: could not describe the table picture", state.game_id, exc_info=True
            )
            return None

    async def wanted(self, guild_id: int, channel_id: int | None = None) -> bool:
        """The guild's choice (``/durak settings pictures``), unless Discord recently refused
        a picture in this channel. Text only if the setting cannot be read: the text table is
        complete on its own."""
        if channel_id is not None:
            until = self._refused_until.get(channel_id)
            if until is not None and asyncio.get_running_loop().time() < until:
                return False
        if self._settings is None:
            return True
        try:
            return bool((await self._settings(guild_id)).pictures)
        except Exception:
            log.warning("guild %d: could not read the picture setting", guild_id)
            return False

    async def png(self, state: GameSession | LobbyInfo) -> bytes | None:
        """The picture of ``state``, or None if it could not be drawn."""
        scene = self._scene(state)
        return None if scene is None else await self._render(scene, state.game_id)

    async def _render(self, scene: Scene, game_id: int, *, supersede: bool = False) -> bytes | None:
        cached = self._cache.get(scene)
        if cached is not None:
            self._cache.move_to_end(scene)
            return cached
        job: Callable[[Scene], bytes | None] = partial(timed_render, self.draw)
        if supersede and self._newer is not None:
            job = partial(self._unless_superseded, self._newer)
        try:
            png = await asyncio.get_running_loop().run_in_executor(self._executor, job, scene)
        except Exception:
            self.failures += 1
            log.warning(
                "game %d: could not draw the table picture; sending text only",
                game_id,
                exc_info=True,
            )
            return None
        if png is None:
            self.superseded += 1
            raise Superseded
        self.renders += 1
        self._cache[scene] = png
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return png

    def _unless_superseded(self, newer: Callable[[int, int], bool], scene: Scene) -> bytes | None:
        """In the worker thread: the picture, or None if a newer edit of the game is owed."""
        if newer(scene.game_id, scene.version):
            return None
        return timed_render(self.draw, scene)

    async def attach(
        self,
        state: GameSession | LobbyInfo,
        embed: discord.Embed,
        *,
        allowed: bool = True,
        supersede: bool = False,
    ) -> list[discord.File]:
        """The picture to send with ``embed`` (which is pointed at it), or no file when the
        guild wants text only, ``allowed`` is False (no *Attach Files*), or drawing failed:
        the embed is then the whole (text) table.

        Call it right after building ``embed``. The scene is taken only once the guild is
        known to want a picture (with pictures off nothing is described at all); if the game
        moved on while the setting was read (it is usually in memory and nothing is awaited
        then), there is no picture, so text and picture always show the same moment of the
        game. With ``supersede`` (a table edit), :class:`Superseded` is raised instead of
        drawing a picture that a newer owed edit would replace before anyone saw it."""
        if not allowed:
            return []
        moment = _moment(state)
        if not await self.wanted(state.guild_id, state.channel_id):
            return []
        if _moment(state) != moment:
            # The guild's setting was read from the database, and the game moved on
            # meanwhile: a picture of it now would not show what ``embed`` shows.
            if supersede:
                self.superseded += 1
                raise Superseded
            return []
        scene = self._scene(state)
        if scene is None:
            return []
        png = await self._render(scene, state.game_id, supersede=supersede)
        if png is None:
            return []
        embed.set_image(url=ATTACHMENT_URL)
        # The description is the image's alt text: screen readers announce it.
        return [
            discord.File(
                io.BytesIO(png),
                filename=ATTACHMENT_NAME,
                description=t("picture.alt", state.locale),
            )
        ]

    async def edit_table(
        self,
        message: discord.PartialMessage,
        state: GameSession | LobbyInfo,
        *,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        """Edit the public table message to ``embed`` and ``view``, with the picture.

        ``attachments`` replaces the previous picture; an empty list removes it (pictures were
        switched off, or this one could not be drawn and the old one would be stale). If
        Discord refuses the file (most likely no *Attach Files* in that channel), the text
        table still goes out and the channel gets text only for a while. Raises
        :class:`Superseded`, editing nothing, if a newer edit of the game is owed by the
        time the picture would be drawn."""
        files = await self.attach(state, embed, supersede=True)
        try:
            await message.edit(content=None, embed=embed, view=view, attachments=files)
        except discord.Forbidden:
            if not files:
                raise
            log.warning(
                "game %d: Discord refused the table picture in channel %d; text only for %d s",
                state.game_id,
                state.channel_id,
                PICTURE_RETRY_SECONDS,
            )
            loop = asyncio.get_running_loop()
            self._refused_until[state.channel_id] = loop.time() + PICTURE_RETRY_SECONDS
            embed.set_image(url=None)
            await message.edit(content=None, embed=embed, view=view, attachments=[])

    def close(self) -> None:
        """Stop the worker; a render still queued is dropped (its table is stale anyway)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
