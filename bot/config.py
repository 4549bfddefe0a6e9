"""Runtime configuration loaded from the environment (optionally seeded from a ``.env`` file).

Everything is parsed and validated once at start-up so that a typo in the deployment surfaces
as one clear sentence instead of a confusing failure deep inside a game hours later.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from .storage.rows import DEFAULT_TURN_TIMER_SECONDS

__all__ = ["DEFAULT_DATABASE_PATH", "Config", "ConfigError", "load_config"]

DEFAULT_DATABASE_PATH = "data/durak.db"
#: Pacing of computer players: the pause before a computer moves, only long enough for people
#: to see the previous move (the table's "last moves" keeps any it skips). The thinking comes
#: on top and is bounded by engine.ai.BOT_MAX_SECONDS.
AI_DELAY_DEFAULT = 0.5
_DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")
_VALID_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class ConfigError(ValueError):
    """Raised for a malformed setting; the message is meant to be shown to the operator as is."""


@dataclass(frozen=True, slots=True)
class Config:
    """Validated settings. Frozen so no component can silently diverge from what was loaded."""

    discord_token: str | None
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    ai_delay_seconds: float
    table_edit_interval: float
    default_turn_timer_seconds: int
    #: Shards this process runs (``SHARD_IDS``); None = all of them. Defaults keep every
    #: existing ``Config(...)`` call valid.
    shard_ids: tuple[int, ...] | None = None
    #: Total shards across all processes (``SHARD_COUNT``); None = Discord's recommendation.
    shard_count: int | None = None
    #: File the running bot touches while healthy; ``python -m bot --health`` reads it.
    heartbeat_file: Path | None = None
    #: ``DATABASE_URL`` when given (``sqlite:///...`` or ``postgresql://...``); None means the
    #: SQLite file at ``database_path``.
    database_url: str | None = None
    #: Whether games get their own thread in guilds that never set ``threads`` themselves.
    default_threads: bool = True
    #: Port of the ``/metrics`` and ``/healthz`` endpoint (bot/httpd.py); None = no endpoint.
    metrics_port: int | None = None
    #: Address it listens on: loopback unless the operator opens it (Docker: 0.0.0.0).
    metrics_host: str = "127.0.0.1"
    #: The Discord Activity (bot/activity/): the application's OAuth2 client id and secret
    #: and the public https address Discord's URL mapping points at. Off unless all three
    #: are set (``ACTIVITY_LOCAL_LOGIN`` alone turns it on for development, without Discord).
    activity_client_id: str | None = None
    activity_client_secret: str | None = None
    activity_public_url: str | None = None
    #: Where the Activity's endpoint listens (a reverse proxy with TLS sits in front of it).
    activity_host: str = "127.0.0.1"
    activity_port: int = 8080
    #: Accept the local mode's stand-in logins (bot/activity/auth.py ``LocalOAuth``) instead
    #: of Discord's: anyone may then claim any user, so never on a public address.
    activity_local_login: bool = False

    @property
    def activity_enabled(self) -> bool:
        """Whether the bot serves the Activity at all (no endpoint, no button otherwise)."""
        return self.activity_client_secret is not None or self.activity_local_login

    @property
    def database(self) -> str:
        """What :meth:`bot.storage.Storage.open` is given: the URL, else the SQLite path."""
        return self.database_url or f"sqlite:///{self.database_path}"

    @property
    def log_level_number(self) -> int:
        """Numeric level, handy for ``logging.basicConfig`` without re-parsing the name."""
        return logging.getLevelNamesMapping()[self.log_level]


def _clean(env: Mapping[str, str], key: str) -> str | None:
    """Treat unset and blank values alike: a blank line in ``.env`` should mean "use default"."""
    raw = env.get(key)
    if raw is None:
        return None
    raw = raw.strip()
    return raw or None


def _parse_int(env: Mapping[str, str], key: str, *, minimum: int | None = None) -> int | None:
    raw = _clean(env, key)
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, got {raw!r}.") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{key} must be at least {minimum}, got {value}.")
    return value


def _parse_float(env: Mapping[str, str], key: str, default: float) -> float:
    raw = _clean(env, key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number of seconds, got {raw!r}.") from None
    if not value >= 0 or value == float("inf"):  # also rejects NaN
        raise ConfigError(f"{key} must be a finite number of seconds >= 0, got {raw!r}.")
    return value


def _parse_shards(env: Mapping[str, str]) -> tuple[tuple[int, ...] | None, int | None]:
    """``SHARD_IDS`` is a comma list of shard numbers or ``a-b`` ranges ("0,1", "4-7"); it only
    makes sense together with ``SHARD_COUNT``, the total over *all* processes, because the
    shard of a guild depends on that total."""
    count = _parse_int(env, "SHARD_COUNT", minimum=1)
    raw = _clean(env, "SHARD_IDS")
    if raw is None:
        return None, count
    if count is None:
        raise ConfigError(
            "SHARD_IDS needs SHARD_COUNT, the total number of shards over all processes"
            " (e.g. SHARD_IDS=0,1 and SHARD_COUNT=4 for the first of two processes)."
        )
    ids: list[int] = []
    for part in raw.split(","):
        item = part.strip()
        low, sep, high = item.partition("-")
        try:
            first = int(low)
            last = int(high) if sep else first
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be shard numbers or ranges separated by commas (like 0,1 or"
                f" 0-3), got {raw!r}."
            ) from None
        if first > last:
            raise ConfigError(f"SHARD_IDS range {item!r} runs backwards.")
        ids.extend(range(first, last + 1))
    outside = sorted({i for i in ids if not 0 <= i < count})
    if outside:
        raise ConfigError(
            f"SHARD_IDS must lie between 0 and SHARD_COUNT-1 ({count - 1}), got"
            f" {', '.join(map(str, outside))}."
        )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS names a shard twice: {raw!r}.")
    return tuple(sorted(ids)), count


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _parse_bool(env: Mapping[str, str], key: str, default: bool) -> bool:
    raw = _clean(env, key)
    if raw is None:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ConfigError(f"{key} must be on or off (true/false, 1/0), got {raw!r}.")


_ACTIVITY_KEYS = ("ACTIVITY_CLIENT_ID", "ACTIVITY_CLIENT_SECRET", "ACTIVITY_PUBLIC_URL")


def _parse_activity(env: Mapping[str, str]) -> dict[str, Any]:
    """The Activity's settings: all three of :data:`_ACTIVITY_KEYS` or none (one alone is a
    half-done setup, said at start-up rather than found out in Discord)."""
    values = {key: _clean(env, key) for key in _ACTIVITY_KEYS}
    given = [key for key, value in values.items() if value is not None]
    if given and len(given) != len(_ACTIVITY_KEYS):
        missing = ", ".join(key for key in _ACTIVITY_KEYS if values[key] is None)
        raise ConfigError(f"The Activity needs {missing} too (or none of its settings).")
    url = values["ACTIVITY_PUBLIC_URL"]
    if url is not None and not url.startswith("https://"):
        raise ConfigError(
            f"ACTIVITY_PUBLIC_URL must start with https:// (Discord asks for it), got {url!r}."
        )
    port = _parse_int(env, "ACTIVITY_PORT", minimum=1)
    if port is not None and port > 65535:
        raise ConfigError(f"ACTIVITY_PORT must be a TCP port (1-65535), got {port}.")
    return {
        "activity_client_id": values["ACTIVITY_CLIENT_ID"],
        "activity_client_secret": values["ACTIVITY_CLIENT_SECRET"],
        "activity_public_url": url,
        "activity_host": _clean(env, "ACTIVITY_HOST") or "127.0.0.1",
        "activity_port": port or 8080,
        "activity_local_login": _parse_bool(env, "ACTIVITY_LOCAL_LOGIN", False),
    }


def config_from_mapping(env: Mapping[str, str]) -> Config:
    """Build a Config from any mapping; split out so tests need not touch ``os.environ``."""
    dev_guild_id = _parse_int(env, "DEV_GUILD_ID", minimum=1)

    log_level = (_clean(env, "LOG_LEVEL") or "INFO").upper()
    if log_level == "WARN":
        log_level = "WARNING"
    if log_level not in _VALID_LOG_LEVELS:
        raise ConfigError(
            f"LOG_LEVEL must be one of {', '.join(_VALID_LOG_LEVELS)}, got {log_level!r}."
        )

    turn_timer = _parse_int(env, "DEFAULT_TURN_TIMER_SECONDS", minimum=0)
    shard_ids, shard_count = _parse_shards(env)
    heartbeat = _clean(env, "HEARTBEAT_FILE")
    metrics_port = _parse_int(env, "METRICS_PORT", minimum=1)
    if metrics_port is not None and metrics_port > 65535:
        raise ConfigError(f"METRICS_PORT must be a TCP port (1-65535), got {metrics_port}.")

    activity = _parse_activity(env)

    database_url = _clean(env, "DATABASE_URL")
    database_path = _clean(env, "DATABASE_PATH")
    if database_url is not None:
        if not database_url.startswith(_DATABASE_SCHEMES):
            raise ConfigError(
                "DATABASE_URL must start with sqlite:/// (e.g. sqlite:///data/durak.db) or "
                f"postgresql:// (e.g. postgresql://durak:secret@localhost/durak), got "
                f"{database_url.split('://', 1)[0]!r}."
            )
        # DATABASE_URL wins: it is the newer setting, and .env files made from the older
        # .env.example all carry DATABASE_PATH=data/durak.db
        if database_url.startswith("sqlite:///"):  # one spelling of the file in the config
            database_path = database_url.removeprefix("sqlite:///")
            database_url = None

    return Config(
        discord_token=_clean(env, "DISCORD_TOKEN"),
        database_path=Path(database_path or DEFAULT_DATABASE_PATH),
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        ai_delay_seconds=_parse_float(env, "AI_DELAY_SECONDS", AI_DELAY_DEFAULT),
        table_edit_interval=_parse_float(env, "TABLE_EDIT_INTERVAL", 1.0),
        default_turn_timer_seconds=DEFAULT_TURN_TIMER_SECONDS if turn_timer is None else turn_timer,
        shard_ids=shard_ids,
        shard_count=shard_count,
        heartbeat_file=Path(heartbeat) if heartbeat else None,
        database_url=database_url,
        default_threads=_parse_bool(env, "DEFAULT_THREADS", True),
        metrics_port=metrics_port,
        metrics_host=_clean(env, "METRICS_HOST") or "127.0.0.1",
        **activity,
    )


def load_config(env_file: str | None = ".env") -> Config:
    """Load settings from the process environment, filling gaps from ``env_file`` if it exists.

    Real environment variables win over the file (``override=False``) so container/CI settings
    cannot be shadowed by a stale ``.env`` left in the working tree. The token stays optional
    here because tests and tooling load config without one; the entry point insists on it.
    """
    if env_file is not None and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    return config_from_mapping(os.environ)
