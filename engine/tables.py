"""The engine's prebuilt values and lookup tables, shared by every game and never mutated.

Random self-play is the engine's stress test and the computer players' search budget, so move
generation hands out shared immutable ``Action`` and ``Event`` objects built here once, and the
per-bout and per-table-size answers (eligible attackers, refill order, the next seat still in)
are looked up here instead of recomputed. ``state``, ``moves`` and ``game`` import these names
into their own module namespace, so a hot loop reads them as plain globals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import chain, combinations

from .actions import PA, PI, SH, TK, A, Action, ActionKind, D, Event, T
from .cards import CARDS, LOWEST_RANK, RANK_MASK, Card, bits, deck_mask


def _popcount(m: int) -> int:
    return m.bit_count()


# Every single-card and no-card action, built once: legal move generation is the hot path of
# self-play and search, and handing out shared immutable Actions avoids allocating them.
_MAX_SEATS = 6
_SINGLE: dict[ActionKind, tuple[tuple[Action, ...], ...]] = {
    k: tuple(tuple(Action(s, k, (c,)) for c in CARDS) for s in range(_MAX_SEATS))
    for k in (ActionKind.THROW, ActionKind.PILE, ActionKind.SHOW, ActionKind.EXCHANGE)
}
_BARE: dict[ActionKind, tuple[Action, ...]] = {
    k: tuple(Action(s, k) for s in range(_MAX_SEATS)) for k in (ActionKind.TAKE, ActionKind.PASS)
}
_BeatActions = tuple[tuple[tuple[Action, ...], ...], ...]


def _beat_actions(ids: int) -> _BeatActions:
    """_BEATS[seat][attack card][d + 1]: the defence of the attack card by card d, indexed by
    ``(1 << d).bit_length()`` so that move generation needs no index arithmetic (index 0 is
    never read; it holds an Action only to keep the type simple). ``ids`` card ids: 52, or
    104 for two packs (built on the first two-pack game only: 65,000 actions)."""
    cards = CARDS[:ids]
    return tuple(
        tuple(
            (Action(s, D, (cards[0], cards[0])), *(Action(s, D, (a, d)) for d in cards))
            for a in cards
        )
        for s in range(_MAX_SEATS)
    )


_BEATS: _BeatActions = _beat_actions(52)
_BEATS_BY_IDS: dict[int, _BeatActions] = {52: _BEATS}


def _beats_for(ids: int) -> _BeatActions:
    got = _BEATS_BY_IDS.get(ids)
    if got is None:
        got = _BEATS_BY_IDS[ids] = _beat_actions(ids)
    return got


# The shared actions of the hot paths as plain tuples indexed by seat (and card): a lookup in
# ``_SINGLE[kind]`` per generated action is measurable in random self-play.
_THROW = _SINGLE[T]
_PILE = _SINGLE[PI]
_SHOW = _SINGLE[SH]
_TAKE = _BARE[TK]
_PASS = _BARE[PA]
#: _THROW1[seat][card + 1], _PILE1 likewise: indexed like ``_beat_actions`` rows, by the
#: ``bit_length`` of the card's bit, so a bit loop needs no ``- 1`` (index 0 is never read).
_THROW1: tuple[tuple[Action, ...], ...] = tuple((row[0], *row) for row in _THROW)
_PILE1: tuple[tuple[Action, ...], ...] = tuple((row[0], *row) for row in _PILE)
#: _LEAD1[seat][card]: the lead of that single card.
_LEAD1: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(s, A, (c,)) for c in CARDS) for s in range(_MAX_SEATS)
)
#: _BIT[card] == 1 << card; ``sum(map(_BIT.__getitem__, cards))`` is the mask of distinct cards.
_BIT: tuple[int, ...] = tuple(1 << c for c in range(len(CARDS)))
#: _BITS0[card] == _BIT[card], and _BITS0[-1] == 0: a table's pairs chained, empty defence
#: slots (-1) included, sum to the mask of its cards.
_BITS0: tuple[int, ...] = (*_BIT, 0)
_chain = chain.from_iterable
#: RANK_OF[card]: mask of the cards of ``card``'s rank, both packs (one index instead of
#: ``% 13 + 2``); a one-pack hand has no second-pack bits, so ``hand & mask`` is unchanged.
_RANK_OF: tuple[int, ...] = tuple(RANK_MASK[c % 13 + 2] for c in range(len(CARDS)))
#: ``_RANK_OF``, ``_BIT`` and ``_LEAD1[seat]`` indexed by ``card + 1``, the ``bit_length`` of
#: the card's bit, like ``_THROW1``: a lead loop reads them with no ``- 1`` per card.
_BL_RANK: tuple[int, ...] = (0, *_RANK_OF)
_BL_BIT: tuple[int, ...] = (0, *_BIT)
_BL_LEAD: tuple[tuple[Action, ...], ...] = tuple((row[0], *row) for row in _LEAD1)

#: Memoised lead and transfer combinations (see ``_combos``), keyed by the int
#: ``(mask << 6 | most) << 3 | seat``: an int key hashes faster than a tuple.
_LEAD_COMBOS: dict[int, tuple[Action, ...]] = {}
_TRANSFER_COMBOS: dict[int, tuple[Action, ...]] = {}

#: Eligible attackers (and with the defender, the seats that may act while cards are on the
#: table, in seat order; and who a transfer goes to), one table per (throw_in, teams,
#: players); each is keyed by ``active << 6 | attacker << 3 | defender``.
_ELIGIBLE: dict[tuple[str, str, int], dict[int, tuple[list[int], tuple[int, ...], int]]] = {}
_DRAW_ORDERS: dict[tuple[int, int, int], tuple[int, ...]] = {}
_DRAW_TABLES: dict[tuple[int, bool], tuple[tuple[tuple[int, ...], ...], ...]] = {}


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws, so a seed deals what it always dealt
    (a test compares the two), without two Python calls per card: random self-play deals a
    game every hundred-odd moves, and the standard library's shuffle was a fiftieth of it."""
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(deck))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(deck)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(deck) - 1, 0, -1)
        )
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


