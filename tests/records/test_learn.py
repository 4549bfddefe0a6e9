"""``/durak learn``: every lesson played to its end in a private thread by a scripted learner
against the cheapest computer. Nothing but Discord's own thread line is public, nothing is
rated or counted, no dare goes out, and every decision the lessons set out to teach is met
with its tip on the learner's hand, the buttons named in the words the buttons use."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.game.lesson_plan import CONCEPTS, LESSONS, LessonState, next_lesson
from bot.i18n import t
from bot.surfaces.hand_labels import _VERB_KEYS, _simple_label
from bot.surfaces.learn import TIP_BUTTONS
from engine import Action, ActionKind, Game
from tests.bot.helpers import click_action, components, custom_ids, message, service

#: What each tip says first in English (the test recognises a tip on the hand by it).
_OPENINGS = {c: t(f"learn.tip.{c}", "en").split("{")[0][:24] for c in CONCEPTS}


def _tips(hand: discord.Message) -> str:
    return "\n".join(f.value or "" for e in hand.embeds for f in e.fields)


def _pick(game: Game, seat: int) -> Action | None:
    """The scripted learner: exchange and transfer when offered, beat if possible else take,
    lead a card of a rank it holds twice (so that a taking computer can be piled on), let the
    computer answer before throwing in, then throw in or say bito / enough. None: wait."""
    acts = game.legal_actions(seat)
    if not acts:
        return None
    unbeaten = any(int(pair[1]) < 0 for pair in game.table)
    only_throws = all(a.kind is ActionKind.THROW for a in acts)
    if game.defender != seat and not game.taking and unbeaten and only_throws:
        return None  # the computer answers first
    kinds = {a.kind: a for a in acts}
    for kind in (ActionKind.EXCHANGE, ActionKind.TRANSFER):
        if kind in kinds:
            return kinds[kind]
    defend = [a for a in acts if a.kind is ActionKind.DEFEND]
    if defend:
        return defend[0]
    if ActionKind.TAKE in kinds:
        return kinds[ActionKind.TAKE]
    leads = [a for a in acts if a.kind is ActionKind.ATTACK and len(a.cards) == 1]
    if leads:
        count = Counter(a.cards[0].rank for a in leads)
        return min(leads, key=lambda a: (count[a.cards[0].rank] < 2, a.cards[0].rank))
    throws = [a for a in acts if a.kind is ActionKind.THROW]
    return throws[0] if throws else kinds.get(ActionKind.PASS, acts[0])


async def _play_lesson(
    env: simcord.Env, alice: Any, thread: Any, game_id: int, met: set[str], *, hint: bool = False
) -> None:
    svc = service(env)
    session = svc.session(game_id)
    assert session is not None and session.lesson is not None
    assert [s.computer for s in session.seats] == [None, "easy"]
    assert session.timer_seconds == 0 and session.deadline is None
    table = message(thread, session.message_id or 0)
    seat = session.learner
    for _ in range(400):
        if session.finished:
            return
        action = _pick(session.game, seat)
        if action is None:
            await env.advance_time(svc.ai_delay)
            continue
        shown = await alice.click(table, custom_id=f"durak:show:{game_id}")
        hand = shown.response.message
        tips = _tips(hand)
        for concept in session.lesson.showing:
            assert _OPENINGS[concept] in tips, (concept, tips)
            met.add(concept)
            for key, _kind in TIP_BUTTONS.get(concept, ()):
                assert f"**{t(key, 'en')}" in tips  # the button's own words, from its key
        labels = " ".join(c.label or "" for c in components(hand) if getattr(c, "label", None))
        if "exchange" in session.lesson.showing:
            assert t("hand.button.exchange_trump", "en") in labels
        if "pile" in session.lesson.showing:
            assert t("hand.button.pass", "en") in labels
        if "bito" in session.lesson.showing:
            assert t("hand.button.done", "en") in labels
        if hint:  # a lesson is never rated: its first hint comes at once, no warning
            (asked,) = custom_ids(hand, "durak:hint:")
            hinted = await alice.click(hand, custom_id=asked)
            assert hinted.ephemeral
            assert hinted.response.content.startswith("💡 I would"), hinted.response.content
            assert "rated" not in hinted.response.content
            assert custom_ids(hinted.response.message, "durak:hint:") == []
            hint = False
        await click_action(alice, hand, session, seat, action)
    raise AssertionError("the lesson did not end")


@pytest.mark.slow(sample=1)  # every lesson played to its end: in make test, not make check
async def test_every_lesson_is_private_uncounted_and_teaches_every_decision(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice = world["channel"], world["alice"]
    svc = service(simcord_env)
    # Text tables: the pictures have tests of their own, and drawing one per move is most
    # of this test's CPU.
    await svc.storage.update_guild_settings(world["guild"].id, pictures=False)
    # Where the bot may not open a private thread, it says so privately and opens nothing.
    guild = world["guild"]
    closed = guild.create_text_channel(
        "closed", overwrites={guild.me: discord.PermissionOverwrite(create_private_threads=False)}
    )
    refused = await alice.slash(closed, "durak learn")
    assert refused.response is not None and refused.response.ephemeral
    assert "can't open one here" in refused.response.content
    assert closed.threads == [] and closed.history() == [] and svc._sessions == {}
    started = await alice.slash(channel, "durak learn")
    answer = started.response
    assert answer is not None and answer.ephemeral  # (the deferred answer, filled in)
    assert "Your lesson is ready in" in answer.content
    (thread,) = channel.threads
    made = svc.session(max(svc._sessions))
    assert made is not None
    room = simcord_env.bot.get_channel(made.channel_id)
    assert isinstance(room, discord.Thread) and room.id == thread.id
    assert room.type is discord.ChannelType.private_thread
    met: set[str] = set()
    played: list[str] = []
    for _ in LESSONS:
        game_id = max(svc._sessions)  # the lesson just opened
        session = svc.session(game_id)
        assert session is not None and session.lesson is not None
        played.append(session.lesson.name)
        await _play_lesson(simcord_env, alice, thread, game_id, met, hint=not played[:-1])
        await simcord_env.advance_time(1.0)  # the closing message
        closing = thread.history()[-1]
        assert "Lesson finished" in closing.content
        assert "{cmd:" not in closing.content and "</durak new:" in closing.content
        nxt = next_lesson(played, after=played[-1])
        if nxt is None:
            break
        button = next(c for c in custom_ids(closing, "durak:lesson:") if c.endswith(nxt))
        await alice.click(closing, custom_id=button)
    assert played == list(LESSONS)
    taught = {c for plan in LESSONS.values() for c in plan.teaches}
    assert taught <= met, taught - met
    # Nothing public but Discord's own line that a thread was started.
    public = [m for m in channel.history() if m.type is not discord.MessageType.thread_created]
    assert public == []
    # Never counted: no result row, rating, stats or dare; the lessons are remembered.
    storage = svc.storage
    for game_id in range(1, 4):
        assert await storage.game_results(game_id) == []
    profile = await storage.rating_profile(world["guild"].id, alice.id)
    assert (profile.games, profile.rated_games, profile.display, profile.achievements) == (
        0,
        0,
        None,
        [],
    )
    assert (await storage.user_stats(world["guild"].id, alice.id)).games == 0
    assert await storage.lessons_finished(alice.id) == list(LESSONS)
    assert not re.search(r"dare|фант", " ".join(m.content for m in thread.history()), re.I)


def test_tip_buttons_are_the_hand_buttons() -> None:
    """A tip names a button by the locale key the hand draws that button's label from."""
    from engine import RuleSet

    game = Game.new(RuleSet.preset("perevodnoy", players=2), 1)
    obs = game.observation(0)
    for concept, buttons in TIP_BUTTONS.items():
        for key, kind in buttons:
            if kind in _VERB_KEYS:
                assert _VERB_KEYS[kind] == key, concept
            else:
                taking = key == "hand.button.pass"
                label = _simple_label(Action(0, kind), replace(obs, taking=taking), "en")
                assert label == t(key, "en"), concept


