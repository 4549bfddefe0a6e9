"""Keeps bench/ai_strength.py's per-variant run honest: every preset of the engine's registry
is matched (a new preset joins by itself), and a tiny run prints a line with both rates, the
95% interval and the sample size. Never a timing: figures depend on the machine."""

from __future__ import annotations

import re

import pytest

from bench import ai_strength
from engine import PRESETS, RuleSet


def test_every_preset_is_matched_at_a_table_it_allows() -> None:
    """Each level against the one below it, on every preset (issue 20)."""
    matches = ai_strength.variant_matches()
    assert [m[0] for m in matches] == [name for name in PRESETS for _ in range(2)]
    pairs = [set(kinds) for _, _, kinds in matches]
    assert pairs == [{"hard", "normal"}, {"normal", "easy"}] * len(PRESETS)
    for name, size, kinds in matches:
        assert size == f"{len(kinds)}p"
        RuleSet.preset(name, players=len(kinds))  # allowed
    sizes = {name: len(kinds) for name, _, kinds in matches}
    assert sizes["reverse"] == 2 and sizes["teams-2v2"] == 4


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_prints_both_rates(capsys: pytest.CaptureFixture[str]) -> None:
    ai_strength.main(["--variants", "--deals", "1", "--iterations", "4", "--only", "reverse "])
    out = capsys.readouterr().out
    line = re.search(
        r"^reverse 2p: hard vs normal\s+hard\s+[\d.]+% \[[\d.]+%, [\d.]+%\] of 2"
        r" \| normal\s+[\d.]+% \[[\d.]+%, [\d.]+%\] of 2 .*hard p95 \d+ms$",
        out,
        re.MULTILINE,
    )
    assert line, out


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_quick_run_of_issue_20_match_ups(capsys: pytest.CaptureFixture[str]) -> None:
    """The sparring partners play and the report names both rates, the intervals, the game
    count, think times and playouts/s (figures themselves are the bench's business)."""
    ai_strength.main(["--quick", "--deals", "1", "--only", "podkidnoy 2p"])
    out = capsys.readouterr().out
    for pair in ("hard vs hard-v1", "hard vs hoarder", "normal vs hoarder", "hard vs normal"):
        a, b = pair.split(" vs ")
        assert re.search(
            rf"^podkidnoy 2p: {pair}\s+{a}\s+[\d.]+% \[[\d.]+%, [\d.]+%\] of 2"
            rf" \| {b}\s+[\d.]+% \[[\d.]+%, [\d.]+%\] of 2 ",
            out,
            re.MULTILINE,
        ), out
    assert re.search(
        r"^hard think time, all moves, CPU: n=\d+ p50=\d+ms p95=\d+ms max=\d+ms$", out, re.MULTILINE
    ), out
    assert re.search(
        r"^hard playouts: \d+ in [\d.]+ CPU-s of sampled moves, \d+ playouts/s$", out, re.MULTILINE
    ), out


def test_every_issue_20_table_plays_each_pair() -> None:
    labels = {(p, n, tuple(dict.fromkeys(k))) for p, n, k in ai_strength.MATCHES}
    for preset, size in (("podkidnoy", "2p"), ("perevodnoy", "2p"), ("podkidnoy", "4p")):
        for pair in ai_strength.PAIRS:
            assert (preset, size, pair) in labels
