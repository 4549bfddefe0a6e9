"""``/durak help`` for beginners, and the start-up check of the registered commands."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import DurakBot, commands_problem
from bot.i18n import set_command_ids, t
from tests.bot.conftest import build_world, make_config
from tests.bot.helpers import add_computer, leave_running, message, play_out, rules_details, service


async def test_help_explains_the_game_with_a_picture(simcord_env: simcord.Env, world: Any) -> None:
    result = await world["alice"].slash(world["channel"], "durak help")
    assert result.ephemeral
    msg = result.followups[-1] if result.followups else result.response.message
    embed = msg.embeds[0]
    assert embed.title == "How to play Durak"
    text = embed.description or ""
    assert "Get rid of all your cards" in text
    # A beginner is pointed to the lessons, and told of transfers and turn timers.
    assert re.search(r"</durak learn:\d+> plays a private lesson", text)
    assert "transfer the attack" in text and "turn timer" in text
    assert msg.attachments and msg.attachments[0].filename == "durak-table.png"


async def test_missing_commands_are_one_clear_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = DurakBot(make_config(tmp_path / "d.db"), sync="none", seed_factory=lambda: 1)
    with caplog.at_level(logging.INFO, logger="bot.app"):
        async with simcord.run(bot) as env:
            build_world(env)
            await env.bot.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert "not registered" in warnings[0] and "python -m bot --sync global" in warnings[0]
    assert not any("--sync none" in r.getMessage() for r in caplog.records)


def test_stale_commands_name_what_differs() -> None:
    local = [{"name": "durak", "options": [{"name": "help", "type": 1}]}]
    old = [{"name": "durak", "options": [{"name": "hint", "type": 1}]}]
    problem = commands_problem(local, old)
    assert problem is not None and "/durak/help" in problem and "/durak/hint" in problem
    assert commands_problem(local, local) is None


def test_text_names_commands_as_mentions_once_ids_are_known() -> None:
    try:
        set_command_ids({}, [])  # an earlier bot in this process may have synced
        assert "/durak me `pings:Off`" in t("me.pings_on_help", "en")
        assert "/дурак я `упоминания:Выключены`" in t("me.pings_on_help", "ru")
        set_command_ids({"durak": 42}, ["durak", "durak me", "durak help"])
        assert "</durak me:42> `pings:Off`" in t("me.pings_on_help", "en")
        assert "</durak me:42>" in t("me.pings_on_help", "ru")
        assert "</durak help:42>" not in t("rules.goal", "en")
        assert "/дурак правила" in t("rules.start", "ru")  # no id yet: the reader's words
    finally:
        set_command_ids({}, [])


async def test_rules_after_a_game_in_its_thread_show_the_mode_played(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    await mod.slash(channel, "durak settings", threads=True)
    await alice.slash(channel, "durak new", mode="prostoy", seats=2)
    (thread,) = channel.threads
    lobby = thread.history()[-1]
    await add_computer(alice, thread, lobby.id)
    await alice.click(message(thread, lobby.id), label="Start")
    await play_out(simcord_env, thread, 1, [alice], stop_after=2)
    await leave_running(alice, thread)  # the game ends (finished, with a result)
    assert service(simcord_env).session(1) is not None
    shown = await alice.slash(thread, "durak rules")
    embed = shown.response.embeds[0]
    assert embed.title is not None and embed.title.startswith("Rules of game #1")
    assert "nobody throws in" in (embed.description or "")
    details = await rules_details(alice, thread)
    fields = {f.name: f.value for f in details.embeds[0].fields}
    assert fields["Who throws in"].startswith("**nobody**")
    # The empty mode list puts this server's most played mode first and says more exist.
    options = await alice.autocomplete(channel, "durak new", "mode", "")
    assert len(options) == 25 and options[0]["value"] == "prostoy"
    assert "more modes: type a name" in options[-1]["name"]
