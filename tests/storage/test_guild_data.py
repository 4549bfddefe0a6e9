"""Guild settings, forfeits, leaderboard and personal stats."""

from __future__ import annotations

import random

import pytest

from bot.storage import DEFAULT_FORFEITS, GuildSettings, ResultEntry, Storage
from tests.storage.conftest import FakeClock
from tests.storage.helpers import start_lobby

GUILD = 100
DAY = 86400.0


async def test_guild_settings_are_read_once_a_while_and_forgotten_on_change(
    storage: Storage,
) -> None:
    # Every move reads its guild's settings; the database is asked once per lifetime.
    now = [1000.0]
    storage._monotonic = lambda: now[0]
    reads = 0
    read = storage.database.read

    def counting_read():  # type: ignore[no-untyped-def]
        nonlocal reads
        reads += 1
        return read()

    storage.database.read = counting_read  # type: ignore[method-assign]
    await storage.update_guild_settings(GUILD, locale="ru")
    for _ in range(5):
        assert (await storage.get_guild_settings(GUILD)).locale == "ru"
    assert reads == 1
    # A change through the storage is seen at once, without waiting for the lifetime.
    await storage.update_guild_settings(GUILD, locale="en")
    assert (await storage.get_guild_settings(GUILD)).locale == "en"
    await storage.add_forfeit(GUILD, "Sing a song")
    assert (await storage.get_guild_settings(GUILD)).locale == "en"
    assert reads == 3
    # A change made outside the bot (a script on the database) is seen after the lifetime.
    async with storage.database.transaction() as conn:
        await conn.execute("UPDATE guild_settings SET locale = 'ru' WHERE guild_id = ?", (GUILD,))
    assert (await storage.get_guild_settings(GUILD)).locale == "en"
    now[0] += storage.settings_lifetime
    assert (await storage.get_guild_settings(GUILD)).locale == "ru"
    # A guild without a row gets today's defaults, also from the remembered absence.
    assert (await storage.get_guild_settings(GUILD + 1)).turn_timer_seconds == (
        storage.default_turn_timer_seconds
    )
    storage.default_turn_timer_seconds = 45
    assert (await storage.get_guild_settings(GUILD + 1)).turn_timer_seconds == 45


async def test_guild_settings_defaults_and_update(storage: Storage) -> None:
    assert await storage.get_guild_settings(GUILD) == GuildSettings(guild_id=GUILD)
    updated = await storage.update_guild_settings(
        GUILD,
        locale="ru",
        use_threads=True,
        allowed_channel_ids=[5, 6],
        default_options={"transfer": True},
    )
    assert updated.locale == "ru" and updated.use_threads and updated.locale_explicit
    assert await storage.get_guild_settings(GUILD) == updated
    assert updated.allowed_channel_ids == (5, 6)
    assert updated.channel_allowed(5) and not updated.channel_allowed(7)
    again = await storage.update_guild_settings(GUILD, turn_timer_seconds=30)
    assert (again.locale, again.turn_timer_seconds, again.default_options) == (
        "ru",
        30,
        {"transfer": True},
    )
    cleared = await storage.update_guild_settings(GUILD, allowed_channel_ids=None)
    assert cleared.channel_allowed(12345)
    with pytest.raises(ValueError):
        await storage.update_guild_settings(GUILD, locale="de")
    with pytest.raises(ValueError):
        await storage.update_guild_settings(GUILD, colour="red")
    assert (await storage.get_guild_settings(GUILD)).locale == "ru"
    assert await storage.get_guild_settings(GUILD + 1) == GuildSettings(guild_id=GUILD + 1)


async def test_card_ranks_default_local_and_switch_to_latin(storage: Storage) -> None:
    assert (await storage.get_guild_settings(GUILD)).local_ranks
    latin = await storage.update_guild_settings(GUILD, local_ranks=False)
    assert not latin.local_ranks
    # Changing another setting keeps the choice (the row is read back: both backends).
    assert not (await storage.update_guild_settings(GUILD, use_threads=True)).local_ranks
    assert not (await storage.get_guild_settings(GUILD)).local_ranks
    assert (await storage.update_guild_settings(GUILD, local_ranks=True)).local_ranks


async def test_table_pictures_default_on_and_switch_off(storage: Storage) -> None:
    assert (await storage.get_guild_settings(GUILD)).pictures
    off = await storage.update_guild_settings(GUILD, pictures=False)
    assert not off.pictures
    # Changing another setting keeps the choice; switching back works.
    assert not (await storage.update_guild_settings(GUILD, use_threads=True)).pictures
    assert not (await storage.get_guild_settings(GUILD)).pictures
    assert (await storage.update_guild_settings(GUILD, pictures=True)).pictures
    assert (await storage.get_guild_settings(GUILD + 1)).pictures


