"""A game as JSON and back (docs/positions.md): the saved-game and hand-written position format.

Kept apart from ``game.py``: loading validates a position thoroughly (every card once, defences
that beat, roles that make sense), none of which is on a hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, RANK_MASK, Card, CardError, bits, mask_of, parse_suit, suit_char
from .errors import InvalidPosition
from .result import Result
from .rules import RuleError, RuleSet
from .variants.base import CLOSED, OUT_OF_PLAY, parse_list

if TYPE_CHECKING:
    from .game import Game

SCHEMA = "durak-state"
SCHEMA_VERSION = 1


def _aside_parts(vstate: dict[str, Any], n: int) -> list[int]:
    """The masks of the cards a variant set aside, one part per place, each checked once."""
    parts: list[int] = []
    out = vstate.get(OUT_OF_PLAY, [])
    closed = vstate.get(CLOSED, [])
    if not isinstance(out, list) or not isinstance(closed, list) or len(closed) > n:
        raise InvalidPosition("variant_state: out_of_play is a list of cards, closed one per seat")
    for cards in (out, *closed):
        m = 0
        for c in parse_list(cards):
            if m >> c & 1:
                raise InvalidPosition(f"{CARDS[c]} appears twice")
            m |= 1 << c
        parts.append(m)
    return parts


def to_dict(g: Game) -> dict[str, Any]:
    """The full true state (contains every hand: never send it to a seat)."""

    def cl(m: int) -> list[str]:
        return [str(c) for c in bits(m)]

    out: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "rules": g.rules.to_dict(),
        "deal_no": g.deal_no,
        "dealer": g.dealer,
        "version": g.version,
        "hands": [cl(h) for h in g.hands],
        "talon": [str(CARDS[c]) for c in g.talon],
        "trump": suit_char(g.trump),
        "trump_card": str(CARDS[g.trump_card]) if g.trump_card >= 0 else None,
        "trump_index": g.trump_index,
        "trump_holder": g.trump_holder,
        "discard": cl(g.discard),
        "table": [[str(CARDS[a]), str(CARDS[d]) if d >= 0 else None] for a, d in g.table],
        "attacker": g.attacker,
        "defender": g.defender,
        "first_attacker": g.first_attacker,
        "bout_no": g.bout_no,
        "taking": g.taking,
        "passed": [s for s in range(g.n) if g.passed >> s & 1],
        "def_start": g.def_start,
        "beaten_before": g.beaten_before,
        "shown": cl(g.shown),
        "out": list(g.out),
        "lowest_origin": g.lowest_origin,
        "exchange_grace": g.exchange_grace,
        "known": [cl(k) for k in g.known],
        "result": g.result.to_dict() if g.result else None,
    }
    if g.vstate:  # only variants keep state: pagat positions stay as they always were
        out["variant_state"] = dict(g.vstate)
    return out


def from_dict(cls: type[Game], data: dict[str, Any], *, settle: bool = True) -> Game:
    """Rebuild a state from :meth:`to_dict` output, or from a hand-written position.

    Only ``rules`` (or ``preset``), ``hands`` and ``trump_card`` (or ``trump``) are required;
    every other field has the default of a bout about to begin. Cards that appear nowhere go
    to the discard. Anything inconsistent raises :class:`InvalidPosition`.
    """
    if not isinstance(data, dict):
        raise InvalidPosition("a position must be a JSON object")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise InvalidPosition(f"not a {SCHEMA} document")
    if int(data.get("schema_version", SCHEMA_VERSION)) > SCHEMA_VERSION:
        raise InvalidPosition("this state was written by a newer engine")
    try:
        return _from_dict(cls, data, settle)
    except (KeyError, TypeError, CardError, RuleError, IndexError) as exc:
        raise InvalidPosition(f"{type(exc).__name__}: {exc}") from None
    except ValueError as exc:
        if isinstance(exc, InvalidPosition):
            raise
        raise InvalidPosition(str(exc)) from None


def _from_dict(cls: type[Game], data: dict[str, Any], settle: bool) -> Game:
    rules_data = data.get("rules")
    if rules_data is None:
        preset = data.get("preset", "podkidnoy")
        overrides = dict(data.get("options", {}))
        if "hands" in data:
            overrides.setdefault("players", len(data["hands"]))
        rules = RuleSet.preset(preset, **overrides)
    else:
        rules = RuleSet.from_dict(dict(rules_data))
    g = cls._blank(rules)
    n = g.n
    deck = g._deck
    seen = 0

    def card(text: Any) -> int:
        nonlocal seen
        c = int(Card.parse(str(text)))
        if not deck >> c & 1:
            raise InvalidPosition(f"{text} is not in a {rules.cards}-card pack")
        if seen >> c & 1:
            raise InvalidPosition(f"{text} appears twice")
        seen |= 1 << c
        return c

    hands = data["hands"]
    if len(hands) != n:
        raise InvalidPosition(f"{len(hands)} hands for {n} players")
    g.hands = [mask_of(card(c) for c in h) for h in hands]
    g.talon = [card(c) for c in data.get("talon", [])]
    table = []
    for pair in data.get("table", []):
        if not isinstance(pair, (list, tuple)) or not 1 <= len(pair) <= 2:
            raise InvalidPosition("each table entry is [attack] or [attack, defence|null]")
        a = card(pair[0])
        d = card(pair[1]) if len(pair) > 1 and pair[1] is not None else -1
        table.append([a, d])
    g.table = table
    if "discard" in data:
        g.discard = mask_of(card(c) for c in data["discard"])
    g.dealer = int(data.get("dealer", 0))
    if not 0 <= g.dealer < n:
        raise InvalidPosition(f"dealer must be a seat from 0 to {n - 1}")
    if data.get("trump_card") is not None:
        tc = int(Card.parse(str(data["trump_card"])))
        if not deck >> tc & 1:
            raise InvalidPosition(f"trump card {data['trump_card']} is not in the pack")
    else:
        tc = -1
    if "trump" in data:
        trump = parse_suit(str(data["trump"]))
    elif tc >= 0:
        trump = tc // 13 & 3  # a twin (big fool) has its first-pack card's suit
    else:
        raise InvalidPosition("give trump_card or trump")
    g._set_trump(trump)
    vstate = data.get("variant_state", {})
    if not isinstance(vstate, dict):
        raise InvalidPosition("variant_state must be an object")
    g.vstate = dict(vstate)
    if vstate:  # cards a variant set aside are in the position too
        for m in _aside_parts(vstate, n):
            for c in bits(m):
                card(str(c))
    if "discard" not in data:
        g.discard = deck & ~seen
        seen = deck
    if seen != deck:
        missing = " ".join(str(c) for c in bits(deck & ~seen))
        raise InvalidPosition(f"cards missing from the position: {missing}")
    if "trump_index" in data:
        g.trump_index = int(data["trump_index"])
    else:
        g.trump_index = 0 if g.talon and g.talon[0] == tc else -1
    if g.trump_index >= len(g.talon) or g.trump_index < -1:
        raise InvalidPosition("trump_index is outside the talon")
    if g.trump_index >= 0 and tc >= 0 and g.talon[g.trump_index] != tc:
        raise InvalidPosition("trump_card is not at trump_index in the talon")
    if tc < 0 and rules.variant == "none":
        tc = g._lowest_trump_card()  # a hand-written pagat position need not name the card
    g.trump_card = tc
    if rules.severnyi and g.trump_index < 0 and g.talon and "trump_index" not in data:
        raise InvalidPosition("a Severnyi talon needs trump_index")
    g.trump_holder = int(data.get("trump_holder", -1))
    g.deal_no = int(data.get("deal_no", 1))
    g.version = int(data.get("version", 0))
    g.out = [int(s) for s in data.get("out", [])]
    for s in g.out:
        if not 0 <= s < n or g.hands[s]:
            raise InvalidPosition(f"seat {s} is listed as out but is not an empty seat")
        g._active &= ~(1 << s)
    if len(set(g.out)) != len(g.out):
        raise InvalidPosition("a seat is out twice")
    if not g.talon and "out" not in data and not table:
        for s in range(n):
            if not g.hands[s] and s not in g.out and data.get("result") is None:
                g._active &= ~(1 << s)
                g.out.append(s)
    g.attacker = int(data.get("attacker", 0))
    g.defender = int(data.get("defender", g._next_active(g.attacker)))
    for name, s in (("attacker", g.attacker), ("defender", g.defender)):
        if not 0 <= s < n:
            raise InvalidPosition(f"{name} must be a seat from 0 to {n - 1}")
    g.first_attacker = int(data.get("first_attacker", g.attacker))
    g.bout_no = int(data.get("bout_no", 2))
    g.taking = bool(data.get("taking", False))
    g.passed = mask_of(int(s) for s in data.get("passed", []))
    g.beaten_before = int(data.get("beaten_before", 0))
    on_table = len(table)
    g.def_start = int(
        data.get("def_start", g.hands[g.defender].bit_count() + sum(1 for p in table if p[1] >= 0))
    )
    g.shown = mask_of(int(Card.parse(c)) for c in data.get("shown", []))
    g.lowest_origin = int(data.get("lowest_origin", -1))
    if "lowest_origin" not in data:
        low = g._lowest_trump_card()
        for s in range(n):
            if g.hands[s] >> low & 1:
                g.lowest_origin = s
    g.exchange_grace = bool(data.get("exchange_grace", False))
    if "known" in data:
        g.known = [mask_of(int(Card.parse(c)) for c in k) for k in data["known"]]
        for s in range(n):
            if g.known[s] & ~g.hands[s]:
                raise InvalidPosition(f"seat {s} is known to hold cards it does not hold")
    # a defence lying face down (take on trust) is unchecked and opens no throw-in rank
    down = g._variant.face_down(g) if g._v_edits else 0
    for a, d in table:
        g.table_ranks |= RANK_MASK[a % 13 + 2]
        if d >= 0 and not down >> d & 1:
            g.table_ranks |= RANK_MASK[d % 13 + 2]
            if not any(t[a] >> d & 1 for t in g._beat_tab):
                raise InvalidPosition(f"{CARDS[d]} does not beat {CARDS[a]}")
    g._refresh_bout()
    if g._v_edits:
        g._variant.after_load(g)
    if data.get("result"):
        g.result = Result.from_dict(data["result"])
    else:
        if g.attacker == g.defender:
            raise InvalidPosition("attacker and defender must differ")
        if not g.is_opponent(g.attacker, g.defender):
            raise InvalidPosition("the attacker may not attack a partner")
        if on_table == 0 and not g.hands[g.attacker]:
            raise InvalidPosition("the attacker has no cards to lead")
        if bin(g._active).count("1") < 2:
            raise InvalidPosition("fewer than two players hold cards: the game is over")
        # A bout that is already complete settles now, as it would have in play (cards to
        # the discard or the taker, refill, next roles), so no position loads with nobody
        # able to act.
        if settle:
            g.settle_complete_bout()
        if settle and g.result is None and not g.all_legal_actions():
            raise InvalidPosition("nobody can act in this position")
    return g
