"""Tap-a-card hands (issue 18): a card with one use plays on one tap, a card with two uses
asks which, a lead of n cards takes n + 1 clicks, stale and foreign taps are answered, every
legal action of every preset is reachable by clicks and no control offers an illegal one."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
import simcord

from bot.game.models import GameSession, SeatInfo
from bot.surfaces.hand_controls import (
    controls,
    face_key,
    menu_room,
    own_cards,
    reachable,
    step_clicks,
    valid_selection,
)
from bot.surfaces.hand_views import hand_message, layout
from engine import ActionKind, Card, Game, RuleSet
from engine.rules import PRESETS
from tests.bot.helpers import components, custom_ids, message, service
from tests.bot.test_play import start_game
from tests.bot.test_server_life import set_position

# Under a loaded machine the start-up emoji sync can outlast simcord's default 5 s settle.
pytestmark = pytest.mark.simcord(settle_timeout=60)

# --------------------------------------------------------------------------- through Discord


async def _hand(actor: Any, channel: Any, game_id: int) -> discord.Message:
    """``actor`` opens their hand from the table's button."""
    session = service_session(actor, game_id)
    table = message(channel, session.message_id or 0)
    shown = await actor.click(table, custom_id=custom_ids(table, "durak:show:")[0])
    assert shown.response is not None and shown.response.ephemeral
    return shown.response.message


_ENV: dict[str, simcord.Env] = {}


def service_session(actor: Any, game_id: int) -> GameSession:
    session = service(_ENV["env"]).session(game_id)
    assert session is not None
    return session


def _card_id(msg: discord.Message, card: str) -> str:
    found = [c for c in custom_ids(msg, "durak:card:") if c.rsplit(":", 1)[1] == card]
    assert len(found) == 1, (card, custom_ids(msg))
    return found[0]


def message_as(channel: Any, viewer: Any, message_id: int) -> discord.Message:
    """Re-read an ephemeral message as its owner sees it."""
    return next(m for m in channel.history(viewer=viewer) if m.id == message_id)


def _labels(msg: discord.Message) -> list[str]:
    return [getattr(c, "label", None) or "" for c in components(msg)]


async def _start(env: simcord.Env, world: Any, **position: Any) -> int:
    _ENV["env"] = env
    game_id = await start_game(world, ["alice", "bob"], mode="perevodnoy")
    set_position(env, game_id, **position)
    return game_id


