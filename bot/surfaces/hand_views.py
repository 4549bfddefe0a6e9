"""A player's private hand: tap-a-card controls (bot.surfaces.hand_controls) laid out in
Discord's five rows, the live hand message, and the "Show my hand" button on the table."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from engine import Action, ActionKind, Card, Observation

from ..cardart.emojis import registry as card_emojis
from ..game.errors import HandClosed, ServiceError, StaleAction
from ..game.models import GameSession
from ..game.rules import parse_action
from ..i18n import has_key, pick_locale, t
from ..rendering.common import card_text, cards_text
from ..rendering.result import result_text
from ..rendering.table import hand_embed
from .answers import acknowledge, on_public_message, update_message
from .hand_controls import HandControls, Several, Tap, controls, tap, valid_selection
from .hint_views import add_hint_button
from .interactions import (
    BUTTONS_PER_ROW,
    CONTENT_LIMIT,
    _card_list,
    _components_view,
    _Guarded,
    _ints,
    _service,
    error_text,
    reply_ephemeral,
)
from .learn import add_learn_tips

log = logging.getLogger(__name__)

#: Discord's most rows of components on one message.
MAX_ROWS = 5


#: Options in one select menu (Discord's limit).
SELECT_OPTIONS = 25


#: Moves that answer one attack card; CONCEAL: take on trust.
_ANSWERS = (ActionKind.DEFEND, ActionKind.CONCEAL, ActionKind.BEAT_BLIND)


#: Reverse fool: moves that name a slot of the player's own (unseen) hand, not a card.
_PAIR_LABELS = {
    ActionKind.DEFEND: "hand.button.defend_with",
    ActionKind.CONCEAL: "hand.button.conceal_with",
}


_BLIND_LABELS = {
    ActionKind.LEAD_BLIND: "hand.button.lead_blind",
    ActionKind.THROW_BLIND: "hand.button.throw_blind",
    ActionKind.BEAT_BLIND: "hand.button.beat_blind",
    ActionKind.TRANSFER_BLIND: "hand.button.transfer_blind",
}


#: Locale keys of the move verbs shown on card buttons.
_VERB_KEYS: dict[ActionKind, str] = {
    ActionKind.ATTACK: "hand.button.attack",
    ActionKind.THROW: "hand.button.throw_in",
    ActionKind.TRANSFER: "hand.button.transfer",
    ActionKind.SHOW: "hand.button.show_trump",
    ActionKind.PILE: "hand.button.pile_on",
    ActionKind.EXCHANGE: "hand.button.exchange_trump",
    ActionKind.SWAP: "hand.button.swap",
}


def _move_label(a: Action, obs: Observation, locale: str) -> str:
    blind = _BLIND_LABELS.get(a.kind)
    if blind is not None:  # the last "card" is the slot number
        attack = card_text(a.cards[0]) if len(a.cards) > 1 else ""
        return t(blind, locale, slot=int(a.cards[-1]) + 1, attack=attack)
    cards = cards_text(a.cards)
    if a.kind in _PAIR_LABELS:  # a card on the table and the card laid on it
        return t(
            _PAIR_LABELS[a.kind],
            locale,
            attack=card_text(a.cards[0]),
            card=card_text(a.cards[1]),
        )
    if a.kind is ActionKind.TOP:
        # the card is unseen until it lies on the table: the button names no card
        return t("hand.button.lead_top", locale)
    key = _VERB_KEYS.get(a.kind)
    if key is None and has_key(f"hand.button.{a.kind.value}"):
        key = f"hand.button.{a.kind.value}"
    # A kind of move this view does not know yet (a new catalogue variant's) still gets a
    # button: its notation verb, never a KeyError that would take the whole hand down.
    verb = t(key, locale) if key else a.kind.value
    if not a.cards:
        return verb
    return t("hand.button.card_action", locale, verb=verb, cards=cards)


def _move_emoji(a: Action, obs: Observation) -> discord.PartialEmoji | None:
    """The picture on a move's button: the card the player puts down (for a defence the
    beating card, for several cards of one rank the last), or None for text-only buttons."""
    if not a.cards or a.kind in _BLIND_LABELS:
        return None  # (a blind move's last "card" is a slot number, not a card to picture)
    card = a.cards[-1]
    return card_emojis.card(card, card.suit == obs.trump)


def _simple_label(a: Action, obs: Observation, locale: str) -> str:
    if a.kind is ActionKind.TAKE:
        return t("hand.button.take", locale)
    if a.kind is ActionKind.PASS:
        return t("hand.button.pass" if obs.taking else "hand.button.done", locale)
    if a.kind is ActionKind.ACCEPT:
        return t("hand.button.accept", locale)
    if a.kind is ActionKind.CHALLENGE:
        return t("hand.button.challenge", locale)
    return _move_label(a, obs, locale)


def _unit_label(card: Card, blind: bool, selected: bool, locale: str) -> str:
    """A card button's words: the card itself ("10♦", read out as such by screen readers),
    a slot of a blind hand ("Card #3"), a tick when it is selected."""
    text = t("hand.button.slot", locale, slot=int(card) + 1) if blind else card_text(card)
    return f"✓ {text}" if selected else text


def _unit_emoji(card: Card, blind: bool, obs: Observation) -> discord.PartialEmoji | None:
    return None if blind else card_emojis.card(card, card.suit == obs.trump)


def _selection_id(cards: Sequence[Card]) -> str:
    return "".join(str(c) for c in cards) or "-"


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
    if card_rows + verb_rows + menu <= MAX_ROWS:
        return HandLayout(hc, verbs, verb_rows, 0, menu)
    for refresh in (True, False):
        count = verbs - (0 if refresh else 1)
        if -(-(taps + count) // BUTTONS_PER_ROW) + menu <= MAX_ROWS:
            return HandLayout(hc, count, verb_rows, 0, menu, packed=True, refresh=refresh)
    return HandLayout(hc, verbs, verb_rows, -(-taps // SELECT_OPTIONS), menu)


def hand_controls(session: GameSession, seat: int, selection: Sequence[Card] = ()) -> HandLayout:
    """The laid-out controls of ``seat``'s hand (the bench and tests read it too)."""
    return layout(controls(session.game.observation(seat), selection))


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
    obs = session.game.observation(seat)
    gid, ver = session.game_id, session.version
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
            if i >= MAX_ROWS - lay.verb_rows - lay.menu:
                log.warning("game %d: hand of seat %d has more cards than rows", gid, seat)
                break
            view.add_item(CardSelect(gid, ver, sel, i, chunk, hc.blind, obs, locale, row=i))
    else:
        for i, tp in enumerate(hc.taps):
            picked = tp.card in chosen
            style = discord.ButtonStyle.success if picked else discord.ButtonStyle.primary
            view.add_item(
                CardButton(
                    gid,
                    ver,
                    sel,
                    tp.card,
                    _unit_label(tp.card, hc.blind, picked, locale),
                    style,
                    i // BUTTONS_PER_ROW,
                    emoji=_unit_emoji(tp.card, hc.blind, obs),
                )
            )
    buttons: list[discord.ui.Item[Any]] = []
    for move in hc.completions:
        buttons.append(
            ActButton(
                gid,
                ver,
                move,
                _move_label(move, obs, locale),
                discord.ButtonStyle.success,
                emoji=_move_emoji(move, obs),
            )
        )
    for move in hc.verbs:
        style = (
            discord.ButtonStyle.danger
            if move.kind is ActionKind.TAKE
            else discord.ButtonStyle.secondary
        )
        buttons.append(
            ActButton(
                gid,
                ver,
                move,
                _simple_label(move, obs, locale),
                style,
                emoji=_move_emoji(move, obs),
            )
        )
    if hc.selection:
        buttons.append(HandNavButton(gid, ver, 0, "-", t("hand.button.clear", locale), clear=True))
    if lay.refresh:
        buttons.append(
            HandNavButton(gid, ver, 0, sel, t("hand.button.refresh", locale), refresh=True)
        )
    if lay.packed:  # the verbs follow the cards in the same rows
        for i, item in enumerate(buttons, start=len(hc.taps)):
            item.row = i // BUTTONS_PER_ROW
            view.add_item(item)
    else:
        first = lay.selects or -(-len(hc.taps) // BUTTONS_PER_ROW)  # rows the cards took
        for i, item in enumerate(buttons):
            item.row = min(first + i // BUTTONS_PER_ROW, MAX_ROWS - 1)
            view.add_item(item)
    if lay.menu:
        view.add_item(SeveralSelect(gid, ver, hc.several, obs, locale, row=lay.rows - 1))
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
        HandNavButton(
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


def _track(
    interaction: discord.Interaction,
    session: GameSession,
    locale: str,
    *,
    selection: Sequence[Card] = (),
    new_message: bool = False,
) -> None:
    """This answer shows the player their hand: it becomes their live hand
    (bot.surfaces.live_hands), with its selection kept across the game's changes.
    Called right before the answer is sent, with no await since the game was read."""
    live = getattr(interaction.client, "live_hands", None)
    if live is not None:
        live.opened(
            interaction, session, locale, selection=tuple(selection), new_message=new_message
        )


def _missed(interaction: discord.Interaction, game_id: int) -> Callable[[], None]:
    """What a hand answer that Discord refused still owes: the live hand's redraw."""

    def redraw() -> None:
        live = getattr(interaction.client, "live_hands", None)
        if live is not None:
            live.missed(game_id, interaction.user.id)

    return redraw


async def _edit_hand(
    interaction: discord.Interaction,
    session: GameSession,
    seat: int,
    *,
    selection: Sequence[Card] = (),
    note: str | None = None,
) -> None:
    locale = pick_locale(interaction.locale, session.locale)
    content, embed, view = hand_message(session, seat, locale, selection=selection, note=note)
    shown = controls(session.game.observation(seat), selection).selection
    _track(interaction, session, locale, selection=shown)
    await update_message(
        interaction,
        content=content,
        embed=embed,
        view=view,
        fallback=_missed(interaction, session.game_id),
    )


async def send_hand(interaction: discord.Interaction, session: GameSession, seat: int) -> None:
    """A fresh ephemeral hand message (from the table button or /durak hand)."""
    locale = pick_locale(interaction.locale, session.locale)
    content, embed, view = hand_message(session, seat, locale)
    _track(interaction, session, locale, new_message=True)
    await interaction.response.send_message(content=content, embed=embed, view=view, ephemeral=True)


class ShowHandButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:show:(?P<rest>.*)"
):
    def __init__(self, game_id: int | None, label: str = "?", *, rest: str | None = None) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                emoji="🃏",
                custom_id=f"durak:show:{self.rest}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowHandButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if not self.rest.isdigit():
            await self.malformed(interaction)
            return
        session, seat = await _service(interaction).require_player(
            int(self.rest), interaction.user.id
        )
        await send_hand(interaction, session, seat)


class _HandItem(_Guarded):
    """Shared handling for items on a hand message: refusals re-render the hand in place,
    and a hand whose game ended (or that its player left) turns into a sentence saying so."""

    async def refuse(
        self, interaction: discord.Interaction, game_id: int, err: ServiceError
    ) -> None:
        service = _service(interaction)
        if on_public_message(interaction):
            await reply_ephemeral(
                interaction, error_text(err, pick_locale(interaction.locale, None))
            )
            return
        if not isinstance(err, HandClosed):
            try:
                await service.require_player(game_id, interaction.user.id)
            except HandClosed as closed:
                err = closed  # e.g. a stale click on a hand of a game that ended since
            except ServiceError:
                pass
        try:
            session, seat = service.player_seat(game_id, interaction.user.id)
        except ServiceError:
            session = None
            seat = -1
        if session is None or session.finished or isinstance(err, HandClosed):
            locale = pick_locale(interaction.locale, session.locale if session else None)
            await update_message(
                interaction, content=error_text(err, locale), embed=None, view=None
            )
            return
        locale = pick_locale(interaction.locale, session.locale)
        await _edit_hand(interaction, session, seat, note=error_text(err, locale))

    async def answer_public(self, interaction: discord.Interaction, game_id: int) -> None:
        """A hand component on a public message (forged or replayed): never edit that
        message; give the player their hand privately, or say privately why not."""
        log.info("hand component %s on a public message from %s", self.rest, interaction.user.id)
        try:
            session, seat = await _service(interaction).require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await reply_ephemeral(
                interaction, error_text(err, pick_locale(interaction.locale, None))
            )
            return
        locale = pick_locale(interaction.locale, session.locale)
        content, embed, view = hand_message(
            session, seat, locale, note=t("hand.public_click", locale)
        )
        await interaction.response.send_message(
            content=content, embed=embed, view=view, ephemeral=True
        )

    async def play(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        seat: int,
        action: Action,
    ) -> None:
        """Apply ``action`` (the interaction is acknowledged) and show the hand after it."""
        service = _service(interaction)
        try:
            session = await service.act(game_id, interaction.user.id, version, action)
        except StaleAction as err:
            log.info("game %d: stale click v%d by %d", game_id, version, interaction.user.id)
            await self.refuse(interaction, game_id, err)
            return
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        locale = pick_locale(interaction.locale, session.locale)
        if session.finished:
            # This very move ended the game: say so (a refused click says something else).
            text = t("hand.move_ended_game", locale)
            result = result_text(session, locale)
            closing = f"{text}\n{result}" if result else text
            _track(interaction, session, locale)  # forgets the live hand: the game is over
            await update_message(
                interaction, content=closing[:CONTENT_LIMIT], embed=None, view=None
            )
            return
        content, embed, view = hand_message(session, seat, locale)
        _track(interaction, session, locale)
        await update_message(
            interaction,
            content=content,
            embed=embed,
            view=view,
            fallback=_missed(interaction, game_id),
        )

    async def tap_card(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        selection: list[str],
        card: str,
    ) -> None:
        """A tap on a card (button or select): play its one use, or change the selection.
        What the tap does is worked out again from the game as it is now, so a stale tap
        (another move came first) is refused politely instead of doing something else."""
        if on_public_message(interaction):
            await self.answer_public(interaction, game_id)
            return
        service = _service(interaction)
        try:
            session, seat = await service.require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        if version != session.version:
            await self.refuse(interaction, game_id, StaleAction())
            return
        try:
            chosen = [Card.parse(c) for c in selection]
            tapped = Card.parse(card)
        except ValueError:
            await self.malformed(interaction)
            return
        obs = session.game.observation(seat)
        outcome = tap(obs, chosen, tapped)
        if outcome is None:
            await self.refuse(interaction, game_id, StaleAction())
            return
        if outcome.action is None:
            await _edit_hand(interaction, session, seat, selection=outcome.selection)
            return
        if not await acknowledge(interaction):
            return
        await self.play(interaction, game_id, version, seat, outcome.action)


class ActButton(
    _HandItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:act:(?P<rest>.*)"
):
    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        action: Action | None = None,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
        *,
        emoji: discord.PartialEmoji | None = None,
        rest: str | None = None,
    ) -> None:
        if rest is None:
            assert action is not None
            cards = "".join(str(c) for c in action.cards)
            rest = f"{game_id}:{version}:{action.kind.value}:{cards}"
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=f"durak:act:{rest}", row=row, emoji=emoji
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 4)
        cards = _card_list(parts[3]) if parts is not None else None
        if parts is None or cards is None or not (parts[0].isdigit() and parts[1].isdigit()):
            await self.malformed(interaction)
            return
        game_id, version = int(parts[0]), int(parts[1])
        if on_public_message(interaction):
            await self.answer_public(interaction, game_id)
            return
        # The move takes the game's lock and a commit: acknowledge first, while Discord
        # still accepts it, and show the outcome by an edit (bot/surfaces/answers.py).
        if not await acknowledge(interaction):
            return
        service = _service(interaction)
        try:
            _, seat = await service.require_player(game_id, interaction.user.id)
            action = parse_action(seat, parts[2], cards)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        except ValueError:
            await self.malformed(interaction)
            return
        await self.play(interaction, game_id, version, seat, action)


