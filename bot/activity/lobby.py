"""The lobby inside the Activity: a form that opens a table like ``/durak new`` and the lobby
it opened, with the chat lobby's own buttons.

Nothing here is a second lobby: the form calls :meth:`GameService.open_activity_lobby` (the
command's :meth:`create_lobby`, with the guild's house rules and channel check), the lobby's
message is posted in the channel by the Discord side (:class:`DiscordSide`), and every button
is the chat button's service call (:meth:`GameService.activity_lobby_action`). The chat's
Join under that message and the Activity's Join seat players in the same lobby, and each
change reaches both through the one publisher.

Who may open a table in a channel is Discord's answer, not the browser's: the channel the
client names is checked by the Discord side (the channel's server, the member's right to
see and post in it) before anything is created, and the server, the host's name and the
server's language come from there too.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol

from engine.rules import PRESETS

from ..game import modes
from ..game.errors import ServiceError
from ..game.models import AI_DIFFICULTIES, LobbyInfo, PlayerRef
from ..game.service import GameService
from ..i18n import normalize_locale, t
from ..rendering.common import deck_text, seat_name
from .frames import Avatars

__all__ = ["DECKS", "DiscordSide", "Member", "idle_frame", "lobby_frame", "plain_text"]

log = logging.getLogger(__name__)

#: The deck sizes ``/durak new`` offers.
DECKS = (24, 36, 52)
#: The most seats a table has (``/durak new``'s range).
MOST_SEATS = 6


@dataclass(frozen=True, slots=True)
class Member:
    """The player as the channel's server knows them."""

    guild_id: int
    name: str
    #: The server's Discord language, for public messages until the guild picks one.
    guild_locale: str | None = None


class DiscordSide(Protocol):
    """What the Activity needs of Discord itself (bot/surfaces/activity_discord.py)."""

    def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel the bot sees, else None."""
        ...

    async def member(self, channel_id: int, user_id: int) -> Member | None:
        """The user, when they may see and post in the channel; else None."""
        ...

    async def sees(self, channel_id: int, user_id: int) -> bool:
        """Whether the user may see the channel (a server channel the bot sees, and a member
        with the right to view it): the browser names the channel, so a watcher is checked."""
        ...

    async def post_lobby(self, info: LobbyInfo) -> None:
        """Post the lobby's message in its channel and attach it to the lobby; raises when
        Discord refuses (the caller cancels the lobby)."""
        ...

    def avatar(self, user_id: int) -> str | None:
        """The user's avatar as a path on Discord's CDN, if the bot knows it."""
        ...


def _modes(locale: str) -> list[dict[str, str]]:
    """Every preset, the base games first (as ``/durak new`` lists them with nothing typed)."""
    first = list(modes.BASE_PRESETS)
    order = first + [p for p in PRESETS if p not in first]
    return [
        {
            "key": p,
            "name": t(f"preset.{p}.name", locale),
            "description": t(f"preset.{p}.description", locale),
        }
        for p in order
    ]


def idle_frame(
    locale: str | None, *, can_open: bool, defaults: dict[str, Any] | None = None
) -> dict[str, Any]:
    """No game and no open lobby here: the form that opens one (``can_open``: this is a
    server channel the bot serves; elsewhere, a DM for instance, only a notice).
    ``defaults``: the guild's house rules (mode, seats, deck) the form starts from."""
    loc = normalize_locale(locale)
    frame: dict[str, Any] = {"op": "idle", "locale": loc, "can_open": can_open}
    if not can_open:
        return frame
    defaults = defaults or {}
    return frame | {
        "modes": _modes(loc),
        "preset": defaults.get("preset", "podkidnoy"),
        "seats": defaults.get("seats"),
        "deck": int(defaults.get("deck", 36)),
        "decks": list(DECKS),
        "most_seats": MOST_SEATS,
    }


