"""Spectators (bot/surfaces/spectators.py) and open tables (bot/surfaces/tables_views.py),
through simcord: what a spectator receives is checked, payload by payload, against the
engine's public observation of the version it says it shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

from bot.game.models import GameSession, LobbyInfo, SessionState
from bot.pictures import TablePictures
from bot.pictures.scene import Scene
from bot.pictures.service import ATTACHMENT_URL
from bot.rendering.common import card_text
from engine import Game
from engine.cards import CARDS, bits
from tests.bot.helpers import (
    custom_ids,
    labels,
    message,
    message_text,
    play_out,
    service,
)
from tests.bot.test_live_hands import live
from tests.bot.test_play import start_game

MOVE = re.compile(r"\bMove (\d+)\.")


@pytest.fixture
def versions(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int, int], Game]:
    """Every committed game state, by (game, version): the truth a spectator is checked on."""
    seen: dict[tuple[int, int], Game] = {}
    commit = GameSession.commit

    def recording(self: GameSession, state: SessionState) -> None:
        seen[(self.game_id, state.version)] = state.game
        commit(self, state)

    monkeypatch.setattr(GameSession, "commit", recording)
    return seen


def payload_text(body: Any) -> str:
    """All a reader sees of a message payload (content, embeds, button labels)."""
    if not isinstance(body, dict):
        return ""
    body = body.get("data", body)  # an interaction callback wraps the message in "data"
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
        for field in embed.get("fields") or []:
            parts += [field.get("name") or "", field.get("value") or ""]
    for row in body.get("components") or []:
        for item in row.get("components") or []:
            parts.append(item.get("label") or "")
    return "\n".join(parts)


def spectator_payloads(env: simcord.Env, token: str) -> list[str]:
    """Every message the spectator's interaction sent or edited, in order."""
    return [
        payload_text(r.json)
        for r in env.http_requests
        if f"/{token}/" in r.path and r.method in ("POST", "PATCH")
    ]


def hidden_cards(game: Game) -> list[str]:
    """The cards the engine's public observation cannot place (in a hand unseen, or in the
    talon under the turned-up trump), as the English card text the embed would print."""
    obs = game.public_observation()
    return [card_text(CARDS[i], "en") for i in bits(obs.unseen_mask)]


def spectator_token(env: simcord.Env, game_id: int, user: Any) -> str:
    view = live(env).hand(game_id, user.id)
    assert view is not None and view.watching
    return str(view.interaction.token)


async def watch(actor: Any, channel: Any, session: GameSession) -> simcord.InteractionResult:
    assert session.message_id is not None
    table = message(channel, session.message_id)
    shown = await actor.click(table, custom_id=custom_ids(table, "durak:watch:")[0])
    assert shown.ephemeral and shown.response is not None
    return shown


