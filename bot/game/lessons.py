"""The lessons of ``/durak learn``: a private game against the cheapest computer.

A lesson is an ordinary game in every way the table and the hand care about, so it plays,
survives a restart and replays like any other; what makes it safe for a beginner is decided
here and in the play flow, never by the Discord side: the game is flagged in its stored
snapshot (:attr:`GameSession.lesson`), and a flagged game writes no result rows (so no rating,
stats, records, history or achievement counts it), hands out no dare, pings nobody, has no
turn timer, is kept off ``/durak games`` and ``/durak watch``, and belongs to no series,
tournament or quick match. The lessons a player finished are stored (migration 0014), so the
next ``/durak learn`` offers the next lesson, after a restart too.
"""

from __future__ import annotations

import logging
from typing import Any

from .. import storage as st
from .errors import AlreadyPlaying, ChannelBusy, ServiceError
from .lesson_plan import LESSON_LEVEL, LESSONS, first_game, next_lesson
from .lobby import _LobbyFlow
from .models import GameSession, LobbyInfo, PlayerRef

log = logging.getLogger(__name__)

__all__ = ["_LessonFlow"]


class _LessonFlow(_LobbyFlow):
    """Opening and finishing lessons, and what each player has learnt."""

    async def lessons_done(self, user_id: int) -> list[str]:
        """The lessons ``user_id`` has played to the end."""
        return await self.storage.lessons_finished(user_id)

    async def lesson_to_play(self, user_id: int, requested: str | None = None) -> str:
        """The lesson ``/durak learn`` opens: the one asked for, else the first one not
        finished yet, else the first (played again)."""
        if requested is not None:
            if requested not in LESSONS:
                raise ServiceError("learn.unknown", lesson=requested)
            return requested
        return next_lesson(await self.lessons_done(user_id)) or next(iter(LESSONS))

    async def open_lesson(
        self,
        guild_id: int,
        room_id: int,
        player: PlayerRef,
        lesson: str,
        *,
        discord_locale: str | None = None,
    ) -> LobbyInfo:
        """The lesson's table in ``room_id`` (its private thread), the learner and a
        computer seated; :meth:`begin_lesson` deals once the table has a message. The house
        rules of the server do not apply: every learner gets the same lesson."""
        plan = LESSONS[lesson]
        busy = await self.storage.active_game_in_channel(room_id)
        if busy is not None:
            raise ChannelBusy(busy)
        options: dict[str, Any] = {
            "seats": 2,
            "rules": {"deck_size": 36, "auto_done": True},
            "turn_timer": 0,
            "invite_only": True,
            "lesson": plan.name,
        }
        if discord_locale is not None:
            options["locale"] = discord_locale
        try:
            game_id = await self.storage.create_lobby(
                guild_id,
                room_id,
                player.user_id,
                plan.preset,
                options,
                host_display_name=player.name,
                thread_id=room_id,
            )
        except st.AlreadyInGame as exc:
            raise AlreadyPlaying(exc.game_id) from None
        try:
            await self.storage.add_seat(
                game_id, display_name="#1", ai_difficulty=LESSON_LEVEL, max_seats=2
            )
        except Exception:
            await self.storage.cancel_game(game_id)
            raise
        log.info("game %d: lesson %s for %d", game_id, lesson, player.user_id)
        return await self.lobby(game_id)

    async def begin_lesson(self, game_id: int, user_id: int, message_id: int) -> GameSession:
        """Deal the lesson's first position under its table message ``message_id``."""
        row = await self.storage.get_game(game_id)
        if row is None or row.options.get("lesson") not in LESSONS:
            raise ServiceError("learn.unknown", lesson="?")
        plan = LESSONS[str(row.options["lesson"])]
        await self.attach_message(game_id, message_id, thread_id=row.thread_id)
        return await self.start(
            game_id,
            user_id,
            deal=lambda info, _seed: first_game(plan, info.rules(players=2)),
            seed=plan.seed,
            lesson=plan.name,
        )

    async def _game_ended(self, session: GameSession) -> None:
        """A lesson played to its end (not left) is remembered as learnt."""
        lesson = session.lesson
        if (
            lesson is not None
            and session.status == "finished"
            and session.ended_by is None
            and session.game.result is not None
        ):
            learner = session.seats[session.learner].user_id
            if learner is not None:
                await self.storage.lesson_finished(learner, lesson.name)
        await super()._game_ended(session)
