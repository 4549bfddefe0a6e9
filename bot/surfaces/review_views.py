"""The private review (``/durak review``, the Review button on a result message).

The person's own decisions in a finished game are judged by ``engine.ai.review`` in the
review queue's worker (bot/game/reviews.py); meanwhile the reply says "reviewing…". The answer
shows the chances before and after, and the three costliest decisions, each with the table
picture of that moment, the player's hand then (their own cards: the reply is private) and
both moves in plain words.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from engine import Action, ActionKind
from engine.ai.review import Decision, Review

from ..game.errors import ServiceError
from ..game.records import Replay
from ..game.reviews import ReviewQueue
from ..i18n import t
from ..pictures import render_png, table_scene
from ..rendering.common import COLOUR_OVER, cards_text, seat_name
from .callbacks import think_privately
from .interactions import _service
from .language import reader_locale
from .move_words import action_words

__all__ = ["action_words", "open_review", "review_embeds", "review_queue"]

SHOWN = 3


def review_queue(interaction: discord.Interaction) -> ReviewQueue:
    """The bot's one review queue (made on first use)."""
    client: Any = interaction.client
    queue = getattr(client, "review_queue", None)
    if not isinstance(queue, ReviewQueue):
        queue = ReviewQueue()
        client.review_queue = queue
    return queue


def reason_key(played: Action, preferred: Action, trump: int) -> str:
    """Why the preferred move is better, in one short sentence (a rule of thumb that fits)."""

    def trumps(a: Action) -> int:
        return (
            sum(1 for c in a.cards[1:] if c // 13 % 4 == trump)
            if a.kind is ActionKind.DEFEND
            else sum(1 for c in a.cards if c // 13 % 4 == trump)
        )

    if played.kind is ActionKind.TAKE and preferred.kind is not ActionKind.TAKE:
        return "review.reason.took"
    if preferred.kind is ActionKind.TAKE:
        return "review.reason.should_take"
    if trumps(played) > trumps(preferred):
        return "review.reason.trump_spent"
    if played.kind is ActionKind.PASS:
        return "review.reason.could_add"
    if preferred.kind is ActionKind.PASS:
        return "review.reason.gave_cards"
    return "review.reason.playouts"


def _pct(x: float) -> str:
    return f"{round(x * 100)}%"


def review_embeds(
    replay: Replay, review: Review, locale: str
) -> tuple[list[discord.Embed], list[discord.File]]:
    """The summary and one embed per costly decision, each with its picture."""
    seat = replay.seats[review.seat]
    judged = len(review.decisions)
    worst = review.costliest(SHOWN)
    summary = discord.Embed(
        title=t("review.title", locale, game_id=replay.game_id, name=seat_name(seat, locale)),
        colour=COLOUR_OVER,
    )
    if not judged:
        summary.description = t("review.no_choices", locale)
    elif not worst:
        summary.description = t("review.clean", locale, count=judged)
    else:
        summary.description = t(
            "review.summary",
            locale,
            count=judged,
            mistakes=sum(d.mistake for d in review.decisions),
        )
    embeds = [summary]
    files: list[discord.File] = []
    for number, d in enumerate(worst, 1):
        embed, png = _decision_embed(replay, d, number, locale)
        if png is not None:
            name = f"review{number}.png"
            files.append(discord.File(io.BytesIO(png), filename=name))
            embed.set_image(url=f"attachment://{name}")
        embeds.append(embed)
    return embeds, files


def decision_step(replay: Replay, d: Decision) -> int:
    """The replay step showing the position the decision was made in (before the move)."""
    actions = 0
    for i, move in enumerate(replay.record.moves):
        if i == d.move:
            return actions
        if move.action is not None:
            actions += 1
    return actions


def _decision_embed(
    replay: Replay, d: Decision, number: int, locale: str
) -> tuple[discord.Embed, bytes | None]:
    step = decision_step(replay, d)
    game = replay.steps[step].game
    ranks = replay.local_ranks
    embed = discord.Embed(
        title=t("review.decision_title", locale, number=number, step=step + 1),
        colour=COLOUR_OVER,
    )
    embed.description = "\n".join(
        [
            t("review.played", locale, move=action_words(d.played, locale, ranks)),
            t("review.preferred", locale, move=action_words(d.preferred, locale, ranks)),
            t(reason_key(d.played, d.preferred, game.trump), locale),
            t(
                "review.chances",
                locale,
                before=_pct(d.before),
                played=_pct(d.after_played),
                preferred=_pct(d.after_preferred),
            ),
            t(
                "review.your_hand",
                locale,
                cards=cards_text(game.hand(d.seat), game.trump, locale, local_ranks=ranks),
            ),
        ]
    )
    try:
        png: bytes | None = render_png(table_scene(replay.session_at(step, locale)))
    except Exception:
        png = None
    return embed, png


async def open_review(interaction: discord.Interaction, game_id: int | None) -> None:
    """Queue the review of the person's own moves in a finished game and show it."""
    assert interaction.guild_id is not None
    locale = reader_locale(interaction)
    if not interaction.response.is_done():
        await think_privately(interaction)
    replay = await _service(interaction).load_replay(
        interaction.guild_id, interaction.user.id, game_id, for_review=True
    )
    seat = next((s.seat for s in replay.seats if s.user_id == interaction.user.id), None)
    if seat is None:
        raise ServiceError("review.not_a_player", game_id=replay.game_id)
    queue = review_queue(interaction)
    ahead = queue.total_waiting()
    await interaction.edit_original_response(
        content=t("review.working", locale, game_id=replay.game_id, ahead=ahead)
    )
    review = await queue.review(interaction.guild_id, interaction.user.id, replay.text, seat)
    embeds, files = await asyncio.to_thread(review_embeds, replay, review, locale)
    await interaction.edit_original_response(content=None, embeds=embeds, attachments=files)
