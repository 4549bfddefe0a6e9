"""One language decision per message, made here and nowhere else.

* A **private** answer (ephemeral: a hand, a refusal, a replay, a confirmation) speaks the
  reader's language: the Discord client's (``interaction.locale``) when we speak it, else the
  server's language.
* A **public** message (the table, the result, a lobby, a board) speaks the server's
  language: the one an admin picked with ``/durak settings language``, else the server's
  preferred Discord language (:meth:`bot.game.core._ServiceCore.guild_locale`), the same for
  everyone who reads it. A game keeps it in ``session.locale``.

Everything shown inside a message follows that message's language: dares, achievements,
tiers, pictures and their card letters included. Two helpers, so the rule cannot drift
between a cog, a button and a picture.
"""

from __future__ import annotations

import discord

from ..i18n import normalize_locale, pick_locale
from .interactions import _service

__all__ = ["discord_server_locale", "public_locale", "reader_locale"]


def reader_locale(interaction: discord.Interaction, server: str | None = None) -> str:
    """The language of a private answer: the reader's client, else ``server`` (a game's
    language when the answer concerns one), else the server's Discord language."""
    return pick_locale(interaction.locale, server or interaction.guild_locale)


def discord_server_locale(interaction: discord.Interaction) -> str | None:
    """The server's preferred Discord language (None outside a server): what public messages
    speak until an admin picks a language."""
    return normalize_locale(interaction.guild_locale) if interaction.guild_locale else None


async def public_locale(interaction: discord.Interaction) -> str:
    """The language of a public message in the interaction's server."""
    if interaction.guild_id is None:
        return reader_locale(interaction)
    return await _service(interaction).guild_locale(
        interaction.guild_id, discord_server_locale(interaction)
    )
