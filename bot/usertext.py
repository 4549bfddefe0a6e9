"""Text a user chose (a display name, a dare, a season name, anything typed), made inert for
the place it is shown.

A name is the one thing in the bot's messages that nobody at the bot wrote, so it is the one
thing that can try to rewrite them: Markdown (bold, a masked link, a heading), a mention tag,
an ``@everyone``, or Unicode that acts on the text *around* it: a right-to-left override
(U+202E) left open reorders the bot's own words after the name ("— 6 cards (attacking)"),
zero-width characters make a name look empty or like someone else's, and a flood of
combining marks (Zalgo) draws over the lines above and below. :func:`inert` is the one
function that every such text goes through, in the form its place needs:

* ``"markdown"``: message content, embed titles, descriptions and fields (Discord renders
  Markdown there): markup escaped, mentions broken, links not clickable.
* ``"plain"``: button labels, select options, footers, placeholders (shown literally by
  Discord, so an escape would show as a backslash).
* ``"picture"``: what Pillow draws. The pictures use Pillow's basic layout (the same bytes
  on every host), which knows nothing of direction, so a right-to-left run is put in visual
  order here and no control character is left to draw as a box.

In the first two forms a name holding right-to-left letters is wrapped in a first-strong
isolate (U+2068 … U+2069): the reader's client shows it in its own direction and the text
after it keeps the bot's direction. Every explicit direction control the user typed is
removed first, so nothing inside can be left open. A name with no right-to-left letter is
not wrapped: once its controls are gone it cannot move its neighbours, and plain names stay
byte for byte what their owners typed.

This module imports nothing of the bot but Discord's limits, so the renderers, the surfaces,
the cogs and the pictures can all use it without an import circle.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final, Literal

import discord

from .discord_limits import BUTTON_LABEL, SELECT_OPTION_TEXT

__all__ = [
    "FSI",
    "NAME_CHARS",
    "PDI",
    "TEXT_CHARS",
    "Form",
    "bidi_balanced",
    "clean",
    "inert",
    "is_blank",
    "visual_order",
]

Form = Literal["markdown", "plain", "picture"]

#: First-strong isolate and its closing pop: the name's direction is its own first letter's.
FSI: Final = "\u2068"
PDI: Final = "\u2069"

#: Characters of a name kept in a line of a message or a title: longer than any Discord
#: display name or nickname (32), short enough that one name cannot crowd out a message.
NAME_CHARS: Final = 100
#: Characters of a longer typed text (a dare, words echoed back): a dare holds 200.
TEXT_CHARS: Final = 400
#: Default caps per form (a button label holds the name and a word or two around it).
_LIMITS: Final[dict[Form, int]] = {
    "markdown": NAME_CHARS,
    "plain": min(BUTTON_LABEL // 2, SELECT_OPTION_TEXT // 2),
    "picture": NAME_CHARS,
}
#: Combining marks kept on one base character: enough for Vietnamese (two) or pointed
#: Hebrew (three), not enough for a mark flood to draw over the lines around it.
MAX_MARKS: Final = 3

#: Explicit direction controls: embeddings and overrides (U+202A–U+202E), isolates
#: (U+2066–U+2069) and the marks (LRM, RLM, ALM). All removed from a user's text.
_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BIDI_MARKS: Final = frozenset("\u200e\u200f\u061c")
#: Joiners: kept only between two visible characters (an emoji family, Persian words).
_JOINERS: Final = frozenset("\u200c\u200d")
#: Letters and symbols that draw nothing at all, used to fake an empty or a blank name.
_BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e")
_RTL: Final = frozenset(("R", "AL", "AN"))
#: What opens Discord markup that ``escape_markdown`` leaves alone: brackets (a masked link
#: split around an escaped piece) and ``<`` (mentions, custom emojis, timestamps).
_OPENERS: Final = re.compile(r"([\[\]<])")


def _dropped(ch: str) -> bool:
    """Characters removed outright: controls (newlines become spaces before this), direction
    controls, format characters such as zero-width spaces and tags, lone surrogates (the
    encoder would raise) and the blank letters."""
    if ch in _BIDI_CONTROLS or ch in _BIDI_MARKS or ch in _BLANKS:
        return True
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs") and ch not in _JOINERS


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def clean(text: str, limit: int = NAME_CHARS) -> str:
    """``text`` with nothing left that acts on other text or hides itself: one line (any run
    of whitespace is one space), no control, direction or zero-width character, a joiner only
    between two visible characters, at most :data:`MAX_MARKS` combining marks on a base (and
    none with no base: it would sit on the character before the name), cut to ``limit``
    characters with an ellipsis. What is left may be empty (see :func:`is_blank`)."""
    kept: list[str] = []
    marks = 0
    for ch in " ".join(str(text).split()):
        if _dropped(ch):
            continue
        if _is_mark(ch):
            if not kept or kept[-1] == " " or kept[-1] in _JOINERS or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        if ch in _JOINERS and (not kept or kept[-1] == " " or kept[-1] in _JOINERS):
            continue
        kept.append(ch)
    while kept and kept[-1] in _JOINERS:
        kept.pop()
    out = " ".join("".join(kept).replace("\u200d ", " ").replace("\u200c ", " ").split())
    if len(out) > limit:
        out = out[: max(limit - 1, 0)].rstrip().rstrip("\u200c\u200d") + "…"
    return out


def is_blank(text: str) -> bool:
    """Whether ``text`` (as :func:`clean` left it) shows nothing a reader can see: empty,
    spaces, or only marks and joiners."""
    return not any(
        not ch.isspace() and not _is_mark(ch) and ch not in _JOINERS and not _dropped(ch)
        for ch in text
    )


def _has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RTL for ch in text)


def _escape(text: str) -> str:
    """Markdown escaped, brackets and ``<`` escaped (the pieces between them apart, so no
    escape is doubled), ``@everyone``/``@here`` and raw ids broken, ``://`` escaped so a
    bare URL is not linked."""
    pieces = _OPENERS.split(text)
    escaped = "".join(
        "\\" + piece
        if i % 2
        else discord.utils.escape_markdown(piece, ignore_links=False).replace("://", "\\://")
        for i, piece in enumerate(pieces)
    )
    return discord.utils.escape_mentions(escaped)


def _clusters(text: str) -> list[str]:
    """A base character with its marks (and a joined character) as one piece, so reversing
    a run keeps each mark on its own letter."""
    out: list[str] = []
    for ch in text:
        if out and (_is_mark(ch) or ch in _JOINERS or out[-1][-1] in _JOINERS):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def visual_order(text: str) -> str:
    """``text`` in the order its characters appear on screen, for a renderer that draws
    left to right (Pillow's basic layout): each right-to-left run is reversed, and a line
    whose first strong letter is right-to-left has its runs laid right to left too. Digits
    and punctuation between two right-to-left letters stay in the run; a number keeps its
    own digit order. Enough for a name or a title; not the whole Unicode algorithm."""
    if not _has_rtl(text):
        return text
    runs: list[tuple[bool, list[str]]] = []  # (right to left, clusters)
    for cluster in _clusters(text):
        kind = unicodedata.bidirectional(cluster[0])
        if kind in ("R", "AL"):
            rtl: bool | None = True
        elif kind == "L":
            rtl = False
        else:
            rtl = None  # neutral or number: joins the run it sits in
        if runs and (rtl is None or runs[-1][0] == rtl):
            runs[-1][1].append(cluster)
        else:
            runs.append((bool(rtl), [cluster]))
    out: list[str] = []
    for rtl, clusters in runs:
        if not rtl:
            out.append("".join(clusters))
            continue
        trail: list[str] = []  # neutrals after the last right-to-left letter stay outside
        while clusters and unicodedata.bidirectional(clusters[-1][0]) not in ("R", "AL"):
            trail.insert(0, clusters.pop())
        pieces: list[str] = []
        for c in reversed(clusters):  # digit groups keep their own order
            if pieces and c.isdigit() and pieces[-1][-1:].isdigit():
                pieces[-1] = c + pieces[-1]
            else:
                pieces.append(c)
        out.append("".join(pieces) + "".join(trail))
    first = next(
        (
            unicodedata.bidirectional(ch) in ("R", "AL")
            for ch in text
            if unicodedata.bidirectional(ch) in ("L", "R", "AL")
        ),
        False,
    )
    return "".join(reversed(out) if first else out)


def inert(
    text: str,
    form: Form = "markdown",
    *,
    limit: int | None = None,
    fallback: str = "?",
) -> str:
    """``text`` as Discord (or a picture) shows it literally in ``form``'s place, whatever
    its author typed: never markup, a link, a mention or a direction change that reaches past
    it. Cleaned by :func:`clean` and cut to ``limit`` characters (the form's default
    otherwise); a text with nothing visible left is ``fallback`` (a caller with a better
    label, such as "Player 2", passes it). Idempotence is not promised: call it once, where
    the text meets its place."""
    return _inert(text, form, limit, fallback)


@lru_cache(maxsize=4096)
def _inert(text: str, form: Form, limit: int | None, fallback: str) -> str:
    """:func:`inert`, once per text: a table or a hand shows the same few names on every
    render, and cleaning a name walks it character by character."""
    cap = _LIMITS[form] if limit is None else limit
    cut = clean(text, cap)
    if is_blank(cut):
        cut = clean(fallback, cap)
    if form == "picture":
        return visual_order(cut)
    if _has_rtl(cut):  # the isolate's two marks count against the cap too
        cut = clean(cut, cap - 2)
        return FSI + (_escape(cut) if form == "markdown" else cut) + PDI
    return _escape(cut) if form == "markdown" else cut


def bidi_balanced(text: str) -> bool:
    """Whether every embedding, override and isolate in ``text`` is closed before the text
    ends (the check for a message holding names: after a name, nothing is left open)."""
    stack: list[str] = []
    for ch in text:
        if ch in "\u202a\u202b\u202d\u202e\u2066\u2067\u2068":
            stack.append(ch)
        elif ch == PDI:
            while stack and stack[-1] not in "\u2066\u2067\u2068":
                stack.pop()  # a PDI closes the embeddings opened inside its isolate
            if not stack:
                return False
            stack.pop()
        elif ch == "\u202c":
            if not stack or stack[-1] in "\u2066\u2067\u2068":
                return False
            stack.pop()
        elif ch in "\n\u2029" and stack:
            return False
    return not stack
