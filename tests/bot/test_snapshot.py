"""The stored snapshot of a running game: one encoder, one decoder, the format checked."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.game.models import GameSession, PublicEvent, SeatInfo
from bot.game.service import GameService
from bot.game.snapshot import SNAPSHOT_FORMAT, SnapshotFormatError, decode, encode
from bot.storage import Storage
from engine import Card, Game, RuleSet
from engine.ai import make_player
from engine.ai.arena import step


def _session(moves: int = 12) -> GameSession:
    game = Game.new(RuleSet.preset("podkidnoy", players=3), 7)
    players = [make_player("easy", f"7:{s}") for s in range(3)]
    for _ in range(moves):
        step(game, players)
    seats = [SeatInfo(s, f"p{s}", 100 + s, None) for s in range(3)]
    session = GameSession(5, 1, 2, 3, 100, "podkidnoy", seats, game, 7, 13, deadline=99.5)
    session.events.extend(
        [PublicEvent("attack", 0, (Card.parse("6s"),), 1), PublicEvent("take", 1)]
    )
    session.forfeits = {2: "left"}
    session.owed_ping = (1, "defend", 13)
    session.out_groups = [[0]]
    session.record_t0 = 1234.5
    return session


def test_a_snapshot_decodes_to_what_was_encoded() -> None:
    session = _session()
    stored = decode(encode(session))
    assert stored.game.to_dict() == session.game.to_dict()
    assert (stored.seed, stored.version, stored.deadline) == (7, 13, 99.5)
    assert list(stored.events) == list(session.events)
    assert stored.forfeits == {2: "left"}
    assert stored.owed_ping == (1, "defend", 13)
    assert stored.out_groups == [[0]]
    assert stored.record_t0 == 1234.5
    assert json.loads(encode(session))["format"] == SNAPSHOT_FORMAT


def test_a_state_is_encoded_before_the_session_takes_it() -> None:
    session = _session()
    nxt = replace(session.state(), version=14, deadline=None, forfeits={})
    stored = decode(encode(session, nxt))
    assert (stored.version, stored.deadline, stored.forfeits) == (14, None, {})
    assert session.version == 13  # the live session is untouched until the write commits
    session.reminded = True
    session.commit(nxt)
    assert (session.version, session.deadline, session.forfeits) == (14, None, {})
    assert not session.reminded  # a new version is a new turn


@pytest.mark.parametrize("fmt", [2, 0, "1", None])
def test_an_unknown_format_is_refused_clearly(fmt: object) -> None:
    data = json.loads(encode(_session()))
    data["format"] = fmt
    with pytest.raises(SnapshotFormatError, match=f"format {fmt!r} is not one this build reads"):
        decode(json.dumps(data))


def test_not_a_snapshot_is_refused() -> None:
    with pytest.raises(SnapshotFormatError):
        decode("[1, 2]")


def test_a_snapshot_stored_by_the_first_builds_still_loads() -> None:
    """The first builds stored only format, seed, version, deadline, game and events (no
    forfeits, owed ping, out groups or start time): such a game still restores."""
    session = _session(moves=60)
    full = json.loads(encode(session))
    old = {k: full[k] for k in ("format", "seed", "version", "deadline", "game", "events")}
    stored = decode(json.dumps(old))
    assert stored.game.to_dict() == session.game.to_dict()
    assert (stored.forfeits, stored.owed_ping, stored.record_t0) == ({}, None, 0.0)
    assert stored.out_groups == [[s] for s in session.game.out]
    assert list(stored.events) == list(session.events)


async def test_a_game_of_an_unknown_format_is_left_as_stored_at_restore(tmp_path: Path) -> None:
    """A snapshot from a newer build (say, after a rollback) is not damaged: the restore
    neither resumes it nor cancels it, so the build that wrote it can carry on."""
    data = json.loads(encode(_session()))
    data["format"] = SNAPSHOT_FORMAT + 1
    async with await Storage.open(tmp_path / "db.sqlite") as storage:
        game_id = await storage.create_lobby(1, 2, 100, "podkidnoy", {}, host_display_name="H")
        await storage.begin_game(game_id, [0], json.dumps(data))
        service = GameService(storage)
        assert await service.restore() == []
        row = await storage.get_game(game_id)
        assert row is not None and row.status == "running"
        assert row.state_json == json.dumps(data)
