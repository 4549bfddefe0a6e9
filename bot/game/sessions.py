"""Game sessions: the one place where lobbies become games and clicks become engine actions.

Data flows one way: an interaction reaches a cog, the cog calls :class:`GameService`, the
service validates and applies under a per-game :class:`asyncio.Lock`, persists the new state
in one SQLite transaction *before* anything is shown, and only then tells a
:class:`Publisher` that the public message needs a refresh. Why it is shaped like this:

* No ``discord`` import here. The service speaks in user ids, seat numbers and i18n keys, so
  it can be driven by tests, a CLI or a future web front end, and the Discord layer (``bot/``)
  only renders and transports.
* Every accepted action bumps a *service* version that is stored with the state and carried in
  every button's custom_id. A click made against an older version is refused, which makes
  double clicks, two players racing, and interactions replayed after a restart harmless.
* The engine is applied to a copy; the live game is replaced only after the database commit,
  so a failed write cannot leave memory and disk disagreeing.
* Time (``clock``), randomness (``seed_factory``, ``forfeit_rng``), computer players
  (``ai_factory``) and turn deadlines (``deadline_policy``) are injected: tests pin them.

Turn timers: a deadline is an absolute time stored with the game (``games.turn_deadline``), not
a sleeping coroutine, so it survives a restart; each process re-arms one asyncio task per game
from the stored value and acts at once when it already passed. The timer applies to the seats
the game is *waiting for* (:func:`waiting_seats`): the defender facing unbeaten cards, the
attacker who must lead, and attackers who owe a "done" once everything is beaten or the
defender takes. Players who may merely throw in are never timed: the game can go on without
them. Computer seats are timed too, so a computer that crashes cannot freeze a table.

Forfeits: a human who leaves a running game, or whose turn expires twice in a row, forfeits
(outcome ``forfeit``, counted as the fool of that game by the statistics). The others play on
with a computer in that seat, unless fewer humans would remain than the game needs (two when
it started with two or more humans, otherwise one): then the game ends there, the remaining
humans win and the forfeiter is the fool.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from engine import Action, ActionKind, Card, Event, Game, IllegalAction, InvalidPosition, RuleSet
from engine.rules import PRESETS, RuleError
from engine.variants import VARIANTS

from .. import storage as st
from ..sharding import ShardScope
from .series import Series

__all__ = [
    "AI_DIFFICULTIES",
    "AlreadyPlaying",
    "ChannelBusy",
    "GameMissing",
    "GameOver",
    "GameService",
    "GameSession",
    "HandClosed",
    "IllegalMove",
    "LobbyInfo",
    "NotAPlayer",
    "NotAllowed",
    "PlayerRef",
    "PublicEvent",
    "Publisher",
    "SeatInfo",
    "ServiceError",
    "StaleAction",
]

log = logging.getLogger(__name__)

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
#: Upper bound on a computer's thinking time, so a "hard" seat never freezes a table.
AI_MAX_SECONDS = 2.0
SNAPSHOT_FORMAT = 1

PingKind = Literal["defend", "lead"]
ForfeitReason = Literal["left", "timeout"]


# --------------------------------------------------------------------------- errors


class ServiceError(Exception):
    """A refusal meant for the user: ``key`` is an i18n key and ``params`` fill it."""

    key = "error.internal"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class GameMissing(ServiceError):
    key = "error.game_not_found"


class GameOver(ServiceError):
    key = "error.game_finished"


class HandClosed(ServiceError):
    """A hand of a game that ended (``hand.closed.finished`` / ``.cancelled``) or that the
    player left (``hand.closed.left``): it offers no moves any more and says why. The ended
    game's ``session`` lets the answer show its result."""

    key = "hand.closed.finished"

    def __init__(self, key: str, session: GameSession | None = None) -> None:
        super().__init__(key)
        self.session = session


class NotAPlayer(ServiceError):
    key = "error.not_in_game"


class NotAllowed(ServiceError):
    key = "error.only_host"


class AlreadyPlaying(ServiceError):
    key = "error.already_in_game"

    def __init__(self, game_id: int) -> None:
        super().__init__(link=f"#{game_id}")
        self.game_id = game_id


class ChannelBusy(ServiceError):
    key = "error.channel_busy"

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)
        self.game_id = game_id


class StaleAction(ServiceError):
    """The click was made against an older version; nothing was applied."""

    key = "error.stale_button"


class IllegalMove(ServiceError):
    key = "error.illegal_action"

    def __init__(self, code: str) -> None:
        super().__init__(code=code)
        self.code = code


# --------------------------------------------------------------------------- values


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


@dataclass(eq=False)
class GameSession:
    """A running (or just ended) game held in memory; its state is mirrored in SQLite."""

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
    #: Expired turns in a row per seat (reset by the player's own move).
    strikes: dict[int, int] = field(default_factory=dict)
    #: The half-time reminder of the current turn went out.
    reminded: bool = False
    #: Seats that forfeited and why ('left' or 'timeout').
    forfeits: dict[int, str] = field(default_factory=dict)
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
    #: (bot/delivery.py); cleared once delivered or obsolete.
    owed_ping: tuple[int, str, int] | None = None

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

    @property
    def humans_at_start(self) -> int:
        return sum(1 for s in self.seats if s.user_id is not None)

    def snapshot(
        self,
        game: Game | None = None,
        events: Iterable[PublicEvent] | None = None,
        version: int | None = None,
        deadline: float | None = None,
        forfeits: dict[int, str] | None = None,
        owed_ping: tuple[int, str, int] | Literal["keep"] | None = "keep",
    ) -> str:
        """The JSON stored in ``games.state_json`` (full state: never shown to anyone)."""
        ping = self.owed_ping if owed_ping == "keep" else owed_ping
        return json.dumps(
            {
                "format": SNAPSHOT_FORMAT,
                "seed": self.seed,
                "version": self.version if version is None else version,
                "deadline": deadline,
                "game": (game or self.game).to_dict(),
                "events": [e.to_json() for e in (self.events if events is None else events)],
                "forfeits": {
                    str(k): v for k, v in (self.forfeits if forfeits is None else forfeits).items()
                },
                "ping": list(ping) if ping is not None else None,
            },
            separators=(",", ":"),
        )


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


AiPlayer = Any  # engine.ai Player: choose(obs) -> Action | None
AiFactory = Callable[[str, int | str], AiPlayer]
DeadlinePolicy = Callable[[GameSession, Game], float | None]


