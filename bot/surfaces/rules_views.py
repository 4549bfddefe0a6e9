"""The "All rule options" button under ``/durak rules``: ``durak:rules:<mode>`` (``-`` for
the rules of this channel's table, or else the server's default mode).

The option table is not kept in memory with the message: a click works the rules out again
(:meth:`GameService.shown_rules`, as the command did), so the button answers after a restart
and after any time, like every other component of the bot."""

from __future__ import annotations

import re
from typing import Any

import discord

from engine import PRESETS

from ..game.queries import ShownRules
from ..i18n import t
from ..rendering.common import preset_name
from ..rendering.server import rules_embed
from .answers import on_public_message
from .callbacks import respond
from .door import _Guarded
from .interactions import _components_view, _service
from .language import reader_locale

__all__ = ["RulesDetailsButton", "rules_details_view", "rules_title"]


def rules_title(shown: ShownRules, locale: str) -> str:
    """The title of both the summary and the option table."""
    name = preset_name(shown.preset, locale)
    if shown.game_id is not None:
        return t("rules.table_title", locale, game_id=shown.game_id, preset=name)
    return t("rules.preset_title", locale, preset=name)


def rules_details_view(preset: str | None, locale: str) -> discord.ui.View:
    """The button under the summary; ``preset`` as the command was given it."""
    view = _components_view()
    view.add_item(RulesDetailsButton(preset or "-", t("rules.button.details", locale)))
    return view


class RulesDetailsButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:rules:(?P<rest>.*)"
):
    """Replaces the summary by every option of the rules (privately)."""

    names_game = False

    def __init__(self, rest: str, label: str = "?") -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"durak:rules:{rest}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesDetailsButton:
        return cls(match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if (self.rest != "-" and self.rest not in PRESETS) or interaction.channel_id is None:
            await self.malformed(interaction)
            return
        locale = reader_locale(interaction)
        shown = await _service(interaction).shown_rules(
            interaction.guild_id, interaction.channel_id, None if self.rest == "-" else self.rest
        )
        embed = rules_embed(shown.rules, rules_title(shown, locale), locale)
        if on_public_message(interaction):  # forged onto a public message: answer privately
            await respond(
                interaction, lambda: interaction.response.send_message(embed=embed, ephemeral=True)
            )
            return
        await respond(
            interaction, lambda: interaction.response.edit_message(embed=embed, view=None)
        )
