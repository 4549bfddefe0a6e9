"""The "dealing and drawing" fools of the catalogue (fool-variants-catalogue.txt).

Each test quotes the catalogue sentence it checks. The random-game property tests in
test_properties.py run over every one of these presets as well, at every player count the
variant allows.
"""

from __future__ import annotations

import json

import pytest

from engine import Game, RuleError, RuleSet
from engine.cards import Card, bits
from engine.result import Result

from .helpers import finish_bout, legal, play

# ------------------------------------------------------------------ heaped


HEAPED = RuleSet.preset("heaped")


@pytest.mark.parametrize(("n", "deck"), [(2, 36), (3, 36), (4, 36), (6, 36), (4, 52), (6, 24)])
def test_heaped_deals_the_whole_deck_at_once(n: int, deck: int) -> None:
    """ "The Heaped Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that the whole deck is dealt at once." """
    rules = RuleSet.preset("heaped", players=n, deck_size=deck, hand_size=min(6, deck // n))
    for seed in range(5):
        g = Game.new(rules, seed=seed, dealer=seed % n)
        assert g.talon == [] and g.trump_index == -1
        assert [g.hand_size(s) for s in range(n)] == [deck // n] * n
        # the dealer's last card shows trumps and stays in the dealer's hand, seen by all
        assert g.trump_holder == g.dealer and g.hands[g.dealer] >> g.trump_card & 1
        assert g.observation(-1).known_masks[g.dealer] == 1 << g.trump_card
        g.check_invariants()


def test_heaped_the_weaker_trump_leads_every_deal() -> None:
    """ "The player who has the weaker trump leads." """
    for seed in range(20):
        g = Game.new(HEAPED, seed=seed)
        for _ in range(2):
            trumps = [min(bits(g.hands[s] & (0x1FFF << 13 * g.trump)), default=99) for s in (0, 1)]
            assert g.attacker == trumps.index(min(trumps))
            g = Game.new(HEAPED, seed=seed + 100, dealer=1, deal_no=2, previous=_fool(1))


def _fool(seat: int) -> Result:
    return Result("fool", seat, (seat,), None, (1 - seat,))


def test_heaped_refuses_an_uneven_deal() -> None:
    with pytest.raises(RuleError, match="divide evenly"):
        RuleSet.preset("heaped", players=5)
    with pytest.raises(RuleError, match="divide evenly"):
        RuleSet.preset("heaped", players=3, deck_size=52)
    # and the other options it cannot do without
    with pytest.raises(RuleError, match="trump_exchange"):
        RuleSet(variant="heaped")
    assert RuleSet.preset("perevodnoy").with_variant("heaped").transfer == "before_beat"


def test_heaped_plays_without_drawing() -> None:
    g = Game.from_position(
        HEAPED, [["7c", "Ad"], ["8c", "Kc", "6h"]], trump="h", trump_holder=1, attacker=0
    )
    events = play(g, "0 attack 7c", "1 defend 7c/8c")
    events += finish_bout(g)
    assert not [e for e in events if e.kind == "draw"]
    assert legal(g, 1) == {"attack Kc", "attack 6h"} and g.hand_size(0) == 1
    assert Card.parse("Ad") in g.hand(0)
    data = g.to_dict()
    assert Game.from_dict(json.loads(json.dumps(data))).to_dict() == data
