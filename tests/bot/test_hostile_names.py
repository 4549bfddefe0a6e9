"""Names and texts chosen by users are shown literally in every message the bot sends: no
bold, no link, no mention, no heading, no quote can come from a display name or a forfeit.

A display name such as ``@everyone **B** [x](http://e.io)`` once rendered as bold text and a
clickable masked link in the bot's own table and result (issue 17 §5). Here three players
with hostile names play a game on simcord, with a hostile forfeit, and every message of the
run is read: lobby, table, hands, last moves, result, stats, leaderboard, game list.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord

from bot.usertext import inert
from tests.bot.helpers import message, message_text, play_out, service
from tests.bot.hostile import CORPUS, assert_inert, assert_plain, split_message
from tests.bot.test_server_life import set_position

#: Each name packs several kinds of markup; Discord display names are at most 32 characters
#: (simcord does not check, so a longer one stands for a nickname set through the API).
HOSTILE = {
    "mallory": "@everyone **B** [x](http://e.io)",
    "trudy": "`c` ||s|| <@123456789012345678> @here",
    "oscar": "-# small\n# heading\n> quote _i_ ~~s~~",
}
FORFEIT = "> sing **loudly** [here](http://f.io) @everyone"

#: Raw markup that must never reach a message (each is a piece of a hostile text above).
RAW = [
    "**B**",
    "[x](",
    "http://e.io",
    "`c`",
    "||s||",
    "<@123456789012345678>",
    "@everyone",
    "@here",
    "_i_",
    "~~s~~",
    "**loudly**",
    "[here](",
    "http://f.io",
    "**x**",
    "[y](",
]


def _assert_inert(text: str) -> None:
    for raw in RAW:
        assert raw not in text, f"{raw!r} reached a message unescaped:\n{text}"
    for line in text.splitlines():
        # a name never starts a line of its own (heading, small text, quote)
        assert not re.match(r"\s*(#{1,3} heading|-# small|> quote|> sing)", line), line


def _every_message(channel: Any) -> list[discord.Message]:
    """Every message in the channel, ephemeral answers included (simcord keeps them all)."""
    return list(channel.history())


def test_inert_escapes_each_kind_of_markup() -> None:
    assert inert("@everyone **B** [x](http://e.io)") == (
        "@\u200beveryone \\*\\*B\\*\\* \\[x\\](http\\://e.io)"
    )
    assert inert("<@123456789012345678>") == "\\<@\u200b123456789012345678>"
    assert inert("# heading\n> quote") == "\\# heading > quote"
    assert inert("-# small") == "\\-# small"
    assert inert("a\\*b") == "a\\\\\\*b"  # a typed backslash cannot un-escape the star
    assert inert("Ivan") == "Ivan"  # plain names are untouched


async def test_hostile_names_render_inert_everywhere(simcord_env: simcord.Env, world: Any) -> None:
    env = simcord_env
    guild, channel = world["guild"], world["channel"]
    mods = guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    players = {
        key: guild.add_member(env.create_user(key, global_name=name), roles=[mods])
        for key, name in HOSTILE.items()
    }
    mallory, trudy, oscar = players.values()
    # the only forfeit on the list, so the fool gets it
    for _ in range(20):
        removed = await mallory.slash(channel, "durak forfeits remove", number=1)
        if "no forfeit" in (removed.response.content or ""):
            break
    added = await mallory.slash(channel, "durak forfeits add", text=FORFEIT)
    assert added.ephemeral

    created = await mallory.slash(channel, "durak new", seats=3)
    lobby_id = created.response.id
    for actor in (trudy, oscar):
        await actor.click(message(channel, lobby_id), label="Join")
    await mallory.click(message(channel, lobby_id), label="Start")
    session = service(env).session(1)
    assert session is not None
    await play_out(env, channel, 1, list(players.values()), stop_after=6)
    listed = await trudy.slash(channel, "durak games")
    assert listed.response is not None
    # a quick end: mallory leads her last card, trudy cannot beat and takes, oscar is out
    set_position(
        env,
        1,
        hands=[["6s"], ["7d", "8d"], ["9c"]],
        trump_card="6h",
        talon=[],
        table=[],
        attacker=0,
        defender=1,
    )
    await play_out(env, channel, 1, list(players.values()))
    session = service(env).session(1)
    assert session is not None and session.status == "finished"

    answers = [
        listed,
        await oscar.slash(channel, "durak stats", player=mallory),
        await oscar.slash(channel, "durak stats"),
        await oscar.slash(channel, "durak leaderboard"),
        await oscar.slash(channel, "durak forfeits list"),
        await oscar.slash(channel, "durak new", mode="**x** [y](http://e.io)"),
    ]

    texts = [message_text(msg) for msg in _every_message(channel)]
    for answer in answers:  # the slash commands' own answers (private ones included)
        assert answer.response is not None
        texts += [message_text(answer.response.message)]
        texts += [message_text(f.message) for f in answer.followups]
    for text in texts:
        _assert_inert(text)
    # the names and the forfeit were shown (escaped), not dropped: table, stats, forfeit list
    everything = "\n".join(texts)
    for name in HOSTILE.values():
        assert inert(name) in everything, name
    assert any(f"Durak stats — {inert(HOSTILE['mallory'])}" in text for text in texts)
    assert inert(FORFEIT) in everything
    assert inert("**x** [y](http://e.io)") in everything  # an unknown preset, echoed
    # the second lock: nothing the bot sends pings unless the send names whom
    default = env.bot.allowed_mentions
    assert default is not None
    assert default.everyone is False and default.users is False and default.roles is False


#: Seated in one game: a name per kind of attack on the text around it.
SEATED = ("rlo", "zalgo", "hebrew", "emoji")


def _backend_messages(env: simcord.Env) -> list[Any]:
    return [m for msgs in env.backend.messages.values() for m in msgs.values()]


@pytest.mark.slow(sample=1)  # a whole game over the corpus: in make test, not make check
async def test_corpus_names_render_inert_on_every_surface_and_ping_only_players(
    simcord_env: simcord.Env, world: Any
) -> None:
    """Members named from the corpus (a role tag naming a real, mentionable role among them)
    play a game; the table, every hand, the live hands, the result, the replay, the boards,
    each profile and the season messages are read as Discord holds them, and every message
    the bot sent pings no role, nobody for everyone, and only the game's players."""
    env = simcord_env
    guild, channel = world["guild"], world["channel"]
    mods = guild.create_role(
        "Hosts", permissions=discord.Permissions(manage_guild=True), mentionable=True
    )
    names = {key: CORPUS[key] for key in SEATED}
    names["emoji"] = f"<@&{mods.id}> " + CORPUS["emoji"]  # a live role tag, if it were
    players = [
        guild.add_member(env.create_user(key, global_name=name), roles=[mods])
        for key, name in names.items()
    ]
    host = players[0]
    created = await host.slash(channel, "durak new", seats=len(players))
    lobby_id = created.response.id
    for actor in players[1:]:
        await actor.click(message(channel, lobby_id), label="Join")
    await host.click(message(channel, lobby_id), label="Start")
    await play_out(env, channel, 1, players)
    session = service(env).session(1)
    assert session is not None and session.status == "finished"
    season = await host.slash(
        channel, "durak season new", name="**S2** [win](https://evil.example) @everyone"
    )
    answers = [
        season,
        await host.slash(channel, "durak season list"),
        await host.slash(channel, "durak leaderboard"),
        await host.slash(channel, "durak replay", game=1),
        *[await host.slash(channel, "durak profile", player=p) for p in players],
        *[await p.slash(channel, "durak stats") for p in players],
    ]
    shown = [msg for msg in _every_message(channel)]
    for answer in answers:
        assert answer.response is not None
        shown.append(answer.response.message)
        shown += [f.message for f in answer.followups]
    texts = []
    for msg in shown:
        markdown, plain = split_message(msg)
        assert_inert(markdown)
        assert_plain(plain)
        for text in (markdown, plain):
            assert f"<@&{mods.id}>" not in text  # the role tag: escaped, or shown in a label
        texts += [markdown, plain]
    everything = "\n".join(texts)
    for name in names.values():  # each name is shown, as its inert self
        assert inert(name) in everything, name
    assert "Bobtxt.exe — " in everything  # the table's seat line reads on after the name
    season_text = message_text(season.response.message)
    assert "\\*\\*S2\\*\\* \\[win\\](https\\://evil.example) @\u200beveryone" in season_text
    # pings: players of the game only, never a role, never everyone
    seated = {p.id for p in players}
    for sent in _backend_messages(env):
        if sent.author_id != env.bot.user.id:
            continue
        assert not sent.mention_everyone and not sent.ping_role_ids, sent.content
        assert set(sent.ping_user_ids) <= seated, sent.content
