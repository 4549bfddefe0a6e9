"""The screenshots of docs/activity.md: the table at a desktop and a phone size, two and six
players, English and Russian, mid-bout, from a seat that has a move to make.

    .venv/bin/python -m tests.activity.screens docs/img

Needs Chromium like the browser tests (tests/activity/browser.py). Not a test: it makes
pictures for people to look at."""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import simcord
from PIL import Image

from bot.cardart.emojis import wanted_emojis
from engine import ActionKind
from tests.activity.browser import activity_url, chromium
from tests.activity.sockets import serve_activity
from tests.bot.conftest import build_world, make_bot, migrated_database
from tests.bot.helpers import message, service

NAMES = ("alice", "bob", "carol", "dave", "eve", "mod")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


async def _game(env: simcord.Env, world: dict[str, Any], players: int) -> Any:
    channel, host = world["channel"], world["alice"]
    created = await host.slash(channel, "durak new", seats=players, deck=36)
    for name in NAMES[1:players]:
        await world[name].click(message(channel, created.response.id), label="Join")
    await host.click(message(channel, created.response.id), label="Start")
    session = service(env).running_sessions()[0]
    svc = service(env)
    # a bout under way: a lead, a defence if there is one, a throw-in
    for wanted in (ActionKind.ATTACK, ActionKind.DEFEND, ActionKind.THROW):
        game = session.game
        moves = [a for s in range(game.n) for a in game.legal_actions(s) if a.kind is wanted]
        if moves:
            move = min(moves, key=lambda a: a.cards[-1] % 13)
            user = session.seats[move.seat].user_id
            await svc.act(session.game_id, user, session.version, move)
    return session


async def main(out: Path) -> None:
    wanted_emojis()
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp())
    for players in (2, 6):
        db = folder / f"{players}.db"
        shutil.copyfile(migrated_database(), db)
        bot = make_bot(db)
        async with simcord.run(bot) as env:
            world = build_world(env)
            session = await _game(env, world, players)
            base = await serve_activity(bot)
            game = session.game
            seat = next(s for s in [game.defender, *range(game.n)] if game.legal_actions(s))
            user = world[NAMES[seat]]
            async with chromium() as browser:
                for locale in ("en", "ru"):
                    session.locale = locale
                    for size, (width, height) in SIZES.items():
                        context = await browser.new_context(
                            viewport={"width": width, "height": height},
                            device_scale_factor=1,
                            reduced_motion="reduce",
                        )
                        page = await context.new_page()
                        await page.goto(activity_url(base, user, world["channel"].id))
                        await page.wait_for_selector("#app[data-version]")
                        playable = page.locator("#hand .card.playable")
                        if await playable.count():
                            await playable.first.click()
                        path = out / f"activity-{size}-{players}-{locale}.png"
                        await page.screenshot(path=str(path))
                        # 256 colours: a third of the bytes, no difference a reader sees
                        with Image.open(path) as shot:
                            shot.convert("RGB").quantize(256).save(path, optimize=True)
                        print(path)
                        await context.close()
            await bot.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")))
