"""A game's record: the deal and every action in order, with the time each was made.

The format (docs/records.md) is text, one line per action in the engine's action notation
(``docs/positions.md``), so a record is readable, diffable and small: a typical 2-player game
is about a kilobyte of text and a few hundred bytes once zlib-compressed (:func:`pack`).

* Line 1: ``durak-record 1 {json}``, the header: the rule set, the seed, the dealer, the
  deal number and the previous deal's result (what ``Game.new`` needs to deal the same
  cards again), or ``position``, the dealt position itself when the deal did not come from a
  seed. Anything else in the header (player names, the game id) is for people; the engine
  ignores it.
* Each further line: ``<tenths of a second since the start> <seat> <verb> [cards]``, an action
  as :meth:`Action.parse` reads it, or ``<tenths> ! <note> <seat>`` for something that
  changed no card (a turn that ran out, a player who left).

The engine rebuilds every position from this alone (:meth:`Record.positions`); a record
whose next action is not legal where it stands is refused with the line's number.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionParseError
from .errors import IllegalAction, InvalidPosition
from .game import Game
from .result import Result
from .rules import RuleError, RuleSet

__all__ = ["RECORD_MAGIC", "RECORD_VERSION", "Move", "Record", "RecordError", "pack", "unpack"]

RECORD_MAGIC = "durak-record"
RECORD_VERSION = 1
#: Notes a record may carry between actions (they change no card): ``timeout`` (the turn
#: ran out, the next action is the seat's default), ``left`` and ``forfeit`` (the seat left,
#: or timed out too often: a computer plays on for it, or the game ends there).
NOTES = frozenset({"timeout", "left", "forfeit"})
#: ``pack`` output starts with this byte when the text is zlib-compressed, else with ``b"d"``
#: (the text itself, which always starts with "durak-record"): compression pays only past
#: a hundred bytes or so, and a record read back must not need to know which it got.
_ZLIB = b"\x01"


class RecordError(ValueError):
    """A record that cannot be read or replayed (the message says which line and why)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One line of a record after the header: an action, or a note (``action`` None)."""

    at: float  # seconds since the start of the game
    action: Action | None
    note: str = ""
    seat: int = -1

    def line(self) -> str:
        tenths = max(0, round(self.at * 10))
        if self.action is None:
            return f"{tenths} ! {self.note} {self.seat}"
        return f"{tenths} {self.action}"


@dataclass(slots=True)
class Record:
    """A deal and its moves. Build with :meth:`start`, add lines with :meth:`add`."""

    header: dict[str, Any]
    moves: list[Move] = field(default_factory=list)

    # ----------------------------------------------------------------- building

    @classmethod
    def start(
        cls,
        game: Game,
        seed: int | str | None = None,
        *,
        previous: Result | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Record:
        """The record of ``game`` as just dealt. With ``seed`` (and the ``previous`` deal's
        result for a later deal of a session) the header holds the seed when ``Game.new``
        deals exactly this position again; otherwise the position itself."""
        header: dict[str, Any] = {"rules": game.rules.to_dict()}
        rebuilt = None
        if seed is not None:
            try:
                rebuilt = Game.new(
                    game.rules, seed, dealer=game.dealer, deal_no=game.deal_no, previous=previous
                )
            except InvalidPosition:
                rebuilt = None
        if rebuilt is not None and rebuilt.to_dict() == game.to_dict():
            header["seed"] = seed
            header["dealer"] = game.dealer
            header["deal_no"] = game.deal_no
            if previous is not None:
                header["previous"] = previous.to_dict()
        else:
            header["position"] = game.to_dict()
        if extra:
            header.update(extra)
        return cls(header)

    def add(self, at: float, action: Action) -> Move:
        move = Move(at, action)
        self.moves.append(move)
        return move

    def note(self, at: float, note: str, seat: int) -> Move:
        if note not in NOTES:
            raise ValueError(f"unknown note {note!r}")
        move = Move(at, None, note, seat)
        self.moves.append(move)
        return move

    # ----------------------------------------------------------------- text

    def header_line(self) -> str:
        return f"{RECORD_MAGIC} {RECORD_VERSION} " + json.dumps(
            self.header, separators=(",", ":"), sort_keys=True, ensure_ascii=False
        )

    def to_text(self) -> str:
        return "\n".join([self.header_line(), *(m.line() for m in self.moves)]) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        lines = [ln.strip() for ln in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise RecordError("an empty record")
        first = lines[0].split(" ", 2)
        if len(first) < 3 or first[0] != RECORD_MAGIC:
            raise RecordError(f"line 1: not a {RECORD_MAGIC} file")
        if not first[1].isdigit() or int(first[1]) > RECORD_VERSION:
            raise RecordError(f"line 1: record version {first[1]} is newer than this engine")
        try:
            header = json.loads(first[2])
        except ValueError as exc:
            raise RecordError(f"line 1: the header is not JSON ({exc})") from None
        if not isinstance(header, dict) or "rules" not in header:
            raise RecordError("line 1: the header has no rules")
        rec = cls(header)
        for no, line in enumerate(lines[1:], start=2):
            if not line or line.startswith("#"):
                continue
            stamp, _, rest = line.partition(" ")
            if not stamp.isdigit():
                raise RecordError(f"line {no}: starts with {stamp!r}, not a time in tenths")
            at = int(stamp) / 10
            if rest.startswith("!"):
                parts = rest[1:].split()
                if len(parts) != 2 or parts[0] not in NOTES or not parts[1].isdigit():
                    raise RecordError(f"line {no}: unknown note {rest!r}")
                rec.moves.append(Move(at, None, parts[0], int(parts[1])))
                continue
            try:
                rec.moves.append(Move(at, Action.parse(rest)))
            except ActionParseError as exc:
                raise RecordError(f"line {no}: {exc}") from None
        return rec

    # ----------------------------------------------------------------- replaying

    @property
    def rules(self) -> RuleSet:
        try:
            return RuleSet.from_dict(dict(self.header["rules"]))
        except (RuleError, TypeError, ValueError) as exc:
            raise RecordError(f"line 1: bad rules ({exc})") from None

    def initial_game(self) -> Game:
        """The position as dealt."""
        h = self.header
        try:
            if "position" in h:
                return Game.from_dict(dict(h["position"]))
            seed = h["seed"]
            if not isinstance(seed, (int, str)):
                raise RecordError("line 1: the seed is neither a number nor text")
            prev = h.get("previous")
            previous = Result.from_dict(prev) if isinstance(prev, dict) else None
            return Game.new(
                self.rules,
                seed,
                dealer=int(h.get("dealer", 0)),
                deal_no=int(h.get("deal_no", 1)),
                previous=previous,
            )
        except KeyError:
            raise RecordError("line 1: the header has neither a seed nor a position") from None
        except (InvalidPosition, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"line 1: {exc}") from None

    def positions(self) -> Iterator[tuple[int, Move | None, Game]]:
        """``(index, move, game after it)`` for the deal (``-1, None``) and then each line.

        Each yielded game is a fresh copy, so a caller may keep them. Raises
        :class:`RecordError` at the first action that is not legal where it stands."""
        game = self.initial_game()
        yield -1, None, game.copy()
        for i, move in enumerate(self.moves):
            if move.action is not None:
                try:
                    game.apply(move.action)
                except IllegalAction as exc:
                    raise RecordError(f"line {i + 2}: {move.action}: {exc}") from None
            yield i, move, game.copy()

    def final_game(self) -> Game:
        game = self.initial_game()
        for i, move in enumerate(self.moves):
            if move.action is not None:
                try:
                    game.apply(move.action)
                except IllegalAction as exc:
                    raise RecordError(f"line {i + 2}: {move.action}: {exc}") from None
        return game


def pack(text: str) -> bytes:
    """The bytes a record is stored as: zlib-compressed when that is smaller."""
    raw = text.encode("utf-8")
    packed = _ZLIB + zlib.compress(raw, 9)
    return packed if len(packed) < len(raw) else raw


def unpack(data: bytes) -> str:
    """The text of :func:`pack` output."""
    if data[:1] == _ZLIB:
        try:
            return zlib.decompress(data[1:]).decode("utf-8")
        except zlib.error as exc:
            raise RecordError(f"a damaged compressed record ({exc})") from None
    return bytes(data).decode("utf-8")
