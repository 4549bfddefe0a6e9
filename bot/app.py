"""The Discord client: wires storage, the game service, the publisher, cogs and components.

Everything that makes a restart safe happens in :meth:`DurakBot.setup_hook`: the dynamic
components are registered before the gateway delivers a single click, and running games are
loaded from the database so the old buttons (which carry game id and version) resolve against the
same state they were drawn for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sys
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from . import i18n
from .activity import ActivityPublisher, ActivityServer, new_activity_server
from .activity.auth import OAuth
from .cardart.emojis import registry as card_emojis
from .config import Config
from .game.models import AiFactory, GameSession
from .game.service import GameService
from .health import Heartbeat
from .httpd import MetricsServer
from .i18n import DurakTranslator, t
from .metrics import registry_for
from .sharding import ShardScope
from .storage import Storage
from .surfaces.activity_discord import ActivityDiscord
from .surfaces.answers import log_lost_answer
from .surfaces.callbacks import callback_trace
from .surfaces.dynamic_items import DYNAMIC_ITEMS
from .surfaces.hand_answers import DrawHand
from .surfaces.hand_views import hand_message, live_hand_message, reopen_view
from .surfaces.language import reader_locale
from .surfaces.live_hands import INTERVAL, WATCH_INTERVAL, LiveHands
from .surfaces.pings import TurnPings
from .surfaces.publisher import DiscordPublisher
from .surfaces.quick_offers import DiscordQuickPublisher
from .surfaces.rematch_views import REMATCH_ITEMS
from .surfaces.replay_views import RECORD_ITEMS
from .surfaces.router import ComponentRouter
from .surfaces.spectators import watch_message, watch_picture, watch_reopen_view
from .surfaces.tournament_views import TOURNAMENT_ITEMS, DiscordTournamentPublisher

__all__ = ["INVITE_PERMISSIONS", "SYNC_MODES", "DurakBot", "SyncMode", "sync_commands_only"]

log = logging.getLogger(__name__)

#: Longest the event loop's thread keeps the GIL while another thread waits for it (CPython's
#: default is 5 ms). Every SQLite call runs in the storage's database thread, which needs a
#: turn at the GIL to start it and the loop needs one to hear it finished; under load each
#: move's commit waited up to 5 ms per hand-over (bench/bot_load.py). 1 ms keeps those waits
#: short and costs nothing measurable while only one thread has work.
GIL_SWITCH_INTERVAL = 0.001

#: Every permission the bot uses, and no other (the README's invite steps ask for the same):
#: View Channels and Send Messages for lobbies, tables and announcements; Embed Links for the
#: table embeds; Attach Files for the table picture; Create Public Threads and Send Messages in
#: Threads for games in threads (/durak settings). It only edits its own messages and never
#: reads old ones, which needs nothing more (no Read Message History, no Manage Messages).
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)

SyncMode = Literal["auto", "guild", "global", "none"]
SYNC_MODES: tuple[SyncMode, ...] = ("auto", "guild", "global", "none")


class DurakTree(app_commands.CommandTree):
    """Answers every unexpected command error politely instead of leaving "interaction failed"
    (or a traceback) in the channel, and logs it with the command and channel."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        original = getattr(error, "original", None)
        if isinstance(original, discord.HTTPException):
            # Discord refused an answer: one line, no apology (it would fail alike).
            log_lost_answer(interaction, original)
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # A command this build does not have (forged, or from a stale command list).
            log.info("unknown command %r from %s", error, interaction.user.id)
            key = "error.unknown_command"
        else:
            key = "error.internal"
            log.error(
                "command %s failed in channel %s", command, interaction.channel_id, exc_info=error
            )
        text = t(key, reader_locale(interaction))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log_lost_answer(interaction, exc)


def discord_clock() -> float:
    """Unix time as discord.py sees it. The same as ``time.time()`` in production, and the
    simulated clock under simcord, so turn deadlines move with ``env.advance_time``."""
    return discord.utils.utcnow().timestamp()


