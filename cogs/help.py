"""``/durak help``: how to play, in plain words, with one picture of a table.

A beginner's first question is "how does this game go", not which of 24 rule options the
server chose; the plain texts (``rules.*`` in the locale files) answer it in both languages,
and ``/durak rules`` is there for the details."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord.ext import commands

from bot.game.models import GameSession
from bot.i18n import ls, t
from bot.rendering.common import COLOUR_LOBBY

from .shared import _locale, durak

log = logging.getLogger(__name__)

#: The plain how-to-play paragraphs, in reading order.
HELP_KEYS = (
    "rules.goal",
    "rules.learn",
    "rules.deal",
    "rules.attack",
    "rules.throw_in",
    "rules.bito",
    "rules.take",
    "rules.draw",
    "rules.fool",
    "rules.buttons",
    "rules.modes",
    "rules.timer",
    "rules.start",
    "rules.puzzle",
)
PICTURE_NAME = "durak-table.png"
#: The help picture per language, drawn on first use.
_pictures: dict[str, bytes] = {}


def sample_table(locale: str) -> GameSession:
    """A four-player podkidnoy table during an attack, in ``locale``: its words, its card
    letters and names a player of that language would meet."""
    from bot.pictures.samples import plain_names, sample_session

    session = sample_session("podkidnoy", 4, "attack", seed=3, locale=locale)
    assert session is not None
    return plain_names(session, locale)


def _render_sample(locale: str) -> bytes:
    from bot.pictures.scene import table_scene
    from bot.pictures.table import render_png

    return render_png(table_scene(sample_table(locale)))


async def sample_picture(locale: str) -> bytes | None:
    """Rendered once per process and language, off the event loop; None if it cannot be
    drawn (the help is still useful without it)."""
    picture = _pictures.get(locale)
    if picture is None:
        try:
            picture = _pictures[locale] = await asyncio.to_thread(_render_sample, locale)
        except Exception:
            log.exception("could not draw the help picture")
            return None
    return picture


def help_embed(locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("rules.title", locale),
        description="\n\n".join(t(key, locale) for key in HELP_KEYS),
        colour=COLOUR_LOBBY,
    )
    return embed


class HelpCommands(commands.Cog):
    """``/durak help``."""

    @durak.command(name=ls("cmd.durak.help.name"), description=ls("cmd.durak.help.description"))
    async def help(self, interaction: discord.Interaction) -> None:
        locale = _locale(interaction)
        embed = help_embed(locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await sample_picture(locale)
        files = []
        if picture is not None:
            embed.set_image(url=f"attachment://{PICTURE_NAME}")
            files.append(discord.File(io.BytesIO(picture), filename=PICTURE_NAME))
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)
