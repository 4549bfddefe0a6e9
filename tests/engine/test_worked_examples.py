"""Every worked example in the rule texts (shared/seeds), replayed on the engine.

Seat numbers go clockwise. In pagat's four-player examples West=0, North=1, East=2, South=3
(North/South partners against East/West), so "West attacks North" is seat 0 attacking seat 1.
Where a text names only who attacks whom, ``scripted_game`` supplies cards that make each step
playable and the test checks that the engine hands the turn to the player the text names.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine import ActionKind, Game, RuleSet
from engine.cards import Card

from .helpers import Step, draws, finish_bout, legal, play, roles, run_script, scripted_game

W, N, E, S = 0, 1, 2, 3
TEAMS_4 = RuleSet.preset("podkidnoy", players=4, teams="2v2")


def pagat_position(hands: list[list[str]]) -> Game:
    """West, North and East hold the example's cards; South (North's partner, idle in every
    example) and the talon get the rest. The turned-up 6h at the bottom of the talon is the
    lowest trump, so no exchange is possible and the examples stay as written."""
    used = {c for h in hands for c in h}
    rest = [c for c in ALL_36 if c not in used and c != "6h"]
    south, talon = rest[:6], ["6h", *rest[6:17]]
    return Game.from_position(
        TEAMS_4, [*hands, south], trump_card="6h", talon=talon, attacker=W, defender=N
    )


ALL_36 = [r + s for s in "cdhs" for r in "6789TJQKA"]


# --------------------------------------------------------------- pagat podkidnoy, 4 players


def test_pagat_example_1_co_attacker_continues_and_draw_order() -> None:
    g = pagat_position(
        [
            ["Ks", "Js", "7s", "9c", "8h", "Qd"],
            ["Ts", "Tc", "8c", "6c", "Ad", "Td"],
            ["Qs", "8s", "Qc", "Kh", "7d", "6d"],
        ]
    )
    top = [Card(c) for c in reversed(g.talon)]
    play(g, "0 attack 7s", "1 defend 7s/Ts")
    # West has no seven or ten left and says so; until then East, with the principal
    # attacker's priority over it, can only say 'done'. South is North's partner.
    assert legal(g, W) == {"pass"}
    assert legal(g, E) == {"pass"}
    assert legal(g, S) == set()
    play(g, "0 pass")
    assert legal(g, E) == {"throw 7d", "pass"}
    play(g, "2 throw 7d", "1 defend 7d/Td")
    # "East and West have no more sevens or tens to play, so North has beaten off the attack."
    events = play(g, "0 pass", "2 pass")
    assert [e.amount for e in events if e.kind == "beaten"] == [4]
    assert not g.table
    # "West draws the top card from the talon, East draws the next one, and then North draws two."
    assert draws(events) == [(W, 1), (E, 1), (N, 2)]
    assert [e.cards for e in events if e.kind == "draw"] == [(top[0],), (top[1],), tuple(top[2:4])]
    # "Now it is North's turn to attack East."
    assert roles(g) == (N, E)


def test_pagat_example_2_pick_up_with_piled_card() -> None:
    g = pagat_position(
        [
            ["Ks", "Js", "7s", "9c", "8h", "Qd"],
            ["Ac", "Tc", "8c", "6c", "Ad", "9d"],
            ["Qs", "8s", "Qc", "Kh", "7d", "6d"],
        ]
    )
    play(g, "0 attack 7s")
    # North has no higher spade and no trump.
    assert legal(g, N) == {"take"}
    play(g, "1 take")
    assert legal(g, W) == {"pass"}  # West has nothing of rank seven to give
    assert legal(g, E) == {"pass"}  # and East waits for West's word
    play(g, "0 pass")
    assert legal(g, E) == {"pile 7d", "pass"}
    events = play(g, "2 pile 7d", "0 pass", "2 pass")
    picked = [e for e in events if e.kind == "picked_up"]
    assert len(picked) == 1 and picked[0].seat == N and picked[0].amount == 2
    assert g.hand_size(N) == 8
    # "West takes the top card from the talon and East takes the next one." North holds 8.
    assert draws(events) == [(W, 1), (E, 1)]
    # "The attack succeeded, so it is now East's turn to attack South."
    assert roles(g) == (E, S)


def test_pagat_example_3_six_card_limit_and_priority() -> None:
    g = pagat_position(
        [
            ["Ks", "Js", "7s", "Kc", "7h", "Jd"],
            ["Qs", "Ts", "Jc", "Jh", "9h", "Kd"],
            ["9c", "7c", "6c", "Ad", "9d", "7d"],
        ]
    )
    play(g, "0 attack 7s", "1 defend 7s/Ts")
    # West (principal attacker) has priority: East must wait while West could still add 7h.
    assert legal(g, W) == {"throw 7h", "pass"}
    assert legal(g, E) == {"pass"}
    play(g, "0 pass")
    assert legal(g, E) == {"throw 7c", "throw 7d", "pass"}
    play(g, "2 throw 7c", "1 defend 7c/Jc")
    # the table changed, so West's priority is back
    assert legal(g, E) == {"pass"}
    play(g, "0 pass", "2 throw 7d", "1 defend 7d/Kd")
    play(g, "0 throw Js", "1 defend Js/Qs", "0 throw Jd", "1 defend Jd/9h")
    # "they have already attacked 5 times so they are only allowed to play one more card"
    assert len(g.table) == 5
    assert legal(g, W) == {"throw Ks", "throw Kc", "throw 7h", "pass"}
    play(g, "0 pass")
    assert legal(g, E) == {"throw 9c", "throw 9d", "pass"}
    play(g, "2 throw 9d")
    assert legal(g, W) == set() and legal(g, E) == set()  # the sixth card closes the bout
    events = play(g, "1 defend 9d/Jh")
    assert [e.amount for e in events if e.kind == "beaten"] == [12]
    assert g.discard.bit_count() == 12
    # "West draws from the talon first, then East, and finally North takes 6 new cards."
    assert draws(events) == [(W, 3), (E, 3), (N, 6)]
    assert roles(g) == (N, E)


def test_pagat_example_4_defender_picks_up_attackers_keep_cards() -> None:
    g = pagat_position(
        [
            ["As", "Qs", "Js", "Kc", "Kd", "Ad"],
            ["Ks", "9s", "8s", "7h", "Td", "9d"],
            ["7s", "6s", "7c", "Jh", "8d", "7d"],
        ]
    )
    play(g, "0 attack Js", "1 defend Js/Ks", "0 throw Kd")
    # "North could legally trump with the heart7"
    assert "defend Kd/7h" in legal(g, N)
    play(g, "1 take")
    # "West could give North the clubK and East the heartJ in addition"
    assert legal(g, W) == {"pile Kc", "pass"}
    assert legal(g, E) == {"pass"}  # West has priority: East may only say 'done' for now
    play(g, "0 pass")
    assert legal(g, E) == {"pile Jh", "pass"}
    events = play(g, "2 pass")
    assert [(e.seat, e.amount) for e in events if e.kind == "picked_up"] == [(N, 3)]
    # "West draws two cards from the talon and then East attacks South."
    assert draws(events) == [(W, 2)]
    assert roles(g) == (E, S)


# --------------------------------------------------------------- pagat endgame sequences


def test_individual_four_player_endgame() -> None:
    rules = RuleSet.preset("podkidnoy", players=4)
    steps: list[Step] = [
        (W, N, "beat"),  # 1. North beats off the attack, running out of cards
        (E, S, "take"),  # 2. the turn passes over North: East attacks South, who picks up
        (W, E, "take"),  # 3. West attacks East; it succeeds and West's cards are all used
        (S, E, "beat"),  # 4. South attacks East, since North and West have no cards
    ]
    g, plan = scripted_game(rules, steps, spare=[E, S])
    run_script(g, steps[:1], plan[:1])
    assert g.out == [N]
    run_script(g, steps[1:3], plan[1:3])
    assert g.out == [N, W]
    run_script(g, steps[3:], plan[3:])


def test_partnership_four_player_endgame() -> None:
    steps: list[Step] = [
        (W, N, "beat"),  # 1. North runs out of cards while beating off the attack
        (S, E, "take"),  # 2. South takes North's turn and successfully attacks East
        (S, W, "beat"),  # 3. South attacks West next; West beats off the attack
        (W, S, "take"),  # 4./5. West must next attack South; South picks up
        (E, S, "beat"),  # 5. now East attacks South
    ]
    # 6. "The order of play is essentially E-S-W-S-E-S-W-S": each beats off and leads on.
    rotation = [E, S, W, S, E, S, W, S]
    steps += [(a, d, "beat") for a, d in pairwise(rotation[1:])]
    g, plan = scripted_game(TEAMS_4, steps, spare=[W, E, S])
    run_script(g, steps[:1], plan[:1])
    assert g.out == [N]
    run_script(g, steps[1:], plan[1:])
    assert g.out == [N] and g.result is None


def test_partnership_four_player_rotation_after_a_pick_up() -> None:
    """A successful attack skips the defender's turn but the E-S-W-S rotation continues."""
    steps: list[Step] = [(W, N, "beat"), (S, E, "beat"), (E, S, "take"), (W, S, "beat")]
    g, plan = scripted_game(TEAMS_4, steps, spare=[W, E, S])
    run_script(g, steps, plan)
    assert roles(g) == (S, E)


