"""Discord side of tournaments (:mod:`bot.game.tournaments`): the announcement's buttons and
the :class:`~bot.game.models.TournamentPublisher` that posts what the flow decides.

Custom id: ``durak:tourney:<tournament>:<op>`` with ``op`` ``join`` or ``leave``; the
tournament's id is all the state a click needs, so the buttons work after a restart.

Public messages, as few as the issue allows: one announcement (edited as sign-ups change
and rounds go by), one message per round (standings and tables, as a picture), one with the
final standings; each table's game gets a thread of its own, whose first message pings its
players and then becomes the table.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from ..game.models import PlayerRef
from ..game.service import GameService
from ..i18n import t
from ..pictures.tournament import render_tournament_png
from ..rendering.tournament import (
    announcement_embed,
    final_content,
    round_content,
    table_content,
    tournament_scene,
)
from .door import _Guarded
from .interactions import _components_view, _service, reply_ephemeral
from .language import reader_locale

__all__ = ["TOURNAMENT_ITEMS", "DiscordTournamentPublisher", "tournament_view"]

log = logging.getLogger(__name__)

#: Discord's longest thread name.
THREAD_NAME = 100


def tournament_view(tournament_id: int, status: str, locale: str) -> discord.ui.View:
    """Sign up / Withdraw while signing up; Withdraw while running; nothing after."""
    view = _components_view()
    if status == "signup":
        view.add_item(
            TournamentButton(
                tournament_id,
                "join",
                t("tournament.button.join", locale),
                discord.ButtonStyle.success,
            )
        )
    if status in ("signup", "running"):
        view.add_item(
            TournamentButton(
                tournament_id,
                "leave",
                t("tournament.button.leave", locale),
                discord.ButtonStyle.secondary,
            )
        )
    return view


class TournamentButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"durak:tourney:(?P<rest>.*)",
):
    names_game = False  # the id names a tournament: checked against this server below

    def __init__(
        self,
        tournament_id: int | None,
        op: str = "join",
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.success,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{tournament_id}:{op}"
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"durak:tourney:{self.rest}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("join", "leave"):
            await self.malformed(interaction)
            return
        assert interaction.guild_id is not None
        service = _service(interaction)
        # a forged id of another server's tournament is "no such tournament" here
        tournament_id = await service.current_tournament(interaction.guild_id, int(parts[0]))
        op = parts[1]
        locale = reader_locale(interaction)
        if op == "join":
            await service.tournament_join(
                tournament_id, PlayerRef(interaction.user.id, interaction.user.display_name)
            )
            await reply_ephemeral(interaction, t("tournament.joined", locale, id=tournament_id))
        else:
            await service.tournament_leave(tournament_id, interaction.user.id)
            await reply_ephemeral(interaction, t("tournament.left", locale, id=tournament_id))


TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TournamentButton,)


class DiscordTournamentPublisher:
    """Renders and sends tournament messages; decides nothing about the tournament.

    Each call is made after the flow committed; a Discord failure is logged and leaves the
    tournament itself untouched (the next round or a restart draws the messages again)."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service

    def _channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def announce(self, tournament_id: int) -> None:
        view = await self.service.tournament_view(tournament_id)
        row = view.row
        if row.message_id is None:
            return
        message = self._channel(row.channel_id, row.guild_id).get_partial_message(row.message_id)
        await message.edit(
            embed=announcement_embed(view, row.locale),
            view=tournament_view(row.id, row.status, row.locale),
        )

    async def open_table(self, tournament_id: int, game_id: int) -> None:
        view = await self.service.tournament_view(tournament_id)
        row = view.row
        table = next(tb for tb in view.tables if tb.game_id == game_id)
        channel = self.client.get_channel(row.channel_id)
        content = table_content(view, game_id, row.locale)
        players = [discord.Object(p) for p in table.players]  # only this table's players
        if isinstance(channel, discord.TextChannel):
            name = t(
                "tournament.thread_name",
                row.locale,
                id=row.id,
                round=table.round,
                table=table.number,
            )[:THREAD_NAME]
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
            message = await thread.send(
                content,
                allowed_mentions=discord.AllowedMentions(
                    users=players, roles=False, everyone=False
                ),
            )
            await self.service.attach_message(game_id, message.id, thread_id=thread.id)
            return
        # No threads here (a thread itself, a forum): the table lives in the channel.
        message = await self._channel(row.channel_id, row.guild_id).send(
            content,
            allowed_mentions=discord.AllowedMentions(users=players, roles=False, everyone=False),
        )
        await self.service.attach_message(game_id, message.id)

    async def round(self, tournament_id: int, number: int) -> None:
        view = await self.service.tournament_view(tournament_id)
        row = view.row
        png = await asyncio.to_thread(
            render_tournament_png, tournament_scene(view, row.locale, number)
        )
        file = discord.File(io.BytesIO(png), filename=f"tournament-{row.id}-round-{number}.png")
        content = round_content(view, number, row.locale)
        channel = self._channel(row.channel_id, row.guild_id)
        existing = await self.service.tournament_round_message(row.id, number)
        if existing is not None:
            await channel.get_partial_message(existing).edit(content=content, attachments=[file])
            return
        sent = await channel.send(content, file=file)
        await self.service.set_tournament_round_message(row.id, number, sent.id)

    async def final(self, tournament_id: int) -> None:
        view = await self.service.tournament_view(tournament_id)
        row = view.row
        png = await asyncio.to_thread(
            render_tournament_png, tournament_scene(view, row.locale, None)
        )
        file = discord.File(io.BytesIO(png), filename=f"tournament-{row.id}-final.png")
        winner = [discord.Object(row.winner_id)] if row.winner_id is not None else []
        await self._channel(row.channel_id, row.guild_id).send(
            final_content(view, row.locale),
            file=file,
            allowed_mentions=discord.AllowedMentions(users=winner, roles=False, everyone=False),
        )
