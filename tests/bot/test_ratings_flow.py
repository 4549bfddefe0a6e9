"""Ratings through simcord: seeded games played by clicks are rated as OpenSkill rates the same
finishing order, the result message carries each player's change and the achievements, the
rating board and the profile (text and pictures), server settings, and a season reset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from openskill.models import PlackettLuce

from bot.cardart.emojis import wanted_emojis
from bot.i18n import t
from bot.ratings import display_rating
from tests.bot.helpers import service
from tests.bot.test_server_life import finish, life_bot, lines


@pytest.fixture
def simcord_bot(db_path: Path) -> Any:
    return life_bot(db_path)


@pytest.fixture(autouse=True)
def _card_faces_drawn() -> None:
    """Draw the 105 card emoji faces before the bot starts (they are cached per process):
    on a loaded machine drawing them at start outlasted simcord's fixed 5 s start-up settle,
    which is about the machine, not about ratings."""
    wanted_emojis()


def _shown(delta: int) -> str:
    return f"{delta:+d}".replace("-", "−")


@pytest.mark.slow(sample=1)  # whole games: in make test, not make check
async def test_games_are_rated_like_openskill_and_shown(
    simcord_env: simcord.Env, world: Any
) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, carol, mod = (world[n] for n in ("alice", "bob", "carol", "mod"))
    model = PlackettLuce()
    r = {u.id: model.rating() for u in (alice, bob, carol)}

    def expect(order: list[list[Any]]) -> dict[int, tuple[int, int]]:
        """OpenSkill's own update for ``order`` (groups tie); user id -> (before, after)."""
        teams, ranks = [], []
        for place, group in enumerate(order, start=1):
            for u in group:
                teams.append([r[u.id]])
                ranks.append(place)
        new = model.rate(teams, ranks=ranks)
        out = {}
        flat = [u for g in order for u in g]
        for u, (n,) in zip(flat, new, strict=True):
            out[u.id] = (
                display_rating(r[u.id].mu, r[u.id].sigma),
                display_rating(n.mu, n.sigma),
            )
            r[u.id] = n
        return out

    # 1. bob cannot beat and takes: alice out first, bob the fool.
    await finish(env, world, ["alice", "bob"], hands=[["6s"], ["7d", "8d"]], attacker=0, defender=1)
    want = expect([[alice], [bob]])
    text = channel.history()[-1].content
    for u in (alice, bob):
        before, after = want[u.id]
        assert f"<@{u.id}> {_shown(after - before)} ({after}?)" in text, text
    assert "🏅" in text and "First deal" in text

    # 2. carol beats the last card: both out at once, a draw ties them.
    await finish(env, world, ["alice", "carol"], hands=[["6s"], ["7s"]], attacker=0, defender=1)
    want = expect([[alice, carol]])
    text = channel.history()[-1].content
    for u in (alice, carol):
        before, after = want[u.id]
        assert f"<@{u.id}> {_shown(after - before)} ({after}?)" in text, text

    # the stored ratings are OpenSkill's
    storage = service(env).storage
    async with storage.database.read() as conn:
        cur = await conn.execute(
            "SELECT r.player_id, r.mu, r.sigma FROM ratings r JOIN rating_seasons s"
            " ON s.id = r.season_id WHERE s.guild_id = ? AND r.mode = ''",
            (world["guild"].id,),
        )
        stored = {row[0]: (row[1], row[2]) for row in await cur.fetchall()}
    for u in (alice, bob, carol):
        assert stored[u.id] == pytest.approx((r[u.id].mu, r[u.id].sigma))
    # the backfill's path: forget every rating and rate the finished games again, in order
    assert await storage.rebuild_ratings() == 2
    async with storage.database.read() as conn:
        cur = await conn.execute(
            "SELECT r.player_id, r.mu, r.sigma FROM ratings r JOIN rating_seasons s"
            " ON s.id = r.season_id WHERE s.guild_id = ? AND r.mode = ''",
            (world["guild"].id,),
        )
        assert {row[0]: (row[1], row[2]) for row in await cur.fetchall()} == stored

    # 3. the board: the default is the rating; min. games is a setting
    empty = await alice.slash(channel, "durak leaderboard")
    assert "appears after 5 rated games" in (empty.response.message.embeds[0].description or "")
    refused = await alice.slash(channel, "durak settings", min_games=1)
    assert refused.ephemeral
    await mod.slash(channel, "durak settings", min_games=1)
    board = await alice.slash(channel, "durak leaderboard")
    msg = board.response.message
    rows = lines(msg)
    order = sorted((alice, bob, carol), key=lambda u: -display_rating(r[u.id].mu, r[u.id].sigma))
    assert [row.split(" — ")[0] for row in rows] == [
        f"**{i}.** <@{u.id}>" for i, u in enumerate(order, start=1)
    ]
    assert [a.filename for a in msg.attachments] == ["leaderboard.png"]
    assert "Season 1" in (msg.embeds[0].footer.text or "")
    fools = await alice.slash(channel, "durak leaderboard", sort="fools")
    assert lines(fools.response.message)[0].startswith(f"**1.** <@{bob.id}> — fool 1 of 1")

    # 4. the profile: a card and the same figures as text, only for the asker
    profile = await carol.slash(channel, "durak profile", player=alice)
    assert profile.ephemeral
    embed = profile.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Games"] == "2" and fields["Not the fool"] == "100%"
    assert str(display_rating(r[alice.id].mu, r[alice.id].sigma)) in (embed.description or "")
    assert [a.filename for a in profile.response.attachments] == ["profile.png"]

    # 5. a new season: admins only; ratings start over, the old table stays
    refused = await alice.slash(channel, "durak season new")
    assert refused.ephemeral
    started = await mod.slash(channel, "durak season new", name="Winter")
    assert "Season 2 “Winter”" in (started.response.content or "")
    fresh = await alice.slash(channel, "durak leaderboard")
    assert "appears after 1 rated game." in (fresh.response.message.embeds[0].description or "")
    old = await alice.slash(channel, "durak leaderboard", season=1)
    assert lines(old.response.message) == rows
    listed = await bob.slash(channel, "durak season list")
    assert listed.ephemeral
    seasons = (listed.response.embeds[0].description or "").splitlines()
    assert seasons[0].startswith("Season 2 “Winter” · since ")
    assert seasons[1].startswith("Season 1 · since ") and " · until " in seasons[1]
    # the cross-server table is off until an admin opts the server in
    # (a private refusal: no public post with dead page buttons; the option as the client
    # shows a True/False option)
    cross = await alice.slash(channel, "durak leaderboard", scope="all")
    assert cross.ephemeral and not cross.response.message.components
    assert "does not share its ratings" in cross.response.content
    assert "`cross_server: True`" in cross.response.content
    # a season that never was, and a page the board does not have: private refusals too
    nowhere = await alice.slash(channel, "durak leaderboard", season=7)
    assert nowhere.ephemeral and "no season 7" in nowhere.response.content
    beyond = await alice.slash(channel, "durak leaderboard", season=1, page=2)
    assert beyond.ephemeral and beyond.response.content == t(
        "leaderboard.no_page", "en", page=2, pages=1
    )
    beyond = await alice.slash(channel, "durak leaderboard", sort="fools", page=3)
    assert beyond.ephemeral and "There is no page 3" in beyond.response.content
