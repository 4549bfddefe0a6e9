"""Plural strings render the form CLDR gives each count, and the Russian forms agree.

The expected categories below are written out by hand (not asked from Babel), so a wrong
rule, a Babel/CLDR change or a form filed under the wrong category fails here.
"""

from __future__ import annotations

import pytest

from bot.i18n import catalog, plural_category, tn

RU_CATEGORY = {
    0: "many",
    1: "one",
    2: "few",
    5: "many",
    11: "many",
    21: "one",
    22: "few",
    25: "many",
}
EN_CATEGORY = {0: "other", 1: "one", 2: "other"}

#: Each Russian plural as (one, few, many) after the number: a native reading of each form.
RU_FORMS = {
    "plural.cards": ("карта", "карты", "карт"),
    "plural.points": ("очко", "очка", "очков"),
    "plural.epaulets": ("погон", "погона", "погон"),
    "plural.games": ("игра", "игры", "игр"),
    "plural.rated_games": ("рейтинговой игры", "рейтинговых игр", "рейтинговых игр"),
    "plural.players": ("игрок", "игрока", "игроков"),
    "plural.deals": ("раздачу", "раздачи", "раздач"),
    "plural.matchsticks": ("спичка", "спички", "спичек"),
    "plural.watching": ("зритель", "зрителя", "зрителей"),
}
#: English (one, other).
EN_FORMS = {
    "plural.cards": ("card", "cards"),
    "plural.points": ("point", "points"),
    "plural.epaulets": ("epaulet", "epaulets"),
    "plural.games": ("game", "games"),
    "plural.rated_games": ("rated game", "rated games"),
    "plural.players": ("player", "players"),
    "plural.deals": ("deal", "deals"),
    "plural.matchsticks": ("matchstick", "matchsticks"),
    "plural.watching": ("watching", "watching"),
}


def _bases(locale: str) -> set[str]:
    return {k.rsplit(".", 1)[0] for k in catalog(locale) if k.startswith("plural.")}


def test_every_plural_has_its_forms_written_out_here() -> None:
    """A new plural string needs its forms read and added above (a native check)."""
    assert _bases("ru") == set(RU_FORMS)
    assert _bases("en") == set(EN_FORMS)


@pytest.mark.parametrize("count", sorted(RU_CATEGORY))
def test_russian_category(count: int) -> None:
    assert plural_category(count, "ru") == RU_CATEGORY[count]


@pytest.mark.parametrize("count", sorted(EN_CATEGORY))
def test_english_category(count: int) -> None:
    assert plural_category(count, "en") == EN_CATEGORY[count]


@pytest.mark.parametrize("base", sorted(RU_FORMS))
@pytest.mark.parametrize("count", sorted(RU_CATEGORY))
def test_russian_plural_strings(base: str, count: int) -> None:
    one, few, many = RU_FORMS[base]
    word = {"one": one, "few": few, "many": many}[RU_CATEGORY[count]]
    assert tn(base, count, "ru") == f"{count} {word}"


@pytest.mark.parametrize("base", sorted(EN_FORMS))
@pytest.mark.parametrize("count", sorted(EN_CATEGORY))
def test_english_plural_strings(base: str, count: int) -> None:
    one, other = EN_FORMS[base]
    assert tn(base, count, "en") == f"{count} {one if count == 1 else other}"


def test_negative_counts_take_the_form_of_their_size() -> None:
    assert tn("plural.cards", -2, "ru") == "-2 карты"
