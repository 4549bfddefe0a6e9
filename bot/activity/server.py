"""The Activity's HTTP and WebSocket endpoint, inside the bot's process and event loop.

Why here and not a second server: the sockets need the live sessions (their lock, version,
timers) and the publisher's "this game changed" call, which only this process has; aiohttp
comes with discord.py. The endpoint serves:

* ``/`` and ``/static/…``: the built client (bot/activity/static/, no Node at run time);
* ``/api/config``: the application's client id, which the client's SDK needs first;
* ``/api/token``: the OAuth2 code exchange (bot/activity/auth.py) and the session token;
* ``/api/strings/<locale>``: the words of the table, from bot/locales (one set of texts
  for chat and Activity);
* ``/ws``: one socket per browser. The first message (``hello``) says which channel the
  Activity was opened in; the server answers with the frame of the player's own seat or,
  for anyone else, the public view (bot/activity/frames.py), and sends a new frame after
  every change. Every message carries the session token, checked each time; a move
  (``act``) goes through :meth:`GameService.act_notation`, so a forged one (another seat, a
  stale version, a card not held) is refused exactly like a stale chat button, and the
  refusal is answered to that socket only.

:class:`ActivityPublisher` wraps the Discord publisher: the service still has one
publisher, which now also tells the sockets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .. import metrics
from ..game.errors import GameMissing, ServiceError
from ..game.models import GameSession, LobbyInfo, PingKind, Publisher
from ..game.service import GameService
from ..httpd import serve
from ..i18n import SUPPORTED_LOCALES, catalog, has_key, normalize_locale, t
from .auth import AuthError, OAuth, SessionSigner
from .frames import Avatars, no_avatars, seat_frame
from .lobby import DiscordSide, idle_frame, lobby_action, lobby_frame, open_lobby, plain_text

if TYPE_CHECKING:
    from .relay import Relay

__all__ = [
    "CLIENT_KEYS",
    "STATIC_DIR",
    "ActivityHub",
    "ActivityPublisher",
    "ActivityServer",
    "frame_text",
]

log = logging.getLogger(__name__)

STATIC_DIR = Path(str(resources.files("bot.activity") / "static"))

#: The bot's own words the client shows (the same keys as the chat hand and table), and the
#: Activity's own under ``activity.``. Sent as templates: the client fills ``{name}`` itself.
CLIENT_KEYS = (
    "hand.button.take",
    "hand.button.done",
    "hand.button.pass",
    "hand.button.transfer",
    "hand.button.attack",
    "hand.button.throw_in",
    "hand.button.defend",
    "hand.button.defend_with",
    "hand.button.pile_on",
    "hand.button.show_trump",
    "hand.button.exchange_trump",
    "hand.button.lead_top",
    "hand.button.accept",
    "hand.button.challenge",
    "role.attacking",
    "role.defending",
    "role.throwing_in",
    "role.taking",
    "role.out",
    "role.waiting",
    "role.left",
    "role.fool",
    "table.talon",
    "table.talon_empty",
    "table.discard",
    "table.no_trump",
    "table.turn_of",
    "watch.delayed",
    "card.rank.jack",
    "card.rank.queen",
    "card.rank.king",
    "card.rank.ace",
    "suit.clubs",
    "suit.diamonds",
    "suit.hearts",
    "suit.spades",
    "lobby.title",
    "lobby.button.join",
    "lobby.button.leave",
    "lobby.button.start",
    "lobby.button.cancel",
    "lobby.button.add_ai",
    "lobby.button.remove_ai",
    "difficulty.easy",
    "difficulty.normal",
    "difficulty.hard",
    "option.deck_size.label",
    "table.players",
)
#: Refusals in the Activity's words where the chat's speak of buttons and hands; any other
#: refusal (the game ended, you left) is the chat's own sentence.
REFUSALS = {
    "error.stale_button": "activity.refused.stale",
    "error.malformed_id": "activity.refused.malformed",
    "error.illegal_action": "activity.refused.illegal",
}
#: Longest message a client may send (a move is a few dozen bytes).
MAX_MESSAGE = 4096


@dataclass(eq=False)
class _Socket:
    """One browser: who (from the token of its hello), where, and what it was last sent."""

    ws: web.WebSocketResponse
    user_id: int
    channel_id: int | None
    game_id: int | None = None
    seat: int | None = None
    #: The game is an open lobby (its frames are the lobby's; a start seats the socket).
    lobby: bool = False
    #: The browser's language, for what no game names one for (the form opening a lobby).
    locale: str | None = None
    sent: tuple[int, int] = (-1, -1)  # (version, watchers) of the last frame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Its game runs in another process: frames and moves go through the relay.
    remote: bool = False


class ActivityHub:
    """The open sockets, by game; sends each the frame its reader may see."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        #: Discord itself (the channel's server, the member, posting a lobby, avatars); None
        #: where the bot has no Discord client at hand: no lobby can be opened then.
        self.discord: DiscordSide | None = None
        self.avatars: Avatars = no_avatars
        #: Avatars of the players who signed in here, as Discord's token exchange gave them
        #: (the bot's own cache lacks most members without the privileged members intent).
        self.signed_avatars: dict[int, str] = {}
        self._games: dict[int, set[_Socket]] = {}
        #: Sockets of people with no game yet: attached when one starts in their channel.
        self._idle: set[_Socket] = set()
        #: With several processes on PostgreSQL: games of the others (bot/activity/relay.py).
        self.relay: Relay | None = None

    async def attach(self, sock: _Socket) -> None:
        """Find the socket's game (or leave it waiting for one) and send its frame."""
        found = await self.service.activity_game(sock.user_id, sock.channel_id)
        elsewhere = None
        if self.relay is not None and (found is None or found[1] is None):
            # the player's own seat, wherever it runs, before watching a game here
            elsewhere = await self.service.activity_game_elsewhere(sock.user_id, sock.channel_id)
            if found is not None and elsewhere is not None and elsewhere[1] is None:
                elsewhere = None
        self._detach(sock)
        sock.sent, sock.remote, sock.lobby = (-1, -1), False, False
        if elsewhere is not None and self.relay is not None:
            sock.game_id, sock.seat = elsewhere
            sock.remote = True
            self._games.setdefault(sock.game_id, set()).add(sock)
            await self.relay.follow(sock.game_id, sock.seat)
        elif found is not None:
            session, sock.seat = found
            sock.game_id = session.game_id
            self._games.setdefault(session.game_id, set()).add(sock)
            await self._push(sock, session)
        else:
            lobby = await self.service.activity_lobby(sock.user_id, sock.channel_id)
            if lobby is not None:
                sock.game_id, sock.seat, sock.lobby = lobby.game_id, None, True
                self._games.setdefault(lobby.game_id, set()).add(sock)
                await self._push_lobby(sock, lobby)
                return
            sock.game_id, sock.seat = None, None
            self._idle.add(sock)
            if self.relay is not None:
                self.relay.wait(sock.channel_id, sock.user_id)
            await self.send(sock, await self._idle_frame(sock))

    def _detach(self, sock: _Socket) -> None:
        if sock in self._idle:
            self._idle.discard(sock)
            if self.relay is not None and not self.idle_for(sock.channel_id, sock.user_id):
                self.relay.unwait(sock.channel_id, sock.user_id)
        if sock.game_id is not None:
            group = self._games.get(sock.game_id)
            if group is not None:
                group.discard(sock)
                if not group:
                    del self._games[sock.game_id]
            if (
                sock.remote
                and self.relay is not None
                and not self.remote_sockets(sock.game_id, sock.seat)
            ):
                self.relay.unfollow(sock.game_id, sock.seat)

    def remove(self, sock: _Socket) -> None:
        self._detach(sock)

    def remote_sockets(self, game_id: int, seat: int | None) -> list[_Socket]:
        """The sockets of this process on ``game_id``'s ``seat``, a game another one runs."""
        group = self._games.get(game_id, ())
        return [s for s in group if s.remote and s.seat == seat]

    def idle_for(self, channel_id: int | None, user_id: int) -> list[_Socket]:
        """The waiting sockets of ``user_id`` opened in ``channel_id``."""
        return [s for s in self._idle if s.channel_id == channel_id and s.user_id == user_id]

    async def remote_frame(
        self, game_id: int, seat: int | None, stamp: tuple[int, int], text: str, end: bool
    ) -> None:
        """A frame of a game another process runs, for this process's sockets on that seat;
        after the last one of an ended game they wait again, as on one process."""
        socks = self.remote_sockets(game_id, seat)
        await asyncio.gather(*(self._push_text(sock, stamp, text) for sock in socks))
        if end:
            for sock in socks:
                self._detach(sock)
                sock.game_id, sock.seat, sock.remote = None, None, False
                self._idle.add(sock)
                if self.relay is not None:
                    self.relay.wait(sock.channel_id, sock.user_id)

    async def remote_started(self, channel_id: int | None, user_id: int) -> None:
        """A game began that the waiting sockets of ``user_id`` in ``channel_id`` may mean."""
        for sock in self.idle_for(channel_id, user_id):
            await self.attach(sock)

    async def changed(self, game_id: int) -> None:
        """The game moved (or its watchers changed): every socket on it gets its new frame
        (built once per seat); a waiting socket whose player or channel it concerns joins it.
        After the last frame of an ended game its sockets wait again, for the next game
        of their player or channel (a rematch, a new table)."""
        session = self.service.session(game_id)
        if session is None:
            await self._lobby_changed(game_id)
            return
        if not session.finished:
            waiting = [s for s in self._games.get(game_id, ()) if s.lobby]
            for sock in list(self._idle):
                here = sock.channel_id == session.channel_id
                if here or session.seat_of(sock.user_id) is not None:
                    waiting.append(sock)
            for sock in waiting:  # the lobby started: its sockets sit down at the table
                await self.attach(sock)
        group = self._games.get(game_id)
        built: dict[int | None, str] = {}
        if group:
            await asyncio.gather(*(self._push(sock, session, built) for sock in list(group)))
        if self.relay is not None:
            self.relay.changed(session, built)
        if session.finished:
            for sock in list(self._games.pop(game_id, ())):
                sock.game_id, sock.seat = None, None
                self._idle.add(sock)
                if self.relay is not None:  # the next game may be another process's
                    self.relay.wait(sock.channel_id, sock.user_id)

    async def _push(
        self, sock: _Socket, session: GameSession, built: dict[int | None, str] | None = None
    ) -> None:
        async with sock.lock:
            stamp = (session.version, session.watchers)
            if stamp == sock.sent:
                return
            text = frame_text(session, sock.seat, built, self.avatars)
            sock.sent = stamp
            await self._send_text(sock, text)

    async def _push_text(self, sock: _Socket, stamp: tuple[int, int], text: str) -> None:
        """A frame built elsewhere; never an older one after a newer (the relay delivers in
        order, but a socket's first frame may come from the cache while a newer one is on
        its way)."""
        async with sock.lock:
            if stamp == sock.sent or stamp[0] < sock.sent[0]:
                return
            sock.sent = stamp
            await self._send_text(sock, text)

    async def _lobby_changed(self, game_id: int) -> None:
        """A game without a session changed: an open lobby (its sockets get its frame, and
        waiting sockets of its channel or players join it), or a lobby that closed (its
        sockets wait again, with the form). Read from storage only when a socket may care."""
        group = self._games.get(game_id)
        if not group and not self._idle:
            return
        try:
            info = await self.service.lobby(game_id)
        except GameMissing:
            return
        if info.status != "lobby" or info.series is not None:
            for sock in list(self._games.pop(game_id, ())):
                sock.game_id, sock.seat, sock.lobby = None, None, False
                self._idle.add(sock)
                await self.send(sock, await self._idle_frame(sock, closed=True))
            return
        seated = {s.user_id for s in info.seats}
        arrived = set()
        for sock in list(self._idle):
            if sock.channel_id == info.channel_id or sock.user_id in seated:
                await self.attach(sock)  # sends the lobby's frame itself
                arrived.add(sock)
        level = (await self.service.settings(info.guild_id)).default_ai_difficulty
        for sock in list(self._games.get(game_id, ())):
            if sock not in arrived:
                await self._push_lobby(sock, info, level)

    async def _push_lobby(self, sock: _Socket, info: LobbyInfo, level: str | None = None) -> None:
        if level is None:
            level = (await self.service.settings(info.guild_id)).default_ai_difficulty
        async with sock.lock:
            sock.sent = (-1, -1)
            await self._send_text(sock, _dump(lobby_frame(info, sock.user_id, level, self.avatars)))

    async def _idle_frame(self, sock: _Socket, *, closed: bool = False) -> dict[str, Any]:
        """The form that opens a lobby where this socket's channel is a server's channel the
        bot serves, starting from that server's house rules."""
        guild = (
            self.discord.guild_of(sock.channel_id)
            if self.discord is not None and sock.channel_id is not None
            else None
        )
        if guild is None:
            return idle_frame(sock.locale, can_open=False) | {"closed": closed}
        settings = await self.service.settings(guild)
        defaults = {
            "preset": settings.default_preset,
            "seats": settings.default_options.get("seats"),
            "deck": settings.default_options.get("deck_size", 36),
        }
        return idle_frame(sock.locale, can_open=True, defaults=defaults) | {"closed": closed}

    async def resend(self, sock: _Socket) -> None:
        """The current frame again (after a refusal: the client redraws what is true)."""
        if sock.game_id is not None and sock.remote:
            last = self.relay.last_frame(sock.game_id, sock.seat) if self.relay else None
            if last is not None:
                sock.sent = (-1, -1)
                await self._push_text(sock, *last)
            return
        session = self.service.session(sock.game_id) if sock.game_id is not None else None
        if session is not None:
            sock.sent = (-1, -1)
            await self._push(sock, session)
        elif sock.lobby or sock.game_id is None:
            await self.attach(sock)

    @classmethod
    async def send(cls, sock: _Socket, message: dict[str, Any]) -> None:
        """One message to one socket (a closed one is skipped: its player reconnects)."""
        await cls._send_text(sock, _dump(message))

    @staticmethod
    async def _send_text(sock: _Socket, text: str) -> None:
        if sock.ws.closed:
            return
        try:
            await sock.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            log.debug("activity: a socket closed while sending")


