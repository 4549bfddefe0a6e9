"""Turn pings that keep the channel quiet: at most one ping message of a game is visible.

Before live hands every change of turn posted a new public message (51 in a 2-player game).
Now a ping is the exception, sent only when a mention is what gets the player back:

* a player is **not pinged while watching**: their hand is live and they clicked within
  ``watch_live`` seconds, or they clicked anything of the bot within ``watch_idle`` seconds
  (e.g. the host who just pressed Start sees the table change in front of them);
* a player who said ``/durak me pings:off`` is never pinged (reminders included);
* each game has one ping *slot*: a new ping for the same player, who has not reacted to the
  previous one yet, edits it (they already have the notification); any other ping deletes the
  previous message and posts a new one (only a new message notifies); the half-time reminder
  always replaces the slot (notifying is its point);
* the slot is deleted as soon as the pinged player interacts with the bot, and when the game
  ends or is cancelled;
* every ping carries a link button to the table, so a mention from another channel or a
  phone notification lands on the game.

Preferences are read from SQLite once per user and cached (the only writer is ``/durak me``,
which updates the cache). The slot lives in memory: after a restart a ping posted by the
previous process stays until the game ends (documented in docs/playing.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from ..game.models import GameSession, PingKind
from ..i18n import t
from ..rendering.table import ping_text, reminder_text
from ..storage import PlayerPrefs
from .live_hands import LiveHands

__all__ = ["TurnPings"]

log = logging.getLogger(__name__)

#: A player with a live hand who clicked within this many seconds is watching the game.
WATCH_LIVE = 300.0
#: Anyone who clicked within this many seconds is watching (no live hand needed).
WATCH_IDLE = 60.0
#: Cached preferences kept at most (a dict entry per user that ever played).
PREFS_CACHE = 50_000


@dataclass(slots=True)
class _Slot:
    message_id: int
    channel_id: int
    user_id: int
    posted: float


class TurnPings:
    """Decides whether a ping goes out and keeps each game's single ping message."""

    def __init__(
        self,
        client: discord.Client,
        prefs: Callable[[int], Awaitable[PlayerPrefs]],
        live_hands: LiveHands,
        *,
        watch_live: float = WATCH_LIVE,
        watch_idle: float = WATCH_IDLE,
    ) -> None:
        self.client = client
        #: A player's preferences, from the game service.
        self._read_prefs = prefs
        self.live_hands = live_hands
        self.watch_live = watch_live
        self.watch_idle = watch_idle
        self._seen: dict[int, float] = {}
        self._prefs: dict[int, bool] = {}
        self._slots: dict[int, _Slot] = {}
        self._slot_of_user: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Ping messages posted, edited and skipped, for the bench and the tests.
        self.posted = 0
        self.edited = 0
        self.skipped = 0

    # ----------------------------------------------------------------- activity

    def seen(self, interaction: discord.Interaction) -> None:
        """Any interaction with the bot: the user is here. Drops their visible ping."""
        user_id = interaction.user.id
        now = self._now()
        self._seen[user_id] = now
        if len(self._seen) > PREFS_CACHE:
            cutoff = now - max(self.watch_live, self.watch_idle)
            self._seen = {u: s for u, s in self._seen.items() if s >= cutoff}
        game_id = self._slot_of_user.get(user_id)
        if game_id is not None:
            self._background(self.clear(game_id, only_user=user_id))

    def watching(self, game_id: int, user_id: int) -> bool:
        last = self._seen.get(user_id)
        if last is None:
            return False
        live = self.live_hands.is_live(game_id, user_id)
        window = self.watch_live if live else self.watch_idle
        return self._now() - last < window

    # ----------------------------------------------------------------- preferences

    async def wants_pings(self, user_id: int) -> bool:
        cached = self._prefs.get(user_id)
        if cached is None:
            cached = (await self._read_prefs(user_id)).pings
            if len(self._prefs) >= PREFS_CACHE:
                self._prefs.clear()
            self._prefs[user_id] = cached
        return cached

    def prefs_changed(self, user_id: int, pings: bool) -> None:
        self._prefs[user_id] = pings

    # ----------------------------------------------------------------- pings

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> bool:
        """It became ``seat``'s turn: mention them unless they are watching or opted out.
        True when a ping message went to the channel (only that is worth remembering across
        a restart)."""
        user_id = session.seats[seat].user_id
        if user_id is None or session.finished:
            return False
        if self.watching(session.game_id, user_id) or not await self.wants_pings(user_id):
            self.skipped += 1
            return False
        await self._post(session, user_id, ping_text(session, seat, kind), renotify=False)
        return True

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        """Half the turn time is gone: a fresh notification, replacing the game's ping."""
        user_id = session.seats[seat].user_id
        if user_id is None or session.finished:
            return
        if not await self.wants_pings(user_id):
            self.skipped += 1
            return
        text = reminder_text(session, seat, deadline)
        await self._post(session, user_id, text, renotify=True)

    async def _post(self, session: GameSession, user_id: int, text: str, *, renotify: bool) -> None:
        game_id = session.game_id
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            if session.finished:
                return
            channel = self.client.get_partial_messageable(
                session.channel_id, guild_id=session.guild_id
            )
            view = self._jump_view(session)
            slot = self._slots.get(game_id)
            unanswered = slot is not None and self._seen.get(user_id, float("-inf")) < slot.posted
            if slot is not None and slot.user_id == user_id and unanswered and not renotify:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(slot.message_id).edit(content=text, view=view)
                    self.edited += 1
                    return
            if slot is not None:
                await self._delete(slot)
                self._drop(game_id)
            message = await channel.send(
                text,
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id)], roles=False, everyone=False
                ),
            )
            self.posted += 1
            self._slots[game_id] = _Slot(message.id, session.channel_id, user_id, self._now())
            self._slot_of_user[user_id] = game_id

    def _jump_view(self, session: GameSession) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.stop()
        if session.message_id is not None:
            url = (
                f"https://discord.com/channels/{session.guild_id}/"
                f"{session.channel_id}/{session.message_id}"
            )
            view.add_item(discord.ui.Button(label=t("ping.button.table", session.locale), url=url))
        return view

    async def clear(self, game_id: int, *, only_user: int | None = None) -> None:
        """Delete the game's ping (only if it is for ``only_user``, when given)."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            slot = self._slots.get(game_id)
            if slot is None or (only_user is not None and slot.user_id != only_user):
                return
            self._drop(game_id)
            await self._delete(slot)

    async def ended(self, game_id: int) -> None:
        """The game is over (or cancelled): no ping of it stays."""
        await self.clear(game_id)
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            self._locks.pop(game_id, None)

    def _drop(self, game_id: int) -> None:
        slot = self._slots.pop(game_id, None)
        if slot is not None and self._slot_of_user.get(slot.user_id) == game_id:
            del self._slot_of_user[slot.user_id]

    async def _delete(self, slot: _Slot) -> None:
        channel = self.client.get_partial_messageable(slot.channel_id)
        try:
            await channel.get_partial_message(slot.message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("could not delete ping %d (HTTP %s)", slot.message_id, exc.status)

    # ----------------------------------------------------------------- lifecycle

    def _background(self, call: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(self._guarded(call))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guarded(call: Coroutine[Any, Any, None]) -> None:
        try:
            await call
        except Exception:
            log.exception("ping housekeeping failed")

    async def close(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    @staticmethod
    def _now() -> float:
        # Discord's clock as discord.py sees it: wall time, or simcord's virtual time.
        return discord.utils.utcnow().timestamp()
