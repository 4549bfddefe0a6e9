"""Hostile names and typed texts, and the check that a rendered text shows them inert.

Each entry is something a member can type as a display name, a dare, a season name or a
mode: Markdown, mention tags, links, direction overrides, invisible and combining characters,
emoji, right-to-left scripts, a newline. :func:`assert_inert` reads what a message, an embed
or a button *holds* (not the source string) and fails on anything of a corpus text still
live there.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from bot.usertext import MAX_MARKS, PDI, bidi_balanced

#: The role and user ids the tags below name (a test may create a role with this id's place).
ROLE_ID = 123
USER_ID = 123

CORPUS: dict[str, str] = {
    "rlo": "Bob\u200b\u202etxt.exe",
    "bold": "**bold**",
    "quote": "> quote",
    "fence": "```py\nfence```",
    "spoiler": "||spoiler||",
    "role": f"<@&{ROLE_ID}>",
    "user": f"<@{USER_ID}>",
    "everyone": "@everyone",
    "here": "@here",
    "masked": "[win](https://evil.example)",
    "url": "https://evil.example",
    "heading": "# heading",
    "small": "-# small",
    "long": "Long" * 50,
    "zero_width": "\u200b\u200c\u200d\u2060\ufeff",
    "spaces": "   \u3000 ",
    "marks": "\u0301\u0302\u0303\u0304",
    "zalgo": "Z" + "\u0336\u0335\u0334\u0301\u0315\u035c" * 6 + "algo",
    "emoji": "🎲🦊\ufe0f🍕",
    "arabic": "محمد علي",
    "hebrew": "שלום",
    "newline": "Eve\n# heading\n> quote",
    "isolate_open": "\u2067Mallory",
    "pop": "Trent\u202c\u2069",
    "hangul_filler": "\u3164\u3164",
}

#: Names with nothing visible in them: shown as a fallback ("Player 2"), never as blank.
BLANK = frozenset({"zero_width", "spaces", "marks", "hangul_filler"})
#: Names in a right-to-left script: shown isolated, and still in their own letters.
RTL = frozenset({"arabic", "hebrew"})

#: Raw pieces of the corpus that must never reach a message live.
_LIVE = [
    "**bold**",
    "```",
    "||spoiler||",
    "@everyone",
    "@here",
    "[win](",
    "https://evil.example",
    "\u202e",
    "\u200b\u202e",
    "\ufeff",
    "\u2060",
    "\u3164",
]
#: A corpus text starting a line of its own would be a heading, small text or a quote.
_LINE_MARKUP = re.compile(r"^\s*(#{1,3} heading|-# small|> quote)", re.MULTILINE)
#: A mention tag is live unless its ``<`` is escaped (``\<@123>`` shows as typed).
_TAGS = re.compile(rf"(?<!\\)<@&?({ROLE_ID}|{USER_ID})>")
_EMBEDDINGS = "\u202a\u202b\u202c\u202d\u202e"


def marks_run(text: str) -> int:
    """The longest run of combining marks in ``text``."""
    best = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        best = max(best, run)
    return best


def assert_inert(text: str, where: str = "") -> None:
    """No corpus text is live in ``text`` (what Discord shows): no markup, mention, link,
    line of its own; no direction control left open (after a name the bot's words keep
    their order: every isolate closed, no embedding or override at all); no zero-width
    character but the one that breaks ``@everyone``; no flood of combining marks."""
    label = f" in {where}" if where else ""
    for raw in _LIVE:
        assert raw not in text, f"{raw!r} reached a text{label} live:\n{text!r}"
    assert not _TAGS.search(text), f"a mention tag{label} live:\n{text!r}"
    assert not _LINE_MARKUP.search(text), f"a name starts a line{label}:\n{text}"
    assert not any(ch in _EMBEDDINGS for ch in text), f"an embedding or override{label}"
    assert bidi_balanced(text), f"a direction isolate left open{label}:\n{text!r}"
    assert "\u2066" not in text and "\u2067" not in text, f"a typed isolate{label}"
    # the bot's own: "@\u200beveryone" (broken) and a field name of one "\u200b" (no name)
    body = "\n".join(line for line in text.splitlines() if line != "\u200b")
    assert body.replace("@\u200b", "").count("\u200b") == 0, f"a zero-width space{label}"
    assert marks_run(text) <= MAX_MARKS, f"a flood of combining marks{label}"


def assert_isolated_after(text: str, name: str, after: str) -> None:
    """``name`` (as shown) is followed in ``text`` by the bot's own ``after``, with every
    isolate opened in or before the name closed by then."""
    at = text.index(name)
    head = text[: at + len(name)]
    assert head.count("\u2068") == head.count(PDI), (head, text)
    assert text[at + len(name) :].startswith(after), (text[at:], after)


def split_message(msg: Any) -> tuple[str, str]:
    """What a message holds, as (the parts Discord renders as Markdown: content, titles,
    descriptions, fields; the parts it shows literally: footers, labels, placeholders,
    options). A name in the second is shown as typed, so only its direction and invisible
    characters are checked there (:func:`assert_plain`)."""
    markdown = [msg.content or ""]
    plain: list[str] = []
    for e in msg.embeds:
        markdown += [e.title or "", e.description or ""]
        plain.append(e.footer.text or "")
        for f in e.fields:
            markdown += [f.name or "", f.value or ""]
    for row in msg.components:
        for c in getattr(row, "children", [row]):
            plain += [getattr(c, "label", None) or "", getattr(c, "placeholder", None) or ""]
            plain += [o.label for o in getattr(c, "options", []) or []]
    return "\n".join(markdown), "\n".join(plain)


def assert_plain(text: str, where: str = "") -> None:
    """A literal text (a footer, a label): no direction control left open, no embedding or
    override, no zero-width space, no flood of marks."""
    assert not any(ch in _EMBEDDINGS for ch in text), f"an embedding or override in {where}"
    assert bidi_balanced(text), f"a direction isolate left open in {where}:\n{text!r}"
    assert "\u200b" not in text.replace("@\u200b", ""), f"a zero-width space in {where}"
    assert marks_run(text) <= MAX_MARKS, f"a flood of combining marks in {where}"
