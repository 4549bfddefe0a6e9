"""Turning service state into Discord embeds and text, in one place.

Hidden information is protected by construction: the public table is drawn *only* from
``game.public_observation()`` plus the public event log, and a hand only from
``game.observation(seat)``. No function here receives a whole ``Game`` for public output, so a
refactor cannot accidentally print someone's hand into the channel. Every word goes through
:mod:`bot.i18n`; callers pass the locale (the guild's for public messages, the user's for
ephemeral ones).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import discord

from engine import PRESETS, ActionKind, Card, Observation, RuleSet
from engine.cards import NO_TRUMP, SUIT_NAMES, SUIT_SYMBOLS, bits, sort_key
from engine.variants import VARIANTS

from ..game import modes
from ..game.models import MAX_TIMER_STRIKES, GameSession, LobbyInfo, PingKind, PublicEvent, SeatInfo
from ..game.series import deal_losers
from ..i18n import t, tn
from ..pictures.emojis import registry as card_emojis
from ..storage import Forfeit, GuildSettings, LeaderboardEntry, UserStats

__all__ = [
    "card_face",
    "card_text",
    "cards_face",
    "cards_text",
    "event_line",
    "games_embed",
    "hand_embed",
    "lobby_embed",
    "ping_text",
    "result_text",
    "rules_embed",
    "table_embed",
]

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_TABLE = discord.Colour.dark_green()
COLOUR_OVER = discord.Colour.dark_grey()
EVENTS_SHOWN = 5
#: Discord's limits on embed text (an emoji's markdown is ~30 characters per card).
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096


# --------------------------------------------------------------------------- small pieces


def card_text(card: Card) -> str:
    """``10♥``: suit symbols, because that is how people read cards at a glance."""
    return card.pretty()


def cards_text(cards: Iterable[Card], trump: int | None = None) -> str:
    """Cards in hand order (by suit and rank, trumps last when the trump is known)."""
    items = list(cards)
    if trump is not None:
        items.sort(key=lambda c: sort_key(c, trump))
    return " ".join(card_text(c) for c in items)


def card_face(card: Card, trump: int | None) -> str:
    """``<:dk_As_…:id> A♠`` when card emojis are available, else ``A♠``.

    The notation stays next to the picture: screen readers read it, and it is the whole card
    whenever emojis are unavailable. Cards of the ``trump`` suit get the trump face."""
    emoji = card_emojis.markdown(card, card.suit == trump)
    return f"{emoji} {card.pretty()}" if emoji else card.pretty()


def cards_face(cards: Iterable[Card], trump: int | None, *, sort: bool = False) -> str:
    """Like :func:`cards_text`, each card with its emoji when available."""
    items = list(cards)
    if sort and trump is not None:
        items.sort(key=lambda c: sort_key(c, trump))
    return " ".join(card_face(c, trump) for c in items)


def _fitting(build: Callable[[bool], str], limit: int = FIELD_LIMIT) -> str:
    """``build(True)`` (with card emojis) if it fits Discord's ``limit``, else text only."""
    text = build(True)
    if len(text) <= limit:
        return text
    return build(False)[:limit]


def deck_text(info: LobbyInfo, loc: str) -> str:
    """ "36-card deck", or for a two-pack game (big fool) "two packs of 36 cards"."""
    preset = PRESETS.get(info.preset)
    variant = str(info.overrides.get("variant", preset.variant if preset else "none"))
    v = VARIANTS.get(variant)
    if v is not None and v.packs == 2:
        return t("option.deck_size_two_packs", loc, count=info.deck_size)
    return t("option.deck_size", loc, count=info.deck_size)


def preset_name(preset: str, locale: str) -> str:
    return t(f"preset.{preset}.name", locale)


def seat_name(seat: SeatInfo, locale: str) -> str:
    """Computers get a translated name; a human who left is marked as played by a computer."""
    if seat.user_id is None:
        return t("lobby.ai_name", locale, number=seat.name.lstrip("#"))
    if seat.left:
        return t("table.left_marker", locale, name=seat.name)
    return seat.name


def _who(session: GameSession, seat: int, locale: str) -> str:
    if 0 <= seat < len(session.seats):
        return seat_name(session.seats[seat], locale)
    return "?"


def _mention(seat: SeatInfo, locale: str) -> str:
    return f"<@{seat.user_id}>" if seat.is_human else seat_name(seat, locale)


