"""Scripted people for the terminal game: they read what was printed and answer like a player.

``main`` reads a line only after printing a prompt, so an input object that looks at the output
written so far can answer the menu actually shown (like a person would), instead of a fixed
list of numbers that breaks whenever the deal changes.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

from engine.play import main

MENU_LINE = re.compile(r"^  (\d+)\) (.*)$", re.M)

#: Chooses one menu entry: gets [(number, text), ...] and returns what to type.
Strategy = Callable[[list[tuple[str, str]]], str]


def current_menu(text: str) -> list[tuple[str, str]]:
    """The numbered options of the last prompt in ``text``."""
    start = text.rfind("Your options:")
    assert start >= 0, "no menu was printed before input was read"
    return MENU_LINE.findall(text[start:])


def first_option(menu: list[tuple[str, str]]) -> str:
    return menu[0][0]


def random_option(seed: int) -> Strategy:
    rng = random.Random(seed)
    return lambda menu: rng.choice(menu)[0]


class ScriptedPerson(io.TextIOBase):
    """stdin for ``main``: answers each move prompt with ``strategy`` and each
    'play again?' with the next entry of ``again`` (then 'n').

    ``before`` lines are typed first, one per read, whatever the prompt (for bad input tests);
    after ``eof_after`` answers, input ends (Ctrl-D).
    """

    def __init__(
        self,
        out: io.StringIO,
        strategy: Strategy = first_option,
        again: list[str] | None = None,
        before: list[str] | None = None,
        max_answers: int = 5000,
        eof_after: int | None = None,
    ) -> None:
        self.out = out
        self.strategy = strategy
        self.again = list(again or [])
        self.before = list(before or [])
        self.answers: list[str] = []
        self.max_answers = max_answers
        self.eof_after = eof_after

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert len(self.answers) < self.max_answers, "the game does not end"
        if self.eof_after is not None and len(self.answers) >= self.eof_after:
            return ""
        text = self.out.getvalue()
        if self.before:
            answer = self.before.pop(0)
        elif text.rstrip().endswith("[y/N]"):
            answer = self.again.pop(0) if self.again else "n"
        else:
            answer = self.strategy(current_menu(text))
        self.answers.append(answer)
        return answer + "\n"


def play(
    argv: list[str],
    strategy: Strategy = first_option,
    again: list[str] | None = None,
    before: list[str] | None = None,
    out: io.StringIO | None = None,
    eof_after: int | None = None,
) -> tuple[int, str, ScriptedPerson]:
    """Run ``main`` with a scripted person; returns (exit code, transcript, person)."""
    out = out if out is not None else io.StringIO()
    person = ScriptedPerson(out, strategy, again, before, eof_after=eof_after)
    code = main(argv, stdin=person, stdout=out)
    return code, out.getvalue(), person
