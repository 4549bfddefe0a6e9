"""The service's values: limits, players, seats, lobbies, the live game session, and the
publisher protocol the Discord side implements.

Plain data with no behaviour beyond (de)serialising the public events and taking over a
committed state, so renderers, pictures and tests can read a session without going through
the service. The stored snapshot is written and read by :mod:`bot.game.snapshot`."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from engine import Card, Event, Game, Observation, RuleSet

from .lesson_plan import LessonState
from .series import Series

#: Difficulties a lobby can add; the storage schema accepts exactly these.
AI_DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard")
#: Who plays for a human that left a running game when the guild has no default difficulty.
TAKEOVER_DIFFICULTY = "easy"
#: Longest forfeit text (the storage CHECK constraint agrees).
FORFEIT_MAX_LENGTH = 200
#: A guild's turn timer: 0 (off) or this many seconds. Shorter is unplayable, longer is no
#: timer at all; Discord's option range says the same, but a forged or replayed command does
#: not go through Discord's client, so the service checks too.
TURN_TIMER_MIN_SECONDS = 15
TURN_TIMER_MAX_SECONDS = 3600
#: Leaderboard periods and orders (anything else is refused politely).
LEADERBOARD_PERIODS: tuple[str, ...] = ("all", "month", "week")
LEADERBOARD_SORTS: tuple[str, ...] = ("fools", "record")
#: Expired turns in a row after which a player forfeits.
MAX_TIMER_STRIKES = 2
#: Public events kept with the state for the table's "last moves".
EVENTS_KEPT = 8
#: Minutes an untouched lobby stays open (a guild may choose 0 = never, or up to a day):
#: an abandoned lobby would otherwise keep its players out of every other game.
LOBBY_IDLE_MINUTES = 15
LOBBY_IDLE_MAX_MINUTES = 24 * 60

PingKind = Literal["defend", "lead"]
ForfeitReason = Literal["left", "timeout"]
#: What a forfeit (leaving, or timing out too often) does to a running game; the leave
#: question, the answer after it, the table's event and the result all tell this one thing.
#: ``takeover``: a computer plays the seat on and the forfeiter counts as a fool;
#: ``ends``: the game ends, the forfeiter is its fool and the one person left wins;
#: ``alone``: nobody else at the table is a person, so the game ends with the forfeiter
#: as its fool; ``void``: nobody has moved yet, so the game ends without a fool and counts
#: for nothing (not rated, no stats, no achievements); ``lesson``: a lesson of ``/durak
#: learn`` ends, counting for nothing like every lesson.
ForfeitOutcome = Literal["takeover", "ends", "alone", "void", "lesson"]

# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class LeaveEffect:
    """What a human leaving a running game does (or did): the :data:`ForfeitOutcome` and
    the people who win when that ends the game (``ends``), named by the answers."""

    outcome: ForfeitOutcome
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A human as the service needs them: an id and a name to show at the table."""

    user_id: int
    name: str


@dataclass(slots=True)
class SeatInfo:
    """A seat. A human who left a running game keeps the seat, played by a computer."""

    seat: int
    name: str
    user_id: int | None
    difficulty: str | None
    left: bool = False

    @property
    def is_human(self) -> bool:
        """A human still at the table (their clicks count)."""
        return self.user_id is not None and not self.left

    @property
    def computer(self) -> str | None:
        """Difficulty of the computer playing this seat, or None if a human plays it. For a
        human who left, ``difficulty`` holds the guild's default difficulty (memory only: the
        seat row of a human never has one)."""
        if self.user_id is None or self.left:
            return self.difficulty or TAKEOVER_DIFFICULTY
        return None


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """An engine event reduced to what the channel may see (private draws are stripped)."""

    kind: str
    seat: int = -1
    cards: tuple[Card, ...] = ()
    target: int = -1
    amount: int = 0

    def to_json(self) -> list[Any]:
        return [self.kind, self.seat, [str(c) for c in self.cards], self.target, self.amount]

    @classmethod
    def from_json(cls, data: list[Any]) -> PublicEvent:
        kind, seat, cards, target, amount = data
        return cls(
            str(kind), int(seat), tuple(Card.parse(c) for c in cards), int(target), int(amount)
        )


