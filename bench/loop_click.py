"""CPU of routing one click to its item, discord.py's dynamic-item dispatch against the bot's
own router (bot/surfaces/router.py), on the components of real hand messages.

discord.py's dispatch (``ViewStore.dispatch_dynamic_items`` and
``schedule_dynamic_item_call``, discord.py 2.7) tries the click's id against every registered
template, builds a ``View`` from the clicked message (``View.from_message``: an item per
component), finds the clicked component in it, makes the item from the id and swaps it in.
The router tries the templates of the id's kind and the catch-alls, checks the component is
on the message and makes the item from the id. Both are measured here on the same clicks
(every component of the hands of 300 positions of two-player Podkidnoy, the messages' parsed
components as discord.py hands them to either), apart from Discord and the rest of the bot,
in CPU time (``time.process_time``); it prints figures, never asserts.

    .venv/bin/python bench/loop_click.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bench.loop_render import sessions
from bot.surfaces.dynamic_items import DYNAMIC_ITEMS
from bot.surfaces.hand_views import hand_message
from bot.surfaces.rematch_views import REMATCH_ITEMS
from bot.surfaces.replay_views import RECORD_ITEMS
from bot.surfaces.router import ComponentRouter, on_message
from bot.surfaces.tournament_views import TOURNAMENT_ITEMS

ITEMS: tuple[Any, ...] = (*DYNAMIC_ITEMS, *REMATCH_ITEMS, *RECORD_ITEMS, *TOURNAMENT_ITEMS)
_CLICKED: discord.ui.Item[Any] = discord.ui.Button(label="?")


def clicks(count: int) -> list[tuple[Any, int, str]]:
    """(message, component type, custom id) of every component of both hands of ``count``
    positions, the message carrying its components as discord.py parses them."""
    out = []
    for session in sessions(count):
        for seat in (0, 1):
            _, _, view = hand_message(session, seat, "en")
            rows = view.to_components()
            message = SimpleNamespace(
                components=[discord.ActionRow(row) for row in rows],  # type: ignore[arg-type]
                flags=discord.MessageFlags(),
            )
            for row in rows:
                for component in row["components"]:
                    out.append((message, component["type"], component["custom_id"]))
    return out


async def discord_py(batch: list[tuple[Any, int, str]]) -> None:
    """What discord.py does per click before the item's callback."""
    patterns = [(item.__discord_ui_compiled_template__, item) for item in ITEMS]
    for message, component_type, custom_id in batch:
        for pattern, factory in patterns:
            match = pattern.fullmatch(custom_id)
            if match is None:
                continue
            view = discord.ui.View.from_message(message, timeout=None)
            base = discord.utils.find(
                lambda i, t=component_type, c=custom_id: (
                    i.type.value == t and getattr(i, "custom_id", None) == c
                ),
                view.walk_children(),
            )
            assert base is not None
            await factory.from_custom_id(None, base, match)


async def router(batch: list[tuple[Any, int, str]]) -> None:
    """What the bot's router does per click before the item's callback."""
    routes = ComponentRouter(ITEMS)
    for message, component_type, custom_id in batch:
        found = routes.matches(custom_id)
        assert found and on_message(message, component_type, custom_id)
        for factory, match in found:
            await factory.from_custom_id(None, _CLICKED, match)


async def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    batch = clicks(300)
    for name, route in (("discord.py dynamic items", discord_py), ("the bot's router", router)):
        await route(batch)  # warm
        start = time.process_time()
        for _ in range(args.repeats):
            await route(batch)
        per = (time.process_time() - start) / (args.repeats * len(batch)) * 1e6
        print(f"{name}: {per:.1f} µs CPU per click ({len(batch)} clicks x {args.repeats})")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load {load}")


if __name__ == "__main__":
    asyncio.run(main())
