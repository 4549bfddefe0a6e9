"""Big fool (fool-variants-catalogue.txt): two packs, a card never beats its twin, and 52 cards
in hand lose at once. Also the card representation it needs: ids 52-103 are the second pack.

"The Big Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that the game
is played with two decks of cards. You can’t beat off the card of the same suit and value. The
player who has 52 cards and more loses the game at once."

The random-game property tests (test_properties.py) run over the ``big`` preset at every
player count as well.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import Action, Game, IllegalAction, RuleError, RuleSet
from engine.cards import CARDS, PACK, Card, CardError, bits, deck_mask, parse_cards
from engine.variants.big import LOSING_HAND

from .helpers import finish_bout, legal, play

BIG = RuleSet.preset("big")

# ------------------------------------------------------------------ representation


def test_every_card_of_both_packs_round_trips_through_its_notation() -> None:
    for c in CARDS:
        assert Card.parse(str(c)) == c
        assert Card.parse(repr(c)[6:-2]) == c
    assert len(CARDS) == 2 * PACK and len({str(c) for c in CARDS}) == 2 * PACK


def test_a_twin_has_its_cards_face_and_a_marked_notation() -> None:
    six, twin = Card.parse("6s"), Card.parse("6s'")
    assert int(twin) == int(six) + PACK and six.twin == twin and twin.twin == six
    assert (twin.rank, twin.suit, twin.pack) == (six.rank, six.suit, 1) and six.pack == 0
    assert str(twin) == "6s'" and twin.face == six
    assert twin.pretty() == six.pretty() == "6♠"  # the same face for people
    assert Card.parse("10h’") == Card.parse("Th'") == Card.make(10, 2, pack=1)
    assert parse_cards("6s 6s' As'") == [six, twin, CARDS[PACK + 51]]
    for bad in ("'", "6'", "6x'", "1s'"):
        with pytest.raises(CardError):
            Card.parse(bad)


def test_one_pack_games_never_see_a_second_pack_id() -> None:
    for size in (24, 36, 52):
        assert deck_mask(size) >> PACK == 0
        assert deck_mask(size, 2) == deck_mask(size) | deck_mask(size) << PACK
    rules = RuleSet.preset("perevodnoy")
    assert rules.packs == 1 and rules.cards == 36
    g = Game.new(rules, seed=3)
    assert all(h >> PACK == 0 for h in g.hands) and max(g.talon) < PACK


# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize(("n", "deck"), [(2, 36), (4, 36), (6, 36), (2, 52), (6, 52)])
def test_two_packs_every_card_twice(n: int, deck: int) -> None:
    """ "... the game is played with two decks of cards." """
    rules = RuleSet.preset("big", players=n, deck_size=deck)
    assert rules.packs == 2 and rules.cards == 2 * deck
    g = Game.new(rules, seed=n * deck)
    faces = Counter(c % PACK for h in g.hands for c in bits(h))
    faces.update(c % PACK for c in g.talon)
    assert len(faces) == deck and set(faces.values()) == {2}
    assert [bin(h).count("1") for h in g.hands] == [6] * n
    assert len(g.talon) == 2 * deck - 6 * n
    g.check_invariants()


def test_two_packs_of_24_are_refused_with_the_reason() -> None:
    with pytest.raises(RuleError, match="nobody could ever hold 52"):
        RuleSet.preset("big", deck_size=24)


def test_the_twist_combines_with_every_base_game_without_trump_exchange() -> None:
    for base in ("prostoy", "podkidnoy", "perevodnoy", "perevodnoy-kiev"):
        rules = RuleSet.preset(base).with_variant("big")
        assert rules.packs == 2 and rules.trump_exchange == "off"
    with pytest.raises(RuleError, match="six of trumps"):
        RuleSet(variant="big", trump_exchange="lowest")


def test_the_lowest_trump_leads_the_nearer_holder_of_its_twins_first() -> None:
    """Reading: of two players holding the lowest trump's two copies, the one nearer the
    dealer's left leads (the packs are alike: neither copy ranks first)."""
    rules = BIG.replace(players=3)
    for seed in range(200):
        g = Game.new(rules, seed=seed, dealer=seed % 3)
        holders = {}
        for r in range(13):
            for c in (g.trump * 13 + r, g.trump * 13 + r + PACK):
                for s in range(3):
                    if g.hands[s] >> c & 1:
                        holders.setdefault(r, set()).add(s)
        if not holders:
            continue
        low = holders[min(holders)]
        order = [(g.dealer + 1 + i) % 3 for i in range(3)]
        assert g.attacker == next(s for s in order if s in low)


# ------------------------------------------------------------------ beating


def test_a_card_never_beats_its_twin() -> None:
    """ "You can’t beat off the card of the same suit and value." """
    g = Game.from_position(BIG, [["9s", "6c"], ["9s'", "Ts'", "7c"]], trump="h", attacker=0)
    play(g, "0 attack 9s")
    assert legal(g, 1) == {"defend 9s/Ts'", "take"}
    with pytest.raises(IllegalAction):
        g.apply(Action.parse("1 defend 9s/9s'"))


def test_a_trump_never_beats_its_twin_although_a_trump_beats_any_other_suit() -> None:
    """ "You can’t beat off the card of the same suit and value." A trump beats every card
    of the other suits; on its own twin it is just an equal card of its suit."""
    g = Game.from_position(BIG, [["6h'", "6c"], ["6h", "7h'", "Ac"]], trump="h", attacker=0)
    play(g, "0 attack 6h'")
    assert legal(g, 1) == {"defend 6h'/7h'", "take"}
    assert not g.is_legal(Action.parse("1 defend 6h'/6h"))


