"""The Activity's socket against the real bot on simcord (no browser: tests/activity/
test_browser.py plays in Chromium): each socket sees its own seat, a move from it is the
chat's move, and forged messages are refused and change nothing."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
import simcord

from bot.i18n import t
from tests.activity.sockets import Client, chat_table_shows, serve_activity, three_player_game
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import labels, message


@pytest.mark.slow(sample=1)  # a game on simcord: in make test, not make check
async def test_sockets_play_a_seat_and_forged_messages_change_nothing(db_path: Path) -> None:
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        world = build_world(env)
        session = await three_player_game(env, world)
        play = t("activity.button.play", "en")
        # off unless configured: no endpoint, and the service's publisher is the Discord one
        assert bot.activity_server is None and bot.service.publisher is bot.publisher
        assert play not in labels(message(world["channel"], session.message_id))
        base = await serve_activity(bot)
        game = session.game
        users = [world[n] for n in ("alice", "bob", "carol")]
        seat_of = {u.name: session.seat_of(u.id) for u in users}
        attacker = next(u for u in users if seat_of[u.name] == game.attacker)
        other = next(u for u in users if seat_of[u.name] not in (game.attacker,))
        async with aiohttp.ClientSession() as http:
            mine, theirs, watcher = Client(http, base), Client(http, base), Client(http, base)
            first = await mine.sign_in(attacker)
            assert first["seat"] == game.attacker and len(first["hand"]) == 6
            seen = await theirs.sign_in(other)
            assert not set(seen["hand"]) & set(first["hand"])
            public = await watcher.sign_in(world["eve"], world["channel"].id)
            assert public["seat"] == -1 and public["hand"] == [] and public["moves"] == []
            # the browser names the channel: someone of another server sees nothing of it
            other_guild = env.create_guild("Elsewhere")
            stranger = other_guild.add_member(env.create_user("mallory"))
            async with aiohttp.ClientSession() as http2:
                outsider = await Client(http2, base).sign_in(stranger, world["channel"].id)
            assert outsider["op"] == "idle" and "hand" not in outsider
            version = session.version
            refusals = {t(f"activity.refused.{k}", "en") for k in ("stale", "malformed", "illegal")}
            hands = [game.hands[s] for s in range(game.n)]

            lead = next(m["send"] for m in first["moves"] if m["kind"] == "attack")
            defender_move = f"{game.defender} take"
            not_held = next(c for c in seen["hand"])  # another seat's card
            forged = [
                {"op": "act", "version": version, "action": defender_move},  # another seat
                {"op": "act", "version": version - 1, "action": lead},  # stale
                {"op": "act", "version": version, "action": f"{game.attacker} attack {not_held}"},
                {"op": "act", "version": version, "action": "0 attack 1x"},  # not notation
                {"op": "act", "version": "x", "action": lead},
            ]
            for bad in forged:
                await mine.send(bad)
                answer = await mine.receive()
                assert answer["op"] == "refused", (bad, answer)
                assert answer["text"] in refusals, answer
                assert (await mine.receive())["version"] == version  # the true table again
            assert session.version == version
            assert [session.game.hands[s] for s in range(game.n)] == hands

            # a token of someone else (or a forged one) on this socket: closed, nothing read
            await theirs.send({"op": "act", "version": version, "action": lead}, token=mine.token)
            assert (await theirs.receive())["op"] == "unauthorized"
            await watcher.send({"op": "act", "version": version, "action": lead}, token="1.9.x")
            assert (await watcher.receive())["op"] == "unauthorized"
            assert session.version == version

            # the real move: every socket of the game hears it, and the chat table shows it
            await mine.send({"op": "act", "version": version, "action": lead})
            after = await mine.frame(version + 1)
            assert len(after["table"]) == 1 and after["table"][0][0] not in after["hand"]
            assert session.version == version + 1
            card = after["table"][0][0]
            table = await chat_table_shows(env, world["channel"], session.message_id, card)
            # the table now offers the Activity; where Discord cannot launch it (simcord
            # refuses the launch response, as Discord does where Activities cannot run)
            # the click is answered privately with where to start it
            assert play in labels(table)
            clicked = await attacker.click(table, label=play)
            assert clicked.response is not None and clicked.response.ephemeral
            assert clicked.response.content == t("activity.launch_failed", "en")
        await bot.close()