def public_events(events: Iterable[Event]) -> list[PublicEvent]:
    """Keep only public information, and fold each round of draws into one line.

    A "done" is dropped: it changes nothing on the table (the bout's end says "Bito" or
    "takes"), and in a four-player game a line per pass pushed every real move out of the
    few events kept for the table's "last moves"."""
    out: list[PublicEvent] = []
    for ev in events:
        if ev.kind == "pass":
            continue
        if ev.kind == "draw":
            shown = ev.visible_cards(None)
            if out and out[-1].kind == "draw":
                prev = out[-1]
                out[-1] = PublicEvent("draw", -1, prev.cards + shown, -1, prev.amount + ev.amount)
            else:
                out.append(PublicEvent("draw", -1, shown, -1, ev.amount))
            continue
        out.append(
            PublicEvent(ev.kind, ev.seat, tuple(ev.visible_cards(None)), ev.target, ev.amount)
        )
    return out


@dataclass(slots=True)
class LobbyInfo:
    """Everything a lobby message shows; rebuilt from storage on every change."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    preset: str
    max_seats: int
    deck_size: int
    seats: list[SeatInfo]
    status: str
    locale: str = "en"
    overrides: dict[str, Any] = field(default_factory=dict)
    #: Set for a rematch lobby (see :mod:`bot.game.rematch`): the session it continues.
    series: Series | None = None
    #: Why a closed lobby closed when not by a Cancel ("expired"), else None.
    closed: str | None = None
    #: When the open lobby expires if nobody touches it (None: never).
    expires_at: float | None = None
    #: The level the lobby's menu chose for its computers (None: the guild's default).
    ai_level: str | None = None
    #: (the host who left, the player the lobby passed to), the latest such hand-over.
    host_left: tuple[int, int] | None = None
    #: Not listed by ``/durak games`` and not joinable from that list (the lobby's own Join
    #: and an invite's still work): the host's choice at ``/durak new`` or in the lobby.
    invite_only: bool = False
    #: When the lobby opened (the clock's seconds): the list says how long it has waited.
    created_at: float = 0.0

    @property
    def humans(self) -> list[SeatInfo]:
        return [s for s in self.seats if s.user_id is not None]

    def rules(self, players: int | None = None) -> RuleSet:
        """The rules the game will be played by with ``players`` seats (default: max)."""
        return RuleSet.preset(
            self.preset,
            players=players or self.max_seats,
            **{**self.overrides, "deck_size": self.deck_size},
        )


#: Observations of the games that moved last, by game: (the game, its version, by seat).
#: Not kept on the session: an idle game would hold its three observations (~7 KB) for
#: nothing, while the renders of one move all come within a second or two of it (the
#: answer, the live hands, the coalesced table edit), so the last few hundred games suffice.
_SEEN: dict[int, tuple[Game, int, dict[int, Observation]]] = {}
SEEN_GAMES = 512


@dataclass(eq=False, slots=True)
class GameSession:
    """A running (or just ended) game held in memory; its state is mirrored in SQLite.

    Slotted: the bot holds one per running game, idle or not, and with this many fields a
    ``__dict__`` doubled it (a new session with its default fields: 2.8 KB, slotted 1.5 KB)."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    preset: str
    seats: list[SeatInfo]
    game: Game
    seed: int
    version: int
    events: deque[PublicEvent] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))
    deadline: float | None = None
    status: str = "running"
    locale: str = "en"
    cancelled_by: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_task: asyncio.Task[None] | None = None
    #: Turn length from the guild settings (0 = no timer); also places the reminder.
    timer_seconds: int = 0
    #: The server offers hints in every game, not only against computers (``/durak records``);
    #: the service keeps it current as it reads and writes the server's record settings.
    hints_everywhere: bool = False
    #: Card ranks in each reader's letters (the server's ``/durak settings ranks``); False
    #: keeps the Latin J Q K A in every language.
    local_ranks: bool = True
    #: Expired turns in a row per seat (reset by the player's own move).
    strikes: dict[int, int] = field(default_factory=dict)
    #: The half-time reminder of the current turn went out.
    reminded: bool = False
    #: Seats that forfeited and why ('left' or 'timeout').
    forfeits: dict[int, str] = field(default_factory=dict)
    #: Who went out together, in order (bot/ratings/model.py ``record_outs``): the rating
    #: ties them. Kept here because the table's events remember only the last few moves.
    out_groups: list[list[int]] = field(default_factory=list)
    #: The seat whose forfeit ended the game early (no engine result then).
    ended_by: int | None = None
    #: The forfeit (task) handed out when the game ended, and to whom: the fool, or every
    #: human of the losing team (who share it).
    forfeit_seats: tuple[int, ...] = ()
    forfeit_text: str | None = None
    #: Who plays for a human who leaves (the guild's default difficulty).
    takeover_difficulty: str = TAKEOVER_DIFFICULTY
    timer_task: asyncio.Task[None] | None = None
    timer_version: int = -1
    #: The session of deals this game belongs to; None for a one-off (or a session's first)
    #: game. Loaded from the game's stored options, so the tally survives restarts.
    series: Series | None = None
    #: The turn ping not yet known to be delivered: (seat, kind, version it was owed at).
    #: Stored with the state in the same write, so a restart delivers it if still due
    #: (bot/surfaces/delivery.py); cleared once delivered or obsolete.
    owed_ping: tuple[int, str, int] | None = None
    #: When the game started (the clock's seconds): each move's line in the game's record
    #: carries its time since then (engine/record.py). Stored in the snapshot.
    record_t0: float = 0.0
    #: Hints asked for per seat in this game (also stored in ``game_hints``).
    hints: dict[int, int] = field(default_factory=dict)
    #: The server's spectators see the table one move late (``/durak settings``); the
    #: service keeps it current like ``timer_seconds``.
    spectator_delay: bool = False
    #: The state before the last committed move (memory only; None after a restart until
    #: the next move): what a server's delayed spectators see (bot/surfaces/spectators.py).
    previous: SessionState | None = None
    #: Members watching the game now (bot.surfaces.live_hands keeps the count; memory only):
    #: the table and the hands say "👁 3 watching".
    watchers: int = 0
    #: A lesson of ``/durak learn`` (bot/game/lessons.py), with its tips; None for every
    #: other game. Stored in the snapshot. A lesson is never rated or counted, hands out no
    #: dare and pings nobody.
    lesson: LessonState | None = None

    def observation(self, seat: int) -> Observation:
        """``game.observation(seat)`` (-1: the public one), computed once per state: a move
        is rendered for the table, both hands, the picture and the spectators, each of which
        needs the same observations. The engine's game changes only by ``apply`` (which bumps
        its version) or by being replaced, so the game and its version tell when to forget."""
        game = self.game
        entry = _SEEN.pop(self.game_id, None)
        if entry is None or entry[0] is not game or entry[1] != game.version:
            entry = (game, game.version, {})
        if len(_SEEN) >= SEEN_GAMES:
            del _SEEN[next(iter(_SEEN))]
        _SEEN[self.game_id] = entry  # the most recently used last
        seen = entry[2].get(seat)
        if seen is None:
            seen = game.observation(seat) if seat >= 0 else game.public_observation()
            entry[2][seat] = seen
        return seen

    def public_observation(self) -> Observation:
        """What the channel may see (``game.public_observation()``), once per state."""
        return self.observation(-1)

    def seat_of(self, user_id: int) -> int | None:
        """The seat a human plays, or None (also for a human who already left)."""
        for s in self.seats:
            if s.user_id == user_id and not s.left:
                return s.seat
        return None

    def name(self, seat: int) -> str:
        return self.seats[seat].name if 0 <= seat < len(self.seats) else "?"

    @property
    def active_humans(self) -> list[SeatInfo]:
        return [s for s in self.seats if s.is_human]

    @property
    def finished(self) -> bool:
        return self.status != "running"

    def leave_effect(self, seat: int) -> LeaveEffect:
        """:meth:`forfeit_outcome` with the people who would then win."""
        outcome = self.forfeit_outcome(seat)
        winners = tuple(
            s.user_id
            for s in self.active_humans
            if s.seat != seat and s.user_id is not None and outcome == "ends"
        )
        return LeaveEffect(outcome, winners)

    def forfeit_outcome(self, seat: int) -> ForfeitOutcome:
        """What ``seat`` forfeiting now would do (see :data:`ForfeitOutcome`). The game goes
        on only while two people (or, in a game begun by one, that one) are left to play it:
        a game of people against computers alone was not the game they sat down to."""
        if self.lesson is not None:
            return "lesson"
        remaining = [s for s in self.active_humans if s.seat != seat]
        if len(remaining) >= min(2, self.humans_at_start):
            return "takeover"
        if self.game.version == 0:
            return "void"
        return "ends" if remaining else "alone"

    @property
    def void(self) -> bool:
        """The game ended on a forfeit before anybody moved: it counts for nothing."""
        return self.ended_by is not None and self.game.version == 0

    def pinged(self, seat: int) -> bool:
        """Whether ``seat`` is told of its turn: a human's, outside a lesson (the learner
        is at the table already, in a thread of their own)."""
        return self.seats[seat].is_human and self.lesson is None

    @property
    def learner(self) -> int:
        """The seat a lesson teaches (the one human's; 0 otherwise)."""
        return next((s.seat for s in self.seats if s.user_id is not None), 0)

    @property
    def humans_at_start(self) -> int:
        return sum(1 for s in self.seats if s.user_id is not None)

    def state(self) -> SessionState:
        """The part of the session a write stores; ``dataclasses.replace`` it to get the
        state a change leads to."""
        return SessionState(
            game=self.game,
            events=self.events,
            version=self.version,
            deadline=self.deadline,
            strikes=self.strikes,
            forfeits=self.forfeits,
            owed_ping=self.owed_ping,
            out_groups=self.out_groups,
            lesson=self.lesson,
        )

    def commit(self, state: SessionState) -> None:
        """The write of ``state`` committed: the live session becomes it. A new version is a
        new turn, whose half-time reminder has not gone out."""
        if state.version != self.version:
            self.previous = self.state()
        self.game = state.game
        self.events = state.events
        self.version = state.version
        self.deadline = state.deadline
        self.strikes = dict(state.strikes)
        self.forfeits = state.forfeits
        self.owed_ping = state.owed_ping
        self.out_groups = state.out_groups
        self.lesson = state.lesson
        self.reminded = False


