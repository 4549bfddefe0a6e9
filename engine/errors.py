"""The engine's two refusals: an action that is not legal now, and data that is not a position.

Both are ``ValueError`` subclasses so callers can tell refused input from bugs; they live in
their own module so ``game.py``, ``position.py`` and ``explain.py`` share them without cycles.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that is not legal now. ``code`` is stable (for translations), ``str`` explains."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class InvalidPosition(ValueError):
    """Malformed or inconsistent game data (duplicate card, wrong pack, bad seat ...)."""
