"""The base of the game service: its state and the queries every flow needs."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from engine import Game, InvalidPosition
from engine.rules import PRESETS, RuleError

from .. import storage as st
from ..config import AI_DELAY_DEFAULT
from ..sharding import ShardScope
from .errors import GameMissing, HandClosed, NotAPlayer, ServiceError
from .house_rules import DONE_STYLES, rules_for
from .keyed_locks import KeyedLocks
from .models import (
    FORFEIT_MAX_LENGTH,
    LEADERBOARD_PERIODS,
    LEADERBOARD_SORTS,
    TURN_TIMER_MAX_SECONDS,
    TURN_TIMER_MIN_SECONDS,
    AiFactory,
    AiPlayer,
    DeadlinePolicy,
    GameSession,
    LobbyInfo,
    NullPublisher,
    NullTournamentPublisher,
    Publisher,
    SeatInfo,
    TournamentPublisher,
    _default_ai_factory,
)
from .series import Series
from .snapshot import decode
from .turns import waiting_seats

log = logging.getLogger(__name__)


def _pair(value: Any) -> tuple[int, int] | None:
    """Two ids stored as a JSON list, or None (absent or unreadable)."""
    try:
        first, second = value
        return int(first), int(second)
    except (TypeError, ValueError):
        return None


class _ServiceCore:
    """State and plain queries of :class:`~bot.game.service.GameService`: the constructor,
    settings, forfeit texts and statistics, lookups, background publishing and the bookkeeping
    of ended games. The flows built on it (play, lobby) only add methods."""

    def __init__(
        self,
        storage: st.Storage,
        publisher: Publisher | None = None,
        *,
        clock: Callable[[], float] = time.time,
        ai_delay: float = AI_DELAY_DEFAULT,
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
        self._lobby_locks: KeyedLocks[int] = KeyedLocks()
        #: One lock per finished game whose rematch is being opened (see :mod:`.rematch`).
        self._rematch_locks: KeyedLocks[int] = KeyedLocks()
        #: One idle-expiry task per open lobby (see :mod:`.lobby`).
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        #: Lobbies found at a restart whose table never reached Discord (see restore_lobbies);
        #: their channel notice is corrected once the gateway is up.
        self.unopened: list[int] = []
        self._players: dict[tuple[int, int], AiPlayer] = {}
        self._closing = False
        self._background: set[asyncio.Task[None]] = set()
        #: Where tournaments are announced (see :mod:`.tournaments`); the bot attaches its own.
        self.tournament_publisher: TournamentPublisher = NullTournamentPublisher()
        #: One lock and one start timer per tournament (see :mod:`.tournaments`).
        self._tournament_locks: KeyedLocks[int] = KeyedLocks()
        self._tournament_timers: dict[int, asyncio.Task[None]] = {}
        #: Tournaments found at a restart, taken up once Discord is reachable.
        self._tournaments_to_resume: list[int] = []

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
                rules_for(preset, options, int(options.get("seats", 2)))
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
            session.timer_seconds = _turn_timer(row, settings)
            session.spectator_delay = settings.spectator_delay
            session.takeover_difficulty = settings.default_ai_difficulty
            session.local_ranks = settings.local_ranks
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

    async def forfeits(self, guild_id: int, locale: str) -> list[st.Forfeit]:
        """The server's dares; the built-in ones in ``locale`` (the reader's)."""
        return await self.storage.list_forfeits(guild_id, locale)

    async def add_forfeit(self, guild_id: int, text: str, locale: str) -> int:
        """Append a forfeit; returns its number in the list. The first edit keeps the
        built-in dares in ``locale``, the server's language, as the server's own."""
        try:
            await self.storage.add_forfeit(guild_id, text, locale=locale)
        except ValueError:
            raise ServiceError("forfeits.too_long", max=FORFEIT_MAX_LENGTH) from None
        return len(await self.storage.list_forfeits(guild_id))

    async def remove_forfeit(self, guild_id: int, number: int, locale: str) -> str:
        """Remove dare ``number``; a first edit keeps the rest in ``locale`` as for
        :meth:`add_forfeit`."""
        removed = await self.storage.remove_forfeit(guild_id, number, locale=locale)
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
            closed=options.get("closed"),
            expires_at=row.turn_deadline if row.status == "lobby" else None,
            host_left=_pair(options.get("host_left")),
            ai_level=options.get("ai_level"),
            invite_only=bool(options.get("invite_only", False)),
            created_at=row.created_at,
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
        """(game id, preset, channel id, seats) of every running game in a guild, but its
        lessons: a lesson is played in private."""
        out = []
        for row in await self.storage.running_games(guild_id):
            if row.options.get("lesson") is not None:
                continue
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

    async def _game_ended(self, session: GameSession) -> None:
        """A game ended (finished, or cancelled after its start): what else must follow is
        the business of an area that cares (a tournament scores its table)."""

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

    def _timer_deadline(self, session: GameSession, game: Game) -> float | None:
        """Default deadline policy: the guild's turn length from now, whenever the game
        waits for somebody (human or computer); None when timers are off."""
        if session.timer_seconds <= 0 or not waiting_seats(game):
            return None
        return self.clock() + session.timer_seconds

    async def _session_from_row(self, row: st.GameRow) -> GameSession:
        if row.state_json is None:
            raise ValueError("running game without state")
        stored = decode(row.state_json)
        game = stored.game
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
            seed=stored.seed,
            version=row.version,
            deadline=row.turn_deadline,
            locale=await self.guild_locale(row.guild_id, row.options.get("locale")),
            timer_seconds=_turn_timer(row, settings),
            spectator_delay=settings.spectator_delay,
            strikes={int(k): int(v) for k, v in row.timer_strikes.items()},
            reminded=row.turn_reminded,
            forfeits=stored.forfeits,
            owed_ping=stored.owed_ping,
            out_groups=stored.out_groups,
            record_t0=stored.record_t0,
            takeover_difficulty=settings.default_ai_difficulty,
            local_ranks=settings.local_ranks,
            series=Series.from_json(row.options.get("series")),
            lesson=stored.lesson,
        )
        session.events.extend(stored.events)
        session.hints = await self.storage.game_hints(row.id)
        records = await self.storage.record_settings(row.guild_id)
        session.hints_everywhere = records.hints_everywhere
        if len(session.seats) != game.n:
            raise ValueError("seat rows do not match the stored game")
        return session


def _turn_timer(row: st.GameRow | None, settings: st.GuildSettings) -> int:
    """A game's turn length: its own (a tournament game is always timed, see
    :mod:`.tournaments`), else the server's."""
    own = (row.options if row is not None else {}).get("turn_timer")
    return int(own) if own is not None else settings.turn_timer_seconds
