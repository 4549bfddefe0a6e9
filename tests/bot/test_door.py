"""One door per interaction: a refusal of the game service (a ServiceError) is answered
privately in exactly one place for the slash commands (cogs/door.py) and one for the
components (bot/surfaces/door.py), and the Discord side reads and writes nothing of storage
but through the service."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import DurakBot
from bot.game import errors
from bot.game.errors import ServiceError
from bot.i18n import t
from tests.bot.helpers import message, service
from tests.bot.test_play import start_game

ROOT = Path(__file__).resolve().parents[2]
UI = (ROOT / "cogs", ROOT / "bot" / "surfaces")
DOORS = {ROOT / "cogs" / "door.py", ROOT / "bot" / "surfaces" / "door.py"}
#: ServiceError and every refusal derived from it.
REFUSALS = {
    name
    for name, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, ServiceError)
}


def _where(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _ui_modules() -> list[Path]:
    return sorted(p for folder in UI for p in folder.rglob("*.py"))


def _names(node: ast.expr | None) -> set[str]:
    """The class names an ``except`` clause catches (``except (A, b.B):`` -> A, B)."""
    if node is None:
        return set()
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Name):
        return {node.id}
    return set()


def _refusals_caught(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        f"{_where(path)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ExceptHandler) and _names(node.type) & REFUSALS
    ]


def _storage_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "storage") or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "storage"
        ):
            found.append(f"{_where(path)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_refusals_are_caught_only_at_the_doors() -> None:
    caught = [hit for path in _ui_modules() if path not in DOORS for hit in _refusals_caught(path)]
    assert caught == []
    # ... and the doors do catch them (so the check above looks at the right thing).
    assert all(_refusals_caught(door) for door in DOORS)


def test_the_refusal_check_bites(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "try:\n    pass\nexcept (ValueError, errors.StaleAction):\n    pass\n", encoding="utf-8"
    )
    tree_hits = [
        n for n in ast.walk(ast.parse(sample.read_text())) if isinstance(n, ast.ExceptHandler)
    ]
    assert _names(tree_hits[0].type) & REFUSALS == {"StaleAction"}


def test_cogs_and_surfaces_never_reach_storage() -> None:
    found = [hit for path in _ui_modules() for hit in _storage_reads(path)]
    assert found == []


def test_the_storage_check_bites(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "async def f(service, client):\n"
        "    await service.storage.get_game(1)\n"
        "    getattr(client, 'storage', None)\n",
        encoding="utf-8",
    )
    assert len(_storage_reads(sample)) == 2


def _durak_commands(env: simcord.Env) -> list[app_commands.Command[Any, ..., Any]]:
    bot = env.bot
    assert isinstance(bot, DurakBot)
    group = bot.tree.get_command("durak")
    assert isinstance(group, app_commands.Group)
    return [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]


async def test_every_durak_command_goes_through_the_door(
    simcord_env: simcord.Env, world: Any
) -> None:
    commands = _durak_commands(simcord_env)
    assert len(commands) > 20
    # /durak me (cogs/me.py) refuses nothing: it is the one command without the door.
    undoored = [c.qualified_name for c in commands if not hasattr(c.callback, "__wrapped__")]
    assert undoored == ["durak me"]


async def test_a_refusal_from_a_slash_command_is_private(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/durak games`` catches nothing itself: the door answers what the service refused."""

    async def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise ServiceError("error.not_started")

    monkeypatch.setattr(service(simcord_env), "running_games", refused)
    answer = await world["alice"].slash(world["channel"], "durak games")
    assert answer.ephemeral and answer.response is not None and answer.response.ephemeral
    assert answer.response.content == t("error.not_started", "en")