async def test_forfeits_defaults_add_remove(storage: Storage) -> None:
    defaults = await storage.list_forfeits(GUILD)
    assert [f.text for f in defaults] == list(DEFAULT_FORFEITS["en"])
    assert all(f.is_default and f.id is None for f in defaults)

    await storage.update_guild_settings(GUILD + 1, locale="ru")
    assert [f.text for f in await storage.list_forfeits(GUILD + 1)] == list(DEFAULT_FORFEITS["ru"])

    added = await storage.add_forfeit(GUILD, "  Do ten push-ups  ")
    assert added.text == "Do ten push-ups" and added.id is not None
    items = await storage.list_forfeits(GUILD)
    assert [f.text for f in items] == [*DEFAULT_FORFEITS["en"], "Do ten push-ups"]
    assert not any(f.is_default for f in items)

    removed = await storage.remove_forfeit(GUILD, 1)
    assert removed is not None and removed.text == DEFAULT_FORFEITS["en"][0]
    assert await storage.remove_forfeit(GUILD, 999) is None
    assert len(await storage.list_forfeits(GUILD)) == len(DEFAULT_FORFEITS["en"])

    # Emptying the list means "no forfeits", not "back to defaults".
    while await storage.list_forfeits(GUILD):
        await storage.remove_forfeit(GUILD, 1)
    assert await storage.list_forfeits(GUILD) == []
    assert await storage.pick_forfeit(GUILD) is None

    await storage.reset_forfeits(GUILD)
    assert [f.text for f in await storage.list_forfeits(GUILD)] == list(DEFAULT_FORFEITS["en"])
    assert await storage.pick_forfeit(GUILD, random.Random(1)) in DEFAULT_FORFEITS["en"]

    # Removing from a never-edited list works by position too.
    removed = await storage.remove_forfeit(GUILD + 2, 2)
    assert removed is not None and removed.text == DEFAULT_FORFEITS["en"][1]
    with pytest.raises(ValueError):
        await storage.add_forfeit(GUILD, "   ")
    with pytest.raises(ValueError):
        await storage.add_forfeit(GUILD, "x" * 201)


async def _play(
    storage: Storage,
    clock: FakeClock,
    outcomes: dict[int, str],
    preset: str = "podkidnoy",
    guild: int = GUILD,
) -> int:
    users = list(outcomes)
    game_id = await storage.create_lobby(
        guild, 1, users[0], preset, host_display_name=str(users[0])
    )
    for user in users[1:]:
        await storage.add_seat(game_id, user_id=user, display_name=str(user))
    await start_lobby(storage, game_id, "{}", 1)
    await storage.finish_game(
        game_id,
        [ResultEntry(u, i, o) for i, (u, o) in enumerate(outcomes.items())],  # type: ignore[arg-type]
        "{}",
    )
    clock.advance(1)
    return game_id


async def test_leaderboard_periods_and_sorting(storage: Storage, clock: FakeClock) -> None:
    # 40 days ago: user 1 is the fool twice.
    await _play(storage, clock, {1: "fool", 2: "win"})
    await _play(storage, clock, {1: "fool", 3: "win"})
    clock.advance(20 * DAY)  # 20 days ago
    await _play(storage, clock, {2: "fool", 3: "win"})
    clock.advance(15 * DAY)  # 5 days ago
    await _play(storage, clock, {3: "fool", 2: "win", 4: "forfeit"})
    await _play(storage, clock, {3: "lost_team", 2: "win", 4: "win"})
    await _play(storage, clock, {1: "draw", 2: "draw"}, guild=GUILD + 1)  # other guild
    clock.advance(5 * DAY)
    now = clock.now

    board = await storage.leaderboard(GUILD, "all", "fools", now=now)
    # A forfeit counts as being the fool (user 4) and as a forfeit.
    assert [(e.rank, e.user_id, e.fools, e.games, e.forfeits) for e in board] == [
        (1, 1, 2, 2, 0),
        (2, 3, 2, 4, 0),
        (3, 4, 1, 2, 1),
        (4, 2, 1, 4, 0),
    ]
    assert board[0].fool_rate == 1.0 and board[1].fool_rate == 0.5

    month = await storage.leaderboard(GUILD, "month", "fools", now=now)
    assert [(e.user_id, e.games, e.fools) for e in month] == [(3, 3, 2), (4, 2, 1), (2, 3, 1)]

    week = await storage.leaderboard(GUILD, "week", "fools", now=now)
    assert {e.user_id: (e.games, e.fools, e.wins, e.forfeits) for e in week} == {
        3: (2, 2, 0, 0),
        2: (2, 0, 2, 0),
        4: (2, 1, 1, 1),
    }
    assert [e.user_id for e in week] == [3, 4, 2]

    record = await storage.leaderboard(GUILD, "all", "record", now=now)
    assert [e.user_id for e in record] == [2, 3, 4, 1]  # 3 and 4 tie on rate: more games
    picky = await storage.leaderboard(GUILD, "all", "record", now=now, min_games=3)
    assert [e.user_id for e in picky] == [2, 3]

    page2 = await storage.leaderboard(GUILD, "all", "fools", limit=2, offset=2, now=now)
    assert [(e.rank, e.user_id) for e in page2] == [(3, 4), (4, 2)]
    assert await storage.leaderboard_size(GUILD, "all", now=now) == 4
    assert await storage.leaderboard_size(GUILD, "week", now=now) == 3

    other = await storage.leaderboard(GUILD + 1, now=now)
    assert [(e.user_id, e.draws) for e in other] == [(1, 1), (2, 1)]
    with pytest.raises(ValueError):
        await storage.leaderboard(GUILD, "year", now=now)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await storage.leaderboard(GUILD, "all", "name", now=now)  # type: ignore[arg-type]


