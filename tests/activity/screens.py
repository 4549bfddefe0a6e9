"""The screenshots of docs/activity.md: the table at a desktop and a phone size, two and six
players, English and Russian, mid-bout, from a seat that has a move to make; the lobby
opened from the Activity's own form; a team game with its partners marked.

    .venv/bin/python -m tests.activity.screens docs/img

Needs Chromium like the browser tests (tests/activity/browser.py). Not a test: it makes
pictures for people to look at. The machine has no network: alice, carol and eve get
avatars drawn here and served in place of Discord's CDN (the page asks the CDN's address, as
in the local mode); the others have none, and show their initials, as anyone does whose
avatar cannot load."""

from __future__ import annotations

import asyncio
import io
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import simcord
from PIL import Image, ImageDraw

from bot.cardart.emojis import wanted_emojis
from bot.game.models import GameSession, PlayerRef
from engine import ActionKind
from tests.activity.browser import activity_url, chromium
from tests.activity.sockets import serve_activity
from tests.bot.conftest import build_world, make_bot, migrated_database
from tests.bot.helpers import message, service

NAMES = ("alice", "bob", "carol", "dave", "eve", "mod")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LOCALES = ("en", "ru")
#: Who has an avatar in the pictures, and its colour.
AVATARS = {"alice": (222, 120, 60), "carol": (130, 90, 200), "eve": (40, 150, 120)}


def _avatar_png(colour: tuple[int, int, int]) -> bytes:
    """A plain portrait (a head and shoulders on a colour) standing in for a Discord avatar."""
    image = Image.new("RGB", (128, 128), colour)
    draw = ImageDraw.Draw(image)
    light = tuple(min(255, c + 90) for c in colour)
    draw.ellipse((40, 22, 88, 70), fill=light)
    draw.ellipse((18, 78, 110, 160), fill=light)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _avatars(bot: Any, world: dict[str, Any]) -> None:
    """The seats of AVATARS have an avatar on the (stand-in) CDN; the others none."""
    ids = {world[name].id for name in AVATARS}
    hub = bot.activity_server.hub
    hub.avatars = lambda user_id: f"avatars/{user_id}/{'0' * 32}.png" if user_id in ids else None


async def _cdn(route: Any) -> None:
    """Discord's CDN, for the pictures: the avatars of AVATARS, nothing else."""
    user_id = int(route.request.url.split("/avatars/")[1].split("/")[0])
    for name, colour in AVATARS.items():
        if user_id == _IDS.get(name):
            await route.fulfill(status=200, content_type="image/png", body=_avatar_png(colour))
            return
    await route.abort()


_IDS: dict[str, int] = {}


async def _bout(env: simcord.Env, session: GameSession) -> None:
    """A bout under way: a lead, a defence if there is one, a throw-in."""
    svc = service(env)
    for wanted in (ActionKind.ATTACK, ActionKind.DEFEND, ActionKind.THROW):
        game = session.game
        moves = [a for s in range(game.n) for a in game.legal_actions(s) if a.kind is wanted]
        if moves:
            move = min(moves, key=lambda a: a.cards[-1] % 13)
            user = session.seats[move.seat].user_id
            await svc.act(session.game_id, user, session.version, move)


async def _game(
    env: simcord.Env, world: dict[str, Any], players: int, preset: str | None = None
) -> GameSession:
    channel, host = world["channel"], world["alice"]
    options = {"mode": preset} if preset else {}
    created = await host.slash(channel, "durak new", seats=players, deck=36, **options)
    for name in NAMES[1:players]:
        await world[name].click(message(channel, created.response.id), label="Join")
    await host.click(message(channel, created.response.id), label="Start")
    session = service(env).running_sessions()[0]
    await _bout(env, session)
    return session


