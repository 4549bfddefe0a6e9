"""The picture of a daily puzzle: both hands face up, the table between them.

In a puzzle the talon is empty and only two players hold cards, so the opponent's hand is
exactly the cards not in yours, on the table or in the discard: showing it face up tells
nothing a careful player could not count, and it is what the solver proves against. Drawn
like the leaderboard (felt, gold title) as a pure function of a frozen scene whose texts are
already in the reader's language; 900 px wide so that at Discord's 450 px the cards keep the
table picture's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine.cards import RANK_LABELS

from .cards import CARD_H, CARD_W, SHADOW, face
from .fonts import draw_text, fit, font
from .standings import _DIM, _GOLD, _LABEL, _PANEL, _WHITE, _frame, _png

__all__ = ["PuzzleScene", "render_puzzle", "render_puzzle_png"]

WIDTH = 900
_LEFT = 40
_ROW = CARD_H + 50  # a row of cards and its label
_SPAN = WIDTH - 2 * _LEFT
#: The table's row is taller: a beaten card lies over its attack card, lower and to the right
_BEAT = 30
_TABLE_ROW = _ROW + _BEAT


@dataclass(frozen=True, slots=True)
class PuzzleScene:
    title: str
    subtitle: str
    theirs_label: str
    theirs: tuple[int, ...]
    table_label: str
    #: attack card and the card that beat it (-1: not beaten)
    table: tuple[tuple[int, int], ...]
    yours_label: str
    yours: tuple[int, ...]
    trump: int
    ranks: tuple[str, ...] = RANK_LABELS
    #: a line over the bottom edge: solved, not solved (empty: none)
    banner: str = ""


def _paste(img: Image.Image, card: int, x: int, y: int, scene: PuzzleScene) -> None:
    sprite = face(card, card // 13 % 4 == scene.trump, scene.ranks)
    img.paste(sprite, (x - SHADOW, y - SHADOW), sprite)


def _row(img: Image.Image, cards: tuple[int, ...], y: int, scene: PuzzleScene) -> None:
    if not cards:
        return
    step = CARD_W + 10
    if len(cards) > 1:
        step = min(step, (_SPAN - CARD_W) // (len(cards) - 1))
    for i, c in enumerate(cards):
        _paste(img, c, _LEFT + i * step, y, scene)


def render_puzzle(scene: PuzzleScene) -> Image.Image:
    height = 110 + 2 * _ROW + _TABLE_ROW + 30 + (50 if scene.banner else 0)
    img, d = _frame(WIDTH, height)
    title = font(27, True)
    draw_text(d, (_LEFT, 32), fit(scene.title, title, _SPAN, True), title, _GOLD)
    draw_text(d, (_LEFT, 72), fit(scene.subtitle, font(22), _SPAN), font(22), _LABEL)
    y = 110
    bold = font(20, True)
    draw_text(d, (_LEFT, y), fit(scene.theirs_label, bold, _SPAN, True), bold, _WHITE)
    _row(img, scene.theirs, y + 32, scene)
    y += _ROW
    d.rounded_rectangle(
        (_LEFT - 12, y - 8, WIDTH - _LEFT + 12, y + _TABLE_ROW - 12), 16, fill=_PANEL
    )
    draw_text(d, (_LEFT, y), fit(scene.table_label, font(20), _SPAN), font(20), _DIM)
    for i, (attack, beaten) in enumerate(scene.table):
        x = _LEFT + i * (CARD_W + 50)
        _paste(img, attack, x, y + 32, scene)
        if beaten >= 0:
            _paste(img, beaten, x + 36, y + 32 + _BEAT, scene)
    y += _TABLE_ROW
    draw_text(d, (_LEFT, y), fit(scene.yours_label, bold, _SPAN, True), bold, _WHITE)
    _row(img, scene.yours, y + 32, scene)
    if scene.banner:
        y += _ROW + 10
        text = fit(scene.banner, font(26, True), _SPAN, True)
        draw_text(d, (WIDTH // 2, y), text, font(26, True), _GOLD, anchor="ma")
    return img


def render_puzzle_png(scene: PuzzleScene) -> bytes:
    return _png(render_puzzle(scene))
