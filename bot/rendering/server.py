"""Server-wide embeds: rules of a preset, running games, leaderboard, a player's stats,
the forfeit list and the server settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from engine import PRESETS, RuleSet

from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE
from ..game.models import LOBBY_IDLE_MINUTES
from ..i18n import t, tn
from ..storage import Forfeit, GuildSettings, LeaderboardEntry, UserStats
from ..usertext import TEXT_CHARS, inert
from .common import COLOUR_LOBBY, preset_name


def _value_text(value: Any, locale: str) -> str:
    if value is None:
        return t("common.none", locale)
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", locale)
    return str(value)


def rules_embed(rules: RuleSet, title: str, locale: str) -> discord.Embed:
    """Every option with its value and what it means, in the reader's language.

    The engine's own option docs cite the rule texts for developers; players get the short
    translated labels (``option.<name>.*``), one per RuleSet option (a test checks that every
    option and every choice has them)."""
    embed = discord.Embed(title=title, colour=COLOUR_LOBBY)
    if rules.variant != "none":
        # the catalogue's own sentence, then how the bot reads it where the text is silent
        embed.description = t(
            "rules.variant_text",
            locale,
            name=t(f"preset.{rules.variant}.name", locale),
            rule=t(f"variant.{rules.variant}.rule", locale),
            reading=t(f"variant.{rules.variant}.reading", locale),
        )[:EMBED_DESCRIPTION]
    for name, _default, _doc, _source, choices in RuleSet.describe_options():
        raw = getattr(rules, name)
        if choices and isinstance(raw, str):
            value = t(f"option.{name}.value.{raw}", locale)
        else:
            value = _value_text(raw, locale)
        embed.add_field(
            name=t(f"option.{name}.label", locale),
            value=f"**{value}** — {t(f'option.{name}.doc', locale)}"[:EMBED_FIELD_VALUE],
            inline=False,
        )
    return embed


def _rate(value: float, locale: str) -> str:
    return t("common.percent", locale, value=value)


def leaderboard_embed(
    entries: Sequence[LeaderboardEntry],
    period: str,
    sort: str,
    page: int,
    pages: int,
    locale: str,
    *,
    min_games: int = 1,
) -> discord.Embed:
    """One page of the server's leaderboard (``page`` counts from 0)."""
    embed = discord.Embed(
        title=t(
            "leaderboard.title",
            locale,
            period=t(f"leaderboard.period.{period}", locale),
        ),
        colour=COLOUR_LOBBY,
    )
    if not entries:
        embed.description = t("leaderboard.empty", locale)
    else:
        embed.description = "\n".join(
            t(
                "leaderboard.row",
                locale,
                rank=e.rank,
                user=f"<@{e.user_id}>",
                games=e.games,
                fools=e.fools,
                rate=_rate(e.fool_rate, locale),
                forfeits=e.forfeits,
                wins=e.wins,
            )
            for e in entries
        )[:EMBED_DESCRIPTION]
    footer = [
        t(f"leaderboard.sort.{sort}", locale),
        t("common.page", locale, page=page + 1, pages=max(pages, 1)),
    ]
    if min_games > 1:
        footer.append(t("leaderboard.min_games", locale, count=min_games))
    embed.set_footer(text=" · ".join(footer))
    return embed


def stats_embed(stats: UserStats, name: str, locale: str) -> discord.Embed:
    name = inert(name)
    embed = discord.Embed(title=t("stats.title", locale, name=name), colour=COLOUR_LOBBY)
    if not stats.games:
        embed.description = t("stats.none", locale, name=name)
        return embed
    favourite = (
        preset_name(stats.favourite_preset, locale)
        if stats.favourite_preset in PRESETS
        else (stats.favourite_preset or t("common.none", locale))
    )
    for key, value in (
        ("stats.games", str(stats.games)),
        ("stats.fools", str(stats.fools)),
        ("stats.fool_rate", _rate(stats.fool_rate, locale)),
        ("stats.wins", str(stats.wins)),
        ("stats.draws", str(stats.draws)),
        ("stats.forfeits", str(stats.forfeits)),
        ("stats.favourite_preset", favourite),
        ("stats.longest_streak", tn("plural.games", stats.longest_fool_free_streak, locale)),
        ("stats.current_streak", tn("plural.games", stats.current_fool_free_streak, locale)),
    ):
        embed.add_field(name=t(key, locale), value=value, inline=True)
    if stats.last_played_at is not None:
        embed.add_field(
            name=t("stats.last_played", locale),
            value=f"<t:{int(stats.last_played_at)}:R>",
            inline=True,
        )
    embed.set_footer(text=t("stats.footer", locale))
    return embed


