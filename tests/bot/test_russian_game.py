"""A Russian game as a Russian player sees it, from ``/durak new`` to the result, the replay
and the review: not one English word and not one Latin rank letter (issue 27, done-when).

The scan reads what the bot sent Discord (every message, edit and interaction answer of the
game: content, embed title, description, fields, footer and author, button labels, menu
placeholders and options, thread names, the emojis on buttons and in text) and the text
source of every picture drawn meanwhile (the :class:`~bot.pictures.scene.Scene`: names,
labels, banner, the rank letters the cards are drawn with), not the pixels. Markup that a
Discord client shows in the reader's language or as a picture is set aside first: command
mentions, user, channel and role mentions, timestamps, the address behind a link's words;
custom emojis are checked on their
own (a court card in Russian must be the face with Russian letters).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest
import simcord

from bot.cardart.labels import rank_labels
from bot.game.reviews import ReviewQueue
from bot.pictures import service as picture_service
from bot.pictures.scene import Scene
from bot.surfaces import replay_views, review_views
from tests.bot.helpers import custom_ids, message, play_out, service
from tests.bot.test_server_life import interaction_locales
from tests.records.test_replay import replay_id

#: Shown by Discord in the reader's language, or as a picture: not words of ours.
_MARKUP = re.compile(
    r"</[^<>:]+:\d+>"  # a command mention
    r"|<@[!&]?\d+>|<#\d+>"  # user, role and channel mentions
    r"|<t:\d+(?::[a-zA-Z])?>"  # a timestamp
    r"|(?<=\])\(https://discord\.com/channels/[\d/]+\)"  # a link's target (its words count)
)
_EMOJI = re.compile(r"<a?:(\w+):\d+>")
#: The card emoji of a court card with Latin letters: dk_Qs_…, dk_tAh_… (not dk_ruQs_…).
_LATIN_COURT_EMOJI = re.compile(r"^dk_t?[JQKA][cdhs]_")
_LATIN = re.compile(r"[A-Za-z]+")
#: Keys whose text a reader sees; everything else (ids, urls, flags) is not read.
_SHOWN = {"content", "title", "description", "name", "value", "text", "label", "placeholder"}


def _texts(payload: Any, emojis: list[str]) -> Iterator[str]:
    """Every shown string of a request body; emoji names go to ``emojis``."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "emoji" and isinstance(value, dict):
                emojis.append(str(value.get("name") or ""))
            elif key in _SHOWN and isinstance(value, str):
                if not (key == "value" and "label" in payload):  # a menu option's value
                    yield value
            elif key not in ("attachments", "allowed_mentions", "message_reference"):
                yield from _texts(value, emojis)
    elif isinstance(payload, list):
        for item in payload:
            yield from _texts(item, emojis)


def _scene_texts(obj: Any) -> Iterator[str]:
    """Every string a picture is drawn from (the rank letters apart)."""
    if isinstance(obj, str):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name not in ("ranks", "kind", "tone"):  # letters checked apart; identifiers
                yield from _scene_texts(getattr(obj, f.name))
    elif isinstance(obj, tuple | list):
        for item in obj:
            yield from _scene_texts(item)


def english_in(text: str, emojis: list[str]) -> list[str]:
    """The Latin-letter words of ``text`` once markup is set aside (emoji names collected)."""
    emojis.extend(_EMOJI.findall(text))
    return _LATIN.findall(_EMOJI.sub(" ", _MARKUP.sub(" ", text)))


def test_the_scan_finds_english_and_latin_ranks() -> None:
    emojis: list[str] = []
    assert english_in("Ход: Q♠ </durak replay:12> <@3> <t:5:R>", emojis) == ["Q"]
    assert english_in("<:dk_Qs_0123abcd:9> Д♠ and", emojis) == ["and"]
    assert emojis == ["dk_Qs_0123abcd"] and _LATIN_COURT_EMOJI.match(emojis[0])
    assert not _LATIN_COURT_EMOJI.match("dk_ruQs_0123abcd")
    payload = {"embeds": [{"footer": {"text": "Игра"}, "fields": [{"name": "A", "value": "б"}]}]}
    assert list(_texts(payload, emojis)) == ["Игра", "A", "б"]


