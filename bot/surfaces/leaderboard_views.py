"""The leaderboard message and its paging buttons (period, order, page)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..game.service import GameService
from ..i18n import normalize_locale, pick_locale, t
from ..rendering.server import leaderboard_embed
from .door import _Guarded
from .interactions import _components_view, _ints, _service
from .standings_views import parse_rating_sort, rating_board_message

log = logging.getLogger(__name__)

LEADERBOARD_PAGE_SIZE = 10


#: "Best record" only ranks players with this many games, or one lucky game tops the board.
RECORD_MIN_GAMES = 3


_PERIODS = ("all", "month", "week")


_SORTS = ("fools", "record")


async def leaderboard_message(
    service: GameService, guild_id: int, period: str, sort: str, page: int, locale: str
) -> tuple[discord.Embed, discord.ui.View, bool, list[discord.File]]:
    """Embed, paging buttons and picture (rating board) for one page; the flag says
    ``page`` had to be clamped (the board shrank since the buttons were drawn, e.g. the week
    rolled on). ``sort`` is 'fools', 'record', or a rating board (see standings_views)."""
    board = parse_rating_sort(sort)
    if board is not None:
        embed, files, shown, pages = await rating_board_message(
            service, guild_id, period, board, page, locale
        )
        return embed, _buttons(period, sort, shown, pages, locale), shown != page, files
    min_games = RECORD_MIN_GAMES if sort == "record" else 1
    entries, clamped, pages = await service.leaderboard_page(
        guild_id, period, sort, page, size=LEADERBOARD_PAGE_SIZE, min_games=min_games
    )
    embed = leaderboard_embed(entries, period, sort, clamped, pages, locale, min_games=min_games)
    return embed, _buttons(period, sort, clamped, pages, locale), clamped != page, []


def _buttons(period: str, sort: str, page: int, pages: int, locale: str) -> discord.ui.View:
    view = _components_view()
    view.add_item(
        LeaderboardButton(
            period, sort, page - 1, "prev", t("common.button.prev", locale), page <= 0
        )
    )
    view.add_item(
        LeaderboardButton(
            period, sort, page + 1, "next", t("common.button.next", locale), page >= pages - 1
        )
    )
    return view


class LeaderboardButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:lb:(?P<rest>.*)"
):
    """Previous/next page of a leaderboard message; anyone may page a public board."""

    names_game = False

    def __init__(
        self,
        period: str = "all",
        sort: str = "fools",
        page: int = 0,
        direction: str = "next",
        label: str = "?",
        disabled: bool = False,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{period}:{sort}:{max(page, 0)}:{direction}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"durak:lb:{self.rest}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 4)
        if (
            parts is None
            or parts[0] not in _PERIODS
            or (parts[1] not in _SORTS and parse_rating_sort(parts[1]) is None)
            or not parts[2].isdigit()
            or interaction.guild_id is None
        ):
            await self.malformed(interaction)
            return
        service = _service(interaction)
        guild_locale = interaction.guild_locale
        locale = await service.guild_locale(
            interaction.guild_id, normalize_locale(guild_locale) if guild_locale else None
        )
        embed, view, stale, files = await leaderboard_message(
            service, interaction.guild_id, parts[0], parts[1], int(parts[2]), locale
        )
        await interaction.response.edit_message(embed=embed, view=view, attachments=files)
        if stale:
            await interaction.followup.send(
                t("leaderboard.stale", pick_locale(interaction.locale, guild_locale)),
                ephemeral=True,
            )
