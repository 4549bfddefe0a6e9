"""The catalogue variants (fool-variants-catalogue.txt): what makes each one different.

Each test quotes the catalogue sentence it checks. The random-game property tests in
test_properties.py run over every variant preset too, with the beating rules re-derived there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import PRESET_DESCRIPTIONS, Action, Game, IllegalAction, RuleError, RuleSet
from engine.__main__ import main as cli
from engine.cards import CLUBS, DIAMONDS, NO_TRUMP, Card
from engine.variants import VARIANTS

from .helpers import finish_bout, legal, play, roles

#: The rule text, wherever the shared/seeds folder sits above this checkout.
CATALOGUE = next(
    (
        p / "shared/seeds/fool-variants-catalogue.txt"
        for p in Path(__file__).resolve().parents
        if (p / "shared/seeds/fool-variants-catalogue.txt").exists()
    ),
    Path("shared/seeds/fool-variants-catalogue.txt"),
)


def test_every_variant_quotes_its_catalogue_sentence_and_has_a_preset() -> None:
    for name, variant in VARIANTS.items():
        if name == "none":
            continue
        assert variant.rule_text and variant.title, name
        assert RuleSet.preset(name).variant == name
    if not CATALOGUE.exists():
        pytest.skip("the rule texts (shared/seeds) are not next to this checkout")
    flat = " ".join(CATALOGUE.read_text(encoding="utf-8").split())
    for name, variant in VARIANTS.items():
        assert " ".join(variant.rule_text.split()) in flat, name


# ------------------------------------------------------------------ trumpless


TRUMPLESS = RuleSet.preset("trumpless")


def test_trumpless_no_card_beats_another_suit() -> None:
    """ "The Trumpless Fool differs from the Simple, Thrown on or Transfer Fool only by the
    fact that the game is played with no trumps." """
    g = Game.new(TRUMPLESS, seed=3)
    assert g.trump == NO_TRUMP and g.trump_index == -1 and g.trump_card == -1
    obs = g.observation(0)
    assert obs.trump_card is None and not obs.trump_card_in_talon
    hands = [["7c", "Ad"], ["8c", "Ah", "Kc"]]
    g = Game.from_position(TRUMPLESS, hands, trump="-", talon=["6s", "9s"])
    play(g, "0 attack Ad")
    # only a higher diamond would beat the ace: none exists, so the defender can only take
    assert legal(g, 1) == {"take"}
    play(g, "1 take")
    finish_bout(g)
    assert g.hand_size(1) == 4 and Card.parse("Ad") in g.hand(1)


def test_trumpless_json_round_trip() -> None:
    g = Game.new(TRUMPLESS, seed=5)
    data = g.to_dict()
    assert data["trump"] == "-" and data["trump_card"] is None
    h = Game.from_dict(json.loads(json.dumps(data)))
    assert h.to_dict() == data


@pytest.mark.parametrize("name", [n for n in VARIANTS if n != "none"])
def test_rules_reference_names_each_variant(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["rules"]) == 0
    assert f"`{name}`" in capsys.readouterr().out


# ------------------------------------------------------------------ Japanese


def test_japanese_diamonds_are_trumps_and_only_spades_beat_spades() -> None:
    """ "the trumps are always diamonds, and the spades can be only beaten by the spades." """
    rules = RuleSet.preset("japanese")
    for seed in range(5):
        g = Game.new(rules, seed=seed)
        assert g.trump == DIAMONDS and g.trump_card == -1
        assert g.observation(0).trump_card is None
    hands = [["7s", "7c"], ["6d", "8s", "Kd", "5c"]]
    g = Game.from_position(rules.replace(deck_size=52), hands, trump="d", talon=["2h", "3h"])
    play(g, "0 attack 7s")
    assert legal(g, 1) == {"defend 7s/8s", "take"}  # no diamond beats a spade
    g = Game.from_position(rules.replace(deck_size=52), hands, trump="d", talon=["2h", "3h"])
    play(g, "0 attack 7c")
    assert legal(g, 1) == {"defend 7c/6d", "defend 7c/Kd", "take"}  # diamonds beat clubs


