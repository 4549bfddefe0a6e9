"""Keeps bench/picture_game.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re

import pytest

from bench import picture_game


@pytest.mark.slow(sample=0)  # plays whole six-seat games: CI (a full sweep) only
def test_tiny_run_prints_every_preset_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    picture_game.main(["--games", "1", "--cold", "--at-once", "2"])
    out = capsys.readouterr().out
    for preset in (*picture_game.PRESETS, "all"):
        assert re.search(
            rf"^  {preset}\s+\d+ moves  CPU per move mean\s+[\d.]+ ms  p50\s+[\d.]+  p90\s+[\d.]+"
            rf"  p99\s+[\d.]+  max\s+[\d.]+  PNG mean\s+[\d.]+ KB, max\s+[\d.]+ KB$",
            out,
            re.MULTILINE,
        ), out
    assert re.search(r"^  pictures: \d+ drawn whole, \d+ in part, \d+ unchanged", out, re.M), out
    aim = r"^  aim <= 2 ms per move on average and <= 40 KB: (met|NOT met) \("
    assert re.search(aim, out, re.MULTILINE), out
    assert re.search(r"^  load average \(1, 5, 15 min\) at start ", out, re.MULTILINE), out
