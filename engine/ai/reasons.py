"""Why a move: facts about the position and its evaluation, each one true of the cards.

A hint or a review that gives one fixed sentence per kind of move ends up saying "this card
beats it cheaply" of the hand's highest trump. Here the reasons are computed: each
:class:`Fact` is produced only after the condition it states was checked on the cards of
the seat's own observation (never on a hidden card), so the sentence the bot words it into
(bot/surfaces/reasons.py, in each language) is true of the position. A fact names the cards,
seat and figures its sentence needs and nothing else; tests/ai/test_reasons.py checks every
kind against the true game over random positions of every preset, independently of the code
here.

What is said, and when:

* what the move keeps or spends: trumps (:data:`KEEPS_TRUMPS` only if it spends none),
  high cards, the ranks that can still be thrown in; "the lowest card that beats" only of
  the lowest beater in the hand, "the lowest" lead only of the hand's lowest non-trump rank;
* what is known of the opponents' hands (cards they picked up or showed, public until
  played) and of the talon (empty; or too short to refill everyone after this bout);
* for a hint, what the runner-up would cost, only when the difference exceeds the
  estimate's noise (otherwise that the two are too close to tell apart);
* for a review, how the move made differs from the better one, only for the pairs of kinds
  where the comparison means something (a take is compared with a beat, a done with a throw
  in; an exchange never "spends" a trump, a take is never "a lead").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..actions import EX, PA, PI, SH, TK, TR, A, Action, D, T
from ..observation import Observation
from .review import Advice

__all__ = [
    "ALTERNATIVE",
    "CHEAPER_BEATER",
    "CHEAPEST_BEATER",
    "CLOSE_CALL",
    "COULD_BEAT",
    "COULD_THROW",
    "COULD_TRANSFER",
    "EXCHANGE_UP",
    "FACT_KINDS",
    "HIGH_RANK",
    "KEEPS_HIGH",
    "KEEPS_TRUMPS",
    "KEPT_BACK",
    "LOWER_LEAD",
    "LOWEST_LEAD",
    "LOWEST_THROW",
    "NO_BEATER",
    "OPPONENT_KNOWN",
    "PASS_KEEPS",
    "PICK_UP",
    "PLAYED_SPENDS_TRUMP",
    "SOLVED_WIN",
    "SPENDS_TRUMP",
    "TAKE_KEEPS",
    "TALON_EMPTY",
    "TALON_LAST_DRAW",
    "THROW_LATER",
    "Fact",
    "hand_cards",
    "hint_facts",
    "move_facts",
    "review_facts",
    "value",
]

#: The beater is the lowest card of the hand that beats the attack card: (attack, beater).
CHEAPEST_BEATER: Final = "cheapest_beater"
#: The lead is of the hand's lowest non-trump rank: the cards led.
LOWEST_LEAD: Final = "lowest_lead"
#: The card thrown in is the lowest the hand could throw in: (card,).
LOWEST_THROW: Final = "lowest_throw"
#: The move spends no trump; the trumps the hand keeps.
KEEPS_TRUMPS: Final = "keeps_trumps"
#: The trumps the move puts on the table.
SPENDS_TRUMP: Final = "spends_trump"
#: The move spends none of the hand's non-trump kings and aces; those cards.
KEEPS_HIGH: Final = "keeps_high"
#: A lead that keeps cards of the rank led to throw in later in the bout: those cards.
THROW_LATER: Final = "throw_later"
#: A take facing an attack card nothing in the hand beats: (attack,).
NO_BEATER: Final = "no_beater"
#: A take: the cards on the table that would be picked up.
PICK_UP: Final = "pick_up"
#: A trump exchange: (the trump given, the turned-up trump taken); nothing is spent.
EXCHANGE_UP: Final = "exchange_up"
#: Done while cards could still be thrown in: the cards that could have been.
PASS_KEEPS: Final = "pass_keeps"
#: An opponent (``seat``) is known to hold ``cards`` (picked up or shown, not played since).
OPPONENT_KNOWN: Final = "opponent_known"
#: The talon is empty; with ``seat`` >= 0, that opponent holds every card the seat has not
#: seen (``count`` of them).
TALON_EMPTY: Final = "talon_empty"
#: The talon's ``count`` cards run out at the next refill, however this bout ends.
TALON_LAST_DRAW: Final = "talon_last_draw"
#: Nothing is hidden and the exact search finds that the move wins against any defence.
SOLVED_WIN: Final = "solved_win"
#: Hint: the runner-up ``action`` leaves ``other`` against ``chance``, beyond ``noise``.
ALTERNATIVE: Final = "alternative"
#: Hint: the runner-up ``action`` is within ``noise`` of the move: too close to tell.
CLOSE_CALL: Final = "close_call"
#: Review: the move made spent the trumps ``cards``; the better one spends no trump.
PLAYED_SPENDS_TRUMP: Final = "played_spends_trump"
#: Review: the move made was a take; the better one beats ``cards[0]`` with ``cards[1]``.
COULD_BEAT: Final = "could_beat"
#: Review: the move made was a take; the better one transfers with ``cards``.
COULD_TRANSFER: Final = "could_transfer"
#: Review: the better move is a take, which keeps the ``cards`` the move made spent.
TAKE_KEEPS: Final = "take_keeps"
#: Review: the move made was done; the better one throws in ``cards[0]``.
COULD_THROW: Final = "could_throw"
#: Review: the better move is done, which keeps the ``cards`` the move made threw in.
KEPT_BACK: Final = "kept_back"
#: Review: both beat ``cards[0]``; the better move's ``cards[2]`` is lower than ``cards[1]``.
CHEAPER_BEATER: Final = "cheaper_beater"
#: Review: both lead plain cards; every card of the better lead (``alt``) is of a lower rank
#: than every card of the lead made (``cards``).
LOWER_LEAD: Final = "lower_lead"

FACT_KINDS: Final = (
    CHEAPEST_BEATER,
    LOWEST_LEAD,
    LOWEST_THROW,
    KEEPS_TRUMPS,
    SPENDS_TRUMP,
    KEEPS_HIGH,
    THROW_LATER,
    NO_BEATER,
    PICK_UP,
    EXCHANGE_UP,
    PASS_KEEPS,
    OPPONENT_KNOWN,
    TALON_EMPTY,
    TALON_LAST_DRAW,
    SOLVED_WIN,
    ALTERNATIVE,
    CLOSE_CALL,
    PLAYED_SPENDS_TRUMP,
    COULD_BEAT,
    COULD_TRANSFER,
    TAKE_KEEPS,
    COULD_THROW,
    KEPT_BACK,
    CHEAPER_BEATER,
    LOWER_LEAD,
)

#: Non-trump cards of this rank and above are "high cards" (kings and aces).
HIGH_RANK: Final = 13
#: The kinds of move whose cards are cards of the hand (or of the table) by value: the ones
#: reasons may talk about. Blind moves (reverse fool) name slots; a catalogue variant's own
#: moves are explained by nothing here.
_CARD_KINDS: Final = frozenset({A, T, D, TR, SH, TK, PI, PA, EX})
#: Moves that put cards of the hand on the table (an exchange swaps, a show keeps).
_SPENDING: Final = frozenset({A, T, D, TR, PI})
#: The most opponents whose known cards one answer names.
_KNOWN_SHOWN: Final = 2


@dataclass(frozen=True, slots=True)
class Fact:
    """One reason, structured: the bot words it (``kind`` picks the sentence)."""

    kind: str
    cards: tuple[int, ...] = ()
    #: A second set of cards (the other move's, :data:`LOWER_LEAD`).
    alt: tuple[int, ...] = ()
    seat: int = -1
    count: int = 0
    action: Action | None = None
    chance: float = 0.0
    other: float = 0.0
    noise: float = 0.0


def value(card: int, trump: int) -> int:
    """How high a card is for "lowest": its rank, a trump above every plain card."""
    return card % 13 + 2 + (13 if card // 13 & 3 == trump else 0)


def _is_trump(card: int, trump: int) -> bool:
    return card // 13 & 3 == trump


def hand_cards(action: Action) -> tuple[int, ...]:
    """The cards of the seat's hand that ``action`` puts on the table (a defence's beater,
    not the attack card; nothing for a take, done, an exchange or a show)."""
    if action.kind is D:
        return (int(action.cards[1]),)
    if action.kind in _SPENDING:
        return tuple(int(c) for c in action.cards)
    return ()


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _sorted(cards: tuple[int, ...] | list[int], trump: int) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: (value(c, trump), c)))


def move_facts(obs: Observation, action: Action) -> list[Fact]:
    """What is true of ``action`` itself in ``obs``: what it keeps, spends, beats with."""
    if action.kind not in _CARD_KINDS or obs.seat < 0:
        return []
    if obs.hand_mask.bit_count() != obs.hand_sizes[obs.seat]:
        return []  # a hand the seat cannot see (reverse fool): nothing to say of its cards
    trump = obs.trump
    hand = obs.hand_mask
    spent = hand_cards(action)
    if any(not hand >> c & 1 for c in spent):
        return []  # not a move of this hand (a stale action): nothing can be said of it
    out: list[Fact] = []
    kind = action.kind
    beaters = obs.beaters[obs.seat] if obs.beaters else ()
    if kind is D and beaters:
        attack, beater = int(action.cards[0]), int(action.cards[1])
        able = _bits(hand & beaters[attack])
        if able and value(beater, trump) == min(value(c, trump) for c in able):
            out.append(Fact(CHEAPEST_BEATER, (attack, beater)))
    if kind is A:
        plain = [c for c in _bits(hand) if not _is_trump(c, trump)]
        ranks = {c % 13 for c in spent}
        if (
            plain
            and not any(_is_trump(c, trump) for c in spent)
            and len(ranks) == 1
            and min(ranks) == min(c % 13 for c in plain)
        ):
            out.append(Fact(LOWEST_LEAD, spent))
        kept = [c for c in _bits(hand) if c % 13 in ranks and c not in spent]
        if kept and obs.rules.throw_in != "none":
            out.append(Fact(THROW_LATER, _sorted(kept, trump)))
    if kind in (T, PI):
        options = {int(a.cards[0]) for a in obs.legal_actions if a.kind is kind}
        card = spent[0]
        if len(options) > 1 and value(card, trump) == min(value(c, trump) for c in options):
            out.append(Fact(LOWEST_THROW, (card,)))
    trumps = [c for c in _bits(hand) if _is_trump(c, trump)]
    spent_trumps = [c for c in spent if _is_trump(c, trump)]
    if spent_trumps:
        out.append(Fact(SPENDS_TRUMP, _sorted(spent_trumps, trump)))
    elif kind is EX:
        given = int(action.cards[0])
        if obs.trump_card is not None and obs.trump_card_in_talon:
            out.append(Fact(EXCHANGE_UP, (given, int(obs.trump_card))))
    elif trumps and kind is not PA:
        out.append(Fact(KEEPS_TRUMPS, _sorted(trumps, trump)))
    high = [c for c in _bits(hand) if not _is_trump(c, trump) and c % 13 + 2 >= HIGH_RANK]
    if high and kind is not PA and not any(c in high for c in spent):
        out.append(Fact(KEEPS_HIGH, _sorted(high, trump)))
    if kind is TK:
        table = [int(a) for a, _ in obs.table] + [int(d) for _, d in obs.table if d is not None]
        if beaters:
            for a, d in obs.table:
                if d is None and not hand & beaters[int(a)]:
                    out.append(Fact(NO_BEATER, (int(a),)))
                    break
        if table and not obs.face_down:
            out.append(Fact(PICK_UP, _sorted(table, trump)))
    if kind is PA:
        could = {int(a.cards[0]) for a in obs.legal_actions if a.kind in (T, PI)}
        if could:
            out.append(Fact(PASS_KEEPS, _sorted(list(could), trump)))
    return out


def _opponents(obs: Observation) -> list[int]:
    """Other seats still playing that are not the seat's partner."""
    teams = obs.rules.teams != "none"
    return [
        s
        for s in range(obs.n)
        if s != obs.seat and obs.active[s] and not (teams and (s - obs.seat) % 2 == 0)
    ]