# Six-player partnership: W, N, SE (red) against NW, E, S (blue), sitting alternately.
W6, NW6, N6, E6, SE6, S6 = range(6)
TEAMS_6 = RuleSet.preset("teams-3v3", deck_size=52)
NAMES_6 = {"W": W6, "NW": NW6, "N": N6, "E": E6, "SE": SE6, "S": S6}


def seq(text: str) -> list[int]:
    return [NAMES_6[x] for x in text.split("-")]


def beat_chain(order: list[int]) -> list[Step]:
    """Each player in ``order`` attacks the next one and is beaten off."""
    return [(a, d, "beat") for a, d in pairwise(order)]


SIX_STEPS: list[Step] = [
    (W6, NW6, "take"),  # 1. W attacks NW and NW picks up, W having run out of cards
    (N6, E6, "take"),  # 2. N attacks E and E picks up
    (SE6, S6, "beat"),  # 3. SE attacks S and S beats off this attack
    (S6, N6, "beat"),  # 4. S attacks the next opponent in rotation, North
    (N6, NW6, "take"),  # 5. North beats off and attacks North-West; NW picks up
    (SE6, E6, "take"),  # 6. SE attacks E; East picks up
]


def test_partnership_six_player_endgame_steps() -> None:
    steps = [*SIX_STEPS, (N6, S6, "beat")]  # 7. It is North's turn to attack South
    g, plan = scripted_game(TEAMS_6, steps, spare=[NW6, N6, E6, SE6, S6])
    run_script(g, steps[:1], plan[:1])
    assert g.out == [W6]
    run_script(g, steps[1:], plan[1:])


