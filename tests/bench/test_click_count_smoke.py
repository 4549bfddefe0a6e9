"""Keeps bench/click_count.py runnable: a tiny run, checking the report's shape."""

from __future__ import annotations

import re

import pytest

from bench import click_count


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_reports_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    click_count.main(["--done-styles", "--games", "3"])
    out = capsys.readouterr().out
    rows = re.findall(
        r"^(before|after) .*?([\d.]+) clicks/game: +([\d.]+) moves, +([\d.]+) passes"
        r" \( *([\d.]+) forced\)",
        out,
        re.MULTILINE,
    )
    assert [r[0] for r in rows] == ["before", "after"], out
    before, after = ([float(x) for x in r[1:]] for r in rows)
    # The same deals: the same card moves, fewer passes, none of them forced.
    assert before[1] == after[1] and after[2] < before[2] and after[3] == 0, out
    assert "no forced pass in the online style: met" in out


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_the_tap_table_and_the_aims(capsys: pytest.CaptureFixture[str]) -> None:
    click_count.main(["--games", "2"])
    out = capsys.readouterr().out
    assert re.search(r"^game +c/mv +1crd .* comps ", out, re.MULTILINE), out
    for game in (
        "podkidnoy, 2 players",
        "podkidnoy, 4 players",
        "podkidnoy, 6 players",
        "perevodnoy, 4 players",
        "big fool, 4 players",
        "big fool, 6 players",
    ):
        row = re.search(rf"^{game} +[\d.]+ +(\d+) ", out, re.MULTILINE)
        # a single-card move of a card with one one-card use: one click, partners or not
        assert row is not None and row.group(1) == "1", out
    assert re.search(r"^aims \(.*\): met$", out, re.MULTILINE), out