def _default_ai_factory(kind: str, seed: int | str) -> AiPlayer:
    # Imported lazily: the AI package is heavy and only needed once a computer seat acts.
    from engine.ai import make_player

    return make_player(kind, seed, max_seconds=AI_MAX_SECONDS)


#: Rule options a guild may override in its house rules (besides seats and deck size).
RULE_OVERRIDES: tuple[str, ...] = ("throw_in", "trump_exchange")
#: How seats with nothing to add are handled at a server's tables (house rule ``done``):
#: ``online`` (the Discord default) passes them over by themselves, ``pagat`` keeps the table
#: etiquette of the rule text, where every attacker still holding cards says "done".
DONE_STYLES: tuple[str, ...] = ("online", "pagat")


def auto_done_for(house_options: dict[str, Any], preset: str | None = None) -> bool:
    """The engine's ``auto_done`` for a new Discord game of a guild.

    On Discord, unlike at a real table, saying "done" costs every seat a click per bout (in a
    4-player game most clicks were such "done"s by seats that could add nothing), so the bot
    plays the online style unless the server asked for pagat's etiquette. It applies to every
    mode: it is a table manner, not a variant, and it is fixed in the game's rules at creation
    so that changing the house rule never alters a game already under way. A catalogue variant
    that cannot be played with it wins (reverse fool: passing a blind player over would show
    them their hand).
    """
    if preset in PRESETS:
        needed = VARIANTS[PRESETS[preset].variant].requires.get("auto_done")
        if needed is not None:
            return bool(needed[0])
    return house_options.get("done", "online") != "pagat"


def _rules_for(preset: str, options: dict[str, Any], players: int) -> RuleSet:
    """The rules of ``preset`` with the house-rule ``options`` applied (RuleError if bad)."""
    overrides = {k: options[k] for k in (*RULE_OVERRIDES, "deck_size") if k in options}
    return RuleSet.preset(preset, players=players, **overrides)


def twist_options(
    preset: str, twist: str, overrides: dict[str, Any], deck_size: int, seats: int
) -> dict[str, Any]:
    """The rule options that put catalogue variant ``twist`` on ``preset`` (the variant and
    the option values it needs), or a polite ServiceError with the engine's reason."""
    if twist not in VARIANTS or twist == "none":
        raise ServiceError("error.unknown_twist", twist=twist)
    own = PRESETS[preset].variant
    if own != "none" and own != twist:
        raise ServiceError("error.twist_on_variant", preset=preset, twist=twist)
    try:
        base = _rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
        combined = base.with_variant(twist)
    except RuleError as exc:
        raise ServiceError("error.bad_twist", twist=twist, reason=str(exc)) from None
    return combined.diff(base)


def waiting_seats(game: Game) -> list[int]:
    """Seats the game is waiting for, defender first: without their move nothing happens.

    The attacker who must lead, the defender facing unbeaten cards (who can always take),
    and attackers who owe a "done" once everything is beaten or the defender takes. An
    attacker who *may* say "done" earlier (waving co-attackers on while cards are unbeaten)
    is not waited for: the defender's answer does not depend on it.
    """
    if game.result is not None:
        return []
    settling = game.taking or not game.unbeaten()
    out: list[int] = []
    for seat in [game.defender, *game.eligible_attackers(), *range(game.n)]:
        if seat in out:
            continue
        acts = game.legal_actions(seat)
        if game.phase == "lead":
            if seat == game.attacker and any(a.kind is ActionKind.ATTACK for a in acts):
                out.append(seat)
        elif any(a.kind is ActionKind.TAKE for a in acts) or (
            settling and any(a.kind is ActionKind.PASS for a in acts)
        ):
            out.append(seat)
    return out


def safe_default(game: Game, seat: int) -> Action | None:
    """The move made for a seat whose time ran out: the one that gives nothing away.

    The defender takes, an attacker who owes a "done" passes, and an attacker who must lead
    leads the lowest card (lowest non-trump, else lowest trump). None if ``seat`` is not
    waited for.
    """
    acts = game.legal_actions(seat)
    for kind in (ActionKind.TAKE, ActionKind.PASS):
        for action in acts:
            if action.kind is kind:
                return action
    leads = [a for a in acts if a.kind is ActionKind.ATTACK and len(a.cards) == 1]
    if leads:
        return min(
            leads,
            key=lambda a: (a.cards[0].suit == game.trump, a.cards[0].rank, a.cards[0].suit),
        )
    return None


def _outcome(result: Any, seat: int) -> st.Outcome:
    """Engine result → stored outcome. ``win`` = went out before the last player (or was on
    the winning team); in team games every member of the losing team is a fool (``fool`` for
    the one left holding cards, ``lost_team`` for the partners)."""
    if result.kind == "draw":
        return "draw"
    if result.kind == "fool":
        return "fool" if seat == result.fool else "win"
    if seat in result.losers:
        return "fool" if seat == result.fool else "lost_team"
    return "win"


def pings_between(before: Game, after: Game) -> list[tuple[int, PingKind]]:
    """Whose turn *became* theirs: a new defender under attack, or a new leader."""
    if after.result is not None:
        return []
    if after.phase == "lead":
        if before.phase != "lead" or before.attacker != after.attacker:
            return [(after.attacker, "lead")]
    elif after.phase == "bout" and (before.phase != "bout" or before.defender != after.defender):
        return [(after.defender, "defend")]
    return []


# --------------------------------------------------------------------------- service


