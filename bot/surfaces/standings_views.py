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
from ..storage.rows import PERIOD_SECONDS

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
    the leaderboard's usual sentence."""
    if period not in PERIOD_SECONDS:
        service.check_leaderboard(period, "fools")  # refuses with the usual sentence
    ratings = service.storage.ratings
    settings = await ratings.settings(guild_id)
    cross = board.scope == "all"
    if cross and not settings.cross_server:
        embed = discord.Embed(description=t("ratings.board.cross_off", locale))
        return embed, [], 0, 1
    if (
        board.season is not None
        and not cross
        and await ratings.season(guild_id, board.season) is None
    ):
        numbers = [s.number for s in await ratings.seasons(guild_id)]
        embed = discord.Embed(
            description=t(
                "ratings.season.unknown",
                locale,
                number=board.season,
                numbers=", ".join(map(str, sorted(numbers))) or "—",
            )
        )
        return embed, [], 0, 1
    kwargs: dict[str, Any] = {
        "season": board.season,
        "mode": board.mode,
        "period": period,
        "min_games": settings.min_games,
        "cross_server": cross,
    }
    season, entries, total = await ratings.leaderboard(
        guild_id, limit=RATING_PAGE_SIZE, offset=max(page, 0) * RATING_PAGE_SIZE, **kwargs
    )
    pages = max(1, -(-total // RATING_PAGE_SIZE))
    clamped = min(max(page, 0), pages - 1)
    if clamped != page:
        season, entries, total = await ratings.leaderboard(
            guild_id, limit=RATING_PAGE_SIZE, offset=clamped * RATING_PAGE_SIZE, **kwargs
        )
    shown = {k: kwargs[k] for k in ("mode", "period", "min_games")}
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
    ratings = service.storage.ratings
    settings = await ratings.settings(guild_id)
    profile = await ratings.profile(guild_id, user_id, name=name, min_games=settings.min_games)
    total = 0
    if profile.season is not None:
        _, _, total = await ratings.leaderboard(guild_id, limit=0, min_games=settings.min_games)
    embed = profile_embed(profile, total, locale)
    files: list[discord.File] = []
    if (await service.settings(guild_id)).pictures:
        picture = await _picture(
            render_profile_png, profile_scene(profile, total, locale), PROFILE_ATTACHMENT
        )
        if picture is not None:
            embed.set_image(url=f"attachment://{PROFILE_ATTACHMENT}")
            files.append(picture)
    return embed, files
