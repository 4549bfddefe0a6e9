"""Ratings storage on both backends: a game's rating against OpenSkill's own, seasons, the
backfill and its re-run, boards, profiles, achievements, settings."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from openskill.models import PlackettLuce

from bot.ratings import computer_id
from bot.storage import ResultEntry, Storage
from bot.storage.ratings import backfill, rate_game
from tests.storage.conftest import FakeClock
from tests.storage.helpers import start_lobby

GUILD = 77


def snapshot(
    n: int,
    order: Sequence[int],
    fool: int | None,
    *,
    kind: str = "fool",
    groups: Sequence[Sequence[int]] | None = None,
    teams: str = "none",
    losing_team: int | None = None,
) -> str:
    result = {
        "kind": kind,
        "fool": fool,
        "losers": [] if fool is None else [fool],
        "losing_team": losing_team,
        "finish_order": list(order),
    }
    events = [["attack", 0, [], -1, 0]]
    for g in groups if groups is not None else [[s] for s in order]:
        events += [["out", s, [], -1, 0] for s in g]
        events.append(["defend", 1, [], -1, 0])
    return json.dumps(
        {
            "format": 1,
            "game": {
                "rules": {"teams": teams},
                "hands": [[] for _ in range(n)],
                "out": list(order),
                "result": result,
            },
            "events": events[-8:],
        }
    )


async def play(
    st: Storage,
    seats: Sequence[int | str],
    outcomes: Sequence[str | None],
    state: str,
    *,
    guild: int = GUILD,
    preset: str = "podkidnoy",
    now: float | None = None,
    rate: bool = True,
) -> int:
    """A finished game: ``seats`` are user ids or computer levels, ``outcomes`` per seat."""
    host = next(s for s in seats if isinstance(s, int))
    game_id = await st.create_lobby(guild, 5, host, preset, now=now)
    for seat, who in enumerate(seats):
        if isinstance(who, int):
            await st.add_seat(game_id, display_name=f"P{who}", user_id=who, seat=seat)
        else:
            await st.add_seat(game_id, display_name=who, ai_difficulty=who, seat=seat)
    await start_lobby(st, game_id, "{}", now=now)
    entries = [
        ResultEntry(who, seat, outcome, None, "left" if outcome == "forfeit" else None)  # type: ignore[arg-type]
        for seat, (who, outcome) in enumerate(zip(seats, outcomes, strict=True))
        if isinstance(who, int) and outcome is not None
    ]
    await st.finish_game(game_id, entries, state, now=now)
    if rate:
        async with st.database.transaction() as conn:
            await rate_game(conn, game_id)
    return game_id


async def ratings_of(
    st: Storage, season_id: int | None = None
) -> dict[tuple[int, str, int], tuple[float, float, int]]:
    async with st.database.read() as conn:
        cur = await conn.execute("SELECT season_id, mode, player_id, mu, sigma, games FROM ratings")
        return {(r[0], r[1], r[2]): (r[3], r[4], r[5]) for r in await cur.fetchall()}


async def test_a_four_player_game_matches_openskill(storage: Storage, clock: FakeClock) -> None:
    # seat 2 out first, then 0 and 3 together, seat 1 the fool
    state = snapshot(4, [2, 0, 3], 1, groups=[[2], [0, 3]])
    game = await play(storage, [1, 2, 3, 4], ["win", "fool", "win", "win"], state)
    model = PlackettLuce()
    want = model.rate([[model.rating()] for _ in range(4)], ranks=[2, 3, 1, 2])
    got = await ratings_of(storage)
    for seat, user in enumerate((1, 2, 3, 4)):
        (mu, sigma, games) = next(v for k, v in got.items() if k[1] == "" and k[2] == user)
        assert mu == pytest.approx(want[seat][0].mu) and sigma == pytest.approx(want[seat][0].sigma)
        assert games == 1
    rating = await storage.game_rating(game)
    assert rating.rated
    by = {c.player_id: c for c in rating.changes}
    assert by[3].delta > by[1].delta > by[2].delta
    assert by[1].delta == by[4].delta  # went out together
    assert all(c.provisional for c in rating.changes)
    # the mode's own rating moved the same way
    assert sum(1 for k in got if k[1] == "podkidnoy") == 4
    assert "first_game" in {k for _, k in rating.achievements}


async def test_computer_levels_are_rated_and_abandoned_games_are_not(
    storage: Storage, clock: FakeClock
) -> None:
    game = await play(storage, [1, "easy"], ["win", None], snapshot(2, [0], 1))
    got = await ratings_of(storage)
    assert any(k[2] == computer_id("easy") for k in got)
    abandoned = await play(
        storage,
        [1, "hard"],
        ["forfeit", None],
        json.dumps({"game": {"out": [], "result": None, "hands": [[], []]}}),
    )
    assert not (await storage.game_rating(abandoned)).rated
    assert (await storage.game_rating(game)).rated
    season, board, total = await storage.rating_leaderboard(GUILD, min_games=1)
    assert season is not None and season.number == 1
    assert [e.player_id for e in board] == [1] and total == 1  # computers never on a board


async def test_team_game_rates_teams(storage: Storage) -> None:
    state = snapshot(4, [0, 2], 1, kind="team", teams="2v2", losing_team=1)
    await play(
        storage, [1, 2, 3, 4], ["win", "fool", "win", "lost_team"], state, preset="teams-2v2"
    )
    model = PlackettLuce()
    want = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2]
    )
    got = await ratings_of(storage)
    assert got[next(k for k in got if k[1] == "" and k[2] == 1)][0] == pytest.approx(want[0][0].mu)
    assert got[next(k for k in got if k[1] == "" and k[2] == 2)][0] == pytest.approx(want[1][0].mu)


async def test_backfill_rates_old_games_once_in_order_and_rebuild_is_identical(
    storage: Storage, clock: FakeClock
) -> None:
    async with storage.database.transaction() as conn:  # what migration 0008 leaves behind
        await conn.execute("DELETE FROM rating_jobs")
    for i in range(6):
        clock.advance(3600)
        fool = i % 3
        order = [s for s in (2, 0, 1) if s != fool]
        outs = ["fool" if s == fool else "win" for s in range(3)]
        await play(storage, [1, 2, 3], outs, snapshot(3, order, fool), rate=False)
    async with storage.database.transaction() as conn:  # as if played before migration 0008
        for table in ("rating_changes", "ratings", "achievements", "rating_players", "rated_games"):
            await conn.execute(f"DELETE FROM {table}")
    assert await ratings_of(storage) == {}
    assert await backfill(storage.database) == 0  # no job: nothing happens
    async with storage.database.transaction() as conn:
        await conn.execute("INSERT INTO rating_jobs (name) VALUES ('backfill')")
    assert await backfill(storage.database) == 6
    first = await ratings_of(storage)
    assert {v[2] for k, v in first.items() if k[1] == ""} == {6}
    assert await backfill(storage.database) == 0  # once
    assert await storage.rebuild_ratings() == 6
    assert await ratings_of(storage) == first
    # by hand: the same six games through OpenSkill in the same order
    model = PlackettLuce()
    r = {u: model.rating() for u in (1, 2, 3)}
    for i in range(6):
        fool = i % 3
        order = [s for s in (2, 0, 1) if s != fool]
        rank = {s: order.index(s) + 1 for s in order} | {fool: 3}
        new = model.rate([[r[1]], [r[2]], [r[3]]], ranks=[rank[0], rank[1], rank[2]])
        r = {1: new[0][0], 2: new[1][0], 3: new[2][0]}
    for u in (1, 2, 3):
        mu = first[next(k for k in first if k[1] == "" and k[2] == u)][0]
        assert mu == pytest.approx(r[u].mu)


async def test_new_season_starts_over_and_keeps_the_old_table(
    storage: Storage, clock: FakeClock
) -> None:
    for _ in range(3):
        clock.advance(60)
        await play(storage, [1, 2], ["win", "fool"], snapshot(2, [0], 1))
    old, board, _ = await storage.rating_leaderboard(GUILD, min_games=1)
    assert old is not None and [e.player_id for e in board] == [1, 2]
    clock.advance(60)
    new = await storage.new_season(GUILD, "Winter")
    assert (new.number, new.name) == (2, "Winter")
    season, board, total = await storage.rating_leaderboard(GUILD, min_games=1)
    assert season == new and board == [] and total == 0
    clock.advance(60)
    await play(storage, [1, 2], ["fool", "win"], snapshot(2, [1], 0))
    _, board, _ = await storage.rating_leaderboard(GUILD, min_games=1)
    assert [(e.player_id, e.games) for e in board] == [(2, 1), (1, 1)]
    kept, board, _ = await storage.rating_leaderboard(GUILD, season=1, min_games=1)
    assert kept is not None and kept.ended_at == new.started_at
    assert [(e.player_id, e.games) for e in board] == [(1, 3), (2, 3)]
    assert [s.number for s in await storage.rating_seasons(GUILD)] == [2, 1]


async def test_board_min_games_period_rank_change_and_profile(
    storage: Storage, clock: FakeClock
) -> None:
    for _ in range(6):
        clock.advance(86400)
        await play(storage, [1, 2, 3], ["win", "fool", "win"], snapshot(3, [0, 2], 1))
    await play(storage, [4, 2], ["win", "fool"], snapshot(2, [0], 1))
    _, board, total = await storage.rating_leaderboard(GUILD, min_games=5)
    assert [e.player_id for e in board] == [1, 3, 2] and total == 3
    _, week, _ = await storage.rating_leaderboard(GUILD, min_games=1, period="week")
    assert {e.player_id for e in week} == {1, 2, 3, 4}
    # everyone started the season this week, at 1000
    assert all(e.period_delta == e.display - 1000 for e in week)
    clock.advance(8 * 86400)  # a new week: everyone's standing then = now
    _, board, _ = await storage.rating_leaderboard(GUILD, min_games=5)
    assert [e.rank_change for e in board] == [0, 0, 0]
    p = await storage.rating_profile(GUILD, 2)
    assert (p.games, p.fools, p.rated_games, p.current_streak) == (7, 7, 7, 0)
    assert p.rank == 3 and len(p.history) == 7 and p.history[-1] == p.display
    assert [pid for pid, _, _ in p.loses_to][:2] == [1, 3]
    p1 = await storage.rating_profile(GUILD, 1)
    assert p1.best_streak == 6 and p1.favourite_mode == "podkidnoy"
    assert {"first_game", "first_escape", "streak_5"} <= {k for k, _ in p1.achievements}


async def test_cross_server_ladder_only_for_servers_that_opted_in(
    storage: Storage, clock: FakeClock
) -> None:
    await play(storage, [1, 2], ["win", "fool"], snapshot(2, [0], 1), guild=1)
    await storage.update_rating_settings(2, cross_server=True, min_games=1)
    assert (await storage.rating_settings(2)).cross_server
    await play(storage, [1, 3], ["win", "fool"], snapshot(2, [0], 1), guild=2)
    _, ladder, _ = await storage.rating_leaderboard(2, cross_server=True, min_games=1)
    assert [e.player_id for e in ladder] == [1, 3]
    assert ladder[0].games == 1  # the game in server 1 stayed in server 1
    with pytest.raises(ValueError):
        await storage.update_rating_settings(2, min_games=0)


async def test_upgrade_from_0007_backfills_old_games_in_finishing_order(
    db_url: str, clock: FakeClock
) -> None:
    """A server's history counts from day one: games finished before migration 0008 are
    rated when the upgraded database first opens, oldest first, once."""
    async with await Storage.open(db_url, target_version=7, clock=clock) as old:
        for fool in (1, 0, 1):
            clock.advance(600)
            game_id = await old.create_lobby(GUILD, 5, 1, "podkidnoy", host_display_name="P1")
            await old.add_seat(game_id, display_name="P2", user_id=2)
            await start_lobby(old, game_id, "{}")
            outcomes = ["fool" if s == fool else "win" for s in range(2)]
            await old.finish_game(
                game_id,
                [
                    ResultEntry(u, s, o)
                    for s, (u, o) in enumerate(zip((1, 2), outcomes, strict=True))
                ],  # type: ignore[arg-type]
                snapshot(2, [1 - fool], fool),
            )
    async with await Storage.open(db_url, clock=clock) as st:
        season, board, _ = await st.rating_leaderboard(GUILD, min_games=1)
        assert season is not None and season.number == 1
        assert [(e.player_id, e.games) for e in board] == [(1, 3), (2, 3)]  # 2 was the fool twice
        first = await ratings_of(st)
    async with await Storage.open(db_url, clock=clock) as st:  # reopening rates nothing again
        assert await ratings_of(st) == first
        model = PlackettLuce()
        a, b = model.rating(), model.rating()
        for fool in (1, 0, 1):
            ranks = [2, 1] if fool == 0 else [1, 2]
            (a,), (b,) = model.rate([[a], [b]], ranks=ranks)
        mu1 = first[next(k for k in first if k[1] == "" and k[2] == 1)][0]
        assert mu1 == pytest.approx(a.mu)


async def test_the_sessions_out_groups_decide_ties_over_the_kept_events(storage: Storage) -> None:
    """Seats 0 and 3 went out with one move long before the end: the kept events no longer
    show it, the snapshot's out_groups (kept by the session) do."""
    data = json.loads(snapshot(4, [2, 0, 3], 1, groups=[[2], [0], [3]]))
    data["out_groups"] = [[2], [0, 3]]
    game = await play(storage, [1, 2, 3, 4], ["win", "fool", "win", "win"], json.dumps(data))
    rating = await storage.game_rating(game)
    places = {c.player_id: c.place for c in rating.changes}
    assert places == {3: 1, 1: 2, 4: 2, 2: 3}


async def test_a_game_played_with_hints_is_counted_but_not_rated(
    storage: Storage, clock: FakeClock
) -> None:
    state = snapshot(2, [0], 1)
    game = await storage.create_lobby(GUILD, 5, 1, "podkidnoy")
    for seat, who in enumerate((1, 2)):
        await storage.add_seat(game, display_name=f"P{who}", user_id=who, seat=seat)
    await start_lobby(storage, game, "{}")
    async with storage.database.transaction() as conn:  # seat 0 asked for a hint
        await conn.execute(
            "INSERT INTO game_hints (game_id, seat, user_id, hints) VALUES (?, 0, 1, 2)", (game,)
        )
    entries = [ResultEntry(1, 0, "win", None, None), ResultEntry(2, 1, "fool", None, None)]
    await storage.finish_game(game, entries, state)
    assert not (await storage.game_rating(game)).rated
    assert await ratings_of(storage) == {}
    # the same game without hints is rated (the hint row alone made the difference)
    plain = await play(storage, [1, 2], ["win", "fool"], state)
    assert (await storage.game_rating(plain)).rated
