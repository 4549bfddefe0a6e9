"""What one socket of the Activity is sent: a seat's observation, or the public view, as JSON.

The frame is built from :class:`engine.Observation` (the view computer players get) and the
session's public events (the chat table's "last moves", for the pass card just shown), never
from the game itself, so a frame cannot hold a card its reader may not see: another seat's
hand, the talon, a face-down defence. The variants' marks come the same way: partners from
the public rules, scores from the variant's public state, closed cards and own trumps from
the observation; avatars are CDN paths of the seated humans (:data:`Avatars`).

Cards travel in the engine's notation (``6s``, ``Th``, ``6s'`` for a twin) and moves as the
engine's action notation with the seat (``0 attack 6s 6h``): the client sends a move back
exactly as it got it, and the server parses and checks it like any other
(bot/activity/server.py), so the browser holds no rule of its own.

Spectators get ``Observation`` of seat -1, delayed one move when the server says so
(:func:`bot.surfaces.spectators.spectator_frame`), like the chat's watch view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import SPECTATOR, Action, ActionKind, Observation
from engine.actions import BLIND_KINDS

from ..game.models import GameSession
from ..game.turns import waiting_seats
from ..rendering.common import score_texts, seat_name
from ..surfaces.spectators import spectator_frame

__all__ = ["SUITS", "Avatars", "frame_cards", "no_avatars", "seat_frame"]

#: A human's avatar as a path on Discord's CDN (``avatars/<id>/<hash>.png?size=64``), or None
#: where the bot knows none; the client loads it through the Activity's URL mapping.
Avatars = Callable[[int], str | None]


def no_avatars(user_id: int) -> str | None:
    """Where no Discord client is at hand (tests): the client draws initials."""
    return None


#: Suit letters in the engine's order (clubs, diamonds, hearts, spades): the client draws them.
SUITS = "cdhs"


def _role(obs: Observation, seat: int) -> str:
    """The seat's part in the bout, in the words of the chat table's ``role.*`` keys."""
    if seat in obs.out or not obs.active[seat]:
        return "out"
    if seat == obs.defender:
        return "taking" if obs.taking else "defending"
    if seat == obs.attacker:
        return "attacking"
    if seat in obs.eligible_attackers and obs.table:
        return "throwing_in"
    return "waiting"


def _move(action: Action) -> dict[str, Any]:
    """A legal move as the client needs it: what to send back, its kind and the hand cards it
    puts down (a blind move names a slot of the hand, never a card)."""
    cards = [str(c) for c in action.cards]
    if action.kind in BLIND_KINDS:
        slots = [int(action.cards[-1])]
        cards = [str(c) for c in action.cards[:-1]]
        return {"send": str(action), "kind": action.kind.value, "on": cards, "slots": slots}
    if action.kind in (ActionKind.DEFEND, ActionKind.CONCEAL):
        return {"send": str(action), "kind": action.kind.value, "on": cards[:1], "cards": cards[1:]}
    return {"send": str(action), "kind": action.kind.value, "cards": cards}


def _shown(session: GameSession, obs: Observation) -> dict[str, Any] | None:
    """The pass card just shown (a trump of the attack's rank, kept in the hand): the latest
    public event, while its bout is on the table. Everyone saw it, as the chat table's "last
    moves" line says; the card is in its holder's public ``known`` cards."""
    last = session.events[-1] if session.events else None
    if last is None or last.kind != "show" or not last.cards or not obs.table:
        return None
    return {"seat": last.seat, "card": str(last.cards[0]), "target": last.target}


def seat_frame(
    session: GameSession, seat: int | None, avatars: Avatars = no_avatars
) -> dict[str, Any]:
    """The frame for one player's seat (None: a spectator) of ``session`` now."""
    watching = seat is None
    shown = spectator_frame(session) if watching else session
    base: dict[str, Any] = {
        "op": "frame",
        "game_id": session.game_id,
        "preset": session.preset,
        "locale": session.locale,
        "local_ranks": session.local_ranks,
        "status": session.status,
        "seat": -1 if seat is None else seat,
        "watchers": session.watchers,
    }
    if shown is None:  # a delayed spectator just after a restart: nothing earlier in memory
        return base | {"version": session.version, "delayed": True, "waiting": True}
    game = shown.game
    obs = game.public_observation() if watching else game.observation(seat)  # type: ignore[arg-type]
    waiting = set(waiting_seats(game)) if session.status == "running" else set()
    teams = obs.rules.teams != "none"
    scores = score_texts(obs, session.locale)
    seats = []
    for info in session.seats:
        s = info.seat
        seats.append(
            {
                "seat": s,
                "name": seat_name(info, session.locale, markdown=False),
                "computer": info.computer is not None,
                "avatar": avatars(info.user_id) if info.user_id is not None else None,
                "team": s % 2 + 1 if teams else None,
                "score": scores[s] if scores else None,
                "left": info.left,
                "count": obs.hand_sizes[s],
                "closed": obs.closed[s] if obs.closed else 0,
                "role": _role(obs, s),
                "turn": s in waiting,
                "passed": s in obs.passed,
                "trump": SUITS[obs.trumps[s]] if obs.trumps and 0 <= obs.trumps[s] < 4 else None,
            }
        )
    result = None
    if obs.result is not None:
        result = {"kind": obs.result.kind, "fool": obs.result.fool, "losers": obs.result.losers}
    return base | {
        "version": shown.version,
        "delayed": shown is not session,
        "deadline": shown.deadline,
        "phase": obs.phase,
        "seats": seats,
        "hand": [str(c) for c in obs.hand],
        # reverse fool: the seat holds cards it may not see (played by their slot)
        "hidden_hand": not watching and len(obs.hand) < obs.hand_sizes[obs.seat],
        "table": [[str(a), None if d is None else str(d)] for a, d in obs.table],
        "face_down": list(obs.face_down),
        "judging": obs.judging,
        "out_of_play": obs.out_of_play,
        "own_trumps": len(set(obs.trumps)) > 1,
        "shown": _shown(shown, obs),
        "trump": SUITS[obs.trump] if 0 <= obs.trump < 4 else None,
        "trump_card": None if obs.trump_card is None else str(obs.trump_card),
        "trump_in_talon": obs.trump_card_in_talon,
        "talon": obs.talon_count,
        "discard": obs.discard_mask.bit_count(),
        "attacker": obs.attacker,
        "defender": obs.defender,
        "taking": obs.taking,
        "result": result,
        "moves": [_move(a) for a in obs.legal_actions]
        if seat is not None and seat != SPECTATOR
        else [],
    }


def frame_cards(frame: dict[str, Any]) -> set[str]:
    """Every card a frame shows, wherever it sits (for the tests that prove none leaks)."""
    seen: set[str] = set(frame.get("hand", ()))
    for pair in frame.get("table", ()):
        seen.update(c for c in pair if c is not None)
    if frame.get("trump_card"):
        seen.add(frame["trump_card"])
    if frame.get("shown"):
        seen.add(frame["shown"]["card"])
    for move in frame.get("moves", ()):
        seen.update(move.get("cards", ()))
        seen.update(move.get("on", ()))
        action = Action.parse(move["send"])
        if action.kind not in BLIND_KINDS:
            seen.update(str(c) for c in action.cards)
    return seen
