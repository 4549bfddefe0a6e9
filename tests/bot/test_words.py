"""Words: every role and every result, in both languages, reads as whole sentences.

The old hand said "You are {role}." with role "may throw in" — "You are may throw in." 119
times in one game — and the result said "First out:" with three names and "Game over" twice.
These tests render every role a seat can have (by playing real games and reading each hand at
every step) and every kind of result, and check the text for complete sentences and for the
broken patterns seen before. Russian must be gender neutral: no masculine past tense about a
player ("вышел", "сдался", "покинул" ...).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.game.models import GameSession, SeatInfo
from bot.game.series import Series
from bot.i18n import catalog, t
from bot.rendering.result import result_text
from bot.rendering.table import hand_embed, ping_text, reminder_text, table_embed
from bot.surfaces.hand_views import hand_message
from engine import Game, Result, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order

LOCALES = ("en", "ru")
#: Patterns that betray a sentence assembled from pieces that do not fit.
BROKEN = [
    r"\bare may\b",
    r"\bis are\b",
    r"\bYou are (may|can|out\.)",
    r"Your role",
    r"Ваша роль",
    r"\b(\w+) \1\b",  # a word twice in a row
    r"  ",
    r" [,.!?:]",
    r"\{|\}",
    r"First out",
    r"Первыми вышли",
]
#: Masculine past tense about a player (Russian must not guess a gender).
MASCULINE = r"\b(вышел|сдался|покинул|ушёл|успел|успевал|отменил|доиграл|подтвердил)\b"
#: A sentence starts with a capital letter, a digit, an emoji or a mention.
START = re.compile(r"^(<@\d+>|[A-ZА-ЯЁ0-9]|[^\w\s<])")
END = re.compile(r"[.!?…:]$")


def _check_sentence(text: str, where: str) -> None:
    assert text == text.strip(), f"{where}: stray spaces: {text!r}"
    assert START.match(text), f"{where}: does not start a sentence: {text!r}"
    assert END.search(text), f"{where}: does not end a sentence: {text!r}"
    _check_words(text, where)


def _check_words(text: str, where: str) -> None:
    for pattern in BROKEN:
        assert not re.search(pattern, text), f"{where}: broken pattern {pattern!r}: {text!r}"
    assert not re.search(MASCULINE, text), f"{where}: gendered Russian: {text!r}"


def _session(game: Game, preset: str = "podkidnoy", locale: str = "en") -> GameSession:
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(game.n)]
    return GameSession(1, 10, 20, 30, 100, preset, seats, game, seed=7, version=1, locale=locale)


def _hand_lines(session: GameSession, seat: int, locale: str) -> list[str]:
    embed = hand_embed(session, session.game.observation(seat), locale)
    return embed.fields[0].value.splitlines()[1:]  # after the trump line


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(players=4, auto_done=True),
        RuleSet(players=4),
        RuleSet(players=3, transfer="before_beat", auto_done=True),
        RuleSet(players=4, teams="2v2", auto_done=True),
    ],
    ids=["online", "pagat", "transfer", "teams"],
)
def test_every_role_is_a_whole_sentence_in_both_languages(rules: RuleSet) -> None:
    """Play whole games and read every seat's hand at every step, in both languages."""
    seen: dict[str, set[str]] = {loc: set() for loc in LOCALES}
    for seed in range(3):
        game = Game.new(rules, seed)
        players = [make_player("easy", f"{seed}:{i}") for i in range(game.n)]
        session = _session(game)
        for _ in range(2000):
            for seat in range(game.n):
                for loc in LOCALES:
                    for line in _hand_lines(session, seat, loc):
                        seen[loc].add(line)
            if game.result is not None:
                break
            for seat in ask_order(game):
                if game.legal_actions(seat):
                    action = players[seat].choose(game.observation(seat))
                    if action is not None:
                        game.apply(action)
                        break
        for seat in range(game.n):  # the end: out, or the fool
            for loc in LOCALES:
                seen[loc].update(_hand_lines(session, seat, loc))
    for loc in LOCALES:
        for line in seen[loc]:
            _check_sentence(line, f"{loc} hand")
        roles = {t(k, loc) for k in catalog(loc) if k.startswith("hand.role.")}
        shown = seen[loc] & roles
        # Every situation a game goes through was met and said in a sentence of its own.
        # ("You are attacking." shows only when the attacker may throw in and has no done
        # button: with one, the done hint says "throw in more, or press ..." instead.)
        for key in ("leading", "defending", "waiting", "out"):
            assert t(f"hand.role.{key}", loc) in shown, (loc, key)
    assert "You are may throw in." not in seen["en"]


def test_every_role_key_reads_well() -> None:
    for loc in LOCALES:
        keys = [k for k in catalog(loc) if k.startswith("hand.role.")]
        assert len(keys) >= 8
        for key in keys:
            _check_sentence(t(key, loc), f"{loc}:{key}")
        for key in [k for k in catalog(loc) if k.startswith("role.")]:
            _check_words(t(key, loc), f"{loc}:{key}")


