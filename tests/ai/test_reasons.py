"""Reasons for hints and reviews say nothing false of the cards.

Every fact ``engine.ai.reasons`` produces is checked here against the true game (every
hand, the talon), by code written apart from the module's own: "the lowest card that
beats" against every card of the hand, "keeps your trumps" against what the move plays, "the
talon runs out at the next refill" by playing on to that refill. Random positions of every
preset; the full 1,000 a preset under DURAK_FULL_SWEEP, a sample of chunks otherwise.
"""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Action, ActionKind, Game, RuleSet
from engine.ai import reasons as r
from engine.ai.review import Advice, Estimate
from engine.cards import BEATERS, deck_mask

#: Positions per chunk, chunks per preset: 1,000 positions of every preset in a full sweep.
CHUNK, CHUNKS = 100, 10

CARD_KINDS = {
    ActionKind.ATTACK,
    ActionKind.THROW,
    ActionKind.DEFEND,
    ActionKind.TRANSFER,
    ActionKind.SHOW,
    ActionKind.TAKE,
    ActionKind.PILE,
    ActionKind.PASS,
    ActionKind.EXCHANGE,
}


def _rank(c: int) -> int:
    return c % 13 + 2


def _suit(c: int) -> int:
    return c // 13 & 3


def _cards(mask: int) -> set[int]:
    return {c for c in range(104) if mask >> c & 1}


def _worth(c: int, trump: int) -> int:
    return _rank(c) + (100 if _suit(c) == trump else 0)


def _from_hand(a: Action) -> set[int]:
    if a.kind is ActionKind.DEFEND:
        return {int(a.cards[1])}
    if a.kind in (ActionKind.ATTACK, ActionKind.THROW, ActionKind.TRANSFER, ActionKind.PILE):
        return {int(c) for c in a.cards}
    return set()


def _beats(game: Game, seat: int, beater: int, attack: int) -> bool:
    """Whether ``beater`` beats ``attack`` when ``seat`` defends: the engine's own tables for
    the variants that change beating, else the plain rule (higher of the suit, or trump)."""
    if game.rules.variant == "none":
        if _suit(beater) == _suit(attack):
            return _rank(beater) > _rank(attack)
        return _suit(beater) == game.trump and _suit(attack) != game.trump
    return bool(game._beat_tab[seat][attack] >> beater & 1)


def _addable(game: Game, seat: int) -> set[int]:
    """Cards the seat may throw in or pile on now (variants widen the rank rule)."""
    adds = (ActionKind.THROW, ActionKind.PILE)
    return {int(a.cards[0]) for a in game.legal_actions(seat) if a.kind in adds}


