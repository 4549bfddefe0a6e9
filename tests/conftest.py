"""Session-wide test hooks: the one-line PostgreSQL summary at the end of every run."""

from __future__ import annotations

import pytest

from bot.storage.url import parse_database_url
from tests import postgres


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
