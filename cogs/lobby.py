"""``/durak new``: open a lobby (in the channel or a thread of its own)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.models import PlayerRef
from bot.game.service import GameService
from bot.i18n import ls, t
from bot.surfaces.delivery import prompt_retry
from bot.surfaces.interactions import _components_view
from bot.surfaces.lobby_views import LobbyButton

from .shared import (
    _discord_guild_locale,
    _lobby_message,
    _locale,
    _service,
    durak,
    preset_autocomplete,
    twist_autocomplete,
)

log = logging.getLogger(__name__)


async def _send_lobby(
    room: discord.Thread, interaction: discord.Interaction, info: Any
) -> discord.Message:
    return await room.send(**await _lobby_message(interaction, info))


class LobbyCommands(commands.Cog):
    """``/durak new`` and posting its lobby."""

    @durak.command(name=ls("cmd.durak.new.name"), description=ls("cmd.durak.new.description"))
    @app_commands.rename(
        preset=ls("cmd.param.preset.name"),
        twist=ls("cmd.param.twist.name"),
        seats=ls("cmd.param.seats.name"),
        deck=ls("cmd.param.deck.name"),
        invite=ls("cmd.param.invite.name"),
        invite2=ls("cmd.param.invite2.name"),
        invite3=ls("cmd.param.invite3.name"),
        invite_only=ls("cmd.param.invite_only.name"),
    )
    @app_commands.describe(
        preset=ls("cmd.param.preset.description"),
        twist=ls("cmd.param.twist.description"),
        seats=ls("cmd.param.seats.description"),
        deck=ls("cmd.param.deck.description"),
        invite=ls("cmd.param.invite.description"),
        invite2=ls("cmd.param.invite.description"),
        invite3=ls("cmd.param.invite.description"),
        invite_only=ls("cmd.param.invite_only.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete, twist=twist_autocomplete)
    @app_commands.choices(deck=[app_commands.Choice(name=str(n), value=n) for n in (24, 36, 52)])
    async def new(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        deck: int | None = None,
        twist: str | None = None,
        invite: discord.Member | None = None,
        invite2: discord.Member | None = None,
        invite3: discord.Member | None = None,
        invite_only: bool = False,
    ) -> None:
        """Left-out options come from the guild's house rules (``/durak settings``).
        Invited players are mentioned under the lobby with a Join button of their own."""
        invited = _invitees(interaction, (invite, invite2, invite3))
        service = _service(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        home = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        await service.check_channel(interaction.guild_id, home or interaction.channel_id)
        settings = await service.settings(interaction.guild_id)
        info = await service.create_lobby(
            interaction.guild_id,
            interaction.channel_id,
            PlayerRef(interaction.user.id, interaction.user.display_name),
            preset,
            seats,
            deck,
            discord_locale=_discord_guild_locale(interaction),
            twist=twist,
            invite_only=invite_only,
        )
        if settings.use_threads and not in_thread:
            if (
                isinstance(channel, discord.TextChannel)
                and interaction.app_permissions.create_public_threads
            ):
                await self._new_in_thread(interaction, service, info, invited)
                return
            # No thread possible here: play in the channel and say why.
            await self._post_lobby(interaction, service, info)
            await _send_invite(service, interaction.followup, info, interaction.user.id, invited)
            await interaction.followup.send(
                t("error.cannot_create_thread", _locale(interaction)), ephemeral=True
            )
            return
        await self._post_lobby(interaction, service, info)
        await _send_invite(service, interaction.followup, info, interaction.user.id, invited)

    async def _new_in_thread(
        self,
        interaction: discord.Interaction,
        service: GameService,
        info: Any,
        invited: list[int],
    ) -> None:
        """A public notice in the channel, with the table in a thread started from it.

        Discord may refuse the thread or the lobby post in it (a 503 in an outage): each is
        tried again at once a few times (:func:`prompt_retry`). If it still fails nothing
        is left half-made: the lobby is cancelled, a thread without its table is deleted, the
        public notice goes (or, if even that fails, says the table could not be opened) and
        the host is told privately, so nobody waits at a table that will never appear."""
        loc = info.locale
        try:
            await interaction.response.send_message(
                t("lobby.thread_opening", loc, host=interaction.user.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            notice = await interaction.original_response()
        except Exception:
            await service.cancel(info.game_id, interaction.user.id)
            raise
        # recorded at once: if the bot stops before the table is up, the restart finds the
        # lobby without a table and corrects this notice (LobbyService.restore_lobbies)
        await service.set_notice(info.game_id, notice.channel.id, notice.id)
        thread: discord.Thread | None = None
        try:
            thread = await prompt_retry(
                lambda: notice.create_thread(name=t("lobby.thread_name", loc, game_id=info.game_id))
            )
            room = thread
            table = await prompt_retry(
                lambda: _send_lobby(room, interaction, info)  # built anew: a picture is a file
            )
        except Exception as exc:  # Discord refused, or a bug: either way nothing half-made
            await self._abandon_thread(interaction, service, info, thread, exc)
            return
        await service.attach_message(info.game_id, table.id, thread_id=thread.id)
        await _send_invite(service, thread, info, interaction.user.id, invited)
        try:
            await prompt_retry(
                lambda: interaction.edit_original_response(
                    content=t(
                        "lobby.thread_opened",
                        loc,
                        host=interaction.user.mention,
                        thread=thread.mention,
                    )
                )
            )
        except discord.HTTPException as exc:  # the table is there; only the pointer is stale
            log.warning("game %d: the notice still says 'opening': %s", info.game_id, exc)

    async def _abandon_thread(
        self,
        interaction: discord.Interaction,
        service: GameService,
        info: Any,
        thread: discord.Thread | None,
        exc: Exception,
    ) -> None:
        """Undo a start Discord refused (or a bug broke): see :meth:`_new_in_thread`."""
        loc = info.locale
        if isinstance(exc, discord.HTTPException):
            log.warning(
                "game %d: could not open its table in a thread (%s %s); lobby cancelled",
                info.game_id,
                exc.status,
                exc.text or type(exc).__name__,
            )
        else:
            log.error(
                "game %d: opening its table failed; lobby cancelled", info.game_id, exc_info=exc
            )
        await service.cancel(info.game_id, interaction.user.id)
        if thread is not None:
            with contextlib.suppress(discord.HTTPException):
                await prompt_retry(thread.delete)
        try:
            await prompt_retry(interaction.delete_original_response)
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    content=t("lobby.thread_failed_notice", loc, host=interaction.user.mention)
                )
        with contextlib.suppress(discord.HTTPException):
            await prompt_retry(
                lambda: interaction.followup.send(t("lobby.thread_failed", loc), ephemeral=True)
            )

    async def _post_lobby(
        self, interaction: discord.Interaction, service: GameService, info: Any
    ) -> None:
        try:
            await interaction.response.send_message(**await _lobby_message(interaction, info))
            message = await interaction.original_response()
        except Exception:
            # Without its message nobody could join: do not leave an orphan lobby behind.
            await service.cancel(info.game_id, interaction.user.id)
            raise
        await service.attach_message(info.game_id, message.id)


def _invitees(
    interaction: discord.Interaction, members: tuple[discord.Member | None, ...]
) -> list[int]:
    """The invited humans, once each: not the host, not a bot."""
    out: list[int] = []
    for member in members:
        if member is None or member.bot or member.id == interaction.user.id:
            continue
        if member.id not in out:
            out.append(member.id)
    return out


async def _send_invite(
    service: Any,
    target: discord.abc.Messageable | discord.Webhook,
    info: Any,
    host: int,
    invited: list[int],
) -> None:
    """Ping the invited players where the lobby is, with a Join button under the ping (the
    lobby's own Join, so it works after a restart and refuses politely once it is full).
    The invite is remembered: once the lobby starts or closes the publisher takes its Join
    button off and says so."""
    if not invited:
        return
    view = _components_view()
    view.add_item(
        LobbyButton(
            info.game_id, "join", t("lobby.button.join", info.locale), discord.ButtonStyle.success
        )
    )
    sent = await target.send(
        t(
            "lobby.invite",
            info.locale,
            users=", ".join(f"<@{u}>" for u in invited),
            host=f"<@{host}>",
        ),
        view=view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(u) for u in invited], roles=False, everyone=False
        ),
    )
    if sent is not None:
        await service.set_invite(info.game_id, sent.channel.id, sent.id, invited)
