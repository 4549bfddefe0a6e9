"""``/durak puzzle``: today's puzzle as a private message, a button per legal move, and the
reveal of yesterday's solution.

The buttons carry the day and the step of the attempt (``durak:pz:<day>:<step>:<move>``,
the move an index into the legal moves of that step, which the position fixes), so a click
works after a restart and one from an older message or another day is answered with where
to find the current one; the player is the clicker, never a part of the id, so a copied id
moves only the clicker's own attempt. ``durak:pzsol:<day>`` shows a past day's solution.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
from typing import Any

import discord

from engine.actions import Action
from engine.ai.arena import next_to_move
from engine.cards import bits
from engine.game import Game

from ..cardart.labels import rank_labels
from ..discord_limits import ACTION_ROWS, BUTTON_LABEL, BUTTONS_PER_ROW
from ..game.puzzles import PuzzleState, puzzle_day_id
from ..i18n import t
from ..pictures.puzzle import PuzzleScene, render_puzzle_png
from ..rendering.common import preset_name, suit_text
from .answers import acknowledge, on_public_message, update_message
from .callbacks import think_privately
from .hand_labels import _move_emoji, _simple_label
from .interactions import _components_view, _service
from .language import reader_locale
from .typed_items import _TypedItem

__all__ = ["PUZZLE_IDS", "PuzzleMoveButton", "PuzzleSolutionButton", "open_puzzle"]

log = logging.getLogger(__name__)

PICTURE_NAME = "puzzle.png"
#: All rows but the last hold the moves (a puzzle has at most 20, engine/puzzles.py
#: ``MAX_MOVES``); the last row the reveal.
_MOVE_ROWS = ACTION_ROWS - 1

_DAY = r"(?P<day>[0-9]{8})"
PUZZLE_IDS = {
    "move": rf"durak:pz:{_DAY}:(?P<step>[0-9]+):(?P<move>[0-9]+)",
    "solution": rf"durak:pzsol:{_DAY}",
}


def move_text(g: Game, a: Action, locale: str) -> str:
    """A move in the words of the hand's buttons (``g``: the position it is made in)."""
    return _simple_label(a, g.observation(a.seat), locale)


def _header(state: PuzzleState, locale: str) -> str:
    p = state.puzzle
    return t(
        "puzzle.title",
        locale,
        number=p.number,
        mode=preset_name(p.mode, locale),
        grade=t(f"puzzle.grade.{p.grade}", locale),
    )


def _moves_text(state: PuzzleState, locale: str) -> str:
    """The moves since the player's last choice, each with who made it."""
    g = state.puzzle.game()
    shown: list[str] = []
    first = len(state.moves) - len(state.last)
    for i, a in enumerate(state.moves):
        if i >= first:
            who = "you" if a.seat == state.puzzle.seat else "opponent"
            shown.append(t(f"puzzle.who.{who}", locale, move=move_text(g, a, locale)))
        g.apply_unchecked(a)
    return "\n".join(shown)


def _description(state: PuzzleState, locale: str) -> str:
    p = state.puzzle
    lines: list[str] = []
    if state.last:
        lines.append(_moves_text(state, locale))
        lines.append("")
    if state.status == "solved":
        lines.append(t("puzzle.solved", locale))
    elif state.status == "failed":
        lines.append(t("puzzle.failed", locale))
    elif not state.moves:
        defending = p.game().defender == p.seat
        lines.append(t("puzzle.task.defend" if defending else "puzzle.task.attack", locale))
        lines.append(t("puzzle.task", locale))
    else:
        lines.append(t("puzzle.continue", locale))
    lines.append("")
    s = state.streak
    lines.append(t("puzzle.streak", locale, current=s.current, best=s.best, solved=s.solved))
    return "\n".join(lines)


def puzzle_scene(state: PuzzleState, locale: str) -> PuzzleScene:
    p, g = state.puzzle, state.game
    mine = p.seat
    banner = {"solved": "puzzle.banner.solved", "failed": "puzzle.banner.failed"}
    return PuzzleScene(
        title=_header(state, locale),
        subtitle=t("puzzle.subtitle", locale, trump=suit_text(g.trump, locale)),
        theirs_label=t("puzzle.theirs", locale),
        theirs=tuple(int(c) for c in bits(g.hands[1 - mine])),
        table_label=t("puzzle.table", locale),
        table=tuple((int(a), int(d)) for a, d in g.table),
        yours_label=t("puzzle.yours", locale),
        yours=tuple(int(c) for c in bits(g.hands[mine])),
        trump=g.trump,
        ranks=rank_labels(locale),
        banner=t(banner[state.status], locale) if state.status in banner else "",
    )


