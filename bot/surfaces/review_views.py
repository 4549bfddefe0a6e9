"""The private review (``/durak review``, the Review button on a result message).

The person's own decisions in a finished game are judged by ``engine.ai.review`` in the
review queue's worker (bot/game/reviews.py); meanwhile the reply says "reviewing…". The answer
shows the three costliest decisions, each with a picture of that moment: the table, the
player's hand face up under it (their own cards: the reply is private, and nobody else's
hand is drawn) with the cards of the move made and of the better move marked, and both moves
in words. The figures are the chance of not being the fool after the move made and after the
better one; only decisions whose difference is larger than the estimate's noise are shown,
and the noise is said (``Decision.noise``). The reasons are computed from the position as a
hint's are (``engine.ai.reasons.review_facts``): a comparison is made only between moves of
kinds it fits.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from engine import Action, ActionKind, Card
from engine.ai.reasons import review_facts
from engine.ai.review import Decision, Review

from ..cardart.labels import rank_labels
from ..discord_limits import EMBED_DESCRIPTION
from ..game.errors import ServiceError
from ..game.records import Replay
from ..game.reviews import ReviewQueue
from ..i18n import t
from ..pictures import table_scene
from ..pictures.hands import HandRow, Legend, render_with_hands
from ..rendering.common import COLOUR_OVER, cards_text, seat_name
from .callbacks import think_privately
from .interactions import _service
from .language import reader_locale
from .move_words import action_words
from .reasons import pct, reason_lines

__all__ = [
    "action_words",
    "decision_lines",
    "decision_picture",
    "open_review",
    "review_embeds",
    "review_queue",
]

log = logging.getLogger(__name__)

SHOWN = 3


def review_queue(interaction: discord.Interaction) -> ReviewQueue:
    """The bot's one review queue (made on first use)."""
    client: Any = interaction.client
    queue = getattr(client, "review_queue", None)
    if not isinstance(queue, ReviewQueue):
        queue = ReviewQueue()
        client.review_queue = queue
    return queue


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


def _marks(action: Action, hand: list[Card]) -> set[int]:
    """The cards of the hand a move names (a defence's beater, a lead's cards, the trump an
    exchange gives): what the picture lifts out of the row."""
    cards = action.cards[1:] if action.kind is ActionKind.DEFEND else action.cards
    held = {int(c) for c in hand}
    return {int(c) for c in cards if int(c) in held and not action.kind.value.endswith("_blind")}


def decision_picture(replay: Replay, d: Decision, locale: str) -> bytes:
    """The table before the decision, the reviewed seat's hand face up under it, the cards
    of both moves marked and both moves named in the legend. Only the seat's own hand is
    drawn: the picture goes to its owner alone."""
    step = decision_step(replay, d)
    game = replay.steps[step].game
    ranks = replay.local_ranks
    hand = game.hand(d.seat)
    mine, better = _marks(d.played, hand), _marks(d.preferred, hand)
    marks = tuple(
        (c, "both" if c in mine and c in better else "yours" if c in mine else "better")
        for c in sorted(mine | better)
    )
    row = HandRow(
        label=t("picture.review.hand", locale),
        cards=tuple(int(c) for c in hand),
        ranks=rank_labels(locale, local_ranks=ranks),
        trump=game.observation(d.seat).trump,
        marks=marks,
        empty=t("picture.hands.none", locale),
    )
    taking = game.taking
    legend: tuple[Legend, ...] = tuple(
        Legend(
            tone,
            f"{t(f'picture.review.{tone}', locale)}: "
            + action_words(a, locale, ranks, taking=taking),
        )
        for tone, a in (("yours", d.played), ("better", d.preferred))
    )
    if any(tone == "both" for _, tone in marks):
        legend += (Legend("both", t("picture.review.both", locale)),)
    return render_with_hands(table_scene(replay.session_at(step, locale)), (row,), legend)


def decision_lines(replay: Replay, d: Decision, locale: str) -> list[str]:
    """The decision in words: both moves, the figures with their noise, why."""
    step = decision_step(replay, d)
    game = replay.steps[step].game
    ranks = replay.local_ranks
    taking = game.taking
    lines = [
        t("review.played", locale, move=action_words(d.played, locale, ranks, taking=taking)),
        t(
            "review.preferred",
            locale,
            move=action_words(d.preferred, locale, ranks, taking=taking),
        ),
    ]
    if d.worlds == 0:
        lines.append(t("review.chances_exact", locale))
    else:
        lines.append(
            t(
                "review.chances",
                locale,
                played=pct(d.after_played),
                preferred=pct(d.after_preferred),
                noise=pct(d.noise),
                worlds=d.worlds,
            )
        )
    obs = game.observation(d.seat)
    why = reason_lines(
        review_facts(obs, d.played, d.preferred),
        locale,
        local_ranks=ranks,
        name_of=lambda s: seat_name(replay.seats[s], locale),
        taking=taking,
    )
    lines.append(t("review.why", locale))
    lines += [f"• {line}" for line in why or [t("review.no_reason", locale)]]
    lines.append(
        t(
            "review.your_hand",
            locale,
            cards=cards_text(game.hand(d.seat), obs.trump, locale, local_ranks=ranks),
        )
    )
    return lines


def _decision_embed(
    replay: Replay, d: Decision, number: int, locale: str
) -> tuple[discord.Embed, bytes | None]:
    step = decision_step(replay, d)
    embed = discord.Embed(
        title=t("review.decision_title", locale, number=number, step=step + 1),
        colour=COLOUR_OVER,
    )
    embed.description = "\n".join(decision_lines(replay, d, locale))[:EMBED_DESCRIPTION]
    try:
        png: bytes | None = decision_picture(replay, d, locale)
    except Exception:
        log.warning("game %d: review picture failed", replay.game_id, exc_info=True)
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
    working = (
        t("review.working_queue", locale, game_id=replay.game_id, ahead=ahead)
        if ahead
        else t("review.working", locale, game_id=replay.game_id)
    )
    await interaction.edit_original_response(content=working)
    review = await queue.review(interaction.guild_id, interaction.user.id, replay.text, seat)
    embeds, files = await asyncio.to_thread(review_embeds, replay, review, locale)
    await interaction.edit_original_response(content=None, embeds=embeds, attachments=files)
