"""The Activity's area of the service: which game a browser at Discord's table means, and a
move sent in the engine's notation.

A move from the Activity is :meth:`~bot.game.play._PlayFlow.act` itself (the same lock,
version check, validation on a copy, commit, publishing), so a seat played from the browser
and a seat played from chat buttons are one game; only the parsing of the notation is new.
"""

from __future__ import annotations

from engine import Action, ActionParseError

from .errors import ServiceError
from .models import GameSession
from .play import _PlayFlow

__all__ = ["_ActivityFlow"]


class _ActivityFlow(_PlayFlow):
    """The Activity area of :class:`~bot.game.service.GameService`."""

    #: This process serves the Activity: table messages offer "Play at the table"
    #: (bot/surfaces/activity_views.py). Set by the bot when it starts the endpoint.
    activity_button: bool = False

    async def activity_game(
        self, user_id: int, channel_id: int | None
    ) -> tuple[GameSession, int | None] | None:
        """The running game the user sits in (their seat), else the game running in the
        channel the Activity was opened in (watched: no seat), else None. A lesson is its
        learner's alone (its thread is private), so it is never the game watched."""
        mine = await self.storage.user_active_game(user_id)
        session = self.session(mine) if mine is not None else None
        if session is not None and session.seat_of(user_id) is not None:
            return session, session.seat_of(user_id)
        if channel_id is not None:
            here = await self.storage.active_game_in_channel(channel_id)
            session = self.session(here) if here is not None else None
            if session is not None and (
                session.lesson is None or session.seat_of(user_id) is not None
            ):
                return session, session.seat_of(user_id)
        return None

    async def act_notation(
        self, game_id: int, user_id: int, expected_version: int, text: str
    ) -> GameSession:
        """Apply a move written in the engine's notation (``"0 attack 6s"``), as the
        Activity's client sends it; a seat that is not the sender's is refused by ``act``."""
        try:
            action = Action.parse(text)
        except (ActionParseError, ValueError):
            raise ServiceError("error.malformed_id") from None
        return await self.act(game_id, user_id, expected_version, action)

    async def activity_game_elsewhere(
        self, user_id: int, channel_id: int | None
    ) -> tuple[int, int | None] | None:
        """:meth:`activity_game`'s choice among the running games this process does not run
        (another process's shards; bot/activity/relay.py): the game's id and the user's
        seat, read from storage, since there is no session here to ask."""
        mine = await self.storage.user_active_game(user_id)
        for game_id in (mine, await self._channel_game(channel_id)):
            if game_id is None or self.session(game_id) is not None:
                continue
            row = await self.storage.get_game(game_id)
            if row is None or row.status != "running":
                continue
            seats = await self.storage.seats(game_id)
            seat = next((s.seat for s in seats if s.user_id == user_id and s.left_at is None), None)
            if seat is not None:
                return game_id, seat
            if game_id != mine and row.options.get("lesson") is None:
                return game_id, None
        return None

    async def _channel_game(self, channel_id: int | None) -> int | None:
        return None if channel_id is None else await self.storage.active_game_in_channel(channel_id)
