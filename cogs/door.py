"""The one door of the slash commands: a refusal of the game service becomes a polite
private answer here, so a command only parses its options, calls the service and renders.

discord.py's own hook (``cog_app_command_error``) would see the refusal only after it left
the command, and the tree's ``on_error`` is then called as well, logging every "you are not
in this game" as a failure. The door is instead put around each command's callback when the
cog is created, so a refusal is answered where it happens and never counts as an error."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.errors import ServiceError
from bot.i18n import pick_locale
from bot.surfaces.interactions import error_text, reply_ephemeral

__all__ = ["DoorCog", "refuse"]

Callback = Callable[..., Awaitable[Any]]


async def refuse(interaction: discord.Interaction, err: ServiceError) -> None:
    """The refusal, privately, in the user's language (the server's as a fallback)."""
    locale = pick_locale(interaction.locale, interaction.guild_locale)
    await reply_ephemeral(interaction, error_text(err, locale))


def _through_door(callback: Callback) -> Callback:
    if getattr(callback, "__durak_door__", False):
        return callback

    @functools.wraps(callback)
    async def opened(*args: Any, **kwargs: Any) -> Any:
        try:
            return await callback(*args, **kwargs)
        except ServiceError as err:
            # The interaction is the first argument after the cog (commands are methods).
            interaction = next(a for a in args if isinstance(a, discord.Interaction))
            await refuse(interaction, err)
            return None

    opened.__durak_door__ = True  # type: ignore[attr-defined]
    return opened


class DoorCog(commands.Cog):
    """A cog whose slash commands all answer a :class:`ServiceError` with :func:`refuse`."""

    def __init__(self) -> None:
        # The cog's commands are its own bound copies by now (commands.Cog.__new__), so the
        # door goes on them and never on the shared group's originals.
        for command in self.walk_app_commands():
            if isinstance(command, app_commands.Command):
                command._callback = _through_door(command._callback)  # type: ignore[assignment]
