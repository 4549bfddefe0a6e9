"""The catalogue's scoring and hidden-information variants (docs/variants.md, the 'scoring'
and 'hidden information' families).

Each test quotes the catalogue sentence it checks. The random-game property tests of
test_properties.py (card conservation, every game ends, illegal actions refused, observations
independent of hidden cards) run over these presets at every player count they allow; the tests
here check what makes each variant different.
"""

from __future__ import annotations

import random

import pytest

from engine import Game, RuleError, RuleSet
from engine.ai import make_player
from engine.ai.arena import play_game
from engine.cards import Card, mask_of

from .helpers import finish_bout, legal, play


def cards(*names: str) -> int:
    return mask_of(int(Card.parse(c)) for c in names)


# ------------------------------------------------------------------ round

ROUND = RuleSet.preset("round")


def test_round_is_for_two_players_only() -> None:
    """ "each time the card is burn or taken, the computer and the player exchange their own
    cards": there must be exactly one other hand to exchange with."""
    assert ROUND.players == 2
    for n in (3, 4, 5, 6):
        with pytest.raises(RuleError, match="exactly two"):
            RuleSet.preset("round", players=n)
    with pytest.raises(RuleError, match="exactly two"):
        RuleSet.preset("perevodnoy", players=3).with_variant("round")


