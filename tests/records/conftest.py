"""Record tests start several bots: the 105 card-emoji faces are drawn once per process
(a bot draws them at every start, which on a loaded machine outlasts simcord's start-up
settle)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from bot.cardart import emojis


@cache
def _faces() -> tuple[emojis.EmojiSpec, ...]:
    return tuple(emojis.wanted_emojis())


@pytest.fixture(autouse=True)
def drawn_faces(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    faces = _faces()
    monkeypatch.setattr(emojis, "wanted_emojis", lambda: list(faces))
    yield


# The bot fixtures of tests/bot (a real bot on a temporary database, the guild world).
from tests.bot.conftest import db_path, simcord_bot, world  # noqa: E402, F401
