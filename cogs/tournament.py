"""``/durak tournament new|join|leave|show|cancel|settings`` (bot/game/tournaments.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.models import PlayerRef
from bot.i18n import ls, t
from bot.rendering.tournament import announcement_embed, standings_embed
from bot.surfaces.tournament_views import tournament_view
from bot.tournaments import FORMATS

from .door import DoorGroup
from .shared import (
    _choices,
    _discord_guild_locale,
    _locale,
    _require_manage,
    _service,
    durak,
    preset_autocomplete,
)

tournament = DoorGroup(
    name=ls("cmd.durak.tournament.name"),
    description=ls("cmd.durak.tournament.description"),
    parent=durak,
)

_ID = app_commands.Range[int, 1, 2**53]


class TournamentCommands(commands.Cog):
    """The ``/durak tournament`` subgroup."""

    @tournament.command(
        name=ls("cmd.durak.tournament.new.name"),
        description=ls("cmd.durak.tournament.new.description"),
    )
    @app_commands.rename(
        preset=ls("cmd.param.preset.name"),
        format=ls("cmd.param.format.name"),
        rounds=ls("cmd.param.rounds.name"),
        tables=ls("cmd.param.tables.name"),
        minutes=ls("cmd.param.signup_minutes.name"),
    )
    @app_commands.describe(
        preset=ls("cmd.param.preset.description"),
        format=ls("cmd.param.format.description"),
        rounds=ls("cmd.param.rounds.description"),
        tables=ls("cmd.param.tables.description"),
        minutes=ls("cmd.param.signup_minutes.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    @app_commands.choices(format=_choices("cmd.choice.format", FORMATS))
    @app_commands.choices(tables=[app_commands.Choice(name=str(n), value=n) for n in (2, 3, 4)])
    async def tournament_new(
        self,
        interaction: discord.Interaction,
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 20] = 3,
        tables: int = 2,
        minutes: app_commands.Range[int, 1, 10080] = 15,
        preset: str | None = None,
    ) -> None:
        """The public announcement with Sign up / Withdraw is this command's answer."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        service = _service(interaction)
        channel = interaction.channel
        home = channel.parent_id if isinstance(channel, discord.Thread) else None
        await service.check_channel(interaction.guild_id, home or interaction.channel_id)
        view = await service.create_tournament(
            interaction.guild_id,
            interaction.channel_id,
            PlayerRef(interaction.user.id, interaction.user.display_name),
            preset=preset,
            format=format,
            rounds=rounds,
            seats=tables,
            minutes=minutes,
            can_manage=interaction.permissions.manage_guild,
            discord_locale=_discord_guild_locale(interaction),
        )
        row = view.row
        try:
            await interaction.response.send_message(
                embed=announcement_embed(view, row.locale),
                view=tournament_view(row.id, row.status, row.locale),
            )
            message = await interaction.original_response()
        except Exception:
            # Without its announcement nobody could sign up: call it off again.
            await service.tournament_cancel(row.id, interaction.user.id, can_manage=True)
            raise
        await service.attach_tournament_message(row.id, message.id)

    @tournament.command(
        name=ls("cmd.durak.tournament.join.name"),
        description=ls("cmd.durak.tournament.join.description"),
    )
    @app_commands.rename(number=ls("cmd.param.tournament.name"))
    @app_commands.describe(number=ls("cmd.param.tournament.description"))
    async def tournament_join(
        self, interaction: discord.Interaction, number: _ID | None = None
    ) -> None:
        assert interaction.guild_id is not None
        service = _service(interaction)
        tid = await service.current_tournament(interaction.guild_id, number)
        await service.tournament_join(
            tid, PlayerRef(interaction.user.id, interaction.user.display_name)
        )
        await interaction.response.send_message(
            t("tournament.joined", _locale(interaction), id=tid), ephemeral=True
        )

    @tournament.command(
        name=ls("cmd.durak.tournament.leave.name"),
        description=ls("cmd.durak.tournament.leave.description"),
    )
    @app_commands.rename(number=ls("cmd.param.tournament.name"))
    @app_commands.describe(number=ls("cmd.param.tournament.description"))
    async def tournament_leave(
        self, interaction: discord.Interaction, number: _ID | None = None
    ) -> None:
        assert interaction.guild_id is not None
        service = _service(interaction)
        tid = await service.current_tournament(interaction.guild_id, number)
        await service.tournament_leave(tid, interaction.user.id)
        await interaction.response.send_message(
            t("tournament.left", _locale(interaction), id=tid), ephemeral=True
        )

    @tournament.command(
        name=ls("cmd.durak.tournament.show.name"),
        description=ls("cmd.durak.tournament.show.description"),
    )
    @app_commands.rename(number=ls("cmd.param.tournament.name"))
    @app_commands.describe(number=ls("cmd.param.tournament.description"))
    async def tournament_show(
        self, interaction: discord.Interaction, number: _ID | None = None
    ) -> None:
        assert interaction.guild_id is not None
        service = _service(interaction)
        tid = await service.current_tournament(interaction.guild_id, number)
        view = await service.tournament_view(tid)
        await interaction.response.send_message(
            embed=standings_embed(view, _locale(interaction)), ephemeral=True
        )

    @tournament.command(
        name=ls("cmd.durak.tournament.cancel.name"),
        description=ls("cmd.durak.tournament.cancel.description"),
    )
    @app_commands.rename(number=ls("cmd.param.tournament.name"))
    @app_commands.describe(number=ls("cmd.param.tournament.description"))
    async def tournament_cancel(
        self, interaction: discord.Interaction, number: _ID | None = None
    ) -> None:
        assert interaction.guild_id is not None
        service = _service(interaction)
        tid = await service.current_tournament(interaction.guild_id, number)
        await service.tournament_cancel(
            tid, interaction.user.id, can_manage=interaction.permissions.manage_guild
        )
        await interaction.response.send_message(
            t("tournament.cancelled_you", _locale(interaction), id=tid), ephemeral=True
        )

    @tournament.command(
        name=ls("cmd.durak.tournament.settings.name"),
        description=ls("cmd.durak.tournament.settings.description"),
    )
    @app_commands.rename(
        anyone=ls("cmd.param.anyone_opens.name"), seconds=ls("cmd.param.tournament_turn.name")
    )
    @app_commands.describe(
        anyone=ls("cmd.param.anyone_opens.description"),
        seconds=ls("cmd.param.tournament_turn.description"),
    )
    async def tournament_settings(
        self,
        interaction: discord.Interaction,
        anyone: bool | None = None,
        seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        """Without options: shows the settings (anyone may look); with them: admins only."""
        assert interaction.guild_id is not None
        service = _service(interaction)
        if anyone is None and seconds is None:
            settings = await service.tournament_settings(interaction.guild_id)
        else:
            _require_manage(interaction, "tournament.settings_admin_only")
            settings = await service.update_tournament_settings(
                interaction.guild_id, anyone_may_open=anyone, turn_seconds=seconds
            )
        loc = _locale(interaction)
        who = t(
            "tournament.settings.who.everyone"
            if settings.anyone_may_open
            else "tournament.settings.who.admins",
            loc,
        )
        await interaction.response.send_message(
            t("tournament.settings.current", loc, who=who, seconds=settings.turn_seconds),
            ephemeral=True,
        )
