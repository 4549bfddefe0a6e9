"""No user-facing text is hard-coded in bot/ or cogs/: everything shown goes through the
catalogs (bot/locales), so it exists in English *and* Russian.

The scan looks at every call's keyword arguments that Discord displays (content, label,
placeholder, title, description, text, value, name) and at the first positional argument
of the send/edit methods, and fails on a string literal containing a letter. Symbols
("?", "-", "\u200b") are fine: they need no translation.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: bot/ and the packages its top-level modules moved into (pictures/ and storage/ never were).
MOVED_INTO = ("game", "surfaces", "rendering", "cardart")
SOURCES = sorted(
    [
        *(ROOT / "bot").glob("*.py"),
        *(p for d in MOVED_INTO for p in (ROOT / "bot" / d).glob("*.py")),
        *(ROOT / "cogs").glob("*.py"),
    ]
)
SHOWN_KEYWORDS = {"content", "label", "placeholder", "title", "description", "text", "value"}
SEND_METHODS = {"send", "send_message", "edit_message", "edit", "edit_original_response"}
#: Calls whose `name=` is shown to users (a task's or logger's name is not).
NAMED_CALLS = {"add_field", "Choice", "Group", "command", "create_thread", "SelectOption"}
#: The command line (python -m bot) talks to the operator, in English like the logs.
OPERATOR_CALLS = {"ArgumentParser", "add_argument", "add_parser", "add_argument_group"}


def _has_letters(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (any(ch.isalpha() for ch in node.value))
    )


def _func_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def literal_texts(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _func_name(node)
        if name in OPERATOR_CALLS:
            continue
        for kw in node.keywords:
            shown = kw.arg in SHOWN_KEYWORDS or (kw.arg == "name" and name in NAMED_CALLS)
            if shown and _has_letters(kw.value):
                found.append((node.lineno, f"{name}({kw.arg}={kw.value.value!r})"))  # type: ignore[attr-defined]
        if name in SEND_METHODS and node.args and _has_letters(node.args[0]):
            found.append((node.lineno, f"{name}({node.args[0].value!r})"))  # type: ignore[attr-defined]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_user_facing_literals(path: Path) -> None:
    assert literal_texts(path.read_text(encoding="utf-8")) == []


def test_the_scan_catches_literals() -> None:
    sample = (
        "await interaction.response.send_message('Game over!')\n"
        "discord.ui.Button(label='Join', custom_id='x')\n"
        "embed.add_field(name='Players', value=t('k', loc))\n"
        "embed.add_field(name='\\u200b', value='-')\n"
        "loop.create_task(coro, name='durak-timer')\n"
        "await channel.send(content='Hi')\n"
    )
    assert sorted(line for line, _ in literal_texts(sample)) == [1, 2, 3, 6]
