"""The public lobby and table messages' components: join/leave/start/cancel, computer
seats, and the table's "Show my hand" row."""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..discord_limits import SELECT_OPTION_TEXT, SELECT_OPTIONS
from ..game.models import AI_DIFFICULTIES, ForfeitOutcome, GameSession, LobbyInfo
from ..i18n import t
from ..rendering.result import leave_answer
from ..usertext import inert
from .activity_views import PlayAtTableButton
from .callbacks import respond
from .door import _Malformed
from .hand_items import ShowHandButton
from .interactions import (
    _can_manage,
    _components_view,
    _player,
    _service,
    reply_ephemeral,
)
from .language import reader_locale
from .router import chosen_values
from .spectators import WatchButton
from .typed_items import GAME, _TypedItem

log = logging.getLogger(__name__)


def lobby_view(info: LobbyInfo) -> discord.ui.View:
    view = _components_view()
    if info.status != "lobby":
        return view
    loc, gid = info.locale, info.game_id
    for op, key, style in (
        ("join", "lobby.button.join", discord.ButtonStyle.success),
        ("leave", "lobby.button.leave", discord.ButtonStyle.secondary),
        ("start", "lobby.button.start", discord.ButtonStyle.primary),
        ("cancel", "lobby.button.cancel", discord.ButtonStyle.danger),
    ):
        view.add_item(LobbyButton(gid, op, t(key, loc), style, row=0))
    view.add_item(
        LobbyButton(gid, "ai", t("lobby.button.add_ai", loc), discord.ButtonStyle.secondary, row=1)
    )
    view.add_item(
        LobbyButton(
            gid, "unai", t("lobby.button.remove_ai", loc), discord.ButtonStyle.secondary, row=1
        )
    )
    view.add_item(
        LobbyButton(
            gid,
            "open",
            t("lobby.button.make_open" if info.invite_only else "lobby.button.make_invite", loc),
            discord.ButtonStyle.secondary,
            row=1,
        )
    )
    view.add_item(LobbyAiSelect(gid, loc, info.ai_level))
    others = [s for s in info.humans if s.user_id != info.host_id]
    if others:
        view.add_item(LobbyHostSelect(gid, loc, [(s.user_id or 0, s.name) for s in others]))
    return view


#: The table's components by (game, language, over, Activity button): the same on every edit
#: of a running table, so one stopped view serves them all (discord.py only serialises it; a
#: stopped view is never stored). Bounded: the oldest tables' views are dropped and built
#: again if needed.
_TABLE_VIEWS: dict[tuple[int, str, bool, bool], discord.ui.View] = {}
TABLE_VIEWS_KEPT = 2048


def table_view(session: GameSession, *, activity: bool = False) -> discord.ui.View:
    """The running table's buttons; ``activity``: the bot serves the Activity, so "Play at
    the table" too."""
    key = (session.game_id, session.locale, session.finished, activity)
    view = _TABLE_VIEWS.get(key)
    if view is not None:
        return view
    view = _components_view()
    if not session.finished:
        view.add_item(ShowHandButton(session.game_id, t("table.button.show_hand", session.locale)))
        view.add_item(
            WatchButton(session.game_id, t("table.button.watch", session.locale), new_message=True)
        )
        if activity:
            label = t("activity.button.play", session.locale)
            view.add_item(PlayAtTableButton(session.game_id, label))
    if len(_TABLE_VIEWS) >= TABLE_VIEWS_KEPT:
        del _TABLE_VIEWS[next(iter(_TABLE_VIEWS))]
    _TABLE_VIEWS[key] = view
    return view


#: The custom id of each lobby item, by its kind (see bot/surfaces/dynamic_items.py).
LOBBY_IDS: dict[str, str] = {
    "lobby": rf"durak:lobby:{GAME}:(?P<op>join|ljoin|open|leave|start|cancel|ai|unai)",
    "lobbyai": rf"durak:lobbyai:{GAME}",
    "lobbyhost": rf"durak:lobbyhost:{GAME}",
    "leave": rf"durak:leave:{GAME}:(?P<op>yes|no)",
}


