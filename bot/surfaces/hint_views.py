"""The Hint button on a live hand: the hard player's move for that seat, privately.

Offered in a game where every other seat is a computer (practice), or in every game of a
server that allows it (``/durak records hints:``). The suggestion is computed from the seat's
own observation only (``engine.ai.review.suggest``), so a hint can never reveal a card the
player could not see; it runs in a thread so the table keeps moving. Every hint is counted
per game and seat (``game_hints``): the result message says how many were used, and the
ratings skip a game with hints.

Custom id: ``durak:hint:<game>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import discord

from engine import ActionKind
from engine.ai.review import suggest

from ..game.errors import GameOver, NotAPlayer, ServiceError
from ..game.models import GameSession
from ..i18n import t
from .callbacks import think_privately
from .door import _Guarded
from .interactions import _service, reply_ephemeral
from .language import reader_locale
from .review_views import action_words

__all__ = ["HINT_ITERATIONS", "HintButton", "add_hint_button", "hints_offered"]

#: Sampled worlds per hint: well under a second of one core on a 2-player table.
HINT_ITERATIONS = 24


def hints_offered(session: GameSession, seat: int) -> bool:
    """Practice against computers only, or a server that allows hints everywhere (the
    service keeps that on the session, as it reads and writes the server's settings)."""
    others = [s for s in session.seats if s.seat != seat]
    return all(s.computer for s in others) or session.hints_everywhere


def add_hint_button(view: discord.ui.View, session: GameSession, seat: int, locale: str) -> None:
    """Add the Hint button to a hand's view when hints are offered and there is room."""
    if session.finished or not hints_offered(session, seat):
        return
    if not session.game.legal_actions(seat):
        return
    with contextlib.suppress(ValueError):  # the hand's 25 components are all taken by moves
        view.add_item(HintButton(session.game_id, t("hint.button", locale)))


_REASONS = {
    ActionKind.TAKE: "hint.reason.take",
    ActionKind.DEFEND: "hint.reason.defend",
    ActionKind.ATTACK: "hint.reason.attack",
    ActionKind.THROW: "hint.reason.throw",
    ActionKind.PILE: "hint.reason.throw",
    ActionKind.PASS: "hint.reason.pass",
    ActionKind.TRANSFER: "hint.reason.transfer",
}


class HintButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:hint:(?P<rest>.*)"
):
    def __init__(self, game_id: int | None, label: str = "?", *, rest: str | None = None) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"durak:hint:{self.rest}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HintButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        if not self.rest.isdigit():
            await self.malformed(interaction)
            return
        service = _service(interaction)
        locale = reader_locale(interaction)
        session = service.session(int(self.rest))
        if session is None or session.finished:
            raise GameOver()
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer()
        await service.record_settings(session.guild_id)  # the server's current choice
        if not hints_offered(session, seat):
            raise ServiceError("hint.not_here")
        obs = session.observation(seat)
        if not obs.legal_actions:
            raise ServiceError("hint.nothing_to_do")
        version = session.version
        await think_privately(interaction)
        found = await asyncio.to_thread(
            suggest, obs, iterations=HINT_ITERATIONS, seed=f"{session.game_id}:{version}:{seat}"
        )
        if found is None:
            raise ServiceError("hint.nothing_to_do")
        action, chance = found
        await service.add_hint(session, seat, interaction.user.id)
        text = t(
            "hint.suggestion",
            locale,
            move=action_words(action, locale, session.local_ranks),
            reason=t(_REASONS.get(action.kind, "hint.reason.other"), locale),
            chance=f"{round(chance * 100)}%",
        )
        if session.version != version:
            text += "\n" + t("hint.stale", locale)
        await reply_ephemeral(interaction, text)
