"""The variation points of the engine: what a catalogue variant may change, and the defaults.

fool-variants-catalogue.txt says of most of its games that they differ "from the Simple,
Thrown on or Transfer Fool only by" one rule. So a variant is not a new engine but a small
object that overrides one or two of the hooks below; the base game (no throw-ins, throw-ins,
transfers) stays a matter of the ordinary ``RuleSet`` options and combines with any variant.

The hooks, and where ``Game`` calls them (each is named after the question it answers):

* **who may beat what** — :meth:`Variant.trump_suit` (which suit is trumps, if any) and
  :meth:`Variant.beat_tables` (per seat, per card: the mask of cards that beat it). ``Game``
  looks the defender's table up once per move generation, the same cost as before.
* **how cards are dealt** — :meth:`Variant.deal` (hands, talon, the turned-up card) and
  :meth:`Variant.opening_attacker` (who leads the first bout).
* **how cards are drawn** — :meth:`Variant.draw_need` (how many cards a seat draws after a
  bout; set ``draws = True``) and :meth:`Variant.on_bout_end` (anything that happens to the
  table's cards, the talon or the trump when a bout ends; set ``bout_end = True``).
* **what may be led** — :meth:`Variant.add_leads` (the attacker's opening moves; set
  ``leads = True``).
* **moves of its own, and moves taken away** — :meth:`Variant.edit_actions` (set ``edits``):
  the last word on any seat's legal actions, with :meth:`Variant.explain_edited` for the
  refusals it causes; the kinds of move it adds are applied by :meth:`Variant.apply_own`.
* **who sees which card** — ``trump_card_hidden`` and :meth:`Variant.observe` (edit a seat's
  :class:`~engine.observation.Observation` fields before it is built; set ``observes``).
* **how a deal is scored** — :meth:`Variant.settle` (the result once the game is over; set
  ``settles = True``), with :meth:`Variant.on_bout_end` to count what it needs in
  ``Game.vstate``.

Speed: a hook whose flag is off is never called; ``Game`` copies each flag into a slot once
per game (``Game._blank``), so the pagat presets pay one slot read per bout, or per lead,
for the whole mechanism (``bench/engine_speed.py`` measures it).

Typing: a hook's ``g`` is a :class:`~engine.moves.GameMoves` (the state with its legal
actions and their application), the class that calls most hooks; variants import it only for
type checking, so at run time the imports run one way: ``game`` imports the variants, and
``moves`` and ``state`` import neither.

State: a variant that must remember something across bouts (points, a counter) keeps it in
``Game.vstate``, a dict of JSON values that are never mutated in place (replace them), so that
``Game.copy`` can copy it shallowly and JSON positions round-trip it (``variant_state``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..cards import BEATERS, CARDS, Card, bits

if TYPE_CHECKING:
    from ..actions import Action, Event
    from ..moves import GameMoves
    from ..result import Result
    from ..rules import RuleSet

_BIT: tuple[int, ...] = tuple(1 << c for c in range(len(CARDS)))


class Deal(NamedTuple):
    """What the dealer leaves on the table: hands, talon and the card that shows trumps.

    ``talon[0]`` is the bottom card, ``talon[-1]`` the top. ``trump_index`` is the index in the
    talon of the face-up trump card (-1: none in the talon); ``trump_card`` is that card, or
    the dealer's turned-up last card when there is no talon (then ``trump_holder`` is the
    dealer), or -1 when no card shows trumps.
    """

    hands: list[int]
    talon: list[int]
    trump_index: int
    trump_card: int
    trump_holder: int
    #: The variant's state at the start of the deal (``Game.vstate``), e.g. cards set aside.
    vstate: dict[str, Any] | None = None


#: ``Game.vstate`` keys every part of the engine understands (card conservation, JSON
#: positions, observations and the computer players' sampled worlds), as lists of card
#: notations: cards put out of play face down (Chukchi fool's talon; a face-up card there,
#: like Chukchi's turned-up trump, is seen by all), and each seat's face-down closed cards
#: (Magadan fool), which count as that seat's cards but are not in its hand.
OUT_OF_PLAY = "out_of_play"
CLOSED = "closed"


def card_list(cards: list[int]) -> list[str]:
    """Cards as the notation lists ``vstate`` keeps (JSON values)."""
    return [str(CARDS[c]) for c in cards]


def parse_list(texts: list[str]) -> list[int]:
    return [int(Card.parse(t)) for t in texts]


def aside_masks(vstate: dict[str, Any], n: int) -> tuple[int, list[int]]:
    """(mask of the out-of-play cards, mask of each seat's closed cards) of a ``vstate``."""
    out = 0
    for c in parse_list(vstate.get(OUT_OF_PLAY, [])):
        out |= 1 << c
    closed = [0] * n
    for s, cards in enumerate(vstate.get(CLOSED, [])[:n]):
        for c in parse_list(cards):
            closed[s] |= 1 << c
    return out, closed


def standard_deal(rules: RuleSet, deck: list[int], dealer: int) -> Deal:
    """Pagat's deal: six cards each, one at a time clockwise from the dealer's left; the next
    card is turned up under the talon (Severnyi: on top of a hidden card); with no talon the
    dealer's last card is turned up and stays in the dealer's hand."""
    n = rules.players
    hands = [0] * n
    i = rules.hand_size * n
    for j in range(n):
        # the j-th player to receive gets deck[j], deck[j + n], ...
        hands[(dealer + 1 + j) % n] = sum(map(_BIT.__getitem__, deck[j:i:n]))
    rest = deck[i:]
    if rest:
        index = 1 if rules.severnyi else 0
        return Deal(hands, rest, index, rest[index], -1)
    return Deal(hands, [], -1, deck[i - 1], dealer)


def whole_deck_deal(rules: RuleSet, deck: list[int], dealer: int) -> Deal:
    """The whole pack dealt round, one card at a time from the dealer's left (some players get
    one card more when it does not divide evenly); the dealer's last card is turned up to show
    trumps and stays in the dealer's hand, as pagat deals six players 36 cards."""
    n = rules.players
    hands = [0] * n
    for j in range(n):
        hands[(dealer + 1 + j) % n] = sum(map(_BIT.__getitem__, deck[j::n]))
    # the dealer receives every n-th card, the last of a round: their last card is shown
    return Deal(hands, [], -1, deck[n - 1 :: n][-1], dealer)


class Variant:
    """A catalogue variant: one rule that differs from the base game, with its rule text.

    Subclasses set the class attributes and override only the hooks they need (turning on the
    matching flag). A variant object holds no game state: one instance serves every game.
    """

    #: The value of ``RuleSet.variant`` (lower case, hyphens).
    name: ClassVar[str] = "none"
    #: The catalogue's own name for the game, e.g. "Trumpless fool".
    title: ClassVar[str] = "No variant"
    #: The catalogue sentence that defines the variant, quoted exactly.
    rule_text: ClassVar[str] = ""
    #: How this implementation reads the text where it is silent or ambiguous.
    reading: ClassVar[str] = ""
    #: Options this variant cannot be played without: ``{option: (value, why)}``. A rule set
    #: with another value is refused with the reason; ``RuleSet.with_variant`` sets them.
    requires: ClassVar[dict[str, tuple[object, str]]] = {}
    #: Packs of ``deck_size`` cards shuffled together (2 in big fool: card ids 52-103 are the
    #: second pack's twins, see ``cards``).
    packs: ClassVar[int] = 1

    # flags: which optional hooks Game must call (see the module docstring)
    leads: ClassVar[bool] = False
    defends: ClassVar[bool] = False
    draws: ClassVar[bool] = False
    bout_end: ClassVar[bool] = False
    observes: ClassVar[bool] = False
    settles: ClassVar[bool] = False
    #: ``edit_actions`` may add and remove any seat's moves (take on trust: nothing but the
    #: verdict while a face-down card awaits it); off for every other variant, so the move
    #: generators' fast paths never pay for it.
    edits: ClassVar[bool] = False
    #: The face-up trump card is not shown to anyone (only its suit is known).
    trump_card_hidden: ClassVar[bool] = False
    #: With ``leads``: the (code, sentence) of a refused lead (``explain_illegal``).
    lead_error: ClassVar[tuple[str, str]] = ("bad_lead", "that lead is not allowed here")

    # ---------------------------------------------------------------- rules

    def problems(self, rules: RuleSet) -> list[str]:
        """Why this variant cannot be played with these other options (empty: it can).
        Overrides add their own reasons to these."""
        return [
            f"{self.title}: {why} (set {option}={value})"
            for option, (value, why) in self.requires.items()
            if getattr(rules, option) != value
        ]

    # ---------------------------------------------------------------- dealing

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        """Deal a shuffled pack (``deck`` as card indices, the first card dealt first)."""
        return standard_deal(rules, deck, dealer)

    def arrange_talon(self, cards: list[int]) -> list[int]:
        """The face-down talon cards in the order they lie (bottom first), given them in a
        random order: a variant that orders its talon says so here, so that the deal and the
        computer players' sampled worlds lay it alike."""
        return cards

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        """Who leads the first bout of the deal, or None for the ``first_lead`` /
        ``next_deal_lead`` options."""
        return None

    # ---------------------------------------------------------------- beating

    def trump_suit(self, turned_up: int) -> int:
        """The trump suit, given the card that was turned up (-1 when none was): 0-3, or
        ``cards.NO_TRUMP``."""
        return turned_up % 52 // 13 if turned_up >= 0 else turned_up // 13

    def beat_tables(self, g: GameMoves, trump: int) -> tuple[tuple[int, ...], ...]:
        """Per seat: ``table[card]`` is the mask of the cards that beat ``card`` when that seat
        defends. Called when the deal starts and whenever trumps change. Return the same tuple
        object for every seat when they all beat alike (the usual case)."""
        return (BEATERS[trump],) * g.n

    def seat_trumps(self, g: GameMoves) -> tuple[int, ...]:
        """Each seat's own trump suit, shown to the players (the same for all, usually)."""
        return (g.trump,) * g.n

    # ---------------------------------------------------------------- leading and drawing

    def add_leads(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        """Append the attacker's legal leads to ``out`` (only with ``leads = True``)."""
        raise NotImplementedError

    def add_defences(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        """Append the defender's extra moves while facing unbeaten cards (only with
        ``defends = True``), after the beats and transfers, before 'take'."""
        raise NotImplementedError

    def apply_own(self, g: GameMoves, action: Action) -> list[Event]:
        """Apply one of the variant's own kinds of move (``ActionKind.TOP``, ``SWAP``), already
        known to be legal; ``Game.apply_unchecked`` calls this after its pagat branches and
        then ends the bout if the move finished it."""
        raise NotImplementedError

    def explain_own(self, g: GameMoves, action: Action) -> tuple[str, str]:
        """Why one of the variants' own kinds of move is illegal now (code, sentence)."""
        return "not_played", f"'{action.kind.value}' is not played in this game"

    def edit_actions(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        """Edit ``seat``'s legal actions in place, after the engine and the other hooks built
        them: add the variant's own moves or remove moves it forbids now (only with
        ``edits``; ``all_legal_actions`` then asks every seat in turn)."""
        raise NotImplementedError

    def explain_edited(self, g: GameMoves, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is illegal when ``edit_actions`` is the reason (None: ask the
        engine's own explanations). Only with ``edits``."""
        return None

    def face_down(self, g: GameMoves) -> int:
        """Mask of the table's defences lying face down: a JSON position does not check them
        as beating, and their ranks open no throw-ins (only with ``edits``)."""
        return 0

    def after_load(self, g: GameMoves) -> None:
        """Restore what the engine derives from the table when a JSON position is loaded and
        the variant counts differently (only with ``edits``)."""

    def draw_need(self, g: GameMoves, seat: int) -> int:
        """How many cards ``seat`` draws in the refill after a bout (only with ``draws``)."""
        raise NotImplementedError

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        """A bout has just ended, before the refill. ``cards`` is the mask of the table's cards
        (already in the defender's hand when ``taken``, else in the discard); ``last`` is the
        card that answered the last attack card (-1 when taken). Only with ``bout_end``."""
        raise NotImplementedError

    def after_refill(self, g: GameMoves, ev: list[Event]) -> None:
        """The refill after a bout has just drawn from the talon (called only while there was
        a talon to draw from, so the moment it runs out is seen). Only with ``bout_end``."""

    # ---------------------------------------------------------------- seeing and scoring

    def public_state(self, g: GameMoves) -> dict[str, Any]:
        """The part of ``g.vstate`` every seat may know (a counter, say), shown in
        observations as ``variant_state`` so that the computer players' sampled worlds carry
        it; never a card set aside or a seed."""
        return {}

    def observe(self, g: GameMoves, seat: int, fields: dict[str, object]) -> None:
        """Edit the fields of ``seat``'s observation (-1: the public) before it is built."""

    def settle(self, g: GameMoves) -> Result | None:
        """The result, once the engine has found the game over (None: keep the engine's)."""
        return None


#: The base game itself.
NONE = Variant()


def no_talon(variant: Variant, rules: RuleSet, consequence: str) -> list[str]:
    """The refusal of a variant whose rule is about the talon, for a deal that leaves none
    (six players with 36 cards): played anyway it would silently be the base game."""
    if rules.players * rules.hand_size == rules.cards:
        return [
            f"{variant.title}: {rules.players} hands of {rules.hand_size} leave no talon of a"
            f" {rules.cards}-card pack, so {consequence}"
        ]
    return []


def plain_leads(g: GameMoves, seat: int, out: list[Action]) -> None:
    """The base game's leads (every non-empty set of one rank the bout allows), for a variant
    whose ``add_leads`` adds to them rather than replacing them: the engine's own generator
    runs with the variant's hook switched off for the call, so the fast path is untouched."""
    g._v_leads = False
    try:
        g._add_leads(seat, out)
    finally:
        g._v_leads = True


def lead_limit(g: GameMoves) -> int:
    """How many cards the next lead may hold (0: none), as the engine computes it."""
    limit = g.hands[g.defender].bit_count()
    return g._limit if g._limit < limit else limit


def lowest_card_of(g: GameMoves, suit_of_seat: tuple[int, ...]) -> tuple[int, int] | None:
    """(rank, seat) of the lowest card any seat holds in that seat's own trump suit."""
    best: tuple[int, int] | None = None
    for s in range(g.n):
        suit = suit_of_seat[s]
        if not 0 <= suit <= 3:
            continue
        for c in bits(g.hands[s] & (0x1FFF << (13 * suit))):
            key = (c % 13 + 2, s)
            if best is None or key < best:
                best = key
            break  # bits() ascends: the first is this seat's lowest
    return best
