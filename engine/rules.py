"""Rule options and presets.

The rule texts in ``shared/seeds`` disagree in many places. Every disagreement is a named field
of ``RuleSet`` with a documented default and the source it comes from, so a game's rules are
always explicit data (they are stored with the game, shown by ``/durak rules`` and round-trip
through JSON) and never a silent choice buried in code.

Sources are cited by file: ``pagat`` = podkidnoy-durak.txt / perevodnoy-durak.txt,
``overview`` = durak-overview.txt, ``throw-in`` = throw-in-and-transfer-durak.txt,
``catalogue`` = fool-variants-catalogue.txt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from .cards import DECK_SIZES
from .variants import VARIANTS


class RuleError(ValueError):
    """A rule set that cannot be played: unknown option, bad value, or a senseless combination."""


def _opt(default: Any, doc: str, source: str, choices: tuple[Any, ...] | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "source": source, "choices": choices})


THROW_IN_CHOICES: Final = ("all", "neighbours", "attacker", "none")
ALL_OUT_CHOICES: Final = ("draw", "last_defender_loses")
DRAW_ORDER_CHOICES: Final = ("attackers_first", "from_defender")
AFTER_PICKUP_CHOICES: Final = ("next_after_defender", "same_attacker")
CO_ATTACK_CHOICES: Final = ("after_first_beat", "any_time")
TRANSFER_CHOICES: Final = ("off", "before_beat", "kiev")
EXCHANGE_CHOICES: Final = ("off", "lowest", "lowest_for_ace")
EXCHANGE_TIMING_CHOICES: Final = ("until_talon_empty", "until_next_bout")
FIRST_LEAD_CHOICES: Final = ("lowest_trump", "left_of_dealer")
NEXT_LEAD_CHOICES: Final = ("left_of_dealer", "duraka_uchat", "lowest_trump")
TEAMS_CHOICES: Final = ("none", "2v2", "3v3")


@dataclass(frozen=True)
class RuleSet:
    """Every rule a game is played by. Frozen: a running game's rules never change."""

    players: int = _opt(
        2, "Number of seats, 2 to 6.", "pagat: 'any number of people from two to six'"
    )
    deck_size: int = _opt(
        36,
        "Cards in the pack: 24 (9-A), 36 (6-A) or 52 (2-A).",
        "pagat: 36 standard; 24 for two players (Steinkellner); 52 for five or six",
        DECK_SIZES,
    )
    hand_size: int = _opt(6, "Cards dealt, and the size hands are refilled to.", "pagat")
    throw_in: str = _opt(
        "all",
        "Who may throw in: every opponent of the defender; only the attacker and the defender's"
        " other neighbour; only the principal attacker; or nobody (Prostoy: the lead is the"
        " whole attack).",
        "pagat ('other opponents can join'; neighbours-only 'when 5 or 6 play');"
        " overview: basic game has no third-party throw-in; catalogue: Simple fool",
        THROW_IN_CHOICES,
    )
    attacker_priority: bool = _opt(
        True,
        "The principal attacker throws in first; co-attackers (clockwise from the defender's"
        " left) only after everyone before them has said 'done'.",
        "pagat: 'The principal attacker always has priority'; online play lets anyone throw in",
    )
    co_attack: str = _opt(
        "after_first_beat",
        "When the defender's other opponents may throw in while the defence is under way: only"
        " after the defender has beaten a card of the bout; or at any time. (They may always"
        " pile on once the defender takes, as in pagat's example 2.)",
        "pagat: 'after the defender has beaten the attacker's first card other opponents of the"
        " defender can join in the attack'; overview: 'At any point during a defense, the"
        " attacker or any third party can pitch in extra attacking cards'",
        CO_ATTACK_CHOICES,
    )
    auto_done: bool = _opt(
        False,
        "A seat with nothing it could add counts as 'done' at once, so bouts end without"
        " waiting (faster, online style) -- but the pace then tells the table that the seat"
        " held no card of those ranks. Off: every attacker still holding cards says 'done',"
        " and a co-attacker's turn opens only on the explicit word of those before it, so"
        " nobody learns anything about a hand from the flow of play.",
        "pagat: the principal attacker says 'Go ahead' / 'Wait, I am playing'; throw-in:"
        " 'When the attacking player has finished throwing in, they say \"Beaten\"'",
    )
    max_attack: int | None = _opt(
        6,
        "Most attack cards in one bout (None: no limit but the defender's hand). The defender's"
        " hand always limits the attack too: pagat's 'no more attack cards than the defender"
        " held at the start of the bout' and the overview's 'no more unbeaten cards than the"
        " defender holds now' are the same bound, since each beat lowers both sides by one.",
        "pagat condition 2 ('must never exceed six'); overview has no such limit",
    )
    first_bout_max: int | None = _opt(
        None,
        "A lower limit for the first bout of a deal (5 protects the first defender).",
        "pagat variations: 'first defender cannot be attacked with more than five';"
        " throw-in: 'the first attack can be a max of five cards'",
    )
    pile_on: bool = _opt(
        True,
        "After the defender says 'take', attackers may give them further cards they could"
        " legally have attacked with.",
        "pagat: 'can give to the defender (face up) any further cards'",
    )
    draw_order: str = _opt(
        "attackers_first",
        "Refill order after a bout: the first attacker, then clockwise, the defender last;"
        " or clockwise starting from the last defender.",
        "pagat: 'The attacker replenishes first ... finally the defender'; overview: 'starting"
        " from the last defender and going around clockwise'",
        DRAW_ORDER_CHOICES,
    )
    after_pickup: str = _opt(
        "next_after_defender",
        "Who leads after the defender picks up: the player after the defender; or the same"
        " attacker leads against the same defender again.",
        "pagat: 'The next attacker is the player to the left of the unsuccessful defender';"
        " overview: 'the next turn opens with the same attacker'; catalogue Simple fool",
        AFTER_PICKUP_CHOICES,
    )
    transfer: str = _opt(
        "off",
        "Transfers (Perevodnoy): off; before any attack card is beaten; or the Kiev variation"
        " where fresh unbeaten cards of one rank can be transferred after earlier beats.",
        "perevodnoy (pagat); Kiev variation (Gillespie, pagat); catalogue 'Transfer fool 2'",
        TRANSFER_CHOICES,
    )
    pass_card: bool = _opt(
        False,
        "A defender holding the trump of the attack rank may transfer by showing it, and keeps"
        " it. Each trump can be shown once per bout.",
        "perevodnoy: 'Perevodnoy durak s proyezdnym'",
    )
    trump_exchange: str = _opt(
        "lowest",
        "Exchange the lowest trump (6 in 36 cards, 9 in 24, 2 in 52) for the turned-up trump:"
        " off; always; or only when the turned-up trump is the ace.",
        "pagat: exchange rule; 'Some players do not allow ...'; 'Some allow it ... for the ace'",
        EXCHANGE_CHOICES,
    )
    exchange_original_holder_only: bool = _opt(
        True,
        "Only the player who was dealt or drew the lowest trump may exchange it, not one who"
        " picked it up from the table.",
        "pagat: 'can only be exchanged by its original holder'",
    )
    exchange_regained: bool = _opt(
        False,
        "Whether the original holder of the lowest trump may still exchange it after it went"
        " round the table and came back to them in a pick-up. Off: a lowest trump that was"
        " picked up is never exchanged, by anyone.",
        "pagat: 'can only be exchanged by its original holder; if you acquire it from another"
        " player (as one of the cards you pick up when attacked) you cannot exchange it' --"
        " silent on an original holder who picks it back up; the parenthesis is read literally",
    )
    exchange_timing: str = _opt(
        "until_next_bout",
        "How long the exchange stays open: while the turned-up trump is in the talon; or also"
        " after it was drawn, until the next bout begins (then the player who drew it gives"
        " it up).",
        "pagat: 'provided that the bout after the one which exhausted the talon has not yet begun'",
        EXCHANGE_TIMING_CHOICES,
    )
    first_lead: str = _opt(
        "lowest_trump",
        "Who leads the first deal of a session: the holder of the lowest trump; or the player"
        " to the dealer's left.",
        "pagat ('holder of the lowest trump'; 'An older rule ... dealer's left'); overview",
        FIRST_LEAD_CHOICES,
    )
    next_deal_lead: str = _opt(
        "left_of_dealer",
        "Later deals (the fool deals): the player to the dealer's left leads ('from under the"
        " fool'); Duraka uchat, the player to the fool's right attacks the fool; or the lowest"
        " trump again.",
        "pagat: 'Is pod duraka hodiat' / 'Duraka uchat'",
        NEXT_LEAD_CHOICES,
    )
    teams: str = _opt(
        "none",
        "Partnerships: 2v2 (partners opposite) or 3v3 (alternate seats). A player who runs out"
        " has their turn taken by a partner.",
        "pagat: partnership game, endgame examples",
        TEAMS_CHOICES,
    )
    all_out: str = _opt(
        "draw",
        "When the last bout leaves nobody holding cards: a draw; or the defender of that bout,"
        " who played the last card, is the fool (the attackers ran out first).",
        "pagat Podkidnoy: 'If ... no one has any cards left, the game is a draw'; perevodnoy's"
        " 'lead both nines' example: A, out first, 'will win'; overview: 'The first person to"
        " then run out of cards wins'",
        ALL_OUT_CHOICES,
    )
    severnyi: bool = _opt(
        False,
        "Durak Severnyi: a face-down card lies under the turned-up trump; whoever draws it last"
        " shows it and its suit becomes trumps for the rest of the deal.",
        "pagat: Durak Severnyi (Rozaliev)",
    )
    variant: str = _opt(
        "none",
        "A catalogue variant: the one rule by which the game differs from the Simple, Thrown-in"
        " or Transfer fool (the other options choose which of those is the base game).",
        "catalogue: 'differs from the Simple, Thrown on or Transfer Fool only by ...';"
        " docs/variants.md",
        tuple(VARIANTS),
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                raise RuleError(f"{f.name} must be one of {', '.join(map(str, choices))}")
        problems = self.problems()
        if problems:
            raise RuleError("; ".join(problems))

    def problems(self) -> list[str]:
        """Reasons this combination cannot be played (empty when it can)."""
        out: list[str] = []
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            out.append("players must be from 2 to 6")
            return out
        if not isinstance(self.hand_size, int) or self.hand_size < 1:
            out.append("hand_size must be at least 1")
            return out
        if self.players * self.hand_size > self.deck_size * self.packs:
            out.append(
                f"{self.players} hands of {self.hand_size} need {self.players * self.hand_size}"
                f" cards but the pack has {self.deck_size * self.packs}"
            )
        for name in ("max_attack", "first_bout_max"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 1):
                out.append(f"{name} must be a positive number or None")
        if self.teams == "2v2" and self.players != 4:
            out.append("2v2 partnerships need exactly 4 players")
        if self.teams == "3v3" and self.players != 6:
            out.append("3v3 partnerships need exactly 6 players")
        if self.teams != "none" and self.transfer != "off":
            out.append("transfers are played as individuals only (Perevodnoy has no partners)")
        if self.pass_card and self.transfer == "off":
            out.append("the pass card is a way to transfer, so it needs transfers on")
        if self.pile_on and self.throw_in == "none":
            out.append("piling on needs throw-ins; Prostoy has neither")
        if self.severnyi and self.cards - self.players * self.hand_size < 2:
            out.append("Severnyi needs at least two talon cards (the trump and the hidden card)")
        out += VARIANTS[self.variant].problems(self)
        return out

    # -- conveniences -------------------------------------------------------------------

    @property
    def packs(self) -> int:
        """How many packs of ``deck_size`` cards are played: 2 in big fool, else 1."""
        return VARIANTS[self.variant].packs

    @property
    def cards(self) -> int:
        """Every card in play: ``deck_size`` times ``packs``."""
        return self.deck_size * VARIANTS[self.variant].packs

    @property
    def talon_size(self) -> int:
        return self.cards - self.players * self.hand_size

    def to_dict(self) -> dict[str, Any]:
        # Every option is a scalar (bool, int, str or None; a test keeps it so), so a flat
        # dict is exactly what dataclasses.asdict gave, without its recursive deep copy:
        # the rules ride in every saved state, and asdict was ~5% of the bot's event loop.
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    def diff(self, other: RuleSet | None = None) -> dict[str, Any]:
        """Options that differ from ``other`` (default: the plain defaults)."""
        base = other or RuleSet()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(f"unknown rule option(s): {', '.join(unknown)}")
        return cls(**data)

    def replace(self, **changes: Any) -> RuleSet:
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RuleError(f"unknown rule option(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)

    def with_variant(self, name: str, **changes: Any) -> RuleSet:
        """These rules with a catalogue variant, and the option values it cannot do without
        (e.g. no trump exchange in trumpless fool): how a base game and a twist combine."""
        if name not in VARIANTS:
            raise RuleError(f"unknown variant {name!r}; variants are {', '.join(VARIANTS)}")
        needed = {k: v for k, (v, _) in VARIANTS[name].requires.items()}
        return self.replace(variant=name, **{**needed, **changes})

    @classmethod
    def preset(cls, name: str, **changes: Any) -> RuleSet:
        try:
            base = PRESETS[name]
        except KeyError:
            raise RuleError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}") from None
        return base.replace(**changes) if changes else base

    @staticmethod
    def describe_options() -> list[tuple[str, Any, str, str, tuple[Any, ...] | None]]:
        """(name, default, doc, source, choices) for every option, for docs and /durak rules."""
        return [
            (f.name, f.default, f.metadata["doc"], f.metadata["source"], f.metadata["choices"])
            for f in dataclasses.fields(RuleSet)
        ]


#: The option names in declaration order (``RuleSet.to_dict``).
_OPTION_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(RuleSet))