@dataclass(frozen=True, slots=True)
class SessionState:
    """What a session holds that a write stores. A change builds the next one, the stored
    snapshot is encoded from it (:func:`bot.game.snapshot.encode`) and, once the write has
    committed, :meth:`GameSession.commit` makes it the live one: what is stored and what is
    in memory come from one value, so they cannot drift apart."""

    game: Game
    events: deque[PublicEvent]
    version: int
    deadline: float | None
    strikes: dict[int, int]
    forfeits: dict[int, str]
    owed_ping: tuple[int, str, int] | None
    out_groups: list[list[int]]
    lesson: LessonState | None = None


class Publisher(Protocol):
    """What the service needs from the transport layer. All calls happen after commit."""

    async def refresh(self, game_id: int) -> None:
        """The game's public message is out of date (coalescing is the publisher's job)."""

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> None:
        """It became ``seat``'s turn to defend or to lead."""

    async def finished(self, session: GameSession) -> None:
        """The game ended with a result (announce it)."""

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        """Half of ``seat``'s turn time is gone; the turn expires at ``deadline``."""


class NullPublisher:
    """Used until the bot attaches its own, and by service-level tests."""

    async def refresh(self, game_id: int) -> None:
        return None

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> None:
        return None

    async def finished(self, session: GameSession) -> None:
        return None

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        return None


