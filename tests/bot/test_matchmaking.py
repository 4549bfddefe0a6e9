"""Quick-match pairing (bot/game/matchmaking.py): closest ratings first, a gap that widens
with waiting, the longest-waiting first, tables of the mode's size."""

from __future__ import annotations

import random

from bot.game.matchmaking import BASE_GAP, WIDEN_PER_SECOND, Waiting, allowed_gap, pair


def ids(tables: list[tuple[Waiting, ...]]) -> list[list[int]]:
    return [[w.user_id for w in t] for t in tables]


def test_the_allowed_gap_widens_with_waiting() -> None:
    assert allowed_gap(0) == BASE_GAP
    assert allowed_gap(60) == BASE_GAP + 60 * WIDEN_PER_SECOND
    assert allowed_gap(-5) == BASE_GAP


def test_closest_ratings_sit_together() -> None:
    q = [
        Waiting(1, "p", 1000, 0),
        Waiting(2, "p", 1500, 1),
        Waiting(3, "p", 1020, 2),
        Waiting(4, "p", 1480, 3),
    ]
    assert ids(pair(q, {}, now=3)) == [[1, 3], [2, 4]]


def test_a_wide_gap_waits_until_the_window_has_grown() -> None:
    q = [Waiting(1, "p", 1000, 0), Waiting(2, "p", 1300, 0)]
    assert pair(q, {}, now=10) == []  # 300 > 100 + 50
    assert ids(pair(q, {}, now=40)) == [[1, 2]]  # 300 ≤ 100 + 200


def test_modes_do_not_mix_and_tables_take_the_modes_size() -> None:
    q = [Waiting(i, "teams", 1000 + i, i) for i in range(1, 6)] + [Waiting(9, "p", 1000, 0)]
    tables = pair(q, {"teams": 4}, now=10)
    assert ids(tables) == [[1, 2, 3, 4]]


def test_the_longest_waiting_player_is_seated_first() -> None:
    # 2 waited longest; 1 and 3 are both 10 away from it; the tie goes to the lower rating,
    # and the one left over waits.
    q = [Waiting(1, "p", 990, 50), Waiting(2, "p", 1000, 0), Waiting(3, "p", 1010, 60)]
    tables = pair(q, {}, now=61)
    assert len(tables) == 1 and tables[0][0].user_id == 2


def test_nobody_is_seated_twice_in_a_big_queue() -> None:
    rng = random.Random(5)
    q = [
        Waiting(i, rng.choice("ab"), rng.randint(600, 1600), rng.uniform(0, 120))
        for i in range(500)
    ]
    tables = pair(q, {"b": 3}, now=120)
    seated = [w.user_id for t in tables for w in t]
    assert len(seated) == len(set(seated))
    for t in tables:
        assert len({w.mode for w in t}) == 1 and len(t) == (3 if t[0].mode == "b" else 2)
        oldest = min(w.since for w in t)
        assert max(w.rating for w in t) - min(w.rating for w in t) <= allowed_gap(120 - oldest)
    assert len(seated) > 400
