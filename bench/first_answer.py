"""When the tries of a refused first answer leave, with discord.py's own retries and with the
bot's quick tries (bot/surfaces/callbacks.py), measured on discord.py's real webhook adapter.

A local HTTP server stands in for Discord's ``POST /interactions/<id>/<token>/callback``: it
refuses the first tries (503, 500, or 429 with ``retry_after``) and then takes the answer.
For each case the script prints when each try arrived (seconds after the click was sent) and
whether the answer was taken within Discord's 3 seconds.

    .venv/bin/python bench/first_answer.py [--refusals 2]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord.webhook import async_ as webhook

from bot.surfaces.callbacks import callback_trace, first_answer

WINDOW = 3.0


@dataclass
class FakeDiscord:
    """The callback route: refuses ``refusals`` tries with ``status``, then answers 204."""

    status: int
    refusals: int
    arrived: list[float] = field(default_factory=list)

    async def callback(self, request: web.Request) -> web.Response:
        self.arrived.append(time.monotonic())
        if len(self.arrived) > self.refusals:
            return web.Response(status=204)
        if self.status == 429:
            # as Discord says it: a JSON body, and the Via header discord.py looks for
            body = {"message": "You are being rate limited.", "retry_after": 0.2, "global": False}
            headers = {"Via": "1.1 google", "Retry-After": "0.2"}
        else:
            body, headers = {"message": "unavailable", "code": 0}, {}
        return web.Response(
            body=json.dumps(body).encode(),
            status=self.status,
            headers={"Content-Type": "application/json", **headers},
        )


class _Response:
    """The part of ``discord.InteractionResponse`` a first answer uses: ``defer`` sends the
    deferred update through discord.py's own adapter and session, as the library does."""

    def __init__(self, session: aiohttp.ClientSession, interaction_id: int) -> None:
        self.session = session
        self.interaction_id = interaction_id

    async def defer(self) -> None:
        params = webhook.interaction_response_params(type=6)
        await webhook.AsyncWebhookAdapter().create_interaction_response(
            self.interaction_id, "token", session=self.session, params=params
        )


async def run_case(
    status: int, refusals: int, *, quick: bool, window: float = WINDOW
) -> tuple[bool, list[float]]:
    """One click whose answer Discord refuses ``refusals`` times: was it taken (the bot's
    tries give up at the window), and when (seconds after the click) did each try arrive."""
    fake = FakeDiscord(status, refusals)
    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", fake.callback)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = webhook.Route.BASE
    webhook.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    trace = [callback_trace()] if quick else []
    start = time.monotonic()
    try:
        async with aiohttp.ClientSession(trace_configs=trace) as session:
            interaction: Any = SimpleNamespace(
                id=1234,
                created_at=discord.utils.utcnow(),
                response=_Response(session, 1234),
            )
            deadline = asyncio.get_running_loop().time() + window - 0.2
            try:
                if quick:
                    await first_answer(interaction, interaction.response.defer, deadline=deadline)
                else:
                    async with asyncio.timeout(window + 10):
                        await interaction.response.defer()
                taken = True
            except (discord.HTTPException, TimeoutError):
                taken = False
    finally:
        webhook.Route.BASE = base
        await runner.cleanup()
    return taken, [t - start for t in fake.arrived]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refusals", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"first answer refused {args.refusals} time(s), then taken; Discord's window {WINDOW} s")
    print(f"{'status':>6}  {'who retries':<22} {'in time':<8} tries arrived (s after the click)")
    for status in (503, 500, 429):
        for quick in (False, True):
            taken, arrived = asyncio.run(run_case(status, args.refusals, quick=quick))
            in_time = taken and len(arrived) > args.refusals and arrived[args.refusals] < WINDOW
            who = "bot (quick tries)" if quick else "discord.py alone"
            times = "  ".join(f"{t:5.2f}" for t in arrived)
            print(f"{status:>6}  {who:<22} {'yes' if in_time else 'NO':<8} {times}")
    print(f"(measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC)")


if __name__ == "__main__":
    main()
