"""``/durak leaderboard`` and ``/durak stats``: the server's results."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ls, t
from bot.rendering.server import stats_embed
from bot.surfaces.leaderboard_views import leaderboard_message
from bot.surfaces.standings_views import SCOPES, RatingBoard
from engine import PRESETS

from .shared import (
    _choices,
    _locale,
    _public_locale,
    _service,
    durak,
    preset_autocomplete,
)


class StatsCommands(commands.Cog):
    """Leaderboard and a player's statistics."""

    @durak.command(
        name=ls("cmd.durak.leaderboard.name"), description=ls("cmd.durak.leaderboard.description")
    )
    @app_commands.rename(
        sort=ls("cmd.param.sort.name"),
        period=ls("cmd.param.period.name"),
        mode=ls("cmd.param.preset.name"),
        season=ls("cmd.param.season.name"),
        scope=ls("cmd.param.scope.name"),
        page=ls("cmd.param.page.name"),
    )
    @app_commands.describe(
        sort=ls("cmd.param.sort.description"),
        period=ls("cmd.param.period.description"),
        mode=ls("cmd.param.preset.description"),
        season=ls("cmd.param.season.description"),
        scope=ls("cmd.param.scope.description"),
        page=ls("cmd.param.page.description"),
    )
    @app_commands.choices(
        sort=_choices("cmd.choice.sort", ("rating", "fools", "record")),
        period=_choices("cmd.choice.period", ("all", "month", "week")),
        scope=_choices("cmd.choice.scope", SCOPES),
    )
    @app_commands.autocomplete(mode=preset_autocomplete)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: str = "rating",
        period: str = "all",
        mode: str | None = None,
        season: app_commands.Range[int, 1, 10000] | None = None,
        scope: str = "server",
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """A public message in the server's language; its page buttons keep working later.
        ``mode``, ``season`` and ``scope`` filter the rating board (the default board)."""
        assert interaction.guild_id is not None
        locale = await _public_locale(interaction)
        if sort == "rating":
            if mode is not None and mode not in PRESETS:
                mode = None  # autocomplete offers presets; anything else means all modes
            sort = RatingBoard(mode or "", season, scope).token()
        embed, view, _, files = await leaderboard_message(
            _service(interaction), interaction.guild_id, period, sort, page - 1, locale, exact=True
        )
        await interaction.response.send_message(
            embed=embed, view=view, files=files, allowed_mentions=discord.AllowedMentions.none()
        )

    @durak.command(name=ls("cmd.durak.stats.name"), description=ls("cmd.durak.stats.description"))
    @app_commands.rename(player=ls("cmd.param.player.name"))
    @app_commands.describe(player=ls("cmd.param.player.description"))
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        who = player or interaction.user
        service = _service(interaction)
        stats = await service.user_stats(interaction.guild_id, who.id)
        embed = stats_embed(stats, who.display_name, _locale(interaction))
        hinted = await service.hint_games(interaction.guild_id, who.id)
        if hinted:  # games with hints are marked (and not rated): see bot/storage/records.py
            embed.add_field(
                name="💡", value=t("hint.stats_line", _locale(interaction), count=hinted)
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ----------------------------------------------------------------- forfeits
