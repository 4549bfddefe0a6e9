"""Invisible fool: everybody knows the trump suit, nobody sees the trump card."""

from __future__ import annotations

from typing import ClassVar

from .base import Variant


class Invisible(Variant):
    name = "invisible"
    title = "Invisible fool"
    rule_text = (
        "The Invisible Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that each player knows the suit of the trump card but can’t actually see the card"
        " itself."
    )
    reading = (
        "The card under the talon is announced by its suit only. Whoever draws it sees it like"
        " any drawn card, and nobody else learns that they hold it; with no talon the dealer"
        " keeps the card that fixed trumps without showing it."
    )
    trump_card_hidden = True
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "exchanging for the trump card would show it"),
        "severnyi": (False, "Severnyi shows the cards under the talon"),
    }


INVISIBLE = Invisible()