def _board_facts(obs: Observation, action: Action) -> list[Fact]:
    """What is known of the opponents' hands and the talon."""
    out: list[Fact] = []
    opponents = _opponents(obs)
    if obs.seat == obs.defender:
        first = [s for s in obs.eligible_attackers if s in opponents]
    else:
        first = [obs.defender] if obs.defender in opponents else []
    order = first + [s for s in opponents if s not in first]
    shown = 0
    for s in order:
        known = obs.known_masks[s] & ~obs.hand_mask if s < len(obs.known_masks) else 0
        if known and shown < _KNOWN_SHOWN:
            out.append(Fact(OPPONENT_KNOWN, _sorted(_bits(known), obs.trump), seat=s))
            shown += 1
    plain = obs.rules.variant == "none" and not obs.rules.severnyi
    if obs.talon_count == 0 and obs.result is None:
        everyone = [s for s in range(obs.n) if obs.active[s]]
        if plain and len(everyone) == 2 and len(opponents) == 1:
            opp = opponents[0]
            out.append(Fact(TALON_EMPTY, seat=opp, count=obs.hand_sizes[opp]))
        else:
            out.append(Fact(TALON_EMPTY))
    elif plain and obs.talon_count > 0:
        need = [
            max(0, obs.rules.hand_size - obs.hand_sizes[s]) for s in range(obs.n) if obs.active[s]
        ]
        # Whoever ends the bout as its defender may take and draw nothing; every other hand
        # only shrinks until the refill, so this is the least the refill will ask for.
        if need and obs.talon_count <= sum(need) - max(need):
            out.append(Fact(TALON_LAST_DRAW, count=obs.talon_count))
    return out


