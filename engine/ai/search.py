"""Search machinery for the ``hard`` player: sampling hidden cards, playouts, exact endgames.

Determinization: a seat cannot see the other hands or the talon, so it samples complete worlds
that agree with everything it observed and evaluates its moves in each. A sampled world keeps

* every card the observer can see where it is: its own hand, the table, the discard, the
  turned-up trump at the bottom of the talon (or in the hand that drew it), and every card
  publicly known to be in another hand (``known_masks``: picked-up cards, shown pass cards,
  the drawn turned-up trump, exchanges);
* every hand size and the talon count;
* the *void inferences* of :class:`Inference` (cards a seat is believed not to hold), when they
  can be satisfied; they are beliefs, not facts, so an unsatisfiable set is dropped rather than
  producing no world at all.

Once the talon is empty and only two players hold cards, nothing is hidden any more: the
other hand is exactly the unseen cards. :class:`EndgameSolver` then searches the real game tree
(minimax over legal actions with a transposition table and a node cap).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, ActionKind
from ..cards import CARDS, bits, suit_char
from ..game import Game
from ..observation import Observation
from ..variants import VARIANTS
from ..variants.base import CLOSED, OUT_OF_PLAY, card_list
from .arena import next_to_move
from .fastplay import _add, _defend, _defend_list, _lead, playout_plain
from .opponents import DefendHook
from .policies import LONG_GAME, normal_policy
from .view import view_of_game

PA = ActionKind.PASS


# ---------------------------------------------------------------------------- inference


@dataclass
class Inference:
    """What a seat has deduced during one deal beyond ``known_masks``.

    The one inference kept is the classic "could not beat": when, with the talon empty, a
    defender says "take" while exactly one attack card is unbeaten, they are believed to hold
    nothing that beats it (no higher card of its suit and, for a non-trump, no trump) among the
    cards not publicly known to be in their hand. With the talon empty no new hidden card can
    enter that hand, so the belief stays valid for the rest of the deal; it is wrong only if the
    defender took on purpose, which is why the sampler treats it as soft.
    """

    deal: tuple[int, int, int] = (-1, -1, -1)
    last_version: int = -1
    last_talon: int = -1
    last_discard: int = 0
    voids: dict[int, int] = field(default_factory=dict)

    def update(self, obs: Observation) -> None:
        deal = (obs.deal_no, obs.dealer, obs.rules.players)
        # within a deal the version and the discard only grow and the talon only shrinks
        if (
            deal != self.deal
            or obs.version < self.last_version
            or obs.talon_count > self.last_talon >= 0
            or self.last_discard & ~obs.discard_mask
        ):
            self.voids = {}
        self.deal = deal
        self.last_version = obs.version
        self.last_talon = obs.talon_count
        self.last_discard = obs.discard_mask
        if obs.taking and obs.talon_count == 0 and obs.defender != obs.seat:
            unbeaten = [a for a, d in obs.table if d is None]
            if len(unbeaten) == 1:
                d = obs.defender
                cant = obs.beaters[d][unbeaten[0]]
                self.voids[d] = self.voids.get(d, 0) | cant

    def void_masks(self, obs: Observation) -> dict[int, int]:
        """Voids restricted to what is still unseen (known cards are placed regardless)."""
        unseen = obs.unseen_mask
        return {s: m & unseen for s, m in self.voids.items() if m & unseen}


# ---------------------------------------------------------------------------- sampling


def hidden_slots(obs: Observation) -> tuple[dict[int, int], int]:
    """How many unseen cards each other seat holds, and how many lie face down in the talon."""
    need = {
        s: obs.hand_sizes[s] - obs.known_masks[s].bit_count() for s in range(obs.n) if s != obs.seat
    }
    # the turned-up card is seen, unless it is hidden (invisible fool): then it is one more
    # face-down talon card
    talon = obs.talon_count - (1 if obs.trump_card_in_talon and obs.trump_card is not None else 0)
    # cards a variant set aside face down are sampled with the talon (build_world splits them)
    talon += obs.out_of_play + sum(obs.closed)
    return need, talon


def sample_hands(
    obs: Observation, rng: random.Random, voids: dict[int, int] | None = None
) -> tuple[list[int], list[int]]:
    """Hidden cards dealt at random: (hands as masks incl. known cards, face-down talon cards).

    Cards a seat is believed not to hold go to other seats or the talon; if the beliefs cannot
    all be honoured after a few tries they are ignored for this sample.
    """
    need, talon_need = hidden_slots(obs)
    unseen = list(bits(obs.unseen_mask))
    if sum(need.values()) + talon_need != len(unseen):
        raise ValueError("observation is inconsistent: hidden slots do not match unseen cards")
    for attempt in range(6):
        use_voids = voids if voids and attempt < 5 else {}
        result = _deal(obs, rng, unseen, need, talon_need, use_voids)
        if result is not None:
            return result
    raise AssertionError("unconstrained deal cannot fail")


def _deal(
    obs: Observation,
    rng: random.Random,
    unseen: list[Any],
    need: dict[int, int],
    talon_need: int,
    voids: dict[int, int],
) -> tuple[list[int], list[int]] | None:
    cards = unseen[:]
    rng.shuffle(cards)
    left = dict(need)
    hands = [obs.known_masks[s] if s != obs.seat else obs.hand_mask for s in range(obs.n)]
    talon: list[int] = []
    talon_left = talon_need
    free: list[int] = []
    if voids:
        constrained = [c for c in cards if any(m >> c & 1 for m in voids.values())]
        for c in constrained:
            choices = [s for s in left if left[s] and not voids.get(s, 0) >> c & 1]
            weights = [left[s] for s in choices]
            total = sum(weights) + talon_left
            if total == 0:
                return None
            r = rng.randrange(total)
            if r < talon_left:
                talon.append(c)
                talon_left -= 1
                continue
            r -= talon_left
            for s, w in zip(choices, weights, strict=True):
                if r < w:
                    hands[s] |= 1 << c
                    left[s] -= 1
                    break
                r -= w
        placed = set(constrained)
        free = [c for c in cards if c not in placed]
    else:
        free = cards
    i = 0
    for s in sorted(left):
        k = left[s]
        for c in free[i : i + k]:
            hands[s] |= 1 << c
        i += k
    talon.extend(free[i:])
    return hands, talon


def is_blind(obs: Observation) -> bool:
    """Reverse fool: the seat holds cards it cannot see."""
    return bool(obs.hand_sizes[obs.seat]) and not obs.hand_mask


def sample_blind(obs: Observation, rng: random.Random) -> tuple[list[int], list[int]]:
    """Reverse fool: the seat sees every other hand, so what it samples is its *own* hand.

    Its hand keeps the cards the table saw go into it (``known_masks[seat]``) and is filled up
    from the rest of what it cannot place; what is left is the face-down talon. Returns the
    same shape as :func:`sample_hands`.
    """
    seat = obs.seat
    mine = obs.known_masks[seat]
    pool = [int(c) for c in bits(obs.unseen_mask & ~mine)]
    k = obs.hand_sizes[seat] - mine.bit_count()
    _, talon_need = hidden_slots(obs)
    if k < 0 or k + talon_need != len(pool):
        raise ValueError("observation is inconsistent: a blind hand does not fit the unseen cards")
    rng.shuffle(pool)
    hands = [obs.known_masks[s] if s != seat else mine for s in range(obs.n)]
    for c in pool[:k]:
        hands[seat] |= 1 << c
    return hands, pool[k:]


def blind_template(obs: Observation) -> dict[str, Any]:
    """:func:`world_template` for a blind seat: the other seats' hands are in full view of this
    seat, but what *they* know of their own hands is only what went into them openly, which
    this observation does not carry; the sampled world keeps just the seat's own known cards
    (so its playouts count them as the real seat does) and lets the others learn afresh."""
    template = world_template(obs)
    template["known"] = [
        [str(c) for c in bits(obs.known_masks[s])] if s == obs.seat else [] for s in range(obs.n)
    ]
    up = obs.trump_card
    if up is not None and not obs.trump_card_in_talon and obs.known_masks[obs.seat] >> up & 1:
        template["trump_holder"] = obs.seat  # it drew the turned-up trump in view of all
    return template


def world_template(obs: Observation) -> dict[str, Any]:
    """Everything of a :meth:`Game.from_dict` document that does not depend on the sample."""
    trump_holder = -1
    up = obs.trump_card
    if up is not None and not obs.trump_card_in_talon:
        for s in range(obs.n):
            if obs.known_masks[s] >> up & 1 and s != obs.seat:
                trump_holder = s
        if obs.hand_mask >> up & 1:
            trump_holder = obs.seat
    # the game's trump suit: shown by the turned-up card when it is seen (in double-trump
    # fool ``obs.trump`` is the observer's own suit); otherwise everybody's suit is the same
    trump = up.suit if up is not None and obs.rules.variant == "double-trump" else obs.trump
    template: dict[str, Any] = {
        "rules": obs.rules.to_dict(),
        "trump": suit_char(trump),
        "trump_holder": trump_holder,
        "table": [[str(a), None if d is None else str(d)] for a, d in obs.table],
        "discard": [str(c) for c in bits(obs.discard_mask)],
        "attacker": obs.attacker,
        "defender": obs.defender,
        "first_attacker": obs.first_attacker,
        "bout_no": obs.bout_no,
        "taking": obs.taking,
        "passed": list(obs.passed),
        "out": list(obs.out),
        "deal_no": obs.deal_no,
        "dealer": obs.dealer,
        "version": obs.version,
        "known": [
            [] if s == obs.seat else [str(c) for c in bits(obs.known_masks[s])]
            for s in range(obs.n)
        ],
    }
    if up is not None:
        template["trump_card"] = str(up)
    if obs.variant_state:
        template["variant_state"] = dict(obs.variant_state)
    return template


def build_world(
    obs: Observation, template: dict[str, Any], hands: list[int], hidden_talon: list[int]
) -> Game:
    """A full game agreeing with ``obs`` and the sampled hidden cards."""
    talon = list(hidden_talon)
    data = dict(template)
    if obs.out_of_play or obs.closed:
        # the first sampled cards are the ones set aside (see hidden_slots)
        k = obs.out_of_play
        state = dict(template.get("variant_state", {}))
        state[OUT_OF_PLAY] = card_list([*bits(obs.out_of_play_seen), *talon[:k]])
        if obs.closed:
            closed = []
            for count in obs.closed:
                closed.append(card_list(talon[k : k + count]))
                k += count
            state[CLOSED] = closed
        data["variant_state"] = state
        del talon[:k]
    talon = VARIANTS[obs.rules.variant].arrange_talon(talon)
    trump_index = -1
    if obs.trump_card_in_talon and obs.trump_card is not None:
        trump_index = 1 if obs.rules.severnyi and talon else 0
        talon.insert(trump_index, int(obs.trump_card))
    data["hands"] = [[str(c) for c in bits(h)] for h in hands]
    data["talon"] = [str(CARDS[c]) for c in talon]
    data["trump_index"] = trump_index
    # a sampled world may hold a bout that would be complete there; it stays as the seat sees it
    world = Game.from_dict(data, settle=False)
    world.narrate = False  # nobody reads a sampled world's events (and copies inherit this)
    return world


class Worlds:
    """Sampled worlds of one observation, built cheaply on the plain game.

    :func:`build_world` goes through :meth:`Game.from_dict` (the rules and every card parsed
    from text), which was a tenth of a search's time. Worlds of one observation differ only
    in the sampled cards: on the plain game (no catalogue variant, nothing set aside, no card
    face down) the first world is built that way and every later one is a copy of it with the
    sampled hands and talon put in and the one derived slot that depends on them (who holds
    the lowest trump) recomputed as ``from_dict`` would. A test compares every slot of the two
    ways of building.
    """

    def __init__(self, obs: Observation, template: dict[str, Any]) -> None:
        self.obs = obs
        self.template = template
        self.base: Game | None = None
        self.fast = (
            obs.rules.variant == "none"
            and not obs.out_of_play
            and not any(obs.closed)
            and not obs.face_down
        )

    def build(self, hands: list[int], hidden_talon: list[int]) -> Game:
        obs = self.obs
        base = self.base
        if base is None or not self.fast:
            world = build_world(obs, self.template, hands, hidden_talon)
            if self.fast:
                self.base = world.copy()
            return world
        g = base.copy()
        g.hands = list(hands)
        talon = list(hidden_talon)
        if base.trump_index >= 0:
            talon.insert(base.trump_index, base.trump_card)
        g.talon = talon
        low = g._lowest_trump_card()
        origin = -1
        for s in range(g.n):
            if hands[s] >> low & 1:
                origin = s
        g.lowest_origin = origin
        return g


#: Take on trust: how much less likely a defender is to lay a card face down when it holds
#: nothing that beats the attack card (a bluff) than when it does (the truth, or it would
#: rather beat openly or take). The ``normal`` player bluffs about this often; a person's
#: rate is unknown, and this keeps the belief from being sure either way.
BLUFF_WEIGHT = 0.35


def face_down_world(
    obs: Observation,
    template: dict[str, Any],
    rng: random.Random,
    voids: dict[int, int] | None = None,
) -> Game:
    """Take on trust: a world for an observation with defences lying face down on the table.

    The face-down cards this seat did not lay are hidden cards of the defender who laid them:
    the defender's hand is sampled with one more slot per such card, and the cards for the
    table are then picked from that hand. The card awaiting a verdict is picked as a defender
    would lay it: the cheapest card that beats the attack card if it holds one, else its
    cheapest card as a bluff, with bluffing worlds kept only ``BLUFF_WEIGHT`` as often (so
    the chance of a lie comes from what the seat can know: the cards it has not seen, and
    how many beaters are among them). Earlier, accepted face-down cards are any of the
    sampled cards. Only this seat's own observation goes in.
    """
    need, talon_need = hidden_slots(obs)
    unseen = list(bits(obs.unseen_mask))
    hidden = [i for i in obs.face_down if obs.table[i][1] is None]
    owner = obs.defender
    need[owner] = need.get(owner, 0) + len(hidden)
    if sum(need.values()) + talon_need != len(unseen):
        raise ValueError("observation is inconsistent: hidden slots do not match unseen cards")
    trump = obs.trumps[owner] if obs.trumps else obs.trump
    judged = obs.judging if obs.judging in hidden else -1
    for attempt in range(12):
        use_voids = voids if voids and attempt < 6 else {}
        dealt = _deal(obs, rng, unseen, need, talon_need, use_voids)
        if dealt is None:
            continue
        hands, talon = dealt
        pool = hands[owner] & ~obs.known_masks[owner]
        chosen: dict[int, int] = {}
        if judged >= 0:
            att = int(obs.table[judged][0])
            beat = pool & obs.beaters[owner][att]
            lie = not beat
            if lie and attempt < 11 and rng.random() >= BLUFF_WEIGHT:
                continue
            c = _cheapest(beat or pool, trump)
            chosen[judged] = c
            pool &= ~(1 << c)
        rest = [int(c) for c in bits(pool)]
        rng.shuffle(rest)
        for i in hidden:
            if i not in chosen:
                chosen[i] = int(rest.pop())
        for c in chosen.values():
            hands[owner] &= ~(1 << c)
        return _face_down_game(obs, template, hands, talon, chosen)
    raise AssertionError("an unconstrained deal cannot fail")


def _cheapest(mask: int, trump: int) -> int:
    return min((int(c) for c in bits(mask)), key=lambda c: (c // 13 == trump, c % 13))


def _face_down_game(
    obs: Observation,
    template: dict[str, Any],
    hands: list[int],
    talon: list[int],
    chosen: dict[int, int],
) -> Game:
    data = dict(template)
    table = [list(p) for p in template["table"]]
    down = []
    for i in obs.face_down:
        if i in chosen:
            table[i][1] = str(CARDS[chosen[i]])
        else:
            seen = obs.table[i][1]  # laid by this seat, so it sees it
            assert seen is not None
            chosen[i] = int(seen)
        down.append([chosen[i], obs.defender])
    data["table"] = table
    state = dict(template.get("variant_state", {}))
    state["down"] = down
    state["pending"] = chosen[obs.judging] if obs.judging >= 0 else -1
    data["variant_state"] = state
    return build_world(obs, data, hands, talon)


def exact_world(obs: Observation) -> Game | None:
    """The true game when nothing is hidden (talon empty, two players left), else ``None``."""
    if obs.talon_count or sum(obs.active) != 2 or not obs.active[obs.seat]:
        return None
    if obs.out_of_play or any(obs.closed):
        return None  # face-down cards set aside are still hidden
    hands, talon = sample_hands(obs, random.Random(0))
    return build_world(obs, world_template(obs), hands, talon)


# ---------------------------------------------------------------------------- playouts


def is_win(g: Game, seat: int) -> bool:
    r = g.result
    assert r is not None
    return seat not in r.losers


def playout(
    g: Game,
    rng: random.Random,
    max_steps: int = 600,
    hooks: dict[int, DefendHook] | None = None,
) -> bool:
    """Play ``g`` on in place, every seat using the ``normal`` policy on its own view.

    False when the game did not finish within ``max_steps`` (the policies went round in a
    circle); the caller scores such a playout as neither a win nor a loss. The plain game
    takes ``fastplay.playout_plain``, the same moves without a view per step; there
    ``hooks`` give modelled opponents their own defence (``engine.ai.opponents``, which
    models the plain game only).
    """
    if g.rules.variant == "none":
        return playout_plain(g, rng, max_steps, hooks)
    for _ in range(max_steps):
        if g.result is not None:
            return True
        seat, acts = next_to_move(g)
        if seat < 0:
            raise AssertionError(f"nobody can move in {g!r}")
        choice = normal_policy(view_of_game(g, seat, acts), rng)
        if choice is None:
            choice = acts[0]
        g.apply_unchecked(choice)
    return g.result is not None


# ---------------------------------------------------------------------------- endgame


def normal_first(g: Game, mover: int, acts: list[Action]) -> Action | None:
    """``normal``'s move for ``mover`` in a full game, or ``None`` where it would wait.

    The solver asks this at every node to try the rules-of-thumb move first; on the plain
    game ``fastplay``'s restatement of ``normal`` answers from the game's masks (the same
    move, a test compares them) for about 1.6 times less CPU per node than a view and
    ``normal_policy``, so that more endgames are proven within the think budget."""
    fast = _normal_plain(g, mover, acts)
    if fast is not None:
        return fast
    return normal_policy(view_of_game(g, mover, acts), random.Random(0))


def _normal_plain(g: Game, mover: int, acts: list[Action]) -> Action | None:
    """:func:`normal_first` through ``fastplay``'s restatement of ``normal``, where it
    applies (the plain game, no exchange to consider, not going round in circles); ``None``
    elsewhere. Where ``normal`` would wait, ``fastplay`` names the first legal action, which
    puts the same action first."""
    if g.rules.variant != "none" or g.version > LONG_GAME or not acts:
        return None
    if acts[0].kind is ActionKind.EXCHANGE:
        return None
    if g._exchange_on and g._exchange_card(mover) >= 0:
        return None
    t = g.trump
    if not g.table:
        if mover != g.attacker:
            return None
        try:
            return _lead(g, mover)
        except IndexError:
            return None
    if mover == g.defender and not g.taking and g._unb:
        if mover not in g._actors:
            return None
        if g._transfer and g.hands[mover] & g.table_ranks:
            return _defend_list(g, mover, t, acts)
        return _defend(g, mover, t)
    return _add(g, mover, t, acts)


class NodeCapReached(Exception):
    """The exact search gave up; the caller falls back to sampling."""


def _key(g: Game) -> tuple[Any, ...]:
    return (
        tuple(g.hands),
        tuple((p[0], p[1]) for p in g.table),
        g.attacker,
        g.defender,
        g.taking,
        g.passed,
        g.shown,
        g.def_start,
        g.beaten_before,
        g.trump_card,
        g.trump_holder,
        g.exchange_grace,
        g.lowest_origin,
        tuple(g.out),
    )


def outcome(g: Game, seat: int) -> int:
    """2 when ``seat`` (or its team) won outright, 1 for a draw, 0 when it lost."""
    r = g.result
    assert r is not None
    if seat in r.losers:
        return 0
    return 1 if r.kind == "draw" else 2


class EndgameSolver:
    """Whether ``seat`` can force an outcome of at least ``target`` (see :func:`outcome`) in a
    perfect-information position: ``target=1`` asks "can I avoid being the fool", 2 "can I
    make the opponent the fool".

    Moves follow the arena's convention (the defender answers before attackers add cards), so a
    proven result holds against any opponent playing through the same driver.
    """

    def __init__(
        self,
        seat: int,
        node_cap: int = 20000,
        max_depth: int = 150,
        target: int = 1,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        #: asked every 256 nodes; True gives up as the node cap does (the think budget is out)
        self.stop = stop
        self.seat = seat
        self.target = target
        self.node_cap = node_cap
        self.max_depth = max_depth
        self.nodes = 0
        self.memo: dict[tuple[Any, ...], bool] = {}
        self.path: set[tuple[Any, ...]] = set()

    def wins(self, g: Game) -> bool:
        if g.result is not None:
            return outcome(g, self.seat) >= self.target
        key = _key(g)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if key in self.path:
            # a repeated position: the game can go round for ever. Not a win we can prove.
            return False
        self.nodes += 1
        if self.nodes > self.node_cap or len(self.path) >= self.max_depth:
            raise NodeCapReached
        if self.stop is not None and not self.nodes & 255 and self.stop():
            raise NodeCapReached
        self.path.add(key)
        try:
            return self._search(g, key)
        finally:
            self.path.discard(key)

    def _search(self, g: Game, key: tuple[Any, ...]) -> bool:
        mover, acts = next_to_move(g)
        mine = not g.is_opponent(mover, self.seat)
        value = not mine
        for a in self.order(g, mover, acts):
            child = g.copy()
            child.apply_unchecked(a)
            if self.wins(child) == mine:
                value = mine
                break
        self.memo[key] = value
        return value

    def order(self, g: Game, mover: int, acts: list[Action]) -> list[Action]:
        """The heuristic's choice first: good moves early make cut-offs early."""
        first = normal_first(g, mover, acts)
        if first is None or first not in acts:
            return acts
        return [first, *(a for a in acts if a != first)]

    def winning_moves(self, g: Game, candidates: list[Action]) -> list[Action]:
        out = []
        for a in candidates:
            child = g.copy()
            child.apply_unchecked(a)
            if self.wins(child):
                out.append(a)
        return out
