"""The Discord side of :class:`bot.sessions.Publisher`: one public message per game.

Each game owns exactly one public message (the lobby, which turns into the table, which ends
as the final table). It is edited in place, and edits are coalesced: a burst of moves (a
computer answering instantly, several throw-ins) produces at most one edit per
``interval`` seconds, and each edit renders the *latest* state rather than queueing stale
ones. Discord rate-limits message edits per channel, so this keeps busy tables responsive.
Pings and result announcements are separate short messages because edits do not notify.
Each edit also replaces the picture of the table (:mod:`bot.pictures`) when the guild wants
one, so the coalescing bounds uploads too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from . import rematch, render
from .pictures import TablePictures
from .rematch_views import rematch_message, result_announcement
from .sessions import GameService, GameSession, PingKind
from .views import lobby_view, table_view

__all__ = ["DiscordPublisher"]

log = logging.getLogger(__name__)


class DiscordPublisher:
    """Renders and sends; never decides anything about the game."""

    def __init__(self, client: discord.Client, service: GameService, interval: float) -> None:
        self.client = client
        self.service = service
        self.interval = interval
        self._last_edit: dict[int, float] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.pictures = TablePictures(service.settings)

    def _channel(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def refresh(self, game_id: int) -> None:
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(
                self._run(game_id), name=f"durak-table-{game_id}"
            )

    async def _run(self, game_id: int) -> None:
        loop = asyncio.get_running_loop()
        while game_id in self._dirty:
            wait = self._last_edit.get(game_id, float("-inf")) + self.interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(game_id)
            try:
                await self._edit(game_id)
            except Exception:
                log.exception("game %d: could not update the table message", game_id)
            self._last_edit[game_id] = loop.time()

    async def _edit(self, game_id: int) -> None:
        state = await self.service.public_state(game_id)
        if state.message_id is None:
            return
        if isinstance(state, GameSession):
            embed = render.table_embed(state)
            view = table_view(state)
        elif state.series is not None:
            embed, view = rematch_message(state, await rematch.waiting_for(self.service, state))
        else:
            embed = render.lobby_embed(state)
            view = lobby_view(state)
        message = self._channel(state.channel_id, state.guild_id).get_partial_message(
            state.message_id
        )
        await self.pictures.edit_table(message, state, embed=embed, view=view)

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> None:
        user_id = session.seats[seat].user_id
        await self._channel(session.channel_id, session.guild_id).send(
            render.ping_text(session, seat, kind),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id)] if user_id else False, roles=False, everyone=False
            ),
        )

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        user_id = session.seats[seat].user_id
        await self._channel(session.channel_id, session.guild_id).send(
            render.reminder_text(session, seat, deadline),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id)] if user_id else False, roles=False, everyone=False
            ),
        )

    async def finished(self, session: GameSession) -> None:
        humans = [discord.Object(s.user_id) for s in session.seats if s.user_id is not None]
        content, view = result_announcement(session)
        await self._channel(session.channel_id, session.guild_id).send(
            content,
            view=view,
            allowed_mentions=discord.AllowedMentions(users=humans, roles=False, everyone=False),
        )

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pictures.close()
