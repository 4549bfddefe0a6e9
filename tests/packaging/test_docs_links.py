"""The README stays a front door, and no page of the manual points at nothing.

When text moves between the README and docs/ (or a heading is renamed), a link to the old
place breaks silently on GitHub: every relative link of README.md and docs/*.md must name a
file that exists, and an anchor must name a heading of that page (GitHub's slugs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The front door: what it is, two commands, Discord set-up, the map, links.
README_MAX_LINES = 250

_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _prose(text: str) -> str:
    """The page without its fenced code blocks (a link there is an example, not a link)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return "\n".join(lines)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            found.add(slug(match[1]))
    return found


def links(page: Path) -> list[str]:
    return _LINK.findall(_prose(page.read_text(encoding="utf-8")))


def test_slugs_are_githubs() -> None:
    assert slug("Capacity: the bot's CPU time per move") == "capacity-the-bots-cpu-time-per-move"
    assert slug("Metrics and /healthz") == "metrics-and-healthz"
    assert slug("Storage: SQLite or PostgreSQL") == "storage-sqlite-or-postgresql"


def test_links_are_found() -> None:
    readme = links(ROOT / "README.md")
    assert "docs/table-450.png" in readme and "docs/playing.md" in readme
    assert "docs/operations.md#metrics-and-healthz" in readme


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_something(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading with that anchor in {file.name}")
    assert not broken, broken


def test_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    readme = set(links(ROOT / "README.md"))
    linked = {t.partition("#")[0] for t in readme}
    missing = [p.name for p in PAGES[1:] if f"docs/{p.name}" not in linked]
    assert not missing, missing
