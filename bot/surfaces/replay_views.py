"""The private replay viewer (``/durak replay``, the Replay button on a result message).

One ephemeral message per viewer: the table picture at the current step, a line saying what
happened, and buttons to go to the first, previous, next and last step, a select that jumps to
the start of each bout, a toggle that shows every hand face up (the game is over, so nothing
is secret any more) and the record as a file. The replay lives in the view (an ephemeral
message is the viewer's alone and dies with its 15-minute interaction token), so clicks need
no database; after a restart the buttons expire and ``/durak replay`` opens it again.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, SELECT_OPTIONS
from ..game.records import Replay, Step
from ..i18n import t
from ..pictures import render_png, table_scene
from ..rendering.common import COLOUR_OVER, cards_text, preset_name, seat_name
from ..rendering.table import event_line
from .door import _Guarded
from .interactions import _service
from .language import reader_locale

__all__ = [
    "RECORD_ITEMS",
    "RecordButton",
    "ReplayView",
    "open_replay",
    "record_buttons",
    "replay_page",
    "send_replay",
]

log = logging.getLogger(__name__)

PICTURE_NAME = "replay.png"
#: A replay's buttons work this long (an ephemeral message's token lasts 15 minutes).
VIEW_TIMEOUT = 14 * 60.0


def step_lines(replay: Replay, step: Step, locale: str) -> list[str]:
    """What happened at ``step``, in words (public information only)."""
    notes = [
        t(f"replay.note.{note}", locale, name=seat_name(replay.seats[s], locale))
        for note, s in step.notes
        if 0 <= s < len(replay.seats)
    ]
    if step.action is None:
        return [t("replay.deal", locale), *notes]
    session = replay.session_at(step.index, locale)
    lines = notes  # what happened before the move (a turn ran out, someone left)
    said = [line for ev in step.events if (line := event_line(ev, session, locale))]
    if not said and step.action.kind.value == "pass":
        said = [t("replay.pass", locale, name=seat_name(replay.seats[step.action.seat], locale))]
    return lines + said


def hands_lines(replay: Replay, step: Step, locale: str) -> list[str]:
    """Every hand face up at ``step`` (only ever shown for a game that is over)."""
    game = step.game
    return [
        t(
            "replay.hand_line",
            locale,
            name=seat_name(seat, locale),
            cards=cards_text(
                game.hand(seat.seat), game.trump, locale, local_ranks=replay.local_ranks
            )
            or t("replay.no_cards", locale),
        )
        for seat in replay.seats
    ]


def replay_page(
    replay: Replay, index: int, locale: str, *, hands: bool
) -> tuple[discord.Embed, bytes | None]:
    """The embed of step ``index`` and its picture (None if drawing failed: text only)."""
    step = replay.steps[index]
    embed = discord.Embed(
        title=t(
            "replay.title",
            locale,
            game_id=replay.game_id,
            preset=preset_name(replay.preset, locale),
        ),
        colour=COLOUR_OVER,
    )
    head = t("replay.step", locale, step=index, total=len(replay.steps) - 1)
    bout = sum(1 for b in replay.bouts if b <= index and b > 0)
    if bout:
        head += " · " + t("replay.bout", locale, bout=bout)
    embed.description = "\n".join([f"**{head}**", *step_lines(replay, step, locale)])[
        :EMBED_DESCRIPTION
    ]
    if hands:
        embed.add_field(
            name=t("replay.hands_title", locale),
            value="\n".join(hands_lines(replay, step, locale))[:EMBED_FIELD_VALUE],
            inline=False,
        )
    embed.set_footer(text=t("replay.footer", locale, game_id=replay.game_id))
    try:
        png: bytes | None = render_png(table_scene(replay.session_at(index, locale)))
    except Exception:
        log.warning("game %d: replay picture failed", replay.game_id, exc_info=True)
        png = None
    if png is not None:
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
    return embed, png


class ReplayView(discord.ui.View):
    """The viewer's buttons; only the person who opened the replay can press them (the
    message is ephemeral, so nobody else even sees them)."""

    def __init__(self, replay: Replay, locale: str, *, index: int | None = None) -> None:
        super().__init__(timeout=VIEW_TIMEOUT)
        self.replay = replay
        self.locale = locale
        self.index = 0 if index is None else index
        self.hands = False
        last = len(replay.steps) - 1
        for emoji, target, row in (
            ("⏮", "first", 0),
            ("◀", "back", 0),
            ("▶", "forward", 0),
            ("⏭", "last", 0),
        ):
            button: discord.ui.Button[ReplayView] = discord.ui.Button(
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                row=row,
                custom_id=f"replay:{target}",
            )
            button.callback = self._goto(target)  # type: ignore[method-assign]
            self.add_item(button)
        self.hands_button: discord.ui.Button[ReplayView] = discord.ui.Button(
            label=t("replay.button.hands", locale),
            style=discord.ButtonStyle.primary,
            row=0,
            custom_id="replay:hands",
        )
        self.hands_button.callback = self._toggle_hands  # type: ignore[method-assign]
        self.add_item(self.hands_button)
        bouts = replay.bouts[1:]
        if len(bouts) > SELECT_OPTIONS:  # keep the first bout and spread the rest evenly
            step = len(bouts) / SELECT_OPTIONS
            bouts = [bouts[int(i * step)] for i in range(SELECT_OPTIONS)]
        if bouts:
            select: discord.ui.Select[ReplayView] = discord.ui.Select(
                placeholder=t("replay.jump", locale),
                options=[
                    discord.SelectOption(
                        label=t("replay.bout_option", locale, bout=replay.bouts.index(b), step=b),
                        value=str(b),
                    )
                    for b in bouts
                ],
                row=1,
                custom_id="replay:jump",
            )
            select.callback = self._jump(select)  # type: ignore[method-assign]
            self.add_item(select)
        export: discord.ui.Button[ReplayView] = discord.ui.Button(
            label=t("replay.button.export", locale),
            style=discord.ButtonStyle.secondary,
            row=2,
            custom_id="replay:export",
        )
        export.callback = self._export  # type: ignore[method-assign]
        self.add_item(export)
        self._last = last

    def _goto(self, target: str) -> Any:
        async def callback(interaction: discord.Interaction) -> None:
            last = self._last
            self.index = {
                "first": 0,
                "back": max(0, self.index - 1),
                "forward": min(last, self.index + 1),
                "last": last,
            }[target]
            await self.show(interaction)

        return callback

    def _jump(self, select: discord.ui.Select[ReplayView]) -> Any:
        async def callback(interaction: discord.Interaction) -> None:
            value = select.values[0] if select.values else ""
            if value.isdigit() and 0 <= int(value) < len(self.replay.steps):
                self.index = int(value)
            await self.show(interaction)

        return callback

    async def _toggle_hands(self, interaction: discord.Interaction) -> None:
        self.hands = not self.hands
        self.hands_button.label = t(
            "replay.button.hide_hands" if self.hands else "replay.button.hands", self.locale
        )
        await self.show(interaction)

    async def _export(self, interaction: discord.Interaction) -> None:
        data = io.BytesIO(self.replay.text.encode("utf-8"))
        await interaction.response.send_message(
            t("replay.exported", self.locale, game_id=self.replay.game_id),
            file=discord.File(data, filename=f"durak-game-{self.replay.game_id}.txt"),
            ephemeral=True,
        )

    async def show(self, interaction: discord.Interaction) -> None:
        embed, png = await asyncio.to_thread(
            replay_page, self.replay, self.index, self.locale, hands=self.hands
        )
        files = [discord.File(io.BytesIO(png), filename=PICTURE_NAME)] if png else []
        await interaction.response.edit_message(embed=embed, view=self, attachments=files)


async def send_replay(interaction: discord.Interaction, replay: Replay, locale: str) -> None:
    """Open the viewer at the deal, as a private reply."""
    view = ReplayView(replay, locale)
    embed, png = await asyncio.to_thread(replay_page, replay, view.index, locale, hands=False)
    kwargs: dict[str, Any] = {"embed": embed, "view": view, "ephemeral": True}
    if png:
        kwargs["file"] = discord.File(io.BytesIO(png), filename=PICTURE_NAME)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def open_replay(interaction: discord.Interaction, game_id: int | None) -> None:
    """``/durak replay`` and the Replay button: check, rebuild and show (or refuse)."""
    assert interaction.guild_id is not None
    locale = reader_locale(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    replay = await _service(interaction).load_replay(
        interaction.guild_id, interaction.user.id, game_id
    )
    await send_replay(interaction, replay, locale)


class RecordButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"durak:rec:(?P<rest>.*)"
):
    """Replay / Review on a result message: ``durak:rec:<game>:<op>``, ``op`` ``replay`` or
    ``review``. The game id is all the state a click needs, so it works after a restart."""

    def __init__(
        self,
        game_id: int | None,
        op: str = "replay",
        label: str = "?",
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{op}"
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"durak:rec:{self.rest}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RecordButton:
        return cls(None, rest=match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in RECORD_OPS:
            await self.malformed(interaction)
            return
        game_id = int(parts[0])
        if parts[1] == "replay":
            await open_replay(interaction, game_id)
        else:
            from .review_views import open_review

            await open_review(interaction, game_id)


#: What a result message's record buttons do.
RECORD_OPS = ("replay", "review")


def record_buttons(game_id: int, locale: str) -> list[RecordButton]:
    """The result message's Replay and Review buttons."""
    return [RecordButton(game_id, op, t(f"replay.button.{op}", locale)) for op in RECORD_OPS]


def _record_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    from .hint_views import HintButton

    return (RecordButton, HintButton)


RECORD_ITEMS = _record_items()
