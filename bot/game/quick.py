"""Quick match (``/durak quick``): the server's queue, and opening the tables the pairing
(bot/game/matchmaking.py) finds through the same lobby path as ``/durak new``.

The queue is stored (migration 0010), so a restart keeps everyone's place and waiting time;
a table is taken out of the queue in one transaction before its lobby is made, so two
processes or two clicks cannot seat a player twice."""

from __future__ import annotations

from dataclasses import dataclass

from engine import PRESETS

from .errors import ServiceError
from .lobby import _LobbyFlow
from .matchmaking import pair
from .models import LobbyInfo, PlayerRef

__all__ = ["QuickAnswer", "QuickTable", "_QuickMatch"]

#: The rating of a player with no rated game yet (bot/ratings/model.py shows a newcomer so).
NEWCOMER_RATING = 1000


@dataclass(frozen=True)
class QuickTable:
    """A table the queue filled: its mode, the channel of its longest-waiting player (the
    host), its players, host first, and how many computers fill it (a computer offer taken,
    bot/game/quick_offers.py)."""

    mode: str
    channel_id: int
    players: tuple[PlayerRef, ...]
    computers: int = 0


@dataclass(frozen=True)
class QuickAnswer:
    """What ``/durak quick`` did: ``joined`` (else the player left the queue), the mode,
    how many wait for it now, and the tables it filled."""

    joined: bool
    mode: str
    waiting: int
    tables: tuple[QuickTable, ...] = ()


def table_size(mode: str) -> int:
    """The number of players a quick table of ``mode`` takes: the mode's own number (four
    for 2v2 partnerships), two for the modes any number can play."""
    preset = PRESETS.get(mode)
    return max(2, preset.players) if preset is not None else 2


class _QuickMatch(_LobbyFlow):
    """The quick-match queue."""

    async def quick_toggle(
        self,
        guild_id: int,
        channel_id: int,
        player: PlayerRef,
        mode: str | None,
        locale: str = "en",
    ) -> QuickAnswer:
        """Join the queue for ``mode`` (default: the server's mode), or leave it when
        already in it; then pair whoever can be paired. ``locale`` is the player's own
        language, kept for a computer offer sent later outside any interaction."""
        settings = await self.settings(guild_id)
        mode = mode or settings.default_preset
        if mode not in PRESETS:
            raise ServiceError("error.unknown_preset", preset=mode)
        if await self.storage.user_active_game(player.user_id) is not None:
            raise ServiceError("quick.already_playing")
        profile = await self.storage.rating_profile(guild_id, player.user_id)
        joined = await self.storage.queue_toggle(
            guild_id,
            player.user_id,
            mode=mode,
            channel_id=channel_id,
            name=player.name,
            rating=profile.display if profile.display is not None else NEWCOMER_RATING,
            locale=locale,
        )
        tables = await self.quick_pair(guild_id) if joined else ()
        if joined:
            self._queue_changed()
        waiting = sum(1 for w, _, _ in await self.storage.queue(guild_id) if w.mode == mode)
        return QuickAnswer(joined, mode, waiting, tables)

    def _queue_changed(self) -> None:
        """Someone joined: the queue's timer runs (bot/game/quick_offers.py)."""

    async def quick_leave(self, guild_id: int, user_id: int) -> bool:
        """Leave the queue (the Leave button); False when not in it any more."""
        return await self.storage.queue_leave(guild_id, user_id)

    async def quick_pair(self, guild_id: int) -> tuple[QuickTable, ...]:
        """Seat whoever can be seated now; each table leaves the queue in one transaction."""
        queue = await self.storage.queue(guild_id)
        where = {w.user_id: (channel, name) for w, channel, name in queue}
        sizes = {w.mode: table_size(w.mode) for w, _, _ in queue}
        tables: list[QuickTable] = []
        for group in pair([w for w, _, _ in queue], sizes, self.clock()):
            ids = [w.user_id for w in group]
            if not await self.storage.queue_take(guild_id, ids):
                continue
            players = tuple(PlayerRef(i, where[i][1]) for i in ids)
            tables.append(QuickTable(group[0].mode, where[ids[0]][0], players))
        return tuple(tables)

    async def open_quick_table(self, guild_id: int, table: QuickTable) -> LobbyInfo:
        """The table's lobby, everyone seated, as ``/durak new``, Join and Add computer
        (at the server's level) would make it."""
        host, *others = table.players
        info = await self.create_lobby(
            guild_id, table.channel_id, host, table.mode, len(table.players) + table.computers
        )
        for player in others:
            info = await self.join(info.game_id, player)
        for _ in range(table.computers):
            info = await self.add_computer(info.game_id, host.user_id)
        return info
