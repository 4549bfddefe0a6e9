"""Discord side of "Play again" (:mod:`bot.game.rematch`): the buttons and the rematch message.

Custom id: ``durak:again:<finished game>:<op>`` with ``op`` ``play`` (Play again / confirm my
seat) or ``no`` (decline). The same id works on the result announcement and on the rematch
message, and after a restart: the finished game's id is all the state a click needs, the
rest is in SQLite.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from ..discord_limits import EMBED_FIELD_VALUE, MESSAGE_CONTENT
from ..game import rematch
from ..game.models import GameSession, LobbyInfo, PlayerRef
from ..i18n import t
from ..rendering.common import COLOUR_LOBBY, COLOUR_OVER, preset_name, seat_name
from ..rendering.result import result_text, tally_text
from ..rendering.table import table_embed
from .callbacks import respond
from .door import _Guarded
from .interactions import _components_view, _service, reply_ephemeral
from .language import reader_locale
from .lobby_views import table_view
from .replay_views import record_buttons

__all__ = ["REMATCH_ITEMS", "again_view", "rematch_message", "result_announcement"]


log = logging.getLogger(__name__)


def result_announcement(
    session: GameSession, extra: Sequence[str] = ()
) -> tuple[str, discord.ui.View]:
    """Content and button of the message announcing a finished game: the verdict, the
    cards left in hand, the tally, ``extra`` lines (the rating changes and achievements),
    the game's number (for /durak replay and review) and hints used, and Play again. Whoever
    sends it (today the publisher) sends exactly this, so the words and the button live in
    one place. The extra lines are kept whole: the verdict's text gives way first when the
    message would be too long."""
    lines = [*extra, t("replay.result_line", session.locale, game_id=session.game_id)]
    if session.hints:
        lines.append(t("hint.result_line", session.locale, count=sum(session.hints.values())))
    tail = "".join("\n" + line for line in lines)[: MESSAGE_CONTENT // 2]
    text = result_text(session, session.locale)[: MESSAGE_CONTENT - len(tail)]
    return text + tail, again_view(session)


def again_view(session: GameSession) -> discord.ui.View:
    """The result announcement's button: only for a game that ended with a result and still
    has a human at the table to play again (a cancelled game has nothing to replay)."""
    view = _components_view()
    if session.status == "finished" and session.active_humans:
        view.add_item(
            RematchButton(
                session.game_id,
                "play",
                t("rematch.button.again", session.locale),
                discord.ButtonStyle.success,
            )
        )
    if session.status == "finished":  # a finished game has a record to replay and review
        for button in record_buttons(session.game_id, session.locale):
            view.add_item(button)
    return view


def rematch_message(
    info: LobbyInfo, waiting: tuple[int, ...]
) -> tuple[discord.Embed, discord.ui.View]:
    """The rematch lobby: who is in, who is still to confirm, who deals, the tally so far."""
    loc = info.locale
    series = info.series
    assert series is not None
    embed = discord.Embed(
        title=t("rematch.title", loc, deal=series.deal, preset=preset_name(info.preset, loc)),
        colour=COLOUR_LOBBY if info.status == "lobby" else COLOUR_OVER,
    )
    dealer = next((s for s in info.seats if s.seat == series.dealer), None)
    embed.description = t(
        "rematch.description",
        loc,
        previous=series.previous,
        dealer=seat_name(dealer, loc) if dealer is not None else "?",
    )
    lines = []
    for seat in info.seats:
        number = seat.seat + 1
        if seat.user_id is None:
            lines.append(
                t(
                    "rematch.seat_computer",
                    loc,
                    seat=number,
                    name=seat_name(seat, loc),
                    difficulty=t(f"difficulty.{seat.difficulty}", loc),
                )
            )
        else:
            key = "rematch.seat_waiting" if seat.user_id in waiting else "rematch.seat_ready"
            lines.append(t(key, loc, seat=number, name=f"<@{seat.user_id}>"))
    embed.add_field(name=t("rematch.seats", loc), value="\n".join(lines), inline=False)
    tally = tally_text(info, loc)
    if tally:
        embed.add_field(name=t("table.tally", loc), value=tally[:EMBED_FIELD_VALUE], inline=False)
    view = _components_view()
    if info.status == "lobby":
        if waiting:
            users = t("common.list_separator", loc).join(f"<@{u}>" for u in waiting)
            embed.add_field(
                name="\u200b", value=t("rematch.waiting_for", loc, users=users), inline=False
            )
        view.add_item(
            RematchButton(
                series.previous, "play", t("rematch.button.again", loc), discord.ButtonStyle.success
            )
        )
        view.add_item(
            RematchButton(
                series.previous,
                "no",
                t("rematch.button.decline", loc),
                discord.ButtonStyle.secondary,
            )
        )
    else:
        embed.add_field(name="\u200b", value=t("rematch.cancelled", loc), inline=False)
    embed.set_footer(text=t("table.footer", loc, game_id=info.game_id))
    return embed, view


def _mentions(users: tuple[int, ...], locale: str) -> str:
    return t("common.list_separator", locale).join(f"<@{u}>" for u in users)


class RematchButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:again:(?P<rest>.*)"
):
    def __init__(
        self,
        game_id: int | None,
        op: str = "play",
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.success,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{op}"
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"durak:again:{self.rest}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("play", "no"):
            await self.malformed(interaction)
            return
        previous, op = int(parts[0]), parts[1]
        service = _service(interaction)
        locale = reader_locale(interaction)
        if op == "no":
            await service.decline_rematch(previous, interaction.user.id)
            await reply_ephemeral(interaction, t("rematch.declined_you", locale))
            return
        outcome = await service.play_again(
            previous, PlayerRef(interaction.user.id, interaction.user.display_name)
        )
        if outcome.new_message:
            await self._post(interaction, outcome)
            return
        if outcome.kind == "started":
            text = t("rematch.started", locale)
        elif outcome.kind == "already":
            text = t("rematch.already_confirmed", locale, users=_mentions(outcome.waiting, locale))
        else:
            text = t("rematch.confirmed", locale, users=_mentions(outcome.waiting, locale))
        await reply_ephemeral(interaction, text)

    async def _post(self, interaction: discord.Interaction, outcome: rematch.Outcome) -> None:
        """The click opened the rematch: its public message (the rematch lobby, or the table
        at once when nobody else has to confirm) is this interaction's answer."""
        service = _service(interaction)
        try:
            if outcome.session is not None:
                embed = table_embed(outcome.session)
                view = table_view(outcome.session, activity=service.activity_button)
            else:
                info = await service.lobby(outcome.game_id)
                embed, view = rematch_message(info, outcome.waiting)
            await respond(
                interaction,
                lambda: interaction.response.send_message(
                    embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
                ),
            )
            message = await interaction.original_response()
        except Exception:
            # Without its message nobody could confirm: call the rematch off again.
            await service.cancel(outcome.game_id, interaction.user.id, can_manage=True)
            raise
        await service.attach_message(outcome.game_id, message.id)
        await service.publisher.refresh(outcome.game_id)


REMATCH_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RematchButton,)