class LobbyButton(
    _TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_IDS["lobby"]
):
    def __init__(
        self,
        game_id: int | None = None,
        op: str = "",
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{op}"
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"durak:lobby:{self.rest}", row=row
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        fields = self.fields
        game_id, op = int(fields["game"]), fields["op"]
        service = _service(interaction)
        user = interaction.user.id
        if op == "join":
            await service.join(game_id, _player(interaction))
        elif op == "ljoin":  # Join in /durak games: a private list, so a private answer
            info = await service.join_listed(game_id, _player(interaction))
            link = f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"
            if info.message_id is not None:
                link += f"/{info.message_id}"
            await reply_ephemeral(
                interaction,
                t(
                    "tables.joined",
                    reader_locale(interaction, info.locale),
                    game_id=game_id,
                    link=link,
                ),
            )
            return
        elif op == "open":
            await service.set_invite_only(game_id, user, can_manage=_can_manage(interaction))
        elif op == "leave":
            await service.leave_lobby(game_id, user)
        elif op == "start":
            await service.start(game_id, user, can_manage=_can_manage(interaction))
        elif op == "cancel":
            await service.cancel(game_id, user, can_manage=_can_manage(interaction))
        elif op == "ai":
            await service.add_computer(game_id, user, can_manage=_can_manage(interaction))
        else:  # "unai", the last op the template takes
            await service.remove_computer(game_id, user, can_manage=_can_manage(interaction))
        # The public message is re-rendered by the publisher; just acknowledge the click.
        await respond(interaction, interaction.response.defer)


class LobbyAiSelect(
    _TypedItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=LOBBY_IDS["lobbyai"],
):
    def __init__(
        self,
        game_id: int | None = None,
        locale: str = "en",
        level: str | None = None,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else str(game_id)
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:lobbyai:{self.rest}",
                placeholder=t("lobby.select_difficulty", locale),
                options=[
                    discord.SelectOption(
                        label=t("lobby.level_option", locale, level=t(f"difficulty.{d}", locale)),
                        value=d,
                        default=d == level,
                    )
                    for d in AI_DIFFICULTIES
                ],
                row=2,
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        if len(values) != 1:
            raise _Malformed
        await _service(interaction).set_computer_level(
            int(self.fields["game"]),
            interaction.user.id,
            values[0],
            can_manage=_can_manage(interaction),
        )
        await respond(interaction, interaction.response.defer)


class LobbyHostSelect(
    _TypedItem,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=LOBBY_IDS["lobbyhost"],
):
    """The host hands the lobby to another seated human (shown once one has joined)."""

    def __init__(
        self,
        game_id: int | None = None,
        locale: str = "en",
        humans: list[tuple[int, str]] | None = None,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else str(game_id)
        options = [
            discord.SelectOption(
                label=inert(name, "plain", limit=SELECT_OPTION_TEXT, fallback=str(uid)),
                value=str(uid),
            )
            for uid, name in (humans or [])[:SELECT_OPTIONS]
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"durak:lobbyhost:{self.rest}",
                placeholder=t("lobby.select_host", locale),
                options=options,
                row=3,
            )
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        if len(values) != 1 or not values[0].isdigit():
            raise _Malformed
        await _service(interaction).hand_over(
            int(self.fields["game"]),
            interaction.user.id,
            int(values[0]),
            can_manage=_can_manage(interaction),
        )
        await respond(interaction, interaction.response.defer)


def leave_confirm_view(
    game_id: int, locale: str, outcome: ForfeitOutcome = "takeover"
) -> discord.ui.View:
    """The private question ``/durak leave`` asks in a running game: leaving by accident
    costs a forfeit, so it takes a second, deliberate click. Before anybody moved leaving
    costs nothing, and the button does not say "Forfeit"."""
    view = _components_view()
    label = "leave.button.leave" if outcome in ("void", "lesson") else "leave.button.confirm"
    view.add_item(LeaveConfirmButton(game_id, "yes", t(label, locale), discord.ButtonStyle.danger))
    view.add_item(
        LeaveConfirmButton(
            game_id, "no", t("leave.button.stay", locale), discord.ButtonStyle.secondary
        )
    )
    return view


class LeaveConfirmButton(
    _TypedItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_IDS["leave"]
):
    """Yes (forfeit and leave) or No (stay) under the leave question."""

    def __init__(
        self,
        game_id: int | None = None,
        op: str = "",
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{game_id}:{op}"
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"durak:leave:{self.rest}")
        )

    async def handle(self, interaction: discord.Interaction) -> None:
        fields = self.fields
        game_id, locale = int(fields["game"]), reader_locale(interaction)
        if fields["op"] == "no":
            text = t("leave.stayed", locale, game_id=game_id)
        else:
            effect = await _service(interaction).leave_game(game_id, interaction.user.id)
            text = leave_answer(effect, game_id, locale)
        await respond(
            interaction, lambda: interaction.response.edit_message(content=text, view=None)
        )
