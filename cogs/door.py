"""The one door of the slash commands: a refusal of the game service becomes a polite
private answer here, so a command only parses its options, calls the service and renders.

discord.py's own hook (``cog_app_command_error``) would see the refusal only after it left
the command, and the tree's ``on_error`` is then called as well, logging every "you are not
in this game" as a failure. The door is instead put around each command's function as the
``/durak`` groups (:class:`DoorGroup`) make it a command, so a refusal is answered where it
happens and never counts as an error."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.utils import resolve_annotation

from bot.game.errors import ServiceError
from bot.surfaces.interactions import error_text, reply_ephemeral
from bot.surfaces.language import reader_locale

__all__ = ["DoorGroup", "refuse", "through_door"]

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


async def refuse(interaction: discord.Interaction, err: ServiceError) -> None:
    """The refusal, privately, in the user's language (the server's as a fallback)."""
    locale = reader_locale(interaction)
    await reply_ephemeral(interaction, error_text(err, locale))


def through_door(func: F) -> F:
    """``func`` (a command: ``self, interaction, *options``) with its refusals answered by
    :func:`refuse`.

    discord.py reads a command's options from its signature and resolves string annotations
    in the function's module; the wrapper lives here, so it carries the signature with the
    annotations already resolved where ``func`` was written."""

    @functools.wraps(func)
    async def opened(*args: Any, **kwargs: Any) -> Any:
        try:
            return await func(*args, **kwargs)
        except ServiceError as err:
            interaction = next(a for a in args if isinstance(a, discord.Interaction))
            await refuse(interaction, err)
            return None

    signature = inspect.signature(func)
    cache: dict[str, Any] = {}
    opened.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[
            p.replace(annotation=resolve_annotation(p.annotation, func.__globals__, None, cache))
            if isinstance(p.annotation, str)
            else p
            for p in signature.parameters.values()
        ]
    )
    return opened  # type: ignore[return-value]


class DoorGroup(app_commands.Group):
    """A command group whose commands all answer a :class:`ServiceError` with
    :func:`refuse` (the ``/durak`` group and its subgroups)."""

    def command(self, **kwargs: Any) -> Callable[[Any], Any]:
        make = super().command(**kwargs)

        def decorator(func: Any) -> Any:
            return make(through_door(func))

        return decorator
