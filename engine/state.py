"""The game state of one deal: its slots, the values copied from the rules, and small queries.

``GameState`` holds the true state and answers questions about it (roles, eligible attackers,
the bout's limits) but has no rules of play: ``moves.GameMoves`` adds legal actions and how
actions change the state, and ``game.Game`` construction, JSON, observations and explanations.
Catalogue variants, observations and positions depend on these classes, never the reverse, so
nothing here imports them at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, Card, sorted_hand
from .tables import _BeatActions, _popcount

if TYPE_CHECKING:
    from .result import Result
    from .rules import RuleSet
    from .variants.base import Variant


class GameState:
    """The full true state of one deal and its small queries (see the module docstring)."""

    __slots__ = (
        "_active",
        "_actors",
        "_auto_done",
        "_beat_acts",
        "_beat_tab",
        "_beaters",
        "_blimit",
        "_deck",
        "_draw_tab",
        "_elig",
        "_elig_tab",
        "_ex_orig_only",
        "_ex_regained",
        "_exchange_on",
        "_first_max",
        "_join_late",
        "_limit",
        "_low",
        "_max_attack",
        "_nd",
        "_next_tab",
        "_pass_card",
        "_pile_on",
        "_plain_roles",
        "_priority",
        "_transfer",
        "_trump_hidden",
        "_unb",
        "_v_bout_end",
        "_v_defends",
        "_v_draws",
        "_v_edits",
        "_v_leads",
        "_v_settles",
        "_variant",
        "attacker",
        "beaten_before",
        "bout_no",
        "deal_no",
        "dealer",
        "def_start",
        "defender",
        "discard",
        "exchange_grace",
        "first_attacker",
        "hands",
        "known",
        "lowest_origin",
        "n",
        "narrate",
        "out",
        "passed",
        "result",
        "rules",
        "shown",
        "table",
        "table_ranks",
        "taking",
        "talon",
        "team_ptr",
        "trump",
        "trump_card",
        "trump_holder",
        "trump_index",
        "version",
        "vstate",
    )

    rules: RuleSet
    n: int
    hands: list[int]
    talon: list[int]
    trump: int
    trump_card: int
    trump_index: int
    discard: int
    table: list[list[int]]
    table_ranks: int
    attacker: int
    defender: int
    first_attacker: int
    bout_no: int
    taking: bool
    passed: int
    def_start: int
    beaten_before: int
    shown: int
    out: list[int]
    team_ptr: list[int]
    lowest_origin: int
    exchange_grace: bool
    trump_holder: int
    known: list[int]
    result: Result | None
    version: int
    deal_no: int
    dealer: int
    #: whether applying an action builds its ``Event`` list (see ``apply_unchecked``); search
    #: and random self-play turn it off: narration was about a fifth of applying an action
    narrate: bool
    _deck: int
    _beat_tab: tuple[tuple[int, ...], ...]  # [seat][card]: the cards that beat it (Variant)
    _beaters: tuple[int, ...]  # _beat_tab[defender], kept with the roles (one index less a move)
    _beat_acts: _BeatActions  # [seat][attack][d + 1]: prebuilt defences (one or two packs)
    _active: int
    _exchange_on: bool  # cheap pre-check: exchanges are in the rules and still possible
    _elig: list[int]  # eligible attackers of the bout in priority order (shared: never mutate)
    _limit: int  # most attack cards the current bout may hold
    _unb: int  # unbeaten attack cards on the table
    # Per bout (set by _refresh_bout), so move generation does not walk the seats every call:
    _actors: tuple[int, ...]  # the defender and the eligible attackers, in seat order
    _blimit: int  # the bout's own card limit (rules only; a transfer is capped by the next hand)
    _nd: int  # who a transfer goes to: the next active seat after the defender
    _low: int  # the lowest trump card (follows the trump suit, which Severnyi can change)
    # Rule options read on the hot paths, copied from ``rules`` once (a frozen dataclass
    # attribute chain costs more than a slot), and lookup tables for this rule set and table
    # size; set by _blank, so every constructor has them.
    _elig_tab: dict[int, tuple[list[int], tuple[int, ...], int]]  # (_elig, _actors, _nd) memo
    _pile_on: bool
    _plain_roles: bool  # individuals, and the turn passes on after a pick-up (_next_roles)
    _auto_done: bool
    _priority: bool  # attacker_priority
    _transfer: int  # 0 off, 1 before_beat, 2 kiev
    _pass_card: bool
    _ex_orig_only: bool  # exchange_original_holder_only
    _ex_regained: bool  # exchange_regained
    _join_late: bool  # co_attack == "after_first_beat"
    _max_attack: int  # max_attack, or 99 for no limit
    _first_max: int  # the limit of a deal's first bout (first_bout_max applied)
    _next_tab: tuple[tuple[int, ...], ...]  # _next_tab[active][seat] == _next_active(seat)
    _draw_tab: tuple[tuple[tuple[int, ...], ...], ...]  # [first attacker][defender]: refill order
    # The catalogue variant and which of its optional hooks to call (engine/variants/base.py)
    _variant: Variant
    _v_leads: bool
    _v_defends: bool
    _v_edits: bool  # the variant edits legal actions (take on trust); never a pagat preset
    _v_draws: bool
    _v_bout_end: bool
    _v_settles: bool
    _trump_hidden: bool
    vstate: dict[str, Any]  # the variant's own state: JSON values, replaced, never mutated

    # ------------------------------------------------------------------ small queries

    @property
    def beat_tables(self) -> tuple[tuple[int, ...], ...]:
        """``[seat][card]``: the mask of cards that beat ``card`` when ``seat`` defends."""
        return self._beat_tab

    @property
    def trump_card_public(self) -> bool:
        """Whether the turned-up trump card is shown (not in invisible fool)."""
        return not self._trump_hidden and self.trump_card >= 0

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.rules.teams != "none" else seat

    def is_opponent(self, a: int, b: int) -> bool:
        return a != b and (self.rules.teams == "none" or (a - b) % 2 == 1)

    def is_active(self, seat: int) -> bool:
        return bool(self._active >> seat & 1)

    @property
    def phase(self) -> str:
        """``over``, ``lead`` (table empty, attacker to lead) or ``bout``."""
        if self.result is not None:
            return "over"
        return "bout" if self.table else "lead"

    def hand(self, seat: int) -> list[Card]:
        return sorted_hand(self.hands[seat], self.trump)

    def hand_size(self, seat: int) -> int:
        return _popcount(self.hands[seat])

    def unbeaten(self) -> list[Card]:
        return [CARDS[a] for a, d in self.table if d < 0]

    def _next_active(self, seat: int) -> int:
        """The next seat clockwise still in (``_next_active_of``, looked up in the table)."""
        return self._next_tab[self._active][seat % self.n]

    def _team_next(self, team: int, seat: int) -> int:
        """Next active member of ``team`` after ``seat``, clockwise (``seat`` itself last)."""
        n, act = self.n, self._active
        s = seat
        for _ in range(n):
            s = (s + 1) % n
            if act >> s & 1 and s % 2 == team:
                return s
        return -1

    def eligible_attackers(self) -> list[int]:
        """Seats that may add cards in the current bout, in priority order."""
        return list(self._elig)

    def _eligible(self, attacker: int, defender: int) -> list[int]:
        mode = self.rules.throw_in
        if mode == "none":
            return []
        if mode == "attacker":
            return [attacker]
        out = [attacker]
        n, act = self.n, self._active
        if mode == "neighbours":
            left = self._next_active(defender)
            right = defender
            for _ in range(n):
                right = (right - 1) % n
                if act >> right & 1:
                    break
            for s in (left, right):
                if s != defender and s not in out and self.is_opponent(s, defender):
                    out.append(s)
            # keep the priority order: principal, then clockwise from the defender's left
            return [attacker, *sorted(out[1:], key=lambda s: (s - defender) % n)]
        s = defender
        for _ in range(n - 1):
            s = (s + 1) % n
            if s != attacker and act >> s & 1 and self.is_opponent(s, defender):
                out.append(s)
        return out

    def _refresh_bout(self) -> None:
        """Recompute what depends on the bout's roles (after roles change or a transfer).

        ``_blimit`` is the bout's own card limit (a transfer is capped by the next hand, not
        this one); ``_limit`` also applies the defender's hand: the attack cards this defender
        faces may not exceed what they held when their defence began (equivalently: unbeaten
        cards <= cards held now). ``apply_unchecked`` (a lead) and ``_start_roles`` compute
        these inline.
        """
        a, d = self.attacker, self.defender
        key = self._active << 6 | a << 3 | d
        got = self._elig_tab.get(key)
        if got is None:
            elig = self._eligible(a, d)
            nd = self._next_tab[self._active][d]
            got = self._elig_tab[key] = (elig, tuple(sorted({d, *elig})), nd)
        self._elig, self._actors, self._nd = got
        self._beaters = self._beat_tab[d]
        self._blimit = limit = self._first_max if self.bout_no <= 1 else self._max_attack
        held = self.beaten_before + self.def_start
        self._limit = limit if limit < held else held
        self._unb = sum(1 for p in self.table if p[1] < 0) if self.table else 0

    def _room(self) -> int:
        """How many more attack cards may go on the table right now."""
        return self._limit - len(self.table)

    def _waits_for_earlier(self, seat: int) -> bool:
        """With attacker priority, whether a seat before ``seat`` still holds up the bout.

        Such a seat has not said 'done' and holds a card it could add: any card, so that the
        wait says nothing about a hand, or, with ``auto_done``, a card of a rank on the table.
        Callers check first that priority is played and that the bout is not closed.
        """
        passed, hands = self.passed, self.hands
        auto_done, ranks = self._auto_done, self.table_ranks
        for s in self._elig:
            if s == seat:
                return False
            if not passed >> s & 1 and (hands[s] & ranks if auto_done else hands[s]):
                return True
        return False
