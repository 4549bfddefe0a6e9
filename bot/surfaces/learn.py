"""The tips of ``/durak learn`` on the learner's hand.

Which tips show is the service's (:mod:`bot.game.lesson_plan`, stored with the game); this
module only words them. A tip that names a button takes the button's words from the very
locale key the hand's button is drawn from (:data:`TIP_BUTTONS`), so the two cannot drift
apart; tests/records/test_learn.py checks the keys against the hand's labels.
"""

from __future__ import annotations

import discord

from engine import ActionKind, Card
from engine.cards import NO_TRUMP, SUIT_NAMES, bits

from ..discord_limits import EMBED_FIELD_VALUE
from ..game.models import GameSession
from ..i18n import t
from ..rendering.common import card_text, cards_text

__all__ = ["TIP_BUTTONS", "add_learn_tips", "learn_tips"]

#: The locale keys of the buttons each tip names, passed to the tip as ``{button}`` (and
#: ``{button2}``); the kinds of move whose buttons they are (the test checks the pairing).
TIP_BUTTONS: dict[str, tuple[tuple[str, ActionKind], ...]] = {
    "attack": (("hand.button.attack", ActionKind.ATTACK),),
    "exchange": (("hand.button.exchange_trump", ActionKind.EXCHANGE),),
    "transfer": (("hand.button.transfer", ActionKind.TRANSFER),),
    "take": (("hand.button.take", ActionKind.TAKE),),
    "throw": (("hand.button.throw_in", ActionKind.THROW),),
    "bito": (("hand.button.done", ActionKind.PASS),),
    "pile": (("hand.button.pile_on", ActionKind.PILE), ("hand.button.pass", ActionKind.PASS)),
}


def learn_tips(session: GameSession, seat: int, locale: str) -> list[str]:
    """The tips showing on this seat's hand now (a lesson's learner only)."""
    lesson = session.lesson
    if lesson is None or session.finished or seat != session.learner:
        return []
    obs = session.observation(seat)
    ranks = session.local_ranks

    def card(c: Card) -> str:
        return card_text(c, locale, local_ranks=ranks)

    tips = []
    for concept in lesson.showing:
        words: dict[str, object] = {}
        for i, (key, _kind) in enumerate(TIP_BUTTONS.get(concept, ())):
            words["button" if i == 0 else "button2"] = t(key, locale)
        if concept == "trump":
            words["suit"] = (
                "-" if obs.trump == NO_TRUMP else t(f"suit.{SUIT_NAMES[obs.trump]}", locale)
            )
        if concept in ("exchange", "last_card") and obs.trump_card is not None:
            words["card"] = card(obs.trump_card)
        if concept == "exchange":
            swap = next((a for a in obs.legal_actions if a.kind is ActionKind.EXCHANGE), None)
            words["mine"] = card(swap.cards[0]) if swap is not None and swap.cards else "?"
        if concept == "several":
            words["menu"] = t("hand.several.placeholder", locale)
        if concept == "beat":
            words["button"] = t("hand.button.defend_with", locale, attack="…", card="…")
        if concept == "no_transfer":
            attacked = {a.rank for a, _ in obs.table}
            mine = [c for c in obs.hand if c.rank in attacked]
            words["cards"] = cards_text(mine, obs.trump, locale, local_ranks=ranks)
        if concept == "intro_endgame":
            # Public knowledge once the talon is gone: every other card lies face up in
            # the discard pile, so the learner can count these.
            theirs = [
                c for s in range(session.game.n) if s != seat for c in bits(session.game.hands[s])
            ]
            words["cards"] = cards_text(theirs, obs.trump, locale, local_ranks=ranks)
        tips.append(t(f"learn.tip.{concept}", locale, **words))
    return tips


def add_learn_tips(embed: discord.Embed, session: GameSession, seat: int, locale: str) -> None:
    """Put the tips that apply now on the hand's embed (lessons only): as few fields as
    hold them whole, the title on the first."""
    fields: list[str] = []
    for tip in learn_tips(session, seat, locale):
        if fields and len(fields[-1]) + 2 + len(tip) <= EMBED_FIELD_VALUE:
            fields[-1] += "\n\n" + tip
        else:
            fields.append(tip[:EMBED_FIELD_VALUE])
    for i, value in enumerate(fields):
        name = t("learn.title", locale) if i == 0 else "\u200b"
        embed.add_field(name=name, value=value, inline=False)
