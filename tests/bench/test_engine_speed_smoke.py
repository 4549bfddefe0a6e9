"""Keeps bench/engine_speed.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re
from pathlib import Path

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


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_public_engine_runs_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--public PATH`` imports a public engine's GameTree and Random from PATH and plays it
    against ours; a stand-in engine of exactly 7 actions a game shows the plumbing."""
    (tmp_path / "main.py").write_text(
        "class GameTree:\n"
        "    def __init__(self, players, computer_shuffle, main_attacker, print_info=True):\n"
        "        self.left = 7\n"
        "        self.is_end_state = False\n"
        "    def next(self):\n"
        "        self.left -= 1\n"
        "        self.is_end_state = self.left == 0\n"
    )
    (tmp_path / "players.py").write_text(
        "class Random:\n    def __init__(self, name):\n        self.name = name\n"
    )
    engine_speed.main(["--seconds", "0.05", "--repeats", "2", "--public", str(tmp_path)])
    out = capsys.readouterr().out
    line = re.search(
        r"^side by side, perevodnoy 2p, .*: ours ([\d.]+) \(([\d.]+) actions/game\), public "
        r"engine ([\d.]+) \(7\.0 actions/game, .*\): ([\d.]+)x  aim >= 3x: (met|NOT met)$",
        out,
        re.MULTILINE,
    )
    assert line is not None, out
    ours, _, public, ratio = (float(x) for x in line.groups()[:4])
    assert ours > 0 and public > 0 and abs(ratio - ours / public) < 0.01 * ratio + 0.01, out
    assert re.search(r"^perevodnoy\s+2p:", out, re.MULTILINE), out  # the usual lines too
