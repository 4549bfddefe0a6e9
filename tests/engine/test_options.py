"""Each RuleSet option switches behaviour: the same position under two values differs.

``COVERED`` records which option each test exercises; ``test_every_option_is_covered`` fails
when an option is added to ``RuleSet`` without a test here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from engine import Action, ActionKind, Game, IllegalAction, InvalidPosition, RuleError, RuleSet
from engine.cards import Card

from .helpers import draws, finish_bout, legal, play, roles

COVERED: set[str] = set()
F = TypeVar("F", bound=Callable[..., Any])


def covers(*names: str) -> Callable[[F], F]:
    def mark(fn: F) -> F:
        COVERED.update(names)
        return fn

    return mark


POD = RuleSet.preset("podkidnoy")


def kinds(g: Game, seat: int) -> set[ActionKind]:
    return {a.kind for a in g.legal_actions(seat)}


# ------------------------------------------------------------------ the pack and the deal


@covers("players", "hand_size")
@pytest.mark.parametrize(("players", "hand_size"), [(2, 6), (3, 6), (5, 6), (3, 5)])
def test_players_and_hand_size_shape_the_deal(players: int, hand_size: int) -> None:
    g = Game.new(POD.replace(players=players, hand_size=hand_size), seed=7)
    assert [g.hand_size(s) for s in range(players)] == [hand_size] * players
    assert len(g.talon) == 36 - players * hand_size


@covers("hand_size")
def test_hand_size_is_what_hands_are_refilled_to() -> None:
    hands = [["6c", "7c", "8c", "9c"], ["6d", "7d", "8d", "9d"]]
    talon = ["Ah", "Ks", "Qs", "Js", "Ts", "9s", "8s"]
    for size, want in ((4, [(0, 1)]), (6, [(0, 3), (1, 1)])):
        g = Game.from_position(POD.replace(hand_size=size), hands, trump_card="Ah", talon=talon)
        events = play(g, "0 attack 6c", "1 take")
        events += finish_bout(g)
        # seat 1 picked up to five cards: it only draws when the refill size is above that
        assert draws(events) == want


@covers("deck_size")
def test_deck_size_picks_the_pack() -> None:
    for size, low in ((24, 9), (36, 6), (52, 2)):
        g = Game.new(POD.replace(deck_size=size), seed=3)
        cards = [c for s in range(2) for c in g.hand(s)] + [Card(c) for c in g.talon]
        assert len(cards) == size and min(c.rank for c in cards) == low
    with pytest.raises(InvalidPosition, match="not in a 24-card pack"):
        Game.from_position(POD.replace(deck_size=24), [["6c"], ["9d"]], trump="h")


# ------------------------------------------------------------------ who may attack


def five_player_bout(throw_in: str, **extra: Any) -> Game:
    rules = RuleSet.preset(
        "podkidnoy", players=5, throw_in=throw_in, pile_on=throw_in != "none", **extra
    )
    hands = [["6c", "6s"], ["7c", "Ah"], ["6d", "Ks"], ["6h", "Kd"], ["Kc", "Qs"]]
    g = Game.from_position(rules, hands, trump="h")
    play(g, "0 attack 6c", "1 defend 6c/7c")
    return g


@covers("throw_in")
def test_throw_in_modes() -> None:
    g = five_player_bout("all")
    assert g.eligible_attackers() == [0, 2, 3, 4]
    g = five_player_bout("neighbours")
    # only the players next to the defender (0 on the right, 2 on the left)
    assert g.eligible_attackers() == [0, 2]
    play(g, "0 pass", "2 pass")
    assert not g.table and Card.parse("6h") in g.hand(3)  # seat 3 never got to throw
    g = five_player_bout("attacker")
    assert g.eligible_attackers() == [0]
    assert legal(g, 2) == set()
    g = five_player_bout("none")
    # Prostoy: the lead is the whole attack, so beating it ends the bout at once
    assert not g.table and roles(g) == (1, 2)


@covers("attacker_priority")
def test_attacker_priority() -> None:
    # with priority seat 2 may only say 'done' until the principal attacker has spoken
    for priority, seat2 in ((True, {"pass"}), (False, {"throw 6d", "pass"})):
        g = five_player_bout("all", attacker_priority=priority)
        assert legal(g, 0) == {"throw 6s", "pass"}
        assert legal(g, 2) == seat2
    g = five_player_bout("all")
    play(g, "0 pass")
    assert legal(g, 2) == {"throw 6d", "pass"}


@covers("co_attack")
def test_co_attackers_join_after_the_first_card_is_beaten() -> None:
    """pagat: "after the defender has beaten the attacker's first card other opponents of the
    defender can join in the attack"; the overview: "At any point during a defense, the
    attacker or any third party can pitch in extra attacking cards"."""
    rules = RuleSet.preset("podkidnoy", players=3)
    assert rules.co_attack == "after_first_beat"
    hands = [["6c", "6s", "9d"], ["7c", "Ah", "Kh"], ["6d", "Ks", "Qs"]]
    for timing, before in (("after_first_beat", set()), ("any_time", {"throw 6d"})):
        g = Game.from_position(
            rules.replace(co_attack=timing, attacker_priority=False), hands, trump="h"
        )
        play(g, "0 attack 6c")
        assert {a for a in legal(g, 2) if a.startswith("throw")} == before
        assert legal(g, 0) >= {"throw 6s"}  # the principal attacker may always go on
        if not before:
            with pytest.raises(IllegalAction) as info:
                g.apply(Action.parse("2 throw 6d"))
            assert info.value.code == "first_not_beaten"
        play(g, "1 defend 6c/7c")
        assert "throw 6d" in legal(g, 2)  # the first card is beaten: seat 2 joins
    # pagat example 2: a co-attacker gives a card to a defender who takes the first one
    g = Game.from_position(rules, hands, trump="h")
    play(g, "0 attack 6c", "1 take", "0 pass")
    assert "pile 6d" in legal(g, 2)
    # the online preset keeps "any time"
    assert RuleSet.preset("durak-online").co_attack == "any_time"


