"""``/durak games``: the server's open lobbies (with Join) and running games (with Watch),
a private answer paged by buttons.

Join here is the lobby's own join (``durak:lobby:<game>:ljoin`` reaches
:meth:`GameService.join_listed`, which refuses an invite-only lobby and otherwise *is*
:meth:`GameService.join`); Watch opens a spectator's live view (bot/surfaces/spectators.py).
The list is read afresh on every page, so a full or started lobby drops off it, and a
button of an older page answers with what is true now."""

from __future__ import annotations

from typing import Any

import discord

from ..discord_limits import BUTTON_LABEL, BUTTONS_PER_ROW, EMBED_DESCRIPTION
from ..game.service import GameService
from ..game.tables import OpenTables
from ..i18n import t
from ..rendering.common import COLOUR_LOBBY, preset_name, seat_name
from .interactions import _components_view, _service
from .language import public_locale, reader_locale
from .lobby_views import LobbyButton
from .pager import _PageButton, page_buttons
from .spectators import WatchButton

__all__ = ["TablesPageButton", "tables_message"]

#: Entries a page shows: two full rows of buttons, the paging row below them.
PAGE_SIZE = 2 * BUTTONS_PER_ROW


def _lines(tables: OpenTables, locale: str) -> list[tuple[str, discord.ui.Item[Any]]]:
    """One line and one button per listed table: lobbies first (they need players)."""
    out: list[tuple[str, discord.ui.Item[Any]]] = []
    for info in tables.lobbies:
        line = t(
            "tables.lobby_line",
            locale,
            game_id=info.game_id,
            preset=preset_name(info.preset, locale),
            taken=len(info.seats),
            max=info.max_seats,
            host=f"<@{info.host_id}>",
            waited=f"<t:{int(info.created_at)}:R>",
        )
        label = t("tables.button.join", locale, game_id=info.game_id)[:BUTTON_LABEL]
        button = LobbyButton(info.game_id, "ljoin", label, discord.ButtonStyle.success)
        out.append((line, button))
    for table in tables.running:
        line = t(
            "games.line",
            locale,
            game_id=table.game_id,
            preset=preset_name(table.preset, locale),
            channel=f"<#{table.channel_id}>",
            players=t("common.list_separator", locale).join(
                seat_name(s, locale) for s in table.seats
            ),
        )
        label = t("tables.button.watch", locale, game_id=table.game_id)[:BUTTON_LABEL]
        out.append((line, WatchButton(table.game_id, label, new_message=True)))
    return out


async def tables_message(
    service: GameService, guild_id: int, page: int, locale: str
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the list (``page`` is clamped to the pages there are now)."""
    entries = _lines(await service.open_tables(guild_id), locale)
    pages = max(1, -(-len(entries) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = entries[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    embed = discord.Embed(title=t("games.title", locale), colour=COLOUR_LOBBY)
    view = _components_view()
    if not shown:
        embed.description = t("tables.empty", locale)
        return embed, view
    lines: list[str] = []
    for number, (line, button) in enumerate(shown):
        if len("\n".join([*lines, line])) > EMBED_DESCRIPTION:
            break
        lines.append(line)
        button.row = number // BUTTONS_PER_ROW
        view.add_item(button)
    embed.description = "\n".join(lines)
    if pages > 1:
        embed.set_footer(text=t("tables.page", locale, page=page + 1, pages=pages))
        row = PAGE_SIZE // BUTTONS_PER_ROW

        def make(target: int, _direction: str, label: str, disabled: bool) -> TablesPageButton:
            return TablesPageButton(target, label, disabled)

        for button in page_buttons(make, page, pages, locale):
            button.row = row
            view.add_item(button)
    return embed, view


#: ``durak:tables:<page>``, typed (bot/surfaces/typed_items.py).
TABLES_ID = r"durak:tables:(?P<page>[0-9]+)"


class TablesPageButton(
    _PageButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLES_ID
):
    """Previous/next page of ``/durak games`` (the guild comes from the interaction)."""

    kind = "tables"

    def __init__(
        self, page: int = 0, label: str = "?", disabled: bool = False, *, rest: str | None = None
    ) -> None:
        super().__init__(rest if rest is not None else str(max(page, 0)), label, disabled)

    async def handle(self, interaction: discord.Interaction) -> None:
        page = int(self.fields["page"])
        guild_id = self.guild(interaction)
        service = _service(interaction)
        locale = reader_locale(interaction, await public_locale(interaction))
        embed, view = await tables_message(service, guild_id, page, locale)
        await interaction.response.edit_message(embed=embed, view=view)
