"""``/durak`` slash commands. Thin on purpose: map the interaction to one service call and send
what :mod:`bot.rendering` returns; every rule and every refusal lives in the service."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.game import modes
from bot.game.errors import ServiceError
from bot.game.models import (
    AI_DIFFICULTIES,
    TURN_TIMER_MAX_SECONDS,
    TURN_TIMER_MIN_SECONDS,
    GameSession,
    PlayerRef,
)
from bot.game.rules import DONE_STYLES, auto_done_for
from bot.game.service import GameService
from bot.i18n import ls, normalize_locale, pick_locale, t
from bot.rendering.common import preset_name, seat_name
from bot.rendering.lobby import lobby_embed
from bot.rendering.server import (
    forfeits_embed,
    games_embed,
    rules_embed,
    settings_embed,
    stats_embed,
)
from bot.surfaces.hand_views import send_hand
from bot.surfaces.interactions import error_text
from bot.surfaces.leaderboard_views import leaderboard_message
from bot.surfaces.lobby_views import lobby_view
from bot.surfaces.publisher import DiscordPublisher
from engine import PRESETS, RuleSet

log = logging.getLogger(__name__)

DEFAULT_PRESET = "podkidnoy"
#: Turn timer bounds (besides 0 = off); the service enforces them (bot/game/core.py).
TIMER_MIN_SECONDS = TURN_TIMER_MIN_SECONDS
TIMER_MAX_SECONDS = TURN_TIMER_MAX_SECONDS
THROW_IN_CHOICES = ("all", "neighbours", "attacker", "none")
TRUMP_EXCHANGE_CHOICES = ("off", "lowest", "lowest_for_ace")


def _choices(prefix: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=ls(f"{prefix}.{v}"), value=v) for v in values]


def _service(interaction: discord.Interaction) -> GameService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the client has no game service")
    return service


def _locale(interaction: discord.Interaction) -> str:
    return pick_locale(interaction.locale, interaction.guild_locale)


def _discord_guild_locale(interaction: discord.Interaction) -> str | None:
    """The server's Discord language, for public messages until the guild picks one."""
    return normalize_locale(interaction.guild_locale) if interaction.guild_locale else None


async def _lobby_message(interaction: discord.Interaction, info: Any) -> dict[str, Any]:
    """The lobby's embed and buttons, with its picture when the guild wants pictures."""
    embed = lobby_embed(info)
    files: list[discord.File] = []
    publisher = getattr(interaction.client, "publisher", None)
    if isinstance(publisher, DiscordPublisher):
        allowed = interaction.app_permissions.attach_files
        files = await publisher.pictures.attach(info, embed, allowed=allowed)
    return {"embed": embed, "view": lobby_view(info), "files": files}


async def _public_locale(interaction: discord.Interaction) -> str:
    assert interaction.guild_id is not None
    return await _service(interaction).guild_locale(
        interaction.guild_id, _discord_guild_locale(interaction)
    )


def _require_manage(interaction: discord.Interaction, key: str) -> None:
    """Admin commands are visible to everyone (subcommands cannot carry default permissions),
    so the permission is checked here and refused with a polite sentence."""
    if not interaction.permissions.manage_guild:
        raise ServiceError(key)


