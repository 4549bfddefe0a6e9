"""A player's private hand: the move buttons (ordered, paged, with a target select), the
live hand message, and the "Show my hand" button on the table."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from engine import Action, ActionKind, Card, Observation
from engine.cards import PACK, sort_key

from ..cardart.emojis import registry as card_emojis
from ..game.errors import HandClosed, ServiceError, StaleAction
from ..game.models import GameSession
from ..game.rules import parse_action
from ..i18n import has_key, pick_locale, t
from ..rendering.common import card_text, cards_text
from ..rendering.result import result_text
from ..rendering.table import hand_embed
from .answers import acknowledge, on_public_message, update_message
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

CARD_ROWS = 4  # rows of move buttons per page when no target select is shown


_KIND_ORDER = {
    ActionKind.ATTACK: 0,
    ActionKind.TRANSFER: 1,
    ActionKind.SHOW: 2,
    ActionKind.DEFEND: 3,
    ActionKind.CONCEAL: 3,
    ActionKind.LEAD_BLIND: 0,
    ActionKind.TRANSFER_BLIND: 1,
    ActionKind.BEAT_BLIND: 3,
    ActionKind.THROW_BLIND: 4,
    ActionKind.THROW: 4,
    ActionKind.PILE: 5,
}


_SIMPLE = (
    ActionKind.TAKE,
    ActionKind.PASS,
    ActionKind.EXCHANGE,
    ActionKind.ACCEPT,
    ActionKind.CHALLENGE,
)


#: Moves that answer one attack card (the target select chooses which); CONCEAL: take on trust.
_ANSWERS = (ActionKind.DEFEND, ActionKind.CONCEAL, ActionKind.BEAT_BLIND)


#: Kinds whose cards are (attack, answer): their order is part of the move.
_ORDERED_CARDS = _ANSWERS


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


def _face_key(a: Action) -> tuple[Any, ...]:
    """What a move looks like to the player: its kind and the faces of its cards. In big fool
    a card and its twin (``c`` and ``c + 52``) look alike and play alike, so two moves with
    the same key are one button (the first of them is played)."""
    faces = [c % PACK for c in a.cards]
    if a.kind not in _ORDERED_CARDS:
        faces.sort()
    return (a.kind, *faces)


def _chosen_target(target: Card | None, targets: list[Card]) -> Card | None:
    """The attack card the defender picked, or the first: a twin of a shown target (big
    fool) picks that target, since the select offers one of two alike cards."""
    if not targets:
        return None
    if target is not None:
        for c in targets:
            if c % PACK == target % PACK:
                return target if target in targets else c
    return targets[0]


def _sorted_moves(obs: Observation, target: Card | None) -> tuple[list[Action], list[Card]]:
    """Card moves to show as buttons, and the attack cards the defender could answer; moves
    (and attack cards) that differ only by a twin of the second pack are shown once."""
    moves: list[Action] = []
    seen: set[tuple[Any, ...]] = set()
    for a in obs.legal_actions:
        if a.kind in _SIMPLE:
            continue
        k = _face_key(a)
        if k not in seen:
            seen.add(k)
            moves.append(a)
    targets: list[Card] = []
    faces: set[int] = set()
    for attack, defence in obs.table:
        if (
            defence is None
            and attack % PACK not in faces
            and any(a.kind in _ANSWERS and a.cards[0] == attack for a in moves)
        ):
            targets.append(attack)
            faces.add(attack % PACK)
    if targets:
        chosen = _chosen_target(target, targets)
        moves = [a for a in moves if a.kind not in _ANSWERS or a.cards[0] == chosen]

    def key(a: Action) -> tuple[Any, ...]:
        card = a.cards[-1] if a.cards else None
        return (
            _KIND_ORDER.get(a.kind, 9),
            len(a.cards),
            sort_key(card, obs.trump) if card is not None else (0, 0, 0),
        )

    return sorted(moves, key=key), targets


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


def hand_message(
    session: GameSession,
    seat: int,
    locale: str,
    *,
    page: int = 0,
    target: Card | None = None,
    note: str | None = None,
) -> tuple[str | None, discord.Embed, discord.ui.View]:
    """Content, embed and components of a player's private hand message.

    Only the moves legal for this seat right now get a button. Defending is two-step only when
    it has to be: with one unbeaten card the beating cards are offered directly; with several,
    a select picks the card to answer (default: the first) and the buttons follow it. Moves
    beyond one message's capacity are paged.
    """
    obs = session.game.observation(seat)
    gid, ver = session.game_id, session.version
    embed = hand_embed(session, obs, locale)
    view = _components_view()
    if session.finished:
        return note, embed, view
    moves, targets = _sorted_moves(obs, target)
    chosen = _chosen_target(target, targets)
    # Rows 0-3 hold move buttons; with several attack cards to answer, row 3 is the select.
    # Row 4 always holds take/done/exchange and the paging controls.
    rows = CARD_ROWS - (1 if len(targets) > 1 else 0)
    per_page = rows * BUTTONS_PER_ROW
    pages = max(1, -(-len(moves) // per_page))
    page = min(max(page, 0), pages - 1)
    shown = moves[page * per_page : (page + 1) * per_page]
    for i, move in enumerate(shown):
        style = (
            discord.ButtonStyle.success
            if move.kind is ActionKind.DEFEND
            else discord.ButtonStyle.primary
        )
        view.add_item(
            ActButton(
                gid,
                ver,
                move,
                _move_label(move, obs, locale),
                style,
                i // BUTTONS_PER_ROW,
                emoji=_move_emoji(move, obs),
            )
        )
    if len(targets) > 1:
        view.add_item(
            TargetSelect(gid, ver, page, targets, chosen, locale, row=rows, trump=obs.trump)
        )
    control_row = CARD_ROWS
    for move in (a for a in obs.legal_actions if a.kind in _SIMPLE):
        style = (
            discord.ButtonStyle.danger
            if move.kind is ActionKind.TAKE
            else discord.ButtonStyle.secondary
        )
        view.add_item(
            ActButton(
                gid,
                ver,
                move,
                _simple_label(move, obs, locale),
                style,
                control_row,
                emoji=_move_emoji(move, obs),
            )
        )
    tgt = str(chosen) if chosen is not None else "-"
    if page > 0:
        view.add_item(
            HandNavButton(gid, ver, page - 1, tgt, t("hand.button.page_prev", locale), control_row)
        )
    if page < pages - 1:
        view.add_item(
            HandNavButton(gid, ver, page + 1, tgt, t("hand.button.page_next", locale), control_row)
        )
    view.add_item(
        HandNavButton(
            gid, ver, page, tgt, t("hand.button.refresh", locale), control_row, refresh=True
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
    page: int = 0,
    target: Card | None = None,
) -> tuple[str | None, discord.Embed | None, discord.ui.View]:
    """What a live hand is edited to (see bot.surfaces.live_hands): the hand while the game runs;
    once it is over or cancelled, the same sentence a click on that hand gets, so no frozen "your
    turn" stays on screen without buttons."""
    if session.finished:
        key = "hand.closed.cancelled" if session.status == "cancelled" else "hand.closed.finished"
        return error_text(HandClosed(key, session), locale), None, _components_view()
    return hand_message(session, seat, locale, page=page, target=target)


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
    page: int = 0,
    target: Card | None = None,
    new_message: bool = False,
) -> None:
    """This answer shows the player their hand: it becomes their live hand
    (bot.surfaces.live_hands).
    Called right before the answer is sent, with no await since the game was read."""
    live = getattr(interaction.client, "live_hands", None)
    if live is not None:
        live.opened(interaction, session, locale, page=page, target=target, new_message=new_message)


