"""A whole Swiss tournament on simcord: sign-up by buttons, rounds started by the bot, a
no-show forfeited by the turn timer, a restart in the middle of round 2 (with a game that
ended while the tournament was not listening), and the final standings."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.game.models import GameSession
from tests.bot.conftest import make_bot
from tests.bot.helpers import message, service
from tests.bot.tournament_play import TURN, move_present, play_round, tournament_world

NAMES = ["ann", "ben", "cat", "dan", "eva", "fay", "gus", "nemo"]


@pytest.mark.slow  # a dozen whole games by clicks: in make test, not in make check
async def test_swiss_tournament_with_a_no_show_and_a_restart(db_path: Path) -> None:
    async with simcord.run(make_bot(db_path)) as env:
        world = tournament_world(env, NAMES)
        channel, mod = world["channel"], world["mod"]
        await mod.slash(channel, "durak tournament settings", seconds=TURN)
        opened = await mod.slash(channel, "durak tournament new", rounds=3, minutes=5)
        assert opened.response is not None and not opened.ephemeral
        announcement = message(channel, opened.response.id)
        for name in NAMES:
            joined = await world[name].click(announcement, label="Sign up")
            assert joined.ephemeral and "signed up" in (joined.response.content or "")
        again = await world["ann"].click(message(channel, opened.response.id), label="Sign up")
        assert "already signed up" in (again.response.content or "")
        svc = service(env)
        view = await svc.tournament_view(1)
        assert len(view.entrants) == 8 and view.row.status == "signup"
        shown = message(channel, opened.response.id).embeds[0]
        assert any("8" in (f.name or "") for f in shown.fields)

        absent = {world["nemo"].id}
        await env.advance_time(5 * 60 + 1)
        await env.settle()
        view = await svc.tournament_view(1)
        assert view.row.status == "running" and view.row.round == 1
        assert len(view.round_tables(1)) == 4
        threads = channel.threads
        assert len(threads) == 4
        # Each table is a game in a thread of its own, its message the game's table.
        assert sorted(th.name for th in threads) == [
            f"Tournament 1 · round 1 · table {n}" for n in (1, 2, 3, 4)
        ]
        for table in view.round_tables(1):
            assert table.game_id is not None
            session = svc.session(table.game_id)
            assert session is not None and session.channel_id in [th.id for th in threads]
            assert [s.user_id for s in session.seats] == list(table.players)
        await play_round(env, world, 1, 1, absent)

        # Round 2: two tables finish, the third ends while the tournament is not listening
        # (as if the bot stopped right after the game's last commit), then a restart.
        view = await svc.tournament_view(1)
        assert view.row.round == 2
        await play_round(env, world, 1, 2, absent, stop_after_games=1)
        svc = service(env)

        async def deaf(session: GameSession) -> None:
            return None

        svc._game_ended = deaf  # type: ignore[method-assign]
        view = await svc.tournament_view(1)
        silent = next(
            t for t in view.round_tables(2) if not t.over and absent.isdisjoint(t.players)
        )
        assert silent.game_id is not None
        while not (session := svc.session(silent.game_id)).finished:  # type: ignore[union-attr]
            assert session is not None and await move_present(world, session, absent)
        await env.settle()
        unscored = [t for t in (await svc.tournament_view(1)).round_tables(2) if not t.over]
        assert silent.number in [t.number for t in unscored]

        await env.bot.close()
        await env.restart_bot(make_bot(db_path))
        world.pop("tables", None)  # the table messages are read again from the new bot
        await env.settle()
        svc = service(env)
        view = await svc.tournament_view(1)
        assert view.row.round == 2
        assert next(t for t in view.round_tables(2) if t.number == silent.number).over
        await play_round(env, world, 1, 2, absent)
        await play_round(env, world, 1, 3, absent)
        await env.settle()

        view = await svc.tournament_view(1)
        assert view.row.status == "finished" and view.row.round == 3
        tables = [t for t in view.tables if not t.bye]
        assert len(tables) == 12 and all(t.over for t in tables)
        pairs = [frozenset(t.players) for t in tables]
        assert len(pairs) == len(set(pairs)), "a pairing repeated"
        by_id = {s.user_id: s for s in view.standings}
        nemo = by_id[world["nemo"].id]
        assert nemo.score == 0 and nemo.rank == 8
        assert sum(s.score for s in view.standings) == 12
        winner = view.standings[0]
        assert view.row.winner_id == winner.user_id and winner.score >= 2
        # One public message per round, plus the announcement and the final standings.
        posts = [m for m in channel.history() if m.author.bot]
        rounds = [m for m in posts if "round" in (m.content or "") and m.attachments]
        assert len(rounds) == 3
        assert any("is over" in (m.content or "") and m.attachments for m in posts)
        final = message(channel, opened.response.id).embeds[0]
        assert any("Winner" in (f.value or "") for f in final.fields)
        wins = await svc.tournament_wins(world["guild"].id, winner.user_id)
        assert wins == 1
        profile = await svc.storage.rating_profile(world["guild"].id, winner.user_id)
        assert "tournament_win" in [k for k, _ in profile.achievements]
        champion = next(world[n] for n in NAMES if world[n].id == winner.user_id)
        card = await mod.slash(channel, "durak profile", player=champion)
        assert card.ephemeral and card.response is not None
        text = card.response.embeds[0].description or ""
        assert "Tournaments won: 1" in text
        assert "Champion" in " ".join(f.value or "" for f in card.response.embeds[0].fields)
        await env.bot.close()


@pytest.mark.slow  # two whole games by clicks and a no-show timed out
async def test_single_elimination_runs_to_its_winner(db_path: Path) -> None:
    """Four players, two rounds: round 1 has one table played out by clicks and one whose
    absent player is timed out (the loser of each goes home), the final is played out, and
    its winner is the tournament's."""
    names = ["ann", "ben", "cat", "nemo"]
    async with simcord.run(make_bot(db_path)) as env:
        world = tournament_world(env, names)
        channel, mod = world["channel"], world["mod"]
        await mod.slash(channel, "durak tournament settings", seconds=TURN)
        opened = await mod.slash(channel, "durak tournament new", format="elimination", minutes=5)
        assert opened.response is not None
        for name in names:
            await world[name].click(message(channel, opened.response.id), label="Sign up")
        await env.advance_time(5 * 60 + 1)
        await env.settle()
        svc = service(env)
        view = await svc.tournament_view(1)
        assert view.row.format == "elimination" and view.row.status == "running"
        assert view.row.rounds == 2 and len(view.round_tables(1)) == 2
        nemo = world["nemo"].id
        await play_round(env, world, 1, 1, {nemo})

        view = await svc.tournament_view(1)
        assert view.row.round == 2
        first = view.round_tables(1)
        assert all(t.over for t in first)
        winners = {max(t.players, key=lambda p: (t.points or {}).get(p, 0.0)) for t in first}
        assert nemo not in winners
        (final,) = view.round_tables(2)
        assert set(final.players) == winners  # the losers went home
        await play_round(env, world, 1, 2, set())
        await env.settle()

        view = await svc.tournament_view(1)
        assert view.row.status == "finished"
        (final,) = view.round_tables(2)
        champion = max(final.players, key=lambda p: (final.points or {}).get(p, 0.0))
        assert view.row.winner_id == champion and view.standings[0].user_id == champion
        assert await svc.tournament_wins(world["guild"].id, champion) == 1
        posts = [m for m in channel.history() if m.author.bot]
        assert sum(1 for m in posts if "round" in (m.content or "") and m.attachments) == 2
        assert any("is over" in (m.content or "") and m.attachments for m in posts)
        await env.bot.close()
