"""Shared helpers for engine tests: play actions in notation and drive bouts to their end."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Action, ActionKind, Event, Game, RuleSet


def play(g: Game, *moves: str) -> list[Event]:
    """Apply each move (notation with seat, e.g. ``"0 attack 7s"``); return all events."""
    events: list[Event] = []
    for m in moves:
        events.extend(g.apply(Action.parse(m)))
        g.check_invariants()
    return events


def legal(g: Game, seat: int) -> set[str]:
    return {a.notation for a in g.legal_actions(seat)}


def finish_bout(g: Game) -> list[Event]:
    """Everybody who is offered "done" says it, until the bout ends (nobody adds anything)."""
    events: list[Event] = []
    while g.table and g.result is None:
        passes = [a for a in g.all_legal_actions() if a.kind is ActionKind.PASS]
        if not passes:
            raise AssertionError(f"bout cannot end by passing: {g!r}")
        events.extend(g.apply(passes[0]))
    return events


def draws(events: Iterable[Event]) -> list[tuple[int, int]]:
    """(seat, how many) for each draw event, in the order drawn."""
    return [(e.seat, e.amount) for e in events if e.kind == "draw"]


def roles(g: Game) -> tuple[int, int]:
    return g.attacker, g.defender


Step = tuple[int, int, str]  # (attacker, defender, "beat" | "take")

_PAIR_RANKS = {36: "6789TJQK", 52: "23456789TJQK"}


def scripted_game(
    rules: RuleSet, steps: list[Step], spare: Iterable[int]
) -> tuple[Game, list[tuple[str, str]]]:
    """A talon-less position (hearts trumps) in which every step can be played as written.

    The rotation examples in the rule texts name who attacks whom but not the cards, so each
    step gets its own pair of clubs/diamonds/spades: the attacker holds the low card and, for
    a "beat" step, the defender the next higher one. Seats in ``spare`` also hold one high
    trump, so they never run out; every other seat runs out exactly when its cards are used.
    """
    ranks = _PAIR_RANKS[rules.deck_size]
    steps_of_two = list(zip(ranks[::2], ranks[1::2], strict=True))
    pairs = [(lo + s, hi + s) for s in "cds" for lo, hi in steps_of_two]
    hands: list[list[str]] = [[] for _ in range(rules.players)]
    plan: list[tuple[str, str]] = []
    for (a, d, outcome), (low, high) in zip(steps, pairs, strict=False):
        hands[a].append(low)
        if outcome == "beat":
            hands[d].append(high)
        plan.append((low, high))
    assert len(plan) == len(steps), "not enough card pairs for this script"
    for rank, s in zip("AKQJT9", sorted(spare), strict=False):
        hands[s].append(rank + "h")
    g = Game.from_position(rules, hands, trump="h", attacker=steps[0][0], defender=steps[0][1])
    return g, plan


def run_script(g: Game, steps: list[Step], plan: list[tuple[str, str]]) -> None:
    """Play the script, checking before each step that the engine gives the turn as written."""
    for i, ((a, d, outcome), (low, high)) in enumerate(zip(steps, plan, strict=True)):
        assert roles(g) == (a, d), f"step {i + 1}: expected {a} to attack {d}, got {roles(g)}"
        play(g, f"{a} attack {low}")
        play(g, f"{d} defend {low}/{high}" if outcome == "beat" else f"{d} take")
        finish_bout(g)
