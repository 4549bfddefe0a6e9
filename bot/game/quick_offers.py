"""The quick-match queue between joins: pairing again as waits widen the rating window, and
a computer offered to whoever has waited as long as the server set.

Pairing used to run only when someone joined the queue, so a window that widened with
waiting time mattered only at the next join. A timer per process visits every server of its
shards with someone waiting, every :data:`QUICK_TICK_SECONDS` (:meth:`quick_tick`): it opens
the tables the pairing finds and sends the offers that are due. The timer is the bot's
(``discord.ext.tasks`` in bot/surfaces/quick_offers.py: this layer imports no discord); it
runs from a join until a visit finds nobody waiting, and once at every start, so a restart
takes up the stored queue.

An offer is stored with the queue row (migration 0014): *claimed* (``offered_at``) before it
is sent and *sent* (``offer_message_id``) after, so a wait gets one offer, a send cut short
by a restart is sent again by the next process, and only a restart between Discord taking
the message and the row recording it could repeat one (the outbox's at-least-once). A player
whose direct messages are closed is recorded as refused (0) and keeps waiting, not asked
again. Taking the offer (:meth:`quick_computer`) removes the player from the queue in the
same transaction as a pairing would, so a pairing and a click cannot both seat them.
"""

from __future__ import annotations

import logging
from typing import Protocol

from .. import metrics
from ..storage.quick import QueuedOffer
from .errors import ServiceError
from .models import PlayerRef
from .quick import QuickTable, _QuickMatch, table_size

__all__ = [
    "QUICK_COMPUTER_MAX_SECONDS",
    "QUICK_TICK_SECONDS",
    "NullQuickPublisher",
    "QuickPublisher",
]

log = logging.getLogger(__name__)

#: How often the queue is paired again (and offers checked): the rating window widens by
#: 25 points in this time (bot/game/matchmaking.py), and a visit costs one query per process
#: plus two per server with someone waiting.
QUICK_TICK_SECONDS = 5.0
#: The longest wait a server may set before the computer is offered (an hour).
QUICK_COMPUTER_MAX_SECONDS = 3600


class QuickPublisher(Protocol):
    """What the queue needs from Discord: the timer that calls :meth:`quick_tick`, and
    the tables and offers it decides on."""

    def queue_changed(self) -> None:
        """Someone joined a queue: visit the queues every :data:`QUICK_TICK_SECONDS` until
        nobody waits."""

    async def open_tables(self, guild_id: int, tables: tuple[QuickTable, ...]) -> None:
        """Open the tables a pairing filled, as ``/durak quick`` does."""

    async def offer(self, guild_id: int, offer: QueuedOffer) -> int | None:
        """Offer the computer privately; the message's id, or None when Discord refused it
        for good (closed direct messages). A transient failure raises: it is tried again."""


class NullQuickPublisher:
    """No Discord (tests of the service alone): no timer, tables not opened, offers not
    sent."""

    def queue_changed(self) -> None:
        return None

    async def open_tables(self, guild_id: int, tables: tuple[QuickTable, ...]) -> None:
        return None

    async def offer(self, guild_id: int, offer: QueuedOffer) -> int | None:
        return None


class _QuickOffers(_QuickMatch):
    """The queue's loop and the computer offer."""

    #: The queue's timer, and where tables open and offers go; the bot attaches its own.
    quick_publisher: QuickPublisher = NullQuickPublisher()

    def _queue_changed(self) -> None:
        self.quick_publisher.queue_changed()

    async def quick_tick(self) -> int:
        """One visit: in every server of this process's shards where someone waits, open
        the tables the pairing finds now, then send the computer offers that are due. The
        number of servers visited (0: nobody waits, the timer may rest)."""
        visited = 0
        for guild_id in await self.storage.queue_guilds():
            if self._closing:
                break
            if not self.shards.owns(guild_id):
                continue
            visited += 1
            try:
                tables = await self.quick_pair(guild_id)
                if tables:
                    await self.quick_publisher.open_tables(guild_id, tables)
                await self._send_offers(guild_id)
            except Exception:  # one server's trouble (a table refused) spares the others
                log.exception("quick match: the queue of server %d failed", guild_id)
        return visited

    async def _send_offers(self, guild_id: int) -> None:
        wait = (await self.settings(guild_id)).quick_computer_seconds
        if wait <= 0:
            return
        for offer in await self.storage.queue_offers_due(guild_id, wait):
            if await self.storage.user_active_game(offer.user_id) is not None:
                continue  # at a table meanwhile (a lobby of their own): offered when free
            if not offer.claimed and not await self.storage.queue_claim_offer(
                guild_id, offer.user_id
            ):
                continue
            try:
                message_id = await self.quick_publisher.offer(guild_id, offer)
            except Exception as exc:  # claimed: the next visit sends it again
                log.warning("quick match: offer to %d not sent yet: %r", offer.user_id, exc)
                continue
            await self.storage.queue_offer_sent(guild_id, offer.user_id, message_id or 0)
            outcome = "undeliverable" if message_id is None else "sent"
            metrics.COMPUTER_OFFERS.labels(outcome).inc()
            log.info("quick match: computer offered to %d (%s)", offer.user_id, outcome)

    async def quick_waiting(self, guild_id: int, user_id: int) -> str:
        """The mode a player waits for here ("Keep waiting"); refused when not waiting."""
        entry = await self.storage.queue_entry(guild_id, user_id)
        if entry is None:
            raise ServiceError("quick.not_waiting")
        return entry[0]

    async def quick_computer(self, guild_id: int, user_id: int) -> QuickTable:
        """Take the offer: out of the queue, and a table of the player's mode with the
        server's computer in every other seat (opened like any quick-match table)."""
        entry = await self.storage.queue_entry(guild_id, user_id)
        if entry is None:
            raise ServiceError("quick.not_waiting")
        if await self.storage.user_active_game(user_id) is not None:
            raise ServiceError("quick.already_playing")  # and the place in the queue stays
        if not await self.storage.queue_take(guild_id, [user_id]):
            raise ServiceError("quick.not_waiting")
        mode, channel_id, name = entry
        metrics.COMPUTER_OFFERS.labels("taken").inc()
        log.info("quick match: %d took the computer (%s)", user_id, mode)
        return QuickTable(mode, channel_id, (PlayerRef(user_id, name),), table_size(mode) - 1)