@covers("auto_done")
def test_auto_done() -> None:
    """Seat 4 holds nothing of the table's ranks. By default it still owes its 'done', so the
    bout's end says nothing about its hand; with auto_done it is passed over at once."""
    g = five_player_bout("all")
    play(g, "0 pass", "2 pass", "3 pass")
    assert g.table and legal(g, 4) == {"pass"}
    play(g, "4 pass")
    assert not g.table
    g = five_player_bout("all", auto_done=True)
    play(g, "0 pass", "2 pass", "3 pass")
    assert not g.table
    # and with priority a co-attacker's turn opens as soon as those before it cannot add
    hands = [["6c", "Ad"], ["7c", "Ah"], ["6d", "Ks"], ["Qd", "Kd"], ["Kc", "Qs"]]
    for auto, seat2 in ((False, {"pass"}), (True, {"throw 6d", "pass"})):
        rules = RuleSet.preset("podkidnoy", players=5, auto_done=auto)
        g = Game.from_position(rules, hands, trump="h")
        play(g, "0 attack 6c", "1 defend 6c/7c")
        assert legal(g, 2) == seat2


# ------------------------------------------------------------------ how many cards


def big_defender(rules: RuleSet, **extra: Any) -> Game:
    """Seat 0 holds seven low non-trumps; seat 1 holds eight trumps, and every trump it beats
    with brings a new rank to the table, so only the limits stop the attack."""
    hands = [
        ["6c", "6d", "6s", "7c", "7d", "7s", "8c"],
        ["6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"],
    ]
    return Game.from_position(rules, hands, trump="h", **extra)


