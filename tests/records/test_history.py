"""``/durak history`` and ``/durak profile vs`` by clicks (simcord): a finished game is listed
with its place, its Replay button opens the replay, paging answers after a restart of the
view, and the head-to-head counts the game."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.surfaces.history_views import HistoryButton, sparkline
from tests.bot.helpers import play_out, service
from tests.bot.test_play import start_game


@pytest.mark.slow(sample=1)  # a whole game: not in make check
async def test_history_lists_the_game_and_replays_it_and_profile_vs_compares(
    simcord_env: simcord.Env, world: Any
) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    empty = await alice.slash(channel, "durak history")
    assert empty.ephemeral and "No finished games" in empty.response.embeds[0].description
    game_id = await start_game(world, ["alice", "bob"])
    await play_out(env, channel, game_id, [alice, bob])
    session = service(env).session(game_id) or await service(env).ended_session(game_id)
    assert session is not None and session.game.result is not None
    fool = session.game.result.fool

    listed = await alice.slash(channel, "durak history")
    assert listed.ephemeral
    shown = listed.response.message
    text = shown.embeds[0].description
    assert f"Game #{game_id}" in text and "alice, bob" in text and "<t:" in text
    assert ("the fool" in text) == (fool == 0)
    ids = [c.custom_id for row in shown.components for c in row.children]
    assert f"durak:rec:{game_id}:replay" in ids and f"durak:rec:{game_id}:review" in ids

    opened = await alice.click(shown, custom_id=f"durak:rec:{game_id}:replay")
    assert opened.ephemeral and opened.response is not None
    assert f"Replay of game #{game_id}" in opened.response.embeds[0].title

    # Carol looks at bob's history: his game, Replay but no Review (she did not play).
    theirs = await carol.slash(channel, "durak history", player=bob)
    ids = [c.custom_id for row in theirs.response.message.components for c in row.children]
    assert f"durak:rec:{game_id}:replay" in ids and f"durak:rec:{game_id}:review" not in ids

    vs = await alice.slash(channel, "durak profile", vs=bob)
    assert vs.ephemeral and len(vs.response.embeds) == 2
    h2h = vs.response.embeds[1]
    assert "alice vs bob" in h2h.title
    assert "Games together: **1**" in h2h.description
    ahead = "alice" if fool == 1 else "bob"
    assert f"Finished ahead — {ahead}: **1**" in h2h.description
    alone = await alice.slash(channel, "durak profile", vs=carol)
    assert "have not finished a game together" in alone.response.embeds[1].description
    same = await alice.slash(channel, "durak profile", vs=alice)
    assert "needs two" in same.response.content


@pytest.mark.slow(sample=1)  # a long rated history (~2.5 CPU s): in make test, not make check
def test_history_page_ids_fit_and_sparklines_rise_with_the_rating() -> None:
    button = HistoryButton(2**63 - 1, 10**6, "next", "Next")
    assert len(button.item.custom_id or "") <= 100
    assert sparkline([1000, 1010, 1005, 1030]) == "▁▃▂█"
    assert sparkline([5]) == "▁"
