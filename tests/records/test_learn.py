"""``/durak learn``: a guided game against the computer; the rules appear on the learner's
hand the first time they matter, in the learner's language."""

from __future__ import annotations

from typing import Any

import simcord

from engine import ActionKind
from tests.bot.helpers import custom_ids, message, service


def _tips(hand: Any) -> str:
    fields = [f for e in hand.embeds for f in e.fields if "How to play" in (f.name or "")]
    return "\n".join(f.value for f in fields)


async def test_learn_explains_the_rules_as_they_come_up(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice = world["channel"], world["alice"]
    started = await alice.slash(channel, "durak learn")
    assert started.followups and started.followups[0].ephemeral
    assert "Welcome to Durak" in started.followups[0].content
    svc = service(simcord_env)
    session = svc.session(1)
    assert session is not None and session.preset == "perevodnoy"
    assert [s.computer for s in session.seats] == [None, "easy"]
    table = message(channel, session.message_id or 0)
    seen: set[str] = set()
    first = True
    for _ in range(300):
        if session.finished:
            break
        if not session.game.legal_actions(0):
            await simcord_env.advance_time(svc.ai_delay)
            continue
        kinds = {a.kind for a in session.game.legal_actions(0)}
        shown = await alice.click(table, custom_id=f"durak:show:{session.game_id}")
        hand = shown.response.message
        tips = _tips(hand)
        if first:
            assert "Trumps are" in tips
            first = False
        if ActionKind.DEFEND in kinds and "beat" not in seen:
            assert "You defend" in tips
            seen.add("beat")
        if ActionKind.TAKE in kinds and "take" not in seen:
            assert "take them all" in tips
            seen.add("take")
        moves = custom_ids(hand, "durak:act:")
        await alice.click(hand, custom_id=moves[0])
        if {"beat", "take"} <= seen:
            break
    assert {"beat", "take"} <= seen
    # A tip is shown in its first turn only: the trump is not explained again.
    if not session.finished and session.game.legal_actions(0):
        again = await alice.click(table, custom_id=f"durak:show:{session.game_id}")
        assert "Trumps are" not in _tips(again.response.message)
