"""Live private hands: the bot keeps each player's latest hand message current by itself.

A hand is an ephemeral message, and Discord lets a bot edit an ephemeral message only through
the interaction that created (or last updated) it, for 15 minutes after that interaction. So
the registry keeps, per (game, user), the *latest* interaction that showed the player their
hand: "Show my hand", ``/durak hand``, and every click on a hand (a move, a card tap,
Refresh), whose answer edits the hand in place and thereby brings a fresh 15-minute
token. After every change of the game (:meth:`LiveHands.changed`, called by the publisher for
every committed change), each registered hand of the game is re-rendered and edited.

Why it is shaped like this:

* Edits run in one background task per hand, never on the acknowledge path of the click that
  changed the game: the clicker's answer must leave within Discord's 3 seconds whatever the
  other hands cost.
* Coalescing: a change marks the hand dirty; the task waits ``debounce`` seconds (and at least
  ``interval`` since the hand's previous edit), then renders the *newest* state. A burst of
  moves (a computer answering, several throw-ins) is one edit. Interaction webhooks are not
  bound by the bot's global rate limit, but each token has its own small bucket; one edit per
  second per hand stays well inside it.
* The hand of the player whose click caused the change is not edited again: that click's
  answer already showed the new version (``shown`` is set before the answer is sent, with no
  ``await`` between the game change and the registration, so no edit task can slip in).
* 429 and 5xx: retried with exponential backoff while the token lives, then dropped (the next
  change tries again). 404 (the player dismissed the message, or the token died) and other
  4xx forget the hand. Nothing here raises into a game task.
* Expiry: ``warn_before`` seconds before the token dies the hand is edited one last time: it
  says that it stops updating and offers one button that reopens a fresh live hand (a click
  brings a new token). Older hands are never edited, but a click on any of them is still
  answered with the current hand (version-in-custom-id design, :mod:`bot.surfaces.dynamic_items`).
* Hidden information: a hand is only ever edited through its owner's own interaction, keyed
  by the owner's user id, and rendered for the owner's seat. Interactions whose message is
  public are refused at registration.
* Restart: tokens live in memory only (they are secrets worth 15 minutes); after a restart
  old hands still work through their custom ids, and live updates resume for every hand
  opened or clicked after the restart.

Spectators ride the same machinery (:meth:`LiveHands.watch_opened`): a spectator's view is a
"hand" with ``watching`` set, keyed by the same (game, user) (a user either plays a game or
watches it, never both), kept current by the same coalescing task, retries and expiry, and
rendered by ``render_watch`` from the public table only (bot/surfaces/spectators.py), never
through a seat. The number of spectators of a game is kept on its session
(``GameSession.watchers``), and ``on_watchers`` is told when it changes so the table can say
it. Spectators get a longer ``watch_interval``: the render is shared by every spectator of a
version, but each edit is one HTTP request, and nobody needs a watched table faster; and
all spectator edits of the process share one pace (``watch_rate`` a second), so the crowd
of one table, all due at once after a move, is spread out rather than sent as one burst.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import discord

from engine import Card

from ..game.models import GameSession
from ..game.service import GameService
from ..i18n import t

__all__ = ["LiveHand", "LiveHands", "LiveStats"]

log = logging.getLogger(__name__)

#: Discord's lifetime of an interaction token.
TOKEN_LIFETIME = 15 * 60.0
#: The last edit (the "reopen" offer) goes out this long before the token dies.
WARN_BEFORE = 75.0
#: Wait after a change before rendering, so a burst of moves becomes one edit.
DEBOUNCE = 0.25
#: At most one edit per hand per this many seconds.
INTERVAL = 1.0
#: At most one edit per spectator per this many seconds (see bench/spectators.py).
WATCH_INTERVAL = 1.5
#: Spectator edits the whole process sends per second at most: a crowd's edits, which all
#: fall due in the same instant after a move, are spread out instead of sent as one burst
#: (each token's bucket would take them, but the bot's connection and event loop should not
#: carry a hundred requests at once; Discord's advice for a bot is 50 requests a second).
WATCH_RATE = 40.0
#: Attempts of one edit when Discord answers 429 or 5xx (after discord.py's own retries).
ATTEMPTS = 3
#: First backoff between attempts (doubles).
BACKOFF = 2.0


@dataclass(slots=True, eq=False)
class LiveHand:
    """The latest hand interaction of one player in one game."""

    game_id: int
    user_id: int
    interaction: discord.Interaction
    locale: str
    #: The game version the message shows now (set before the message is sent/edited).
    shown: int
    #: Loop time after which the token must not be used any more (minus a safety margin).
    expires: float
    #: The cards the player had selected (tap-a-card); kept while they stay playable.
    selection: tuple[Card, ...] = ()
    expiry: asyncio.TimerHandle | None = None
    #: A spectator's view of the public table, not a player's hand.
    watching: bool = False
    #: When this view was last edited: a spectator's pace holds across idle moments too
    #: (a worker, and its own ``last_edit``, lives only while edits are owed).
    last_edit: float = float("-inf")


@dataclass(slots=True)
class LiveStats:
    """Counters for bench/bot_load.py and the logs."""

    edits: int = 0
    retried: int = 0
    dropped: int = 0
    expired: int = 0
    opened: int = 0


@dataclass(slots=True, eq=False)
class _Worker:
    dirty: bool = False
    last_edit: float = float("-inf")
    task: asyncio.Task[None] | None = None
    expiring: bool = False
    #: The task is waiting out its debounce, not rendering or sending.
    waiting: bool = False


_Outcome = Literal["sent", "gone", "dropped"]
Renderer = Callable[..., tuple[str | None, discord.Embed | None, discord.ui.View]]
WatchRenderer = Callable[
    [GameSession, str], tuple[str | None, discord.Embed | None, discord.ui.View]
]
#: The public table picture for a spectator's view: the embed to send (pointed at the
#: picture) and the file, or the embed as it was and no file (bot/surfaces/spectators.py).
WatchPicture = Callable[
    [GameSession, str, discord.Embed | None],
    Awaitable[tuple[discord.Embed | None, list[discord.File]]],
]


class LiveHands:
    """Registry of live hands and the background edits that keep them current."""

    def __init__(
        self,
        service: GameService,
        render_hand: Renderer,
        reopen_view: Callable[[GameSession, str], discord.ui.View],
        *,
        lifetime: float = TOKEN_LIFETIME,
        warn_before: float = WARN_BEFORE,
        debounce: float = DEBOUNCE,
        interval: float = INTERVAL,
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF,
        render_watch: WatchRenderer | None = None,
        watch_reopen_view: Callable[[GameSession, str], discord.ui.View] | None = None,
        on_watchers: Callable[[int], None] | None = None,
        watch_interval: float = WATCH_INTERVAL,
        watch_rate: float = WATCH_RATE,
        watch_picture: WatchPicture | None = None,
    ) -> None:
        self.service = service
        self._render = render_hand
        self._reopen_view = reopen_view
        self._render_watch = render_watch
        self._watch_reopen_view = watch_reopen_view
        self._on_watchers = on_watchers
        self._watch_picture = watch_picture
        self.watch_interval = watch_interval
        self.watch_rate = watch_rate
        self._watch_slot = 0.0
        self.lifetime = lifetime
        self.warn_before = warn_before
        self.debounce = debounce
        self.interval = interval
        self.attempts = attempts
        self.backoff = backoff
        self.stats = LiveStats()
        self._games: dict[int, dict[int, LiveHand]] = {}
        self._workers: dict[tuple[int, int], _Worker] = {}
        self._closing = False

    # ----------------------------------------------------------------- queries

    def hand(self, game_id: int, user_id: int) -> LiveHand | None:
        return self._games.get(game_id, {}).get(user_id)

    def is_live(self, game_id: int, user_id: int) -> bool:
        """The player's latest hand is being kept current (and will be for a while)."""
        hand = self.hand(game_id, user_id)
        return hand is not None and self._now() < hand.expires - self.warn_before

    def count(self) -> int:
        return sum(len(hands) for hands in self._games.values())

    def watching(self, game_id: int) -> int:
        """How many members watch the game now."""
        return sum(1 for hand in self._games.get(game_id, {}).values() if hand.watching)

    def _recount(self, game_id: int) -> None:
        session = self.service.session(game_id)
        count = self.watching(game_id)
        if session is None or session.watchers == count:
            return
        session.watchers = count
        if self._on_watchers is not None and not self._closing:
            self._on_watchers(game_id)

    # ----------------------------------------------------------------- registration

    def opened(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        locale: str,
        *,
        selection: tuple[Card, ...] = (),
        new_message: bool = False,
    ) -> None:
        """``interaction`` is about to show the user their hand at ``session.version``: in a
        new ephemeral message (``new_message``), or by updating the message it came from.

        Call it right before sending the answer, with no ``await`` since the game was read, so
        an edit task cannot render an older version over the answer.
        """
        self._register(interaction, session, locale, selection, new_message, watching=False)

    def watch_opened(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        locale: str,
        *,
        new_message: bool = False,
    ) -> None:
        """``interaction`` is about to show a spectator the public table of ``session`` (in
        a new ephemeral message, or by updating the spectator's own): keep it current. Same
        calling rule as :meth:`opened`. A player of the game is never registered here."""
        if self._render_watch is not None:
            self._register(interaction, session, locale, (), new_message, watching=True)

    def _register(
        self,
        interaction: discord.Interaction,
        session: GameSession,
        locale: str,
        selection: tuple[Card, ...],
        new_message: bool,
        *,
        watching: bool,
    ) -> None:
        if self._closing:
            return
        if session.finished:
            # This answer shows the end of the game: nothing left to keep current.
            self.forget(session.game_id, interaction.user.id)
            return
        message = interaction.message
        if not new_message and message is not None and not message.flags.ephemeral:
            # A component on a public message (a forged id): never edit a public message.
            return
        if (session.seat_of(interaction.user.id) is None) != watching:
            return  # a hand is a player's, a spectator's view a non-player's
        user_id = interaction.user.id
        old = self.hand(session.game_id, user_id)
        if old is not None and old.expiry is not None:
            old.expiry.cancel()
        now = self._now()
        hand = LiveHand(
            session.game_id,
            user_id,
            interaction,
            locale,
            session.version,
            now + self.lifetime,
            selection,
            watching=watching,
        )
        # A token is valid 15 minutes from the interaction's creation; ours was created a
        # moment ago, and the warning goes out well before the end.
        delay = max(0.0, hand.expires - self.warn_before - now)
        hand.expiry = asyncio.get_running_loop().call_later(delay, self._expire, hand)
        self._games.setdefault(session.game_id, {})[user_id] = hand
        key = (session.game_id, user_id)
        worker = self._workers.get(key)
        if worker is not None:
            worker.expiring = False
            if not watching and worker.waiting and worker.task is not None:
                # This answer shows the game's newest version: the edit the change scheduled
                # (the mover's own hand, on every move) would find nothing to do.
                worker.task.cancel()
                del self._workers[key]
        self.stats.opened += 1
        if watching or (old is not None and old.watching):
            self._recount(session.game_id)

    def missed(self, game_id: int, user_id: int) -> None:
        """The answer that was to show this player's hand did not reach Discord (an outage
        past the retries): redraw it by the live hand's own edit, which waits its turn."""
        hand = self.hand(game_id, user_id)
        if hand is None or self._closing:
            return
        hand.shown = -1
        self._schedule(game_id, user_id)

    def forget(self, game_id: int, user_id: int) -> None:
        hands = self._games.get(game_id)
        hand = hands.pop(user_id, None) if hands else None
        if hand is not None and hand.expiry is not None:
            hand.expiry.cancel()
        if hands is not None and not hands:
            self._games.pop(game_id, None)
        if hand is not None and hand.watching:
            self._recount(game_id)

    def forget_game(self, game_id: int) -> None:
        for user_id in list(self._games.get(game_id, {})):
            self.forget(game_id, user_id)

    # ----------------------------------------------------------------- changes

    def changed(self, game_id: int) -> None:
        """The game changed (committed): bring every live hand of it up to date."""
        hands = self._games.get(game_id)
        if not hands or self._closing:
            return
        for user_id in list(hands):
            self._schedule(game_id, user_id)

    def _schedule(self, game_id: int, user_id: int, *, expiring: bool = False) -> None:
        key = (game_id, user_id)
        worker = self._workers.get(key)
        if worker is None:
            worker = self._workers[key] = _Worker()
        worker.dirty = True
        worker.expiring = worker.expiring or expiring
        if worker.task is None or worker.task.done():
            worker.task = asyncio.get_running_loop().create_task(
                self._run(key, worker), name=f"durak-hand-{game_id}-{user_id}"
            )

    async def _watch_turn(self) -> None:
        """Wait for this spectator edit's slot in the process-wide ``watch_rate``."""
        if self.watch_rate <= 0:
            return
        now = asyncio.get_running_loop().time()
        slot = max(now, self._watch_slot)
        self._watch_slot = slot + 1.0 / self.watch_rate
        if slot > now:
            await asyncio.sleep(slot - now)

    def _expire(self, hand: LiveHand) -> None:
        if self.hand(hand.game_id, hand.user_id) is hand:
            self._schedule(hand.game_id, hand.user_id, expiring=True)

    async def _run(self, key: tuple[int, int], worker: _Worker) -> None:
        try:
            while worker.dirty and not self._closing:
                hand = self.hand(*key)
                last, interval = worker.last_edit, self.interval
                if hand is not None and hand.watching:
                    last, interval = max(last, hand.last_edit), self.watch_interval
                wait = max(self.debounce, last + interval - self._now())
                if worker.expiring:
                    wait = 0.0
                worker.waiting = True
                try:
                    await asyncio.sleep(wait)
                finally:
                    worker.waiting = False
                if hand is not None and hand.watching:
                    await self._watch_turn()
                worker.dirty = False
                await self._update(key, worker)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %d: live hand of %d failed", *key)
        finally:
            if not worker.dirty and self._workers.get(key) is worker:
                del self._workers[key]

    async def _update(self, key: tuple[int, int], worker: _Worker) -> None:
        game_id, user_id = key
        hand = self.hand(game_id, user_id)
        if hand is None:
            return
        session = self.service.session(game_id)
        if session is None or (
            not session.finished and (session.seat_of(user_id) is None) != hand.watching
        ):
            # the game is gone from memory, or the player left (a spectator never has a seat)
            self.forget(game_id, user_id)
            return
        expiring = worker.expiring or self._now() >= hand.expires - self.warn_before
        if session.finished:
            expiring = False  # the last edit shows the end; no reopen offer
        elif not expiring and hand.shown >= session.version:
            return  # the player's own click already showed this version
        version = session.version
        content, embed, view = self._draw(session, hand, expiring)
        files: list[discord.File] | None = None
        if hand.watching and self._watch_picture is not None:
            embed, files = await self._watch_picture(session, hand.locale, embed)
        previous, hand.shown = hand.shown, version
        outcome = await self._edit(hand, content, embed, view, files)
        worker.last_edit = hand.last_edit = self._now()
        current = self.hand(game_id, user_id)
        if outcome == "dropped":
            # Discord is busy: keep the hand, the next change of the game tries again.
            hand.shown = min(hand.shown, previous)
            if not expiring:
                return
        if expiring or session.finished or outcome == "gone":
            if current is hand:
                self.forget(game_id, user_id)
                if expiring and outcome == "sent":
                    self.stats.expired += 1
            return
        if current is not hand and current is not None:
            # The player clicked while this edit was in flight; their answer and this edit
            # raced on the same message, so render the newest state once more.
            current.shown = min(current.shown, version)
            worker.dirty = True

    def _draw(
        self, session: GameSession, hand: LiveHand, expiring: bool
    ) -> tuple[str | None, discord.Embed | None, discord.ui.View]:
        """What the hand (or spectator view) is edited to now."""
        if hand.watching:
            assert self._render_watch is not None and self._watch_reopen_view is not None
            content, embed, view = self._render_watch(session, hand.locale)
            note_key, reopen = "watch.live_expiring", self._watch_reopen_view
        else:
            seat = next(s.seat for s in session.seats if s.user_id == hand.user_id)
            selection = () if expiring else hand.selection
            content, embed, view = self._render(session, seat, hand.locale, selection=selection)
            note_key, reopen = "hand.live_expiring", self._reopen_view
        if expiring:
            note = t(note_key, hand.locale)
            content = f"{content}\n{note}" if content else note
            view = reopen(session, hand.locale)
        return content, embed, view

    async def _edit(
        self,
        hand: LiveHand,
        content: str | None,
        embed: discord.Embed | None,
        view: discord.ui.View,
        files: list[discord.File] | None = None,
    ) -> _Outcome:
        """One edit with retries: "gone" when this hand can never be edited again, "dropped"
        when Discord stayed busy (429/5xx) through every attempt. ``files`` (a spectator's
        picture) replace the message's attachments; None leaves them alone."""
        delay = self.backoff
        extra: dict[str, Any] = {} if files is None else {"attachments": files}
        for attempt in range(1, self.attempts + 1):
            for file in files or ():
                file.reset()  # a failed try read it: each try sends it whole
            try:
                await hand.interaction.edit_original_response(
                    content=content, embed=embed, view=view, **extra
                )
            except discord.NotFound:
                log.info("game %d: hand of %d is gone (dismissed)", hand.game_id, hand.user_id)
                return "gone"
            except (discord.HTTPException, OSError, TimeoutError) as exc:
                # 429/5xx (after discord.py's own retries) and network trouble may pass;
                # any other 4xx means this token or message will never take an edit.
                status = exc.status if isinstance(exc, discord.HTTPException) else "network"
                transient = not isinstance(exc, discord.HTTPException) or (
                    exc.status == 429 or exc.status >= 500
                )
                if (
                    not transient
                    or attempt == self.attempts
                    or (self._now() + delay >= hand.expires)
                ):
                    self.stats.dropped += 1
                    log.warning(
                        "game %d: live hand edit for %d dropped (%s)",
                        hand.game_id,
                        hand.user_id,
                        status,
                    )
                    return "dropped" if transient else "gone"
                self.stats.retried += 1
                await asyncio.sleep(delay)
                delay *= 2
                continue
            self.stats.edits += 1
            return "sent"
        return "dropped"

    # ----------------------------------------------------------------- lifecycle

    async def close(self) -> None:
        self._closing = True
        tasks = [w.task for w in self._workers.values() if w.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for game_id in list(self._games):
            self.forget_game(game_id)

    @staticmethod
    def _now() -> float:
        # Discord's clock as discord.py sees it: wall time, or simcord's virtual time.
        return discord.utils.utcnow().timestamp()
