"""Keeps bench/loop_floor.py runnable: a tiny run, checking the report's shape, never a time."""

from __future__ import annotations

import re

import discord
import pytest
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

from bench import loop_floor


@pytest.mark.slow(sample=0)  # runs the benchmark: CI (a full sweep) only
def test_tiny_run_replays_every_request_kind_and_puts_simcord_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = (
        FakeHTTPClient.request,
        FakeWebhookAdapter.request,
        discord.state.ConnectionState.parse_interaction_create,
    )
    loop_floor.main(["--games", "1", "--moves", "3", "--repeats", "1"])
    out = capsys.readouterr().out
    recorded = re.search(r"requests recorded: \{(.*)\}", out)
    assert recorded is not None, out
    # every move of a two-player game with both hands open: the answer, the other hand, the
    # table (its edit interval has passed by the next move)
    assert re.findall(r"'([a-z ]+)': 3", recorded[1]) == ["other hand", "answer", "table"], out
    for part in loop_floor.PARTS:
        assert re.search(rf"^  {re.escape(part)}\s+\d+\.\d{{3}}$", out, re.MULTILINE), out
    assert re.search(r"^  floor per move\s+\d+\.\d{3}  \(issue 30", out, re.MULTILINE), out
    after = (
        FakeHTTPClient.request,
        FakeWebhookAdapter.request,
        discord.state.ConnectionState.parse_interaction_create,
    )
    assert after == before
