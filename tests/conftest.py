"""Session-wide test hooks: slow sweeps sampled unless asked for in full, and the one-line
PostgreSQL summary at the end of every run."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from bot.storage.url import parse_database_url
from tests import bytecode, postgres, simcord_timers

#: A test marked ``slow`` runs one case in this many by default (``@pytest.mark.slow(sample=n)``
#: sets its own; ``sample=0``: only in a full sweep). The sample is the same on every run and
#: in every xdist worker (the n-th case of each test function, in collection order).
#: ``@pytest.mark.slow(check=k)`` keeps the first k cases of a sweep in ``-m "not slow"``
#: (make check) as well: one cheap case still guards the sweep's code before each commit.
SAMPLE_EVERY = 16


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full-sweep",
        action="store_true",
        default=False,
        help="run every case of the tests marked slow, not a sample (also DURAK_FULL_SWEEP=1;"
        " .ci/run sets it)",
    )
    parser.addoption(
        "--save-durations",
        action="store_true",
        default=False,
        help=f"write the tests that took {LONG_SECONDS:g} s or more to tests/{DURATIONS_FILE.name}"
        " (make durations)",
    )


def pytest_configure(config: pytest.Config) -> None:
    simcord_timers.install()  # a speed-up only: see tests/simcord_timers.py
    bytecode.warm(config)  # a speed-up only: see tests/bytecode.py


def full_sweep(config: pytest.Config) -> bool:
    flag = os.environ.get("DURAK_FULL_SWEEP", "").strip() not in ("", "0")
    return flag or bool(config.getoption("--full-sweep"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Sample the slow sweeps (every preset, player count, seed ...): a contributor's run
    still touches each sweep, CI runs all of it. ``-m "not slow"`` (make check) drops them,
    except the first ``check`` cases of each (hence first: before the ``-m`` filter)."""
    full = full_sweep(config)
    seen: Counter[str] = Counter()
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        marker = item.get_closest_marker("slow")
        if marker is None:
            keep.append(item)
            continue
        every = int(marker.kwargs.get("sample", SAMPLE_EVERY))
        function = item.nodeid.split("[", 1)[0]
        index = seen[function]
        seen[function] += 1
        if index < int(marker.kwargs.get("check", 0)):
            _unmark_slow(item)
            keep.append(item)
            continue
        (keep if full or (every and index % every == 0) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    _long_ones_first(config, items)


#: Where the last run's durations are kept (pytest's cache, .pytest_cache/), and from how
#: long a test counts as long.
DURATIONS_KEY = "durak/durations"
LONG_SECONDS = 1.0
#: The long tests of a whole run, committed (``make durations`` rewrites it): a fresh
#: clone's first run has no cache yet and would start them wherever they are collected.
DURATIONS_FILE = Path(__file__).with_name("durations.json")


def _committed_durations() -> dict[str, float]:
    try:
        loaded = json.loads(DURATIONS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}


def _long_ones_first(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the tests that took long last time first, longest first (the rest keep their
    order): the xdist workers then finish together instead of one running a whole game
    alone at the end. Every worker reads the same files, so they collect the same order.
    "Last time" is this clone's last run (pytest's cache), else the committed file."""
    cache = getattr(config, "cache", None)
    last: dict[str, float] = cache.get(DURATIONS_KEY, {}) if cache is not None else {}
    last = last or _committed_durations()
    long = [item for item in items if last.get(item.nodeid, 0.0) >= LONG_SECONDS]
    if long:
        long.sort(key=lambda item: -last[item.nodeid])
        chosen = set(long)
        items[:] = long + [item for item in items if item not in chosen]


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Keep this run's durations for the next run's order (the xdist controller sees every
    worker's reports; the workers themselves write nothing)."""
    if hasattr(session.config, "workerinput") or not _durations:
        return
    if session.config.getoption("--save-durations"):
        long = {k: round(v, 1) for k, v in sorted(_durations.items()) if v >= LONG_SECONDS}
        DURATIONS_FILE.write_text(json.dumps(long, indent=0) + "\n", encoding="utf-8")
    cache = getattr(session.config, "cache", None)
    if cache is None:
        return
    kept: dict[str, float] = cache.get(DURATIONS_KEY, {})
    for nodeid, seconds in _durations.items():  # only the long ones: the file stays small
        if seconds >= LONG_SECONDS:
            kept[nodeid] = round(seconds, 2)
        else:
            kept.pop(nodeid, None)
    cache.set(DURATIONS_KEY, kept)


def _unmark_slow(item: pytest.Item) -> None:
    """Take the ``slow`` mark off one case of a sweep (its siblings keep theirs)."""
    for node in item.listchain()[:-1]:
        if any(m.name == "slow" for m in node.own_markers):
            raise pytest.UsageError(f"slow(check=...) on {node.nodeid}: mark the test function")
    item.own_markers[:] = [m for m in item.own_markers if m.name != "slow"]


def _is_postgres(report: pytest.TestReport) -> bool:
    return "postgresql" in report.nodeid


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say whether the PostgreSQL half of the suite ran, so a skip is never mistaken for a
    pass (tests whose id contains "postgresql": the storage suite's second backend and the
    end-to-end game)."""
    stats = terminalreporter.stats
    ran = [r for key in ("passed", "failed") for r in stats.get(key, []) if _is_postgres(r)]
    ran = [r for r in ran if r.when == "call"]
    skipped = [r for r in stats.get("skipped", []) if _is_postgres(r)]
    if not ran and not skipped:
        return
    where = parse_database_url(postgres.base_url()).redacted()
    if ran:
        line = f"PostgreSQL: {len(ran)} tests ran against {where}"
        if skipped:
            line += f" ({len(skipped)} skipped)"
    else:
        reason = postgres.unavailable_reason() or "see the skip reasons"
        line = (
            f"PostgreSQL: {len(skipped)} tests SKIPPED - {reason}; "
            "set TEST_DATABASE_URL or start a server (see .ci/run)"
        )
    terminalreporter.write_line(line, yellow=not ran, green=bool(ran), bold=True)
