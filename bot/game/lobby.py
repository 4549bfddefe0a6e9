"""Lobbies: a table is opened, filled with humans and computers, left, cancelled or started."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from engine import Game
from engine.rules import PRESETS, RuleError

from .. import storage as st
from .core import _turn_timer
from .errors import (
    AlreadyPlaying,
    ChannelBusy,
    GameMissing,
    GameOver,
    NotAllowed,
    NotAPlayer,
    ServiceError,
)
from .house_rules import RULE_OVERRIDES, auto_done_for, rules_for, twist_options
from .lesson_plan import begin as begin_lesson
from .models import (
    AI_DIFFICULTIES,
    LOBBY_IDLE_MINUTES,
    GameSession,
    LeaveEffect,
    LobbyInfo,
    PlayerRef,
    SeatInfo,
)
from .play import _PlayFlow
from .records import record_header
from .snapshot import encode

log = logging.getLogger(__name__)


class _LobbyFlow(_PlayFlow):
    """Lobbies and their end: create, join, add/remove computers, leave, cancel, start."""

    # ----------------------------------------------------------------- lobby

    def _lobby_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        return self._lobby_locks.hold(game_id)

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
        invite_only: bool = False,
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
        deck_size = deck_size if deck_size is not None else int(defaults.get("deck_size", 36))
        if seats is None:
            seats = (
                int(defaults["seats"])
                if "seats" in defaults
                else self._largest_table(preset, overrides, deck_size)
            )
        if twist is not None:
            overrides = {**overrides, **twist_options(preset, twist, overrides, deck_size, seats)}
        try:
            rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
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
        if invite_only:
            options["invite_only"] = True  # kept off /durak games (bot/game/tables.py)
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
        log.info("game %d: lobby by %d (%s, up to %d seats)", game_id, host.user_id, preset, seats)
        await self._touch_lobby(game_id, guild_id)
        return await self.lobby(game_id)

    @staticmethod
    def _largest_table(preset: str, overrides: dict[str, Any], deck_size: int) -> int:
        """Seats are a maximum ("up to N") and Start takes whoever joined, so without a
        house rule a lobby offers the largest table the mode and deck allow: a third friend
        should never meet "The lobby is full" at a table opened for two."""
        for seats in range(6, 2, -1):
            try:
                rules_for(preset, {**overrides, "deck_size": deck_size}, seats)
            except RuleError:
                continue
            return seats
        return 2

    # ----------------------------------------------------------------- idle expiry

    async def _touch_lobby(self, game_id: int, guild_id: int | None = None) -> None:
        """Something happened in the lobby: its idle deadline starts again. The deadline
        is stored (so a restart keeps it) and a task waits for it."""
        if guild_id is None:
            row = await self.storage.get_game(game_id)
            if row is None or row.status != "lobby":
                return
            guild_id = row.guild_id
        settings = await self.storage.get_guild_settings(guild_id)
        minutes = int(settings.default_options.get("lobby_idle_minutes", LOBBY_IDLE_MINUTES))
        deadline = self.clock() + minutes * 60 if minutes > 0 else None
        await self.storage.set_lobby_deadline(game_id, deadline)
        self._arm_lobby_timer(game_id, deadline)

    def _arm_lobby_timer(self, game_id: int, deadline: float | None) -> None:
        old = self._lobby_timers.pop(game_id, None)
        if old is not None and old is not asyncio.current_task() and not old.done():
            old.cancel()
        if deadline is None or self._closing:
            return
        self._lobby_timers[game_id] = asyncio.get_running_loop().create_task(
            self._lobby_timer_run(game_id, deadline), name=f"durak-lobby-{game_id}"
        )

    async def _lobby_timer_run(self, game_id: int, deadline: float) -> None:
        try:
            wait = deadline - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            async with self._lobby_lock(game_id):
                expired = await self.storage.expire_lobby(game_id, now=self.clock())
            if expired:
                self._lobby_timers.pop(game_id, None)
                log.info("game %d: lobby expired after its idle time", game_id)
                await self._publish(self.publisher.refresh(game_id))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: lobby expiry failed", game_id)

    def _stop_lobby_timer(self, game_id: int) -> None:
        task = self._lobby_timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def restore_lobbies(self) -> int:
        """After a restart: wait again for each open lobby's stored deadline (one that
        passed while the bot was down expires at once); a lobby from before expiry existed
        gets a fresh idle time.

        A lobby whose table message was never recorded was being opened when the process
        stopped: nobody can reach it, so it is cancelled and listed in ``unopened`` for its
        channel notice ("… is opening a Durak table…") to be corrected."""
        count = 0
        for row in await self.storage.load_lobbies():
            if not self.shards.owns(row.guild_id):
                continue
            if row.table_message_id is None:
                await self.storage.cancel_game(row.id)
                self.unopened.append(row.id)
                log.info("game %d: its table was never opened (restart); cancelled", row.id)
                continue
            if row.turn_deadline is None:
                await self._touch_lobby(row.id, row.guild_id)
            else:
                self._arm_lobby_timer(row.id, row.turn_deadline)
            count += 1
        return count

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

    async def set_notice(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember the channel notice of a game played in a thread, so it can follow the
        game to its end (the publisher edits it) after a restart too."""
        await self.storage.update_game_options(game_id, {"notice": [channel_id, message_id]})

    async def set_invite(
        self, game_id: int, channel_id: int, message_id: int, invited: list[int]
    ) -> None:
        """Remember the invite posted for a lobby, so that its Join button is taken off and
        the invite says why once the lobby starts or closes (after a restart too)."""
        await self.storage.update_game_options(
            game_id, {"invite": [channel_id, message_id, list(invited)]}
        )

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
        await self._touch_lobby(game_id, info.guild_id)
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
        """Seat a computer; without ``difficulty`` at the lobby's level (its menu), else
        the guild's default."""
        if difficulty is None:
            row = await self.storage.get_game(game_id)
            if row is None:
                raise GameMissing()
            difficulty = (
                row.options.get("ai_level")
                or (await self.storage.get_guild_settings(row.guild_id)).default_ai_difficulty
            )
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
        await self._touch_lobby(game_id, info.guild_id)
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def set_computer_level(
        self, game_id: int, user_id: int, difficulty: str, *, can_manage: bool = False
    ) -> LobbyInfo:
        """The lobby's level menu: every computer seated plays at ``difficulty``, and so do
        those added next. It seats nobody: Add computer does that, so choosing a level never
        fills a seat that Add computer would then find taken."""
        if difficulty not in AI_DIFFICULTIES:
            raise ServiceError("error.malformed_id")
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            await self.storage.set_computer_level(game_id, difficulty)
        await self._touch_lobby(game_id, info.guild_id)
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
        await self._touch_lobby(game_id, info.guild_id)
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def hand_over(
        self, game_id: int, user_id: int, to_user: int, *, can_manage: bool = False
    ) -> LobbyInfo:
        """Make another seated human the host (who may start, cancel, add computers)."""
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            if to_user == info.host_id:
                raise ServiceError("error.already_host")
            if not any(s.user_id == to_user for s in info.humans):
                raise ServiceError("error.host_not_seated")
            await self.storage.set_host(game_id, to_user)
            log.info("game %d: host handed from %d to %d", game_id, info.host_id, to_user)
        await self._touch_lobby(game_id, info.guild_id)
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def leave(self, user_id: int) -> int:
        """Leave whatever lobby or game the user is in; returns that game's id.

        In a lobby the seat is freed (see :meth:`_leave_lobby`). In a running game a
        computer takes the seat over and the human will be recorded as having forfeited;
        when no human is left the game is cancelled.
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
        """Free the seat. The host leaving hands the lobby to the next human in seat order;
        only when no other human is left (or in a rematch, which keeps the same seats) is
        the lobby called off."""
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            seat = next((s.seat for s in info.seats if s.user_id == user_id), None)
            if seat is None:
                raise NotAPlayer()
            heir = next((s.user_id for s in info.humans if s.user_id != user_id), None)
            if info.series is not None or heir is None:
                await self.storage.cancel_game(game_id)
                self._stop_lobby_timer(game_id)
                log.info("game %d: lobby cancelled, %d left", game_id, user_id)
                cancelled = True
            else:
                if user_id == info.host_id:
                    await self.storage.set_host(game_id, heir)
                    # Remembered so the lobby can say so: a moved 👑 alone goes unnoticed.
                    await self.storage.update_game_options(game_id, {"host_left": [user_id, heir]})
                    log.info("game %d: host %d left; %d hosts now", game_id, user_id, heir)
                await self.storage.remove_seat(game_id, seat)
                cancelled = False
        if not cancelled:
            await self._touch_lobby(game_id, info.guild_id)
        await self._publish(self.publisher.refresh(game_id))

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        """The lobby's Leave button (the user must sit in *this* lobby)."""
        await self._leave_lobby(game_id, user_id)

    async def leave_game(self, game_id: int, user_id: int) -> LeaveEffect:
        """The confirmed leave of a running game: only for the game the user still plays
        (a stale confirmation, after the game ended or the user already left, is refused).
        Returns what the leave did, which the answer tells (the game may have changed since
        the question was asked)."""
        session = self._sessions.get(game_id)
        if session is None or session.finished:
            raise GameOver()
        return await self._leave_running(session, user_id)

    def leave_effect(self, game_id: int, user_id: int) -> LeaveEffect:
        """What this human leaving now would do (:meth:`GameSession.leave_effect`): the
        question asked before a leave has to say it."""
        session = self._sessions.get(game_id)
        seat = session.seat_of(user_id) if session is not None else None
        if session is None or seat is None:
            return LeaveEffect("takeover")
        return session.leave_effect(seat)

    def running_game(self, game_id: int) -> bool:
        """The game has started and not ended (leaving it forfeits)."""
        session = self._sessions.get(game_id)
        return session is not None and not session.finished

    async def _leave_running(self, session: GameSession, user_id: int) -> LeaveEffect:
        async with session.lock:
            seat = session.seat_of(user_id)
            if seat is None or session.finished:
                raise NotAPlayer()
            effect = session.leave_effect(seat)
            await self._forfeit_locked(session, seat, "left")
        await self._after_change(session, [])
        return effect

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool = False) -> None:
        session = self._sessions.get(game_id)
        if session is not None:
            async with session.lock:
                if session.finished:
                    raise GameOver()
                self._check_host(session, user_id, can_manage)
                await self._cancel_locked(session, user_id)
            await self._game_ended(session)
        else:
            async with self._lobby_lock(game_id):
                info = await self._open_lobby(game_id)
                self._check_host(info, user_id, can_manage)
                await self.storage.cancel_game(game_id)
                self._stop_lobby_timer(game_id)
            log.info("game %d: lobby cancelled by %d", game_id, user_id)
        await self._publish(self.publisher.refresh(game_id))

    async def _cancel_locked(self, session: GameSession, user_id: int | None) -> None:
        await self.storage.cancel_game(session.game_id)
        session.status = "cancelled"
        session.cancelled_by = user_id
        self._retire(session)
        log.info("game %d: cancelled by %s", session.game_id, user_id)

    async def start(
        self,
        game_id: int,
        user_id: int,
        *,
        can_manage: bool = False,
        deal: Callable[[LobbyInfo, int], Game] | None = None,
        seed: int | None = None,
        lesson: str | None = None,
    ) -> GameSession:
        """Deal and move the lobby to running; the seed comes from ``seed_factory`` unless
        given (a lesson's, :mod:`bot.game.lessons`).

        ``deal`` makes the first position from the lobby and the seed instead of a fresh
        first deal: a rematch (:mod:`bot.game.rematch`) deals as the engine's ``next_deal``.
        ``lesson`` names the lesson the game is (its tips start at the first position)."""
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
            records = await self.storage.record_settings(info.guild_id)
            seed = self._seed_factory() if seed is None else seed
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
                timer_seconds=_turn_timer(await self.storage.get_game(game_id), settings),
                spectator_delay=settings.spectator_delay,
                takeover_difficulty=settings.default_ai_difficulty,
                local_ranks=settings.local_ranks,
                series=info.series,
                hints_everywhere=records.hints_everywhere,
            )
            if lesson is not None:
                session.lesson = begin_lesson(lesson, game, session.learner)
            session.record_t0 = self.clock()
            record = record_header(session)
            session.deadline = self._deadline_policy(session, game)
            if session.pinged(game.attacker):
                session.owed_ping = (game.attacker, "lead", 1)
            await self.storage.begin_game(
                game_id,
                [s.seat for s in info.seats],
                encode(session),
                version=1,
                deadline=session.deadline,
                record=record,
            )
            self._sessions[game_id] = session
            self._stop_lobby_timer(game_id)
            log.info("game %d: started with %d seats", game_id, count)
        await self._publish(self.publisher.refresh(game_id))
        await self._announce_pings(session, [(game.attacker, "lead")])
        self._kick_ai(session)
        self._arm_timer(session)
        return session
