"""Schema migrations on both backends: fresh databases, in-place upgrades, refusals, WAL
(SQLite) and foreign keys."""

from __future__ import annotations

import asyncio
import fnmatch
import sqlite3
import sys
import tomllib
import zipfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bot.storage import MIGRATIONS_DIR, Storage, StorageError, load_migrations
from bot.storage.sqlite import SqliteDatabase
from tests.storage.helpers import start_lobby

ROOT = Path(__file__).resolve().parents[2]


async def _raw(st: Storage, *statements: tuple[str, Sequence[Any]]) -> None:
    """Write rows the way an older build did, bypassing today's methods (one transaction)."""
    async with st.database.transaction() as conn:
        for sql, params in statements:
            await conn.execute(sql, params)


async def _tables_and_columns(url: str, table: str) -> tuple[set[str], set[str]]:
    """(tables, columns of ``table``) of the database behind ``url``."""
    async with await Storage.open(url, target_version=0) as st, st.database.read() as conn:
        if st.dialect == "sqlite":
            cur = await conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            tables = {r[0] for r in await cur.fetchall()}
            cur = await conn.execute(f"PRAGMA table_info({table})")
            return tables, {r[1] for r in await cur.fetchall()}
        cur = await conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        tables = {r[0] for r in await cur.fetchall()}
        cur = await conn.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?",
            (table,),
        )
        return tables, {r[0] for r in await cur.fetchall()}


def test_migrations_are_numbered_without_gaps() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert len(migrations) >= 2


def test_migrations_are_read_as_package_resources() -> None:
    """The default location is the installed package, not a path next to the source tree:
    ``pip install .`` once shipped a bot that looked for ``site-packages/data/migrations``."""
    assert resources.files("bot").joinpath("migrations") == MIGRATIONS_DIR
    from_resources = load_migrations(resources.files("bot") / "migrations")
    assert from_resources == load_migrations()