def test_partnership_six_player_order_of_play() -> None:
    """'The order of play, after West runs out of cards is NW-N-E-SE-S-N-NW-SE-E-N-S-SE-NW-N-E'."""
    order = seq("NW-N-E-SE-S-N-NW-SE-E-N-S-SE-NW-N-E")
    steps = [(W6, NW6, "beat"), *beat_chain(order)]
    g, plan = scripted_game(TEAMS_6, steps, spare=[NW6, N6, E6, SE6, S6])
    run_script(g, steps, plan)
    assert g.out == [W6]


def test_partnership_six_player_south_runs_out_at_stage_7() -> None:
    """'if at stage 7, South beats off North's attack, running out of cards, it will next be
    North-West's turn to attack South-East ... in the sequence NW-SE-E-N-NW-...'"""
    steps = [*SIX_STEPS, (N6, S6, "beat"), *beat_chain(seq("NW-SE-E-N-NW-SE"))]
    g, plan = scripted_game(TEAMS_6, steps, spare=[NW6, N6, E6, SE6])
    # South holds exactly the cards of its script: it runs out on its last defence.
    run_script(g, steps[:7], plan[:7])
    assert g.out == [W6, S6]
    run_script(g, steps[7:], plan[7:])


def test_partnership_six_player_east_runs_out_at_stage_6() -> None:
    """'If at stage 6, East had beaten off South-East's attack, running out of cards, it would
    next be South's turn to attack North ... S-N-NW-SE-S-...'

    East picked up North's 4c at stage 2, so here South-East leads two threes at stage 6 and
    East beats them with that 4c and its own last card.
    """
    hands = [
        ["2c"],  # W
        ["8s", "9s", "Ah"],  # NW
        ["4c", "8c", "9c", "6s", "7s", "6d", "Kh"],  # N
        ["4d"],  # E
        ["5c", "3c", "3d", "Ts", "Js", "Qh"],  # SE
        ["6c", "7c", "5s", "Qs", "5d", "Jh"],  # S
    ]
    g = Game.from_position(TEAMS_6, hands, trump="h", attacker=W6, defender=NW6)
    script = [
        (W6, NW6, "0 attack 2c", "1 take"),
        (N6, E6, "2 attack 4c", "3 take"),
        (SE6, S6, "4 attack 5c", "5 defend 5c/6c"),
        (S6, N6, "5 attack 7c", "2 defend 7c/8c"),
        (N6, NW6, "2 attack 9c", "1 take"),
        (SE6, E6, "4 attack 3c 3d", "3 defend 3c/4c", "3 defend 3d/4d"),
        # S-N-NW-SE-S-N, each beaten off
        (S6, N6, "5 attack 5s", "2 defend 5s/6s"),
        (N6, NW6, "2 attack 7s", "1 defend 7s/8s"),
        (NW6, SE6, "1 attack 9s", "4 defend 9s/Ts"),
        (SE6, S6, "4 attack Js", "5 defend Js/Qs"),
        (S6, N6, "5 attack 5d", "2 defend 5d/6d"),
    ]
    for i, (a, d, *moves) in enumerate(script):
        assert roles(g) == (a, d), f"stage {i + 1}"
        play(g, *moves)
        finish_bout(g)
        if i == 0:
            assert g.out == [W6]
    assert g.out == [W6, E6]


