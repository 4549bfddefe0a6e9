"""The terminal game, driven through ``main`` like a person at a keyboard."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.play as play_module
from engine import Card, Game, RuleSet
from engine.cards import bits
from engine.play import parse_settings

from .scripted import Strategy, current_menu, first_option, play, random_option

ROOT = Path(__file__).resolve().parents[2]
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
PROMPT = "Your move ["


def _pretty(cards: list[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def _seed_where(predicate: Any, rules: RuleSet) -> int:
    """The first seed whose deal satisfies ``predicate`` (found, not hard-coded)."""
    for seed in range(200):
        if predicate(Game.new(rules, seed)):
            return seed
    raise AssertionError("no such seed in range")


# ---------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("argv", "seat"),
    [
        (["--preset", "podkidnoy"], 0),
        (["--preset", "perevodnoy", "--players", "3"], 2),
        (["--preset", "teams-2v2", "--seat", "1"], 1),
        (["--preset", "prostoy", "--deck", "24"], 0),
        (["--preset", "severnyi", "--players", "4", "--deck", "52"], 0),
    ],
)
def test_a_whole_game_played_by_picking_the_first_option(argv: list[str], seat: int) -> None:
    full = [*argv, "--seed", "11", "--ai", "easy"]
    if seat:
        full += ["--seat", str(seat)]
    code, text, person = play(full, first_option)
    assert code == 0
    assert "Traceback" not in text
    assert text.count("Game over.") == 1
    assert text.rstrip().endswith("Thanks for playing!")
    assert len(person.answers) >= 5
    # the first hand shown is exactly what the engine deals for this seed and seat
    settings = parse_settings(full, io.StringIO())
    dealt = Game.new(settings.rules, 11).hand(seat)
    assert f"Your hand: {_pretty(dealt)}\n" in text
    # a verdict, and the tally counts exactly one loser (or none on a draw)
    tally = re.search(r"(?:Times the fool|Team losses) so far: (.*)", text)
    assert tally is not None
    counts = [int(x) for x in re.findall(r" (\d+)(?:,|$)", tally.group(1))]
    teams = settings.rules.teams != "none"
    assert len(counts) == (2 if teams else settings.rules.players)
    verdict = text.split("Game over.")[1]
    if "draw" in verdict:
        assert sum(counts) == 0
    else:
        assert sum(counts) == 1
        assert ("Your team" in verdict) == teams


def test_each_prompt_shows_the_state_and_a_numbered_menu() -> None:
    rules = RuleSet.preset("podkidnoy")
    seed = _seed_where(lambda g: g.attacker == 0, rules)
    code, text, _ = play(["--seed", str(seed), "--ai", "random"], first_option, before=["q"])
    assert code == 0
    g = Game.new(rules, seed)
    screen = text[text.index("=" * 72) : text.index(PROMPT)]
    up = Card(g.trump_card).pretty()
    assert f"Trumps: {up[-1]} " in screen and f"{up} lies turned up under the talon" in screen
    assert "Talon: 24 cards   Discard pile: 0" in screen
    assert "  You: 6 cards, attacking" in screen
    assert "  Computer 1: 6 cards, defending" in screen
    assert "Table: (empty)" in screen
    hand = g.hand(0)
    assert f"Your hand: {_pretty(hand)}" in screen
    trumps_last = [c.suit == g.trump for c in hand]
    assert trumps_last == sorted(trumps_last)
    menu = current_menu(screen)
    assert [n for n, _ in menu] == [str(i) for i in range(1, len(menu) + 1)]
    wanted = {"attack " + " ".join(c.pretty() for c in a.cards) for a in g.legal_actions(0)}
    assert {t for _, t in menu} == wanted


def test_later_prompts_narrate_events_and_show_table_pairs() -> None:
    code, text, _ = play(["--seed", "4", "--ai", "easy", "--players", "3"], random_option(4))
    assert code == 0
    assert "What happened:" in text
    assert re.search(r"(You|Computer \d) (lead|leads) .+ against (you|Computer \d)", text)
    assert re.search(r"Table: \S+/\S+", text)  # pairs: attack/defence or attack/··
    assert re.search(r"You draw \d+: ", text) or "Talon: 0" in text


def test_play_again_deals_the_next_deal_with_the_fool_dealing() -> None:
    code, text, _ = play(["--seed", "8", "--ai", "random"], first_option, again=["y"])
    assert code == 0
    first, second = text.split("Deal 2:", 1)
    assert first.count("Game over.") == 1 and second.count("Game over.") == 1
    verdict = first.split("Game over.")[1]
    dealer_line = second.splitlines()[0]
    if "You are the fool" in verdict:
        assert dealer_line == " You dealt."
    elif (m := re.search(r"Computer (\d) is the fool", verdict)) is not None:
        assert dealer_line == f" Computer {m.group(1)} dealt."
    else:
        assert "draw" in verdict
    assert text.count("Play again? [y/N]") == 2
    assert "Times the fool so far" in second


# ---------------------------------------------------------------------------- input handling


def test_bad_input_gets_one_polite_line_and_the_same_prompt_again() -> None:
    rules = RuleSet.preset("podkidnoy")
    seed = _seed_where(lambda g: g.attacker == 0, rules)
    g = Game.new(rules, seed)
    not_mine = next(iter(bits(g.hands[1])))
    mine = g.hand(0)[0]
    bad = [
        "abc",
        "0",
        "99",
        "",
        f"defend {not_mine}/{mine}",
        f"attack {not_mine}",
        f"1 attack {mine}",
        "throw",
    ]
    code, text, _ = play(["--seed", str(seed), "--ai", "easy"], first_option, before=[*bad, "q"])
    assert code == 0
    assert "Traceback" not in text
    assert text.count("Your options:") == 1  # never left the first prompt
    assert text.count(PROMPT) == len(bad) + 1
    replies = text.split(PROMPT)[1:-1]
    assert all(r.count("\n") == 1 for r in replies), replies  # one line each
    assert "Sorry, I did not understand that: 'abc'" in replies[0]
    assert "There is no move 0" in replies[1]
    assert "There is no move 99" in replies[2]
    assert "Please type the number of a move" in replies[3]
    assert "That move is not possible now: you lead this bout" in replies[4]
    assert f"That move is not possible now: you do not hold {not_mine}." in replies[5]
    assert "leave out the seat number" in replies[6]
    assert "throw takes 1 card(s)" in replies[7]
    assert text.rstrip().endswith("You left the game. Goodbye!")


def test_help_reprints_the_menu_and_the_game_goes_on() -> None:
    code, text, _ = play(["--seed", "2", "--ai", "easy"], first_option, before=["h"])
    assert code == 0
    assert "How to answer:" in text
    after_help = text.split("How to answer:")[1].split(PROMPT)[0]
    assert "  1) " in after_help
    assert "Game over." in text


def test_a_move_typed_in_notation_is_played() -> None:
    rules = RuleSet.preset("podkidnoy")
    seed = _seed_where(lambda g: g.attacker == 0, rules)
    g = Game.new(rules, seed)
    move = g.legal_actions(0)[-1]
    code, text, _ = play(
        ["--seed", str(seed), "--ai", "easy"], first_option, before=[move.notation, "q"]
    )
    assert code == 0
    cards = " ".join(c.pretty() for c in move.cards)
    assert f"You lead {cards} against Computer 1" in text


def test_friendly_verbs_beat_and_done_are_understood() -> None:
    rules = RuleSet.preset("podkidnoy")
    seed = _seed_where(lambda g: g.attacker == 1, rules)
    answers: list[str] = []

    def by_words(menu: list[tuple[str, str]]) -> str:
        # answer 'beat X with Y' menus in words, everything else by number
        for _, text in menu:
            m = re.fullmatch(r"beat (\S+) with (\S+)", text)
            if m:
                a, d = Card.parse(m.group(1)), Card.parse(m.group(2))
                answers.append(f"beat {a}/{d}")
                return answers[-1]
            if text == "done (bito)":
                answers.append("done")
                return "done"
        return menu[0][0]

    code, text, _ = play(["--seed", str(seed), "--ai", "easy"], by_words)
    assert code == 0
    assert any(a.startswith("beat") for a in answers)
    assert "not possible" not in text and "did not understand" not in text
    assert "Game over." in text


def test_end_of_input_ends_the_game_gracefully() -> None:
    code, text, _ = play(["--seed", "3", "--ai", "easy"], eof_after=0)
    assert code == 0
    assert text.rstrip().endswith("End of input — goodbye.")
    code, text, person = play(["--seed", "3", "--ai", "easy"], first_option, eof_after=4)
    assert code == 0 and len(person.answers) == 4
    assert "End of input — goodbye." in text and "Traceback" not in text


def test_end_of_input_at_play_again_is_a_no() -> None:
    out = io.StringIO()
    code, text, person = play(["--seed", "3", "--ai", "random"], first_option, out=out)
    assert code == 0
    answers = len(person.answers)  # includes the final 'n'
    code, text, _ = play(["--seed", "3", "--ai", "random"], first_option, eof_after=answers - 1)
    assert code == 0
    assert text.rstrip().endswith("End of input — goodbye.")
    assert "Play again? [y/N]" in text


def _wait_if_possible(answers: list[str]) -> Strategy:
    """Chooses 'wait' whenever offered (recording it), otherwise the first option."""

    def choose(menu: list[tuple[str, str]]) -> str:
        for n, text in menu:
            if text.startswith("wait"):
                answers.append("wait")
                return n
        answers.append(menu[0][0])
        return menu[0][0]

    return choose


def test_waiting_is_offered_only_for_optional_moves_and_never_stalls() -> None:
    offered = 0
    for seed in range(40):
        answers: list[str] = []
        argv = ["--seed", str(seed), "--ai", "easy", "--players", "4", "--seat", str(seed % 4)]
        code, text, _ = play(argv, _wait_if_possible(answers))
        assert code == 0 and "Game over." in text
        screens = text.split(PROMPT)[1:]
        for answer, after in zip(answers, screens, strict=False):
            if answer == "wait":
                offered += 1
                menu_before = after.split("Your options:")[0]
                # the person is asked again only once something happened
                assert "What happened:" in menu_before or "Game over." in menu_before
        for screen in text.split("Your options:")[1:]:
            menu = [t for _, t in current_menu("Your options:" + screen.split(PROMPT)[0])]
            if any(t.startswith("wait") for t in menu):
                # a lead, an open defence or a 'done' owed can never be put off
                assert not any(t.startswith(("attack", "beat", "take", "done")) for t in menu)
    assert offered > 0


# ---------------------------------------------------------------------------- options


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play_module.main(argv, stdin=io.StringIO(""), stdout=out)
    return code, out.getvalue()


def test_unknown_option_lists_the_valid_ones_and_exits_2() -> None:
    code, text = _run(["--option", "colour=red"])
    assert code == 2
    assert "unknown rule option 'colour'" in text
    for name in ("players", "max_attack", "transfer", "trump_exchange", "severnyi"):
        assert name in text
    assert "Traceback" not in text and "Your move" not in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--option", "max_attack=lots"], "expected a whole number or none"),
        (["--option", "pile_on=maybe"], "expected true or false"),
        (["--option", "transfer=sometimes"], "expected one of off, before_beat, kiev"),
        (["--option", "max_attack"], "--option needs KEY=VALUE"),
        (["--preset", "teams-2v2", "--players", "3"], "2v2 partnerships need exactly 4"),
        (["--players", "7"], "players must be from 2 to 6"),
        (["--players", "6", "--deck", "24"], "6 hands of 6 need 36 cards"),
        (["--seat", "2"], "--seat must be from 0 to 1"),
        (["--preset", "nonsense"], "invalid choice"),
        (["--ai", "genius"], "invalid choice"),
    ],
)
def test_bad_settings_exit_2_with_a_clear_line(argv: list[str], message: str) -> None:
    code, text = _run(argv)
    assert code == 2
    assert message in text
    assert "Traceback" not in text


def test_option_values_are_typed() -> None:
    s = parse_settings(
        [
            "--preset",
            "perevodnoy",
            "--option",
            "max_attack=none",
            "--option",
            "pile_on=false",
            "--option",
            "first_bout_max=5",
            "--option",
            "all-out=last_defender_loses",
            "--players",
            "3",
            "--deck",
            "52",
            "--seed",
            "abc",
        ],
        io.StringIO(),
    )
    r = s.rules
    assert (r.max_attack, r.pile_on, r.first_bout_max, r.all_out) == (
        None,
        False,
        5,
        "last_defender_loses",
    )
    assert (r.transfer, r.players, r.deck_size) == ("before_beat", 3, 52)
    assert s.seed == "abc"
    assert parse_settings(["--seed", "42"], io.StringIO()).seed == 42
    assert parse_settings(["--preset", "teams-3v3"], io.StringIO()).rules.players == 6


def test_help_exits_0() -> None:
    code, text = _run(["--help"])
    assert code == 0
    assert "--option KEY=VALUE" in text and "perevodnoy" in text


def test_without_a_seed_one_is_drawn_and_printed_for_replay() -> None:
    code, text = _run(["--ai", "random"])
    assert code == 0
    m = re.search(r"Seed: (\d+) \(replay this game with --seed \1\)", text)
    assert m is not None


# ---------------------------------------------------------------------------- reproducibility


# normal's game costs ~1.5 CPU s (its exact end): random and easy in make check, all in make test
@pytest.mark.slow(sample=1, check=2)
@pytest.mark.parametrize("ai", ["random", "easy", "normal"])
def test_same_seed_and_answers_give_the_same_transcript(ai: str) -> None:
    argv = ["--seed", "31", "--ai", ai, "--players", "3"]
    _, one, _ = play(argv, random_option(5), again=["y"])
    _, two, _ = play(argv, random_option(5), again=["y"])
    assert one == two
    _, other, _ = play(["--seed", "32", "--ai", ai, "--players", "3"], random_option(5))
    assert other.splitlines()[5:] != one.splitlines()[5:]


def test_ascii_mode_prints_no_suit_symbols() -> None:
    code, text, _ = play(["--seed", "6", "--ai", "easy", "--ascii"], first_option)
    assert code == 0
    assert not set("♣♦♥♠") & set(text)
    assert re.search(r"Your hand: (\d{1,2}|[JQKA])[cdhs]( |$)", text, re.M)


@pytest.mark.slow(sample=1)  # a subprocess: in make test, not make check
def test_module_runs_as_a_program() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.play", "--seed", "1", "--ai", "random"],
        input="2\nq\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    assert "Your options:" in proc.stdout and "Goodbye" in proc.stdout
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------------------- hidden information


class LeakWatch(io.StringIO):
    """stdout that checks every card printed against what the person may know at that moment:
    their own cards, the table, the discard pile, the turned-up trump, and cards publicly known
    to be in a hand (picked up, shown, drawn face up). The true game is read from the engine
    instance the terminal created."""

    def __init__(self, seat: int, games: list[Game]) -> None:
        super().__init__()
        self.seat = seat
        self.games = games
        self.may_know: set[int] = set()
        self.cards_checked = 0
        self.hidden_seen = 0

    def write(self, s: str) -> int:
        if self.games:
            g = self.games[0]
            self.may_know |= set(bits(g.hands[self.seat]) or ())
            self.may_know |= {c for pair in g.table for c in pair if c >= 0}
            self.may_know |= set(bits(g.discard))
            for known in g.known:
                self.may_know |= set(bits(known))
            self.may_know.add(g.trump_card)
            hidden = 0
            for seat in range(g.n):
                if seat != self.seat:
                    hidden |= g.hands[seat] & ~g.known[seat]
            self.hidden_seen = max(self.hidden_seen, hidden.bit_count())
            for rank, suit in CARD_TOKEN.findall(s):
                card = Card.parse(rank + suit)
                self.cards_checked += 1
                assert card in self.may_know, f"{card} leaked in {s!r}"
        return super().write(s)


def _tracked_game(monkeypatch: pytest.MonkeyPatch) -> list[Game]:
    created: list[Game] = []

    class Tracked(Game):
        __slots__ = ()

        @classmethod
        def new(cls, *args: Any, **kwargs: Any) -> Game:
            g = super().new(*args, **kwargs)
            created.append(g)
            return g

    monkeypatch.setattr(play_module, "Game", Tracked)
    return created


@pytest.mark.parametrize(
    ("argv", "seat"),
    [
        (["--players", "3"], 1),
        (["--preset", "perevodnoy-pass-card", "--players", "4"], 0),
        (["--preset", "severnyi", "--players", "3"], 2),
        (["--players", "6"], 5),  # no talon: the dealer's turned-up last card is public
        (["--preset", "teams-2v2"], 3),
    ],
)
def test_no_card_of_another_hand_is_ever_printed_unless_public(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], seat: int
) -> None:
    for seed in range(4):
        games = _tracked_game(monkeypatch)
        out = LeakWatch(seat, games)
        full = [*argv, "--seed", str(seed), "--ai", "random", "--seat", str(seat)]
        code, text, _ = play(full, random_option(seed), out=out)
        assert code == 0 and "Game over." in text
        assert len(games) == 1
        assert out.cards_checked > 50
        assert out.hidden_seen > 0  # there were secrets to keep


def test_the_leak_watch_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [Game.new(RuleSet.preset("podkidnoy"), 3)]
    out = LeakWatch(0, games)
    secret = next(c for c in bits(games[0].hands[1]) if c != games[0].trump_card)
    with pytest.raises(AssertionError, match="leaked"):
        out.write(f"Computer 1 holds {secret.pretty()}\n")


def test_narration_is_capped_and_names_are_shown() -> None:
    argv = ["--seed", "9", "--ai", "random", "--players", "6", "--name", "Alice"]
    code, text, _ = play(argv, first_option)
    assert code == 0
    assert "  Alice (you): " in text
    blocks = re.findall(r"What happened:\n((?:  .*\n)+)", text)
    assert blocks
    sizes = [b.count("\n") for b in blocks]
    assert max(sizes) <= play_module.MAX_EVENTS + 1
    for block, size in zip(blocks, sizes, strict=True):
        if size == play_module.MAX_EVENTS + 1:
            assert block.startswith("  ... (")
