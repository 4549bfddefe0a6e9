"""``/durak hand``, ``leave``, ``cancel``, ``rules``, ``games`` and ``watch``: a player at a
table, what they can look up while playing, and the tables a member can join or watch."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.errors import ServiceError
from bot.i18n import ls, t
from bot.rendering.common import COLOUR_LOBBY
from bot.rendering.result import leave_question
from bot.surfaces.hand_answers import send_hand
from bot.surfaces.lobby_views import leave_confirm_view
from bot.surfaces.rules_views import rules_details_view, rules_title
from bot.surfaces.spectators import send_watch
from bot.surfaces.tables_views import tables_message
from engine import RuleSet

from .shared import _locale, _service, durak, preset_autocomplete


def rules_summary_embed(rules: RuleSet, title: str, locale: str) -> discord.Embed:
    """A few plain sentences first: what the mode is, the deck and the table; the full
    option table (24 technical fields) waits behind a button."""
    lines = [t("rules.goal", locale)]
    preset_key = f"preset.{rules.variant}.description" if rules.variant != "none" else ""
    if rules.transfer != "off":
        play_key = "rules.summary.transfer"
    elif rules.throw_in == "none":
        play_key = "rules.summary.no_throw_in"
    else:
        play_key = "rules.summary.throw_in"
    for key in (preset_key, play_key):
        if key:
            lines.append(t(key, locale))
    lines.append(t("rules.summary.table", locale, deck=rules.deck_size, players=rules.players))
    lines.append(t("rules.summary.more", locale))
    embed = discord.Embed(title=title, description="\n\n".join(lines), colour=COLOUR_LOBBY)
    return embed


class PlayCommands(commands.Cog):
    """The player's own game: hand, leave, cancel; rules and running games."""

    @durak.command(name=ls("cmd.durak.hand.name"), description=ls("cmd.durak.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        game_id = await service.game_for_user(interaction.user.id)
        if game_id is None:
            raise ServiceError("error.no_active_game")
        session, seat = await service.require_player(game_id, interaction.user.id)
        await send_hand(interaction, session, seat)

    @durak.command(name=ls("cmd.durak.leave.name"), description=ls("cmd.durak.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """A lobby is left at once; a running game only after a private confirmation that
        says what leaving does there (a computer plays on, or the game ends)."""
        service = _service(interaction)
        locale = _locale(interaction)
        running = await service.game_for_user(interaction.user.id)
        if running is not None and service.running_game(running):
            effect = service.leave_effect(running, interaction.user.id)
            await interaction.response.send_message(
                leave_question(effect, running, locale),
                view=leave_confirm_view(running, locale, effect.outcome),
                ephemeral=True,
            )
            return
        game_id = await service.leave(interaction.user.id)
        await interaction.response.send_message(
            t("leave.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.cancel.name"), description=ls("cmd.durak.cancel.description"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        assert interaction.channel_id is not None
        game_id = await service.game_in_channel(interaction.channel_id)
        if game_id is None:
            raise ServiceError("error.no_game_here")
        await service.cancel(
            game_id,
            interaction.user.id,
            can_manage=bool(interaction.permissions.manage_guild),
        )
        await interaction.response.send_message(
            t("cancel.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.rules.name"), description=ls("cmd.durak.rules.description"))
    @app_commands.rename(preset=ls("cmd.param.preset.name"))
    @app_commands.describe(preset=ls("cmd.param.preset.description"))
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        locale = _locale(interaction)
        assert interaction.channel_id is not None
        shown = await _service(interaction).shown_rules(
            interaction.guild_id, interaction.channel_id, preset
        )
        await interaction.response.send_message(
            embed=rules_summary_embed(shown.rules, rules_title(shown, locale), locale),
            view=rules_details_view(preset, locale),
            ephemeral=True,
        )

    @durak.command(name=ls("cmd.durak.games.name"), description=ls("cmd.durak.games.description"))
    async def games(self, interaction: discord.Interaction) -> None:
        """Open lobbies with Join, running games with Watch (bot/surfaces/tables_views.py)."""
        assert interaction.guild_id is not None
        embed, view = await tables_message(
            _service(interaction), interaction.guild_id, 0, _locale(interaction)
        )
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @durak.command(name=ls("cmd.durak.watch.name"), description=ls("cmd.durak.watch.description"))
    @app_commands.rename(game=ls("cmd.param.game.name"))
    @app_commands.describe(game=ls("cmd.param.watch_game.description"))
    async def watch(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """A private live view of a running game (bot/surfaces/spectators.py): the one named,
        else the one in this channel, else the server's only one."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        game_id = await _service(interaction).game_to_watch(
            interaction.guild_id, interaction.channel_id, game
        )
        await send_watch(interaction, game_id)

    # ----------------------------------------------------------------- leaderboard and stats
