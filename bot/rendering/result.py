"""The end of a game: the result announcement, final hands, the series tally, forfeits
and the cancelled-game sentence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game.models import GameSession, LeaveEffect, LobbyInfo, SeatInfo
from ..game.series import deal_losers
from ..i18n import t, tn
from ..usertext import TEXT_CHARS, inert
from .common import _mention, cards_text, score_texts, seat_name


def result_text(session: GameSession, locale: str, *, tally: bool = True) -> str:
    """The verdict, said once: who is the fool (or which team lost, or that it is a draw),
    who went out in what order, forfeits, the cards left in hand and (``tally``) the
    session's matchsticks (the table shows those in a field of their own)."""
    seats = session.seats
    lines = []
    if session.void:
        assert session.ended_by is not None
        lines.append(t("announce.forfeit_end_void", locale, user=_user(seats[session.ended_by])))
        return "\n".join(lines + _epilogue(session, None, locale, tally))
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
    result = session.public_observation().result
    if result is None:
        return ""
    order = list(result.finish_order)
    scores = _final_scores(session)
    if result.kind == "draw" and not scores:
        # Nobody is the fool because the last players ran out of cards on one move: the
        # order they went out in would read as a ranking with a winner on top, so the draw
        # names who ended it together and only then who had gone out before them.
        last = session.out_groups[-1] if session.out_groups else []
        if len(last) > 1:
            users = t("common.list_separator", locale).join(
                _mention(seats[s], locale) for s in last
            )
            lines.append(t("announce.draw_together", locale, users=users))
        else:
            lines.append(t("announce.draw", locale))
        earlier = [s for s in order if s not in last]
        if earlier:
            lines.append(
                t("announce.draw_earlier", locale, users=_numbered(seats, earlier, locale))
            )
        lines += _forfeit_lines(session, locale)
        return "\n".join(lines + _epilogue(session, result, locale, tally))
    if result.kind == "draw":
        lines.append(t("announce.draw", locale))
    elif result.kind == "team":
        users = t("common.list_separator", locale).join(
            _mention(seats[s], locale) for s in result.losers
        )
        lines.append(t("announce.losing_team", locale, users=users))
    elif result.fool is not None:
        lines.append(t("announce.fool", locale, user=_mention(seats[result.fool], locale)))
    if scores:
        # Point and epaulet fool rank by score, not by who went out first: the ranking is
        # the score order (best first), and the scores themselves are what decided it.
        ranking = order + [s for s in result.losers if s not in order]
        ranking += [s for s in range(len(seats)) if s not in ranking]
        items = t("common.list_separator", locale).join(
            t(
                "announce.score_item",
                locale,
                number=i,
                user=_mention(seats[s], locale),
                score=scores[s],
            )
            for i, s in enumerate(ranking, 1)
        )
        lines.append(t("announce.scores_order", locale, items=items))
    elif len(order) == 1:
        lines.append(t("announce.out_first", locale, user=_mention(seats[order[0]], locale)))
    elif order:
        lines.append(t("announce.out_order", locale, users=_numbered(seats, order, locale)))
    lines += _forfeit_lines(session, locale)
    return "\n".join(lines + _epilogue(session, result, locale, tally))


def _numbered(seats: Sequence[SeatInfo], order: Sequence[int], locale: str) -> str:
    """Seats in the order they went out, numbered: "1. alice, 2. bob"."""
    return t("common.list_separator", locale).join(
        t("announce.out_item", locale, number=i, user=_mention(seats[s], locale))
        for i, s in enumerate(order, 1)
    )


def _final_scores(session: GameSession) -> list[str]:
    """Each seat's final score in a scoring variant (point, epaulet fool), else []."""
    return score_texts(session.public_observation(), session.locale)


def _epilogue(session: GameSession, result: Any, locale: str, tally: bool) -> list[str]:
    """After the verdict: everyone's remaining cards, then the session's matchsticks."""
    out: list[str] = []
    hands = final_hands(session, locale)
    if hands:
        out += ["", t("announce.hands_title", locale), *hands]
    if tally:
        line = tally_text(
            session,
            locale,
            deal_losers(result, session.ended_by, session.forfeits, void=session.void),
        )
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
            cards=cards_text(
                game.hand(seat.seat), game.trump, locale, local_ranks=session.local_ranks
            ),
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
    result = session.public_observation().result
    return tally_text(
        session, locale, deal_losers(result, session.ended_by, session.forfeits, void=session.void)
    )


def _user(seat: SeatInfo) -> str:
    """A mention even for a human who left (they are still the one the result is about)."""
    return f"<@{seat.user_id}>" if seat.user_id is not None else inert(seat.name)


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
        lines.append(
            t(
                "announce.forfeit_assigned",
                locale,
                user=users,
                text=inert(session.forfeit_text, limit=TEXT_CHARS),
            )
        )
    return lines


def leave_question(effect: LeaveEffect, game_id: int, locale: str) -> str:
    """The private question before leaving a running game: what leaving will do."""
    frame = "leave.ask_void" if effect.outcome in ("void", "lesson") else "leave.ask_forfeit"
    return t(frame, locale, game_id=game_id, consequence=leave_consequence(effect, locale))


def leave_answer(effect: LeaveEffect, game_id: int, locale: str) -> str:
    """The answer after the leave: what it did, in the question's own words."""
    frame = "leave.left_void" if effect.outcome in ("void", "lesson") else "leave.left_forfeit"
    return t(frame, locale, game_id=game_id, consequence=leave_consequence(effect, locale))


def leave_consequence(effect: LeaveEffect, locale: str) -> str:
    """The one sentence both the question and the answer carry, so they cannot differ."""
    winners = t("common.list_separator", locale).join(f"<@{u}>" for u in effect.winners)
    return t(f"leave.consequence.{effect.outcome}", locale, winners=winners)


def cancelled_text(session: GameSession, locale: str) -> str:
    if session.cancelled_by is None:
        return t("announce.game_cancelled_auto", locale)
    return t("announce.game_cancelled", locale, user=f"<@{session.cancelled_by}>")
