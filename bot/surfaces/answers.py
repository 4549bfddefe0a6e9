"""Answering an interaction in time, and losing an answer quietly.

Discord allows 3 seconds for the first answer to an interaction. discord.py retries a 5xx or
429 on that answer by itself, sleeping between tries, so under Discord trouble the answer
could arrive after the limit: the move was applied, the player saw "interaction failed", and
the log held two tracebacks (the failure, then the failed apology). Hence:

* Work that takes a lock or a database write first *acknowledges* the click (a deferred
  update, nothing visible), bounded by what is left of the 3 seconds, and then edits the
  message: the edit goes through the interaction's webhook, valid for 15 minutes, where a
  late retry does no harm. A click whose acknowledgement did not get through in time is not
  applied: the player saw it fail, so nothing happened, and clicking again is safe.
* A 5xx or 429 on an answer is tried again at once, with short pauses
  (:func:`bot.surfaces.delivery.prompt_retry`), as long as the 3 seconds allow for the first
  answer and a few times for an edit through the webhook; past that, a click's outcome is
  still shown where it is owed: the table by its own delivery, the player's hand by the live
  hand (``fallback``), so nobody is left looking at a spinner or a stale hand.
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
from .delivery import prompt_retry

__all__ = [
    "ANSWER_DEADLINE_SECONDS",
    "ANSWER_MIN_SECONDS",
    "acknowledge",
    "log_lost_answer",
    "on_public_message",
    "update_message",
]

log = logging.getLogger(__name__)

#: How long after the click an acknowledgement may still be tried: Discord's 3 seconds, less
#: a margin for the trip there.
ANSWER_DEADLINE_SECONDS = 2.5
#: The least time an acknowledgement is given, however old the click looks: its age comes
#: from Discord's clock (the snowflake) and ours, and a host clock running ahead must not make
#: every click look expired. One try that comes too late only costs a logged line.
ANSWER_MIN_SECONDS = 1.0


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


def _time_left(interaction: discord.Interaction) -> float:
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(max(ANSWER_DEADLINE_SECONDS - age, ANSWER_MIN_SECONDS), ANSWER_DEADLINE_SECONDS)


async def acknowledge(interaction: discord.Interaction) -> bool:
    """Defer the click (no visible change) while Discord still accepts it; False (logged)
    when that did not get through in time, in which case the caller must not act on it."""
    if interaction.response.is_done():
        return True
    left = _time_left(interaction)
    deadline = asyncio.get_running_loop().time() + left
    try:
        async with asyncio.timeout(left):
            await prompt_retry(interaction.response.defer, deadline=deadline)
    except (discord.HTTPException, TimeoutError) as exc:
        log_lost_answer(interaction, exc)
        return False
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.ACKNOWLEDGE_SECONDS.observe(max(age, 0.0))
    return True


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
    try:
        if interaction.response.is_done():
            await prompt_retry(lambda: interaction.edit_original_response(**fields))
        else:
            deadline = asyncio.get_running_loop().time() + _time_left(interaction)
            await prompt_retry(
                lambda: interaction.response.edit_message(**fields), deadline=deadline
            )
    except discord.HTTPException:
        if fallback is not None:
            fallback()
        raise


def on_public_message(interaction: discord.Interaction) -> bool:
    """The clicked component sits on a message everyone sees. Move and hand components only
    ever live on private messages, so such a click is forged or replayed: answering it by
    editing that message would show a hand (or an error) to the whole channel."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral
