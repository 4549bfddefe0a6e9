"""Server life through simcord: results of fool/draw/team/forfeit games, the leaderboard and
stats, forfeits (the fool's task), house rules (/durak settings), threads, allowed channels
and the server language."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

import bot.surfaces.leaderboard_views
from bot.app import DurakBot
from bot.i18n import catalog
from bot.storage import DEFAULT_FORFEITS
from engine import Game
from tests.bot.conftest import SEED, make_config
from tests.bot.helpers import (
    custom_ids,
    leave_running,
    message,
    message_text,
    play_out,
    service,
    start_against_computer,
)
from tests.bot.test_play import start_game

COCKEREL = "Crawl under the table and crow like a cockerel"


def life_bot(db: Path, **config: Any) -> DurakBot:
    return DurakBot(
        make_config(db, **config),
        sync="global",
        seed_factory=lambda: SEED,
        forfeit_rng=random.Random(7),
    )


@pytest.fixture
def simcord_bot(db_path: Path) -> DurakBot:
    return life_bot(db_path)


@contextmanager
def interaction_locales(
    monkeypatch: pytest.MonkeyPatch, locales: dict[int, str], guild_locale: str | None = None
) -> Iterator[None]:
    """simcord hard-codes en-US; patch the payload builder (docs/testing-with-simcord.md §13)."""
    original = simcord.interactions.base_payload

    def patched(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        if kwargs["user_id"] in locales:
            payload["locale"] = locales[kwargs["user_id"]]
        if guild_locale is not None and "guild_id" in payload:
            payload["guild_locale"] = guild_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", patched)
    yield
    monkeypatch.setattr(simcord.interactions, "base_payload", original)


def set_position(env: simcord.Env, game_id: int, **position: Any) -> None:
    """Jump a started game to a hand-made endgame (same rules), so a test can finish it in a
    couple of clicks and know the result in advance."""
    session = service(env).session(game_id)
    assert session is not None
    session.game = Game.from_position(session.game.rules, **position)


async def finish(env: simcord.Env, world: dict[str, Any], names: list[str], **kwargs: Any) -> int:
    game_id = await start_game(world, names, **kwargs.pop("options", {}))
    set_position(env, game_id, trump_card="6h", talon=[], table=[], **kwargs)
    await play_out(env, world["channel"], game_id, [world[n] for n in names])
    return game_id


def lines(msg: discord.Message) -> list[str]:
    return (msg.embeds[0].description or "").splitlines()


# --------------------------------------------------------------------------- results


@pytest.mark.slow(sample=1)  # whole games: in make test, not make check
async def test_results_leaderboard_and_stats_count_fools_draws_teams_and_forfeits(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel = simcord_env, world["channel"]
    alice, bob, carol, dave = (world[n] for n in ("alice", "bob", "carol", "dave"))
    storage = service(env).storage

    # 1. bob cannot beat and takes: bob is the fool and gets a forfeit from the default list.
    g1 = await finish(
        env, world, ["alice", "bob"], hands=[["6s"], ["7d", "8d"]], attacker=0, defender=1
    )
    rows = await storage.game_results(g1)
    assert [(r.user_id, r.outcome) for r in rows] == [(alice.id, "win"), (bob.id, "fool")]
    assert rows[0].forfeit_text is None and rows[1].forfeit_text in DEFAULT_FORFEITS["en"]
    announcement = channel.history()[-1].content
    assert f"<@{bob.id}> is the fool!" in announcement
    assert f"<@{bob.id}>, your dare: {rows[1].forfeit_text}" in announcement

    # 2. carol beats the last card: both are out at once, a draw without a forfeit.
    g2 = await finish(
        env, world, ["alice", "carol"], hands=[["6s"], ["7s"]], attacker=0, defender=1
    )
    rows = await storage.game_results(g2)
    assert [(r.outcome, r.forfeit_text) for r in rows] == [("draw", None), ("draw", None)]
    assert "draw" in channel.history()[-1].content

    # 3. Teams 2 vs 2 (alice+carol against bob+dave): bob takes, the bob/dave team loses.
    g3 = await finish(
        env,
        world,
        ["alice", "bob", "carol", "dave"],
        options={"mode": "teams-2v2"},
        hands=[["6s"], ["7d", "8d"], [], ["9c"]],
        attacker=0,
        defender=1,
    )
    rows = await storage.game_results(g3)
    assert [r.outcome for r in rows] == ["win", "lost_team", "win", "lost_team"]
    # The losing partners share one forfeit.
    assert rows[1].forfeit_text is not None and rows[1].forfeit_text == rows[3].forfeit_text
    assert f"<@{bob.id}>, <@{dave.id}>, your dare:" in channel.history()[-1].content

    # 4. dave walks out of a two-player game: too few humans remain, dave is the fool.
    await env.advance_time(60)  # so "most recent" has a meaning for the favourite mode
    g4 = await start_game(world, ["alice", "dave"])
    await play_out(env, channel, g4, [alice, dave], stop_after=1)  # a move: the game counts
    left = await leave_running(dave, channel)
    assert left.response is not None
    rows = await storage.game_results(g4)
    assert [(r.user_id, r.outcome, r.forfeit_reason) for r in rows] == [
        (alice.id, "win", None),
        (dave.id, "forfeit", "left"),
    ]
    assert rows[1].forfeit_text is not None
    table = message_text(message(channel, service(env).session(g4).message_id or 0))  # type: ignore[union-attr]
    assert "the game ends here" in table and "is its fool" in table

    # The board: a forfeit is a fool and a forfeit; lost_team is a fool; a draw is neither.
    board = await alice.slash(channel, "durak leaderboard", sort="fools")
    assert not board.ephemeral
    shown = lines(board.response.message)
    assert shown == [
        f"**1.** <@{bob.id}> — fool 2 of 2 (100%), forfeits 0, wins 0",
        f"**2.** <@{dave.id}> — fool 2 of 2 (100%), forfeits 1, wins 0",
        f"**3.** <@{alice.id}> — fool 0 of 4 (0%), forfeits 0, wins 3",
        f"**4.** <@{carol.id}> — fool 0 of 2 (0%), forfeits 0, wins 1",
    ]
    record = await alice.slash(channel, "durak leaderboard", sort="record", period="week")
    # Best record needs 3 games: only alice qualifies.
    assert lines(record.response.message) == [shown[2].replace("**3.**", "**1.**")]

    stats = await carol.slash(channel, "durak stats", player=dave)
    assert stats.ephemeral
    fields = {f.name: f.value for f in stats.response.embeds[0].fields}
    assert (fields["Games"], fields["Times the fool"], fields["Forfeits (left or timed out)"]) == (
        "2",
        "2",
        "1",
    )
    assert fields["Fool rate"] == "100%" and fields["Wins"] == "0"
    # One teams game and one podkidnoy game: the tie goes to the latest.
    assert fields["Favourite mode"] == "Podkidnoy (throw-in)"
    own = await alice.slash(channel, "durak stats")
    fields = {f.name: f.value for f in own.response.embeds[0].fields}
    assert (fields["Wins"], fields["Draws"], fields["Longest run without being the fool"]) == (
        "3",
        "1",
        "4 games",
    )

    # Pages: two per page gives two pages with persistent buttons.
    monkeypatch.setattr(bot.surfaces.leaderboard_views, "LEADERBOARD_PAGE_SIZE", 2)
    paged = await alice.slash(channel, "durak leaderboard", sort="fools")
    first = paged.response.message
    assert lines(first) == shown[:2] and "Page 1/2" in (first.embeds[0].footer.text or "")
    turned = await carol.click(first, label="Next ▶")
    second = message(channel, first.id)
    assert turned.response is not None and turned.response.id == first.id
    assert lines(second) == shown[2:] and "Page 2/2" in (second.embeds[0].footer.text or "")
    back = await carol.click(second, label="◀ Back")
    assert back.response is not None and lines(message(channel, first.id)) == shown[:2]

    # A stale button (the board now fits on one page) is answered politely, not with an error.
    old = message(channel, first.id)
    monkeypatch.setattr(bot.surfaces.leaderboard_views, "LEADERBOARD_PAGE_SIZE", 10)
    stale = await bob.click(old, label="Next ▶")
    assert stale.followups and stale.followups[0].ephemeral
    assert "leaderboard changed" in stale.followups[0].content
    assert lines(message(channel, first.id)) == shown
    assert custom_ids(message(channel, first.id), "durak:lb:") == [
        "durak:lb:all:fools:0:prev",
        "durak:lb:all:fools:1:next",
    ]


# --------------------------------------------------------------------------- forfeits


async def test_forfeits_add_remove_list_and_the_fools_task(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    listed = await alice.slash(channel, "durak forfeits list")
    assert listed.ephemeral
    text = message_text(listed.response.message)
    assert all(f in text for f in DEFAULT_FORFEITS["en"]) and "built-in" in text

    refused = await alice.slash(channel, "durak forfeits add", text=COCKEREL)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    refused = await alice.slash(channel, "durak forfeits remove", number=1)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    assert len(await service(simcord_env).forfeits(world["guild"].id, "en")) == len(
        DEFAULT_FORFEITS["en"]
    )

    for _ in DEFAULT_FORFEITS["en"]:
        removed = await mod.slash(channel, "durak forfeits remove", number=1)
        assert removed.ephemeral and removed.response.content.startswith("Dare removed:")
    missing = await mod.slash(channel, "durak forfeits remove", number=3)
    assert missing.response.content == "There is no dare #3."
    emptied = await alice.slash(channel, "durak forfeits list")
    assert "the fool gets away with it" in message_text(emptied.response.message)
    added = await mod.slash(channel, "durak forfeits add", text=COCKEREL)
    assert added.response.content == f"Dare #1 added: {COCKEREL}"
    listed = await alice.slash(channel, "durak forfeits list")
    assert f"1. {COCKEREL}" in message_text(listed.response.message)

    game_id = await finish(
        simcord_env,
        world,
        ["alice", "bob"],
        hands=[["6s"], ["7d", "8d"]],
        attacker=0,
        defender=1,
    )
    announcement = channel.history()[-1].content
    assert f"<@{world['bob'].id}>, your dare: {COCKEREL}" in announcement
    rows = await service(simcord_env).storage.game_results(game_id)
    assert [r.forfeit_text for r in rows] == [None, COCKEREL]

    await mod.slash(channel, "durak forfeits reset")
    assert len(await service(simcord_env).forfeits(world["guild"].id, "en")) == len(
        DEFAULT_FORFEITS["en"]
    )


# --------------------------------------------------------------------------- settings


async def test_settings_are_for_admins_only(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    refused = await alice.slash(channel, "durak settings", timer=30)
    assert refused.ephemeral
    assert refused.response.content == catalog("en")["error.settings_admin_only"]
    shown = await alice.slash(channel, "durak settings")
    assert shown.response.content == catalog("en")["error.settings_admin_only"]
    settings = await service(simcord_env).settings(world["guild"].id)
    assert settings.turn_timer_seconds == 0  # the bot's configured default, unchanged

    saved = await mod.slash(channel, "durak settings", timer=30)
    assert saved.ephemeral and saved.response.content == "Settings saved."
    assert "30 s" in message_text(saved.response.message)
    too_short = await mod.slash(channel, "durak settings", timer=5)
    assert "between 15 and 3600" in too_short.response.content
    assert (await service(simcord_env).settings(world["guild"].id)).turn_timer_seconds == 30


@pytest.mark.slow(sample=1)  # whole games: in make test, not make check
async def test_house_rules_shape_new_games(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, mod = world["channel"], world["alice"], world["mod"]
    await mod.slash(
        channel,
        "durak settings",
        mode="perevodnoy",
        seats=3,
        deck=52,
        difficulty="hard",
        trump_exchange="off",
    )
    created = await alice.slash(channel, "durak new")
    lobby = created.response.message
    text = message_text(lobby)
    assert "Perevodnoy (transfer)" in text and "Players (1, up to 3)" in text
    assert "52-card deck" in text
    await alice.click(lobby, label="Add computer")
    await alice.click(message(channel, lobby.id), label="Add computer")
    assert message_text(message(channel, lobby.id)).count("(computer, Hard)") == 2
    await alice.click(message(channel, lobby.id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None
    rules = session.game.rules
    assert (rules.players, rules.deck_size, rules.transfer, rules.trump_exchange) == (
        3,
        52,
        "before_beat",
        "off",
    )
    await alice.slash(channel, "durak cancel")
    # Another mode explicitly chosen keeps its own rules (house overrides go with the default).
    other = await alice.slash(channel, "durak new", mode="podkidnoy", seats=2)
    assert "Players (1, up to 2)" in message_text(other.response.message)
    await alice.click(other.response.message, label="Add computer")
    await alice.click(message(channel, other.response.id), label="Start")
    game = service(simcord_env).session(2)
    assert game is not None and game.game.rules.trump_exchange == "lowest"
    assert game.game.rules.deck_size == 52  # seats/deck defaults still apply


async def test_allowed_channels(simcord_env: simcord.Env, world: Any) -> None:
    guild, channel, alice, mod = world["guild"], world["channel"], world["alice"], world["mod"]
    tables = guild.create_text_channel("durak-tables")
    await mod.slash(channel, "durak settings", channel=tables)
    refused = await alice.slash(channel, "durak new")
    assert refused.ephemeral
    assert refused.response.content == (f"Durak is not played in this channel. Try: <#{tables.id}>")
    allowed = await alice.slash(tables, "durak new")
    assert not allowed.ephemeral and allowed.response.embeds
    await alice.slash(tables, "durak cancel")
    await mod.slash(channel, "durak settings", all_channels=True)
    again = await alice.slash(channel, "durak new")
    assert not again.ephemeral


async def test_games_in_threads(simcord_env: simcord.Env, world: Any) -> None:
    channel, alice, bob, mod = world["channel"], world["alice"], world["bob"], world["mod"]
    simcord_env.bot.pings.watch_idle = 0  # players without a live hand count as away
    await mod.slash(channel, "durak settings", threads=True)
    created = await alice.slash(channel, "durak new")
    (thread,) = channel.threads
    assert thread.is_thread and thread.name == "Durak #1"
    assert created.response.content == (
        f"<@{alice.id}> opened a Durak table: <#{thread.id}> — join there!"
    )
    lobby = thread.history()[-1]
    assert "Durak lobby" in message_text(lobby)
    await bob.click(lobby, label="Join")
    await alice.click(message(thread, lobby.id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None and session.channel_id == thread.id
    assert custom_ids(message(thread, lobby.id)) == ["durak:show:1", "durak:watch:1:new"]
    # The turn ping goes to the thread, and the parent channel stays free for another table.
    assert any("your turn to lead" in m.content for m in thread.history())
    second = await world["carol"].slash(channel, "durak new")
    assert not second.ephemeral and len(channel.threads) == 2


# --------------------------------------------------------------------------- languages


async def test_server_language_and_user_locale(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel, alice, bob, mod = world["channel"], world["alice"], world["bob"], world["mod"]
    ru = catalog("ru")
    # A Russian-speaking user gets ephemeral answers in Russian in an English server.
    with interaction_locales(monkeypatch, {alice.id: "ru"}):
        refused = await alice.slash(channel, "durak leave")
        assert refused.ephemeral and refused.response.content == ru["error.no_active_game"]
        listed = await alice.slash(channel, "durak forfeits list")  # her language
        assert DEFAULT_FORFEITS["ru"][0] in message_text(listed.response.message)
        assert ru["forfeits.title"] == listed.response.embeds[0].title
        created = await alice.slash(channel, "durak new")
        # ...but the public lobby follows the server (English here).
        assert "Durak lobby" in message_text(created.response.message)
        await alice.slash(channel, "durak cancel")

    # The server picks Russian: public tables, pings and results are Russian.
    simcord_env.bot.pings.watch_idle = 0  # players without a live hand count as away
    saved = await mod.slash(channel, "durak settings", language="ru")
    assert saved.response.content == "Settings saved."
    created = await alice.slash(channel, "durak new")
    lobby = created.response.message
    assert ru["lobby.button.join"] in message_text(lobby)
    game_id = int(custom_ids(lobby)[0].split(":")[2])
    await bob.click(lobby, custom_id=f"durak:lobby:{game_id}:join")
    await alice.click(message(channel, lobby.id), custom_id=f"durak:lobby:{game_id}:start")
    session = service(simcord_env).session(game_id)
    assert session is not None and session.locale == "ru"
    assert any(m.content.startswith("<@") and "ваш ход" in m.content for m in channel.history())
    table = message_text(message(channel, session.message_id or 0))
    assert "Козырь" in table and ru["table.button.show_hand"] in table
    assert "Дурак №" in table
    # English-speaking users still get their own hands in English.
    shown = await bob.click(
        message(channel, session.message_id or 0), custom_id=f"durak:show:{game_id}"
    )
    assert shown.response is not None and "Your hand" in message_text(shown.response.message)
    await alice.slash(channel, "durak cancel")


async def test_server_discord_language_is_the_fallback(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel, alice = world["channel"], world["alice"]
    with interaction_locales(monkeypatch, {}, guild_locale="ru"):
        created = await alice.slash(channel, "durak new")
        assert catalog("ru")["lobby.button.join"] in message_text(created.response.message)
        board = await alice.slash(channel, "durak leaderboard")
        assert board.response.embeds[0].title.startswith("Таблица лидеров")
    await alice.slash(channel, "durak cancel")


async def test_a_russian_server_without_a_choice_gets_russian_dares(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dares follow the message they are in: the result speaks the server's Discord
    language (no admin choice: guild_settings.locale is still its default), so do they."""
    env, channel, alice, bob = simcord_env, world["channel"], world["alice"], world["bob"]
    with interaction_locales(monkeypatch, {}, guild_locale="ru"):
        created = await alice.slash(channel, "durak new", seats=2)
        lobby = created.response.message
        game_id = int(custom_ids(lobby)[0].split(":")[2])
        await bob.click(lobby, custom_id=f"durak:lobby:{game_id}:join")
        await alice.click(message(channel, lobby.id), custom_id=f"durak:lobby:{game_id}:start")
        set_position(
            env,
            game_id,
            trump_card="6h",
            talon=[],
            table=[],
            hands=[["6s"], ["7d", "8d"]],
            attacker=0,
            defender=1,
        )
        await play_out(env, channel, game_id, [alice, bob])
        listed = await bob.slash(channel, "durak forfeits list")
    assert not (await service(env).settings(world["guild"].id)).locale_explicit
    rows = await service(env).storage.game_results(game_id)
    assert rows[1].forfeit_text in DEFAULT_FORFEITS["ru"]
    announcement = channel.history()[-1].content
    assert f"<@{bob.id}>, ваш фант: {rows[1].forfeit_text}" in announcement
    # /durak forfeits list answers privately, in the reader's language (English here).
    assert DEFAULT_FORFEITS["en"][0] in message_text(listed.response.message)


async def test_synced_commands_carry_russian_localisations(
    simcord_env: simcord.Env, world: Any
) -> None:
    synced = [
        r for r in simcord_env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    assert synced
    (durak,) = [c for c in synced[-1].json if c["name"] == "durak"]
    ru = catalog("ru")
    assert durak["name_localizations"]["ru"] == ru["cmd.durak.name"]
    assert durak["description_localizations"]["ru"] == ru["cmd.durak.description"]
    subs = {o["name"]: o for o in durak["options"]}
    for name in ("new", "leaderboard", "stats", "settings", "forfeits", "leave"):
        assert subs[name]["name_localizations"]["ru"] == ru[f"cmd.durak.{name}.name"]
    settings_options = {o["name"]: o for o in subs["settings"]["options"]}
    assert settings_options["timer"]["name_localizations"]["ru"] == ru["cmd.param.timer.name"]
    forfeit_subs = {o["name"] for o in subs["forfeits"]["options"]}
    assert forfeit_subs == {"list", "add", "remove", "reset"}


async def test_a_server_may_keep_latin_ranks(simcord_env: simcord.Env, world: Any) -> None:
    """``/durak settings ranks``: local letters by default, Latin when the server says so;
    a running table switches at once, the picture and the buttons alike."""
    from bot.cardart.labels import LATIN_RANKS, rank_labels
    from bot.pictures.scene import table_scene
    from bot.surfaces.hand_labels import _unit_label
    from engine import Card

    env, channel, alice, mod = simcord_env, world["channel"], world["alice"], world["mod"]
    session = await start_against_computer(channel, alice, env)
    session.locale = "ru"
    assert session.local_ranks and table_scene(session).ranks == rank_labels("ru")
    saved = await mod.slash(channel, "durak settings", ranks="latin")
    assert "J Q K A" in message_text(saved.response.message)
    assert not (await service(env).settings(world["guild"].id)).local_ranks
    assert not session.local_ranks and table_scene(session).ranks == LATIN_RANKS
    queen = Card.parse("Qs")
    assert _unit_label(queen, False, False, "ru", session.local_ranks) == "Q♠"
    await mod.slash(channel, "durak settings", ranks="local")
    assert session.local_ranks
    assert _unit_label(queen, False, False, "ru", session.local_ranks) == "Д♠"
