"""The Activity across processes: a socket that reaches a process not running its game.

Why it is needed: with several processes (``SHARD_IDS``, PostgreSQL), a game's session lives
in the process of its server's shard (bot/sharding.py): Discord sends that server's clicks
there. A browser's socket, though, reaches whichever process Discord's proxy and the
deployment's reverse proxy pick. Rather than ask every operator to route by server (the
socket does not even say its server before the hello), the process the socket reached (B)
serves it through the one that runs the game (A), over PostgreSQL ``LISTEN/NOTIFY``
(bot/storage/notify.py): the database the processes already share, no broker of our own.
SQLite deployments are one process and start no relay.

What travels (a JSON head; a newline and a body when there is one):

* to every process (channel ``all``; each acts only for the games it runs):
  ``sub {p, g, s}`` process *p* has sockets on seat *s* of game *g* (``null``: watching):
  the runner sends that seat's frame now and after every change; ``unsub`` ends that.
  ``act {p, g, u, v, r}`` + the move in notation: user *u* (whose session token *p*
  checked) plays at version *v*; the runner applies it with :meth:`GameService.act_notation`
  exactly as for its own sockets (lock, version check, validation) and answers ``done``.
  ``wait {p, c, u}``: *p* has a socket of user *u* in channel *c* waiting for a game; the
  runner of a game that starts there (or seats *u*) answers ``start`` once.
  ``hi {p}``: a relay (re)connected; the others send their ``sub``/``wait`` again, which the
  runner may have missed.
* to one process (channel ``p<id>``): ``frame {g, s, v, w, e}`` + the frame as sent to a
  socket (built by the runner, the one place with the game: a seat's frame only ever goes to
  the process that follows that seat), ``done {r, k, l}`` (refusal key or null, the table's
  language), ``start {c, u}``.
* ``part {p, id, i, n}`` + a piece: a message over PostgreSQL's 8000 bytes (a long frame),
  cut at character boundaries and joined again on arrival; one sender's messages arrive in
  order, so the pieces do too.

Frames go from the runner to the process with the sockets, never the other way, so the
sockets on B see every move of the game (chat clicks, computers, timers) as A's do. A move
from B is applied once, by A: the runner is the only process with the session, and a
``done`` that does not come within :data:`ACT_TIMEOUT` is answered to the socket as the
chat answers an internal error (the game is safe; the next frame says what is true).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

from ..game.errors import ServiceError
from ..game.models import GameSession
from ..storage.notify import MAX_PAYLOAD, Notifier
from .server import frame_text

if TYPE_CHECKING:
    from .server import ActivityHub

__all__ = ["ACT_TIMEOUT", "Relay", "join_parts", "relay_for", "split_message"]

log = logging.getLogger(__name__)

#: Seconds a socket's move waits for the answer of the process running its game.
ACT_TIMEOUT = 10.0
#: Waits a runner remembers at most (one-shot, and dropped when the socket leaves; the bound
#: is for processes that died with sockets waiting).
MAX_WAITS = 10_000
#: Room left in a piece for its head.
_PART_HEAD = 120

Seat = int | None


def _dump(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def split_message(text: str, sender: str, serial: int, limit: int = MAX_PAYLOAD) -> list[str]:
    """``text`` as one payload, or as ``part`` payloads of at most ``limit`` bytes each."""
    data = text.encode()
    if len(data) <= limit:
        return [text]
    room = limit - _PART_HEAD
    pieces: list[str] = []
    start = 0
    while start < len(data):
        end = min(start + room, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:  # inside a UTF-8 character
            end -= 1
        pieces.append(data[start:end].decode())
        start = end
    n = len(pieces)
    return [
        _dump({"t": "part", "p": sender, "id": serial, "i": i, "n": n}) + "\n" + piece
        for i, piece in enumerate(pieces)
    ]


def join_parts(
    store: dict[tuple[str, int], list[str]], head: dict[str, Any], body: str
) -> str | None:
    """Keep one piece; the whole message once its last piece arrived (None before). A
    sender whose piece was lost (a reconnect) simply never completes that message."""
    key = (str(head["p"]), int(head["id"]))
    i, n = int(head["i"]), int(head["n"])
    if i == 0:
        store[key] = []
    pieces = store.get(key)
    if pieces is None or len(pieces) != i:
        store.pop(key, None)
        return None
    pieces.append(body)
    if len(pieces) < n:
        return None
    del store[key]
    return "".join(pieces)


def relay_for(hub: ActivityHub) -> Relay | None:
    """A relay when the storage is shared by processes (PostgreSQL), else None."""
    database = hub.service.storage.database
    if database.dialect != "postgresql":
        return None
    from ..storage.postgres import PostgresDatabase

    assert isinstance(database, PostgresDatabase)
    return Relay(hub, database.notifier())


class Relay:
    """This process's end of the relay: the runner of its own games for the sockets of the
    others, and the sockets' side for the games the others run."""

    def __init__(
        self, hub: ActivityHub, notifier: Notifier, *, act_timeout: float = ACT_TIMEOUT
    ) -> None:
        self.hub = hub
        self.service = hub.service
        self.notifier = notifier
        self.act_timeout = act_timeout
        #: This process among the others (new at every start).
        self.me = secrets.token_hex(4)
        # as the runner: who follows which seat of my games; who waits for a game
        self._subs: dict[int, set[tuple[str, Seat]]] = {}
        self._waits: dict[tuple[str, int | None, int], None] = {}
        # as the sockets' side: what I follow, its last frame, what I wait for, moves asked
        self._following: set[tuple[int, Seat]] = set()
        self._frames: dict[tuple[int, Seat], tuple[tuple[int, int], str]] = {}
        self._waiting: set[tuple[int | None, int]] = set()
        self._replies: dict[str, asyncio.Future[tuple[str | None, str | None]]] = {}
        self._parts: dict[tuple[str, int], list[str]] = {}
        self._serial = itertools.count()
        self._inbox: asyncio.Queue[tuple[dict[str, Any], str]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._moves: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.notifier.start(["all", "p" + self.me], self._heard, self._reconnected)
        self._reader = asyncio.create_task(self._read(), name="durak-activity-relay")
        self._broadcast({"t": "hi"})

    async def stop(self) -> None:
        tasks = [t for t in (self._reader, *self._moves) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for future in self._replies.values():
            if not future.done():
                future.set_result(("error.internal", None))
        await self.notifier.close()

    # ----------------------------------------------------------------- sending

    def _broadcast(self, head: dict[str, Any], body: str = "") -> None:
        self._send("all", head | {"p": self.me}, body)

    def _send(self, to: str, head: dict[str, Any], body: str = "") -> None:
        text = _dump(head) + ("\n" + body if body else "")
        for payload in split_message(text, self.me, next(self._serial)):
            self.notifier.send(to, payload)

    def _send_frame(
        self, to: str, session: GameSession, seat: Seat, built: dict[Seat, str] | None
    ) -> None:
        head = {
            "t": "frame",
            "g": session.game_id,
            "s": seat,
            "v": session.version,
            "w": session.watchers,
            "e": session.finished,
        }
        self._send("p" + to, head, frame_text(session, seat, built, self.hub.avatars))

    # ----------------------------------------------------------------- the sockets' side

    async def follow(self, game_id: int, seat: Seat) -> None:
        """A socket of this process joined ``seat`` of a game another process runs."""
        key = (game_id, seat)
        last = self._frames.get(key)
        if last is not None:
            await self.hub.remote_frame(game_id, seat, last[0], last[1], False)
        if key not in self._following:
            self._following.add(key)
            self._broadcast({"t": "sub", "g": game_id, "s": seat})

    def unfollow(self, game_id: int, seat: Seat) -> None:
        """The last socket of this process on ``seat`` of ``game_id`` left it."""
        key = (game_id, seat)
        self._frames.pop(key, None)
        if key in self._following:
            self._following.discard(key)
            self._broadcast({"t": "unsub", "g": game_id, "s": seat})

    def last_frame(self, game_id: int, seat: Seat) -> tuple[tuple[int, int], str] | None:
        """The last frame the runner sent for ``seat`` of ``game_id``, with its stamp."""
        return self._frames.get((game_id, seat))

    def wait(self, channel_id: int | None, user_id: int) -> None:
        """A socket waits for a game of its user or channel, which may start elsewhere."""
        key = (channel_id, user_id)
        if key not in self._waiting:
            self._waiting.add(key)
            self._broadcast({"t": "wait", "c": channel_id, "u": user_id})

    def unwait(self, channel_id: int | None, user_id: int) -> None:
        key = (channel_id, user_id)
        if key in self._waiting:
            self._waiting.discard(key)
            self._broadcast({"t": "unwait", "c": channel_id, "u": user_id})

    async def act(
        self, game_id: int, user_id: int, version: int, action: str
    ) -> tuple[str | None, str | None]:
        """A move from this process's socket on another's game: (refusal key or None, the
        table's language), once the runner answered."""
        ask = f"{self.me}:{next(self._serial)}"
        future: asyncio.Future[tuple[str | None, str | None]] = (
            asyncio.get_running_loop().create_future()
        )
        self._replies[ask] = future
        head = {"t": "act", "g": game_id, "u": user_id, "v": version, "r": ask}
        self._broadcast(head, action)
        try:
            return await asyncio.wait_for(future, self.act_timeout)
        except TimeoutError:
            log.warning("activity relay: no process answered a move of game %d", game_id)
            return "error.internal", None
        finally:
            self._replies.pop(ask, None)

    # ----------------------------------------------------------------- the runner's side

    def changed(self, session: GameSession, built: dict[Seat, str]) -> None:
        """One of this process's games changed: the other processes' sockets on it get their
        frames (built once per seat with the local sockets'), and those waiting for a game
        it concerns are told."""
        subs = self._subs.get(session.game_id)
        if subs:
            for proc, seat in sorted(subs, key=repr):
                self._send_frame(proc, session, seat, built)
            if session.finished:
                del self._subs[session.game_id]
        if session.finished or not self._waits:
            return
        for proc, channel, user in list(self._waits):
            if channel == session.channel_id or session.seat_of(user) is not None:
                del self._waits[(proc, channel, user)]
                self._send("p" + proc, {"t": "start", "c": channel, "u": user})

    async def _move(self, head: dict[str, Any], action: str) -> None:
        game_id = int(head["g"])
        session = self.service.session(game_id)
        if session is None:
            return  # another process's game
        key: str | None = None
        try:
            await self.service.act_notation(game_id, int(head["u"]), int(head["v"]), action)
        except ServiceError as exc:
            key = exc.key
            log.info("activity relay: game %d, user %s: %s refused", game_id, head["u"], key)
        except Exception:
            log.exception("activity relay: a move of game %d failed", game_id)
            key = "error.internal"
        reply = {"t": "done", "r": head["r"], "k": key, "l": session.locale}
        self._send("p" + str(head["p"]), reply)

    # ----------------------------------------------------------------- receiving

    def _heard(self, channel: str, payload: str) -> None:
        """In the loop, for every notification: decoded and queued, handled in order."""
        try:
            text, _, body = payload.partition("\n")
            head = json.loads(text)
            if head.get("t") == "part":
                whole = join_parts(self._parts, head, body)
                if whole is None:
                    return
                text, _, body = whole.partition("\n")
                head = json.loads(text)
            if channel == "all" and head.get("p") == self.me:
                return  # my own broadcast
        except (ValueError, KeyError, TypeError):
            log.warning("activity relay: an unreadable message on %s", channel)
            return
        self._inbox.put_nowait((head, body))

    async def _read(self) -> None:
        while True:
            head, body = await self._inbox.get()
            try:
                await self._handle(head, body)
            except (ValueError, KeyError, TypeError):
                log.warning("activity relay: a malformed %r message", head.get("t"))
            except Exception:
                # one message's failure (a storage error while attaching, say) must not stop
                # the relay for every other socket
                log.exception("activity relay: a %r message failed", head.get("t"))

    async def _handle(self, head: dict[str, Any], body: str) -> None:
        kind = head["t"]
        if kind == "frame":
            await self._on_frame(head, body)
        elif kind == "act":
            # moves of different games run side by side, as sockets' moves do
            task = asyncio.create_task(self._move(head, body))
            self._moves.add(task)
            task.add_done_callback(self._moves.discard)
        elif kind == "done":
            future = self._replies.get(str(head["r"]))
            if future is not None and not future.done():
                future.set_result((head["k"], head.get("l")))
        elif kind == "sub":
            session = self.service.session(int(head["g"]))
            seat = _seat(head["s"])
            if session is not None:
                if not session.finished:
                    self._subs.setdefault(session.game_id, set()).add((str(head["p"]), seat))
                # an ended game: its last frame, after which the sockets wait again
                self._send_frame(str(head["p"]), session, seat, None)
        elif kind == "unsub":
            subs = self._subs.get(int(head["g"]))
            if subs is not None:
                subs.discard((str(head["p"]), _seat(head["s"])))
        elif kind == "wait":
            self._waits[(str(head["p"]), _seat(head["c"]), int(head["u"]))] = None
            while len(self._waits) > MAX_WAITS:
                del self._waits[next(iter(self._waits))]
        elif kind == "unwait":
            self._waits.pop((str(head["p"]), _seat(head["c"]), int(head["u"])), None)
        elif kind == "start":
            channel, user = _seat(head["c"]), int(head["u"])
            self._waiting.discard((channel, user))
            await self.hub.remote_started(channel, user)
        elif kind == "hi":
            self._say_again()

    async def _on_frame(self, head: dict[str, Any], body: str) -> None:
        key = (int(head["g"]), _seat(head["s"]))
        if key not in self._following:
            return  # no socket here follows it any more
        stamp = (int(head["v"]), int(head["w"]))
        end = bool(head["e"])
        if end:
            self._following.discard(key)
            self._frames.pop(key, None)
        else:
            self._frames[key] = (stamp, body)
        await self.hub.remote_frame(key[0], key[1], stamp, body, end)

    def _say_again(self) -> None:
        """What this process follows and waits for, again (a runner may have missed it)."""
        for game_id, seat in sorted(self._following, key=repr):
            self._broadcast({"t": "sub", "g": game_id, "s": seat})
        for channel, user in sorted(self._waiting, key=repr):
            self._broadcast({"t": "wait", "c": channel, "u": user})

    def _reconnected(self) -> None:
        self._broadcast({"t": "hi"})
        self._say_again()


def _seat(value: Any) -> int | None:
    """A seat or channel id from a message: an int, or null."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an id: {value!r}")
    return value
