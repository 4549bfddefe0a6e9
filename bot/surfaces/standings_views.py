"""The rating board and the profile as Discord messages: text, and a picture when the server
has pictures on.

The text is always there (screen readers, servers that switched pictures off); the picture
is drawn off the event loop and is optional: a failure to draw it costs the picture, never
the answer. Page buttons of the rating board are the leaderboard's own
(:class:`~.leaderboard_views.LeaderboardButton`): its ``sort`` slot carries
``rating~<mode>~<season>~<scope>``, so a board filtered by mode or season pages as it is.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from ..game.errors import ServiceError
from ..game.service import GameService
from ..i18n import t
from ..pictures.standings import render_board_png, render_profile_png
from ..rendering.standings import (
    BOARD_ATTACHMENT,
    PROFILE_ATTACHMENT,
    board_embed,
    board_scene,
    profile_embed,
    profile_scene,
)

__all__ = ["SCOPES", "RatingBoard", "parse_rating_sort", "profile_message", "rating_board_message"]

log = logging.getLogger(__name__)

#: Players per page of the rating board (the picture shows the same page).
RATING_PAGE_SIZE = 10
SCOPES = ("server", "all")


class RatingBoard:
    """What a rating board shows: mode ('' = all), season number (None = current), scope."""

    def __init__(self, mode: str = "", season: int | None = None, scope: str = "server") -> None:
        self.mode, self.season, self.scope = mode, season, scope

    def token(self) -> str:
        """The ``sort`` slot of the page buttons (no ':' - the custom id splits on it)."""
        return f"rating~{self.mode}~{self.season or ''}~{self.scope}"


def parse_rating_sort(sort: str) -> RatingBoard | None:
    """The board a page button names, or None when it is not a valid rating board."""
    if sort == "rating":
        return RatingBoard()
    parts = sort.split("~")
    if len(parts) != 4 or parts[0] != "rating" or parts[3] not in SCOPES:
        return None
    if parts[2] and not parts[2].isdigit():
        return None
    return RatingBoard(parts[1], int(parts[2]) if parts[2] else None, parts[3])


async def _picture(draw: Any, scene: Any, name: str) -> discord.File | None:
    try:
        png = await asyncio.to_thread(draw, scene)
    except Exception:  # a picture is a bonus: the text answer goes out without it
        log.exception("could not draw %s", name)
        return None
    return discord.File(io.BytesIO(png), filename=name)


async def rating_board_message(
    service: GameService,
    guild_id: int,
    period: str,
    board: RatingBoard,
    page: int,
    locale: str,
) -> tuple[discord.Embed, list[discord.File], int, int]:
    """Embed (and picture) of one page of the rating board, the page shown (``page`` clamped
    to the board) and the number of pages. A period that does not exist is refused with
    the leaderboard's usual sentence; a board that is not there (the cross-server table of
    a server that does not share, a season that never was) is a private refusal to the
    reader, never a public post with dead page buttons."""
    cross = board.scope == "all"
    found = await service.rating_board(
        guild_id,
        period=period,
        mode=board.mode,
        season=board.season,
        cross=cross,
        page=page,
        size=RATING_PAGE_SIZE,
    )
    if found.cross_off:
        raise ServiceError("ratings.board.cross_off")
    if found.seasons is not None:
        raise ServiceError(
            "ratings.season.unknown",
            number=board.season,
            numbers=", ".join(map(str, found.seasons)) or "—",
        )
    season, entries, clamped, pages = found.season, list(found.entries), found.page, found.pages
    shown: dict[str, Any] = {"mode": board.mode, "period": period, "min_games": found.min_games}
    embed = board_embed(season, entries, clamped, pages, locale, cross_server=cross, **shown)
    files: list[discord.File] = []
    if (await service.settings(guild_id)).pictures:
        scene = board_scene(season, entries, locale, cross_server=cross, **shown)
        picture = await _picture(render_board_png, scene, BOARD_ATTACHMENT)
        if picture is not None:
            embed.set_image(url=f"attachment://{BOARD_ATTACHMENT}")
            files.append(picture)
    return embed, files, clamped, pages


async def profile_message(
    service: GameService, guild_id: int, user_id: int, name: str, locale: str
) -> tuple[discord.Embed, list[discord.File]]:
    """The profile as text, with the card when the server has pictures on."""
    profile, total = await service.rating_profile(guild_id, user_id, name)
    embed = profile_embed(profile, total, locale)
    wins = await service.tournament_wins(guild_id, user_id)
    if wins:
        embed.description = (
            (embed.description or "") + "\n" + t("tournament.profile_wins", locale, count=wins)
        )
    streak = await service.puzzle_streak(guild_id, user_id)
    if streak.solved:
        line = t(
            "puzzle.profile", locale, current=streak.current, best=streak.best, solved=streak.solved
        )
        embed.description = (embed.description or "") + "\n" + line
    files: list[discord.File] = []
    if (await service.settings(guild_id)).pictures:
        picture = await _picture(
            render_profile_png, profile_scene(profile, total, locale), PROFILE_ATTACHMENT
        )
        if picture is not None:
            embed.set_image(url=f"attachment://{PROFILE_ATTACHMENT}")
            files.append(picture)
    return embed, files
