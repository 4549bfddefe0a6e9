"""The private replay viewer (``/durak replay``, the Replay button on a result message).

One ephemeral message per viewer: the table picture at the current step, a line saying what
happened, and buttons to go to the first, previous, next and last step, a select that jumps to
the start of each bout, a toggle that shows every hand face up (the game is over, so nothing
is secret any more: in the text and in the picture, a row of face-up cards per hand under the
table) and the record as a file. Nothing of an open replay is kept in memory:
its buttons carry the game, the step and the hands toggle, and a click rebuilds the step from
the stored record, so a replay keeps working after a restart and after its message's token
has expired.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from ..cardart.labels import rank_labels
from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, SELECT_OPTIONS
from ..game.records import Replay, Step
from ..i18n import t
from ..pictures import render_png, table_scene
from ..pictures.hands import HandRow, render_with_hands
from ..rendering.common import COLOUR_OVER, cards_text, preset_name, seat_name
from ..rendering.table import event_line
from .answers import acknowledge, on_public_message, update_message
from .callbacks import think_privately
from .door import _Guarded
from .interactions import _components_view, _service
from .language import reader_locale
from .router import chosen_values

__all__ = [
    "RECORD_ITEMS",
    "RecordButton",
    "ReplayButton",
    "ReplayJump",
    "open_replay",
    "record_buttons",
    "replay_page",
    "replay_view",
    "send_replay",
]

log = logging.getLogger(__name__)

PICTURE_NAME = "replay.png"


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
        png: bytes | None = replay_picture(replay, index, locale, hands=hands)
    except Exception:
        log.warning("game %d: replay picture failed", replay.game_id, exc_info=True)
        png = None
    if png is not None:
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
    return embed, png


def replay_picture(replay: Replay, index: int, locale: str, *, hands: bool) -> bytes:
    """The table at step ``index``; with ``hands``, every hand face up under it (a game
    that is over, shown to one reader: :class:`_ReplayItem` loads it through the service,
    which refuses a game still being played)."""
    scene = table_scene(replay.session_at(index, locale))
    if not hands:
        return render_png(scene)
    game = replay.steps[index].game
    trumps = game.public_observation().trumps
    ranks = rank_labels(locale, local_ranks=replay.local_ranks)
    rows = tuple(
        HandRow(
            label=seat.name,
            cards=tuple(int(c) for c in game.hand(s)),
            ranks=ranks,
            trump=trumps[s] if s < len(trumps) else game.trump,
            empty=t("picture.hands.none", locale),
        )
        for s, seat in enumerate(scene.seats)
    )
    return render_with_hands(scene, rows)


#: The step buttons' moves, by the op in their id.
_STEPS = ("first", "back", "next", "last")
_STEP_EMOJI = {"first": "⏮", "back": "◀", "next": "▶", "last": "⏭"}


def replay_view(replay: Replay, locale: str, index: int, *, hands: bool) -> discord.ui.View:
    """The viewer's buttons at step ``index``. Each is a persistent item whose id carries the
    game, the step shown and whether the hands are face up, so a click rebuilds the replay
    from the stored record: it works after a restart and after any time, on any message."""
    view = _components_view()
    state = f"{replay.game_id}:{index}:{int(hands)}"
    for op in _STEPS:
        view.add_item(ReplayButton(f"{state}:{op}", emoji=_STEP_EMOJI[op], row=0))
    label = t("replay.button.hide_hands" if hands else "replay.button.hands", locale)
    view.add_item(
        ReplayButton(f"{state}:hands", label=label, style=discord.ButtonStyle.primary, row=0)
    )
    bouts = replay.bouts[1:]
    if len(bouts) > SELECT_OPTIONS:  # keep the first bout and spread the rest evenly
        step = len(bouts) / SELECT_OPTIONS
        bouts = [bouts[int(i * step)] for i in range(SELECT_OPTIONS)]
    if bouts:
        options = [
            discord.SelectOption(
                label=t("replay.bout_option", locale, bout=replay.bouts.index(b), step=b),
                value=str(b),
            )
            for b in bouts
        ]
        view.add_item(ReplayJump(f"{replay.game_id}:{int(hands)}", locale, options))
    view.add_item(ReplayButton(f"{state}:export", label=t("replay.button.export", locale), row=2))
    return view


async def _replay_files(
    replay: Replay, index: int, locale: str, hands: bool
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    embed, png = await asyncio.to_thread(replay_page, replay, index, locale, hands=hands)
    files = [discord.File(io.BytesIO(png), filename=PICTURE_NAME)] if png else []
    return embed, replay_view(replay, locale, index, hands=hands), files


async def send_replay(
    interaction: discord.Interaction,
    replay: Replay,
    locale: str,
    *,
    index: int = 0,
    hands: bool = False,
) -> None:
    """Open the viewer (at the deal), as a private reply."""
    embed, view, files = await _replay_files(replay, index, locale, hands)
    kwargs: dict[str, Any] = {"embed": embed, "view": view, "ephemeral": True, "files": files}
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


class _ReplayItem(_Guarded):
    """A control of the replay viewer: ``durak:replay:<game>:<step>:<hands>:<op>`` (a
    button) or ``durak:replayjump:<game>:<hands>`` (the bout select, values are steps).

    Nothing of the replay is kept in memory: a click loads the finished game's record again
    (:meth:`GameService.load_replay`, which also decides who may see it) and draws the step
    asked for. Under Discord's 3 seconds it first acknowledges, then edits its message; a
    record that is gone (or a game the clicker may not replay) is answered privately with
    the reason, which names ``/durak replay``. On a public message (a forged id) the replay
    is sent as a new private message instead of editing that message."""

    async def show(
        self, interaction: discord.Interaction, game_id: int, step: int | str, hands: bool
    ) -> None:
        assert interaction.guild_id is not None
        locale = reader_locale(interaction)
        public = on_public_message(interaction)
        export = isinstance(step, str)
        if public or export:  # a new private message: the replay there, or the file
            await think_privately(interaction)
        elif not await acknowledge(interaction):
            return
        replay = await _service(interaction).load_replay(
            interaction.guild_id, interaction.user.id, game_id
        )
        if isinstance(step, str):
            await self.export(interaction, replay, locale)
            return
        index = min(max(step, 0), len(replay.steps) - 1)
        if public:
            await send_replay(interaction, replay, locale, index=index, hands=hands)
            return
        embed, view, files = await _replay_files(replay, index, locale, hands)
        await update_message(interaction, embed=embed, view=view, attachments=files)

    async def export(self, interaction: discord.Interaction, replay: Replay, locale: str) -> None:
        data = io.BytesIO(replay.text.encode("utf-8"))
        await interaction.followup.send(
            t("replay.exported", locale, game_id=replay.game_id),
            file=discord.File(data, filename=f"durak-game-{replay.game_id}.txt"),
            ephemeral=True,
        )


class ReplayButton(
    _ReplayItem,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"durak:replay:(?P<rest>.*)",
):
    """A step button (first, back, next, last), the hands toggle or the export."""

    def __init__(
        self,
        rest: str,
        *,
        label: str | None = None,
        emoji: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label=label, emoji=emoji, style=style, row=row, custom_id=f"durak:replay:{rest}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        if (
            len(parts) != 4
            or not parts[0].isdigit()
            or not parts[1].isdigit()
            or parts[2] not in ("0", "1")
            or parts[3] not in (*_STEPS, "hands", "export")
        ):
            await self.malformed(interaction)
            return
        game_id, index, hands, op = int(parts[0]), int(parts[1]), parts[2] == "1", parts[3]
        if op == "export":
            await self.show(interaction, game_id, op, hands)
            return
        if op == "hands":
            hands = not hands
        # "last" goes past the end; show() stops at the last step of the record
        target = {"first": 0, "back": index - 1, "next": index + 1, "last": 1 << 30}
        await self.show(interaction, game_id, target.get(op, index), hands)


class ReplayJump(
    _ReplayItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"durak:replayjump:(?P<rest>.*)",
):
    """The bout select: jumps to the step its option names."""

    def __init__(
        self,
        rest: str,
        locale: str = "en",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Select(
                placeholder=t("replay.jump", locale),
                options=options or [discord.SelectOption(label="-", value="0")],
                row=1,
                custom_id=f"durak:replayjump:{rest}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayJump:
        return cls(match["rest"])

    async def handle(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        values = chosen_values(interaction)
        if (
            len(parts) != 2
            or not parts[0].isdigit()
            or parts[1] not in ("0", "1")
            or len(values) != 1
            or not values[0].isdigit()
        ):
            await self.malformed(interaction)
            return
        await self.show(interaction, int(parts[0]), int(values[0]), parts[1] == "1")


async def open_replay(interaction: discord.Interaction, game_id: int | None) -> None:
    """``/durak replay`` and the Replay button: check, rebuild and show (or refuse)."""
    assert interaction.guild_id is not None
    locale = reader_locale(interaction)
    if not interaction.response.is_done():
        await think_privately(interaction)
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

    return (RecordButton, HintButton, ReplayButton, ReplayJump)


RECORD_ITEMS = _record_items()
