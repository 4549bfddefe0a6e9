"""The slash command tree Discord is sent stays exactly as recorded.

Splitting ``cogs/`` by area moved the ``/durak`` subcommands into several modules; this test
pins what Discord sees (names, localizations, options, choices and the order of the
subcommands) against ``command_tree.json``, recorded before the split. A deliberate change
to a command updates that file in the same commit (``python -m tests.bot.test_command_tree``
rewrites it).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.i18n import DurakTranslator

TREE_FILE = Path(__file__).with_name("command_tree.json")


async def command_tree() -> list[dict[str, Any]]:
    """Every top-level command as synced: the plain payload and the translated one."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    try:
        await bot.tree.set_translator(DurakTranslator())
        await bot.load_extension("cogs.durak")
        await bot.load_extension("cogs.me")
        translator = bot.tree.translator
        assert translator is not None
        return [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()


async def test_command_tree_is_unchanged() -> None:
    recorded = json.loads(TREE_FILE.read_text(encoding="utf-8"))
    current = json.loads(json.dumps(await command_tree()))
    assert current == recorded


if __name__ == "__main__":
    tree = asyncio.run(command_tree())
    TREE_FILE.write_text(json.dumps(tree, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
