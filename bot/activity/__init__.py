"""The Discord Activity: the card table in a browser inside Discord (docs/activity.md).

:func:`new_activity_server` builds the endpoint from the settings; it is only called when the
Activity is configured (``Config.activity_enabled``), so without its settings the bot opens
no port and shows no Activity button.
"""

from __future__ import annotations

import logging
import secrets

from ..config import Config
from ..game.service import GameService
from .auth import DiscordOAuth, LocalOAuth, OAuth, SessionSigner
from .relay import relay_for
from .server import ActivityPublisher, ActivityServer

__all__ = ["ActivityPublisher", "ActivityServer", "new_activity_server"]

log = logging.getLogger(__name__)


def new_activity_server(
    config: Config,
    service: GameService,
    *,
    oauth: OAuth | None = None,
    host: str | None = None,
    port: int | None = None,
) -> ActivityServer:
    """The endpoint as configured; ``oauth``/``host``/``port`` override it (tests: a fake
    Discord and port 0)."""
    secret = config.activity_client_secret
    if oauth is None:
        if secret is not None and config.activity_client_id is not None:
            oauth = DiscordOAuth(config.activity_client_id, secret)
        else:
            log.warning(
                "activity: ACTIVITY_LOCAL_LOGIN is on: anyone reaching the port may play as "
                "anyone. For development only."
            )
            oauth = LocalOAuth()
    # The client secret is every process's shared key; the local mode gets one of its own.
    signing = secret or secrets.token_urlsafe(32)
    server = ActivityServer(
        service,
        oauth,
        SessionSigner(signing),
        config.activity_client_id or "0",
        config.activity_host if host is None else host,
        config.activity_port if port is None else port,
    )
    # Several processes share PostgreSQL: a socket may reach one that does not run its game.
    server.hub.relay = relay_for(server.hub)
    return server
