"""Issue 31's trump table: how each side spends and keeps trumps while the talon lasts.

``hard`` lost to a public program that took cheap attacks and kept its trumps; the issue
counted, per game and while the talon held more than ``LONG_TALON`` cards, what each side
did with its trumps, and how many trumps each held when the talon ran out (where its
survival turned out to depend on the difference). ``bench/ai_strength.py --trumps`` plays
a match-up move by move through :func:`play_counted` and prints the same table with
:func:`table_text`. The counts read only moves and the hands at the moment the talon ran
out; the players are asked exactly as ``engine.ai.arena`` asks them.

What each row counts (moves made while the talon held more than ``LONG_TALON`` cards):

* trumps played: trump cards that left the hand (lead, throw-in, beat, transfer, pile; a
  shown pass card stays in the hand);
* trump leads: leads with a trump among the cards;
* trump used on a plain card: a plain attack card beaten with a trump;
* takes, and takes where a trump could have beaten: the taker held a trump that beats one
  of the cards it took instead;
* trumps held when the talon runs out: in the hand at the moment the last card is drawn
  (every game, whatever the talon).

The issue's aim compares the two sides' trumps held, and a difference of means can be
luck of the deals, so :func:`held_gap` gives the difference deal by deal (both sides at one
table, over every seating of the deal), for ``--trumps`` to print with a 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from bench.sparring.base import LONG_TALON
from engine import Action, Game, Result
from engine.actions import PI, TK, TR, A, D, T
from engine.ai import Player
from engine.ai.arena import Stalled, ask_order
from engine.cards import bits


@dataclass
class TrumpCounts:
    """Totals over seat-games of one kind (divide by ``games`` for per game)."""

    games: int = 0
    not_fool: int = 0
    played: int = 0
    leads: int = 0
    on_plain: int = 0
    takes: int = 0
    takes_trump_could_beat: int = 0
    held: int = 0
    #: seat-games in which the talon ran out (the denominator of ``held``)
    held_games: int = 0

    def add(self, other: TrumpCounts) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def held_gap(
    games: Sequence[tuple[Sequence[TrumpCounts], Sequence[str]]], a: str, b: str
) -> float | None:
    """One deal's gap in trumps held when the talon ran out, from its seatings' games (counts
    and who sat where): per game, the mean held by ``a``'s seats less ``b``'s, averaged over
    the games where the talon ran out (None if it never did).

    Paired because the deal decides most of how many trumps anyone can hold, and one value
    per deal because its seatings share its cards: only different deals are independent
    draws for an interval."""
    gaps = []
    for counts, seat_kinds in games:
        held = {
            k: [
                c.held for c, sk in zip(counts, seat_kinds, strict=True) if sk == k and c.held_games
            ]
            for k in (a, b)
        }
        if held[a] and held[b]:
            gaps.append(sum(held[a]) / len(held[a]) - sum(held[b]) / len(held[b]))
    return sum(gaps) / len(gaps) if gaps else None


#: The issue's rows: label, field.
ROWS: list[tuple[str, str]] = [
    ("trumps played", "played"),
    ("trump leads", "leads"),
    ("trump used on a plain card", "on_plain"),
    ("takes", "takes"),
    ("takes where a trump could have beaten", "takes_trump_could_beat"),
    ("trumps held when the talon runs out", "held"),
]


def count_move(c: TrumpCounts, g: Game, seat: int, act: Action) -> None:
    """Add ``act`` (about to be made by ``seat`` in ``g``) to the rows it belongs to."""
    if len(g.talon) <= LONG_TALON:
        return
    trump = g.seat_trump(seat)

    def is_trump(card: int) -> bool:
        return card // 13 & 3 == trump

    kind = act.kind
    if kind is D:
        attack, beater = act.cards
        c.played += is_trump(beater)
        c.on_plain += is_trump(beater) and not is_trump(attack)
    elif kind in (A, T, TR, PI):
        n = sum(1 for x in act.cards if is_trump(x))
        c.played += n
        c.leads += kind is A and n > 0
    elif kind is TK:
        c.takes += 1
        hand = g.hands[seat]
        beaters = g.beat_tables[seat]
        if any(is_trump(b) for a, d in g.table if d < 0 for b in bits(hand & beaters[a])):
            c.takes_trump_could_beat += 1


def play_counted(
    game: Game, players: Sequence[Player], max_steps: int = 10000
) -> tuple[Result, list[TrumpCounts]]:
    """Play ``game`` to the end as ``engine.ai.arena.play_game`` does, counting per seat."""
    counts = [TrumpCounts(games=1) for _ in range(game.n)]
    held = False
    for _ in range(max_steps):
        if game.result is not None:
            for s, c in enumerate(counts):
                c.not_fool = s not in game.result.losers
            return game.result, counts
        for seat in ask_order(game):
            if not game.legal_actions(seat):
                continue
            action = players[seat].choose(game.observation(seat))
            if action is None:
                continue
            count_move(counts[seat], game, seat, action)
            game.apply(action)
            break
        else:
            raise Stalled(f"no seat moved in {game!r}")
        if not held and not game.talon:
            held = True
            for s, c in enumerate(counts):
                trump = game.seat_trump(s)
                c.held = sum(1 for x in bits(game.hands[s]) if x // 13 & 3 == trump)
                c.held_games = 1
    raise Stalled(f"the game did not finish in {max_steps} steps")


def table_text(counts: dict[str, TrumpCounts]) -> str:
    """The issue's table, per game, one column per kind, and each kind's survival."""
    kinds = list(counts)
    width = max(len(label) for label, _ in ROWS) + 2
    lines = [
        f"{'per game, talon > ' + str(LONG_TALON) + ' cards':{width}s}"
        + "".join(f"{k:>12s}" for k in kinds)
    ]
    for label, name in ROWS:
        row = f"{label:{width}s}"
        for k in kinds:
            c = counts[k]
            den = c.held_games if name == "held" else c.games
            row += f"{getattr(c, name) / max(den, 1):12.2f}"
        lines.append(row)
    lines.append(
        f"{'seat-games (not fool)':{width}s}"
        + "".join(f"{f'{c.games} ({c.not_fool})':>12s}" for c in counts.values())
    )
    return "\n".join(lines)


__all__ = [
    "ROWS",
    "TrumpCounts",
    "count_move",
    "held_gap",
    "play_counted",
    "table_text",
]
