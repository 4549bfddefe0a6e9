"""Swiss pairing, byes, tie-breaks and the elimination bracket (bot/tournaments/logic.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.tournaments import (
    Entrant,
    Table,
    elimination_round,
    elimination_rounds,
    elimination_winner,
    place_points,
    standings,
    swiss_round,
    table_sizes,
)


def field(n: int) -> list[Entrant]:
    return [Entrant(100 + i, f"p{i}", 1500 - 10 * i, i) for i in range(n)]


def play(groups: list[tuple[int, ...]], number: int, rng: random.Random) -> list[Table]:
    """Finish a round: byes score 1, other tables a random finishing order."""
    out = []
    for i, players in enumerate(groups):
        if len(players) == 1:
            out.append(Table(number, i + 1, players, {players[0]: 1.0}))
            continue
        order = list(players)
        rng.shuffle(order)
        out.append(Table(number, i + 1, players, place_points({p: k for k, p in enumerate(order)})))
    return out


def test_place_points_two_three_four_and_ties() -> None:
    assert place_points({1: 1, 2: 2}) == {1: 1.0, 2: 0.0}
    assert place_points({1: 1, 2: 1}) == {1: 0.5, 2: 0.5}
    assert place_points({1: 1, 2: 2, 3: 3}) == {1: 1.0, 2: 0.5, 3: 0.0}
    four = place_points({1: 1, 2: 2, 3: 3, 4: 4})
    assert four == pytest.approx({1: 1.0, 2: 2 / 3, 3: 1 / 3, 4: 0.0})
    assert place_points({1: 1, 2: 1, 3: 2}) == {1: 0.75, 2: 0.75, 3: 0.0}


@pytest.mark.parametrize("count", [2, 3, 4, 7, 8, 9, 16])
def test_swiss_never_repeats_a_pairing_when_avoidable(count: int) -> None:
    """Rounds up to the count that a round robin allows: no pair meets twice, every player
    sits each round exactly once, and nobody gets a second bye."""
    rng = random.Random(count)
    entrants = field(count)
    tables: list[Table] = []
    rounds = min(count - 1 if count % 2 == 0 else count, 5)
    for number in range(1, rounds + 1):
        groups = swiss_round(entrants, tables, 2)
        seated = [p for g in groups for p in g]
        assert sorted(seated) == sorted(e.user_id for e in entrants)
        tables += play(groups, number, rng)
    pairs = [frozenset(t.players) for t in tables if not t.bye]
    assert len(pairs) == len(set(pairs))
    byes = [t.players[0] for t in tables if t.bye]
    assert len(byes) == len(set(byes))


def test_round_one_pairs_by_rating_and_the_bye_goes_to_the_lowest() -> None:
    groups = swiss_round(field(5), [], 2)
    assert groups == [(100, 101), (102, 103), (104,)]


def test_equal_scores_meet_and_rematch_only_when_unavoidable() -> None:
    entrants = field(4)
    tables = [
        Table(1, 1, (100, 101), {100: 1.0, 101: 0.0}),
        Table(1, 2, (102, 103), {102: 1.0, 103: 0.0}),
    ]
    # Winners meet winners, losers meet losers.
    assert swiss_round(entrants, tables, 2) == [(100, 102), (101, 103)]
    # Two players only: they meet again rather than not play.
    two = field(2)
    once = [Table(1, 1, (100, 101), {100: 1.0, 101: 0.0})]
    assert swiss_round(two, once, 2) == [(100, 101)]


def test_pairing_backs_up_instead_of_leaving_a_rematch() -> None:
    """Top-down, 102 would meet 103 again: the search takes the next one down instead."""
    entrants = field(6)
    tables = [
        Table(1, 1, (102, 103), {102: 1.0, 103: 0.0}),
        Table(1, 2, (100, 104), {100: 1.0, 104: 0.0}),
        Table(1, 3, (101, 105), {101: 1.0, 105: 0.0}),
    ]
    assert swiss_round(entrants, tables, 2) == [(100, 101), (102, 104), (103, 105)]


def test_dropped_players_are_not_paired() -> None:
    entrants = [*field(3)[:2], Entrant(102, "p2", 1480, 2, dropped=True)]
    assert swiss_round(entrants, [], 2) == [(100, 101)]


def test_tie_breaks_buchholz_then_sonneborn_berger_then_rating() -> None:
    a, b, c, d = field(4)
    tables = [
        Table(1, 1, (100, 101), {100: 1.0, 101: 0.0}),
        Table(1, 2, (102, 103), {102: 1.0, 103: 0.0}),
        Table(2, 1, (100, 102), {100: 0.0, 102: 1.0}),
        Table(2, 2, (101, 103), {101: 1.0, 103: 0.0}),
    ]
    rows = standings([a, b, c, d], tables)
    # 102: 2 points; 100 and 101: 1 point each; 103: 0.
    assert rows[0].user_id == 102
    by_id = {r.user_id: r for r in rows}
    # Buchholz: 100 met 101 (1) and 102 (2) = 3; 101 met 100 (1) and 103 (0) = 1.
    assert by_id[100].buchholz == 3.0 and by_id[101].buchholz == 1.0
    assert [r.user_id for r in rows] == [102, 100, 101, 103]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    # Sonneborn-Berger: beaten opponents' scores (100 beat 101, who has 1).
    assert by_id[100].sonneborn == 1.0
    # Equal on everything but rating: the higher rating first.
    flat = standings([a, b], [])
    assert [r.user_id for r in flat] == [100, 101] and [r.rank for r in flat] == [1, 2]


def test_a_bye_scores_a_win_and_adds_no_buchholz() -> None:
    entrants = field(3)
    tables = [Table(1, 1, (100, 101), {100: 1.0, 101: 0.0}), Table(1, 2, (102,), {102: 1.0})]
    by_id = {r.user_id: r for r in standings(entrants, tables)}
    assert by_id[102].score == 1.0 and by_id[102].buchholz == 0.0 and by_id[102].byes == 1


def test_multi_player_tables_are_even_and_avoid_old_tablemates() -> None:
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(7, 3) == [3, 2, 2]
    assert table_sizes(9, 2) == [2, 2, 2, 2]
    entrants = field(8)
    first = swiss_round(entrants, [], 4)
    assert [len(g) for g in first] == [4, 4]
    tables = play(first, 1, random.Random(1))
    second = swiss_round(entrants, tables, 4)
    assert sorted(p for g in second for p in g) == [e.user_id for e in entrants]
    for group in second:
        met = sum(
            1 for x, y in itertools.combinations(group, 2) if any(x in g and y in g for g in first)
        )
        assert met <= 2  # 8 players in two fours: some tablemates must meet again


def test_elimination_bracket_seeds_by_rating_and_byes_go_to_top_seeds() -> None:
    entrants = list(reversed(field(6)))  # sign-up order must not matter, rating does
    assert elimination_rounds(6) == 3 and elimination_rounds(8) == 3 and elimination_rounds(2) == 1
    first = elimination_round(entrants, [], 1)
    # Bracket of 8: 1 v (8), 4 v 5, 2 v (7), 3 v 6 -> seeds 1 and 2 have byes.
    assert first == [(100,), (103, 104), (101,), (102, 105)]
    tables = [
        Table(1, 1, (100,), {100: 1.0}),
        Table(1, 2, (103, 104), {103: 0.0, 104: 1.0}),
        Table(1, 3, (101,), {101: 1.0}),
        Table(1, 4, (102, 105), {102: 0.5, 105: 0.5}),  # a draw: the better seed goes on
    ]
    assert elimination_round(entrants, tables, 2) == [(100, 104), (101, 102)]
    final = [
        Table(2, 1, (100, 104), {100: 0.0, 104: 1.0}),
        Table(2, 2, (101, 102), {101: 1.0, 102: 0.0}),
    ]
    assert elimination_round(entrants, tables + final, 3) == [(104, 101)]
    seeds = [e.user_id for e in field(6)]
    assert elimination_winner(Table(3, 1, (104, 101), None), seeds) == 101
