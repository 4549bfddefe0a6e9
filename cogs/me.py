"""``/durak me``: a player's own preferences (today: turn pings), the same on every server.

A subcommand of the ``/durak`` group, kept out of :mod:`cogs.durak` so that cog stays about
games; it is attached to the group that cog registered. Thin like every cog: the service keeps
the preference, :mod:`bot.surfaces.pings` honours it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ls, t
from bot.surfaces.language import reader_locale

from .shared import _service

__all__ = ["me", "setup"]

PING_CHOICES = ("on", "off")


@app_commands.command(name=ls("cmd.durak.me.name"), description=ls("cmd.durak.me.description"))
@app_commands.rename(pings=ls("cmd.param.pings.name"))
@app_commands.describe(pings=ls("cmd.param.pings.description"))
@app_commands.choices(
    pings=[app_commands.Choice(name=ls(f"cmd.choice.pings.{v}"), value=v) for v in PING_CHOICES]
)
async def me(interaction: discord.Interaction, pings: str | None = None) -> None:
    """Without options: show the preferences privately; with ``pings``: save it."""
    client = interaction.client
    service = _service(interaction)
    locale = reader_locale(interaction)
    user_id = interaction.user.id
    if pings is not None and pings not in PING_CHOICES:
        await interaction.response.send_message(t("me.invalid_pings", locale), ephemeral=True)
        return
    if pings is None:
        prefs = await service.player_prefs(user_id)
        header = None
    else:
        prefs = await service.set_player_prefs(user_id, pings=pings == "on")
        notifier = getattr(client, "pings", None)
        if notifier is not None:
            notifier.prefs_changed(user_id, prefs.pings)
        header = t("me.updated", locale)
    state = t("common.on" if prefs.pings else "common.off", locale)
    lines = [t("me.title", locale), t("me.pings", locale, state=state)]
    lines.append(t("me.pings_on_help" if prefs.pings else "me.pings_off_help", locale))
    if header:
        lines.insert(0, header)
    await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("durak")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.durak must be loaded before cogs.me")
    group.add_command(me)
