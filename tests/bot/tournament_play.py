"""Playing a tournament on simcord by the clicks its players make: the guild with its
players and a moderator, one move of a present player, and a whole round with an absent
player's turns run out on the clock. Shared by the tournament tests of each format."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from bot.game.models import GameSession
from tests.bot.helpers import acting_seat, message, move_by_clicks, service

TURN = 3600  # long: simcord also fires a timer once as much real time has passed


def tournament_world(env: simcord.Env, names: list[str]) -> dict[str, Any]:
    guild = env.create_guild("Durak Club")
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    world: dict[str, Any] = {"guild": guild, "channel": channel, "names": names}
    for name in names:
        world[name] = guild.add_member(env.create_user(name))
    world["mod"] = guild.add_member(env.create_user("mod"), roles=[mods])
    return world


async def move_present(world: dict[str, Any], session: GameSession, absent: set[int]) -> bool:
    """One move of a present player, by the clicks a player makes on their open hand or
    the table in its thread; False when the game waits only for an absent one."""
    humans = [s.seat for s in session.seats if s.user_id not in absent and not s.left]
    seat = acting_seat(session, humans)
    if seat is None:
        return False
    user_id = session.seats[seat].user_id
    assert user_id is not None and session.message_id is not None
    thread = next(th for th in world["channel"].threads if th.id == session.channel_id)
    actor = next(world[n] for n in world["names"] if world[n].id == user_id)
    # Each game's table message is read once: its "Show my hand" button never changes, and
    # a read rebuilds the thread's whole history (every hand opened in it) at every move.
    tables: dict[int, discord.Message] = world.setdefault("tables", {})
    table = tables.get(session.game_id)
    if table is None or table.id != session.message_id:
        table = tables[session.game_id] = message(thread, session.message_id)
    hands: dict[int, Any] = world.setdefault("hands", {})
    await move_by_clicks(actor, thread, table, session, hands)
    return True


async def play_round(
    env: simcord.Env,
    world: dict[str, Any],
    tournament_id: int,
    number: int,
    absent: set[int],
    *,
    stop_after_games: int | None = None,
) -> None:
    """Play round ``number``'s tables; the absent player's turns run out on the clock (only
    once every other table waits, so no present player is ever timed out)."""
    finished = 0
    for _ in range(200):
        svc = service(env)
        view = await svc.tournament_view(tournament_id)
        if view.row.round != number or view.row.status != "running":
            return
        tables = [t for t in view.round_tables(number) if t.game_id is not None and not t.over]
        if not tables:
            await env.settle()
            continue
        waiting = False
        for table in tables:
            assert table.game_id is not None
            for _step in range(2000):
                session = svc.session(table.game_id)
                assert session is not None
                if session.finished:
                    finished += 1
                    break
                if not await move_present(world, session, absent):
                    waiting = True
                    break
            if stop_after_games is not None and finished >= stop_after_games:
                return
        await env.settle()
        if waiting:
            await env.advance_time(TURN + 1)
    view = await service(env).tournament_view(tournament_id)
    states = [
        (
            t,
            (s := service(env).session(t.game_id or 0))
            and (
                s.status,
                s.deadline,
                s.strikes,
                [s.game.legal_actions(i) for i in range(2)],
                s.timer_task,
                s.version,
                s.timer_version,
                s.reminded,
                s.timer_seconds,
            ),
        )
        for t in view.round_tables(number)
    ]
    raise AssertionError(f"round {number} did not end: {view.row} {states} {env.now()}")
