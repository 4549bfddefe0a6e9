"""The Activity's area of the service: which game a browser at Discord's table means, and a
move sent in the engine's notation.

A move from the Activity is :meth:`~bot.game.play._PlayFlow.act` itself (the same lock,
version check, validation on a copy, commit, publishing), so a seat played from the browser
and a seat played from chat buttons are one game; only the parsing of the notation is new.
"""

from __future__ import annotations

from engine import Action, ActionParseError

from .errors import ServiceError
from .lobby import _LobbyFlow
from .models import AI_DIFFICULTIES, GameSession, LobbyInfo, PlayerRef

__all__ = ["LOBBY_ACTIONS", "_ActivityFlow"]

#: What the Activity's lobby offers once a lobby is open, each the chat lobby's own button.
LOBBY_ACTIONS = ("join", "leave", "ai", "unai", "level", "start", "cancel")


class _ActivityFlow(_LobbyFlow):
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

    async def activity_lobby(self, user_id: int, channel_id: int | None) -> LobbyInfo | None:
        """The open lobby the user sits in, else the one open in the channel the Activity was
        opened in (joinable from there, like its chat message's Join), else None. A rematch
        lobby (its series keeps the same seats) is the chat's: its buttons say who plays."""
        for game_id in (
            await self.storage.user_active_game(user_id),
            await self.storage.active_game_in_channel(channel_id) if channel_id else None,
        ):
            if game_id is None or self.session(game_id) is not None:
                continue
            info = await self.lobby(game_id)
            if info.status == "lobby" and info.series is None:
                return info
        return None

    async def open_activity_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: PlayerRef,
        preset: str | None,
        seats: int | None,
        deck_size: int | None,
        *,
        discord_locale: str | None = None,
    ) -> LobbyInfo:
        """``/durak new`` from the Activity's form: the same channel check and the same
        :meth:`create_lobby` (the guild's house rules fill what the form leaves to them).
        The caller posts its message and attaches it, as the command does."""
        await self.check_channel(guild_id, channel_id)
        return await self.create_lobby(
            guild_id,
            channel_id,
            host,
            preset,
            seats,
            deck_size,
            discord_locale=discord_locale,
        )

    async def activity_lobby_action(
        self, game_id: int, player: PlayerRef, action: str, level: str | None = None
    ) -> None:
        """One of the chat lobby's buttons, pressed at the Activity's table: the same service
        call as the button's, so the host's rights, a full lobby, a closed one are refused
        alike."""
        user = player.user_id
        if action == "join":
            await self.join(game_id, player)
        elif action == "leave":
            await self.leave_lobby(game_id, user)
        elif action == "ai":
            await self.add_computer(game_id, user)
        elif action == "unai":
            await self.remove_computer(game_id, user)
        elif action == "level" and level in AI_DIFFICULTIES:
            await self.set_computer_level(game_id, user, level)
        elif action == "start":
            await self.start(game_id, user)
        elif action == "cancel":
            await self.cancel(game_id, user)
        else:
            raise ServiceError("error.malformed_id")

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