def hint_facts(obs: Observation, advice: Advice) -> list[Fact]:
    """The reasons for a hint: the move's own facts, the runner-up's cost (beyond noise
    only), the solved win, and what is known of the others' hands and the talon."""
    best = advice.best
    out = move_facts(obs, best)
    est = advice.estimate
    if est.exact and est.values.get(best) == 1.0:
        out.append(Fact(SOLVED_WIN))
    second = advice.second
    if second is not None and second in est.values:
        gap = est.values[best] - est.values[second]
        noise = est.noise(best, second)
        if gap > noise:
            kind = ALTERNATIVE
        elif not est.exact:
            kind = CLOSE_CALL
        else:
            kind = ""
        if kind:
            out.append(
                Fact(
                    kind,
                    action=second,
                    chance=est.values[best],
                    other=est.values[second],
                    noise=noise,
                )
            )
    return out + _board_facts(obs, best)


def review_facts(obs: Observation, played: Action, preferred: Action) -> list[Fact]:
    """How the better move differs from the one made, then the better move's own facts and
    the board. A comparison is made only between kinds where it is meaningful."""
    out: list[Fact] = []
    pk, bk = played.kind, preferred.kind
    trump = obs.trump
    if pk in _SPENDING and bk in _CARD_KINDS:
        mine = [c for c in hand_cards(played) if _is_trump(c, trump)]
        theirs = [c for c in hand_cards(preferred) if _is_trump(c, trump)]
        if mine and not theirs:
            out.append(Fact(PLAYED_SPENDS_TRUMP, _sorted(mine, trump)))
    if pk is TK and bk is D:
        out.append(Fact(COULD_BEAT, (int(preferred.cards[0]), int(preferred.cards[1]))))
    if pk is TK and bk in (TR, SH):
        out.append(Fact(COULD_TRANSFER, tuple(int(c) for c in preferred.cards)))
    if bk is TK and pk in (D, TR):
        out.append(Fact(TAKE_KEEPS, _sorted(hand_cards(played), trump)))
    if pk is PA and bk in (T, PI):
        out.append(Fact(COULD_THROW, (int(preferred.cards[0]),)))
    if bk is PA and pk in (T, PI):
        out.append(Fact(KEPT_BACK, _sorted(hand_cards(played), trump)))
    if pk is D and bk is D and played.cards[0] == preferred.cards[0]:
        mine_b, theirs_b = int(played.cards[1]), int(preferred.cards[1])
        if value(theirs_b, trump) < value(mine_b, trump):
            out.append(Fact(CHEAPER_BEATER, (int(played.cards[0]), mine_b, theirs_b)))
    if pk is A and bk is A:
        mine_r = min(c % 13 for c in played.cards)
        theirs_r = max(c % 13 for c in preferred.cards)
        plain = not any(_is_trump(c, trump) for c in (*played.cards, *preferred.cards))
        if plain and theirs_r < mine_r:
            out.append(
                Fact(
                    LOWER_LEAD,
                    tuple(int(c) for c in played.cards),
                    alt=tuple(int(c) for c in preferred.cards),
                )
            )
    own = [f for f in move_facts(obs, preferred) if f.kind not in (PICK_UP, PASS_KEEPS)]
    return out + own + _board_facts(obs, preferred)
