"""``/metrics`` and ``/healthz`` over HTTP, inside the bot's own process and event loop.

Why aiohttp's server and not prometheus_client's ``start_http_server``: that one runs a
thread of its own, and the health answer needs the bot's event loop anyway (it asks the
gateway and makes a round trip to the database). aiohttp comes with discord.py, so the
endpoint costs no new dependency and no second process. It is off unless ``METRICS_PORT``
is set, and listens on ``METRICS_HOST`` (loopback unless told otherwise: the figures are
for the operator, not the internet).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

__all__ = ["HEALTH_TIMEOUT_SECONDS", "MetricsServer", "serve"]

log = logging.getLogger(__name__)

#: Longest a ``/healthz`` answer waits for the database: a probe that hangs is a failing one
#: (a container orchestrator's own timeout would otherwise report nothing useful).
HEALTH_TIMEOUT_SECONDS = 5.0

#: {"discord": problem or None, "database": problem or None}
HealthReport = Callable[[], Awaitable[dict[str, str | None]]]


async def serve(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on ``host:port`` without access logs (a scrape every 15 s, or a
    browser's every request, is no news); returns the runner and the port bound.

    The socket is bound here, so port 0 (an ephemeral port, for tests) can say which port
    it got, and a port in use fails the start-up with one clear line."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        sock = socket.create_server((host, port), reuse_port=False)
    except OSError:
        await runner.cleanup()
        raise
    await web.SockSite(runner, sock).start()
    return runner, int(sock.getsockname()[1])


class MetricsServer:
    """The endpoint: start once the bot's parts exist, stop before they close."""

    def __init__(
        self, registry: CollectorRegistry, health: HealthReport, host: str, port: int
    ) -> None:
        self._registry = registry
        self._health = health
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner, self.port = await serve(app, self.host, self.port)
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self._registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        try:
            report = await asyncio.wait_for(self._health(), HEALTH_TIMEOUT_SECONDS)
        except TimeoutError:
            report = {"health check": f"no answer within {HEALTH_TIMEOUT_SECONDS:g} s"}
        healthy = all(problem is None for problem in report.values())
        body = {"status": "ok" if healthy else "unhealthy"} | {
            part: problem or "ok" for part, problem in report.items()
        }
        return web.Response(
            status=200 if healthy else 503,
            text=json.dumps(body),
            content_type="application/json",
        )
