"""Executable proof for every recipe in docs/testing-with-simcord.md.

A tiny throwaway cog lives in this file on purpose: these tests document how
simcord 3.2.1 drives a discord.py 2.7 bot, independently of the real cogs.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions
from discord import app_commands
from discord.ext import commands, tasks

# --------------------------------------------------------------------------- throwaway cog


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"smoke:join:(?P<gid>\d+)"
):
    """A stateless button whose custom_id carries the game id."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.success, custom_id=f"smoke:join:{gid}"
            )
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined game {self.gid}", ephemeral=True
        )


class PersistentLobby(discord.ui.View):
    """A persistent view: timeout=None and every item has a fixed custom_id."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", custom_id="smoke:lobby:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        # Edit the message the button is on (counts as the interaction response).
        await interaction.response.edit_message(content=f"pinged by {interaction.user.name}")


class Expiring(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.message: discord.Message | None = None

    @discord.ui.select(
        custom_id="smoke:pick",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s) for s in ("spades", "hearts")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)

    async def on_timeout(self) -> None:
        if self.message is not None:
            await self.message.edit(content="expired", view=None)


class SmokeCog(commands.Cog):
    # Slash command group: /smoke <subcommand>
    smoke = app_commands.Group(name="smoke", description="simcord smoke tests")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.ticks = 0
        self.ticker.start()

    async def cog_unload(self) -> None:
        self.ticker.cancel()

    @tasks.loop(seconds=30)
    async def ticker(self) -> None:
        self.ticks += 1

    @smoke.command(name="echo", description="Echo text")
    @app_commands.describe(text="what to say", times="how many times", secret="ephemeral?")
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        times: app_commands.Range[int, 1, 5] = 1,
        secret: bool = False,
    ) -> None:
        await interaction.response.send_message(" ".join([text] * times), ephemeral=secret)

    @smoke.command(name="lobby", description="Post a lobby with buttons")
    async def lobby(self, interaction: discord.Interaction, gid: int) -> None:
        view = PersistentLobby()
        view.add_item(JoinButton(gid))
        embed = discord.Embed(title=f"Lobby {gid}", description="waiting")
        embed.add_field(name="Players", value="0")
        await interaction.response.send_message(embed=embed, view=view)

    @smoke.command(name="slow", description="Deferred reply with followups")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)  # "Bot is thinking..."
        # Completing a deferred response = editing the original response.
        await interaction.edit_original_response(content="done")
        await interaction.followup.send("public followup")
        await interaction.followup.send("private followup", ephemeral=True)

    @smoke.command(name="think", description="Deferred, then answered by a followup")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The FIRST followup after a defer replaces the "thinking" message
        # (it becomes result.response, not a followup).
        await interaction.followup.send("thought", ephemeral=True)
        await interaction.followup.send("second")

    @smoke.command(name="hang", description="Deferred and never completed")
    async def hang(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()

    @smoke.command(name="pick", description="Post a select that expires")
    async def pick(self, interaction: discord.Interaction) -> None:
        view = Expiring()
        await interaction.response.send_message("choose", view=view)
        view.message = await interaction.original_response()

    @smoke.command(name="thread", description="Open a thread for a game")
    async def thread(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message("opening thread")
        msg = await interaction.original_response()
        thread = await msg.create_thread(name=name)
        await thread.send(f"welcome to {name}")

    @smoke.command(name="later", description="Reply after a delay")
    async def later(self, interaction: discord.Interaction, seconds: int) -> None:
        await interaction.response.send_message("scheduled", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)

        async def remind() -> None:
            await asyncio.sleep(seconds)
            await channel.send("time is up")

        self.bot.loop.create_task(remind())

    # default_permissions only works on TOP-LEVEL commands/groups (Discord ignores it on
    # subcommands), so admin-only commands need their own group.
    admin_group = app_commands.Group(
        name="smokeadmin",
        description="Manage Server only",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @admin_group.command(name="reset", description="Manage Server only")
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)

    @smoke.command(name="checked", description="Runtime permission check")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def checked(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("checked ok", ephemeral=True)

    @checked.error
    async def checked_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("need Manage Server", ephemeral=True)
        else:
            raise error

    @smoke.command(name="locale", description="Show the caller's locale")
    async def locale(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.locale.value}/{interaction.guild_locale}", ephemeral=True
        )


class SmokeBot(commands.Bot):
    def __init__(self) -> None:
        # Slash-only bot: default intents are enough (no privileged intents needed).
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.setups = 0

    async def setup_hook(self) -> None:
        self.setups += 1
        await self.add_cog(SmokeCog(self))
        # Persistent views / dynamic items must be re-registered on every start.
        self.add_view(PersistentLobby())
        self.add_dynamic_items(JoinButton)
        # strict_sync (default): commands must be synced or invoking them fails the test.
        await self.tree.sync()


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def simcord_bot() -> SmokeBot:
    """Consumed by simcord's pytest plugin to build the `simcord_env` fixture."""
    return SmokeBot()


