"""The simulated world of bot_load: tables set up through real slash commands and clicks,
and the clicks of the measured rounds, emitted without settling in between."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from discord.webhook.async_ import AsyncWebhookAdapter
from simcord import actors as sim_actors
from simcord import interactions as sim_interactions
from simcord.backend import serializers as sim_serializers
from simcord.backend.access import can_access_message
from simcord.backend.models import Interaction as SimInteraction
from simcord.components import walk_components
from simcord.enums import AppCommandType, ComponentType, InteractionType

from bench.bot_load.measure import Samples, simulator_history_out_of_gc
from bench.bot_load.options import (
    ANSWER_WAIT_SECONDS,
    FREEZE_EVERY,
    GAMES_PER_GUILD,
    MOVE_WAIT_SECONDS,
    SETUP_INFLIGHT,
    SETUP_WAIT_SECONDS,
    Options,
    T,
)
from bot.config import Config
from bot.game.models import GameSession
from bot.game.service import GameService

# simcord marks an interaction answered through one of these methods of its record.
_RESPONSE_MARKERS = ("respond_with_message", "defer", "defer_update", "update_source")


# --------------------------------------------------------------------------- clicks


@dataclass(frozen=True)
class Command:
    """A slash command one actor sends in one channel (see :meth:`Clicker.command`)."""

    actor: simcord.MemberActor
    channel: simcord.ChannelHandle
    name: str
    options: tuple[tuple[str, Any], ...] = ()


class Clicker:
    """Emits component clicks without settling in between and times their responses."""

    def __init__(self, env: simcord.Env, opts: Options) -> None:
        self.env = env
        self.opts = opts
        self.pace = random.Random(opts.seed + 1)  # arrivals; the moves have their own stream
        self.sent: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        #: bot side: discord.py starts parsing the event / the bot sends its response
        self.received: dict[int, float] = {}
        self.responded: dict[int, float] = {}
        self._pending: set[int] = set()
        self._emitting = False
        self._all_answered: asyncio.Future[None] | None = None

    def on_response(self, record: SimInteraction) -> None:
        if record.id in self.sent and record.id not in self.answered:
            self.answered[record.id] = time.perf_counter()
            self._pending.discard(record.id)
            done = self._all_answered
            if not (self._pending or self._emitting) and done is not None and not done.done():
                done.set_result(None)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Timestamp each click where the bot receives it and answers it, and where simcord
        records the answer; every hook wraps a library method from the outside."""
        with self._bot_side():
            yield

    @contextmanager
    def _bot_side(self) -> Iterator[None]:
        """The bot's own acknowledge time: from discord.py starting to parse the gateway event
        to the bot issuing the interaction-response request. This is what Discord's 3-second
        deadline and a player's wait depend on; simcord's work to build the event and to
        record the answer (deep copies of every payload) is outside it, though simcord's
        other callbacks still share the event loop and so still delay it."""
        parsers: dict[str, Callable[[Any], None]] = self.env.bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]  # bound when the bot was built
        respond = AsyncWebhookAdapter.create_interaction_response
        received, responded = self.received, self.responded

        def on_parse(data: Any) -> None:
            received.setdefault(int(data["id"]), time.perf_counter())
            parse(data)

        def on_respond(adapter: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
            responded.setdefault(int(interaction_id), time.perf_counter())
            return respond(adapter, interaction_id, *args, **kwargs)

        parsers["INTERACTION_CREATE"] = on_parse
        AsyncWebhookAdapter.create_interaction_response = on_respond  # type: ignore[method-assign]
        try:
            with self._simcord_side():
                yield
        finally:
            parsers["INTERACTION_CREATE"] = parse
            AsyncWebhookAdapter.create_interaction_response = respond  # type: ignore[method-assign]

    @contextmanager
    def _simcord_side(self) -> Iterator[None]:
        """Wrap simcord's response markers (from the outside) to timestamp each answer."""
        originals = {name: getattr(SimInteraction, name) for name in _RESPONSE_MARKERS}

        def wrap(original: Callable[..., None]) -> Callable[..., None]:
            def marker(record: SimInteraction, *args: Any, **kwargs: Any) -> None:
                original(record, *args, **kwargs)
                self.on_response(record)

            return marker

        for name, original in originals.items():
            setattr(SimInteraction, name, wrap(original))
        try:
            yield
        finally:
            for name, original in originals.items():
                setattr(SimInteraction, name, original)

    def press(
        self, actor: simcord.MemberActor, channel_id: int, message_id: int, custom_id: str
    ) -> SimInteraction:
        """What ``actor.click(message, custom_id=...)`` sends, minus the settle."""
        backend = self.env.backend
        stored = backend.get_message(channel_id, message_id)
        if not can_access_message(self.env, channel_id, stored, actor):
            raise simcord.SetupError(f"{actor.name} cannot see message {message_id}")
        buttons = [
            c
            for c in walk_components(stored.components)
            if c.get("type") == ComponentType.BUTTON and c.get("custom_id") == custom_id
        ]
        if not buttons and custom_id.startswith(("durak:hand:", "durak:act:", "durak:card:")):
            # A live edit redrew this hand between planning the click and sending it (the
            # clicks of a round are spread over seconds): press the same kind of button on
            # the hand as it is now, as the player would.
            kind = ":".join(custom_id.split(":")[:2]) + ":"
            same = [
                c
                for c in walk_components(stored.components)
                if c.get("type") == ComponentType.BUTTON
                and str(c.get("custom_id") or "").startswith(kind)
            ]
            buttons = same[:1]
            custom_id = str(buttons[0]["custom_id"]) if buttons else custom_id
        if len(buttons) != 1 or buttons[0].get("disabled"):
            raise StaleHand(f"no clickable button {custom_id!r} on {message_id}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
        if buttons[0].get("id") is not None:
            data["id"] = buttons[0]["id"]
        record, payload = sim_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=channel_id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        payload["message"] = dict(sim_serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        self.sent[record.id] = time.perf_counter()
        self._pending.add(record.id)
        backend.emit("INTERACTION_CREATE", payload)
        return record

    def command(self, command: Command) -> SimInteraction:
        """What ``actor.slash(channel, name, **options)`` sends, minus the settle: simcord
        settles the whole bot after every slash command (see :func:`open_tables`)."""
        actor, channel = command.actor, command.channel
        parts = command.name.split()
        root = sim_actors._resolve_visible_command(
            actor, channel.id, parts[0], AppCommandType.CHAT_INPUT
        )
        leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
        options, resolved = sim_interactions.build_options(
            actor, command.name, leaf, dict(command.options), channel_id=channel.id
        )
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", AppCommandType.CHAT_INPUT),
            "options": sim_interactions.nest_options(root, nesting, options),
        }
        if resolved:
            data["resolved"] = resolved
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        record, payload = sim_interactions.base_payload(
            self.env.backend,
            type=InteractionType.APPLICATION_COMMAND,
            channel_id=channel.id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        self.sent[record.id] = time.perf_counter()
        self._pending.add(record.id)
        self.env.backend.emit("INTERACTION_CREATE", payload)
        return record

    async def wave(
        self,
        clicks: Sequence[tuple[simcord.MemberActor, int, int, str]] | Sequence[Command],
        *,
        paced: bool = True,
        stale: list[int] | None = None,
    ) -> list[SimInteraction]:
        """Emit the clicks (all at once, or paced as :meth:`Options.gaps` says) and wait for
        every answer. ``paced`` is False for the setup: its clicks go out at once and nothing
        is frozen (see :func:`simulator_history_out_of_gc`).

        Background work (table edits, pings) is not drained: it overlaps the next wave, as
        under continuous load, and simcord's settle scans every parked task against every
        pending timer, which at 1,000 games would cost more than the clicks. Pacing sleeps in
        a worker thread: simcord makes the loop's clock virtual, so an ``asyncio.sleep`` here
        would wait for simulated time. With ``stale`` given, a click whose button a live edit
        has meanwhile removed is not sent and its index goes there (a player would see the
        new hand and not press anything)."""
        loop = asyncio.get_running_loop()
        self._pending.clear()
        self._all_answered = loop.create_future()
        self._emitting = True
        records = []
        gaps = self.opts.gaps(len(clicks), self.pace) if paced else []
        start = time.perf_counter()
        try:
            due = start
            for i, click in enumerate(clicks):
                if gaps:
                    due += gaps[i]
                    delay = due - time.perf_counter()
                    if delay > 0.0002:
                        await loop.run_in_executor(None, time.sleep, delay)
                try:
                    if isinstance(click, Command):
                        records.append(self.command(click))
                    else:
                        records.append(self.press(*click))
                except StaleHand:
                    if stale is None:
                        raise
                    stale.append(i)
                if paced and (i + 1) % FREEZE_EVERY == 0:  # rounds only: see run_size
                    simulator_history_out_of_gc(self.opts)
        finally:
            self._emitting = False
        if self._pending:
            # An answer Discord (simcord) refused, 3 s after its click, never comes: wait for
            # the others, ANSWER_WAIT_SECONDS at most, then go on without it. The limit sleeps
            # in a worker thread (the loop's timers follow simcord's clock) and is woken as
            # soon as every answer is in.
            woken = threading.Event()
            limit = loop.run_in_executor(None, woken.wait, ANSWER_WAIT_SECONDS)
            await asyncio.wait({self._all_answered, limit}, return_when=asyncio.FIRST_COMPLETED)
            woken.set()
            await limit
        self._all_answered = None
        self._pending.clear()
        return records

    def forget(self) -> None:
        """Drop the timestamps of finished waves (they would count as the bench's memory)."""
        for times in (self.sent, self.answered, self.received, self.responded):
            times.clear()

    def latency(self, record: SimInteraction) -> float:
        return self.answered[record.id] - self.sent[record.id]

    def record(self, samples: Samples, records: Sequence[SimInteraction]) -> None:
        """Add the waves' two acknowledge times (bot side and end to end) to ``samples``."""
        for r in records:
            if r.id not in self.answered or r.id not in self.responded:
                samples.lost += 1  # refused as too late (see wave): no time to add
                continue
            samples.e2e.append(self.latency(r))
            samples.ack.append(self.responded[r.id] - self.received[r.id])


def timed(sink: list[float], method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """An async method wrapper that appends its wall time to ``sink``."""

    async def wrapper(*args: Any, **kwargs: Any) -> T:
        start = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            sink.append(time.perf_counter() - start)

    return wrapper


class StaleHand(simcord.SetupError):
    """The button to press is gone from the message (a live edit redrew it meanwhile)."""


# --------------------------------------------------------------------------- the world


@dataclass
class Table:
    """One live game as its players see it."""

    game_id: int
    channel: simcord.ChannelHandle
    message_id: int
    actors: dict[int, simcord.MemberActor]  # user id -> actor
    hands: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (msg, version)

    @property
    def channel_id(self) -> int:
        return self.channel.id


def make_config(
    db_path: Path, edit_interval: float, turn_timer: int, database_url: str | None = None
) -> Config:
    return Config(
        discord_token=None,
        database_path=db_path,
        dev_guild_id=None,
        log_level="WARNING",
        ai_delay_seconds=0.0,
        table_edit_interval=edit_interval,
        default_turn_timer_seconds=turn_timer,
        shard_count=1,  # simcord needs the count Discord would recommend for the sharded bot
        database_url=database_url,
        # One channel per game, the table in it: the thread default would add a notice and
        # a thread per game to the setup, and nothing to the clicks measured.
        default_threads=False,
    )


def service_of(env: simcord.Env) -> GameService:
    service = getattr(env.bot, "service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("the bot has no game service")
    return service


def one_click_moves(ids: list[str], session: Any, seat: int) -> list[str]:
    """The ids on a hand that make a move in one click: verbs, and taps on a card whose
    one-card use is one move (tap-a-card: a tap on a card with several uses selects it)."""
    from bot.surfaces.hand_controls import controls

    direct = {str(tp.card) for tp in controls(session.game.observation(seat)).taps if tp.action}
    return [
        c
        for c in ids
        if c.startswith("durak:act:")
        or (c.startswith("durak:card:") and c.rsplit(":", 1)[1] in direct)
    ]


def custom_ids(env: simcord.Env, channel_id: int, message_id: int, prefix: str) -> list[str]:
    stored = env.backend.get_message(channel_id, message_id)
    return [
        str(c["custom_id"])
        for c in walk_components(stored.components)
        if str(c.get("custom_id") or "").startswith(prefix)
    ]


def lobby_button(env: simcord.Env, channel_id: int, message_id: int, op: str) -> str:
    ids = custom_ids(env, channel_id, message_id, "durak:lobby:")
    found = [i for i in ids if i.endswith(f":{op}")]
    if len(found) != 1:
        raise RuntimeError(f"lobby {message_id} has no {op} button")
    return found[0]


async def open_tables(
    env: simcord.Env,
    clicker: Clicker,
    guilds: Sequence[simcord.GuildHandle],
    games: int,
    players: int,
    samples: Samples,
    opts: Options,
    first: int = 0,
) -> list[Table]:
    """Start ``games`` games in batches of ``--setup-batch``.

    Nothing here asks simcord to settle: its settle waits, in idle steps, until every task
    of the whole bot is parked (every earlier game's too), which cost about 0.4 s per slash
    command at load 16-22, and under load a settle could run out of time ("bot did not
    settle while advancing time"). Each batch instead waits for what it needs from the bot
    itself: the answers to its clicks, the lobbies recorded with their messages, the tables
    drawn, and nothing owed to Discord."""
    tables: list[Table] = []
    for done in range(0, games, max(1, opts.setup_batch)):
        count = min(max(1, opts.setup_batch), games - done)
        began = time.perf_counter()
        tables += await _open_batch(
            env, clicker, guilds, range(first + done, first + done + count), players, samples, opts
        )
        if games > count:
            progress(
                f"set up {done + count} of {games} games "
                f"(this batch of {count} in {time.perf_counter() - began:.1f} s)"
            )
    return tables


async def _open_batch(
    env: simcord.Env,
    clicker: Clicker,
    guilds: Sequence[simcord.GuildHandle],
    indices: range,
    players: int,
    samples: Samples,
    opts: Options,
) -> list[Table]:
    """``/durak new`` in a channel of its own per game (sent at once), then the Join clicks
    of every lobby in waves, then the Start clicks, then wait until every table is up."""
    rooms = []
    for index in indices:
        guild = guilds[index // GAMES_PER_GUILD]
        channel = guild.create_text_channel(f"table-{index}")
        actors = [guild.add_member(env.create_user(f"p{index}-{seat}")) for seat in range(players)]
        rooms.append((channel, actors))
    commands = [
        Command(actors[0], channel, "durak new", (("seats", players),)) for channel, actors in rooms
    ]
    lobbies: list[tuple[simcord.ChannelHandle, list[simcord.MemberActor], int, int]] = []
    for wave in _waves(commands, opts, setup=True, most=SETUP_INFLIGHT):
        for command, record in zip(wave, await clicker.wave(wave, paced=False), strict=True):
            if record.message_id is None:
                raise RuntimeError(f"/durak new was refused in {command.channel.name}")
            join = lobby_button(env, command.channel.id, record.message_id, "join")
            game_id = int(join.split(":")[2])
            lobbies.append((command.channel, rooms[len(lobbies)][1], record.message_id, game_id))
    storage = service_of(env).storage

    async def recorded() -> bool:
        """Every lobby knows its message (the bot records it after answering)."""
        for _, _, message_id, game_id in lobbies:
            row = await storage.get_game(game_id)
            if row is None or row.table_message_id != message_id:
                return False
        return True

    await _until(recorded, "the lobbies were recorded with their messages")
    for step in range(1, players + 1):
        clicks = []
        for channel, actors, message_id, _ in lobbies:
            op = "start" if step == players else "join"
            actor = actors[0] if op == "start" else actors[step]
            clicks.append(
                (actor, channel.id, message_id, lobby_button(env, channel.id, message_id, op))
            )
        for wave in _waves(clicks, opts, setup=True, most=SETUP_INFLIGHT):
            start = time.perf_counter()
            records = await clicker.wave(wave, paced=False)
            samples.wall += time.perf_counter() - start
            clicker.record(samples, records)
    service = service_of(env)

    async def started() -> bool:
        """Every lobby message has become a table and nothing is owed to Discord."""
        for channel, _, message_id, game_id in lobbies:
            shows = custom_ids(env, channel.id, message_id, "durak:show:")
            if len(shows) != 1 or service.session(game_id) is None:
                return False
        return not owes_discord(env.bot)

    await _until(started, "the games started and their tables were drawn")
    return [
        Table(game_id, channel, message_id, {a.id: a for a in actors})
        for channel, actors, message_id, game_id in lobbies
    ]


async def _until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Poll ``check`` until it holds, at most SETUP_WAIT_SECONDS of real time. Polled from a
    worker thread's sleep: the loop's timers follow simcord's clock, not the real one."""
    loop = asyncio.get_running_loop()
    end = time.perf_counter() + SETUP_WAIT_SECONDS
    while not await check():
        if time.perf_counter() > end:
            raise RuntimeError(f"not within {SETUP_WAIT_SECONDS:g} s: {what}")
        await loop.run_in_executor(None, time.sleep, 0.02)


def owes_discord(bot: Any) -> bool:
    """Whether the bot still has a live hand edit or a table edit, result or ping pending."""
    live, delivery = bot.live_hands, bot.publisher.delivery if bot.publisher else None
    busy_hands = live is not None and any(
        w.task is not None and not w.task.done() for w in live._workers.values()
    )
    return busy_hands or (delivery is not None and bool(delivery._games))


def progress(text: str) -> None:
    """A line on stderr while a long run goes on (the figures come at the end, on stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def warm_up(
    env: simcord.Env, clicker: Clicker, guild: simcord.GuildHandle, opts: Options
) -> None:
    """One game started, played one move and cancelled: loads lazy imports and caches so the
    per-game memory figures do not carry one-off costs."""
    (table,) = await open_tables(env, clicker, [guild], 1, opts.players, Samples(), opts, first=-1)
    session = service_of(env).session(table.game_id)
    if session is None:
        raise RuntimeError("the warm-up game did not start")
    actor = table.actors[session.seats[session.game.attacker].user_id or 0]
    (shown,) = await clicker.wave(
        [(actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")], paced=False
    )
    assert shown.message_id is not None
    # A tap on the first card leads it: every card of a leader's hand has a one-card lead,
    # which is one click even when the card has partners of its rank (their leads together
    # are in the "Play several cards…" menu).
    tap = custom_ids(env, table.channel_id, shown.message_id, "durak:card:")[0]
    version = session.version
    await clicker.wave([(actor, table.channel_id, shown.message_id, tap)], paced=False)
    # (the click may be acknowledged before the move is applied: wait for the move)
    await _moves_applied(service_of(env), [(table.game_id, version)])
    after = service_of(env).session(table.game_id)
    if after is None or after.version == version:
        raise RuntimeError("the warm-up game's first tap made no move")
    await table.actors[session.host_id].slash(table.channel, "durak cancel")


def next_seat(session: GameSession) -> int | None:
    """Defender first, then attackers by priority, then anyone: never a harmful wait."""
    g = session.game
    order: list[int] = [g.defender, *g.eligible_attackers(), *range(g.n)]
    for seat in order:
        if g.legal_actions(seat):
            return seat
    return None


def _finished(service: GameService, table: Table) -> bool:
    session = service.session(table.game_id)
    return session is None or session.finished


def _waves(
    items: list[T], opts: Options, *, setup: bool = False, most: int = 0
) -> Iterator[list[T]]:
    """Paced rounds are one wave; bursts, and the setup of the games, come in waves of
    ``--inflight`` (setting up 1,000 games at human pace would only make the run longer),
    or of ``most`` if that is smaller."""
    paced = opts.paced and not setup
    step = opts.inflight if opts.inflight > 0 and not paced else max(1, len(items))
    if most:
        step = min(step, most)
    for i in range(0, len(items), step):
        yield items[i : i + step]


async def _click_hands(
    service: GameService,
    clicker: Clicker,
    planned: list[tuple[Table, int, tuple[simcord.MemberActor, int, int, str]]],
    samples: Samples,
    opts: Options,
    *,
    setup: bool,
) -> None:
    """Send the planned hand clicks in waves (the setup's unpaced, the rounds' paced) and
    remember which message now shows each seat's hand, at which version."""
    for wave in _waves(planned, opts, setup=setup):
        start = time.perf_counter()
        records = await clicker.wave([click for _, _, click in wave], paced=not setup)
        samples.wall += time.perf_counter() - start
        clicker.record(samples, records)
        for (table, seat, _), record in zip(wave, records, strict=True):
            session = service.session(table.game_id)
            assert session is not None and record.message_id is not None
            table.hands[seat] = (record.message_id, session.version)


async def _open_all_hands(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    tables: list[Table],
    samples: Samples,
    opts: Options,
) -> None:
    """Every player of every game presses "Show my hand" once (two live hands per game)."""
    planned: list[tuple[Table, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in tables:
        session = service.session(table.game_id)
        assert session is not None
        for seat in session.seats:
            actor = table.actors[seat.user_id or 0]
            click = (actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")
            planned.append((table, seat.seat, click))
    await _click_hands(service, clicker, planned, samples, opts, setup=True)


def _shown_version(env: simcord.Env, channel_id: int, message_id: int) -> int | None:
    """The game version a hand message's buttons were drawn for (live edits change it)."""
    for cid in custom_ids(env, channel_id, message_id, "durak:"):
        parts = cid.split(":")
        if parts[1] in ("act", "hand") and parts[3].isdigit():
            return int(parts[3])
    return None


async def _hand_phase(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    live: list[Table],
    samples: Samples,
    opts: Options,
    counts: list[int],
) -> None:
    """Make sure the next player's hand is up to date. With live hands the bot has usually
    done it already (counted in ``counts[0]``); otherwise (the edit is still coalescing, or
    was dropped) the player refreshes it with a click, as before live hands."""
    planned: list[tuple[Table, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in live:
        session = service.session(table.game_id)
        assert session is not None
        seat = next_seat(session)
        if seat is None:
            continue
        actor = table.actors[session.seats[seat].user_id or 0]
        hand = table.hands.get(seat)
        if hand is not None and hand[1] == session.version:
            continue
        if hand is not None and _shown_version(env, table.channel_id, hand[0]) == session.version:
            table.hands[seat] = (hand[0], session.version)
            counts[0] += 1
            continue
        counts[1] += 1
        if hand is None:
            click = (actor, table.channel_id, table.message_id, f"durak:show:{table.game_id}")
        else:
            refresh = _refresh_button(env, table.channel_id, hand[0])
            click = (actor, table.channel_id, hand[0], refresh)
        planned.append((table, seat, click))
    await _click_hands(service, clicker, planned, samples, opts, setup=False)


def _refresh_button(env: simcord.Env, channel_id: int, message_id: int) -> str:
    stored = env.backend.get_message(channel_id, message_id)
    for c in walk_components(stored.components):
        if str(c.get("custom_id") or "").startswith("durak:hand:") and c.get("emoji"):
            return str(c["custom_id"])
    raise RuntimeError(f"hand message {message_id} has no refresh button")


async def _move_phase(
    env: simcord.Env,
    service: GameService,
    clicker: Clicker,
    live: list[Table],
    samples: Samples,
    opts: Options,
    rng: random.Random,
) -> None:
    """Every live game's next player clicks one of the legal moves offered on their hand."""
    planned: list[tuple[Table, int, int, tuple[simcord.MemberActor, int, int, str]]] = []
    for table in live:
        session = service.session(table.game_id)
        assert session is not None
        seat = next_seat(session)
        if seat is None or seat not in table.hands:
            continue
        message_id, _ = table.hands[seat]
        moves = one_click_moves(
            custom_ids(env, table.channel_id, message_id, "durak:"), session, seat
        )
        if not moves:
            # the hand's redraw for this turn has not reached Discord yet (a loaded machine:
            # the refresh click was answered, its edit is still on its way): the bot is
            # behind, as with a stale click; the game moves in a later round
            samples.stale += 1
            continue
        actor = table.actors[session.seats[seat].user_id or 0]
        click = (actor, table.channel_id, message_id, rng.choice(moves))
        planned.append((table, seat, session.version, click))
    for wave in _waves(planned, opts):
        start = time.perf_counter()
        skipped: list[int] = []
        records = await clicker.wave([click for *_, click in wave], stale=skipped)
        samples.wall += time.perf_counter() - start
        clicker.record(samples, records)
        samples.stale += len(skipped)
        gone = set(skipped)
        wave = [entry for i, entry in enumerate(wave) if i not in gone]
        await _moves_applied(service, [(table.game_id, version) for table, _, version, _ in wave])
        for table, seat, version, _ in wave:
            session = service.session(table.game_id)
            assert session is not None
            if session.version != version + 1:
                samples.refused += 1
            table.hands[seat] = (table.hands[seat][0], session.version)


async def _moves_applied(
    service: GameService, clicked: list[tuple[int, int]], limit: float = MOVE_WAIT_SECONDS
) -> None:
    """Wait (MOVE_WAIT_SECONDS of real time at most) until every clicked game moved past the
    version its move was made on. A move click slower than the quick answer's budget is
    acknowledged before the move is applied (bot/surfaces/answers.py), so the wave's answers
    may come back first; the next round must see the moves. On a loaded machine a commit can
    take seconds, and a move still on its way when the wait ends counts as refused. The polls
    sleep in a worker thread: a busy loop here would hold the GIL the bot's database and
    picture threads need."""
    loop = asyncio.get_running_loop()
    waiting = list(clicked)
    end = time.perf_counter() + limit
    while waiting and time.perf_counter() < end:
        waiting = [
            (gid, version)
            for gid, version in waiting
            if (s := service.session(gid)) is not None and not s.finished and s.version == version
        ]
        if waiting:
            await loop.run_in_executor(None, time.sleep, 0.005)