def suit_text(suit: int, locale: str) -> str:
    return f"{SUIT_SYMBOLS[suit]} {t(f'suit.{SUIT_NAMES[suit]}', locale)}"


def _trump_line(obs: Observation, locale: str) -> str:
    if obs.trump == NO_TRUMP:
        return t("table.no_trump", locale)
    card = obs.trump_card
    # double-trump fool: the turned-up card shows one seat's trump, maybe not this seat's
    if obs.trump_card_in_talon and card is not None and card.suit == obs.trump:
        return t("table.trump", locale, card=card_face(card, obs.trump))
    return t("table.trump_suit", locale, suit=suit_text(obs.trump, locale))


def _variant_lines(session: GameSession, obs: Observation, locale: str) -> list[str]:
    """What a catalogue variant makes public beyond the usual table: each seat's own trump
    (double-trump fool), how many cards lie out of play (Chukchi) or closed (Magadan), the
    running scores (point and epaulet fool). Counts only: those cards are face down to
    everyone."""
    lines = []
    if len(set(obs.trumps)) > 1:
        lines.append(
            t(
                "table.seat_trumps",
                locale,
                trumps=t("common.list_separator", locale).join(
                    t(
                        "table.seat_trump",
                        locale,
                        name=_who(session, s, locale),
                        suit=suit_text(suit, locale) if suit != NO_TRUMP else "—",
                    )
                    for s, suit in enumerate(obs.trumps)
                ),
            )
        )
    if obs.out_of_play:
        lines.append(t("table.out_of_play", locale, count=obs.out_of_play))
    scores = score_texts(obs, locale)
    if scores:
        lines.append(
            t(
                "table.scores",
                locale,
                scores=t("common.list_separator", locale).join(
                    t("table.score", locale, name=_who(session, s, locale), score=score)
                    for s, score in enumerate(scores)
                ),
            )
        )
    if any(obs.closed):
        lines.append(
            t(
                "table.closed_cards",
                locale,
                counts=t("common.list_separator", locale).join(
                    t("table.closed_count", locale, name=_who(session, s, locale), count=c)
                    for s, c in enumerate(obs.closed)
                    if c
                ),
            )
        )
    return lines


def score_texts(obs: Observation, locale: str) -> list[str]:
    """Each seat's running score (point and epaulet fool; [] in other games), from the
    variant's public state: every bout beaten off or taken was seen by the whole table."""
    state = obs.variant_state
    if "points" in state:
        return [tn("plural.points", int(p), locale) for p in state["points"]]
    if "epaulets" in state:
        return [tn("plural.epaulets", len(won), locale) for won in state["epaulets"]]
    return []


def _pairs(obs: Observation, locale: str) -> str:
    if not obs.table:
        return t("table.field_empty", locale)

    def build(emoji: bool) -> str:
        def face(card: Card) -> str:
            return card_face(card, obs.trump) if emoji else card_text(card)

        lines = []
        for i, (attack, defence) in enumerate(obs.table):
            if i in obs.face_down:  # take on trust: only the one who laid it sees the card
                key = "table.pair_face_down" if defence is None else "table.pair_face_down_own"
                card = face(defence) if defence is not None else ""
                lines.append(t(key, locale, attack=face(attack), defense=card))
            elif defence is None:
                lines.append(t("table.pair_open", locale, attack=face(attack)))
            else:
                lines.append(
                    t("table.pair_beaten", locale, attack=face(attack), defense=face(defence))
                )
        return "\n".join(lines)

    return _fitting(build)


def role_key(obs: Observation, seat: int) -> str:
    """The seat's role as an i18n key, from public information only."""
    if seat in obs.out:
        return "role.out"
    if obs.phase == "over":
        return "role.fool" if obs.result is not None and seat in obs.result.losers else "role.out"
    if seat == obs.defender and obs.phase == "bout":
        return "role.taking" if obs.taking else "role.defending"
    if seat == obs.attacker:
        return "role.attacking"
    if obs.phase == "bout" and seat in obs.eligible_attackers:
        return "role.throwing_in"
    return "role.waiting"


