"""``normal`` in Simple Durak (Prostoy): beat rather than take to save a trump, and lead a
whole group of a rank (``engine.ai.simple_fool``); the playouts of ``hard`` (``fastplay``)
make the same choices."""

from __future__ import annotations

import random

from engine import Action, Game, RuleSet
from engine.ai import fastplay
from engine.ai.policies import normal_policy
from engine.ai.view import view_of_game

DECK = [r + s for s in "cdhs" for r in "6789TJQKA"]


def _position(preset: str, hands: list[list[str]], table: list[list[str | None]]) -> Game:
    """Two players, trump diamonds (the 6 of diamonds turned up), the rest of the pack in the
    talon, seat 1 leading at seat 0 when ``table`` holds a card."""
    used = {c for h in hands for c in h} | {c for p in table for c in p if c}
    talon = ["6d"] + [c for c in DECK if c not in used and c != "6d"]
    attacker = 1 if table else 0
    return Game.from_position(
        RuleSet.preset(preset),
        hands=hands,
        trump_card="6d",
        talon=talon,
        table=table,
        attacker=attacker,
        defender=1 - attacker,
    )


def _normal(g: Game, seat: int) -> Action | None:
    return normal_policy(view_of_game(g, seat, g.legal_actions(seat)), random.Random(0))


def test_beats_with_a_trump_rather_than_take_while_the_talon_is_long() -> None:
    # 8h led, only the 7 of trumps beats it. In Podkidnoy normal takes this cheap card early
    # rather than spend a trump (beating there invites throw-ins and the trump is worth more
    # later). Without throw-ins the beat costs that one trump and nothing more, and it wins
    # the lead; taking keeps the other player leading at us again and again.
    hands = [["6c", "7s", "9s", "Jc", "Qc", "7d"], ["6h", "7c", "Ts", "Jh", "Ks"]]
    table: list[list[str | None]] = [["8h", None]]
    beat, take = Action.parse("0 defend 8h 7d"), Action.parse("0 take")
    g = _position("prostoy", hands, table)
    assert _normal(g, 0) == beat
    assert fastplay._defend(g, 0, g.trump) == beat
    plain = _position("podkidnoy", hands, table)
    assert _normal(plain, 0) == take  # the plain game's judgement is untouched


def test_leads_a_pair_rather_than_its_lowest_card() -> None:
    # The lead is the whole attack: two nines led together must both be beaten (or both
    # taken), the only way to shed two cards in one bout; nothing is gained by keeping the
    # pair for throw-ins that do not exist. In Podkidnoy normal leads the lone six.
    hands = [["6c", "9h", "9s", "Jc", "Kh", "Ac"], ["7h", "7c", "Ts", "Jh", "Ks", "Qs"]]
    pair = Action.parse("0 attack 9h 9s")
    g = _position("prostoy", hands, [])
    assert _normal(g, 0) == pair
    assert fastplay._lead(g, 0) == pair
    plain = _position("podkidnoy", hands, [])
    assert _normal(plain, 0) == Action.parse("0 attack 6c")
