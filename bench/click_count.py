"""Clicks per move on the tap-a-card hand, and clicks per game with and without the
online-style "done" (``auto_done``).

Tap-a-card (default): computer players (``normal``) stand in for people in 2-, 4- and 6-player
podkidnoy, 4-player perevodnoy and 4-/6-player big fool; for every move they make, the
cheapest click path on the hand message (bot/surfaces/hand_controls.py: a tap plays a card's
one-card use, or selects a card with several; a verb completes; the "Play several cards…"
menu is two clicks, open and pick) is counted, a tap on a card in a card menu (hands too big
for buttons) as two, and for every view of every seat with a move the hand's layout is
measured (move components on one message, rows, card selects instead of buttons). It prints
the table and whether the aims of issue 18 are met: every single-card move in one click
(except a card with several one-card uses, which asks which: two), a move of n cards in at
most n + 1, at most 25 components and 5 rows, no card select (or paging) for a hand of up to
20 cards.

    .venv/bin/python bench/click_count.py [--games 40]

The "done" comparison (``--done-styles``):

The issue measured a 4-player Discord game: 103 of 183 move clicks were "done" presses by
players who had nothing to add. Discord games now default to ``auto_done=true`` (house rule
``/durak settings done:pagat`` restores the explicit "done"). This script plays the same deals
both ways with the engine's ``normal`` computer players standing in for people (every action
a seat takes is one click of that player) and prints, per game:

* move clicks (lead, throw in, beat, take, transfer, pile on, exchange),
* pass clicks ("done"/"bito"/"pass"), and among them
* forced passes: the seat could do nothing but pass (no card it could add) — the pointless
  click. The online style must have none.

Deterministic (fixed seeds): the figures change only when the engine or the players do.

    .venv/bin/python bench/click_count.py --done-styles [--games 200] [--players 4]
        [--preset podkidnoy]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord_limits import ACTION_ROWS
from bot.surfaces.hand_controls import (
    Several,
    controls,
    face_key,
    menu_room,
    own_cards,
    reachable,
    tap,
)
from bot.surfaces.hand_views import HandLayout, layout
from engine import Action, ActionKind, Card, Game, Observation, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order


@dataclass
class Clicks:
    games: int = 0
    moves: int = 0
    passes: int = 0
    forced: int = 0

    def line(self, label: str) -> str:
        g = max(self.games, 1)
        total = self.moves + self.passes
        return (
            f"{label:<28} {total / g:6.1f} clicks/game: {self.moves / g:6.1f} moves,"
            f" {self.passes / g:5.1f} passes ({self.forced / g:5.1f} forced),"
            f" {self.passes / max(total, 1):4.0%} of clicks are passes ({self.games} games)"
        )


def play(rules: RuleSet, seed: int, clicks: Clicks, max_steps: int = 5000) -> None:
    """One game by computer players; every applied action is one click."""
    game = Game.new(rules, seed, dealer=seed % rules.players)
    players = [make_player("normal", f"{seed}:{i}") for i in range(rules.players)]
    for _ in range(max_steps):
        if game.result is not None:
            clicks.games += 1
            return
        for seat in ask_order(game):
            legal = game.legal_actions(seat)
            if not legal:
                continue
            action = players[seat].choose(game.observation(seat))
            if action is None:
                continue
            if action.kind is ActionKind.PASS:
                clicks.passes += 1
                if all(a.kind in (ActionKind.PASS, ActionKind.EXCHANGE) for a in legal):
                    clicks.forced += 1
            else:
                clicks.moves += 1
            game.apply(action)
            break
        else:
            raise RuntimeError(f"nobody moved in game {seed}")
    raise RuntimeError(f"game {seed} did not finish")


def measure(preset: str, players: int, games: int, auto_done: bool) -> Clicks:
    rules = RuleSet.preset(preset, players=players, auto_done=auto_done)
    clicks = Clicks()
    for seed in range(games):
        play(rules, 1000 + seed, clicks)
    return clicks


@dataclass
class Taps:
    """Clicks on the tap-a-card hand, by kind of move."""

    games: int = 0
    moves: int = 0
    clicks: int = 0
    #: Moves of one hand card whose card has one one-card use: the worst clicks (aim: 1).
    single: int = 0
    single_worst: int = 0
    #: Moves of one hand card that has several one-card uses (tap, then which: 2).
    several: int = 0
    several_clicks: int = 0
    #: Moves of n >= 2 hand cards: the worst clicks - n (aim: <= 1).
    multi: int = 0
    multi_over: int = -9
    multi_clicks: int = 0
    multi_cards: int = 0
    #: Moves without a hand card (take, done, exchange...): one verb button each.
    verbs: int = 0
    verbs_worst: int = 0
    views: int = 0
    menu_views: int = 0
    starter_views: int = 0
    #: Views with no row left for the menu (over 20 playable cards and verbs).
    full_views: int = 0
    most_components: int = 0
    most_rows: int = 0
    select_views: int = 0
    #: Views of a hand of at most 20 cards that needed card selects (aim: none).
    small_select_views: int = 0
    largest_hand: int = 0
    unreachable: int = 0

    def seen(self, lay: HandLayout) -> None:
        self.most_components = max(self.most_components, lay.move_components)
        self.most_rows = max(self.most_rows, lay.rows)

    def row(self, label: str) -> str:
        per = self.clicks / max(self.moves, 1)
        several = self.several_clicks / max(self.several, 1)
        multi = self.multi_clicks / max(self.multi_cards, 1)
        return (
            f"{label:<22} {per:5.2f} {self.single_worst:>4}"
            f" {self.single / max(self.moves, 1):5.0%}"
            f" {several:5.2f} {self.several / max(self.moves, 1):5.0%}"
            f" {self.multi:>5} {multi:5.2f} {self.multi_over:>+4} {self.verbs_worst:>4}"
            f" {self.menu_views / max(self.views, 1):5.0%} {self.starter_views:>5}"
            f" {self.full_views:>4}"
            f" {self.most_components:>5} {self.most_rows:>4} {self.largest_hand:>4}"
            f" {self.select_views:>5} {self.small_select_views:>6}"
        )


HEADER = (
    f"{'game':<22} {'c/mv':>5} {'1crd':>4} {'share':>5} {'sev.':>5} {'share':>5}"
    f" {'multi':>5} {'c/crd':>5} {'n+':>4} {'verb':>4} {'menu':>5} {'strt':>5} {'full':>4}"
    f" {'comps':>5} {'rows':>4} {'hand':>4} {'selVw':>5} {'≤20sel':>6}"
)
LEGEND = """\
c/mv: clicks per move; 1crd: most clicks for a one-card move of a card with one one-card use
(aim 1; share of moves); sev.: clicks for a one-card move of a card with several one-card
uses (beat A or B, beat or transfer: tap, then which), or with partners in a "full" hand
(share); multi: moves of n>=2 cards, c/crd: their clicks per card, n+: most clicks beyond n
(aim <= +1); verb: most clicks for take/done/...; menu: share of views with the "Play
several cards…" menu; strt: views whose menu offers starters (over 25 moves of several
cards); full: views with over 20 cards and verbs to tap, no row left for the menu (a card
with partners selects); comps: most move components on one hand message (aim <= 25); rows:
most rows (<= 5); hand: largest hand; selVw: views that needed card selects; <=20sel: of
them, hands of at most 20 cards (aim 0)."""


def path_clicks(
    obs: Observation, path: list[Card | Action | Several], taps: Taps | None = None
) -> int:
    """Clicks of ``path`` on the hand as it is drawn at each step (a card in a card menu is
    two clicks); every layout shown on the way is measured into ``taps``."""
    selection: tuple[Card, ...] = ()
    clicks = 0
    for step in path:
        lay = layout(controls(obs, selection))
        if taps is not None:
            taps.seen(lay)
        if isinstance(step, Several):
            clicks += 2
            selection = step.selection
        elif isinstance(step, Card):
            clicks += lay.card_click
            found = tap(obs, selection, step)
            selection = found.selection if found is not None else selection
        else:
            clicks += 1
    return clicks


def measure_taps(preset: str, players: int, games: int) -> Taps:
    rules = RuleSet.preset(preset, players=players)
    out = Taps()
    for seed in range(games):
        game = Game.new(rules, 2000 + seed, dealer=seed % rules.players)
        bots = [make_player("normal", f"{seed}:{i}") for i in range(rules.players)]
        for _ in range(5000):
            if game.result is not None:
                out.games += 1
                break
            for seat in ask_order(game):
                if not game.legal_actions(seat):
                    continue
                obs = game.observation(seat)
                hc = controls(obs)
                lay = layout(hc)
                room = menu_room(obs)
                out.views += 1
                out.full_views += not room
                out.seen(lay)
                out.menu_views += bool(hc.several)
                out.starter_views += any(o.action is None for o in hc.several)
                held = obs.hand_sizes[seat]
                out.largest_hand = max(out.largest_hand, held)
                if lay.selects:
                    out.select_views += 1
                    out.small_select_views += held <= 20
                action = bots[seat].choose(obs)
                if action is None:
                    continue
                path = reachable(obs).get(face_key(action))
                if path is None:
                    out.unreachable += 1
                    path = []
                clicks = path_clicks(obs, path, out)
                out.moves += 1
                out.clicks += clicks
                own = own_cards(action)
                if not own:
                    out.verbs += 1
                    out.verbs_worst = max(out.verbs_worst, clicks)
                elif len(own) == 1:
                    uses = [a for a in obs.legal_actions if own_cards(a) == own]
                    partners = any(
                        own[0] in own_cards(a) for a in obs.legal_actions if len(own_cards(a)) > 1
                    )
                    if len(uses) == 1 and (room or not partners):
                        out.single += 1
                        out.single_worst = max(out.single_worst, clicks)
                    else:
                        out.several += 1
                        out.several_clicks += clicks
                else:
                    out.multi += 1
                    out.multi_clicks += clicks
                    out.multi_cards += len(own)
                    out.multi_over = max(out.multi_over, clicks - len(own))
                game.apply(action)
                break
    return out


def tap_table(games: int) -> int:
    cases = [
        ("podkidnoy, 2 players", "podkidnoy", 2),
        ("podkidnoy, 4 players", "podkidnoy", 4),
        ("podkidnoy, 6 players", "podkidnoy", 6),
        ("perevodnoy, 4 players", "perevodnoy", 4),
        ("big fool, 4 players", "big", 4),
        ("big fool, 6 players", "big", 6),
    ]
    print(f"tap-a-card hand: clicks per move, {games} games each (computer players)")
    print(HEADER)
    met = True
    for label, preset, players in cases:
        taps = measure_taps(preset, players, games)
        print(taps.row(label))
        met = met and (
            taps.unreachable == 0
            and taps.single_worst <= 1
            and taps.multi_over <= 1
            and taps.verbs_worst <= 1
            and taps.most_components <= 25
            and taps.small_select_views == 0
            and taps.most_rows <= ACTION_ROWS
        )
    print(LEGEND)
    print(
        "aims (every move reachable; a single-card move in 1 click, but for a card with"
        " several one-card uses (or partners in a full hand); n cards in <= n + 1 clicks;"
        " every verb in 1 click; <= 25 components, <= 5 rows; no card select for <= 20"
        " cards):"
        f" {'met' if met else 'NOT met'}"
    )
    return 0 if met else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="podkidnoy")
    parser.add_argument("--done-styles", action="store_true", help="compare pagat and online done")
    args = parser.parse_args(argv)
    if not args.done_styles:
        return tap_table(args.games or 40)
    args.games = args.games or 200
    before = measure(args.preset, args.players, args.games, auto_done=False)
    after = measure(args.preset, args.players, args.games, auto_done=True)
    print(f"{args.preset}, {args.players} players, same {args.games} deals both ways:")
    print(before.line("before (pagat 'done'):"))
    print(after.line("after (online style):"))
    verdict = "met" if after.forced == 0 else "NOT met"
    print(f"no forced pass in the online style: {verdict} ({after.forced} forced)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
