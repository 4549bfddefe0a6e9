"""Sharding in-process: the shard formula, and that a process restores, times and plays only
the games of its own shards (several processes share one database)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import DurakBot
from bot.game.models import PlayerRef
from bot.game.service import GameService
from bot.sharding import ShardScope, shard_of
from bot.storage import Storage
from tests.bot.conftest import make_bot, make_config
from tests.bot.helpers import add_computer, custom_ids, message, service


def guild_on(shard: int, shard_count: int, n: int = 0) -> int:
    """A realistic snowflake whose timestamp bits put it on ``shard``."""
    return ((n * shard_count + shard) << 22) | 0x1234


def test_shard_of_is_discords_formula() -> None:
    assert shard_of(0, 1) == 0
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    for count in (1, 2, 3, 16):
        for shard in range(count):
            assert shard_of(guild_on(shard, count, n=5), count) == shard


def test_scope_owns_only_its_shards() -> None:
    everything = ShardScope()
    assert everything.is_everything and everything.owns(guild_on(1, 2))
    scope = ShardScope.of([0, 2], 4)
    assert [scope.owns(guild_on(s, 4)) for s in range(4)] == [True, False, True, False]
    assert scope.describe() == "shards 0,2 of 4"
    with pytest.raises(ValueError):
        ShardScope.of([4], 4)
    with pytest.raises(ValueError):
        ShardScope.of([0], None)


async def _running_game(service: GameService, guild_id: int, user_id: int) -> int:
    """A running game: one human (so restore keeps it) against a computer."""
    lobby = await service.create_lobby(guild_id, guild_id + 1, PlayerRef(user_id, f"p{user_id}"))
    await service.add_computer(lobby.game_id, user_id, "easy")
    session = await service.start(lobby.game_id, user_id)
    return session.game_id


async def test_restore_with_a_shard_filter_resumes_only_own_games(tmp_path: Path) -> None:
    db = tmp_path / "durak.db"
    async with await Storage.open(db) as storage:
        # Whoever acts first, a computer with no delay would move at once: keep it still.
        first = GameService(storage, ai_delay=3600, seed_factory=lambda: 7)
        mine = [await _running_game(first, guild_on(0, 2, n), 100 + n) for n in range(3)]
        theirs = [await _running_game(first, guild_on(1, 2, n), 200 + n) for n in range(2)]
        await first.shutdown()
        # A game of the other shard whose state this build could not read: the other
        # process decides about it, so this one must not cancel it either.
        broken = theirs[0]
        with contextlib.closing(sqlite3.connect(db)) as conn, conn:
            conn.execute("UPDATE games SET state_json = '{\"game\": 1}' WHERE id = ?", (broken,))
        before = {gid: (await storage.get_game(gid)) for gid in theirs}

        service = GameService(storage, ai_delay=0.0, shards=ShardScope.of([0], 2))
        restored = await service.restore()
        assert sorted(s.game_id for s in restored) == sorted(mine)
        for session in restored:
            service.resume(session)  # computers of own games may play now
        await asyncio.sleep(0.2)
        assert all(service.session(gid) is None for gid in theirs)
        for gid in theirs:
            row = await storage.get_game(gid)
            assert row is not None and before[gid] is not None
            assert (row.status, row.version) == ("running", before[gid].version)
        await service.shutdown()

        # The process of shard 1 takes exactly the other games (and cancels the broken one).
        other = GameService(storage, ai_delay=3600, shards=ShardScope.of([1], 2))
        assert [s.game_id for s in await other.restore()] == [theirs[1]]
        broken_row = await storage.get_game(broken)
        assert broken_row is not None and broken_row.status == "cancelled"
        await other.shutdown()


async def test_bot_passes_its_shard_range_to_discord_py(tmp_path: Path) -> None:
    bot = DurakBot(make_config(tmp_path / "x.db", shard_ids=(1, 3), shard_count=4))
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([1, 3], 4)
    assert bot.shard_scope == ShardScope.of([1, 3], 4)
    unsharded = DurakBot(make_config(tmp_path / "y.db", shard_count=None))
    assert (unsharded.shard_ids, unsharded.shard_count) == (None, None)
    assert unsharded.shard_scope.is_everything


async def test_a_restarted_process_resumes_only_the_games_of_its_shards(tmp_path: Path) -> None:
    """Through simcord: one process deals a game in a server of each of two shards; restarted
    as the process of shard 1, it resumes that server's game and leaves the other alone."""
    db = tmp_path / "durak.db"
    async with simcord.run(make_bot(db, shard_count=2, ai_delay_seconds=3600.0)) as env:
        games: dict[int, int] = {}
        for shard in (0, 1):
            guild = env.create_guild(f"Shard {shard} club", shard_id=shard)
            assert shard_of(guild.id, 2) == shard
            channel = guild.create_text_channel("games")
            host = guild.add_member(env.create_user(f"host{shard}"))
            created = await host.slash(channel, "durak new", seats=2)
            lobby_id = created.response.id
            await add_computer(host, channel, lobby_id)
            await host.click(message(channel, lobby_id), label="Start")
            show = custom_ids(message(channel, lobby_id), "durak:show:")[0]
            games[shard] = int(show.split(":")[2])
        assert {s.game_id for s in service(env).running_sessions()} == set(games.values())

        await env.bot.close()
        await env.restart_bot(make_bot(db, shard_count=2, shard_ids=(1,), ai_delay_seconds=0.01))
        svc = service(env)
        assert [s.game_id for s in svc.running_sessions()] == [games[1]]
        row = await svc.storage.get_game(games[0])
        assert row is not None and row.status == "running"
        await env.bot.close()
