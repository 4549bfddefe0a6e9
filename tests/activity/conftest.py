"""The Activity's tests drive the real bot on simcord (tests/bot/conftest.py's fixtures)."""

from tests.bot.conftest import card_faces_drawn, db_path  # noqa: F401  (fixtures)