# --------------------------------------------------------------- results


def test_team_game_ends_when_one_team_is_out() -> None:
    g, plan = scripted_game(TEAMS_4, [(W, N, "beat"), (S, E, "beat")], spare=[S, W])
    run_script(g, [(W, N, "beat")], plan[:1])
    assert g.result is None  # North is out but South still holds cards for the team
    g2 = Game.from_position(TEAMS_4, [["6c"], ["7c"], ["9d"], []], trump="h", out=[S])
    play(g2, "0 attack 6c", "1 defend 6c/7c")
    assert g2.result is not None
    assert (g2.result.kind, g2.result.losing_team, g2.result.losers) == ("team", 0, (W, E))


def test_everyone_out_in_the_last_bout_is_a_draw_and_the_dealer_deals_again() -> None:
    rules = RuleSet.preset("podkidnoy")
    g = Game.from_position(rules, [["6c"], ["7c"]], trump="h", dealer=1)
    play(g, "0 attack 6c")
    assert g.result is None  # the game ends only at the end of a bout
    play(g, "1 defend 6c/7c")
    assert g.result is not None and g.result.kind == "draw" and g.result.fool is None
    # "the loser of the previous hand deals again"
    assert g.next_deal(seed=5).dealer == 1


def test_last_player_holding_cards_is_the_fool_and_deals_next() -> None:
    rules = RuleSet.preset("podkidnoy", players=3)
    g = Game.from_position(rules, [["6c"], ["7c", "8d"], ["9s"]], trump="h", dealer=0)
    play(g, "0 attack 6c", "1 defend 6c/7c", "2 pass")  # West out; North leads against East
    assert roles(g) == (1, 2)
    play(g, "1 attack 8d", "2 take")
    assert g.result is not None
    assert (g.result.kind, g.result.fool, g.result.finish_order) == ("fool", 2, (0, 1))
    assert g.next_deal(seed=1).dealer == 2


# --------------------------------------------------------------- perevodnoy


PEREVODNOY = RuleSet.preset("perevodnoy")


def nines_position() -> Game:
    # "Hearts are trumps; A has ♣9, ♠9, ♢Q, and B has ♡9, ♠Q and ♢A." Talon exhausted.
    return Game.from_position(
        PEREVODNOY, [["9c", "9s", "Qd"], ["9h", "Qs", "Ad"]], trump="h", attacker=0
    )


def outcome_for_a(g: Game, memo: dict[str, int] | None = None) -> int:
    """Best result A (seat 0) can force: +1 B is the fool, 0 draw, -1 A is the fool.

    Exhaustive search of the (tiny) endgame. When both seats could act, B chooses who moves
    first, so a +1 or 0 here holds however the moves are timed.
    """
    memo = {} if memo is None else memo
    if g.result is not None:
        return 0 if g.result.kind == "draw" else (1 if g.result.fool == 1 else -1)
    key = repr(g.to_dict())
    if key not in memo:
        options: list[int] = []
        for seat, pick in ((0, max), (1, min)):
            vals = []
            for a in g.legal_actions(seat):
                h = g.copy()
                h.apply(a)
                vals.append(outcome_for_a(h, memo))
            if vals:
                options.append(pick(vals))
        memo[key] = min(options)
    return memo[key]


def test_perevodnoy_leading_one_nine_is_transferred_back() -> None:
    g = nines_position()
    play(g, "0 attack 9c")
    assert "transfer 9h" in legal(g, 1)
    play(g, "1 transfer 9h")
    assert roles(g) == (1, 0)
    # "A cannot transfer it again as B now has only two cards, so A must pick up the two nines"
    assert legal(g, 0) == {"take"}
    events = play(g, "0 take")
    assert [(e.seat, e.amount) for e in events if e.kind == "picked_up"] == [(0, 2)]
    assert g.hand_size(0) == 4 and g.hand_size(1) == 2
    assert roles(g) == (1, 0)


def test_perevodnoy_leading_both_nines() -> None:
    g = nines_position()
    assert "attack 9c 9s" in legal(g, 0)
    play(g, "0 attack 9c 9s")
    # "B cannot transfer the attack because A has only one card left"
    assert not any(a.kind is ActionKind.TRANSFER for a in g.legal_actions(1))
    assert "9h" in {str(c) for c in g.hand(1)}
    play(g, "1 defend 9c/9h", "1 defend 9s/Qs")
    # "A will win by continuing the attack with the ♢Q"
    assert legal(g, 0) == {"throw Qd", "pass"}
    play(g, "0 throw Qd", "1 defend Qd/Ad")
    # Both hands empty at the end of the bout: by pagat's own rule that is a draw, not a loss.
    assert g.result is not None and g.result.kind == "draw"