#: shuffle's steps for a deck of each size: (position, positions to draw from, their bits).
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


#: Every pack as a tuple of card indices, ascending (what ``Game.new`` shuffles).
_DECK_CARDS: dict[tuple[int, int], tuple[int, ...]] = {
    (size, packs): tuple(int(c) for c in bits(deck_mask(size, packs)))
    for size in LOWEST_RANK
    for packs in (1, 2)
}


#: The events without cards, shared like the actions (events are immutable).
_PASS_EV: tuple[Event, ...] = tuple(Event("pass", s) for s in range(_MAX_SEATS))
_TAKE_EV: tuple[Event, ...] = tuple(Event("take", s) for s in range(_MAX_SEATS))


def _draw_table(n: int, by_first: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``_draw_order`` of every first attacker and defender: ``[first][defender]`` (with draw
    order ``from_defender`` the first attacker does not matter)."""
    got = _DRAW_TABLES.get((n, by_first))
    if got is None:
        got = _DRAW_TABLES[n, by_first] = tuple(
            tuple(_draw_order(n, f if by_first else -1, d) for d in range(n)) for f in range(n)
        )
    return got


def _next_active_of(n: int, active: int, seat: int) -> int:
    """The next seat after ``seat`` clockwise whose bit is set in ``active`` (``seat`` if none)."""
    s = seat
    for _ in range(n):
        s = (s + 1) % n
        if active >> s & 1:
            return s
    return seat


#: _NEXT_ACTIVE[n][active][seat]: ``_next_active_of`` for every table size, set of players
#: still in and seat (7 x 64 x 6 small ints), so rotating roles at a bout's end is a lookup.
_NEXT_ACTIVE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_next_active_of(n, act, s) for s in range(n)) for act in range(1 << n))
    for n in range(_MAX_SEATS + 1)
)

#: Events are made on every move. ``tuple.__new__`` with all six fields builds the same
#: ``Event`` as ``Event(kind, seat, ...)`` without the NamedTuple constructor's Python-level call
#: (that call fills in defaults); callers must pass every field, in order.
_event: Callable[
    [type[Event], tuple[str, int, tuple[Card, ...], int, int, tuple[Card, ...]]], Event
] = tuple.__new__


def _draw_order(n: int, first: int, defender: int) -> tuple[int, ...]:
    """Refill order: clockwise from ``first`` with the defender last (pagat), or, when
    ``first`` is -1, clockwise starting with the defender (overview).

    Pagat's exception: when transfers brought the attack back round to the player who led it,
    that player is the defender and still draws first ("finally the defender (unless the
    defender started out as an attacker ...)").
    """
    key = (n, first, defender)
    got = _DRAW_ORDERS.get(key)
    if got is None:
        if first < 0:
            order = [(defender + i) % n for i in range(n)]
        else:
            order = [(first + i) % n for i in range(n)]
            if defender != first:
                order.remove(defender)
                order.append(defender)
        got = _DRAW_ORDERS[key] = tuple(order)
    return got


def _combos(seat: int, kind: ActionKind, mask: int, most: int) -> tuple[Action, ...]:
    """All non-empty subsets of ``mask`` with at most ``most`` cards, as actions (memoised).

    Only ``min(most, cards in mask)`` matters, so the key uses that: it stays below 64, and the
    memo is bounded by 6 seats x the masks of one rank (leads) or of the transferable ranks.
    """
    most = max(0, min(most, mask.bit_count()))
    memo = _LEAD_COMBOS if kind is A else _TRANSFER_COMBOS
    key = (mask << 6 | most) << 3 | seat
    got = memo.get(key)
    if got is None:
        cards = list(bits(mask))
        got = tuple(
            Action(seat, kind, combo)
            for k in range(1, most + 1)
            for combo in combinations(cards, k)
        )
        memo[key] = got
    return got