def _finished(n: int, seed: int, **rules: Any) -> Game:
    game = Game.new(RuleSet(players=n, auto_done=True, **rules), seed)
    players = [make_player("easy", f"{seed}:{i}") for i in range(n)]
    while game.result is None:
        for seat in ask_order(game):
            if game.legal_actions(seat):
                action = players[seat].choose(game.observation(seat))
                if action is not None:
                    game.apply(action)
                    break
    return game


def _results() -> list[tuple[str, GameSession]]:
    """A finished session of every kind of ending."""
    out = []
    for n in (2, 3, 4, 6):
        out.append((f"fool-{n}", _session(_finished(n, n, deck_size=52 if n == 6 else 36))))
    out.append(("teams", _session(_finished(4, 1, teams="2v2"), "teams-2v2")))
    draw = _finished(3, 5)
    draw.result = Result("draw", None, (), None, tuple(draw.result.finish_order))
    out.append(("draw", _session(draw)))
    for reason in ("left", "timeout"):
        game = Game.new(RuleSet(players=3), 3)
        game.apply(game.legal_actions(game.attacker)[0])  # a forfeit after the first move
        ended = _session(game)
        ended.forfeits = {1: reason}
        ended.ended_by = 1
        ended.forfeit_seats, ended.forfeit_text = (1,), "Tell a joke in the chat."
        out.append((f"forfeit-{reason}", ended))
    void = _session(Game.new(RuleSet(players=3), 3))
    void.forfeits, void.ended_by = {1: "left"}, 1
    out.append(("void", void))
    mid = _session(_finished(3, 9))
    mid.forfeits = {2: "left"}
    mid.seats[2].left = True
    out.append(("left-midway", mid))
    series = _session(_finished(2, 4))
    series.series = Series(1, 1, 3, (1, 0), 1, 0)
    out.append(("series", series))
    for _, session in out:
        session.status = "finished"
        result = session.game.result
        if session.forfeit_text is None and result is not None and result.fool is not None:
            session.forfeit_seats = (result.fool,)
            session.forfeit_text = "Compliment every player of this game."
    return out


@pytest.mark.parametrize("loc", LOCALES)
def test_every_result_says_the_verdict_once_in_whole_sentences(loc: str) -> None:
    for name, session in _results():
        session.locale = loc
        text = result_text(session, loc)
        where = f"{loc} {name}"
        assert text.strip(), where
        for line in (line for line in text.splitlines() if line):
            if ": " in line and not line.endswith((".", "!", ":")):
                # "name: cards" in the hands list, or the forfeit (the server's own text)
                _check_words(line, where)
                continue
            _check_sentence(line, where)
        if loc == "en":
            # Said once: one verdict, no "Game over", at most one sentence on going out.
            verdicts = ("is the fool!", "The losing team", "A draw", "(forfeit)", "without a fool")
            assert sum(text.count(v) for v in verdicts) == 1, where
            assert "Game over" not in text, where
            assert text.count("went out") + text.count("Went out") <= 1, where
        result = session.game.result
        if result is not None and session.ended_by is None and len(result.finish_order) > 1:
            assert "1. " in text and "2. " in text, where  # the order, numbered
        if name == "series":
            assert t("announce.tally", loc, deals="", items="")[:4] in text, where
        # The final table says it once as well.
        embed = table_embed(session)
        names = [f.name for f in embed.fields]
        assert names.count(t("table.finished", loc)) == 1, where
        table_text = "\n".join(f.value for f in embed.fields)
        _check_words(table_text.replace("  ", " "), where)


def test_remaining_cards_are_shown_only_once_the_game_is_over() -> None:
    game = _finished(3, 2)
    session = _session(game)
    session.status = "finished"
    fool = game.result.fool if game.result else None
    assert fool is not None
    shown = result_text(session, "en")
    for card in game.hand(fool):
        assert card.pretty() in shown
    running = _session(Game.new(RuleSet(players=3), 2))
    for seat in range(3):
        text = "\n".join(f.value for f in table_embed(running).fields)
        for card in running.game.hand(seat):
            assert f"p{seat}: " not in text and card.pretty() not in text
    running.status = "cancelled"
    assert "p0: " not in result_text(running, "en")


@pytest.mark.parametrize("loc", LOCALES)
def test_pings_and_buttons_read_naturally(loc: str) -> None:
    session = _session(Game.new(RuleSet(players=2), 1), locale=loc)
    for kind in ("defend", "lead"):
        _check_sentence(ping_text(session, 0, kind), f"{loc} ping {kind}")  # type: ignore[arg-type]
    _check_sentence(reminder_text(session, 0, 1_000_000.0), f"{loc} reminder")
    assert t("hand.button.done", loc) in ("Bito / Pass", "Бито / Пас")
    _, _, view = hand_message(session, session.game.attacker, loc)
    assert view.children  # the leader has moves