def test_perevodnoy_leading_both_nines_wins_when_the_last_defender_loses() -> None:
    """The text's claim "A will win" is the all_out='last_defender_loses' reading: A ran out
    first, B used its last card on the queen."""
    g = Game.from_position(
        PEREVODNOY.replace(all_out="last_defender_loses"),
        [["9c", "9s", "Qd"], ["9h", "Qs", "Ad"]],
        trump="h",
        attacker=0,
    )
    play(g, "0 attack 9c 9s", "1 defend 9c/9h", "1 defend 9s/Qs", "0 throw Qd", "1 defend Qd/Ad")
    assert g.result is not None and (g.result.kind, g.result.fool) == ("fool", 1)


def test_perevodnoy_lead_both_nines_is_never_worse_for_a() -> None:
    """Leading both nines leaves A unbeatable; leading the queen loses (exhaustive search)."""
    results: dict[str, int] = {}
    for lead in ("attack 9c 9s", "attack Qd"):
        g = nines_position()
        play(g, f"0 {lead}")
        results[lead] = outcome_for_a(g)
    assert results["attack 9c 9s"] >= 0
    assert results["attack Qd"] == -1


def test_transfer_capped_by_next_hand() -> None:
    """Example 1: A has two cards, B five; A attacks with one card: B cannot transfer."""
    hands = [["7c", "Ks"], ["7d", "8d", "9d", "Td", "Jd"]]
    g = Game.from_position(PEREVODNOY, hands, trump="h")
    play(g, "0 attack 7c")
    assert not any(a.kind is ActionKind.TRANSFER for a in g.legal_actions(1))
    # With one more card in A's hand the same transfer is legal.
    g = Game.from_position(PEREVODNOY, [["7c", "Ks", "Qs"], hands[1]], trump="h")
    play(g, "0 attack 7c")
    assert "transfer 7d" in legal(g, 1)


def test_perevodnoy_multi_card_transfer_and_no_transfer_after_a_beat() -> None:
    rules = RuleSet.preset("perevodnoy", players=3)
    hands = [["6c", "6d", "Kc"], ["6s", "6h", "Ac", "9c"], ["7c", "7d", "8c", "8d", "Th", "Js"]]
    g = Game.from_position(rules, hands, trump="h")
    play(g, "0 attack 6c")
    # "when transferring an attack, more than one card of the original rank can be added"
    assert {"transfer 6s", "transfer 6h", "transfer 6h 6s"} <= legal(g, 1)
    play(g, "0 throw 6d")
    # "Once an attack card has been beaten, that attack can no longer be transferred"
    play(g, "1 defend 6c/9c")
    assert not any(a.kind is ActionKind.TRANSFER for a in g.legal_actions(1))


def test_transfer_draw_order_original_attacker_first() -> None:
    """'the original attacker draws first, then the other attackers in clockwise order, and
    finally the defender' — including when the attack came all the way round."""
    rules = RuleSet.preset("perevodnoy", players=3)
    talon = ["Th", "9s", "8s", "7s", "6s", "Js", "Qs", "Ks", "As", "9d", "Td", "Jd"]
    hands = [
        ["7c", "Ac", "Kd", "Qd", "8d", "8h"],
        ["7d", "Kc", "Qc", "Jc", "Tc", "9c"],
        ["7h", "6d", "6c", "8c", "Jh", "Qh"],
    ]
    g = Game.from_position(rules, hands, trump_card="Th", talon=talon)
    play(g, "0 attack 7c", "1 transfer 7d")
    assert roles(g) == (1, 2)
    play(g, "2 take")
    events = finish_bout(g)
    assert [s for s, _ in draws(events)] == [0, 1]  # the defender (2) is over six cards
    # all the way round: 0 -> 1 -> 2 -> 0; seat 0 is now the defender and draws last
    g = Game.from_position(rules, hands, trump_card="Th", talon=talon)
    play(g, "0 attack 7c", "1 transfer 7d", "2 transfer 7h")
    assert roles(g) == (2, 0)
    play(g, "0 take")
    events = finish_bout(g)
    assert [s for s, _ in draws(events)] == [1, 2]


# --------------------------------------------------------------- Kiev variation

KIEV = RuleSet.preset("perevodnoy-kiev", players=4)


