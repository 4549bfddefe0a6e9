"""``/durak puzzle``: today's puzzle, privately (bot/surfaces/puzzle_views.py)."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.i18n import ls
from bot.surfaces.puzzle_views import open_puzzle

from .shared import durak


class PuzzleCommands(commands.Cog):
    """The daily puzzle."""

    @durak.command(name=ls("cmd.durak.puzzle.name"), description=ls("cmd.durak.puzzle.description"))
    async def puzzle(self, interaction: discord.Interaction) -> None:
        """Private: an attempt is one's own, and the position must not be solved in the
        channel for everyone else. The same puzzle for everyone, a new one at midnight UTC."""
        await open_puzzle(interaction)