@pytest.mark.slow(sample=1)  # a whole game, its replay and a review: in make test
async def test_a_russian_game_shows_no_english_word(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, guild, channel, mod = simcord_env, world["guild"], world["channel"], world["mod"]
    await mod.slash(channel, "durak settings", threads=True)  # a thread: its name is read too
    alisa = guild.add_member(env.create_user("Алиса"))
    scenes: list[Scene] = []

    def spy(module: Any, name: str) -> None:
        build = getattr(module, name)

        def scene_of(*args: Any, **kwargs: Any) -> Scene:
            scene = build(*args, **kwargs)
            scenes.append(scene)
            return cast(Scene, scene)

        monkeypatch.setattr(module, name, scene_of)

    for module in (picture_service, replay_views, review_views):
        spy(module, "table_scene")
    spy(picture_service, "lobby_scene")
    env.bot.review_queue = ReviewQueue(ThreadPoolExecutor(1), iterations=4)  # type: ignore[attr-defined]
    first_request = len(env.http_requests)

    with interaction_locales(monkeypatch, {alisa.id: "ru"}, guild_locale="ru"):
        created = await alisa.slash(channel, "durak new", seats=2)
        assert created.response is not None
        (thread,) = channel.threads
        lobby = thread.history()[-1]
        game_id = int(custom_ids(lobby)[0].split(":")[2])
        await alisa.select(lobby, ["easy"], custom_id=f"durak:lobbyai:{game_id}")
        await alisa.click(message(thread, lobby.id), custom_id=f"durak:lobby:{game_id}:ai")
        await alisa.click(message(thread, lobby.id), custom_id=f"durak:lobby:{game_id}:start")
        session = service(env).session(game_id)
        assert session is not None and session.locale == "ru" and session.local_ranks
        await play_out(env, thread, game_id, [alisa])
        await env.settle()
        result = next(
            m
            for m in reversed(thread.history())
            if f"durak:rec:{game_id}:replay" in custom_ids(m, "durak:rec:")
        )
        opened = await alisa.slash(thread, "durak replay")
        assert opened.response is not None and opened.ephemeral
        view = opened.response.message
        for _ in range(6):
            view = (await alisa.click(view, custom_id=replay_id(view, "next"))).response.message
        view = (await alisa.click(view, custom_id=replay_id(view, "hands"))).response.message
        await alisa.click(view, custom_id=replay_id(view, "last"))
        reviewed = await alisa.click(
            message(thread, result.id), custom_id=f"durak:rec:{game_id}:review"
        )
        assert reviewed.response is not None and reviewed.response.embeds
        await env.settle()

    requests = [
        r
        for r in env.http_requests[first_request:]
        if r.method in ("POST", "PATCH", "PUT")
        and r.json is not None
        and re.search(r"/(messages|interactions|webhooks|threads)", r.path)
    ]
    assert len(requests) > 20, "the scan must see the game's messages"
    emojis: list[str] = []
    english: dict[str, list[str]] = {}
    for request in requests:
        for text in _texts(request.json, emojis):
            if words := english_in(text, emojis):
                english[text] = words
    assert english == {}, english
    assert any(e.startswith("dk_") for e in emojis), "card emojis were shown"
    assert not [e for e in emojis if _LATIN_COURT_EMOJI.match(e)], emojis

    tables = [scene for scene in scenes if scene.kind == "table"]
    assert len(tables) >= 3, "the table, the replay and the review pictures"
    assert all(scene.ranks == rank_labels("ru") for scene in tables)  # a lobby shows no card
    for scene in scenes:
        for text in _scene_texts(scene):
            assert not _LATIN.findall(text), (scene.kind, text)
