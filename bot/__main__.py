"""Entry point: ``python -m bot`` / ``durak-bot``.

Without a token the bot cannot connect, and a newcomer should not be greeted by a traceback:
we print one sentence saying where the token comes from. ``--play-offline`` (used by
``make run``) then starts the terminal game instead, so the project is playable in one command.
"""

from __future__ import annotations

import argparse
import logging
import sys

from .config import ConfigError, load_config
from .logging_setup import setup_logging

__all__ = ["NO_TOKEN_MESSAGE", "main"]

NO_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set: create an application in the Discord developer portal "
    "(https://discord.com/developers/applications), open its Bot page, copy the token and put "
    "it into .env as DISCORD_TOKEN=... (see README, 'Running the bot on Discord')."
)

log = logging.getLogger("bot")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="durak-bot", description="Run the Durak Discord bot.")
    parser.add_argument(
        "--sync",
        choices=("auto", "guild", "global", "none"),
        default="auto",
        help="where to sync slash commands: auto = DEV_GUILD_ID if set, otherwise nowhere"
        " (default: auto)",
    )
    parser.add_argument(
        "--play-offline",
        action="store_true",
        help="without DISCORD_TOKEN, play Durak in the terminal instead of exiting",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the bot; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    if not config.discord_token:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        if args.play_offline:
            from engine.play import main as play_main  # lazy: only the offline path needs it

            return play_main([])
        return 2

    import discord

    from .app import DurakBot

    bot = DurakBot(config, sync=args.sync)
    try:
        bot.run(config.discord_token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: copy a fresh token from the developer portal's Bot"
            " page into .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "This bot needs no privileged intents; check the application settings.", file=sys.stderr
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
