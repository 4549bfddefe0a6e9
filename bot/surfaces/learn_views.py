"""``/durak learn`` on Discord: a lesson's private thread, its first messages, its closing
message and the buttons that play the next lesson.

A lesson lives in a **private thread** (the learner and the bot; the computer is the bot), so
the channel sees at most Discord's own line that a thread was started, and the lesson's
table, hand and result are nobody else's business. The thread is created without a starter
message and is not invitable. A channel that cannot hold one (a direct message, a forum, no
*Create Private Threads* permission for the bot) gets no lesson: the learner is told why and
where one works, privately. Ephemeral messages were the other choice, and they cannot carry
a lesson: the table is edited at every move for as long as the game lasts, and an ephemeral
message can only be edited through its interaction for 15 minutes. A lesson's next one is
played in the same thread.

What a lesson skips (ratings, stats, dares, pings, the timer) is the service's decision
(bot/game/lessons.py); this module only opens the room and words the end.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from ..discord_limits import BUTTON_LABEL, THREAD_NAME
from ..game.errors import AlreadyPlaying
from ..game.lesson_plan import LESSONS, next_lesson
from ..game.models import GameSession, PlayerRef
from ..i18n import t
from .callbacks import think_privately
from .door import _Malformed
from .interactions import _components_view, _service
from .language import discord_server_locale, reader_locale
from .typed_items import _TypedItem

__all__ = ["LESSON_ID", "LessonButton", "closing_message", "start_lesson"]

log = logging.getLogger(__name__)

LESSON_ID = r"durak:lesson:(?P<lesson>[a-z_]+)"


def _lesson_room(interaction: discord.Interaction) -> discord.Thread | None:
    """The lesson thread the interaction comes from (a private thread of this bot's), where
    the next lesson is played; None elsewhere."""
    channel = interaction.channel
    me = interaction.client.user
    if (
        isinstance(channel, discord.Thread)
        and channel.type is discord.ChannelType.private_thread
        and me is not None
        and channel.owner_id == me.id
    ):
        return channel
    return None


def _thread_home(interaction: discord.Interaction) -> discord.TextChannel | None:
    """The text channel a new private thread can be opened in, or None when the bot may not
    open one from here."""
    channel = interaction.channel
    home = channel.parent if isinstance(channel, discord.Thread) else channel
    if not isinstance(home, discord.TextChannel):
        return None
    perms = home.permissions_for(home.guild.me)
    if not (perms.create_private_threads and perms.send_messages_in_threads):
        return None
    return home


async def start_lesson(interaction: discord.Interaction, lesson: str | None) -> None:
    """Open ``lesson`` (None: the learner's next one) for the user of ``interaction``: in
    the lesson thread it was asked from, else in a new private thread."""
    await think_privately(interaction)
    reader = reader_locale(interaction)
    guild_id = interaction.guild_id
    if guild_id is None or interaction.channel_id is None:
        await interaction.followup.send(t("learn.no_thread", reader), ephemeral=True)
        return
    service = _service(interaction)
    user = interaction.user
    name = await service.lesson_to_play(user.id, lesson)
    playing = await service.game_for_user(user.id)
    if playing is not None:  # refused before a thread is made for nothing
        raise AlreadyPlaying(playing)
    room = _lesson_room(interaction)
    made: discord.Thread | None = None
    if room is None:
        home = _thread_home(interaction)
        if home is None:
            await interaction.followup.send(t("learn.no_thread", reader), ephemeral=True)
            return
        await service.check_channel(guild_id, home.id)
        title = t("learn.thread_name", reader, lesson=t(f"learn.lesson.{name}", reader))
        room = made = await home.create_thread(
            name=title[:THREAD_NAME],
            type=discord.ChannelType.private_thread,
            invitable=False,
        )
    try:
        if made is not None:
            await made.add_user(user)
        info = await service.open_lesson(
            guild_id,
            room.id,
            PlayerRef(user.id, user.display_name),
            name,
            discord_locale=discord_server_locale(interaction),
        )
    except Exception:
        if made is not None:
            with contextlib.suppress(discord.HTTPException):
                await made.delete()
        raise
    loc = info.locale
    try:
        await room.send(
            t(
                "learn.welcome",
                loc,
                lesson=t(f"learn.lesson.{name}", loc),
                button=t("table.button.show_hand", loc),
                hint=t("hint.button", loc),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        table = await room.send(t("learn.dealing", loc))
        await service.begin_lesson(info.game_id, user.id, table.id)
    except Exception:  # Discord refused, or a bug: no half-made lesson is left behind
        with contextlib.suppress(Exception):
            await service.cancel(info.game_id, user.id, can_manage=True)
        if made is not None:
            with contextlib.suppress(discord.HTTPException):
                await made.delete()
        raise
    await interaction.followup.send(t("learn.opened", reader, thread=room.mention), ephemeral=True)


def closing_message(session: GameSession) -> tuple[str, discord.ui.View]:
    """The lesson's last word in its thread: how it ended, what the learner met, what to
    try next, and buttons for the next lesson (or this one again)."""
    loc = session.locale
    lesson = session.lesson
    assert lesson is not None
    name = lesson.name
    result = session.game.result
    learner = session.learner
    if result is None or session.ended_by is not None:
        outcome = "left"
    elif result.kind == "draw":
        outcome = "draw"
    else:
        outcome = "lost" if learner in result.losers else "won"
    concepts = " · ".join(t(f"learn.concept.{c}", loc) for c in lesson.met)
    following = next_lesson([name], after=name)
    lines = [
        "## " + t("learn.closing.title", loc, lesson=t(f"learn.lesson.{name}", loc)),
        t(f"learn.closing.{outcome}", loc),
        t("learn.closing.learnt", loc, concepts=concepts),
        t("learn.closing.next_header", loc),
    ]
    if following is not None:
        nxt = t(f"learn.lesson.{following}", loc)
        lines.append("• " + t("learn.closing.next_lesson", loc, lesson=nxt))
    else:
        lines.append("• " + t("learn.closing.all_done", loc))
    lines += [
        "• " + t("learn.closing.new", loc),
        "• " + t("learn.closing.rules", loc),
        "• " + t("learn.closing.help", loc),
    ]
    view = _components_view()
    if following is not None:
        label = t("learn.button.lesson", loc, lesson=t(f"learn.lesson.{following}", loc))
        view.add_item(LessonButton(following, label, discord.ButtonStyle.primary))
    label = t("learn.button.again", loc, lesson=t(f"learn.lesson.{name}", loc))
    view.add_item(LessonButton(name, label, discord.ButtonStyle.secondary))
    return "\n".join(lines), view


class LessonButton(_TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=LESSON_ID):
    """Play a lesson: ``durak:lesson:<name>``, for whoever clicks (in the lesson's thread
    only the learner can)."""

    names_game = False  # the id names a lesson

    def __init__(
        self,
        lesson: str = "first",
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else lesson
        super().__init__(
            discord.ui.Button(
                label=label[:BUTTON_LABEL], style=style, custom_id=f"durak:lesson:{self.rest}"
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        lesson = self.fields["lesson"]
        if lesson not in LESSONS:
            raise _Malformed
        await start_lesson(interaction, lesson)
