"""The Russian catalogue against docs/glossary.md: no word the glossary rejects.

The glossary is the single source: its table's *Rejected* column lists the words (``word``:
the whole word, ``stem*``: every word starting so, a token without letters: that literal
text), and this test reads them from there, so rejecting a word is a one-line doc change.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from bot.i18n import catalog

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
_TOKEN = re.compile(r"`([^`]+)`")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@cache
def rejected_tokens() -> tuple[str, ...]:
    """Every token of the *Rejected* column of the glossary's term table."""
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Terms")
    rows = [line for line in lines[start:] if line.startswith("|")]
    header, body = _cells(rows[0]), rows[2:]  # rows[1] is the |---| line
    column = header.index("Rejected")
    tokens: list[str] = []
    for row in body:
        tokens.extend(_TOKEN.findall(_cells(row)[column]))
    return tuple(tokens)


def pattern(token: str) -> re.Pattern[str]:
    """``stem*``: any word starting with the stem; a word: that word; no letters: literal."""
    if not any(ch.isalpha() for ch in token):
        return re.compile(re.escape(token))
    if token.endswith("*"):
        return re.compile(rf"\b{re.escape(token[:-1])}\w*", re.IGNORECASE)
    return re.compile(rf"\b{re.escape(token)}\b", re.IGNORECASE)


def test_the_glossary_rejects_the_known_wrong_words() -> None:
    """The parser reads the table: a broken table must not make the scan below pass."""
    tokens = set(rejected_tokens())
    for word in ("прикуп*", "нападающ*", "защищающ*", "сдач*", "ведущ*", "парти*", "ты", "#{"):
        assert word in tokens, word


@pytest.mark.parametrize(
    ("token", "text", "hit"),
    [
        ("прикуп*", "из Прикупа", True),
        ("прикуп*", "из колоды", False),
        ("кон", "Кон разыгрывается", True),
        ("кон", "конец раздачи", False),
        ("ты", "Смени ник, ты", True),
        ("ты", "Сделайте тысячу шагов", False),
        ("#{", "Игра #{game_id}", True),
        ("#{", "Игра №{game_id}", False),
        ("парти*", "ваш партнёр", False),
    ],
)
def test_pattern(token: str, text: str, hit: bool) -> None:
    assert bool(pattern(token).search(text)) is hit


def test_russian_catalogue_uses_no_rejected_word() -> None:
    found = [
        f"{key}: {match.group(0)!r} ({token}) in {text!r}"
        for token in rejected_tokens()
        for key, text in catalog("ru").items()
        for match in [pattern(token).search(text)]
        if match is not None
    ]
    assert not found, "\n".join(found)