async def _edit_hand(
    interaction: discord.Interaction,
    session: GameSession,
    seat: int,
    *,
    page: int = 0,
    target: Card | None = None,
    note: str | None = None,
) -> None:
    locale = pick_locale(interaction.locale, session.locale)
    content, embed, view = hand_message(session, seat, locale, page=page, target=target, note=note)
    _track(interaction, session, locale, page=page, target=target)
    await update_message(interaction, content=content, embed=embed, view=view)


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
            session, seat = await service.require_player(game_id, interaction.user.id)
            action = parse_action(seat, parts[2], cards)
        except ServiceError as err:
            await self.refuse(interaction, game_id, err)
            return
        except ValueError:
            await self.malformed(interaction)
            return
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
        await update_message(interaction, content=content, embed=embed, view=view)


class HandNavButton(
    _HandItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:hand:(?P<rest>.*)"
):
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
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{page}:{target}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji="🔄" if refresh else None,
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
        game_id, page = int(parts[0]), int(parts[2])
        target = _card_list(parts[3]) if parts[3] != "-" else []
        if target is None or len(target) > 1:
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
        await _edit_hand(
            interaction,
            session,
            seat,
            page=page,
            target=Card.parse(target[0]) if target else None,
        )


class TargetSelect(
    _HandItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"durak:tgt:(?P<rest>.*)"
):
    def __init__(
        self,
        game_id: int | None,
        version: int = 0,
        page: int = 0,
        targets: list[Card] | None = None,
        chosen: Card | None = None,
        locale: str = "en",
        row: int | None = None,
        *,
        trump: int | None = None,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{page}"
        options = [
            discord.SelectOption(
                label=card_text(c),
                value=str(c),
                default=c == chosen,
                emoji=card_emojis.card(c, c.suit == trump),
            )
            for c in (targets or [])[:25]
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:tgt:{self.rest}",
                placeholder=t("hand.select_target", locale),
                options=options,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TargetSelect:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = _ints(self.rest, 3)
        values = self.item.values
        card = _card_list(values[0]) if len(values) == 1 else None
        if parts is None or not all(p.isdigit() for p in parts) or not card or len(card) != 1:
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
        note = None
        if int(parts[1]) != session.version:
            note = t("error.stale_button", pick_locale(interaction.locale, session.locale))
        await _edit_hand(interaction, session, seat, target=Card.parse(card[0]), note=note)
