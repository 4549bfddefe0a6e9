"""What the ``/durak`` cogs share: the command groups, locale and service look-ups, the
admin check, and the preset/twist autocompletes (the polite refusal is :mod:`cogs.door`).

The groups are created here, once, and attached to :class:`cogs.durak.DurakCog` (which
registers them); the area modules add their subcommands to them when imported, so the
order :mod:`cogs.durak` imports them in is the order Discord lists the subcommands."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_limits import AUTOCOMPLETE_CHOICES
from bot.game import modes
from bot.game.errors import ServiceError
from bot.game.models import TURN_TIMER_MAX_SECONDS, TURN_TIMER_MIN_SECONDS
from bot.game.service import GameService
from bot.i18n import ls, t
from bot.rendering.lobby import lobby_embed
from bot.surfaces.language import discord_server_locale, public_locale, reader_locale
from bot.surfaces.lobby_views import lobby_view
from bot.surfaces.publisher import DiscordPublisher
from engine import PRESETS

from .door import DoorGroup

log = logging.getLogger(__name__)

#: Turn timer bounds (besides 0 = off); the service enforces them (bot/game/core.py).
TIMER_MIN_SECONDS = TURN_TIMER_MIN_SECONDS
TIMER_MAX_SECONDS = TURN_TIMER_MAX_SECONDS
THROW_IN_CHOICES = ("all", "neighbours", "attacker", "none")
TRUMP_EXCHANGE_CHOICES = ("off", "lowest", "lowest_for_ace")


def _choices(prefix: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=ls(f"{prefix}.{v}"), value=v) for v in values]


def _service(interaction: discord.Interaction) -> GameService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the client has no game service")
    return service


def _locale(interaction: discord.Interaction) -> str:
    """A private answer's language (:func:`bot.surfaces.language.reader_locale`)."""
    return reader_locale(interaction)


def _discord_guild_locale(interaction: discord.Interaction) -> str | None:
    """The server's Discord language, for public messages until the guild picks one."""
    return discord_server_locale(interaction)


async def _lobby_message(interaction: discord.Interaction, info: Any) -> dict[str, Any]:
    """The lobby's embed and buttons, with its picture when the guild wants pictures."""
    embed = lobby_embed(info)
    files: list[discord.File] = []
    publisher = getattr(interaction.client, "publisher", None)
    if isinstance(publisher, DiscordPublisher):
        allowed = interaction.app_permissions.attach_files
        files = await publisher.pictures.attach(info, embed, allowed=allowed)
    return {"embed": embed, "view": lobby_view(info), "files": files}


async def _public_locale(interaction: discord.Interaction) -> str:
    """A public message's language (:func:`bot.surfaces.language.public_locale`)."""
    return await public_locale(interaction)


def _require_manage(interaction: discord.Interaction, key: str) -> None:
    """Admin commands are visible to everyone (subcommands cannot carry default permissions),
    so the permission is checked here and refused with a polite sentence."""
    if not interaction.permissions.manage_guild:
        raise ServiceError(key)


async def preset_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The engine's presets, best match first (base games first when nothing is typed; names
    match in English and Russian), with translated names and descriptions."""
    locale = _locale(interaction)
    ranked = modes.ranked_presets(current)
    if current.strip() or interaction.guild_id is None:
        return [
            app_commands.Choice(name=modes.choice_label(preset, locale), value=preset)
            for preset in ranked
        ]
    # Nothing typed: Discord shows 25 of the ~32 modes, so the server's most played come
    # first, and the last line says the rest are found by typing.
    counts = await _service(interaction).preset_counts(interaction.guild_id)
    everything = sorted(
        PRESETS, key=lambda p: (-counts.get(p, 0), ranked.index(p) if p in ranked else 99)
    )
    shown = everything[: AUTOCOMPLETE_CHOICES - 1]
    choices = [
        app_commands.Choice(name=modes.choice_label(preset, locale), value=preset)
        for preset in shown
    ]
    hidden = len(PRESETS) - len(shown)
    if hidden > 0:
        # Choosing the hint itself opens the first (most played) mode, never an error.
        choices.append(
            app_commands.Choice(name=t("mode.more_hint", locale, count=hidden), value=shown[0])
        )
    return choices


async def twist_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Catalogue variants to put on the chosen mode, best match first."""
    locale = _locale(interaction)
    return [
        app_commands.Choice(name=modes.choice_label(name, locale), value=name)
        for name in modes.ranked_twists(current)
    ]


durak = DoorGroup(
    name=ls("cmd.durak.name"), description=ls("cmd.durak.description"), guild_only=True
)

forfeits = DoorGroup(
    name=ls("cmd.durak.forfeits.name"),
    description=ls("cmd.durak.forfeits.description"),
    parent=durak,
)
