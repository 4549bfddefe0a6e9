"""The "dealing and drawing" fools of the catalogue (fool-variants-catalogue.txt).

Each test quotes the catalogue sentence it checks. The random-game property tests in
test_properties.py run over every one of these presets as well, at every player count the
variant allows.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import Event, Game, RuleError, RuleSet
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


# ------------------------------------------------------------------ chukchi

CHUKCHI = RuleSet.preset("chukchi")


def test_chukchi_removes_the_talon_and_its_trump_after_the_deal() -> None:
    """ "The Chukchi Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that each of the players gets 6 cards. The deck with a trump is removed from the game and
    then the game follows the rules of the Simple, Thrown on or Transfer Fool." """
    for n in (2, 3, 4, 5):
        g = Game.new(RuleSet.preset("chukchi", players=n), seed=n)
        assert [g.hand_size(s) for s in range(n)] == [6] * n
        assert g.talon == [] and g.discard == 0 and g.trump_holder == -1
        away = [Card.parse(c) for c in g.vstate["out_of_play"]]
        assert len(away) == 36 - 6 * n and away[0] == g.trump_card  # the trump went with it
        assert g.trump == g.trump_card // 13
        g.check_invariants()
        for seat in (-1, *range(n)):
            obs = g.observation(seat)
            # trumps are known and the trump card was seen, but not one talon card
            assert obs.trump_card == g.trump_card and not obs.trump_card_in_talon
            assert obs.talon_count == 0 and obs.discard_mask == 0
            assert obs.out_of_play == len(away) - 1 and obs.out_of_play_seen == 1 << g.trump_card
            assert not obs.unseen_mask >> g.trump_card & 1


def test_chukchi_nobody_draws_and_the_removed_cards_never_reach_the_discard() -> None:
    g = Game.new(CHUKCHI, seed=11)
    away = sum(1 << Card.parse(c) for c in g.vstate["out_of_play"])
    rng = random.Random(3)
    while g.result is None:
        events = g.apply(rng.choice(g.all_legal_actions()))
        assert not [e for e in events if e.kind == "draw"]
        assert not g.discard & away
        g.check_invariants()
    assert g.result.kind in ("fool", "draw")


def test_chukchi_removed_cards_are_hidden_from_everyone() -> None:
    """Swap a removed card with an unknown card of another hand: no seat's view changes."""
    g = Game.new(CHUKCHI, seed=5)
    data = g.to_dict()
    away = data["variant_state"]["out_of_play"]
    x, y = data["hands"][1][0], away[3]
    data["hands"][1] = [y if c == x else c for c in data["hands"][1]]
    data["variant_state"]["out_of_play"] = [x if c == y else c for c in away]
    other = Game.from_dict(data)
    other.check_invariants()
    assert other.observation(0) == g.observation(0)
    assert other.public_observation() == g.public_observation()


def test_chukchi_positions_keep_the_removed_cards() -> None:
    g = Game.new(CHUKCHI, seed=2)
    data = json.loads(json.dumps(g.to_dict()))
    assert Game.from_dict(data).to_dict() == data
    data["variant_state"]["out_of_play"].append(data["hands"][0][0])
    with pytest.raises(Exception, match="twice"):
        Game.from_dict(data)


# ------------------------------------------------------------------ empty

EMPTY = RuleSet.preset("empty")


