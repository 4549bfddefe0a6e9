"""The bot's side of game records (engine/record.py): what the start of a game and each move
write into the record, and reading a stored record back into positions.

The record's lines are written by the same storage statements that store the game's state
(``begin_game``, ``save_state``, ``finish_game``), so a move is in the record exactly when it
is in the state."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Action
from engine.record import Move, Record

from .models import GameSession, PublicEvent

__all__ = ["record_header", "record_line"]


def record_header(session: GameSession) -> str:
    """The record's first line for a game just dealt: the deal (seed and rules) and, for
    people reading an exported file, the game id and the seats' names."""
    record = Record.start(
        session.game,
        session.seed,
        extra={
            "game_id": session.game_id,
            "names": [s.name for s in session.seats],
            "started": round(session.record_t0, 1),
        },
    )
    return record.header_line()


def record_line(
    session: GameSession, action: Action, before: Iterable[PublicEvent], now: float
) -> str:
    """The text a move appends to the record: a note for a turn that ran out (the move is
    then the seat's default), then the action; each line starts with its newline."""
    at = max(0.0, now - session.record_t0)
    lines = [Move(at, None, "timeout", e.seat).line() for e in before if e.kind == "timeout"]
    lines.append(Move(at, action).line())
    return "".join("\n" + ln for ln in lines)
