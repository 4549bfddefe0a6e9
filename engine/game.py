"""One deal of Durak: the ``Game`` class, which builds deals and hands out views of them.

The engine's game is split by what each part is: ``tables`` (prebuilt actions, events and
lookup tables), ``state`` (the state's slots and small queries), ``moves`` (legal actions and
applying them) and this module (construction, copies, JSON, observations, explanations). The
imports run one way: ``state`` and ``moves`` never import the variants, observations,
positions or explanations; this module assembles them.

Design notes (why it looks like this):

* Hands, the discard and per-seat knowledge are bit masks (see ``cards``); the table is a
  short list of ``[attack, defence]`` pairs. Random self-play is the engine's stress test and
  the computer players' search budget, so the hot paths avoid allocation.
* For the same reason (``bench/engine_speed.py`` measures it) the per-move paths avoid work
  that only changes per game or per bout: the rule options they read are copied into slots
  (``_blank``), what depends on the bout's roles is cached when roles change
  (``_refresh_bout``), actions and card-less events are prebuilt and shared, and
  ``all_legal_actions`` visits only the seats that may act. ``tests/engine/test_properties.py``
  re-derives the rules independently, so a faster engine that changes behaviour fails there.
* Several seats may be entitled to act at once (co-attackers throwing in while the defender
  defends). ``legal_actions(seat)`` answers for any seat and ``apply`` accepts exactly those
  actions, whoever sends them first; the bot serialises clicks per game.
* A bout ends by itself when nobody can change it any more: every attack card is beaten (or
  the defender said "take") and every attacker has said "done" or has nothing they could add.
  Players never have to press "done" for a move they could not make.
* Everything a seat may know is exposed only through ``observation(seat)``; computer players
  and renderers get that, never the ``Game``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from . import position
from .actions import Action, Event
from .cards import CARDS, bits, deck_mask, suit_char
from .errors import IllegalAction, InvalidPosition
from .explain import explain_illegal
from .moves import GameMoves
from .observation import Observation
from .position import SCHEMA, SCHEMA_VERSION
from .result import Result
from .rules import RuleSet
from .tables import (
    _BEATS,
    _DECK_CARDS,
    _ELIGIBLE,
    _NEXT_ACTIVE,
    _beats_for,
    _draw_table,
    _popcount,
    shuffle,
)
from .variants import VARIANTS
from .variants.base import aside_masks

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Game", "IllegalAction", "InvalidPosition", "Result"]


class Game(GameMoves):
    """One deal of Durak: the full true state. Mutable; copy with :meth:`copy`.

    The state's slots and queries are in ``state.GameState``, legal actions and applying them
    in ``moves.GameMoves``; this class builds games (new, copy, next deal, JSON) and hands out
    the views of them (observations, explanations of illegal actions).
    """

    __slots__ = ()

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        seed: int | str,
        dealer: int = 0,
        deal_no: int = 1,
        previous: Result | None = None,
    ) -> Game:
        """Shuffle with a private ``random.Random(seed)`` and deal, as the dealer would."""
        n = rules.players
        if not 0 <= dealer < n:
            raise InvalidPosition(f"dealer must be a seat from 0 to {n - 1}")
        deck = list(_DECK_CARDS[rules.deck_size, rules.packs])  # plain ints, like Cards shuffle
        shuffle(random.Random(seed), deck)
        g = cls._blank(rules)
        g.deal_no = deal_no
        g.dealer = dealer
        deal = g._variant.deal(rules, deck, dealer)
        g.hands = hands = deal.hands
        g.talon = deal.talon  # talon[0] is the bottom card, talon[-1] the top
        g.trump_index = deal.trump_index
        g.trump_card = up = deal.trump_card
        if deal.vstate:
            g.vstate = deal.vstate
        if deal.trump_holder >= 0:
            # no talon: the dealer's last card was turned up for all to see and fixes trumps
            g.trump_holder = deal.trump_holder
            if up >= 0 and not g._trump_hidden:
                g.known[deal.trump_holder] |= 1 << up
        g._set_trump(g._variant.trump_suit(up))
        lowest = g._low
        for s in range(n):
            if hands[s] >> lowest & 1:
                g.lowest_origin = s
        if lowest == up:
            g._exchange_on = False  # the lowest trump is the turned-up card: nothing to exchange
        attacker = g._opening_attacker(previous)
        g._start_roles(attacker, (attacker + 1) % n)
        return g

    @classmethod
    def _blank(cls, rules: RuleSet) -> Game:
        g = cls.__new__(cls)
        g.rules = rules
        g.n = n = rules.players
        g.hands = [0] * n
        g.talon = []
        g.trump = 0
        g.trump_card = 0
        g.trump_index = -1
        g.discard = 0
        g.table = []
        g.table_ranks = 0
        g.attacker = 0
        g.defender = 1
        g.first_attacker = 0
        g.bout_no = 0
        g.taking = False
        g.passed = 0
        g.def_start = 0
        g.beaten_before = 0
        g.shown = 0
        g.out = []
        g.team_ptr = [0, 1]
        g.lowest_origin = -1
        g.exchange_grace = False
        g.trump_holder = -1
        g.known = [0] * n
        g.narrate = True
        g.result = None
        g.version = 0
        g.deal_no = 1
        g.dealer = 0
        g._deck = deck_mask(rules.deck_size, rules.packs)
        g._beat_acts = _BEATS if rules.packs == 1 else _beats_for(104)
        g._active = (1 << n) - 1
        g._elig = []
        g._actors = ()
        g._exchange_on = rules.trump_exchange != "off"
        g._limit = 0
        g._unb = 0
        g._blimit = 0
        g._nd = 0
        g._low = 0
        tab_key = (rules.throw_in, rules.teams, n)
        g._elig_tab = _ELIGIBLE.get(tab_key) or _ELIGIBLE.setdefault(tab_key, {})
        g._next_tab = _NEXT_ACTIVE[n]
        g._draw_tab = _draw_table(n, rules.draw_order == "attackers_first")
        g._pile_on = rules.pile_on
        g._plain_roles = rules.teams == "none" and rules.after_pickup != "same_attacker"
        g._auto_done = rules.auto_done
        g._priority = rules.attacker_priority
        g._transfer = ("off", "before_beat", "kiev").index(rules.transfer)
        g._pass_card = rules.pass_card
        g._ex_orig_only = rules.exchange_original_holder_only
        g._ex_regained = rules.exchange_regained
        g._join_late = rules.co_attack == "after_first_beat"
        g._max_attack = 99 if rules.max_attack is None else rules.max_attack
        first = rules.first_bout_max
        g._first_max = g._max_attack if first is None else min(g._max_attack, first)
        g._variant = v = VARIANTS[rules.variant]
        g._v_leads = v.leads
        g._v_defends = v.defends
        g._v_edits = v.edits
        g._v_draws = v.draws
        g._v_bout_end = v.bout_end
        g._v_settles = v.settles
        g._trump_hidden = v.trump_card_hidden
        g.vstate = {}
        g._beat_tab = ()
        g._beaters = ()
        return g

    def _opening_attacker(self, previous: Result | None) -> int:
        n, dealer = self.n, self.dealer
        chosen = self._variant.opening_attacker(self, previous)
        if chosen is not None:
            return chosen
        rule = self.rules.first_lead if previous is None else self.rules.next_deal_lead
        if rule == "lowest_trump":
            for card in bits(self._deck & (0x1FFF << (13 * self.trump))):
                for s in range(n):
                    if self.hands[s] >> card & 1:
                        return s
            return (dealer + 1) % n  # nobody holds a trump: fall back to the dealer's left
        if rule == "duraka_uchat":
            return (dealer - 1) % n  # the fool deals and is attacked by the player on the right
        return (dealer + 1) % n

    def copy(self) -> Game:
        """An independent copy (searches copy a state per node, so every slot is assigned
        explicitly instead of by a getattr/setattr loop; a test checks none is missed)."""
        g = Game.__new__(Game)
        # mutable state: fresh lists
        g.hands = self.hands[:]
        g.talon = self.talon[:]
        g.table = [p[:] for p in self.table]
        g.out = self.out[:]
        g.team_ptr = self.team_ptr[:]
        g.known = self.known[:]
        g.vstate = dict(self.vstate)  # its values are never mutated in place
        # immutable values
        g.rules = self.rules
        g.n = self.n
        g.trump = self.trump
        g.trump_card = self.trump_card
        g.trump_index = self.trump_index
        g.discard = self.discard
        g.table_ranks = self.table_ranks
        g.attacker = self.attacker
        g.defender = self.defender
        g.first_attacker = self.first_attacker
        g.bout_no = self.bout_no
        g.taking = self.taking
        g.passed = self.passed
        g.def_start = self.def_start
        g.beaten_before = self.beaten_before
        g.shown = self.shown
        g.lowest_origin = self.lowest_origin
        g.exchange_grace = self.exchange_grace
        g.trump_holder = self.trump_holder
        g.result = self.result
        g.version = self.version
        g.deal_no = self.deal_no
        g.dealer = self.dealer
        g.narrate = self.narrate
        g._deck = self._deck
        g._beat_tab = self._beat_tab
        g._beaters = self._beaters
        g._beat_acts = self._beat_acts
        g._active = self._active
        g._exchange_on = self._exchange_on
        g._low = self._low
        # per bout, shared read-only values (see _refresh_bout)
        g._elig = self._elig
        g._actors = self._actors
        g._limit = self._limit
        g._unb = self._unb
        g._blimit = self._blimit
        g._nd = self._nd
        # copied rule options and per-table lookups (see _blank)
        g._elig_tab = self._elig_tab
        g._next_tab = self._next_tab
        g._draw_tab = self._draw_tab
        g._pile_on = self._pile_on
        g._plain_roles = self._plain_roles
        g._auto_done = self._auto_done
        g._priority = self._priority
        g._transfer = self._transfer
        g._pass_card = self._pass_card
        g._ex_orig_only = self._ex_orig_only
        g._ex_regained = self._ex_regained
        g._join_late = self._join_late
        g._max_attack = self._max_attack
        g._first_max = self._first_max
        g._variant = self._variant
        g._v_leads = self._v_leads
        g._v_defends = self._v_defends
        g._v_edits = self._v_edits
        g._v_draws = self._v_draws
        g._v_bout_end = self._v_bout_end
        g._v_settles = self._v_settles
        g._trump_hidden = self._trump_hidden
        return g

    def next_deal(self, seed: int | str) -> Game:
        """The next deal of a session: the fool deals (on a draw the same dealer deals again)."""
        if self.result is None:
            raise IllegalAction("not_finished", "the deal is not over yet")
        r = self.result
        if r.kind == "fool" and r.fool is not None:
            dealer = r.fool
        elif r.kind == "team" and r.losers:
            dealer = r.losers[0]
        else:
            dealer = self.dealer
        return Game.new(self.rules, seed, dealer=dealer, deal_no=self.deal_no + 1, previous=r)

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action; raise :class:`IllegalAction` (state untouched) otherwise."""
        if not isinstance(action, Action):
            raise IllegalAction("malformed", f"{action!r} is not an Action")
        if action not in self.legal_actions(action.seat):
            code, msg = self.explain_illegal(action)
            raise IllegalAction(code, msg)
        return self.apply_unchecked(action)

    # ------------------------------------------------------------------ explanations

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        """Why ``action`` is not legal: a stable code and a sentence (only on the error path)."""
        return explain_illegal(self, action)

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: the only view computer players and renderers get."""
        return Observation.of(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator (the channel) may see: no hand, only face-up and public cards."""
        return Observation.of(self, -1)

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The full true state (contains every hand: never send it to a seat)."""
        return position.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, settle: bool = True) -> Game:
        """Rebuild a state from :meth:`to_dict` output, or from a hand-written position
        (``engine/position.py``; raises :class:`InvalidPosition`). A bout that is already
        complete is settled; ``settle=False`` keeps it on the table (the hard player's
        sampled worlds must agree with the table the seat sees)."""
        return position.from_dict(cls, data, settle=settle)

    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        hands: Sequence[Iterable[str | int]],
        trump_card: str | int | None = None,
        *,
        trump: str | None = None,
        talon: Iterable[str | int] = (),
        table: Iterable[Sequence[str | int | None]] = (),
        attacker: int = 0,
        defender: int | None = None,
        discard: Iterable[str | int] | None = None,
        **extra: Any,
    ) -> Game:
        """Build a game from an explicit position (tests, puzzles, analysis).

        ``talon`` is listed from the bottom (the turned-up trump, drawn last) to the top.
        """

        def s(c: str | int | None) -> str | None:
            return None if c is None else str(CARDS[c]) if isinstance(c, int) else c

        data: dict[str, Any] = {
            "rules": rules.to_dict(),
            "hands": [[s(c) for c in h] for h in hands],
            "talon": [s(c) for c in talon],
            "table": [[s(c) for c in p] for p in table],
            "attacker": attacker,
        }
        if trump_card is not None:
            data["trump_card"] = s(trump_card)
        if trump is not None:
            data["trump"] = trump
        if defender is not None:
            data["defender"] = defender
        if discard is not None:
            data["discard"] = [s(c) for c in discard]
        data.update(extra)
        return cls.from_dict(data)

    # ------------------------------------------------------------------ misc

    def check_invariants(self) -> None:
        """Every card exactly once across hands, talon, table and discard (raises otherwise)."""
        seen = 0
        total = 0
        parts: list[int] = [*self.hands, self.discard]
        if self.vstate:  # cards a variant set aside (out of play, closed)
            out_of_play, closed = aside_masks(self.vstate, self.n)
            parts += [out_of_play, *closed]
        for c in self.talon:
            parts.append(1 << c)
        for a, d in self.table:
            parts.append(1 << a)
            if d >= 0:
                parts.append(1 << d)
        for m in parts:
            if seen & m:
                raise AssertionError(f"duplicated card(s): {list(bits(seen & m))}")
            seen |= m
            total += _popcount(m)
        if seen != self._deck:
            raise AssertionError("cards lost or foreign cards present")
        for s in range(self.n):
            if self.known[s] & ~self.hands[s]:
                raise AssertionError(f"seat {s} knowledge holds cards not in its hand")

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(str(c) for c in self.hand(s)) for s in range(self.n))
        table = " ".join(f"{CARDS[a]}/{CARDS[d] if d >= 0 else '-'}" for a, d in self.table)
        return (
            f"<Game {self.phase} trump={suit_char(self.trump)}"
            f"{'/' + str(CARDS[self.trump_card]) if self.trump_card >= 0 else ''}"
            f" talon={len(self.talon)} "
            f"A={self.attacker} D={self.defender} table=[{table}] hands=[{hands}]>"
        )