def lobby_frame(info: LobbyInfo, user_id: int, level: str, avatars: Avatars) -> dict[str, Any]:
    """The lobby as the reader sees it, with the buttons the chat lobby would let them use
    (a button the service would refuse is not offered; a stale click is still refused)."""
    loc = info.locale
    seated = any(s.user_id == user_id for s in info.seats)
    host = user_id == info.host_id
    full = len(info.seats) >= info.max_seats
    computers = any(s.user_id is None for s in info.seats)
    actions = []
    if not seated and not full:
        actions.append("join")
    if host:
        actions += ["start", *(["ai"] if not full else []), *(["unai"] if computers else [])]
        actions.append("level")
    if seated:
        actions.append("leave")
    if host:
        actions.append("cancel")
    variant = modes.variant_of(info.preset, info.overrides)
    return {
        "op": "lobby",
        "game_id": info.game_id,
        "locale": loc,
        "mode": modes.mode_name(info.preset, variant, loc),
        "description": t(f"preset.{info.preset}.description", loc),
        "deck": deck_text(info, loc),
        "max_seats": info.max_seats,
        "seats": [
            {
                "seat": s.seat,
                "name": seat_name(s, loc, markdown=False),
                "computer": s.user_id is None,
                "host": s.user_id == info.host_id,
                "you": s.user_id == user_id,
                "level": s.difficulty if s.user_id is None else None,
                "avatar": avatars(s.user_id) if s.user_id is not None else None,
            }
            for s in info.seats
        ],
        "level": info.ai_level or level,
        "levels": list(AI_DIFFICULTIES),
        "actions": actions,
    }


_MENTION = re.compile(r"<@!?(\d+)>|<#(\d+)>")


def plain_text(text: str, names: dict[int, str]) -> str:
    """A refusal written for chat, for a page: a user mention becomes the name (if the
    lobby knows it) and a channel mention a plain ``#``, since the page renders no markup."""

    def one(match: re.Match[str]) -> str:
        if match[1] is not None:
            return names.get(int(match[1]), "?")
        return "#"

    return _MENTION.sub(one, text)


async def open_lobby(
    service: GameService,
    discord: DiscordSide,
    channel_id: int,
    user_id: int,
    form: dict[str, Any],
) -> LobbyInfo:
    """The form sent: open the lobby as ``/durak new`` would, post it, or undo it."""
    member = await discord.member(channel_id, user_id)
    if member is None:
        raise ServiceError("activity.lobby.not_here")
    preset = form.get("preset")
    seats, deck = form.get("seats"), form.get("deck")
    if (
        not (preset is None or preset in PRESETS)
        or not (seats is None or (isinstance(seats, int) and 2 <= seats <= MOST_SEATS))
        or not (deck is None or deck in DECKS)
    ):
        raise ServiceError("error.malformed_id")
    info = await service.open_activity_lobby(
        member.guild_id,
        channel_id,
        PlayerRef(user_id, member.name),
        preset,
        seats,
        deck,
        discord_locale=member.guild_locale,
    )
    try:
        await discord.post_lobby(info)
    except Exception:
        # without its message nobody in chat could join: no orphan lobby
        log.warning("game %d: the Activity's lobby could not be posted", info.game_id)
        await service.cancel(info.game_id, user_id)
        raise ServiceError("activity.lobby.not_posted") from None
    return await service.lobby(info.game_id)


async def lobby_action(
    service: GameService,
    discord: DiscordSide,
    channel_id: int | None,
    game_id: int,
    user_id: int,
    message: dict[str, Any],
) -> None:
    """A lobby button pressed at the Activity's table. Joining needs the player's name as
    the server knows it (and that they may be in this channel at all)."""
    action = message.get("action")
    level = message.get("level")
    name = ""
    if action == "join":
        # only the lobby of the channel the Activity runs in, by someone who may post there
        member = await discord.member(channel_id, user_id) if channel_id else None
        if member is None or (await service.lobby(game_id)).channel_id != channel_id:
            raise ServiceError("activity.lobby.not_here")
        name = member.name
    await service.activity_lobby_action(
        game_id,
        PlayerRef(user_id, name),
        action if isinstance(action, str) else "",
        level if isinstance(level, str) else None,
    )