@pytest.fixture
def world(simcord_env: simcord.Env) -> dict[str, Any]:
    guild = simcord_env.create_guild("Durak Club")
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"), roles=[mods])
    return {"guild": guild, "channel": channel, "alice": alice, "bob": bob, "mods": mods}


@contextmanager
def interaction_locales(
    monkeypatch: pytest.MonkeyPatch, locales: dict[int, str], guild_locale: str | None = None
) -> Iterator[None]:
    """simcord hard-codes locale="en-US"; override it per user id for i18n tests."""
    original: Callable[..., Any] = simcord.interactions.base_payload

    def patched(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        if kwargs["user_id"] in locales:
            payload["locale"] = locales[kwargs["user_id"]]
        if guild_locale is not None and "guild_id" in payload:
            payload["guild_locale"] = guild_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", patched)
    yield


# --------------------------------------------------------------------------- tests


async def test_setup_and_world(simcord_env: simcord.Env, world: dict[str, Any]) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, SmokeBot)
    assert bot.is_ready() and bot.setups == 1
    dguild = bot.get_guild(world["guild"].id)
    assert dguild is not None and dguild.name == "Durak Club"
    # Gotcha: without the privileged `members` intent, GUILD_MEMBER_ADD is dropped, so
    # the bot's member cache stays empty (interactions still carry the full member).
    assert world["alice"].member is None
    assert "smoke echo" in world["alice"].available_commands(world["channel"])


async def test_slash_subcommand_with_options(
    simcord_env: simcord.Env, world: dict[str, Any]
) -> None:
    alice, channel = world["alice"], world["channel"]

    result = await alice.slash(channel, "smoke echo", text="hi", times=3)
    assert result.acknowledged and not result.ephemeral
    assert result.response is not None
    assert result.response.content == "hi hi hi"
    # Public responses are real channel messages.
    last = channel.last_message
    assert last is not None and last.content == "hi hi hi"
    assert last.author.id == simcord_env.bot.user.id
    assert last.interaction_metadata is not None
    assert last.interaction_metadata.user.id == alice.id

    secret = await alice.slash(channel, "smoke echo", text="psst", secret=True)
    assert secret.ephemeral and secret.response is not None and secret.response.ephemeral
    # Ephemeral messages are visible only to the invoker.
    assert "psst" in [m.content for m in channel.history(viewer=alice)]
    assert "psst" not in [m.content for m in channel.history(viewer=world["bob"])]


async def test_invalid_option_is_a_setup_error(world: dict[str, Any]) -> None:
    with pytest.raises(simcord.OptionError):
        await world["alice"].slash(world["channel"], "smoke echo", text="x", times=9)


