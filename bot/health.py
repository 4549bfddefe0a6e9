"""A heartbeat file for container health checks.

Why a file and not a probe that talks to Discord: a second process cannot ask the running
bot's gateway connection anything, and logging in again from the health check would open a
second session on the same token. Inside a container the process being alive says little
either (discord.py reconnects forever, so a bot cut off from Discord or stuck on its
database keeps running). So the bot itself checks what matters every
:data:`HEARTBEAT_INTERVAL` seconds: the event loop gets to run, every gateway shard of this
process is connected, and the database answers a query. Only then does it touch the file.
``python -m bot --health`` (the Docker ``HEALTHCHECK``) then only compares the file's age
with :data:`HEARTBEAT_MAX_AGE`; it needs no token, no network and no database access.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

__all__ = ["HEARTBEAT_INTERVAL", "HEARTBEAT_MAX_AGE", "Heartbeat", "check_heartbeat"]

log = logging.getLogger(__name__)

#: Seconds between two checks of the running bot.
HEARTBEAT_INTERVAL = 30.0
#: A heartbeat older than this means unhealthy: three missed beats, so one slow database
#: answer or a short gateway reconnect (discord.py resumes within seconds) is not reported.
HEARTBEAT_MAX_AGE = 3 * HEARTBEAT_INTERVAL

#: Returns None when healthy, otherwise a short reason for the log.
Probe = Callable[[], Awaitable[str | None]]


class Heartbeat:
    """Touches ``path`` every ``interval`` seconds while ``probe`` finds nothing wrong."""

    def __init__(
        self,
        path: Path,
        probe: Probe,
        *,
        interval: float = HEARTBEAT_INTERVAL,
        ready: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.path = path
        self._probe = probe
        self._ready = ready
        self._interval = interval
        self._task: asyncio.Task[None] | None = None
        self._last_problem: str | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        """Stop beating and remove the file, so a stopped bot never looks healthy."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(OSError):
            self.path.unlink()

    async def _run(self) -> None:
        if self._ready is not None:
            # Logging in and connecting every shard takes a while; being unhealthy during
            # that is expected and covered by the health check's start period, not logged.
            await self._ready()
        while True:
            await self.beat()
            await asyncio.sleep(self._interval)

    async def beat(self) -> bool:
        """One check; True when the file was touched. Problems are logged once per change,
        not every 30 s, so an outage does not flood the log."""
        try:
            problem = await asyncio.wait_for(self._probe(), timeout=self._interval / 2)
        except TimeoutError:
            problem = "the health probe did not finish in time"
        except Exception as exc:  # the probe must never kill the heartbeat task
            problem = f"the health probe failed: {exc!r}"
        if problem is None:
            try:
                self._write()
            except OSError as exc:
                problem = f"cannot write {self.path}: {exc}"
        if problem != self._last_problem:
            if problem is None:
                log.info("healthy again; heartbeat file %s", self.path)
            else:
                log.warning("unhealthy: %s", problem)
            self._last_problem = problem
        return problem is None

    def _write(self) -> None:
        # Replace atomically, so the health check never reads a half-written file.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(f"{time.time():.0f}\n", encoding="utf-8")
        os.replace(tmp, self.path)


def check_heartbeat(
    path: Path, *, max_age: float = HEARTBEAT_MAX_AGE, now: float | None = None
) -> tuple[bool, str]:
    """(healthy, one line for the operator) from the age of the heartbeat file."""
    try:
        modified = path.stat().st_mtime
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is starting, or never got connected"
    except OSError as exc:
        return False, f"cannot read the heartbeat {path}: {exc}"
    age = (time.time() if now is None else now) - modified
    if age > max_age:
        return False, f"last heartbeat {age:.0f} s ago (limit {max_age:.0f} s): see the bot's log"
    return True, f"healthy: last heartbeat {max(age, 0):.0f} s ago"