def check(game: Game, seat: int, fact: r.Fact, move: Action, other: Action | None) -> None:
    """Fail unless ``fact`` is true of ``game`` (which holds every hand) for ``move``."""
    hand = _cards(game.hands[seat])
    trump = game.observation(seat).trump
    spent = _from_hand(move)
    kind = fact.kind
    cards = set(fact.cards)
    said = f"{kind} {[str(c) for c in fact.cards]} of {move} with hand {sorted(hand)}"
    if kind == r.CHEAPEST_BEATER:
        attack, beater = fact.cards
        assert move.kind is ActionKind.DEFEND and move.cards[1] == beater, said
        assert beater in hand and _beats(game, seat, beater, attack), said
        assert (attack, -1) in [tuple(p) for p in game.table], said
        lower = [c for c in hand if _beats(game, seat, c, attack)]
        assert all(_worth(beater, trump) <= _worth(c, trump) for c in lower), said
    elif kind == r.LOWEST_LEAD:
        assert move.kind is ActionKind.ATTACK and cards == spent, said
        plain = [c for c in hand if _suit(c) != trump]
        assert all(_suit(c) != trump for c in cards), said
        assert all(_rank(c) <= min(_rank(p) for p in plain) for c in cards), said
    elif kind == r.LOWEST_THROW:
        (card,) = fact.cards
        assert card in spent, said
        options = _addable(game, seat)
        assert all(_worth(card, trump) <= _worth(c, trump) for c in options), said
    elif kind == r.KEEPS_TRUMPS:
        assert not any(_suit(c) == trump for c in spent), said
        assert cards == {c for c in hand if _suit(c) == trump} and cards, said
    elif kind in (r.SPENDS_TRUMP, r.PLAYED_SPENDS_TRUMP):
        assert cards and cards <= spent and all(_suit(c) == trump for c in cards), said
        if kind == r.PLAYED_SPENDS_TRUMP:
            assert other is not None
            assert not any(_suit(c) == trump for c in _from_hand(other)), said
    elif kind == r.KEEPS_HIGH:
        high = {c for c in hand if _suit(c) != trump and _rank(c) >= 13}
        assert cards == high and cards and not (high & spent), said
    elif kind == r.THROW_LATER:
        assert move.kind is ActionKind.ATTACK, said
        led = {c % 13 for c in move.cards}
        assert cards <= hand - spent and all(c % 13 in led for c in cards), said
    elif kind == r.NO_BEATER:
        (attack,) = fact.cards
        assert move.kind is ActionKind.TAKE and (attack, -1) in [tuple(p) for p in game.table]
        assert not any(_beats(game, seat, c, attack) for c in hand), said
    elif kind == r.PICK_UP:
        on_table = {c for a, d in game.table for c in (a, d) if c >= 0}
        assert move.kind is ActionKind.TAKE and cards == on_table, said
    elif kind == r.EXCHANGE_UP:
        given, got = fact.cards
        assert move.kind is ActionKind.EXCHANGE and given in hand and _suit(given) == trump
        assert game.trump_index >= 0 and game.trump_card == got, said
    elif kind == r.PASS_KEEPS:
        assert move.kind is ActionKind.PASS, said
        assert cards and cards <= _addable(game, seat), said
    elif kind == r.OPPONENT_KNOWN:
        assert fact.seat != seat and cards <= _cards(game.hands[fact.seat]), said
    elif kind == r.TALON_EMPTY:
        assert not game.talon, said
        if fact.seat >= 0:
            seen = game.hands[seat] | game.discard
            for a, d in game.table:
                seen |= 1 << a | (1 << d if d >= 0 else 0)
            rest = deck_mask(game.rules.deck_size, game.rules.packs) & ~seen
            assert game.hands[fact.seat] == rest and fact.count == rest.bit_count(), said
    elif kind == r.TALON_LAST_DRAW:
        assert fact.count == len(game.talon) > 0, said
        _runs_out_at_next_refill(game, seat, move)
    elif kind in (r.ALTERNATIVE, r.CLOSE_CALL):
        gap = fact.chance - fact.other
        assert (gap > fact.noise) == (kind == r.ALTERNATIVE), said
    elif kind == r.COULD_BEAT:
        assert move.kind is ActionKind.TAKE and other is not None, said
        attack, beater = fact.cards
        assert beater in hand and _beats(game, seat, beater, attack), said
    elif kind == r.COULD_TRANSFER:
        assert move.kind is ActionKind.TAKE and other is not None
        assert other.kind in (ActionKind.TRANSFER, ActionKind.SHOW) and cards <= hand, said
    elif kind == r.TAKE_KEEPS:
        assert other is not None and other.kind is ActionKind.TAKE and cards == spent, said
    elif kind == r.COULD_THROW:
        (card,) = fact.cards
        assert move.kind is ActionKind.PASS and card in _addable(game, seat), said
    elif kind == r.KEPT_BACK:
        assert other is not None and other.kind is ActionKind.PASS and cards == spent, said
    elif kind == r.CHEAPER_BEATER:
        attack, mine, better = fact.cards
        assert _beats(game, seat, mine, attack) and _beats(game, seat, better, attack), said
        assert _worth(better, trump) < _worth(mine, trump) and better in hand, said
    elif kind == r.LOWER_LEAD:
        assert move.kind is ActionKind.ATTACK and cards == spent, said
        assert all(_suit(c) != trump for c in (*cards, *fact.alt)), said
        assert max(_rank(c) for c in fact.alt) < min(_rank(c) for c in cards), said
    elif kind == r.SOLVED_WIN:
        assert not game.talon, said
    else:
        raise AssertionError(f"no check for {kind}")


def _runs_out_at_next_refill(game: Game, seat: int, move: Action) -> None:
    """Play on at random (the move first) to the next refill: the talon is then empty."""
    rng = random.Random(str(move))
    g = game.copy()
    g.apply(move)
    before = len(g.talon)
    for _ in range(400):
        if len(g.talon) != before or g.result is not None:
            break
        g.apply(rng.choice(g.all_legal_actions()))
    assert not g.talon, f"the talon still holds {len(g.talon)} after the refill"


#: Review facts that compare the move made with the better one.
COMPARISONS = {
    r.PLAYED_SPENDS_TRUMP,
    r.COULD_BEAT,
    r.COULD_TRANSFER,
    r.COULD_THROW,
    r.CHEAPER_BEATER,
    r.LOWER_LEAD,
    r.TAKE_KEEPS,
    r.KEPT_BACK,
}


