"""The client the bot serves (bot/activity/static/) is the build of its sources
(web/activity/). With Node and the npm packages at hand (``make activity`` installed them) the
sources are built again and compared byte for byte; without them (CI and a contributor's
machine need no Node) the sources' hash that the build recorded is compared with the
sources, so a change to a source without ``make activity`` fails either way."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web" / "activity"
STATIC = ROOT / "bot" / "activity" / "static"
BUILT = ("app.js", "app.css", "index.html")


def source_hash() -> str:
    """The same list, order and framing as web/activity/build.mjs."""
    files = ["build.mjs", "index.html", "package.json", "package-lock.json"]
    files += [f"src/{p.name}" for p in sorted((WEB / "src").iterdir(), key=lambda p: p.name)]
    digest = hashlib.sha256()
    for name in files:
        digest.update(f"{name}\n".encode())
        digest.update((WEB / name).read_bytes())
    return digest.hexdigest()


def test_the_served_client_was_built_from_these_sources() -> None:
    recorded = (STATIC / "SOURCES.sha256").read_text().strip()
    assert recorded == source_hash(), "web/activity changed: run `make activity` and commit"
    for name in BUILT:
        assert (STATIC / name).stat().st_size > 0


def test_building_again_gives_the_same_files(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules" / "esbuild").is_dir():
        pytest.skip("no Node or no web/activity/node_modules (make activity installs them)")
    subprocess.run([node, str(WEB / "build.mjs"), str(tmp_path)], check=True, timeout=120)
    for name in (*BUILT, "SOURCES.sha256"):
        assert (tmp_path / name).read_bytes() == (STATIC / name).read_bytes(), name
