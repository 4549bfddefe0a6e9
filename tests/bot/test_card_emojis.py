"""Card faces (bot.cardart.cardart) and their application emojis (bot.cardart.emojis), end to end.

simcord 3.2.1 implements Discord's application-emoji routes (list/create/get/edit/delete under
``/applications/{id}/emojis``; the uploaded image is accepted and discarded), so these tests
drive the real discord.py calls against the simulated API; refusals use ``env.inject_error``.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image

from bot.cardart import cardart
from bot.cardart.emojis import (
    HASH_LENGTH,
    RETRY_DELAYS,
    CardEmojis,
    card_key,
    is_own_emoji_name,
    registry,
    wanted_emojis,
)
from bot.rendering.common import _fitting, cards_face
from engine.cards import CARDS, PACK, Card, bits
from tests.bot.conftest import make_bot
from tests.bot.helpers import components, hand_moves, message, message_text, move, service
from tests.bot.test_play import start_game

#: 52 faces plain and trump, the 16 court cards again in Russian letters (plain and trump),
#: and the back.
EMOJI_COUNT = 2 * PACK + 2 * 16 + 1

#: The faces drawn: one pack (a big fool twin, id + 52, uses its first-pack card's emoji).
FACES = CARDS[:PACK]
EMOJI_ROUTE = "/applications/*/emojis"
#: Discord's rule for emoji names.
DISCORD_EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")


def _uploads(env: simcord.Env) -> list[str]:
    """Names of the application emojis the bot asked Discord to create."""
    return [
        (r.json or {}).get("name", "?")
        for r in env.http_requests
        if r.method == "POST" and fnmatch(r.path, f"*{EMOJI_ROUTE}")
    ]


def _deletes(env: simcord.Env) -> list[str]:
    return [
        r.path
        for r in env.http_requests
        if r.method == "DELETE" and fnmatch(r.path, f"*{EMOJI_ROUTE}/*")
    ]


# --------------------------------------------------------------------------- faces


def _fresh_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@pytest.mark.slow(sample=1)  # draws the 137 faces twice: in make test, not make check
def test_every_face_renders_deterministically() -> None:
    """Rendering twice from scratch gives the same bytes (the content hash relies on it), and
    every card, plain and trump, and the back are distinct 128 px RGBA pictures."""
    seen: set[bytes] = set()
    for card in FACES:
        for trump in (False, True):
            png = cardart.face_png(card, trump=trump)
            assert _fresh_png(cardart.face_image(card, trump=trump)) == png, (card, trump)
            with Image.open(io.BytesIO(png)) as image:
                assert image.format == "PNG" and image.mode == "RGBA"
                assert image.size == (cardart.FACE_SIZE, cardart.FACE_SIZE)
            assert len(png) < 256 * 1024  # Discord's emoji size limit
            seen.add(png)
    back = cardart.back_png()
    assert _fresh_png(cardart.back_image()) == back
    seen.add(back)
    assert len(seen) == 52 * 2 + 1


def _colour_count(image: Image.Image, colour: tuple[int, int, int], tol: int = 30) -> int:
    data = image.convert("RGBA").tobytes()
    return sum(
        1
        for i in range(0, len(data), 4)
        if data[i + 3] > 200
        and max(
            abs(data[i] - colour[0]), abs(data[i + 1] - colour[1]), abs(data[i + 2] - colour[2])
        )
        <= tol
    )


@pytest.mark.parametrize("text", ["Ah", "Td", "7c", "Qs"])
def test_suits_are_red_or_black_and_trumps_are_marked_in_gold(text: str) -> None:
    card = Card.parse(text)
    plain = cardart.face_image(card)
    trump = cardart.face_image(card, trump=True)
    red = cardart.RED[:3]
    black = cardart.BLACK[:3]
    gold = cardart.TRUMP_GOLD[:3]
    ink, other = (red, black) if card.suit in (1, 2) else (black, red)
    # Rank and suit are big: hundreds of pixels of ink even at 128 px, none of the other colour.
    assert _colour_count(plain, ink) > 800
    assert _colour_count(plain, other) < 20
    assert _colour_count(plain, gold) < 20
    assert _colour_count(trump, gold) > 800


def test_emoji_names_are_valid_unique_and_carry_the_content_hash() -> None:
    specs = wanted_emojis()
    assert len(specs) == EMOJI_COUNT
    names = [s.name for s in specs]
    assert len(set(names)) == len(names)
    for spec in specs:
        assert DISCORD_EMOJI_NAME.fullmatch(spec.name), spec.name
        assert is_own_emoji_name(spec.name)
        digest = hashlib.sha256(spec.image).hexdigest()[:HASH_LENGTH]
        assert spec.name == f"dk_{spec.key}_{digest}"
    court = [c for c in FACES if c.rank >= 11]
    assert {s.key for s in specs} == {card_key(c, t) for c in FACES for t in (False, True)} | {
        card_key(c, t, "ru") for c in court for t in (False, True)
    } | {"back"}
    for foreign in ("party_parrot", "dk_As", "dk_As_xyz", "dk_Zz_0123abcd", "my_dk_As_0123abcd"):
        assert not is_own_emoji_name(foreign)


def test_render_puts_the_emoji_before_the_notation_and_falls_back_to_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Emoji markdown is ~30 characters a card: a field that would overflow is written as
    text instead, and without emojis the text is exactly the old notation."""
    cards = [Card.parse(x) for x in ("6s", "7h", "Ad")]
    assert cards_face(cards, trump=2) == "6♠ 7♥ A♦"
    local = CardEmojis()
    local.set(
        {
            card_key(c, t): discord.PartialEmoji(name=f"dk_{card_key(c, t)}_0000abcd", id=10 + i)
            for i, c in enumerate(FACES)
            for t in (False, True)
        }
    )
    monkeypatch.setattr("bot.rendering.common.card_emojis", local)
    text = cards_face(cards, trump=2)
    assert text.startswith("<:dk_6s_0000abcd:")
    assert " 6♠ <:dk_t7h_0000abcd:" in text and text.endswith(" A♦")
    assert _fitting(lambda emoji: "x" * (2000 if emoji else 10)) == "x" * 10
    assert _fitting(lambda emoji: "e" if emoji else "t") == "e"