async def test_a_refusal_from_a_component_is_private(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Show my hand" on the public table: the component door answers privately."""
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None and session.message_id is not None

    async def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise ServiceError("error.not_started")

    monkeypatch.setattr(svc, "require_player", refused)
    answer = await world["alice"].click(
        message(channel, session.message_id), custom_id=f"durak:show:{game_id}"
    )
    assert answer.ephemeral and answer.response is not None and answer.response.ephemeral
    assert answer.response.content == t("error.not_started", "en")


async def test_a_refused_lobby_click_is_private(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A component that is not a hand item (a forged lobby button): the same door."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="join", custom_id="durak:lobby:999999:join"))
    posted = await simcord_env.bot.get_partial_messageable(world["channel"].id).send(
        "lobby", view=view
    )
    answer = await world["alice"].click(
        message(world["channel"], posted.id), custom_id="durak:lobby:999999:join"
    )
    assert answer.ephemeral and answer.response is not None and answer.response.ephemeral
    assert answer.response.content == t("error.game_not_found", "en")


#: Ids of every hand item as the bot has written them (old hands included: a page number,
#: the attack-card select of hands before tap-a-card, a second pack's twin ``'``).
WRITTEN_IDS = {
    "show": ["durak:show:12"],
    "act": ["durak:act:12:3:attack:6s6d", "durak:act:12:3:take:", "durak:act:7:1:throw:Ah'"],
    "hand": ["durak:hand:12:3:0:-", "durak:hand:12:3:2:6s7s", "durak:hand:12:3:0:"],
    "card": ["durak:card:12:3:-:6s", "durak:card:12:3:6s:Qh'"],
    "cards": ["durak:cards:12:3:-:0", "durak:cards:12:3:6sTs:1"],
    "several": ["durak:several:12:3"],
    "tgt": ["durak:tgt:12:3:0"],
}


#: Ids of the lobby and leaderboard items as the bot has written them.
WRITTEN_LOBBY_IDS = {
    "lobby": [
        f"durak:lobby:12:{op}"
        for op in ("join", "ljoin", "open", "leave", "start", "cancel", "ai", "unai")
    ],
    "lobbyai": ["durak:lobbyai:12"],
    "lobbyhost": ["durak:lobbyhost:12"],
    "leave": ["durak:leave:12:yes", "durak:leave:12:no"],
}
WRITTEN_BOARD_IDS = [
    "durak:lb:all:fools:0:prev",
    "durak:lb:week:record:3:next",
    "durak:lb:month:rating:1:next",
    "durak:lb:all:rating~podkidnoy~2~server:0:prev",
    "durak:lb:week:rating~~~all:4:next",
]


def test_every_written_id_still_parses() -> None:
    """The typed templates take every id the bot has written, and the catch-all for
    malformed ids takes none of them (but does take an id with a part out of type)."""
    from bot.surfaces.dynamic_items import UnknownDurakItem
    from bot.surfaces.hand_items import HAND_IDS
    from bot.surfaces.history_views import HISTORY_ID
    from bot.surfaces.leaderboard_views import BOARD_ID
    from bot.surfaces.lobby_views import LOBBY_IDS
    from bot.surfaces.tables_views import TABLES_ID

    unknown = re.compile(UnknownDurakItem.__discord_ui_compiled_template__.pattern)
    written = [
        *((HAND_IDS[kind], custom_id) for kind, ids in WRITTEN_IDS.items() for custom_id in ids),
        *((LOBBY_IDS[kind], i) for kind, ids in WRITTEN_LOBBY_IDS.items() for i in ids),
        *((BOARD_ID, custom_id) for custom_id in WRITTEN_BOARD_IDS),
        (HISTORY_ID, "durak:hist:42:0:prev"),
        (HISTORY_ID, "durak:hist:42:3:next"),
        (TABLES_ID, "durak:tables:0"),
        (TABLES_ID, "durak:tables:2"),
    ]
    for template, custom_id in written:
        assert re.fullmatch(template, custom_id), custom_id
        assert not unknown.fullmatch(custom_id), custom_id
    for bad in (
        "durak:act:1:x:attack:6s",
        "durak:show:x",
        "durak:card:1:2:-:6s6d",
        "durak:hand",
        "durak:lobby:x:join",
        "durak:lobby:12:dance",
        "durak:lobbyai:",
        "durak:leave:12:maybe",
        "durak:lb:year:fools:0:next",
        "durak:lb:all:rating~x~y~server:0:next",
        "durak:lb:all:fools:-1:next",
        "durak:hist:42:0:sideways",
        "durak:hist:x:0:next",
        "durak:tables:x",
    ):
        assert unknown.fullmatch(bad), bad


# --------------------------------------------------------------------------- every click answered


def _views_with_callbacks(path: Path) -> list[str]:
    """A ``discord.ui.View`` subclass, or a callback set on a component: an answer that lives
    in memory only, gone after a restart or a timeout."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and any(
            ast.unparse(base).endswith("ui.View") for base in node.bases
        ):
            found.append(f"{_where(path)}:{node.lineno}: class {node.name}")
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == "callback"
            for target in node.targets
        ):
            found.append(f"{_where(path)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_component_is_answered_from_memory_only() -> None:
    found = [hit for path in _ui_modules() for hit in _views_with_callbacks(path)]
    assert found == []


def test_the_memory_check_bites(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "class V(discord.ui.View):\n    pass\nbutton.callback = f\n", encoding="utf-8"
    )
    assert len(_views_with_callbacks(sample)) == 2


#: One id of every kind the bot writes, with old and forged ones: each is taken by exactly
#: one registered item (none: a click left unanswered; two: answered twice, one fails).
EVERY_KIND = [
    "durak:lobby:3:join",
    "durak:lobbyai:3",
    "durak:lobbyhost:3",
    "durak:leave:3:yes",
    "durak:show:3",
    "durak:act:3:4:take:",
    "durak:card:3:4:-:6s",
    "durak:cards:3:4:-:0",
    "durak:several:3:4",
    "durak:hand:3:4:0:-",
    "durak:tgt:3:4:0",
    "durak:lb:all:fools:0:next",
    "durak:again:3:play",
    "durak:rec:3:replay",
    "durak:hint:3",
    "durak:replay:3:0:0:next",
    "durak:replayjump:3:0",
    "durak:rules:-",
    "durak:rules:podkidnoy",
    "durak:quick:leave",
    "durak:quick:leave:3",
    "durak:quick:cpu:3",
    "durak:quick:wait:3",
    "durak:quick:dance:3",
    "durak:quick:cpu:x",
    "durak:nosuchkind:3",
    "durak:act:3:x:take:",
    "durak:",
    "replay:forward",
    "replay:jump",
    "0123456789abcdef0123456789abcdef",
    "x",
]


def test_every_id_is_taken_by_exactly_one_item() -> None:
    from bot.surfaces.dynamic_items import DYNAMIC_ITEMS
    from bot.surfaces.rematch_views import REMATCH_ITEMS
    from bot.surfaces.replay_views import RECORD_ITEMS

    items: list[Any] = [*DYNAMIC_ITEMS, *REMATCH_ITEMS, *RECORD_ITEMS]
    for custom_id in EVERY_KIND:
        taken = [
            i.__name__ for i in items if i.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert len(taken) == 1, (custom_id, taken)
