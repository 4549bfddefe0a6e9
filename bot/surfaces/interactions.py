"""What every component of the bot shares: reading the service off an interaction, the
polite private answer to a refusal and custom_id parsing helpers (the callback wrapper that
turns any failure into an answer is :mod:`bot.surfaces.door`)."""

from __future__ import annotations

import logging
import re

import discord

from ..discord_limits import MESSAGE_CONTENT
from ..game.errors import HandClosed, IllegalMove, ServiceError
from ..game.models import PlayerRef
from ..game.service import GameService
from ..i18n import has_key, t
from ..rendering.result import result_text
from ..usertext import TEXT_CHARS, inert
from .callbacks import respond

log = logging.getLogger(__name__)


#: Cards in a custom id: notation run together; a second pack's twin (big fool) ends in ``'``.
_CARD_RE = re.compile(r"(?:[2-9TJQKA][cdhs]'?)*")


_ONE_CARD_RE = re.compile(r"[2-9TJQKA][cdhs]'?")


def _components_view() -> discord.ui.View:
    """A view that only carries components: created stopped.

    Every item here is a :class:`DynamicItem`, routed by its custom id however old the
    message, so discord.py never needs the view object itself. A live view would be kept in
    its view store per message and, on an ephemeral hand, get a 15-minute timeout task:
    memory and a timer for every hand ever shown, for nothing.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def _service(interaction: discord.Interaction) -> GameService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the client has no game service")
    return service


#: Parameters of a refusal that carry what the user typed (the others are numbers, mentions).
_TYPED = frozenset({"preset", "twist", "text", "name"})


def error_text(err: ServiceError, locale: str) -> str:
    """The user-facing sentence for a refusal."""
    if isinstance(err, IllegalMove):
        reason = t(f"illegal.{err.code}", locale) if has_key(f"illegal.{err.code}") else err.code
        return t("error.illegal_action", locale, reason=reason)
    # the words a user typed (an unknown preset or twist) are echoed inert, never as markup
    params = {k: inert(v, limit=TEXT_CHARS) if k in _TYPED else v for k, v in err.params.items()}
    text = t(err.key, locale, **params)
    if isinstance(err, HandClosed) and err.session is not None and err.session.status == "finished":
        result = result_text(err.session, locale)
        text = f"{text}\n{result}" if result else text
    return text[:MESSAGE_CONTENT]


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately whether or not the interaction was already acknowledged (a first
    answer is tried quickly again inside Discord's 3 seconds)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await respond(interaction, lambda: interaction.response.send_message(text, ephemeral=True))


def _can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


def _player(interaction: discord.Interaction) -> PlayerRef:
    return PlayerRef(interaction.user.id, interaction.user.display_name)


def _card_list(text: str) -> list[str] | None:
    if not _CARD_RE.fullmatch(text):
        return None
    return _ONE_CARD_RE.findall(text)
