"""Texts a render keeps (bot/rendering/kept.py) are kept by every input: a change of a name,
of the rank letters or of the card emojis shows on the next render, never a stale text."""

from __future__ import annotations

from collections import deque

import discord

from bot.cardart.emojis import card_key
from bot.cardart.emojis import registry as card_emojis
from bot.game.models import EVENTS_KEPT, GameSession, PublicEvent, SeatInfo, public_events
from bot.i18n import t
from bot.rendering.table import hand_embed, table_embed
from engine import Game, RuleSet
from engine.cards import CARDS, PACK


def _session() -> GameSession:
    """A two-player game one move in (a pair on the table, an event to show) whose leader
    holds a court card (its letters differ between Latin and Russian)."""
    for seed in range(100):
        game = Game.new(RuleSet.preset("podkidnoy", players=2), seed=seed)
        leader = game.attacker
        if any(int(c) % 13 >= 9 for c in game.observation(leader).hand[1:]):
            break
    events: deque[PublicEvent] = deque(maxlen=EVENTS_KEPT)
    events.extend(public_events(game.apply(game.all_legal_actions()[0])))
    seats = [SeatInfo(0, "Alice", 100, None), SeatInfo(1, "Bob", 101, None)]
    session = GameSession(41, 10, 20, 30, 100, "podkidnoy", seats, game, seed, game.version)
    session.events = events
    return session


def _text(embed: discord.Embed) -> str:
    fields = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    return f"{embed.description}\n{fields}"


def _pairs_field(embed: discord.Embed) -> str:
    return next(str(f.value) for f in embed.fields if f.name == t("table.field", "en"))


def test_a_seat_that_leaves_is_named_so_in_kept_lines() -> None:
    session = _session()
    name = session.seats[session.game.attacker].name
    before = _text(table_embed(session, "en"))
    session.seats[session.game.attacker].left = True
    after = _text(table_embed(session, "en"))
    moves = [line for line in after.splitlines() if line.startswith(f"• {name}")]
    assert "(left" not in before
    assert moves and all("(left" in line for line in moves)  # the kept event line too


def test_rank_letters_and_emojis_show_at_once() -> None:
    session = _session()
    seat = next(s for s in (0, 1) if any(int(c) % 13 >= 9 for c in session.observation(s).hand))
    obs = session.observation(seat)
    russian = hand_embed(session, obs, "ru").description  # the hand's cards
    session.local_ranks = False
    assert hand_embed(session, obs, "ru").description != russian
    session.local_ranks = True
    old = dict(card_emojis._emojis)
    faces = [card_key(c, trump) for c in CARDS[:PACK] for trump in (False, True)]
    try:
        card_emojis.clear()
        plain = _pairs_field(table_embed(session, "en"))
        card_emojis.set(
            {k: discord.PartialEmoji(name=f"dk_{k}", id=9000 + i) for i, k in enumerate(faces)}
        )
        shown = _pairs_field(table_embed(session, "en"))
    finally:
        if old:
            card_emojis.set(old)
        else:
            card_emojis.clear()
    assert "<:dk_" not in plain and "<:dk_" in shown