# ------------------------------------------------------------------ royal


def test_royal_lowest_cards_fall_only_to_aces() -> None:
    """ "the weakest cards maybe only beaten by an ace. The trump ace beats any of the weaker
    cards. ... If the deck of 36 cards is used, the card of the weakest value is a 6. It can
    only be beaten by an ace" """
    rules = RuleSet.preset("royal")
    hands = [["6c", "6h", "7c"], ["Ac", "Kc", "7h", "Ah", "8c"]]
    g = Game.from_position(rules, hands, trump="h", talon=["9s", "Ts"])
    play(g, "0 attack 6c")
    assert legal(g, 1) == {"defend 6c/Ac", "defend 6c/Ah", "take"}  # not the king, not 7h
    g = Game.from_position(rules, hands, trump="h", talon=["9s", "Ts"])
    play(g, "0 attack 6h")
    assert legal(g, 1) == {"defend 6h/Ah", "take"}  # the trump six: only the trump ace
    g = Game.from_position(rules, hands, trump="h", talon=["9s", "Ts"])
    play(g, "0 attack 7c")
    assert legal(g, 1) >= {"defend 7c/8c", "defend 7c/Kc", "defend 7c/7h"}  # others as usual
    # in a 24-card pack the nines are the weakest cards
    g = Game.from_position(
        rules.replace(deck_size=24), [["9c"], ["Tc", "Ac"]], trump="h", talon=["Js", "Qs"]
    )
    play(g, "0 attack 9c")
    assert legal(g, 1) == {"defend 9c/Ac", "take"}


# ------------------------------------------------------------------ double-trump


def test_double_trump_each_player_beats_with_their_own_suit() -> None:
    """ "each player has got his own trump. The opponents trump is no trump for the player and
    he cat beat it with his own trump or another card of a stronger value." """
    rules = RuleSet.preset("double-trump")
    # dealer 0: the turned-up club is the trump of seat 1 (dealer's left); seat 0 has diamonds
    hands = [["7c", "7h", "6d"], ["8c", "6c", "8h", "9d"]]
    g = Game.from_position(rules, hands, trump_card="Ac", talon=["Ac", "Ks"], dealer=0)
    assert [g.seat_trump(s) for s in (0, 1)] == [DIAMONDS, CLUBS]
    assert g.observation(0).trumps == (DIAMONDS, CLUBS) and g.observation(0).trump == DIAMONDS
    play(g, "0 attack 7h")
    assert legal(g, 1) == {"defend 7h/8h", "defend 7h/6c", "defend 7h/8c", "take"}
    # seat 0's diamonds are no trump for seat 1: the 9d does not beat the 7h ...
    g = Game.from_position(rules, hands, trump_card="Ac", talon=["Ac", "Ks"], attacker=1)
    play(g, "1 attack 8c")
    # ... and seat 1's club is no trump for seat 0, whose diamond beats it
    assert legal(g, 0) == {"defend 8c/6d", "take"}


def test_double_trump_lowest_own_trump_leads_and_five_players_are_refused() -> None:
    rules = RuleSet.preset("double-trump", players=3)
    for seed in range(10):
        g = Game.new(rules, seed=seed, dealer=seed % 3)
        own = [
            (min((c % 13 for c in g.hand(s) if c.suit == g.seat_trump(s)), default=99), s)
            for s in range(3)
        ]
        assert g.attacker == min(own)[1]
    with pytest.raises(RuleError, match="at most four players"):
        RuleSet.preset("double-trump", players=5)


# ------------------------------------------------------------------ road


