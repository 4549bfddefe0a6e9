"""Play Durak in a terminal against computer players: ``python -m engine.play`` (or ``durak``).

This is the engine's only I/O layer, so it is plain line-based stdin/stdout (no curses): a
person can play it in any terminal, and tests drive :func:`main` with ``io.StringIO``.

What the person sees is built only from their own :class:`~engine.Observation` and from events
filtered through :meth:`~engine.Event.visible_cards`, so the screen can never show a card of
another hand that was not played or publicly received. Computer players likewise get only their
own observation. Everything random comes from ``--seed`` (or one seed drawn here and printed),
so a deal can be replayed exactly: same seed and same typed moves give the same transcript.
"""

from __future__ import annotations

import argparse
import dataclasses
import secrets
import sys
import typing
from collections.abc import Sequence
from typing import NoReturn, Protocol, TextIO

from .actions import Action, ActionKind, ActionParseError, Event
from .ai import PLAYER_KINDS, Player, make_player
from .ai.arena import ask_order
from .cards import NO_TRUMP, RANK_LABELS, SUIT_CHARS, SUIT_NAMES, SUIT_SYMBOLS, Card, sort_key
from .game import Game, IllegalAction, Result
from .observation import Observation
from .rules import PRESET_DESCRIPTIONS, PRESETS, RuleError, RuleSet

#: How many recent events a prompt shows; older ones are summarised as a count.
MAX_EVENTS = 12

#: Menu order: what a player usually wants first comes first.
_KIND_ORDER = {
    kind: i
    for i, kind in enumerate(
        (
            ActionKind.ATTACK,
            ActionKind.DEFEND,
            ActionKind.TRANSFER,
            ActionKind.SHOW,
            ActionKind.THROW,
            ActionKind.PILE,
            ActionKind.TAKE,
            ActionKind.PASS,
            ActionKind.EXCHANGE,
            ActionKind.TOP,
            ActionKind.SWAP,
        )
    )
}

#: Friendly words people type for a verb of the notation.
_VERB_ALIASES = {"beat": "defend", "done": "pass", "bito": "pass", "in": "throw"}

HELP_TEXT = """\
How to answer:
  a number            play that move from the list, e.g. 1
  a move in notation  e.g. attack 6s 6h | defend 6s/8s | throw 7c | transfer 6d | take | pass
                      (cards are rank 2-9, T or 10, J, Q, K, A plus suit c, d, h, s;
                       'beat' means defend, 'done' or 'bito' means pass)
  h, help             this text
  q, quit             leave the game
Attack with cards of one rank; the defender beats each card with a higher card of the same suit
or with a trump, or takes them all. Whoever is left holding cards at the end is the fool."""


class LineReader(Protocol):
    """Where answers come from: ``sys.stdin``, ``io.StringIO`` or a scripted test person."""

    def readline(self) -> str: ...


class _Leave(Exception):
    """The person quit or input ended: stop politely, exit code 0."""

    def __init__(self, farewell: str) -> None:
        super().__init__(farewell)
        self.farewell = farewell


