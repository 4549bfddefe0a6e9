"""TablePictures: drawing happens in its worker thread, each scene once, failures are None."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.pictures import ATTACHMENT_NAME, ATTACHMENT_URL, Superseded, TablePictures, render_png
from bot.pictures.samples import sample_lobby, sample_session


@pytest.fixture
def pictures() -> Any:
    tp = TablePictures(cache_size=2)
    yield tp
    tp.close()


async def test_renders_off_the_loop_once_per_scene(
    pictures: TablePictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []

    def recording(scene: Any) -> bytes:
        threads.append(threading.current_thread())
        return render_png(scene)

    monkeypatch.setattr(pictures, "draw", recording)
    session = sample_session("podkidnoy", 2, "attack", seed=1)
    assert session is not None
    first = await pictures.png(session)
    again = await pictures.png(session)
    assert first is not None and again is first
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert threads[0].name.startswith("durak-picture")
    # A new version of the game is a new picture.
    action = session.game.all_legal_actions()[0]
    session.game.apply(action)
    session.version += 1
    moved = await pictures.png(session)
    assert moved is not None and moved != first and len(threads) == 2


async def test_cache_is_bounded(pictures: TablePictures) -> None:
    for players in (1, 2, 3):
        assert await pictures.png(sample_lobby(players, 4)) is not None
    assert len(pictures._cache) == 2 and pictures.renders == 3


async def test_a_failure_is_none_and_not_remembered(
    pictures: TablePictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(scene: Any) -> bytes:
        raise MemoryError("out of pixels")

    lobby = sample_lobby(2, 4)
    monkeypatch.setattr(pictures, "draw", broken)
    embed = discord.Embed(title="t")
    assert await pictures.attach(lobby, embed) == []
    assert embed.image.url is None and pictures.failures == 1
    monkeypatch.setattr(pictures, "draw", pictures.painter.png)
    files = await pictures.attach(lobby, embed)
    assert [f.filename for f in files] == [ATTACHMENT_NAME]
    assert files[0].description and embed.image.url == ATTACHMENT_URL


async def test_the_guild_setting_decides_and_a_broken_lookup_means_text() -> None:
    choices = {1: True, 2: False}

    async def settings(guild_id: int) -> Any:
        if guild_id not in choices:
            raise LookupError("database gone")
        return SimpleNamespace(pictures=choices[guild_id])

    tp = TablePictures(settings)
    try:
        lobby = sample_lobby(2, 4)
        for guild_id, files in ((1, 1), (2, 0), (3, 0)):
            lobby.guild_id = guild_id
            embed = discord.Embed(title="t")
            assert len(await tp.attach(lobby, embed)) == files
            assert (embed.image.url is not None) == bool(files)
        lobby.guild_id = 1
        assert await tp.attach(lobby, discord.Embed(), allowed=False) == []
    finally:
        tp.close()


async def test_no_scene_and_no_drawing_where_files_are_not_allowed(
    pictures: TablePictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []

    def scene(state: object) -> object:
        asked.append(state)
        raise AssertionError("no scene should be taken")

    monkeypatch.setattr(pictures, "scene", scene)
    embed = discord.Embed(title="t")
    assert await pictures.attach(sample_lobby(2, 4), embed, allowed=False) == []
    assert asked == [] and pictures.renders == 0 and embed.image.url is None


async def test_a_table_edit_superseded_in_the_queue_is_not_drawn_nor_sent() -> None:
    owed = {"version": 0}
    drawn: list[int] = []

    class Message:
        edits = 0

        async def edit(self, **kwargs: Any) -> None:
            Message.edits += 1

    tp = TablePictures(newer=lambda game_id, version: owed["version"] > version)
    tp.draw = lambda scene: drawn.append(scene.version) or render_png(scene)
    try:
        session = sample_session("podkidnoy", 2, "attack", seed=1)
        assert session is not None
        message: Any = Message()
        owed["version"] = session.version + 1  # the next move's edit is owed already
        with pytest.raises(Superseded):
            await tp.edit_table(message, session, embed=discord.Embed(), view=None)
        assert drawn == [] and Message.edits == 0 and tp.superseded == 1
        owed["version"] = session.version
        await tp.edit_table(message, session, embed=discord.Embed(), view=None)
        assert drawn == [session.version] and Message.edits == 1
        # The first message of a table (attach without supersede) is always drawn.
        session.version += 1
        assert len(await tp.attach(session, discord.Embed())) == 1
    finally:
        tp.close()


async def test_pictures_off_take_no_scene_and_a_game_moved_on_meanwhile_gets_none() -> None:
    """The scene is taken after the setting is read: with pictures off nothing is described
    (the event loop would pay for it), and a game that moved on while the setting came from
    the database gets no picture of a later moment than its text."""
    session = sample_session("podkidnoy", 2, "attack", seed=1)
    assert session is not None
    wants = {"pictures": False}
    during: list[Any] = []

    async def settings(guild_id: int) -> Any:
        for step in during:
            step()
        return SimpleNamespace(pictures=wants["pictures"])

    tp = TablePictures(settings)
    described: list[object] = []
    scene = tp.scene
    tp.scene = lambda state: described.append(state) or scene(state)  # type: ignore[method-assign]
    try:
        assert await tp.attach(session, discord.Embed()) == [] and described == []
        wants["pictures"] = True

        def moved() -> None:
            session.version += 1

        during.append(moved)
        embed = discord.Embed()
        assert await tp.attach(session, embed) == [] and embed.image.url is None
        with pytest.raises(Superseded):
            await tp.attach(session, discord.Embed(), supersede=True)
        assert described == [] and tp.renders == 0
        during.clear()
        assert len(await tp.attach(session, discord.Embed())) == 1 and described == [session]
    finally:
        tp.close()