def throw_all(g: Game) -> int:
    """Seat 0 leads, then throws in while it can (seat 1 beats each card with its lowest
    trump); returns how many attack cards the bout held."""
    play(g, "0 attack 6c")
    count = 1
    while True:
        defend = min(a for a in g.legal_actions(1) if a.kind is ActionKind.DEFEND)
        g.apply(defend)
        throws = [a for a in g.legal_actions(0) if a.kind is ActionKind.THROW]
        if not throws:
            assert not g.table  # nobody can add anything: the bout ended by itself
            return count
        g.apply(min(throws))
        count += 1


@covers("max_attack")
def test_max_attack() -> None:
    assert throw_all(big_defender(POD)) == 6
    assert throw_all(big_defender(POD.replace(max_attack=None))) == 7
    assert throw_all(big_defender(POD.replace(max_attack=3))) == 3


@covers("first_bout_max")
def test_first_bout_max() -> None:
    rules = POD.replace(first_bout_max=5)
    assert throw_all(big_defender(rules, bout_no=1)) == 5
    assert throw_all(big_defender(rules, bout_no=2)) == 6
    assert throw_all(big_defender(POD, bout_no=1)) == 6


@covers("all_out")
def test_all_out() -> None:
    """Both last cards gone in one bout: pagat calls it a draw; under last_defender_loses the
    defender, who beat with the very last card, is the fool."""
    hands = [["7c"], ["8c"]]
    g = Game.from_position(POD, hands, trump="h")
    play(g, "0 attack 7c", "1 defend 7c/8c")
    assert g.result is not None and g.result.kind == "draw"
    g = Game.from_position(POD.replace(all_out="last_defender_loses"), hands, trump="h")
    play(g, "0 attack 7c", "1 defend 7c/8c")
    assert g.result is not None and (g.result.kind, g.result.fool) == ("fool", 1)
    assert g.result.finish_order == (0,)
    teams = RuleSet.preset("teams-2v2", all_out="last_defender_loses")
    g = Game.from_position(teams, [["7c"], ["8c"], [], []], trump="h", out=[2, 3])
    play(g, "0 attack 7c", "1 defend 7c/8c")
    assert g.result is not None and (g.result.kind, g.result.losing_team) == ("team", 1)


@covers("pile_on")
def test_pile_on() -> None:
    hands = [["6c", "6d", "9s"], ["7h", "8s", "Ts"]]
    g = Game.from_position(POD, hands, trump="s")
    play(g, "0 attack 6c", "1 take")
    assert legal(g, 0) == {"pile 6d", "pass"}
    play(g, "0 pile 6d")
    assert legal(g, 0) == {"pass"}  # nothing more to give, but the word is the attacker's
    play(g, "0 pass")
    assert g.hand_size(1) == 5
    g = Game.from_position(POD.replace(pile_on=False), hands, trump="s")
    play(g, "0 attack 6c", "1 take")
    assert not g.table and g.hand_size(1) == 4  # picked up at once, nothing added


# ------------------------------------------------------------------ after the bout


@covers("draw_order")
def test_draw_order() -> None:
    hands = [["6c", "Ac"], ["7c", "Ad"], ["8c", "As"]]
    talon = ["Kh", "Qh", "Jh", "Th", "9h", "8h"]
    orders = {}
    for order in ("attackers_first", "from_defender"):
        rules = RuleSet.preset("podkidnoy", players=3, draw_order=order, hand_size=2)
        g = Game.from_position(rules, hands, trump_card="Kh", talon=talon)
        events = play(g, "0 attack 6c", "1 defend 6c/7c")
        events += finish_bout(g)
        orders[order] = [s for s, _ in draws(events)]
    assert orders == {"attackers_first": [0, 1], "from_defender": [1, 0]}


