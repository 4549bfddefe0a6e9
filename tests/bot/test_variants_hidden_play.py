"""Whole games of the hidden-information variants (take on trust, reverse) played by clicks:
a human against computers, picking moves from the offered buttons, while nobody sees a card
they should not."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

from bot.game.models import GameSession
from engine.cards import bits
from engine.variants.base import aside_masks
from tests.bot.helpers import (
    acting_seat,
    add_computer,
    click_action,
    custom_ids,
    hand_moves,
    message,
    message_text,
    service,
)


def visible_to(session: GameSession, viewer: int) -> int:
    """The cards ``viewer``'s observation shows right now (hand, table, discard, known)."""
    obs = session.game.observation(viewer)
    blind = session.game.rules.variant == "reverse"  # the rule, not the view, says so
    m = (0 if blind else obs.hand_mask) | obs.discard_mask | obs.table_mask
    for k in obs.known_masks:
        m |= k
    if obs.trump_card is not None:
        m |= 1 << obs.trump_card
    return m


def unseen_by(session: GameSession, viewer: int, ever_seen: int) -> list[str]:
    """Every card ``viewer`` (-1: the channel) has never been allowed to see, from the true
    state: cards in the other hands not known to the viewer, cards face down on the table or
    out of play unseen. (Older messages may show cards that were public then.)"""
    g = session.game
    obs = g.observation(viewer)
    hidden = 0
    for s in range(g.n if not session.finished else 0):  # the end shows the cards left
        if s == viewer and g.rules.variant == "reverse":
            # reverse fool: the rule says a player sees none of their own cards but those the
            # whole table saw go into the hand
            hidden |= g.hands[s] & ~g.known[s]
        elif s != viewer:
            hidden |= g.hands[s] & ~obs.known_masks[s]
    for c in g.talon:
        hidden |= 1 << c
    if obs.trump_card is not None:
        hidden &= ~(1 << obs.trump_card)
    for (_, seen), (_, true) in zip(obs.table, g.table, strict=True):
        if seen is None and true >= 0:
            hidden |= 1 << true  # a face-down card this viewer may not see
    hidden |= aside_masks(g.vstate, g.n)[0]  # accepted face-down cards, out of play
    return [c.pretty() for c in bits(hidden & ~ever_seen)]


def check_messages(channel: Any, viewer: Any, hidden: list[str], *, ephemeral: bool) -> int:
    checked = 0
    for msg in channel.history(viewer=viewer):
        if bool(msg.flags.ephemeral) != ephemeral:
            continue
        text = message_text(msg)
        for card in hidden:
            assert card not in text, f"{card} is shown to someone who may not see it:\n{text}"
        checked += 1
    return checked


async def play_hidden_game(
    env: simcord.Env, world: dict[str, Any], preset: str, seats: int, seed: int
) -> tuple[GameSession, list[str]]:
    channel, alice, eve = world["channel"], world["alice"], world["eve"]
    created = await alice.slash(channel, "durak new", seats=seats, mode=preset)
    assert created.response is not None
    lobby_id = created.response.id
    for _ in range(seats - 1):
        await add_computer(alice, channel, lobby_id, "normal")
    await alice.click(message(channel, lobby_id), label="Start")
    shows = custom_ids(message(channel, lobby_id), "durak:show:")
    assert shows, message_text(message(channel, lobby_id))
    game_id = int(shows[0].split(":")[2])
    svc = service(env)
    session = svc.session(game_id)
    assert session is not None and session.game.rules.variant == preset
    table = message(channel, session.message_id or 0)
    rng = random.Random(seed)
    kinds: list[str] = []
    public_seen = alice_seen = 0
    for _ in range(3000):
        session = svc.session(game_id)
        assert session is not None
        # nothing the channel may not see is in a public message; nothing alice may not see
        # is in her private messages
        public_seen |= visible_to(session, -1)
        alice_seen |= visible_to(session, 0)
        check_messages(channel, eve, unseen_by(session, -1, public_seen), ephemeral=False)
        check_messages(channel, alice, unseen_by(session, 0, alice_seen), ephemeral=True)
        public = "\n".join(message_text(m) for m in channel.history(viewer=eve))
        if "face down" in public and "public:face_down" not in kinds:
            kinds.append("public:face_down")  # the channel is told a card went down
        if session.finished:
            return session, kinds
        seat = acting_seat(session, [0])
        if seat is None:
            await env.advance_time(svc.ai_delay)  # a computer is to move
            continue
        shown = await alice.click(table, custom_id=custom_ids(table, "durak:show:")[0])
        assert shown.response is not None and shown.response.ephemeral
        hand = shown.response.message
        legal = session.game.legal_actions(seat)
        assert hand_moves(hand), f"no move offered:\n{message_text(hand)}"
        # the human likes the variant's own moves: they are what this test is about
        own = [a for a in legal if a.kind.value in ("conceal", "accept", "challenge")]
        chosen = rng.choice(own if own and rng.random() < 0.7 else list(legal))
        kinds.append(chosen.kind.value)
        await click_action(alice, hand, session, seat, chosen)
    raise AssertionError("the game did not end")


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("seed", [0, 1])
async def test_take_on_trust_game_by_clicks_hides_face_down_cards(
    simcord_env: simcord.Env, world: Any, seed: int
) -> None:
    session, kinds = await play_hidden_game(simcord_env, world, "take-on-trust", 3, seed)
    assert session.game.result is not None
    # the human used the variant's own buttons, and they worked
    assert set(kinds) & {"conceal", "accept", "challenge"}
    assert "public:face_down" in kinds  # the channel was told that a card went down, not which


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("seats", [2, 3])
async def test_reverse_game_by_clicks_never_shows_a_player_their_own_cards(
    simcord_env: simcord.Env, world: Any, seats: int
) -> None:
    session, kinds = await play_hidden_game(simcord_env, world, "reverse", seats, seats)
    assert session.game.result is not None
    assert "lead_blind" in kinds and set(kinds) & {"beat_blind", "throw_blind", "take"}
    # alice's private view showed the computers' hands (that is the game)
    mine = [m for m in world["channel"].history(viewer=world["alice"]) if m.flags.ephemeral]
    assert any("The other hands" in message_text(m) for m in mine)
