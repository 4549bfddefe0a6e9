"""The pure rating model: finishing order -> ranked teams, OpenSkill's update, display, tiers,
achievements."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.ratings import (
    Participant,
    Skill,
    computer_id,
    display_rating,
    out_groups_from_events,
    placements,
    rate,
    record_outs,
    tier_of,
    week_start,
)
from bot.ratings.achievements import ACHIEVEMENTS, PlayerGame, earned


def _places(placed: list) -> dict[int, int]:  # type: ignore[type-arg]
    return {m.player_id: p.place for p in placed for m in p.members}


def fool_result(fool: int, order: list[int]) -> dict:  # type: ignore[type-arg]
    return {
        "kind": "fool",
        "fool": fool,
        "losers": [fool],
        "losing_team": None,
        "finish_order": order,
    }


def test_free_for_all_order_and_ties() -> None:
    people = [Participant(10 + s, s) for s in range(4)]
    placed = placements(people, fool_result(1, [2, 0, 3]), [[2], [0, 3]], teams=False, n_seats=4)
    assert _places(placed) == {12: 1, 10: 2, 13: 2, 11: 3}


def test_draw_ties_everyone_left() -> None:
    people = [Participant(10 + s, s) for s in range(3)]
    draw = {"kind": "draw", "fool": None, "losers": [], "losing_team": None, "finish_order": [0]}
    assert _places(placements(people, draw, [[0]], teams=False, n_seats=3)) == {10: 1, 11: 2, 12: 2}


def test_forfeit_counts_as_the_fool_even_if_the_computer_then_did_well() -> None:
    people = [Participant(10, 0, forfeit=True), Participant(11, 1), Participant(12, 2)]
    placed = placements(people, fool_result(2, [0, 1]), [[0], [1]], teams=False, n_seats=3)
    assert _places(placed) == {11: 1, 10: 2, 12: 2}


def test_game_ended_by_a_forfeit() -> None:
    people = [Participant(10, 0), Participant(11, 1, forfeit=True), Participant(12, 2)]
    assert _places(placements(people, None, [[2]], teams=False, n_seats=3)) == {12: 1, 10: 2, 11: 3}


def test_abandoned_by_everyone_is_not_rated() -> None:
    people = [Participant(10, 0, forfeit=True), Participant(computer_id("easy"), 1)]
    assert placements(people, None, [], teams=False, n_seats=2) == []


def test_teams_are_rated_as_teams() -> None:
    people = [Participant(10 + s, s) for s in range(4)]
    result = {"kind": "team", "fool": 1, "losers": [1, 3], "losing_team": 1, "finish_order": [0]}
    placed = placements(people, result, [[0]], teams=True, n_seats=4)
    assert sorted((sorted(m.player_id for m in p.members), p.place) for p in placed) == [
        ([10, 12], 1),
        ([11, 13], 2),
    ]


def test_rate_matches_openskill_for_the_same_order() -> None:
    people = [Participant(10 + s, s) for s in range(4)]
    placed = placements(people, fool_result(1, [2, 0, 3]), [[2], [0, 3]], teams=False, n_seats=4)
    skills = {10: Skill(27.0, 5.0), 12: Skill(20.0, 7.0)}
    got = rate(placed, skills)
    model = PlackettLuce()
    teams = [
        [model.rating(mu=s.mu, sigma=s.sigma)] for s in (skills[10], Skill(), skills[12], Skill())
    ]
    want = model.rate(teams, ranks=[2, 3, 1, 2])
    for seat, pid in enumerate((10, 11, 12, 13)):
        assert got[pid][1].mu == want[seat][0].mu
        assert got[pid][1].sigma == want[seat][0].sigma
    assert got[11][0] == Skill()


def test_display_and_tiers() -> None:
    assert display_rating(25.0, 25.0 / 3) == 1000
    assert display_rating(0.0, 10.0) == 400
    assert display_rating(0.0, 30.0) == 0
    assert tier_of(1000).key == "newcomer"
    assert tier_of(1450).key == "gold"
    assert tier_of(5000).key == "diamond"


def test_week_starts_on_monday_utc() -> None:
    monday = 1_763_942_400.0  # 2025-11-24 00:00 UTC, a Monday
    assert week_start(monday) == monday
    assert week_start(monday + 6.9 * 86400) == monday
    assert week_start(monday - 1) == monday - 7 * 86400


def test_out_groups_from_kept_events() -> None:
    events = [["attack", 0], ["out", 0], ["defend", 1], ["out", 2], ["out", 1], ["game_over", 3]]
    assert out_groups_from_events(events, [4, 0, 2, 1]) == [[4], [0], [2, 1]]


def test_at_least_fifteen_achievements_each_reachable() -> None:
    assert len(ACHIEVEMENTS) >= 15
    assert len({a.key for a in ACHIEVEMENTS}) == len(ACHIEVEMENTS)
    first = PlayerGame(
        1,
        place=1,
        place_shared=1,
        players=6,
        teams=False,
        outcome="win",
        preset="podkidnoy",
        display_before=1000,
        display_after=1050,
        opponents=((2, 1300, 2), (computer_id("hard"), 1000, 3)),
        games=1,
        streak=1,
    )
    got = earned(first)
    assert {
        "first_game",
        "first_escape",
        "first_out",
        "big_table",
        "survivor",
        "giant_slayer",
        "beat_hard",
    } <= set(got)
    assert "streak_5" not in got
    assert earned(first, got) == []


def test_record_outs_groups_the_seats_a_move_took_out() -> None:
    groups = record_outs([], [], [2])
    groups = record_outs(groups, [2], [2])  # a move that took nobody out
    groups = record_outs(groups, [2], [2, 0, 3])
    assert groups == [[2], [0, 3]]