async def test_user_stats(storage: Storage, clock: FakeClock) -> None:
    empty = await storage.user_stats(GUILD, 1)
    assert (empty.games, empty.favourite_preset, empty.longest_fool_free_streak) == (0, None, 0)
    assert empty.fool_rate == 0.0

    sequence = [
        ("win", "podkidnoy"),
        ("draw", "podkidnoy"),
        ("fool", "perevodnoy"),
        ("win", "perevodnoy"),
        ("win", "perevodnoy"),
        ("win", "podkidnoy"),
        ("forfeit", "podkidnoy"),
        ("win", "perevodnoy"),
    ]
    for outcome, preset in sequence:
        other = "win" if outcome != "win" else "fool"
        await _play(storage, clock, {1: outcome, 2: other}, preset=preset)
    stats = await storage.user_stats(GUILD, 1)
    # The forfeit is counted as a fool too.
    assert (stats.games, stats.fools, stats.wins, stats.draws, stats.forfeits) == (8, 2, 5, 1, 1)
    assert stats.longest_fool_free_streak == 3
    assert stats.current_fool_free_streak == 1
    # 4 vs 4: the tie goes to the most recently played preset.
    assert stats.favourite_preset == "perevodnoy"
    assert stats.fool_rate == pytest.approx(2 / 8)
    assert stats.last_played_at == clock.now - 1
    assert (await storage.user_stats(GUILD + 1, 1)).games == 0


async def test_threads_follow_the_default_until_a_guild_sets_them(storage: Storage) -> None:
    assert (await storage.get_guild_settings(GUILD)).use_threads  # the default is on
    # Saving another setting stores a row, but threads still follow the default...
    await storage.update_guild_settings(GUILD, turn_timer_seconds=30)
    storage.default_use_threads = False
    assert not (await storage.get_guild_settings(GUILD)).use_threads
    storage.default_use_threads = True
    assert (await storage.get_guild_settings(GUILD)).use_threads
    # ...until an admin sets them: then the choice holds whatever the default.
    chosen = await storage.update_guild_settings(GUILD, use_threads=False)
    assert chosen.threads_explicit and not chosen.use_threads
    assert not (await storage.get_guild_settings(GUILD)).use_threads
    # A forfeit edit creates the row with column defaults: still the bot's default.
    await storage.add_forfeit(GUILD + 1, "Sing")
    assert (await storage.get_guild_settings(GUILD + 1)).use_threads


async def test_player_prefs_are_per_user_and_default_to_pings_on(storage: Storage) -> None:
    assert (await storage.get_player_prefs(7)).pings
    saved = await storage.set_player_prefs(7, pings=False)
    assert not saved.pings and not (await storage.get_player_prefs(7)).pings
    assert (await storage.get_player_prefs(8)).pings
    await storage.set_player_prefs(7, pings=True)
    assert (await storage.get_player_prefs(7)).pings


async def test_spectator_delay_is_saved_and_lobbies_are_listed_per_guild(
    storage: Storage,
) -> None:
    """Migration 0010's setting round-trips on both backends, and ``guild_lobbies`` lists a
    guild's open lobbies with their options (where "invite only" lives), oldest first."""
    assert (await storage.get_guild_settings(GUILD)).spectator_delay is False
    saved = await storage.update_guild_settings(GUILD, spectator_delay=True)
    assert saved.spectator_delay is True
    assert (await storage.get_guild_settings(GUILD)).spectator_delay is True
    await storage.update_guild_settings(GUILD, locale="ru")  # other changes keep it
    assert (await storage.get_guild_settings(GUILD)).spectator_delay is True

    first = await storage.create_lobby(GUILD, 1, 10, "podkidnoy", host_display_name="a")
    second = await storage.create_lobby(
        GUILD, 2, 11, "podkidnoy", {"invite_only": True}, host_display_name="b"
    )
    await storage.create_lobby(GUILD + 1, 3, 12, "podkidnoy", host_display_name="c")
    rows = await storage.guild_lobbies(GUILD)
    assert [r.id for r in rows] == [first, second]
    assert rows[1].options["invite_only"] is True
    await storage.update_game_options(first, {"invite_only": True})
    assert (await storage.guild_lobbies(GUILD))[0].options["invite_only"] is True
