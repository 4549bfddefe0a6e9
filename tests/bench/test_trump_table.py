"""Issue 31's trump table (``bench/trump_table.py``) counts what its rows say, and
``--league`` plays each level against each member on each table."""

from __future__ import annotations

import pytest

from bench import ai_strength
from bench.trump_table import TrumpCounts, count_move, held_gap, play_counted, table_text
from engine import Game, RuleSet
from engine.ai import make_player

PODKIDNOY = RuleSet.preset("podkidnoy")
DECK = [f"{r}{s}" for s in "cdhs" for r in "6789TJQKA"]


def _game(defender_hand: str, attack: str, talon: int) -> Game:
    hands = [["8d", "Jc"], defender_hand.split()]
    used = {c for h in hands for c in h} | {attack}
    rest = [c for c in DECK if c not in used]
    return Game.from_position(
        PODKIDNOY,
        hands=hands,
        trump="h",
        talon=rest[:talon],
        table=[[attack, None]],
        attacker=0,
        defender=1,
        discard=rest[talon:],
    )


def _counted(g: Game, move: str) -> TrumpCounts:
    c = TrumpCounts()
    count_move(c, g, 1, next(a for a in g.legal_actions(1) if str(a) == move))
    return c


def test_a_trump_on_a_plain_card_and_a_take_that_kept_one_are_counted() -> None:
    g = _game("6h 9d 8c", "7s", talon=12)
    beat = _counted(g, "1 defend 7s/6h")
    assert (beat.played, beat.on_plain, beat.takes) == (1, 1, 0)
    take = _counted(g, "1 take")
    assert (take.played, take.takes, take.takes_trump_could_beat) == (0, 1, 1)
    no_trump = _counted(_game("9d 8c", "7s", talon=12), "1 take")
    assert (no_trump.takes, no_trump.takes_trump_could_beat) == (1, 0)


def test_moves_once_the_talon_is_short_are_not_counted() -> None:
    g = _game("6h 9d 8c", "7s", talon=4)
    assert _counted(g, "1 defend 7s/6h") == TrumpCounts()


def test_a_counted_game_ends_as_the_arena_would_and_reports_the_trumps_held() -> None:
    g = Game.new(PODKIDNOY, seed=5)
    result, counts = play_counted(g, [make_player("normal", seed=1), make_player("easy", seed=2)])
    assert [c.not_fool for c in counts] == [s not in result.losers for s in range(2)]
    assert all(c.games == 1 and c.held_games == 1 for c in counts)
    assert all(0 <= c.held <= 9 for c in counts)
    text = table_text({"normal": counts[0], "easy": counts[1]})
    assert "trumps held when the talon runs out" in text and "easy" in text


def test_the_gap_in_trumps_held_is_paired_by_deal_with_an_interval_round_its_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    held = [TrumpCounts(held=3, held_games=1), TrumpCounts(held=1, held_games=1)]
    assert held_gap([(held, ["hard", "collector"])], "hard", "collector") == 2
    # the deal's other seating: the same hands, the sides swapped; the deal gives one value
    swapped = [(held, ["hard", "collector"]), (held, ["collector", "hard"])]
    assert held_gap(swapped, "hard", "collector") == 0
    never = [TrumpCounts(), TrumpCounts()]
    assert held_gap([(never, ["hard", "collector"])], "hard", "collector") is None
    half = [(never, ["hard", "collector"]), (held, ["hard", "collector"])]
    assert held_gap(half, "hard", "collector") == 2
    four = [TrumpCounts(held=h, held_games=1) for h in (2, 0, 4, 1)]
    assert held_gap([(four, ["hard", "collector"] * 2)], "hard", "collector") == 2.5

    gaps = [1.0, -1.0] * 50 + [2.0] * 100
    mean, width = ai_strength.mean_and_half(gaps)
    assert mean - width < mean == 1.0 < mean + width
    assert 2 * width < 0.4
    assert ai_strength.mean_and_half([0.5] * 10) == (0.5, 0.0)
    ai_strength._print_trumps("t", ["hard", "collector"], {}, gaps)
    text = capsys.readouterr().out
    assert "+1.00 [" in text and "200 deals" in text


def test_the_league_plays_each_level_against_each_member_on_each_table() -> None:
    labels = {(p, n, tuple(dict.fromkeys(k))) for p, n, k in ai_strength.LEAGUE_MATCHES}
    for preset, size in (("podkidnoy", "2p"), ("perevodnoy", "2p"), ("podkidnoy", "4p")):
        for member in ("collector", "hoarder", "spender", "transferer"):
            assert (preset, size, ("hard", member)) in labels
            assert (preset, size, ("normal", member)) in labels
        assert (preset, size, ("hard", "hard-v1")) in labels
    for kind in ai_strength.SPARRING:
        assert ai_strength.new_player(kind, 0, None, None).kind == kind