def _dump(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def frame_text(
    session: GameSession,
    seat: int | None,
    built: dict[int | None, str] | None = None,
    avatars: Avatars = no_avatars,
) -> str:
    """The frame of ``seat`` as sent, built once per seat and change (``built``)."""
    text = built.get(seat) if built is not None else None
    if text is None:
        text = _dump(seat_frame(session, seat, avatars))
        if built is not None:
            built[seat] = text
    return text


class ActivityPublisher:
    """The service's publisher: the Discord one, and the sockets told of every change."""

    def __init__(self, inner: Publisher, hub: ActivityHub) -> None:
        self.inner = inner
        self.hub = hub

    async def refresh(self, game_id: int) -> None:
        await self.hub.changed(game_id)
        await self.inner.refresh(game_id)

    async def ping(self, session: GameSession, seat: int, kind: PingKind) -> None:
        await self.inner.ping(session, seat, kind)

    async def finished(self, session: GameSession) -> None:
        await self.hub.changed(session.game_id)
        await self.inner.finished(session)

    async def remind(self, session: GameSession, seat: int, deadline: float) -> None:
        await self.inner.remind(session, seat, deadline)


def client_strings(locale: str) -> dict[str, str]:
    """The client's words in ``locale``, as templates."""
    words = catalog(locale)
    return {key: words[key] for key in CLIENT_KEYS} | {
        key: text for key, text in words.items() if key.startswith("activity.")
    }


class ActivityServer:
    """Start once the service exists; stop before it closes."""

    def __init__(
        self,
        service: GameService,
        oauth: OAuth,
        signer: SessionSigner,
        client_id: str,
        host: str,
        port: int,
        *,
        static_dir: Path = STATIC_DIR,
    ) -> None:
        self.service = service
        self.hub = ActivityHub(service)
        self.oauth = oauth
        self.signer = signer
        self.client_id = client_id
        self.host = host
        self.port = port
        self.static_dir = static_dir
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()

    def app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/strings/{locale}", self._strings)
        app.router.add_get("/ws", self._ws)
        app.router.add_static("/static/", self.static_dir)
        return app

    async def start(self) -> None:
        if self.hub.relay is not None:
            await self.hub.relay.start()
        self._runner, self.port = await serve(self.app(), self.host, self.port)
        log.info("activity on http://%s:%d/", self.host, self.port)

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.hub.relay is not None:
            await self.hub.relay.stop()
            self.hub.relay = None
        await self.oauth.close()

    def connect_discord(self, side: DiscordSide) -> None:
        """Discord itself, for the lobby and the avatars (the bot calls this at start)."""
        self.hub.discord = side
        signed = self.hub.signed_avatars

        def avatar(user_id: int) -> str | None:
            return signed.get(user_id) or side.avatar(user_id)

        self.hub.avatars = avatar

    # ----------------------------------------------------------------- HTTP

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(
            self.static_dir / "index.html", headers={"Cache-Control": "no-cache"}
        )

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": self.client_id})

    async def _token(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            code = body["code"]
            if not isinstance(code, str) or not 0 < len(code) <= 512:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": "bad request"}, status=400)
        try:
            access = await self.oauth.exchange(code)
            user = await self.oauth.user(access)
        except AuthError as exc:
            return web.json_response({"error": str(exc)}, status=401)
        if user.avatar:
            self.hub.signed_avatars[user.id] = f"avatars/{user.id}/{user.avatar}.png?size=128"
        return web.json_response(
            {
                "access_token": access,
                "session": self.signer.issue(user.id),
                "user": {"id": str(user.id), "name": user.name},
            }
        )

    async def _strings(self, request: web.Request) -> web.Response:
        locale = normalize_locale(request.match_info["locale"])
        assert locale in SUPPORTED_LOCALES
        return web.json_response(client_strings(locale))

    # ----------------------------------------------------------------- the socket

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        self._sockets.add(ws)
        sock: _Socket | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    break
                sock = await self._message(ws, sock, msg.data)
                if sock is None and ws.closed:
                    break
        finally:
            self._sockets.discard(ws)
            if sock is not None:
                self.hub.remove(sock)
        return ws

    async def _message(
        self, ws: web.WebSocketResponse, sock: _Socket | None, data: str
    ) -> _Socket | None:
        try:
            message = json.loads(data)
            if not isinstance(message, dict):
                raise ValueError
            user_id = self.signer.user_of(message.get("token"))
        except (ValueError, AuthError):
            # No trusted sender: nothing in the message is read further.
            await ws.send_str(json.dumps({"op": "unauthorized"}))
            await ws.close()
            return None
        op = message.get("op")
        if sock is None or op == "hello":
            if sock is not None and sock.user_id != user_id:
                await ws.close()
                return None
            channel = message.get("channel_id")
            channel_id = int(channel) if isinstance(channel, str) and channel.isdigit() else None
            discord = self.hub.discord
            if (
                channel_id is not None
                and discord is not None
                and not await discord.sees(channel_id, user_id)
            ):
                # The browser names the channel: one its user may not see (another server's)
                # shows nothing of it; their own seat still finds them.
                channel_id = None
            if sock is None:
                sock = _Socket(ws, user_id, channel_id)
            locale = message.get("locale")
            sock.locale = locale if isinstance(locale, str) and len(locale) <= 16 else None
            await self.hub.attach(sock)
            if op == "hello":
                return sock
        if sock.user_id != user_id:  # a token of someone else on this socket
            await ws.send_str(json.dumps({"op": "unauthorized"}))
            await ws.close()
            return None
        if op == "act":
            await self._act(sock, message)
        elif op == "lobby":
            await self._lobby(sock, message)
        return sock

    async def _lobby(self, sock: _Socket, message: dict[str, Any]) -> None:
        """The lobby's form (``action: new``) or one of its buttons; a refusal is said on
        the page, in the lobby's language, with names where chat would mention."""
        discord = self.hub.discord
        try:
            if discord is None or sock.channel_id is None:
                raise ServiceError("activity.lobby.not_here")
            if message.get("action") == "new":
                form = message.get("form")
                info = await open_lobby(
                    self.service,
                    discord,
                    sock.channel_id,
                    sock.user_id,
                    form if isinstance(form, dict) else {},
                )
                await self.hub.changed(info.game_id)
                return
            if sock.game_id is None or not sock.lobby:
                raise ServiceError("error.lobby_closed")
            await lobby_action(
                self.service, discord, sock.channel_id, sock.game_id, sock.user_id, message
            )
        except ServiceError as exc:
            log.info("activity: lobby, user %d: %s refused", sock.user_id, exc.key)
            await self._refuse_lobby(sock, exc)

    async def _act(self, sock: _Socket, message: dict[str, Any]) -> None:
        version, action = message.get("version"), message.get("action")
        if sock.game_id is None or not isinstance(version, int) or not isinstance(action, str):
            await self._refuse(sock, "error.malformed_id")
            return
        started = time.perf_counter()
        if sock.remote and self.hub.relay is not None:
            key, locale = await self.hub.relay.act(sock.game_id, sock.user_id, version, action)
            if key is not None:
                await self._refuse(sock, key, locale)
                return
        else:
            try:
                await self.service.act_notation(sock.game_id, sock.user_id, version, action)
            except ServiceError as exc:
                log.info(
                    "activity: game %d, user %d: %s refused", sock.game_id, sock.user_id, exc.key
                )
                await self._refuse(sock, exc.key)
                return
        metrics.activity_move(time.perf_counter() - started)

    async def _refuse_lobby(self, sock: _Socket, exc: ServiceError) -> None:
        names: dict[int, str] = {}
        locale = normalize_locale(sock.locale)
        if sock.game_id is not None:
            try:
                info = await self.service.lobby(sock.game_id)
            except GameMissing:
                pass
            else:
                locale = normalize_locale(info.locale)
                names = {s.user_id: s.name for s in info.seats if s.user_id is not None}
                names.setdefault(info.host_id, "?")
        text = None
        if has_key(exc.key):
            try:
                text = t(exc.key, locale, **exc.params)
            except (KeyError, IndexError, ValueError):  # a sentence it cannot fill: the general one
                log.warning("activity: refusal %s could not be filled", exc.key)
        await self.hub.send(
            sock,
            {
                "op": "refused",
                "key": exc.key,
                "text": plain_text(text or t("error.internal", locale), names),
            },
        )
        await self.hub.resend(sock)

    async def _refuse(self, sock: _Socket, key: str, locale: str | None = None) -> None:
        """Say why, in the table's language, and send the true table again (the client may
        have drawn a move that never happened)."""
        if locale is None:
            session = self.service.session(sock.game_id) if sock.game_id is not None else None
            locale = session.locale if session is not None else None
        locale = normalize_locale(locale)
        text = t(REFUSALS.get(key, key), locale) if key in REFUSALS or has_key(key) else None
        await self.hub.send(
            sock, {"op": "refused", "key": key, "text": text or t("error.internal", locale)}
        )
        await self.hub.resend(sock)
