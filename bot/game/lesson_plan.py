"""The lessons of ``/durak learn`` and what a learner meets in them: pure, no I/O.

A lesson is an ordinary two-seat game (the learner against the cheapest computer) with a
fixed first position: a seeded deal chosen so that the first hands reach every decision the
lesson teaches, or a prepared position. Which tips the learner's hand shows is a function of
the game and of :class:`LessonState`, which the service keeps beside the game in the stored
snapshot, so a lesson survives a restart with the tips where they were.

A tip is *met* the first time its decision can be taken. It stays on the hand while that
decision stays open (the attack tip after a trump exchange is still your lead), and is
*done* once the learner took the decision or the moment passed; a tip is never shown again
after that. Tips about the situation rather than a move (the trump, the last card of the
talon, a lesson's opening word) last until the learner's next move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from engine import Action, ActionKind, Game, RuleSet
from engine.cards import bits, deck_mask

__all__ = [
    "CONCEPTS",
    "LESSONS",
    "LESSON_LEVEL",
    "LessonPlan",
    "LessonState",
    "advance",
    "begin",
    "first_game",
    "next_lesson",
]

#: The computers of a lesson: the cheapest level (a learner wants a game they can win, and
#: the lesson's test wants little CPU).
LESSON_LEVEL = "easy"

#: Every tip, in the order a hand lists them; the move kinds that *use* an action tip (a
#: situation tip is used by any move of the learner's).
CONCEPTS: tuple[str, ...] = (
    "intro_modes",
    "intro_endgame",
    "trump",
    "attack",
    "several",
    "exchange",
    "beat",
    "transfer",
    "no_transfer",
    "take",
    "throw",
    "bito",
    "pile",
    "last_card",
)
_USED_BY: dict[str, frozenset[ActionKind]] = {
    "attack": frozenset({ActionKind.ATTACK}),
    "several": frozenset({ActionKind.ATTACK}),
    "exchange": frozenset({ActionKind.EXCHANGE}),
    "beat": frozenset({ActionKind.DEFEND}),
    "transfer": frozenset({ActionKind.TRANSFER}),
    "take": frozenset({ActionKind.TAKE}),
    "throw": frozenset({ActionKind.THROW}),
    "bito": frozenset({ActionKind.PASS}),
    "pile": frozenset({ActionKind.PILE, ActionKind.PASS}),
}


@dataclass(frozen=True, slots=True)
class LessonPlan:
    """One lesson: its mode, its first position, and the tips it sets out to teach (the
    closing message and the test read them)."""

    name: str
    preset: str
    #: The seeded deal (also the computer's seed: the same lesson plays the same way for
    #: the same moves). Chosen by playing the lesson with the scripted learner of
    #: tests/records/test_learn.py until every tip in ``teaches`` came up: the deal of
    #: the first lesson offers a trump exchange and three sixes on the learner's first lead.
    seed: int
    #: The hands of a prepared position (the learner's first) instead of a deal.
    position: tuple[tuple[str, ...], ...] | None = None
    intro: str | None = None
    teaches: tuple[str, ...] = ()


#: The endgame lesson's position: the talon is gone, the learner (seat 0) leads; trumps are
#: hearts. Everything else went to the discard pile, so the computer's four cards can be
#: counted. It has one trump, lower than the learner's: an ace it beats with it, the next ace
#: it must take, and the third ace piles on (unless the learner leads all three at once).
_ENDGAME_HANDS = (("As", "Ac", "Ad", "Qh"), ("6s", "9c", "Jd", "Th"))
_ENDGAME_TRUMP = "8h"

LESSONS: dict[str, LessonPlan] = {
    plan.name: plan
    for plan in (
        LessonPlan(
            "first",
            "perevodnoy",
            seed=49,
            teaches=(
                "trump",
                "attack",
                "several",
                "exchange",
                "beat",
                "transfer",
                "take",
                "throw",
                "bito",
                "pile",
                "last_card",
            ),
        ),
        LessonPlan(
            "modes",
            "podkidnoy",
            seed=2,
            intro="intro_modes",
            teaches=("intro_modes", "no_transfer", "beat", "take", "throw", "bito"),
        ),
        LessonPlan(
            "endgame",
            "podkidnoy",
            seed=1,
            position=_ENDGAME_HANDS,
            intro="intro_endgame",
            teaches=("intro_endgame", "attack", "several", "pile"),
        ),
    )
}


def first_game(plan: LessonPlan, rules: RuleSet) -> Game:
    """The lesson's first position for a two-seat table with ``rules``."""
    if plan.position is None:
        return Game.new(rules, plan.seed)
    mine, theirs = plan.position
    held = {*mine, *theirs}
    discard = [str(c) for c in bits(deck_mask(rules.deck_size)) if str(c) not in held]
    return Game.from_position(
        rules,
        [list(mine), list(theirs)],
        trump_card=_ENDGAME_TRUMP,  # turned up long ago, drawn, beaten: in the discard pile
        discard=discard,
        attacker=0,
    )


