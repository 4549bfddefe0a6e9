"""Texts and the picture scene of a tournament: the announcement, the private standings,
the round and final messages. Names players chose are shown as inert text (never markup)."""

from __future__ import annotations

import discord

from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE
from ..game.tournaments import TournamentView
from ..i18n import t
from ..pictures.tournament import PairingRow, StandingRow, TournamentScene
from ..tournaments import Standing, Table
from ..tournaments import standings as rank
from ..usertext import inert
from .common import COLOUR_LOBBY, COLOUR_OVER, preset_name

__all__ = [
    "announcement_embed",
    "final_content",
    "points_text",
    "round_content",
    "standings_embed",
    "table_content",
    "tournament_scene",
]

COLOUR_RUNNING = discord.Colour(0xF5C542)


def points_text(value: float) -> str:
    """1, 1½, ⅔: the points a player reads (thirds come from four-player tables)."""
    whole = int(value + 1e-9)
    rest = value - whole
    for frac, sign in ((0.5, "½"), (1 / 3, "⅓"), (2 / 3, "⅔"), (0.25, "¼"), (0.75, "¾")):
        if abs(rest - frac) < 1e-6:
            return f"{whole}{sign}" if whole else sign
    if abs(rest) < 1e-6:
        return str(whole)
    return f"{value:.2f}"


def _format(view: TournamentView, locale: str) -> str:
    row = view.row
    if row.format == "elimination":
        return t("tournament.format.elimination", locale)
    return t("tournament.format.swiss", locale, rounds=row.rounds)


def _subtitle(view: TournamentView, locale: str) -> str:
    return " · ".join(
        (
            preset_name(view.row.preset, locale),
            _format(view, locale),
            t("tournament.tables", locale, seats=view.row.seats),
        )
    )


def announcement_embed(view: TournamentView, locale: str) -> discord.Embed:
    """The public announcement: what, when, who signed up, and where it stands."""
    row = view.row
    colour = {"signup": COLOUR_LOBBY, "running": COLOUR_RUNNING}.get(row.status, COLOUR_OVER)
    embed = discord.Embed(
        title=t("tournament.title", locale, id=row.id),
        description=_subtitle(view, locale),
        colour=colour,
    )
    if row.status == "signup":
        status = t("tournament.signup_until", locale, when=f"<t:{int(row.starts_at)}:R>")
    elif row.status == "running":
        status = t("tournament.status.running", locale, round=row.round, rounds=row.rounds)
    elif row.status == "finished":
        status = t(
            "tournament.status.finished",
            locale,
            winner=inert(view.name(row.winner_id)) if row.winner_id is not None else "—",
        )
    else:
        status = t("tournament.status.cancelled", locale)
    embed.add_field(name="\u200b", value=status, inline=False)
    names = [inert(e.name) + (" ✗" if e.dropped else "") for e in view.entrants]
    players = ", ".join(names) if names else t("tournament.nobody", locale)
    embed.add_field(
        name=t("tournament.players", locale, count=len(view.entrants)),
        value=players[:EMBED_FIELD_VALUE],
        inline=False,
    )
    embed.set_footer(text=t("tournament.footer", locale, id=row.id))
    return embed


def _line(s: Standing, locale: str) -> str:
    return t(
        "tournament.show.line",
        locale,
        rank=s.rank,
        name=inert(s.entrant.name) + (" ✗" if s.entrant.dropped else ""),
        score=points_text(s.score),
        buchholz=points_text(s.buchholz),
        sb=points_text(s.sonneborn),
    )


def _table_line(view: TournamentView, table: Table, locale: str) -> str:
    names = " — ".join(inert(view.name(p)) for p in table.players)
    if table.bye:
        return t("tournament.show.bye", locale, name=names)
    result = ""
    if table.points is not None:
        result = " (" + " : ".join(points_text(table.points.get(p, 0)) for p in table.players) + ")"
    return t("tournament.show.table", locale, number=table.number, players=names) + result


def standings_embed(view: TournamentView, locale: str) -> discord.Embed:
    """``/durak tournament show``: the standings and the current round, privately."""
    embed = announcement_embed(view, locale)
    embed.clear_fields()
    lines = [_line(s, locale) for s in view.standings] or [t("tournament.nobody", locale)]
    embed.add_field(
        name=t("tournament.picture.standings", locale),
        value="\n".join(lines)[:EMBED_FIELD_VALUE],
        inline=False,
    )
    current = view.round_tables(view.row.round)
    if current:
        embed.add_field(
            name=t("tournament.picture.pairings", locale, round=view.row.round),
            value="\n".join(_table_line(view, tb, locale) for tb in current)[:EMBED_FIELD_VALUE],
            inline=False,
        )
    embed.description = (embed.description or "")[:EMBED_DESCRIPTION]
    return embed


def tournament_scene(view: TournamentView, locale: str, number: int | None) -> TournamentScene:
    """The round picture (``number``: standings before it and its tables) or, with None,
    the final standings."""
    row = view.row
    before = [t_ for t_ in view.tables if number is None or t_.round < number]
    ordered = rank(view.entrants, before)
    title = (
        t("tournament.picture.final", locale, id=row.id)
        if number is None
        else t("tournament.picture.round", locale, id=row.id, round=number, rounds=row.rounds)
    )
    pairings: list[PairingRow] = []
    if number is not None:
        for table in view.round_tables(number):
            label = (
                t("tournament.picture.bye", locale)
                if table.bye
                else t("tournament.picture.table", locale, number=table.number)
            )
            pairings.append(PairingRow(label, tuple((p, view.name(p)) for p in table.players)))
    return TournamentScene(
        title=title,
        subtitle=_subtitle(view, locale),
        standings_title=t("tournament.picture.standings", locale),
        header=(
            t("tournament.picture.score", locale),
            t("tournament.picture.buchholz", locale),
            t("tournament.picture.sonneborn", locale),
        ),
        rows=tuple(
            StandingRow(
                s.rank,
                s.user_id,
                s.entrant.name,
                points_text(s.score),
                points_text(s.buchholz),
                points_text(s.sonneborn),
                s.entrant.dropped,
            )
            for s in ordered
        ),
        pairings_title=t("tournament.picture.pairings", locale, round=number or 0),
        pairings=tuple(pairings),
    )


def round_content(view: TournamentView, number: int, locale: str) -> str:
    return t(
        "tournament.round_message", locale, id=view.row.id, round=number, rounds=view.row.rounds
    )


def final_content(view: TournamentView, locale: str) -> str:
    winner = view.row.winner_id
    return t(
        "tournament.final_message",
        locale,
        id=view.row.id,
        winner=f"<@{winner}>" if winner is not None else "—",
    )


def table_content(view: TournamentView, game_id: int, locale: str) -> str:
    table = next(tb for tb in view.tables if tb.game_id == game_id)
    return t(
        "tournament.table_message",
        locale,
        id=view.row.id,
        round=table.round,
        table=table.number,
        players=", ".join(f"<@{p}>" for p in table.players),
    )
