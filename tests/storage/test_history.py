"""A player's past games and a head-to-head, on both backends."""

from __future__ import annotations

import json

from bot.storage import Storage
from tests.storage.conftest import FakeClock
from tests.storage.test_ratings import play, snapshot


async def test_history_pages_newest_first_with_places_and_rating_changes(
    storage: Storage, clock: FakeClock
) -> None:
    first = await play(storage, [1, 2], ["win", "fool"], snapshot(2, [0], 1))
    clock.advance(60)
    second = await play(storage, [2, 1, "easy"], ["win", "fool", None], snapshot(3, [0, 2], 1))
    clock.advance(60)
    abandoned = json.dumps({"game": {"out": [], "result": None, "hands": [[], []]}})
    unrated = await play(storage, [1, "hard"], ["forfeit", None], abandoned, rate=False)
    page, total = await storage.player_games(77, 1, offset=0, limit=2)
    assert total == 3
    assert [e.game_id for e in page] == [unrated, second]
    assert page[0].place is None and page[0].rating_after is None and page[0].fool
    assert page[1].place == 3 and page[1].fool
    assert [(s.name, s.user_id, s.ai) for s in page[1].seats] == [
        ("P2", 2, None),
        ("P1", 1, None),
        ("easy", None, "easy"),
    ]
    assert page[1].rating_after is not None and page[1].rating_before is not None
    assert page[1].rating_after < page[1].rating_before
    rest, _ = await storage.player_games(77, 1, offset=2, limit=2)
    assert [e.game_id for e in rest] == [first]
    assert rest[0].place == 1 and not rest[0].fool
    assert rest[0].rating_after is not None and rest[0].rating_before is not None
    assert rest[0].rating_after > rest[0].rating_before
    assert await storage.player_games(78, 1, offset=0, limit=5) == ([], 0)


async def test_head_to_head_counts_who_finished_ahead_and_the_fools(
    storage: Storage, clock: FakeClock
) -> None:
    await play(storage, [1, 2], ["win", "fool"], snapshot(2, [0], 1))
    clock.advance(60)
    await play(storage, [1, 2], ["win", "fool"], snapshot(2, [0], 1))
    clock.advance(60)
    await play(storage, [2, 1, 3], ["win", "fool", "win"], snapshot(3, [0, 2], 1))
    clock.advance(60)
    await play(storage, [1, 3], ["win", "fool"], snapshot(2, [0], 1))  # not shared
    h2h = await storage.head_to_head(77, 1, 2)
    assert len(h2h.games) == 3
    assert (h2h.ahead_a, h2h.ahead_b) == (2, 1)
    assert (h2h.fools_a, h2h.fools_b) == (1, 2)
    assert all(g.rating_a is not None and g.rating_b is not None for g in h2h.games)
    assert h2h.games[0].finished_at < h2h.games[-1].finished_at
    other = await storage.head_to_head(77, 2, 1)
    assert (other.ahead_a, other.ahead_b, other.fools_a) == (1, 2, 2)
    assert (await storage.head_to_head(77, 2, 3)).games[0].ahead == 1
    assert (await storage.head_to_head(77, 1, 4)).games == ()


async def test_the_quick_queue_toggles_and_takes_a_table_whole(storage: Storage) -> None:
    assert await storage.queue_toggle(77, 1, mode="p", channel_id=5, name="A", rating=1000)
    assert await storage.queue_toggle(77, 2, mode="p", channel_id=6, name="B", rating=1100)
    queue = await storage.queue(77)
    assert [(w.user_id, ch, name) for w, ch, name in queue] == [(1, 5, "A"), (2, 6, "B")]
    assert not await storage.queue_toggle(77, 2, mode="p", channel_id=6, name="B", rating=1100)
    assert not await storage.queue_take(77, [1, 2])  # 2 left: nothing is taken
    assert [w.user_id for w, _, _ in await storage.queue(77)] == [1]
    assert await storage.queue_take(77, [1])
    assert await storage.queue(77) == [] and not await storage.queue_leave(77, 1)
