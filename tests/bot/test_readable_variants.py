"""Variants a player can follow from the text: partners shown from the lobby on, point and
epaulet fool's result as a score ranking with the scores, Magadan's open and closed cards
counted apart (issue 18, "Variants readable")."""

from __future__ import annotations

import pytest

from bot.i18n import t, tn
from bot.pictures.samples import sample_lobby, sample_session
from bot.rendering.common import score_texts
from bot.rendering.lobby import lobby_embed
from bot.rendering.result import result_text
from bot.rendering.table import table_embed


def test_partners_are_shown_in_the_lobby() -> None:
    info = sample_lobby(3, max_seats=4)
    info.preset = "teams-2v2"
    players = lobby_embed(info).fields[0].value or ""
    lines = players.splitlines()
    assert len(lines) == 3
    for seat, line in enumerate(lines):
        assert line.endswith(f"· team {seat % 2 + 1}"), line
    info.preset = "podkidnoy"
    assert "team" not in (lobby_embed(info).fields[0].value or "")


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_partners_are_shown_on_the_table(locale: str) -> None:
    session = sample_session("teams-2v2", 4, "attack", seed=3, locale=locale)
    assert session is not None
    lines = (table_embed(session).fields[0].value or "").splitlines()
    word = t("table.team_marker", locale, name="", team=1).split()[1]
    for seat, line in enumerate(lines):
        assert f"{word} {session.game.team_of(seat) + 1}" in line, line
    plain = sample_session("podkidnoy", 4, "attack", seed=3, locale=locale)
    assert plain is not None
    assert word not in (table_embed(plain).fields[0].value or "")


@pytest.mark.parametrize(("preset", "players"), [("point", 4), ("point", 2), ("epaulet", 3)])
def test_a_scoring_result_ranks_by_score_and_shows_the_scores(preset: str, players: int) -> None:
    session = sample_session(preset, players, "end", seed=3)
    assert session is not None
    obs = session.game.public_observation()
    result = obs.result
    assert result is not None
    text = result_text(session, "en")
    assert "Went out" not in text and "went out first" not in text
    heading = t("announce.scores_order", "en", items="").split(":")[0]
    line = next(x for x in text.splitlines() if x.startswith(heading))
    scores = score_texts(obs, "en")
    for score in scores:
        assert score in line
    # the fool is ranked last, and every seat is ranked once
    assert line.count(" — ") == players
    if result.fool is not None:
        last = line.rsplit(", ", 1)[-1]
        assert last.endswith(f"— {scores[result.fool]}.")
    plain = sample_session("podkidnoy", players, "end", seed=3)
    assert plain is not None
    assert heading not in result_text(plain, "en")


def test_magadan_counts_open_and_closed_cards_apart() -> None:
    session = sample_session("magadan", 2, "attack", seed=3)
    assert session is not None
    obs = session.game.public_observation()
    lines = (table_embed(session).fields[0].value or "").splitlines()
    for seat, line in enumerate(lines):
        if obs.closed[seat]:
            assert f"{obs.hand_sizes[seat]} open, {obs.closed[seat]} closed" in line, line
            assert tn("plural.cards", obs.hand_sizes[seat], "en") not in line
    ru = sample_session("magadan", 2, "attack", seed=3, locale="ru")
    assert ru is not None
    assert "закрытых" in (table_embed(ru).fields[0].value or "")