def next_lesson(done: Iterable[str], after: str | None = None) -> str | None:
    """The lesson to offer: the one after ``after`` (a lesson just finished), else the
    first one not done yet; None when every lesson is done."""
    names = list(LESSONS)
    finished = set(done)
    if after is not None and after in names:
        later = names[names.index(after) + 1 :]
        return next((n for n in later if n not in finished), None)
    return next((n for n in names if n not in finished), None)


@dataclass(frozen=True, slots=True)
class LessonState:
    """Where a lesson's tips are: showing now, or done for good."""

    name: str
    showing: tuple[str, ...] = ()
    done: tuple[str, ...] = ()

    @property
    def met(self) -> tuple[str, ...]:
        """Every tip the learner has seen so far, in the hand's order."""
        seen = set(self.showing) | set(self.done)
        return tuple(c for c in CONCEPTS if c in seen)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "showing": list(self.showing), "done": list(self.done)}

    @classmethod
    def from_json(cls, data: Any) -> LessonState | None:
        if not isinstance(data, dict) or data.get("name") not in LESSONS:
            return None
        known = set(CONCEPTS)
        return cls(
            str(data["name"]),
            tuple(c for c in data.get("showing", []) if c in known),
            tuple(c for c in data.get("done", []) if c in known),
        )


def open_now(game: Game, seat: int, plan: LessonPlan, first_look: bool) -> set[str]:
    """The tips whose decision (or situation) is there for ``seat`` in ``game`` now.
    ``first_look``: the learner has not moved yet in this lesson."""
    out: set[str] = set()
    if game.result is not None:
        return out
    if first_look:
        out.add("trump")
        if plan.intro is not None:
            out.add(plan.intro)
    if len(game.talon) == 1 and not first_look:
        out.add("last_card")
    obs = game.observation(seat)
    acts = obs.legal_actions
    kinds = {a.kind for a in acts}
    if ActionKind.ATTACK in kinds:
        out.add("attack")
        if any(a.kind is ActionKind.ATTACK and len(a.cards) > 1 for a in acts):
            out.add("several")
    if ActionKind.EXCHANGE in kinds:
        out.add("exchange")
    if ActionKind.DEFEND in kinds:
        out.add("beat")
        ranks = {a.rank for a, _ in obs.table}
        holds_rank = any(c.rank in ranks for c in obs.hand)
        if obs.rules.transfer == "off" and holds_rank and all(b is None for _, b in obs.table):
            out.add("no_transfer")
    if ActionKind.TRANSFER in kinds:
        out.add("transfer")
    if ActionKind.TAKE in kinds:
        out.add("take")
    if obs.taking:
        if kinds & {ActionKind.PILE, ActionKind.PASS}:
            out.add("pile")
    else:
        if ActionKind.THROW in kinds:
            out.add("throw")
        if ActionKind.PASS in kinds:
            out.add("bito")
    return out


def begin(name: str, game: Game, seat: int) -> LessonState:
    """The state of a lesson at its first position."""
    return _step(LessonState(name), game, seat, None, first_look=True)


def advance(state: LessonState | None, game: Game, seat: int, action: Action) -> LessonState | None:
    """The state after ``action`` led to ``game`` (``seat``: the learner's)."""
    if state is None:
        return None
    first_look = "trump" in state.showing and action.seat != seat
    return _step(state, game, seat, action, first_look=first_look)


def _step(
    state: LessonState, game: Game, seat: int, action: Action | None, *, first_look: bool
) -> LessonState:
    plan = LESSONS[state.name]
    now = open_now(game, seat, plan, first_look)
    mine = action is not None and action.seat == seat
    showing: list[str] = []
    done = list(state.done)
    for concept in state.showing:
        used = mine and (concept not in _USED_BY or action.kind in _USED_BY[concept])  # type: ignore[union-attr]
        if used or concept not in now:
            done.append(concept)
        else:
            showing.append(concept)
    for concept in CONCEPTS:
        if concept in now and concept not in showing and concept not in done:
            showing.append(concept)
    order = {c: i for i, c in enumerate(CONCEPTS)}
    return replace(
        state,
        showing=tuple(sorted(showing, key=order.__getitem__)),
        done=tuple(sorted(set(done), key=order.__getitem__)),
    )
