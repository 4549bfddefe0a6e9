"""A running game's stored form (``games.state_json``): encoded and decoded here only.

The snapshot is the whole state (every hand: it is never shown to anyone) plus what the
session keeps beside the engine's game: the seed, the public events the table shows, the
forfeits, the turn ping still owed, who went out together, when the game began and, for a
lesson, where its tips are. A restart
rebuilds the session from it, so a field added to one side and not the other would be lost
silently; with both sides in one module, and the format number checked on the way in, a
snapshot this build does not understand is refused with a clear error instead of being half
read.

Format 1 is the only one written so far. Snapshots from before the session kept
``out_groups``, ``ping`` or ``t0`` are still format 1 and still load: each missing field
has the value it had when it was not stored (see :func:`decode`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine import Game

from ..ratings import out_groups_from_events
from .lesson_plan import LessonState
from .models import GameSession, PublicEvent, SessionState

#: The format :func:`encode` writes; :func:`decode` reads exactly the formats in
#: :data:`READABLE_FORMATS`.
SNAPSHOT_FORMAT = 1
READABLE_FORMATS: frozenset[int] = frozenset({1})


class SnapshotFormatError(ValueError):
    """A stored snapshot in a format this build cannot read (written by a newer build, or
    not a snapshot at all)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A decoded snapshot: the values a session is rebuilt from."""

    seed: int
    version: int
    deadline: float | None
    game: Game
    events: tuple[PublicEvent, ...]
    forfeits: dict[int, str]
    owed_ping: tuple[int, str, int] | None
    out_groups: list[list[int]]
    record_t0: float
    lesson: LessonState | None = None


def encode(session: GameSession, state: SessionState | None = None) -> str:
    """The JSON stored in ``games.state_json`` for ``session`` in ``state`` (default: its
    current one). The seed and the start time are the session's own."""
    state = state or session.state()
    return json.dumps(
        {
            "format": SNAPSHOT_FORMAT,
            "seed": session.seed,
            "version": state.version,
            "deadline": state.deadline,
            "game": state.game.to_dict(),
            "events": [e.to_json() for e in state.events],
            "forfeits": {str(k): v for k, v in state.forfeits.items()},
            "ping": list(state.owed_ping) if state.owed_ping is not None else None,
            "out_groups": state.out_groups,
            "t0": session.record_t0,
            **({"lesson": state.lesson.to_json()} if state.lesson is not None else {}),
        },
        separators=(",", ":"),
    )


def decode(text: str) -> Snapshot:
    """Read a stored snapshot. :class:`SnapshotFormatError` for a format this build does not
    read; the engine's errors (or KeyError/ValueError/TypeError) for a damaged one."""
    data: Any = json.loads(text)
    if not isinstance(data, dict):
        raise SnapshotFormatError("a game snapshot is a JSON object")
    fmt = data.get("format", 1)
    if fmt not in READABLE_FORMATS:
        raise SnapshotFormatError(
            f"game snapshot format {fmt!r} is not one this build reads "
            f"({', '.join(map(str, sorted(READABLE_FORMATS)))}); was it written by a newer one?"
        )
    game = Game.from_dict(data["game"])
    raw_events = data.get("events", [])
    ping = data.get("ping")
    if "out_groups" in data:
        groups = [[int(s) for s in g] for g in data["out_groups"]]
    else:  # stored before the sessions kept it: what the kept events still show
        groups = out_groups_from_events(raw_events, game.out)
    return Snapshot(
        seed=int(data["seed"]),
        version=int(data.get("version", 0)),
        deadline=data.get("deadline"),
        game=game,
        events=tuple(PublicEvent.from_json(e) for e in raw_events),
        forfeits={int(k): str(v) for k, v in data.get("forfeits", {}).items()},
        owed_ping=None if ping is None else (int(ping[0]), str(ping[1]), int(ping[2])),
        out_groups=groups,
        record_t0=float(data.get("t0", 0.0)),
        lesson=LessonState.from_json(data.get("lesson")),
    )
