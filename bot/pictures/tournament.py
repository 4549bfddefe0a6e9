"""The picture of a tournament round: the standings so far and the next round's tables.

Drawn like the leaderboard (:mod:`.standings`: felt panels, gold for the lead, initials on
a colour for each player) and, like it, a pure function of a frozen scene whose texts are
already in the reader's language. 900 px wide so that it stays readable when Discord shows
it at 450 px (the smallest text is 18 px here, 9 px there).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from .fonts import draw_text, fit, font
from .standings import (
    _DIM,
    _FELT_DARK,
    _GOLD,
    _LABEL,
    _PANEL,
    _PANEL_EDGE,
    _WHITE,
    _avatar,
    _frame,
    _png,
)

__all__ = ["PairingRow", "StandingRow", "TournamentScene", "render_tournament_png"]

WIDTH = 900
_ROW_H = 50
_HEAD_H = 130


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player_id: int
    name: str
    score: str
    buchholz: str
    sonneborn: str
    #: Withdrawn (drawn dimmed).
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class PairingRow:
    label: str  # "Table 1" / "Bye"
    players: tuple[tuple[int, str], ...]
    result: str = ""


@dataclass(frozen=True, slots=True)
class TournamentScene:
    title: str
    subtitle: str
    standings_title: str
    header: tuple[str, str, str]  # score, Buchholz, Sonneborn-Berger
    rows: tuple[StandingRow, ...]
    pairings_title: str = ""
    pairings: tuple[PairingRow, ...] = ()


def render_tournament(scene: TournamentScene) -> Image.Image:
    pair_h = (60 + len(scene.pairings) * _ROW_H) if scene.pairings else 0
    height = _HEAD_H + len(scene.rows) * _ROW_H + pair_h + 40
    img, d = _frame(WIDTH, height)
    draw_text(d, (40, 30), fit(scene.title, font(30, True), 820, True), font(30, True), _GOLD)
    draw_text(d, (40, 70), fit(scene.subtitle, font(20), 820), font(20), _LABEL)
    y = _HEAD_H - 30
    draw_text(d, (40, y), scene.standings_title, font(20, True), _WHITE)
    for x, label in zip((620, 730, 830), scene.header, strict=True):
        draw_text(
            d, (x, y + 4), fit(label, font(18, True), 105, True), font(18, True), _DIM, anchor="ma"
        )
    y = _HEAD_H
    for i, r in enumerate(scene.rows):
        first = r.rank == 1
        d.rounded_rectangle(
            (30, y, WIDTH - 30, y + _ROW_H - 8),
            12,
            fill=_PANEL if i % 2 == 0 else _FELT_DARK,
            outline=_GOLD if first else _PANEL_EDGE,
            width=3 if first else 1,
        )
        cy = y + (_ROW_H - 8) / 2
        ink = _DIM if r.dropped else _WHITE
        draw_text(d, (78, cy), str(r.rank), font(24, True), _GOLD if first else ink, anchor="rm")
        _avatar(d, 118, cy, 18, r.player_id, r.name)
        draw_text(
            d, (148, cy), fit(r.name, font(22, True), 410, True), font(22, True), ink, anchor="lm"
        )
        draw_text(d, (620, cy), r.score, font(24, True), _GOLD if first else ink, anchor="mm")
        draw_text(d, (730, cy), r.buchholz, font(20), _LABEL, anchor="mm")
        draw_text(d, (830, cy), r.sonneborn, font(20), _LABEL, anchor="mm")
        y += _ROW_H
    if scene.pairings:
        y += 20
        draw_text(d, (40, y), scene.pairings_title, font(20, True), _WHITE)
        y += 40
        for i, p in enumerate(scene.pairings):
            d.rounded_rectangle(
                (30, y, WIDTH - 30, y + _ROW_H - 8),
                12,
                fill=_PANEL if i % 2 == 0 else _FELT_DARK,
                outline=_PANEL_EDGE,
                width=1,
            )
            cy = y + (_ROW_H - 8) / 2
            draw_text(
                d,
                (48, cy),
                fit(p.label, font(18, True), 120, True),
                font(18, True),
                _DIM,
                anchor="lm",
            )
            names = " · ".join(name for _, name in p.players)
            x = 180
            for pid, _name in p.players[:4]:
                _avatar(d, x, cy, 15, pid, _name)
                x += 26
            draw_text(
                d,
                (x + 12, cy),
                fit(names, font(20, True), 760 - x, True),
                font(20, True),
                _WHITE,
                anchor="lm",
            )
            if p.result:
                draw_text(d, (WIDTH - 48, cy), p.result, font(18), _LABEL, anchor="rm")
            y += _ROW_H
    return img


def render_tournament_png(scene: TournamentScene) -> bytes:
    return _png(render_tournament(scene))
