"""The lobby inside the Activity (bot/activity/lobby.py): what its frames offer whom, and one
game opened, joined and started from the table in a real browser alongside the chat."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord
from PIL import Image

from bot.activity.lobby import idle_frame, lobby_frame, plain_text
from bot.game.models import LobbyInfo, SeatInfo
from bot.game.modes import BASE_PRESETS
from bot.i18n import t
from tests.activity.browser import activity_url, chromium, skip_unless_available
from tests.activity.sockets import Client, serve_activity
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import labels, message, service


def _lobby(seats: list[SeatInfo], max_seats: int = 3) -> LobbyInfo:
    return LobbyInfo(1, 10, 20, 30, 100, "perevodnoy", max_seats, 36, seats, "lobby", locale="ru")


def test_each_reader_is_offered_the_buttons_the_chat_lobby_lets_them_use() -> None:
    host, guest = SeatInfo(0, "Ann", 100, None), SeatInfo(1, "Bo", 101, None)
    computer = SeatInfo(2, "#1", None, "hard")
    avatars = {100: "avatars/100/x.png"}.get
    frame = lobby_frame(_lobby([host, guest]), 100, "normal", avatars)
    assert frame["actions"] == ["start", "ai", "level", "leave", "cancel"]
    assert [s["name"] for s in frame["seats"]] == ["Ann", "Bo"]
    assert frame["seats"][0]["host"] and frame["seats"][0]["you"]
    assert frame["seats"][0]["avatar"] == "avatars/100/x.png"
    assert frame["seats"][1]["avatar"] is None
    assert frame["mode"] == t("preset.perevodnoy.name", "ru") and frame["locale"] == "ru"
    # a guest: leave only; someone not seated: join, while there is room
    assert lobby_frame(_lobby([host, guest]), 101, "normal", avatars)["actions"] == ["leave"]
    assert lobby_frame(_lobby([host, guest]), 555, "normal", avatars)["actions"] == ["join"]
    full = lobby_frame(_lobby([host, guest, computer]), 555, "normal", avatars)
    assert full["actions"] == [] and full["seats"][2]["computer"]
    assert full["seats"][2]["name"] == t("lobby.ai_name", "ru", number="1")
    # the host of a full table with a computer: no Add, a Remove
    assert lobby_frame(_lobby([host, guest, computer]), 100, "easy", avatars)["actions"] == [
        "start",
        "unai",
        "level",
        "leave",
        "cancel",
    ]


def test_the_form_starts_from_the_house_rules_and_lists_every_mode() -> None:
    frame = idle_frame("ru-RU", can_open=True, defaults={"preset": "durak", "seats": 4, "deck": 52})
    assert (frame["locale"], frame["preset"], frame["seats"], frame["deck"]) == (
        "ru",
        "durak",
        4,
        52,
    )
    keys = [m["key"] for m in frame["modes"]]
    assert keys[: len(BASE_PRESETS)] == list(BASE_PRESETS)  # the base games first
    assert len(keys) == len(set(keys)) > 20
    assert frame["modes"][0]["name"] == t(f"preset.{keys[0]}.name", "ru")
    closed = idle_frame(None, can_open=False)
    assert closed == {"op": "idle", "locale": "en", "can_open": False}


def test_a_refusal_written_for_chat_names_people_on_the_page() -> None:
    text = t("error.only_host", "en", host="<@100>")
    assert "<@" not in plain_text(text, {100: "Ann"}) and "Ann" in plain_text(text, {100: "Ann"})
    assert plain_text("in <#5> or <#6>", {}) == "in # or #"


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 90, 40)).save(out, "PNG")
    return out.getvalue()


async def _open_form(page: Any) -> None:
    """alice fills the form by keyboard: 24 cards, up to three seats, then Enter."""
    await page.wait_for_selector("#lobby-form")
    await page.select_option("#lobby-form select[name=deck]", "24")
    await page.select_option("#lobby-form select[name=seats]", "3")
    await page.focus("#lobby-form button[type=submit]")
    await page.keyboard.press("Enter")


@pytest.mark.slow(sample=1)
async def test_a_table_opened_in_the_activity_is_joined_there_and_in_chat(db_path: Path) -> None:
    """alice opens a table from the Activity's form; its lobby is posted in the channel
    like any other; bob joins at the Activity, carol with the chat's Join; alice sets the
    computers' level, and the full table shows no Add; she starts, and both browsers sit
    down at the table of the game the chat shows."""
    skip_unless_available()
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel = world["channel"]
        base = await serve_activity(bot)
        # every human has an avatar on Discord's CDN, which a test cannot reach: initials;
        # alice's page reaches a stand-in for the CDN that has carol's
        hub = bot.activity_server.hub  # type: ignore[union-attr]
        hub.avatars = lambda user_id: f"avatars/{user_id}/{'0' * 32}.png?size=128"
        carol_png = _png()

        async def cdn(route: Any) -> None:
            if f"/avatars/{world['carol'].id}/" in route.request.url:
                await route.fulfill(status=200, content_type="image/png", body=carol_png)
            else:
                await route.abort()

        async with chromium() as browser:
            pages = {}
            for name in ("alice", "bob"):
                context = await browser.new_context(viewport={"width": 900, "height": 700})
                if name == "alice":
                    await context.route("https://cdn.discordapp.com/**", cdn)
                pages[name] = await context.new_page()
                await pages[name].goto(activity_url(base, world[name], channel.id))
            alice, bob = pages["alice"], pages["bob"]
            await bob.wait_for_selector("#lobby-form")
            await _open_form(alice)
            await alice.wait_for_selector("#app[data-state=lobby]")
            game_id = int(await alice.get_attribute("#app", "data-lobby"))
            info = await service(env).lobby(game_id)
            assert (info.max_seats, info.deck_size, info.preset) == (3, 24, "podkidnoy")
            assert info.message_id is not None and info.channel_id == channel.id
            chat = message(channel, info.message_id)
            assert t("lobby.button.join", "en") in labels(chat)

            await bob.click("#lobby-actions [data-action=join]")  # seen at once, no reload
            await alice.wait_for_selector(".lobby-seats li:nth-child(2):not(.free)")
            await alice.wait_for_function(  # the avatar failed to load: its initials stay
                "!document.querySelector('.lobby-seats li:nth-child(2) .avatar img')"
            )
            assert await alice.inner_text(".lobby-seats li:nth-child(2) .initials") == "B"
            assert await alice.locator(".avatar.loaded").count() == 0
            await world["carol"].click(chat, label=t("lobby.button.join", "en"))
            await alice.wait_for_selector(".lobby-seats li:nth-child(3):not(.free)")
            await alice.wait_for_selector(".lobby-seats li:nth-child(3) .avatar.loaded img")
            await bob.wait_for_selector(".lobby-seats li:nth-child(3):not(.free)")
            assert await alice.locator("#lobby-actions [data-action=ai]").count() == 0
            assert await bob.locator("#lobby-actions [data-action=start]").count() == 0
            await alice.select_option("#lobby-actions select[name=level]", "hard")
            await alice.wait_for_function(
                "document.querySelector('#lobby-actions select').value === 'hard'"
            )
            assert (await service(env).lobby(game_id)).ai_level == "hard"

            await alice.click("#lobby-actions [data-action=start]")
            for page in (alice, bob):
                await page.wait_for_selector("#app[data-version] #hand .card")
            session = service(env).session(game_id)
            assert session is not None and session.status == "running"
            assert {s.name for s in session.seats} == {"alice", "bob", "carol"}
            seats = await bob.evaluate("window.durak.table.frame.seat")
            assert session.seats[seats].name == "bob"
    await bot.close()


@pytest.mark.slow(sample=1)
async def test_lobby_messages_a_button_would_not_send_are_refused(db_path: Path) -> None:
    """Sockets without a browser: a form with a mode that does not exist, a Start by a
    guest, a Join from another channel and a lobby message with nothing open are refused,
    in words a page can show (a name, never a mention), and change nothing."""
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel = world["channel"]
        elsewhere = world["guild"].create_text_channel("elsewhere")
        base = await serve_activity(bot)
        async with aiohttp.ClientSession() as http:
            ann, bo, eve = Client(http, base), Client(http, base), Client(http, base)
            assert (await ann.sign_in(world["alice"], channel.id))["op"] == "idle"
            await ann.send({"op": "lobby", "action": "start"})  # nothing open yet
            assert (await ann.receive())["key"] == "error.lobby_closed"
            assert (await ann.receive())["op"] == "idle"
            await ann.send({"op": "lobby", "action": "new", "form": {"preset": "nonsense"}})
            assert (await ann.receive())["key"] == "error.malformed_id"
            assert (await ann.receive())["op"] == "idle"
            assert await service(env).activity_lobby(world["alice"].id, channel.id) is None

            await ann.send({"op": "lobby", "action": "new", "form": {"seats": 3, "deck": 24}})
            lobby = await ann.receive()
            assert lobby["op"] == "lobby" and lobby["actions"][0] == "start"
            assert (await bo.sign_in(world["bob"], channel.id))["actions"] == ["join"]
            await bo.send({"op": "lobby", "action": "start"})
            refused = await bo.receive()
            assert refused["key"] == "error.only_host"
            assert "<@" not in refused["text"] and "alice" in refused["text"]
            assert (await bo.receive())["op"] == "lobby"
            # eve opened the Activity in another channel: the lobby is not hers to join
            assert (await eve.sign_in(world["eve"], elsewhere.id))["op"] == "idle"
            await eve.send({"op": "lobby", "action": "join"})
            assert (await eve.receive())["key"] == "error.lobby_closed"
            info = await service(env).lobby(lobby["game_id"])
            assert [s.name for s in info.seats] == ["alice"] and info.status == "lobby"
    await bot.close()
