"""The one door of the components: every button and select of the bot is a :class:`_Guarded`
item, whose callback answers a refusal of the game service privately (or as the item says,
:meth:`_Guarded.refuse`) and any other failure with an apology, never a traceback in chat."""

from __future__ import annotations

import logging

import discord

from ..game.errors import ServiceError
from ..i18n import t
from .answers import log_lost_answer
from .interactions import error_text, reply_ephemeral
from .language import reader_locale

__all__ = ["_Guarded", "_Malformed"]

log = logging.getLogger(__name__)


class _Malformed(Exception):
    """The id's parts or the chosen values do not make a click (tampered with, or from a
    version of the bot that wrote them differently): answered as malformed."""


class _Guarded:
    """Mixin: a click never ends in silence or a traceback in the channel."""

    rest: str

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            try:
                await self.handle(interaction)
            except _Malformed:
                await self.malformed(interaction)
            except ServiceError as err:
                await self.refuse(interaction, err)
        except discord.HTTPException as exc:
            # Discord refused an answer: one line, and no apology (it would fail alike).
            log_lost_answer(interaction, exc)
        except Exception:
            log.exception("component %s (%s) failed", type(self).__name__, self.rest)
            try:
                await reply_ephemeral(interaction, t("error.internal", reader_locale(interaction)))
            except Exception:
                log.exception("could not even apologise for %s", self.rest)

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def refuse(self, interaction: discord.Interaction, err: ServiceError) -> None:
        """The answer to a refusal: privately, in the user's language (hand items redraw
        the hand with the reason instead)."""
        await reply_ephemeral(interaction, error_text(err, reader_locale(interaction)))

    async def malformed(self, interaction: discord.Interaction) -> None:
        log.warning("malformed custom_id %r from %s", self.rest, interaction.user.id)
        await reply_ephemeral(interaction, t("error.malformed_id", reader_locale(interaction)))
