"""Keeps bench/hand_picture.py (docs/playing.md's hand pictures) runnable: it draws the hand
message the bot builds, at Discord's width, in both languages."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bench import hand_picture


def test_draws_both_hands_at_discords_width(tmp_path: Path) -> None:
    assert hand_picture.main([str(tmp_path)]) == 0
    for locale in ("en", "ru"):
        image = Image.open(tmp_path / f"hand-{locale}.png")
        assert image.width == hand_picture.WIDTH
        assert 400 < image.height < 1200  # the embed, three rows of buttons and the open menu


def test_the_sample_offers_the_menu_of_several_cards() -> None:
    """The picture shows what docs/playing.md says: each card leads alone, and the leads of the
    three nines together are options of the menu."""
    from bot.surfaces.hand_controls import controls

    session = hand_picture.sample()
    hc = controls(session.game.observation(0))
    assert all(tp.action is not None for tp in hc.taps)
    assert len(hc.several) == 4
