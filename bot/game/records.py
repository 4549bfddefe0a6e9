"""The bot's side of game records (engine/record.py): what the start of a game and each move
write into the record, and reading a stored record back into positions.

The record's lines are written by the same storage statements that store the game's state
(``begin_game``, ``save_state``, ``finish_game``), so a move is in the record exactly when it
is in the state."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from engine import Action, ActionKind, Game, IllegalAction
from engine.record import Move, Record, RecordError

from .core import _ServiceCore
from .errors import ServiceError
from .models import GameSession, PublicEvent, SeatInfo, public_events

__all__ = [
    "Replay",
    "Step",
    "build_replay",
    "record_header",
    "record_line",
    "record_note",
]

log = logging.getLogger(__name__)


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


def record_note(session: GameSession, note: str, seat: int, now: float) -> str:
    """The line a change without an action appends (a seat left or forfeited)."""
    return "\n" + Move(max(0.0, now - session.record_t0), None, note, seat).line()


def record_line(
    session: GameSession, action: Action, before: Iterable[PublicEvent], now: float
) -> str:
    """The text a move appends to the record: a note for a turn that ran out (the move is
    then the seat's default), then the action; each line starts with its newline."""
    at = max(0.0, now - session.record_t0)
    lines = [Move(at, None, "timeout", e.seat).line() for e in before if e.kind == "timeout"]
    lines.append(Move(at, action).line())
    return "".join("\n" + ln for ln in lines)


# --------------------------------------------------------------------------- replays


@dataclass(frozen=True, slots=True)
class Step:
    """One position of a replay: the game after ``action`` (None: the deal) and what the
    channel saw happen (public events only: a draw's cards stay hidden)."""

    index: int
    action: Action | None
    game: Game
    events: tuple[PublicEvent, ...]
    #: Notes just before this move: (note, seat), e.g. ("timeout", 1), ("left", 0).
    notes: tuple[tuple[str, int], ...] = ()
    at: float = 0.0


@dataclass(slots=True)
class Replay:
    """A finished game rebuilt from its record, step by step."""

    game_id: int
    guild_id: int
    preset: str
    seats: list[SeatInfo]
    record: Record
    text: str
    steps: list[Step]
    #: Step indices at which a bout begins (the jump list).
    bouts: list[int]
    #: The server's rank letters (``/durak settings ranks``): True, each reader's own.
    local_ranks: bool = True

    def session_at(self, index: int, locale: str) -> GameSession:
        """A session holding step ``index``'s position, for the table renderers."""
        step = self.steps[index]
        session = GameSession(
            game_id=self.game_id,
            guild_id=self.guild_id,
            channel_id=0,
            message_id=None,
            host_id=0,
            preset=self.preset,
            seats=self.seats,
            game=step.game,
            seed=0,
            version=index + 1,
            locale=locale,
            local_ranks=self.local_ranks,
        )
        session.events.extend(step.events)
        if step.game.result is not None:
            session.status = "finished"
        return session


def build_replay(
    game_id: int, guild_id: int, preset: str, seats: list[SeatInfo], text: str
) -> Replay:
    """Every step of a stored record (raises :class:`RecordError` for a damaged one)."""
    record = Record.from_text(text)
    game = record.initial_game()
    steps = [Step(0, None, game.copy(), ())]
    bouts = [0]
    notes: list[tuple[str, int]] = []
    for move in record.moves:
        if move.action is None:
            notes.append((move.note, move.seat))
            continue
        try:
            events = game.apply(move.action)
        except IllegalAction as exc:
            raise RecordError(f"{move.action}: {exc}") from None
        index = len(steps)
        if move.action.kind in _LEADS:
            bouts.append(index)
        steps.append(
            Step(
                index,
                move.action,
                game.copy(),
                tuple(public_events(events)),
                tuple(notes),
                move.at,
            )
        )
        notes = []
    if notes:  # a game that ended on a forfeit: its last step says so
        last = steps[-1]
        steps[-1] = Step(
            last.index, last.action, last.game, last.events, last.notes + tuple(notes), last.at
        )
    if len(seats) != game.n:
        raise RecordError("the seats do not match the record")
    return Replay(game_id, guild_id, preset, seats, record, text, steps, bouts)


#: Actions that open a bout (the replay's "jump to bout" list starts there).
_LEADS = frozenset({ActionKind.ATTACK, ActionKind.TOP, ActionKind.LEAD_BLIND})


class _ReplayFlow(_ServiceCore):
    """Replays of finished games, read from their stored records."""

    async def load_replay(
        self, guild_id: int, user_id: int, game_id: int | None, *, for_review: bool = False
    ) -> Replay:
        """The replay ``user_id`` asked for, or a polite refusal: no such game here, a game
        still being played, a game without history, a lesson of someone else's, or (when the
        server keeps replays to players) a game they did not play. Default: their last
        finished game here.

        ``for_review``: the record is read for a review, so a player with no finished game
        is told there is nothing to *review* (the refusal names what they asked for)."""
        storage = self.storage
        if game_id is None:
            game_id = await storage.last_finished_game(guild_id, user_id)
            if game_id is None:
                raise ServiceError("review.none_yet" if for_review else "replay.none_yet")
        row = await storage.game_record(game_id)
        if row is None or row.guild_id != guild_id:
            raise ServiceError("replay.unknown_game", game_id=game_id)
        if row.status in ("lobby", "running"):
            raise ServiceError("replay.still_running", game_id=game_id)
        seat_rows = await storage.seats(game_id)
        played = any(s.user_id == user_id for s in seat_rows)
        game_row = await storage.get_game(game_id)
        if not played and game_row is not None and "lesson" in game_row.options:
            raise ServiceError("replay.lesson", game_id=game_id)  # private, like its thread
        if not played and not (await storage.record_settings(guild_id)).replays_public:
            raise ServiceError("replay.players_only", game_id=game_id)
        if row.text is None:
            raise ServiceError("replay.no_history", game_id=game_id)
        preset = game_row.preset if game_row is not None else "podkidnoy"
        seats = [
            SeatInfo(s.seat, s.display_name, s.user_id, s.ai_difficulty, s.left_at is not None)
            for s in seat_rows
        ]
        try:
            replay = build_replay(game_id, guild_id, preset, seats, row.text)
        except RecordError:
            log.warning("game %d: its record does not replay", game_id, exc_info=True)
            raise ServiceError("replay.damaged", game_id=game_id) from None
        replay.local_ranks = (await storage.get_guild_settings(guild_id)).local_ranks
        return replay