async def _shoot(
    browser: Any,
    url: str,
    path: Path,
    size: str,
    locale: str,
    ready: str,
    then: Callable[[Any], Awaitable[None]] | None = None,
) -> None:
    width, height = SIZES[size]
    context = await browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        reduced_motion="reduce",
        locale=locale,
    )
    await context.route("https://cdn.discordapp.com/**", _cdn)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector(ready)
    await page.wait_for_function(  # every avatar loaded or given up for its initials
        "[...document.querySelectorAll('.avatar img')].every(i => i.complete)"
    )
    if then is not None:
        await then(page)
    await page.screenshot(path=str(path))
    # 256 colours: a third of the bytes, no difference a reader sees
    with Image.open(path) as shot:
        shot.convert("RGB").quantize(256).save(path, optimize=True)
    print(path)
    await context.close()


async def _choose_a_card(page: Any) -> None:
    playable = page.locator("#hand .card.playable")
    if await playable.count():
        await playable.first.click()


async def _tables(out: Path, folder: Path, players: int, preset: str | None, name: str) -> None:
    """The table of a game of ``players`` (``preset``: the house default), from the seat that
    must answer the bout, at both sizes and in both languages."""
    db = folder / f"{name}.db"
    shutil.copyfile(migrated_database(), db)
    bot = make_bot(db)
    async with simcord.run(bot) as env:
        world = build_world(env)
        session = await _game(env, world, players, preset)
        base = await serve_activity(bot)
        _IDS.update({name: world[name].id for name in AVATARS})
        _avatars(bot, world)
        game = session.game
        seat = next(s for s in [game.defender, *range(game.n)] if game.legal_actions(s))
        url = activity_url(base, world[NAMES[seat]], world["channel"].id)
        async with chromium() as browser:
            for locale in LOCALES:
                session.locale = locale
                for size in SIZES:
                    path = out / f"activity-{size}-{name}-{locale}.png"
                    await _shoot(
                        browser, url, path, size, locale, "#app[data-version]", _choose_a_card
                    )
        await bot.close()


async def _lobbies(out: Path, folder: Path) -> None:
    """alice opens a table from the Activity's form; bob joins there, carol in chat, and a
    computer sits down: the lobby as its host sees it. The form itself once, on a phone."""
    db = folder / "lobby.db"
    shutil.copyfile(migrated_database(), db)
    bot = make_bot(db)
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel = world["channel"]
        base = await serve_activity(bot)
        _IDS.update({name: world[name].id for name in AVATARS})
        _avatars(bot, world)
        url = activity_url(base, world["alice"], channel.id)
        async with chromium() as browser:
            await _shoot(
                browser, url, out / "activity-lobby-form-phone-ru.png", "phone", "ru", "#lobby-form"
            )
            context = await browser.new_context()
            page = await context.new_page()
            await page.goto(url)
            await page.wait_for_selector("#lobby-form")
            await page.select_option("#lobby-form select[name=seats]", "4")
            await page.click("#lobby-form button[type=submit]")
            await page.wait_for_selector("#app[data-state=lobby]")
            game_id = int(await page.get_attribute("#app", "data-lobby"))
            svc = service(env)
            await svc.activity_lobby_action(game_id, PlayerRef(world["bob"].id, "bob"), "join")
            info = await svc.lobby(game_id)
            assert info.message_id is not None
            await world["carol"].click(message(channel, info.message_id), label="Join")
            await svc.set_computer_level(game_id, world["alice"].id, "hard")
            await svc.add_computer(game_id, world["alice"].id)
            await context.close()
            for locale in LOCALES:
                await svc.storage.update_guild_settings(world["guild"].id, locale=locale)
                for size in SIZES:
                    path = out / f"activity-lobby-{size}-{locale}.png"
                    await _shoot(browser, url, path, size, locale, ".lobby-seats")
        await bot.close()


async def main(out: Path) -> None:
    wanted_emojis()
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp())
    await _lobbies(out, folder)
    for players in (2, 6):
        await _tables(out, folder, players, None, str(players))
    await _tables(out, folder, 4, "teams-2v2", "teams")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")))
