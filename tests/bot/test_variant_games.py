"""Every preset is playable in Discord: a human plays a whole game against computers by clicking
the buttons offered, with no error, and no card anyone should not see shows in any message.

Hidden cards here are the engine's truth, not the renderer's: other seats' hands the table has
not seen, the talon (but the face-up trump card), Magadan's closed cards, Chukchi's talon put
out of play, and invisible fool's trump card. A card that went public once (a pick-up, a
reshuffle of face-up cards back into the talon) may be named again; that is no leak.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import DurakBot
from engine import PRESETS, Game, RuleSet
from engine.cards import CARDS, PACK, bits
from engine.rules import RuleError
from engine.variants.base import aside_masks
from tests.bot.conftest import make_bot
from tests.bot.helpers import add_computer, custom_ids, message, message_text, play_out, service


@pytest.fixture
def simcord_bot(db_path: Path) -> DurakBot:
    # no computer think time and no table edit throttle: a whole game per preset stays fast
    return make_bot(db_path, ai_delay_seconds=0.0, table_edit_interval=0.0)


def smallest_table(preset: str) -> int:
    for n in range(2, 7):
        try:
            RuleSet.preset(preset, players=n)
        except RuleError:
            continue
        return n
    raise AssertionError(f"{preset} allows no player count")


def hidden_from(g: Game, viewer: int | None) -> set[int]:
    """Cards ``viewer`` (a seat, or None for the channel) must not see right now."""
    out_mask, closed = aside_masks(g.vstate, g.n)
    hidden = 0
    for s in range(g.n):
        if s != viewer:
            hidden |= g.hands[s] & ~g.known[s]
        hidden |= closed[s]  # face down to everyone, the owner too
    for i, c in enumerate(g.talon):
        if i != g.trump_index or g._trump_hidden:
            hidden |= 1 << c
    if g.trump_card >= 0 and not g._trump_hidden:
        out_mask &= ~(1 << g.trump_card)  # Chukchi's turned-up trump left face up
    hidden |= out_mask
    return set(bits(hidden))


def assert_nothing_hidden_shown(
    channel: Any,
    spectator: Any,
    player: Any,
    seat: int,
    g: Game,
    public: set[int],
    seen: set[int] = frozenset(),  # type: ignore[assignment]
) -> None:
    """No public message names a hidden card; the player's own (ephemeral) messages name no
    card hidden from that seat, beyond what the seat's own observations ever showed it
    (round fool hands a hand over; reverse fool shows the others' hands)."""
    if g.result is not None:
        return  # the result shows the hands left: nothing is secret any more
    for viewer, who, known in ((spectator, None, set()), (player, seat, seen)):
        # a text names a face, and in big fool a card's twin (c + 52) has the same face: a
        # hidden card counts only while its twin may not be named either (one pack: always)
        hidden = hidden_from(g, who)
        visible = set(bits(g._deck)) - hidden
        shown_faces = {c % PACK for c in (*public, *known, *visible)}
        secret = [
            CARDS[c].pretty()
            for c in hidden
            if c not in public and c not in known and c % PACK not in shown_faces
        ]
        for msg in channel.history(viewer=viewer):
            text = message_text(msg)
            for card in secret:
                assert card not in text, f"hidden {card} shown to {viewer.name}:\n{text}"


PLAYED = sorted(PRESETS)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PLAYED)
async def test_every_preset_plays_a_whole_game_by_clicks(
    simcord_env: simcord.Env, world: Any, preset: str
) -> None:
    channel, alice, eve = world["channel"], world["alice"], world["eve"]
    seats = smallest_table(preset)
    created = await alice.slash(channel, "durak new", mode=preset, seats=seats)
    assert created.response is not None and not created.ephemeral, created.response
    lobby_id = created.response.id
    for _ in range(seats - 1):
        await add_computer(alice, channel, lobby_id)
    started = await alice.click(message(channel, lobby_id), label="Start")
    assert not started.ephemeral, started.response and started.response.content
    svc = service(simcord_env)
    session = svc.session(1)
    assert session is not None and session.game.rules.variant == PRESETS[preset].variant
    seat = next(s.seat for s in session.seats if s.user_id == alice.id)
    public: set[int] = set()
    # the check has something to look for: at the start the channel cannot see most cards
    assert len(hidden_from(session.game, None)) >= session.game.hands[seat].bit_count()

    seen: set[int] = set()  # what alice's own observations ever showed her

    def check(s: Any) -> None:
        for ev in s.events:
            public.update(int(c) for c in ev.cards)
        obs = s.game.observation(seat)
        mask = obs.hand_mask
        for known in obs.known_masks:
            mask |= known
        seen.update(bits(mask))
        assert_nothing_hidden_shown(channel, eve, alice, seat, s.game, public, seen)

    moves = await play_out(simcord_env, channel, 1, [alice], on_step=check)
    session = svc.session(1)
    assert session is not None and session.finished, f"{preset}: the game did not finish"
    assert moves, f"{preset}: the human never got a move"
    # every click got an answer and nothing failed: the table says the game is over
    table = message(channel, session.message_id or 0)
    assert not custom_ids(table, "durak:act:")


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_invisible_shows_the_trump_suit_never_the_card(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, eve = world["channel"], world["alice"], world["eve"]
    created = await alice.slash(channel, "durak new", mode="invisible", seats=2)
    assert created.response is not None
    lobby_id = created.response.id
    await add_computer(alice, channel, lobby_id)
    await alice.click(message(channel, lobby_id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None
    g = session.game
    card = CARDS[g.trump_card].pretty()
    suit_seen = []
    checked = 0

    def check(s: Any) -> None:
        nonlocal checked
        if s.game.trump_index < 0:
            return  # drawn: from now on the general test's rules apply (a hand's secret)
        for viewer in (eve, alice):
            for msg in channel.history(viewer=viewer):
                text = message_text(msg)
                suit_seen.append("Trump suit" in text)
                assert card not in text, f"invisible trump {card} shown:\n{text}"
                checked += 1

    await play_out(simcord_env, channel, 1, [alice], on_step=check)
    assert checked and any(suit_seen), "the trump suit was never announced"