PRESETS: Final[dict[str, RuleSet]] = {
    # Pagat's Podkidnoy, played as individuals: every default above.
    "podkidnoy": RuleSet(),
    "perevodnoy": RuleSet(transfer="before_beat"),
    # The catalogue's "Transfer fool 2" is the same rule as pagat's Kiev variation.
    "perevodnoy-kiev": RuleSet(transfer="kiev"),
    "perevodnoy-pass-card": RuleSet(transfer="before_beat", pass_card=True),
    # Simple fool: the lead (one rank) is the whole attack; the same attacker leads again after a
    # pick-up; the lead may not exceed the defender's hand (catalogue, overview's basic game).
    "prostoy": RuleSet(
        throw_in="none", pile_on=False, after_pickup="same_attacker", trump_exchange="off"
    ),
    "severnyi": RuleSet(severnyi=True),
    "teams-2v2": RuleSet(players=4, teams="2v2"),
    "teams-3v3": RuleSet(players=6, teams="3v3"),
    # What the big online apps play: neighbours throw in freely, a 5-card first bout, no exchange,
    # and a seat with nothing to add is passed over at once.
    "durak-online": RuleSet(
        throw_in="neighbours",
        attacker_priority=False,
        first_bout_max=5,
        trump_exchange="off",
        auto_done=True,
        co_attack="any_time",
    ),
    # Catalogue variants (docs/variants.md), on the Thrown-in base game; ``with_variant``
    # puts the same twist on any other base (e.g. perevodnoy with variant=trumpless).
    "trumpless": RuleSet().with_variant("trumpless"),
    "japanese": RuleSet().with_variant("japanese"),
    "royal": RuleSet().with_variant("royal"),
    "double-trump": RuleSet().with_variant("double-trump"),
    "road": RuleSet().with_variant("road"),
    "trump-fool": RuleSet().with_variant("trump-fool"),
    "invisible": RuleSet().with_variant("invisible"),
    "boring": RuleSet().with_variant("boring"),
    "three": RuleSet().with_variant("three"),
    "heaped": RuleSet().with_variant("heaped"),
    "chukchi": RuleSet().with_variant("chukchi"),
    "empty": RuleSet().with_variant("empty"),
    "albanian": RuleSet().with_variant("albanian"),
    "beaten-off": RuleSet().with_variant("beaten-off"),
    "magadan": RuleSet().with_variant("magadan"),
    "armenian": RuleSet().with_variant("armenian"),
    "poker": RuleSet().with_variant("poker"),
    "big": RuleSet().with_variant("big"),
    # hidden information and scoring (docs/variants.md)
    "round": RuleSet().with_variant("round"),
    "point": RuleSet().with_variant("point"),
    "epaulet": RuleSet().with_variant("epaulet"),
    "take-on-trust": RuleSet().with_variant("take-on-trust"),
    "reverse": RuleSet().with_variant("reverse"),
}