class _Stop(Exception):
    """Argument parsing finished early (help shown, or a usage error) with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


# ---------------------------------------------------------------------------- settings


@dataclasses.dataclass(frozen=True)
class Settings:
    """Everything chosen on the command line, validated."""

    rules: RuleSet
    seat: int
    ai: str
    seed: int | str
    name: str
    ascii: bool
    seed_given: bool


class _Parser(argparse.ArgumentParser):
    """argparse that writes to our ``stdout`` and never calls ``sys.exit`` itself, so tests (and
    embedding callers) get an exit code back instead of a ``SystemExit``."""

    def __init__(self, out: TextIO, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._out = out

    def print_help(self, file: object = None) -> None:
        self._out.write(self.format_help())

    def print_usage(self, file: object = None) -> None:
        self._out.write(self.format_usage())

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._out.write(message)
        raise _Stop(status)

    def error(self, message: str) -> NoReturn:
        self._out.write(self.format_usage())
        self._out.write(f"durak: {message}\n")
        raise _Stop(2)


def _build_parser(out: TextIO) -> _Parser:
    presets = "; ".join(f"{name}: {PRESET_DESCRIPTIONS.get(name, '')}" for name in PRESETS)
    p = _Parser(
        out,
        prog="durak",
        description="Play Durak in your terminal against computer players.",
        epilog=f"Presets — {presets}",
    )
    p.add_argument("--preset", default="podkidnoy", choices=list(PRESETS), help="rule preset")
    p.add_argument("--players", type=int, help="number of seats, 2-6 (default: the preset's)")
    p.add_argument("--ai", default="normal", choices=list(PLAYER_KINDS), help="computer strength")
    p.add_argument("--seed", help="seed for reproducible deals (default: a random one)")
    p.add_argument("--deck", type=int, choices=(24, 36, 52), help="cards in the pack")
    p.add_argument("--name", default="You", help="your name")
    p.add_argument("--seat", type=int, default=0, help="the seat you play (default 0)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set any rule option, e.g. --option max_attack=none (repeatable)",
    )
    p.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    return p


_FIELDS = {f.name: f for f in dataclasses.fields(RuleSet)}
#: Resolved option types (``rules.py`` postpones annotations, so ``Field.type`` may be text).
_TYPES = typing.get_type_hints(RuleSet)


def _option_value(key: str, text: str) -> object:
    """Turn ``text`` into the type the option takes; ``ValueError`` says what was expected."""
    hint = _TYPES[key]
    kinds = set(typing.get_args(hint)) or {hint}
    nullable = type(None) in kinds
    raw = text.strip()
    low = raw.lower()
    if nullable and low in ("none", "null", "unlimited"):
        return None
    if bool in kinds:
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise ValueError("expected true or false")
    if int in kinds:
        try:
            return int(raw)
        except ValueError:
            more = " or none" if nullable else ""
            raise ValueError(f"expected a whole number{more}") from None
    choices = _FIELDS[key].metadata.get("choices")
    if choices is not None and raw not in choices:
        raise ValueError("expected one of " + ", ".join(map(str, choices)))
    return raw


def parse_settings(argv: Sequence[str], out: TextIO) -> Settings:
    """Validate the command line; raise :class:`_Stop` (code 2) with a polite line on errors."""
    args = _build_parser(out).parse_args(list(argv))

    def fail(message: str) -> NoReturn:
        out.write(f"durak: {message}\n")
        raise _Stop(2)

    changes: dict[str, object] = {}
    if args.players is not None:
        changes["players"] = args.players
    if args.deck is not None:
        changes["deck_size"] = args.deck
    for item in args.option:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            fail(f"--option needs KEY=VALUE, not {item!r}")
        if key not in _FIELDS:
            fail(f"unknown rule option {key!r}; valid options are: {', '.join(_FIELDS)}")
        try:
            changes[key] = _option_value(key, value)
        except ValueError as exc:
            fail(f"bad value {value!r} for option {key}: {exc}")
    try:
        rules = RuleSet.preset(args.preset, **changes)
    except (RuleError, TypeError) as exc:
        fail(f"these rules cannot be played: {exc}")
    if not 0 <= args.seat < rules.players:
        fail(f"--seat must be from 0 to {rules.players - 1} with {rules.players} players")
    seed: int | str
    if args.seed is None:
        seed = secrets.randbelow(1_000_000_000)
    else:
        seed = int(args.seed) if args.seed.strip().lstrip("-").isdigit() else args.seed
    name = args.name.strip() or "You"
    return Settings(rules, args.seat, args.ai, seed, name, args.ascii, args.seed is not None)


# ---------------------------------------------------------------------------- words


class Words:
    """Everything turned into text for one person at one seat."""

    def __init__(self, settings: Settings) -> None:
        self.seat = settings.seat
        self.name = settings.name
        self.ascii = settings.ascii
        self.teams = settings.rules.teams != "none"

    def card(self, c: Card) -> str:
        return RANK_LABELS[c % 13] + (SUIT_CHARS if self.ascii else SUIT_SYMBOLS)[c // 13 & 3]

    def cards(self, cs: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cs)

    def suit(self, s: int) -> str:
        return SUIT_NAMES[s] if self.ascii else f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}"

    def who(self, seat: int) -> str:
        """Subject of a sentence; the person is 'You' so verbs read naturally."""
        return "You" if seat == self.seat else f"Computer {seat}"

    def whom(self, seat: int) -> str:
        return "you" if seat == self.seat else f"Computer {seat}"

    def label(self, seat: int) -> str:
        """A seat in a list: the person's name, partners marked in team games."""
        if seat == self.seat:
            return self.name if self.name == "You" else f"{self.name} (you)"
        partner = self.teams and (seat - self.seat) % 2 == 0
        return f"Computer {seat}" + (" (partner)" if partner else "")

    def verb(self, seat: int, plain: str, third: str | None = None) -> str:
        return f"{self.who(seat)} {plain if seat == self.seat else third or plain + 's'}"

    def event(self, ev: Event) -> str | None:
        """One line of narration, or ``None`` for events the prompt already shows otherwise."""
        seen = ev.visible_cards(self.seat)
        cards = self.cards(seen)
        s, k = ev.seat, ev.kind
        if k == "attack":
            return f"{self.verb(s, 'lead')} {cards} against {self.whom(ev.target)}"
        if k == "throw":
            return f"{self.verb(s, 'throw')} in {cards}"
        if k == "defend":
            return f"{self.verb(s, 'beat')} {self.card(ev.cards[0])} with {self.card(ev.cards[1])}"
        if k == "transfer":
            return f"{self.verb(s, 'transfer')} the attack with {cards} to {self.whom(ev.target)}"
        if k == "show":
            return (
                f"{self.verb(s, 'show')} {cards} and {'pass' if s == self.seat else 'passes'}"
                f" the attack to {self.whom(ev.target)}"
            )
        if k == "take":
            return f"{self.verb(s, 'give')} up and will take the cards"
        if k == "pile":
            return f"{self.verb(s, 'pile')} on {cards}"
        if k == "pass":
            return f"{self.verb(s, 'are', 'is')} done"
        if k == "exchange":
            low, up = ev.cards
            return f"{self.verb(s, 'exchange')} {self.card(low)} for the turned-up {self.card(up)}"
        if k == "beaten":
            return f"Bito: {ev.amount} cards go to the discard pile"
        if k == "picked_up":
            return f"{self.verb(s, 'pick')} up {ev.amount} cards: {cards}"
        if k == "draw":
            if s == self.seat:
                return f"You draw {ev.amount}: {cards}"
            shown = f", including the turned-up {cards}" if seen else ""
            return f"{self.verb(s, 'draw')} {ev.amount} card{'s' if ev.amount != 1 else ''}{shown}"
        if k == "trump_change":
            return f"The last card is {cards}: trumps change to {self.suit(seen[0].suit)}"
        if k == "out":
            return f"{self.verb(s, 'are', 'is')} out of cards (place {ev.amount})"
        if k == "game_over":
            return None
        return ev.describe(self.seat)

    def action(self, a: Action, obs: Observation) -> str:
        """A menu entry."""
        k, cs = a.kind, a.cards
        if k is ActionKind.ATTACK:
            return f"attack {self.cards(cs)}"
        if k is ActionKind.DEFEND:
            return f"beat {self.card(cs[0])} with {self.card(cs[1])}"
        if k is ActionKind.TRANSFER:
            return f"transfer with {self.cards(cs)}"
        if k is ActionKind.SHOW:
            return f"show {self.card(cs[0])} to transfer (you keep it)"
        if k is ActionKind.THROW:
            return f"throw in {self.card(cs[0])}"
        if k is ActionKind.PILE:
            return f"give {self.card(cs[0])} to the taker"
        if k is ActionKind.TAKE:
            return "take"
        if k is ActionKind.PASS:
            return "done (let them take)" if obs.taking else "done (bito)"
        if k is ActionKind.TOP:
            return "lead the top card of the talon (unseen)"
        if k is ActionKind.SWAP:
            return f"swap {self.cards(cs)} for the top two cards of the talon"
        up = "trump" if obs.trump_card is None else self.card(obs.trump_card)
        return f"exchange {self.card(cs[0])} for the turned-up {up}"

    def role(self, obs: Observation, seat: int) -> str:
        if not obs.active[seat]:
            place = obs.out.index(seat) + 1 if seat in obs.out else 0
            return f"out (place {place})" if place else "out"
        parts: list[str] = []
        if seat == obs.defender:
            parts.append("defending" + (", taking" if obs.taking else ""))
        elif seat == obs.attacker:
            parts.append("attacking")
        elif obs.phase == "bout" and seat in obs.eligible_attackers:
            parts.append("may throw in")
        if seat in obs.passed:
            parts.append("done")
        return ", ".join(parts) or "waiting"

    def trump_line(self, obs: Observation) -> str:
        if obs.trump == NO_TRUMP:
            return "No trumps"
        if obs.trump_card is None:
            return f"Trumps: {self.suit(obs.trump)}"
        up = self.card(obs.trump_card)
        if obs.trump_card_in_talon:
            where = f"{up} lies turned up under the talon"
        elif obs.trump_card in obs.hand:
            where = f"{up} is in your hand"
        else:
            holders = [s for s in range(obs.n) if obs.known_masks[s] >> obs.trump_card & 1]
            if obs.out_of_play_seen >> obs.trump_card & 1:
                where = f"{up} left the game with the talon"
            elif holders:
                where = f"{up} is in {self.whom(holders[0])}'s hand"
            else:
                where = f"{up} has been played"
        return f"Trumps: {self.suit(obs.trump)} ({where})"

    def table(self, obs: Observation) -> str:
        gap = ".." if self.ascii else "··"
        pairs = [f"{self.card(a)}/{self.card(d) if d is not None else gap}" for a, d in obs.table]
        return "  ".join(pairs) if pairs else "(empty)"