def hand_role_key(obs: Observation, seat: int) -> str:
    """The seat's situation as a whole sentence for its own hand (``hand.role.*``): a role
    name dropped into one frame ("You are {role}.") gave "You are may throw in." in English
    and cannot agree in Russian, so every situation has its own sentence."""
    if obs.phase == "lead" and seat == obs.attacker and seat not in obs.out:
        return "hand.role.leading"
    return "hand." + role_key(obs, seat)


# --------------------------------------------------------------------------- events


def event_line(
    ev: PublicEvent, session: GameSession, locale: str, *, emoji: bool = False
) -> str | None:
    """One line of table narration, or None for bookkeeping events nobody needs to read.

    ``emoji``: cards with their emojis (when available) next to the notation."""
    name = _who(session, ev.seat, locale)
    trump = session.game.trump

    def face(card: Card) -> str:
        return card_face(card, trump) if emoji else card_text(card)

    cards = " ".join(face(c) for c in ev.cards)
    k = ev.kind
    if k == "attack":
        return t("event.attack", locale, name=name, cards=cards)
    if k == "throw":
        return t("event.throw_in", locale, name=name, cards=cards)
    if k == "defend" and len(ev.cards) == 2:
        return t(
            "event.defend",
            locale,
            name=name,
            attack=face(ev.cards[0]),
            card=face(ev.cards[1]),
        )
    if k == "transfer":
        return t(
            "event.transfer",
            locale,
            name=name,
            cards=cards,
            target=_who(session, ev.target, locale),
        )
    if k == "show" and ev.cards:
        return t(
            "event.show_trump",
            locale,
            name=name,
            card=face(ev.cards[0]),
            target=_who(session, ev.target, locale),
        )
    if k == "take":
        return t("event.take", locale, name=name)
    if k == "pile":
        return t("event.pile_on", locale, name=name, cards=cards)
    if k == "pass":
        return None  # a "done" changes nothing on the table; "Bito" or "takes" says the rest
    if k == "exchange" and ev.cards:
        return t("event.exchange_trump", locale, name=name, card=face(ev.cards[0]))
    if k == "beaten":
        return t("event.bito", locale)
    if k == "top" and ev.cards:
        return t("event.lead_top", locale, name=name, card=face(ev.cards[0]))
    if k == "swap":
        # the cards put under the talon are the swapper's secret (PublicEvent holds only the
        # ones the table already knew to be in that hand); the line never names them
        return t("event.swap", locale, name=name)
    if k == "hand_limit":  # big fool: 52 cards or more in hand lose at once
        return t("event.hand_limit", locale, name=name, count=ev.amount)
    if k == "open" and ev.cards:
        return t("event.open_cards", locale, name=name, cards=cards)
    if k == "reshuffle" and ev.cards:
        return t("event.reshuffle", locale, cards=cards)
    if k == "picked_up":
        return t("event.picked_up", locale, name=name, cards=cards)
    if k == "draw":
        return None  # refilling after every bout is routine; the talon count shows it
    if k == "trump_change" and ev.cards:
        return t("event.trump_change", locale, suit=suit_text(ev.cards[0].suit, locale))
    if k == "conceal" and ev.cards:  # the public event carries the attack card only
        return t("event.conceal", locale, name=name, attack=card_text(ev.cards[0]))
    if k == "accept":
        return t("event.accept", locale, name=name)
    if k == "challenge":
        return t("event.challenge", locale, name=name)
    if k == "reveal" and len(ev.cards) == 2:
        key = "event.reveal_true" if ev.amount else "event.reveal_lie"
        return t(key, locale, attack=card_text(ev.cards[0]), card=card_text(ev.cards[1]))
    if k == "blind_miss" and ev.cards:
        return t("event.blind_miss", locale, name=name, card=card_text(ev.cards[0]))
    if k == "swap_hands":
        return t("event.swap_hands", locale, name=name, target=_who(session, ev.target, locale))
    if k == "out":
        return t("event.out", locale, name=name)
    if k == "game_over":
        return None  # the result says it, once
    if k == "left":
        return t("event.left", locale, name=name)
    if k == "timeout":
        if ev.amount:
            return t(
                "event.timeout_strike", locale, name=name, strikes=ev.amount, max=MAX_TIMER_STRIKES
            )
        return t("event.timeout", locale, name=name)
    if k == "kicked":
        return t("event.timeout_forfeit", locale, name=name)
    if k == "forfeit_end":
        key = "event.forfeit_end_timeout" if ev.amount else "event.forfeit_end_left"
        return t(key, locale, name=name)
    return None