def test_attack_transferred_back_to_its_leader_who_then_draws_first() -> None:
    """perevodnoy: "the original attacker draws first, then the other attackers in clockwise
    order, and finally the defender (unless the defender started out as an attacker –
    sometimes it happens that the attack is passed all the way around the table and the
    original attacker becomes the defender)"."""
    hands = [["6c", "9s", "Ts", "Js"], ["6d", "7c", "8c"], ["6h", "7d", "8d"]]
    talon = ["As", "9c", "Tc", "Jc", "Qc", "Kc", "Ac"]
    rules = RuleSet.preset("perevodnoy", players=3, hand_size=3)
    g = Game.from_position(rules, hands, trump_card="As", talon=talon)
    play(g, "0 attack 6c", "1 transfer 6d", "2 transfer 6h")
    assert roles(g) == (2, 0)  # the attack came back round to the player who led it
    events = play(g, "0 defend 6c/9s", "0 defend 6d/Ts", "0 defend 6h/Js")
    assert [s for s, _ in draws(events)] == [0, 1, 2]
    # the usual case is unchanged: the leader first, then clockwise (the defender, who took,
    # needs nothing here)
    hands[0] = ["6c", "9s", "Ts"]
    g = Game.from_position(rules, hands, trump_card="As", talon=talon)
    events = play(g, "0 attack 6c", "1 transfer 6d", "2 take")
    events += finish_bout(g)
    assert [s for s, _ in draws(events)] == [0, 1]


def test_a_position_with_a_complete_bout_settles_on_loading() -> None:
    """Every card is beaten and the only attacker has said "done": the bout is over, so the
    loaded game has already discarded it and the defender leads, instead of a state where
    nobody can act."""
    g = Game.from_dict(
        {
            "preset": "podkidnoy",
            "hands": [["7c", "8d"], ["9h", "Ah"]],
            "trump": "h",
            "table": [["6c", "8c"]],
            "passed": [0],
        }
    )
    assert not g.table and g.discard >> Card.parse("8c") & 1
    assert roles(g) == (1, 0) and g.all_legal_actions()


@covers("after_pickup")
def test_after_pickup() -> None:
    hands = [["6c", "Ac"], ["7d", "Ad"], ["8c", "As"]]
    for mode, want in (("next_after_defender", (2, 0)), ("same_attacker", (0, 1))):
        rules = RuleSet.preset("podkidnoy", players=3, after_pickup=mode)
        g = Game.from_position(rules, hands, trump="h")
        play(g, "0 attack 6c", "1 take")
        finish_bout(g)
        assert roles(g) == want


@covers("next_deal_lead", "first_lead")
def test_who_leads_the_next_deal() -> None:
    base = RuleSet.preset("podkidnoy", players=4)
    done = Game.from_position(base, [["6c"], ["7c"], ["Ah"], ["Kh", "Qh"]], trump="h")
    play(done, "0 attack 6c", "1 defend 6c/7c")
    done = Game.from_position(
        base, [[], [], ["6c"], ["7d", "Qh"]], trump="h", attacker=2, defender=3, out=[0, 1]
    )
    play(done, "2 attack 6c", "3 take")
    assert done.result is not None and done.result.fool == 3
    for mode in ("left_of_dealer", "duraka_uchat", "lowest_trump"):
        g = Game.from_dict({**done.to_dict(), "rules": base.replace(next_deal_lead=mode).to_dict()})
        nxt = g.next_deal(seed=11)
        assert nxt.dealer == 3  # the fool deals
        if mode == "left_of_dealer":
            assert roles(nxt) == (0, 1)  # "we go from under the fool"
        elif mode == "duraka_uchat":
            assert roles(nxt) == (2, 3)  # the player to the fool's right attacks the fool
        else:
            low = min((c.rank, s) for s in range(4) for c in nxt.hand(s) if c.suit == nxt.trump)
            assert nxt.attacker == low[1]


# ------------------------------------------------------------------ transfers


