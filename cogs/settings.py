"""``/durak settings``: the server's house rules, language, timers and pictures."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.house_rules import DONE_STYLES
from bot.game.models import AI_DIFFICULTIES, LOBBY_IDLE_MAX_MINUTES
from bot.game.quick_offers import QUICK_COMPUTER_MAX_SECONDS
from bot.i18n import ls, t
from bot.rendering.server import settings_embed

from .shared import (
    THROW_IN_CHOICES,
    TIMER_MAX_SECONDS,
    TRUMP_EXCHANGE_CHOICES,
    _choices,
    _locale,
    _require_manage,
    _service,
    durak,
    preset_autocomplete,
)


class SettingsCommands(commands.Cog):
    """``/durak settings`` (managers only)."""

    @durak.command(
        name=ls("cmd.durak.settings.name"), description=ls("cmd.durak.settings.description")
    )
    @app_commands.rename(
        language=ls("cmd.param.language.name"),
        timer=ls("cmd.param.timer.name"),
        threads=ls("cmd.param.threads.name"),
        pictures=ls("cmd.param.pictures.name"),
        difficulty=ls("cmd.param.difficulty.name"),
        preset=ls("cmd.param.default_preset.name"),
        seats=ls("cmd.param.seats.name"),
        deck=ls("cmd.param.deck.name"),
        throw_in=ls("cmd.param.throw_in.name"),
        trump_exchange=ls("cmd.param.trump_exchange.name"),
        done=ls("cmd.param.done.name"),
        lobby_idle=ls("cmd.param.lobby_idle.name"),
        channel=ls("cmd.param.channel.name"),
        all_channels=ls("cmd.param.all_channels.name"),
        min_games=ls("cmd.param.min_games.name"),
        cross_server=ls("cmd.param.cross_server.name"),
        ranks=ls("cmd.param.ranks.name"),
        spectator_delay=ls("cmd.param.spectator_delay.name"),
        quick_computer=ls("cmd.param.quick_computer.name"),
    )
    @app_commands.describe(
        language=ls("cmd.param.language.description"),
        timer=ls("cmd.param.timer.description"),
        threads=ls("cmd.param.threads.description"),
        pictures=ls("cmd.param.pictures.description"),
        difficulty=ls("cmd.param.difficulty.description"),
        preset=ls("cmd.param.default_preset.description"),
        seats=ls("cmd.param.default_seats.description"),
        deck=ls("cmd.param.default_deck.description"),
        throw_in=ls("cmd.param.throw_in.description"),
        trump_exchange=ls("cmd.param.trump_exchange.description"),
        done=ls("cmd.param.done.description"),
        lobby_idle=ls("cmd.param.lobby_idle.description"),
        channel=ls("cmd.param.channel.description"),
        all_channels=ls("cmd.param.all_channels.description"),
        min_games=ls("cmd.param.min_games.description"),
        cross_server=ls("cmd.param.cross_server.description"),
        ranks=ls("cmd.param.ranks.description"),
        spectator_delay=ls("cmd.param.spectator_delay.description"),
        quick_computer=ls("cmd.param.quick_computer.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    @app_commands.choices(
        language=_choices("cmd.choice.language", ("en", "ru", "auto")),
        pictures=_choices("cmd.choice.pictures", ("on", "off")),
        difficulty=_choices("cmd.choice.difficulty", AI_DIFFICULTIES),
        throw_in=_choices("cmd.choice.throw_in", THROW_IN_CHOICES),
        trump_exchange=_choices("cmd.choice.trump_exchange", TRUMP_EXCHANGE_CHOICES),
        done=_choices("cmd.choice.done", DONE_STYLES),
        ranks=_choices("cmd.choice.ranks", ("local", "latin")),
    )
    @app_commands.choices(deck=[app_commands.Choice(name=str(n), value=n) for n in (24, 36, 52)])
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        timer: app_commands.Range[int, 0, TIMER_MAX_SECONDS] | None = None,
        threads: bool | None = None,
        pictures: str | None = None,
        difficulty: str | None = None,
        preset: str | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        deck: int | None = None,
        throw_in: str | None = None,
        trump_exchange: str | None = None,
        done: str | None = None,
        lobby_idle: app_commands.Range[int, 0, LOBBY_IDLE_MAX_MINUTES] | None = None,
        channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        min_games: app_commands.Range[int, 1, 1000] | None = None,
        cross_server: bool | None = None,
        ranks: str | None = None,
        spectator_delay: bool | None = None,
        quick_computer: app_commands.Range[int, 0, QUICK_COMPUTER_MAX_SECONDS] | None = None,
    ) -> None:
        """Without options: show the house rules. Each given option is saved; ``channel``
        toggles that channel in the allowed list, ``all_channels`` clears the list."""
        service = _service(interaction)
        locale = _locale(interaction)
        assert interaction.guild_id is not None
        _require_manage(interaction, "error.settings_admin_only")
        saved = await service.configure(
            interaction.guild_id,
            language=language,
            timer=timer,
            threads=threads,
            pictures=None if pictures is None else pictures == "on",
            difficulty=difficulty,
            preset=preset,
            options={
                "seats": seats,
                "deck_size": deck,
                "throw_in": throw_in,
                "trump_exchange": trump_exchange,
                "done": done,
                "lobby_idle_minutes": lobby_idle,
            },
            toggle_channel=channel.id if channel is not None else None,
            all_channels=all_channels,
            min_games=min_games,
            cross_server=cross_server,
            local_ranks=None if ranks is None else ranks == "local",
            spectator_delay=spectator_delay,
            quick_computer=quick_computer,
        )
        embed = settings_embed(saved.settings, locale)
        embed.add_field(
            name=t("ratings.settings.min_games", locale), value=str(saved.ratings.min_games)
        )
        embed.add_field(
            name=t("ratings.settings.cross_server", locale),
            value=t("common.on" if saved.ratings.cross_server else "common.off", locale),
        )
        await interaction.response.send_message(
            t("settings.updated", locale) if saved.changed else None, embed=embed, ephemeral=True
        )
