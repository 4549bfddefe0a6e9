"""``/durak history``: a player's past games, a page at a time, each with its Replay (and,
for the viewer's own games, Review) button; and the head-to-head block of ``/durak profile
vs``.

The page buttons carry the player and the page in their custom id
(``durak:hist:<user>:<page>:<dir>``), and the record buttons are the result message's
(``durak:rec:<game>:<op>``), so a history message keeps answering after a restart. The guild
comes from the interaction: a copied id cannot show another server's games."""

from __future__ import annotations

from typing import Any

import discord

from ..game.history import HistoryPage
from ..game.service import GameService
from ..i18n import t
from ..rendering.common import preset_name
from ..storage.history import HeadToHead, HistoryEntry
from ..usertext import inert
from .interactions import _components_view, _service
from .language import reader_locale
from .pager import _PageButton, page_buttons
from .replay_views import RecordButton

__all__ = ["HistoryButton", "head_to_head_embed", "history_message", "sparkline"]

#: The bars of a text sparkline, lowest to highest.
_BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int]) -> str:
    """A rating history as one line of bars (highest value: the tallest bar)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low or 1
    return "".join(_BARS[(v - low) * (len(_BARS) - 1) // span] for v in values)


def _seat_text(entry: HistoryEntry, locale: str) -> str:
    return ", ".join(
        inert(s.name)
        if s.user_id is not None
        else t("lobby.ai_name", locale, number=s.name.lstrip("#"))
        for s in entry.seats
    )


def _outcome_text(entry: HistoryEntry, locale: str) -> str:
    if entry.place is not None:
        text = t("history.place", locale, place=entry.place, players=len(entry.seats))
        return text + (" · " + t("history.fool", locale) if entry.fool else "")
    if entry.outcome == "draw":
        return t("history.draw", locale)
    return t("history.fool" if entry.fool else "history.not_fool", locale)


def _rating_text(entry: HistoryEntry, locale: str) -> str:
    if entry.rating_after is None or entry.rating_before is None:
        return t("history.unrated", locale)
    delta = entry.rating_after - entry.rating_before
    return t("history.rating", locale, delta=f"{delta:+d}", rating=entry.rating_after)


def entry_line(entry: HistoryEntry, locale: str) -> str:
    """One game of the list: number, date, mode, players, place, rating change."""
    return t(
        "history.line",
        locale,
        game_id=entry.game_id,
        when=f"<t:{int(entry.finished_at)}:d>",
        mode=preset_name(entry.preset, locale),
        players=_seat_text(entry, locale),
        outcome=_outcome_text(entry, locale),
        rating=_rating_text(entry, locale),
    )


def _player_name(page: HistoryPage, fallback: str) -> str:
    for entry in page.entries:
        for seat in entry.seats:
            if seat.user_id == page.user_id:
                return seat.name
    return fallback


async def history_message(
    service: GameService,
    guild_id: int,
    user_id: int,
    name: str,
    page: int,
    viewer_id: int,
    locale: str,
) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` of ``user_id``'s games as ``viewer_id`` sees it (Review only on the
    games the viewer played: the review is of one's own moves)."""
    shown = await service.history_page(guild_id, user_id, page)
    embed = discord.Embed(title=t("history.title", locale, name=inert(name)))
    if not shown.entries:
        embed.description = t("history.none", locale)
    else:
        embed.description = "\n\n".join(entry_line(e, locale) for e in shown.entries)
        embed.set_footer(text=t("history.footer", locale, page=shown.page + 1, pages=shown.pages))
    view = _components_view()
    for row, entry in enumerate(shown.entries):
        replay = RecordButton(
            entry.game_id, "replay", t("history.button.replay", locale, game_id=entry.game_id)
        )
        replay.item.row = row
        view.add_item(replay)
        if any(s.user_id == viewer_id for s in entry.seats):
            review = RecordButton(
                entry.game_id, "review", t("history.button.review", locale, game_id=entry.game_id)
            )
            review.item.row = row
            view.add_item(review)
    if shown.pages > 1:

        def make(target: int, direction: str, label: str, disabled: bool) -> HistoryButton:
            return HistoryButton(user_id, target, direction, label, disabled)

        for button in page_buttons(make, shown.page, shown.pages, locale):
            button.item.row = 4
            view.add_item(button)
    return embed, view


#: ``durak:hist:<user>:<page>:<dir>``, typed (bot/surfaces/typed_items.py).
HISTORY_ID = r"durak:hist:(?P<user>[0-9]+):(?P<page>[0-9]+):(?P<dir>prev|next)"


class HistoryButton(
    _PageButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_ID
):
    """Previous/next page of a history: ``durak:hist:<user>:<page>:<dir>``."""

    kind = "hist"

    def __init__(
        self,
        user_id: int = 0,
        page: int = 0,
        direction: str = "next",
        label: str = "?",
        disabled: bool = False,
        *,
        rest: str | None = None,
    ) -> None:
        rest = rest if rest is not None else f"{user_id}:{max(page, 0)}:{direction}"
        super().__init__(rest, label, disabled)

    async def handle(self, interaction: discord.Interaction) -> None:
        fields = self.fields
        guild_id = self.guild(interaction)
        user_id = int(fields["user"])
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        locale = reader_locale(interaction)
        embed, view = await history_message(
            _service(interaction),
            guild_id,
            user_id,
            member.display_name if member else t("history.someone", locale),
            int(fields["page"]),
            interaction.user.id,
            locale,
        )
        await interaction.response.edit_message(embed=embed, view=view)


def head_to_head_embed(h2h: HeadToHead, name_a: str, name_b: str, locale: str) -> discord.Embed:
    """Two players' record together: games, who finished ahead, fools, and both ratings
    over their shared rated games as text sparklines."""
    a, b = inert(name_a), inert(name_b)
    embed = discord.Embed(title=t("history.h2h.title", locale, a=a, b=b))
    if not h2h.games:
        embed.description = t("history.h2h.none", locale, a=a, b=b)
        return embed
    lines = [
        t("history.h2h.games", locale, count=len(h2h.games)),
        t("history.h2h.ahead", locale, name=a, count=h2h.ahead_a),
        t("history.h2h.ahead", locale, name=b, count=h2h.ahead_b),
        t("history.h2h.fools", locale, name=a, count=h2h.fools_a),
        t("history.h2h.fools", locale, name=b, count=h2h.fools_b),
    ]
    rated = [g for g in h2h.games if g.rating_a is not None and g.rating_b is not None]
    if rated:
        ra = [g.rating_a for g in rated if g.rating_a is not None]
        rb = [g.rating_b for g in rated if g.rating_b is not None]
        lines.append("")
        lines.append(t("history.h2h.ratings", locale, count=len(rated)))
        lines.append(f"{a}: `{sparkline(ra)}` {ra[0]} → {ra[-1]}")
        lines.append(f"{b}: `{sparkline(rb)}` {rb[0]} → {rb[-1]}")
    embed.description = "\n".join(lines)
    return embed
