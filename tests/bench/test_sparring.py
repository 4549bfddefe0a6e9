"""The sparring league (``bench/sparring``): each member follows its written plan in a
constructed position, and none of them peeks (a hidden card swapped between another hand
and the talon leaves its observation, and so its move, unchanged)."""

from __future__ import annotations

import random

import pytest

from bench.sparring.collector import Collector
from bench.sparring.hoarder import Hoarder
from bench.sparring.spender import Spender
from bench.sparring.transferer import Transferer, transferer_policy
from engine import Action, Game, RuleSet
from engine.ai import Player, make_player
from engine.ai.arena import step
from engine.ai.policies import normal_policy
from engine.ai.view import view_of_observation
from engine.cards import Card

PODKIDNOY = RuleSet.preset("podkidnoy")
PEREVODNOY = RuleSet.preset("perevodnoy")
DECK = [f"{r}{s}" for s in "cdhs" for r in "6789TJQKA"]
MEMBERS = (Collector, Hoarder, Spender, Transferer)


def _position(
    rules: RuleSet,
    hands: list[list[str]],
    table: list[list[str | None]],
    talon: int,
    attacker: int = 0,
    defender: int = 1,
) -> Game:
    """Hearts are trumps; ``talon`` cards nobody named lie in the talon."""
    used = {c for h in hands for c in h} | {c for p in table for c in p if c}
    rest = [c for c in DECK if c not in used]
    return Game.from_position(
        rules,
        hands=hands,
        trump="h",
        talon=rest[:talon],
        table=table,
        attacker=attacker,
        defender=defender,
        discard=rest[talon:],
    )


def _choice(player: Player, g: Game, seat: int) -> str:
    act = player.choose(g.observation(seat))
    assert act is None or act in g.legal_actions(seat)
    return "-" if act is None else str(act)


def _two(cards: str) -> list[str]:
    return cards.split()


# ------------------------------------------------------------------ the collector


def test_collector_takes_a_cheap_attack_rather_than_spend_a_trump_early() -> None:
    g = _position(PODKIDNOY, [_two("8d Jc"), _two("6h 9d Jd 8c")], [["7s", None]], talon=12)
    assert _choice(Collector(), g, 1) == "1 take"
    late = _position(PODKIDNOY, [_two("8d Jc"), _two("6h 9d Jd 8c")], [["7s", None]], talon=3)
    assert _choice(Collector(), late, 1) == "1 defend 7s/6h"


def test_collector_takes_a_cheap_card_of_a_rank_it_collects() -> None:
    g = _position(PODKIDNOY, [_two("8d Jc"), _two("8s 7d Jd Qc")], [["7s", None]], talon=12)
    assert _choice(Collector(), g, 1) == "1 take"
    other = _position(PODKIDNOY, [_two("8d Jc"), _two("8s 9d Jd Qc")], [["7s", None]], talon=12)
    assert _choice(Collector(), other, 1) == "1 defend 7s/8s"
    hands = [_two("8d Jc Qd"), _two("8s 7d Jd Qc")]
    passes = _position(PEREVODNOY, hands, [["7s", None]], talon=12)
    assert _choice(Collector(), passes, 1) == "1 transfer 7d"  # costs nothing, brings nothing


def test_collector_leads_a_lone_card_early_and_its_set_late_with_a_trump_in_reserve() -> None:
    hand = _two("6c 6d 8s 9c 9d 9s Kh")
    early = _position(PODKIDNOY, [hand, _two("7c 7d 7s Tc Td Ts")], [], talon=10)
    assert _choice(Collector(), early, 0) == "0 attack 8s"
    late = _position(PODKIDNOY, [hand, _two("7c 7d 7s Tc Td Ts")], [], talon=3)
    assert _choice(Collector(), late, 0) == "0 attack 9c 9d 9s"
    no_reserve = _position(
        PODKIDNOY, [_two("6c 6d 8s 9c 9d 9s Ks"), _two("7c 7d 7s Tc Td Ts")], [], talon=3
    )
    assert _choice(Collector(), no_reserve, 0) == "0 attack 8s"