class TournamentPublisher(Protocol):
    """What the tournament flow needs from the transport layer (after commit, like
    :class:`Publisher`)."""

    async def announce(self, tournament_id: int) -> None:
        """The tournament's announcement is out of date (sign-ups, round, result)."""

    async def open_table(self, tournament_id: int, game_id: int) -> None:
        """A table's game is about to start: give it its public message (awaited)."""

    async def round(self, tournament_id: int, number: int) -> None:
        """Round ``number`` began: its one public message (standings and pairings)."""

    async def final(self, tournament_id: int) -> None:
        """The tournament is over: the final standings."""


class NullTournamentPublisher:
    """Used until the bot attaches its own, and by service-level tests."""

    async def announce(self, tournament_id: int) -> None:
        return None

    async def open_table(self, tournament_id: int, game_id: int) -> None:
        return None

    async def round(self, tournament_id: int, number: int) -> None:
        return None

    async def final(self, tournament_id: int) -> None:
        return None


AiPlayer = Any  # engine.ai Player: choose(obs) -> Action | None
AiFactory = Callable[[str, int | str], AiPlayer]
DeadlinePolicy = Callable[[GameSession, Game], float | None]


def _default_ai_factory(kind: str, seed: int | str) -> AiPlayer:
    # Imported lazily: the AI package is heavy and only needed once a computer seat acts.
    # The think budget is engine.ai's BOT_MAX_SECONDS / BOT_MAX_ITERATIONS: the same one
    # bench/ai_strength.py measures, so its strength and think times are the bot's.
    from engine.ai import bot_player

    return bot_player(kind, seed)
