"""What the game service refuses, as exceptions that carry an i18n key.

Every refusal a player can cause is a :class:`ServiceError`; the Discord side turns its
key into a polite private answer, so no traceback ever reaches a channel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import GameSession


class ServiceError(Exception):
    """A refusal meant for the user: ``key`` is an i18n key and ``params`` fill it."""

    key = "error.internal"

    def __init__(self, key: str | None = None, /, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(f"{self.key} {params}" if params else self.key)


class GameMissing(ServiceError):
    key = "error.game_not_found"


class ElsewhereGame(ServiceError):
    """A component names a game of another server (or, on a public message, of another
    channel): forged or copied. The refusal says nothing of that game, not even whether
    it exists."""

    key = "error.game_elsewhere"


class GameOver(ServiceError):
    key = "error.game_finished"


class HandClosed(ServiceError):
    """A hand of a game that ended (``hand.closed.finished`` / ``.cancelled``) or that the
    player left (``hand.closed.left``): it offers no moves any more and says why. The ended
    game's ``session`` lets the answer show its result."""

    key = "hand.closed.finished"

    def __init__(self, key: str, session: GameSession | None = None) -> None:
        super().__init__(key)
        self.session = session


class NotAPlayer(ServiceError):
    key = "error.not_in_game"


class NotAllowed(ServiceError):
    key = "error.only_host"


class AlreadyPlaying(ServiceError):
    key = "error.already_in_game"

    def __init__(self, game_id: int) -> None:
        super().__init__(link=f"#{game_id}")
        self.game_id = game_id


class ChannelBusy(ServiceError):
    key = "error.channel_busy"

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)
        self.game_id = game_id


class StaleAction(ServiceError):
    """The click was made against an older version; nothing was applied."""

    key = "error.stale_button"


class IllegalMove(ServiceError):
    key = "error.illegal_action"

    def __init__(self, code: str) -> None:
        super().__init__(code=code)
        self.code = code
