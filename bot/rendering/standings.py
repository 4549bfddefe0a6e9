"""What players read about ratings: the result line, the rating board, the profile, seasons.

Each view exists twice, as text (an embed: screen readers, servers with pictures off) and as
a picture scene (``bot/pictures/standings.py``), built here from the same data so the two
never disagree. Nothing here touches the database or Discord's network: the cog fetches,
this formats.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import discord

from engine import PRESETS

from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, EMBED_FOOTER
from ..i18n import t, tn
from ..pictures.fonts import drawable
from ..pictures.standings import BoardRow, BoardScene, ProfileScene
from ..ratings import PROVISIONAL_GAMES, Tier, tier_of
from ..ratings.achievements import ACHIEVEMENTS
from ..storage.rating_rows import BoardEntry, GameRating, Profile, Season
from ..usertext import Form, inert

__all__ = [
    "BOARD_ATTACHMENT",
    "PROFILE_ATTACHMENT",
    "achievement_name",
    "board_embed",
    "board_scene",
    "profile_embed",
    "profile_scene",
    "rating_text",
    "result_lines",
    "season_label",
    "tier_letter",
    "tier_name",
]

BOARD_ATTACHMENT = "leaderboard.png"
PROFILE_ATTACHMENT = "profile.png"
_COLOUR = discord.Colour.from_rgb(27, 94, 60)
_ACH_ORDER = {a.key: i for i, a in enumerate(ACHIEVEMENTS)}


def tier_name(tier: Tier, locale: str) -> str:
    return t(f"ratings.tier.{tier.key}", locale)


def tier_letter(tier: Tier, locale: str) -> str:
    """The tier's first letter in the reader's language (its badge)."""
    return tier_name(tier, locale)[:1].upper()


def rating_text(display: int, games: int, *, mark: bool = True) -> str:
    """``1432``, or ``1043?`` while provisional (fewer than PROVISIONAL_GAMES rated games)."""
    return f"{display}?" if mark and games < PROVISIONAL_GAMES else str(display)


def provisional_note(locale: str) -> str:
    """The footnote under every list that marks a rating with "?": the mark says nothing
    on its own."""
    games = tn("plural.rated_games", PROVISIONAL_GAMES, locale)
    return t("ratings.provisional_note", locale, games=games)


def achievement_name(key: str, locale: str) -> str:
    return t(f"ratings.ach.{key}.name", locale)


def _mode_name(mode: str, locale: str) -> str:
    if not mode:
        return t("ratings.board.all_modes", locale)
    return t(f"preset.{mode}.name", locale) if mode in PRESETS else mode


def _date(ts: float) -> str:
    """ISO dates: the same in both languages and unambiguous everywhere."""
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def season_label(
    season: Season, locale: str, form: Form = "markdown", *, dates: bool = True
) -> str:
    """``Season 2 “Winter” · since 2026-12-01`` (the name only when it says more; ``dates``
    False: ``Season 2 “Winter”``). The name is an admin's typed text, made :func:`inert` for
    ``form``: Markdown for a message, plain for a footer; for a picture plain too (its
    drawing cleans it, see :func:`bot.pictures.fonts.safe_text`), and left out when the
    font can draw none of it (emoji only)."""
    label = t("ratings.season.number", locale, number=season.number)
    named = season.name and season.name != str(season.number)
    if named and (form != "picture" or drawable(season.name)):
        shown: Form = "plain" if form == "picture" else form
        name = inert(season.name, shown, fallback=str(season.number))
        label = t("ratings.season.named", locale, label=label, name=name)
    if not dates:
        return label
    label += " · " + t("ratings.season.since", locale, date=_date(season.started_at))
    if season.ended_at is not None:
        label += " · " + t("ratings.season.until", locale, date=_date(season.ended_at))
    return label


# --------------------------------------------------------------------------- result message


def result_lines(rating: GameRating, mention: Callable[[int], str], locale: str) -> list[str]:
    """The result message's rating line (``@Anna +12 (1012)``) and, when the game earned
    any, one line of achievements. Computer levels are rated but not listed."""
    if not rating.rated:
        return []
    changes = [c for c in rating.changes if c.player_id > 0]
    lines = []
    if changes:
        items = " · ".join(
            t(
                "ratings.result.change",
                locale,
                user=mention(c.player_id),
                delta=f"{c.delta:+d}".replace("-", "−"),
                rating=rating_text(c.after, c.games),
            )
            for c in changes
        )
        lines.append(t("ratings.result.line", locale, items=items))
        if any(c.games < PROVISIONAL_GAMES for c in changes):
            lines.append(provisional_note(locale))
    if rating.achievements:
        # One entry per player, naming them once: "@alice: First deal, Not the fool".
        earned: dict[int, list[str]] = {}
        for pid, k in rating.achievements:
            earned.setdefault(pid, []).append(achievement_name(k, locale))
        sep = t("common.list_separator", locale)
        items = " · ".join(
            t("ratings.result.achievement", locale, user=mention(pid), name=sep.join(names))
            for pid, names in earned.items()
        )
        lines.append(t("ratings.result.achievements", locale, items=items))
    return lines


# --------------------------------------------------------------------------- board


def _filters(mode: str, period: str, min_games: int, locale: str) -> str:
    parts = [_mode_name(mode, locale)]
    if period != "all":
        parts.append(t(f"leaderboard.period.{period}", locale))
    if min_games > 1:
        parts.append(t("leaderboard.min_games", locale, count=min_games))
    return " · ".join(parts)


def _change(entry: BoardEntry, locale: str) -> str:
    if entry.rank_change is None:
        return t("ratings.board.new", locale)
    if entry.rank_change > 0:
        return f"▲{entry.rank_change}"
    if entry.rank_change < 0:
        return f"▼{-entry.rank_change}"
    return "="


def board_embed(
    season: Season | None,
    entries: Sequence[BoardEntry],
    page: int,
    pages: int,
    locale: str,
    *,
    mode: str = "",
    period: str = "all",
    min_games: int = 1,
    cross_server: bool = False,
) -> discord.Embed:
    """The rating board as text: rank, player, rating, tier, games, places moved since
    Monday (``▲2``), and in a period board the rating gained in it."""
    title_key = "ratings.board.title_cross" if cross_server else "ratings.board.title"
    embed = discord.Embed(title=t(title_key, locale), colour=_COLOUR)
    rows = []
    for e in entries:
        row = t(
            "ratings.board.row",
            locale,
            rank=e.rank,
            user=f"<@{e.player_id}>",
            rating=rating_text(e.display, e.games),
            tier=tier_name(e.tier, locale),
            games=tn("plural.games", e.games, locale),
            change=_change(e, locale),
        )
        if e.period_delta is not None:
            row += " " + t("ratings.board.gained", locale, delta=f"{e.period_delta:+d}")
        rows.append(row)
    embed.description = (
        "\n".join(rows)[:EMBED_DESCRIPTION]
        if rows
        else t("ratings.board.empty", locale, games=tn("plural.rated_games", min_games, locale))
    )
    head = [] if season is None or cross_server else [season_label(season, locale, "plain")]
    footer = " · ".join(
        [
            *head,
            _filters(mode, period, min_games, locale),
            t("common.page", locale, page=page + 1, pages=max(pages, 1)),
        ]
    )
    if any(e.games < PROVISIONAL_GAMES for e in entries):
        footer = provisional_note(locale) + "\n" + footer
    embed.set_footer(text=footer[:EMBED_FOOTER])
    return embed


def board_scene(
    season: Season | None,
    entries: Sequence[BoardEntry],
    locale: str,
    *,
    mode: str = "",
    period: str = "all",
    min_games: int = 1,
    cross_server: bool = False,
) -> BoardScene:
    title_key = "ratings.board.title_cross" if cross_server else "ratings.board.title"
    head = [] if season is None or cross_server else [season_label(season, locale, "picture")]
    rows = tuple(
        BoardRow(
            rank=e.rank,
            player_id=e.player_id,
            name=picture_name(e.name, e.player_id, locale),
            rating=rating_text(e.display, e.games),
            tier_letter=tier_letter(e.tier, locale),
            tier_name=tier_name(e.tier, locale),
            tier_colour=e.tier.colour,
            games=str(e.games),
            change=e.rank_change,
        )
        for e in entries
    )
    return BoardScene(
        title=t(title_key, locale),
        subtitle=" · ".join([*head, _filters(mode, period, min_games, locale)]),
        rows=rows,
        header_rating=t("ratings.board.header_rating", locale),
        header_games=t("ratings.board.header_games", locale),
        empty=t("ratings.board.empty", locale, games=tn("plural.rated_games", min_games, locale)),
        new_label=t("ratings.board.new", locale),
    )


# --------------------------------------------------------------------------- profile


def _percent(value: float, locale: str) -> str:
    return t("common.percent", locale, value=value)


def _stats(p: Profile, locale: str) -> list[tuple[str, str]]:
    favourite = _mode_name(p.favourite_mode, locale) if p.favourite_mode else "—"
    return [
        (t("ratings.profile.games", locale), str(p.games)),
        (t("ratings.profile.not_fool", locale), _percent(p.not_fool_rate, locale)),
        (t("ratings.profile.fool", locale), _percent(p.fool_rate, locale)),
        (t("ratings.profile.forfeits", locale), str(p.forfeits)),
        (t("ratings.profile.streak_now", locale), str(p.current_streak)),
        (t("ratings.profile.streak_best", locale), str(p.best_streak)),
        (t("ratings.profile.favourite", locale), favourite),
        (t("ratings.profile.draws", locale), str(p.draws)),
    ]


def _subtitle(p: Profile, total: int, locale: str, form: Form = "markdown") -> str:
    parts = []
    if p.rank is not None:
        parts.append(t("ratings.profile.rank", locale, rank=p.rank, total=total))
    elif p.display is not None:
        parts.append(t("ratings.profile.unranked", locale))
    if p.season is not None:
        parts.append(season_label(p.season, locale, form, dates=False))
    if p.best_display is not None:
        parts.append(t("ratings.profile.best", locale, rating=p.best_display))
    return " · ".join(parts)


def _rivals(p: Profile, locale: str, form: Form = "markdown") -> list[tuple[str, str]]:
    """The rival's name is another player's display name: inert in a field (``form``), or
    as typed for the card, whose drawing makes it safe (a blank one is "Player 1234")."""
    out = []
    for key, rivals in (
        ("ratings.profile.beats", p.beats),
        ("ratings.profile.loses_to", p.loses_to),
    ):
        if rivals:
            pid, name, n = rivals[0]
            shown = (
                picture_name(name, pid, locale)
                if form == "picture"
                else inert(name, form, fallback=_placeholder(pid, locale))
            )
            out.append((t(key, locale), f"{shown} ×{n}"))
    return out


def _placeholder(player_id: int, locale: str) -> str:
    return t("picture.player_placeholder", locale, tag=str(player_id)[-4:])


def picture_name(name: str, player_id: int, locale: str) -> str:
    """A player's name for a picture: as typed (the drawing cleans it), or "Player 1234"
    (the id's last digits) when the font can draw none of it (an emoji-only name would be
    empty boxes)."""
    return name if drawable(name, bold=True) else _placeholder(player_id, locale)


def profile_embed(p: Profile, total: int, locale: str) -> discord.Embed:
    """The profile as text: the same figures as the card, in the same order."""
    name = inert(p.name, fallback=_placeholder(p.user_id, locale))
    embed = discord.Embed(title=t("ratings.profile.title", locale, name=name), colour=_COLOUR)
    if p.display is None:
        embed.description = t("ratings.profile.unrated", locale)
    else:
        tier = tier_of(p.display)
        provisional = (
            " " + t("ratings.profile.provisional", locale, count=PROVISIONAL_GAMES)
            if p.provisional
            else ""
        )
        embed.description = (
            t("ratings.profile.rating", locale, rating=p.display, tier=tier_name(tier, locale))
            + provisional
            + "\n"
            + _subtitle(p, total, locale)
        )
        if len(p.history) >= 2:
            embed.description += "\n" + t(
                "ratings.profile.trend",
                locale,
                count=len(p.history),
                first=p.history[0],
                last=p.history[-1],
            )
    for label, value in _stats(p, locale):
        embed.add_field(name=label, value=value, inline=True)
    if p.by_mode:
        embed.add_field(
            name=t("ratings.profile.by_mode", locale),
            value="\n".join(f"{_mode_name(m, locale)}: {n}" for m, n in p.by_mode[:5]),
            inline=False,
        )
    for label, value in _rivals(p, locale):
        embed.add_field(name=label, value=value, inline=True)
    names = [achievement_name(k, locale) for k, _ in p.achievements]
    embed.add_field(
        name=t(
            "ratings.profile.achievements",
            locale,
            count=len(p.achievements),
            total=len(ACHIEVEMENTS),
        ),
        value=(
            t("common.list_separator", locale).join(names)
            or t("ratings.profile.no_achievements", locale)
        )[:EMBED_FIELD_VALUE],
        inline=False,
    )
    return embed


def profile_scene(p: Profile, total: int, locale: str) -> ProfileScene:
    display = p.display if p.display is not None else 1000
    tier = tier_of(display)
    return ProfileScene(
        player_id=p.user_id,
        name=picture_name(p.name, p.user_id, locale),
        rating=rating_text(display, p.rated_games) if p.display is not None else "—",
        tier_letter=tier_letter(tier, locale),
        tier_name=tier_name(tier, locale),
        tier_colour=tier.colour,
        subtitle=_subtitle(p, total, locale, "picture"),
        history=tuple(p.history),
        history_label=t("ratings.profile.history", locale, count=len(p.history)),
        stats=tuple(_stats(p, locale)),
        modes=tuple((_mode_name(m, locale), n) for m, n in p.by_mode[:4]),
        modes_label=t("ratings.profile.by_mode", locale),
        rivals=tuple(_rivals(p, locale, "picture")),
        achievements=tuple((k, achievement_name(k, locale)) for k, _ in p.achievements[:6]),
        achievements_label=t(
            "ratings.profile.achievements",
            locale,
            count=len(p.achievements),
            total=len(ACHIEVEMENTS),
        ),
        no_achievements=t("ratings.profile.no_achievements", locale),
    )