# --------------------------------------------------------------------------- simcord


def _all_emoji_ids() -> list[int | None]:
    faces = [registry.card(c, t) for c in FACES for t in (False, True)] + [registry.back()]
    return [e.id if e is not None else None for e in faces]


async def _ready(env: simcord.Env) -> None:
    await env.settle()
    assert registry.ready, "card emojis were not ready after start"


async def test_first_start_uploads_every_face_and_buttons_show_them(
    simcord_env: simcord.Env, world: Any
) -> None:
    await _ready(simcord_env)
    uploads = _uploads(simcord_env)
    assert sorted(uploads) == sorted(s.name for s in wanted_emojis())
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    trump = session.game.trump
    seat = session.game.attacker
    actor = world["alice"] if session.seats[seat].user_id == world["alice"].id else world["bob"]
    table = message(channel, session.message_id or 0)
    # The talon is a card back, the trump card under it its trump face.
    status = table.embeds[0].description or ""
    trump_card = session.game.public_observation().trump_card
    assert f"{registry.back()} Talon: " in status
    assert f"Trump: {registry.markdown(trump_card, True)} {trump_card.pretty()}" in status
    shown = await actor.click(table, custom_id=f"durak:show:{game_id}")
    assert shown.response is not None
    hand = shown.response.message
    # Every card button carries the emoji of its card next to the card's name in words.
    buttons = [c for c in components(hand) if (c.custom_id or "").startswith("durak:card:")]
    assert buttons
    for button in buttons:
        card = Card.parse(button.custom_id.rsplit(":", 1)[1])
        expected = registry.card(card, card.suit == trump)
        assert expected is not None
        assert button.emoji is not None and button.emoji.id == expected.id, button.custom_id
        assert card.pretty() in (button.label or "")
    # The hand lists each card with its emoji, then its notation.
    hand_text = hand.embeds[0].description or ""
    for card in session.game.observation(seat).hand:
        assert f"{registry.markdown(card, card.suit == trump)} {card.pretty()}" in hand_text
    # After the attack the public table shows the card on the field with its emoji ...
    await move(actor, hand)
    table = message(channel, session.message_id or 0)
    attack = session.game.table[0][0]
    field = next(f.value for f in table.embeds[0].fields if f.name == "On the table")
    assert f"{registry.markdown(attack, attack.suit == trump)} {attack.pretty()}" in (field or "")
    # ... and no emoji of a card the channel has not seen.
    public = "\n".join(message_text(m) for m in channel.history(viewer=world["eve"]))
    g = session.game
    for s in range(g.n):
        for card in bits(g.hands[s] & ~g.known[s]):
            assert f"dk_{card}_" not in public and f"dk_t{card}_" not in public


async def test_second_start_uploads_nothing(
    simcord_env: simcord.Env, world: Any, db_path: Path
) -> None:
    await _ready(simcord_env)
    assert len(_uploads(simcord_env)) == EMOJI_COUNT
    first = _all_emoji_ids()
    await simcord_env.bot.close()
    await simcord_env.restart_bot(make_bot(db_path))
    await _ready(simcord_env)
    assert len(_uploads(simcord_env)) == EMOJI_COUNT, "emojis were uploaded again on a restart"
    assert _deletes(simcord_env) == []
    assert _all_emoji_ids() == first