class HandNavButton(
    _HandItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:hand:(?P<rest>.*)"
):
    """Refresh (keeps the selection), clear the selection, and reopen a live hand. The id is
    ``game:version:page:selection``; ``page`` is always 0 now (hands no longer page) and is
    kept so the ids of hands shown before still parse."""

    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        page: int = 0,
        target: str = "-",
        label: str = "?",
        row: int | None = None,
        *,
        refresh: bool = False,
        clear: bool = False,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{page}:{target}"
        emoji = "🔄" if refresh else "✖️" if clear else None
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=f"durak:hand:{self.rest}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandNavButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 4)
        if parts is None or not all(p.isdigit() for p in parts[:3]):
            await self.malformed(interaction)
            return
        game_id = int(parts[0])
        selection = _card_list(parts[3]) if parts[3] != "-" else []
        if selection is None:
            await self.malformed(interaction)
            return
        if on_public_message(interaction):
            await self.answer_public(interaction, game_id)
            return
        try:
            session, seat = await _service(interaction).require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        await _edit_hand(interaction, session, seat, selection=[Card.parse(c) for c in selection])


def _tap_of(rest: str, chosen: str | None) -> tuple[int, int, list[str], str] | None:
    """(game, version, selection, card) of a card tap or card menu choice, or None when the
    id or the choice is malformed (tampered with, or from an unknown version)."""
    parts = _ints(rest, 4)
    if parts is None or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    selection = _card_list(parts[2]) if parts[2] != "-" else []
    card = _card_list(chosen) if chosen is not None else None
    if selection is None or not card or len(card) != 1:
        return None
    return int(parts[0]), int(parts[1]), selection, card[0]


