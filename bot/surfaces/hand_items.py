"""The clickable items of a hand message (discord.py dynamic items, so they survive a
restart): a card, a verb, paging/refresh, the card and "several cards" menus, targets,
and "Show my hand" on the table. A click re-renders the hand through bot.surfaces.hand_answers,
with the drawing the app hands the client (bot.surfaces.hand_views.hand_message, which builds
these items, so this module never imports it).

Every item is a :class:`_GameItem`: its custom id is checked by the item's template (typed
groups: a game and a version are digits, a selection is cards run together or ``-``), so the
click handlers start from the id's parts already validated; an id no template takes is
answered as malformed by bot.surfaces.dynamic_items. The prelude every click shares is
:meth:`_GameItem.handle`: a hand item on a public message is answered privately, a move is
acknowledged and applied (the service finds the player's seat), anything else looks the
player up once and goes to the item's :meth:`~_GameItem.clicked`. A refusal raised anywhere
on the way reaches the door (bot.surfaces.door), which calls the item's :meth:`refuse`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import discord

from engine import Action, Card, Observation

from ..discord_limits import (
    BUTTON_LABEL,
    MESSAGE_CONTENT,
    SELECT_OPTION_TEXT,
    SELECT_OPTIONS,
    SELECT_PLACEHOLDER,
)
from ..game.errors import HandClosed, NotAPlayer, ServiceError, StaleAction
from ..game.models import GameSession
from ..game.turns import parse_action
from ..i18n import t
from ..rendering.common import card_text, cards_text
from ..rendering.result import result_text
from .answers import acknowledge_unless_done, answered_first, on_public_message, update_message
from .callbacks import respond
from .door import _Malformed
from .hand_answers import draw_hand, edit_hand, missed, send_hand, track
from .hand_controls import Several, Tap, tap, valid_selection
from .hand_labels import _move_emoji, _move_label, _unit_emoji, _unit_label
from .interactions import (
    _card_list,
    _service,
    error_text,
    reply_ephemeral,
)
from .language import reader_locale
from .router import chosen_values
from .typed_items import CARDS, GAME, PART, VERSION, _TypedItem

log = logging.getLogger(__name__)

# The typed parts of the custom ids (bot/surfaces/dynamic_items.py lists the formats).
_SELECTION = rf"(?P<selection>-|{CARDS})"

#: The custom id of each hand item, by its kind (every part typed; see dynamic_items).
HAND_IDS: dict[str, str] = {
    "show": rf"durak:show:{GAME}",
    "act": rf"durak:act:{GAME}:{VERSION}:(?P<kind>[a-z_]+):(?P<cards>{CARDS})",
    "hand": rf"durak:hand:{GAME}:{VERSION}:(?P<page>[0-9]+):{_SELECTION}",
    "card": rf"durak:card:{GAME}:{VERSION}:{_SELECTION}:(?P<card>[2-9TJQKA][cdhs]'?)",
    "cards": rf"durak:cards:{GAME}:{VERSION}:{_SELECTION}:{PART}",
    "several": rf"durak:several:{GAME}:{VERSION}",
    "tgt": rf"durak:tgt:{GAME}:{PART}:{PART}",
}

#: A move of the player's own, as the service wants it: the action for the clicker's seat.
Move = Callable[[int], Action]


def _cards(text: str) -> list[str]:
    """Cards run together (``-`` = none), as validated by the template."""
    return [] if text == "-" else _card_list(text) or []


def _move(kind: str, cards: Sequence[str]) -> Move:
    """The move of a button or menu option, for whoever clicks it (_Malformed if it is not
    one: an unknown verb or cards)."""
    try:
        parse_action(0, kind, cards)
    except ValueError:
        raise _Malformed from None
    return lambda seat: parse_action(seat, kind, cards)


class _GameItem(_TypedItem):
    """A component of one game whose id starts ``durak:<kind>:<game>``: the prelude of a
    click, once for every item (see the module docstring)."""

    #: The item lives on the player's private hand: a click on a public message is answered
    #: privately instead, and a refusal redraws the hand (see :class:`_HandItem`).
    private: ClassVar[bool] = False

    @property
    def game_id(self) -> int:
        return int(self.fields["game"])

    @property
    def version(self) -> int:
        return int(self.fields["version"])

    async def handle(self, interaction: discord.Interaction) -> None:
        try:
            self.fields  # noqa: B018 - an id no template takes (a live view's item) is malformed
            move = self.move(interaction)
        except _Malformed:
            await self.malformed(interaction)
            return
        if self.private and on_public_message(interaction):
            await self.answer_public(interaction)
            return
        if move is not None:
            await self.play(interaction, move)
            return
        session, seat = await _service(interaction).require_player(
            self.game_id, interaction.user.id
        )
        await self.clicked(interaction, session, seat)

    def move(self, interaction: discord.Interaction) -> Move | None:
        """The move this click makes at once, None when it looks at the hand first; raises
        _Malformed for values that make no click."""
        return None

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        """The click of a player who may see their hand in ``session`` (at ``seat``)."""
        raise NotImplementedError

    async def answer_public(self, interaction: discord.Interaction) -> None:
        """A hand component on a public message (forged or replayed): never edit that
        message; give the player their hand privately, or say privately why not."""
        log.info("hand component %s on a public message from %s", self.rest, interaction.user.id)
        session, seat = await _service(interaction).require_player(
            self.game_id, interaction.user.id
        )
        locale = reader_locale(interaction, session.locale)
        draw = draw_hand(interaction)
        content, embed, view = draw(session, seat, locale, note=t("hand.public_click", locale))
        await respond(
            interaction,
            lambda: interaction.response.send_message(
                content=content, embed=embed, view=view, ephemeral=True
            ),
        )

    async def play(self, interaction: discord.Interaction, move: Move | Action) -> None:
        """Apply ``move`` and show the hand after it.

        The move takes the game's lock and a commit. When both are done within a few
        milliseconds the hand after the move is the click's first answer; otherwise the click
        is acknowledged while Discord still accepts it, and the hand is shown by an edit
        (bot/surfaces/answers.py, ``acknowledge_unless_done``).

        A move whose acknowledgement never reached Discord is applied all the same: the
        click was real (Discord sent it, signed, with the player's id), the version in its
        id lets it apply at most once, and a move dropped unapplied would leave the table
        waiting on a player who believes they moved. The player's client said the click
        failed, so the outcome is shown on what they look at next: their live hand is
        redrawn (through the token of their previous answer; this one has none), and the
        table shows the move to everyone. A refusal of such a move is only logged (by the
        door): there is no answer left to carry it, and nothing changed."""
        service = _service(interaction)
        applying = asyncio.ensure_future(
            service.act(self.game_id, interaction.user.id, self.version, move)
        )
        try:
            answered = await acknowledge_unless_done(interaction, applying)
        except BaseException:
            applying.cancel()
            raise
        if not answered:
            self.unanswerable = True  # a refusal is only logged by the door
            await applying
            missed(interaction, self.game_id)()
            return
        session = await applying
        first = not interaction.response.is_done()
        seat = session.seat_of(interaction.user.id)
        locale = reader_locale(interaction, session.locale)
        if session.finished or seat is None:
            # This very move ended the game: say so (a refused click says something else).
            text = t("hand.move_ended_game", locale)
            result = result_text(session, locale)
            closing = f"{text}\n{result}" if result else text
            track(interaction, session, locale)  # forgets the live hand: the game is over
            await update_message(
                interaction, content=closing[:MESSAGE_CONTENT], embed=None, view=None
            )
        else:
            await edit_hand(interaction, session, seat, locale=locale)
        if first:
            answered_first(interaction)


class ShowHandButton(
    _GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=HAND_IDS["show"]
):
    """ "Show my hand" under the table (a public message, so refusals are plain answers)."""

    def __init__(
        self, game_id: int | None = None, label: str = "?", *, rest: str | None = None
    ) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                emoji="🃏",
                custom_id=f"durak:show:{self.rest}",
            )
        )

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        await send_hand(interaction, session, seat)

    async def refuse(self, interaction: discord.Interaction, err: ServiceError) -> None:
        if type(err) is NotAPlayer:  # a member who does not play: point to Watch
            err = ServiceError("hand.watch_instead", game_id=self.game_id)
        await super().refuse(interaction, err)


class _HandItem(_GameItem):
    """Items on a hand message: refusals re-render the hand in place, and a hand whose game
    ended (or that its player left) turns into a sentence saying so."""

    private = True

    async def refuse(self, interaction: discord.Interaction, err: ServiceError) -> None:
        if on_public_message(interaction):
            await reply_ephemeral(interaction, error_text(err, reader_locale(interaction)))
            return
        service = _service(interaction)
        user_id = interaction.user.id
        if isinstance(err, StaleAction):
            log.info("game %s: stale click by %d", self.fields.get("game"), user_id)
        if not isinstance(err, HandClosed):
            # e.g. a stale click on a hand of a game that ended since
            err = await service.closed_hand(self.game_id, user_id) or err
        found = service.find_player(self.game_id, user_id)
        session, seat = found if found is not None else (None, -1)
        if session is None or session.finished or isinstance(err, HandClosed):
            locale = reader_locale(interaction, session.locale if session else None)
            await update_message(
                interaction, content=error_text(err, locale), embed=None, view=None
            )
            return
        locale = reader_locale(interaction, session.locale)
        await edit_hand(interaction, session, seat, note=error_text(err, locale))

    async def tap_card(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        seat: int,
        card: str,
    ) -> None:
        """A tap on a card (button or select): play its one use, or change the selection.
        What the tap does is worked out again from the game as it is now, so a stale tap
        (another move came first) is refused politely instead of doing something else."""
        if self.version != session.version:
            raise StaleAction()
        chosen = [Card.parse(c) for c in _cards(self.fields["selection"])]
        obs = session.observation(seat)
        outcome = tap(obs, chosen, Card.parse(card))
        if outcome is None:
            raise StaleAction()
        if outcome.action is None:
            await edit_hand(interaction, session, seat, selection=outcome.selection)
            return
        await self.play(interaction, outcome.action)


class ActButton(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=HAND_IDS["act"],
):
    def __init__(
        self,
        game_id: int | None = None,
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
                label=label[:BUTTON_LABEL],
                style=style,
                custom_id=f"durak:act:{rest}",
                row=row,
                emoji=emoji,
            )
        )

    def move(self, interaction: discord.Interaction) -> Move | None:
        return _move(self.fields["kind"], _cards(self.fields["cards"]))


class HandNavButton(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=HAND_IDS["hand"],
):
    """Refresh (keeps the selection), clear the selection, and reopen a live hand. The id is
    ``game:version:page:selection``; ``page`` is always 0 now (hands no longer page) and is
    kept so the ids of hands shown before still parse."""

    def __init__(
        self,
        game_id: int | None = None,
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

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        selection = [Card.parse(c) for c in _cards(self.fields["selection"])]
        await edit_hand(interaction, session, seat, selection=selection)


class CardButton(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=HAND_IDS["card"],
):
    """One card of the hand: ``durak:card:<game>:<version>:<selection>:<card>``. The tap's
    effect (play, select, deselect) is decided at click time from the game, never from the
    id, so a forged id can do no more than a tap on a card of one's own hand."""

    def __init__(
        self,
        game_id: int | None = None,
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
                label=label[:BUTTON_LABEL],
                style=style,
                custom_id=f"durak:card:{self.rest}",
                row=row,
                emoji=emoji,
            )
        )

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        await self.tap_card(interaction, session, seat, self.fields["card"])