def _menu_key(a: Action, trump: int) -> tuple[int, list[tuple[int, int, int]]]:
    return _KIND_ORDER.get(a.kind, 99), [sort_key(c, trump) for c in a.cards]


def _distinct(moves: list[Action]) -> list[Action]:
    """One menu line per move as the person sees it: in big fool a card and its twin
    (``c + 52``) print alike and play alike, so moves differing only by a twin are one line."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for a in moves:
        faces = [c % 52 for c in a.cards]
        if a.kind not in (ActionKind.DEFEND, ActionKind.CONCEAL):
            faces.sort()
        key = (a.kind, *faces)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _must_act(legal: Sequence[Action]) -> bool:
    """Whether the game waits for this seat: a lead, an open defence, or a 'done' owed.

    Only then may the person not choose 'wait'; everything else (an exchange, an early
    throw-in) can be left for later without stalling the game."""
    return any(
        a.kind in (ActionKind.ATTACK, ActionKind.DEFEND, ActionKind.TAKE, ActionKind.PASS)
        for a in legal
    )


# ---------------------------------------------------------------------------- session


class Session:
    """One person at the terminal playing deals against computer players."""

    def __init__(self, settings: Settings, inp: LineReader, out: TextIO) -> None:
        self.s = settings
        self.inp = inp
        self.out = out
        self.words = Words(settings)
        n = settings.rules.players
        self.computers: dict[int, Player] = {
            seat: make_player(settings.ai, seed=f"{settings.seed}/seat{seat}")
            for seat in range(n)
            if seat != settings.seat
        }
        self.fools = [0] * n  # per seat, or per team (index 0 or 1) in partnerships
        self.recent: list[str] = []

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise _Leave("End of input — goodbye.")
        return line.strip()

    # -- the game loop -------------------------------------------------------------

    def run(self) -> int:
        rules = self.s.rules
        self.say(
            f"Durak — {self._preset_name()} for {rules.players} players,"
            f" {rules.deck_size} cards; computer players: {self.s.ai}."
        )
        self.say(f"Seed: {self.s.seed} (replay this game with --seed {self.s.seed})")
        self.say("Type h for help, q to quit.")
        game = Game.new(rules, self.s.seed)
        try:
            while True:
                code = self.play_deal(game)
                if code:
                    return code
                again = self.read("Play again? [y/N] ").lower()
                if again not in ("y", "yes"):
                    self.say("Thanks for playing!")
                    return 0
                game = game.next_deal(f"{self.s.seed}/deal{game.deal_no + 1}")
                self.say()
                self.say(f"Deal {game.deal_no}: {self.words.who(game.dealer)} dealt.")
        except _Leave as leave:
            self.say(leave.farewell)
            return 0

    def _preset_name(self) -> str:
        for name, preset in PRESETS.items():
            if preset == self.s.rules:
                return name
        return "custom rules"

    def play_deal(self, game: Game) -> int:
        """Play one deal to its end; a non-zero return is an internal error already reported."""
        me = self.s.seat
        self.recent = []
        waited_at = -1  # version at which the person chose to wait: don't ask again until then
        may_wait = True
        while game.result is None:
            acted = False
            for seat in ask_order(game):
                legal = game.legal_actions(seat)
                if not legal:
                    continue
                if seat == me:
                    if waited_at == game.version:
                        continue
                    others = any(game.legal_actions(s) for s in range(game.n) if s != me)
                    optional = may_wait and not _must_act(legal)
                    action = self.ask(game, legal, can_wait=optional and others)
                    if action is None:
                        waited_at = game.version
                        continue
                else:
                    action = self.computers[seat].choose(game.observation(seat))
                    if action is None:
                        continue
                try:
                    events = game.apply(action)
                except IllegalAction as exc:
                    self.say(
                        f"Internal error: the computer player at seat {seat} chose an illegal"
                        f" move ({action}: {exc}). Please report this with the seed."
                    )
                    return 1
                self.remember(events)
                acted = True
                may_wait = True
                break
            if not acted:
                if waited_at == game.version:
                    # Everyone else waited too: the person's optional move is the only one left.
                    waited_at = -1
                    may_wait = False
                    continue
                self.say("Internal error: no player would move. Please report this with the seed.")
                return 1
        self.finish(game)
        return 0

    def remember(self, events: Sequence[Event]) -> None:
        for ev in events:
            line = self.words.event(ev)
            if line is not None:
                self.recent.append(line)

    # -- the prompt ----------------------------------------------------------------

    def narrate(self) -> bool:
        """Print what happened since the person last looked (the latest events only)."""
        if not self.recent:
            return False
        self.say("What happened:")
        skipped = len(self.recent) - MAX_EVENTS
        if skipped > 0:
            self.say(f"  ... ({skipped} earlier event{'s' if skipped != 1 else ''})")
        for line in self.recent[-MAX_EVENTS:]:
            self.say(f"  {line}")
        self.recent = []
        return True

    def show(self, obs: Observation, menu: Sequence[str]) -> None:
        w = self.words
        self.say()
        self.say("=" * 72)
        if self.narrate():
            self.say("-" * 72)
        self.say(w.trump_line(obs))
        away = obs.out_of_play + obs.out_of_play_seen.bit_count()
        self.say(
            f"Talon: {obs.talon_count} card{'s' if obs.talon_count != 1 else ''}"
            f"   Discard pile: {obs.discard_mask.bit_count()}"
            + (f"   Out of play: {away}" if away else "")
        )
        self.say("Players:")
        for seat in range(obs.n):
            size = obs.hand_sizes[seat]
            closed = obs.closed[seat] if obs.closed else 0
            self.say(
                f"  {w.label(seat)}: {size} card{'s' if size != 1 else ''}"
                + (f" and {closed} closed" if closed else "")
                + f", {w.role(obs, seat)}"
            )
        taking = "   (the defender is taking)" if obs.taking else ""
        self.say(f"Table: {w.table(obs)}{taking}")
        self.say(f"Your hand: {w.cards(obs.hand)}")
        self.say("Your options:")
        for i, text in enumerate(menu, 1):
            self.say(f"  {i}) {text}")

    def ask(self, game: Game, legal: Sequence[Action], can_wait: bool) -> Action | None:
        """Prompt until the person picks a legal move (or ``None`` = wait, when allowed)."""
        me = self.s.seat
        obs = game.observation(me)
        ordered = _distinct(sorted(legal, key=lambda a: _menu_key(a, obs.trump)))
        menu = [self.words.action(a, obs) for a in ordered]
        actions: list[Action | None] = list(ordered)
        if can_wait:
            actions.append(None)
            menu.append("wait (let the others play first)")
        self.show(obs, menu)
        prompt = f"Your move [1-{len(menu)}, h=help, q=quit]: "
        while True:
            text = self.read(prompt)
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise _Leave("You left the game. Goodbye!")
            if low in ("h", "help", "?"):
                self.say(HELP_TEXT)
                for i, entry in enumerate(menu, 1):
                    self.say(f"  {i}) {entry}")
                continue
            if not text:
                self.say("Please type the number of a move (h for help).")
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(menu):
                    return actions[k - 1]
                self.say(f"There is no move {k}: please choose 1 to {len(menu)}.")
                continue
            if low == "wait" and can_wait:
                return None
            chosen = self._parse(game, text, legal)
            if chosen is not None:
                return chosen

    def _parse(self, game: Game, text: str, legal: Sequence[Action]) -> Action | None:
        parts = text.split()
        parts[0] = _VERB_ALIASES.get(parts[0].lower(), parts[0])
        if parts[0].lower() == "throw" and len(parts) > 1 and parts[1].lower() == "in":
            del parts[1]
        try:
            action = Action.parse(" ".join(parts), seat=self.s.seat)
        except ActionParseError as exc:
            self.say(f"Sorry, I did not understand that: {exc}. Type a number or h for help.")
            return None
        if action.seat != self.s.seat:
            self.say(f"You play seat {self.s.seat}; leave out the seat number.")
            return None
        if action in legal:
            return action
        if (
            action.kind is ActionKind.THROW
            and Action(action.seat, ActionKind.PILE, action.cards) in legal
        ):
            return Action(action.seat, ActionKind.PILE, action.cards)
        _, reason = game.explain_illegal(action)
        self.say(f"That move is not possible now: {reason}.")
        return None

    # -- the end of a deal ----------------------------------------------------------

    def finish(self, game: Game) -> None:
        result = game.result
        assert result is not None  # play_deal only returns here once the deal is over
        w = self.words
        self.say()
        self.say("=" * 72)
        self.narrate()
        self.say("Game over.")
        for line in self.result_lines(result, game.n):
            self.say(line)
        if result.kind == "team" and result.losing_team is not None:
            # in partnerships the team loses, whoever holds the last cards
            self.fools[result.losing_team] += 1
            mine = self.s.seat % 2
            self.say(
                f"Team losses so far: your team {self.fools[mine]},"
                f" their team {self.fools[1 - mine]}"
            )
            return
        if result.fool is not None:
            self.fools[result.fool] += 1
        tally = ", ".join(f"{w.label(s)} {self.fools[s]}" for s in range(game.n))
        self.say(f"Times the fool so far: {tally}")

    def result_lines(self, result: Result, n: int) -> list[str]:
        w, me = self.words, self.s.seat
        lines: list[str] = []
        if result.kind == "draw":
            lines.append("It is a draw: the last cards went out together, nobody is the fool.")
        elif result.kind == "team":
            team = " and ".join(w.label(s) for s in result.losers)
            lines.append(f"The team of {team} loses.")
            if result.fool is not None:
                lines.append(f"{w.verb(result.fool, 'are', 'is')} left holding cards: the fool!")
            lines.append(
                "Your team loses." if me in result.losers else "Your team wins — well played!"
            )
        elif result.fool == me:
            lines.append("You are the fool (durak)! Better luck next time.")
        elif result.fool is not None:
            lines.append(f"Computer {result.fool} is the fool (durak).")
        if me in result.finish_order:
            place = result.finish_order.index(me) + 1
            lines.append(f"You finished in place {place} of {n}.")
        elif result.fool == me:
            lines.append(f"You finished in place {n} of {n}.")
        return lines


def _replay(args: list[str], inp: LineReader, out: TextIO) -> int:
    """``--replay FILE``: a game record, one step per Enter (``q`` stops)."""
    from .__main__ import replay
    from .record import RecordError

    if len(args) != 1:
        out.write("usage: python -m engine.play --replay FILE\n")
        return 2
    try:
        replay(args[0], out, inp)  # type: ignore[arg-type]
    except (OSError, RecordError) as exc:
        out.write(f"error: {args[0]}: {exc}\n")
        return 2
    return 0


def main(
    argv: list[str] | None = None, stdin: LineReader | None = None, stdout: TextIO | None = None
) -> int:
    """Run the terminal game; returns the exit code (0 also when the person quits)."""
    out = stdout if stdout is not None else sys.stdout
    inp: LineReader = stdin if stdin is not None else sys.stdin
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--replay"]:  # step through a game record (docs/records.md)
        return _replay(args[1:], inp, out)
    try:
        settings = parse_settings(sys.argv[1:] if argv is None else argv, out)
    except _Stop as stop:
        return stop.code
    try:
        return Session(settings, inp, out).run()
    except KeyboardInterrupt:
        out.write("\nInterrupted — goodbye.\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into `head`): nobody is left to talk to.
        return 0


if __name__ == "__main__":
    sys.exit(main())
