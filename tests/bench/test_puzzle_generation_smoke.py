"""Keeps bench/puzzle_generation.py runnable: one day, checking the report's shape, never a time."""

from __future__ import annotations

import re

import pytest

from bench import puzzle_generation


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_one_day_prints_its_line_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle_generation.main(["--days", "1", "--start", "2026-11-07"])
    out = capsys.readouterr().out
    assert re.search(r"^2026-11-07 perevodnoy .* served (easy|medium|hard) ", out, re.M), out
    assert re.search(r"^all +1 days: p50 [\d.]+ s, max [\d.]+ s$", out, re.MULTILINE), out
