"""The rules of play: every legal action of a state, and how an action changes it.

Legal move generation and ``apply_unchecked`` are the hot paths of random self-play and search
(``bench/engine_speed.py``), so they read the shared tables of ``tables`` as module globals and
the copied rule options as slots of ``GameState``. A catalogue variant takes part through the
hooks of its ``Variant`` object (``engine/variants/base.py``), which the game holds in a slot
from construction: this module never imports the variants.
"""

from __future__ import annotations

from .actions import EX, PA, PI, SH, TK, TR, A, Action, D, Event, T
from .cards import CARDS, LOWEST_RANK, SUIT_MASK, Card, mask_of
from .result import Result
from .state import GameState
from .tables import (
    _BIT,
    _BITS0,
    _BL_BIT,
    _BL_LEAD,
    _BL_RANK,
    _LEAD_COMBOS,
    _PASS,
    _PASS_EV,
    _PILE1,
    _RANK_OF,
    _SHOW,
    _SINGLE,
    _TAKE,
    _TAKE_EV,
    _THROW1,
    _TRANSFER_COMBOS,
    _chain,
    _combos,
    _draw_order,
    _event,
    _popcount,
)


class GameMoves(GameState):
    """``GameState`` with its legal actions and their application (see the module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------ trumps

    def _set_trump(self, suit: int) -> None:
        self.trump = suit
        self._beat_tab = tab = self._variant.beat_tables(self, suit)
        self._beaters = tab[self.defender]
        self._low = self._lowest_trump_card()

    def _lowest_trump_card(self) -> int:
        return self.trump * 13 + LOWEST_RANK[self.rules.deck_size] - 2

    def seat_trump(self, seat: int) -> int:
        """``seat``'s own trump suit (differs from ``trump`` only in double-trump fool)."""
        return self._variant.seat_trumps(self)[seat]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it must wait)."""
        if self.result is not None or not 0 <= seat < self.n:
            return []
        out: list[Action] = []
        if self._exchange_on:
            ex = self._exchange_card(seat)
            if ex >= 0:
                out.append(_SINGLE[EX][seat][ex])
        if not self.table:
            if seat == self.attacker:
                self._add_leads(seat, out)
        elif seat in self._actors:
            self._add_bout_actions((seat,), out)
        if self._v_edits:
            self._variant.edit_actions(self, seat, out)
        return out

    def all_legal_actions(self) -> list[Action]:
        """``legal_actions`` of every seat, concatenated in seat order.

        Random playouts ask for this once per move, so it visits only the seats that can act
        (the leader; or the defender and the eligible attackers, in one pass) and finds the one
        possible exchange directly, instead of asking every seat in turn.
        """
        if self.result is not None:
            return []
        if self._v_edits:  # a variant that edits moves: every seat in turn (no fast path)
            return [a for s in range(self.n) for a in self.legal_actions(s)]
        out: list[Action] = []
        if not self.table:
            self._add_leads(self.attacker, out)
        else:
            self._add_bout_actions(self._actors, out)
        if self._exchange_on:
            self._insert_exchange(out)
        return out

    def _insert_exchange(self, out: list[Action]) -> None:
        """Add the exchange, if any, where ``legal_actions`` of its seat puts it: first.

        Only the holder of the lowest trump can exchange, so there is at most one.
        """
        low, hands = self._low, self.hands
        if self._ex_orig_only:
            # only the original holder may exchange: the one candidate, without a seat loop
            s = self.lowest_origin
            if s < 0 or not hands[s] >> low & 1:
                return
        else:
            for s in range(self.n):
                if hands[s] >> low & 1:
                    break
            else:
                return
        ex = self._exchange_card(s)
        if ex >= 0:
            i = 0
            while i < len(out) and out[i][0] < s:
                i += 1
            out.insert(i, _SINGLE[EX][s][ex])

    def lead_limit(self) -> int:
        """How many cards the next lead may hold: the bout's limit and the defender's hand."""
        limit = self.hands[self.defender].bit_count()
        return self._limit if self._limit < limit else limit

    def _add_leads(self, seat: int, out: list[Action], plain: bool = False) -> None:
        """The attacker's leads: every non-empty set of one rank, no more than the bout allows.
        A variant's ``add_leads`` replaces this; it may ask for these with ``plain=True``."""
        if self._v_leads and not plain:
            self._variant.add_leads(self, seat, out)
            return
        limit = self.hands[self.defender].bit_count()
        if self._limit < limit:
            limit = self._limit
        if limit <= 0:
            return
        hand = rest = self.hands[seat]
        singles = _BL_LEAD[seat]
        memo = _LEAD_COMBOS
        while rest:
            # (rest ^ (rest - 1)).bit_length() is the lowest card + 1 (no negative operand,
            # whose two's complement would cost Python's big ints two more allocations), and
            # the _BL_ tables are indexed by it
            i = (rest ^ (rest - 1)).bit_length()
            same = hand & _BL_RANK[i]
            rest ^= same
            if same == _BL_BIT[i]:
                out.append(singles[i])  # the only card of its rank: the usual case
                continue
            # inlined memo hit of _combos (a lead is the hottest move generation there is)
            k = same.bit_count()
            got = memo.get((same << 6 | (k if k < limit else limit)) << 3 | seat)
            out += got if got is not None else _combos(seat, A, same, limit)

    def _add_bout_actions(self, seats: tuple[int, ...], out: list[Action]) -> None:
        """The actions of ``seats`` (in seat order, each the defender or an eligible attacker)
        while cards are on the table. One pass serves ``all_legal_actions`` (every seat that
        may act) and ``legal_actions`` (one seat), so the rules are written once.

        The defender facing unbeaten cards may beat any of them, transfer (``_add_transfers``)
        or take. An eligible attacker who has not said 'done' may throw in (pile on, when the
        defender takes) a card of a rank on the table while the bout has room, unless a seat
        before them in priority order is not done yet (``_waits_for_earlier``), and may say
        'done' once every card is answered or, with priority, to wave on those after them.

        A move costs a few hundred bytecodes in random play, so this one counts them: the
        unbeaten count is ``_unb``, and plain Perevodnoy's transfer ranks are ``table_ranks``
        (it transfers only while nothing is beaten, so every card on the table is unbeaten).
        """
        table = self.table
        d = self.defender
        taking = self.taking
        unb = self._unb
        for seat in seats:
            if seat == d:
                if taking or not unb:
                    continue
                hand = self.hands[seat]
                beaters = self._beaters
                rows = self._beat_acts[seat]
                for a, b in table:
                    if b < 0:
                        m = hand & beaters[a]
                        if m:
                            row = rows[a]
                            t = m - 1
                            while m & t:  # more than one card left: m ^ t is the lowest
                                out.append(row[(m ^ t).bit_length()])
                                m &= t
                                t = m - 1
                            out.append(row[m.bit_length()])  # the last (or only) beater
                transfer = self._transfer
                if transfer == 1:
                    if unb == len(table):  # nothing beaten yet
                        mine = hand & self.table_ranks
                        if mine:
                            self._add_transfers(seat, mine, unb, out)
                elif transfer:
                    ranks = 0
                    for a, b in table:
                        if b < 0:
                            ranks |= _RANK_OF[a]
                    if hand & ranks:
                        self._add_transfers(seat, hand & ranks, unb, out)
                if self._v_defends:
                    self._variant.add_defences(self, seat, out)
                out.append(_TAKE[seat])
                continue
            # closed: the bout is full, or the defender takes and piling on is off; nothing
            # may be added, and no 'done' is owed
            if (
                self.passed >> seat & 1
                or self._limit <= len(table)
                or (taking and not self._pile_on)
            ):
                continue
            hand = self.hands[seat]
            throwable = hand & self.table_ranks
            if throwable and seat != self._elig[0]:  # a co-attacker (never the principal)
                if self._join_late and unb == len(table) and not taking:
                    throwable = 0  # co-attackers join once a card is beaten (pagat)
                elif self._priority and self._waits_for_earlier(seat):
                    throwable = 0  # a seat before this one in priority order is not done yet
            if throwable:
                acts = _PILE1[seat] if taking else _THROW1[seat]
                while throwable:
                    t = throwable - 1
                    out.append(acts[(throwable ^ t).bit_length()])
                    throwable &= t
            elif self._auto_done or not hand:
                continue  # nothing to add, and no 'done' owed
            # 'done' is due once every card is answered; with priority, a seat that others
            # wait on may also wave them on earlier (pagat's "Go ahead")
            if taking or not unb or (self._priority and seat != self._elig[-1]):
                out.append(_PASS[seat])

    def _add_transfers(self, seat: int, mine: int, n_unb: int, out: list[Action]) -> None:
        """The defender's transfers: ``mine`` are their cards of the unbeaten ranks.

        Plain Perevodnoy allows a transfer only before any card is beaten (so all unbeaten
        cards share the lead's rank); the Kiev variation also after beats, matching any of the
        fresh ranks (its example 1 transfers a jack and a king at once). The attack then goes
        to the next active seat, so it may hold no more cards than the bout allows and than
        that seat holds.
        """
        if self._transfer == 1 and n_unb != len(self.table):
            return
        nd = self._nd
        if nd == seat:
            return
        nd_hand = self.hands[nd].bit_count()
        most = self._blimit - len(self.table)  # room in the bout ...
        if nd_hand - n_unb < most:
            most = nd_hand - n_unb  # ... and in the next defender's hand
        if most > 0 and mine:
            k = mine.bit_count()
            got = _TRANSFER_COMBOS.get((mine << 6 | (k if k < most else most)) << 3 | seat)
            out += got if got is not None else _combos(seat, TR, mine, most)
        if self._pass_card and n_unb <= nd_hand:
            trumps = mine & SUIT_MASK[self.trump] & ~self.shown
            shows = _SHOW[seat]
            while trumps:
                low = trumps & -trumps
                out.append(shows[low.bit_length() - 1])
                trumps ^= low

    def _exchange_card(self, seat: int) -> int:
        """The lowest trump ``seat`` may exchange now, or -1."""
        r = self.rules
        if r.trump_exchange == "off" or self.result is not None:
            return -1
        low = self._low
        if not self.hands[seat] >> low & 1 or low == self.trump_card:
            return -1
        if r.exchange_original_holder_only and self.lowest_origin != seat:
            return -1
        if r.trump_exchange == "lowest_for_ace" and self.trump_card % 13 != 12:
            return -1
        if self.trump_index >= 0:
            return low
        holder = self.trump_holder
        if (
            self.exchange_grace
            and holder not in (-1, seat)
            and self.hands[holder] >> self.trump_card & 1
        ):
            return low
        return -1

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions(action.seat)

    # ------------------------------------------------------------------ applying

    def apply_unchecked(self, action: Action) -> list[Event]:
        """Apply an action already known to be in ``legal_actions`` (the search fast path).

        The branches are ordered by how often random play takes them, and events are built
        with every field through ``_event`` (see there). With ``narrate`` off (search worlds,
        random self-play) the engine builds no events of its own, so the list returned is empty
        or holds only what a variant adds: building them was about a fifth of the cost of
        applying an action, for events nobody reads. A move that leaves an unbeaten card on
        the table (a lead, a throw-in, a transfer, a beat that was not the last) cannot end
        the bout and returns at once. Cards leave a hand
        by ``h ^ m`` (a legal action plays only cards its seat holds), and a seat's knowledge,
        which never holds a card outside its hand, is cut down to the hand only when it holds
        anything: the masks are multi-digit ints, and every operation on one allocates (one
        with a negative operand, such as ``h & ~m``, twice more).
        """
        seat, kind, cards = action
        self.version += 1
        if kind is PA:
            self.passed |= 1 << seat
            ev = [_PASS_EV[seat]]
        elif kind is D:
            a, d = cards
            hands = self.hands
            hands[seat] = h = hands[seat] ^ _BIT[d]
            if self.known[seat]:
                self.known[seat] &= h
            for p in self.table:
                if p[0] == a:
                    p[1] = d
                    break
            self.table_ranks |= _RANK_OF[d]
            self.passed = 0
            self._unb = unb = self._unb - 1
            ev = (
                [_event(Event, ("defend", seat, cards, self.attacker, 0, ()))]
                if self.narrate
                else []
            )
            if unb:
                return ev
        elif kind is A:
            table = self.table
            if len(cards) == 1:
                c = cards[0]
                m = _BIT[c]
                ranks = _RANK_OF[c]
                table.append([c, -1])
            else:
                m = ranks = 0
                for c in cards:
                    m |= _BIT[c]
                    ranks |= _RANK_OF[c]  # one rank, except in three fool's mixed leads
                    table.append([c, -1])
            hands = self.hands
            h = hands[seat]
            hands[seat] = h = h ^ m
            if self.known[seat]:
                self.known[seat] &= h
            if self.exchange_grace:
                self.exchange_grace = False
                self._exchange_on = False  # the grace period ends with the next bout
            self.first_attacker = seat
            self.def_start = def_start = hands[self.defender].bit_count()
            self.beaten_before = 0
            self._unb = len(cards)
            limit = self._blimit  # _limit as in _refresh_bout, beaten_before being 0
            self._limit = limit if limit < def_start else def_start
            self.table_ranks = ranks
            if self.narrate:
                return [_event(Event, ("attack", seat, cards, self.defender, 0, ()))]
            return []
        elif kind is TK:
            self.taking = True
            self.passed = 0
            ev = [_TAKE_EV[seat]]
        elif kind is T or kind is PI:
            c = cards[0]
            hands = self.hands
            hands[seat] = h = hands[seat] ^ _BIT[c]
            if self.known[seat]:
                self.known[seat] &= h
            self.table.append([c, -1])
            self.table_ranks |= _RANK_OF[c]
            self.passed = 0
            self._unb += 1
            if self.narrate:
                verb = "throw" if kind is T else "pile"
                ev = [_event(Event, (verb, seat, cards, self.defender, 0, ()))]
            else:
                ev = []
            if kind is T:
                return ev  # not taking: the card thrown in is unbeaten
        elif kind is TR or kind is SH:
            nd = self._nd  # only the defender transfers: to the next active seat
            if kind is TR:
                m = mask_of(cards)
                h = self.hands[seat]
                self.hands[seat] = h = h ^ m
                if self.known[seat]:
                    self.known[seat] &= h
                for c in cards:
                    self.table.append([c, -1])
            else:
                self.shown |= 1 << cards[0]
                self.known[seat] |= 1 << cards[0]
            self.attacker, self.defender = seat, nd
            self.def_start = _popcount(self.hands[nd])
            self.beaten_before = sum(1 for p in self.table if p[1] >= 0)
            self.passed = 0
            self._refresh_bout()
            if self.narrate:
                verb = "transfer" if kind is TR else "show"
                return [_event(Event, (verb, seat, cards, nd, 0, ()))]
            return []
        elif kind is EX:
            # an exchange can take away a seat's last throwable card, so the bout may end
            ev = []
            self._do_exchange(seat, cards[0], ev)
        else:  # a catalogue variant's own kind of move (Armenian 'top', poker 'swap')
            ev = self._variant.apply_own(self, action)
        table = self.table
        if table and (self.taking or not self._unb):
            # Only now can the bout be over: ``_bout_over`` inlined (it runs on many moves)
            taking = self.taking
            elig = self._elig
            if elig and self._limit > len(table) and (self._pile_on or not taking):
                passed, hands = self.passed, self.hands
                if self._auto_done:
                    ranks = self.table_ranks
                    for s in elig:
                        if not passed >> s & 1 and hands[s] & ranks:
                            return ev
                else:
                    for s in elig:
                        if not passed >> s & 1 and hands[s]:
                            return ev
            self._end_bout(ev)
        return ev

    def _bout_over(self) -> bool:
        """Whether the bout on the table is complete, once every card is beaten or the
        defender takes: nobody may add a card (the bout is full, or the defender takes and
        piling on is off), or every eligible attacker is done (said so, or holds nothing;
        with auto_done, holds nothing of those ranks). ``apply_unchecked`` has a copy inline."""
        elig = self._elig
        if elig and self._limit > len(self.table) and (self._pile_on or not self.taking):
            passed, hands = self.passed, self.hands
            if self._auto_done:
                ranks = self.table_ranks
                for s in elig:
                    if not passed >> s & 1 and hands[s] & ranks:
                        return False
            else:
                for s in elig:
                    if not passed >> s & 1 and hands[s]:
                        return False
        return True

    def settle_complete_bout(self) -> list[Event]:
        """End a bout that is already complete (a loaded position can hold one: every card
        answered and nobody left to add any); the engine itself ends bouts as they complete."""
        ev: list[Event] = []
        complete = self.table and (self.taking or not self._unb) and self._bout_over()
        if self.result is None and complete:
            self._end_bout(ev)
        return ev

    def _do_exchange(self, seat: int, low: int, ev: list[Event]) -> None:
        up = self.trump_card
        if self.trump_index >= 0:
            self.talon[self.trump_index] = low
            self.hands[seat] = (self.hands[seat] & ~(1 << low)) | (1 << up)
            self.known[seat] = (self.known[seat] & ~(1 << low)) | (1 << up)
        else:
            h = self.trump_holder
            self.hands[h] = (self.hands[h] & ~(1 << up)) | (1 << low)
            self.known[h] = (self.known[h] & ~(1 << up)) | (1 << low)
            self.hands[seat] = (self.hands[seat] & ~(1 << low)) | (1 << up)
            self.known[seat] = (self.known[seat] & ~(1 << low)) | (1 << up)
            self.trump_holder = h
        self.trump_card = low
        self.lowest_origin = -1  # the turned-up card can never be exchanged again
        self._exchange_on = False
        if self.narrate:
            ev.append(Event("exchange", seat, (CARDS[low], CARDS[up])))

    def _end_bout(self, ev: list[Event]) -> None:
        """The table goes to the defender (taken) or the discard, then refill and new roles.

        The table's cards are gathered with C-level helpers (``chain``, ``sum`` of distinct
        bits, which is their union; ``_BITS0`` maps an empty defence slot, -1, to no bit):
        this runs at the end of every bout.
        """
        a, d = self.attacker, self.defender
        taken = self.taking
        if taken:
            m = sum(map(_BITS0.__getitem__, _chain(self.table)))
            self.hands[d] |= m
            self.known[d] |= m
            if m >> self._low & 1 and not self._ex_regained:
                self.lowest_origin = -1  # picked up: nobody may exchange it any more (pagat)
            if self.narrate:
                cards = sorted(c for c in _chain(self.table) if c >= 0)
                picked = tuple(map(CARDS.__getitem__, cards))  # ascending, like bits(m)
                ev.append(_event(Event, ("picked_up", d, picked, -1, len(cards), ())))
        else:
            m = sum(map(_BIT.__getitem__, _chain(self.table)))  # every attack card is beaten
            self.discard |= m
            if m >> self._low & 1:
                self._exchange_on = False  # the lowest trump is discarded: no exchange any more
            if self.narrate:
                ev.append(_event(Event, ("beaten", d, (), -1, m.bit_count(), ())))
        if self._v_bout_end:
            last = -1 if taken else self.table[-1][1]
            self._variant.on_bout_end(self, taken, m, last, ev)
            if self.result is not None:  # the variant ended the game at once (e.g. big fool)
                self.table = []
                self.table_ranks = self._unb = self.passed = self.shown = 0
                self.taking = False
                return
        self._after_bout(a, d, taken, ev)

    def _after_bout(self, a: int, d: int, taken: bool, ev: list[Event]) -> None:
        """The table's cards are gone: clear it, refill, drop players out, settle or begin the
        next bout. ``taken``: the defender ``d`` picked up (so ``a``'s side leads again); a
        variant that disposes of the table itself (take on trust's wrongful challenge) calls
        this directly."""
        self.table = []
        self.table_ranks = 0
        if self.talon:
            self._draw(ev)
            if self._v_bout_end:
                self._variant.after_refill(self, ev)
        if not self.talon:
            self._mark_out(ev)
            if self._check_over(ev):
                # no next bout: clear what _start_roles would have
                self._unb = self.passed = self.shown = 0
                self.taking = False
                return
        if self._plain_roles:
            # _next_roles' usual case inlined (every bout passes here): individuals, and the
            # turn passes on after a pick-up
            act = self._active
            nxt = self._next_tab[act]
            na = d if not taken and act >> d & 1 else nxt[d]
            self._start_roles(na, nxt[na])
            return
        self._next_roles(a, d, taken)

    def _draw(self, ev: list[Event]) -> None:
        talon = self.talon
        if not talon:
            return
        r = self.rules
        hands = self.hands
        hs = r.hand_size
        act = self._active
        severnyi = r.severnyi
        v_draws = self._v_draws
        tell = self.narrate
        first = self.first_attacker
        if first >= 0 and first < self.n:
            order = self._draw_tab[first][self.defender]
        else:  # only a hand-written position gets here
            by_first = r.draw_order == "attackers_first"
            order = _draw_order(self.n, first if by_first else -1, self.defender)
        for s in order:
            if not act >> s & 1:
                continue
            need = hs - hands[s].bit_count() if not v_draws else self._variant.draw_need(self, s)
            if need <= 0:
                continue
            start = len(talon) - need
            if start < 0:
                start = 0
            drawn = talon[start:]
            del talon[start:]
            m = sum(map(_BIT.__getitem__, drawn))
            hands[s] |= m
            if self.lowest_origin < 0 and m >> self._low & 1:
                self.lowest_origin = s
            public: tuple[Card, ...] = ()
            if self.trump_index >= start:  # the turned-up trump is drawn face up
                up = self.trump_card
                self.trump_index = -1
                self.trump_holder = s
                if not self._trump_hidden:
                    self.known[s] |= 1 << up
                    public = (CARDS[up],)
            if severnyi and start == 0:
                # Durak Severnyi: the hidden last card is shown and its suit becomes trumps
                drawn.reverse()  # the top of the talon (its end) is drawn first
                got = tuple(map(CARDS.__getitem__, drawn))
                last = got[-1]
                self.known[s] |= 1 << last
                public = (*public, last)
                if tell:
                    ev.append(_event(Event, ("draw", s, got, -1, len(got), public)))
                self._set_trump(last.suit)
                self.trump_card = int(last)
                if tell:
                    ev.append(_event(Event, ("trump_change", s, (last,), -1, 0, ())))
            elif tell:
                drawn.reverse()
                got = tuple(map(CARDS.__getitem__, drawn))
                ev.append(_event(Event, ("draw", s, got, -1, len(got), public)))
            if not talon:
                break
        if not talon:
            self.exchange_grace = r.exchange_timing == "until_next_bout" and not severnyi
            self._exchange_on = self._exchange_on and self.exchange_grace

    def _mark_out(self, ev: list[Event]) -> None:
        """Seats left without cards once the talon is empty drop out, in play order."""
        if self.talon:
            return
        n, hands, first = self.n, self.hands, self.first_attacker
        if hands.count(0) <= len(self.out):
            return  # every empty hand is a seat already out (their hands stay empty)
        for i in range(n):
            s = (first + i) % n
            if self._active >> s & 1 and not hands[s]:
                self._active &= ~(1 << s)
                self.out.append(s)
                if self.narrate:
                    ev.append(_event(Event, ("out", s, (), -1, len(self.out), ())))

    def _check_over(self, ev: list[Event]) -> bool:
        act = self._active
        if act & (act - 1) and self.rules.teams == "none":
            return False  # two or more players still hold cards (the common case, first)
        order = tuple(self.out)
        if self.rules.teams == "none":
            left = [s for s in range(self.n) if act >> s & 1]
            if len(left) > 1:
                return False
            if left:
                self.result = Result("fool", left[0], (left[0],), None, order)
            elif self.rules.all_out == "last_defender_loses":
                d = self.defender  # emptied their hand last: the fool, not a finisher
                order = tuple(s for s in order if s != d)
                self.result = Result("fool", d, (d,), None, order)
            else:
                self.result = Result("draw", None, (), None, order)
        else:
            alive = [any(act >> s & 1 for s in range(t, self.n, 2)) for t in (0, 1)]
            if alive[0] and alive[1]:
                return False
            if not alive[0] and not alive[1] and self.rules.all_out == "last_defender_loses":
                lt = self.defender % 2
                losers = tuple(range(lt, self.n, 2))
                self.result = Result("team", self.defender, losers, lt, order)
            elif not alive[0] and not alive[1]:
                self.result = Result("draw", None, (), None, order)
            else:
                lt = 0 if alive[0] else 1
                losers = tuple(s for s in range(lt, self.n, 2))
                holding = [s for s in losers if act >> s & 1]
                fool = holding[0] if len(holding) == 1 else None
                self.result = Result("team", fool, losers, lt, order)
        if self._v_settles:
            self.result = self._variant.settle(self) or self.result
        ev.append(Event("game_over", self.result.fool if self.result.fool is not None else -1))
        return True

    def _next_roles(self, a: int, d: int, taken: bool) -> None:
        r = self.rules
        act = self._active
        if taken and r.after_pickup == "same_attacker":
            # the defender stays under siege (overview; Simple fool)
            if act >> a & 1:
                na = a
            elif r.teams == "none":
                na = self._next_tab[act][d]
            else:
                na = self._team_next(a % 2, a)
            self._start_roles(na, d)
            return
        if r.teams == "none":
            # after a pick-up the defender loses the turn; after a defence they lead
            nxt = self._next_tab[act]  # the _next_active answers for this set of players
            na = d if not taken and act >> d & 1 else nxt[d]
            self._start_roles(na, nxt[na])
            return
        tx, ty = a % 2, d % 2
        if taken:
            na = self._team_next(tx, a)
            nd = self._team_next(ty, d)
        else:
            na = d if act >> d & 1 else self._team_next(ty, d)
            nd = self._team_next(tx, a)
        self._start_roles(na, nd)

    def _start_roles(self, attacker: int, defender: int) -> None:
        """Begin a bout (the table is empty): roles, then ``_refresh_bout`` inlined (every bout
        passes here), falling back to it the first time a role pair's attackers are needed."""
        self.bout_no = bout_no = self.bout_no + 1
        self.attacker = self.first_attacker = attacker
        self.defender = defender
        self.taking = False
        self.passed = self.shown = self.beaten_before = self._unb = 0
        self.def_start = def_start = self.hands[defender].bit_count()
        got = self._elig_tab.get(self._active << 6 | attacker << 3 | defender)
        if got is None:
            self._refresh_bout()
            return
        self._elig, self._actors, self._nd = got
        self._beaters = self._beat_tab[defender]
        self._blimit = limit = self._first_max if bout_no <= 1 else self._max_attack
        self._limit = limit if limit < def_start else def_start
