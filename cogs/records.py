"""``/durak replay``, ``/durak review``, ``/durak learn`` and ``/durak records``: a game's
record (bot/game/records.py) looked back at, a second opinion on one's moves, the lessons,
and who may replay and ask for hints in this server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.lesson_plan import LESSONS
from bot.game.models import PlayerRef
from bot.i18n import ls, t
from bot.surfaces.history_views import history_message
from bot.surfaces.learn_views import start_lesson
from bot.surfaces.quick_views import open_tables, quick_answer
from bot.surfaces.replay_views import open_replay
from bot.surfaces.review_views import open_review

from .shared import (
    _choices,
    _locale,
    _require_manage,
    _service,
    durak,
    preset_autocomplete,
)


class RecordCommands(commands.Cog):
    """Replays, reviews, the guided first game and the server's record settings."""

    @durak.command(name=ls("cmd.durak.replay.name"), description=ls("cmd.durak.replay.description"))
    @app_commands.rename(game=ls("cmd.param.game.name"))
    @app_commands.describe(game=ls("cmd.param.game.description"))
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """A private step-through viewer of a finished game (default: your last one here)."""
        await open_replay(interaction, game)

    @durak.command(name=ls("cmd.durak.review.name"), description=ls("cmd.durak.review.description"))
    @app_commands.rename(game=ls("cmd.param.game.name"))
    @app_commands.describe(game=ls("cmd.param.game.description"))
    async def review(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """The hard computer's opinion of your decisions in a finished game (private)."""
        await open_review(interaction, game)

    @durak.command(
        name=ls("cmd.durak.history.name"), description=ls("cmd.durak.history.description")
    )
    @app_commands.rename(player=ls("cmd.param.player.name"))
    @app_commands.describe(player=ls("cmd.param.player.description"))
    async def history(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        """Private, like the profile: a list of one player's games is nobody else's business
        in the channel."""
        assert interaction.guild_id is not None
        who = player or interaction.user
        embed, view = await history_message(
            _service(interaction),
            interaction.guild_id,
            who.id,
            who.display_name,
            0,
            interaction.user.id,
            _locale(interaction),
        )
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @durak.command(name=ls("cmd.durak.quick.name"), description=ls("cmd.durak.quick.description"))
    @app_commands.rename(preset=ls("cmd.param.preset.name"))
    @app_commands.describe(preset=ls("cmd.param.quick_preset.description"))
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def quick(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Join the server's quick-match queue, or leave it when already waiting; a filled
        table opens at once (bot/surfaces/quick_views.py)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        service = _service(interaction)
        channel = interaction.channel
        home = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        await service.check_channel(interaction.guild_id, home or interaction.channel_id)
        answer = await service.quick_toggle(
            interaction.guild_id,
            home or interaction.channel_id,
            PlayerRef(interaction.user.id, interaction.user.display_name),
            preset,
            _locale(interaction),
        )
        text, view = quick_answer(answer, _locale(interaction))
        if view is None:
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, view=view, ephemeral=True)
        await open_tables(interaction.client, service, interaction.guild_id, answer.tables)

    @durak.command(name=ls("cmd.durak.learn.name"), description=ls("cmd.durak.learn.description"))
    @app_commands.rename(lesson=ls("cmd.param.lesson.name"))
    @app_commands.describe(lesson=ls("cmd.param.lesson.description"))
    @app_commands.choices(lesson=_choices("cmd.choice.lesson", tuple(LESSONS)))
    async def learn(self, interaction: discord.Interaction, lesson: str | None = None) -> None:
        """A private lesson against the computer in a thread of the learner's own, the
        rules explained on their hand as they first matter (bot/surfaces/learn_views.py)."""
        await start_lesson(interaction, lesson)

    @durak.command(
        name=ls("cmd.durak.records.name"), description=ls("cmd.durak.records.description")
    )
    @app_commands.rename(replays=ls("cmd.param.replays.name"), hints=ls("cmd.param.hints.name"))
    @app_commands.describe(
        replays=ls("cmd.param.replays.description"), hints=ls("cmd.param.hints.description")
    )
    async def records(
        self,
        interaction: discord.Interaction,
        replays: bool | None = None,
        hints: bool | None = None,
    ) -> None:
        """Admins: may anyone in the server replay its games, and do all games offer hints."""
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        if replays is not None or hints is not None:
            _require_manage(interaction, "error.settings_admin_only")
        current = await _service(interaction).record_settings(
            interaction.guild_id, replays_public=replays, hints_everywhere=hints
        )
        text = "\n".join(
            [
                t(
                    "replay.settings_replays_"
                    + ("public" if current.replays_public else "players"),
                    locale,
                ),
                t(
                    "hint.settings_" + ("everywhere" if current.hints_everywhere else "computers"),
                    locale,
                ),
            ]
        )
        await interaction.response.send_message(text, ephemeral=True)
