"""``durak-bot migrate-db``: an SQLite database copied into PostgreSQL reads back the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.storage import ResultEntry, Storage
from tests.postgres import fresh_schema
from tests.storage.conftest import FakeClock
from tests.storage.helpers import start_lobby

GUILD = 100


async def _fill(st: Storage, clock: FakeClock) -> dict[str, int]:
    """Every kind of row: settings, edited forfeits, a finished game with results, a running
    game with a deadline and a computer seat, an open lobby, a cancelled game."""
    await st.update_guild_settings(GUILD, locale="ru", turn_timer_seconds=45, use_threads=True)
    await st.update_guild_settings(GUILD + 1, allowed_channel_ids=[7, 8])
    await st.add_forfeit(GUILD, "Спеть песню")
    await st.remove_forfeit(GUILD, 1)
    finished = await st.create_lobby(GUILD, 1, 1, "podkidnoy", {"deck": 36}, host_display_name="A")
    await st.add_seat(finished, user_id=2, display_name="B")
    await start_lobby(st, finished, '{"s": 1}', 1)
    clock.advance(100)
    await st.finish_game(
        finished,
        [ResultEntry(1, 0, "win"), ResultEntry(2, 1, "forfeit", "Спеть песню", "timeout")],
        '{"end": true}',
    )
    running = await st.create_lobby(GUILD, 2, 3, "perevodnoy", host_display_name="C")
    await st.add_seat(running, ai_difficulty="hard", display_name="Bot")
    await st.add_seat(running, user_id=2**62, display_name="Snowflake")  # a 64-bit Discord id
    await st.begin_game(running, [0, 1, 2], '{"s": 2}', 1, deadline=clock.now + 90.25)
    await st.save_state(
        running, '{"s": 3}', 1, 2, deadline=clock.now + 90.5, timer_strikes={"0": 1}
    )
    lobby = await st.create_lobby(GUILD, 3, 5, "podkidnoy", host_display_name="E")
    cancelled = await st.create_lobby(GUILD, 4, 6, "podkidnoy", host_display_name="F")
    await st.cancel_game(cancelled)
    return {"finished": finished, "running": running, "lobby": lobby, "cancelled": cancelled}


async def _snapshot(st: Storage, ids: dict[str, int]) -> list[object]:
    """What the bot can read back, through the public API."""
    out: list[object] = [
        await st.get_guild_settings(GUILD),
        await st.get_guild_settings(GUILD + 1),
        await st.list_forfeits(GUILD),
        await st.leaderboard(GUILD),
        await st.user_stats(GUILD, 2),
        await st.load_running_games(),
        await st.load_lobbies(),
        await st.user_active_game(2**62),
    ]
    for game_id in ids.values():
        out += [await st.get_game(game_id), await st.seats(game_id), await st.game_results(game_id)]
    return out


async def test_migrate_db_copies_everything_into_postgresql(
    tmp_path: Path, clock: FakeClock
) -> None:
    source = f"sqlite:///{tmp_path / 'durak.db'}"
    async with await Storage.open(source, clock=clock) as st:
        ids = await _fill(st, clock)
        expected = await _snapshot(st, ids)
    async with fresh_schema() as target:
        assert (
            await asyncio.to_thread(bot_main, ["migrate-db", "--from", source, "--to", target]) == 0
        )
        async with await Storage.open(target, clock=clock) as pg:
            assert pg.dialect == "postgresql"
            assert await _snapshot(pg, ids) == expected
            # ids continue after the copied ones instead of colliding with them
            new = await pg.create_lobby(GUILD, 9, 9, "podkidnoy")
            assert new > max(ids.values())
            assert (await pg.add_forfeit(GUILD, "Новый")).id is not None
        # a second copy into the now non-empty database is refused and changes nothing
        assert (
            await asyncio.to_thread(bot_main, ["migrate-db", "--from", source, "--to", target]) == 2
        )
        async with await Storage.open(target, clock=clock) as pg:
            assert len(await pg.load_lobbies()) == 2


def test_migrate_db_explains_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"sqlite:///{tmp_path / 'nope.db'}"
    assert bot_main(["migrate-db", "--from", missing, "--to", "postgresql://x/y"]) == 2
    assert "there is no SQLite database" in capsys.readouterr().err
    (tmp_path / "a.db").touch()
    to_sqlite = ["--to", f"sqlite:///{tmp_path / 'b.db'}"]
    assert bot_main(["migrate-db", "--from", str(tmp_path / "a.db"), *to_sqlite]) == 2
    assert "--to must be a PostgreSQL database" in capsys.readouterr().err
