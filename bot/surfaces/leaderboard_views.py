"""The leaderboard message and its paging buttons (period, order, page)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..game.errors import ServiceError
from ..game.service import GameService
from ..i18n import t
from ..rendering.server import leaderboard_embed
from .interactions import _components_view, _service
from .language import public_locale, reader_locale
from .pager import _PageButton, page_buttons
from .standings_views import SCOPES, parse_rating_sort, rating_board_message
from .typed_items import PART

log = logging.getLogger(__name__)

LEADERBOARD_PAGE_SIZE = 10


#: "Best record" only ranks players with this many games, or one lucky game tops the board.
RECORD_MIN_GAMES = 3


_PERIODS = ("all", "month", "week")


_SORTS = ("fools", "record")


#: ``durak:lb:<period>:<sort>:<page>:<dir>``; a sort is a results board or a rating board
#: (``rating`` or ``rating~<mode>~<season>~<scope>``, see standings_views.parse_rating_sort).
BOARD_ID = (
    rf"durak:lb:(?P<period>{'|'.join(_PERIODS)})"
    rf":(?P<sort>{'|'.join(_SORTS)}|rating|rating~[^:~]*~[0-9]*~(?:{'|'.join(SCOPES)}))"
    rf":(?P<page>[0-9]+):{PART}"
)


async def leaderboard_message(
    service: GameService,
    guild_id: int,
    period: str,
    sort: str,
    page: int,
    locale: str,
    *,
    exact: bool = False,
) -> tuple[discord.Embed, discord.ui.View, bool, list[discord.File]]:
    """Embed, paging buttons and picture (rating board) for one page; the flag says
    ``page`` had to be clamped (the board shrank since the buttons were drawn, e.g. the week
    rolled on). ``sort`` is 'fools', 'record', or a rating board (see standings_views).

    ``exact``: the page was asked for by number (``/durak leaderboard page:``), so a page
    the board does not have is refused privately rather than silently shown as another."""
    board = parse_rating_sort(sort)
    if board is not None:
        embed, files, shown, pages = await rating_board_message(
            service, guild_id, period, board, page, locale
        )
        _check_page(exact, page, shown, pages)
        return embed, _buttons(period, sort, shown, pages, locale), shown != page, files
    min_games = RECORD_MIN_GAMES if sort == "record" else 1
    entries, clamped, pages = await service.leaderboard_page(
        guild_id, period, sort, page, size=LEADERBOARD_PAGE_SIZE, min_games=min_games
    )
    _check_page(exact, page, clamped, pages)
    embed = leaderboard_embed(entries, period, sort, clamped, pages, locale, min_games=min_games)
    return embed, _buttons(period, sort, clamped, pages, locale), clamped != page, []


def _check_page(exact: bool, page: int, shown: int, pages: int) -> None:
    if exact and shown != page:
        raise ServiceError("leaderboard.no_page", page=page + 1, pages=max(pages, 1))


def _buttons(period: str, sort: str, page: int, pages: int, locale: str) -> discord.ui.View:
    def make(target: int, direction: str, label: str, disabled: bool) -> LeaderboardButton:
        return LeaderboardButton(period, sort, target, direction, label, disabled)

    view = _components_view()
    for button in page_buttons(make, page, pages, locale):
        view.add_item(button)
    return view


class LeaderboardButton(
    _PageButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_ID
):
    """Previous/next page of a leaderboard message; anyone may page a public board."""

    kind = "lb"

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
        rest = rest if rest is not None else f"{period}:{sort}:{max(page, 0)}:{direction}"
        super().__init__(rest, label, disabled)

    async def handle(self, interaction: discord.Interaction) -> None:
        fields = self.fields
        guild_id = self.guild(interaction)
        service = _service(interaction)
        locale = await public_locale(interaction)
        embed, view, stale, files = await leaderboard_message(
            service,
            guild_id,
            fields["period"],
            fields["sort"],
            int(fields["page"]),
            locale,
        )
        await interaction.response.edit_message(embed=embed, view=view, attachments=files)
        if stale:
            await interaction.followup.send(
                t("leaderboard.stale", reader_locale(interaction)),
                ephemeral=True,
            )
