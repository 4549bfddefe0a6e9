"""Tap-a-card: which controls a hand offers, and what each tap does, from the engine's legal
actions only.

This module computes no rule. It *groups* the seat's legal actions (``Observation.
legal_actions``) by the hand cards they put down, which is presentation:

* A card whose only one-card use is one move plays that move on the first tap (a lead, a
  throw-in, a beat where it answers exactly one attack card, a transfer, piling on), even when
  it could also go down together with same-rank partners: a single-card move is always one
  click (issue 18's aim).
* Moves of several hand cards (a lead of a pair, a transfer with two cards, poker fool's
  swap) are options of one compact menu, "Play several cards…": open and pick, two clicks,
  which is at most ``n + 1`` for ``n >= 2`` cards. When there are more such moves than a menu
  holds (25: big fool, four of a rank), the menu offers *starters* instead: a pair (or a card)
  that is selected, after which taps add the other cards and a verb completes the move.
* A card with several one-card uses (beat one of two attack cards, transfer *or* beat), or
  with none (three fool leads three cards), is *selected* by a tap; the hand then offers the
  moves made of exactly the selected cards as verb buttons ("Transfer", "Beat 6♦",
  "Lead 9♣ 9♦") and the cards that can still join the selection.
* Moves that put down no hand card (take, done/bito, pass, exchange the trump, lead the
  talon's top card, accept or challenge on trust) are always verb buttons.

Every legal action is reachable this way and no control ever leads to an action that is not
legal: both are tested over random positions of every preset (tests/bot/test_hand_taps.py),
and bench/click_count.py counts the clicks. Pure functions, no discord: the views, the bench
and the tests share them.

Big fool holds two packs: a card and its twin (``c`` and ``c + 52``) look alike and play alike,
so with nothing selected one button stands for both; a selection names physical cards, so a
twin pair can still be led together.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine import Action, ActionKind, Card, Observation
from engine.actions import BLIND_KINDS
from engine.cards import PACK, sort_key

from ..discord_limits import SELECT_OPTIONS

__all__ = [
    "VERB_KINDS",
    "HandControls",
    "Several",
    "Tap",
    "controls",
    "face_key",
    "menu_room",
    "own_cards",
    "reachable",
    "step_clicks",
    "tap",
    "valid_selection",
]


#: Moves that put down no card of the hand: always a button of their own. (EXCHANGE names
#: the trump it gives, but reads as a verb: "Exchange the trump".)
VERB_KINDS = frozenset(
    {
        ActionKind.TAKE,
        ActionKind.PASS,
        ActionKind.EXCHANGE,
        ActionKind.ACCEPT,
        ActionKind.CHALLENGE,
        ActionKind.TOP,
    }
)

#: Moves whose first card is an attack card on the table and last the card put on it.
_ANSWERS = frozenset({ActionKind.DEFEND, ActionKind.CONCEAL, ActionKind.BEAT_BLIND})


def own_cards(a: Action) -> tuple[Card, ...]:
    """The hand cards (or, in reverse fool, hand slots) that ``a`` puts down, sorted."""
    if a.kind in VERB_KINDS:
        return ()
    if a.kind in _ANSWERS or a.kind in BLIND_KINDS:
        return (a.cards[-1],)
    return tuple(sorted(a.cards))


def face_key(a: Action) -> tuple[object, ...]:
    """What a move looks like to the player (a twin of the second pack plays alike)."""
    faces = [c % PACK for c in a.cards]
    if a.kind not in _ANSWERS:
        faces.sort()
    return (a.seat, a.kind, *faces)


@dataclass(frozen=True, slots=True)
class Tap:
    """What tapping ``card`` does: play ``action``, or show ``selection`` (maybe empty)."""

    card: Card
    action: Action | None
    selection: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Several:
    """One option of the "Play several cards…" menu: play ``action`` (a move of several
    cards), or, when a menu cannot list every such move, select ``selection`` (a starter the
    player completes with taps and a verb)."""

    action: Action | None
    selection: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandControls:
    """Every control of one hand message, in display order."""

    #: The current selection (physical cards or slots), sorted.
    selection: tuple[Card, ...]
    #: One per card that can be tapped now: plays, selects, extends or deselects.
    taps: tuple[Tap, ...]
    #: Moves made of exactly the selected cards ("Transfer", "Beat 6♦", "Lead 9♣ 9♦").
    completions: tuple[Action, ...]
    #: Moves that put down no hand card (take, done, exchange...): always offered.
    verbs: tuple[Action, ...]
    #: Whether the hand is blind (reverse fool): taps name slots, not cards.
    blind: bool
    #: The "Play several cards…" menu (only with nothing selected; empty: no menu).
    several: tuple[Several, ...] = ()


def _card_moves(obs: Observation) -> list[tuple[Action, frozenset[Card]]]:
    return [(a, frozenset(own)) for a in obs.legal_actions if (own := own_cards(a))]


def _sort(cards: Iterable[Card], obs: Observation) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (sort_key(c, obs.trump), int(c))))


def valid_selection(
    obs: Observation,
    selection: Sequence[Card],
    moves: list[tuple[Action, frozenset[Card]]] | None = None,
) -> tuple[Card, ...]:
    """``selection`` if some legal move still puts down all of it, else nothing: a selection
    carried over a change of the game (a live hand, a stale id) never offers a dead move."""
    chosen = set(selection)
    if not chosen or len(chosen) != len(selection):
        return ()
    if moves is None:
        moves = _card_moves(obs)
    if any(chosen <= own for _, own in moves):
        return _sort(chosen, obs)
    return ()


def tap(
    obs: Observation,
    selection: Sequence[Card],
    card: Card,
    moves: list[tuple[Action, frozenset[Card]]] | None = None,
) -> Tap | None:
    """What a tap on ``card`` does with ``selection`` shown, or None if that card offers
    nothing (a stale or forged tap: the caller says so and shows the hand)."""
    if moves is None:
        moves = _card_moves(obs)
    chosen = set(valid_selection(obs, selection, moves))
    if not chosen:
        uses = [a for a, own in moves if card in own]
        if not uses:
            return None
        single = [a for a, own in moves if own == {card}]
        if len(single) == 1 and (len(uses) == 1 or menu_room(obs, moves)):
            # its one-card use, even if it could also go with partners (those moves are
            # in the "Play several cards…" menu): a single-card move is one click
            return Tap(card, single[0], ())
        return Tap(card, None, (card,))
    if card in chosen:
        return Tap(card, None, _sort(chosen - {card}, obs))
    grown = chosen | {card}
    if any(grown <= own for _, own in moves):
        return Tap(card, None, _sort(grown, obs))
    return None


def controls(obs: Observation, selection: Sequence[Card] = ()) -> HandControls:
    """The controls of a hand showing ``selection`` (dropped if no longer playable)."""
    moves = _card_moves(obs)
    chosen = valid_selection(obs, selection, moves)
    blind = any(a.kind in BLIND_KINDS for a, _ in moves)
    units: set[Card] = set()
    for _, own in moves:
        units.update(own)
    taps: list[Tap] = []
    if not chosen:
        faces: set[int] = set()
        for card in _sort(units, obs):
            if not blind and card % PACK in faces:
                continue  # big fool: the twin plays alike; one button for both
            faces.add(card % PACK)
            found = tap(obs, (), card, moves)
            if found is not None:
                taps.append(found)
        completions: list[Action] = []
        menu = _several(obs, moves) if menu_room(obs, moves) else ()
    else:
        menu = ()
        for card in _sort(units, obs):
            found = tap(obs, chosen, card, moves)
            if found is not None:
                taps.append(found)
        completions = [a for a, own in moves if own == set(chosen)]
    verbs = [a for a in obs.legal_actions if a.kind in VERB_KINDS]
    return HandControls(chosen, tuple(taps), tuple(completions), tuple(verbs), blind, menu)


#: Card and verb buttons that fit above the "Play several cards…" menu: four rows of five
#: (Discord gives a message five rows; the menu takes one).
MENU_ROOM = 20


def menu_room(obs: Observation, moves: list[tuple[Action, frozenset[Card]]] | None = None) -> bool:
    """Whether the card buttons and the verbs leave a row for the "Play several cards…" menu.
    If not (more than about 20 playable cards: big fool, a long game), the hand falls back
    to selecting: a card that could also go with partners is selected by a tap, and its
    moves (alone or together) are verbs; the cards stay buttons, never a card menu."""
    if moves is None:
        moves = _card_moves(obs)
    blind = any(a.kind in BLIND_KINDS for a, _ in moves)
    units = {c if blind else c % PACK for _, own in moves for c in own}
    verbs = sum(1 for a in obs.legal_actions if a.kind in VERB_KINDS)
    return len(units) + verbs <= MENU_ROOM


def _faces(cards: Iterable[Card]) -> Counter[int]:
    return Counter(c % PACK for c in cards)


def _within(part: Counter[int], whole: Counter[int]) -> bool:
    return all(whole[f] >= n for f, n in part.items())


def _selecting(moves: list[tuple[Action, frozenset[Card]]]) -> set[Card]:
    """The cards a first tap selects rather than plays (no one-card use, or several)."""
    singles: Counter[Card] = Counter()
    for _, own in moves:
        if len(own) == 1:
            singles.update(own)
    return {c for _, own in moves for c in own if singles[c] != 1}


def _several(obs: Observation, moves: list[tuple[Action, frozenset[Card]]]) -> tuple[Several, ...]:
    """The options of the "Play several cards…" menu.

    Every move of n >= 2 hand cards as its own option when they fit one menu (two clicks).
    Otherwise only the moves taps cannot already reach in n + 1 clicks need the menu, and if
    those are still too many: the smallest of them (pairs, the commonest) stay options that
    play at once, and the rest are opened by pair *starters* (the pair is selected, n - 2 taps
    add the other cards, a verb plays them: n + 1 clicks), as many moves direct as leave room
    for the starters. Only when pairs cannot cover them in one menu, card starters open what
    is left (a card, n - 1 taps, a verb: n + 2 clicks, the smallest count left; the bench
    reports it)."""
    multi: dict[tuple[object, ...], Action] = {}
    for a, own in moves:
        if len(own) >= 2:
            multi.setdefault(face_key(a), a)
    if not multi:
        return ()
    order = sorted(multi.values(), key=lambda a: (_sort_keys(own_cards(a), obs), a.kind.value))
    if len(order) <= SELECT_OPTIONS:
        return tuple(Several(a, ()) for a in order)
    # a move holding a card that a tap selects is tap, n - 1 taps and a verb: n + 1 already
    selecting = _selecting(moves)
    left = [a for a in order if not selecting.intersection(own_cards(a))]
    if len(left) <= SELECT_OPTIONS:
        return tuple(Several(a, ()) for a in left)
    by_size = sorted(left, key=lambda a: len(own_cards(a)))
    out: list[Several] | None = None
    for keep in range(SELECT_OPTIONS - 1, -1, -1):
        pairs = _pair_cover(by_size[keep:], SELECT_OPTIONS - keep, obs)
        if pairs is not None:
            out = [Several(a, ()) for a in by_size[:keep]]
            out += [Several(None, sel) for sel in pairs]
            break
    if out is None:  # pairs do not fit: pairs as far as they go, then cards
        wanted = [(a, _faces(own_cards(a))) for a in left]
        chosen = _greedy_pairs(wanted, obs, lambda rest: len(_hitting(rest)))
        out = [Several(None, sel) for sel in chosen]
        out += [Several(None, (c,)) for c in _hitting(wanted)]
    return tuple(sorted(out, key=lambda o: _option_key(o, obs))[:SELECT_OPTIONS])


def _pair_cover(moves: list[Action], slots: int, obs: Observation) -> list[tuple[Card, ...]] | None:
    """At most ``slots`` pairs such that each of ``moves`` holds one (greedy), or None."""
    wanted = [(a, _faces(own_cards(a))) for a in moves]
    chosen = _greedy_pairs(wanted, obs, lambda rest: 0, slots)
    return chosen if not wanted and len(chosen) <= slots else None


def _greedy_pairs(
    wanted: list[tuple[Action, Counter[int]]],
    obs: Observation,
    reserve: Callable[[list[tuple[Action, Counter[int]]]], int],
    slots: int = SELECT_OPTIONS,
) -> list[tuple[Card, ...]]:
    """Pairs that open the most of ``wanted`` first, while they and ``reserve(rest)`` fit in
    ``slots``; the moves they open are taken out of ``wanted`` (in place)."""
    pairs: dict[tuple[int, ...], tuple[Card, ...]] = {}
    for a, _ in wanted:
        for pair in combinations(own_cards(a), 2):
            pairs.setdefault(tuple(sorted(c % PACK for c in pair)), _sort(pair, obs))
    chosen: list[tuple[Card, ...]] = []
    while wanted and pairs and len(chosen) < slots:
        opened = {key: [m for m in wanted if _within(Counter(key), m[1])] for key in pairs}
        key = min(opened, key=lambda k: (-len(opened[k]), _sort_keys(pairs[k], obs)))
        if not opened[key]:
            break
        rest = [m for m in wanted if m not in opened[key]]
        if len(chosen) + 1 + reserve(rest) > slots:
            break
        chosen.append(pairs.pop(key))
        wanted[:] = rest
    return chosen


def _option_key(option: Several, obs: Observation) -> tuple[object, ...]:
    """Menu order: by the cards, a move before the starter of the same cards."""
    cards = own_cards(option.action) if option.action is not None else option.selection
    return (_sort_keys(cards, obs), option.action is None)


def _sort_keys(cards: Iterable[Card], obs: Observation) -> tuple[object, ...]:
    """Menu order: by rank (the moves of one rank together), then as the hand sorts."""
    cards = list(cards)
    ranks = tuple(sorted(c % PACK % 13 for c in cards))
    return (ranks, *sorted(sort_key(c, obs.trump) for c in cards))


def _hitting(wanted: list[tuple[Action, Counter[int]]]) -> list[Card]:
    """Few cards such that each wanted move holds one of them (greedy): card starters."""
    left = list(wanted)
    out: list[Card] = []
    while left:
        count: Counter[Card] = Counter()
        for a, _ in left:
            for c in own_cards(a):
                count[Card(c % PACK)] += 1
        card = min(count, key=lambda c: (-count[c], int(c)))
        physical = next(c for a, _ in left for c in own_cards(a) if c % PACK == card)
        out.append(physical)
        left = [m for m in left if card not in m[1]]
    return out


def step_clicks(step: Card | Action | Several) -> int:
    """Clicks of one step of a path: a tap or a button is one, a menu option two (open the
    menu, pick the option)."""
    return 2 if isinstance(step, Several) else 1


def reachable(obs: Observation) -> dict[tuple[object, ...], list[Card | Action | Several]]:
    """Every move some click path reaches from an empty selection (by :func:`face_key`), with
    its cheapest path (:func:`step_clicks`): taps as cards, a button as the action, a menu
    option as its :class:`Several`. For the bench and tests."""
    Path = list[Card | Action | Several]
    found: dict[tuple[object, ...], tuple[int, Path]] = {}

    def reach(a: Action, cost: int, path: Path) -> None:
        key = face_key(a)
        if key not in found or cost < found[key][0]:
            found[key] = (cost, path)

    start: tuple[Card, ...] = ()
    queue: list[tuple[int, int, tuple[Card, ...], Path]] = [(0, 0, start, [])]
    done: set[tuple[Card, ...]] = set()
    tick = 0
    while queue:
        cost, _, sel, path = heapq.heappop(queue)
        if sel in done:
            continue
        done.add(sel)
        hc = controls(obs, sel)
        for a in (*hc.completions, *hc.verbs):
            reach(a, cost + 1, [*path, a])
        steps: list[tuple[Card | Several, Action | None, tuple[Card, ...]]] = [
            (tp.card, tp.action, tp.selection) for tp in hc.taps
        ]
        steps += [(opt, opt.action, opt.selection) for opt in hc.several]
        for step, action, selection in steps:
            spent = cost + step_clicks(step)
            if action is not None:
                reach(action, spent, [*path, step])
            elif len(selection) > len(sel) and selection not in done:
                tick += 1
                heapq.heappush(queue, (spent, tick, selection, [*path, step]))
    return {key: path for key, (_, path) in found.items()}
