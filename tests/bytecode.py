"""Compile the project and rewrite the test modules once, before the xdist workers start.

On a fresh clone nothing is compiled yet, and every worker would import the whole tree
cold: parse and compile ~40,000 lines of the project and run pytest's assertion rewriting
over ~25,000 lines of tests (the rewriting alone is ~9 CPU s), and Hypothesis parses every
module of the project once more for the constants it feeds its strategies (~1.5 CPU s).
Each worker does all of it for itself, at the same moment, and starts its first test late.
:func:`warm` does it once, split over the cores, and writes the same files the workers
would have written (``__pycache__``: the interpreter's pycs and pytest's rewritten ones;
``.hypothesis/constants``); the workers then read them, as on any later run.

Only a speed-up: it writes nothing a worker would not have written, skips a file already
up to date, and gives up silently (the workers then compile as before) when the bytecode may
not be written or the pytest internals it uses are not the ones it was written against.
"""

from __future__ import annotations

import compileall
import importlib.util
import os
import sys
import types
import warnings
from concurrent.futures import ProcessPoolExecutor
from fnmatch import fnmatch
from multiprocessing import get_context
from pathlib import Path

import pytest
from _pytest.assertion import rewrite as _rewrite

#: pytest's own (private) pieces of the rewriting: on a pytest without them the workers
#: compile for themselves, as before.
_USABLE = all(
    hasattr(_rewrite, name)
    for name in ("PYC_TAIL", "_rewrite_test", "_write_pyc_fp", "get_cache_dir")
)


def warm(config: pytest.Config) -> int:
    """Compile what the workers will import that is not compiled yet; returns how many
    files were written (0 when nothing was stale or warming does not apply)."""
    workers = getattr(config.option, "numprocesses", None) or 0
    if (
        not _USABLE
        or sys.dont_write_bytecode
        or hasattr(config, "workerinput")  # a worker: the controller warmed already
        or not isinstance(workers, int)
        or workers < 2  # one process compiles each file once anyway
        or config.getini("enable_assertion_pass_hook")  # rewritten code would differ
        or config.getoption("assertmode") != "rewrite"
    ):
        return 0
    rewritten, plain = _stale_files(config)
    if not rewritten and not plain:
        return 0
    jobs = [(str(path), True) for path in rewritten] + [(str(path), False) for path in plain]
    # The test modules cost the most: hand them out first, one file a task.
    with ProcessPoolExecutor(min(workers, os.cpu_count() or 1), get_context("fork")) as pool:
        return sum(pool.map(_compile_one, jobs, chunksize=1))


def _stale_files(config: pytest.Config) -> tuple[list[Path], list[Path]]:
    """The test modules and conftests whose rewritten pyc is missing or stale, and the other
    modules of the project's packages whose pyc is."""
    root = config.rootpath
    patterns = [str(p) for p in config.getini("python_files")]
    rewritten: list[Path] = []
    plain: list[Path] = []
    packages = [d for d in sorted(root.iterdir()) if (d / "__init__.py").is_file()]
    for package in packages:
        for path in sorted(package.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            if path.name == "conftest.py" or any(fnmatch(path.name, p) for p in patterns):
                if _rewritten_is_stale(path):
                    rewritten.append(path)
            elif _plain_is_stale(path):
                plain.append(path)
    rewritten.sort(key=lambda p: -p.stat().st_size)  # the largest first: the pool ends level
    return rewritten, plain


def _rewritten_pyc(path: Path) -> Path:
    return _rewrite.get_cache_dir(path) / (path.name[:-3] + _rewrite.PYC_TAIL)


def _rewritten_is_stale(path: Path) -> bool:
    """As pytest's ``_read_pyc`` decides: magic, checked-hash flags and the source hash."""
    try:
        with open(_rewritten_pyc(path), "rb") as pyc:
            head = pyc.read(16)
        source_hash = importlib.util.source_hash(path.read_bytes())
    except OSError:
        return True
    return head != importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + source_hash[:8]


def _plain_is_stale(path: Path) -> bool:
    """As the interpreter decides for a timestamp pyc: the source's mtime and size."""
    try:
        with open(importlib.util.cache_from_source(str(path)), "rb") as pyc:
            head = pyc.read(16)
        stat = path.stat()
    except OSError:
        return True
    mtime = int(stat.st_mtime) & 0xFFFFFFFF
    size = stat.st_size & 0xFFFFFFFF
    expected = (
        importlib.util.MAGIC_NUMBER
        + b"\x00\x00\x00\x00"
        + mtime.to_bytes(4, "little")
        + size.to_bytes(4, "little")
    )
    return head != expected


def _compile_one(job: tuple[str, bool]) -> int:
    """In a pool process: write one file's pyc, as the import in a worker would have."""
    name, rewrite = job
    path = Path(name)
    try:
        if not rewrite:
            _hypothesis_constants(path)
            return int(compileall.compile_file(name, quiet=2))
        source_hash, code = _rewrite._rewrite_test(path, None)  # type: ignore[arg-type]
        pyc = _rewritten_pyc(path)
        pyc.parent.mkdir(exist_ok=True)
        partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        with open(partial, "wb") as out:
            _rewrite._write_pyc_fp(out, source_hash, code)
        os.replace(partial, pyc)  # atomic, as pytest writes it: a reader sees all or nothing
    except (OSError, SyntaxError):
        return 0  # the worker's import reports it, as without warming
    return 1


def _hypothesis_constants(path: Path) -> None:
    """Fill Hypothesis's on-disk cache of the constants in one module of the project (what
    its pytest plugin reads for every module a worker imported, at the end of collection)."""
    try:
        from hypothesis.errors import HypothesisSideeffectWarning
        from hypothesis.internal.constants_ast import constants_from_module, is_local_module_file
    except ImportError:
        return
    if not is_local_module_file(str(path)):
        return
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    with warnings.catch_warnings():
        # Hypothesis warns that a plugin reads its storage while pytest starts (it would
        # slow every run); here that is the point, and it happens once, in a pool process.
        warnings.simplefilter("ignore", HypothesisSideeffectWarning)
        constants_from_module(module)