def _event_lines(session: GameSession, locale: str, limit: int = EVENTS_SHOWN) -> str:
    def build(emoji: bool) -> str:
        lines = [
            line for ev in session.events if (line := event_line(ev, session, locale, emoji=emoji))
        ]
        return "\n".join(f"• {line}" for line in lines[-limit:])

    return _fitting(build)


# --------------------------------------------------------------------------- lobby


def lobby_embed(info: LobbyInfo) -> discord.Embed:
    loc = info.locale
    embed = discord.Embed(
        title=t(
            "lobby.title",
            loc,
            preset=modes.mode_name(info.preset, modes.variant_of(info.preset, info.overrides), loc),
        ),
        description=t("lobby.description", loc, host=f"<@{info.host_id}>"),
        colour=COLOUR_LOBBY if info.status == "lobby" else COLOUR_OVER,
    )
    lines = []
    for number, seat in enumerate(info.seats, start=1):
        if seat.user_id is None:
            lines.append(
                t(
                    "lobby.ai_line",
                    loc,
                    seat=number,
                    name=seat_name(seat, loc),
                    difficulty=t(f"difficulty.{seat.difficulty}", loc),
                )
            )
        else:
            name = f"<@{seat.user_id}>"
            if seat.user_id == info.host_id:
                name = t("lobby.host_marker", loc, name=name)
            lines.append(t("lobby.player_line", loc, seat=number, name=name))
    embed.add_field(
        name=t("lobby.players", loc, count=len(info.seats), max=info.max_seats),
        value="\n".join(lines) or t("lobby.no_players", loc),
        inline=False,
    )
    preset = PRESETS.get(info.preset)
    auto_done = bool(info.overrides.get("auto_done", preset.auto_done if preset else False))
    embed.add_field(
        name=t("lobby.options", loc),
        value=t(f"preset.{info.preset}.description", loc)
        + "\n"
        + deck_text(info, loc)
        + "\n"
        + t("lobby.auto_done.on" if auto_done else "lobby.auto_done.off", loc),
        inline=False,
    )
    if info.status == "cancelled":
        embed.add_field(name="\u200b", value=t("lobby.cancelled", loc), inline=False)
    embed.set_footer(text=t("table.footer", loc, game_id=info.game_id))
    return embed


# --------------------------------------------------------------------------- table


def table_embed(session: GameSession) -> discord.Embed:
    """The public table: built from the spectator observation and public events only."""
    loc = session.locale
    obs = session.game.public_observation()
    over = session.finished
    embed = discord.Embed(
        title=t(
            "table.title",
            loc,
            game_id=session.game_id,
            preset=modes.mode_name(session.preset, session.game.rules.variant, loc),
        ),
        colour=COLOUR_OVER if over else COLOUR_TABLE,
    )
    status = [_trump_line(obs, loc)]
    back = card_emojis.back()
    status.append(
        (f"{back} " if back is not None else "") + t("table.talon", loc, count=obs.talon_count)
        if obs.talon_count
        else t("table.talon_empty", loc)
    )
    status.append(t("table.discard", loc, count=obs.discard_mask.bit_count()))
    embed.description = "\n".join([" · ".join(status), *_variant_lines(session, obs, loc)])
    seat_lines = []
    for seat in session.seats:
        s = seat.seat
        if s == obs.attacker and obs.phase != "over":
            marker = "⚔️"
        elif s == obs.defender and obs.phase == "bout":
            marker = "🛡️"
        else:
            marker = "•"
        role = t(role_key(obs, s), loc)
        name = seat_name(seat, loc)
        if s in obs.out:
            seat_lines.append(t("table.seat_line_out", loc, marker=marker, name=name, role=role))
        else:
            cards = tn("plural.cards", obs.hand_sizes[s], loc)
            seat_lines.append(
                t("table.seat_line", loc, marker=marker, name=name, cards=cards, role=role)
            )
    embed.add_field(name=t("table.players", loc), value="\n".join(seat_lines), inline=False)
    if not over:
        embed.add_field(name=t("table.field", loc), value=_pairs(obs, loc), inline=False)
    if session.deadline is not None and not over:
        embed.add_field(
            name=t("table.timer", loc),
            value=t("table.deadline", loc, relative=f"<t:{int(session.deadline)}:R>"),
            inline=False,
        )
    events = _event_lines(session, loc)
    if events:
        embed.add_field(name=t("table.last_events", loc), value=events, inline=False)
    tally = session_tally(session, loc)
    if tally:
        embed.add_field(name=t("table.tally", loc), value=tally[:1024], inline=False)
    if session.status == "finished":
        embed.add_field(
            name=t("table.finished", loc),
            value=result_text(session, loc, tally=False)[:1024],
            inline=False,
        )
    elif session.status == "cancelled":
        embed.add_field(
            name=t("table.finished", loc), value=cancelled_text(session, loc), inline=False
        )
    embed.set_footer(text=t("table.footer", loc, game_id=session.game_id))
    return embed


