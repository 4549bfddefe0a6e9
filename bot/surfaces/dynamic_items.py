"""Persistent buttons and selects: every component is a ``DynamicItem`` whose custom_id carries
all the state it needs, so clicks keep working after a restart and need no in-memory view.

Custom id formats (all ≤ 100 characters):

* ``durak:lobby:<game>:<op>`` — lobby buttons, ``op`` in join/leave/start/cancel/ai/unai
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
* ``durak:lb:<period>:<sort>:<page>:<dir>`` — leaderboard paging (the guild comes from the
  interaction, so a copied id cannot show another server's board)

The hand items' templates are typed (bot/surfaces/hand_items.py ``HAND_IDS``: a game is
digits, cards are card notation), so their callbacks start from parts already checked. Since
discord.py silently drops a click whose custom_id matches no template, :class:`UnknownDurakItem`
takes every id with our prefix that no item's template takes, and answers it politely as
malformed; the other items' templates are loose and parse in the callback.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

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
from .leaderboard_views import LeaderboardButton
from .lobby_views import LeaveConfirmButton, LobbyAiSelect, LobbyButton, LobbyHostSelect

log = logging.getLogger(__name__)

#: The hand items' ids (without the prefix), their named groups made plain so they can be
#: alternatives of one pattern.
_TYPED_IDS = "|".join(
    re.sub(r"\(\?P<\w+>", "(?:", template.removeprefix("durak:")) for template in HAND_IDS.values()
)


class UnknownDurakItem(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"durak:(?!(?:lobby|lobbyai|lobbyhost|leave|lb|again|rec|hint|tourney):)"
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
    UnknownDurakItem,
)