async def _refuse(interaction: discord.Interaction, err: ServiceError) -> None:
    text = error_text(err, _locale(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def preset_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The engine's presets, best match first (base games first when nothing is typed; names
    match in English and Russian), with translated names and descriptions."""
    locale = _locale(interaction)
    return [
        app_commands.Choice(name=modes.choice_label(preset, locale), value=preset)
        for preset in modes.ranked_presets(current)
    ]


async def twist_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Catalogue variants to put on the chosen mode, best match first."""
    locale = _locale(interaction)
    return [
        app_commands.Choice(name=modes.choice_label(name, locale), value=name)
        for name in modes.ranked_twists(current)
    ]


class DurakCog(commands.Cog):
    durak = app_commands.Group(
        name=ls("cmd.durak.name"), description=ls("cmd.durak.description"), guild_only=True
    )

    forfeits = app_commands.Group(
        name=ls("cmd.durak.forfeits.name"),
        description=ls("cmd.durak.forfeits.description"),
        parent=durak,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @durak.command(name=ls("cmd.durak.new.name"), description=ls("cmd.durak.new.description"))
    @app_commands.rename(
        preset=ls("cmd.param.preset.name"),
        twist=ls("cmd.param.twist.name"),
        seats=ls("cmd.param.seats.name"),
        deck=ls("cmd.param.deck.name"),
    )
    @app_commands.describe(
        preset=ls("cmd.param.preset.description"),
        twist=ls("cmd.param.twist.description"),
        seats=ls("cmd.param.seats.description"),
        deck=ls("cmd.param.deck.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete, twist=twist_autocomplete)
    @app_commands.choices(deck=[app_commands.Choice(name=str(n), value=n) for n in (24, 36, 52)])
    async def new(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        deck: int | None = None,
        twist: str | None = None,
    ) -> None:
        """Left-out options come from the guild's house rules (``/durak settings``)."""
        service = _service(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        home = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        try:
            await service.check_channel(interaction.guild_id, home or interaction.channel_id)
            settings = await service.settings(interaction.guild_id)
            info = await service.create_lobby(
                interaction.guild_id,
                interaction.channel_id,
                PlayerRef(interaction.user.id, interaction.user.display_name),
                preset,
                seats,
                deck,
                discord_locale=_discord_guild_locale(interaction),
                twist=twist,
            )
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        if settings.use_threads and not in_thread:
            if (
                isinstance(channel, discord.TextChannel)
                and interaction.app_permissions.create_public_threads
            ):
                await self._new_in_thread(interaction, service, info)
                return
            # No thread possible here: play in the channel and say why.
            await self._post_lobby(interaction, service, info)
            await interaction.followup.send(
                t("error.cannot_create_thread", _locale(interaction)), ephemeral=True
            )
            return
        await self._post_lobby(interaction, service, info)

    async def _new_in_thread(
        self, interaction: discord.Interaction, service: GameService, info: Any
    ) -> None:
        """A public notice in the channel, with the table in a thread started from it."""
        loc = info.locale
        try:
            await interaction.response.send_message(
                t("lobby.thread_opening", loc, host=interaction.user.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            notice = await interaction.original_response()
            thread = await notice.create_thread(
                name=t("lobby.thread_name", loc, game_id=info.game_id)
            )
            table = await thread.send(**await _lobby_message(interaction, info))
        except Exception:
            await service.cancel(info.game_id, interaction.user.id)
            raise
        await service.attach_message(info.game_id, table.id, thread_id=thread.id)
        await interaction.edit_original_response(
            content=t(
                "lobby.thread_opened", loc, host=interaction.user.mention, thread=thread.mention
            )
        )

    async def _post_lobby(
        self, interaction: discord.Interaction, service: GameService, info: Any
    ) -> None:
        try:
            await interaction.response.send_message(**await _lobby_message(interaction, info))
            message = await interaction.original_response()
        except Exception:
            # Without its message nobody could join: do not leave an orphan lobby behind.
            await service.cancel(info.game_id, interaction.user.id)
            raise
        await service.attach_message(info.game_id, message.id)

    @durak.command(name=ls("cmd.durak.hand.name"), description=ls("cmd.durak.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        try:
            game_id = await service.game_for_user(interaction.user.id)
            if game_id is None:
                raise ServiceError("error.no_active_game")
            session, seat = await service.require_player(game_id, interaction.user.id)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await send_hand(interaction, session, seat)

    @durak.command(name=ls("cmd.durak.leave.name"), description=ls("cmd.durak.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        try:
            game_id = await _service(interaction).leave(interaction.user.id)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("leave.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.cancel.name"), description=ls("cmd.durak.cancel.description"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        assert interaction.channel_id is not None
        try:
            game_id = await service.game_in_channel(interaction.channel_id)
            if game_id is None:
                raise ServiceError("error.no_game_here")
            await service.cancel(
                game_id,
                interaction.user.id,
                can_manage=bool(interaction.permissions.manage_guild),
            )
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("cancel.done", _locale(interaction), game_id=game_id), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.rules.name"), description=ls("cmd.durak.rules.description"))
    @app_commands.rename(preset=ls("cmd.param.preset.name"))
    @app_commands.describe(preset=ls("cmd.param.preset.description"))
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        service = _service(interaction)
        locale = _locale(interaction)
        assert interaction.channel_id is not None
        rules: RuleSet | None = None
        title = ""
        if preset is None:
            game_id = await service.game_in_channel(interaction.channel_id)
            if game_id is not None:
                state: Any = await service.public_state(game_id)
                if isinstance(state, GameSession):
                    rules = state.game.rules
                else:
                    try:
                        rules = state.rules(players=max(2, len(state.seats)))
                    except Exception:
                        rules = state.rules()
                title = t(
                    "rules.table_title",
                    locale,
                    game_id=game_id,
                    preset=preset_name(state.preset, locale),
                )
        if rules is None:
            house: dict[str, Any] = {}
            if interaction.guild_id is not None:
                settings = await service.settings(interaction.guild_id)
                house = settings.default_options
                if preset is None:
                    preset = settings.default_preset
            name = preset or DEFAULT_PRESET
            if name not in PRESETS:
                await _refuse(interaction, ServiceError("error.unknown_preset", preset=name))
                return
            # As a game of this mode would be played here: the server's "done" house rule.
            rules = RuleSet.preset(name, auto_done=auto_done_for(house, name))
            title = t("rules.preset_title", locale, preset=preset_name(name, locale))
        await interaction.response.send_message(
            embed=rules_embed(rules, title, locale), ephemeral=True
        )

    @durak.command(name=ls("cmd.durak.games.name"), description=ls("cmd.durak.games.description"))
    async def games(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        assert interaction.guild_id is not None
        locale = _locale(interaction)
        rows = [
            (gid, preset, channel, [seat_name(s, locale) for s in seats])
            for gid, preset, channel, seats in await service.running_games(interaction.guild_id)
        ]
        await interaction.response.send_message(embed=games_embed(rows, locale), ephemeral=True)

    # ----------------------------------------------------------------- leaderboard and stats

    @durak.command(
        name=ls("cmd.durak.leaderboard.name"), description=ls("cmd.durak.leaderboard.description")
    )
    @app_commands.rename(
        period=ls("cmd.param.period.name"),
        sort=ls("cmd.param.sort.name"),
        page=ls("cmd.param.page.name"),
    )
    @app_commands.describe(
        period=ls("cmd.param.period.description"),
        sort=ls("cmd.param.sort.description"),
        page=ls("cmd.param.page.description"),
    )
    @app_commands.choices(
        period=_choices("cmd.choice.period", ("all", "month", "week")),
        sort=_choices("cmd.choice.sort", ("fools", "record")),
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        period: str = "all",
        sort: str = "fools",
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """A public message in the server's language; its page buttons keep working later."""
        assert interaction.guild_id is not None
        locale = await _public_locale(interaction)
        try:
            embed, view, _ = await leaderboard_message(
                _service(interaction), interaction.guild_id, period, sort, page - 1, locale
            )
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    @durak.command(name=ls("cmd.durak.stats.name"), description=ls("cmd.durak.stats.description"))
    @app_commands.rename(player=ls("cmd.param.player.name"))
    @app_commands.describe(player=ls("cmd.param.player.description"))
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        who = player or interaction.user
        stats = await _service(interaction).storage.user_stats(interaction.guild_id, who.id)
        await interaction.response.send_message(
            embed=stats_embed(stats, who.display_name, _locale(interaction)),
            ephemeral=True,
        )

    # ----------------------------------------------------------------- forfeits

    @forfeits.command(
        name=ls("cmd.durak.forfeits.list.name"),
        description=ls("cmd.durak.forfeits.list.description"),
    )
    async def forfeits_list(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        items = await _service(interaction).forfeits(interaction.guild_id)
        await interaction.response.send_message(
            embed=forfeits_embed(items, _locale(interaction)), ephemeral=True
        )

    @forfeits.command(
        name=ls("cmd.durak.forfeits.add.name"), description=ls("cmd.durak.forfeits.add.description")
    )
    @app_commands.rename(text=ls("cmd.param.text.name"))
    @app_commands.describe(text=ls("cmd.param.text.description"))
    async def forfeits_add(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 200]
    ) -> None:
        assert interaction.guild_id is not None
        try:
            _require_manage(interaction, "error.forfeits_admin_only")
            number = await _service(interaction).add_forfeit(interaction.guild_id, text)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("forfeits.added", _locale(interaction), number=number, text=text.strip()),
            ephemeral=True,
        )

    @forfeits.command(
        name=ls("cmd.durak.forfeits.remove.name"),
        description=ls("cmd.durak.forfeits.remove.description"),
    )
    @app_commands.rename(number=ls("cmd.param.number.name"))
    @app_commands.describe(number=ls("cmd.param.number.description"))
    async def forfeits_remove(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 1000]
    ) -> None:
        assert interaction.guild_id is not None
        try:
            _require_manage(interaction, "error.forfeits_admin_only")
            text = await _service(interaction).remove_forfeit(interaction.guild_id, number)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("forfeits.removed", _locale(interaction), text=text), ephemeral=True
        )

    @forfeits.command(
        name=ls("cmd.durak.forfeits.reset.name"),
        description=ls("cmd.durak.forfeits.reset.description"),
    )
    async def forfeits_reset(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        try:
            _require_manage(interaction, "error.forfeits_admin_only")
            await _service(interaction).reset_forfeits(interaction.guild_id)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("forfeits.reset", _locale(interaction)), ephemeral=True
        )

    # ----------------------------------------------------------------- settings

    @durak.command(
        name=ls("cmd.durak.settings.name"), description=ls("cmd.durak.settings.description")
    )
    @app_commands.rename(
        language=ls("cmd.param.language.name"),
        timer=ls("cmd.param.timer.name"),
        threads=ls("cmd.param.threads.name"),
        pictures=ls("cmd.param.pictures.name"),
        difficulty=ls("cmd.param.difficulty.name"),
        preset=ls("cmd.param.default_preset.name"),
        seats=ls("cmd.param.seats.name"),
        deck=ls("cmd.param.deck.name"),
        throw_in=ls("cmd.param.throw_in.name"),
        trump_exchange=ls("cmd.param.trump_exchange.name"),
        done=ls("cmd.param.done.name"),
        channel=ls("cmd.param.channel.name"),
        all_channels=ls("cmd.param.all_channels.name"),
    )
    @app_commands.describe(
        language=ls("cmd.param.language.description"),
        timer=ls("cmd.param.timer.description"),
        threads=ls("cmd.param.threads.description"),
        pictures=ls("cmd.param.pictures.description"),
        difficulty=ls("cmd.param.difficulty.description"),
        preset=ls("cmd.param.default_preset.description"),
        seats=ls("cmd.param.default_seats.description"),
        deck=ls("cmd.param.default_deck.description"),
        throw_in=ls("cmd.param.throw_in.description"),
        trump_exchange=ls("cmd.param.trump_exchange.description"),
        done=ls("cmd.param.done.description"),
        channel=ls("cmd.param.channel.description"),
        all_channels=ls("cmd.param.all_channels.description"),
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    @app_commands.choices(
        language=_choices("cmd.choice.language", ("en", "ru", "auto")),
        pictures=_choices("cmd.choice.pictures", ("on", "off")),
        difficulty=_choices("cmd.choice.difficulty", AI_DIFFICULTIES),
        throw_in=_choices("cmd.choice.throw_in", THROW_IN_CHOICES),
        trump_exchange=_choices("cmd.choice.trump_exchange", TRUMP_EXCHANGE_CHOICES),
        done=_choices("cmd.choice.done", DONE_STYLES),
    )
    @app_commands.choices(deck=[app_commands.Choice(name=str(n), value=n) for n in (24, 36, 52)])
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        timer: app_commands.Range[int, 0, TIMER_MAX_SECONDS] | None = None,
        threads: bool | None = None,
        pictures: str | None = None,
        difficulty: str | None = None,
        preset: str | None = None,
        seats: app_commands.Range[int, 2, 6] | None = None,
        deck: int | None = None,
        throw_in: str | None = None,
        trump_exchange: str | None = None,
        done: str | None = None,
        channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
    ) -> None:
        """Without options: show the house rules. Each given option is saved; ``channel``
        toggles that channel in the allowed list, ``all_channels`` clears the list."""
        service = _service(interaction)
        locale = _locale(interaction)
        assert interaction.guild_id is not None
        try:
            _require_manage(interaction, "error.settings_admin_only")
            current = await service.settings(interaction.guild_id)
            changes: dict[str, Any] = {}
            if language == "auto":
                changes.update(locale="en", locale_explicit=False)
            elif language is not None:
                changes["locale"] = language
            if timer is not None:
                changes["turn_timer_seconds"] = timer  # the service checks the range
            if threads is not None:
                changes["use_threads"] = threads
            if pictures is not None:
                changes["pictures"] = pictures == "on"
            if difficulty is not None:
                changes["default_ai_difficulty"] = difficulty
            if preset is not None:
                changes["default_preset"] = preset
            options = dict(current.default_options)
            for key, value in (
                ("seats", seats),
                ("deck_size", deck),
                ("throw_in", throw_in),
                ("trump_exchange", trump_exchange),
                ("done", done),
            ):
                if value is not None:
                    options[key] = value
            if options != current.default_options:
                changes["default_options"] = options
            if all_channels:
                changes["allowed_channel_ids"] = None
            elif channel is not None:
                allowed = list(current.allowed_channel_ids or ())
                if channel.id in allowed:
                    allowed.remove(channel.id)
                else:
                    allowed.append(channel.id)
                changes["allowed_channel_ids"] = allowed or None
            settings = current
            if changes:
                settings = await service.update_settings(interaction.guild_id, **changes)
        except ServiceError as err:
            await _refuse(interaction, err)
            return
        await interaction.response.send_message(
            t("settings.updated", locale) if changes else None,
            embed=settings_embed(settings, locale),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DurakCog(bot))
