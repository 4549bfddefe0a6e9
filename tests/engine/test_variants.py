"""The catalogue variants (fool-variants-catalogue.txt): what makes each one different.

Each test quotes the catalogue sentence it checks. The random-game property tests in
test_properties.py run over every variant preset too, with the beating rules re-derived there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Game, RuleSet
from engine.__main__ import main as cli
from engine.cards import NO_TRUMP, Card
from engine.variants import VARIANTS

from .helpers import finish_bout, legal, play

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
