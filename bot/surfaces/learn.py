"""``/durak learn``: a guided first game against the computer.

The learner plays Perevodnoy (it has every rule a newcomer meets: trumps, beating, taking,
throwing in and transferring) against an easy computer. Each rule is explained on the
learner's own hand at the moment it first matters, in one or two sentences: the trump at the
first look at the hand, beating when they first have to defend, taking when they first could,
throwing in and transferring likewise. A tip stays on the hand for that whole turn, then
makes room for the cards.

Which games are guided is kept in memory: after a restart the game goes on without tips.
"""

from __future__ import annotations

import discord

from engine import ActionKind
from engine.cards import NO_TRUMP, SUIT_NAMES

from ..discord_limits import EMBED_FIELD_VALUE
from ..game.models import GameSession
from ..i18n import t

__all__ = ["LEARN_GAMES", "LEARN_PRESET", "add_learn_tips", "learn_tips"]

LEARN_PRESET = "perevodnoy"
#: Guided games -> concept -> the game version at which its tip was first shown.
LEARN_GAMES: dict[int, dict[str, int]] = {}

#: The concepts in the order a tip lists them, and the move that makes each one matter.
_CONCEPTS: tuple[tuple[str, ActionKind | None], ...] = (
    ("trump", None),
    ("attack", ActionKind.ATTACK),
    ("beat", ActionKind.DEFEND),
    ("take", ActionKind.TAKE),
    ("throw", ActionKind.THROW),
    ("transfer", ActionKind.TRANSFER),
    ("pass", ActionKind.PASS),
)


def learn_tips(session: GameSession, seat: int, locale: str) -> list[str]:
    """The tips for this seat's hand now: concepts that matter now for the first time (or
    whose first turn this still is)."""
    shown = LEARN_GAMES.get(session.game_id)
    if shown is None or session.finished:
        return []
    obs = session.observation(seat)
    kinds = {a.kind for a in obs.legal_actions}
    tips = []
    for concept, kind in _CONCEPTS:
        if kind is not None and kind not in kinds:
            continue
        first = shown.setdefault(concept, session.version)
        if first != session.version:
            continue
        if concept == "trump":
            suit = "-" if obs.trump == NO_TRUMP else t(f"suit.{SUIT_NAMES[obs.trump]}", locale)
            tips.append(t("learn.trump", locale, suit=suit))
        else:
            tips.append(t(f"learn.{concept}", locale))
    return tips


def add_learn_tips(embed: discord.Embed, session: GameSession, seat: int, locale: str) -> None:
    """Put the tips that apply now on the hand's embed (guided games only)."""
    tips = learn_tips(session, seat, locale)
    if tips:
        embed.add_field(
            name=t("learn.title", locale), value="\n".join(tips)[:EMBED_FIELD_VALUE], inline=False
        )
