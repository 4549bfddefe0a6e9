"""Entry point: ``python -m bot`` / ``durak-bot``.

``durak-bot migrate-db --from sqlite:///... --to postgresql://...`` copies an SQLite database
into PostgreSQL instead (bot/storage/transfer.py).

Without a token the bot cannot connect, and a newcomer should not be greeted by a traceback:
we print one sentence saying where the token comes from. ``--play-offline`` (used by
``make run``) then starts the terminal game instead, so the project is playable in one command.
The same goes for the failures an operator meets at start-up (a rejected token, no network,
an unwritable database directory): one line saying what failed, and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Callable

from .config import Config, ConfigError, load_config
from .logging_setup import setup_logging

__all__ = ["NO_TOKEN_MESSAGE", "main", "start_failure"]

NO_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set: create an application in the Discord developer portal "
    "(https://discord.com/developers/applications), open its Bot page, copy the token and put "
    "it into .env as DISCORD_TOKEN=... (see README, 'Discord set-up')."
)

log = logging.getLogger("bot")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="durak-bot", description="Run the Durak Discord bot.")
    parser.add_argument(
        "--sync",
        choices=("auto", "guild", "global", "none"),
        default="auto",
        help="where to sync slash commands: auto = DEV_GUILD_ID if set, otherwise nowhere"
        " (default: auto); global registers the commands for every server and exits",
    )
    parser.add_argument(
        "--play-offline",
        action="store_true",
        help="without DISCORD_TOKEN, play Durak in the terminal instead of exiting",
    )
    parser.add_argument(
        "--health",
        action="store_true",
        help="exit 0 if the running bot's HEARTBEAT_FILE is fresh, 1 if not (for HEALTHCHECK)",
    )
    return parser


def _health(config: Config) -> int:
    from .health import check_heartbeat  # lazy: the health check should start fast

    if config.heartbeat_file is None:
        print("HEARTBEAT_FILE is not set: the bot writes no heartbeat to check.", file=sys.stderr)
        return 2
    healthy, text = check_heartbeat(config.heartbeat_file)
    print(text, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


def start_failure(exc: BaseException) -> tuple[str, int] | None:
    """One line and an exit status for a failure that is the setup's fault, not a bug (2 for
    settings to fix, 1 for an outage to wait out); None keeps the traceback of anything else."""
    import aiohttp
    import discord

    from .storage import StorageError

    if isinstance(exc, discord.LoginFailure):
        return (
            "Discord rejected DISCORD_TOKEN: copy a fresh token from the developer portal's Bot"
            " page into .env.",
            2,
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "This bot needs no privileged intents; check the application settings.", 2
    if isinstance(exc, aiohttp.ClientConnectorError):
        return (
            f"Cannot reach Discord ({exc.host}:{exc.port}: {exc.strerror or exc}): check the"
            " network connection, DNS and firewall, then start the bot again.",
            1,
        )
    if isinstance(exc, discord.GatewayNotFound | aiohttp.ClientError | TimeoutError):
        return (
            f"Cannot reach Discord ({type(exc).__name__}: {exc}): check the network"
            " connection and https://discordstatus.com, then start the bot again.",
            1,
        )
    if isinstance(exc, OSError):  # e.g. a database directory the bot may not write to
        where = f": {exc.filename}" if exc.filename else ""
        return f"Cannot start ({exc.strerror or exc}{where}).", 1
    if isinstance(exc, StorageError):  # e.g. a database written by a newer version
        return f"Cannot open the database: {exc}.", 1
    return None


def _run(what: Callable[[], object]) -> int:
    """Run the client; a failure of the setup becomes one line and a non-zero status."""
    try:
        what()
    except Exception as exc:
        failure = start_failure(exc)
        if failure is None:
            raise
        log.debug("start-up failed", exc_info=exc)  # the traceback, for LOG_LEVEL=DEBUG
        print(failure[0], file=sys.stderr)
        return failure[1]
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the bot; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["migrate-db"]:  # a maintenance command, not the bot: see its --help
        from .storage.transfer import main as migrate_db

        return migrate_db(argv[1:])
    args = _parser().parse_args(argv)
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if args.health:
        return _health(config)
    setup_logging(config.log_level)
    if not config.discord_token:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        if args.play_offline:
            from engine.play import main as play_main  # lazy: only the offline path needs it

            return play_main([])
        return 2

    from .app import DurakBot, sync_commands_only

    token = config.discord_token
    if args.sync == "global":
        # Sync and exit: staying up would leave a second bot on the same token and
        # database next to the one that actually serves the servers.
        counted: list[int] = []
        status = _run(lambda: counted.append(asyncio.run(sync_commands_only(config, token))))
        if status == 0:
            print(
                f"Registered {counted[0]} slash command(s) for every server (Discord can take up"
                " to an hour to show them). Now start the bot without --sync global."
            )
        return status
    bot = DurakBot(config, sync=args.sync)
    # `docker stop` sends SIGTERM, and in a container the bot is PID 1, for which the kernel
    # drops signals that have no handler: Docker would wait 10 s and kill it. Handled like
    # Ctrl+C instead, which discord.py's run() turns into a clean close (computer players
    # stopped, queued announcements sent, database closed) and exit status 0.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return _run(lambda: bot.run(token, log_handler=None))
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
