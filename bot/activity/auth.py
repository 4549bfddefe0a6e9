"""Who is at the other end of an Activity socket: Discord's OAuth2 code exchange, then the
bot's own signed session token.

The browser never sees the client secret: the Embedded App SDK's ``authorize()`` gives the
client a one-time code, the client posts it here, and the bot exchanges it at Discord's token
endpoint and asks ``/users/@me`` whose it is. The bot then signs a session token naming that
user (HMAC-SHA256, stdlib: a token needs no more than ``user id . expiry . signature``, and
``hmac.compare_digest`` is the careful part), and checks it on every socket message.

The signing key is derived from the client secret, so every process of one deployment
accepts the tokens of the others (a socket may land on any of them) without one more
setting, and a new client secret invalidates every token at once.

The two HTTP calls sit behind :class:`OAuth`, so the tests and the local mode use
:class:`LocalOAuth` instead of Discord.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import aiohttp

__all__ = [
    "DISCORD_API",
    "SESSION_SECONDS",
    "AuthError",
    "DiscordOAuth",
    "DiscordUser",
    "LocalOAuth",
    "OAuth",
    "SessionSigner",
]

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
#: How long a session token is good for: a long game and then some; a reload after that
#: simply authorizes again (the SDK does it without asking once the user agreed).
SESSION_SECONDS = 12 * 3600
#: An avatar hash as Discord writes it (``a_`` for an animated one): it goes into a CDN path.
AVATAR_HASH = re.compile(r"(a_)?[0-9a-f]{32}")


class AuthError(Exception):
    """The code, the token or Discord's answer was refused (the client authorizes again)."""


@dataclass(frozen=True, slots=True)
class DiscordUser:
    id: int
    name: str
    #: The avatar's hash on Discord's CDN (None: the default avatar, or not a hash).
    avatar: str | None = None


class OAuth(Protocol):
    """Discord's two OAuth2 calls the Activity needs."""

    async def exchange(self, code: str) -> str:
        """The access token for an ``authorize()`` code."""

    async def user(self, access_token: str) -> DiscordUser:
        """Whose access token it is."""

    async def close(self) -> None:
        """Release the HTTP client, if any."""


class DiscordOAuth:
    """The real calls, with the application's client id and secret."""

    def __init__(self, client_id: str, client_secret: str, api: str = DISCORD_API) -> None:
        self._client_id = client_id
        self._secret = client_secret
        self._api = api
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._http

    async def exchange(self, code: str) -> str:
        data = {
            "client_id": self._client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._session().post(f"{self._api}/oauth2/token", data=data) as response:
                if response.status != 200:
                    log.info("activity: Discord refused an OAuth2 code (%d)", response.status)
                    raise AuthError("code refused")
                body = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("activity: Discord's token endpoint did not answer: %r", exc)
            raise AuthError("Discord did not answer") from None
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str):
            raise AuthError("no access token in Discord's answer")
        return token

    async def user(self, access_token: str) -> DiscordUser:
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            async with self._session().get(f"{self._api}/users/@me", headers=headers) as response:
                if response.status != 200:
                    raise AuthError("access token refused")
                body = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("activity: Discord's /users/@me did not answer: %r", exc)
            raise AuthError("Discord did not answer") from None
        try:
            avatar = body.get("avatar")
            return DiscordUser(
                int(body["id"]),
                str(body.get("global_name") or body["username"]),
                avatar if isinstance(avatar, str) and AVATAR_HASH.fullmatch(avatar) else None,
            )
        except (KeyError, TypeError, ValueError):
            raise AuthError("no user in Discord's answer") from None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()


class LocalOAuth:
    """A stand-in for Discord in tests and the local mode: the code ``local:<user id>:<name>``
    (what the client's mock of Discord's frame hands out) is that user. Never used unless the
    operator or a test asks for it (``ACTIVITY_LOCAL_LOGIN``), since it trusts the browser."""

    async def exchange(self, code: str) -> str:
        if not code.startswith("local:"):
            raise AuthError("not a local code")
        return code

    async def user(self, access_token: str) -> DiscordUser:
        _, user_id, name = [*access_token.split(":", 2), "", ""][:3]
        if not user_id.isdigit():
            raise AuthError("not a local token")
        return DiscordUser(int(user_id), name or f"user {user_id}")

    async def close(self) -> None:
        return None


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class SessionSigner:
    """Issues and checks ``<user id>.<expiry>.<signature>`` tokens."""

    def __init__(self, secret: str, clock: Callable[[], float] = time.time) -> None:
        self._key = hashlib.sha256(b"durak-activity-session\0" + secret.encode()).digest()
        self._clock = clock

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())

    def issue(self, user_id: int, seconds: int = SESSION_SECONDS) -> str:
        payload = f"{user_id}.{int(self._clock()) + seconds}"
        return f"{payload}.{self._sign(payload)}"

    def user_of(self, token: object) -> int:
        """The user a token names; :class:`AuthError` when forged, malformed or expired."""
        if not isinstance(token, str) or token.count(".") != 2:
            raise AuthError("malformed session token")
        user, expiry, signature = token.split(".")
        if not hmac.compare_digest(self._sign(f"{user}.{expiry}"), signature):
            raise AuthError("bad signature")
        if not (user.isdigit() and expiry.isdigit()):
            raise AuthError("malformed session token")
        if int(expiry) < self._clock():
            raise AuthError("session expired")
        return int(user)