def result_text(session: GameSession, locale: str, *, tally: bool = True) -> str:
    """The verdict, said once: who is the fool (or which team lost, or that it is a draw),
    who went out in what order, forfeits, the cards left in hand and (``tally``) the
    session's matchsticks (the table shows those in a field of their own)."""
    seats = session.seats
    lines = []
    if session.ended_by is not None:
        ender = seats[session.ended_by]
        key = (
            "announce.forfeit_end_timeout"
            if session.forfeits.get(ender.seat) == "timeout"
            else "announce.forfeit_end_left"
        )
        lines.append(t(key, locale, user=_user(ender)))
        others = [s for s in seats if s.is_human and s.seat not in session.forfeits]
        if others:
            users = t("common.list_separator", locale).join(_user(s) for s in others)
            lines.append(t("announce.forfeit_winners", locale, users=users))
        lines += _forfeit_lines(session, locale)
        return "\n".join(lines + _epilogue(session, None, locale, tally))
    result = session.game.public_observation().result
    if result is None:
        return ""
    if result.kind == "draw":
        lines.append(t("announce.draw", locale))
    elif result.kind == "team":
        users = t("common.list_separator", locale).join(
            _mention(seats[s], locale) for s in result.losers
        )
        lines.append(t("announce.losing_team", locale, users=users))
    elif result.fool is not None:
        lines.append(t("announce.fool", locale, user=_mention(seats[result.fool], locale)))
    order = list(result.finish_order)
    if len(order) == 1:
        lines.append(t("announce.out_first", locale, user=_mention(seats[order[0]], locale)))
    elif order:
        items = t("common.list_separator", locale).join(
            t("announce.out_item", locale, number=i, user=_mention(seats[s], locale))
            for i, s in enumerate(order, 1)
        )
        lines.append(t("announce.out_order", locale, users=items))
    lines += _forfeit_lines(session, locale)
    return "\n".join(lines + _epilogue(session, result, locale, tally))


def _epilogue(session: GameSession, result: Any, locale: str, tally: bool) -> list[str]:
    """After the verdict: everyone's remaining cards, then the session's matchsticks."""
    out: list[str] = []
    hands = final_hands(session, locale)
    if hands:
        out += ["", t("announce.hands_title", locale), *hands]
    if tally:
        line = tally_text(session, locale, deal_losers(result, session.ended_by, session.forfeits))
        if line:
            out += ["", line]
    return out


def final_hands(session: GameSession, locale: str) -> list[str]:
    """One line per seat still holding cards — only for a game that has ended with a result.

    This is the one place public output reads hands from the whole game, so it refuses
    unless the game is over: a running (or merely cancelled) game shows nothing. At the end
    nothing is hidden any more, and the fool's hand is what the table wants to see."""
    if session.status != "finished":
        return []
    game = session.game
    return [
        t(
            "announce.hand_line",
            locale,
            name=seat_name(seat, locale),
            cards=cards_text(game.hand(seat.seat), game.trump),
        )
        for seat in session.seats
        if game.hand_size(seat.seat)
    ]


def tally_text(
    session: GameSession | LobbyInfo,
    locale: str,
    losers: tuple[int, ...] | None = None,
    *,
    include_this_deal: bool = True,
) -> str:
    """Pagat's matchsticks: deals lost per player over the session ("" for a one-off game).

    For a finished game the tally includes its own deal (``losers``, None for a draw)."""
    series = session.series
    if series is None:
        return ""
    finished = include_this_deal and isinstance(session, GameSession) and session.finished
    if finished and isinstance(session, GameSession) and session.status != "finished":
        finished = False  # a cancelled deal counts for nobody
    if finished:
        fools, draws = series.after(losers)
        deals = series.deal
    else:
        fools, draws = series.fools, series.draws
        deals = series.deal - 1
    return _tally_line(session.seats, fools, draws, deals, locale)


