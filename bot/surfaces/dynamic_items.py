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

The templates are deliberately loose (``durak:act:(?P<rest>.*)``) and parsing happens in the
callback, because discord.py silently drops clicks whose custom_id matches no template or whose
``from_custom_id`` raises: a malformed id must still get a polite answer.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from .door import _Guarded
from .hand_items import (
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


class UnknownDurakItem(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"durak:(?!(?:lobby|lobbyai|lobbyhost|leave|show|act|card|cards|several|hand|tgt|lb|again|rec"
        r"|hint):)(?P<rest>.*)"
    ),
):
    """Catches ids with our prefix but an unknown kind (old versions, tampering)."""

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
