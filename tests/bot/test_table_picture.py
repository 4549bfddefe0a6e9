"""The picture of the table on the public message, through simcord: attached and shown in the
embed, replaced (not piled up) on every edit, off with the guild setting, and never able to
break a move when drawing fails."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot.pictures import ATTACHMENT_NAME, ATTACHMENT_URL, render_png, table_scene
from tests.bot.helpers import click_first_move, message, message_text, service
from tests.bot.test_play import start_game
from tests.pictures.pngdata import png_data


def _picture(msg: discord.Message) -> discord.Attachment | None:
    """The table picture, checked to be the one the embed shows (None if there is none)."""
    names = [a.filename for a in msg.attachments]
    assert names in ([], [ATTACHMENT_NAME]), names
    image = msg.embeds[0].image.url if msg.embeds else None
    if not names:
        assert image is None, "the embed points at a picture that was not attached"
        return None
    assert image is not None and (image == ATTACHMENT_URL or image.endswith(ATTACHMENT_NAME))
    return msg.attachments[0]


async def test_lobby_and_table_carry_the_picture(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice = world["channel"], world["alice"]
    created = await alice.slash(channel, "durak new", seats=2)
    lobby = created.response.message
    assert _picture(lobby) is not None
    await world["bob"].click(lobby, label="Join")
    assert _picture(message(channel, lobby.id)) is not None
    await alice.click(message(channel, lobby.id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None and session.message_id is not None
    table = message(channel, session.message_id)
    picture = _picture(table)
    assert picture is not None
    # The uploaded file is the picture of exactly this state (the same rows; the painter may
    # deflate them to other bytes, tests/pictures/pngdata.py).
    assert png_data(await picture.read()) == png_data(render_png(table_scene(session)))
    # A move later the picture was replaced, not added: still one attachment, now different.
    actor = world["alice"] if session.game.legal_actions(0) else world["bob"]
    await click_first_move(actor, channel, table)
    table = message(channel, session.message_id)
    after = _picture(table)
    assert after is not None
    assert png_data(await after.read()) == png_data(render_png(table_scene(session)))


async def test_pictures_off_means_text_only(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    saved = await mod.slash(channel, "durak settings", pictures="off")
    assert saved.ephemeral and "Pictures of the table" in message_text(saved.response.message)
    assert not (await service(simcord_env).settings(world["guild"].id)).pictures
    created = await alice.slash(channel, "durak new", seats=2)
    assert _picture(created.response.message) is None
    await alice.click(message(channel, created.response.id), label="Add computer")
    await alice.click(message(channel, created.response.id), label="Start")
    table = message(channel, created.response.id)
    assert _picture(table) is None and "Trump" in message_text(table)
    # Switched back on during the game: the running table gets its picture at once.
    await mod.slash(channel, "durak settings", pictures="on")
    assert _picture(message(channel, created.response.id)) is not None


async def test_a_failing_picture_leaves_the_text_table_and_the_move(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None and session.message_id is not None
    assert _picture(message(channel, session.message_id)) is not None

    def broken(scene: Any) -> bytes:
        raise RuntimeError("no pictures today")

    monkeypatch.setattr(simcord_env.bot.publisher.pictures, "draw", broken)
    version = session.version
    actor = world["alice"] if session.game.legal_actions(0) else world["bob"]
    await click_first_move(actor, channel, session.message_id)
    assert session.version == version + 1  # the move went through
    table = message(channel, session.message_id)
    # The stale picture is gone and the text table shows the new state.
    assert _picture(table) is None
    assert table.embeds and "Trump" in message_text(table)
    assert simcord_env.bot.publisher.pictures.failures >= 1


async def test_no_attach_files_permission_still_updates_the_text_table(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord refuses edits with files where the bot lacks *Attach Files*: the table is
    then edited without the picture, and the channel is not asked again for a while."""
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    session = service(simcord_env).session(game_id)
    assert session is not None and session.message_id is not None
    refused: list[int] = []
    real_edit = discord.PartialMessage.edit

    async def edit(self: discord.PartialMessage, **fields: Any) -> Any:
        if fields.get("attachments"):
            refused.append(self.id)
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})
        return await real_edit(self, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", edit)
    for _ in range(2):
        version = session.version
        actor = world["alice"] if session.game.legal_actions(0) else world["bob"]
        await click_first_move(actor, channel, session.message_id)
        assert session.version == version + 1
        table = message(channel, session.message_id)
        assert _picture(table) is None and "Trump" in message_text(table)
    assert refused == [session.message_id]  # the second edit did not try again
