"""Pictures for the publisher: off the event loop, cached, and never fatal.

Drawing takes tens of milliseconds of CPU; on the event loop that would stall every other
game's buttons, so it runs in a dedicated single worker thread (one picture at a time keeps
a burst of games from taking both cores away from the database thread and the gateway).
Pictures are cached by :class:`~.scene.Scene`, which contains the game id and version, so a
refresh that changes nothing visible (or a second edit of the same version) costs nothing.
A failure of any kind is logged once with its traceback and answered with ``None``: the
caller then sends the text table, which is complete on its own.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import discord

from ..i18n import t
from ..sessions import GameSession, LobbyInfo
from .scene import Scene, lobby_scene, table_scene
from .table import render_png

__all__ = ["ATTACHMENT_NAME", "ATTACHMENT_URL", "TablePictures"]

log = logging.getLogger(__name__)

ATTACHMENT_NAME = "table.png"
#: How an embed refers to a file uploaded with the same message.
ATTACHMENT_URL = f"attachment://{ATTACHMENT_NAME}"
#: Pictures kept in memory (a 6-player table is ~60 KB): enough for every busy table of a
#: large bot to hit on a repeated edit, small enough not to matter.
CACHE_SIZE = 64


class TablePictures:
    """Renders scenes in a worker thread and remembers the latest results."""

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-picture")
        self._cache: OrderedDict[Scene, bytes] = OrderedDict()
        self._cache_size = cache_size
        self.renders = 0
        self.failures = 0

    @staticmethod
    def scene(state: GameSession | LobbyInfo) -> Scene:
        """Freeze what the picture shows; must run on the event loop (reads the live game)."""
        if isinstance(state, GameSession):
            return table_scene(state)
        return lobby_scene(state)

    async def png(self, state: GameSession | LobbyInfo) -> bytes | None:
        """The picture of ``state``, or None if it could not be drawn."""
        try:
            scene = self.scene(state)
        except Exception:
            self.failures += 1
            log.warning(
                "game %d: could not describe the table picture", state.game_id, exc_info=True
            )
            return None
        cached = self._cache.get(scene)
        if cached is not None:
            self._cache.move_to_end(scene)
            return cached
        try:
            png = await asyncio.get_running_loop().run_in_executor(
                self._executor, render_png, scene
            )
        except Exception:
            self.failures += 1
            log.warning(
                "game %d: could not draw the table picture; sending text only",
                state.game_id,
                exc_info=True,
            )
            return None
        self.renders += 1
        self._cache[scene] = png
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return png

    async def attach(
        self, state: GameSession | LobbyInfo, embed: discord.Embed
    ) -> list[discord.File]:
        """The picture as a file to send with ``embed`` (which is pointed at it), or no file
        at all when drawing failed: the embed is then the whole (text) table."""
        png = await self.png(state)
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

    def close(self) -> None:
        """Stop the worker; a render still queued is dropped (its table is stale anyway)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
