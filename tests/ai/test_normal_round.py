"""``normal`` in Round fool (the two players exchange hands after every bout): spend the best
card, and with the talon out leave an even number of ranks (``engine.ai.round_fool``); and
``easy``'s one rule there, going out when a lead can."""

from __future__ import annotations

import random

from engine import Action, Game, RuleSet
from engine.ai.policies import easy_policy, normal_policy
from engine.ai.view import view_of_game

DECK = [r + s for s in "cdhs" for r in "6789TJQKA"]


def _position(
    preset: str,
    hands: list[list[str]],
    table: list[list[str | None]],
    *,
    talon: bool,
    attacker: int = 1,
) -> Game:
    """Two players, trump diamonds (the 6 of diamonds turned up); the rest of the pack in the
    talon, or (``talon=False``) in the discard."""
    used = {c for h in hands for c in h} | {c for p in table for c in p if c}
    rest = ["6d"] + [c for c in DECK if c not in used and c != "6d"]
    return Game.from_position(
        RuleSet.preset(preset),
        hands=hands,
        trump="d",
        talon=rest if talon else [],
        discard=[] if talon else rest,
        table=table,
        attacker=attacker,
        defender=1 - attacker,
    )


def _normal(g: Game, seat: int) -> Action | None:
    return normal_policy(view_of_game(g, seat, g.legal_actions(seat)), random.Random(0))


def test_beats_with_its_most_valuable_card_while_the_talon_lasts() -> None:
    # 8h led: the 9h, the Kh and the 7 of trumps beat it. At the end of the bout the attacker
    # receives our hand, so the trump we save is the trump we hand over: spend it. In
    # Podkidnoy normal beats with the cheapest card, the 9h.
    hands = [["9h", "Kh", "7d", "6c", "Ts", "Jc"], ["6h", "7c", "8c", "Jh", "Ks"]]
    table: list[list[str | None]] = [["8h", None]]
    g = _position("round", hands, table, talon=True)
    assert _normal(g, 0) == Action.parse("0 defend 8h 7d")
    plain = _position("podkidnoy", hands, table, talon=True)
    assert _normal(plain, 0) == Action.parse("0 defend 8h 9h")


def test_endgame_lead_leaves_an_even_number_of_ranks() -> None:
    # Talon out, we lead holding 6c 6s 9h. If the pair of sixes is led and beaten, the other
    # player takes our rest (the lone 9h) as the attacking hand, leads it and is out first.
    # One six leaves two ranks: the other player leads one of them and we lead the last.
    # In Podkidnoy normal leads the pair (late, getting rid of cards is what matters).
    hands = [["6c", "6s", "9h"], ["7c", "8s", "Jh", "Qd"]]
    g = _position("round", hands, [], talon=False, attacker=0)
    assert _normal(g, 0) == Action.parse("0 attack 6c")
    plain = _position("podkidnoy", hands, [], talon=False, attacker=0)
    assert _normal(plain, 0) == Action.parse("0 attack 6c 6s")


def test_endgame_throw_in_keeps_an_even_number_of_ranks() -> None:
    # Talon out, our 7c was beaten by the 9c; we hold 7s 9h. Throwing in the 7s leaves the
    # lone 9h, which the other player receives as the attacking hand if the 7s is beaten (it
    # holds the 8s) and leads out. Keeping both ranks, we pass. In Podkidnoy normal
    # throws in with two cards left (emptying the hand wins the deal there).
    hands = [["7s", "9h"], ["8s", "Jh", "Qd"]]
    table: list[list[str | None]] = [["7c", "9c"]]
    g = _position("round", hands, table, talon=False, attacker=0)
    assert _normal(g, 0) == Action.parse("0 pass")
    plain = _position("podkidnoy", hands, table, talon=False, attacker=0)
    assert _normal(plain, 0) == Action.parse("0 throw 7s")


def test_easy_leads_its_whole_hand_when_that_goes_out() -> None:
    # easy's one rule of the variant: holding only the pair of sixes with the talon out, lead
    # both (the empty hand is out at the end of the bout); its plain rule, the lowest single
    # card, would hand the other six over with the hand.
    hands = [["6c", "6s"], ["7c", "8s", "Jh", "Qd"]]
    g = _position("round", hands, [], talon=False, attacker=0)
    v = view_of_game(g, 0, g.legal_actions(0))
    assert easy_policy(v, random.Random(0)) == Action.parse("0 attack 6c 6s")
    plain = _position("podkidnoy", hands, [], talon=False, attacker=0)
    v = view_of_game(plain, 0, plain.legal_actions(0))
    assert easy_policy(v, random.Random(0)) == Action.parse("0 attack 6c")