class GameService:
    """Lobbies and games of every guild. One instance per bot process."""

    def __init__(
        self,
        storage: st.Storage,
        publisher: Publisher | None = None,
        *,
        clock: Callable[[], float] = time.time,
        ai_delay: float = 1.0,
        seed_factory: Callable[[], int] | None = None,
        ai_factory: AiFactory | None = None,
        deadline_policy: DeadlinePolicy | None = None,
        locale_of: Callable[[int], Awaitable[str]] | None = None,
        forfeit_rng: random.Random | None = None,
        shards: ShardScope | None = None,
    ) -> None:
        self.storage = storage
        self.publisher: Publisher = publisher or NullPublisher()
        self.clock = clock
        self.ai_delay = ai_delay
        self._seed_factory = seed_factory or (lambda: secrets.randbits(63))
        self._ai_factory = ai_factory or _default_ai_factory
        self._deadline_policy = deadline_policy or self._timer_deadline
        self._locale_of = locale_of
        self._forfeit_rng = forfeit_rng or random.Random()
        #: The guilds this process acts for on its own initiative (see bot/sharding.py).
        self.shards = shards or ShardScope()
        self._sessions: dict[int, GameSession] = {}
        self._ended: dict[int, GameSession] = {}
        self._lobby_locks: dict[int, asyncio.Lock] = {}
        self._players: dict[tuple[int, int], AiPlayer] = {}
        self._closing = False
        self._background: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- queries

    def session(self, game_id: int) -> GameSession | None:
        """A running game, or one that just ended (kept so its table can be re-rendered)."""
        return self._sessions.get(game_id) or self._ended.get(game_id)

    def running_sessions(self) -> list[GameSession]:
        return list(self._sessions.values())

    async def guild_locale(self, guild_id: int, discord_locale: str | None = None) -> str:
        """Language of public messages: the guild's chosen one, else the server's Discord
        language seen when the game was created (``discord_locale``), else English."""
        if self._locale_of is not None:
            return await self._locale_of(guild_id)
        settings = await self.storage.get_guild_settings(guild_id)
        if settings.locale_explicit or discord_locale is None:
            return settings.locale
        return discord_locale

    async def settings(self, guild_id: int) -> st.GuildSettings:
        return await self.storage.get_guild_settings(guild_id)

    async def update_settings(self, guild_id: int, **changes: Any) -> st.GuildSettings:
        """Save settings and apply them to the guild's running games: language and computer
        difficulty at once, the turn length from the next turn on."""
        timer = changes.get("turn_timer_seconds")
        if timer is not None and not (
            timer == 0 or TURN_TIMER_MIN_SECONDS <= timer <= TURN_TIMER_MAX_SECONDS
        ):
            raise ServiceError(
                "settings.invalid_timer", min=TURN_TIMER_MIN_SECONDS, max=TURN_TIMER_MAX_SECONDS
            )
        if "default_preset" in changes or "default_options" in changes:
            current = await self.storage.get_guild_settings(guild_id)
            preset = changes.get("default_preset", current.default_preset)
            options = changes.get("default_options", current.default_options)
            if preset not in PRESETS:
                raise ServiceError("error.unknown_preset", preset=preset)
            if options.get("done", DONE_STYLES[0]) not in DONE_STYLES:
                raise ServiceError("error.bad_setting", reason=f"done: {options['done']!r}")
            try:
                _rules_for(preset, options, int(options.get("seats", 2)))
            except (RuleError, TypeError, ValueError) as exc:
                raise ServiceError("error.bad_rules", reason=str(exc)) from None
        try:
            settings = await self.storage.update_guild_settings(guild_id, **changes)
        except ValueError as exc:
            raise ServiceError("error.bad_setting", reason=str(exc)) from None
        for session in self.running_sessions():
            if session.guild_id != guild_id:
                continue
            row = await self.storage.get_game(session.game_id)
            session.locale = await self.guild_locale(
                guild_id, (row.options if row else {}).get("locale")
            )
            session.timer_seconds = settings.turn_timer_seconds
            session.takeover_difficulty = settings.default_ai_difficulty
            for seat in session.seats:
                if seat.left:
                    seat.difficulty = settings.default_ai_difficulty
            await self._publish(self.publisher.refresh(session.game_id))
        return settings

    # ----------------------------------------------------------------- forfeits and stats

    @staticmethod
    def check_leaderboard(period: str, sort: str) -> None:
        """Refuse a leaderboard that does not exist (Discord's choices do not bind a forged
        command or an old button)."""
        if period not in LEADERBOARD_PERIODS or sort not in LEADERBOARD_SORTS:
            raise ServiceError("leaderboard.bad_period")

    async def forfeits(self, guild_id: int) -> list[st.Forfeit]:
        return await self.storage.list_forfeits(guild_id)

    async def add_forfeit(self, guild_id: int, text: str) -> int:
        """Append a forfeit; returns its number in the list."""
        try:
            await self.storage.add_forfeit(guild_id, text)
        except ValueError:
            raise ServiceError("forfeits.too_long", max=FORFEIT_MAX_LENGTH) from None
        return len(await self.storage.list_forfeits(guild_id))

    async def remove_forfeit(self, guild_id: int, number: int) -> str:
        removed = await self.storage.remove_forfeit(guild_id, number)
        if removed is None:
            raise ServiceError("forfeits.not_found", number=number)
        return removed.text

    async def reset_forfeits(self, guild_id: int) -> None:
        await self.storage.reset_forfeits(guild_id)

    async def check_channel(self, guild_id: int, channel_id: int) -> None:
        """Refuse politely, naming the allowed channels, where the guild does not play."""
        settings = await self.storage.get_guild_settings(guild_id)
        if not settings.channel_allowed(channel_id):
            channels = ", ".join(f"<#{c}>" for c in settings.allowed_channel_ids or ())
            raise ServiceError("error.channel_not_allowed", channels=channels or "—")

    async def lobby(self, game_id: int) -> LobbyInfo:
        row = await self.storage.get_game(game_id)
        if row is None:
            raise GameMissing()
        seats = await self.storage.seats(game_id)
        options = row.options or {}
        rules_options = dict(options.get("rules", {}))
        deck_size = int(rules_options.pop("deck_size", 36))
        return LobbyInfo(
            game_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.message_channel_id,
            message_id=row.table_message_id,
            host_id=row.host_id,
            preset=row.preset,
            max_seats=int(options.get("seats", 2)),
            deck_size=deck_size,
            seats=[SeatInfo(s.seat, s.display_name, s.user_id, s.ai_difficulty) for s in seats],
            status=row.status,
            locale=await self.guild_locale(row.guild_id, options.get("locale")),
            overrides=rules_options,
            series=Series.from_json(options.get("series")),
        )

    async def public_state(self, game_id: int) -> GameSession | LobbyInfo:
        """What the game's public message should show right now."""
        session = self.session(game_id) or await self.ended_session(game_id)
        if session is not None:
            return session
        return await self.lobby(game_id)

    async def ended_session(self, game_id: int) -> GameSession | None:
        """A game that ended (finished or cancelled after it started), from memory or rebuilt
        from storage: its final table and result are rendered from it after a restart too,
        so they read the same. None for lobbies, running games and unknown ids."""
        session = self.session(game_id)
        if session is not None:
            return session if session.finished else None
        row = await self.storage.get_game(game_id)
        if row is None or row.status not in ("finished", "cancelled") or row.state_json is None:
            return None
        try:
            session = await self._session_from_row(row)
        except (InvalidPosition, RuleError, KeyError, ValueError, TypeError):
            log.warning("game %d: stored final state is unreadable", game_id)
            return None
        session.status = row.status
        session.deadline = None
        results = await self.storage.game_results(game_id)
        session.forfeit_seats = tuple(r.seat for r in results if r.forfeit_text)
        session.forfeit_text = next((r.forfeit_text for r in results if r.forfeit_text), None)
        session.ended_by = next(
            (e.seat for e in reversed(session.events) if e.kind == "forfeit_end"), None
        )
        self._remember_ended(session)
        return session

    async def running_games(self, guild_id: int) -> list[tuple[int, str, int, list[SeatInfo]]]:
        """(game id, preset, channel id, seats) of every running game in a guild."""
        out = []
        for row in await self.storage.running_games(guild_id):
            seats = await self.storage.seats(row.id)
            out.append(
                (
                    row.id,
                    row.preset,
                    row.message_channel_id,
                    [
                        SeatInfo(
                            s.seat,
                            s.display_name,
                            s.user_id,
                            s.ai_difficulty,
                            s.left_at is not None,
                        )
                        for s in seats
                    ],
                )
            )
        return out

    async def game_for_user(self, user_id: int) -> int | None:
        return await self.storage.user_active_game(user_id)

    async def game_in_channel(self, channel_id: int) -> int | None:
        return await self.storage.active_game_in_channel(channel_id)

    def player_seat(self, game_id: int, user_id: int) -> tuple[GameSession, int]:
        """The session and seat of a player, or the reason they cannot see a hand."""
        session = self.session(game_id)
        if session is None:
            raise GameMissing()
        seat = session.seat_of(user_id)
        if seat is None:
            raise NotAPlayer()
        return session, seat

    async def require_player(self, game_id: int, user_id: int) -> tuple[GameSession, int]:
        """The running game and seat of a player who may see their hand; otherwise the
        reason, told apart via storage. An ended game (or one the player left) raises
        :class:`HandClosed` whether it is still in memory or only on disk, so its hands
        answer the same before and after a restart."""
        session = self.session(game_id) or await self.ended_session(game_id)
        if session is None:
            row = await self.storage.get_game(game_id)
            if row is None:
                raise GameMissing()
            if row.status in ("finished", "cancelled"):
                raise HandClosed("hand.closed.cancelled")
            raise ServiceError("error.not_started")
        self._check_hand_open(session, user_id)
        return self.player_seat(game_id, user_id)

    @staticmethod
    def _check_hand_open(session: GameSession, user_id: int) -> None:
        """Raise :class:`HandClosed` when ``user_id``'s hand in ``session`` is closed."""
        if session.status == "cancelled":
            raise HandClosed("hand.closed.cancelled", session)
        if session.finished:
            raise HandClosed("hand.closed.finished", session)
        if session.seat_of(user_id) is None and any(
            s.user_id == user_id and s.left for s in session.seats
        ):
            raise HandClosed("hand.closed.left", session)

    # ----------------------------------------------------------------- lobby

    def _lobby_lock(self, game_id: int) -> asyncio.Lock:
        return self._lobby_locks.setdefault(game_id, asyncio.Lock())

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: PlayerRef,
        preset: str | None = None,
        seats: int | None = None,
        deck_size: int | None = None,
        *,
        discord_locale: str | None = None,
        twist: str | None = None,
    ) -> LobbyInfo:
        """Open a lobby with the host seated. The rules are validated for the full table now
        so that an impossible combination (7 hands from 24 cards) fails before anyone joins.

        What the host leaves out comes from the guild's house rules: the default mode, seats
        and deck, and the rule overrides (those only with the default mode, since they were
        chosen for it). ``discord_locale`` is the server's Discord language, used for public
        messages until the guild picks one.
        """
        settings = await self.storage.get_guild_settings(guild_id)
        defaults = settings.default_options
        if preset is None or preset == settings.default_preset:
            preset = settings.default_preset
            overrides = {k: defaults[k] for k in RULE_OVERRIDES if k in defaults}
        else:
            overrides = {}
        if preset not in PRESETS:
            raise ServiceError("error.unknown_preset", preset=preset)
        seats = seats if seats is not None else int(defaults.get("seats", 2))
        deck_size = deck_size if deck_size is not None else int(defaults.get("deck_size", 36))
        if twist is not None:
            overrides = {**overrides, **twist_options(preset, twist, overrides, deck_size, seats)}
        try:
            _rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
        except RuleError as exc:
            raise ServiceError("error.bad_rules", reason=str(exc)) from None
        busy = await self.storage.active_game_in_channel(channel_id)
        if busy is not None:
            raise ChannelBusy(busy)
        options: dict[str, Any] = {
            "seats": seats,
            "rules": {
                **overrides,
                "deck_size": deck_size,
                "auto_done": auto_done_for(defaults, preset),
            },
        }
        if discord_locale is not None:
            options["locale"] = discord_locale
        try:
            game_id = await self.storage.create_lobby(
                guild_id,
                channel_id,
                host.user_id,
                preset,
                options,
                host_display_name=host.name,
            )
        except st.AlreadyInGame as exc:
            raise AlreadyPlaying(exc.game_id) from None
        log.info(
            "game %d: lobby created by %d (%s, %d seats)", game_id, host.user_id, preset, seats
        )
        return await self.lobby(game_id)

    async def attach_message(
        self, game_id: int, message_id: int, *, thread_id: int | None = None
    ) -> None:
        """Remember the public message (and the game's thread, if it has one) so it can be
        edited after a restart too."""
        await self.storage.set_table_message(game_id, message_id=message_id, thread_id=thread_id)
        session = self.session(game_id)
        if session is not None:
            session.message_id = message_id
            if thread_id is not None:
                session.channel_id = thread_id

    async def _open_lobby(self, game_id: int) -> LobbyInfo:
        info = await self.lobby(game_id)
        if info.status != "lobby":
            raise GameOver("error.lobby_closed")
        return info

    async def join(self, game_id: int, player: PlayerRef) -> LobbyInfo:
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            if any(s.user_id == player.user_id for s in info.seats):
                raise ServiceError("error.already_joined")
            try:
                await self.storage.add_seat(
                    game_id,
                    display_name=player.name,
                    user_id=player.user_id,
                    max_seats=info.max_seats,
                )
            except st.AlreadyInGame as exc:
                raise AlreadyPlaying(exc.game_id) from None
            except st.LobbyFull:
                raise ServiceError("error.lobby_full", max=info.max_seats) from None
            except st.InvalidGameStatus:
                raise GameOver("error.lobby_closed") from None
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    def _check_host(self, info: LobbyInfo | GameSession, user_id: int, can_manage: bool) -> None:
        if user_id != info.host_id and not can_manage:
            raise NotAllowed(host=f"<@{info.host_id}>")

    async def add_computer(
        self,
        game_id: int,
        user_id: int,
        difficulty: str | None = None,
        *,
        can_manage: bool = False,
    ) -> LobbyInfo:
        """Seat a computer; without ``difficulty`` the guild's default is used."""
        if difficulty is None:
            row = await self.storage.get_game(game_id)
            if row is None:
                raise GameMissing()
            difficulty = (await self.storage.get_guild_settings(row.guild_id)).default_ai_difficulty
        if difficulty not in AI_DIFFICULTIES:
            raise ServiceError("error.malformed_id")
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            number = sum(1 for s in info.seats if s.user_id is None) + 1
            try:
                await self.storage.add_seat(
                    game_id,
                    display_name=f"#{number}",
                    ai_difficulty=difficulty,
                    max_seats=info.max_seats,
                )
            except st.LobbyFull:
                raise ServiceError("error.lobby_full", max=info.max_seats) from None
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def remove_computer(
        self, game_id: int, user_id: int, *, can_manage: bool = False
    ) -> LobbyInfo:
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            computers = [s for s in info.seats if s.user_id is None]
            if not computers:
                raise ServiceError("error.no_computer")
            await self.storage.remove_seat(game_id, computers[-1].seat)
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def leave(self, user_id: int) -> int:
        """Leave whatever lobby or game the user is in; returns that game's id.

        In a lobby the seat is freed (the host leaving cancels the lobby: nobody else may
        start it). In a running game a computer takes the seat over and the human will be
        recorded as having forfeited; when no human is left the game is cancelled.
        """
        game_id = await self.storage.user_active_game(user_id)
        if game_id is None:
            raise ServiceError("error.no_active_game")
        session = self._sessions.get(game_id)
        if session is None:
            await self._leave_lobby(game_id, user_id)
        else:
            await self._leave_running(session, user_id)
        return game_id

    async def _leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            if user_id == info.host_id or info.series is not None:
                # A rematch keeps the same seats: one player leaving it calls it off.
                await self.storage.cancel_game(game_id)
                log.info("game %d: lobby cancelled, %d left", game_id, user_id)
            else:
                seat = next((s.seat for s in info.seats if s.user_id == user_id), None)
                if seat is None:
                    raise NotAPlayer()
                await self.storage.remove_seat(game_id, seat)
        await self._publish(self.publisher.refresh(game_id))

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        """The lobby's Leave button (the user must sit in *this* lobby)."""
        await self._leave_lobby(game_id, user_id)

    async def _leave_running(self, session: GameSession, user_id: int) -> None:
        async with session.lock:
            seat = session.seat_of(user_id)
            if seat is None or session.finished:
                raise NotAPlayer()
            await self._forfeit_locked(session, seat, "left")
        await self._after_change(session, [])

    async def _forfeit_locked(self, session: GameSession, seat: int, reason: ForfeitReason) -> None:
        """``seat`` forfeits (left, or timed out too often). Caller holds ``session.lock``.

        The game goes on with a computer in the seat while enough humans remain (see the module
        docstring); otherwise it ends here with the forfeiter as its fool.
        """
        forfeits = {**session.forfeits, seat: reason}
        remaining = [s for s in session.active_humans if s.seat != seat]
        new_version = session.version + 1
        strikes = {k: v for k, v in session.strikes.items() if k != seat}
        if len(remaining) < min(2, session.humans_at_start):
            events = deque(session.events, maxlen=EVENTS_KEPT)
            events.append(PublicEvent("forfeit_end", seat, amount=int(reason == "timeout")))
            entries, fools, text = await self._final_results(session, None, forfeits)
            await self.storage.finish_game(
                session.game_id,
                entries,
                session.snapshot(events=events, version=new_version, forfeits=forfeits),
                expected_version=session.version,
                new_version=new_version,
            )
            session.events = events
            session.version = new_version
            session.deadline = None
            session.forfeits = forfeits
            session.strikes = strikes
            session.ended_by = seat
            session.forfeit_seats, session.forfeit_text = fools, text
            session.status = "finished"
            self._retire(session)
            log.info("game %d: ended, seat %d forfeited (%s)", session.game_id, seat, reason)
            return
        events = deque(session.events, maxlen=EVENTS_KEPT)
        events.append(PublicEvent("left" if reason == "left" else "kicked", seat))
        info = session.seats[seat]
        # The deadline is recomputed: the seat's turn (if it was one) now belongs to a computer.
        deadline = self._deadline_policy(session, session.game)
        await self.storage.leave_running_game(
            session.game_id,
            seat,
            session.snapshot(
                events=events, version=new_version, deadline=deadline, forfeits=forfeits
            ),
            expected_version=session.version,
            new_version=new_version,
            deadline=deadline,
            timer_strikes={str(k): v for k, v in strikes.items()},
        )
        info.left = True
        info.difficulty = session.takeover_difficulty
        session.version = new_version
        session.events = events
        session.deadline = deadline
        session.reminded = False
        session.forfeits = forfeits
        session.strikes = strikes
        log.info(
            "game %d: seat %d forfeited (%s), a computer takes over", session.game_id, seat, reason
        )

    async def _final_results(
        self, session: GameSession, result: Any, forfeits: dict[int, str]
    ) -> tuple[list[st.ResultEntry], tuple[int, ...], str | None]:
        """Result rows of every human seat, who gets the forfeit task, and the task.

        ``result`` None means the game ended on a forfeit: the forfeiters are its fools and the
        humans still playing win. Otherwise the engine decides, except that whoever forfeited
        earlier keeps ``forfeit``. The task goes to the humans (present or not) in the fool's
        place: the engine's fool, the losing team (the engine names no single fool there; the
        partners share one task), or the player whose forfeit ended the game. A draw has none.
        """
        if result is None:
            losers: tuple[int, ...] = (next(reversed(forfeits)),) if forfeits else ()
        elif result.kind == "team":
            losers = tuple(result.losers)
        elif result.kind == "fool" and result.fool is not None:
            losers = (result.fool,)
        else:
            losers = ()
        fools = tuple(s for s in losers if session.seats[s].user_id is not None)
        text = None
        if fools:
            text = await self.storage.pick_forfeit(session.guild_id, self._forfeit_rng)
        entries = []
        for s in session.seats:
            if s.user_id is None:
                continue
            reason: Any = forfeits.get(s.seat)
            if reason is not None:
                outcome: st.Outcome = "forfeit"
            elif result is None:
                outcome = "win"
            else:
                outcome = _outcome(result, s.seat)
            entries.append(
                st.ResultEntry(
                    s.user_id, s.seat, outcome, text if s.seat in fools else None, reason
                )
            )
        return entries, fools, text

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool = False) -> None:
        session = self._sessions.get(game_id)
        if session is not None:
            async with session.lock:
                if session.finished:
                    raise GameOver()
                self._check_host(session, user_id, can_manage)
                await self._cancel_locked(session, user_id)
        else:
            async with self._lobby_lock(game_id):
                info = await self._open_lobby(game_id)
                self._check_host(info, user_id, can_manage)
                await self.storage.cancel_game(game_id)
            log.info("game %d: lobby cancelled by %d", game_id, user_id)
        await self._publish(self.publisher.refresh(game_id))

    async def _cancel_locked(self, session: GameSession, user_id: int | None) -> None:
        await self.storage.cancel_game(session.game_id)
        session.status = "cancelled"
        session.cancelled_by = user_id
        self._retire(session)
        log.info("game %d: cancelled by %s", session.game_id, user_id)

    def _retire(self, session: GameSession) -> None:
        self._sessions.pop(session.game_id, None)
        self._remember_ended(session)
        for task in (session.ai_task, session.timer_task):
            if task is not None and task is not asyncio.current_task() and not task.done():
                task.cancel()

    def _remember_ended(self, session: GameSession) -> None:
        self._ended[session.game_id] = session
        while len(self._ended) > 256:  # bounded: old tables are rendered from storage
            self._ended.pop(next(iter(self._ended)))

    async def start(
        self,
        game_id: int,
        user_id: int,
        *,
        can_manage: bool = False,
        deal: Callable[[LobbyInfo, int], Game] | None = None,
    ) -> GameSession:
        """Deal and move the lobby to running; the seed comes from ``seed_factory``.

        ``deal`` makes the first position from the lobby and the seed instead of a fresh
        first deal: a rematch (:mod:`bot.game.rematch`) deals as the engine's ``next_deal``."""
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            count = len(info.seats)
            try:
                rules = info.rules(players=count)
            except RuleError as exc:
                if count < 2:
                    raise ServiceError("error.not_enough_players", min=2) from None
                raise ServiceError("error.bad_rules", reason=str(exc)) from None
            if not info.humans:
                raise ServiceError("error.not_enough_players", min=2)
            settings = await self.storage.get_guild_settings(info.guild_id)
            seed = self._seed_factory()
            game = deal(info, seed) if deal is not None else Game.new(rules, seed)
            seats = [SeatInfo(i, s.name, s.user_id, s.difficulty) for i, s in enumerate(info.seats)]
            session = GameSession(
                game_id=game_id,
                guild_id=info.guild_id,
                channel_id=info.channel_id,
                message_id=info.message_id,
                host_id=info.host_id,
                preset=info.preset,
                seats=seats,
                game=game,
                seed=seed,
                version=1,
                locale=info.locale,
                timer_seconds=settings.turn_timer_seconds,
                takeover_difficulty=settings.default_ai_difficulty,
                series=info.series,
            )
            session.deadline = self._deadline_policy(session, game)
            if session.seats[game.attacker].is_human:
                session.owed_ping = (game.attacker, "lead", 1)
            await self.storage.begin_game(
                game_id,
                [s.seat for s in info.seats],
                session.snapshot(deadline=session.deadline),
                version=1,
                deadline=session.deadline,
            )
            self._sessions[game_id] = session
            log.info("game %d: started with %d seats", game_id, count)
        await self._publish(self.publisher.refresh(game_id))
        await self._announce_pings(session, [(game.attacker, "lead")])
        self._kick_ai(session)
        self._arm_timer(session)
        return session

    # ----------------------------------------------------------------- playing

    async def act(
        self, game_id: int, user_id: int, expected_version: int, action: Action
    ) -> GameSession:
        """Apply one human action exactly once, or raise a :class:`ServiceError`.

        ``expected_version`` is the version the user's buttons were drawn for: if the game moved
        on since, the click is refused with :class:`StaleAction` and never applied, even when
        the action would still be legal (the player decided on a table that no longer exists).
        """
        session = self._sessions.get(game_id)
        if session is None:
            await self.require_player(game_id, user_id)  # raises the right refusal
            raise GameOver()
        async with session.lock:
            self._check_hand_open(session, user_id)
            seat = session.seat_of(user_id)
            if seat is None:
                raise NotAPlayer()
            if expected_version != session.version:
                raise StaleAction()
            if action.seat != seat:
                raise ServiceError("error.malformed_id")
            # A move of one's own ends a run of expired turns.
            strikes = {k: v for k, v in session.strikes.items() if k != seat}
            pings = await self._apply_locked(session, action, strikes=strikes)
        await self._after_change(session, pings)
        return session

    async def _apply_locked(
        self,
        session: GameSession,
        action: Action,
        *,
        strikes: dict[int, int] | None = None,
        before_events: Iterable[PublicEvent] = (),
    ) -> list[tuple[int, PingKind]]:
        """Validate on a copy, persist, then swap in. Caller holds ``session.lock``.

        ``strikes`` replaces the expired-turn counters (None keeps them); ``before_events``
        explain the move on the table (e.g. "ran out of time").
        """
        before = session.game
        candidate = before.copy()
        try:
            events = candidate.apply(action)
        except IllegalAction as exc:
            raise IllegalMove(exc.code) from None
        new_events = deque(session.events, maxlen=EVENTS_KEPT)
        new_events.extend(before_events)
        new_events.extend(public_events(events))
        new_version = session.version + 1
        new_strikes = session.strikes if strikes is None else strikes
        deadline = self._deadline_policy(session, candidate)
        pings = pings_between(before, candidate)
        owed_ping = session.owed_ping
        human_pings = [(seat, kind) for seat, kind in pings if session.seats[seat].is_human]
        if human_pings:
            owed_ping = (*human_pings[-1], new_version)
        snapshot = session.snapshot(
            candidate, new_events, new_version, deadline, owed_ping=owed_ping
        )
        fools: tuple[int, ...] = ()
        text: str | None = None
        if candidate.result is not None:
            results, fools, text = await self._final_results(
                session, candidate.result, session.forfeits
            )
            await self.storage.finish_game(
                session.game_id,
                results,
                snapshot,
                expected_version=session.version,
                new_version=new_version,
            )
        else:
            await self.storage.save_state(
                session.game_id,
                snapshot,
                session.version,
                new_version,
                deadline,
                timer_strikes={str(k): v for k, v in new_strikes.items()},
            )
        # Committed: only now does the live game change.
        session.game = candidate
        session.events = new_events
        session.version = new_version
        session.deadline = deadline
        session.reminded = False
        session.strikes = dict(new_strikes)
        session.forfeit_seats, session.forfeit_text = fools, text
        session.owed_ping = owed_ping
        log.debug("game %d v%d: %s", session.game_id, new_version, action.kind.value)
        if candidate.result is not None:
            session.status = "finished"
            self._retire(session)
            log.info("game %d: finished (%s)", session.game_id, candidate.result.kind)
        return pings

    async def _after_change(self, session: GameSession, pings: list[tuple[int, PingKind]]) -> None:
        await self._after_change_no_kick(session, pings)
        self._kick_ai(session)

    async def _announce_pings(
        self, session: GameSession, pings: list[tuple[int, PingKind]]
    ) -> None:
        for seat, kind in pings:
            if session.seats[seat].is_human:
                await self._publish(self.publisher.ping(session, seat, kind))

    async def _publish(self, call: Coroutine[Any, Any, None]) -> None:
        """Run a publisher call in the background: the action is committed already, the
        clicking user's reply must not wait for channel messages (Discord allows 3 s), and a
        Discord failure must not undo or hide the move."""
        task = asyncio.get_running_loop().create_task(self._guarded(call))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @staticmethod
    async def _guarded(call: Coroutine[Any, Any, None]) -> None:
        try:
            await call
        except Exception:
            log.exception("publishing failed")

    # ----------------------------------------------------------------- computer seats

    def _kick_ai(self, session: GameSession) -> None:
        if self._closing or session.finished:
            return
        if not any(s.computer for s in session.seats):
            return
        if session.ai_task is None or session.ai_task.done():
            session.ai_task = asyncio.get_running_loop().create_task(
                self._ai_loop(session), name=f"durak-ai-{session.game_id}"
            )

    def _ai_order(self, session: GameSession) -> list[int]:
        """Computer seats with something to do, defender first, then attackers by priority:
        the order in which waiting is always harmless (see engine.ai's contract)."""
        g = session.game
        order = [g.defender, *g.eligible_attackers(), *range(g.n)]
        seen: list[int] = []
        for seat in order:
            if seat in seen or not session.seats[seat].computer:
                continue
            if g.legal_actions(seat):
                seen.append(seat)
        return seen

    def _player(self, session: GameSession, seat: int) -> AiPlayer:
        key = (session.game_id, seat)
        if key not in self._players:
            kind = session.seats[seat].computer or TAKEOVER_DIFFICULTY
            self._players[key] = self._ai_factory(kind, f"{session.seed}:{seat}")
        return self._players[key]

    async def _ai_loop(self, session: GameSession) -> None:
        try:
            while not session.finished and not self._closing:
                order = self._ai_order(session)
                if not order:
                    return
                version = session.version
                await asyncio.sleep(self.ai_delay)
                if session.version != version:
                    continue  # a human moved meanwhile: look again
                acted = False
                for seat in order:
                    # The computer decides from its own observation only, off the event loop.
                    obs = session.game.observation(seat)
                    try:
                        choice = await asyncio.to_thread(self._player(session, seat).choose, obs)
                    except Exception:
                        # A broken computer must not freeze the table: make the move a timed
                        # out human would get (only when the game waits for this seat).
                        log.exception("game %d: computer seat %d failed", session.game_id, seat)
                        waited = seat in waiting_seats(session.game)
                        choice = safe_default(session.game, seat) if waited else None
                    if choice is None:
                        continue
                    async with session.lock:
                        if session.finished or session.version != version:
                            break
                        pings = await self._apply_locked(session, choice)
                    await self._after_change_no_kick(session, pings)
                    acted = True
                    break
                if not acted and session.version == version:
                    return  # every computer waits: the humans are to move
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: computer player failed", session.game_id)

    async def _after_change_no_kick(
        self, session: GameSession, pings: list[tuple[int, PingKind]]
    ) -> None:
        await self._publish(self.publisher.refresh(session.game_id))
        if session.status == "finished":
            await self._publish(self.publisher.finished(session))
        elif session.status == "running":
            await self._announce_pings(session, pings)
            self._arm_timer(session)

    # ----------------------------------------------------------------- turn timers

    def _timer_deadline(self, session: GameSession, game: Game) -> float | None:
        """Default deadline policy: the guild's turn length from now, whenever the game
        waits for somebody (human or computer); None when timers are off."""
        if session.timer_seconds <= 0 or not waiting_seats(game):
            return None
        return self.clock() + session.timer_seconds

    def _arm_timer(self, session: GameSession) -> None:
        """One timer task per game, for the current version's deadline. Called after every
        change and on resume; a task of an older version is cancelled (or simply finds the
        version moved on, when it is the caller itself)."""
        task = session.timer_task
        current = asyncio.current_task()
        if (
            task is not None
            and not task.done()
            and session.timer_version == session.version
            and session.deadline is not None
        ):
            return
        if task is not None and task is not current and not task.done():
            task.cancel()
        session.timer_task = None
        if self._closing or session.finished or session.deadline is None:
            return
        session.timer_version = session.version
        session.timer_task = asyncio.get_running_loop().create_task(
            self._timer_run(session, session.version, session.deadline),
            name=f"durak-timer-{session.game_id}",
        )

    async def _timer_run(self, session: GameSession, version: int, deadline: float) -> None:
        """Sleep (on the injected clock's terms) to the reminder, then to the deadline."""
        try:
            if not session.reminded and session.timer_seconds > 0:
                wait = deadline - session.timer_seconds / 2 - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                if session.version != version or session.finished:
                    return
                if self.clock() < deadline:
                    await self._remind(session, version, deadline)
            wait = deadline - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            if session.version != version or session.finished:
                return
            await self._expire(session, version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: turn timer failed", session.game_id)

    async def _remind(self, session: GameSession, version: int, deadline: float) -> None:
        """Half time: ping the humans the game waits for, once per turn (also across a
        restart: the flag is stored with the version it belongs to)."""
        async with session.lock:
            if session.version != version or session.finished or session.reminded:
                return
            if not await self.storage.mark_reminded(session.game_id, version):
                return
            session.reminded = True
            seats = [s for s in waiting_seats(session.game) if session.seats[s].is_human]
        for seat in seats:
            await self._publish(self.publisher.remind(session, seat, deadline))

    async def _expire(self, session: GameSession, version: int) -> None:
        """The turn ran out: each seat still waited for gets its safe default, or forfeits
        on its MAX_TIMER_STRIKES-th expiry in a row (humans only; a computer is just moved)."""
        pings: list[tuple[int, PingKind]] = []
        async with session.lock:
            if session.finished or session.version != version:
                return
            for seat in waiting_seats(session.game):
                if session.status != "running":  # a forfeit may have ended the game
                    break
                if seat not in waiting_seats(session.game):
                    continue  # an earlier default already settled it
                human = session.seats[seat].is_human
                strikes = dict(session.strikes)
                if human:
                    strikes[seat] = strikes.get(seat, 0) + 1
                    if strikes[seat] >= MAX_TIMER_STRIKES:
                        log.info("game %d: seat %d timed out too often", session.game_id, seat)
                        await self._forfeit_locked(session, seat, "timeout")
                        continue
                action = safe_default(session.game, seat)
                if action is None:
                    continue
                log.info("game %d: seat %d ran out of time", session.game_id, seat)
                note = PublicEvent("timeout", seat, amount=strikes.get(seat, 0) if human else 0)
                pings += await self._apply_locked(
                    session, action, strikes=strikes, before_events=[note]
                )
        await self._after_change(session, pings)

    # ----------------------------------------------------------------- lifecycle

    async def restore(self) -> list[GameSession]:
        """Load every running game of this process's shards after a restart; broken or
        human-less ones are cancelled rather than left running forever.

        Games of other shards are left alone (not parsed, not cancelled): the process of their shard
        restores them, and two processes resuming one game would both play its computer
        seats and both expire its turns."""
        restored: list[GameSession] = []
        others = 0
        for row in await self.storage.load_running_games():
            if not self.shards.owns(row.guild_id):
                others += 1
                continue
            try:
                session = await self._session_from_row(row)
            except (InvalidPosition, RuleError, KeyError, ValueError, TypeError):
                log.exception("game %d: stored state is unreadable; cancelling it", row.id)
                await self.storage.cancel_game(row.id)
                continue
            if not session.active_humans:
                await self.storage.cancel_game(row.id)
                log.info("game %d: no human left at restore; cancelled", row.id)
                continue
            self._sessions[row.id] = session
            restored.append(session)
        log.info(
            "restored %d running game(s) of %s (%d belong to other processes)",
            len(restored),
            self.shards.describe(),
            others,
        )
        return restored

    def resume(self, session: GameSession) -> None:
        """Let computer seats of a restored game continue and re-arm its turn timer from
        the stored deadline (a deadline that passed while the bot was down fires at once)."""
        self._kick_ai(session)
        self._arm_timer(session)

    async def _session_from_row(self, row: st.GameRow) -> GameSession:
        if row.state_json is None:
            raise ValueError("running game without state")
        data = json.loads(row.state_json)
        game = Game.from_dict(data["game"])
        seats = await self.storage.seats(row.id)
        settings = await self.storage.get_guild_settings(row.guild_id)
        session = GameSession(
            game_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.message_channel_id,
            message_id=row.table_message_id,
            host_id=row.host_id,
            preset=row.preset,
            seats=[
                SeatInfo(
                    s.seat,
                    s.display_name,
                    s.user_id,
                    s.ai_difficulty if s.left_at is None else settings.default_ai_difficulty,
                    s.left_at is not None,
                )
                for s in seats
            ],
            game=game,
            seed=int(data["seed"]),
            version=row.version,
            deadline=row.turn_deadline,
            locale=await self.guild_locale(row.guild_id, row.options.get("locale")),
            timer_seconds=settings.turn_timer_seconds,
            strikes={int(k): int(v) for k, v in row.timer_strikes.items()},
            reminded=row.turn_reminded,
            forfeits={int(k): str(v) for k, v in data.get("forfeits", {}).items()},
            takeover_difficulty=settings.default_ai_difficulty,
            series=Series.from_json(row.options.get("series")),
        )
        ping = data.get("ping")
        if ping is not None:
            session.owed_ping = (int(ping[0]), str(ping[1]), int(ping[2]))
        session.events.extend(PublicEvent.from_json(e) for e in data.get("events", []))
        if len(session.seats) != game.n:
            raise ValueError("seat rows do not match the stored game")
        return session

    async def shutdown(self) -> None:
        """Stop computer players and let queued announcements go out; the game state is
        already on disk after every action, so nothing else needs saving."""
        self._closing = True
        tasks = [
            task
            for s in self._sessions.values()
            for task in (s.ai_task, s.timer_task)
            if task is not None
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._background:
            await asyncio.wait(list(self._background), timeout=5)


def parse_action(seat: int, kind: str, cards: Iterable[str]) -> Action:
    """Build an action from custom_id parts; ValueError on anything malformed."""
    try:
        action_kind = ActionKind(kind)
    except ValueError:
        raise ValueError(f"unknown action kind {kind!r}") from None
    parsed = tuple(Card.parse(c) for c in cards)
    if action_kind in (ActionKind.ATTACK, ActionKind.TRANSFER):
        parsed = tuple(sorted(parsed))
    return Action(seat, action_kind, parsed)
