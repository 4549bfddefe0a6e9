"""Answering a click or a command with the player's hand, and making that answer their live
hand (bot.surfaces.live_hands).

The hand is drawn by bot.surfaces.hand_views.hand_message, which builds the hand items; the
items answer their clicks with the hand. So the drawing is handed in by the app (bot/app.py
sets ``client.draw_hand``, as it hands LiveHands ``live_hand_message``) and read off the
interaction's client here, like the game service: the imports run one way, hand_views →
hand_items → hand_answers, and no module half-loads another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import discord

from engine import Card

from ..game.models import GameSession
from .answers import update_message
from .callbacks import respond
from .hand_controls import valid_selection
from .language import reader_locale


class DrawHand(Protocol):
    """Content, embed and components of a player's private hand message
    (bot.surfaces.hand_views.hand_message)."""

    def __call__(
        self,
        session: GameSession,
        seat: int,
        locale: str,
        *,
        selection: Sequence[Card] = (),
        note: str | None = None,
    ) -> tuple[str | None, discord.Embed, discord.ui.View]: ...


def draw_hand(interaction: discord.Interaction) -> DrawHand:
    """The drawing of hand messages that the app gave the client."""
    draw: DrawHand | None = getattr(interaction.client, "draw_hand", None)
    if draw is None:
        raise RuntimeError("the client draws no hands")
    return draw


def track(
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


def missed(interaction: discord.Interaction, game_id: int) -> Callable[[], None]:
    """What a hand answer that Discord refused still owes: the live hand's redraw."""

    def redraw() -> None:
        live = getattr(interaction.client, "live_hands", None)
        if live is not None:
            live.missed(game_id, interaction.user.id)

    return redraw


async def edit_hand(
    interaction: discord.Interaction,
    session: GameSession,
    seat: int,
    *,
    selection: Sequence[Card] = (),
    note: str | None = None,
    locale: str | None = None,
) -> None:
    """Redraw the clicked hand message in place (in ``locale``, the reader's by default),
    and make it the player's live hand with the selection it shows."""
    if locale is None:
        locale = reader_locale(interaction, session.locale)
    content, embed, view = draw_hand(interaction)(
        session, seat, locale, selection=selection, note=note
    )
    # the selection the hand shows: what the drawing kept of ``selection`` (its controls')
    shown = valid_selection(session.observation(seat), selection) if selection else ()
    track(interaction, session, locale, selection=shown)
    await update_message(
        interaction,
        content=content,
        embed=embed,
        view=view,
        fallback=missed(interaction, session.game_id),
    )


async def send_hand(interaction: discord.Interaction, session: GameSession, seat: int) -> None:
    """A fresh ephemeral hand message (from the table button or /durak hand)."""
    locale = reader_locale(interaction, session.locale)
    content, embed, view = draw_hand(interaction)(session, seat, locale)
    track(interaction, session, locale, new_message=True)
    await respond(
        interaction,
        lambda: interaction.response.send_message(
            content=content, embed=embed, view=view, ephemeral=True
        ),
    )
