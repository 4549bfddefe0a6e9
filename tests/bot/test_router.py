"""The bot's own click routing (bot/surfaces/router.py) finds the same items as trying every
template, as discord.py's dynamic items did, for every id format the bot ever wrote."""

from __future__ import annotations

from typing import Any

from bot.surfaces.dynamic_items import DYNAMIC_ITEMS
from bot.surfaces.rematch_views import REMATCH_ITEMS
from bot.surfaces.replay_views import RECORD_ITEMS
from bot.surfaces.router import ComponentRouter
from bot.surfaces.tournament_views import TOURNAMENT_ITEMS

from .test_door import EVERY_KIND

ITEMS: list[Any] = [*DYNAMIC_ITEMS, *REMATCH_ITEMS, *RECORD_ITEMS, *TOURNAMENT_ITEMS]

#: Ids near the kinds' edges: a kind that is a prefix of another, an empty kind, no colon.
EDGES = [
    "durak:replayjump:3:0",
    "durak:replay:3:0:0:next",
    "durak:pzsol:20261201",
    "durak:pz:20261201:0:1",
    "durak:lobbyai:3",
    "durak:lobby:3:join",
    "durak:quick:leave",
    "durak:quick:leave:5",
    "durak:quick:cpu:5",
    "durak:quick:dance:5",  # the catch-all answers it
    "durak::3",
    "durak",
    "durak:show",
    "DURAK:show:3",
    "durak:tourney:1:join",
    "durak:watch:3:new",
    "durak:act:3:4:attack:6s",
    "durak:act:3:4:attack:6s:extra",
]


def test_the_router_finds_what_every_template_finds() -> None:
    router = ComponentRouter(ITEMS)
    for custom_id in [*EVERY_KIND, *EDGES]:
        every = [i for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
        routed = [factory for factory, _ in router.matches(custom_id)]
        assert routed == every, custom_id
