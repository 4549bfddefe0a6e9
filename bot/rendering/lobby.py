"""The lobby embed: who sits, which rules, what the host can still change."""

from __future__ import annotations

import discord

from engine import PRESETS

from ..game import modes
from ..game.models import LobbyInfo
from ..i18n import t
from .common import COLOUR_LOBBY, COLOUR_OVER, deck_text, seat_name


def lobby_teams(info: LobbyInfo) -> bool:
    """Whether the lobby's game is played in partnerships (seats 1, 3, … against 2, 4, …)."""
    try:
        return info.rules().teams != "none"
    except Exception:  # rules that do not fit the seats yet: no teams to show
        return False


def lobby_embed(info: LobbyInfo) -> discord.Embed:
    loc = info.locale
    embed = discord.Embed(
        title=t(
            "lobby.title",
            loc,
            preset=modes.mode_name(info.preset, modes.variant_of(info.preset, info.overrides), loc),
        ),
        description=t("lobby.description", loc, host=f"<@{info.host_id}>"),
        colour=COLOUR_LOBBY if info.status == "lobby" else COLOUR_OVER,
    )
    if info.host_left is not None and info.host_left[1] == info.host_id and info.status == "lobby":
        embed.description = (
            (embed.description or "")
            + "\n"
            + t("lobby.host_passed", loc, left=f"<@{info.host_left[0]}>", host=f"<@{info.host_id}>")
        )
    lines = []
    teams = lobby_teams(info)
    for number, seat in enumerate(info.seats, start=1):
        if seat.user_id is None:
            lines.append(
                t(
                    "lobby.ai_line",
                    loc,
                    seat=number,
                    name=seat_name(seat, loc),
                    difficulty=t(f"difficulty.{seat.difficulty}", loc),
                )
            )
        else:
            name = f"<@{seat.user_id}>"
            if seat.user_id == info.host_id:
                name = t("lobby.host_marker", loc, name=name)
            lines.append(t("lobby.player_line", loc, seat=number, name=name))
        if teams:  # partners are known from the seat: tell them before the game starts
            lines[-1] = t("table.team_marker", loc, name=lines[-1], team=seat.seat % 2 + 1)
    embed.add_field(
        name=t("lobby.players", loc, count=len(info.seats), max=info.max_seats),
        value="\n".join(lines) or t("lobby.no_players", loc),
        inline=False,
    )
    preset = PRESETS.get(info.preset)
    auto_done = bool(info.overrides.get("auto_done", preset.auto_done if preset else False))
    embed.add_field(
        name=t("lobby.options", loc),
        value=t(f"preset.{info.preset}.description", loc)
        + "\n"
        + deck_text(info, loc)
        + "\n"
        + t("lobby.auto_done.on" if auto_done else "lobby.auto_done.off", loc)
        + "\n"
        + t("lobby.invite_only.on" if info.invite_only else "lobby.invite_only.off", loc),
        inline=False,
    )
    if info.status == "cancelled":
        key = "lobby.expired" if info.closed == "expired" else "lobby.cancelled"
        embed.add_field(name="\u200b", value=t(key, loc), inline=False)
    elif info.status == "lobby":
        start = t("lobby.start_hint", loc, min=2)
        if info.expires_at is not None:
            start += "\n" + t("lobby.expires", loc, when=f"<t:{int(info.expires_at)}:R>")
        embed.add_field(name="\u200b", value=start, inline=False)
    embed.set_footer(text=t("table.footer", loc, game_id=info.game_id))
    return embed
