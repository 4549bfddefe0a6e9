"""Facts the README states about inviting the bot, checked against the code."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app import INVITE_PERMISSIONS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")

#: discord.py's flag names as the developer portal's URL generator labels them.
PORTAL_LABELS = {
    "read_messages": "View Channels",  # discord.py's name for View Channel(s)
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "read_message_history": "Read Message History",
    "manage_messages": "Manage Messages",
}


def test_invite_permissions_are_the_ones_the_readme_asks_for() -> None:
    assert set(re.findall(r"permissions(?: integer `|=)(\d+)", README)) == {
        str(INVITE_PERMISSIONS.value)
    }
    section = README.split("3. **Invite the bot.**", 1)[1].split("4. **", 1)[0]
    listed = set(re.findall(r"^\s*\| \*\*([A-Za-z ]+)\*\* \|", section, re.MULTILINE))
    granted = {PORTAL_LABELS[name] for name, value in INVITE_PERMISSIONS if value}
    assert listed == granted