async def test_changed_or_missing_faces_are_replaced_and_foreign_emojis_kept(
    simcord_env: simcord.Env, world: Any, db_path: Path
) -> None:
    await _ready(simcord_env)
    bot = simcord_env.bot
    png = cardart.back_png()
    ours = {e.name: e for e in await bot.fetch_application_emojis()}
    ace = next(n for n in ours if n.startswith("dk_As_"))
    await ours[ace].delete()  # a face that went missing
    outdated = await bot.create_application_emoji(name="dk_Kh_00000000", image=png)
    foreign = await bot.create_application_emoji(name="party_parrot", image=png)
    await bot.close()
    before = len(_uploads(simcord_env))
    await simcord_env.restart_bot(make_bot(db_path))
    await _ready(simcord_env)
    assert _uploads(simcord_env)[before:] == [ace]
    names = {e.name for e in await simcord_env.bot.fetch_application_emojis()}
    assert outdated.name not in names
    assert foreign.name in names
    assert names == {s.name for s in wanted_emojis()} | {foreign.name}


async def test_refused_upload_leaves_text_cards_working(
    simcord_env: simcord.Env, world: Any, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot whose first upload Discord refuses plays on with text cards, logging one
    warning line without a traceback."""
    await _ready(simcord_env)
    bot = simcord_env.bot
    for emoji in await bot.fetch_application_emojis():
        await emoji.delete()  # back to a fresh application, as on a first start
    await bot.close()
    simcord_env.inject_error(
        "POST", EMOJI_ROUTE, status=403, code=50013, message="Missing Permissions", times=None
    )
    with caplog.at_level(logging.INFO, logger="bot.cardart.emojis"):
        await simcord_env.restart_bot(make_bot(db_path))
        await simcord_env.settle()
    assert not registry.ready
    warnings = [
        r for r in caplog.records if r.name == "bot.cardart.emojis" and r.levelno >= logging.WARNING
    ]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert "403" in warnings[0].getMessage()
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    seat = session.game.attacker
    actor = world["alice"] if session.seats[seat].user_id == world["alice"].id else world["bob"]
    shown = await actor.click(
        message(channel, session.message_id or 0), custom_id=f"durak:show:{game_id}"
    )
    assert shown.response is not None
    hand = shown.response.message
    moves = hand_moves(hand)
    assert moves
    assert all(c.emoji is None for c in components(hand) if c.custom_id in moves)
    assert "<:" not in message_text(hand)
    version = session.version
    clicked = await move(actor, hand)
    assert clicked.response is not None
    assert service(simcord_env).session(game_id).version > version  # type: ignore[union-attr]
    assert "<:" not in message_text(message(channel, session.message_id or 0))


async def test_a_discord_outage_at_start_is_tried_again_later(
    simcord_env: simcord.Env, world: Any, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await _ready(simcord_env)
    bot = simcord_env.bot
    for emoji in await bot.fetch_application_emojis():
        await emoji.delete()
    await bot.close()
    simcord_env.inject_error("GET", EMOJI_ROUTE, status=503, times=1)
    with caplog.at_level(logging.INFO, logger="bot.cardart.emojis"):
        await simcord_env.restart_bot(make_bot(db_path))
        await simcord_env.settle()
        assert not registry.ready
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and warnings[0].exc_info is None
        assert f"trying again in {RETRY_DELAYS[0]:.0f} s" in warnings[0].getMessage()
        uploads = len(_uploads(simcord_env))
        await simcord_env.advance_time(RETRY_DELAYS[0])
        await simcord_env.settle()
    assert registry.ready
    assert len(_uploads(simcord_env)) == uploads + EMOJI_COUNT
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == warnings


def test_a_russian_reader_sees_russian_letters_on_court_card_emojis() -> None:
    """В Д К Т in Russian texts: the emoji next to «Д♠» must not draw a Latin Q."""
    queen, six = Card.parse("Qs"), Card.parse("6s")
    assert card_key(queen, False, "ru") == "ruQs" and card_key(queen, True, "ru") == "truQs"
    assert card_key(six, False, "ru") == "6s"  # the same face in every language
    specs = {s.key: s.image for s in wanted_emojis()}
    assert specs["ruQs"] != specs["Qs"] and "ru6s" not in specs
    assert is_own_emoji_name("dk_truQs_0123abcd")


def test_a_twin_of_the_second_pack_uses_its_cards_emoji() -> None:
    """Big fool: ``6s'`` is drawn as ``6s``; no emoji of its own (the 2,000 limit, and the
    player sees the same card)."""
    twin = Card.parse("6s'")
    assert card_key(twin) == card_key(Card.parse("6s")) == "6s"
    assert card_key(twin, True) == "t6s"
    assert len(wanted_emojis()) == EMOJI_COUNT