def transfer_position(rules: RuleSet) -> Game:
    hands = [["6c", "Ac", "Kc"], ["6d", "6h", "9c"], ["7s", "8s", "9s", "Ts"]]
    g = Game.from_position(rules.replace(players=3), hands, trump="h")
    play(g, "0 attack 6c")
    return g


@covers("transfer")
def test_transfer_modes() -> None:
    assert ActionKind.TRANSFER not in kinds(transfer_position(POD), 1)
    assert "transfer 6d" in legal(transfer_position(RuleSet.preset("perevodnoy")), 1)
    # before_beat vs kiev after a beat: a fresh card of a new rank
    for mode, allowed in (("before_beat", False), ("kiev", True)):
        rules = RuleSet(transfer=mode, players=3)
        hands = [["6c", "Jd", "Kc"], ["Js", "Jh", "9c"], ["7s", "8s", "9s", "Ts"]]
        g = Game.from_position(rules, hands, trump="h")
        play(g, "0 attack 6c", "1 defend 6c/Jh", "0 throw Jd")
        # the jack is a fresh card (the six is beaten)
        assert ("transfer Js" in legal(g, 1)) is allowed


@covers("pass_card")
def test_pass_card() -> None:
    for flag in (False, True):
        g = transfer_position(RuleSet(transfer="before_beat", pass_card=flag))
        assert ("show 6h" in legal(g, 1)) is flag
    g = transfer_position(RuleSet(transfer="before_beat", pass_card=True))
    play(g, "1 show 6h")
    # 2 -> 0 is the only transfer left; the six of hearts was already shown this bout
    assert roles(g) == (1, 2)
    assert Card.parse("6h") in g.hand(1)


# ------------------------------------------------------------------ the exchange


def exchange_position(rules: RuleSet) -> Game:
    hands = [["6h", "7c", "8c", "9c", "Tc", "Jc"], ["7d", "8d", "9d", "Td", "Jd", "Qd"]]
    return Game.from_position(rules, hands, trump_card="Ah", talon=["Ah", "9s", "Ts"])


@covers("trump_exchange")
def test_trump_exchange_modes() -> None:
    assert "exchange 6h" in legal(exchange_position(POD), 0)
    assert "exchange 6h" in legal(
        exchange_position(POD.replace(trump_exchange="lowest_for_ace")), 0
    )
    assert ActionKind.EXCHANGE not in kinds(exchange_position(POD.replace(trump_exchange="off")), 0)


@covers("exchange_original_holder_only")
def test_exchange_original_holder_only() -> None:
    for only, allowed in ((True, False), (False, True)):
        g = exchange_position(POD.replace(exchange_original_holder_only=only))
        play(g, "0 attack 6h", "1 take")
        finish_bout(g)
        assert ("exchange 6h" in legal(g, 1)) is allowed


@covers("exchange_regained")
def test_exchange_by_an_original_holder_who_picks_the_six_back_up() -> None:
    """pagat: "The six of trumps can only be exchanged by its original holder; if you acquire
    it from another player (as one of the cards you pick up when attacked) you cannot exchange
    it." Seat 0 was dealt the 6h, it goes to seat 1 in a pick-up and comes back to seat 0 the
    same way: the default reads the parenthesis literally (no exchange); the option allows it.
    """
    assert POD.exchange_regained is False
    hands = [["6h", "7c", "8s"], ["7d", "9c", "Ts"]]
    talon = ["Ah", "9s", "Jd", "Qs", "Ks", "Kd"]
    for regained in (False, True):
        rules = POD.replace(hand_size=3, exchange_regained=regained)
        g = Game.from_position(rules, hands, trump_card="Ah", talon=talon)
        assert "exchange 6h" in legal(g, 0)
        play(g, "0 attack 6h", "1 take")
        finish_bout(g)
        assert "exchange 6h" not in legal(g, 1)  # acquired from another player
        play(g, "0 attack 7c", "1 defend 7c/9c", "0 pass")
        play(g, "1 attack 6h", "0 take")
        finish_bout(g)
        assert g.trump_index == 0 and Card.parse("6h") in g.hand(0)
        assert ("exchange 6h" in legal(g, 0)) is regained