def test_collector_throws_in_lone_cards_early_and_keeps_its_sets() -> None:
    table: list[list[str | None]] = [["7s", "8s"]]
    g = _position(PODKIDNOY, [_two("7d 7c 8d Jc"), _two("9d Jd Qc Ac")], table, talon=12)
    assert _choice(Collector(), g, 0) == "0 throw 8d"
    pair_only = _position(PODKIDNOY, [_two("7d 7c Jc"), _two("9d Jd Qc Ac")], table, talon=12)
    assert _choice(Collector(), pair_only, 0) == "0 pass"
    late = _position(PODKIDNOY, [_two("7d 7c Jc"), _two("9d Jd Qc Ac")], table, talon=2)
    assert _choice(Collector(), late, 0) == "0 throw 7c"


# ------------------------------------------------------------------ the spender


def test_spender_beats_with_a_trump_where_it_could_take() -> None:
    g = _position(PODKIDNOY, [_two("8d Jc"), _two("6h 9d Jd 8c")], [["7s", None]], talon=12)
    assert _choice(Spender(), g, 1) == "1 defend 7s/6h"
    assert _choice(Hoarder(), g, 1) == "1 take"  # the plan is not everyone's


def test_spender_throws_in_high_plain_cards_but_no_trump_while_the_talon_lasts() -> None:
    table: list[list[str | None]] = [["Ks", "As"]]
    g = _position(PODKIDNOY, [_two("Kd Kh 6c"), _two("9d Jd Qc Ac")], table, talon=12)
    assert _choice(Spender(), g, 0) == "0 throw Kd"
    trump_only = _position(PODKIDNOY, [_two("Kh 6c"), _two("9d Jd Qc Ac")], table, talon=12)
    assert _choice(Spender(), trump_only, 0) == "0 pass"


def test_spender_leads_its_single_lowest_card() -> None:
    g = _position(PODKIDNOY, [_two("7c 7d Ah 6h 8s"), _two("9d Jd Qc Ac")], [], talon=12)
    assert _choice(Spender(), g, 0) in ("0 attack 7c", "0 attack 7d")


# ------------------------------------------------------------------ the transferer


def test_transferer_transfers_even_with_a_trump_where_normal_beats() -> None:
    g = _position(PEREVODNOY, [_two("8d Jc Qd"), _two("7h 8s")], [["7s", None]], talon=12)
    assert _choice(Transferer(), g, 1) == "1 transfer 7h"
    assert _choice(make_player("normal"), g, 1) == "1 defend 7s/8s"


def test_transferer_is_normal_where_transfers_are_not_allowed() -> None:
    """On Podkidnoy the transferer's plan has nothing to do: the table is a control."""
    g = Game.new(PODKIDNOY, seed=3)
    players = [make_player("normal", seed=s) for s in range(2)]
    seen = 0
    while g.result is None and g.talon:
        for seat in range(2):
            v = view_of_observation(g.observation(seat))
            if v.acts:
                assert transferer_policy(v, random.Random(0)) == normal_policy(v, random.Random(0))
                seen += 1
        step(g, players)
    assert seen > 10


# ------------------------------------------------------------------ no peeking


def _swapped(g: Game, seat: int) -> Game | None:
    """``g`` with a card of another hand, not known to ``seat``, swapped with the talon's
    top card (hidden from every seat): the same position as far as ``seat`` can tell."""
    data = g.to_dict()
    if len(data["talon"]) < 2:
        return None
    top = data["talon"][-1]
    for other in range(g.n):
        if other == seat:
            continue
        hidden = [c for c in data["hands"][other] if not g.known[other] >> int(Card.parse(c)) & 1]
        if hidden:
            x = hidden[0]
            data["hands"][other] = [top if c == x else c for c in data["hands"][other]]
            data["talon"][-1] = x
            return Game.from_dict(data)
    return None


@pytest.mark.slow(sample=2)  # a few games per member: half of them in make check
@pytest.mark.parametrize("member", MEMBERS, ids=lambda m: m.kind)
def test_no_member_peeks(member: type[Collector]) -> None:
    """Every position of a few games: the member's observation is the same in the swapped
    game, and so, from the same seed, is its move."""
    checked = 0
    for rules, seed in ((PODKIDNOY, 1), (PEREVODNOY, 2)):
        g = Game.new(rules, seed=seed)
        players = [member(seed), make_player("normal", seed=seed)]
        while g.result is None and g.talon:
            for seat in range(g.n):
                other = _swapped(g, seat)
                if other is None or not g.legal_actions(seat):
                    continue
                assert other.observation(seat) == g.observation(seat)
                a: Action | None = member(7).choose(g.observation(seat))
                b = member(7).choose(other.observation(seat))
                assert a == b
                checked += 1
            step(g, players)
    assert checked > 20