def test_kiev_example_1_transfer_fresh_cards_after_beats() -> None:
    # Spades trumps. A: 9c 9h Jd Kd; B beats with Jc, Kh and holds another jack and king.
    hands = [
        ["9c", "9h", "Jd", "Kd", "6c", "7c"],
        ["Jc", "Kh", "Jh", "Kc", "6d", "7d"],
        ["Js", "As", "Qs", "8c", "6h", "8d"],
        ["Ad", "Ah", "Qc", "Qh", "Qd", "Th"],
    ]
    g = Game.from_position(KIEV, hands, trump="s")
    play(g, "0 attack 9c 9h", "1 defend 9c/Jc", "1 defend 9h/Kh", "0 throw Jd", "0 throw Kd")
    assert "transfer Kc Jh" in legal(g, 1)  # one jack and one king, in one move
    play(g, "1 transfer Jh Kc")
    assert roles(g) == (1, 2)
    # "There are now six cards in the attack, so no more cards can be thrown in and the attack
    # cannot be transferred further." C holds the jack of spades.
    assert len(g.table) == 6
    assert not any(a.kind is ActionKind.TRANSFER for a in g.legal_actions(2))
    assert all(not g.legal_actions(s) for s in (0, 1, 3))
    # "C has four more cards to beat: two Jacks and two Kings"
    assert sorted(str(c) for c in g.unbeaten()) == ["Jd", "Jh", "Kc", "Kd"]
    events = play(g, "2 take")
    # "pick up the eight cards on the table"
    assert [(e.seat, e.amount) for e in events if e.kind == "picked_up"] == [(2, 8)]


def test_kiev_example_2_three_tens_to_beat() -> None:
    hands = [
        ["7d", "Tc", "6c", "6s", "8c", "8s"],
        ["Td", "Ts", "9c", "9s", "Jc", "Js"],
        ["Ac", "Ad", "As", "Kh", "Qh", "Jh"],
        ["Th", "Kc", "Kd", "Ks", "Qc", "Qd"],
    ]
    g = Game.from_position(KIEV, hands, trump="h")
    play(g, "0 attack 7d", "1 defend 7d/Td")
    # "Other players throw in two more 10's" (seat 3 after those with priority are done)
    play(g, "0 throw Tc", "0 pass", "2 pass", "3 throw Th")
    play(g, "1 transfer Ts")
    assert roles(g) == (1, 2)
    assert sorted(str(c) for c in g.unbeaten()) == ["Tc", "Th", "Ts"]
    assert {a.cards[0] for a in g.legal_actions(2) if a.kind is ActionKind.DEFEND} == {
        Card.parse(c) for c in ("Tc", "Ts", "Th")
    }


def test_kiev_example_3_transfer_twice() -> None:
    hands = [
        ["6c", "6d", "9h", "Ah", "Kh", "Qh"],
        ["8c", "9d", "9s", "Kc", "Qc", "Jc"],
        ["9c", "7s", "8s", "Ts", "Js", "Qs"],
        ["Ac", "Ad", "Kd", "Qd", "Jd", "Td"],
    ]
    g = Game.from_position(KIEV, hands, trump="s")
    play(g, "0 attack 6c 6d", "1 defend 6c/8c", "1 defend 6d/9d", "0 throw 9h", "1 transfer 9s")
    assert roles(g) == (1, 2)
    play(g, "2 transfer 9c")
    assert roles(g) == (2, 3)
    assert sorted(str(c) for c in g.unbeaten()) == ["9c", "9h", "9s"]


def test_before_beat_rule_forbids_the_kiev_transfer() -> None:
    rules = RuleSet.preset("perevodnoy", players=4)
    hands = [
        ["6c", "6d", "9h", "Ah", "Kh", "Qh"],
        ["8c", "9d", "9s", "Kc", "Qc", "Jc"],
        ["9c", "7s", "8s", "Ts", "Js", "Qs"],
        ["Ac", "Ad", "Kd", "Qd", "Jd", "Td"],
    ]
    g = Game.from_position(rules, hands, trump="s")
    play(g, "0 attack 6c 6d", "1 defend 6c/8c", "1 defend 6d/9d", "0 throw 9h")
    assert not any(a.kind is ActionKind.TRANSFER for a in g.legal_actions(1))


# --------------------------------------------------------------- pass card


def test_pass_card_shows_the_trump_and_keeps_it() -> None:
    rules = RuleSet.preset("perevodnoy-pass-card", players=3)
    hands = [["7c", "Ac"], ["7h", "8d", "9d"], ["6s", "Ks", "Qs"]]
    g = Game.from_position(rules, hands, trump="h")
    play(g, "0 attack 7c")
    assert {"show 7h", "transfer 7h"} <= legal(g, 1)
    events = play(g, "1 show 7h")
    assert [e.kind for e in events] == ["show"]
    assert roles(g) == (1, 2)
    # "The trump does not have to be played: the defender keeps it"
    assert Card.parse("7h") in g.hand(1)
    assert len(g.table) == 1
    # the shown trump is public knowledge now
    assert g.observation(2).known_masks[1] == Card.parse("7h").bit
    # plain Perevodnoy has no showing
    g = Game.from_position(PEREVODNOY.replace(players=3), hands, trump="h")
    play(g, "0 attack 7c")
    assert "show 7h" not in legal(g, 1) and "transfer 7h" in legal(g, 1)


