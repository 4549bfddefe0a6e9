"""``/durak quick`` on Discord: the private answer with its Leave button, and the table a
filled queue opens — in the channel where its longest-waiting player asked, or in a thread
of its own when the server plays in threads — with its players pinged once."""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

import discord

from ..game.quick import QuickAnswer, QuickTable
from ..game.service import GameService
from ..i18n import t
from ..rendering.common import preset_name
from ..rendering.lobby import lobby_embed
from .door import _Guarded
from .interactions import _components_view, _service
from .language import reader_locale
from .lobby_views import lobby_view

__all__ = ["QuickLeaveButton", "open_tables", "quick_answer"]

log = logging.getLogger(__name__)


def quick_answer(answer: QuickAnswer, locale: str) -> tuple[str, discord.ui.View | None]:
    """The private answer to ``/durak quick``: in the queue (with Leave), or out of it."""
    mode = preset_name(answer.mode, locale)
    if not answer.joined:
        return t("quick.left", locale), None
    if answer.tables:
        return t("quick.seated", locale, mode=mode), None
    view = _components_view()
    view.add_item(QuickLeaveButton(t("quick.button.leave", locale)))
    return t("quick.waiting", locale, mode=mode, count=answer.waiting), view


async def open_tables(
    client: discord.Client, service: GameService, guild_id: int, tables: tuple[QuickTable, ...]
) -> list[discord.Message]:
    """Open each filled table through the lobby path (lobby, seats, message, start) and
    ping its players once; the table messages that were posted. A table Discord refuses is
    cancelled, never left half-made."""
    opened: list[discord.Message] = []
    for table in tables:
        info = await service.open_quick_table(guild_id, table)
        channel = client.get_channel(table.channel_id)
        settings = await service.settings(guild_id)
        loc = info.locale
        pings = " ".join(f"<@{p.user_id}>" for p in table.players)
        ready = "quick.table_ready_computer" if table.computers else "quick.table_ready"
        text = t(ready, loc, players=pings, mode=preset_name(table.mode, loc))
        players = [discord.Object(p.user_id) for p in table.players]  # exactly these
        try:
            if not isinstance(channel, discord.TextChannel | discord.Thread):
                raise RuntimeError(f"channel {table.channel_id} is gone")
            room: discord.abc.Messageable = channel
            thread_id: int | None = None
            if (
                settings.use_threads
                and isinstance(channel, discord.TextChannel)
                and channel.permissions_for(channel.guild.me).create_public_threads
            ):
                thread = await channel.create_thread(
                    name=t("lobby.thread_name", loc, game_id=info.game_id),
                    type=discord.ChannelType.public_thread,
                )
                room, thread_id = thread, thread.id
            message = await room.send(embed=lobby_embed(info), view=lobby_view(info))
            await service.attach_message(info.game_id, message.id, thread_id=thread_id)
            await service.start(info.game_id, table.players[0].user_id)
        except Exception:
            log.exception("game %d: the quick-match table could not be opened", info.game_id)
            with contextlib.suppress(Exception):
                await service.cancel(info.game_id, table.players[0].user_id, can_manage=True)
            continue
        opened.append(message)
        try:  # the table message is rewritten at every move: the ping is a line of its own
            await message.reply(
                text,
                allowed_mentions=discord.AllowedMentions(
                    users=players, roles=False, everyone=False
                ),
            )
        except discord.HTTPException as exc:
            log.warning("game %d: the quick-match ping failed: %s", info.game_id, exc)
    return opened


class QuickLeaveButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"durak:quick:(?P<rest>leave(?::[0-9]+)?)",
):
    """Leave the queue: ``durak:quick:leave`` (the guild and the player come from the
    click, so the button is only ever the presser's own), or ``durak:quick:leave:<guild>``
    on a direct message (the computer offer), where the click has no guild: the player
    still comes from the click, so a copied id can only take its presser out."""

    names_game = False  # the id names a player or nothing, not a game

    def __init__(self, label: str = "?", *, rest: str = "leave") -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.danger, custom_id=f"durak:quick:{rest}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QuickLeaveButton:
        return cls(rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        locale = reader_locale(interaction)
        _, _, named = self.rest.partition(":")
        guild_id = interaction.guild_id or (int(named) if named else None)
        if guild_id is None:
            await self.malformed(interaction)
            return
        left = await _service(interaction).quick_leave(guild_id, interaction.user.id)
        await interaction.response.edit_message(
            content=t("quick.left" if left else "quick.not_waiting", locale), view=None
        )