def _tally_line(
    seats: Sequence[SeatInfo], fools: Sequence[int], draws: int, deals: int, locale: str
) -> str:
    items = t("common.list_separator", locale).join(
        t(
            "announce.tally_item",
            locale,
            name=seat_name(seat, locale),
            sticks=tn("plural.matchsticks", fools[i] if i < len(fools) else 0, locale),
        )
        for i, seat in enumerate(seats)
    )
    line = t("announce.tally", locale, deals=tn("plural.deals", deals, locale), items=items)
    if draws:
        line += " " + t("announce.tally_draws", locale, count=draws)
    return line


def session_tally(session: GameSession, locale: str) -> str:
    """The tally as the table shows it: including this deal once it has ended."""
    if session.series is None:
        return ""
    result = session.game.public_observation().result
    return tally_text(session, locale, deal_losers(result, session.ended_by, session.forfeits))


def _user(seat: SeatInfo) -> str:
    """A mention even for a human who left (they are still the one the result is about)."""
    return f"<@{seat.user_id}>" if seat.user_id is not None else seat.name


def _forfeit_lines(session: GameSession, locale: str) -> list[str]:
    lines = [
        t("announce.forfeit_player", locale, user=_user(session.seats[seat]))
        for seat in session.forfeits
        if seat != session.ended_by
    ]
    if session.forfeit_seats and session.forfeit_text:
        users = t("common.list_separator", locale).join(
            _user(session.seats[s]) for s in session.forfeit_seats
        )
        lines.append(t("announce.forfeit_assigned", locale, user=users, text=session.forfeit_text))
    return lines


def cancelled_text(session: GameSession, locale: str) -> str:
    if session.cancelled_by is None:
        return t("announce.game_cancelled_auto", locale)
    return t("announce.game_cancelled", locale, user=f"<@{session.cancelled_by}>")


def ping_text(session: GameSession, seat: int, kind: PingKind) -> str:
    user = _mention(session.seats[seat], session.locale)
    return t(f"ping.{kind}", session.locale, user=user, game_id=session.game_id)


def reminder_text(session: GameSession, seat: int, deadline: float) -> str:
    user = _mention(session.seats[seat], session.locale)
    return t(
        "ping.reminder",
        session.locale,
        user=user,
        game_id=session.game_id,
        relative=f"<t:{int(deadline)}:R>",
    )


# --------------------------------------------------------------------------- hand


def hand_embed(session: GameSession, obs: Observation, locale: str) -> discord.Embed:
    """A player's private view, from their own observation only."""
    held = obs.hand_sizes[obs.seat] if 0 <= obs.seat < len(obs.hand_sizes) else 0
    blind = held > 0 and not obs.hand_mask  # reverse fool: the others' cards, not your own
    if blind:
        description = t("hand.blind", locale, count=held)
    elif obs.hand:
        description = _fitting(
            lambda emoji: (
                cards_face(obs.hand, obs.trump, sort=True)
                if emoji
                else cards_text(obs.hand, obs.trump)
            ),
            DESCRIPTION_LIMIT,
        )
    else:
        description = t("hand.empty", locale)
    embed = discord.Embed(
        title=t("hand.title", locale), description=description, colour=COLOUR_TABLE
    )
    if blind:
        others = [
            t(
                "hand.other_hand",
                locale,
                name=_who(session, s, locale),
                cards=cards_text(sorted(bits(obs.known_masks[s])), obs.trump) or "—",
            )
            for s in range(len(obs.hand_sizes))
            if s != obs.seat and obs.hand_sizes[s]
        ]
        embed.add_field(name=t("hand.others_title", locale), value="\n".join(others) or "—")
    lines = [_trump_line(obs, locale), *_variant_lines(session, obs, locale)]
    lines.append(t(hand_role_key(obs, obs.seat), locale))
    if not obs.legal_actions and obs.phase != "over":
        lines.append(t("hand.waiting", locale))
    hint = pass_hint(obs, locale)
    if hint:
        lines.append(hint)
    embed.add_field(
        name=t(
            "table.title",
            locale,
            game_id=session.game_id,
            preset=preset_name(session.preset, locale),
        ),
        value="\n".join(lines),
        inline=False,
    )
    embed.add_field(name=t("table.field", locale), value=_pairs(obs, locale), inline=False)
    embed.set_footer(text=t("table.footer", locale, game_id=session.game_id))
    return embed


