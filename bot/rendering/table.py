"""The running game in words: the public table embed and its event lines, a player's
private hand embed, and the turn ping texts."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from engine import ActionKind, Card, Observation
from engine.cards import NO_TRUMP, bits

from ..cardart.emojis import registry as card_emojis
from ..discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE
from ..game import modes
from ..game.models import MAX_TIMER_STRIKES, GameSession, PingKind, PublicEvent
from ..i18n import t, tn
from .common import (
    COLOUR_OVER,
    COLOUR_TABLE,
    EVENTS_SHOWN,
    _fitting,
    _mention,
    _who,
    card_face,
    card_text,
    cards_face,
    cards_text,
    preset_name,
    score_texts,
    seat_name,
    suit_text,
)
from .kept import Kept
from .result import cancelled_text, result_text, session_tally


def _trump_line(obs: Observation, locale: str, local_ranks: bool = True) -> str:
    if obs.trump == NO_TRUMP:
        return t("table.no_trump", locale)
    card = obs.trump_card
    # double-trump fool: the turned-up card shows one seat's trump, maybe not this seat's
    if obs.trump_card_in_talon and card is not None and card.suit == obs.trump:
        return t(
            "table.trump", locale, card=card_face(card, obs.trump, locale, local_ranks=local_ranks)
        )
    return t("table.trump_suit", locale, suit=suit_text(obs.trump, locale))


def _trump_talon(obs: Observation, locale: str, local_ranks: bool) -> str:
    """The trump and the talon ("Trump: 7♠ · Talon: 12 cards"), the first line of every hand
    and of the table: kept by what they show, which most moves do not change."""
    key = (
        obs.trump,
        obs.trump_card,
        obs.trump_card_in_talon,
        obs.talon_count,
        locale,
        local_ranks,
        card_emojis.generation,
    )
    return _STATUS.get(key, lambda: _trump_talon_text(obs, locale, local_ranks))


def _trump_talon_text(obs: Observation, locale: str, local_ranks: bool) -> str:
    back = card_emojis.back()
    talon = (
        (f"{back} " if back is not None else "") + t("table.talon", locale, count=obs.talon_count)
        if obs.talon_count
        else t("table.talon_empty", locale)
    )
    return f"{_trump_line(obs, locale, local_ranks)} · {talon}"


#: _trump_talon by its key (see there).
_STATUS: Kept[str] = Kept(4096)


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


def _pairs(obs: Observation, locale: str, local_ranks: bool = True) -> str:
    """The cards on the table, a pair a line. Kept by what the reader sees of them: every
    hand and the table of a move show the same pairs."""
    if not obs.table:
        return t("table.field_empty", locale)
    key = (obs.table, obs.face_down, obs.trump, locale, local_ranks, card_emojis.generation)
    return _PAIRS.get(key, lambda: _pair_lines(obs, locale, local_ranks))


#: _pairs by its key (see there).
_PAIRS: Kept[str] = Kept(4096)


def _pair_lines(obs: Observation, locale: str, local_ranks: bool) -> str:
    def build(emoji: bool) -> str:
        def face(card: Card) -> str:
            if emoji:
                return card_face(card, obs.trump, locale, local_ranks=local_ranks)
            return card_text(card, locale, local_ranks=local_ranks)

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


#: Moves that give the defender another card: what "You may throw in." promises.
_THROWS = frozenset({ActionKind.THROW, ActionKind.PILE, ActionKind.THROW_BLIND})
#: Moves only the defender makes while answering.
_ANSWERING = frozenset(
    {
        ActionKind.DEFEND,
        ActionKind.TAKE,
        ActionKind.TRANSFER,
        ActionKind.SHOW,
        ActionKind.CONCEAL,
        ActionKind.BEAT_BLIND,
        ActionKind.TRANSFER_BLIND,
    }
)


def hand_role_key(obs: Observation, seat: int) -> str | None:
    """The seat's situation as a whole sentence for its own hand (``hand.role.*``), said only
    when it is true *now*: "You may throw in." only with a throw-in among the legal moves (it
    used to show with no throw-in button in most views of a 4-player game). None when a pass
    hint already says it (see :func:`pass_hint`)."""
    if seat in obs.out:
        return "hand.role.out"
    if obs.phase == "over":
        fool = obs.result is not None and seat in obs.result.losers
        return "hand.role.fool" if fool else "hand.role.out"
    kinds = {a.kind for a in obs.legal_actions}
    if not kinds:
        if seat == obs.defender and obs.phase == "bout" and obs.taking:
            return "hand.role.taking"
        return "hand.role.waiting"
    if ActionKind.ATTACK in kinds or ActionKind.LEAD_BLIND in kinds or ActionKind.TOP in kinds:
        return "hand.role.leading"
    if kinds & _ANSWERING and seat == obs.defender:
        return "hand.role.defending"
    if kinds & {ActionKind.ACCEPT, ActionKind.CHALLENGE}:
        return "hand.role.judging"
    if kinds & _THROWS:
        if ActionKind.PASS in kinds:
            return None  # the pass hint says "throw in more, or press ..."
        return "hand.role.attacking" if seat == obs.attacker else "hand.role.throwing_in"
    if ActionKind.PASS in kinds:
        return None  # the pass hint says what the button does
    if kinds == {ActionKind.EXCHANGE}:
        return "hand.role.exchanging"
    return "hand.role.your_move"


def event_line(
    ev: PublicEvent, session: GameSession, locale: str, *, emoji: bool = False
) -> str | None:
    """One line of table narration, or None for bookkeeping events nobody needs to read.

    ``emoji``: cards with their emojis (when available) next to the notation.

    A line is kept by everything it is made of (the event, the names it gives, the trump,
    the letters, the emojis): the table shows its last few events again on every move and a
    hand its last move, so most lines are written once. The end of a game by forfeit reads
    more of the session and is written each time."""
    if ev.kind == "forfeit_end":
        return _event_line(ev, session, locale, emoji, _who(session, ev.seat, locale))
    name = _who(session, ev.seat, locale)
    key = (
        ev,
        locale,
        emoji,
        session.game.trump,
        session.local_ranks,
        card_emojis.generation,
        name,
        _who(session, ev.target, locale) if ev.target >= 0 else "",
    )
    return _LINES.get(key, lambda: _event_line(ev, session, locale, emoji, name))


#: event_line by its key (see there): a busy process writes a few new lines a move.
_LINES: Kept[str | None] = Kept(8192)


def _event_line(
    ev: PublicEvent, session: GameSession, locale: str, emoji: bool, name: str
) -> str | None:
    trump = session.game.trump

    ranks = session.local_ranks

    def face(card: Card) -> str:
        if emoji:
            return card_face(card, trump, locale, local_ranks=ranks)
        return card_text(card, locale, local_ranks=ranks)

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
        return t("event.conceal", locale, name=name, attack=face(ev.cards[0]))
    if k == "accept":
        return t("event.accept", locale, name=name)
    if k == "challenge":
        return t("event.challenge", locale, name=name)
    if k == "reveal" and len(ev.cards) == 2:
        key = "event.reveal_true" if ev.amount else "event.reveal_lie"
        attack, card = (card_text(c, locale, local_ranks=ranks) for c in ev.cards)
        return t(key, locale, attack=attack, card=card)
    if k == "blind_miss" and ev.cards:
        return t(
            "event.blind_miss",
            locale,
            name=name,
            card=card_text(ev.cards[0], locale, local_ranks=ranks),
        )
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
        if session.lesson is not None:
            return t("event.lesson_left", locale, name=name)
        if session.game.version == 0:
            return t("event.forfeit_end_void", locale, name=name)
        key = "event.forfeit_end_timeout" if ev.amount else "event.forfeit_end_left"
        winners = [s for s in session.seats if s.is_human and s.seat not in session.forfeits]
        if not winners:
            return t(f"{key}_alone", locale, name=name)
        users = t("common.list_separator", locale).join(
            _who(session, s.seat, locale) for s in winners
        )
        return t(key, locale, name=name, winners=users)
    return None


def _event_lines(session: GameSession, locale: str, limit: int = EVENTS_SHOWN) -> str:
    def build(emoji: bool) -> str:
        lines = [
            line for ev in session.events if (line := event_line(ev, session, locale, emoji=emoji))
        ]
        return "\n".join(f"• {line}" for line in lines[-limit:])

    return _fitting(build)


def footer_text(session: GameSession, locale: str) -> str:
    """The table's footer: the game's number and, while anyone watches, how many."""
    text = t("table.footer", locale, game_id=session.game_id)
    if session.watchers and not session.finished:
        text += " · 👁 " + tn("plural.watching", session.watchers, locale)
    return text


def table_embed(session: GameSession, locale: str | None = None) -> discord.Embed:
    """The public table: built from the spectator observation and public events only (the
    channel's, and every spectator's in the spectator's own ``locale``)."""
    loc = locale or session.locale
    obs = session.public_observation()
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
    status = " · ".join(
        (
            _trump_talon(obs, loc, session.local_ranks),
            t("table.discard", loc, count=obs.discard_mask.bit_count()),
        )
    )
    embed.description = "\n".join([status, *_variant_lines(session, obs, loc)])
    seat_lines = []
    teams = session.game.rules.teams != "none"
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
        if teams:  # partners are shown from the start, not only in "The losing team"
            name = t("table.team_marker", loc, name=name, team=session.game.team_of(s) + 1)
        closed = obs.closed[s] if s < len(obs.closed) else 0
        if s in obs.out:
            seat_lines.append(t("table.seat_line_out", loc, marker=marker, name=name, role=role))
        elif closed:
            # Magadan fool: the closed cards are held too, but cannot be played yet
            seat_lines.append(
                t(
                    "table.seat_line_closed",
                    loc,
                    marker=marker,
                    name=name,
                    open=obs.hand_sizes[s],
                    closed=closed,
                    role=role,
                )
            )
        else:
            cards = tn("plural.cards", obs.hand_sizes[s], loc)
            seat_lines.append(
                t("table.seat_line", loc, marker=marker, name=name, cards=cards, role=role)
            )
    embed.add_field(name=t("table.players", loc), value="\n".join(seat_lines), inline=False)
    if not over:
        embed.add_field(
            name=t("table.field", loc), value=_pairs(obs, loc, session.local_ranks), inline=False
        )
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
        embed.add_field(name=t("table.tally", loc), value=tally[:EMBED_FIELD_VALUE], inline=False)
    if session.status == "finished":
        embed.add_field(
            name=t("table.finished", loc),
            value=result_text(session, loc, tally=False)[:EMBED_FIELD_VALUE],
            inline=False,
        )
    elif session.status == "cancelled":
        embed.add_field(
            name=t("table.finished", loc), value=cancelled_text(session, loc), inline=False
        )
    embed.set_footer(text=footer_text(session, loc))
    return embed


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


def _seat_count(session: GameSession, obs: Observation, s: int, locale: str) -> str:
    name = _who(session, s, locale)
    if s in obs.out:
        return t("hand.seat_out", locale, name=name)
    return t(
        "hand.seat_count", locale, name=name, cards=tn("plural.cards", obs.hand_sizes[s], locale)
    )


def _others_lines(session: GameSession, obs: Observation, locale: str) -> list[str]:
    """Each other seat's card count, partners apart from opponents (team games)."""
    sep = t("common.list_separator", locale)
    others = [s for s in range(len(obs.hand_sizes)) if s != obs.seat]
    teams = obs.rules.teams != "none"
    partners = [s for s in others if teams and (s - obs.seat) % 2 == 0]
    rivals = [s for s in others if s not in partners]
    lines = []
    if rivals:
        key = "hand.opponents" if len(rivals) > 1 else "hand.opponent"
        lines.append(
            t(key, locale, seats=sep.join(_seat_count(session, obs, s, locale) for s in rivals))
        )
    if partners:
        key = "hand.partners" if len(partners) > 1 else "hand.partner"
        lines.append(
            t(key, locale, seats=sep.join(_seat_count(session, obs, s, locale) for s in partners))
        )
    return lines


def _last_move(session: GameSession, locale: str) -> str | None:
    for ev in reversed(session.events):
        line = event_line(ev, session, locale, emoji=True)
        if line:
            return t("hand.last_move", locale, move=line)
    return None


def _hand_text(obs: Observation, locale: str, ranks: bool) -> str:
    return _fitting(
        lambda emoji: (
            cards_face(obs.hand, obs.trump, locale, sort=True, local_ranks=ranks)
            if emoji
            else cards_text(obs.hand, obs.trump, locale, local_ranks=ranks)
        ),
        EMBED_DESCRIPTION - 200,
    )


#: A hand's cards as the embed's description, by the cards, the trump and the letters: a
#: hand that did not move (the other seat's, most moves) is written again unchanged.
_HANDS: Kept[str] = Kept(4096)


def hand_embed(
    session: GameSession,
    obs: Observation,
    locale: str,
    *,
    selected: Sequence[Card] = (),
) -> discord.Embed:
    """A player's private view, from their own observation only: the cards, then what a
    decision needs at a glance: trump and talon, each other hand's size (partners apart),
    the last move, the time left (a live Discord timestamp), and one true sentence of what
    the seat may do now."""
    ranks = session.local_ranks
    held = obs.hand_sizes[obs.seat] if 0 <= obs.seat < len(obs.hand_sizes) else 0
    blind = held > 0 and not obs.hand_mask  # reverse fool: the others' cards, not your own
    if blind:
        description = t("hand.blind", locale, count=held)
    elif obs.hand:
        cards = (obs.hand, obs.trump, locale, ranks, card_emojis.generation)
        description = _HANDS.get(cards, lambda: _hand_text(obs, locale, ranks))
    else:
        description = t("hand.empty", locale)
    if selected:
        picked = (
            " ".join(f"#{int(c) + 1}" for c in selected)
            if blind
            else cards_text(selected, obs.trump, locale, local_ranks=ranks)
        )
        description += "\n" + t("hand.selected", locale, cards=picked)
    embed = discord.Embed(
        title=t("hand.title", locale), description=description, colour=COLOUR_TABLE
    )
    if blind:
        others = [
            t(
                "hand.other_hand",
                locale,
                name=_who(session, s, locale),
                cards=cards_text(
                    sorted(bits(obs.known_masks[s])), obs.trump, locale, local_ranks=ranks
                )
                or "—",
            )
            for s in range(len(obs.hand_sizes))
            if s != obs.seat and obs.hand_sizes[s]
        ]
        embed.add_field(name=t("hand.others_title", locale), value="\n".join(others) or "—")
    lines = [_trump_talon(obs, locale, ranks), *_variant_lines(session, obs, locale)]
    lines += _others_lines(session, obs, locale)
    last = _last_move(session, locale)
    if last:
        lines.append(last)
    if session.deadline is not None and obs.phase != "over" and not session.finished:
        relative = f"<t:{int(session.deadline)}:R>"
        key = "hand.deadline_you" if obs.legal_actions else "hand.deadline"
        lines.append(t(key, locale, relative=relative))
    role = hand_role_key(obs, obs.seat)
    if role:
        lines.append(t(role, locale))
    hint = pass_hint(obs, locale)
    if hint:
        lines.append(hint)
    if (
        not blind
        and not selected
        and any(a.cards and a.kind is not ActionKind.EXCHANGE for a in obs.legal_actions)
    ):
        lines.append(t("hand.tap_hint", locale))  # only when there is a card to tap
    embed.add_field(
        name=t(
            "table.title",
            locale,
            game_id=session.game_id,
            preset=preset_name(session.preset, locale),
        ),
        value="\n".join(lines)[:EMBED_FIELD_VALUE],
        inline=False,
    )
    embed.add_field(name=t("table.field", locale), value=_pairs(obs, locale, ranks), inline=False)
    embed.set_footer(text=footer_text(session, locale))
    return embed


def pass_hint(obs: Observation, locale: str) -> str | None:
    """What the pass button means right now, for a seat that has one: the one decision a
    seat still owes (throw in or not) is spelled out, so nobody wonders why the game waits.
    With no card to add, the hint says only that (never "throw in more")."""
    kinds = {a.kind for a in obs.legal_actions}
    if ActionKind.PASS not in kinds:
        return None
    if obs.taking:
        button = t("hand.button.pass", locale)
        if not kinds & _THROWS:
            return t("hand.hint.nothing", locale, button=button)
        return t("hand.hint.pile", locale, button=button)
    button = t("hand.button.done", locale)
    if not kinds & _THROWS:
        return t("hand.hint.nothing", locale, button=button)
    if any(defence is None for _, defence in obs.table):
        return t("hand.hint.wave", locale, button=button)
    return t("hand.hint.bito", locale, button=button)
