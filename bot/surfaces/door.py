"""The one door of the components: every button and select of the bot is a :class:`_Guarded`
item, whose callback answers a refusal of the game service privately (or as the item says,
:meth:`_Guarded.refuse`) and any other failure with an apology, never a traceback in chat.

The door is also where a click meets the place it was made in: an item whose id names a game
(``durak:<kind>:<game>:…``) is checked against the server it was clicked in, and, on a public
message, against the channel (or the thread of that channel) before it does anything
(:meth:`GameService.require_here`). A copied or forged id of another server's game is refused
privately and shows nothing of that game. Private messages (a hand, a replay) are checked
against the server only: ``/durak hand`` and ``/durak replay`` open them in any channel of it."""

from __future__ import annotations

import logging
from typing import ClassVar

import discord

from ..game.errors import ElsewhereGame, ServiceError
from ..i18n import t
from .answers import log_lost_answer
from .interactions import _service, error_text, reply_ephemeral
from .language import reader_locale

__all__ = ["_Guarded", "_Malformed"]

log = logging.getLogger(__name__)


class _Malformed(Exception):
    """The id's parts or the chosen values do not make a click (tampered with, or from a
    version of the bot that wrote them differently): answered as malformed."""


class _Guarded:
    """Mixin: a click never ends in silence or a traceback in the channel."""

    rest: str
    #: The id's first part after its kind is a game number (the leaderboard's is a period).
    names_game: ClassVar[bool] = True
    #: Set once the click's first answer is lost for good: nothing can answer it any more.
    unanswerable: bool = False

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            try:
                await self.check_place(interaction)
                await self.handle(interaction)
            except _Malformed:
                await self.malformed(interaction)
            except ElsewhereGame as err:
                # never the item's own refusal: a hand item's would draw that game's hand
                log.info("%s of another place clicked by %s", self.rest, interaction.user.id)
                await _Guarded.refuse(self, interaction, err)
            except ServiceError as err:
                if self.unanswerable:
                    log.info("%s refused after its answer was lost: %s", self.rest, err.key)
                    return
                await self.refuse(interaction, err)
        except (discord.HTTPException, TimeoutError) as exc:
            # Discord refused an answer: one line, and no apology (it would fail alike).
            log_lost_answer(interaction, exc)
        except Exception:
            log.exception("component %s (%s) failed", type(self).__name__, self.rest)
            try:
                await reply_ephemeral(interaction, t("error.internal", reader_locale(interaction)))
            except Exception:
                log.exception("could not even apologise for %s", self.rest)

    def named_game(self) -> int | None:
        """The game the id names, None for an id that names none (or that the item will
        find malformed)."""
        head = self.rest.split(":", 1)[0]
        return int(head) if self.names_game and head.isdigit() else None

    async def check_place(self, interaction: discord.Interaction) -> None:
        """Refuse a game of another server, or of another channel on a public message."""
        game_id = self.named_game()
        if game_id is None:
            return
        channels: frozenset[int] | None = None
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            channel = interaction.channel
            parent = channel.parent_id if isinstance(channel, discord.Thread) else None
            channels = frozenset(c for c in (interaction.channel_id, parent) if c is not None)
        await _service(interaction).require_here(game_id, interaction.guild_id, channels)

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def refuse(self, interaction: discord.Interaction, err: ServiceError) -> None:
        """The answer to a refusal: privately, in the user's language (hand items redraw
        the hand with the reason instead)."""
        await reply_ephemeral(interaction, error_text(err, reader_locale(interaction)))

    async def malformed(self, interaction: discord.Interaction) -> None:
        log.warning("malformed custom_id %r from %s", self.rest, interaction.user.id)
        await reply_ephemeral(interaction, t("error.malformed_id", reader_locale(interaction)))