def test_in_a_transfer_game_the_twin_transfers_but_does_not_beat() -> None:
    """With transfers the twin's rank matches the attack, so it may pass the attack on; it
    still cannot beat it ("You can’t beat off the card of the same suit and value")."""
    rules = RuleSet.preset("perevodnoy", players=3).with_variant("big")
    hands = [["Ks", "6c"], ["Ks'", "7c", "8c"], ["9d", "Td", "Jd"]]
    g = Game.from_position(rules, hands, trump="h", attacker=0)
    play(g, "0 attack Ks")
    moves = legal(g, 1)
    assert "transfer Ks'" in moves and "defend Ks/Ks'" not in moves
    assert moves == {"transfer Ks'", "take"}


def test_both_twins_on_the_table_open_throw_ins_of_their_rank_from_both_packs() -> None:
    g = Game.from_position(
        BIG, [["8c", "8c'", "8d'"], ["9c", "9c'", "Ac", "Kd"]], trump="h", attacker=0
    )
    play(g, "0 attack 8c 8c'")
    play(g, "1 defend 8c/9c", "1 defend 8c'/9c'")
    assert "throw 8d'" in legal(g, 0)


# ------------------------------------------------------------------ 52 cards lose


def _heavy_position(others: list[list[str]], held: int) -> Game:
    """Seat 0 holds ``others[0]`` (it attacks), seat 1 holds ``held`` other cards, the seats
    after hold ``others[1:]``; the talon is out, hearts are trumps."""
    named = {Card.parse(c) for h in others for c in h}
    pool = [CARDS[c] for c in bits(deck_mask(36, 2)) if CARDS[c] not in named]
    hands = [others[0], [str(c) for c in pool[:held]], *others[1:]]
    rules = BIG.replace(players=len(hands))
    return Game.from_position(rules, hands, trump="h", attacker=0, defender=1)


def test_a_player_who_takes_up_to_52_cards_loses_at_once() -> None:
    """ "The player who has 52 cards and more loses the game at once." """
    g = _heavy_position([["6s", "6s'", "7s"]], held=50)
    events = play(g, "0 attack 6s 6s'", "1 take")
    events += finish_bout(g)
    assert g.hand_size(1) == LOSING_HAND
    assert g.result is not None and g.result.fool == 1 and g.result.losers == (1,)
    assert g.result.finish_order == (0,)
    assert [e.kind for e in events][-2:] == ["hand_limit", "game_over"]
    assert not g.table and g.all_legal_actions() == []
    g.check_invariants()


def test_51_cards_do_not_lose() -> None:
    g = _heavy_position([["6s", "6s'", "7s"]], held=49)
    play(g, "0 attack 6s 6s'", "1 take")
    finish_bout(g)
    assert g.result is None and g.hand_size(1) == 51


def test_the_others_are_placed_by_fewer_cards_then_clockwise_from_the_fool() -> None:
    g = _heavy_position([["6s", "6s'", "7s"], ["Ah", "Ah'"], ["Kh"]], held=50)
    play(g, "0 attack 6s 6s'", "1 take")
    finish_bout(g)
    assert g.result is not None and g.result.fool == 1
    # seats 3 and 0 hold one card each (3 is nearer the fool's left), seat 2 two
    assert g.result.finish_order == (3, 0, 2)


def test_in_partnerships_the_fools_team_loses() -> None:
    rules = RuleSet.preset("teams-2v2").with_variant("big")
    g = _heavy_position([["6s", "6s'", "7s"], ["Ah"], ["Kh"]], held=50)
    g = Game.from_dict({**g.to_dict(), "rules": rules.to_dict()})
    play(g, "0 attack 6s 6s'", "1 take")
    finish_bout(g)
    assert g.result is not None and g.result.kind == "team"
    assert g.result.losers == (1, 3) and g.result.fool == 1


# ------------------------------------------------------------------ positions and play


def test_positions_with_twins_round_trip_through_json() -> None:
    g = Game.new(BIG, seed=11)
    rng = random.Random(11)
    for _ in range(40):
        if g.result is not None:
            break
        g.apply(rng.choice(g.all_legal_actions()))
        data = g.to_dict()
        back = Game.from_dict(json.loads(json.dumps(data)))
        assert back.to_dict() == data
        back.check_invariants()
    assert any("'" in c for h in g.to_dict()["hands"] for c in h)


def test_a_position_may_not_hold_the_same_twin_twice() -> None:
    with pytest.raises(Exception, match="twice"):
        Game.from_position(BIG, [["6s'", "7s"], ["6s'"]], trump="h")
    one = RuleSet.preset("podkidnoy")
    with pytest.raises(Exception, match="not in a 36-card pack"):
        Game.from_position(one, [["6s'", "7s"], ["8s"]], trump="h")


def test_the_terminal_menu_shows_one_line_per_distinct_move() -> None:
    from engine.play import _distinct

    g = Game.from_position(BIG, [["6c", "6c'", "8h"], ["9s", "Ts"]], trump="h", attacker=0)
    moves = _distinct(g.legal_actions(0))
    assert sorted(a.notation for a in moves) == ["attack 6c", "attack 6c 6c'", "attack 8h"]
