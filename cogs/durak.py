"""``/durak`` slash commands. Thin on purpose: map the interaction to one service call and send
what :mod:`bot.rendering` returns; every rule and every refusal lives in the service."""

from __future__ import annotations

from discord.ext import commands

# isort: off
# Imported in the order /durak lists its subcommands: each module adds its commands to the
# group as it is imported (tests/bot/test_command_tree.py pins the resulting tree).
from .lobby import LobbyCommands
from .play import PlayCommands
from .stats import StatsCommands
from .ratings import RatingCommands
from .forfeits import ForfeitCommands
from .settings import SettingsCommands
from .records import RecordCommands
from .puzzle import PuzzleCommands
from .tournament import TournamentCommands
from .help import HelpCommands

# isort: on
from . import ratings, shared
from . import tournament as tournament_commands


class DurakCog(
    LobbyCommands,
    PlayCommands,
    StatsCommands,
    RatingCommands,
    ForfeitCommands,
    SettingsCommands,
    RecordCommands,
    PuzzleCommands,
    TournamentCommands,
    HelpCommands,
    commands.Cog,
):
    """The ``/durak`` group and its subcommands, one mixin per area (see the modules above);
    a refusal of the service is answered by the groups' door (:mod:`cogs.door`)."""

    durak = shared.durak
    forfeits = shared.forfeits
    season = ratings.season
    tournament = tournament_commands.tournament

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DurakCog(bot))
