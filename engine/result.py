"""How a deal ended (stored with a finished game, shown by the bot, counted by self-play)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Result:
    """How a deal ended. ``kind`` is ``fool``, ``team`` or ``draw``."""

    kind: str
    fool: int | None
    losers: tuple[int, ...]
    losing_team: int | None
    finish_order: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "fool": self.fool,
            "losers": list(self.losers),
            "losing_team": self.losing_team,
            "finish_order": list(self.finish_order),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(
            str(d["kind"]),
            d.get("fool"),
            tuple(d.get("losers", ())),
            d.get("losing_team"),
            tuple(d.get("finish_order", ())),
        )
