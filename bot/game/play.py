"""The running game: a click becomes an engine action, computer seats play, turn timers
expire, players forfeit, and the result is written."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from engine import Action, IllegalAction

from .. import metrics
from .. import storage as st
from ..ratings import record_outs
from .core import _ServiceCore
from .errors import GameOver, IllegalMove, NotAPlayer, ServiceError, StaleAction
from .lesson_plan import advance as advance_lesson
from .models import (
    EVENTS_KEPT,
    MAX_TIMER_STRIKES,
    TAKEOVER_DIFFICULTY,
    AiPlayer,
    ForfeitOutcome,
    ForfeitReason,
    GameSession,
    PingKind,
    PublicEvent,
    public_events,
)
from .records import record_line, record_note
from .snapshot import encode
from .turns import computers_to_ask, pings_between, safe_default, waiting_seats

log = logging.getLogger(__name__)


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


class _PlayFlow(_ServiceCore):
    """Playing a running game: moves under the game's lock, computer seats, turn timers,
    forfeits and the final results."""

    # ----------------------------------------------------------------- playing

    async def act(
        self,
        game_id: int,
        user_id: int,
        expected_version: int,
        action: Action | Callable[[int], Action],
    ) -> GameSession:
        """Apply one human action exactly once, or raise a :class:`ServiceError`.

        ``expected_version`` is the version the user's buttons were drawn for: if the game moved
        on since, the click is refused with :class:`StaleAction` and never applied, even when
        the action would still be legal (the player decided on a table that no longer exists).
        ``action`` may be a function of the player's seat: a button names a move, not a seat,
        so the seat is the clicker's, looked up once, here, under the game's lock.
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
            if not isinstance(action, Action):
                action = action(seat)
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
        human_pings = [(seat, kind) for seat, kind in pings if session.pinged(seat)]
        if human_pings:
            owed_ping = (*human_pings[-1], new_version)
        out_groups = record_outs(session.out_groups, before.out, candidate.out)
        state = replace(
            session.state(),
            game=candidate,
            events=new_events,
            version=new_version,
            deadline=deadline,
            strikes=new_strikes,
            owed_ping=owed_ping,
            out_groups=out_groups,
            lesson=advance_lesson(session.lesson, candidate, session.learner, action),
        )
        snapshot = encode(session, state)
        fools: tuple[int, ...] = ()
        text: str | None = None
        line = record_line(session, action, before_events, self.clock())
        if candidate.result is not None:
            results, fools, text = await self._final_results(
                session, candidate.result, session.forfeits
            )
            started = time.perf_counter()
            await self.storage.finish_game(
                session.game_id,
                results,
                snapshot,
                expected_version=session.version,
                new_version=new_version,
                record_line=line,
            )
        else:
            started = time.perf_counter()
            await self.storage.save_state(
                session.game_id,
                snapshot,
                session.version,
                new_version,
                deadline,
                timer_strikes={str(k): v for k, v in new_strikes.items()},
                record_line=line,
            )
        metrics.move_committed(time.perf_counter() - started)
        # Committed: only now does the live game change.
        session.commit(state)
        session.forfeit_seats, session.forfeit_text = fools, text
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
            if session.pinged(seat):
                await self._publish(self.publisher.ping(session, seat, kind))

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

    def _player(self, session: GameSession, seat: int) -> AiPlayer:
        key = (session.game_id, seat)
        if key not in self._players:
            kind = session.seats[seat].computer or TAKEOVER_DIFFICULTY
            self._players[key] = self._ai_factory(kind, f"{session.seed}:{seat}")
        return self._players[key]

    async def _ai_loop(self, session: GameSession) -> None:
        try:
            while not session.finished and not self._closing:
                order = computers_to_ask(session)
                if not order:
                    return
                version = session.version
                await asyncio.sleep(self.ai_delay)
                if session.version != version:
                    continue  # a human moved meanwhile: look again
                acted = False
                for seat in order:
                    # The computer decides from its own observation only, off the event loop.
                    obs = session.observation(seat)
                    try:
                        choice = await asyncio.to_thread(
                            metrics.think,
                            session.seats[seat].computer or "?",
                            self._player(session, seat).choose,
                            obs,
                        )
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
            await self._game_ended(session)
        elif session.status == "running":
            await self._announce_pings(session, pings)
            self._arm_timer(session)

    # ----------------------------------------------------------------- turn timers

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

    async def _forfeit_locked(
        self, session: GameSession, seat: int, reason: ForfeitReason
    ) -> ForfeitOutcome:
        """``seat`` forfeits (left, or timed out too often). Caller holds ``session.lock``.

        The game goes on with a computer in the seat while enough humans remain
        (:meth:`GameSession.forfeit_outcome`); otherwise it ends here with the forfeiter as
        its fool, or, before anybody moved, without a fool and without a result row for
        anyone: a game nobody played is neither rated nor counted in stats or achievements.
        Returns what happened, for the forfeiter's answer.
        """
        outcome = session.forfeit_outcome(seat)
        forfeits = {**session.forfeits, seat: reason}
        new_version = session.version + 1
        strikes = {k: v for k, v in session.strikes.items() if k != seat}
        if outcome != "takeover":
            events = deque(session.events, maxlen=EVENTS_KEPT)
            events.append(PublicEvent("forfeit_end", seat, amount=int(reason == "timeout")))
            if outcome == "void":
                entries: list[st.ResultEntry] = []
                fools: tuple[int, ...] = ()
                text: str | None = None
            else:
                entries, fools, text = await self._final_results(session, None, forfeits)
            state = replace(
                session.state(),
                events=events,
                version=new_version,
                deadline=None,
                strikes=strikes,
                forfeits=forfeits,
            )
            await self.storage.finish_game(
                session.game_id,
                entries,
                encode(session, state),
                expected_version=session.version,
                new_version=new_version,
                record_line=record_note(session, "forfeit", seat, self.clock()),
            )
            session.commit(state)
            session.ended_by = seat
            session.forfeit_seats, session.forfeit_text = fools, text
            session.status = "finished"
            self._retire(session)
            log.info(
                "game %d: ended, seat %d forfeited (%s, %s)", session.game_id, seat, reason, outcome
            )
            return outcome
        events = deque(session.events, maxlen=EVENTS_KEPT)
        events.append(PublicEvent("left" if reason == "left" else "kicked", seat))
        info = session.seats[seat]
        # The deadline is recomputed: the seat's turn (if it was one) now belongs to a computer.
        deadline = self._deadline_policy(session, session.game)
        state = replace(
            session.state(),
            events=events,
            version=new_version,
            deadline=deadline,
            strikes=strikes,
            forfeits=forfeits,
        )
        await self.storage.leave_running_game(
            session.game_id,
            seat,
            encode(session, state),
            expected_version=session.version,
            new_version=new_version,
            deadline=deadline,
            timer_strikes={str(k): v for k, v in strikes.items()},
            record_line=record_note(
                session, "left" if reason == "left" else "forfeit", seat, self.clock()
            ),
        )
        info.left = True
        info.difficulty = session.takeover_difficulty
        session.commit(state)
        log.info(
            "game %d: seat %d forfeited (%s), a computer takes over", session.game_id, seat, reason
        )
        return outcome

    async def _final_results(
        self, session: GameSession, result: Any, forfeits: dict[int, str]
    ) -> tuple[list[st.ResultEntry], tuple[int, ...], str | None]:
        """Result rows of every human seat, who gets the forfeit task, and the task.

        ``result`` None means the game ended on a forfeit: the forfeiters are its fools and the
        humans still playing win. Otherwise the engine decides, except that whoever forfeited
        earlier keeps ``forfeit``. The task goes to the humans (present or not) in the fool's
        place: the engine's fool, the losing team (the engine names no single fool there; the
        partners share one task), or the player whose forfeit ended the game. A draw has none.
        A lesson has neither rows nor a task: it is never rated or counted.
        """
        if session.lesson is not None:
            return [], (), None
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
            text = await self.storage.pick_forfeit(
                session.guild_id, self._forfeit_rng, locale=session.locale
            )
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
