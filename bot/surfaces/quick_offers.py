"""Quick match between joins, on Discord: the publisher through which the queue's loop
(bot/game/quick_offers.py) opens tables and offers the computer, and the offer's buttons.

The offer is a direct message: it comes long after the ``/durak quick`` answer (whose
interaction may be gone, and is after a restart), and a private word to one player has no
other place outside an interaction. Its buttons carry the server (a click in a direct message
has none); the player is always the presser, so a copied id can only act for its presser."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord.ext import tasks

from ..game.quick import QuickTable
from ..game.quick_offers import QUICK_TICK_SECONDS
from ..game.service import GameService
from ..i18n import t
from ..rendering.common import preset_name
from ..storage.quick import QueuedOffer
from ..usertext import inert
from .callbacks import respond
from .door import _Guarded, _Malformed
from .interactions import _components_view, _service
from .language import reader_locale
from .quick_views import QuickLeaveButton, open_tables

__all__ = ["DiscordQuickPublisher", "QuickOfferButton", "offer_message"]

log = logging.getLogger(__name__)


def offer_message(
    guild_id: int, server: str, mode: str, level: str, locale: str
) -> tuple[str, discord.ui.View]:
    """The offer: what waits, where, and against which computer; play it, wait, or leave."""
    text = t(
        "quick.offer",
        locale,
        mode=preset_name(mode, locale),
        server=server,
        level=t(f"difficulty.{level}", locale),
    )
    view = _components_view()
    view.add_item(QuickOfferButton(t("quick.button.computer", locale), rest=f"cpu:{guild_id}"))
    view.add_item(QuickOfferButton(t("quick.button.wait", locale), rest=f"wait:{guild_id}"))
    view.add_item(QuickLeaveButton(t("quick.button.leave", locale), rest=f"leave:{guild_id}"))
    return text, view


class DiscordQuickPublisher:
    """The queue's timer, and what its visits decide sent to Discord; decides nothing about
    the queue.

    The timer is a ``discord.ext.tasks`` loop: it keeps going after a failed visit (logged,
    retried with back-off), and simcord runs it on its virtual clock, so tests move it with
    ``advance_time`` and it never fires on a test's wall time. It rests while nobody waits:
    a visit that finds no queue stops it, unless someone joined during that visit."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._woken = False
        self._timer = tasks.loop(seconds=QUICK_TICK_SECONDS)(self._visit)

    def queue_changed(self) -> None:
        self._woken = True
        if not self._timer.is_running():
            self._timer.start()

    def stop(self) -> None:
        self._timer.cancel()

    async def _visit(self) -> None:
        self._woken = False
        try:
            visited = await self.service.quick_tick()
        except Exception:  # the database did not answer: the next visit tries again
            log.exception("quick match: a visit of the queue failed")
            return
        if not visited and not self._woken:
            self._timer.stop()  # before anything else runs: a join after this starts it anew

    async def open_tables(self, guild_id: int, tables: tuple[QuickTable, ...]) -> None:
        await open_tables(self.client, self.service, guild_id, tables)

    async def offer(self, guild_id: int, offer: QueuedOffer) -> int | None:
        guild = self.client.get_guild(guild_id)
        server = inert(guild.name) if guild is not None else "?"
        level = (await self.service.settings(guild_id)).default_ai_difficulty
        text, view = offer_message(guild_id, server, offer.mode, level, offer.locale)
        try:
            user = self.client.get_user(offer.user_id) or await self.client.fetch_user(
                offer.user_id
            )
            message = await user.send(text, view=view)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("quick match: no direct message to %d: %s", offer.user_id, exc)
            return None
        return message.id


class QuickOfferButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"durak:quick:(?P<rest>(?:cpu|wait):[0-9]+)",
):
    """``durak:quick:cpu:<guild>`` plays the computer now, ``durak:quick:wait:<guild>``
    keeps the place in the queue (the offer is not made again)."""

    names_game = False  # the id names a server, not a game

    def __init__(self, label: str = "?", *, rest: str) -> None:
        self.rest = rest
        op = rest.split(":", 1)[0]
        style = discord.ButtonStyle.success if op == "cpu" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"durak:quick:{rest}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QuickOfferButton:
        return cls(rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        op, _, guild = self.rest.partition(":")
        if not guild.isdigit():
            raise _Malformed
        guild_id = int(guild)
        if interaction.guild_id is not None and interaction.guild_id != guild_id:
            raise _Malformed  # an offer's id pasted into another server
        service = _service(interaction)
        locale = reader_locale(interaction)
        user_id = interaction.user.id
        if op == "wait":
            mode = await service.quick_waiting(guild_id, user_id)
            view = _components_view()
            view.add_item(QuickLeaveButton(t("quick.button.leave", locale), rest=f"leave:{guild}"))
            text = t("quick.offer_waiting", locale, mode=preset_name(mode, locale))
            await respond(
                interaction, lambda: interaction.response.edit_message(content=text, view=view)
            )
            return
        table = await service.quick_computer(guild_id, user_id)
        mode = preset_name(table.mode, locale)
        opening = t("quick.offer_opening", locale, mode=mode)
        await respond(
            interaction, lambda: interaction.response.edit_message(content=opening, view=None)
        )
        opened = await open_tables(interaction.client, service, guild_id, (table,))
        done = (
            t("quick.offer_opened", locale, mode=mode, link=opened[0].jump_url)
            if opened
            else t("quick.offer_failed", locale)
        )
        await interaction.edit_original_response(content=done)
