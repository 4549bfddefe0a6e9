"""bench/first_answer.py runs, and on discord.py's real webhook adapter the bot's quick tries
get a refused first answer through where discord.py alone would still be sleeping."""

from __future__ import annotations

import re

import pytest

from bench import first_answer


@pytest.mark.parametrize("status", [503, 500, 429])
async def test_a_refused_first_answer_is_taken_by_the_third_try(status: int) -> None:
    taken, arrived = await first_answer.run_case(status, 2, quick=True)
    # discord.py's own retry of a 5xx waits 1 s, then 3 s: only the trace's early end of
    # each refused try lets three tries happen before the bot's deadline
    assert taken and len(arrived) == 3


async def test_a_lasting_refusal_gives_up_at_the_window() -> None:
    taken, arrived = await first_answer.run_case(503, 100, quick=True, window=1.0)
    assert not taken and 2 <= len(arrived) < 100


@pytest.mark.slow(sample=0)  # waits out discord.py's own retries: CI only
def test_the_bench_prints_every_case(capsys: pytest.CaptureFixture[str]) -> None:
    first_answer.main(["--refusals", "1"])
    out = capsys.readouterr().out
    rows = re.findall(r"^ +(\d{3})  (discord\.py alone|bot \(quick tries\)) +(yes|NO)", out, re.M)
    assert len(rows) == 6, out
    assert all(ok == "yes" for _, who, ok in rows if who.startswith("bot")), out
