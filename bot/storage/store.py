"""The storage service: every operation on lobbies, games, results, settings and forfeits.

Design notes (the *why*):

* Written once, for both engines: the SQL of every area is the portable subset with ``?``
  placeholders, run through a :class:`~bot.storage.dialect.Connection`; the backend (SQLite
  by default, PostgreSQL when several processes share one database) is chosen by the
  database URL given to :meth:`Storage.open`. What differs per engine lives in dialect.py,
  sqlite.py and postgres.py.
* Every public method is exactly one transaction, so a crash between two awaits can never
  leave half an operation behind, and no caller can observe another one's uncommitted rows.
* Schema changes are numbered SQL files in ``bot/migrations`` (see migrations.py).
* ``games.version`` gives optimistic concurrency: a writer states which version it read and
  the UPDATE itself is refused (``WHERE id = ? AND version = ?``) if somebody else got there
  first - a double-clicked button, an interaction replayed after a restart, or another bot
  process. That, not an in-process lock, is what prevents duplicated actions. Reads that a
  write transaction depends on lock their rows (``conn.for_update``) where the engine locks
  rows rather than the whole database.
* The "one active game per user" rule lives in the ``active_players`` primary key rather than
  in a check-then-insert in Python, so it also holds for concurrent joins.
* Time is injected (``clock``/``now``) so that tests can control periods and streaks.
* One area per module, each a mixin over :class:`~bot.storage.core.StorageCore` (lobbies,
  games, outbox, settings, prefs, forfeits, stats, ratings, rematches, history, quick
  match, tournaments, lessons, daily puzzles), composed below into
  :class:`Storage`, the same style as :class:`~bot.game.service.GameService`. Mixins rather
  than area objects so that every caller keeps calling ``storage.create_lobby`` and friends
  on one object, and the areas keep sharing one transaction helper and clock. A new area is
  a new module and one more base here; nothing outside an area calls its privates, and an
  area whose words another already uses names them for itself (``rating_leaderboard``
  beside the results board's ``leaderboard``; docs/architecture.md).
"""

from __future__ import annotations

from .forfeits import ForfeitStorage
from .games import GameStorage
from .history import HistoryStorage
from .lessons import LessonStorage
from .lobbies import LobbyStorage
from .outbox import OutboxStorage
from .prefs import PlayerPrefsStorage
from .puzzles import PuzzleStorage
from .quick import QuickStorage
from .ratings import RatingStorage
from .rematch import RematchStorage
from .settings import GuildSettingsStorage
from .stats import StatsStorage
from .tournaments import TournamentStorage

__all__ = ["Storage"]


class Storage(
    LobbyStorage,
    GameStorage,
    OutboxStorage,
    ForfeitStorage,
    GuildSettingsStorage,
    PlayerPrefsStorage,
    StatsStorage,
    RatingStorage,
    RematchStorage,
    HistoryStorage,
    QuickStorage,
    TournamentStorage,
    LessonStorage,
    PuzzleStorage,
):
    """Async facade over the database. Create with ``await Storage.open(url_or_path)``."""
