"""Drop simcord's real-clock fallback of a bot timer once the bot has cancelled the timer.

simcord 3.2.1 gives every ``loop.call_later`` of the bot a virtual handle (what the bot holds
and may cancel) and a real-clock fallback on the event loop (``run_real``, which fires the
timer if as much real time passes). Cancelling the virtual handle leaves the fallback
scheduled: it would do nothing when it fired, but until then it sits in the loop's timer
heap, and simcord's settlement scans that whole heap (``is_sleep_waiter``) for every parked
task at every settle turn. The bot re-arms timers that live 15 minutes (a live hand's token
warning, on every click) and turn timers, so over a whole game the heap grows to hundreds
of dead handles and the scan becomes most of a click's cost (a third of the Swiss
tournament test's CPU).

:func:`install` wraps simcord's per-turn pruning of cancelled timer records
(``simcord.env._active_callbacks``) so that it also cancels their fallbacks; asyncio then
drops them from its heap. Nothing a test sees changes: a fallback of a cancelled timer
never ran anything. The wrapped function is private to simcord, so the patch applies only
to the version it was written against (constraints-dev.txt pins it); on any other it does
nothing, and ``test_a_cancelled_timer_leaves_no_fallback`` fails to say so.
"""

from __future__ import annotations

from typing import Any

import simcord
import simcord.env

#: The simcord release whose private ``_active_callbacks`` this wraps.
PATCHED_VERSION = "3.2.1"


def install() -> bool:
    """Wrap simcord's pruning once per process; False when this simcord is not the one
    the wrap was written for (then simcord runs unchanged, only slower)."""
    if simcord.__version__ != PATCHED_VERSION:
        return False
    original = simcord.env._active_callbacks
    if getattr(original, "__durak_prunes_fallbacks__", False):
        return True

    def active_callbacks(state: Any) -> Any:
        for record in state.work.callbacks:
            handle = record.handle
            real = record.real_handle
            if handle is not None and handle.cancelled() and real is not None:
                real.cancel()
                record.real_handle = None
        return original(state)

    active_callbacks.__durak_prunes_fallbacks__ = True  # type: ignore[attr-defined]
    simcord.env._active_callbacks = active_callbacks
    return True
