"""What an operator sees at start-up: one line per failure of the setup (no network, bad
token, unwritable disk), `--sync global` that registers and exits, `--health`, and no voice
warnings from a card game."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

import bot.__main__ as entry
import bot.app
from bot.app import DurakBot
from tests.bot.conftest import make_bot, make_config

ENV_KEYS = ("DISCORD_TOKEN", "LOG_LEVEL", "DEV_GUILD_ID", "DATABASE_PATH", "HEARTBEAT_FILE")


@pytest.fixture
def operator_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A token, a database in a temporary directory, no .env, logging left alone."""
    for key in (*ENV_KEYS, "SHARD_IDS", "SHARD_COUNT"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "durak.db"))
    monkeypatch.setattr(entry, "setup_logging", lambda level: None)
    return tmp_path


def test_unreachable_discord_is_one_line_and_exit_1(
    operator_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing listens on the discard port: the same ClientConnectorError as without network.
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    assert entry.main(["--sync", "none"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Cannot reach Discord (127.0.0.1:9: ")
    assert "\n" not in err and "Traceback" not in err
    assert not (operator_env / "durak.db").exists()  # it never got as far as the database


@pytest.mark.parametrize(
    ("exc", "status", "start"),
    [
        (discord.LoginFailure("Improper token"), 2, "Discord rejected DISCORD_TOKEN"),
        (discord.GatewayNotFound(), 1, "Cannot reach Discord (GatewayNotFound"),
        (TimeoutError(), 1, "Cannot reach Discord (TimeoutError"),
        (PermissionError(13, "Permission denied", "/data"), 1, "Cannot start (Permission denied"),
    ],
)
def test_setup_failures_are_one_line(exc: Exception, status: int, start: str) -> None:
    failure = entry.start_failure(exc)
    assert failure is not None
    text, code = failure
    assert text.startswith(start) and "\n" not in text and code == status


def test_bugs_keep_their_traceback() -> None:
    assert entry.start_failure(KeyError("x")) is None


def test_sync_global_registers_and_exits(
    operator_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[Any] = []

    async def fake_sync(config: Any, token: str) -> int:
        calls.append(token)
        return 7

    def no_run(self: DurakBot, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("--sync global must not start the bot")

    monkeypatch.setattr(bot.app, "sync_commands_only", fake_sync)
    monkeypatch.setattr(DurakBot, "run", no_run)
    assert entry.main(["--sync", "global"]) == 0
    assert calls == ["not.a.token"]
    out = capsys.readouterr().out
    assert "Registered 7 slash command(s)" in out and "without --sync global" in out


async def test_commands_only_client_syncs_without_database_or_games(tmp_path: Path) -> None:
    bot = DurakBot(make_config(tmp_path / "durak.db"), sync="global", commands_only=True)
    async with simcord.run(bot):
        assert bot.synced is not None and {c.name for c in bot.synced} == {"durak"}
        assert bot.storage is None and bot.service is None
        assert "durak" in {c.name for c in await bot.tree.fetch_commands()}
        await bot.close()
    assert not (tmp_path / "durak.db").exists()


def test_health_reads_the_heartbeat_file(
    operator_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main(["--health"]) == 2  # no HEARTBEAT_FILE configured
    beat = operator_env / "beat"
    monkeypatch.setenv("HEARTBEAT_FILE", str(beat))
    assert entry.main(["--health"]) == 1
    beat.write_text("1\n", encoding="utf-8")
    assert entry.main(["--health"]) == 0
    os.utime(beat, (1.0, 1.0))
    assert entry.main(["--health"]) == 1
    out = capsys.readouterr()
    assert "healthy: last heartbeat" in out.out and "last heartbeat" in out.err


def test_no_voice_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING, logger="discord"):
        DurakBot(make_config(tmp_path / "durak.db"))
    assert not [r for r in caplog.records if "voice" in r.getMessage()]


@pytest.mark.slow(sample=1)  # a bot subprocess: in make test, not make check
def test_sigterm_stops_the_bot_cleanly(tmp_path: Path) -> None:
    """`docker stop` sends SIGTERM to the bot as PID 1: it must close and exit 0 instead of
    being ignored until Docker kills it."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(60)
        port = server.getsockname()[1]
        script = (
            "import sys, discord.http, bot.__main__ as entry\n"
            f"discord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'\n"
            "sys.exit(entry.main(['--sync', 'none']))\n"
        )
        env = {
            **{k: v for k, v in os.environ.items() if k not in ENV_KEYS},
            "DISCORD_TOKEN": "not.a.token",
            "DATABASE_PATH": str(tmp_path / "durak.db"),
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        }
        proc = subprocess.Popen(
            [sys.executable, "-c", script], cwd=tmp_path, env=env, stderr=subprocess.PIPE
        )
        try:
            conn, _ = server.accept()  # the bot is logging in, and gets no answer
            with conn:
                proc.send_signal(signal.SIGTERM)
                _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err


async def test_ready_logs_the_invite_link_with_the_permissions_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.app import INVITE_PERMISSIONS

    bot = make_bot(tmp_path / "durak.db")
    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with simcord.run(bot) as env:
            await env.settle()
            await bot.close()
    ready = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ready as")]
    assert len(ready) == 1 and "all shards" in ready[0]
    assert f"permissions={INVITE_PERMISSIONS.value}" in ready[0]
    assert "scope=bot+applications.commands" in ready[0]
