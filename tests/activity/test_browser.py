"""The Activity in a real browser (headless Chromium, tests/activity/browser.py) against the
real bot on simcord: two players at the table in the browser and one in chat finish a game
together; a move made at the table shows on the other browser and on the chat table; a reload
mid-game resumes; a forged socket message is refused and changes nothing.

One game for all of it: a browser costs seconds of CPU to start, and the suite's time is
shared. The game is short (24 cards, three players)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.game.models import GameSession
from bot.i18n import t
from tests.activity.browser import activity_url, chromium, skip_unless_available
from tests.activity.sockets import chat_table_shows, serve_activity, three_player_game
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import acting_seat, click_first_move

#: Which move a browser player makes among its legal ones: beat rather than take, and say
#: "done" rather than throw in, so the game ends in few moves.
PREFERENCE = ["defend", "transfer", "attack", "pass", "throw", "pile", "take"]


def _choose(moves: list[dict[str, Any]]) -> dict[str, Any]:
    rank = {kind: i for i, kind in enumerate(PREFERENCE)}
    return min(moves, key=lambda m: rank.get(m["kind"], len(rank)))


async def _version(page: Any) -> int:
    return int(await page.get_attribute("#app", "data-version"))


async def _caught_up(page: Any, version: int) -> None:
    await page.wait_for_function(
        "v => Number(document.getElementById('app').dataset.version) >= v", arg=version
    )


async def _play_in_browser(page: Any, move: dict[str, Any], how: str = "click") -> None:
    """The move by the clicks a player makes: its cards in the hand, then the card it beats
    or the table; a move without cards (take, done) by its button. ``how="keys"``: Enter on
    each card, then Shift+Tab back to the move's button and Enter; ``how="drag"``: the card
    dragged onto the card it beats or the table."""
    kind = move["kind"]
    cards = move.get("cards", [])
    if how == "keys" and cards:
        for card in cards:
            await page.focus(f'#hand [data-card="{card}"]')
            await page.keyboard.press("Enter")
        button = page.locator(f'#actions [data-focus-key="m-{move["send"]}"]')
        for _ in range(len(cards) + 8):
            if await button.evaluate("b => b === document.activeElement"):
                break
            await page.keyboard.press("Shift+Tab")
        await page.keyboard.press("Enter")
        return
    if how == "drag" and len(cards) == 1 and kind in ("defend", "attack", "throw"):
        target = f'#table [data-card="{move["on"][0]}"]' if kind == "defend" else "#table .hint"
        if kind != "defend" and not await page.locator(target).count():
            target = "#table"
        await page.drag_and_drop(f'#hand [data-card="{cards[0]}"]', target)
        return
    for card in cards:
        await page.click(f'#hand [data-card="{card}"]')
    if kind in ("defend", "conceal"):
        await page.click(f'#table [data-card="{move["on"][0]}"].target')
    elif kind in ("attack", "throw", "pile") and move.get("cards"):
        await page.click("#table.target", position={"x": 5, "y": 5})
    else:
        await page.click(f'#actions [data-focus-key="m-{move["send"]}"]')


@pytest.mark.slow(sample=1)
async def test_two_browsers_and_a_chat_player_finish_a_game(db_path: Path) -> None:
    skip_unless_available()
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel = world["channel"]
        session: GameSession = await three_player_game(env, world)
        base = await serve_activity(bot)
        alice, bob, carol = world["alice"], world["bob"], world["carol"]
        async with chromium() as browser:
            pages: dict[int, Any] = {}
            for user in (alice, bob):
                context = await browser.new_context(viewport={"width": 900, "height": 700})
                page = await context.new_page()
                await page.goto(activity_url(base, user, channel.id))
                await page.wait_for_selector("#app[data-version]")
                pages[session.seat_of(user.id)] = page  # type: ignore[index]
            chat_seat = session.seat_of(carol.id)
            table_id = session.message_id
            assert table_id is not None
            browser_moves = reloaded = forged = card_moves = chat_checked = 0
            for _ in range(400):
                if session.finished:
                    break
                seat = acting_seat(session, range(3))
                assert seat is not None
                version = session.version
                if seat == chat_seat:
                    await click_first_move(carol, channel, table_id)
                else:
                    page = pages[seat]
                    await _caught_up(page, version)
                    frame = await page.evaluate("window.durak.table.frame")
                    move = _choose(frame["moves"])
                    # the first card move by keyboard, the second by drag, the rest by clicks
                    how = {0: "keys", 1: "drag"}.get(card_moves, "click")
                    await _play_in_browser(page, move, how)
                    card_moves += bool(move.get("cards"))
                    browser_moves += 1
                    other = next(p for s, p in pages.items() if s != seat)
                    await _caught_up(other, version + 1)  # the other browser sees it
                    if move["kind"] == "attack" and not chat_checked:  # the chat table too
                        await chat_table_shows(env, channel, table_id, move["cards"][0])
                        chat_checked = 1
                    if browser_moves == 3 and not reloaded:
                        await other.reload()  # a reload mid-game resumes where it was
                        await _caught_up(other, version + 1)
                        assert await other.locator("#hand .card").count() > 0
                        reloaded = 1
                    if browser_moves == 4 and not forged:
                        forged = await _forge(page, session, seat)
                assert session.version > version or session.finished
            assert session.finished, "the game did not end"
            assert browser_moves >= 4 and card_moves >= 2 and reloaded and forged and chat_checked
            for page in pages.values():
                await page.wait_for_function(
                    "document.getElementById('status').textContent"
                    f".includes({t('activity.finished', 'en')!r})"
                )
            # over: the next table is opened from the form the button brings back
            await page.click("#actions .move-again")
            await page.wait_for_selector("#lobby-form")
    await bot.close()


async def _forge(page: Any, session: GameSession, seat: int) -> int:
    """Messages no button sends, from the signed-in page's own socket: another seat's move,
    a stale version, a card not held. Each is refused, said on the page, and changes nothing."""
    version = session.version
    game = session.game
    other = next(s for s in range(game.n) if s != seat)
    not_held = str(next(iter(game.hand(other))))
    forged = [
        (f"{other} take", version),
        (f"{seat} pass", version - 1),
        (f"{seat} attack {not_held}", version),
    ]
    hands = [game.hands[s] for s in range(game.n)]
    for action, stamp in forged:
        await page.evaluate(
            "([action, version]) => window.durak.send({op: 'act', version, action})",
            [action, stamp],
        )
        await page.wait_for_selector("#toast.shown")
        await page.evaluate("document.getElementById('toast').classList.remove('shown')")
        assert session.version == version
        assert [session.game.hands[s] for s in range(game.n)] == hands
    return len(forged)