class CardButton(
    _HandItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:card:(?P<rest>.*)"
):
    """One card of the hand: ``durak:card:<game>:<version>:<selection>:<card>``. The tap's
    effect (play, select, deselect) is decided at click time from the game, never from the
    id, so a forged id can do no more than a tap on a card of one's own hand."""

    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        selection: str = "-",
        card: Card | None = None,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        row: int | None = None,
        *,
        emoji: discord.PartialEmoji | None = None,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{selection}:{card}"
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=f"durak:card:{self.rest}",
                row=row,
                emoji=emoji,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        tap = _tap_of(self.rest, self.rest.rsplit(":", 1)[-1])
        if tap is None:
            await self.malformed(interaction)
            return
        await self.tap_card(interaction, *tap)


class CardSelect(
    _HandItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"durak:cards:(?P<rest>.*)"
):
    """The cards of a hand too big for buttons (more than the rows hold), 25 a menu:
    ``durak:cards:<game>:<version>:<selection>:<menu>``; choosing a card is a tap on it."""

    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        selection: str = "-",
        index: int = 0,
        taps: Sequence[Tap] = (),
        blind: bool = False,
        obs: Observation | None = None,
        locale: str = "en",
        row: int | None = None,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{selection}:{index}"
        chosen = set(_card_list(selection) or [])
        options = [
            discord.SelectOption(
                label=_unit_label(tp.card, blind, str(tp.card) in chosen, locale),
                value=str(tp.card),
                emoji=_unit_emoji(tp.card, blind, obs) if obs is not None else None,
            )
            for tp in taps[:SELECT_OPTIONS]
        ] or [discord.SelectOption(label="-", value="-")]
        first, last = (taps[0].card, taps[-1].card) if taps else (None, None)
        placeholder = (
            t("hand.select_cards_range", locale, first=card_text(first), last=card_text(last))
            if first is not None and last is not None and not blind
            else t("hand.select_cards", locale)
        )
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:cards:{self.rest}",
                placeholder=placeholder[:150],
                options=options,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardSelect:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        tap = _tap_of(self.rest, values[0] if len(values) == 1 else None)
        if tap is None:
            await self.malformed(interaction)
            return
        await self.tap_card(interaction, *tap)