def pass_hint(obs: Observation, locale: str) -> str | None:
    """What the pass button means right now, for a seat that has one: the one decision a
    seat still owes (throw in or not) is spelled out, so nobody wonders why the game waits."""
    if not any(a.kind is ActionKind.PASS for a in obs.legal_actions):
        return None
    if obs.taking:
        return t("hand.hint.pile", locale, button=t("hand.button.pass", locale))
    button = t("hand.button.done", locale)
    if any(defence is None for _, defence in obs.table):
        return t("hand.hint.wave", locale, button=button)
    return t("hand.hint.bito", locale, button=button)


# --------------------------------------------------------------------------- commands


def _value_text(value: Any, locale: str) -> str:
    if value is None:
        return t("common.none", locale)
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", locale)
    return str(value)


def rules_embed(rules: RuleSet, title: str, locale: str) -> discord.Embed:
    """Every option with its value and what it means, in the reader's language.

    The engine's own option docs cite the rule texts for developers; players get the short
    translated labels (``option.<name>.*``), one per RuleSet option (a test checks that every
    option and every choice has them)."""
    embed = discord.Embed(title=title, colour=COLOUR_LOBBY)
    if rules.variant != "none":
        # the catalogue's own sentence, then how the bot reads it where the text is silent
        embed.description = t(
            "rules.variant_text",
            locale,
            name=t(f"preset.{rules.variant}.name", locale),
            rule=t(f"variant.{rules.variant}.rule", locale),
            reading=t(f"variant.{rules.variant}.reading", locale),
        )[:4096]
    for name, _default, _doc, _source, choices in RuleSet.describe_options():
        raw = getattr(rules, name)
        if choices and isinstance(raw, str):
            value = t(f"option.{name}.value.{raw}", locale)
        else:
            value = _value_text(raw, locale)
        embed.add_field(
            name=t(f"option.{name}.label", locale),
            value=f"**{value}** — {t(f'option.{name}.doc', locale)}"[:1024],
            inline=False,
        )
    return embed


def games_embed(rows: Sequence[tuple[int, str, int, Sequence[str]]], locale: str) -> discord.Embed:
    """``rows``: (game id, preset, channel id, player names)."""
    embed = discord.Embed(title=t("games.title", locale), colour=COLOUR_LOBBY)
    if not rows:
        embed.description = t("games.empty", locale)
        return embed
    embed.description = "\n".join(
        t(
            "games.line",
            locale,
            game_id=gid,
            preset=preset_name(preset, locale),
            channel=f"<#{channel}>",
            players=t("common.list_separator", locale).join(names),
        )
        for gid, preset, channel, names in rows
    )[:4096]
    return embed


# --------------------------------------------------------------------------- server life


def _rate(value: float, locale: str) -> str:
    return t("common.percent", locale, value=value)


def leaderboard_embed(
    entries: Sequence[LeaderboardEntry],
    period: str,
    sort: str,
    page: int,
    pages: int,
    locale: str,
    *,
    min_games: int = 1,
) -> discord.Embed:
    """One page of the server's leaderboard (``page`` counts from 0)."""
    embed = discord.Embed(
        title=t(
            "leaderboard.title",
            locale,
            period=t(f"leaderboard.period.{period}", locale),
        ),
        colour=COLOUR_LOBBY,
    )
    if not entries:
        embed.description = t("leaderboard.empty", locale)
    else:
        embed.description = "\n".join(
            t(
                "leaderboard.row",
                locale,
                rank=e.rank,
                user=f"<@{e.user_id}>",
                games=e.games,
                fools=e.fools,
                rate=_rate(e.fool_rate, locale),
                forfeits=e.forfeits,
                wins=e.wins,
            )
            for e in entries
        )[:4096]
    footer = [
        t(f"leaderboard.sort.{sort}", locale),
        t("common.page", locale, page=page + 1, pages=max(pages, 1)),
    ]
    if min_games > 1:
        footer.append(t("leaderboard.min_games", locale, count=min_games))
    embed.set_footer(text=" · ".join(footer))
    return embed


