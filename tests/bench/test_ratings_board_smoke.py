"""Keeps bench/ratings_board.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re

import pytest

from bench import ratings_board


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_every_query_and_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEST_DATABASE_URL", raising=False)
    ratings_board.main(["--results", "40", "--repeats", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^sqlite: 40 results, 10 games rated by the backfill in [\d.]+ s$", out, re.M)
    for query in ("rating board, all time", "rating board, last week", "profile", "fools board"):
        assert re.search(rf"^sqlite {query}.*\s[\d.]+ ms$", out, re.MULTILINE), out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"slowest board query: [\d.]+ ms \(sqlite [a-z ,]+\)", last), last
