"""What discord.py's public API costs a move by itself: the floor under the event loop's
share of issue 30's aim, apart from the bot and from Discord.

A move in a two-player game with both hands open makes discord.py do four things (counted
on the real bot under simcord, and recorded here): parse the click's INTERACTION_CREATE into
an ``Interaction`` (the clicked message included), answer it with the mover's new hand
(``InteractionResponse.edit_message``), edit the other player's hand
(``Interaction.edit_original_response``) and edit the table with its picture
(``PartialMessage.edit``). This script records every such payload, request body and answer
while the real bot plays a few games under simcord, then makes the same public calls again
with the fewest objects the API takes (an ``Embed`` from the body's dict, a stopped ``View``
of plain ``Button`` items, which discord.py does not store, a ``File`` of the same bytes)
through a transport that returns the recorded answer at once. What it times is therefore
discord.py alone: turning the objects into a request and the answer into a ``Message``
(every public route parses one); not the bot's renders, not Discord, not aiohttp. A real
connection adds at least JSON both ways, printed apart (``json.dumps`` of each body,
``json.loads`` of each answer), and aiohttp's own work per request, which is not counted.

CPU time (``time.process_time``), the fastest of ``--repeats`` passes over all recorded
moves; prints figures, never asserts.

    .venv/bin/python bench/loop_floor.py [--games 4] [--moves 30] [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
import simcord
from discord.webhook import async_ as webhook_async
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

from bench.loop_answer import open_game
from bot.cardart.emojis import wanted_emojis
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import move

PARTS = (
    "click parsed",
    "answer (edit_message)",
    "other hand (edit_original_response)",
    "table (PartialMessage.edit)",
)


@dataclass
class Request:
    """One request the bot made: which of a move's three it was, its JSON body, its files and
    Discord's answer, all the replay needs to make the same public call again."""

    kind: str
    body: dict[str, Any]
    files: list[tuple[str, bytes]]
    answer: Any


@dataclass
class Move:
    """What one move click made discord.py handle, kept apart so the floor is per move."""

    click: dict[str, Any] | None = None
    requests: list[Request] = field(default_factory=list)


class Recorder:
    """Wraps simcord's two transports and the gateway's interaction parser."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.on = False

    def _files(self, files: Any) -> list[tuple[str, bytes]]:
        out = []
        for f in files or []:
            pos = f.fp.tell()
            out.append((f.filename, f.fp.read()))
            f.fp.seek(pos)
        return out

    def install(self) -> None:
        rec = self
        http_request = FakeHTTPClient.request
        hook_request = FakeWebhookAdapter.request
        parse = discord.state.ConnectionState.parse_interaction_create
        self._saved = (http_request, hook_request, parse)

        async def on_http(
            self: Any, route: Any, *, files: Any = None, form: Any = None, **kw: Any
        ) -> Any:
            kept = rec._files(files)
            answer = await http_request(self, route, files=files, form=form, **kw)
            if rec.on and route.method == "PATCH" and route.path.startswith("/channels/"):
                body = kw.get("json")
                for part in form or []:
                    if part.get("name") == "payload_json":
                        body = json.loads(part["value"])
                rec.moves[-1].requests.append(Request("table", body or {}, kept, answer))
            return answer

        async def on_hook(self: Any, route: Any, session: Any, **kw: Any) -> Any:
            files = rec._files(kw.get("files"))
            answer = await hook_request(self, route, session, **kw)
            if rec.on:
                body = kw.get("payload") or {}
                for part in kw.get("multipart") or []:
                    if part.get("name") == "payload_json":
                        body = json.loads(part["value"])
                kind = "answer" if route.path.endswith("/callback") else "other hand"
                rec.moves[-1].requests.append(Request(kind, body, files, answer))
            return answer

        def on_interaction(self: Any, data: Any) -> None:
            if rec.on:
                rec.moves[-1].click = data
            parse(self, data)

        FakeHTTPClient.request = on_http  # type: ignore[method-assign]
        FakeWebhookAdapter.request = on_hook  # type: ignore[method-assign]
        discord.state.ConnectionState.parse_interaction_create = on_interaction  # type: ignore[method-assign]

    def uninstall(self) -> None:
        """Put the transports back (a test process goes on using simcord)."""
        http_request, hook_request, parse = self._saved
        FakeHTTPClient.request = http_request  # type: ignore[method-assign]
        FakeWebhookAdapter.request = hook_request  # type: ignore[method-assign]
        discord.state.ConnectionState.parse_interaction_create = parse  # type: ignore[method-assign]


def view_of(rows: list[dict[str, Any]]) -> discord.ui.View:
    """A stopped view of plain items with the components' fields (stopped: not stored)."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows):
        for c in row["components"]:
            if c["type"] == 3:
                view.add_item(select_of(c, r))
                continue
            if c["type"] != 2:
                raise SystemExit(f"component type {c['type']} not modelled here")
            emoji = c.get("emoji")
            view.add_item(
                discord.ui.Button(
                    style=discord.ButtonStyle(c.get("style", 2)),
                    label=c.get("label"),
                    emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None,
                    custom_id=c.get("custom_id"),
                    url=c.get("url"),
                    disabled=c.get("disabled", False),
                    row=r,
                )
            )
    view.stop()
    return view


