"""Helpers shared by the simcord tests: finding messages/buttons and playing a game by clicks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import discord
import simcord

from bot.game.models import GameSession
from bot.game.service import GameService
from engine.cards import bits


def service(env: simcord.Env) -> GameService:
    svc = env.bot.service
    assert isinstance(svc, GameService)
    return svc


def message(channel: Any, message_id: int) -> discord.Message:
    """Re-read a message (simcord rebuilds messages from backend state on every access)."""
    for m in channel.history():
        if m.id == message_id:
            return m
    raise AssertionError(f"message {message_id} not found")


def components(msg: discord.Message) -> list[Any]:
    out = []
    for row in msg.components:
        out.extend(getattr(row, "children", [row]))
    return out


def custom_ids(msg: discord.Message, prefix: str = "durak:") -> list[str]:
    return [c.custom_id for c in components(msg) if (c.custom_id or "").startswith(prefix)]


def labels(msg: discord.Message) -> list[str]:
    return [c.label for c in components(msg) if getattr(c, "label", None)]


def message_text(msg: discord.Message) -> str:
    """Everything a reader can see in a message: content, embeds and component labels."""
    parts = [msg.content or ""]
    for e in msg.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        for f in e.fields:
            parts += [f.name or "", f.value or ""]
    for c in components(msg):
        parts.append(getattr(c, "label", None) or "")
        parts.append(getattr(c, "placeholder", None) or "")
        for o in getattr(c, "options", []) or []:
            parts += [o.label, o.description or ""]
    return "\n".join(parts)


def secret_cards(session: GameSession) -> list[str]:
    """Pretty text of every card in a hand that the table has not seen (test-side truth).

    Once a game has ended with a result nothing is hidden any more: the result shows every
    hand that still holds cards, so there is no secret left to leak."""
    if session.status == "finished":
        return []
    g = session.game
    out = []
    for seat in range(g.n):
        out += [c.pretty() for c in bits(g.hands[seat] & ~g.known[seat])]
    return out


def assert_no_leak(channel: Any, spectator: Any, session: GameSession) -> int:
    """No hidden card appears in any message the spectator can see; returns messages seen."""
    hidden = secret_cards(session)
    seen = channel.history(viewer=spectator)
    for msg in seen:
        assert not (msg.flags.ephemeral), "a spectator sees an ephemeral message"
        text = message_text(msg)
        for card in hidden:
            assert card not in text, f"hidden card {card} leaked in public message:\n{text}"
    return len(seen)


def acting_seat(session: GameSession, humans: Iterable[int]) -> int | None:
    """Which human should move next: defender first, then attackers by priority (the
    driver order under which waiting is always harmless)."""
    g = session.game
    allowed = set(humans)
    for seat in [g.defender, *g.eligible_attackers(), *range(g.n)]:
        if seat in allowed and g.legal_actions(seat):
            return seat
    return None


def hand_moves(msg: discord.Message) -> list[str]:
    """The custom ids on a hand that make or build a move: card taps, card selects, verbs."""
    return [
        c for c in custom_ids(msg) if c.startswith(("durak:card:", "durak:cards:", "durak:act:"))
    ]


def plays(msg: discord.Message) -> list[str]:
    """The ids on a hand message that make a move in one click: verbs, and the card taps
    whose card has one use (worked out as the bot does, from the owner's observation)."""
    from bot.surfaces.hand_controls import tap
    from engine import Card

    acts = custom_ids(msg, "durak:act:")
    cards = custom_ids(msg, "durak:card:")
    if not cards:
        return acts
    client = msg._state._get_client()
    session = client.service.session(int(cards[0].split(":")[2]))
    if session is None:
        return acts
    # whose hand this is: the seat holding the tapped cards (hands never share a card)
    tapped = {Card.parse(cid.rsplit(":", 1)[1]) for cid in cards}
    holders = [
        s
        for s in range(session.game.n)
        if tapped <= set(session.game.hand(s)) and session.game.legal_actions(s)
    ]
    if not holders:
        return acts
    seat = holders[0]
    obs = session.game.observation(seat)
    direct = []
    for cid in cards:
        _, _, _, _, sel, card = cid.split(":")
        chosen = [] if sel == "-" else [Card.parse(c) for c in _split_cards(sel)]
        step = tap(obs, chosen, Card.parse(card))
        if step is not None and step.action is not None:
            direct.append(cid)
    return direct + acts


def _split_cards(text: str) -> list[str]:
    from bot.surfaces.interactions import _card_list

    return _card_list(text) or []


async def click_action(
    actor: Any, hand: discord.Message, session: GameSession, seat: int, action: Any
) -> simcord.InteractionResult:
    """Make ``action`` on ``hand`` by the clicks a player would use: the card taps and the
    verb of its shortest click path (bot/surfaces/hand_controls.py), each on the component
    the hand shows at that moment. Every control clicked must be there, with a label."""
    from bot.surfaces.hand_controls import Several, face_key, reachable
    from engine import Card

    path = reachable(session.game.observation(seat))[face_key(action)]
    result: simcord.InteractionResult | None = None
    for step in path:
        if isinstance(step, Several):  # the "Play several cards…" menu: open, pick
            menu = next(
                c for c in components(hand) if (c.custom_id or "").startswith("durak:several:")
            )
            if step.action is not None:
                value = f"{step.action.kind.value}:{''.join(str(c) for c in step.action.cards)}"
            else:
                value = f"+:{''.join(str(c) for c in step.selection)}"
            option = next(o for o in menu.options if o.value == value)
            assert option.label, "every menu option has a readable label"
            result = await actor.select(hand, [value], custom_id=menu.custom_id)
        elif isinstance(step, Card):
            ids = [c for c in custom_ids(hand, "durak:card:") if c.endswith(f":{step}")]
            if ids:
                result = await actor.click(hand, custom_id=ids[0])
            else:
                menu = next(
                    c
                    for c in components(hand)
                    if (c.custom_id or "").startswith("durak:cards:")
                    and any(o.value == str(step) for o in c.options)
                )
                result = await actor.select(hand, [str(step)], custom_id=menu.custom_id)
        else:
            tail = f":{step.kind.value}:{''.join(str(c) for c in step.cards)}"
            ids = [c for c in custom_ids(hand, "durak:act:") if c.endswith(tail)]
            assert ids, (tail, custom_ids(hand))
            button = next(c for c in components(hand) if c.custom_id == ids[0])
            assert button.label, "every move button has a readable label"
            result = await actor.click(hand, custom_id=ids[0])
        assert result.response is not None and result.response.ephemeral
        hand = result.response.message
    assert result is not None
    return result


async def move(actor: Any, msg: discord.Message) -> simcord.InteractionResult:
    """Make some move on a hand message: a one-click move if the hand has one, else tap the
    first card (it has several uses, so it is selected) and press the first move offered."""
    ids = plays(msg)
    if ids:
        return await actor.click(msg, custom_id=ids[0])
    first = await actor.click(msg, custom_id=custom_ids(msg, "durak:card:")[0])
    assert first.response is not None
    shown = first.response.message
    return await actor.click(shown, custom_id=custom_ids(shown, "durak:act:")[0])


async def click_first_move(
    actor: Any,
    channel: Any,
    table: int | discord.Message,
    pick: Callable[[list[str]], str] | None = None,
) -> tuple[str, simcord.InteractionResult]:
    """Open the hand from the table's button and make the first offered move: tap the first
    card (if that only selects it, click the first move offered for the selection), or
    press the first verb. ``pick`` chooses among the hand's move ids instead."""
    if isinstance(table, int):
        table = message(channel, table)
    shown = await actor.click(table, custom_id=custom_ids(table, "durak:show:")[0])
    assert shown.ephemeral and shown.response is not None and shown.response.ephemeral
    return await first_move_on(actor, shown.response.message, pick)


async def first_move_on(
    actor: Any, hand: discord.Message, pick: Callable[[list[str]], str] | None = None
) -> tuple[str, simcord.InteractionResult]:
    """Make the first offered move on an open hand message (see :func:`click_first_move`)."""
    selected = False
    tapped: set[str] = set()
    for _ in range(8):
        moves = hand_moves(hand)
        assert moves, f"no move offered:\n{message_text(hand)}"
        acts = custom_ids(hand, "durak:act:")
        # after a tap that selected a card, press the first move made of it (the tap again
        # would only clear the selection); when the selection makes no move yet (three fool
        # leads three cards), tap a card not tapped yet
        fresh = [m for m in moves if m.rsplit(":", 1)[-1] not in tapped]
        chosen = pick(moves) if pick else acts[0] if selected and acts else (fresh or moves)[0]
        if chosen.startswith("durak:card:"):
            tapped.add(chosen.rsplit(":", 1)[-1])
        if chosen.startswith("durak:cards:"):
            select = next(c for c in components(hand) if c.custom_id == chosen)
            result = await actor.select(hand, [select.options[0].value], custom_id=chosen)
        else:
            result = await actor.click(hand, custom_id=chosen)
        # An UPDATE response edits the ephemeral hand message in place: same id, still ephemeral.
        assert result.response is not None and result.response.ephemeral
        assert result.response.id == hand.id
        if chosen.startswith("durak:act:") or result.response.content or not _selecting(result):
            return chosen, result
        selected = True
        hand = result.response.message
    raise AssertionError("no move made after eight clicks")


def open_hand(hand: Any, session: GameSession) -> discord.Message | None:
    """The hand message a player still has open from their last click (``hand``: that
    click's ``result.response``), when the bot has kept it current: live hands edit it in
    place after every change, and each of its moves carries the game and its version. None
    when there is none or it shows another game or an older version (a player then presses
    "Show my hand")."""
    if hand is None:
        return None
    msg: discord.Message = hand.message
    moves = hand_moves(msg)
    current = [str(session.game_id), str(session.version)]
    if moves and all(m.split(":")[2:4] == current for m in moves):
        return msg
    return None


async def move_by_clicks(
    actor: Any, channel: Any, table: discord.Message, session: GameSession, hands: dict[int, Any]
) -> tuple[str, simcord.InteractionResult]:
    """One move of ``actor`` as a player makes it: on the hand they still have open if the
    bot kept it current (see :func:`open_hand`), else on the hand "Show my hand" opens.
    ``hands`` keeps each player's open hand between moves (by user id)."""
    shown = open_hand(hands.get(actor.id), session)
    if shown is not None:
        chosen, result = await first_move_on(actor, shown)
    else:
        chosen, result = await click_first_move(actor, channel, table)
    hands[actor.id] = result.response
    return chosen, result


def _selecting(result: simcord.InteractionResult) -> bool:
    """The click only changed the selection: the hand's refresh id carries a selection."""
    assert result.response is not None
    return any(
        c.startswith("durak:hand:") and not c.endswith(":-")
        for c in custom_ids(result.response.message)
    )


async def play_out(
    env: simcord.Env,
    channel: Any,
    game_id: int,
    actors: Sequence[Any],
    *,
    spectator: Any = None,
    max_steps: int = 3000,
    stop_after: int | None = None,
    on_step: Callable[[GameSession], None] | None = None,
) -> list[str]:
    """Play by clicks until the game ends (or ``stop_after`` moves); returns the moves.
    Each player moves on the hand they have open while the bot keeps it current, as a
    player does, and opens it again from the table when it is not (:func:`move_by_clicks`)."""
    svc = service(env)
    moves: list[str] = []
    hands: dict[int, Any] = {}
    first = svc.session(game_id)
    assert first is not None and first.message_id is not None
    # The "Show my hand" button never changes, so one read of the table message is enough.
    table = message(channel, first.message_id)
    for _ in range(max_steps):
        session = svc.session(game_id)
        assert session is not None
        if session.finished or (stop_after is not None and len(moves) >= stop_after):
            return moves
        by_user = {a.id: a for a in actors}
        humans = [s.seat for s in session.seats if s.user_id in by_user and not s.left]
        seat = acting_seat(session, humans)
        if seat is None:
            await env.advance_time(svc.ai_delay)  # a computer is to move
            continue
        user_id = session.seats[seat].user_id
        assert user_id is not None
        chosen, _ = await move_by_clicks(by_user[user_id], channel, table, session, hands)
        moves.append(f"{seat}:{chosen.split(':', 4)[4]}")
        if spectator is not None:
            assert_no_leak(channel, spectator, session)
        if on_step is not None:
            on_step(session)
    raise AssertionError("the game did not end")


async def start_against_computer(channel: Any, host: Any, env: simcord.Env) -> GameSession:
    """The host opens a two-seat lobby, adds an easy computer and starts: game 1."""
    created = await host.slash(channel, "durak new", seats=2)
    lobby_id = created.response.id
    await add_computer(host, channel, lobby_id)
    await host.click(message(channel, lobby_id), label="Start")
    session = service(env).session(1)
    assert session is not None
    return session


async def add_computer(actor: Any, channel: Any, message_id: int, level: str = "easy") -> None:
    """The lobby's level menu sets the computers' level; Add computer seats one."""
    lobby = message(channel, message_id)
    await actor.select(lobby, [level], custom_id=custom_ids(lobby, "durak:lobbyai:")[0])
    await actor.click(message(channel, message_id), label="Add computer")


async def leave_running(actor: Any, channel: Any) -> simcord.InteractionResult:
    """``/durak leave`` in a running game asks first; answer "Forfeit and leave"."""
    asked = await actor.slash(channel, "durak leave")
    assert asked.response is not None and asked.ephemeral
    return await actor.click(asked.response.message, label="Forfeit and leave")


async def rules_details(actor: Any, channel: Any, **options: Any) -> Any:
    """``/durak rules`` answers in plain sentences; the option table is one click away."""
    shown = await actor.slash(channel, "durak rules", **options)
    assert shown.ephemeral and shown.response is not None
    clicked = await actor.click(shown.response.message, label="All rule options")
    assert clicked.response is not None
    return clicked.response
