"""Keeps bench/bot_load.py runnable: a tiny run through the real bot and simcord.

Only the shape of the report is checked (a row per size and kind, a memory row, every move
applied, no bot error), never a timing: figures depend on the machine.
"""

from __future__ import annotations

import re

import pytest

from bench import bot_load
from tests import postgres


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    # --think 0: bursts (the default, clicks every 4 s, would make this test slow)
    assert bot_load.main(["--sizes", "2", "--clicks", "4", "--think", "0"]) == 0
    out = capsys.readouterr().out
    rows = {
        kind: re.search(rf"^\s+2 {kind}\s+(\d+)\s", out, re.MULTILINE) for kind in bot_load.KINDS
    }
    assert all(rows.values()), out
    # 2 games x (Join + Start) at setup; 4 rounds x 2 games of moves (none can finish in 4).
    counts = {kind: int(m.group(1)) for kind, m in rows.items() if m}
    assert counts["lobby"] == 4 and counts["move"] == 8, out
    # Both players of both games open their hand once ("open"); refreshes ("hand") only
    # where a live edit had not landed yet (bursts leave it no time), at most one per move.
    assert counts["open"] == 4 and counts["hand"] <= 8, out
    live = re.search(r"^2 games, live hands: 4 open; (\d+) hand edits", out, re.MULTILINE)
    assert live is not None, out
    memory = re.search(r"^\s+2\s+(\d+\.\d)\s+(\d+\.\d)\s+(\d+\.\d)\s+\S+\s+0\s+0\s+0$", out, re.M)
    assert memory is not None and float(memory.group(1)) > 0, out
    cpu = re.search(
        r"^2 games, pictures on, 1 process: bot CPU per move (\d+\.\d+) ms = event loop "
        r"(\d+\.\d+) \+ picture thread (\d+\.\d+) .*\(8 moves applied",
        out,
        re.M,
    )
    assert cpu is not None and float(cpu.group(1)) > 0 and float(cpu.group(2)) > 0, out
    # what the picture thread drew: one picture per move at most (bursts coalesce edits)
    drawn = re.search(r"^  picture thread: (\d+) pictures for 8 moves \(", out, re.M)
    assert drawn is not None and 0 < int(drawn.group(1)) <= 8, out
    # every aim of issue 30 has its line: a verdict, or what run would measure it
    aims = out.split("issue 30's capacity aims", 1)[-1]
    verdict = r"^  bot CPU <= 3 ms per move, pictures on: \S+ ms = .*: (met|NOT met) \(2 games"
    assert re.search(verdict, aims, re.M), out
    assert re.search(r"^  acknowledge p99 at 1,000 games: not measured by this run", aims, re.M)
    assert aims.count("\n  ") == 7, out


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_the_old_sqlite_backend_runs_for_the_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    """``--sqlite-driver thread`` runs the old backend, and only for that run."""
    import bot.storage.sqlite as sqlite_backend

    bot_class = sqlite_backend.SqliteDatabase
    argv = ["--sizes", "2", "--clicks", "2", "--think", "0", "--no-trace"]
    assert bot_load.main([*argv, "--sqlite-driver", "thread"]) == 0
    out = capsys.readouterr().out
    assert "through its own thread (the old backend" in out, out
    assert re.search(r"^\s+2 move\s+4\s", out, re.MULTILINE), out
    assert sqlite_backend.SqliteDatabase is bot_class


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_untraced_run_reports_no_memory_figure(capsys: pytest.CaptureFixture[str]) -> None:
    # paced: Poisson arrivals with a tiny think time
    assert bot_load.main(["--sizes", "1", "--clicks", "2", "--no-trace", "--think", "0.05"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\s+n/a\s+n/a\s+n/a\s", out, re.MULTILINE), out
    assert re.search(r"^\s+1 move\s+2\s", out, re.MULTILINE), out


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_two_processes_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    """The PostgreSQL mode: two bot processes, their clicks pooled into one report."""
    postgres.skip_unless_available()
    argv = ["--sizes", "4", "--clicks", "2", "--think", "0", "--processes", "2"]
    assert bot_load.main([*argv, "--database", postgres.base_url()]) == 0
    out = capsys.readouterr().out
    assert "the bot processes of each row sharing it" in out, out
    assert re.search(r"^4 games, pictures on, 2 processes: bot CPU per move", out, re.M), out
    # 4 games (2 per process) x (Join + Start) at setup; 2 rounds x 4 games of moves
    assert re.search(r"^\s+4 lobby\s+8\s", out, re.MULTILINE), out
    assert re.search(r"^\s+4 move\s+8\s", out, re.MULTILINE), out
    assert re.search(r"^\s+4\s+n/a\s+n/a\s+n/a\s+\S+\s+0\s+0\s+0$", out, re.MULTILINE), out


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_capacity_prints_a_verdict_for_every_aim(capsys: pytest.CaptureFixture[str]) -> None:
    """``--capacity`` (here at 2 games instead of 1,000) runs SQLite with pictures on and off
    and PostgreSQL with one and two processes, and ends with a verdict for every aim but the
    two that only a 1,000-game run measures."""
    postgres.skip_unless_available()
    argv = ["--capacity", "--sizes", "2", "--clicks", "2", "--think", "0"]
    assert bot_load.main([*argv, "--database", postgres.base_url()]) == 0
    out = capsys.readouterr().out
    aims = out.split("issue 30's capacity aims", 1)[-1].splitlines()[1:]
    verdicts = [a for a in aims if re.search(r": (met|NOT met) \(", a)]
    assert len(aims) == 7 and len(verdicts) == 5, out
    assert any(a.startswith("  bot CPU <= 1 ms per move, pictures off:") for a in verdicts), out
    assert any(a.startswith("  two bot processes on PostgreSQL") for a in verdicts), out
    for label in ("pictures on, 1 process", "pictures off, 1 process", "pictures on, 2 processes"):
        assert f"2 games, {label}: bot CPU per move" in out, out