def _estimate(acts: list[Action], rng: random.Random) -> Estimate:
    """Random per-world outcomes: the hint's own figures and noise, as a real one has."""
    n = rng.choice([8, 24, 48])
    samples = {a: tuple(float(rng.random() < rng.random()) for _ in range(n)) for a in acts}
    values = {a: sum(xs) / n for a, xs in samples.items()}  # type: ignore[misc]
    return Estimate(values, samples)  # type: ignore[arg-type]


def sweep(preset: str, chunk: int) -> int:
    rules = RuleSet.preset(preset)
    rng = random.Random(f"{preset}:{chunk}")
    said = 0
    positions = 0
    while positions < CHUNK:
        game = Game.new(rules, f"reasons:{preset}:{chunk}:{positions}")
        for _ in range(rng.randrange(0, 60)):
            if game.result is not None:
                break
            game.apply(rng.choice(game.all_legal_actions()))
        if game.result is not None:
            continue
        seats = [s for s in range(game.n) if game.legal_actions(s)]
        if not seats:
            continue
        seat = rng.choice(seats)
        obs = game.observation(seat)
        acts = list(obs.legal_actions)
        positions += 1
        best = rng.choice(acts)
        second = rng.choice(acts) if len(acts) > 1 else None
        if second == best:
            second = None
        advice = Advice(best, second, _estimate(acts, rng))
        for fact in r.hint_facts(obs, advice):
            check(game, seat, fact, best, None)
            said += 1
        if second is not None:
            # the review: ``best`` was played, ``second`` is the better move
            for fact in r.review_facts(obs, best, second):
                if fact.kind in COMPARISONS:  # about the move made, against the better
                    check(game, seat, fact, best, second)
                else:  # about the better move itself, or the board
                    check(game, seat, fact, second, None)
                said += 1
    return said


@pytest.mark.slow(sample=CHUNKS * 4)  # 8 of 320 chunks by default, all in a full sweep
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_reason_says_something_false(preset: str, chunk: int) -> None:
    assert sweep(preset, chunk) >= 0


def test_the_checks_catch_a_false_reason() -> None:
    """The checker is not blind: a hand's highest trump called the cheapest beater fails."""
    game = Game.from_position(
        RuleSet.preset("podkidnoy"),
        hands=[["7s"], ["Qh", "Kh", "9c"]],
        trump="h",
        table=[["As", None]],
        attacker=0,
        defender=1,
    )
    high = Action.parse("1 defend As/Kh")
    assert not [f for f in r.move_facts(game.observation(1), high) if f.kind == r.CHEAPEST_BEATER]
    with pytest.raises(AssertionError):
        check(
            game, 1, r.Fact(r.CHEAPEST_BEATER, (int(high.cards[0]), int(high.cards[1]))), high, None
        )
    low = Action.parse("1 defend As/Qh")
    facts = {f.kind: f for f in r.move_facts(game.observation(1), low)}
    assert r.CHEAPEST_BEATER in facts and r.SPENDS_TRUMP in facts
    assert r.KEEPS_TRUMPS not in facts


def test_beaters_table_agrees_with_the_plain_rule() -> None:
    assert BEATERS[2][0] >> 13 * 2 & 1  # a heart beats the two of clubs when hearts are trumps


def test_an_exchange_is_never_called_spending_a_trump() -> None:
    """The issue's case: a trump exchange compared with a lead. The exchange spends nothing,
    so a review never says it "spent a trump"; it says what it gives and takes."""
    rng = random.Random(5)
    for seed in range(200):
        game = Game.new(RuleSet.preset("podkidnoy"), f"exchange:{seed}")
        for _ in range(rng.randrange(0, 4)):
            acts = [a for a in game.all_legal_actions() if a.kind is not ActionKind.EXCHANGE]
            game.apply(rng.choice(acts))
        for seat in range(game.n):
            acts = game.legal_actions(seat)
            swap = next((a for a in acts if a.kind is ActionKind.EXCHANGE), None)
            lead = next((a for a in acts if a.kind is ActionKind.ATTACK), None)
            if swap is None or lead is None:
                continue
            obs = game.observation(seat)
            facts = r.review_facts(obs, swap, lead)
            assert r.PLAYED_SPENDS_TRUMP not in {f.kind for f in facts}
            own = {f.kind for f in r.move_facts(obs, swap)}
            assert r.EXCHANGE_UP in own and r.SPENDS_TRUMP not in own
            for played, better in ((swap, lead), (lead, swap)):
                for f in r.review_facts(obs, played, better):
                    if f.kind in COMPARISONS:
                        check(game, seat, f, played, better)
                    else:
                        check(game, seat, f, better, None)
            return
    raise AssertionError("no position with both an exchange and a lead was found")
