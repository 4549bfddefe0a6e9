"""Card ranks in the reader's letters: В Д К Т in Russian, J Q K A in English.

The engine's notation stays Latin (records, logs); the bot's texts and pictures translate it,
with ``local_ranks=False`` for a server that keeps the Latin letters.
"""

from __future__ import annotations

from bot.cardart.labels import card_label, rank_labels
from bot.pictures import cards as sprites
from bot.pictures.samples import sample_session
from bot.pictures.scene import table_scene
from bot.rendering.common import card_face, cards_text
from engine import Card
from engine.cards import RANK_LABELS


def test_court_cards_in_each_language() -> None:
    court = [Card.parse(c) for c in ("Js", "Qh", "Kd", "Ac")]
    assert [card_label(c, "ru") for c in court] == ["В♠", "Д♥", "К♦", "Т♣"]
    assert [card_label(c, "en") for c in court] == ["J♠", "Q♥", "K♦", "A♣"]
    assert card_label(Card.parse("Th"), "ru") == "10♥"
    assert card_label(Card.parse("6s"), "ru") == "6♠"


def test_latin_letters_without_a_locale_or_when_the_server_keeps_them() -> None:
    ace = Card.parse("As")
    assert card_label(ace) == "A♠"
    assert card_label(ace, "ru", local_ranks=False) == "A♠"
    assert rank_labels("ru", local_ranks=False) == RANK_LABELS
    assert ace.pretty() == "A♠"  # the engine's notation is language-free


def test_texts_pass_the_locale_through() -> None:
    hand = [Card.parse(c) for c in ("Qs", "6s", "Ah")]
    assert cards_text(hand, None, "ru") == "Д♠ 6♠ Т♥"
    assert cards_text(hand, None, "en") == "Q♠ 6♠ A♥"
    assert card_face(Card.parse("Kc"), None, "ru").endswith("К♣")


def test_a_russian_table_picture_draws_russian_letters() -> None:
    session = sample_session("podkidnoy", 3, "defence", seed=1, locale="ru")
    assert session is not None
    assert table_scene(session).ranks[9:] == ("В", "Д", "К", "Т")
    session.locale = "en"
    assert table_scene(session).ranks[9:] == ("J", "Q", "K", "A")


def test_the_sprites_differ_only_for_court_cards() -> None:
    ru, en = rank_labels("ru"), rank_labels("en")
    ace, six = int(Card.parse("As")), int(Card.parse("6s"))
    assert sprites.face(ace, False, ru).tobytes() != sprites.face(ace, False, en).tobytes()
    assert sprites.face(six, False, ru).tobytes() == sprites.face(six, False, en).tobytes()
    assert sprites.sideways_face(ace, ru).tobytes() != sprites.sideways_face(ace, en).tobytes()
