"""The Activity's frames (bot/activity/frames.py): every preset, every seat, every move of a
random game; no frame holds a card its reader may not see. "May see" is worked out here from
the game itself, not from the observation the frame is built from."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.activity.frames import seat_frame
from bot.game.models import GameSession, SeatInfo, public_events
from bot.i18n import tn
from engine import PRESETS, Action, Game, RuleError, RuleSet
from engine.actions import BLIND_KINDS
from engine.cards import CARDS, bits

#: A card in the engine's notation, as frames carry them.
CARD = re.compile(r"^[2-9TJQKA][cdhs]'?$")
#: Variants in which a seat does not see its own hand (tests/engine/test_properties.py).
BLIND = frozenset({"reverse"})


def _combos() -> list[tuple[str, int]]:
    out = []
    for name in PRESETS:
        counts = []
        for n in range(2, 7):
            try:
                RuleSet.preset(name, players=n)
            except RuleError:
                continue
            counts.append(n)
        out.append((name, counts[-1]))  # the most seats: the most hidden hands
    return out


def _session(game: Game, preset: str) -> GameSession:
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(game.n)]
    return GameSession(1, 10, 20, 30, 100, preset, seats, game, seed=7, version=0)


def _shown(value: Any, out: set[str]) -> set[str]:
    """Every card anywhere in a frame: card strings in any field, and the cards of every move
    (a blind move's last "card" is a slot of the hand, not a card)."""
    if isinstance(value, dict):
        if "send" in value:
            action = Action.parse(value["send"])
            cards = action.cards[:-1] if action.kind in BLIND_KINDS else action.cards
            out.update(str(c) for c in cards)
        for key, item in value.items():
            if key != "send":
                _shown(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _shown(item, out)
    elif isinstance(value, str) and CARD.match(value):
        out.add(value)
    return out


def _visible(game: Game, seat: int | None, preset: str) -> set[str]:
    """What ``seat`` (None: a spectator) may see, from the game's true state: its own hand
    (unless the variant hides it), the face-up table, the turned-up trump, a pass card shown
    in this bout."""
    allowed = 0
    if seat is not None and preset not in BLIND:
        allowed |= game.hands[seat]
    face_down = set(game.public_observation().face_down)
    for i, (attack, defence) in enumerate(game.table):
        allowed |= 1 << attack
        if defence >= 0 and (i not in face_down or seat == game.defender):
            allowed |= 1 << defence
    if game.trump_card >= 0 and not game._trump_hidden:
        allowed |= 1 << game.trump_card
    allowed |= game.shown
    return {str(CARDS[c]) for c in bits(allowed)}


@pytest.mark.slow(sample=6)
@pytest.mark.parametrize(("preset", "players"), _combos())
def test_no_frame_shows_a_card_its_reader_may_not_see(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}/{players}")
    game = Game.new(RuleSet.preset(preset, players=players), seed=rng.randrange(10**6))
    session = _session(game, preset)
    seen_hand = False
    for step in range(250):  # random play may wander: the frames, not the end, are the point
        session.game, session.version = game, step
        for seat in (None, *range(game.n)):
            frame = seat_frame(session, seat)
            shown = _shown(frame, set())
            leaked = shown - _visible(game, seat, preset)
            assert not leaked, (preset, players, seat, step, sorted(leaked))
            seen_hand |= bool(seat is not None and frame["hand"])
            if seat is None:
                assert frame["hand"] == [] and frame["moves"] == []
        if game.result is not None:
            break
        legal = [a for s in range(game.n) for a in game.legal_actions(s)]
        game = game.copy()
        session.events.extend(public_events(game.apply(rng.choice(legal))))
    assert step > 20
    assert seen_hand or preset in BLIND


def test_a_frame_says_what_the_table_needs() -> None:
    game = Game.new(RuleSet.preset("perevodnoy", players=3), seed=5)
    session = _session(game, "perevodnoy")
    attacker = game.attacker
    frame = seat_frame(session, attacker)
    assert frame["seat"] == attacker and len(frame["hand"]) == 6
    assert [s["count"] for s in frame["seats"]] == [6, 6, 6]
    assert frame["seats"][attacker]["turn"] and frame["seats"][attacker]["role"] == "attacking"
    assert frame["seats"][game.defender]["role"] == "defending"
    assert frame["talon"] == 36 - 18 and frame["trump"] in "cdhs"
    leads = {m["send"] for m in frame["moves"] if m["kind"] == "attack"}
    assert {f"{attacker} attack {c}" for c in frame["hand"]} <= leads
    # the hand is the chat hand's order
    assert frame["hand"] == [str(c) for c in game.observation(attacker).hand]
    other = seat_frame(session, game.defender)
    assert not set(other["hand"]) & set(frame["hand"]) and other["moves"] == []


def _played(
    preset: str, players: int, until: Any, seed: int = 3, prefer: str = ""
) -> tuple[GameSession, Game]:
    """A random game of ``preset`` played until ``until(game, events)`` holds (a move of
    the kind ``prefer`` whenever there is one)."""
    rng = random.Random(seed)
    game = Game.new(RuleSet.preset(preset, players=players), seed=seed)
    session = _session(game, preset)
    for _ in range(400):
        if until(game, session.events):
            return session, game
        legal = [a for s in range(game.n) for a in game.legal_actions(s)]
        legal = [a for a in legal if a.kind == prefer] or legal
        game = game.copy()
        session.events.extend(public_events(game.apply(rng.choice(legal))))
        session.game = game
    raise AssertionError(f"{preset}: never reached")


def test_the_variants_marks_come_from_the_observation() -> None:
    # partners: each seat's team, the same for the reader and its partner
    session, game = _played("teams-2v2", 4, lambda g, e: True)
    seats = seat_frame(session, 0)["seats"]
    assert [s["team"] for s in seats] == [1, 2, 1, 2]
    plain, _ = _played("podkidnoy", 2, lambda g, e: True)
    assert seat_frame(plain, 0)["seats"][0]["team"] is None
    # scores (point fool), in the table's words
    session, game = _played(
        "point", 2, lambda g, e: any(g.public_observation().variant_state.get("points", ()))
    )
    points = game.public_observation().variant_state["points"]
    expected = [tn("plural.points", int(p), "en") for p in points]
    assert [s["score"] for s in seat_frame(session, None)["seats"]] == expected
    # closed cards (Magadan): counted, never shown
    session, game = _played("magadan", 3, lambda g, e: any(g.public_observation().closed))
    frame = seat_frame(session, 0)
    assert [s["closed"] for s in frame["seats"]] == list(game.public_observation().closed)
    # own trumps (double-trump fool): each seat's suit, and the frame says they differ
    session, game = _played("double-trump", 2, lambda g, e: True)
    frame = seat_frame(session, 1)
    assert frame["own_trumps"] and frame["trump"] == frame["seats"][1]["trump"]
    assert frame["seats"][0]["trump"] != frame["seats"][1]["trump"]
    # the pass card: shown to everyone while its bout is on the table
    session, game = _played(
        "perevodnoy-pass-card", 3, lambda g, e: bool(e) and e[-1].kind == "show", prefer="show"
    )
    shown = seat_frame(session, None)["shown"]
    last = session.events[-1]
    assert shown == {"seat": last.seat, "card": str(last.cards[0]), "target": last.target}
    assert seat_frame(session, None)["table"]
    # reverse fool: the seat holds cards it cannot see, and plays them by slot
    session, game = _played("reverse", 2, lambda g, e: True)
    frame = seat_frame(session, game.attacker)
    assert frame["hidden_hand"] and frame["hand"] == []
    assert frame["moves"] and all("slots" in m for m in frame["moves"] if m["kind"] != "take")
    assert not seat_frame(session, None)["hidden_hand"]
