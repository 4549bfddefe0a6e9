"""A reviewed decision's picture and words: the reviewer's own hand only, both moves marked,
the figures with their margin, and no queue count when nobody is waiting."""

from __future__ import annotations

from typing import Any

import pytest

from bench.records import play
from bot.game.models import SeatInfo
from bot.game.records import build_replay
from bot.i18n import t
from bot.pictures.hands import HandRow, Legend
from bot.surfaces import review_views
from engine import ActionKind
from engine.ai.review import Decision


def _decision() -> tuple[Any, Decision]:
    record = play("podkidnoy", 2, 3)
    seats = [SeatInfo(0, "Alice", 1, None), SeatInfo(1, "Bob", 2, None)]
    replay = build_replay(3, 1, "podkidnoy", seats, record.to_text())
    game = record.initial_game()
    for i, m in enumerate(record.moves):
        a = m.action
        if a is None:
            continue
        if a.seat == 0 and a.kind is ActionKind.DEFEND:
            take = next(x for x in game.legal_actions(0) if x.kind is ActionKind.TAKE)
            return replay, Decision(i, 0, take, a, 0.5, 0.30, 0.62, noise=0.11, worlds=144)
        game.apply(a)
    raise AssertionError("no defence of seat 0 in the sample game")


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_picture_shows_only_the_reviewers_hand_with_both_moves(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay, d = _decision()
    drawn: list[tuple[tuple[HandRow, ...], tuple[Legend, ...]]] = []
    monkeypatch.setattr(
        review_views,
        "render_with_hands",
        lambda scene, rows, legend=(): drawn.append((rows, legend)) or b"png",
    )
    assert review_views.decision_picture(replay, d, locale) == b"png"
    ((rows, legend),) = drawn
    game = replay.steps[review_views.decision_step(replay, d)].game
    (row,) = rows  # one hand: the reviewer's
    assert row.cards == tuple(int(c) for c in game.hand(0))
    assert dict(row.marks) == {int(d.preferred.cards[1]): "better"}  # a take has no card
    assert [x.tone for x in legend] == ["yours", "better"]
    words = "\n".join(review_views.decision_lines(replay, d, locale))
    assert "30%" in words and "62%" in words and "±11%" in words and "144" in words
    assert "0%" not in words.replace("30%", "")  # no "before" figure


def test_the_working_line_counts_the_queue_only_when_someone_waits() -> None:
    assert "0" not in t("review.working", "en", game_id=7).replace("7", "")
    assert "2" in t("review.working_queue", "en", game_id=7, ahead=2)
