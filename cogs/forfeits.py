"""``/durak forfeits list|add|remove|reset``: the server's forfeit texts."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ls, t
from bot.rendering.server import forfeits_embed
from bot.usertext import TEXT_CHARS, inert

from .shared import _locale, _public_locale, _require_manage, _service, forfeits


class ForfeitCommands(commands.Cog):
    """The ``/durak forfeits`` subgroup."""

    @forfeits.command(
        name=ls("cmd.durak.forfeits.list.name"),
        description=ls("cmd.durak.forfeits.list.description"),
    )
    async def forfeits_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        items = await _service(interaction).forfeits(interaction.guild_id, locale)
        await interaction.response.send_message(embed=forfeits_embed(items, locale), ephemeral=True)

    @forfeits.command(
        name=ls("cmd.durak.forfeits.add.name"), description=ls("cmd.durak.forfeits.add.description")
    )
    @app_commands.rename(text=ls("cmd.param.text.name"))
    @app_commands.describe(text=ls("cmd.param.text.description"))
    async def forfeits_add(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 200]
    ) -> None:
        assert interaction.guild_id is not None
        _require_manage(interaction, "error.forfeits_admin_only")
        number = await _service(interaction).add_forfeit(
            interaction.guild_id, text, await _public_locale(interaction)
        )
        await interaction.response.send_message(
            t(
                "forfeits.added",
                _locale(interaction),
                number=number,
                text=inert(text, limit=TEXT_CHARS),
            ),
            ephemeral=True,
        )

    @forfeits.command(
        name=ls("cmd.durak.forfeits.remove.name"),
        description=ls("cmd.durak.forfeits.remove.description"),
    )
    @app_commands.rename(number=ls("cmd.param.number.name"))
    @app_commands.describe(number=ls("cmd.param.number.description"))
    async def forfeits_remove(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 1000]
    ) -> None:
        assert interaction.guild_id is not None
        _require_manage(interaction, "error.forfeits_admin_only")
        text = await _service(interaction).remove_forfeit(
            interaction.guild_id, number, await _public_locale(interaction)
        )
        await interaction.response.send_message(
            t("forfeits.removed", _locale(interaction), text=inert(text, limit=TEXT_CHARS)),
            ephemeral=True,
        )

    @forfeits.command(
        name=ls("cmd.durak.forfeits.reset.name"),
        description=ls("cmd.durak.forfeits.reset.description"),
    )
    async def forfeits_reset(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        _require_manage(interaction, "error.forfeits_admin_only")
        await _service(interaction).reset_forfeits(interaction.guild_id)
        await interaction.response.send_message(
            t("forfeits.reset", _locale(interaction)), ephemeral=True
        )

    # ----------------------------------------------------------------- settings
