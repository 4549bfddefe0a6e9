"""Entry point behaviour, /durak hand and /durak games, and coalesced table edits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

import bot.__main__ as entry
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import (
    acting_seat,
    click_first_move,
    custom_ids,
    message,
    message_text,
    service,
)
from tests.bot.test_play import start_game


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """No token, no .env in the working directory, logging setup recorded not applied."""
    for key in ("DISCORD_TOKEN", "LOG_LEVEL", "DEV_GUILD_ID", "DATABASE_PATH"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    calls: list[Any] = []
    monkeypatch.setattr(entry, "setup_logging", lambda level: calls.append(level))
    return calls


def test_no_token_prints_one_sentence_and_exits_2(
    clean_env: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert entry.main(["--sync", "none"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == entry.NO_TOKEN_MESSAGE
    assert "\n" not in err and "Traceback" not in err
    assert "developer portal" in err and "DISCORD_TOKEN" in err and ".env" in err
    assert clean_env == ["INFO"]


def test_play_offline_starts_the_terminal_game(
    clean_env: list[Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import engine.play

    seen: list[Any] = []

    def fake_main(argv: list[str] | None = None, *args: Any, **kwargs: Any) -> int:
        seen.append(argv)
        return 0

    monkeypatch.setattr(engine.play, "main", fake_main)
    assert entry.main(["--play-offline"]) == 0
    assert seen == [[]]
    assert capsys.readouterr().err.strip() == entry.NO_TOKEN_MESSAGE


def test_bad_configuration_is_one_clear_line(
    clean_env: list[Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "chatty")
    assert entry.main([]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("Configuration error: LOG_LEVEL") and "\n" not in err


def test_sync_flag_is_validated(clean_env: list[Any]) -> None:
    with pytest.raises(SystemExit):
        entry.main(["--sync", "everywhere"])


async def test_hand_command_is_ephemeral_and_games_lists_tables(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    hand = await world["alice"].slash(channel, "durak hand")
    assert hand.ephemeral and hand.response is not None and hand.response.ephemeral
    assert hand.response.embeds[0].title == "Your hand"
    assert "Your hand" not in "".join(message_text(m) for m in channel.history(viewer=world["bob"]))

    games = await world["eve"].slash(channel, "durak games")
    assert games.ephemeral
    text = games.response.embeds[0].description or ""
    assert f"#{game_id}" in text and "alice" in text and "bob" in text and channel.mention in text


async def test_commands_sync_only_when_asked(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "sync.db")
    bot.sync_mode = "none"
    async with simcord.run(bot) as env:
        world = build_world(env)
        with pytest.raises(simcord.SetupError):
            await world["alice"].slash(world["channel"], "durak new")
        await env.bot.close()


async def test_table_edits_are_coalesced(tmp_path: Path) -> None:
    # An interval longer than simcord's settle timeout: pending edits wait for advance_time.
    async with simcord.run(make_bot(tmp_path / "edits.db", table_edit_interval=30.0)) as env:
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        created = await alice.slash(channel, "durak new")
        assert created.response is not None
        await world["bob"].click(created.response.message, label="Join")
        await env.advance_time(31)
        await alice.click(message(channel, created.response.id), label="Start")
        game_id = await service(env).game_for_user(alice.id)
        assert game_id is not None
        session = service(env).session(game_id)
        assert session is not None and session.message_id is not None
        path = f"/channels/{channel.id}/messages/{session.message_id}"

        def edits() -> int:
            return sum(1 for r in env.http_requests if r.method == "PATCH" and r.path == path)

        await env.advance_time(31)
        before = edits()
        table = message(channel, session.message_id)
        by_id = {world["alice"].id: world["alice"], world["bob"].id: world["bob"]}
        for _ in range(3):
            seat = acting_seat(session, range(2))
            assert seat is not None
            user = session.seats[seat].user_id
            assert user is not None
            await click_first_move(by_id[user], channel, table)
        # The first move is shown at once (nothing was edited for 30 s); the next two wait.
        assert edits() == before + 1
        assert session.version == 4
        await env.advance_time(29)
        assert edits() == before + 1
        await env.advance_time(2)
        assert edits() == before + 2  # one edit for two moves, showing the latest state
        last_moves = message_text(message(channel, session.message_id))
        assert "beats" in last_moves or "takes" in last_moves or "throws in" in last_moves
        assert custom_ids(message(channel, session.message_id)) == [
            f"durak:show:{game_id}",
            f"durak:watch:{game_id}:new",
        ]
        await env.bot.close()


async def test_private_answers_follow_the_users_language(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simcord hard-codes en-US; patch the payload like the smoke test's recipe does."""
    import simcord.interactions

    original = simcord.interactions.base_payload
    alice = world["alice"]

    def patched(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        if kwargs["user_id"] == alice.id:
            payload["locale"] = "ru"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", patched)
    channel = world["channel"]
    await start_game(world, ["alice", "bob"])
    ru = await alice.slash(channel, "durak hand")
    assert ru.response is not None and ru.response.embeds[0].title == "Ваши карты"
    labels = [c.label for row in ru.response.message.components for c in row.children]
    assert "Обновить" in labels
    en = await world["bob"].slash(channel, "durak hand")
    assert en.response is not None and en.response.embeds[0].title == "Your hand"
