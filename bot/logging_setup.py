"""One place that decides how the bot logs, so the entry point and tools agree on format."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

__all__ = ["LOG_FORMAT", "setup_logging"]

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def setup_logging(level: str | int = "INFO", *, stream: TextIO | None = None) -> None:
    """Configure the root logger.

    We replace existing handlers (``force=True``) because discord.py installs its own on
    ``Client.run`` unless told not to, which would otherwise produce every line twice. The
    noisy ``discord.gateway``/``discord.http`` loggers are capped at INFO even under DEBUG so
    that our own debug output stays readable; raise them explicitly if you need the wire logs.
    """
    if isinstance(level, str):
        numeric = logging.getLevelNamesMapping().get(level.upper())
        if numeric is None:
            raise ValueError(f"Unknown log level {level!r}.")
        level = numeric
    logging.basicConfig(
        level=level,
        format=LOG_FORMAT,
        datefmt=_DATE_FORMAT,
        stream=stream or sys.stderr,
        force=True,
    )
    for noisy in ("discord.gateway", "discord.http", "discord.client"):
        logging.getLogger(noisy).setLevel(max(level, logging.INFO))
    logging.getLogger("asyncpg").setLevel(max(level, logging.INFO))