def _intents() -> discord.Intents:
    """Discord's default intents without the message events.

    The bot reads no message event: it answers slash commands and components and edits its
    own messages by id. With the message intents on, Discord sends a ``MESSAGE_UPDATE`` back
    for every edit of a table (one per move) and discord.py parses each into a ``Message``
    nobody reads; without them those events are never sent."""
    intents = discord.Intents.default()
    intents.guild_messages = False
    intents.dm_messages = False
    return intents


class DurakBot(commands.AutoShardedBot):
    """Slash-command-only bot: default intents but the message events, no privileged ones.

    Always the sharded client: with neither ``SHARD_IDS`` nor ``SHARD_COUNT`` set it runs
    every shard Discord recommends (one below 1,000 servers, more as the bot grows, without a
    code change); with ``SHARD_IDS`` it runs only those, so several processes split the
    servers, and :attr:`shard_scope` keeps this process's own initiatives (restore, timers,
    computer turns) to the games of its shards.
    """

    def __init__(
        self,
        config: Config,
        *,
        sync: SyncMode = "auto",
        clock: Callable[[], float] = discord_clock,
        seed_factory: Callable[[], int] | None = None,
        ai_factory: AiFactory | None = None,
        forfeit_rng: random.Random | None = None,
        commands_only: bool = False,
        live_hand_timing: tuple[float, float] | None = None,
    ) -> None:
        #: (debounce, interval) of live hand edits; None keeps bot.surfaces.live_hands' defaults.
        #: Tests
        #: pass (0, 0): under simcord a pending sleep waits in real time.
        self._live_hand_timing = live_hand_timing
        # A card game never joins a voice channel: without this, every start warns that
        # PyNaCl and davey (voice encryption) are not installed.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Unset means "ask Discord": discord.py fetches the recommended shard count.
        shards: dict[str, Any] = {}
        if config.shard_count is not None:
            shards["shard_count"] = config.shard_count
        if config.shard_ids is not None:
            shards["shard_ids"] = list(config.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            help_command=None,
            tree_cls=DurakTree,
            # Nothing the bot sends pings unless the send says whom (the turn ping and the
            # result name their players): a name or text that slipped through unescaped
            # still cannot ping @everyone, a role or a user.
            allowed_mentions=discord.AllowedMentions.none(),
            # Reports a refused first answer at once, so it is tried again inside Discord's
            # 3 seconds instead of after discord.py's own 1 s retry (bot/surfaces/callbacks.py).
            http_trace=callback_trace(),
            **shards,
        )
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {SYNC_MODES}")
        self.config = config
        self.shard_scope = ShardScope.of(config.shard_ids, config.shard_count)
        self.sync_mode: SyncMode = sync
        #: Only register the slash commands (``--sync global``): no database, no games.
        self.commands_only = commands_only
        self.synced: list[app_commands.AppCommand] | None = None
        self._heartbeat: Heartbeat | None = None
        #: The /metrics and /healthz endpoint, when METRICS_PORT is set (bot/httpd.py).
        self.metrics_server: MetricsServer | None = None
        #: The Activity's endpoint, when configured (bot/activity/).
        self.activity_server: ActivityServer | None = None
        self.clock = clock
        self._seed_factory = seed_factory
        self._ai_factory = ai_factory
        self._forfeit_rng = forfeit_rng
        self.storage: Storage | None = None
        self.service: GameService | None = None
        self.publisher: DiscordPublisher | None = None
        #: Routes component clicks (set in setup_hook, with the rest of the service).
        self.router: ComponentRouter | None = None
        self.live_hands: LiveHands | None = None
        #: How a hand message is drawn, for the hand items' answers (bot/surfaces/hand_answers.py).
        self.draw_hand: DrawHand = hand_message
        self.pings: TurnPings | None = None
        #: The quick-match queue's timer and its Discord side (bot/surfaces/quick_offers.py).
        self.quick: DiscordQuickPublisher | None = None
        self._resume_task: asyncio.Task[None] | None = None
        self._emoji_task: asyncio.Task[object] | None = None

    def _watchers_changed(self, game_id: int) -> None:
        """How many watch a game changed: its table says so (bot/surfaces/spectators.py)."""
        if self.publisher is not None:
            self.publisher.watchers_changed(game_id)

    async def _watch_picture(
        self, session: GameSession, locale: str, embed: discord.Embed | None
    ) -> tuple[discord.Embed | None, list[discord.File]]:
        """A spectator's view gets the table picture the publisher draws (spectators.py)."""
        pictures = self.publisher.pictures if self.publisher is not None else None
        return await watch_picture(pictures, session, locale, embed)

    async def setup_hook(self) -> None:
        if self.commands_only:
            await self.tree.set_translator(DurakTranslator())
            await self.load_extension("cogs.durak")
            await self.load_extension("cogs.me")
            await self._sync_commands()
            return
        sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_INTERVAL))
        self.storage = await Storage.open(self.config.database, clock=self.clock)
        self.storage.default_turn_timer_seconds = self.config.default_turn_timer_seconds
        self.storage.default_use_threads = self.config.default_threads
        self.service = GameService(
            self.storage,
            clock=self.clock,
            ai_delay=self.config.ai_delay_seconds,
            seed_factory=self._seed_factory,
            ai_factory=self._ai_factory,
            forfeit_rng=self._forfeit_rng,
            shards=self.shard_scope,
        )
        self.live_hands = LiveHands(
            self.service,
            live_hand_message,
            reopen_view,
            render_watch=watch_message,
            watch_reopen_view=watch_reopen_view,
            on_watchers=self._watchers_changed,
            watch_picture=self._watch_picture,
        )
        if self._live_hand_timing is not None:
            self.live_hands.debounce, self.live_hands.interval = self._live_hand_timing
            # spectators keep their slower pace relative to the hands
            self.live_hands.watch_interval = self.live_hands.interval * WATCH_INTERVAL / INTERVAL
        self.pings = TurnPings(self, self.service.player_prefs, self.live_hands)
        self.publisher = DiscordPublisher(
            self, self.service, self.config.table_edit_interval, self.live_hands, self.pings
        )
        self.service.publisher = self.publisher
        self.service.tournament_publisher = DiscordTournamentPublisher(self, self.service)
        self.quick = DiscordQuickPublisher(self, self.service)
        self.service.quick_publisher = self.quick
        await self.tree.set_translator(DurakTranslator())
        await self.load_extension("cogs.durak")
        await self.load_extension("cogs.me")
        # Clicks are routed by the bot itself from on_interaction (bot/surfaces/router.py),
        # not through discord.py's dynamic items, which build a View per click.
        self.router = ComponentRouter(
            (*DYNAMIC_ITEMS, *REMATCH_ITEMS, *RECORD_ITEMS, *TOURNAMENT_ITEMS)
        )
        # Card emojis sync in the background (rendering plus up to 105 uploads on a first
        # start): until they are ready, and if Discord refuses them, cards are plain text.
        card_emojis.clear()
        self._emoji_task = asyncio.get_running_loop().create_task(
            card_emojis.sync(self), name="durak-card-emojis"
        )
        restored = await self.service.restore()
        await self.service.warm_puzzles()
        self._resume_task = asyncio.get_running_loop().create_task(
            self._resume(restored), name="durak-resume"
        )
        await self._sync_commands()
        if self.config.metrics_port is not None:
            await self.start_metrics(self.config.metrics_host, self.config.metrics_port)
        if self.config.activity_enabled:
            await self.start_activity()
        if self.config.heartbeat_file is not None:
            self._heartbeat = Heartbeat(
                self.config.heartbeat_file, self.health_problem, ready=self.wait_until_ready
            )
            self._heartbeat.start()

    async def on_ready(self) -> None:
        """Says who and where the bot is, with the link that invites it to one more server."""
        user = self.user
        if user is None:
            return
        invite = discord.utils.oauth_url(
            user.id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
        )
        log.info(
            "ready as %s in %d server(s), %s; invite link: %s",
            user,
            len(self.guilds),
            self.shard_scope.describe(),
            invite,
        )

    async def start_metrics(self, host: str, port: int) -> MetricsServer:
        """Serve /metrics and /healthz on ``host:port`` (port 0: any free port, for tests)."""
        if self.metrics_server is None:
            self.metrics_server = MetricsServer(registry_for(self), self.health_report, host, port)
            await self.metrics_server.start()
        return self.metrics_server

    async def start_activity(
        self, *, oauth: OAuth | None = None, host: str | None = None, port: int | None = None
    ) -> ActivityServer:
        """Serve the Activity (bot/activity/) and tell its sockets of every change, through
        the one publisher the service has."""
        assert self.service is not None and self.publisher is not None
        if self.activity_server is None:
            self.activity_server = new_activity_server(
                self.config, self.service, oauth=oauth, host=host, port=port
            )
            self.activity_server.connect_discord(ActivityDiscord(self, self.service))
            await self.activity_server.start()
            self.service.activity_button = True
            self.service.publisher = ActivityPublisher(self.publisher, self.activity_server.hub)
        return self.activity_server

    async def health_report(self) -> dict[str, str | None]:
        """What keeps this process from serving its servers, per part (None: fine)."""
        return {"discord": self._discord_problem(), "database": await self._database_problem()}

    async def health_problem(self) -> str | None:
        """What keeps this process from serving its servers right now, or None."""
        report = await self.health_report()
        return report["discord"] or report["database"]

    def _discord_problem(self) -> str | None:
        if self.is_closed():
            return "the bot is shutting down"
        if not self.is_ready():
            return "not connected to Discord yet"
        down = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"gateway shard(s) {', '.join(map(str, down))} disconnected"
        return None

    async def _database_problem(self) -> str | None:
        if self.storage is None:
            return "the database is not open"
        try:
            await self.storage.user_active_game(0)  # a real round trip through the database
        except Exception as exc:
            return f"the database did not answer: {exc!r}"
        return None

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction tells the ping policy that its user is here (bot.surfaces.pings);
        a component click goes to the item its custom id names (bot.surfaces.router)."""
        if self.pings is not None:
            self.pings.seen(interaction)
        if self.router is not None:
            await self.router.dispatch(interaction)

    async def _resume(self, sessions: list[GameSession]) -> None:
        """Once the gateway is up: draw every open table again (its own row is the record of
        what it should show: a change committed just before the restart may not have reached
        Discord), owe again what ended games still owe (bot/surfaces/delivery.py), let computer
        seats continue, and start pairing the quick-match queue on a timer."""
        await self.wait_until_ready()
        assert self.publisher is not None and self.service is not None
        assert self.storage is not None
        for session in sessions:
            await self.publisher.refresh(session.game_id)
            owed = session.owed_ping  # stored with the state; delivered since?
            if owed is not None and owed[2] > await self.storage.pinged_version(session.game_id):
                await self.publisher.ping(session, owed[0], owed[1])  # type: ignore[arg-type]
            else:
                session.owed_ping = None
            self.service.resume(session)
        for row in await self.storage.load_lobbies():
            if row.table_message_id is not None:
                await self.publisher.refresh(row.id)
        for game_id in self.service.unopened:
            await self.publisher.unopened(game_id)
        self.service.unopened.clear()
        await self.service.resume_tournaments()
        assert self.quick is not None
        self.quick.queue_changed()  # the stored queue: its first visit is now
        await self.publisher.delivery.resume()

    async def _sync_commands(self) -> None:
        """Commands are synced deliberately: a dev guild syncs instantly, global sync can take
        an hour to propagate and is rate limited, so it only happens when asked for."""
        mode = self.sync_mode
        guild_id = self.config.dev_guild_id
        if mode == "auto":
            mode = "guild" if guild_id is not None else "none"
        if mode == "guild":
            if guild_id is None:
                log.warning("--sync guild needs DEV_GUILD_ID; commands were not synced")
                return
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to guild %d", len(self.synced), guild_id)
        elif mode == "global":
            self.synced = await self.tree.sync()
            i18n.set_command_ids(
                {c.name: c.id for c in self.synced},
                i18n.command_paths([dict(c.to_dict()) for c in self.synced]),
            )
            log.info("synced %d command(s) globally", len(self.synced))
        else:
            await self._check_commands()

    async def _check_commands(self) -> None:
        """Without a sync at start-up, compare what Discord has registered with this
        bot's own commands. A bot started before its commands were ever registered looks
        healthy while the server shows no /durak at all, so a missing or stale set is one
        clear warning with the exact command that fixes it."""
        try:
            registered = await self.tree.fetch_commands()
        except discord.HTTPException as exc:
            log.warning("could not read the registered slash commands from Discord: %s", exc)
            return
        i18n.set_command_ids(
            {c.name: c.id for c in registered},
            i18n.command_paths([dict(c.to_dict()) for c in registered]),
        )
        problem = commands_problem(
            [dict(c.to_dict(self.tree)) for c in self.tree.get_commands()],
            [dict(c.to_dict()) for c in registered],
        )
        if problem is None:
            log.info("slash commands are registered and up to date")
            return
        log.warning(
            "slash commands %s. Run once: `python -m bot --sync global` (registers them and"
            " exits; Discord may take up to an hour to show them), then start the bot again.",
            problem,
        )

    async def close(self) -> None:
        if self.metrics_server is not None:
            await self.metrics_server.stop()
            self.metrics_server = None
        if self._heartbeat is not None:
            await self._heartbeat.stop()
            self._heartbeat = None
        if self._resume_task is not None:
            self._resume_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._resume_task
        if self._emoji_task is not None:
            self._emoji_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._emoji_task
            card_emojis.clear()
        if self.quick is not None:
            self.quick.stop()
        if self.activity_server is not None:
            await self.activity_server.stop()
            self.activity_server = None
        if self.service is not None:
            await self.service.shutdown()
        if self.publisher is not None:
            await self.publisher.close()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None
        await super().close()


def _option_paths(payload: dict[str, Any], prefix: str = "") -> set[str]:
    """Every command, subcommand and option of a command payload as a path of names."""
    path = f"{prefix}/{payload.get('name', '')}"
    out = {path}
    for option in payload.get("options") or []:
        out |= _option_paths(option, path)
    return out


def commands_problem(local: list[dict[str, Any]], registered: list[dict[str, Any]]) -> str | None:
    """What is wrong with the registered commands, in words, or None when every command
    and option of this bot is registered and nothing else is (names only: descriptions and
    translations do not stop anyone from playing)."""
    if not registered:
        return "are not registered with Discord: the servers show no /durak command"
    mine = set().union(*(_option_paths(p) for p in local)) if local else set()
    theirs = set().union(*(_option_paths(p) for p in registered))
    missing, extra = sorted(mine - theirs), sorted(theirs - mine)
    if missing or extra:
        parts = [f"missing {', '.join(missing[:5])}" if missing else ""]
        parts.append(f"no longer used {', '.join(extra[:5])}" if extra else "")
        return "registered with Discord are stale (" + "; ".join(p for p in parts if p) + ")"
    return None


async def sync_commands_only(config: Config, token: str) -> int:
    """Register the slash commands globally and return how many, without starting the bot.

    ``--sync global`` used to sync and then keep running, which made it easy to leave a
    second bot on the same token and database next to the real one. Here the client only
    logs in over HTTP (no gateway session, no database, no games restored) and closes.
    """
    bot = DurakBot(config, sync="global", commands_only=True)
    async with bot:
        await bot.login(token)
    return len(bot.synced or [])
