"""Answering an interaction in time, and losing an answer quietly.

Discord allows 3 seconds for the first answer to an interaction. discord.py retries a 5xx or
429 on that answer by itself after 1 s and more, so under Discord trouble its answer arrived
after the limit. Hence:

* The first answer is tried several quick times inside the 3 seconds, with discord.py's own
  slow retries cut short (bot/surfaces/callbacks.py).
* Work that takes a lock or a database write first *acknowledges* the click (a deferred
  update, nothing visible), and then edits the message through the interaction's webhook,
  valid for 15 minutes, where a late retry does no harm. A move is the exception that pays:
  it is given :data:`QUICK_ANSWER_SECONDS` to be applied and committed, and when it is, its
  outcome *is* the first answer (one request a move instead of two;
  :func:`acknowledge_unless_done`). A move that takes longer is acknowledged as before, so
  the answer still leaves well inside the 3 seconds with its quick tries.
* A move whose acknowledgement never got through is still applied (see
  bot/surfaces/hand_items.py ``_GameItem.play``): the click was real, the version in its id
  makes it apply at most once, and its outcome is shown where it is owed: the table by its
  own delivery, the player's hand by the live hand's redraw (``fallback``).
* An answer that Discord refused is logged as one line (which interaction, what Discord
  said), never a traceback: it is Discord's trouble, not a bug, and an apology sent the same
  way would fail the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from .. import metrics
from .callbacks import respond
from .delivery import prompt_retry

__all__ = [
    "QUICK_ANSWER_SECONDS",
    "acknowledge",
    "acknowledge_unless_done",
    "answered_first",
    "log_lost_answer",
    "on_public_message",
    "update_message",
]

log = logging.getLogger(__name__)

#: How long a move click waits for its move to be applied and committed before it
#: acknowledges the click instead of answering it with the outcome. Small beside Discord's
#: 3 seconds (the answer keeps its quick tries, bot/surfaces/callbacks.py) and beside the
#: acknowledge aim (p99 < 50 ms): a move later than this is acknowledged then, as every
#: move was before; 0 acknowledges every move at once. docs/benchmarks.md (*One answer per
#: move*) has the figures.
QUICK_ANSWER_SECONDS = 0.02


def log_lost_answer(interaction: discord.Interaction, exc: BaseException) -> None:
    """One line for an answer Discord did not take."""
    if isinstance(exc, discord.HTTPException):
        reason = f"{exc.status} {exc.text or type(exc).__name__}"
    elif isinstance(exc, TimeoutError):
        reason = "no answer within Discord's time limit"
    else:
        reason = f"{type(exc).__name__}: {exc}"
    data: Any = interaction.data or {}
    what = data.get("custom_id") or data.get("name") or "?"
    log.warning(
        "interaction %s (%s by %s): answer lost: %s",
        interaction.id,
        what,
        interaction.user.id,
        reason[:200],
    )


async def acknowledge(interaction: discord.Interaction) -> bool:
    """Defer the click (no visible change), tried quickly again while Discord's 3 seconds
    allow (bot/surfaces/callbacks.py); False (logged) when it did not get through."""
    if interaction.response.is_done():
        return True
    try:
        await respond(interaction, interaction.response.defer)
    except (discord.HTTPException, OSError, TimeoutError) as exc:
        log_lost_answer(interaction, exc)
        return False
    answered_first(interaction)
    return True


async def acknowledge_unless_done(
    interaction: discord.Interaction, work: asyncio.Future[Any]
) -> bool:
    """Give ``work`` (the move being applied) :data:`QUICK_ANSWER_SECONDS`: done by then (or
    failed), the interaction is left open, for the caller to answer with the outcome in its
    first answer; else :func:`acknowledge` it. False when the acknowledgement was lost.

    The click is then answered after its move was applied, not before: Discord's client shows
    the click as pending for those few milliseconds, and a first answer that Discord refuses
    leaves an applied move unshown, which the caller owes the live hand's redraw (as after a
    lost acknowledgement)."""
    budget = QUICK_ANSWER_SECONDS
    if budget > 0 and not interaction.response.is_done():
        try:
            await asyncio.wait((work,), timeout=budget)
        except asyncio.CancelledError:
            work.cancel()
            raise
        if work.done():
            metrics.MOVE_ANSWERS.labels("with_outcome").inc()
            return True
        metrics.MOVE_ANSWERS.labels("acknowledged").inc()
    return await acknowledge(interaction)


def answered_first(interaction: discord.Interaction) -> None:
    """Discord took the click's first answer: how long after the click (a metric)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.ACKNOWLEDGE_SECONDS.observe(max(age, 0.0))


async def update_message(
    interaction: discord.Interaction,
    *,
    fallback: Callable[[], object] | None = None,
    **fields: Any,
) -> None:
    """Edit the message the clicked component sits on: in the response while it is open
    (tried again while the 3 seconds allow), else (after :func:`acknowledge`) through the
    interaction's webhook (tried again a few times). When Discord still refuses, ``fallback``
    (the live hand's redraw) is called before the failure goes up to be logged."""
    files = [f for f in fields.get("attachments") or () if isinstance(f, discord.File)]

    def rewound() -> dict[str, Any]:
        for file in files:  # a failed try read it: each try sends it whole
            file.reset()
        return fields

    try:
        if interaction.response.is_done():
            await prompt_retry(lambda: interaction.edit_original_response(**rewound()))
        else:
            await respond(interaction, lambda: interaction.response.edit_message(**rewound()))
    except (discord.HTTPException, OSError, TimeoutError):
        if fallback is not None:
            fallback()
        raise


def on_public_message(interaction: discord.Interaction) -> bool:
    """The clicked component sits on a message everyone sees. Move and hand components only
    ever live on private messages, so such a click is forged or replayed: answering it by
    editing that message would show a hand (or an error) to the whole channel."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral
