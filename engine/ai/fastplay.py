"""The playout of ``hard``'s search on the plain game, acting on the sampled world directly.

A playout asks every seat for its ``normal`` move, step after step, in a world the searching
seat sampled; that is where nearly all of ``hard``'s thinking time goes (issue 20: "speed of
a playout"). The general playout (``search.playout``) builds a :class:`~engine.ai.view.View`
per step and a list of legal actions per asked seat, and ``normal_policy`` then sorts that list
into kinds. On the plain game (no catalogue variant) this module makes the same decisions
from the world's own state instead:

* no view object: the policy reads the hands, table and counts of the world. It is a sampled
  world, so nothing is peeked at that the seat did not sample itself; and where ``normal``
  counts on what a seat cannot see (the endgame's "cards that may beat this"), it computes
  exactly what the seat's view holds (``_unseen``);
* no list of legal actions where the move can be read from masks: a lead is scored from the
  hand's ranks, and a defence without transfers needs only the cheapest-beater plan, its
  move looked up in the engine's table of defence actions;
* the rules of ``normal`` (``policies``: ``_lead``, ``_defend``, ``defence_plan``,
  ``_should_take``, ``_add``, ``_wants_to_add``) inlined with the same arithmetic, the same
  order of candidates and the same tie-breaks.

It is a pure speed-up: ``tests/ai/test_playout_equivalence.py`` plays both playouts from the
same worlds and seeds and requires the same final game and random state, and the same choices
and scores of ``hard``. Anything this module does not handle (a game going round in circles,
where ``normal`` moves at random; a defender without actions of its own) takes the general
step, so the two cannot drift there either.
"""

from __future__ import annotations

import random

from ..actions import EX, PA, PI, SH, TR, A, Action, T
from ..game import Game
from ..tables import _LEAD1, _RANK_OF, _SINGLE, _TAKE, _combos
from . import simple_fool
from .arena import next_to_move
from .opponents import DefendHook
from .policies import LONG_GAME, NORMAL, duel, normal_policy
from .view import TRUMP_BONUS, view_of_game

_EX = _SINGLE[EX]
_W = NORMAL
#: NORMAL's knobs as plain locals of this module (read once per step otherwise)
_TAKE_TALON = _W.take_talon
_TAKE_TALON_TR = _W.take_talon_transfer
_TAKE_TALON_DUEL = _W.take_talon_duel
_TAKE_MAX = _W.take_max_cards
_TAKE_ACE = _W.take_ace
_THROW_RANK = _W.throw_rank
_PILE_RANK = _W.pile_rank
_LEAD_PEN = _W.lead_trump_penalty
_TRANSFER_RANK = _W.transfer_rank
_PILE_WEIGHT = _W.pile_weight
_SET_EARLY = _W.set_early
_SET_LATE = _W.set_late
_PILE_LATE = max(11, _W.pile_rank)
_THROW_LATE = max(12, _W.throw_rank)
_GROUP = simple_fool.GROUP_BONUS


def _value(c: int, t: int) -> int:
    """``View.value``: rank plus the trump premium."""
    return c % 13 + 2 + (TRUMP_BONUS if c // 13 & 3 == t else 0)


def _cheapest(m: int, t: int) -> int:
    """``min(bits(m), key=value)``: the first card of least value, in ascending card order."""
    best = -1
    bv = 99
    while m:
        low = m & -m
        c = low.bit_length() - 1
        v = c % 13 + 2 + (TRUMP_BONUS if c // 13 & 3 == t else 0)
        if v < bv:
            bv, best = v, c
        m ^= low
    return best


def _unseen(g: Game, seat: int) -> int:
    """``View.unseen`` of ``view_of_game`` on the plain game: what ``seat`` cannot place."""
    seen = g.hands[seat] | g.discard
    for p in g.table:
        seen |= 1 << p[0]
        if p[1] >= 0:
            seen |= 1 << p[1]
    for s, k in enumerate(g.known):
        if s != seat:
            seen |= k
    if g.trump_index >= 0 and g.trump_card_public:
        seen |= 1 << g.trump_card
    return g._deck & ~seen


def _possible(g: Game, seat: int, other: int) -> int:
    """``View.possible``: the cards ``other`` might hold, as ``seat`` sees it."""
    if other == seat:
        return g.hands[seat]
    return _unseen(g, seat) | g.known[other]


def _general(g: Game) -> tuple[int, list[Action]]:
    """One step exactly as the general playout takes it (``arena.actor`` and ``normal`` on
    the seat's view); for the cases this module does not handle itself."""
    seat, acts = next_to_move(g)
    if seat < 0:
        raise AssertionError(f"nobody can move in {g!r}")
    return seat, acts


def _score(
    cards: tuple[int, ...], t: int, late: bool, pen: float, held: int, group: float
) -> float:
    """``policies._lead``'s score of a lead before its endgame terms (``held``: the cards of
    that rank in the hand; ``group``: the simple fool's bonus per extra plain card, else 0),
    in the same arithmetic so that ties fall the same way."""
    k = len(cards)
    left = cards[0] % 13
    trumps = 0
    for c in cards:
        if c // 13 & 3 == t:
            trumps += 1
    score = -(k * (left + 2) + TRUMP_BONUS * trumps) / k * 2.0
    if trumps:
        score -= pen
    if k > 1:
        set_bonus = _SET_EARLY if left + 2 <= 10 and not trumps else -8.0
        score += (_SET_LATE if late else set_bonus) * (k - 1)
        if not trumps:
            score += group * (k - 1)
    if held - k:
        score -= 2
    return score


#: The first best lead of a group of one rank and its score, before the endgame, keyed by the
#: group, the lead limit, seat, trump suit, lateness, penalty and the simple fool (see
#: ``_best_of_group``).
_GROUP_BEST: dict[int, tuple[Action, float]] = {}


def _best_of_group(
    seat: int, same: int, limit: int, t: int, late: bool, talon_long: bool, simple: bool
) -> tuple[Action, float]:
    k = same.bit_count()
    most = k if k < limit else limit
    key = (((((same << 6 | most) << 3 | seat) << 3 | t) << 1 | late) << 1 | talon_long) << 1
    key |= simple
    got = _GROUP_BEST.get(key)
    if got is None:
        pen = _LEAD_PEN if talon_long else 8
        group = _GROUP if simple else 0.0
        best = None
        best_score = -1e9
        for a in _combos(seat, A, same, limit):
            score = _score(a.cards, t, late, pen, k, group)
            if score > best_score:
                best, best_score = a, score
        assert best is not None
        got = _GROUP_BEST[key] = (best, best_score)
    return got


def _lead(g: Game, seat: int) -> Action:
    """``policies._lead`` with the weights of ``normal``, over the leads ``_add_leads`` makes
    (in its order: rank groups by their lowest card, each group's combinations in
    ``_combos`` order); a group's best lead is memoised while the talon lasts."""
    d = g.defender
    limit = g.hands[d].bit_count()
    if g._limit < limit:
        limit = g._limit
    if limit <= 0:
        raise IndexError("no lead is possible")  # (as the general playout's acts[0] would)
    talon_count = len(g.talon)
    late = talon_count <= max(2, g.n)
    t = g.trump
    hand = rest = g.hands[seat]
    talon_long = talon_count > 4
    simple = g.rules.throw_in == "none"  # simple_fool.simple
    if talon_count:
        best: Action | None = None
        best_score = -1e9
        pen = _LEAD_PEN if talon_long else 8
        singles = _LEAD1[seat]
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            same = hand & _RANK_OF[i]
            rest ^= same
            if same == low:
                if i // 13 & 3 == t:
                    score = -(i % 13 + 2 + TRUMP_BONUS) * 2.0 - pen
                else:
                    score = -(i % 13 + 2) * 2.0
                if score > best_score:
                    best, best_score = singles[i], score
                continue
            a, score = _best_of_group(seat, same, limit, t, late, talon_long, simple)
            if score > best_score:
                best, best_score = a, score
        assert best is not None
        return best
    # the endgame: every lead is scored, with what the defender may hold
    acts: list[Action] = []
    g._add_leads(seat, acts)
    possible = _possible(g, seat, d)
    beaters = g._beat_tab[d]
    size = hand.bit_count()
    best = acts[0]
    best_score = -1e9
    for a in acts:
        cards = a.cards
        k = len(cards)
        held = (hand & _RANK_OF[cards[0]]).bit_count()
        score = _score(cards, t, late, 8, held, _GROUP if simple else 0.0)
        unbeatable = 0
        for c in cards:
            if not beaters[c] & possible:
                unbeatable += 1
        score += 12 * unbeatable
        if k == size:
            score += 100
        if score > best_score:
            best, best_score = a, score
    return best


def _plan(
    g: Game, seat: int, t: int, unbeaten: list[int]
) -> tuple[int, int, list[tuple[int, int]]] | None:
    """``view.defence_plan``: beat every unbeaten card, most constrained first, each with
    its cheapest beater; (first attack card, its beater, the whole plan) or None."""
    beaters = g._beat_tab[seat]
    free = g.hands[seat]
    if len(unbeaten) == 1:
        a = unbeaten[0]
        m = free & beaters[a]
        if not m:
            return None
        b = _cheapest(m, t)
        return a, b, [(a, b)]
    order = sorted(unbeaten, key=lambda a: ((free & beaters[a]).bit_count(), -_value(a, t)))
    plan: list[tuple[int, int]] = []
    for a in order:
        m = free & beaters[a]
        if not m:
            return None
        b = _cheapest(m, t)
        plan.append((a, b))
        free &= ~(1 << b)
    return plan[0][0], plan[0][1], plan


def _throw_ins(g: Game, seat: int, unbeaten: int) -> float:
    """``policies._throw_ins``: what the attackers are expected to throw in on a take."""
    ranks = 0
    table = g.table
    for p in table:
        ranks |= _RANK_OF[p[0]]
        if p[1] >= 0:
            ranks |= _RANK_OF[p[1]]
    room = min(6 - len(table), g.hands[seat].bit_count() - unbeaten)
    if room <= 0:
        return 0.0
    unseen = _unseen(g, seat)
    pool = unseen.bit_count()
    share = (unseen & ranks).bit_count() / pool if pool else 0.0
    teams = g.rules.teams != "none"
    expected = 0.0
    for s in range(g.n):
        if s == seat or not g._active >> s & 1 or (teams and (s - seat) % 2 == 0):
            continue
        known = g.known[s]
        unknown = g.hands[s].bit_count() - known.bit_count()
        expected += (known & ranks).bit_count() + unknown * share
    return min(float(room), expected)


def _should_take(
    g: Game, seat: int, t: int, unbeaten: list[int], plan: list[tuple[int, int]]
) -> bool:
    """``policies._should_take`` with the weights of ``normal``."""
    talon_count = len(g.talon)
    if talon_count == 0 or talon_count <= max(2, g.n):
        return False
    limit = _TAKE_TALON if not g._transfer else _TAKE_TALON_TR
    if g.n == 2 and duel(g.rules):
        limit = _TAKE_TALON_DUEL
    if g.rules.throw_in == "none":  # simple_fool.simple
        limit = simple_fool.TAKE_TALON
    table = g.table
    if talon_count > limit and not any(a // 13 & 3 == t for a in unbeaten):
        dear = any(d // 13 & 3 == t or (_TAKE_ACE and d % 13 == 12) for _, d in plan)
        if dear:
            home: float = 0
            for p in table:
                home += 1 if p[1] < 0 else 2
            if _PILE_WEIGHT:
                home += _PILE_WEIGHT * _throw_ins(g, seat, len(unbeaten))
            if home <= _TAKE_MAX:
                return True
    for a in unbeaten:
        if a // 13 & 3 == t or a % 13 + 2 > 10:
            return False  # the attack is not cheap: never worth taking by cost
    cost = 0
    extra = 4 if talon_count > 10 else 0
    for _, d in plan:
        if d // 13 & 3 == t:
            cost += 6 + (d % 13 + 2 - 6) + extra
        elif d % 13 + 2 >= 13:
            cost += 3
    load = len(table) * 2
    for p in table:
        if p[1] >= 0:
            load += 2
    return cost >= 12 + load


def _defend_list(g: Game, seat: int, t: int, acts: list[Action]) -> Action:
    """``policies._defend`` on a list of legal actions (transfers possible)."""
    unbeaten = [p[0] for p in g.table if p[1] < 0]
    transfers: list[Action] = []
    show: Action | None = None
    for a in acts:
        k = a.kind
        if k is SH:
            if show is None:
                show = a
        elif k is TR:
            transfers.append(a)
    talon_count = len(g.talon)
    late = talon_count <= max(2, g.n)
    plain = [a for a in transfers if not any(c // 13 & 3 == t for c in a.cards)]
    if talon_count > _TAKE_TALON:
        plain = [a for a in plain if a.cards[0] % 13 + 2 <= _TRANSFER_RANK]
    if plain:
        if late:
            return max(plain, key=lambda a: (len(a.cards), -sum(_value(c, t) for c in a.cards)))
        return min(plain, key=lambda a: (len(a.cards), sum(_value(c, t) for c in a.cards)))
    got = _plan(g, seat, t, unbeaten)
    if got is not None and not _should_take(g, seat, t, unbeaten, got[2]):
        return g._beat_acts[seat][got[0]][got[1] + 1]
    if show is not None:
        return show  # pass card: only instead of taking (see policies._defend)
    if transfers and (got is None or late):
        return min(transfers, key=lambda a: sum(_value(c, t) for c in a.cards))
    return _TAKE[seat]


def _defend(g: Game, seat: int, t: int) -> Action:
    """``policies._defend`` without transfers: the legal actions are beats and take."""
    unbeaten = [p[0] for p in g.table if p[1] < 0]
    got = _plan(g, seat, t, unbeaten)
    if got is not None and not _should_take(g, seat, t, unbeaten, got[2]):
        return g._beat_acts[seat][got[0]][got[1] + 1]
    return _TAKE[seat]


def _add(g: Game, seat: int, t: int, acts: list[Action]) -> Action:
    """``policies._add`` (and the playout's "first legal action" when it waits)."""
    d = g.defender
    opponent = d != seat and (g.rules.teams == "none" or (d - seat) % 2 == 1)
    has_pass = acts[-1].kind is PA  # 'done' is always the last action of a seat
    if opponent:
        talon_count = len(g.talon)
        taking = g.taking
        best: Action | None = None
        bv = 99
        if talon_count == 0:
            small = g.hands[seat].bit_count() <= 2
            possible = -1
            beaters = g._beat_tab[d]
            for a in acts:
                k = a.kind
                if k is not T and k is not PI:
                    continue
                c = a.cards[0]
                trump = c // 13 & 3 == t
                if small:
                    ok = True
                elif trump and taking:
                    ok = False
                elif not trump:
                    ok = True
                else:
                    if possible < 0:
                        possible = _possible(g, seat, d)
                    ok = bool(beaters[c] & possible)
                if ok:
                    v = c % 13 + 2 + (TRUMP_BONUS if trump else 0)
                    if v < bv:
                        best, bv = a, v
        else:
            late = talon_count <= max(2, g.n)
            if taking:
                top = _PILE_LATE if late else _PILE_RANK
            else:
                top = _THROW_LATE if late else _THROW_RANK
            for a in acts:
                k = a.kind
                if k is not T and k is not PI:
                    continue
                c = a.cards[0]
                if c // 13 & 3 == t:
                    continue
                r = c % 13 + 2
                if r <= top and r < bv:
                    best, bv = a, r
        if best is not None:
            if not has_pass and not taking:
                return acts[0]  # it would wait for the defender: the playout moves first
            return best
    if has_pass:
        return acts[-1]
    return acts[0]


def playout_plain(
    g: Game,
    rng: random.Random,
    max_steps: int = 600,
    hooks: dict[int, DefendHook] | None = None,
) -> bool:
    """``search.playout`` on the plain game (``rules.variant == "none"``): see the module.

    ``hooks`` (``engine.ai.opponents``): seats whose defence follows a modelled style; a
    hook that returns ``None`` leaves the decision to ``normal``."""
    transfer = g._transfer
    for _ in range(max_steps):
        if g.result is not None:
            return True
        if g.version > LONG_GAME:
            seat, acts = _general(g)
            choice = normal_policy(view_of_game(g, seat, acts), rng)
            g.apply_unchecked(choice if choice is not None else acts[0])
            continue
        table = g.table
        t = g.trump
        if not table:
            seat = g.attacker
            if g._exchange_on:
                ex = g._exchange_card(seat)
                if ex >= 0:
                    g.apply_unchecked(_EX[seat][ex])
                    continue
            g.apply_unchecked(_lead(g, seat))
            continue
        d = g.defender
        if not g.taking and g._unb:
            if d not in g._actors:  # (not in a real game) the general step decides
                seat, acts = _general(g)
                choice = normal_policy(view_of_game(g, seat, acts), rng)
                g.apply_unchecked(choice if choice is not None else acts[0])
                continue
            if g._exchange_on:
                ex = g._exchange_card(d)
                if ex >= 0:
                    g.apply_unchecked(_EX[d][ex])
                    continue
            if hooks and d in hooks:
                styled = hooks[d](g, d, rng)
                if styled is not None:
                    g.apply_unchecked(styled)
                    continue
            if transfer and g.hands[d] & g.table_ranks:  # a transfer may be possible
                acts = g.legal_actions(d)
                g.apply_unchecked(_defend_list(g, d, t, acts))
            else:
                g.apply_unchecked(_defend(g, d, t))
            continue
        seat = -1
        acts = []
        for s in g._elig:
            acts = g.legal_actions(s)
            if acts and acts[-1].kind is PA:
                seat = s
                break
        if seat < 0:
            seat, acts = _general(g)
        if acts[0].kind is EX:
            g.apply_unchecked(acts[0])
            continue
        g.apply_unchecked(_add(g, seat, t, acts))
    return g.result is not None


__all__ = ["playout_plain"]