def select_of(c: dict[str, Any], row: int) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(
            label=o["label"],
            value=o["value"],
            description=o.get("description"),
            emoji=discord.PartialEmoji.from_dict(o["emoji"]) if o.get("emoji") else None,
            default=o.get("default", False),
        )
        for o in c.get("options", [])
    ]
    return discord.ui.Select(
        custom_id=c["custom_id"],
        placeholder=c.get("placeholder"),
        min_values=c.get("min_values", 1),
        max_values=c.get("max_values", 1),
        options=options,
        disabled=c.get("disabled", False),
        row=row,
    )


def fields_of(body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
    """The public API's keyword arguments for a message body."""
    out: dict[str, Any] = {}
    if "content" in body:
        out["content"] = body["content"]
    if "embeds" in body:
        out["embeds"] = [discord.Embed.from_dict(e) for e in body["embeds"]]
    if "components" in body:
        out["view"] = view_of(body["components"])
    if files:
        out["attachments"] = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
    return out


class Instant:
    """The answer the next request returns, for both transports."""

    answer: Any = None

    async def http(self, route: Any, **kw: Any) -> Any:
        return self.answer


class InstantHook(FakeWebhookAdapter):
    """simcord's adapter, whose named helpers are discord.py's own, answering at once."""

    def __init__(self, instant: Instant) -> None:
        super().__init__(None)  # type: ignore[arg-type]
        self.instant = instant

    async def request(self, route: Any, session: Any, **kw: Any) -> Any:
        return self.instant.answer


async def replay(env: Any, moves: list[Move], repeats: int) -> dict[str, float]:
    state = env.bot._connection
    instant = Instant()
    env.bot.http.request = instant.http
    previous = webhook_async.async_context.get()
    webhook_async.async_context.set(InstantHook(instant))  # type: ignore[arg-type]
    clicks = [m.click for m in moves if m.click is not None]
    holder = discord.Interaction(data=clicks[0], state=state)  # type: ignore[arg-type]
    best: dict[str, float] = {}
    try:
        for _ in range(repeats):
            spent: dict[str, float] = defaultdict(float)
            for m in moves:
                inter = None
                if m.click is not None:
                    t = time.process_time()
                    inter = discord.Interaction(data=m.click, state=state)  # type: ignore[arg-type]
                    spent[PARTS[0]] += time.process_time() - t
                for r in m.requests:
                    instant.answer = r.answer
                    t = time.process_time()
                    kw = fields_of(r.body.get("data", r.body), r.files)
                    if r.kind == "answer":
                        assert inter is not None
                        kind = r.body.get("type")
                        if kind == 7:  # the hand after the move, as the click's answer
                            await inter.response.edit_message(**kw)
                        elif kind == 6:  # a deferred answer; the hand follows as an edit
                            await inter.response.defer()
                        else:
                            raise SystemExit(f"answer of type {kind} not modelled here")
                        part = PARTS[1]
                    elif r.kind == "other hand":
                        # the other hand's interaction (or the mover's, after a deferred
                        # answer): only its token matters to the route
                        await holder.edit_original_response(**kw)
                        part = PARTS[2]
                    else:
                        target = env.bot.get_channel(int(r.answer["channel_id"]))
                        await target.get_partial_message(int(r.answer["id"])).edit(**kw)
                        part = PARTS[3]
                    spent[part] += time.process_time() - t
            for k, v in spent.items():
                best[k] = min(best.get(k, v), v)
    finally:
        webhook_async.async_context.set(previous)
    return best


def json_both_ways(moves: list[Move], repeats: int) -> float:
    """CPU of ``json.dumps`` of every body and ``json.loads`` of every answer and click."""
    texts = [json.dumps(r.answer) for m in moves for r in m.requests if r.answer]
    texts += [json.dumps(m.click) for m in moves if m.click]
    bodies = [r.body for m in moves for r in m.requests]
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        for b in bodies:
            json.dumps(b, separators=(",", ":"), ensure_ascii=True)
        for s in texts:
            json.loads(s)
        best = min(best, time.process_time() - t)
    return best


async def play(games: int, moves: int, repeats: int) -> None:
    rec = Recorder()
    rec.install()
    try:
        recorded, best = await record_and_replay(rec, games, moves, repeats)
    finally:
        rec.uninstall()
    report(recorded, best, games, repeats)


async def record_and_replay(
    rec: Recorder, games: int, moves: int, repeats: int
) -> tuple[list[Move], dict[str, float]]:
    wanted_emojis()
    with tempfile.TemporaryDirectory() as tmp:
        async with simcord.run(make_bot(Path(tmp) / "durak.db")) as env:
            guild = build_world(env)["guild"]
            for g in range(games):
                game = await open_game(env, guild, g)
                await env.advance_time(3)
                for _ in range(moves):
                    turn = game.next_move()
                    if turn is None:
                        break
                    actor, hand = turn
                    rec.moves.append(Move())
                    rec.on = True
                    await move(actor, hand)
                    # a move every 4 s: the live hand's and the table's edits fall due
                    await env.advance_time(4)
                    rec.on = False
            recorded = [m for m in rec.moves if m.click is not None]
            best = await replay(env, recorded, repeats)
    return recorded, best


def report(recorded: list[Move], best: dict[str, float], games: int, repeats: int) -> None:
    n = len(recorded)
    count: dict[str, int] = defaultdict(int)
    for m in recorded:
        for r in m.requests:
            count[r.kind] += 1
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"discord.py's public API per move, CPU ms (fastest of {repeats} passes over {n} "
        f"recorded moves of {games} two-player games; load {load})"
    )
    print(f"  requests recorded: {dict(count)}")
    total = 0.0
    for part in PARTS:
        ms = best.get(part, 0.0) / n * 1000
        total += ms
        print(f"  {part:40s} {ms:6.3f}")
    print(f"  {'all four (discord.py alone)':40s} {total:6.3f}")
    extra = json_both_ways(recorded, repeats) / n * 1000
    print(f"  {'+ JSON both ways on a real connection':40s} {extra:6.3f}  (aiohttp not counted)")
    print(f"  {'floor per move':40s} {total + extra:6.3f}  (issue 30's event loop aim: 1 ms)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--moves", type=int, default=30, help="moves recorded per game at most")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args(argv)
    asyncio.run(play(args.games, args.moves, args.repeats))


if __name__ == "__main__":
    main()
