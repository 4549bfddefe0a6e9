"""The "Play at the table" button where Discord launches the Activity.

simcord refuses the launch response (type 12), as Discord does where Activities cannot run;
test_sockets.py checks that refusal's private answer. Here simcord's HTTP boundary is taught
Discord's documented success (Interactions → Receiving and Responding: the
``LAUNCH_ACTIVITY`` callback takes no data; ``with_response`` returns the interaction with
its ``activity_instance_id`` and a ``resource`` of type 12 naming the activity instance), so
the bot's real click handler, discord.py's real ``launch_activity`` and its parsing of the
answer all run. What this cannot cover: Discord's own decision to open the Activity in the
client, and the network write itself (simcord replaces only discord.py's generic
``AsyncWebhookAdapter.request``, the same one every other interaction answer goes through).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.backend import errors
from simcord.http import router
from simcord.http.routes.interactions import interaction_callback

from bot.i18n import t
from tests.activity.sockets import serve_activity, three_player_game
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import labels, message

LAUNCH_ACTIVITY = 12  # Discord's interaction callback type


@contextmanager
def discord_launches_activities() -> Iterator[list[str]]:
    """simcord's interaction callback route, answering ``LAUNCH_ACTIVITY`` as Discord does
    where an Activity may run; yields the activity instance ids it launched."""
    routes = router._ROUTES["POST"]
    index = next(i for i, (_, handler) in enumerate(routes) if handler is interaction_callback)
    template = routes[index][0]
    launched: list[str] = []

    def callback(ctx: router.RequestContext) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return interaction_callback(ctx)
        ctx.fields("type")  # the launch carries nothing else: any other field fails loudly
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        record.responded = True
        instance = f"i-{record.id}-gc-{record.channel_id}"
        launched.append(instance)
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": instance,
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            },
            "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance}},
        }

    routes[index] = (template, callback)
    try:
        yield launched
    finally:
        routes[index] = (template, interaction_callback)


@pytest.mark.slow(sample=1)  # a game on simcord: in make test, not make check
async def test_play_at_the_table_launches_the_activity(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers: list[discord.InteractionCallbackResponse[Any]] = []
    launch = discord.InteractionResponse.launch_activity

    async def recording(self: discord.InteractionResponse[Any]) -> Any:
        answers.append(await launch(self))
        return answers[-1]

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", recording)
    bot = make_bot(db_path)
    async with simcord.run(bot) as env:
        world = build_world(env)
        await serve_activity(bot)  # before the game: its table has the button from the start
        session = await three_player_game(env, world)
        table = message(world["channel"], session.message_id or 0)
        play = t("activity.button.play", "en")
        assert play in labels(table)
        sent = len(env.backend.http_requests)
        with discord_launches_activities() as launched:
            clicked = await world["bob"].click(table, label=play)
        # answered by the launch itself: no message, no private fallback
        assert clicked.acknowledged and clicked.response is None
        assert len(launched) == 1
        calls = [
            r
            for r in env.backend.http_requests[sent:]
            if r.path.startswith("/interactions/") and r.path.endswith("/callback")
        ]
        assert [(c.method, c.json, c.params) for c in calls] == [
            ("POST", {"type": LAUNCH_ACTIVITY}, {"with_response": "1"})
        ]
        # discord.py read Discord's answer: the instance the client opens
        (answer,) = answers
        assert answer.activity_id == launched[0]
        assert isinstance(answer.resource, discord.InteractionCallbackActivityInstance)
        assert answer.resource.id == launched[0]
        await bot.close()
