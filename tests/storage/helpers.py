"""Shared steps of the storage tests."""

from __future__ import annotations

from typing import Any

from bot.storage import Storage


async def start_lobby(
    storage: Storage, game_id: int, state_json: str, version: int = 1, **kw: Any
) -> None:
    """Start a lobby the way the service does (``begin_game``), its seats in seat order."""
    order = [s.seat for s in await storage.seats(game_id)]
    await storage.begin_game(game_id, order, state_json, version, **kw)
