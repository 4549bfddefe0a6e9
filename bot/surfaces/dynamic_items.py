"""Persistent buttons and selects: every component is a ``DynamicItem`` whose custom_id carries
all the state it needs, so clicks keep working after a restart and need no in-memory view.

Custom id formats (all ≤ 100 characters):

* ``durak:lobby:<game>:<op>`` — lobby buttons, ``op`` in join/leave/start/cancel/ai/unai/open,
  and ljoin (Join in ``/durak games``)
* ``durak:lobbyai:<game>`` — lobby select, values are difficulties
* ``durak:show:<game>`` — the table's "Show my hand" button
* ``durak:act:<game>:<version>:<kind>:<cards>`` — one legal move; ``cards`` is card notation
  concatenated (``6s8s``), empty for take/pass
* ``durak:card:<game>:<version>:<selection>:<card>`` — a tap on a card of the hand
  (``selection`` = the selected cards run together, or ``-``); what it does is decided at
  click time (bot/surfaces/hand_controls.py)
* ``durak:cards:<game>:<version>:<selection>:<menu>`` — a hand too big for buttons: card
  selects, 25 cards each (values: cards); a choice is a tap
* ``durak:several:<game>:<version>`` — the "Play several cards…" menu; values are a move of
  several cards (``<kind>:<cards>``) or a starter to select (``+:<cards>``), both checked at
  click time
* ``durak:hand:<game>:<version>:<page>:<selection>`` — refresh (keeps the selection), clear
  the selection, reopen; ``page`` is always 0 (hands shown before tap-a-card paged)
* ``durak:tgt:<game>:<version>:<page>`` — the attack-card select of hands shown before
  tap-a-card: answered with the current hand
* ``durak:watch:<game>[:new]`` — Watch / Refresh / Keep watching (bot/surfaces/spectators.py)
* ``durak:unwatch:<game>`` — Stop watching, on a spectator's view
* ``durak:tables:<page>`` — ``/durak games`` paging (bot/surfaces/tables_views.py)
* ``durak:lb:<period>:<sort>:<page>:<dir>`` — leaderboard paging (the guild comes from the
  interaction, so a copied id cannot show another server's board)
* ``durak:again:<game>:<op>``, ``durak:rec:<game>:<op>``, ``durak:hint:<game>``,
  ``durak:leave:<game>:<op>``, ``durak:replay:<game>:<step>:<hands>:<op>``,
  ``durak:replayjump:<game>:<hands>``, ``durak:rules:<mode>`` — the rematch, record, hint,
  leave, replay and rules items (bot/surfaces/rematch_views.py, replay_views.py,
  hint_views.py, lobby_views.py, rules_views.py)
* ``durak:quick:leave[:<guild>]`` — leave the quick-match queue (the player from the click;
  the guild too, except on the computer offer, a direct message, which names it)
* ``durak:quick:cpu:<guild>``, ``durak:quick:wait:<guild>`` — the computer offer's "Play the
  computer now" and "Keep waiting" (bot/surfaces/quick_offers.py)
* ``durak:hist:<user>:<page>:<dir>`` — ``/durak history`` paging (the guild, again, from the
  interaction)
* ``durak:pz:<day>:<step>:<move>``, ``durak:pzsol:<day>`` — a move of the daily puzzle and a
  past day's solution (bot/surfaces/puzzle_views.py; the player is the clicker)
* ``durak:play:<game>`` — "Play at the table": launches the Activity
  (bot/surfaces/activity_views.py)

The bot sends no other component: no ``discord.ui.View`` with callbacks of its own, whose
buttons would answer nothing once the view is gone from memory (a restart, a timeout). An id
that names a game is checked against the server (and, on a public message, the channel) it is
clicked in before anything else (bot/surfaces/door.py).

The templates of the hand, lobby, leaderboard, history, open-tables and puzzle items are typed
(``HAND_IDS`` in bot/surfaces/hand_items.py, ``LOBBY_IDS`` in lobby_views.py, ``BOARD_ID``,
``HISTORY_ID`` and ``TABLES_ID`` in their views: a game is digits, cards are card notation,
an op one of its words), so
their callbacks start from parts already checked (bot/surfaces/typed_items.py). Clicks reach
the items through the bot's router (bot/surfaces/router.py), which, like discord.py's dynamic
items, leaves a click whose custom_id matches no template unanswered, so :class:`UnknownDurakItem`
takes every id with our prefix that no item's template takes, and answers it politely as
malformed; the other items' templates (again, rec, hint) are loose and parse in the callback.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from ..i18n import t
from .activity_views import ACTIVITY_ID, PlayAtTableButton
from .answers import log_lost_answer
from .door import _Guarded
from .hand_items import (
    HAND_IDS,
    ActButton,
    CardButton,
    CardSelect,
    HandNavButton,
    SeveralSelect,
    ShowHandButton,
    TargetSelect,
)
from .history_views import HISTORY_ID, HistoryButton
from .interactions import reply_ephemeral
from .language import reader_locale
from .leaderboard_views import BOARD_ID, LeaderboardButton
from .learn_views import LESSON_ID, LessonButton
from .lobby_views import (
    LOBBY_IDS,
    LeaveConfirmButton,
    LobbyAiSelect,
    LobbyButton,
    LobbyHostSelect,
)
from .puzzle_views import PUZZLE_IDS, PuzzleMoveButton, PuzzleSolutionButton
from .quick_offers import QuickOfferButton
from .quick_views import QuickLeaveButton
from .rules_views import RulesDetailsButton
from .spectators import UnwatchButton, WatchButton
from .tables_views import TABLES_ID, TablesPageButton

log = logging.getLogger(__name__)

#: The ids an item takes exactly (typed items, and the quick match's strict templates), their
#: named groups made plain so they can be alternatives of one pattern: the catch-all answers
#: any other id with our prefix, so no click on a mangled id goes unanswered.
TYPED_IDS: tuple[str, ...] = (
    *HAND_IDS.values(),
    *LOBBY_IDS.values(),
    BOARD_ID,
    HISTORY_ID,
    TABLES_ID,
    LESSON_ID,
    *PUZZLE_IDS.values(),
    ACTIVITY_ID,
    QuickLeaveButton.__discord_ui_compiled_template__.pattern,
    QuickOfferButton.__discord_ui_compiled_template__.pattern,
)
_TYPED_IDS = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", template.removeprefix("durak:")) for template in TYPED_IDS
)


class UnknownDurakItem(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"durak:(?!(?:again|rec|hint|replay|replayjump|rules|watch|unwatch|tourney):)"
        rf"(?!(?:{_TYPED_IDS})\Z)(?P<rest>.*)"
    ),
):
    """Catches ids with our prefix that no item takes: an unknown kind, or a hand item's id
    whose parts are not what its template types (old versions, tampering)."""

    def __init__(self, rest: str) -> None:
        self.rest = rest
        super().__init__(discord.ui.Button(label="?", custom_id=f"durak:{rest}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnknownDurakItem:
        return cls(match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.malformed(interaction)


class StaleIdItem(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!durak:)(?P<rest>.+)"
):
    """Any id without our prefix: a component of a view this bot no longer sends (the replay
    viewer's ``replay:first``… before its ids carried the game, the rules' random id), or a
    forged one. The bot sends no view that would answer it from memory, so this is its only
    answer: privately, how to get a working message again."""

    def __init__(self, rest: str) -> None:
        self.rest = rest
        super().__init__(discord.ui.Button(label="?", custom_id=rest))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StaleIdItem:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = reader_locale(interaction)
        key = "replay.closed" if self.rest.startswith("replay:") else "error.malformed_id"
        log.info("stale custom_id %r from %s", self.rest[:100], interaction.user.id)
        try:
            await reply_ephemeral(interaction, t(key, locale))
        except discord.HTTPException as exc:
            log_lost_answer(interaction, exc)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    LobbyAiSelect,
    LobbyHostSelect,
    LeaveConfirmButton,
    ShowHandButton,
    ActButton,
    CardButton,
    CardSelect,
    SeveralSelect,
    HandNavButton,
    TargetSelect,
    LeaderboardButton,
    RulesDetailsButton,
    WatchButton,
    UnwatchButton,
    TablesPageButton,
    HistoryButton,
    QuickLeaveButton,
    QuickOfferButton,
    LessonButton,
    PuzzleMoveButton,
    PuzzleSolutionButton,
    PlayAtTableButton,
    UnknownDurakItem,
    StaleIdItem,
)