PRESET_DESCRIPTIONS: Final = {
    "podkidnoy": "Throw-in Durak as on pagat: opponents throw in, six cards a bout at most.",
    "perevodnoy": "Transfer Durak: before beating, pass the attack on with a card of its rank.",
    "perevodnoy-kiev": "Transfer fool 2 (catalogue), pagat's Kiev variation: fresh cards can be"
    " transferred after beats too.",
    "perevodnoy-pass-card": "Transfer Durak where showing the trump of the rank transfers.",
    "prostoy": "Simple Durak: no throw-ins, the lead is the whole attack.",
    "severnyi": "Northern Durak: the last talon card changes trumps.",
    "teams-2v2": "Four players, partners sitting opposite.",
    "teams-3v3": "Six players in two teams of three, sitting alternately.",
    "durak-online": "Online style: neighbours throw in, five in the first bout, fast passes.",
    "trumpless": "Trumpless fool: no trumps; a card is beaten only by a higher one of its suit.",
    "japanese": "Japanese fool: diamonds are always trumps; only a higher spade beats a spade.",
    "royal": "Royal fool: the lowest cards are beaten only by an ace of their suit or of trumps.",
    "double-trump": "Double-trump fool: every player has a trump suit of their own (2-4 players).",
    "road": "Road fool: the whole pack is dealt; the dealer keeps the card that shows trumps.",
    "trump-fool": "Trump fool: the last beaten-off card takes the trump's place, a new trump.",
    "invisible": "Invisible fool: the trump suit is announced, the trump card is never shown.",
    "boring": "Boring fool: you may only lead your highest rank.",
    "three": "Three fool: lead three cards at a time while the talon lasts.",
    "heaped": "Heaped fool: the whole pack is dealt at once; the weakest trump leads.",
    "chukchi": "Chukchi fool: six cards each; the talon and its trump leave the game unseen.",
    "empty": "Empty fool: you draw from the talon only when your hand is empty.",
    "albanian": "Albanian fool: the talon lies in descending order, aces on top.",
    "beaten-off": "Beaten-off fool: every second beaten-off bout is shuffled back into the talon.",
    "magadan": "Magadan fool: five dealt cards stay face down, opening one per beaten-off bout.",
    "armenian": "Armenian fool: you may lead the top card of the talon instead of your own.",
    "poker": "Poker fool: holding under six, a defender may swap two cards with the talon.",
    "big": "Big fool: two packs; a card never beats its twin; 52 cards in hand lose at once.",
    "round": "Round fool: after every bout the two players exchange hands (two players).",
    "point": "Point fool: whoever beats off the most of the opponents' cards wins.",
    "epaulet": "Epaulet fool: make opponents take pairs of equal cards; most pairs wins.",
    "take-on-trust": "Take on trust fool: beat face down; the attacker accepts or turns it up.",
    "reverse": "Reverse fool: you see every hand but your own and play blind by card number.",
}