def stats_embed(stats: UserStats, name: str, locale: str) -> discord.Embed:
    embed = discord.Embed(title=t("stats.title", locale, name=name), colour=COLOUR_LOBBY)
    if not stats.games:
        embed.description = t("stats.none", locale, name=name)
        return embed
    favourite = (
        preset_name(stats.favourite_preset, locale)
        if stats.favourite_preset in PRESETS
        else (stats.favourite_preset or t("common.none", locale))
    )
    for key, value in (
        ("stats.games", str(stats.games)),
        ("stats.fools", str(stats.fools)),
        ("stats.fool_rate", _rate(stats.fool_rate, locale)),
        ("stats.wins", str(stats.wins)),
        ("stats.draws", str(stats.draws)),
        ("stats.forfeits", str(stats.forfeits)),
        ("stats.favourite_preset", favourite),
        ("stats.longest_streak", tn("plural.games", stats.longest_fool_free_streak, locale)),
        ("stats.current_streak", tn("plural.games", stats.current_fool_free_streak, locale)),
    ):
        embed.add_field(name=t(key, locale), value=value, inline=True)
    if stats.last_played_at is not None:
        embed.add_field(
            name=t("stats.last_played", locale),
            value=f"<t:{int(stats.last_played_at)}:R>",
            inline=True,
        )
    embed.set_footer(text=t("stats.footer", locale))
    return embed


def forfeits_embed(items: Sequence[Forfeit], locale: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("forfeits.title", locale),
        description=t("forfeits.description", locale),
        colour=COLOUR_LOBBY,
    )
    if not items:
        embed.add_field(name="\u200b", value=t("forfeits.empty", locale), inline=False)
        return embed
    lines = [t("forfeits.line", locale, number=i, text=f.text) for i, f in enumerate(items, 1)]
    # Field values are limited to 1024 characters: split the list over several fields.
    chunk: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
            embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
            chunk = []
        chunk.append(line)
    embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
    if items[0].is_default:
        embed.set_footer(text=t("forfeits.defaults_note", locale))
    return embed


def done_style(options: dict[str, Any]) -> str:
    """The server's house rule for saying "done" (an unknown stored value reads as the
    default, as :func:`bot.game.rules.auto_done_for` treats it)."""
    return "pagat" if options.get("done") == "pagat" else "online"


def settings_embed(settings: GuildSettings, locale: str) -> discord.Embed:
    """The house rules as an admin sees them (in the admin's own language)."""
    embed = discord.Embed(title=t("settings.title", locale), colour=COLOUR_LOBBY)
    language = t(f"settings.locale.{settings.locale}", locale)
    if not settings.locale_explicit:
        language = t("settings.locale.auto", locale)
    options = settings.default_options
    rules = [preset_name(settings.default_preset, locale)]
    rules.append(tn("plural.players", int(options.get("seats", 2)), locale))
    rules.append(t("option.deck_size", locale, count=int(options.get("deck_size", 36))))
    if "throw_in" in options:
        rules.append(
            t(
                "option.throw_in",
                locale,
                value=t(f"cmd.choice.throw_in.{options['throw_in']}", locale),
            )
        )
    if "trump_exchange" in options:
        rules.append(
            t(
                "option.trump_exchange_mode",
                locale,
                value=t(f"cmd.choice.trump_exchange.{options['trump_exchange']}", locale),
            )
        )
    timer = (
        t("common.seconds", locale, seconds=settings.turn_timer_seconds)
        if settings.turn_timer_seconds
        else t("common.off", locale)
    )
    channels = (
        ", ".join(f"<#{c}>" for c in settings.allowed_channel_ids)
        if settings.allowed_channel_ids
        else t("settings.all_channels", locale)
    )
    for key, value in (
        ("settings.locale", language),
        ("settings.default_preset", "\n".join(rules)),
        ("settings.turn_timer", timer),
        ("settings.use_threads", t("common.yes" if settings.use_threads else "common.no", locale)),
        ("settings.done", t(f"settings.done.{done_style(options)}", locale)),
        ("settings.pictures", t("common.on" if settings.pictures else "common.off", locale)),
        ("settings.default_ai", t(f"difficulty.{settings.default_ai_difficulty}", locale)),
        ("settings.allowed_channels", channels),
    ):
        embed.add_field(name=t(key, locale), value=value, inline=False)
    return embed