# --------------------------------------------------------------- trump exchange


def test_exchange_only_by_the_original_holder() -> None:
    rules = RuleSet.preset("podkidnoy")
    talon = ["Kh", "9s", "Ts"]
    hands = [["6h", "7c", "8c", "9c", "Tc", "Jc"], ["7d", "8d", "9d", "Td", "Jd", "Qd"]]
    g = Game.from_position(rules, hands, trump_card="Kh", talon=talon)
    assert "exchange 6h" in legal(g, 0)
    play(g, "0 attack 6h", "1 take")
    finish_bout(g)
    assert Card.parse("6h") in g.hand(1)
    # "if you acquire it from another player ... you cannot exchange it"
    assert not any(a.kind is ActionKind.EXCHANGE for a in g.legal_actions(1))
    # with the restriction off, the new holder may
    g = Game.from_position(
        rules.replace(exchange_original_holder_only=False), hands, trump_card="Kh", talon=talon
    )
    play(g, "0 attack 6h", "1 take")
    finish_bout(g)
    assert "exchange 6h" in legal(g, 1)


def test_exchange_swaps_the_cards() -> None:
    g = Game.from_position(
        RuleSet.preset("podkidnoy"),
        [["6h", "7c", "8c", "9c", "Tc", "Jc"], ["7d", "8d", "9d", "Td", "Jd", "Qd"]],
        trump_card="Kh",
        talon=["Kh", "9s", "Ts"],
    )
    play(g, "0 exchange 6h")
    assert Card.parse("Kh") in g.hand(0) and Card.parse("6h") not in g.hand(0)
    assert g.talon[0] == int(Card.parse("6h")) and str(Card(g.trump_card)) == "6h"
    assert g.observation(1).known_masks[0] == Card.parse("Kh").bit
    assert not g.legal_actions(1)  # the new turned-up card cannot be exchanged again


@pytest.mark.parametrize(("up", "allowed"), [("Ah", True), ("Kh", False)])
def test_exchange_for_the_ace_only(up: str, allowed: bool) -> None:
    rules = RuleSet.preset("podkidnoy", trump_exchange="lowest_for_ace")
    g = Game.from_position(
        rules,
        [["6h", "7c", "8c", "9c", "Tc", "Jc"], ["7d", "8d", "9d", "Td", "Jd", "Qd"]],
        trump_card=up,
        talon=[up, "9s", "Ts"],
    )
    assert ("exchange 6h" in legal(g, 0)) is allowed


def test_exchange_grace_period_pagat_timing() -> None:
    """'Even if another player has already drawn the turned up trump, the player who drew the
    six can still demand to exchange it provided that the bout after the one which exhausted
    the talon has not yet begun.'"""
    for timing, allowed in (("until_next_bout", True), ("until_talon_empty", False)):
        rules = RuleSet.preset("podkidnoy", exchange_timing=timing)
        # seat 0 leads two cards: it draws 2 (the 7s then the 6h); seat 1 beats with its two
        # cards and draws the remaining ace last.
        hands = [["7c", "7d", "9c", "Tc", "Jc", "Qc"], ["8c", "8d", "9d", "Td", "Jd", "Qd"]]
        g = Game.from_position(rules, hands, trump_card="Ah", talon=["Ah", "6h", "7s"])
        events = play(g, "0 attack 7c 7d", "1 defend 7c/8c", "1 defend 7d/8d", "0 pass")
        assert draws(events) == [(0, 2), (1, 1)]
        assert Card.parse("Ah") in g.hand(1) and Card.parse("6h") in g.hand(0)
        assert not g.talon
        assert ("exchange 6h" in legal(g, 0)) is allowed
        if allowed:
            play(g, "0 exchange 6h")
            assert Card.parse("Ah") in g.hand(0) and Card.parse("6h") in g.hand(1)
            # the ace's new place is public: everybody saw the swap
            assert g.observation(1).known_masks[0] & Card.parse("Ah").bit
    g = Game.from_position(
        RuleSet.preset("podkidnoy"),
        [["7c", "7d", "9c", "Tc", "Jc", "Qc"], ["8c", "8d", "9d", "Td", "Jd", "Qd"]],
        trump_card="Ah",
        talon=["Ah", "6h", "7s"],
    )
    play(g, "0 attack 7c 7d", "1 defend 7c/8c", "1 defend 7d/8d", "0 pass")
    assert roles(g) == (1, 0)
    play(g, "1 attack 9d")  # the next bout begins
    assert "exchange 6h" not in legal(g, 0)


