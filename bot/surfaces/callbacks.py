"""The first answer to an interaction, tried several quick times inside Discord's 3 seconds.

Discord takes the first answer to a click (``POST /interactions/<id>/<token>/callback``) only
within 3 seconds of it. discord.py sends that answer through its webhook adapter, which on a
5xx sleeps 1, 3, 5 and 7 seconds between its own tries, and on a 429 sleeps Discord's
``retry_after``: a refused answer that it retries lands after the window, where it is of no
use. discord.py has no per-route switch for those retries, so the bot *watches* the callback
requests instead, through the one hook discord.py offers for its HTTP traffic, the client's
``http_trace`` (an :class:`aiohttp.TraceConfig`, :func:`callback_trace`): when Discord's
reply to a callback is a 5xx or a 429, the watcher ends the try at once (discord.py is then
only sleeping before its own retry, nothing is in flight), and :func:`first_answer` tries
again after a short pause of its own (:data:`PAUSES`), until the window closes.

Measured with the real adapter against a local server that refuses the first tries
(``bench/first_answer.py``): the tries leave about 0.15, 0.3 and 0.6 s after each refusal
plus the round trip, so four tries fit in the window, where discord.py alone would have made
one. Without the trace (a bot built elsewhere, a test double) a refusal that reaches the
caller as an exception is tried again the same way."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from .. import metrics

__all__ = [
    "ANSWER_DEADLINE_SECONDS",
    "ANSWER_MIN_SECONDS",
    "PAUSES",
    "answer_deadline",
    "callback_trace",
    "first_answer",
    "respond",
    "think_privately",
]

log = logging.getLogger(__name__)

#: The pauses before the second, third … try of a first answer (each also waits for a 429's
#: ``retry_after``); a try whose pause would end past the deadline is not made.
PAUSES: tuple[float, ...] = (0.15, 0.3, 0.6, 1.2)

#: How long after the click a first answer may still be tried: Discord's 3 seconds, less a
#: margin for the trip there.
ANSWER_DEADLINE_SECONDS = 2.8
#: The least time a first answer is given, however old the click looks: its age comes from
#: Discord's clock (the snowflake) and ours, and a host clock running ahead must not make
#: every click look expired. One try that comes too late only costs a logged line.
ANSWER_MIN_SECONDS = 1.0

#: Discord's code for "this interaction has already been acknowledged": a try that Discord
#: took although its reply was lost (or refused) on the way back.
_ALREADY_ACKNOWLEDGED = 40060

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")

#: The tries in flight, by interaction id: set when Discord refuses that interaction's answer.
_refusals: dict[int, asyncio.Future[discord.HTTPException]] = {}


async def _on_request_end(
    session: aiohttp.ClientSession,
    context: SimpleNamespace,
    params: aiohttp.TraceRequestEndParams,
) -> None:
    response = params.response
    if params.method != "POST" or not (response.status == 429 or response.status >= 500):
        return
    found = _CALLBACK.search(params.url.path)
    waiting = _refusals.get(int(found[1])) if found else None
    if waiting is not None and not waiting.done():
        text = f"{response.reason or ''} (retry-after {response.headers.get('Retry-After', '-')})"
        cls = discord.DiscordServerError if response.status >= 500 else discord.HTTPException
        waiting.set_result(cls(response, text))


def callback_trace() -> aiohttp.TraceConfig:
    """The client's ``http_trace``: it reports a refused interaction answer at once."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_on_request_end)
    return trace


def answer_deadline(interaction: discord.Interaction) -> float:
    """The ``loop.time()`` by which the first answer to ``interaction`` must have left."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    left = min(max(ANSWER_DEADLINE_SECONDS - age, ANSWER_MIN_SECONDS), ANSWER_DEADLINE_SECONDS)
    return asyncio.get_running_loop().time() + left


async def respond(interaction: discord.Interaction, call: Callable[[], Awaitable[object]]) -> None:
    """:func:`first_answer` within the interaction's own window."""
    await first_answer(interaction, call, deadline=answer_deadline(interaction))


async def think_privately(interaction: discord.Interaction) -> None:
    """The first answer of work that takes a while and answers privately: "thinking…"."""
    await respond(interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True))


def _retry_after(exc: BaseException) -> float:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", 0.0))
    except (TypeError, ValueError):
        return 0.0


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, OSError | aiohttp.ClientError)


async def first_answer(
    interaction: discord.Interaction,
    call: Callable[[], Awaitable[object]],
    *,
    deadline: float,
) -> None:
    """``await call()`` (an ``interaction.response`` method, made anew each try) until Discord
    takes it, trying again after a 5xx, a 429 or a network error while ``deadline`` (a
    ``loop.time()``) allows. Raises the last refusal, or :class:`TimeoutError` when the
    window closed with a try still waiting."""
    loop = asyncio.get_running_loop()
    pauses = iter(PAUSES)
    while True:
        refused: asyncio.Future[discord.HTTPException] = loop.create_future()
        _refusals[interaction.id] = refused
        task = asyncio.ensure_future(call())
        waiters: set[asyncio.Future[Any]] = {task, refused}
        try:
            done, _ = await asyncio.wait(
                waiters,
                timeout=max(deadline - loop.time(), 0.0),
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            if _refusals.get(interaction.id) is refused:
                del _refusals[interaction.id]
        if task.done():
            error = task.exception()
            if error is None:
                return
        else:
            # refused (discord.py now sleeps before a retry of its own) or out of time
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            if not done:
                raise TimeoutError("no answer within Discord's time limit")
            error = refused.result()
        if isinstance(error, discord.HTTPException) and error.code == _ALREADY_ACKNOWLEDGED:
            return
        pause = next(pauses, None)
        if not _transient(error) or pause is None:
            raise error
        wait = (
            max(pause, _retry_after(error)) if isinstance(error, discord.HTTPException) else pause
        )
        if loop.time() + wait >= deadline:
            raise error
        metrics.FIRST_ANSWER_RETRIES.inc()
        log.info(
            "interaction %s: answer refused (%s), again in %.2f s", interaction.id, error, wait
        )
        await asyncio.sleep(wait)