async def test_buttons_persistent_view_and_dynamic_item(
    simcord_env: simcord.Env, world: dict[str, Any]
) -> None:
    alice, bob, channel = world["alice"], world["bob"], world["channel"]
    result = await alice.slash(channel, "smoke lobby", gid=42)
    lobby = result.response
    assert lobby is not None
    assert lobby.embeds[0].title == "Lobby 42"
    assert lobby.embeds[0].fields[0].value == "0"
    # Components are raw Discord dicts (action rows -> buttons) on ResponseMessage ...
    ids = [c["custom_id"] for row in lobby.components for c in row["components"]]
    assert ids == ["smoke:lobby:ping", "smoke:join:42"]
    # ... and discord.py objects on discord.Message.
    msg = channel.last_message
    assert msg is not None
    button = msg.components[0].children[1]
    assert isinstance(button, discord.Button) and button.label == "Join"

    # DynamicItem: matched by template, state parsed from custom_id.
    joined = await bob.click(lobby, custom_id="smoke:join:42")
    assert joined.ephemeral and joined.response is not None
    assert joined.response.content == "bob joined game 42"

    # Click by label; response.edit_message edits the message in place.
    pinged = await alice.click(msg, label="Ping")
    assert pinged.acknowledged
    # For an UPDATE response, result.response is the edited source message.
    assert pinged.response is not None and pinged.response.id == msg.id
    edited = channel.last_message
    assert edited is not None and edited.id == msg.id
    assert edited.content == "pinged by alice"
    assert edited.embeds[0].title == "Lobby 42"  # untouched


async def test_select_and_view_timeout(simcord_env: simcord.Env, world: dict[str, Any]) -> None:
    alice, channel = world["alice"], world["channel"]
    posted = await alice.slash(channel, "smoke pick")
    assert posted.response is not None
    picked = await alice.select(posted.response, ["hearts"])
    assert picked.ephemeral and picked.response is not None
    assert picked.response.content == "picked hearts"

    await simcord_env.advance_time(61)  # View(timeout=60) fires on_timeout
    last = channel.history()[0]
    assert last.content == "expired" and last.components == []


async def test_defer_followups_and_edit_original(
    simcord_env: simcord.Env, world: dict[str, Any]
) -> None:
    alice, bob, channel = world["alice"], world["bob"], world["channel"]
    result = await alice.slash(channel, "smoke slow")
    # .deferred is True only while the deferred response is still pending.
    assert result.acknowledged and not result.deferred
    assert result.response is not None and result.response.content == "done"
    followups = result.followups
    assert [f.content for f in followups] == ["public followup", "private followup"]
    assert [f.ephemeral for f in followups] == [False, True]
    assert "private followup" not in [m.content for m in channel.history(viewer=bob)]

    think = await alice.slash(channel, "smoke think")
    assert think.ephemeral and think.response is not None
    assert think.response.content == "thought" and think.response.ephemeral
    assert [f.content for f in think.followups] == ["second"]

    hang = await alice.slash(channel, "smoke hang")
    assert hang.deferred and hang.acknowledged


async def test_threads(simcord_env: simcord.Env, world: dict[str, Any]) -> None:
    alice, channel = world["alice"], world["channel"]
    await alice.slash(channel, "smoke thread", name="table-1")
    (thread,) = channel.threads
    assert thread.is_thread and thread.name == "table-1"
    last = thread.last_message
    assert last is not None and last.content == "welcome to table-1"
    # Members can talk in the thread too.
    await alice.send(thread, "hello")
    assert [m.content for m in thread.history()][-1] == "hello"
    dthread = simcord_env.bot.get_channel(thread.id)
    assert isinstance(dthread, discord.Thread) and dthread.parent_id == channel.id


async def test_time_travel_sleep_and_tasks_loop(
    simcord_env: simcord.Env, world: dict[str, Any]
) -> None:
    alice, channel = world["alice"], world["channel"]
    cog = simcord_env.bot.get_cog("SmokeCog")
    assert isinstance(cog, SmokeCog)
    start_ticks = cog.ticks
    t0 = simcord_env.now()

    await alice.slash(channel, "smoke later", seconds=300)
    assert channel.last_message is None or channel.last_message.content != "time is up"
    await simcord_env.advance_time(299)
    assert all(m.content != "time is up" for m in channel.history())
    await simcord_env.advance_time(1)
    assert channel.history()[-1].content == "time is up"
    assert (simcord_env.now() - t0).total_seconds() == pytest.approx(300)
    # tasks.loop(seconds=30) ran ~10 more times in virtual time.
    assert cog.ticks - start_ticks == 10


