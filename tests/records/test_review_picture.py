"""A reviewed decision's picture and words: the reviewer's own hand only, both moves marked,
the figures with their margin, and no queue count when nobody is waiting."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import simcord

from bench.records import play
from bot.game import reviews
from bot.game.models import SeatInfo
from bot.game.records import build_replay
from bot.game.reviews import ReviewQueue
from bot.i18n import t
from bot.pictures.hands import HandRow, Legend
from bot.surfaces import review_views
from bot.surfaces.move_words import action_words
from engine import Action, ActionKind
from engine.ai.review import Decision, Review
from engine.record import Record
from tests.bot.helpers import leave_running, play_out, service, start_against_computer


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


def _fake_review(hands: list[tuple[int, ...]]) -> Callable[[str, int, int], Review]:
    """A review of the stored game without its playouts: its first decision of the seat
    with a choice, judged a mistake beyond its margin (the figures are this test's); the
    seat's hand then goes to ``hands``."""

    def review(text: str, seat: int, iterations: int) -> Review:
        record = Record.from_text(text)
        game = record.initial_game()
        for i, m in enumerate(record.moves):
            a = m.action
            if a is None:
                continue
            others = [x for x in game.legal_actions(seat) if x != a] if a.seat == seat else []
            if others:
                hands.append(tuple(int(c) for c in game.hand(seat)))
                decision = Decision(i, seat, a, others[0], 0.5, 0.25, 0.6, 0.07, 96)
                return Review(seat, (decision,))
            game.apply(a)
        raise AssertionError("no decision of the seat with a choice")

    return review


async def test_review_answers_privately_with_the_hand_and_the_margin(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/durak review`` end to end on a short game: the working line counts no queue, the
    answer is private, its picture is the reviewer's hand under the table, its words give
    both figures with their margin."""
    channel, alice = world["channel"], world["alice"]
    # No live table pictures (this test's CPU): the review draws its own.
    await service(simcord_env).storage.update_guild_settings(world["guild"].id, pictures=False)
    session = await start_against_computer(channel, alice, simcord_env)
    await play_out(simcord_env, channel, session.game_id, [alice], stop_after=4)
    await leave_running(alice, channel)
    assert session.finished
    hands: list[tuple[int, ...]] = []
    monkeypatch.setattr(reviews, "run_review", _fake_review(hands))
    simcord_env.bot.review_queue = ReviewQueue(ThreadPoolExecutor(1))  # type: ignore[attr-defined]
    drawn: list[tuple[HandRow, ...]] = []
    draw = review_views.render_with_hands

    def spy(scene: Any, rows: tuple[HandRow, ...], legend: tuple[Legend, ...] = ()) -> bytes:
        drawn.append(rows)
        return draw(scene, rows, legend)

    monkeypatch.setattr(review_views, "render_with_hands", spy)
    first = len(simcord_env.http_requests)
    asked = await alice.slash(channel, "durak review")
    await simcord_env.settle()
    assert asked.ephemeral and asked.response is not None
    texts = [
        str(r.json.get("content"))
        for r in simcord_env.http_requests[first:]
        if r.json is not None and r.json.get("content")
    ]
    assert any(x.startswith(f"Reviewing game #{session.game_id}…") for x in texts), texts
    assert not any("ahead of yours" in x or "(0" in x for x in texts), texts
    summary, decision = asked.response.embeds
    assert (summary.title or "").startswith(f"Review of game #{session.game_id}")
    words = decision.description or ""
    assert "25% after your move, 60% after the better one (margin ±7%, over 96" in words
    assert "Your hand then:" in words and "\n• " in words
    assert decision.image.url == "attachment://review1.png"
    assert [a.filename for a in asked.response.attachments] == ["review1.png"]
    ((row,),) = drawn  # one picture, one hand: the reviewer's own, face up
    assert [row.cards] == hands and row.marks


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_pass_is_named_by_its_button(locale: str) -> None:
    """A pass while the defender takes is not "bito": the cards are about to be picked up."""
    done = Action(0, ActionKind.PASS)
    assert t("hand.button.done", locale) in action_words(done, locale, taking=False)
    assert t("hand.button.pass", locale) in action_words(done, locale, taking=True)