async def play_watched(
    env: simcord.Env, world: Any, game_id: int, actors: list[Any], moves: int | None = None
) -> None:
    """Play by clicks, letting the spectator's coalesced edits go out after every move."""
    channel, done = world["channel"], 0
    while True:
        session = service(env).session(game_id)
        assert session is not None
        if session.finished or (moves is not None and done >= moves):
            return
        done += len(await play_out(env, channel, game_id, actors, stop_after=1))
        await env.advance_time(2)


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_spectator_watches_a_whole_game_and_never_sees_a_hidden_card(
    simcord_env: simcord.Env, world: Any, versions: dict[tuple[int, int], Game]
) -> None:
    channel, eve = world["channel"], world["eve"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    versions[(game_id, session.version)] = session.game  # the deal (no commit before it)
    await watch(eve, channel, session)
    token = spectator_token(simcord_env, game_id, eve)
    assert live(simcord_env).watching(game_id) == 1 and session.watchers == 1
    await simcord_env.advance_time(2)
    # The table tells the players how many watch.
    assert "👁 1 watching" in message_text(message(channel, session.message_id or 0))

    await play_watched(simcord_env, world, game_id, [world["alice"], world["bob"]])
    await simcord_env.advance_time(2)

    payloads = spectator_payloads(simcord_env, token)
    checked: set[int] = set()
    for text in payloads[:-1]:
        found = MOVE.search(text)
        assert found, f"a spectator view without its move number:\n{text}"
        version = int(found[1])
        game = versions[(game_id, version)]
        for card in hidden_cards(game):
            assert card not in text, f"hidden card {card} shown at move {version}:\n{text}"
        checked.add(version)
    # Live: the view followed the game move by move, from its first move to its end.
    assert min(checked) == 1 and len(checked) > 10
    final = payloads[-1]
    assert "The game is over" in final and "Refresh" not in final
    assert live(simcord_env).watching(game_id) == 0  # the view ended with the result


def pictured(env: simcord.Env, token: str) -> list[bool]:
    """For each message the spectator's interaction sent or edited: whether its embed shows
    the attached table picture."""
    out = []
    for r in env.http_requests:
        if f"/{token}/" in r.path and r.method in ("POST", "PATCH") and isinstance(r.json, dict):
            body = r.json.get("data", r.json)
            images = [(e.get("image") or {}).get("url") for e in body.get("embeds") or []]
            out.append(ATTACHMENT_URL in images)
    return out


async def test_delay_shows_the_table_one_move_behind(
    simcord_env: simcord.Env,
    world: Any,
    versions: dict[tuple[int, int], Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    channel, eve = world["channel"], world["eve"]
    drawn: list[Scene] = []  # the scenes of the spectators' pictures (not the channel's)
    describe = TablePictures.scene

    def recording(self: TablePictures, state: GameSession | LobbyInfo) -> Scene:
        scene = describe(self, state)
        if state is not service(simcord_env).session(state.game_id):
            drawn.append(scene)
        return scene

    monkeypatch.setattr(TablePictures, "scene", recording)
    saved = await world["mod"].slash(channel, "durak settings", spectator_delay=True)
    assert saved.ephemeral and "one move late" in message_text(saved.response.message)
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None and session.spectator_delay
    versions[(game_id, session.version)] = session.game
    shown = await watch(eve, channel, session)
    assert shown.response is not None
    # Before any move there is no earlier table to show.
    assert "starts after the next move" in message_text(shown.response.message)
    token = spectator_token(simcord_env, game_id, eve)
    actors = [world["alice"], world["bob"]]
    for _ in range(3):
        await play_watched(simcord_env, world, game_id, actors, moves=1)
        last = spectator_payloads(simcord_env, token)[-1]
        found = MOVE.search(last)
        assert found and int(found[1]) == session.version - 1, last
        assert "one move late" in last
        for card in hidden_cards(versions[(game_id, session.version - 1)]):
            assert card not in last
        # The picture is the table one move behind too, drawn from the public view only.
        assert pictured(simcord_env, token)[-1]
        earlier = versions[(game_id, session.version - 1)].public_observation()
        assert drawn[-1].version == session.version - 1
        assert drawn[-1].talon == earlier.talon_count
        assert drawn[-1].pairs == tuple(
            (int(a), None if d is None else int(d)) for a, d in earlier.table
        )


async def test_player_pressing_watch_gets_the_hand_and_spectator_the_way_to_watch(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None
    mine = await watch(world["alice"], channel, session)
    hand = live(simcord_env).hand(game_id, world["alice"].id)  # her live hand, not a view
    assert mine.response is not None and hand is not None and not hand.watching
    assert "Your hand" in message_text(mine.response.message)
    assert live(simcord_env).watching(game_id) == 0
    table = message(channel, session.message_id or 0)
    refused = await world["eve"].click(table, custom_id=f"durak:show:{game_id}")
    assert refused.ephemeral and refused.response is not None
    assert "Watch" in refused.response.content
    # /durak watch finds the game of the channel; Stop watching ends the count.
    watching = await world["eve"].slash(channel, "durak watch")
    assert watching.ephemeral and watching.response is not None
    assert live(simcord_env).watching(game_id) == 1
    # The players see how many watch (here on a redrawn hand).
    redrawn = await world["alice"].click(mine.response.message, label="Refresh")
    assert redrawn.response is not None
    assert "👁 1 watching" in message_text(redrawn.response.message)
    stopped = await world["eve"].click(watching.response.message, label="Stop watching")
    assert stopped.response is not None and "stopped watching" in stopped.response.content
    assert live(simcord_env).watching(game_id) == 0


async def test_games_lists_an_open_lobby_and_join_seats_the_player(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, eve = world["channel"], world["alice"], world["eve"]
    created = await alice.slash(channel, "durak new", seats=3)
    assert created.response is not None
    lobby_id = created.response.id
    listed = await eve.slash(channel, "durak games")
    assert listed.ephemeral and listed.response is not None
    text = message_text(listed.response.message)
    assert "#1" in text and "1/3 seats taken" in text and f"<@{alice.id}>" in text
    assert "<t:" in text  # how long it has waited, as Discord's own relative time
    joined = await eve.click(listed.response.message, label="Join #1")
    assert joined.ephemeral and joined.response is not None
    assert "You joined game #1" in joined.response.content
    info = await service(simcord_env).lobby(1)
    assert [s.user_id for s in info.seats] == [alice.id, eve.id]
    assert f"<@{eve.id}>" in message_text(message(channel, lobby_id))
    # Joining twice from the list is refused as the lobby's own Join refuses it.
    again = await eve.click(listed.response.message, label="Join #1")
    assert again.ephemeral and "already" in (again.response.content if again.response else "")

    # A running game is listed with Watch.
    await alice.click(message(channel, lobby_id), label="Start")
    listed = await world["carol"].slash(channel, "durak games")
    assert listed.response is not None and "Watch #1" in labels(listed.response.message)


async def test_invite_only_lobby_is_not_listed_and_refuses_a_join_from_the_list(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    created = await alice.slash(channel, "durak new", seats=3, invite_only=True)
    assert created.response is not None
    lobby_id = created.response.id
    assert "Invite only" in message_text(message(channel, lobby_id))
    listed = await bob.slash(channel, "durak games")
    assert listed.response is not None and "#1" not in message_text(listed.response.message)
    assert "No open lobbies" in message_text(listed.response.message)

    # Only the host may open it to anyone; then it is listed.
    refused = await bob.click(message(channel, lobby_id), label="Open to anyone")
    assert refused.ephemeral
    await alice.click(message(channel, lobby_id), label="Open to anyone")
    assert "Open to anyone" in message_text(message(channel, lobby_id))
    listed = await bob.slash(channel, "durak games")
    assert listed.response is not None and "Join #1" in labels(listed.response.message)

    # The host closes it again: a Join from the old list refuses politely.
    await alice.click(message(channel, lobby_id), label="Make invite only")
    stale = await bob.click(listed.response.message, label="Join #1")
    assert stale.ephemeral and stale.response is not None
    assert "invite only" in stale.response.content
    info = await service(simcord_env).lobby(1)
    assert [s.user_id for s in info.seats] == [alice.id]
    # The lobby's own Join still seats whoever is in the channel.
    await bob.click(message(channel, lobby_id), label="Join")
    info = await service(simcord_env).lobby(1)
    assert [s.user_id for s in info.seats] == [alice.id, bob.id]