@covers("exchange_timing")
def test_exchange_timing() -> None:
    hands = [["7c", "7d", "9c", "Tc", "Jc", "Qc"], ["8c", "8d", "9d", "Td", "Jd", "Qd"]]
    for timing, allowed in (("until_next_bout", True), ("until_talon_empty", False)):
        rules = POD.replace(exchange_timing=timing)
        g = Game.from_position(rules, hands, trump_card="Ah", talon=["Ah", "6h", "7s"])
        play(g, "0 attack 7c 7d", "1 defend 7c/8c", "1 defend 7d/8d", "0 pass")
        assert ("exchange 6h" in legal(g, 0)) is allowed


# ------------------------------------------------------------------ partnerships, Severnyi


@covers("teams")
def test_teams_partner_cannot_throw_in() -> None:
    hands = [["6c", "Kd"], ["7c", "8h"], ["6d", "Ks"], ["6s", "Kc"]]
    for teams, eligible in (("none", [0, 2, 3]), ("2v2", [0, 2])):
        g = Game.from_position(RuleSet(players=4, teams=teams), hands, trump="h")
        play(g, "0 attack 6c", "1 defend 6c/7c")
        assert g.eligible_attackers() == eligible


@covers("severnyi")
def test_severnyi_switch() -> None:
    hands = [["7c", "7d", "Tc", "Jc", "Qc", "Kc"], ["8d", "9d", "Td", "Jd", "Qd", "Kd"]]
    for flag in (False, True):
        # Severnyi: the 9s lies face down under the turned-up 8h; otherwise the 8h is last
        talon, extra = (["9s", "8h"], {"trump_index": 1}) if flag else (["8h", "9s"], {})
        g = Game.from_position(
            POD.replace(severnyi=flag), hands, trump_card="8h", talon=talon, **extra
        )
        events = play(g, "0 attack 7c 7d", "1 take")
        events += finish_bout(g)
        changed = [e for e in events if e.kind == "trump_change"]
        assert bool(changed) is flag
        assert g.trump == (Card.parse("9s").suit if flag else Card.parse("8h").suit)


@covers("variant")
def test_variant_combines_with_every_base_game() -> None:
    """The catalogue: variants differ "from the Simple, Thrown on or Transfer Fool only by"
    one rule, so each base game takes the twist, and an option the twist cannot live with is
    refused with a reason (its own tests are in test_variants.py)."""
    hands = [["7c", "7d"], ["8c", "9h"]]
    for base in ("prostoy", "podkidnoy", "perevodnoy"):
        rules = RuleSet.preset(base).with_variant("trumpless")
        assert rules.variant == "trumpless" and rules.transfer == RuleSet.preset(base).transfer
        g = Game.from_position(rules, hands, trump="-", talon=["As", "Ks"])
        play(g, "0 attack 7c")
        assert legal(g, 1) >= {"defend 7c/8c", "take"} and "defend 7c/9h" not in legal(g, 1)
    plain = Game.from_position(POD, hands, trump="h", talon=["As", "Ks"])
    play(plain, "0 attack 7c")
    assert "defend 7c/9h" in legal(plain, 1)  # hearts are trumps in the plain game
    with pytest.raises(RuleError, match="no trump to exchange"):
        RuleSet(variant="trumpless")
    with pytest.raises(RuleError, match="unknown variant"):
        POD.with_variant("czech")


def test_every_option_is_covered() -> None:
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert names == COVERED