class CardSelect(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=HAND_IDS["cards"],
):
    """The cards of a hand too big for buttons (more than the rows hold), 25 a menu:
    ``durak:cards:<game>:<version>:<selection>:<menu>``; choosing a card is a tap on it."""

    def __init__(
        self,
        game_id: int | None = None,
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
        local_ranks: bool = True,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}:{selection}:{index}"
        chosen = set(_card_list(selection) or [])
        options = [
            discord.SelectOption(
                label=_unit_label(tp.card, blind, str(tp.card) in chosen, locale, local_ranks),
                value=str(tp.card),
                emoji=(
                    _unit_emoji(tp.card, blind, obs, locale, local_ranks)
                    if obs is not None
                    else None
                ),
            )
            for tp in taps[:SELECT_OPTIONS]
        ] or [discord.SelectOption(label="-", value="-")]
        first, last = (taps[0].card, taps[-1].card) if taps else (None, None)
        placeholder = (
            t(
                "hand.select_cards_range",
                locale,
                first=card_text(first, locale, local_ranks=local_ranks),
                last=card_text(last, locale, local_ranks=local_ranks),
            )
            if first is not None and last is not None and not blind
            else t("hand.select_cards", locale)
        )
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:cards:{self.rest}",
                placeholder=placeholder[:SELECT_PLACEHOLDER],
                options=options,
                row=row,
            )
        )

    def move(self, interaction: discord.Interaction) -> Move | None:
        values = chosen_values(interaction)
        card = _card_list(values[0]) if len(values) == 1 else None
        if not card or len(card) != 1:
            raise _Malformed
        return None

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        await self.tap_card(interaction, session, seat, chosen_values(interaction)[0])