def test_exchange_in_a_24_card_pack_is_the_nine() -> None:
    rules = RuleSet.preset("podkidnoy", deck_size=24)
    hands = [["9h", "Tc", "Jc", "Qc", "Kc", "Ac"], ["9d", "Td", "Jd", "Qd", "Kd", "Ad"]]
    g = Game.from_position(rules, hands, trump_card="Qh", talon=["Qh", "9s", "Ts"])
    assert "exchange 9h" in legal(g, 0)
    # in a 36-card pack the nine of trumps is not the lowest: no exchange
    g36 = Game.from_position(
        RuleSet.preset("podkidnoy"), hands, trump_card="Qh", talon=["Qh", "9s", "Ts"]
    )
    assert not any(a.kind is ActionKind.EXCHANGE for a in g36.legal_actions(0))


# --------------------------------------------------------------- Severnyi, six players


def test_severnyi_last_card_changes_trumps() -> None:
    rules = RuleSet.preset("severnyi")
    hands = [["7c", "7d", "9c", "Tc", "Jc", "Qc"], ["8d", "9d", "Td", "Jd", "Qd", "Kd"]]
    # talon bottom to top: the face-down card, the face-up trump on it, one more card
    g = Game.from_position(rules, hands, trump_card="8h", talon=["9s", "8h", "7s"], trump_index=1)
    assert g.trump == Card.parse("8h").suit
    events = play(g, "0 attack 7c 7d", "1 take")
    events += finish_bout(g)
    # seat 0 draws two (7s, then the face-up 8h: "the face-up trump is drawn as the second to
    # last stock card"); nobody else needs any, so draw the last card in another bout.
    assert draws(events) == [(0, 2)]
    assert [str(c) for c in next(e.cards for e in events if e.kind == "draw")] == ["7s", "8h"]
    assert g.trump == Card.parse("8h").suit and len(g.talon) == 1
    events = play(g, "0 attack 9c", "1 take")
    events += finish_bout(g)
    draw = [e for e in events if e.kind == "draw"]
    assert [(e.seat, [str(c) for c in e.cards]) for e in draw] == [(0, ["9s"])]
    # "The player who takes the final face-down stock card shows it"
    assert [str(c) for c in draw[0].visible_cards(1)] == ["9s"]
    change = [e for e in events if e.kind == "trump_change"]
    assert [str(c) for e in change for c in e.cards] == ["9s"]
    # "the former trump suit becomes an ordinary suit"
    assert g.trump == Card.parse("9s").suit
    assert g.observation(1).trump == Card.parse("9s").suit


def test_six_players_36_cards_dealer_last_card_is_trumps() -> None:
    rules = RuleSet.preset("podkidnoy", players=6)
    for seed in range(20):
        dealer = seed % 6
        g = Game.new(rules, seed=seed, dealer=dealer)
        assert not g.talon  # "With six players and 36 cards there will be no talon"
        assert all(g.hand_size(s) == 6 for s in range(6))
        trump = Card(g.trump_card)
        assert trump in g.hand(dealer) and g.trump == trump.suit
        # the turned-up card was seen by everybody
        for s in range(6):
            assert g.observation(s).known_masks[dealer] & trump.bit
        # no talon, so nothing to exchange
        assert not any(a.kind is ActionKind.EXCHANGE for a in g.all_legal_actions())


# --------------------------------------------------------------- who leads


def test_lowest_trump_leads_the_first_deal_and_left_of_dealer_later() -> None:
    rules = RuleSet.preset("podkidnoy", players=4)
    for seed in range(20):
        g = Game.new(rules, seed=seed, dealer=2)
        lowest = min((c.rank, s) for s in range(4) for c in g.hand(s) if c.suit == g.trump)
        assert g.attacker == lowest[1]
        assert g.defender == (g.attacker + 1) % 4
    old = Game.new(rules.replace(first_lead="left_of_dealer"), seed=3, dealer=2)
    assert roles(old) == (3, 0)


def test_four_player_individual_throw_in_priority() -> None:
    """'the second attacker is the player to the left of the defender, and this player also
    has priority over the third attacker, who is the player opposite the defender'."""
    rules = RuleSet.preset("podkidnoy", players=4)
    hands = [["6c", "Kd"], ["7c", "8h"], ["6d", "Ks"], ["6s", "Kc"]]
    g = Game.from_position(rules, hands, trump="h", attacker=0, defender=1, discard=None)
    play(g, "0 attack 6c", "1 defend 6c/7c", "0 pass")
    assert g.eligible_attackers() == [0, 2, 3]
    assert legal(g, 2) == {"throw 6d", "pass"} and legal(g, 3) == {"pass"}
    play(g, "2 pass")
    assert legal(g, 3) == {"throw 6s", "pass"}