async def test_restart_keeps_world_and_persistent_views(
    simcord_env: simcord.Env, world: dict[str, Any]
) -> None:
    alice, channel = world["alice"], world["channel"]
    result = await alice.slash(channel, "smoke lobby", gid=7)
    lobby = result.response
    assert lobby is not None

    old_bot = simcord_env.bot
    # simcord never calls bot.close() itself (not on restart, not at teardown);
    # close the old bot explicitly so Bot.close() cleanup (e.g. DB) runs.
    await old_bot.close()
    assert old_bot.is_closed()
    new_bot = SmokeBot()
    await simcord_env.restart_bot(new_bot)
    assert simcord_env.bot is new_bot and new_bot is not old_bot and new_bot.setups == 1

    # Same guild/channel/messages; the new bot's add_view/add_dynamic_items handle clicks.
    joined = await alice.click(lobby, custom_id="smoke:join:7")
    assert joined.response is not None and joined.response.content == "alice joined game 7"
    await alice.click(lobby, label="Ping")
    last = channel.last_message
    assert last is not None and last.content == "pinged by alice"


async def test_manage_server_permission(simcord_env: simcord.Env, world: dict[str, Any]) -> None:
    alice, bob, channel = world["alice"], world["bob"], world["channel"]
    # default_permissions: hidden from members without Manage Server.
    assert "smokeadmin reset" not in alice.available_commands(channel)
    assert "smokeadmin reset" in bob.available_commands(channel)
    with pytest.raises(simcord.SetupError):
        await alice.slash(channel, "smokeadmin reset")
    ok = await bob.slash(channel, "smokeadmin reset")
    assert ok.response is not None and ok.response.content == "admin ok"

    # Runtime check (has_permissions) sees the member's computed permissions.
    denied = await alice.slash(channel, "smoke checked")
    assert denied.response is not None and denied.response.content == "need Manage Server"
    # Gotcha: the tree's on_error sees the error even when a local @cmd.error handler
    # answered it, so simcord captured it; acknowledge it or teardown fails the test.
    simcord.assert_error(simcord_env, app_commands.MissingPermissions)
    allowed = await bob.slash(channel, "smoke checked")
    assert allowed.response is not None and allowed.response.content == "checked ok"


async def test_guild_owner_bypasses_permissions(simcord_env: simcord.Env) -> None:
    owner_user = simcord_env.create_user("owner")
    guild = simcord_env.create_guild(owner=owner_user)
    channel = guild.create_text_channel("games")
    owner = guild.add_member(owner_user)
    ok = await owner.slash(channel, "smokeadmin reset")
    assert ok.response is not None and ok.response.content == "admin ok"


async def test_default_locale(world: dict[str, Any]) -> None:
    res = await world["alice"].slash(world["channel"], "smoke locale")
    assert res.response is not None and res.response.content == "en-US/en-US"


async def test_user_locale(monkeypatch: pytest.MonkeyPatch, world: dict[str, Any]) -> None:
    alice, bob, channel = world["alice"], world["bob"], world["channel"]
    with interaction_locales(monkeypatch, {alice.id: "ru"}, guild_locale="ru"):
        ru = await alice.slash(channel, "smoke locale")
        en = await bob.slash(channel, "smoke locale")
    assert ru.response is not None and ru.response.content == "ru/ru"
    assert en.response is not None and en.response.content == "en-US/ru"


async def test_bot_errors_are_captured(simcord_env: simcord.Env, world: dict[str, Any]) -> None:
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)
    result = await world["alice"].slash(world["channel"], "smoke echo", text="boom")
    assert not result.acknowledged
    # The bot's exception is captured (not raised into the test); assert_error
    # acknowledges it so teardown does not fail.
    err = simcord.assert_error(simcord_env, discord.HTTPException)
    # It matched through CommandInvokeError.original.
    assert isinstance(err, app_commands.CommandInvokeError)
    assert isinstance(err.original, discord.HTTPException) and err.original.status == 500


async def test_without_pytest_plugin() -> None:
    async with simcord.run(SmokeBot()) as env:
        channel = env.create_guild().create_text_channel("general")
        alice = env.guild.add_member(env.create_user("alice"))
        res = await alice.slash(channel, "smoke echo", text="plain")
        assert res.response is not None and res.response.content == "plain"
