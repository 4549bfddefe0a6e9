"""The clickable items of a hand message (discord.py dynamic items, so they survive a
restart): a card, a verb, paging/refresh, the card and "several cards" menus, targets,
and "Show my hand" on the table. A click re-renders the hand through bot.surfaces.hand_views,
which in turn builds these items: each module refers to the other as a module, so either
may be imported first."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from engine import Action, Card, Observation

from ..game.errors import HandClosed, ServiceError, StaleAction
from ..game.rules import parse_action
from ..i18n import pick_locale, t
from ..rendering.common import card_text, cards_text
from ..rendering.result import result_text
from . import hand_views as views
from .answers import acknowledge, on_public_message, update_message
from .door import _Guarded
from .hand_controls import Several, Tap, tap, valid_selection
from .hand_labels import SELECT_OPTIONS, _move_emoji, _move_label, _unit_emoji, _unit_label
from .interactions import CONTENT_LIMIT, _card_list, _ints, _service, error_text, reply_ephemeral

log = logging.getLogger(__name__)


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
        await views.send_hand(interaction, session, seat)


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
        await views._edit_hand(interaction, session, seat, note=error_text(err, locale))

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
        content, embed, view = views.hand_message(
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
            views._track(interaction, session, locale)  # forgets the live hand: the game is over
            await update_message(
                interaction, content=closing[:CONTENT_LIMIT], embed=None, view=None
            )
            return
        content, embed, view = views.hand_message(session, seat, locale)
        views._track(interaction, session, locale)
        await update_message(
            interaction,
            content=content,
            embed=embed,
            view=view,
            fallback=views._missed(interaction, game_id),
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
            await views._edit_hand(interaction, session, seat, selection=outcome.selection)
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
        await views._edit_hand(
            interaction, session, seat, selection=[Card.parse(c) for c in selection]
        )


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
            await views._edit_hand(interaction, session, seat, selection=shown)
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
        await views._edit_hand(interaction, session, seat, note=note)
