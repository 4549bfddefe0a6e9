"""Live private hands (bot.surfaces.live_hands) and the quiet channel (bot.surfaces.pings),
through simcord."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import simcord

from bot.app import DurakBot
from bot.game.models import GameSession, SeatInfo
from bot.surfaces.live_hands import LiveHands
from bot.surfaces.pings import TurnPings
from engine import Game, RuleSet
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import (
    acting_seat,
    assert_no_leak,
    custom_ids,
    hand_moves,
    message,
    message_text,
    move,
    service,
)
from tests.bot.test_play import start_game

EDITS = "/webhooks/*/messages/@original"


def live(env: simcord.Env) -> LiveHands:
    bot = env.bot
    assert isinstance(bot, DurakBot) and bot.live_hands is not None
    return bot.live_hands


def pings(env: simcord.Env) -> TurnPings:
    bot = env.bot
    assert isinstance(bot, DurakBot) and bot.pings is not None
    return bot.pings


def hand_edits(env: simcord.Env, token_of: Any = None) -> list[Any]:
    """PATCH requests on interaction responses (hand edits through a token)."""
    out = []
    for r in env.http_requests:
        if (
            r.method == "PATCH"
            and r.path.startswith("/webhooks/")
            and "@original" in r.path
            and (token_of is None or f"/{token_of}/" in r.path)
        ):
            out.append(r)
    return out


def seen(where: Any, viewer: Any, message_id: int) -> Any:
    """Re-read a message as ``viewer`` sees it (an ephemeral hand only shows to its owner)."""
    return message_from(where.history(viewer=viewer), message_id)


def message_from(history: list[Any], message_id: int) -> Any:
    for m in history:
        if m.id == message_id:
            return m
    raise AssertionError(f"message {message_id} not found")


def version_on(msg: Any) -> int | None:
    """The game version the move buttons of a hand message were drawn for."""
    for cid in (
        custom_ids(msg, "durak:card:")
        + custom_ids(msg, "durak:act:")
        + custom_ids(msg, "durak:hand:")
    ):
        return int(cid.split(":")[3])
    return None


def version_on_json(body: Any) -> list[str]:
    return [
        c["custom_id"]
        for row in body.get("components", [])
        for c in row.get("components", [])
        if "custom_id" in c
    ]


async def open_hand(actor: Any, channel: Any, session: GameSession) -> simcord.InteractionResult:
    assert session.message_id is not None
    table = message(channel, session.message_id)
    shown = await actor.click(table, custom_id=custom_ids(table, "durak:show:")[0])
    assert shown.ephemeral and shown.response is not None
    return shown


def actor_of(world: Any, session: GameSession, seat: int) -> Any:
    user_id = session.seats[seat].user_id
    return next(world[n] for n in ("alice", "bob", "carol", "dave") if world[n].id == user_id)


async def two_player_game(env: simcord.Env, world: Any) -> tuple[GameSession, int, int]:
    game_id = await start_game(world, ["alice", "bob"])
    session = service(env).session(game_id)
    assert session is not None
    return session, session.game.attacker, session.game.defender


# --------------------------------------------------------------------------- live hands


async def both_hands_open(env: simcord.Env, world: Any) -> tuple[GameSession, Any, Any, Any, Any]:
    """A started 2-player game whose players have both opened their (live) hands: the
    session, the leader's and the defender's actors, and their hand messages."""
    channel = world["channel"]
    session, leader, defender = await two_player_game(env, world)
    lead_actor, def_actor = actor_of(world, session, leader), actor_of(world, session, defender)
    lead_hand = (await open_hand(lead_actor, channel, session)).response
    def_hand = (await open_hand(def_actor, channel, session)).response
    assert lead_hand is not None and def_hand is not None
    return session, lead_actor, def_actor, lead_hand, def_hand


async def test_opponents_move_edits_my_hand_without_a_click(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, lead_actor, def_actor, lead_hand, def_hand = await both_hands_open(simcord_env, world)
    before = session.version
    # The defender's hand has nothing to do yet: no move buttons while the leader thinks.
    assert not hand_moves(seen(channel, def_actor, def_hand.id))
    edits_before = len(hand_edits(simcord_env))

    moved = await move(lead_actor, seen(channel, lead_actor, lead_hand.id))
    assert moved.response is not None and moved.response.id == lead_hand.id
    assert session.version == before + 1
    await simcord_env.advance_time(2)

    # Without any click of the defender, their hand now offers the answers to the attack.
    mine = seen(channel, def_actor, def_hand.id)
    assert mine.flags.ephemeral
    assert hand_moves(mine) and version_on(mine) == session.version
    assert any(kind in message_text(mine) for kind in ("Take", "Beat", "beat"))
    # Exactly one live edit went out: the defender's. The leader's click answer (an edit of
    # the click's own interaction) already showed the new hand, so it is not edited again.
    watched = live(simcord_env).hand(session.game_id, def_actor.id)
    assert watched is not None
    assert len(hand_edits(simcord_env, watched.interaction.token)) == 1
    assert len(hand_edits(simcord_env)) > edits_before
    assert version_on(seen(channel, lead_actor, lead_hand.id)) == session.version
    assert live(simcord_env).stats.edits == 1
    # Nobody else sees any of this.
    assert_no_leak(channel, world["eve"], session)


async def test_a_burst_of_moves_is_one_edit_with_the_newest_state(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob", "carol"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    leader, defender = session.game.attacker, session.game.defender
    (watcher,) = {0, 1, 2} - {leader, defender}
    actors = {seat: actor_of(world, session, seat) for seat in (leader, defender, watcher)}
    hands = {}
    for seat, actor in actors.items():
        shown = (await open_hand(actor, channel, session)).response
        assert shown is not None
        hands[seat] = shown.id
    await simcord_env.advance_time(2)
    edits_before = len(hand_edits(simcord_env))
    live_before = live(simcord_env).stats.edits
    start = session.version
    # simcord also fires a virtual timer once its delay passed in real time; a long debounce
    # keeps the clicks below inside one window however slow this machine is.
    registry = live(simcord_env)
    registry.debounce = 30

    def hand(seat: int) -> Any:
        return seen(channel, actors[seat], hands[seat])

    # Two moves in the same instant (virtual time does not pass between clicks): the leader
    # attacks; the defender, whose hand has not been edited yet, clicks an old button (and
    # is answered with the current hand), then beats or takes.
    await move(actors[leader], hand(leader))
    stale = await actors[defender].click(
        hand(defender), custom_id=custom_ids(hand(defender), "durak:hand:")[0]
    )
    assert stale.response is not None and version_on(stale.response.message) == start + 1
    await move(actors[defender], hand(defender))
    assert session.version == start + 2
    await simcord_env.advance_time(31)
    new_edits = hand_edits(simcord_env)[edits_before:]
    # The watcher's hand: one edit for both moves, drawn for the newest version. The leader:
    # one edit (the defender's move). The defender: none (their own clicks showed it).
    watcher_token = live(simcord_env).hand(game_id, actors[watcher].id)
    assert watcher_token is not None
    watched = hand_edits(simcord_env, watcher_token.interaction.token)
    assert len(watched) == 1, [version_on_json(r.json) for r in watched]
    # Two live edits in all; the clicks' own answers are edits of their interactions too.
    assert live(simcord_env).stats.edits - live_before == 2
    assert len(new_edits) >= 2
    for seat in (leader, defender, watcher):
        assert version_on(hand(seat)) == session.version


async def test_expiring_token_offers_one_reopen_button(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, leader, defender = await two_player_game(simcord_env, world)
    def_actor = actor_of(world, session, defender)
    hand = (await open_hand(def_actor, channel, session)).response
    assert hand is not None
    registry = live(simcord_env)
    assert registry.is_live(session.game_id, def_actor.id)
    registered = registry.hand(session.game_id, def_actor.id)
    assert registered is not None
    token = registered.interaction.token
    # Just before the 15 minutes of the token are up, the hand says so and offers one button.
    await simcord_env.advance_time(registry.lifetime - registry.warn_before - 1)
    assert "15 minutes" not in message_text(seen(channel, def_actor, hand.id))
    await simcord_env.advance_time(2)
    expired = seen(channel, def_actor, hand.id)
    assert "15 minutes" in message_text(expired)
    (button,) = custom_ids(expired)
    assert button.startswith("durak:hand:")
    assert registry.hand(session.game_id, def_actor.id) is None
    # A move after that does not try to edit the dead hand (the mover's own answer is an
    # edit of the mover's interaction, not of this hand).
    edits = len(hand_edits(simcord_env, token))
    lead_actor = actor_of(world, session, leader)
    lead_hand = (await open_hand(lead_actor, channel, session)).response
    assert lead_hand is not None
    await move(lead_actor, seen(channel, lead_actor, lead_hand.id))
    await simcord_env.advance_time(2)
    assert len(hand_edits(simcord_env, token)) == edits
    # One click reopens a live hand in place, showing the current state.
    reopened = await def_actor.click(expired, custom_id=button)
    assert reopened.response is not None and reopened.response.id == hand.id
    assert version_on(seen(channel, def_actor, hand.id)) == session.version
    assert hand_moves(seen(channel, def_actor, hand.id))
    assert registry.is_live(session.game_id, def_actor.id)


async def test_429_on_a_hand_edit_is_retried_and_the_game_stays_consistent(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, lead_actor, def_actor, lead_hand, def_hand = await both_hands_open(simcord_env, world)
    watched = live(simcord_env).hand(session.game_id, def_actor.id)
    assert watched is not None
    simcord_env.inject_error(
        "PATCH",
        f"/webhooks/*/{watched.interaction.token}/messages/@original",
        status=429,
        times=2,
    )
    moved = await move(lead_actor, seen(channel, lead_actor, lead_hand.id))
    # The mover's answer is unaffected (an edit of the mover's own interaction).
    assert moved.response is not None and version_on(moved.response.message) == session.version
    await simcord_env.advance_time(1)
    assert version_on(seen(channel, def_actor, def_hand.id)) != session.version  # first try: 429
    await simcord_env.advance_time(10)  # backoff: 2 s, then 4 s
    assert version_on(seen(channel, def_actor, def_hand.id)) == session.version
    assert live(simcord_env).stats.retried == 2
    # The game itself never noticed: memory and the database agree, and play goes on.
    row = await service(simcord_env).storage.get_game(session.game_id)
    assert row is not None and row.version == session.version and row.status == "running"
    answer = await move(def_actor, seen(channel, def_actor, def_hand.id))
    assert answer.response is not None and row.version + 1 == session.version


async def test_a_429_that_lasts_drops_the_edit_and_the_next_change_retries(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, lead_actor, def_actor, lead_hand, def_hand = await both_hands_open(simcord_env, world)
    leader, defender = session.game.attacker, session.game.defender
    watched = live(simcord_env).hand(session.game_id, def_actor.id)
    assert watched is not None
    simcord_env.inject_error(
        "PATCH",
        f"/webhooks/*/{watched.interaction.token}/messages/@original",
        status=429,
        times=3,
    )
    await move(lead_actor, seen(channel, lead_actor, lead_hand.id))
    await simcord_env.advance_time(30)
    assert live(simcord_env).stats.dropped == 1
    assert version_on(seen(channel, def_actor, def_hand.id)) != session.version
    # The hand stays registered: the next change of the game brings it up to date.
    assert live(simcord_env).hand(session.game_id, def_actor.id) is not None
    svc = service(simcord_env)
    seat = acting_seat(session, [leader, defender])
    assert seat is not None
    user = session.seats[seat].user_id
    assert user is not None
    await svc.act(session.game_id, user, session.version, session.game.legal_actions(seat)[0])
    await simcord_env.advance_time(2)
    if seat != defender:
        assert version_on(seen(channel, def_actor, def_hand.id)) == session.version


async def test_a_click_on_an_older_hand_answers_with_the_current_one(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, leader, _ = await two_player_game(simcord_env, world)
    lead_actor = actor_of(world, session, leader)
    old = (await open_hand(lead_actor, channel, session)).response
    new = (await open_hand(lead_actor, channel, session)).response
    assert old is not None and new is not None and old.id != new.id
    registry = live(simcord_env)
    latest = registry.hand(session.game_id, lead_actor.id)
    assert latest is not None
    # The newer hand is the live one; a move on it leaves the older one as it was.
    await move(lead_actor, seen(channel, lead_actor, new.id))
    await simcord_env.advance_time(2)
    stale = seen(channel, lead_actor, old.id)
    assert version_on(stale) == session.version - 1
    answered = await lead_actor.click(stale, custom_id=custom_ids(stale, "durak:card:")[-1])
    assert answered.response is not None and answered.response.id == old.id
    assert version_on(seen(channel, lead_actor, old.id)) == session.version
    # ...and that older message is now the one kept live.
    now = registry.hand(session.game_id, lead_actor.id)
    assert now is not None and now.interaction.message is not None
    assert now.interaction.message.id == old.id


async def test_the_end_of_the_game_reaches_open_hands_then_they_rest(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    session, _, defender = await two_player_game(simcord_env, world)
    def_actor = actor_of(world, session, defender)
    hand = (await open_hand(def_actor, channel, session)).response
    assert hand is not None
    await world["alice"].slash(channel, "durak cancel")
    await simcord_env.advance_time(2)
    assert not hand_moves(seen(channel, def_actor, hand.id))
    assert live(simcord_env).count() == 0


# --------------------------------------------------------------------------- a quiet channel


async def play_slowly(
    env: simcord.Env, world: Any, session: GameSession, moves: int, think: float
) -> list[str]:
    """Both players keep their (live) hands open and take ``think`` seconds per move; returns
    the content of every public message the bot posted meanwhile."""
    channel = world["channel"]
    seats = [s.seat for s in session.seats]
    actors = {seat: actor_of(world, session, seat) for seat in seats}
    hands = {}
    for seat in seats:
        shown = (await open_hand(actors[seat], channel, session)).response
        assert shown is not None
        hands[seat] = shown.id
    cursor = len(env.http_requests)
    for _ in range(moves):
        await env.advance_time(think)
        seat = acting_seat(session, seats)
        if seat is None or session.finished:
            break
        hand = seen(channel, actors[seat], hands[seat])
        if "15 minutes" in message_text(hand):
            # Not touched for 14 minutes: the hand offers to reopen; one click does it.
            await actors[seat].click(hand, custom_id=custom_ids(hand, "durak:hand:")[0])
            hand = seen(channel, actors[seat], hands[seat])
        assert version_on(hand) == session.version
        assert hand_moves(hand), (
            message_text(hand),
            session.game.legal_actions(seat),
            session.game.phase,
        )
        await move(actors[seat], hand)
        visible = [m for m in channel.history() if "<@" in (m.content or "")]
        assert len(visible) <= 1, [m.content for m in visible]
    await env.advance_time(2)
    return [
        str(r.json.get("content"))
        for r in env.http_requests[cursor:]
        if r.method == "POST" and r.path.endswith("/messages") and isinstance(r.json, dict)
    ]


async def test_at_most_one_ping_of_a_game_is_visible(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    notifier = pings(simcord_env)
    session, _, _ = await two_player_game(simcord_env, world)
    # Quick moves: both players are watching their live hands, nobody is pinged.
    assert await play_slowly(simcord_env, world, session, 6, think=5) == []
    assert notifier.posted == 0
    # Slow moves (longer than WATCH_LIVE): each change of turn pings, replacing the last.
    posted = await play_slowly(simcord_env, world, session, 14, think=notifier.watch_live + 50)
    assert len(posted) >= 2 and notifier.posted >= 2
    visible = [m for m in channel.history() if "<@" in (m.content or "")]
    while not visible and not session.finished:  # the last move may not have changed turns
        await play_slowly(simcord_env, world, session, 1, think=notifier.watch_live + 50)
        visible = [m for m in channel.history() if "<@" in (m.content or "")]
    if session.finished:
        return
    (ping,) = visible
    # The ping carries a link to the table.
    (link,) = ping.components[0].children
    assert link.url is not None and link.url.endswith(f"/{session.message_id}")
    # The pinged player comes back: their ping goes away.
    pinged = next(w for w in (world["alice"], world["bob"]) if f"<@{w.id}>" in ping.content)
    await open_hand(pinged, channel, session)
    await simcord_env.advance_time(1)
    assert not [m for m in channel.history() if "<@" in (m.content or "")]


async def test_reminders_replace_the_ping(simcord_env: simcord.Env, world: Any) -> None:
    channel, mod = world["channel"], world["mod"]
    await mod.slash(channel, "durak settings", timer=120)
    await two_player_game(simcord_env, world)
    await simcord_env.advance_time(61)  # half time: the leader is reminded
    await simcord_env.advance_time(1)
    reminders = [m for m in channel.history() if "half of your time" in (m.content or "")]
    assert len(reminders) == 1
    visible = [m for m in channel.history() if "<@" in (m.content or "")]
    assert len(visible) == 1


async def test_pings_off_is_honoured(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    shown = await bob.slash(channel, "durak me")
    assert shown.ephemeral and "Turn pings: On" in (shown.response.content or "")
    saved = await bob.slash(channel, "durak me", pings="off")
    assert saved.ephemeral and "Turn pings: Off" in (saved.response.content or "")
    assert not (await service(simcord_env).storage.get_player_prefs(bob.id)).pings
    session, _, _ = await two_player_game(simcord_env, world)
    posted = await play_slowly(simcord_env, world, session, 8, think=400)
    # alice, who kept pings on, was pinged; bob, in the same situation, never.
    assert any(f"<@{alice.id}>" in text for text in posted)
    assert not any(f"<@{bob.id}>" in text for text in posted)
    assert pings(simcord_env).skipped >= 1
    # The preference is stored per user, not per server.
    again = await bob.slash(channel, "durak me")
    assert "Turn pings: Off" in (again.response.content or "")


async def test_after_a_restart_old_hands_answer_and_live_updates_resume(
    tmp_path: Path,
) -> None:
    db = tmp_path / "restart.db"
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        channel = world["channel"]
        session, lead_actor, def_actor, lead_hand, def_hand = await both_hands_open(env, world)

        await env.bot.close()
        await env.restart_bot(make_bot(db))
        restored = service(env).session(session.game_id)
        assert restored is not None and live(env).count() == 0  # tokens are not stored

        # The leader's old hand still works: the move is applied and answered in place...
        hand = seen(channel, lead_actor, lead_hand.id)
        moved = await move(lead_actor, hand)
        assert moved.response is not None and moved.response.id == lead_hand.id
        assert version_on(seen(channel, lead_actor, lead_hand.id)) == restored.version
        await env.advance_time(2)
        # ...but the defender's hand, opened by the previous process, cannot be edited.
        assert version_on(seen(channel, def_actor, def_hand.id)) == restored.version - 1
        # One click (any button of it) answers with the current hand and makes it live again.
        old = seen(channel, def_actor, def_hand.id)
        await def_actor.click(old, custom_id=custom_ids(old, "durak:hand:")[0])
        assert live(env).is_live(restored.game_id, def_actor.id)
        assert live(env).is_live(restored.game_id, lead_actor.id)
        hand = seen(channel, def_actor, def_hand.id)
        await move(def_actor, hand)
        await env.advance_time(2)
        # The leader did not click since the restart's first move, and still follows.
        assert version_on(seen(channel, lead_actor, lead_hand.id)) == restored.version
        await env.bot.close()


async def test_an_answer_showing_the_newest_version_cancels_the_waiting_edit() -> None:
    """The mover's own hand: the move schedules an edit of every live hand, and the click's
    answer then shows the new version; the edit waiting out its debounce is dropped, not
    woken to find nothing to do (no simcord: the registry alone)."""
    seats = [SeatInfo(0, "Alice", 100, None), SeatInfo(1, "Bob", 101, None)]
    game = Game.new(RuleSet.preset("podkidnoy", players=2), seed=1)
    session = GameSession(7, 10, 20, 30, 100, "podkidnoy", seats, game, 1, game.version)
    hands = LiveHands(SimpleNamespace(session=lambda _: session), lambda *a, **k: None, None)  # type: ignore[arg-type]
    click = SimpleNamespace(user=SimpleNamespace(id=100), message=None)
    hands.opened(click, session, "en")  # type: ignore[arg-type]
    session.version += 1  # a move: every live hand of the game is owed an edit
    hands.changed(session.game_id)
    worker = hands._workers[(session.game_id, 100)]
    await asyncio.sleep(0)  # the edit's task starts and waits out its debounce
    assert worker.task is not None and not worker.task.done()
    hands.opened(click, session, "en")  # type: ignore[arg-type]  # the answer shows it
    assert (session.game_id, 100) not in hands._workers
    await asyncio.sleep(0)
    assert worker.task.cancelled()
    await hands.close()
