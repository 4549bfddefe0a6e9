"""``/durak`` slash commands. Thin on purpose: map the interaction to one service call and send
what :mod:`bot.render` returns; every rule and every refusal lives in the service."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.i18n import ls, pick_locale, t
from bot.sessions import GameService, GameSession, PlayerRef, ServiceError
from bot.views import error_text, lobby_view, send_hand
from engine import PRESETS, RuleSet

log = logging.getLogger(__name__)

DEFAULT_PRESET = "podkidnoy"


def _service(interaction: discord.Interaction) -> GameService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the client has no game service")
    return service


def _locale(interaction: discord.Interaction) -> str:
    return pick_locale(interaction.locale, interaction.guild_locale)


async def _refuse(interaction: discord.Interaction, err: ServiceError) -> None:
    text = error_text(err, _locale(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def preset_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Every engine preset with its translated name and description."""
    locale = _locale(interaction)
    needle = current.strip().lower()
    choices = []
    for preset in PRESETS:
        label = (
            f"{t(f'preset.{preset}.name', locale)} — {t(f'preset.{preset}.description', locale)}"
        )
        if needle and needle not in preset and needle not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label[:100], value=preset))
    return choices[:25]


class DurakCog(commands.Cog):
    durak = app_commands.Group(
        name=ls("cmd.durak.name"), description=ls("cmd.durak.description"), guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @durak.command(name=ls("cmd.durak.new.name"), description=ls("cmd.durak.new.description"))
    @app_commands.rename(
        preset=ls("cmd.param.preset.name"),
        seats=ls("cmd.param.seats.name"),
        deck=ls("cmd.param.deck.name"),
    )
    @app_commands.describe(
        preset=ls("cmd.param.preset.description"),
        seats=ls("cmd.param.seats.description"),
        deck=ls("cmd.param.deck.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    @app_commands.choices(deck=[app_commands.Choice(name=str(n), value=n) for n in (24, 36, 52)])
    async def new(
        self,
        interaction: discord.Interaction,
        preset: str = DEFAULT_PRESET,
        seats: app_commands.Range[int, 2, 6] = 2,
        deck: int = 36,
    ) -> None:
        service = _service(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            info = await service.create_lobby(
                interaction.guild_id,
                interaction.channel_id,
                PlayerRef(interaction.user.id, interaction.user.display_name),
                preset,
                seats,
                deck,
            )
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        try:
            await interaction.response.send_message(
                embed=render.lobby_embed(info), view=lobby_view(info)
            )
            message = await interaction.original_response()
        except Exception:
            # Without its message nobody could join: do not leave an orphan lobby behind.
            await service.cancel(info.game_id, interaction.user.id)
            raise
        await service.attach_message(info.game_id, message.id)

    @durak.command(name=ls("cmd.durak.hand.name"), description=ls("cmd.durak.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        try:
            game_id = await service.game_for_user(interaction.user.id)
            if game_id is None:
                raise ServiceError("error.no_active_game")
            session, seat = await service.require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await send_hand(interaction, session, seat)

    @durak.command(name=ls("cmd.durak.leave.name"), description=ls("cmd.durak.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        try:
            game_id = await _service(interaction).leave(interaction.user.id)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("leave.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.cancel.name"), description=ls("cmd.durak.cancel.description"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        assert interaction.channel_id is not None
        try:
            game_id = await service.game_in_channel(interaction.channel_id)
            if game_id is None:
                raise ServiceError("error.no_game_here")
            await service.cancel(
                game_id,
                interaction.user.id,
                can_manage=bool(interaction.permissions.manage_guild),
            )
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("cancel.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.rules.name"), description=ls("cmd.durak.rules.description"))
    @app_commands.rename(preset=ls("cmd.param.preset.name"))
    @app_commands.describe(preset=ls("cmd.param.preset.description"))
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        service = _service(interaction)
        locale = _locale(interaction)
        assert interaction.channel_id is not None
        rules: RuleSet | None = None
        title = ""
        if preset is None:
            game_id = await service.game_in_channel(interaction.channel_id)
            if game_id is not None:
                state: Any = await service.public_state(game_id)
                if isinstance(state, GameSession):
                    rules = state.game.rules
                else:
                    try:
                        rules = state.rules(players=max(2, len(state.seats)))
                    except Exception:
                        rules = state.rules()
                title = t(
                    "rules.table_title",
                    locale,
                    game_id=game_id,
                    preset=render.preset_name(state.preset, locale),
                )
        if rules is None:
            name = preset or DEFAULT_PRESET
            if name not in PRESETS:
                await _refuse(interaction, ServiceError("error.unknown_preset", preset=name))
                return
            rules = RuleSet.preset(name)
            title = t("rules.preset_title", locale, preset=render.preset_name(name, locale))
        await interaction.response.send_message(
            embed=render.rules_embed(rules, title, locale), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.games.name"), description=ls("cmd.durak.games.description"))
    async def games(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        rows = [
            (gid, preset, channel, [render.seat_name(s, locale) for s in seats])
            for gid, preset, channel, seats in await service.running_games(interaction.guild_id)
        ]
        await interaction.response.send_message(
            embed=render.games_embed(rows, locale), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DurakCog(bot))