def test_every_migration_is_declared_package_data() -> None:
    """A migration the wheel leaves out would only fail on a user's machine: check each file
    against the package-data globs that setuptools uses to build it."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["bot"]
    names = [m.name + ".sql" for m in load_migrations()]
    assert names
    for name in names:
        assert any(fnmatch.fnmatch(f"migrations/{name}", g) for g in globs), name


def test_loader_reads_migrations_from_a_zipped_package(tmp_path: Path) -> None:
    """Only the Traversable API is used, so a package imported from a zip (where the files
    have no filesystem path at all) yields the same migrations."""
    archive = tmp_path / "shipped.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("durak_shipped/__init__.py", "")
        for migration in load_migrations():
            zf.writestr(f"durak_shipped/migrations/{migration.name}.sql", migration.sql)
        zf.writestr("durak_shipped/migrations/README.txt", "not a migration")
    sys.path.insert(0, str(archive))
    try:
        directory = resources.files("durak_shipped") / "migrations"
        assert not isinstance(directory, Path)  # really read through the zip importer
        assert load_migrations(directory) == load_migrations()
    finally:
        sys.path.remove(str(archive))
        sys.modules.pop("durak_shipped", None)


def test_empty_migration_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no migrations"):
        load_migrations(tmp_path)


async def test_fresh_database_reaches_latest_version(db_url: str) -> None:
    latest = load_migrations()[-1].version
    async with await Storage.open(db_url) as st:
        assert st.schema_version == latest
    async with await Storage.open(db_url) as st:  # reopening applies nothing again
        assert st.schema_version == latest
    tables, _ = await _tables_and_columns(db_url, "games")
    assert {"guild_settings", "games", "game_seats", "active_players", "results", "forfeits"} <= (
        tables
    )


async def test_sqlite_file_is_in_wal_mode_with_its_version_in_user_version(db_path: Path) -> None:
    latest = load_migrations()[-1].version
    async with await Storage.open(db_path) as st:
        assert isinstance(st.database, SqliteDatabase)
        assert await st.database.journal_mode() == "wal"
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == latest
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"guild_settings", "games", "game_seats", "active_players", "results", "forfeits"} <= (
        tables
    )
    conn.close()


async def test_reopen_is_idempotent(db_url: str) -> None:
    async with await Storage.open(db_url) as st:
        game_id = await st.create_lobby(1, 2, 3, "podkidnoy")
    async with await Storage.open(db_url) as st:
        assert (await st.get_game(game_id)) is not None


async def test_two_processes_starting_at_once_migrate_once(db_url: str) -> None:
    opened = await asyncio.gather(Storage.open(db_url), Storage.open(db_url))
    latest = load_migrations()[-1].version
    assert [st.schema_version for st in opened] == [latest, latest]
    for st in opened:
        await st.close()


async def test_upgrade_in_place_keeps_data(db_url: str) -> None:
    async with await Storage.open(db_url, target_version=1, clock=lambda: 1000.0) as old:
        assert old.schema_version == 1
        game_id = await old.create_lobby(
            10, 20, 30, "perevodnoy", {"deck": 36}, host_display_name="H"
        )
        await start_lobby(old, game_id, '{"s": 1}', 1)
        # Forfeit columns do not exist yet: write a result with the old shape directly.
        await _raw(
            old,
            (
                "INSERT INTO results (game_id, guild_id, user_id, seat, outcome, preset,"
                " finished_at) VALUES (?, 10, 30, 0, 'fool', 'perevodnoy', 1000.0)",
                (game_id,),
            ),
            ("UPDATE games SET status = 'finished' WHERE id = ?", (game_id,)),
            ("DELETE FROM active_players", ()),
        )

    _, cols = await _tables_and_columns(db_url, "results")
    assert "forfeit_text" not in cols and "outcome" in cols

    async with await Storage.open(db_url) as st:
        assert st.schema_version == load_migrations()[-1].version
        game = await st.get_game(game_id)
        assert game is not None
        assert game.options == {"deck": 36}
        assert game.status == "finished"
        results = await st.game_results(game_id)
        assert [(r.user_id, r.outcome, r.forfeit_text) for r in results] == [(30, "fool", None)]
        stats = await st.user_stats(10, 30)
        assert stats.fools == 1
        # New feature works on the upgraded database.
        await st.add_forfeit(10, "Dance")
        assert (await st.list_forfeits(10))[-1].text == "Dance"


async def test_failed_migration_rolls_back(tmp_path: Path, db_url: str) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    good = load_migrations()[0]
    (migrations / f"{good.name}.sql").write_text(good.sql, encoding="utf-8")
    (migrations / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n", encoding="utf-8"
    )
    with pytest.raises(Exception, match=r"(?i)syntax"):
        await Storage.open(db_url, migrations_dir=migrations)
    tables, _ = await _tables_and_columns(db_url, "games")
    assert "half_done" not in tables and "games" in tables
    # the good migration stayed applied, the broken one is retried on the next start
    (migrations / "0002_broken.sql").write_text("CREATE TABLE fixed (x INTEGER);\n")
    async with await Storage.open(db_url, migrations_dir=migrations) as st:
        assert st.schema_version == 2


async def test_newer_database_is_refused(db_url: str) -> None:
    async with await Storage.open(db_url) as st:  # a later release recorded version 999
        if st.dialect == "sqlite":
            await _raw(st, ("PRAGMA user_version = 999", ()))
        else:
            record = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, 0)"
            await _raw(st, (record, ("0999_future",)))
    with pytest.raises(StorageError, match="newer than this code"):
        await Storage.open(db_url)


async def test_foreign_keys_enforced(storage: Storage) -> None:
    with pytest.raises(sqlite3.IntegrityError):  # what either backend raises (IntegrityError)
        await _raw(storage, ("INSERT INTO active_players (user_id, game_id) VALUES (1, 4242)", ()))
    assert await storage.user_active_game(1) is None


async def test_upgrade_from_schema_2_keeps_data_and_adds_timer_columns(db_url: str) -> None:
    """A database written by the previous release (schema 2, with settings, custom forfeits,
    a running game with a deadline and a finished game) is upgraded in place."""
    async with await Storage.open(db_url, target_version=2, clock=lambda: 5000.0) as old:
        assert old.schema_version == 2
        # the previous release's rows, written with its column set
        await _raw(
            old,
            (
                "INSERT INTO guild_settings (guild_id, locale, turn_timer_seconds, use_threads,"
                " allowed_channel_ids) VALUES (10, 'ru', 45, 1, '[20]'), (11, 'en', 30, 0, NULL)",
                (),
            ),
        )
        await old.add_forfeit(10, "Кукарекать под столом")
        running = await old.create_lobby(10, 20, 30, "podkidnoy", host_display_name="H")
        await old.add_seat(running, user_id=31, display_name="B")
        await start_lobby(old, running, '{"s": 1}', 1, deadline=5045.0)
        finished = await old.create_lobby(10, 21, 40, "teams-2v2", host_display_name="C")
        await _raw(
            old,
            (
                "INSERT INTO results (game_id, guild_id, user_id, seat, outcome, preset,"
                " finished_at, forfeit_text) VALUES (?, 10, 40, 0, 'forfeit', 'teams-2v2',"
                " 4000.0, 'Кукарекать под столом')",
                (finished,),
            ),
            ("UPDATE games SET status = 'finished' WHERE id = ?", (finished,)),
            ("DELETE FROM active_players WHERE game_id = ?", (finished,)),
        )

    _, cols = await _tables_and_columns(db_url, "games")
    assert "turn_reminded" not in cols and "turn_deadline" in cols

    async with await Storage.open(db_url, clock=lambda: 6000.0) as st:
        assert st.schema_version == load_migrations()[-1].version >= 3
        settings = await st.get_guild_settings(10)
        assert (settings.locale, settings.turn_timer_seconds, settings.use_threads) == (
            "ru",
            45,
            True,
        )
        assert settings.allowed_channel_ids == (20,)
        # Russian was a deliberate choice; English may just be the default.
        assert settings.locale_explicit
        other = await st.get_guild_settings(11)
        assert (other.turn_timer_seconds, other.locale_explicit) == (30, False)
        # Threads: guild 10 had turned them on and keeps them; guild 11's stored "off" was the
        # old default, so it follows the new one until an admin sets it.
        assert settings.threads_explicit and not other.threads_explicit
        assert other.use_threads
        assert (await st.get_player_prefs(40)).pings  # nobody has preferences yet
        assert (await st.list_forfeits(10))[-1].text == "Кукарекать под столом"
        game = await st.get_game(running)
        assert game is not None and game.status == "running"
        assert (game.turn_deadline, game.turn_reminded, game.version) == (5045.0, False, 1)
        assert await st.user_active_game(31) == running
        assert await st.mark_reminded(running, 1)
        assert (await st.get_game(running)).turn_reminded  # type: ignore[union-attr]
        assert not await st.mark_reminded(running, 7)  # a turn that is over
        rows = await st.game_results(finished)
        assert [(r.user_id, r.outcome, r.forfeit_text, r.forfeit_reason) for r in rows] == [
            (40, "forfeit", "Кукарекать под столом", None)
        ]
        board = await st.leaderboard(10)
        assert [(e.user_id, e.fools, e.forfeits) for e in board] == [(40, 1, 1)]
        # A new state clears the reminder, as every new turn must.
        await st.save_state(running, '{"s": 2}', 1, 2, 6090.0)
        game = await st.get_game(running)
        assert game is not None and not game.turn_reminded and game.turn_deadline == 6090.0


async def test_upgrade_to_table_pictures_keeps_settings_and_turns_pictures_on(
    db_url: str,
) -> None:
    """Guilds that existed before migration 0005 get pictures (the new default)."""
    async with await Storage.open(db_url, target_version=4, clock=lambda: 5000.0) as old:
        await _raw(
            old,
            ("INSERT INTO guild_settings (guild_id, locale, use_threads) VALUES (10, 'ru', 1)", ()),
        )
    async with await Storage.open(db_url, clock=lambda: 6000.0) as st:
        settings = await st.get_guild_settings(10)
        assert (settings.locale, settings.use_threads, settings.pictures) == ("ru", True, True)
        off = await st.update_guild_settings(10, pictures=False)
    async with await Storage.open(db_url, clock=lambda: 7000.0) as st:
        assert await st.get_guild_settings(10) == off
