"""Keeps bench/render.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re

import pytest

from bench import render


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_every_table_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    render.main(["--repeats", "2"])
    out = capsys.readouterr().out
    for preset, players in render.TABLES + render.VARIANT_TABLES:
        assert re.search(rf"^{preset}\s+{players}p attack\s+[\d.]+ ms", out, re.MULTILINE), out
    assert re.search(r"^first render, empty sprite caches: [\d.]+ ms$", out, re.MULTILINE), out
    assert re.search(r"^variant tables: slowest median [\d.]+ ms, largest \d+ KB$", out, re.M), out
    small = re.search(
        r"^smallest text: (\d+) px font, capitals (\d+) px high; ([\d.]+) px at", out, re.M
    )
    assert small is not None, out
    assert int(small[2]) >= 22 and float(small[3]) >= 9.9, small[0]
    assert re.search(r"^leaderboard picture: [\d.]+ ms, \d+ KB$", out, re.MULTILINE), out
    assert re.search(r"^profile card: [\d.]+ ms, \d+ KB$", out, re.MULTILINE), out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"six-player table: [\d.]+ ms, \d+ KB", last), last
