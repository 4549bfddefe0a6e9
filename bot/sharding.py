"""Which guilds this process is responsible for.

Discord splits a bot's guilds over shards by ``(guild_id >> 22) % shard_count``: a guild's
events, and therefore every click and command in its channels, only ever arrive on the
gateway connection of that shard. When several processes share one database, each runs a
subset of the shards (``SHARD_IDS``), and whatever the bot does *on its own* (restoring games
after a restart, turn timers, computer players) must stay within the games of those shards,
otherwise two processes would both play a computer seat or expire the same turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ShardScope", "shard_of"]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers ``guild_id``'s events on (the formula of the Discord docs,
    "Sharding"). The one place the formula lives; everything else asks :class:`ShardScope`."""
    if shard_count < 1:
        raise ValueError(f"shard_count must be at least 1, got {shard_count}")
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardScope:
    """The shards one process runs. ``shard_ids=None`` means every shard (a single process,
    however many shards it runs), which owns every guild without knowing the shard count."""

    shard_ids: frozenset[int] | None = None
    shard_count: int | None = None

    def __post_init__(self) -> None:
        if self.shard_ids is None:
            return
        if self.shard_count is None:
            raise ValueError("a shard subset needs the total shard count")
        bad = sorted(s for s in self.shard_ids if not 0 <= s < self.shard_count)
        if bad or not self.shard_ids:
            raise ValueError(f"shard ids {sorted(self.shard_ids)} not in 0..{self.shard_count - 1}")

    @classmethod
    def of(cls, shard_ids: Iterable[int] | None, shard_count: int | None) -> ShardScope:
        return cls(None if shard_ids is None else frozenset(shard_ids), shard_count)

    @property
    def is_everything(self) -> bool:
        return self.shard_ids is None

    def owns(self, guild_id: int) -> bool:
        """Whether this process should act on its own for games of ``guild_id``."""
        if self.shard_ids is None:
            return True
        assert self.shard_count is not None  # guaranteed by __post_init__
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def describe(self) -> str:
        """For the log line at start-up, so an operator sees which process runs what."""
        if self.shard_ids is None:
            return "all shards"
        return f"shards {','.join(map(str, sorted(self.shard_ids)))} of {self.shard_count}"
