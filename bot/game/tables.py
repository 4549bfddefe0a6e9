"""Open tables and spectators: what ``/durak games`` lists, joining a lobby from that list,
the host's "open to anyone" / "invite only" choice, and who may watch which game.

A lobby is *listed* while it is open, has a free seat and its host left it open to anyone;
"invite only" keeps it off the list, and a Join pressed on an old list refuses politely, but
the lobby's own Join button and an invite's still seat whoever presses them: the choice is
about advertising the table, not about locking a channel's members out of it. Joining from
the list is :meth:`~bot.game.lobby._LobbyFlow.join` itself, so a seat taken there is the
same seat, with the same refusals, as one taken on the lobby message.

Watching needs no state of its own here: a running game is watched through the public view
the Discord side keeps current (bot/surfaces/live_hands.py). The service only says which
game a command means and whether it can be watched, and refuses politely otherwise."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import GameMissing, ServiceError
from .lobby import _LobbyFlow
from .models import GameSession, LobbyInfo, PlayerRef, SeatInfo

__all__ = ["OpenTables", "RunningTable"]


@dataclass(frozen=True, slots=True)
class RunningTable:
    """A running game as the list shows it."""

    game_id: int
    preset: str
    channel_id: int
    seats: list[SeatInfo]


@dataclass(frozen=True, slots=True)
class OpenTables:
    """What ``/durak games`` shows: lobbies anyone may join, then games anyone may watch."""

    lobbies: list[LobbyInfo]
    running: list[RunningTable]


class _TablesFlow(_LobbyFlow):
    """The open-tables and spectators area of :class:`~bot.game.service.GameService`."""

    async def open_tables(self, guild_id: int) -> OpenTables:
        """Listed lobbies (oldest first: they have waited longest) and running games."""
        lobbies = []
        for row in await self.storage.guild_lobbies(guild_id):
            info = await self.lobby(row.id)
            if info.invite_only or info.series is not None or len(info.seats) >= info.max_seats:
                continue  # a rematch lobby waits for its own players
            lobbies.append(info)
        running = [
            RunningTable(gid, preset, channel, seats)
            for gid, preset, channel, seats in await self.running_games(guild_id)
        ]
        return OpenTables(lobbies, running)

    async def join_listed(self, game_id: int, player: PlayerRef) -> LobbyInfo:
        """Join from ``/durak games``: the lobby's own join, unless the host has made the
        lobby invite only since the list was drawn."""
        info = await self._open_lobby(game_id)
        if info.invite_only:
            raise ServiceError("tables.invite_only", game_id=game_id)
        return await self.join(game_id, player)

    async def set_invite_only(
        self,
        game_id: int,
        user_id: int,
        invite_only: bool | None = None,
        *,
        can_manage: bool = False,
    ) -> LobbyInfo:
        """The host's choice (None: the other one than now); the lobby message says it."""
        async with self._lobby_lock(game_id):
            info = await self._open_lobby(game_id)
            self._check_host(info, user_id, can_manage)
            value = (not info.invite_only) if invite_only is None else invite_only
            await self.storage.update_game_options(game_id, {"invite_only": value})
        await self._touch_lobby(game_id, info.guild_id)
        await self._publish(self.publisher.refresh(game_id))
        return await self.lobby(game_id)

    async def watchable(self, game_id: int, user_id: int) -> tuple[GameSession, int | None]:
        """The running game to watch and, for one of its players, their seat (a player is
        shown their hand instead); refuses a lobby, an ended game and an unknown id."""
        session = self.session(game_id)
        if session is not None and session.lesson is not None and session.seat_of(user_id) is None:
            raise ServiceError("watch.lesson", game_id=game_id)
        if session is not None and not session.finished:
            return session, session.seat_of(user_id)
        row = await self.storage.get_game(game_id)
        if row is None:
            raise GameMissing()
        if row.status == "lobby":
            raise ServiceError("watch.not_started", game_id=game_id)
        raise ServiceError("watch.ended", game_id=game_id)

    async def game_to_watch(self, guild_id: int, channel_id: int, game_id: int | None) -> int:
        """The game ``/durak watch`` means: the one named (of this server), else the one
        running in this channel, else the server's only running game."""
        if game_id is not None:
            row = await self.storage.get_game(game_id)
            if row is None or row.guild_id != guild_id:
                raise GameMissing()
            return game_id
        here = await self.storage.active_game_in_channel(channel_id)
        if here is not None and self.session(here) is not None:
            return here
        running = [
            r for r in await self.storage.running_games(guild_id) if "lesson" not in r.options
        ]
        if len(running) == 1:
            return running[0].id
        raise ServiceError("watch.which" if running else "watch.none")
