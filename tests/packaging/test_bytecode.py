"""tests/bytecode.py writes the files a worker's import would: pytest accepts the rewritten
pyc as its own (a pytest release that changes its private format fails here, not silently
in every fresh clone's first run), the interpreter accepts the plain one, and a file once
written is not written again until its source changes."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from _pytest.assertion.rewrite import _read_pyc

from tests import bytecode


def _tree(root: Path) -> dict[str, Path]:
    package = root / "pkg"
    package.mkdir()
    files = {
        "init": package / "__init__.py",
        "helper": package / "helper.py",
        "test": package / "test_numbers.py",
        "conftest": package / "conftest.py",
    }
    files["init"].write_text("")
    files["helper"].write_text("LIMIT = 41\n")
    files["test"].write_text("def check(x):\n    assert x + 1 == 41, 'off'\n")
    files["conftest"].write_text("")
    return files


def _config(root: Path) -> Any:
    return SimpleNamespace(rootpath=root, getini=lambda name: ["test_*.py"])


def test_warmed_files_are_the_ones_pytest_and_python_read(tmp_path: Path) -> None:
    assert bytecode._USABLE, "pytest's rewriting internals moved: tests/bytecode.py warms nothing"
    files = _tree(tmp_path)
    rewritten, plain = bytecode._stale_files(_config(tmp_path))
    assert sorted(rewritten) == sorted([files["test"], files["conftest"]])
    assert sorted(plain) == sorted([files["init"], files["helper"]])

    jobs = [(str(p), True) for p in rewritten] + [(str(p), False) for p in plain]
    assert sum(map(bytecode._compile_one, jobs)) == 4
    assert bytecode._stale_files(_config(tmp_path)) == ([], [])

    code = _read_pyc(files["test"], bytecode._rewritten_pyc(files["test"]))
    assert code is not None, "pytest would not read the warmed pyc"
    space: dict[str, Any] = {}
    exec(code, space)
    try:
        space["check"](1)
    except AssertionError as err:
        assert "assert (1 + 1) == 41" in str(err)  # pytest's introspection, so rewritten
    else:
        raise AssertionError("the rewritten assert did not fail")
    assert Path(importlib.util.cache_from_source(str(files["helper"]))).is_file()

    files["test"].write_text("def check(x):\n    assert x == 40\n")
    files["helper"].write_text("LIMIT = 42  # a longer line: a new size\n")
    assert bytecode._stale_files(_config(tmp_path)) == ([files["test"]], [files["helper"]])