def test_road_whole_pack_dealt_dealer_keeps_the_trump() -> None:
    """ "The whole deck is divided between all of the players. The dealer opens the last card
    and shows it. It is the trump which he keeps to himself. The one whose trump has a weaker
    value or the winner of the previous game leads." """
    for n in (2, 3, 4, 5, 6):
        g = Game.new(RuleSet.preset("road", players=n), seed=n, dealer=1)
        assert not g.talon and sum(g.hand_size(s) for s in range(n)) == 36
        assert max(g.hand_size(s) for s in range(n)) - min(g.hand_size(s) for s in range(n)) <= 1
        assert g.trump == g.trump_card // 13 and g.hands[1] >> g.trump_card & 1
        assert g.observation(0).known_masks[1] >> g.trump_card & 1  # shown to everybody
    rng = random.Random(1)
    g = Game.new(RuleSet.preset("road", players=3), seed=7)
    while g.result is None:
        g.apply(rng.choice(g.all_legal_actions()))
    nxt = g.next_deal(seed=8)
    assert g.result.finish_order and nxt.attacker == g.result.finish_order[0]


# ------------------------------------------------------------------ trump fool


def test_trump_fool_last_beaten_card_becomes_the_trump() -> None:
    """ "the last burned card changes places with the trump and the game continues with a new
    trump." """
    rules = RuleSet.preset("trump-fool", hand_size=2)
    hands = [["7c", "8c"], ["9c", "Kd"]]
    g = Game.from_position(rules, hands, trump_card="Ah", talon=["Ah", "9s", "Ts", "Js", "Qs"])
    events = play(g, "0 attack 7c", "1 defend 7c/9c", "0 pass")
    assert [e.cards for e in events if e.kind == "trump_change"] == [(Card.parse("9c"),)]
    assert g.trump == CLUBS and g.trump_card == Card.parse("9c") and g.talon[0] == g.trump_card
    assert g.discard >> Card.parse("Ah") & 1 and not g.discard >> Card.parse("9c") & 1
    assert g.observation(0).trump_card == Card.parse("9c")
    # a pick-up burns nothing: trumps stay
    play(g, "1 attack Kd", "0 take")
    finish_bout(g)
    assert g.trump == CLUBS


# ------------------------------------------------------------------ invisible


def test_invisible_trump_card_is_never_shown() -> None:
    """ "each player knows the suit of the trump card but can’t actually see the card
    itself." """
    rules = RuleSet.preset("invisible")
    rng = random.Random(2)
    g = Game.new(rules, seed=4)
    up = g.trump_card
    assert up // 13 == g.trump
    drawn_by = -1
    while g.result is None:
        for seat in (-1, *range(g.n)):
            obs = g.observation(seat)
            assert obs.trump_card is None and obs.trump == g.trump
            if seat != drawn_by:
                assert not any(k >> up & 1 for s, k in enumerate(obs.known_masks) if s != seat)
        for e in g.apply(rng.choice(g.all_legal_actions())):
            if e.kind == "draw" and up in e.cards:
                drawn_by = e.seat
                assert e.visible_cards(None) == () and e.visible_cards(1 - e.seat) == ()
    assert drawn_by >= 0
    with pytest.raises(RuleError, match="would show it"):
        RuleSet(variant="invisible")


# ------------------------------------------------------------------ leading


def test_boring_only_the_highest_rank_leads() -> None:
    """ "the player can only lead the card of the strongest value. Thus, if the strongest card
    is an ace, it should open the game, if the strongest card is the king, it should be lead
    first, etc." """
    rules = RuleSet.preset("boring")
    hands = [["6h", "Kc", "Ks", "9d"], ["7c", "8c", "9c", "Tc"]]
    g = Game.from_position(rules, hands, trump="h", talon=["As", "Qs"])
    assert legal(g, 0) == {"attack Kc", "attack Ks", "attack Kc Ks"}  # not the trump six
    with pytest.raises(IllegalAction) as info:
        g.apply(Action.parse("0 attack 9d"))
    assert info.value.code == "lead_strongest"
    play(g, "0 attack Ks", "1 take")
    assert "pile Kc" in legal(g, 0)  # throw-ins are the base game's


