"""Every reason of ``engine.ai.reasons`` has its sentence in both languages, and the
sentence names exactly the cards of its fact (so a fact checked true on the cards gives a
sentence true of them)."""

from __future__ import annotations

import pytest

from bot.rendering.common import card_text
from bot.surfaces.reasons import reason_lines
from engine import Action
from engine.ai import reasons as r
from engine.cards import CARDS

SUITS = "♣♦♥♠"
CARDS_OF = (4, 17, 31)  # 6♣ 6♦ 7♥
ALT = Action.parse("0 attack 8s")


def _fact(kind: str) -> r.Fact:
    if kind in (r.CHEAPEST_BEATER, r.COULD_BEAT, r.EXCHANGE_UP):
        return r.Fact(kind, CARDS_OF[:2])
    if kind in (r.LOWEST_THROW, r.NO_BEATER, r.COULD_THROW):
        return r.Fact(kind, CARDS_OF[:1])
    if kind in (r.ALTERNATIVE, r.CLOSE_CALL):
        return r.Fact(kind, action=ALT, chance=0.62, other=0.4, noise=0.09)
    if kind in (r.TALON_EMPTY, r.TALON_LAST_DRAW, r.SOLVED_WIN):
        return r.Fact(kind, seat=1 if kind == r.TALON_EMPTY else -1, count=3)
    if kind == r.LOWER_LEAD:
        return r.Fact(kind, CARDS_OF[2:], alt=CARDS_OF[:1])
    return r.Fact(kind, CARDS_OF, seat=1)


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("kind", r.FACT_KINDS)
def test_each_reason_names_exactly_its_cards(kind: str, locale: str) -> None:
    fact = _fact(kind)
    (line,) = reason_lines([fact], locale, local_ranks=True, name_of=lambda s: f"Seat{s}")
    named = [*fact.cards, *fact.alt, *(fact.action.cards if fact.action else ())]
    for c in named:
        assert card_text(CARDS[c], locale) in line, f"{kind}: {line!r} lacks {CARDS[c]}"
    assert sum(line.count(s) for s in SUITS) == len(named), line
    assert "{" not in line and line.strip()
    if fact.seat >= 0 and kind in (r.OPPONENT_KNOWN, r.TALON_EMPTY):
        assert "Seat1" in line
    if kind in (r.ALTERNATIVE, r.CLOSE_CALL):
        assert "±9%" in line


def test_the_sentences_stop_at_the_limit() -> None:
    facts = [_fact(r.KEEPS_TRUMPS)] * 9
    assert len(reason_lines(facts, "en", local_ranks=True, name_of=str, limit=3)) == 3
