"""The rating board's page buttons name the board they page (mode, season, scope)."""

from __future__ import annotations

from bot.surfaces.leaderboard_views import LeaderboardButton
from bot.surfaces.standings_views import RatingBoard, parse_rating_sort


def test_rating_board_token_round_trips_and_fits_a_custom_id() -> None:
    for board in (
        RatingBoard(),
        RatingBoard("perevodnoy-pass-card", 12, "server"),
        RatingBoard("", None, "all"),
    ):
        back = parse_rating_sort(board.token())
        assert back is not None
        assert (back.mode, back.season, back.scope) == (board.mode, board.season, board.scope)
        button = LeaderboardButton("month", board.token(), 999, "next", "Next")
        assert len(button.item.custom_id or "") <= 100


def test_forged_rating_tokens_are_refused() -> None:
    assert parse_rating_sort("rating") is not None
    for bad in ("rating~x", "rating~~abc~server", "rating~~1~galaxy", "fools", "rating:1"):
        assert parse_rating_sort(bad) is None, bad
