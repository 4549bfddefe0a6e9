"""Headless Chromium for the Activity's browser tests: Debian's ``chromium`` package driven by
Playwright from PyPI, never a browser Playwright downloads itself.

Without the package (a contributor's machine with only python3) the browser tests are skipped
with the reason; ``REQUIRE_CHROMIUM=1`` (set by ``.ci/run``, which installs the package) turns
that skip into a failure, so CI cannot pass without having played in a browser.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

#: Where Debian's package puts it; CHROMIUM names another.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def unavailable_reason() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (make venv installs it)"
    return None


def skip_unless_available() -> None:
    reason = unavailable_reason()
    if reason is None:
        return
    if os.environ.get("REQUIRE_CHROMIUM", "").strip() not in ("", "0"):
        pytest.fail(f"REQUIRE_CHROMIUM is set but {reason}")
    pytest.skip(reason)


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless browser (the caller makes its contexts and pages)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=CHROMIUM,
            # root in CI: Chromium's sandbox needs a user namespace a container may not give
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield browser
        finally:
            await browser.close()


def activity_url(base: str, user: Any, channel_id: int) -> str:
    """The client in the local mode, signed in as ``user`` in ``channel_id``."""
    from urllib.parse import urlencode

    return base + "?" + urlencode({"user": user.id, "name": user.name, "channel": channel_id})
