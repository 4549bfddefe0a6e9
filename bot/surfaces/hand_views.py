"""A player's private hand: tap-a-card controls (bot.surfaces.hand_controls) laid out in
Discord's five rows, the live hand message, and the "Show my hand" button on the table."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from engine import ActionKind, Card

from ..discord_limits import ACTION_ROWS, BUTTONS_PER_ROW, SELECT_OPTIONS
from ..game.errors import HandClosed
from ..game.models import GameSession
from ..i18n import t
from ..rendering.table import hand_embed
from . import hand_items as items
from .hand_controls import HandControls, controls
from .hand_labels import (
    _move_emoji,
    _move_label,
    _selection_id,
    _simple_label,
    _unit_emoji,
    _unit_label,
)
from .hint_views import add_hint_button
from .interactions import (
    _components_view,
    error_text,
)
from .learn import add_learn_tips

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HandLayout:
    """How a hand's controls fit Discord's five rows: card buttons (five a row) or, when a
    hand has more playable cards than the rows left, card select menus (25 cards each); the
    verb buttons; and the "Play several cards…" menu (a row of its own, the last)."""

    controls: HandControls
    #: Verb buttons in order: the selection's completions, take/done/..., clear, refresh.
    verb_count: int
    verb_rows: int
    #: Card select menus instead of card buttons (0: buttons).
    selects: int
    #: Whether the "Play several cards…" menu is shown (its own row, the last).
    menu: bool = False
    #: Verb buttons follow the card buttons in the same rows (a big hand: no row to spare).
    packed: bool = False
    #: Whether the Refresh button fits (a live hand redraws itself; a full hand drops it).
    refresh: bool = True

    @property
    def move_components(self) -> int:
        """Components that make or build a move (refresh and clear do neither)."""
        hc = self.controls
        cards = self.selects if self.selects else len(hc.taps)
        return cards + len(hc.completions) + len(hc.verbs) + (1 if self.menu else 0)

    @property
    def rows(self) -> int:
        """Rows taken on the message (at most Discord's five)."""
        if self.packed:
            cells = len(self.controls.taps) + self.verb_count
            return -(-cells // BUTTONS_PER_ROW) + self.menu
        cards = self.selects or -(-len(self.controls.taps) // BUTTONS_PER_ROW)
        return cards + self.verb_rows + self.menu

    @property
    def card_click(self) -> int:
        """Clicks of one card tap: a button is one, a card menu two (open, pick)."""
        return 2 if self.selects else 1


def layout(hc: HandControls) -> HandLayout:
    """Fit ``hc`` into five rows, never paging. In order of preference: cards, verbs and the
    menu in rows of their own; verbs after the cards in shared rows; the same without
    Refresh; card select menus (only for hands too big for buttons)."""
    menu = bool(hc.several)
    verbs = len(hc.completions) + len(hc.verbs) + (1 if hc.selection else 0) + 1
    verb_rows = max(1, -(-verbs // BUTTONS_PER_ROW))
    taps = len(hc.taps)
    card_rows = -(-taps // BUTTONS_PER_ROW)
    if card_rows + verb_rows + menu <= ACTION_ROWS:
        return HandLayout(hc, verbs, verb_rows, 0, menu)
    for refresh in (True, False):
        count = verbs - (0 if refresh else 1)
        if -(-(taps + count) // BUTTONS_PER_ROW) + menu <= ACTION_ROWS:
            return HandLayout(hc, count, verb_rows, 0, menu, packed=True, refresh=refresh)
    return HandLayout(hc, verbs, verb_rows, -(-taps // SELECT_OPTIONS), menu)


def hand_controls(session: GameSession, seat: int, selection: Sequence[Card] = ()) -> HandLayout:
    """The laid-out controls of ``seat``'s hand (the bench and tests read it too)."""
    return layout(controls(session.observation(seat), selection))


def hand_message(
    session: GameSession,
    seat: int,
    locale: str,
    *,
    selection: Sequence[Card] = (),
    note: str | None = None,
) -> tuple[str | None, discord.Embed, discord.ui.View]:
    """Content, embed and components of a player's private hand message.

    Tap-a-card (bot.surfaces.hand_controls): each card the seat can play now is a button; a
    card whose one-card use is one move plays it, a card with several one-card uses selects,
    and the moves made of the selected cards appear as verb buttons. Moves of several cards
    are the "Play several cards…" menu (the last row). Take, done, pass and the other
    card-less moves are always buttons. Only legal moves get a control.
    """
    obs = session.observation(seat)
    gid, ver = session.game_id, session.version
    ranks = session.local_ranks
    view = _components_view()
    hc = controls(obs, selection)
    embed = hand_embed(session, obs, locale, selected=hc.selection)
    if session.finished:
        return note, embed, view
    lay = layout(hc)
    sel = _selection_id(hc.selection)
    chosen = set(hc.selection)
    if lay.selects:
        for i in range(lay.selects):
            chunk = hc.taps[i * SELECT_OPTIONS : (i + 1) * SELECT_OPTIONS]
            if i >= ACTION_ROWS - lay.verb_rows - lay.menu:
                log.warning("game %d: hand of seat %d has more cards than rows", gid, seat)
                break
            view.add_item(
                items.CardSelect(
                    gid, ver, sel, i, chunk, hc.blind, obs, locale, row=i, local_ranks=ranks
                )
            )
    else:
        for i, tp in enumerate(hc.taps):
            picked = tp.card in chosen
            style = discord.ButtonStyle.success if picked else discord.ButtonStyle.primary
            view.add_item(
                items.CardButton(
                    gid,
                    ver,
                    sel,
                    tp.card,
                    _unit_label(tp.card, hc.blind, picked, locale, ranks),
                    style,
                    i // BUTTONS_PER_ROW,
                    emoji=_unit_emoji(tp.card, hc.blind, obs, locale, ranks),
                )
            )
    buttons: list[discord.ui.Item[Any]] = []
    for move in hc.completions:
        buttons.append(
            items.ActButton(
                gid,
                ver,
                move,
                _move_label(move, obs, locale, ranks),
                discord.ButtonStyle.success,
                emoji=_move_emoji(move, obs, locale, ranks),
            )
        )
    for move in hc.verbs:
        style = (
            discord.ButtonStyle.danger
            if move.kind is ActionKind.TAKE
            else discord.ButtonStyle.secondary
        )
        buttons.append(
            items.ActButton(
                gid,
                ver,
                move,
                _simple_label(move, obs, locale, ranks),
                style,
                emoji=_move_emoji(move, obs, locale, ranks),
            )
        )
    if hc.selection:
        buttons.append(
            items.HandNavButton(gid, ver, 0, "-", t("hand.button.clear", locale), clear=True)
        )
    if lay.refresh:
        buttons.append(
            items.HandNavButton(gid, ver, 0, sel, t("hand.button.refresh", locale), refresh=True)
        )
    if lay.packed:  # the verbs follow the cards in the same rows
        for i, item in enumerate(buttons, start=len(hc.taps)):
            item.row = i // BUTTONS_PER_ROW
            view.add_item(item)
    else:
        first = lay.selects or -(-len(hc.taps) // BUTTONS_PER_ROW)  # rows the cards took
        for i, item in enumerate(buttons):
            item.row = min(first + i // BUTTONS_PER_ROW, ACTION_ROWS - 1)
            view.add_item(item)
    if lay.menu:
        view.add_item(
            items.SeveralSelect(
                gid, ver, hc.several, obs, locale, row=lay.rows - 1, local_ranks=ranks
            )
        )
    add_hint_button(view, session, seat, locale)  # (bot/surfaces/hint_views.py)
    add_learn_tips(embed, session, seat, locale)  # /durak learn (bot/surfaces/learn.py)
    return note, embed, view


def live_hand_message(
    session: GameSession,
    seat: int,
    locale: str,
    *,
    selection: Sequence[Card] = (),
) -> tuple[str | None, discord.Embed | None, discord.ui.View]:
    """What a live hand is edited to (see bot.surfaces.live_hands): the hand while the game runs;
    once it is over or cancelled, the same sentence a click on that hand gets, so no frozen "your
    turn" stays on screen without buttons."""
    if session.finished:
        key = "hand.closed.cancelled" if session.status == "cancelled" else "hand.closed.finished"
        return error_text(HandClosed(key, session), locale), None, _components_view()
    return hand_message(session, seat, locale, selection=selection)


def reopen_view(session: GameSession, locale: str) -> discord.ui.View:
    """The one button of a hand whose live updates are about to stop: a click answers with
    the current hand in place and brings a fresh interaction token (see bot.surfaces.live_hands)."""
    view = _components_view()
    view.add_item(
        items.HandNavButton(
            session.game_id,
            session.version,
            0,
            "-",
            t("hand.button.reopen", locale),
            refresh=True,
            style=discord.ButtonStyle.primary,
        )
    )
    return view
