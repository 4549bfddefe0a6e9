"""The quick-match queue between joins (bot/game/quick_offers.py), on both backends and a
fake clock: a visit pairs players whose window has widened since they joined, and a player
who waited the server's time is offered the computer once — not again at the next visit,
again after a send a restart cut short, never after Discord refused it for good."""

from __future__ import annotations

import pytest

from bot.game.errors import ServiceError
from bot.game.quick import QuickTable
from bot.game.service import GameService
from bot.storage import Storage
from bot.storage.quick import QueuedOffer
from tests.storage.conftest import FakeClock

GUILD = 77


class Recorder:
    """A QuickPublisher that keeps what the loop asked for; ``refuse`` answers an offer as
    closed direct messages, ``fail`` raises once (a transient Discord failure)."""

    def __init__(self) -> None:
        self.tables: list[QuickTable] = []
        self.offers: list[QueuedOffer] = []
        self.refuse = False
        self.fail = False

    async def open_tables(self, guild_id: int, tables: tuple[QuickTable, ...]) -> None:
        self.tables += tables

    async def offer(self, guild_id: int, offer: QueuedOffer) -> int | None:
        if self.fail:
            self.fail = False
            raise ConnectionError("Discord is away")
        self.offers.append(offer)
        return None if self.refuse else 9000 + offer.user_id


def service(storage: Storage, clock: FakeClock, recorder: Recorder) -> GameService:
    svc = GameService(storage, clock=clock)
    svc.quick_publisher = recorder
    return svc


async def wait(storage: Storage, user_id: int, rating: int = 1000, mode: str = "podkidnoy") -> None:
    assert await storage.queue_toggle(
        GUILD, user_id, mode=mode, channel_id=5, name=f"p{user_id}", rating=rating, locale="ru"
    )


async def test_a_visit_pairs_players_whose_window_has_widened(
    storage: Storage, clock: FakeClock
) -> None:
    recorder = Recorder()
    svc = service(storage, clock, recorder)
    await wait(storage, 1, 1000)
    await wait(storage, 2, 1300)
    clock.advance(10)
    await svc.quick_tick()  # 300 apart, the window is 150 wide: nobody is seated
    assert recorder.tables == [] and len(await storage.queue(GUILD)) == 2
    clock.advance(30)
    await svc.quick_tick()  # 40 s: 100 + 5·40 = 300
    assert [[p.user_id for p in t.players] for t in recorder.tables] == [[1, 2]]
    assert recorder.tables[0].computers == 0
    assert await storage.queue(GUILD) == [] and await storage.queue_guilds() == []


async def test_the_computer_is_offered_once_after_the_servers_wait(
    storage: Storage, clock: FakeClock
) -> None:
    recorder = Recorder()
    svc = service(storage, clock, recorder)
    await wait(storage, 1)
    clock.advance(120)
    await svc.quick_tick()
    assert recorder.offers == []  # the server set no wait: never offered
    await svc.configure(GUILD, quick_computer=60)
    await wait(storage, 2, 3000)  # too far from 1 to pair for minutes
    await svc.quick_tick()
    assert [o.user_id for o in recorder.offers] == [1]
    assert recorder.offers[0].locale == "ru" and not recorder.offers[0].claimed
    clock.advance(30)
    await svc.quick_tick()
    assert [o.user_id for o in recorder.offers] == [1]  # 2 waited 30 s of 60
    clock.advance(30)
    recorder.fail = True  # Discord fails the offer to 2 once
    await svc.quick_tick()
    assert [o.user_id for o in recorder.offers] == [1]
    # a new process (a restart) sends the claimed offer again, and only that one
    recorder2 = Recorder()
    await service(storage, clock, recorder2).quick_tick()
    assert [(o.user_id, o.claimed) for o in recorder2.offers] == [(2, True)]
    await service(storage, clock, recorder2).quick_tick()
    assert len(recorder2.offers) == 1
    assert await storage.queue_offers_due(GUILD, 60) == []


async def test_closed_direct_messages_are_not_asked_again(
    storage: Storage, clock: FakeClock
) -> None:
    recorder = Recorder()
    recorder.refuse = True
    svc = service(storage, clock, recorder)
    await svc.configure(GUILD, quick_computer=30)
    await wait(storage, 1)
    clock.advance(31)
    await svc.quick_tick()
    await svc.quick_tick()
    assert len(recorder.offers) == 1
    assert [w.user_id for w, _, _ in await storage.queue(GUILD)] == [1]  # still waiting


async def test_taking_the_offer_leaves_the_queue_with_a_table_for_the_computer(
    storage: Storage, clock: FakeClock
) -> None:
    svc = service(storage, clock, Recorder())
    await wait(storage, 1, mode="teams-2v2")
    assert await svc.quick_waiting(GUILD, 1) == "teams-2v2"
    table = await svc.quick_computer(GUILD, 1)
    assert table.mode == "teams-2v2" and table.channel_id == 5
    assert [p.user_id for p in table.players] == [1] and table.computers == 3
    assert await storage.queue(GUILD) == []
    for call in (svc.quick_computer, svc.quick_waiting):
        with pytest.raises(ServiceError) as err:
            await call(GUILD, 1)
        assert err.value.key == "quick.not_waiting"


async def test_a_player_at_a_table_meanwhile_is_not_offered_and_keeps_the_place(
    storage: Storage, clock: FakeClock
) -> None:
    recorder = Recorder()
    svc = service(storage, clock, recorder)
    await svc.configure(GUILD, quick_computer=30)
    await wait(storage, 1)
    await storage.create_lobby(GUILD, 6, 1, "podkidnoy", {"seats": 2}, host_display_name="p1")
    clock.advance(31)
    await svc.quick_tick()
    assert recorder.offers == []
    with pytest.raises(ServiceError) as err:
        await svc.quick_computer(GUILD, 1)
    assert err.value.key == "quick.already_playing"
    assert [w.user_id for w, _, _ in await storage.queue(GUILD)] == [1]


async def test_the_wait_setting_is_bounded(storage: Storage, clock: FakeClock) -> None:
    svc = service(storage, clock, Recorder())
    with pytest.raises(ServiceError):
        await svc.configure(GUILD, quick_computer=3601)
    saved = await svc.configure(GUILD, quick_computer=90)
    assert saved.settings.quick_computer_seconds == 90
    assert (await storage.get_guild_settings(GUILD)).quick_computer_seconds == 90
