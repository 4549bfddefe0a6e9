"""No private attribute of any library is touched by the bot (bot/, cogs/, engine/).

A library's ``_name`` is not part of its API: it changes in a patch release without notice,
and code that used it had to pin the library below the next release (the SQLite backend
once drove aiosqlite through ``conn._execute`` and ``conn._conn``). Two checks:

* a quick one on the syntax: a name imported from another package, followed by
  ``._name`` (``aiosqlite._private``, ``discord.utils._x``), or ``from pkg import _name``;
* a typed one (slow: a full mypy analysis of the three packages, ~20 s): every attribute
  access ``expr._name`` whose ``expr`` is, by mypy's inference, an object (or class, or
  module) defined outside bot/, cogs/ and engine/. That is what catches
  ``self._conn._execute`` when ``self._conn`` is an ``aiosqlite.Connection``; a sample of
  exactly that is checked in the same run, so the check is known to bite.

Our own underscored names (``self._lock``, ``other._state``) are fine: the owner is ours.
A dunder (``__name__``) is public. An expression mypy cannot type (``Any``) is not judged.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs", "engine")
SAMPLE_MODULE = "private_access_sample"
#: The aiosqlite usage of the old SQLite backend, in miniature: both lines must be found.
SAMPLE = """
import aiosqlite


class Storage:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn  # our own private name: fine

    async def drain(self) -> None:
        run_in_thread = self._conn._execute  # line 10: aiosqlite's private method
        await run_in_thread(print, self._conn._conn)  # line 11: its private attribute
"""
SAMPLE_FINDINGS = {(10, "_execute"), (11, "_conn")}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(fullname: str) -> bool:
    return fullname.split(".", 1)[0] in (*PACKAGES, SAMPLE_MODULE)


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_no_private_name_of_an_imported_package() -> None:
    """The quick check: ``module._name`` and ``from module import _name`` on modules that
    are not ours."""
    found: list[str] = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        foreign: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                foreign |= {
                    (a.asname or a.name).split(".")[0] for a in node.names if not _ours(a.name)
                }
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if _ours(node.module):
                    continue
                foreign |= {a.asname or a.name for a in node.names}
                found += [
                    f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {a.name}"
                    for a in node.names
                    if _is_private(a.name)
                ]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                root = node.value
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in foreign:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def _span(node: ast.expr) -> tuple[int, int, int | None, int | None]:
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def _typed_findings() -> dict[str, set[tuple[int, str, str]]]:
    """Per file of ours: (line, attribute, owner) of every private access on a foreign
    object, by a full (non-incremental) mypy analysis with the project's configuration."""
    from mypy import build
    from mypy.main import process_options
    from mypy.modulefinder import BuildSource
    from mypy.nodes import MemberExpr, MypyFile, RefExpr, TypeInfo
    from mypy.types import Instance, TypeType, get_proper_type

    sources, options = process_options(
        [*(str(ROOT / p) for p in PACKAGES), "--config-file", str(ROOT / "pyproject.toml")],
        require_targets=False,
    )
    options.export_types = True
    options.incremental = False  # a module read from the cache has no types to look at
    sources.append(BuildSource(None, SAMPLE_MODULE, text=SAMPLE))
    types = build.build(sources, options).types

    def owner(expr: object) -> str | None:
        """Where the object an expression stands for is defined (a fullname)."""
        if isinstance(expr, RefExpr) and isinstance(expr.node, MypyFile | TypeInfo):
            return expr.node.fullname  # a module or a class named directly
        typ = types.get(expr)  # type: ignore[call-overload]
        proper = get_proper_type(typ) if typ is not None else None
        if isinstance(proper, TypeType):
            proper = get_proper_type(proper.item)
        return proper.type.fullname if isinstance(proper, Instance) else None

    # mypy is compiled, so its visitors cannot be subclassed here and its trees are freed
    # after checking; what stays is the type of every expression it checked. Each private
    # access typed on a foreign owner is matched to our source by its exact span.
    foreign: dict[tuple[int, int, int | None, int | None, str], str] = {}
    for expr in types:
        if isinstance(expr, MemberExpr) and _is_private(expr.name):
            where = owner(expr.expr)
            if where is not None and not _ours(where):
                span = (expr.line, expr.column, expr.end_line, expr.end_column, expr.name)
                foreign[span] = where
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in _sources()}
    texts[SAMPLE_MODULE] = SAMPLE
    findings: dict[str, set[tuple[int, str, str]]] = {}
    for name, text in texts.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                where = foreign.get((*_span(node), node.attr))
                if where is not None:
                    findings.setdefault(name, set()).add((node.lineno, node.attr, where))
    return findings


@pytest.mark.slow(sample=0)  # a typed mypy pass over the tree: CI (a full sweep) only
def test_no_private_attribute_of_a_foreign_object() -> None:
    """The typed check; its sample (the old aiosqlite usage) must be caught."""
    findings = _typed_findings()
    sample = findings.pop(SAMPLE_MODULE, set())
    assert {(line, name) for line, name, _ in sample} == SAMPLE_FINDINGS
    assert all(owner.startswith("aiosqlite.") for _, _, owner in sample)
    assert findings == {}


if __name__ == "__main__":  # python -m tests.packaging.test_private_access: list findings
    for module, items in sorted(_typed_findings().items()):
        for line, name, where in sorted(items):
            print(f"{module}:{line}: .{name} of {where}", file=sys.stdout)
