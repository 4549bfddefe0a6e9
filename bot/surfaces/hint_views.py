"""The Hint button on a live hand: the hard player's move for that seat, privately.

Offered in a game where every other seat is a computer (practice), or in every game of a
server that allows it (``/durak records hints:``). The suggestion is computed from the seat's
own observation only (``engine.ai.review.advise``), so a hint can never reveal a card the
player could not see; it runs in a thread so the table keeps moving. Every hint is counted
per game and seat (``game_hints``): the result message says how many were used, and the
ratings skip a game with hints. So a seat's first hint of a game first says so and asks
again (``durak:hint:<game>:ok`` shows it); nothing is counted until the hint is shown. A
lesson of ``/durak learn`` is never rated or counted, hints or not (its welcome says so),
so there the hint comes at once: a warning about a rating would be untrue.

The answer gives the move, the chance after it and the reasons computed from the position
and the evaluation (``engine.ai.reasons``: what the move keeps, what the runner-up would cost
beyond the estimate's noise, what is known of the others' hands and the talon), worded by
:mod:`.reasons`.

Custom ids: ``durak:hint:<game>`` and ``durak:hint:<game>:ok``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import discord

from engine.ai.reasons import hint_facts
from engine.ai.review import advise

from ..game.errors import GameOver, NotAPlayer, ServiceError
from ..game.models import GameSession
from ..i18n import t
from ..rendering.common import seat_name
from .callbacks import respond, think_privately
from .door import _Guarded
from .interactions import _components_view, _service, reply_ephemeral
from .language import reader_locale
from .move_words import action_words
from .reasons import pct, reason_lines

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
        game_part, _, op = self.rest.partition(":")
        if not game_part.isdigit() or op not in ("", "ok"):
            await self.malformed(interaction)
            return
        service = _service(interaction)
        locale = reader_locale(interaction)
        session = service.session(int(game_part))
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
        if op != "ok" and not session.hints.get(seat) and session.lesson is None:
            await _confirm(interaction, session.game_id, locale)
            return
        version = session.version
        await think_privately(interaction)
        advice = await asyncio.to_thread(
            advise, obs, iterations=HINT_ITERATIONS, seed=f"{session.game_id}:{version}:{seat}"
        )
        if advice is None:
            raise ServiceError("hint.nothing_to_do")
        await service.add_hint(session, seat, interaction.user.id)
        lines = [
            t(
                "hint.suggestion",
                locale,
                move=action_words(advice.best, locale, session.local_ranks, taking=obs.taking),
                chance=pct(advice.chance),
            )
        ]
        seats = session.seats
        lines += [
            f"• {line}"
            for line in reason_lines(
                hint_facts(obs, advice),
                locale,
                local_ranks=session.local_ranks,
                name_of=lambda s: seat_name(seats[s], locale),
                taking=obs.taking,
            )
        ]
        if session.version != version:
            lines.append(t("hint.stale", locale))
        await reply_ephemeral(interaction, "\n".join(lines))


async def _confirm(interaction: discord.Interaction, game_id: int, locale: str) -> None:
    """Say that a game with hints is not rated, before the first hint is seen, and offer
    the button that shows it (nothing is counted until then)."""
    view = _components_view()
    view.add_item(HintButton(None, t("hint.confirm_button", locale), rest=f"{game_id}:ok"))
    text = t("hint.confirm", locale)
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await respond(
            interaction,
            lambda: interaction.response.send_message(text, view=view, ephemeral=True),
        )