class SeveralSelect(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"durak:several:(?P<rest>.*)",
):
    """The "Play several cards…" menu: ``durak:several:<game>:<version>``. An option's value
    is a move (``<kind>:<cards>``, played at once) or a starter (``+:<cards>``, selected so
    taps can add to it). Both are checked against the game as it is at click time: the
    service refuses a move that is not legal (or a stale version), and a starter no legal
    move holds any more is refused as out of date."""

    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        options: Sequence[Several] = (),
        obs: Observation | None = None,
        locale: str = "en",
        row: int | None = None,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}"
        choices: list[discord.SelectOption] = []
        for opt in options[:SELECT_OPTIONS]:
            if opt.action is not None and obs is not None:
                cards = "".join(str(c) for c in opt.action.cards)
                choices.append(
                    discord.SelectOption(
                        label=_move_label(opt.action, obs, locale)[:100],
                        value=f"{opt.action.kind.value}:{cards}",
                        emoji=_move_emoji(opt.action, obs),
                    )
                )
            else:
                cards = "".join(str(c) for c in opt.selection)
                choices.append(
                    discord.SelectOption(
                        label=t("hand.several.start", locale, cards=cards_text(opt.selection))[
                            :100
                        ],
                        value=f"+:{cards}",
                    )
                )
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:several:{self.rest}",
                placeholder=t("hand.several.placeholder", locale)[:150],
                options=choices or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeveralSelect:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 2)
        values = self.item.values
        choice = values[0].split(":", 1) if len(values) == 1 else []
        cards = _card_list(choice[1]) if len(choice) == 2 else None
        if parts is None or not all(p.isdigit() for p in parts) or not cards:
            await self.malformed(interaction)
            return
        game_id, version = int(parts[0]), int(parts[1])
        if on_public_message(interaction):
            await self.answer_public(interaction, game_id)
            return
        service = _service(interaction)
        if choice[0] == "+":  # a starter: show it selected, taps add the rest
            try:
                session, seat = await service.require_player(game_id, interaction.user.id)
            except ServiceError as err:
                await self.refuse(interaction, game_id, err)
                return
            chosen = [Card.parse(c) for c in cards]
            shown = valid_selection(session.game.observation(seat), chosen)
            if version != session.version or len(shown) != len(chosen):
                await self.refuse(interaction, game_id, StaleAction())
                return
            await _edit_hand(interaction, session, seat, selection=shown)
            return
        if not await acknowledge(interaction):
            return
        try:
            _, seat = await service.require_player(game_id, interaction.user.id)
            action = parse_action(seat, choice[0], cards)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        except ValueError:
            await self.malformed(interaction)
            return
        await self.play(interaction, game_id, version, seat, action)


class TargetSelect(
    _HandItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"durak:tgt:(?P<rest>.*)"
):
    """The attack-card select of hands shown before tap-a-card: a choice on such an old
    message answers with the current hand (tapping a card now asks which card it beats)."""

    def __init__(self, rest: str) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:tgt:{rest}", options=[discord.SelectOption(label="-", value="-")]
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TargetSelect:
        return cls(match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 3)
        if parts is None or not parts[0].isdigit():
            await self.malformed(interaction)
            return
        game_id = int(parts[0])
        if on_public_message(interaction):
            await self.answer_public(interaction, game_id)
            return
        try:
            session, seat = await _service(interaction).require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        note = t("error.stale_button", pick_locale(interaction.locale, session.locale))
        await _edit_hand(interaction, session, seat, note=note)
