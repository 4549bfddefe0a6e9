"""Previous / Next of a paged answer (``/durak history``, ``/durak games``, the leaderboard):
the typed item they share, and the pair of buttons they show.

Each pager's id says what it pages and which page (``durak:<kind>:<rest>``, typed by its own
template); the server is the one the click comes from, so a copied id cannot page another
server's list, and a click from outside a server is malformed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import discord

from ..i18n import t
from .door import _Malformed
from .typed_items import _TypedItem

__all__ = ["_PageButton", "page_buttons"]

Item = TypeVar("Item", bound=discord.ui.Item[Any])


class _PageButton(_TypedItem):
    """Mixin of a paging DynamicItem: a grey button ``durak:<kind>:<rest>``, disabled at
    the first or last page. A subclass sets :attr:`kind` and builds ``rest``."""

    names_game: ClassVar[bool] = False  # the id holds a page, not a game
    kind: ClassVar[str]

    def __init__(self, rest: str, label: str = "?", disabled: bool = False) -> None:
        self.rest = rest
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.secondary,
            custom_id=f"durak:{self.kind}:{rest}",
            disabled=disabled,
        )
        super().__init__(button)  # type: ignore[call-arg]  # DynamicItem's, next in the MRO

    @staticmethod
    def guild(interaction: discord.Interaction) -> int:
        """The server whose list is paged: the click's own."""
        if interaction.guild_id is None:
            raise _Malformed
        return interaction.guild_id


def page_buttons(
    make: Callable[[int, str, str, bool], Item], page: int, pages: int, locale: str
) -> tuple[Item, Item]:
    """Previous and Next around ``page`` of ``pages``: ``make(target page, "prev" or
    "next", label, disabled)`` builds each."""
    return (
        make(page - 1, "prev", t("common.button.prev", locale), page <= 0),
        make(page + 1, "next", t("common.button.next", locale), page >= pages - 1),
    )