def test_a_lesson_state_survives_its_snapshot() -> None:
    state = LessonState("first", ("attack", "exchange"), ("trump",))
    assert LessonState.from_json(state.to_json()) == state
    assert LessonState.from_json({"name": "nope"}) is None


async def test_a_lesson_survives_a_restart_and_a_leave_counts_for_nothing(tmp_path: Path) -> None:
    """Service level: the lesson flag and its tips come back from the stored snapshot, the
    game still has no timer and stays off the games list; leaving ends it with no result
    row, no dare and no lesson marked as learnt."""
    from bot.game.errors import ServiceError
    from bot.game.models import PlayerRef
    from bot.game.service import GameService
    from bot.storage import Storage

    async with await Storage.open(tmp_path / "durak.db") as storage:
        first = GameService(storage, ai_delay=3600)
        info = await first.open_lesson(1, 50, PlayerRef(7, "learner"), "first")
        session = await first.begin_lesson(info.game_id, 7, 900)
        assert session.lesson is not None and "exchange" in session.lesson.showing
        await first.shutdown()

        second = GameService(storage, ai_delay=3600)
        (restored,) = await second.restore()
        assert restored.lesson == session.lesson
        assert (restored.timer_seconds, restored.deadline, restored.owed_ping) == (0, None, None)
        assert await second.running_games(1) == []
        with pytest.raises(ServiceError) as hidden:
            await second.watchable(info.game_id, 8)  # not even by its number
        assert hidden.value.key == "watch.lesson"
        # nor through the Activity opened in the lesson's thread
        assert await second.activity_game(8, restored.channel_id) is None
        assert await second.activity_game(7, restored.channel_id) == (restored, 0)
        assert (await second.leave_game(info.game_id, 7)).outcome == "lesson"
        await second.load_replay(1, 7, info.game_id)  # the learner may look back at it
        with pytest.raises(ServiceError) as refused:
            await second.load_replay(1, 8, info.game_id)  # nobody else
        assert refused.value.key == "replay.lesson"
        assert await storage.game_results(info.game_id) == []
        assert await storage.lessons_finished(7) == []
        await second.shutdown()
