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
import logging

from engine import InvalidPosition
from engine.rules import RuleError

from .activity import _ActivityFlow
from .history import _HistoryQueries
from .lessons import _LessonFlow
from .models import GameSession
from .puzzles import _PuzzleFlow
from .queries import _Queries
from .quick_offers import _QuickOffers
from .records import _ReplayFlow
from .rematch import _RematchFlow
from .snapshot import SnapshotFormatError
from .tables import _TablesFlow
from .tournaments import _TournamentFlow

log = logging.getLogger(__name__)


class GameService(
    _TournamentFlow,
    _RematchFlow,
    _TablesFlow,
    _ReplayFlow,
    _HistoryQueries,
    _QuickOffers,
    _LessonFlow,
    _PuzzleFlow,
    _ActivityFlow,
    _Queries,
):
    """Lobbies and games of every guild. One instance per bot process.

    Composed of mixins, one area of the service per module, each over the shared state and
    queries of :class:`~bot.game.core._ServiceCore`: :mod:`.play` (moves, computer seats,
    timers, forfeits), :mod:`.lobby` (lobbies, start, leave, cancel), :mod:`.rematch` ("Play
    again"), :mod:`.tables` (open tables, spectators), :mod:`.tournaments`, :mod:`.quick`
    and :mod:`.quick_offers` (quick match), :mod:`.lessons` (``/durak learn``),
    :mod:`.puzzles` (the daily puzzle), :mod:`.history` (a player's past games),
    :mod:`.records` (replays), :mod:`.activity` (the Activity's moves),
    :mod:`.queries` (what the Discord side reads and writes besides moves); this module adds
    the process lifecycle (restore, resume, shutdown). :class:`~bot.storage.store.Storage`
    is built the same way.

    Why mixins and not area objects (``service.lobbies.start``): every caller keeps one
    object and one flat vocabulary (``service.start``, ``service.act``), and the areas share
    the sessions, locks, clock and publisher without handing them to each other. A flow
    that calls another's methods inherits from it (lobby from play, rematch from lobby), so
    mypy checks those calls; a flow that needs only the core (replays) sits beside them. An
    area that would need a private of another is a sign its code is in the wrong flow. The
    rule is written down in docs/architecture.md."""

    # ----------------------------------------------------------------- lifecycle

    async def restore(self) -> list[GameSession]:
        """Load every running game of this process's shards after a restart; broken or
        human-less ones are cancelled rather than left running forever, and one stored in a
        snapshot format this build does not read is left untouched (and not resumed).

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
            except SnapshotFormatError as exc:
                # Not damaged, only newer than this build (a rollback): left as it is, so the
                # build that wrote it resumes it; cancelling would throw the game away.
                log.error("game %d: not restored, left as stored: %s", row.id, exc)
                continue
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
        lobbies = await self.restore_lobbies()
        log.info("restored %d open lobby timer(s)", lobbies)
        tournaments = await self.restore_tournaments()
        log.info("restored %d tournament(s)", tournaments)
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

    async def shutdown(self) -> None:
        """Stop computer players and let queued announcements go out; the game state is
        already on disk after every action, so nothing else needs saving."""
        self._closing = True
        await self.stop_puzzles()
        tasks = [
            task
            for s in self._sessions.values()
            for task in (s.ai_task, s.timer_task)
            if task is not None
        ]
        tasks += list(self._lobby_timers.values())
        self._lobby_timers.clear()
        tasks += list(self._tournament_timers.values())
        self._tournament_timers.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._background:
            await asyncio.wait(list(self._background), timeout=5)