# ------------------------------------------------------------------ rule errors


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: RuleSet.preset("nope"), "unknown preset"),
        (lambda: POD.replace(colour="red"), "unknown rule option"),
        (lambda: RuleSet.from_dict({"players": 2, "jokers": 1}), "unknown rule option"),
        (lambda: POD.replace(players=7), "players must be from 2 to 6"),
        (lambda: POD.replace(players=1), "players must be from 2 to 6"),
        (lambda: POD.replace(deck_size=40), "deck_size must be one of"),
        (lambda: POD.replace(throw_in="everyone"), "throw_in must be one of"),
        (lambda: POD.replace(hand_size=0), "hand_size must be at least 1"),
        (lambda: POD.replace(players=5, deck_size=24), "need 30 cards"),
        (lambda: POD.replace(max_attack=0), "max_attack must be a positive number"),
        (lambda: POD.replace(teams="2v2"), "2v2 partnerships need exactly 4 players"),
        (lambda: RuleSet(players=4, teams="3v3"), "3v3 partnerships need exactly 6"),
        (lambda: RuleSet(players=4, teams="2v2", transfer="before_beat"), "individuals only"),
        (lambda: POD.replace(pass_card=True), "needs transfers on"),
        (lambda: POD.replace(throw_in="none"), "piling on needs throw-ins"),
        (lambda: RuleSet(players=6, severnyi=True), "Severnyi needs at least two talon"),
    ],
)
def test_bad_rules_raise_rule_error_with_a_reason(make: Callable[[], Any], reason: str) -> None:
    with pytest.raises(RuleError, match=reason):
        make()


# ------------------------------------------------------------------ bad positions

GOOD: dict[str, Any] = {
    "preset": "podkidnoy",
    "hands": [["6c", "7c"], ["8d", "9d"]],
    "trump_card": "Ah",
    "talon": ["Ah", "Kh"],
}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"hands": [["6c", "7c"], ["6c", "9d"]]}, "appears twice"),
        ({"hands": [["6c", "7c"], ["8d", "9d"]], "talon": ["Ah", "7c"]}, "appears twice"),
        ({"hands": [["6c", "2c"], ["8d", "9d"]]}, "not in a 36-card pack"),
        ({"hands": [["6c", "Zz"], ["8d", "9d"]]}, "not a card|no valid rank"),
        ({"hands": [["6c"], ["8d"], ["9d"]], "options": {"players": 2}}, "3 hands for 2 players"),
        ({"hands": [[], []]}, "attacker has no cards|fewer than two"),
        ({"table": [["6s", "7d"]], "hands": [["6c"], ["8d"]]}, "does not beat"),
        ({"attacker": 5}, "must be a seat"),
        ({"attacker": 0, "defender": 0}, "must differ"),
        ({"trump_card": "2h"}, "not in the pack"),
        ({"trump_card": None, "talon": []}, "trump"),
        ({"rules": {"players": 2, "sparkles": True}}, "unknown rule option"),
        ({"preset": "nope"}, "unknown preset"),
        ({"schema": "chess"}, "not a durak-state"),
        ({"discard": []}, "cards missing"),
    ],
)
def test_malformed_positions_raise_invalid_position(change: dict[str, Any], reason: str) -> None:
    data = {**GOOD, **change}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(InvalidPosition, match=reason):
        Game.from_dict(json.loads(json.dumps(data)))


def test_good_position_loads() -> None:
    g = Game.from_dict(GOOD)
    assert g.legal_actions(0) and g.trump == Card.parse("Ah").suit


def test_rules_to_dict_is_asdict_of_scalar_options() -> None:
    """``RuleSet.to_dict`` is a flat copy, which equals ``dataclasses.asdict`` only while
    every option is a scalar: an option holding a list or dict would be shared, not copied."""
    from engine.rules import PRESETS

    for rules in (RuleSet(), *PRESETS.values()):
        flat = rules.to_dict()
        assert flat == dataclasses.asdict(rules)
        assert list(flat) == [f.name for f in dataclasses.fields(RuleSet)]
        assert all(v is None or isinstance(v, bool | int | str) for v in flat.values())