def test_empty_a_player_holding_cards_draws_nothing() -> None:
    """ "The Empty Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that the player draws the cards from the deck only when he has run out of his own ones." """
    hands = [["7c", "9c", "Ad"], ["8c", "Kc", "6h", "7h"]]
    talon = ["6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
    g = Game.from_position(EMPTY, hands, trump="s", talon=talon, attacker=0)
    events = play(g, "0 attack 7c", "1 defend 7c/8c")
    events += finish_bout(g)
    # neither hand ran out, so nobody draws although both hold fewer than six
    assert not [e for e in events if e.kind == "draw"]
    assert g.hand_size(0) == 2 and g.hand_size(1) == 3 and len(g.talon) == 9


def test_empty_a_player_who_ran_out_draws_a_full_hand() -> None:
    """ "... the player draws the cards from the deck only when he has run out of his own
    ones." """
    hands = [["7c"], ["8c", "Kc", "6h", "7h"]]
    talon = ["6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
    g = Game.from_position(EMPTY, hands, trump="s", talon=talon, attacker=0)
    events = play(g, "0 attack 7c", "1 defend 7c/8c")
    events += finish_bout(g)
    assert [(e.seat, e.amount) for e in events if e.kind == "draw"] == [(0, 6)]
    assert g.hand_size(0) == 6 and g.hand_size(1) == 3 and g.is_active(0)
    assert len(g.talon) == 3


# ------------------------------------------------------------------ albanian

ALBANIAN = RuleSet.preset("albanian")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_albanian_talon_lies_in_descending_order(n: int) -> None:
    """ "The Albanian Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that the cards in the deck are laid according to the descending value order. It means that
    the upper cards of the deck are case, then go kings, queens, knaves, etc." """
    for seed in range(10):
        g = Game.new(RuleSet.preset("albanian", players=n), seed=seed)
        assert g.trump_index == 0 and g.talon[0] == g.trump_card  # trumps still turned up
        ranks = [c % 13 for c in g.talon[1:]]
        assert ranks == sorted(ranks)  # from the bottom up: ascending, so aces on top
        g.check_invariants()


def test_albanian_players_draw_the_highest_cards_first() -> None:
    g = Game.new(ALBANIAN, seed=4)
    top = g.talon[-1]
    assert top % 13 == 12  # an ace (36 cards, two players: 23 face-down talon cards)
    a, d = g.attacker, g.defender
    lead = next(x for x in g.legal_actions(a) if x.kind.value == "attack" and len(x.cards) == 1)
    g.apply(lead)
    g.apply(next(x for x in g.legal_actions(d) if x.kind.value == "take"))
    events = finish_bout(g)
    drawn = [e for e in events if e.kind == "draw"]
    assert drawn[0].seat == a and drawn[0].amount == 1
    assert drawn[0].cards == (top,)


def test_albanian_sampled_worlds_lay_the_talon_the_same_way() -> None:
    from engine.ai.search import build_world, sample_hands, world_template

    g = Game.new(ALBANIAN, seed=9)
    obs = g.observation(0)
    for seed in range(5):
        hands, talon = sample_hands(obs, random.Random(seed))
        world = build_world(obs, world_template(obs), hands, talon)
        ranks = [c % 13 for c in world.talon[1:]]
        assert ranks == sorted(ranks) and world.talon[0] == g.trump_card


# ------------------------------------------------------------------ beaten-off

BEATEN_OFF = RuleSet.preset("beaten-off")


def _beat_off(g: Game, attack: str, defence: str) -> list[Event]:
    a, d = g.attacker, g.defender
    events = play(g, f"{a} attack {attack}", f"{d} defend {attack}/{defence}")
    return events + finish_bout(g)


def test_beaten_off_every_second_bout_goes_back_into_the_talon() -> None:
    """ "The Beaten-off Fool differs from the Simple, Thrown on or Transfer Fool only by the
    fact that every second round of the burned cards goes to the main deck where they are
    shuffled with the others and afterwards taken by the player or the computer." """
    hands = [["7c", "9c", "Jc", "Qc", "Kc", "Ac"], ["8c", "Tc", "6d", "7d", "8d", "9d"]]
    talon = ["6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks"]
    g = Game.from_position(
        BEATEN_OFF, hands, trump_card="6s", talon=talon, attacker=0, variant_state={"beaten": 0}
    )
    before = g.discard  # the cards the position does not place
    first = _beat_off(g, "7c", "8c")  # the first beaten-off bout: discarded as usual
    assert g.discard == before | (1 << Card.parse("7c")) | (1 << Card.parse("8c"))
    assert not [e for e in first if e.kind == "reshuffle"]
    assert g.vstate["beaten"] == 1 and len(g.talon) == 6  # both drew one
    g.apply(next(x for x in g.legal_actions(1) if x.kind.value == "attack"))
    # make seat 0 beat the lead with whatever beats it, then everyone is done
    lead = g.table[0][0]
    g.apply(next(x for x in g.legal_actions(0) if x.kind.value == "defend"))
    second_cards = {lead, g.table[0][1]}
    second = finish_bout(g)
    back = [e for e in second if e.kind == "reshuffle"]
    assert len(back) == 1 and set(back[0].cards) == second_cards
    assert back[0].visible_cards(None) == back[0].cards  # they were face up on the table
    # not in the discard: in the talon (or drawn from it already), the trump still at the bottom
    assert not g.discard & sum(1 << c for c in second_cards)
    assert g.talon[0] == Card.parse("6s") and g.vstate["beaten"] == 2
    g.check_invariants()


def test_beaten_off_reshuffles_are_seeded_by_the_deal() -> None:
    def run(seed: int) -> list[str]:
        g = Game.new(BEATEN_OFF, seed=seed)
        rng = random.Random(1)
        log = []
        while g.result is None:
            for e in g.apply(rng.choice(g.all_legal_actions())):
                if e.kind in ("reshuffle", "draw"):
                    log.append(e.describe(e.seat))
        return log

    assert run(8) == run(8)
    assert any("shuffled back" in line for line in run(8))
    assert run(8) != run(9)


def test_beaten_off_counter_is_public_and_reaches_sampled_worlds() -> None:
    from engine.ai.search import build_world, sample_hands, world_template

    g = Game.new(BEATEN_OFF, seed=3)
    rng = random.Random(2)
    while g.vstate["beaten"] < 1:
        g.apply(rng.choice(g.all_legal_actions()))
    obs = g.observation(0)
    assert obs.variant_state == {"beaten": g.vstate["beaten"]}  # the seed stays private
    world = build_world(obs, world_template(obs), *sample_hands(obs, random.Random(0)))
    assert world.vstate["beaten"] == g.vstate["beaten"]


# ------------------------------------------------------------------ magadan

MAGADAN = RuleSet.preset("magadan")


def test_magadan_five_of_six_dealt_cards_stay_closed_even_to_their_owner() -> None:
    """ "... from the 6 cards which are laid out, 5 are not available for the game." """
    g = Game.new(MAGADAN, seed=6)
    assert [g.hand_size(s) for s in (0, 1)] == [1, 1]
    assert [len(c) for c in g.vstate["closed"]] == [5, 5]
    g.check_invariants()
    obs = g.observation(0)
    assert obs.hand_mask == g.hands[0] and obs.closed == (5, 5) and obs.hand_sizes == (1, 1)
    assert {a.cards for a in obs.legal_actions if a.kind.value == "attack"} <= {
        (c,) for c in bits(g.hands[0])
    }
    # swap one of seat 0's own closed cards with a face-down talon card: nobody's view changes
    data = g.to_dict()
    x, y = data["variant_state"]["closed"][0][2], data["talon"][5]
    data["variant_state"]["closed"][0][2], data["talon"][5] = y, x
    other = Game.from_dict(data)
    other.check_invariants()
    for seat in (-1, 0, 1):
        assert other.observation(seat) == g.observation(seat)


def _magadan_position(talon: int = 6) -> Game:
    return Game.from_position(
        MAGADAN,
        [["7c"], ["8c"]],
        trump_card="6s",
        talon=["6s", "7s", "8s", "9s", "Ts", "Js"][:talon],
        attacker=0,
        variant_state={"closed": [["9c", "Tc", "Jc"], ["9d", "Td", "Jd", "Qd", "Kd"]]},
    )


def test_magadan_a_beaten_off_bout_opens_one_of_the_defenders_closed_cards() -> None:
    """ "Once the cards are burned one of the 5 cards opens. Thus, in case the player lead,
    the computer opens one of his closed cards." """
    g = _magadan_position()
    events = play(g, "0 attack 7c", "1 defend 7c/8c")
    events += finish_bout(g)
    opened = [e for e in events if e.kind == "open"]
    assert [(e.seat, [str(c) for c in e.cards]) for e in opened] == [(1, ["9d"])]
    assert opened[0].visible_cards(None) == opened[0].cards  # turned face up for all to see
    assert g.vstate["closed"][1] == ["Td", "Jd", "Qd", "Kd"]
    assert g.observation(-1).known_masks[1] >> Card.parse("9d") & 1
    # the refill counts closed cards: seat 0 held 0 + 3 closed and draws 3, seat 1 (1 + 4) one
    assert [(e.seat, e.amount) for e in events if e.kind == "draw"] == [(0, 3), (1, 1)]
    g.check_invariants()


def test_magadan_every_closed_card_opens_when_the_talon_is_out() -> None:
    """ "When the deck is out, all of the unavailable cards are open and come into game." """
    g = _magadan_position(talon=3)
    events = play(g, "0 attack 7c", "1 take")  # seat 0 has nothing to pile on: the bout ends
    events += finish_bout(g)
    # seat 0 (no hand, 3 closed) draws the last 3 cards; seat 1 holds 2 + 5 closed and draws
    # nothing; the talon is out, so every closed card is turned up
    opened = {e.seat: {str(c) for c in e.cards} for e in events if e.kind == "open"}
    assert opened == {0: {"9c", "Tc", "Jc"}, 1: {"9d", "Td", "Jd", "Qd", "Kd"}}
    assert not g.talon and not any(g.vstate["closed"])
    assert g.observation(-1).closed == ()
    assert g.hand_size(0) == 6 and g.hand_size(1) == 7
    g.check_invariants()


def test_magadan_the_attack_cap_counts_the_defenders_open_cards_only() -> None:
    """The reading written down in the variant: a defender with one open card and five closed
    ones faces a lead of one card, not two, and nothing may be thrown in after it."""
    g = Game.from_position(
        MAGADAN,
        [["7c", "7d", "7h"], ["8c"]],
        trump_card="6s",
        talon=["6s", "7s", "8s", "9s", "Ts", "Js"],
        attacker=0,
        variant_state={"closed": [[], ["9d", "Td", "Jd", "Qd", "Kd"]]},
    )
    leads = [a for a in legal(g, 0) if a.startswith("attack")]
    assert leads and all(len(a.split()[1:]) == 1 for a in leads), leads
    play(g, "0 attack 7c")
    assert not [a for a in legal(g, 0) if a.startswith("attack")]


# ------------------------------------------------------------------ armenian

ARMENIAN = RuleSet.preset("armenian")


def _armenian_position(talon: list[str]) -> Game:
    return Game.from_position(
        ARMENIAN, [["7c", "Ad"], ["8c", "Kc", "6h"]], trump_card="6s", talon=talon, attacker=0
    )


def test_armenian_the_top_card_of_the_talon_may_be_led() -> None:
    """ "The Armenian Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that a player can not only lead his own cards but with the card on top of the main deck
    as well." """
    g = _armenian_position(["6s", "9s", "Th", "9c"])
    assert legal(g, 0) == {"attack 7c", "attack Ad", "top"}
    hand = g.hands[0]
    events = play(g, "0 top")
    assert [e.kind for e in events] == ["top", "attack"]
    assert events[0].visible_cards(None) == (Card.parse("9c"),)  # turned over for all to see
    assert g.table == [[Card.parse("9c"), -1]] and g.hands[0] == hand  # the hand is unchanged
    assert g.talon == [Card.parse(c) for c in ("6s", "9s", "Th")]
    # an ordinary bout from here: the defender beats, nobody has a nine to throw in
    play(g, "1 defend 9c/Kc")
    events = finish_bout(g)
    # the attacker, holding two, draws the three left; the defender gets none
    assert [(e.seat, e.amount) for e in events if e.kind == "draw"] == [(0, 3)]


def test_armenian_the_top_card_is_unseen_until_it_is_led() -> None:
    g = _armenian_position(["6s", "9s", "Th", "9c"])
    data = g.to_dict()
    data["talon"] = ["6s", "9s", "9c", "Th"]  # another top card: the lead looks the same
    other = Game.from_dict(data)
    for seat in (-1, 0, 1):
        assert other.observation(seat) == g.observation(seat)


def test_armenian_leading_the_turned_up_trump_empties_the_talon() -> None:
    g = _armenian_position(["6s"])
    play(g, "0 top")
    assert g.talon == [] and g.trump_index == -1 and g.table == [[Card.parse("6s"), -1]]
    assert legal(g, 1) == {"take"}  # nothing beats the six of trumps but a higher trump
    play(g, "1 take")
    finish_bout(g)
    assert g.hand_size(1) == 4 and g.hand_size(0) == 2 and (g.attacker, g.defender) == (0, 1)


def test_armenian_top_is_refused_with_reasons() -> None:
    from engine import Action, ActionKind, IllegalAction

    g = _armenian_position(["6s", "9s"])
    with pytest.raises(IllegalAction) as info:
        g.apply(Action(1, ActionKind.TOP))
    assert info.value.code == "not_attacker"
    play(g, "0 attack 7c")
    with pytest.raises(IllegalAction) as info:
        g.apply(Action(0, ActionKind.TOP))
    assert info.value.code == "bout_running"
    assert Action.parse("0 top") == Action(0, ActionKind.TOP)
    with pytest.raises(IllegalAction):
        g.apply(Action(0, ActionKind.TOP, (Card.parse("9s"),)))


@pytest.mark.parametrize(
    "name",
    ["chukchi", "empty", "albanian", "beaten-off", "magadan", "armenian", "trump-fool", "three"],
)
def test_talon_variants_refuse_a_deal_that_leaves_no_talon(name: str) -> None:
    """Six players with 36 cards leave no talon: these rules would never apply, so the
    combination is refused with the reason rather than silently played as the base game."""
    with pytest.raises(RuleError, match="leave no talon"):
        RuleSet.preset(name, players=6)
    assert RuleSet.preset(name, players=6, deck_size=52).talon_size == 16


@pytest.mark.parametrize("name", ["trump-fool", "three"])
def test_trump_fool_and_three_refuse_four_hands_of_a_24_card_pack(name: str) -> None:
    """Four hands of six take the whole 24-card pack: the trump exchange and the three-card
    lead both need a talon, so the deal is refused with the message the others give."""
    with pytest.raises(RuleError, match="4 hands of 6 leave no talon of a 24-card pack"):
        RuleSet.preset(name, players=4, deck_size=24)
    assert RuleSet.preset(name, players=3, deck_size=24).talon_size == 6


# ------------------------------------------------------------------ poker

POKER = RuleSet.preset("poker")


def _poker_position(hand: list[str]) -> Game:
    return Game.from_position(
        POKER,
        [["7c", "9d", "Ad", "Kh", "Qh", "Jh"], hand],
        trump_card="6s",
        talon=["6s", "9s", "Th", "8h", "7h"],
        attacker=0,
    )


def test_poker_a_defender_under_six_swaps_two_cards_with_the_talon() -> None:
    """ "The Poker Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that the player before he beats off his opponent’s card has the right to change 2 cards
    from the deck , but only in case he’s got less than 6 cards." """
    g = _poker_position(["8c", "Kc", "6h", "6d"])
    play(g, "0 attack 7c")
    swaps = {a for a in legal(g, 1) if a.startswith("swap")}
    assert len(swaps) == 6 and "swap 6d 6h" in swaps  # every pair of the four cards
    events = play(g, "1 swap 6d 6h")
    assert [e.kind for e in events] == ["swap", "draw"]
    # the top two come into the hand; the two go face down above the turned-up trump
    assert {str(c) for c in g.hand(1)} == {"8c", "Kc", "7h", "8h"}
    assert [str(Card(c)) for c in g.talon] == ["6s", "6d", "6h", "9s", "Th"]
    assert g.trump_index == 0
    # the others see that two cards went back, not which, nor what came
    assert events[0].visible_cards(None) == () and events[1].visible_cards(0) == ()
    assert events[0].visible_cards(1) == tuple(Card.parse(c) for c in ("6d", "6h"))
    # once per bout
    assert not {a for a in legal(g, 1) if a.startswith("swap")}
    play(g, "1 defend 7c/8c")
    g.check_invariants()


def test_poker_no_swap_with_six_cards_or_after_the_bout_is_answered() -> None:
    g = _poker_position(["8c", "Kc", "6h", "6d", "7d", "8d"])
    play(g, "0 attack 7c")
    assert not {a for a in legal(g, 1) if a.startswith("swap")}  # "less than 6 cards"
    from engine import Action, ActionKind, IllegalAction

    with pytest.raises(IllegalAction) as info:
        g.apply(Action.parse("1 swap 6h 6d"))
    assert info.value.code == "hand_full"
    with pytest.raises(IllegalAction) as info:
        g.apply(Action(0, ActionKind.SWAP, (Card.parse("9d"), Card.parse("Ad"))))
    assert info.value.code == "not_defender"


def test_poker_a_known_card_is_seen_leaving_the_hand() -> None:
    g = _poker_position(["8c", "Kc", "6h", "6d"])
    g.known[1] = 1 << Card.parse("Kc")  # it was picked up face up earlier
    play(g, "0 attack 7c")
    events = play(g, "1 swap Kc 6d")
    assert events[0].visible_cards(None) == (Card.parse("Kc"),)
    assert g.observation(-1).known_masks[1] == 0


# ------------------------------------------------------------------ the terminal game


@pytest.mark.parametrize(
    "name", ["heaped", "chukchi", "empty", "albanian", "beaten-off", "magadan", "armenian", "poker"]
)
def test_the_terminal_game_plays_each_variant(name: str) -> None:
    """A person picking options at random plays a whole game of each variant: the menus name
    the variants' own moves ('lead the top card', 'swap'), and nothing crashes."""
    from tests.terminal.scripted import play as play_terminal
    from tests.terminal.scripted import random_option

    texts = []
    for seed in range(3):
        code, text, _ = play_terminal(
            ["--preset", name, "--seed", str(seed), "--ai", "easy"], random_option(seed)
        )
        assert code == 0 and "Traceback" not in text and text.count("Game over.") == 1
        texts.append(text)
    joined = "\n".join(texts)
    if name == "magadan":
        assert " closed, " in joined
    if name == "armenian":
        assert "lead the top card of the talon (unseen)" in joined
    if name == "chukchi":
        assert "left the game with the talon" in joined and "Out of play: 24" in joined
