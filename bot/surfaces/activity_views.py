"""The table message's "Play at the table" button: it opens the Activity (bot/activity/), the
card table inside Discord, through the interaction response that launches an activity.

Shown only while this process serves the Activity (``GameService.activity_button``). Discord
launches it only where Activities may run (its answer to the response says so); anywhere
else the click is answered privately with where to start it instead, never left unanswered.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..i18n import t
from .interactions import reply_ephemeral
from .language import reader_locale
from .typed_items import GAME, _TypedItem

__all__ = ["ACTIVITY_ID", "PlayAtTableButton"]

log = logging.getLogger(__name__)

ACTIVITY_ID = rf"durak:play:{GAME}"


class PlayAtTableButton(
    _TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTIVITY_ID
):
    """Opens the card table of the game the table message shows."""

    def __init__(
        self, game_id: int | None = None, label: str = "?", *, rest: str | None = None
    ) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                emoji="🎴",
                custom_id=f"durak:play:{self.rest}",
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            log.info("activity launch refused in channel %s: %s", interaction.channel_id, exc)
            await reply_ephemeral(
                interaction, t("activity.launch_failed", reader_locale(interaction))
            )
