"""Keeps bench/engine_speed.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re

import pytest

from bench import engine_speed


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_every_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    engine_speed.main(["--seconds", "0.05", "--repeats", "2"])
    out = capsys.readouterr().out
    for preset, players in engine_speed.CONFIGS:
        row = re.search(
            rf"^{preset}\s+{players}p:\s+([\d.]+) \(([\d.]+)\) games/s\s+\d+ actions/s"
            rf" \(([\d.]+) actions/game, (\d+) games\)",
            out,
            re.MULTILINE,
        )
        assert row is not None, out
        median, best, per_game, games = (float(x) for x in row.groups())
        assert 0 < median <= best and per_game > 10 and games >= 2, out
    assert re.search(r"target >= 2400 \(median\): (met|NOT met)", out), out