async def test_a_card_with_one_use_plays_on_one_tap(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice = world["channel"], world["alice"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[["6c", "8d", "Ts"], ["7c", "9h", "Qd"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    hand = await _hand(alice, channel, game_id)
    assert "8♦" in _labels(hand)
    before = service(simcord_env).session(game_id)
    assert before is not None
    version = before.version
    tapped = await alice.click(hand, custom_id=_card_id(hand, "8d"))
    assert tapped.response is not None and tapped.response.id == hand.id
    session = service(simcord_env).session(game_id)
    assert session is not None and session.version > version
    assert [str(c) for c, _ in session.game.table] == ["8d"]


async def test_a_card_with_two_uses_shows_both_and_the_second_click_plays(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, bob = world["channel"], world["bob"]
    # bob defends against 7c: his 7d can transfer (perevodnoy) or beat... no: 7d does not
    # beat 7c. His 8c beats 7c and nothing transfers with it; 7h is a trump: it beats 7c
    # and transfers (same rank) - two uses.
    game_id = await _start(
        simcord_env,
        world,
        hands=[["9s", "Ts"], ["7h", "8c", "Qd"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        table=[["7c", None]],
        attacker=0,
        defender=1,
    )
    hand = await _hand(bob, channel, game_id)
    session = service(simcord_env).session(game_id)
    assert session is not None
    version = session.version
    picked = await bob.click(hand, custom_id=_card_id(hand, "7h"))
    assert picked.response is not None and picked.response.id == hand.id
    assert session.version == version  # a selection, no move yet
    shown = picked.response.message
    verbs = custom_ids(shown, "durak:act:")
    transfer = [c for c in verbs if ":transfer:7h" in c]
    beat = [c for c in verbs if ":defend:7c7h" in c]
    assert transfer and beat, verbs
    assert "✓ 7♥" in _labels(shown)
    played = await bob.click(shown, custom_id=beat[0])
    assert played.response is not None
    assert session.version > version
    # beaten, not transferred: 7h left bob's hand and no attack card waits on the table
    # (alice had nothing to throw in, so the bout may already be over)
    assert Card.parse("7h") not in session.game.hand(1)
    assert all(d is not None for _, d in session.game.table)


async def test_a_card_with_a_partner_plays_alone_on_one_tap(
    simcord_env: simcord.Env, world: Any
) -> None:
    """9♣ could be led alone or with 9♦: the tap leads it alone (a single-card move is one
    click); the pair is in the "Play several cards…" menu."""
    channel, alice = world["channel"], world["alice"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[["9c", "9d", "Ks"], ["7c", "8h", "Qd"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    hand = await _hand(alice, channel, game_id)
    menu = _menu(hand)
    assert [o.value for o in menu.options] == ["attack:9c9d"]
    assert menu.options[0].label == "Attack: 9♣ 9♦"
    session = service(simcord_env).session(game_id)
    assert session is not None
    version = session.version
    tapped = await alice.click(hand, custom_id=_card_id(hand, "9c"))
    assert tapped.response is not None and tapped.response.id == hand.id
    assert session.version > version
    assert [str(c) for c, _ in session.game.table] == ["9c"]
    assert Card.parse("9d") in session.game.hand(0)


async def test_a_lead_of_two_cards_takes_two_clicks_in_the_menu(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice = world["channel"], world["alice"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[["9c", "9d", "9h", "Ks"], ["7c", "8h", "Qd", "Jc"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    old = await _hand(alice, channel, game_id)
    hand = await _hand(alice, channel, game_id)  # the newer message is the live one
    menu = _menu(hand)
    # every lead of two or three nines, and nothing else
    assert sorted(o.value for o in menu.options) == [
        "attack:9c9d",
        "attack:9c9d9h",
        "attack:9c9h",
        "attack:9d9h",
    ]
    assert menu.placeholder == "Play several cards…"
    # opening the menu and picking is the whole move: 2 clicks (<= n + 1 = 3)
    picked = await alice.select(hand, ["attack:9c9h"], custom_id=menu.custom_id)
    assert picked.response is not None and picked.response.id == hand.id
    session = service(simcord_env).session(game_id)
    assert session is not None
    assert sorted(str(c) for c, _ in session.game.table) == ["9c", "9h"]
    assert Card.parse("9d") in session.game.hand(0)
    # the menu of the older message, now out of date: refused politely, nothing moves
    version, table = session.version, list(session.game.table)
    stale = await alice.select(
        message_as(channel, alice, old.id), ["attack:9c9d"], custom_id=_menu(old).custom_id
    )
    assert stale.response is not None and stale.response.ephemeral
    assert "out of date" in (stale.response.content or "")
    assert session.version == version and list(session.game.table) == table


async def test_more_than_25_leads_of_several_cards_open_from_a_starter(
    simcord_env: simcord.Env, world: Any
) -> None:
    """Four nines, four tens and three jacks: 26 leads of several cards, more than a menu
    holds. The pairs and most triples stay options; a pair *starter* opens the rest: the four
    nines are starter (2 clicks), two taps and the move, 5 clicks = n + 1."""
    channel, alice = world["channel"], world["alice"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[
            ["9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh"],
            ["7c", "8h", "Qd", "Qs", "Ac", "Kd"],
        ],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    hand = await _hand(alice, channel, game_id)
    values = [o.value for o in _menu(hand).options]
    assert len(values) <= 25 and "attack:9c9d" in values and "+:9c9d" in values
    assert not any(v.startswith("attack:") and len(v) > len("attack:9c9d9h") for v in values)
    label = next(o.label for o in _menu(hand).options if o.value == "+:9c9d")
    assert label == "Start with 9♣ 9♦, add more…"
    session = service(simcord_env).session(game_id)
    assert session is not None
    version = session.version
    started = await alice.select(hand, ["+:9c9d"], custom_id=_menu(hand).custom_id)
    assert started.response is not None and started.response.id == hand.id
    assert session.version == version  # a selection, no move yet
    shown = started.response.message
    assert {"✓ 9♣", "✓ 9♦"} <= set(_labels(shown))
    assert any(c.endswith(":attack:9c9d") for c in custom_ids(shown, "durak:act:"))
    for card in ("9h", "9s"):
        tapped = await alice.click(shown, custom_id=_card_id(shown, card))
        assert tapped.response is not None
        shown = tapped.response.message
    four = [c for c in custom_ids(shown, "durak:act:") if c.endswith(":attack:9c9d9h9s")]
    assert four, custom_ids(shown)
    await alice.click(shown, custom_id=four[0])
    assert session.version > version
    assert sorted(str(c) for c, _ in session.game.table) == ["9c", "9d", "9h", "9s"]


async def test_a_forged_menu_choice_is_refused(simcord_env: simcord.Env, world: Any) -> None:
    """A starter or a move the hand does not hold (a tampered value) moves nothing."""
    channel, alice = world["channel"], world["alice"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[["9c", "9d", "Ks"], ["7c", "8h", "Qd"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    hand = await _hand(alice, channel, game_id)
    session = service(simcord_env).session(game_id)
    assert session is not None
    version = session.version
    menu = _menu(hand).custom_id
    for value in ("+:7c8h", "attack:7c8h", "+:zz"):
        # each answer redraws the hand: the forged option goes onto the message again
        stored = simcord_env.backend.get_message(channel.id, hand.id)
        for row in stored.components:
            for comp in row["components"]:
                if comp.get("custom_id") == menu:
                    comp["options"].append({"label": "forged", "value": value})
        answer = await alice.select(message_as(channel, alice, hand.id), [value], custom_id=menu)
        assert answer.response is not None and answer.response.ephemeral
        assert answer.response.content, value  # a polite sentence, never silence
        assert session.version == version and not session.game.table


def _menu(msg: discord.Message) -> Any:
    found = [c for c in components(msg) if (c.custom_id or "").startswith("durak:several:")]
    assert len(found) == 1, custom_ids(msg)
    return found[0]


async def test_stale_and_foreign_taps_are_answered(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, eve = world["channel"], world["alice"], world["eve"]
    game_id = await _start(
        simcord_env,
        world,
        hands=[["6c", "8d", "Ts"], ["7c", "9h", "Qd"]],
        trump_card="6h",
        talon=["Kh", "Ah"],
        attacker=0,
        defender=1,
    )
    old = await _hand(alice, channel, game_id)
    hand = await _hand(alice, channel, game_id)  # the newer message is the live one
    six, ten = _card_id(old, "6c"), _card_id(old, "Ts")
    await alice.click(hand, custom_id=_card_id(hand, "8d"))  # plays: the version moves on
    session = service(simcord_env).session(game_id)
    assert session is not None and session.message_id is not None
    table = list(session.game.table)
    version = session.version
    # a tap drawn for the old version: refused politely, the current hand shown in place
    stale = await alice.click(message_as(channel, alice, old.id), custom_id=six)
    assert stale.response is not None and stale.response.ephemeral
    assert "out of date" in (stale.response.content or "")
    assert list(session.game.table) == table and session.version == version
    # a card id forged onto the public table: a spectator is told privately, nothing moves
    stored = simcord_env.backend.get_message(channel.id, session.message_id)
    stored.components = [
        *stored.components,
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "forged", "custom_id": ten}]},
    ]
    outsider = await eve.click(message(channel, session.message_id), label="forged")
    assert outsider.ephemeral and outsider.response is not None
    assert "not playing" in (outsider.response.content or "")
    assert list(session.game.table) == table and session.version == version


# --------------------------------------------------------------------------- every preset


def _check_position(name: str, game: Game, seat: int) -> None:
    obs = game.observation(seat)
    legal = {face_key(a) for a in obs.legal_actions}
    paths = reachable(obs)
    # every legal action is reachable by some clicks...
    assert set(paths) == legal, (name, seat, legal ^ set(paths))
    # ...and no control on any selection on the way offers an illegal move
    selections: set[tuple[Card, ...]] = {()}
    for path in paths.values():
        cards = [c for c in path[:-1] if isinstance(c, Card) and not isinstance(c, tuple)]
        for i in range(1, len(cards) + 1):
            selections.add(tuple(cards[:i]))
    for sel in selections:
        hc = controls(obs, sel)
        offered = [
            *hc.completions,
            *hc.verbs,
            *(tp.action for tp in hc.taps if tp.action),
            *(opt.action for opt in hc.several if opt.action),
        ]
        assert all(a in obs.legal_actions for a in offered), (name, sel)
        starters = [opt.selection for opt in hc.several if opt.action is None]
        assert all(valid_selection(obs, st) == st for st in starters), (name, starters)
        assert len(hc.several) <= 25
        lay = layout(hc)
        assert lay.rows <= 5, (name, sel)
        assert lay.move_components + lay.refresh + bool(sel) <= 25, (name, sel)
    # a single-card move is one click unless its card has several one-card uses (or the hand
    # is too big to leave a row for the menu, and the card has partners); a move of n cards
    # takes at most n + 1 clicks
    moves = [a for a in obs.legal_actions if own_cards(a)]
    room = menu_room(obs)
    for a in moves:
        clicks = sum(step_clicks(s) for s in paths[face_key(a)])
        own = own_cards(a)
        if len(own) == 1:
            uses = [b for b in moves if own_cards(b) == own]
            partners = any(own[0] in own_cards(b) for b in moves if len(own_cards(b)) > 1)
            one = len(uses) == 1 and (room or not partners)
            assert clicks == (1 if one else 2), (name, a, paths[face_key(a)])
        else:
            assert clicks <= len(own) + 1, (name, a, paths[face_key(a)])
        if obs.hand_sizes[seat] <= 20:
            assert not lay.selects, (name, obs.hand_sizes[seat])


@pytest.mark.slow(sample=4, check=1)  # a sweep: one preset in make check, a sample in make test
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_legal_action_is_reachable_and_no_control_is_illegal(name: str) -> None:
    """Random positions of each preset (random moves, every seventh position checked)."""
    for seed in range(2):
        game = Game.new(RuleSet.preset(name), seed)
        rng = random.Random(seed)
        for step in range(250):
            movers = [s for s in range(game.n) if game.legal_actions(s)]
            if game.result is not None or not movers:
                break
            seat = rng.choice(movers)
            if step % 7 == 0:
                _check_position(name, game, seat)
            game.apply(rng.choice(game.legal_actions(seat)))


def test_a_full_hand_keeps_card_buttons_and_selects_a_card_with_partners() -> None:
    """Over 20 cards to tap leave no row for the menu: the cards stay buttons (no card menu),
    a card with a partner of its rank selects (tap, then the lead alone or together), a lone
    card still leads on one tap."""
    hand = [
        *(f"{r}c" for r in "6789TJQKA"),
        *(f"{r}d" for r in "6789TJQK"),
        *(f"{r}h" for r in "6789"),
    ]
    game = Game.from_position(
        RuleSet.preset("podkidnoy", players=2, max_attack=6),
        hands=[hand, ["6s", "7s", "8s", "9s", "Ts", "Js"]],
        trump_card=None,
        trump="s",
        attacker=0,
    )
    obs = game.observation(0)
    assert not menu_room(obs)
    hc = controls(obs)
    assert not hc.several and len(hc.taps) == 21
    lay = layout(hc)
    assert not lay.selects and lay.rows <= 5 and lay.move_components <= 25
    six, ace = Card.parse("6c"), Card.parse("Ac")
    partnered = next(tp for tp in hc.taps if tp.card == six)
    assert partnered.action is None and partnered.selection == (six,)
    alone = next(tp for tp in hc.taps if tp.card == ace)
    assert alone.action is not None and alone.action.cards == (ace,)
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(2)]
    session = GameSession(1, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=5)
    _, _, view = hand_message(session, 0, "en")
    assert len(view.children) <= 25
    assert not [i for i in view.children if ":cards:" in getattr(i, "custom_id", "")]
    assert not [i for i in view.children if "several:" in getattr(i, "custom_id", "")]


def test_a_hand_of_twenty_cards_needs_no_paging() -> None:
    ranks = "6789TJQKA"
    hand = [f"{r}{s}" for s in "cdh" for r in ranks][:20]
    rest = [f"{r}s" for r in ranks]
    game = Game.from_position(
        RuleSet.preset("podkidnoy", players=2, max_attack=6),
        hands=[hand, rest],
        trump_card=None,
        trump="s",
        attacker=0,
    )
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(2)]
    session = GameSession(1, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=5)
    _, _, view = hand_message(session, 0, "en")
    taps = [i for i in view.children if getattr(i, "custom_id", "").startswith("durak:card:")]
    assert len(taps) == 20
    assert len(view.children) <= 25
    assert not [i for i in view.children if "cards:" in getattr(i, "custom_id", "")]
    assert all(a.kind is not ActionKind.PASS for a in game.legal_actions(0))