def test_three_leads_three_cards_while_the_talon_lasts() -> None:
    """ "the player should lead 3 cards at a time until the whole deck is out." """
    rules = RuleSet.preset("three")
    hands = [["6c", "7d", "8s", "9h"], ["Ac", "Ad", "As", "Ah", "Kc"]]
    g = Game.from_position(rules, hands, trump="h", talon=["6s", "7s"])
    leads = legal(g, 0)
    assert len(leads) == 4 and all(len(x.split()) == 4 for x in leads)  # C(4, 3) leads of 3
    assert "attack 6c" not in leads
    with pytest.raises(IllegalAction) as info:
        g.apply(Action.parse("0 attack 6c"))
    assert info.value.code == "lead_three"
    play(g, "0 attack 6c 7d 8s", "1 defend 6c/Ac")
    # every rank on the table may be thrown in, not only the first card's
    assert g.table_ranks >> Card.parse("8c") & 1 and g.table_ranks >> Card.parse("7c") & 1
    # once the talon is out, leads are the base game's again
    g = Game.from_position(rules, hands, trump="h")
    assert legal(g, 0) == {"attack 6c", "attack 7d", "attack 8s", "attack 9h"}


def test_transfer_fool_2_is_the_kiev_variation() -> None:
    """Catalogue, Transfer fool 2: "the computer lays the 6 of diamonds; the player beat it with
    the 8 of diamonds. The co9mputer tossed up the 8 of spades and the player transfers it with
    the 8 of clubs then the 8 of clubs and the 8 of spades should be beaten by the computer." """
    rules = RuleSet.preset("perevodnoy-kiev")
    assert "Transfer fool 2" in PRESET_DESCRIPTIONS["perevodnoy-kiev"]
    hands = [["6d", "8s", "9h", "Ts", "Jc"], ["8d", "8c", "Qh", "Kh"]]
    g = Game.from_position(rules, hands, trump="h", talon=["As", "Ks"])
    play(g, "0 attack 6d", "1 defend 6d/8d", "0 throw 8s", "1 transfer 8c")
    assert roles(g) == (1, 0)  # the computer now defends ...
    assert g.unbeaten() == [Card.parse("8s"), Card.parse("8c")]  # ... both eights
    assert legal(g, 0) >= {"defend 8s/Ts", "defend 8c/Jc", "take"}


def test_boring_is_refused_for_more_than_two_players() -> None:
    """With three players the trump ace and queen went round for ever in self-play: every
    holder must lead them and nobody can beat them (the position below loops)."""
    with pytest.raises(RuleError, match="played by two"):
        RuleSet.preset("boring", players=3)
    # the loop, shown on the base game's rules with the boring lead forced by hand
    hands = [
        ["7c", "7h", "8h", "6s", "Ad"],
        ["9c", "6h", "9h", "Th", "8s", "8d", "Qd"],
        ["6c", "8c", "7s", "6d"],
    ]
    g = Game.from_position(RuleSet.preset("podkidnoy", players=3), hands, trump="d", attacker=1)
    start = g.to_dict()["hands"]
    for attacker, lead, defender in (
        (1, "Qd", 2),
        (0, "Ad", 1),
        (2, "Qd", 0),
        (1, "Ad", 2),
        (0, "Qd", 1),
        (2, "Ad", 0),
    ):
        play(g, f"{attacker} attack {lead}", f"{defender} take")
        finish_bout(g)
    assert g.to_dict()["hands"] == start and g.result is None  # back where it started


def test_legal_command_reads_variant_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    hands = [["7c", "Ad"], ["8c", "Ah"]]
    path.write_text(json.dumps({"preset": "trumpless", "hands": hands, "trump": "-"}))
    assert cli(["legal", str(path)]) == 0
    assert capsys.readouterr().out.startswith("trumps none;")
    doc = {"preset": "double-trump", "hands": hands, "trump_card": "6s", "talon": ["6s", "9s"]}
    path.write_text(json.dumps(doc))
    assert cli(["legal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (attacker, trumps clubs" in out and "seat 1 (defender, trumps spades" in out