def test_round_players_exchange_hands_after_a_beaten_bout() -> None:
    """ "The Round Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that each time the card is burn or taken, the computer and the player exchange their own
    cards." """
    hands = [["6c", "7d", "Ks"], ["8c", "9s", "Jd", "Qd"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h", "8h", "9h", "Th"])
    play(g, "0 attack 6c", "1 defend 6c/8c")
    events = finish_bout(g)
    kinds = [e.kind for e in events]
    assert kinds.index("beaten") < kinds.index("swap_hands") < kinds.index("draw")
    # seat 0 now holds what seat 1 kept (9s Jd Qd) and refills from the talon first
    assert g.hands[0] & cards("9s", "Jd", "Qd") == cards("9s", "Jd", "Qd")
    assert g.hands[1] & cards("7d", "Ks") == cards("7d", "Ks")
    g.check_invariants()
    # roles stay with the people: the defender beat off, so seat 1 leads
    assert (g.attacker, g.defender) == (1, 0)


def test_round_exchange_after_a_pick_up_hands_the_pile_over() -> None:
    """ "... each time the card is burn or taken ... exchange their own cards." """
    hands = [["6c", "Ks"], ["8d", "9s"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h"])
    play(g, "0 attack 6c", "1 take")
    finish_bout(g)
    # seat 1 took 6c; the hands were exchanged before the refill
    assert g.hands[0] & cards("6c", "8d", "9s") == cards("6c", "8d", "9s")
    # the picked-up card is public knowledge and follows the cards to seat 0
    assert g.public_observation().known_masks[0] == cards("6c")


def test_round_each_player_remembers_the_hand_it_gave_away() -> None:
    """Whoever hands their cards over knows them; the channel does not."""
    hands = [["6c", "7d", "Ks"], ["8c", "9s", "Jd", "Qd"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h", "8h", "9h", "Th"])
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    gave0, gave1 = cards("7d", "Ks"), cards("9s", "Jd", "Qd")
    assert g.observation(0).known_masks[1] == gave0
    assert g.observation(1).known_masks[0] == gave1
    assert g.public_observation().known_masks == (0, 0)
    # a card played from the given hand is no longer counted as held
    play(g, "1 attack 7d")
    assert g.observation(0).known_masks[1] == cards("Ks")


def test_round_no_exchange_once_a_player_is_out() -> None:
    """With the talon out, whoever has got rid of their cards has won: no exchange then."""
    hands = [["6c"], ["8c", "9s"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=[])
    events = play(g, "0 attack 6c", "1 defend 6c/8c")
    events += finish_bout(g)
    assert "swap_hands" not in [e.kind for e in events]
    assert g.result is not None and g.result.fool == 1


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("kind", ["normal", "hard"])
def test_round_computer_players_finish(kind: str) -> None:
    for seed in range(2 if kind == "hard" else 20):
        g = Game.new(ROUND, seed)
        players = [make_player(kind, seed=seed, max_iterations=4) for _ in range(2)]
        assert play_game(g, players).kind in ("fool", "draw")
        g.check_invariants()


def _random_finish(g: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while g.result is None:
        g.apply(rng.choice(g.all_legal_actions()))
        g.check_invariants()
    return g


def test_round_random_games_keep_every_card() -> None:
    for seed in range(40):
        g = _random_finish(Game.new(ROUND, seed), seed)
        assert not g.talon and not g.table


# ------------------------------------------------------------------ point

POINT = RuleSet.preset("point")


def test_point_winner_beat_off_more_cards_even_if_left_holding() -> None:
    """ "The Point Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that
    the winner is the one who beats off the larger number of the opponent’s cards." """
    g = Game.from_position(POINT, [["6c"], ["8c", "9d"]], trump="h")
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    # seat 0 went out first, but seat 1 beat off one of its cards and seat 0 none
    assert g.result is not None and g.result.fool == 0 and g.result.losers == (0,)
    assert g.result.finish_order == (1,)
    assert g.public_observation().variant_state == {"points": [0, 1]}


def test_point_equal_points_fall_back_to_the_ordinary_result() -> None:
    """Equal points: the one left holding cards is the fool, as in the base game."""
    g = Game.from_position(POINT, [["6c"], ["7d"]], trump="h")
    play(g, "0 attack 6c", "1 take")
    finish_bout(g)
    assert g.result is not None and g.result.fool == 1


def test_point_counts_only_the_attack_cards_of_beaten_bouts() -> None:
    hands = [["6c", "6d", "7s"], ["8c", "8d", "Ks", "Qs"]]
    g = Game.from_position(POINT, hands, trump="h", talon=["9h", "Th", "Jh"])
    play(g, "0 attack 6c 6d", "1 defend 6c/8c", "1 defend 6d/8d")
    finish_bout(g)
    assert g.vstate["points"] == [0, 2]
    play(g, "1 attack Ks", "0 take")  # a taken bout scores nothing
    finish_bout(g)
    assert g.vstate["points"] == [0, 2]


def test_point_three_players_rank_every_seat_by_points() -> None:
    """With three or more the fewest points is the fool and the others are placed by points."""
    rules = RuleSet.preset("point", players=3)
    g = Game.from_position(
        rules, [["6c"], ["8c", "9d"], ["Ts"]], trump="h", variant_state={"points": [1, 5, 3]}
    )
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    assert g.result is None  # seats 1 and 2 still hold cards
    play(g, "1 attack 9d", "2 take")
    finish_bout(g)
    assert g.result is not None
    assert g.result.fool == 0 and g.result.finish_order == (1, 2)


def test_point_and_epaulet_refuse_partnerships() -> None:
    for name in ("point", "epaulet"):
        with pytest.raises(RuleError, match="each player"):
            RuleSet.preset("teams-2v2").replace(variant=name)


# ------------------------------------------------------------------ epaulet

EPAULET = RuleSet.preset("epaulet")


def test_epaulet_is_a_pair_of_equal_cards_the_opponent_takes() -> None:
    """ "An “epaulet’ is the situation in which the opponent takes 2 cards equal in value, not 3
    or 4." """
    hands = [["7s", "8s", "Qd"], ["9c", "9d", "Ks"]]
    g = Game.from_position(
        EPAULET, hands, trump="h", talon=["6h", "7h", "8h"], attacker=1, defender=0
    )
    play(g, "1 attack 9c 9d", "0 take")
    finish_bout(g)
    assert g.vstate["epaulets"] == [[], [9]]
    assert g.observation(0).variant_state == {"epaulets": [[], [9]]}


def test_epaulet_three_of_a_rank_is_no_epaulet() -> None:
    hands = [["9h", "8s", "Qd"], ["9c", "9d", "Ks"]]
    g = Game.from_position(
        EPAULET, hands, trump="h", talon=["6h", "7h", "8h"], attacker=1, defender=0
    )
    play(g, "1 attack 9c 9d", "0 defend 9c/9h", "0 take")
    finish_bout(g)
    assert not g.vstate.get("epaulets")


def test_epaulet_most_sets_wins_and_stronger_sets_break_a_tie() -> None:
    """ "the winner is the one who collects more “epaulet” sets of senior cards. In case the
    number of the sets is the same, the winner is the one whose “epaulets” consist of the cards
    of a stronger value." """
    # seat 0 goes out first, but seat 1's epaulet of aces beats seat 0's nines
    g = Game.from_position(
        EPAULET, [["6c"], ["8c", "9d"]], trump="h", variant_state={"epaulets": [[9], [14]]}
    )
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    assert g.result is not None and g.result.fool == 0
    # more sets beat stronger ones
    g = Game.from_position(
        EPAULET, [["6c"], ["8c", "9d"]], trump="h", variant_state={"epaulets": [[7, 6], [14]]}
    )
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    assert g.result is not None and g.result.fool == 1


@pytest.mark.parametrize("name", ["point", "epaulet"])
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_scored_games_have_one_fool_or_a_draw(name: str, n: int) -> None:
    rules = RuleSet.preset(name, players=n)
    for seed in range(15):
        g = _random_finish(Game.new(rules, seed), seed)
        r = g.result
        assert r is not None and sorted([*r.losers, *r.finish_order]) == list(range(n))


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("name", ["point", "epaulet"])
def test_scored_games_computer_players_finish(name: str) -> None:
    for n in (2, 4):
        g = Game.new(RuleSet.preset(name, players=n), n)
        players = [
            make_player("hard" if s == 0 else "normal", seed=s, max_iterations=4) for s in range(n)
        ]
        assert play_game(g, players).kind in ("fool", "draw")


# ------------------------------------------------------------------ take on trust

TRUST = RuleSet.preset("take-on-trust")


def _catalogue_example() -> Game:
    """ "the player leads the 6 of clubs, the computer bets it with the 8 of clubs, then the
    player throws the 8 of spades, the computer beats it with the 7 of spades, laying the card
    with its shirt up, so that the player can’t see its value." (seat 0: the player)"""
    hands = [["6c", "8s", "Ad"], ["8c", "7s", "Kd", "9h"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6h", "7h", "Th", "Jh", "Qh"])
    play(g, "0 attack 6c", "1 defend 6c/8c", "0 throw 8s", "1 conceal 8s/7s")
    return g


def test_trust_face_down_card_is_hidden_from_everyone_else() -> None:
    """ "Each player can conceal from the other player the cards he beats. The other player is
    supposed to check whether his opponent’s declarations are truthful." """
    g = _catalogue_example()
    for seat in (-1, 0):
        obs = g.observation(seat)
        assert obs.table == ((Card.parse("6c"), Card.parse("8c")), (Card.parse("8s"), None))
        assert obs.face_down == (1,) and obs.judging == 1
    # the face-down card is one of the cards seat 0 cannot place
    assert g.observation(0).unseen_mask == cards("7s", "Kd", "9h", "6h", "7h", "Th", "Jh", "Qh")
    mine = g.observation(1)
    assert mine.table[1] == (Card.parse("8s"), Card.parse("7s")) and mine.face_down == (1,)
    # the public event names the attack card only
    g2 = _catalogue_example().to_dict()
    assert g2["variant_state"]["pending"] == int(Card.parse("7s"))


def test_trust_only_the_attacker_gives_a_verdict_first() -> None:
    g = _catalogue_example()
    assert legal(g, 0) == {"accept", "challenge"}
    assert legal(g, 1) == set()
    assert {a.kind.value for a in g.all_legal_actions()} == {"accept", "challenge"}


def test_trust_a_lie_takes_the_table() -> None:
    """ "If he does not agree, the computer takes the cards, since he beat the 8 with a weaker
    card." """
    g = _catalogue_example()
    events = play(g, "0 challenge")
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.visible_cards(None) == (Card.parse("8s"), Card.parse("7s")) and not reveal.amount
    assert g.hands[1] & cards("6c", "8c", "8s", "7s") == cards("6c", "8c", "8s", "7s")
    assert not g.table and (g.attacker, g.defender) == (0, 1)  # the defender took


def test_trust_a_wrongful_challenge_takes_the_table() -> None:
    """ "In case the computer beat the player’s card with a stronger card of his, the whole
    bunch would go to the player, since he did not agree with the combination." """
    hands = [["6c", "8s", "Ad"], ["8c", "9s", "Kd", "9h"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6h", "7h", "Th", "Jh", "Qh"])
    play(g, "0 attack 6c", "1 defend 6c/8c", "0 throw 8s", "1 conceal 8s/9s")
    events = play(g, "0 challenge")
    assert next(e for e in events if e.kind == "reveal").amount == 1
    assert g.hands[0] & cards("6c", "8c", "8s", "9s") == cards("6c", "8c", "8s", "9s")
    assert not g.table and (g.attacker, g.defender) == (1, 0)  # the defender leads next


def test_trust_accepted_card_counts_as_beaten_and_is_never_shown() -> None:
    """ "In case the player agrees with such a combination, the cards are considered to be
    burnt." """
    g = _catalogue_example()
    events = play(g, "0 accept")
    events += finish_bout(g)
    beaten = [e for e in events if e.kind == "beaten"]
    # three cards go to the discard, not four: the narration counts only those
    assert [e.amount for e in beaten] == [3]
    assert beaten[0].describe() == "bito: 3 cards discarded"
    seven = cards("7s")
    # the face-up cards go to the discard; the face-down one leaves the game unseen, with the
    # cards the engine keeps out of play (counted, never shown, sampled by the hard player)
    assert g.discard & cards("6c", "8c", "8s", "7s") == cards("6c", "8c", "8s")
    assert g.vstate["out_of_play"] == ["7s"]
    g.check_invariants()
    for seat in (-1, 0, 1):
        obs = g.observation(seat)
        assert obs.out_of_play == 1 and not obs.discard_mask & seven
        assert "7s" not in str(obs.variant_state)
    for e in events:
        assert Card.parse("7s") not in e.visible_cards(None)


def test_trust_face_down_rank_opens_no_throw_in() -> None:
    hands = [["6c", "7d", "Ad"], ["8c", "7s", "Kd", "9h"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6h", "7h", "Th", "Jh", "Qh"])
    play(g, "0 attack 6c", "1 conceal 6c/7s", "0 accept")
    # a face-up 7 would let seat 0 throw its 7d in; the face-down one must not tell
    assert "throw 7d" not in legal(g, 0)
    assert legal(g, 0) == {"pass"}


def test_trust_conceal_forgets_what_was_known_of_the_hand() -> None:
    hands = [["6c", "7c", "Ad"], ["8c", "9s", "Kd", "9h"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6h", "7h"], known=[[], ["9s", "Kd"]])
    play(g, "0 attack 6c", "1 conceal 6c/9s")
    assert g.public_observation().known_masks[1] == 0


def test_trust_taking_back_face_down_cards_keeps_them_hidden() -> None:
    hands = [["6c", "6d", "Ad", "8d"], ["8c", "7s", "Kd", "9h"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6h", "7h", "Th", "Jh", "Qh"])
    play(g, "0 attack 6c", "1 conceal 6c/7s", "0 accept", "0 throw 6d", "1 take")
    events = finish_bout(g)
    picked = next(e for e in events if e.kind == "picked_up")
    assert Card.parse("7s") not in picked.visible_cards(None) and picked.amount >= 3
    assert not g.public_observation().known_masks[1] >> int(Card.parse("7s")) & 1


def test_trust_three_players_the_principal_attacker_judges() -> None:
    rules = RuleSet.preset("take-on-trust", players=3)
    hands = [["6c", "Ad"], ["8c", "7s", "Kd"], ["6d", "Qs"]]
    g = Game.from_position(rules, hands, trump="h", talon=["6h", "7h", "Th"])
    play(g, "0 attack 6c", "1 conceal 6c/7s")
    assert legal(g, 0) == {"accept", "challenge"}
    assert legal(g, 2) == set()  # the co-attacker may not throw in or judge meanwhile
    play(g, "0 accept", "0 pass")
    assert "throw 6d" in legal(g, 2)


def test_trust_observation_does_not_depend_on_the_face_down_card() -> None:
    g = _catalogue_example()
    data = g.to_dict()
    # put another unseen card face down (9h from the hand), 7s in the hand: seat 0 cannot tell
    data["hands"][1] = ["7s" if c == "9h" else c for c in data["hands"][1]]
    data["table"][1][1] = "9h"
    data["variant_state"] = {**data["variant_state"], "pending": int(Card.parse("9h"))}
    data["variant_state"]["down"] = [[int(Card.parse("9h")), 1]]
    other = Game.from_dict(data)
    assert other.observation(0) == g.observation(0)
    assert other.public_observation() == g.public_observation()


def test_trust_round_trips_while_a_verdict_is_pending() -> None:
    import json

    g = _catalogue_example()
    h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert h.to_dict() == g.to_dict()
    for move in ("0 accept", "0 pass"):
        assert play(h, move) == play(g, move)
    assert h.to_dict() == g.to_dict()


def test_trust_computer_challenges_a_sure_lie() -> None:
    """The computer decides from its own observation: it holds every spade above the 8 and the
    trumps are gone, so a face-down card cannot beat its 8 of spades."""
    hands = [["6c", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"], ["8c", "7s", "Kd"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6d"])  # the rest: discarded
    play(g, "0 attack 8s", "1 conceal 8s/7s")
    choice = make_player("normal", seed=0).choose(g.observation(0))
    assert choice is not None and choice.kind.value == "challenge"


@pytest.mark.slow(sample=4)  # whole games per case: make test runs two seats, CI all
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_trust_computer_players_finish(n: int) -> None:
    rules = RuleSet.preset("take-on-trust", players=n)
    for seed in range(3):
        g = Game.new(rules, seed)
        players = [
            make_player("hard" if s == 0 else "normal", seed=s, max_iterations=4) for s in range(n)
        ]
        assert play_game(g, players).kind in ("fool", "draw")
        g.check_invariants()


# ------------------------------------------------------------------ reverse

REVERSE = RuleSet.preset("reverse")


def _slot_of(g: Game, seat: int, card: str) -> int:
    from engine.variants.reverse import slot_cards

    return slot_cards(g, seat).index(int(Card.parse(card)))


def _reverse_position() -> Game:
    hands = [["6c", "7d", "Ks"], ["8c", "9s", "6d", "Qd"]]
    g = Game.from_position(REVERSE, hands, trump="h", talon=["6h", "7h", "Th", "Jh", "Qh"])
    g.vstate = {"slot_key": list(range(51, -1, -1))}  # slots: highest card index first
    return g


def test_reverse_a_seat_sees_the_others_hands_but_not_its_own() -> None:
    """ "the players hold the cards pictures off and thus can see only the shirts of the
    cards" (in Discord: your hand is shown to the others, you play blind)."""
    g = Game.new(REVERSE, seed=4)
    for seat in range(2):
        obs = g.observation(seat)
        assert obs.hand == () and obs.hand_mask == 0 and obs.hand_sizes[seat] == 6
        other = 1 - seat
        assert obs.known_masks[other] == g.hands[other]
        assert obs.known_masks[seat] == 0
        # blind moves name slots, never cards
        assert {a.kind.value for a in obs.legal_actions} <= {"lead_blind"}
        if seat == g.attacker:
            assert [a.notation for a in obs.legal_actions] == [
                f"lead_blind #{i}" for i in range(1, 7)
            ]
    public = g.public_observation()
    assert public.known_masks == (0, 0) and public.hand_mask == 0


def test_reverse_observation_does_not_depend_on_the_own_hand() -> None:
    g = Game.new(REVERSE, seed=8)
    data = g.to_dict()
    seat = g.attacker
    mine, talon = data["hands"][seat], data["talon"]
    x, y = mine[0], talon[-1]
    data["hands"][seat] = [y if c == x else c for c in mine]
    data["talon"] = [x if c == y else c for c in talon]
    other = Game.from_dict(data)
    assert other.observation(seat) == g.observation(seat)
    assert other.public_observation() == g.public_observation()


def test_reverse_a_fitting_blind_card_plays_as_usual() -> None:
    g = _reverse_position()
    play(g, f"0 lead_blind #{_slot_of(g, 0, '6c') + 1}")
    assert g.table == [[int(Card.parse("6c")), -1]]
    play(g, f"1 beat_blind 6c/#{_slot_of(g, 1, '8c') + 1}")
    assert g.table == [[int(Card.parse("6c")), int(Card.parse("8c"))]]


def test_reverse_a_wrong_beating_card_takes_the_table() -> None:
    """ "The player who beats off with a wrong card ... gets all of the cards of the lead." """
    g = _reverse_position()
    play(g, f"0 lead_blind #{_slot_of(g, 0, '7d') + 1}")
    events = play(g, f"1 beat_blind 7d/#{_slot_of(g, 1, '6d') + 1}")
    assert [e.kind for e in events][:3] == ["blind_miss", "picked_up", "draw"]
    assert g.hands[1] & cards("7d", "6d") == cards("7d", "6d")
    # the wrong card was turned up: everyone knows it is back in that hand
    assert g.public_observation().known_masks[1] & cards("7d", "6d") == cards("7d", "6d")
    assert (g.attacker, g.defender) == (0, 1)  # a pick-up: the same attacker goes on


def test_reverse_a_wrong_throw_in_takes_the_table() -> None:
    """ "... or tosses up the wrong card ... gets all of the cards of the lead." """
    g = _reverse_position()
    play(g, f"0 lead_blind #{_slot_of(g, 0, '6c') + 1}")
    play(g, f"1 beat_blind 6c/#{_slot_of(g, 1, '8c') + 1}")
    events = play(g, f"0 throw_blind #{_slot_of(g, 0, 'Ks') + 1}")
    assert events[0].kind == "blind_miss" and events[1].kind == "picked_up"
    assert g.hands[0] & cards("6c", "8c", "Ks") == cards("6c", "8c", "Ks")
    assert (g.attacker, g.defender) == (1, 0)  # the defender leads next


def test_reverse_a_wrong_transfer_takes_the_table() -> None:
    """ "... or transfers the card that does not match, gets all of the cards of the lead." """
    rules = RuleSet.preset("perevodnoy", players=3).with_variant("reverse")
    hands = [["6c", "Ad"], ["7d", "9s"], ["8c", "Ks"]]
    g = Game.from_position(rules, hands, trump="h", talon=["6h", "7h", "Th"])
    g.vstate = {"slot_key": list(range(52))}
    play(g, f"0 lead_blind #{_slot_of(g, 0, '6c') + 1}")
    assert any(a.kind.value == "transfer_blind" for a in g.legal_actions(1))
    play(g, f"1 transfer_blind #{_slot_of(g, 1, '9s') + 1}")
    assert g.hands[1] & cards("6c", "9s") == cards("6c", "9s") and not g.table


def test_reverse_refuses_what_a_blind_player_cannot_do() -> None:
    with pytest.raises(RuleError, match="lowest trump"):
        RuleSet(variant="reverse")
    with pytest.raises(RuleError, match="shows their hand"):
        RuleSet.preset("durak-online").replace(variant="reverse", trump_exchange="off")


def test_reverse_slot_numbers_round_trip_in_notation() -> None:
    from engine import Action

    a = Action.parse("1 beat_blind 9s/#4")
    assert a.cards == (Card.parse("9s"), Card(3)) and a.notation == "beat_blind 9s/#4"
    with pytest.raises(ValueError):
        Action.parse("0 lead_blind #0")


@pytest.mark.slow(sample=4)  # whole games per case: make test runs two seats, CI all
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_reverse_computer_players_finish(n: int) -> None:
    rules = RuleSet.preset("reverse", players=n)
    for seed in range(2):
        g = Game.new(rules, seed)
        players = [
            make_player("hard" if s == 0 else "normal", seed=s, max_iterations=4) for s in range(n)
        ]
        assert play_game(g, players).kind in ("fool", "draw")
        g.check_invariants()


# ------------------------------------------------------------------ every variant here

HIDDEN = ["round", "point", "epaulet", "take-on-trust", "reverse"]


def _counts(name: str) -> list[int]:
    out = []
    for n in range(2, 7):
        try:
            RuleSet.preset(name, players=n)
        except RuleError:
            continue
        out.append(n)
    return out


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("name", HIDDEN)
def test_illegal_actions_are_refused_and_change_nothing(name: str) -> None:
    from engine import Action, IllegalAction

    from .test_properties import garbage

    for n in _counts(name):
        g = Game.new(RuleSet.preset(name, players=n), seed=n)
        rng = random.Random(n)
        while g.result is None:
            legal_now = g.all_legal_actions()
            move = rng.choice(legal_now)
            bad = [garbage(rng, n) for _ in range(4)]
            bad.append(Action((move.seat + 1) % n, move.kind, move.cards))
            for x in bad:
                if x in legal_now:
                    continue
                before = g.to_dict()
                with pytest.raises(IllegalAction) as info:
                    g.apply(x)
                assert info.value.code and str(info.value)
                assert g.to_dict() == before
            g.apply(move)
            g.check_invariants()
