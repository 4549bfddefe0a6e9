"""Replays and reviews by clicks (simcord): every step's picture is the stored position's,
all hands face up after the game, export, who may replay, and the review's verdict."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import simcord

from bot.game.records import Replay
from bot.game.reviews import ReviewQueue
from bot.i18n import t
from bot.pictures import render_png, table_scene
from engine import Action, Game, RuleSet
from engine.ai.review import review_game
from engine.record import Record
from tests.bot.conftest import make_bot
from tests.bot.helpers import message, play_out, service, start_against_computer
from tests.bot.test_play import start_game
from tests.pictures.pngdata import png_data

PLAYERS = ["alice", "bob"]


def _expected_png(replay: Replay, index: int, state: dict[str, Any]) -> bytes:
    session = replay.session_at(index, "en")
    session.game = Game.from_dict(state)
    session.status = "finished" if session.game.result is not None else "running"
    return render_png(table_scene(session))


def replay_id(msg: Any, op: str) -> str:
    """The custom id of the replay control ``op`` (first, back, next, last, hands, export;
    ``jump`` for the bout select) on a replay message."""
    ids = [c.custom_id for row in msg.components for c in row.children]
    if op == "jump":
        return next(i for i in ids if i.startswith("durak:replayjump:"))
    return next(i for i in ids if i.startswith("durak:replay:") and i.endswith(f":{op}"))


async def _picture(msg: Any) -> tuple[tuple[tuple[bytes, bytes], ...], bytes]:
    """The replay picture's chunks and inflated rows, read back through the attachment as a
    client would: the painter may deflate the same rows to other bytes (tests/pictures/pngdata.py),
    so the picture is compared by what it shows, not by its length."""
    names = [a.filename for a in msg.attachments]
    assert names == ["replay.png"], names
    assert msg.embeds[0].image.url.endswith("replay.png")
    return png_data(await msg.attachments[0].read())


@pytest.mark.slow(sample=1)  # a whole game, a review in a worker process: not in make check
async def test_replay_steps_through_the_stored_positions(
    simcord_env: simcord.Env, world: Any
) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, carol, mod = world["alice"], world["bob"], world["carol"], world["mod"]
    storage = service(env).storage
    stored: dict[int, dict[str, Any]] = {}
    save, finish = storage.save_state, storage.finish_game

    async def spy_save(gid: int, state_json: str, exp: int, new: int, *a: Any, **k: Any) -> None:
        await save(gid, state_json, exp, new, *a, **k)
        stored[new] = json.loads(state_json)["game"]

    async def spy_finish(gid: int, results: Any, state_json: str, **k: Any) -> None:
        await finish(gid, results, state_json, **k)
        stored[k["new_version"]] = json.loads(state_json)["game"]

    storage.save_state = spy_save  # type: ignore[method-assign]
    storage.finish_game = spy_finish  # type: ignore[method-assign]
    game_id = await start_game(world, PLAYERS)
    first = service(env).session(game_id)
    assert first is not None
    stored[1] = first.game.to_dict()
    # While the game runs a replay is refused.
    early = await alice.slash(channel, "durak replay", game=game_id)
    assert early.ephemeral and "still being played" in early.response.content
    await play_out(env, channel, game_id, [alice, bob])

    # The result message names the game and carries Replay and Review.
    result = next(
        m
        for m in reversed(channel.history())
        if f"durak:rec:{game_id}:replay"
        in str([c.custom_id for row in m.components for c in row.children])
    )
    assert f"Game #{game_id}" in result.content

    opened = await alice.slash(channel, "durak replay")  # default: her last finished game
    assert opened.ephemeral
    view = opened.response.message
    assert f"Replay of game #{game_id}" in view.embeds[0].title
    session = service(env).session(game_id) or await service(env).ended_session(game_id)
    assert session is not None
    replay = await service(env).load_replay(world["guild"].id, alice.id, game_id)
    assert len(replay.steps) == len(stored)
    assert await _picture(view) == png_data(_expected_png(replay, 0, stored[1]))
    for index in range(1, len(replay.steps)):
        clicked = await alice.click(view, custom_id=replay_id(view, "next"))
        assert clicked.acknowledged and clicked.response is not None
        view = shown = clicked.response.message
        assert f"Step {index} of" in shown.embeds[0].description
        assert await _picture(shown) == png_data(_expected_png(replay, index, stored[index + 1]))
    # After the game every hand may be shown face up.
    view = shown = (await alice.click(view, custom_id=replay_id(view, "hands"))).response.message
    assert shown.embeds[0].fields and "**bob**" in shown.embeds[0].fields[0].value
    # Jump to a bout, back to the start.
    view = (
        await alice.select(view, [str(replay.bouts[1])], custom_id=replay_id(view, "jump"))
    ).response.message
    assert f"Step {replay.bouts[1]} of" in view.embeds[0].description
    view = (await alice.click(view, custom_id=replay_id(view, "first"))).response.message
    assert "Step 0 of" in view.embeds[0].description
    # Export: the record as a file the engine reads back.
    exported = await alice.click(view, custom_id=replay_id(view, "export"))
    assert exported.response is not None
    files = exported.response.message.attachments
    assert [f.filename for f in files] == [f"durak-game-{game_id}.txt"]
    assert files[0].size == len(replay.text.encode())
    assert Record.from_text(replay.text).final_game().to_dict() == stored[max(stored)]

    # Anyone may replay by default; not when the server keeps replays to players.
    seen = await carol.slash(channel, "durak replay", game=game_id)
    assert seen.response.embeds and "Replay of game" in seen.response.embeds[0].title
    changed = await mod.slash(channel, "durak records", replays=False)
    assert changed.ephemeral and "only the players" in changed.response.content
    refused = await carol.slash(channel, "durak replay", game=game_id)
    assert refused.ephemeral and "only the players of game" in refused.response.content
    assert not refused.response.embeds
    nope = await carol.slash(channel, "durak replay", game=999)
    assert "no game #999" in nope.response.content

    # Review: bob's own decisions, off the event loop, private.
    env.bot.review_queue = ReviewQueue(ThreadPoolExecutor(1), iterations=4)  # type: ignore[attr-defined]
    reviewed = await bob.click(message(channel, result.id), custom_id=f"durak:rec:{game_id}:review")
    assert reviewed.ephemeral
    assert reviewed.response.embeds and "Review of game" in reviewed.response.embeds[0].title
    stranger = await carol.slash(channel, "durak review", game=game_id)
    assert "only the players of game" in stranger.response.content
    await mod.slash(channel, "durak records", replays=True)
    stranger = await carol.slash(channel, "durak review", game=game_id)
    assert "did not play in game" in stranger.response.content


def test_a_review_names_the_known_mistake() -> None:
    """Seat 1 must beat the 6s with the 7s (then it leads the 6c, which the ace of diamonds
    cannot beat, and goes out); taking leaves it the fool. It took: the review says so."""
    rules = RuleSet.preset("podkidnoy", players=2)
    game = Game.from_position(
        rules, [["Ad"], ["7s", "6c"]], trump="h", table=[["6s", None]], attacker=0
    )
    record = Record.start(game)
    record.add(3.0, Action.parse("1 take"))
    review = review_game(record, 1, iterations=8)
    worst = review.costliest()
    assert len(worst) == 1
    assert worst[0].played == Action.parse("1 take")
    assert worst[0].preferred == Action.parse("1 defend 6s/7s")
    assert worst[0].after_played == 0.0 and worst[0].after_preferred == 1.0
    # The same position reviewed for the seat that made no mistake finds none.
    assert review_game(record, 0, iterations=8).costliest() == []


def _step(result: Any) -> str:
    assert result.acknowledged and result.response is not None
    description = result.response.message.embeds[0].description
    return str(description.split("**")[1])


@pytest.mark.slow(sample=1)  # a game and a restart: in make test, not make check
async def test_replay_buttons_answer_after_their_time_and_after_a_restart(
    simcord_env: simcord.Env, world: Any, db_path: Any
) -> None:
    """Nothing of an open replay lives in memory: its buttons rebuild the step from the
    stored record after 15 minutes, after a restart, and on a message that is no replay."""
    env, channel, alice = simcord_env, world["channel"], world["alice"]
    session = await start_against_computer(channel, alice, env)
    await play_out(env, channel, session.game_id, [alice])
    opened = await alice.slash(channel, "durak replay")
    view = opened.response.message
    clicked = await alice.click(view, custom_id=replay_id(view, "next"))
    assert _step(clicked).startswith("Step 1 of")
    await env.advance_time(20 * 60)  # past the view timeout the old viewer had
    clicked = await alice.click(view, custom_id=replay_id(clicked.response.message, "next"))
    assert _step(clicked).startswith("Step 2 of")
    await env.bot.close()
    await env.restart_bot(make_bot(db_path))
    view = clicked.response.message
    clicked = await alice.click(view, custom_id=replay_id(view, "next"))
    assert _step(clicked).startswith("Step 3 of")
    view = clicked.response.message
    clicked = await alice.click(view, custom_id=replay_id(view, "last"))
    last = _step(clicked)
    assert last.startswith("Step ") and last.split()[1] == last.split()[3]
    # A replay id forged onto a public message: a new private replay, the message untouched.
    table = message(channel, session.message_id or 0)
    before = table.content, [e.to_dict() for e in table.embeds]
    forged = f"durak:replay:{session.game_id}:4:0:next"
    env.backend.get_message(channel.id, table.id).components = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": forged}]}
    ]
    clicked = await alice.click(message(channel, table.id), custom_id=forged)
    assert clicked.ephemeral and clicked.response.id != table.id
    assert clicked.response.message.embeds[0].description.startswith("**Step 5 of")
    after = message(channel, table.id)
    assert (after.content, [e.to_dict() for e in after.embeds]) == before
    # The ids of replays opened before they carried the game: told how to reopen one.
    for old in ("replay:forward", "replay:jump", "0123456789abcdef0123456789abcdef"):
        env.backend.get_message(channel.id, table.id).components = [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": old}]}
        ]
        clicked = await alice.click(message(channel, table.id), custom_id=old)
        assert clicked.ephemeral
        expected = "replay.closed" if old.startswith("replay:") else "error.malformed_id"
        assert clicked.response.content == t(expected, "en")