def forfeits_embed(items: Sequence[Forfeit], locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("forfeits.title", locale),
        description=t("forfeits.description", locale),
        colour=COLOUR_LOBBY,
    )
    if not items:
        embed.add_field(name="\u200b", value=t("forfeits.empty", locale), inline=False)
        return embed
    lines = [
        t("forfeits.line", locale, number=i, text=inert(f.text, limit=TEXT_CHARS))
        for i, f in enumerate(items, 1)
    ]
    # Field values are limited to 1024 characters: split the list over several fields.
    chunk: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
            embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
            chunk = []
        chunk.append(line)
    embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
    if items[0].is_default:
        embed.set_footer(text=t("forfeits.defaults_note", locale))
    return embed


def done_style(options: dict[str, Any]) -> str:
    """The server's house rule for saying "done" (an unknown stored value reads as the
    default, as :func:`bot.game.house_rules.auto_done_for` treats it)."""
    return "pagat" if options.get("done") == "pagat" else "online"


def settings_embed(settings: GuildSettings, locale: str) -> discord.Embed:
    """The house rules as an admin sees them (in the admin's own language)."""
    embed = discord.Embed(title=t("settings.title", locale), colour=COLOUR_LOBBY)
    language = t(f"settings.locale.{settings.locale}", locale)
    if not settings.locale_explicit:
        language = t("settings.locale.auto", locale)
    options = settings.default_options
    rules = [preset_name(settings.default_preset, locale)]
    if "seats" in options:
        rules.append(tn("plural.players", int(options["seats"]), locale))
    else:
        rules.append(t("settings.seats_largest", locale))
    rules.append(t("option.deck_size", locale, count=int(options.get("deck_size", 36))))
    if "throw_in" in options:
        rules.append(
            t(
                "option.throw_in",
                locale,
                value=t(f"cmd.choice.throw_in.{options['throw_in']}", locale),
            )
        )
    if "trump_exchange" in options:
        rules.append(
            t(
                "option.trump_exchange_mode",
                locale,
                value=t(f"cmd.choice.trump_exchange.{options['trump_exchange']}", locale),
            )
        )
    timer = (
        t("common.seconds", locale, seconds=settings.turn_timer_seconds)
        if settings.turn_timer_seconds
        else t("common.off", locale)
    )
    minutes = int(options.get("lobby_idle_minutes", LOBBY_IDLE_MINUTES))
    idle = t("common.minutes", locale, minutes=minutes) if minutes else t("common.off", locale)
    channels = (
        ", ".join(f"<#{c}>" for c in settings.allowed_channel_ids)
        if settings.allowed_channel_ids
        else t("settings.all_channels", locale)
    )
    for key, value in (
        ("settings.locale", language),
        ("settings.default_preset", "\n".join(rules)),
        ("settings.turn_timer", timer),
        ("settings.use_threads", t("common.yes" if settings.use_threads else "common.no", locale)),
        ("settings.done", t(f"settings.done.{done_style(options)}", locale)),
        ("settings.pictures", t("common.on" if settings.pictures else "common.off", locale)),
        (
            "settings.ranks",
            t(f"cmd.choice.ranks.{'local' if settings.local_ranks else 'latin'}", locale),
        ),
        ("settings.default_ai", t(f"difficulty.{settings.default_ai_difficulty}", locale)),
        ("settings.lobby_idle", idle),
        (
            "settings.spectator_delay",
            t("common.on" if settings.spectator_delay else "common.off", locale),
        ),
        (
            "settings.quick_computer",
            t("common.seconds", locale, seconds=settings.quick_computer_seconds)
            if settings.quick_computer_seconds
            else t("common.off", locale),
        ),
        ("settings.allowed_channels", channels),
    ):
        embed.add_field(name=t(key, locale), value=value, inline=False)
    return embed
