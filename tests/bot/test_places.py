"""Nothing crosses servers: every component id that names a game, forged in another server
(or, on a public message, another channel), is refused privately by the door and shows
nothing of that game: no result, no seats, no names, no picture; and nothing changes."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.i18n import t
from tests.bot.helpers import message, play_out, service, start_against_computer
from tests.bot.test_play import start_game

REFUSAL = t("error.game_elsewhere", "en")


def _carrier_components(custom_id: str, values: list[str] | None) -> list[dict[str, Any]]:
    """The raw component rows of one forged button, or of one forged select."""
    if values is None:
        item: dict[str, Any] = {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}
    else:
        options = [{"label": v or "-", "value": v} for v in values]
        item = {"type": 3, "custom_id": custom_id, "options": options}
    return [{"type": 1, "components": [item]}]


async def _forge(env: simcord.Env, channel: Any, custom_id: str, values: list[str] | None) -> int:
    """A bot message in ``channel`` carrying just the forged component."""
    posted = await env.bot.get_partial_messageable(channel.id).send("carrier")
    env.backend.get_message(channel.id, posted.id).components = _carrier_components(
        custom_id, values
    )
    return posted.id


async def _click(actor: Any, msg: discord.Message, custom_id: str, values: list[str] | None) -> Any:
    if values is None:
        return await actor.click(msg, custom_id=custom_id)
    return await actor.select(msg, values[:1], custom_id=custom_id)


def _refused(result: Any, names: list[str]) -> None:
    assert result.acknowledged and result.ephemeral
    assert result.response is not None and result.response.ephemeral
    shown = result.response.message
    assert shown.content == REFUSAL, shown.content
    assert not shown.embeds and not shown.attachments and not shown.components
    assert not any(n in (shown.content or "") for n in names)
    assert not result.followups


@pytest.fixture
async def games(simcord_env: simcord.Env, world: Any) -> dict[str, Any]:
    """In server 1: a finished game (alice against a computer), a running one (bob and
    carol) and an open lobby (dave's, in a second channel). Server 2 has mallory, and alice,
    bob and dave are members of it too: a player forging their own game's id is refused
    just like a stranger."""
    env, channel = simcord_env, world["channel"]
    finished = await start_against_computer(channel, world["alice"], env)
    await play_out(env, channel, finished.game_id, [world["alice"]])
    running = await start_game(world, ["bob", "carol"])
    side = world["guild"].create_text_channel("side")
    lobby = await world["dave"].slash(side, "durak new", seats=3)
    lobby_id = int(lobby.response.components[0]["components"][0]["custom_id"].split(":")[2])
    guild2 = env.create_guild("Elsewhere")
    channel2 = guild2.create_text_channel("games")
    there = {n: guild2.add_member(world[n].user) for n in ("alice", "bob", "dave")}
    there["mallory"] = guild2.add_member(env.create_user("mallory"))
    return {
        "finished": finished.game_id,
        "running": running,
        "lobby": lobby_id,
        "side": side,
        "channel2": channel2,
        "there": there,
    }


def _forged_ids(env: simcord.Env, games: dict[str, Any], world: Any) -> list[tuple[str, Any]]:
    """(custom id, select values or None) of every kind of item that names a game."""
    f, r, lobby = games["finished"], games["running"], games["lobby"]
    session = service(env).session(r)
    assert session is not None
    v = session.version
    card = str(session.game.hand(0)[0])
    return [
        (f"durak:show:{r}", None),
        (f"durak:show:{f}", None),
        (f"durak:act:{r}:{v}:take:", None),
        (f"durak:act:{r}:{v}:attack:{card}", None),
        (f"durak:hand:{r}:{v}:0:-", None),
        (f"durak:card:{r}:{v}:-:{card}", None),
        (f"durak:cards:{r}:{v}:-:0", [card]),
        (f"durak:several:{r}:{v}", [f"attack:{card}"]),
        (f"durak:tgt:{r}:{v}:0", ["-"]),
        (f"durak:hint:{r}", None),
        (f"durak:leave:{r}:yes", None),
        (f"durak:lobby:{lobby}:join", None),
        (f"durak:lobby:{lobby}:cancel", None),
        (f"durak:lobby:{lobby}:ai", None),
        (f"durak:lobbyai:{lobby}", ["easy"]),
        (f"durak:lobbyhost:{lobby}", [str(world["alice"].id)]),
        (f"durak:again:{f}:play", None),
        (f"durak:again:{f}:no", None),
        (f"durak:rec:{f}:replay", None),
        (f"durak:rec:{f}:review", None),
        (f"durak:replay:{f}:0:0:next", None),
        (f"durak:replay:{f}:0:1:export", None),
        (f"durak:replayjump:{f}:0", ["1"]),
    ]


async def _state(env: simcord.Env, games: dict[str, Any]) -> Any:
    svc = service(env)
    running = svc.session(games["running"])
    assert running is not None
    lobby = await svc.lobby(games["lobby"])
    return (
        running.version,
        [s.user_id for s in running.seats],
        [(s.user_id, s.difficulty) for s in lobby.seats],
        lobby.status,
        await svc.game_row(games["lobby"] + 1),  # no rematch was opened
    )


@pytest.mark.slow(sample=1)  # a whole game first: in make test, not make check
async def test_forged_ids_of_another_server_are_refused_and_show_nothing(
    simcord_env: simcord.Env, world: Any, games: dict[str, Any]
) -> None:
    env, channel2, there = simcord_env, games["channel2"], games["there"]
    names = ["alice", "bob", "carol", "dave"]
    before = await _state(env, games)
    for custom_id, values in _forged_ids(env, games, world):
        for who in ("mallory", "alice", "bob", "dave"):
            posted = await _forge(env, channel2, custom_id, values)
            result = await _click(there[who], message(channel2, posted), custom_id, values)
            _refused(result, names if who == "mallory" else [n for n in names if n != who])
            assert message(channel2, posted).content == "carrier"  # never edited
    assert await _state(env, games) == before
    # On a private message of the other server (bob's own /durak rules answer) as well.
    for custom_id, values in _forged_ids(env, games, world)[2:6]:
        shown = await there["bob"].slash(channel2, "durak rules")
        stored = env.backend.get_message(channel2.id, shown.response.id)
        stored.components = _carrier_components(custom_id, values)
        result = await _click(there["bob"], shown.response.message, custom_id, values)
        _refused(result, ["alice", "carol", "dave"])
    assert await _state(env, games) == before


async def test_a_public_button_of_another_channel_is_refused(
    simcord_env: simcord.Env, world: Any
) -> None:
    """Same server, another channel: the lobby's Join forged under a message elsewhere."""
    env = simcord_env
    created = await world["alice"].slash(world["channel"], "durak new", seats=2)
    lobby_id = int(created.response.components[0]["components"][0]["custom_id"].split(":")[2])
    side = world["guild"].create_text_channel("side")
    custom_id = f"durak:lobby:{lobby_id}:join"
    posted = await _forge(env, side, custom_id, None)
    result = await world["bob"].click(message(side, posted), custom_id=custom_id)
    _refused(result, ["alice"])
    lobby = await service(env).lobby(lobby_id)
    assert [s.user_id for s in lobby.seats] == [world["alice"].id]
    # The real button, where the lobby is, still works.
    joined = await world["bob"].click(message(world["channel"], created.response.id), label="Join")
    assert joined.acknowledged and not joined.ephemeral
    lobby = await service(env).lobby(lobby_id)
    assert [s.user_id for s in lobby.seats] == [world["alice"].id, world["bob"].id]
