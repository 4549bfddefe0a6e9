"""The Activity's view of Discord itself (:class:`bot.activity.lobby.DiscordSide`): the
channel's server, whether a player may be there, the message of a lobby opened at the
Activity's table, and avatars, from the bot's Discord client."""

from __future__ import annotations

from typing import Any

import discord

from ..activity.lobby import Member
from ..game.models import LobbyInfo
from ..game.service import GameService
from ..i18n import normalize_locale
from ..rendering.lobby import lobby_embed
from .delivery import prompt_retry
from .lobby_views import lobby_view

__all__ = ["ActivityDiscord"]

#: Where Discord serves avatars; the Activity's client loads the rest of the address through
#: its URL mapping (docs/activity.md).
CDN = "https://cdn.discordapp.com/"
#: Pixels: a seat's avatar is drawn at 40 px, three times that on the densest screens.
AVATAR_SIZE = 128


class ActivityDiscord:
    """A lobby opened at the Activity's table is posted in the channel the Activity runs in,
    never in a thread of its own: the others in that channel find it there (in chat, and in
    the Activity, which looks the channel's game up), and a voice channel, where Activities
    mostly run, has no threads."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service

    def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None

    def guild_of(self, channel_id: int) -> int | None:
        channel = self._channel(channel_id)
        return channel.guild.id if channel is not None else None

    async def sees(self, channel_id: int, user_id: int) -> bool:
        person = await self._person(channel_id, user_id)
        channel = self._channel(channel_id)
        return (
            person is not None
            and channel is not None
            and channel.permissions_for(person).view_channel
        )

    async def _person(self, channel_id: int, user_id: int) -> discord.Member | None:
        channel = self._channel(channel_id)
        if channel is None:
            return None
        person = channel.guild.get_member(user_id)
        if person is None:
            try:
                person = await channel.guild.fetch_member(user_id)
            except discord.HTTPException:
                return None
        return person

    async def member(self, channel_id: int, user_id: int) -> Member | None:
        """The player, if they may see and post in the channel (the browser names the
        channel; Discord says whether its user belongs there)."""
        channel = self._channel(channel_id)
        person = await self._person(channel_id, user_id)
        if channel is None or person is None:
            return None
        guild = channel.guild
        rights = channel.permissions_for(person)
        if not (rights.view_channel and rights.send_messages):
            return None
        locale = normalize_locale(str(guild.preferred_locale)) if guild.preferred_locale else None
        return Member(guild.id, person.display_name, locale)

    async def post_lobby(self, info: LobbyInfo) -> None:
        room = self.client.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        message = await prompt_retry(
            lambda: room.send(embed=lobby_embed(info), view=lobby_view(info))
        )
        await self.service.attach_message(info.game_id, message.id)

    def avatar(self, user_id: int) -> str | None:
        user = self.client.get_user(user_id)
        if user is None:
            return None
        url = user.display_avatar.with_size(AVATAR_SIZE).url
        return url.removeprefix(CDN) if url.startswith(CDN) else None