def puzzle_view(state: PuzzleState, locale: str) -> discord.ui.View:
    view = _components_view()
    day = puzzle_day_id(state.puzzle.day)
    obs = state.game.observation(state.puzzle.seat)
    for i, a in enumerate(state.choices[: _MOVE_ROWS * BUTTONS_PER_ROW]):
        button = PuzzleMoveButton(rest=f"{day}:{state.step}:{i}")
        button.item.label = _simple_label(a, obs, locale)[:BUTTON_LABEL]
        button.item.emoji = _move_emoji(a, obs, locale)
        button.item.row = i // BUTTONS_PER_ROW
        view.add_item(button)
    yesterday = puzzle_day_id(state.puzzle.day - dt.timedelta(days=1))
    reveal = PuzzleSolutionButton(rest=yesterday)
    reveal.item.label = t("puzzle.button.solution", locale)
    reveal.item.row = _MOVE_ROWS
    view.add_item(reveal)
    return view


async def puzzle_message(state: PuzzleState, locale: str) -> dict[str, Any]:
    """The fields of the puzzle's private message: embed, picture, buttons."""
    embed = discord.Embed(title=_header(state, locale), description=_description(state, locale))
    fields: dict[str, Any] = {"embed": embed, "view": puzzle_view(state, locale)}
    try:
        png = await asyncio.to_thread(render_puzzle_png, puzzle_scene(state, locale))
    except Exception:  # a picture is a bonus: the text and the buttons go out without it
        log.exception("could not draw the puzzle")
        png = None
    if png is not None:
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
        fields["attachments"] = [discord.File(io.BytesIO(png), filename=PICTURE_NAME)]
    else:
        fields["attachments"] = []
    return fields


async def open_puzzle(interaction: discord.Interaction) -> None:
    """Today's puzzle, privately. The first call of a day computes it (seconds of CPU in a
    worker thread), so the answer is "thinking…" first."""
    assert interaction.guild_id is not None
    await think_privately(interaction)
    locale = reader_locale(interaction)
    state = await _service(interaction).open_puzzle(interaction.guild_id, interaction.user.id)
    fields = await puzzle_message(state, locale)
    files = fields.pop("attachments")
    await interaction.followup.send(**fields, files=files, ephemeral=True)


class PuzzleMoveButton(
    _TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PUZZLE_IDS["move"]
):
    """One legal move of the puzzle: ``durak:pz:<day>:<step>:<move>``."""

    names_game = False

    def __init__(self, *, rest: str) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label="?", style=discord.ButtonStyle.secondary, custom_id=f"durak:pz:{rest}"
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        fields = self.fields
        locale = reader_locale(interaction)
        public = on_public_message(interaction)
        if public:  # a forged id on a message everyone sees: answer with a new private one
            await think_privately(interaction)
        elif not await acknowledge(interaction):
            return
        state = await _service(interaction).puzzle_move(
            interaction.guild_id,
            interaction.user.id,
            fields["day"],
            int(fields["step"]),
            int(fields["move"]),
        )
        message = await puzzle_message(state, locale)
        if public:
            files = message.pop("attachments")
            await interaction.followup.send(**message, files=files, ephemeral=True)
            return
        await update_message(interaction, **message)


class PuzzleSolutionButton(
    _TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PUZZLE_IDS["solution"]
):
    """A past day's solution, as a new private message: ``durak:pzsol:<day>``."""

    names_game = False

    def __init__(self, *, rest: str) -> None:
        self.rest = rest
        super().__init__(
            discord.ui.Button(
                label="?", style=discord.ButtonStyle.primary, custom_id=f"durak:pzsol:{rest}"
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        await think_privately(interaction)
        locale = reader_locale(interaction)
        p, line = await _service(interaction).puzzle_solution(self.fields["day"])
        g = p.game()
        steps: list[str] = []
        for a in line:
            _, acts = next_to_move(g)
            who = "you" if a.seat == p.seat else "opponent"
            text = t(f"puzzle.who.{who}", locale, move=move_text(g, a, locale))
            if a.seat == p.seat and len(acts) > 1:
                text = f"**{text}**"
            steps.append(f"{len(steps) + 1}. {text}")
            g.apply_unchecked(a)
        embed = discord.Embed(
            title=t("puzzle.solution.title", locale, number=p.number, day=p.day.isoformat()),
            description="\n".join(steps),
        )
        embed.set_footer(text=t("puzzle.solution.footer", locale))
        await interaction.followup.send(embed=embed, ephemeral=True)
