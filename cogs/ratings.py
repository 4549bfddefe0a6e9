"""``/durak profile`` and ``/durak season new|list``: ratings as a player and an admin see them.

The rating board itself is ``/durak leaderboard`` (cogs/stats.py), its default board."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ls, t
from bot.rendering.standings import season_label
from bot.surfaces.history_views import head_to_head_embed
from bot.surfaces.standings_views import profile_message

from .door import DoorGroup
from .shared import _locale, _public_locale, _require_manage, _service, durak

season = DoorGroup(
    name=ls("cmd.durak.season.name"),
    description=ls("cmd.durak.season.description"),
    parent=durak,
)


class RatingCommands(commands.Cog):
    """A player's profile card and the server's rating seasons."""

    @durak.command(
        name=ls("cmd.durak.profile.name"), description=ls("cmd.durak.profile.description")
    )
    @app_commands.rename(player=ls("cmd.param.player.name"), vs=ls("cmd.param.vs.name"))
    @app_commands.describe(
        player=ls("cmd.param.player.description"), vs=ls("cmd.param.vs.description")
    )
    async def profile(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        vs: discord.Member | None = None,
    ) -> None:
        """Only the asker sees it (like /durak stats): a profile is not an announcement.
        With ``vs``, the two players' head-to-head follows the profile card."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        locale = _locale(interaction)
        if vs is not None and vs.id == who.id:
            await interaction.response.send_message(
                t("history.h2h.same_player", locale), ephemeral=True
            )
            return
        service = _service(interaction)
        embed, files = await profile_message(
            service, interaction.guild_id, who.id, who.display_name, locale
        )
        embeds = [embed]
        if vs is not None:
            h2h = await service.head_to_head(interaction.guild_id, who.id, vs.id)
            embeds.append(head_to_head_embed(h2h, who.display_name, vs.display_name, locale))
        await interaction.response.send_message(embeds=embeds, files=files, ephemeral=True)

    @season.command(
        name=ls("cmd.durak.season.new.name"), description=ls("cmd.durak.season.new.description")
    )
    @app_commands.rename(name=ls("cmd.param.season_name.name"))
    @app_commands.describe(name=ls("cmd.param.season_name.description"))
    async def season_new(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        """Public: everyone's rating starts over, so the channel is told."""
        assert interaction.guild_id is not None
        _require_manage(interaction, "ratings.error.season_admin_only")
        old, new = await _service(interaction).new_season(interaction.guild_id, name)
        locale = await _public_locale(interaction)
        label = season_label(new, locale, dates=False)
        text = (
            t("ratings.season.started", locale, label=label, old=old.number)
            if old is not None
            else t("ratings.season.first", locale, label=label)
        )
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    @season.command(
        name=ls("cmd.durak.season.list.name"),
        description=ls("cmd.durak.season.list.description"),
    )
    async def season_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        seasons = await _service(interaction).seasons(interaction.guild_id)
        embed = discord.Embed(title=t("ratings.season.list_title", locale))
        embed.description = (
            "\n".join(season_label(s, locale) for s in seasons)
            if seasons
            else t("ratings.season.none", locale)
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