class SeveralSelect(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=HAND_IDS["several"],
):
    """The "Play several cards…" menu: ``durak:several:<game>:<version>``. An option's value
    is a move (``<kind>:<cards>``, played at once) or a starter (``+:<cards>``, selected so
    taps can add to it). Both are checked against the game as it is at click time: the
    service refuses a move that is not legal (or a stale version), and a starter no legal
    move holds any more is refused as out of date."""

    def __init__(
        self,
        game_id: int | None = None,
        version: int = 0,
        options: Sequence[Several] = (),
        obs: Observation | None = None,
        locale: str = "en",
        row: int | None = None,
        *,
        rest: str | None = None,
        local_ranks: bool = True,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{version}"
        choices: list[discord.SelectOption] = []
        for opt in options[:SELECT_OPTIONS]:
            if opt.action is not None and obs is not None:
                cards = "".join(str(c) for c in opt.action.cards)
                choices.append(
                    discord.SelectOption(
                        label=_move_label(opt.action, obs, locale, local_ranks)[
                            :SELECT_OPTION_TEXT
                        ],
                        value=f"{opt.action.kind.value}:{cards}",
                        emoji=_move_emoji(opt.action, obs, locale, local_ranks),
                    )
                )
            else:
                cards = "".join(str(c) for c in opt.selection)
                choices.append(
                    discord.SelectOption(
                        label=t(
                            "hand.several.start",
                            locale,
                            cards=cards_text(opt.selection, None, locale, local_ranks=local_ranks),
                        )[:SELECT_OPTION_TEXT],
                        value=f"+:{cards}",
                    )
                )
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:several:{self.rest}",
                placeholder=t("hand.several.placeholder", locale)[:SELECT_PLACEHOLDER],
                options=choices or [discord.SelectOption(label="-", value="-")],
                row=row,
            )
        )

    def _choice(self, interaction: discord.Interaction) -> tuple[str, list[str]]:
        values = chosen_values(interaction)
        choice = values[0].split(":", 1) if len(values) == 1 else []
        cards = _card_list(choice[1]) if len(choice) == 2 else None
        if not cards:
            raise _Malformed
        return choice[0], cards

    def move(self, interaction: discord.Interaction) -> Move | None:
        kind, cards = self._choice(interaction)
        return None if kind == "+" else _move(kind, cards)

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        """A starter: show it selected, taps add the rest."""
        chosen = [Card.parse(c) for c in self._choice(interaction)[1]]
        shown = valid_selection(session.observation(seat), chosen)
        if self.version != session.version or len(shown) != len(chosen):
            raise StaleAction()
        await edit_hand(interaction, session, seat, selection=shown)


class TargetSelect(
    _HandItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=HAND_IDS["tgt"],
):
    """The attack-card select of hands shown before tap-a-card: a choice on such an old
    message answers with the current hand (tapping a card now asks which card it beats)."""

    def __init__(self, game_id: int | None = None, *, rest: str) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:tgt:{rest}", options=[discord.SelectOption(label="-", value="-")]
            )
        )

    async def clicked(
        self, interaction: discord.Interaction, session: GameSession, seat: int
    ) -> None:
        note = t("error.stale_button", reader_locale(interaction, session.locale))
        await edit_hand(interaction, session, seat, note=note)
