"""No runtime import circle in engine/ or bot/.

A circle between two modules means a function sits in the wrong one: it was hidden so far by
moving an import into a function body, which still runs at runtime (and fails, or half-loads
a module, when the order of first imports changes). So the graph walked here holds every
import that runs: at module level and inside functions and classes alike. Only imports under
``if TYPE_CHECKING:`` are left out, since they never run.

An import of a package counts as an import of its ``__init__``; ``from pkg import name``
counts as an import of ``pkg.name`` when that is a module. Importing ``pkg.mod`` does not add
an edge to ``pkg``'s ``__init__``: Python finishes a package's ``__init__`` before its
submodules' code runs, so that edge cannot close a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "bot")


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = (path, is_package)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (everything outside ``if TYPE_CHECKING:``)."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of engine/ and bot/ it imports when it runs."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                    for a in node.names
                ]
            for target in targets:
                module = known(target)
                if module is not None and module != name:
                    deps.add(module)
        graph[name] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def _describe(component: frozenset[str], graph: dict[str, set[str]]) -> str:
    return "; ".join(
        f"{m} imports {', '.join(sorted(graph[m] & component))}" for m in sorted(component)
    )


def test_no_import_circle_in_engine_or_bot() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles: " + " | ".join(_describe(c, graph) for c in found)


def test_the_walk_sees_a_circle_hidden_in_a_function() -> None:
    """The check itself: an import inside a function counts, one under
    ``if TYPE_CHECKING:`` does not, and two modules importing each other are a circle."""
    inside = ast.parse("def g():\n    from .a import h\n")
    typing_only = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import h\n"
    )
    assert [n.module for n in _imports(inside) if isinstance(n, ast.ImportFrom)] == ["a"]
    assert [n.module for n in _imports(typing_only) if isinstance(n, ast.ImportFrom)] == ["typing"]
    graph = {"x.a": {"x.b"}, "x.b": {"x.a"}, "x.c": {"x.a"}}
    assert circles(graph) == [frozenset({"x.a", "x.b"})]
