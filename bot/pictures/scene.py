"""What a table picture shows, frozen: built on the event loop, drawn in a worker thread.

The live :class:`~bot.game.models.GameSession` changes under the service lock while a picture is
being drawn, so the drawing code never sees it. A :class:`Scene` is built from public
information only (``game.public_observation()``, seat names, the seats the game waits for)
and holds already translated labels; it is hashable, which makes it its own cache key, and it
carries the game id and version so two versions never share a picture by accident.

A picture shows no time: it is drawn once per move and would show a countdown frozen at that
moment while the text table next to it counts down with Discord's live timestamp
(``<t:…:R>``). The final picture shows the outcome instead of the roles of play: who is the
fool, a draw, who forfeited, or that the game ended before anybody moved.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Observation
from engine.cards import NO_TRUMP, SUIT_NAMES

from ..cardart.labels import LATIN_RANKS, rank_labels
from ..game.models import GameSession, LobbyInfo
from ..game.turns import waiting_seats
from ..i18n import t
from ..rendering.common import deck_text, preset_name, score_texts, seat_name
from ..rendering.lobby import lobby_teams
from ..rendering.table import role_key
from .fonts import drawable

__all__ = ["Scene", "SeatScene", "last_played", "lobby_scene", "table_scene"]
#: Event kinds that put cards on the table (the last such cards are outlined).
_PLAYS = frozenset({"attack", "defend", "throw", "pile", "transfer", "show", "top"})

#: Role keys to the colour family the seat's role is drawn in.
_TONES = {
    "role.attacking": "attack",
    "role.defending": "defend",
    "role.taking": "take",
    "role.throwing_in": "throw",
    "role.waiting": "wait",
    "role.out": "out",
    "role.fool": "fool",
}


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat as the channel may see it."""

    name: str
    #: The translated role shown under the name ("" in the lobby for a human).
    role: str
    #: Colour family: attack, defend, take, throw, wait, out, fool, player, computer, free.
    tone: str
    #: Cards in hand (only a count: the picture never shows a hidden card).
    cards: int = 0
    #: The game waits for this seat: drawn highlighted.
    turn: bool = False
    #: The seat's own trump suit when seats have different ones (double-trump fool), else -1.
    trump: int = -1
    #: Closed cards lying face down in front of the seat (Magadan fool): only a count.
    closed: int = 0
    #: The running score, translated ("3 points", "1 epaulet"; point and epaulet fool).
    score: str = ""
    #: Partnership games: the seat's team (1 or 2), drawn as a numbered disc; 0 otherwise.
    team: int = 0


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything one picture shows. ``kind`` is ``lobby`` or ``table``."""

    kind: str
    game_id: int
    version: int
    seats: tuple[SeatScene, ...]
    #: Seats still free in a lobby (drawn as empty places).
    free_seats: int = 0
    free_label: str = ""
    #: Lobby: the mode's name and the deck; table: unused.
    title: str = ""
    subtitle: str = ""
    #: Trump suit (0..3) and the turned-up card while it lies under the talon.
    trump: int = 0
    trump_card: int | None = None
    trump_label: str = ""
    talon: int = 0
    talon_label: str = ""
    discard: int = 0
    discard_label: str = ""
    #: (attack, defence or None) in the order they were played.
    pairs: tuple[tuple[int, int | None], ...] = ()
    #: The suit marked as trump on the cards in the middle when it is not ``trump``: the
    #: defender's own trump in double-trump fool (the suit that beats here). -1: ``trump``.
    pair_trump: int = -1
    #: Indices of the pairs whose defence lies face down (take on trust): drawn as a back.
    face_down: tuple[int, ...] = ()
    #: The face-down pair awaiting the attacker's verdict (take on trust), -1: none.
    judging: int = -1
    #: Cards out of play that nobody will draw (Chukchi fool's talon): "" or the label.
    aside_label: str = ""
    #: Text across the middle when the game is over ("" otherwise).
    banner: str = ""
    #: The card(s) of the last move still lying face up on the table: outlined.
    last_played: tuple[int, ...] = ()
    #: The 13 rank labels the cards are drawn with (В Д К Т on a Russian table).
    ranks: tuple[str, ...] = LATIN_RANKS


def _name(text: str, number: int, loc: str) -> str:
    """A seat name the font can draw: an emoji-only name would come out blank (or as boxes),
    so it becomes "Player 2" (the seat's number; the text table has the real name)."""
    return text if drawable(text, bold=True) else t("picture.seat_placeholder", loc, number=number)


def last_played(session: GameSession, obs: Observation | None = None) -> tuple[int, ...]:
    """The cards of the newest move that played cards, if they still lie face up on the
    table (after a bito or a pick-up nothing is marked). Public: they are face up.
    ``obs``: the session's public observation, when the caller has it."""
    table = (session.public_observation() if obs is None else obs).table
    attacks = {int(a) for a, _ in table}
    defences = {int(d) for _, d in table if d is not None}
    for event in reversed(session.events):
        if event.cards:  # the newest move with cards: a play, or a draw after a bito
            if event.kind not in _PLAYS:
                return ()
            # a defence names the card it beats too: only the beating card was played
            played = defences if event.kind == "defend" else attacks
            return tuple(int(c) for c in event.cards if int(c) in played)
    return ()


def _final_role(session: GameSession, obs: Observation, seat: int) -> tuple[str, str]:
    """(label key, tone) of a seat on the final table: the outcome, never a role of play
    ("attacking" on a table nobody plays any more reads as if the game went on)."""
    if session.status != "finished" or session.void:
        return "", "wait"
    if seat in session.forfeits:
        return "picture.forfeited", "fool"
    if obs.result is not None:
        if seat in obs.result.losers:
            return "role.fool", "fool"
        if obs.result.kind == "draw" and seat not in obs.out:
            return "picture.draw_seat", "wait"
        return "role.out", "out"
    if seat in obs.out:
        return "role.out", "out"
    return ("picture.won", "wait") if session.seats[seat].is_human else ("", "wait")


def _final_banner(session: GameSession, obs: Observation) -> str:
    """The words across the middle of an ended table: how it ended."""
    loc = session.locale
    if session.status == "cancelled":
        return t("picture.cancelled", loc)
    if session.void:
        return t("picture.void", loc)
    if session.ended_by is not None:
        return t("picture.forfeit_end", loc)
    if obs.result is not None and obs.result.kind == "draw":
        return t("picture.draw", loc)
    return t("picture.game_over", loc)


def lobby_scene(info: LobbyInfo) -> Scene:
    """The lobby: who sat down (computers marked), how many places are left, which mode."""
    loc = info.locale
    teams = lobby_teams(info)
    seats = tuple(
        SeatScene(
            name=_name(seat_name(seat, loc, markdown=False), number, loc),
            role=(
                t(f"difficulty.{seat.difficulty}", loc)
                if seat.user_id is None
                else t("picture.host" if seat.user_id == info.host_id else "picture.player", loc)
            ),
            tone="computer" if seat.user_id is None else "player",
            team=seat.seat % 2 + 1 if teams else 0,
        )
        for number, seat in enumerate(info.seats, start=1)
    )
    banner = t("lobby.cancelled", loc) if info.status == "cancelled" else ""
    return Scene(
        kind="lobby",
        game_id=info.game_id,
        # A lobby has no game version; its content (seats, status) is the version.
        version=0,
        seats=seats,
        free_seats=max(0, info.max_seats - len(info.seats)) if info.status == "lobby" else 0,
        free_label=t("picture.free_seat", loc),
        title=preset_name(info.preset, loc),
        subtitle=deck_text(info, loc),
        banner=banner,
    )


def table_scene(session: GameSession) -> Scene:
    """The table from the spectator's observation: exactly what the text table may show."""
    loc = session.locale
    obs = session.public_observation()
    waiting = set(waiting_seats(session.game)) if not session.finished else set()
    # Double-trump fool: each seat beats with its own suit, so each panel shows it.
    own_trumps = len(set(obs.trumps)) > 1
    scores = score_texts(obs, loc)
    teams = session.game.rules.teams != "none"
    seats = []
    for info in session.seats:
        s = info.seat
        if session.finished:
            key, tone = _final_role(session, obs, s)
        else:
            key = role_key(obs, s)
            tone = _TONES.get(key, "wait")
            # "может подкинуть" is wider than a panel at a size readable in Discord
            key = "picture.throwing_in" if key == "role.throwing_in" else key
        seats.append(
            SeatScene(
                name=_name(seat_name(info, loc, markdown=False), s + 1, loc),
                role=t(key, loc) if key else "",
                tone=tone,
                cards=obs.hand_sizes[s],
                turn=s in waiting,
                trump=obs.trumps[s] if own_trumps else -1,
                closed=obs.closed[s] if s < len(obs.closed) else 0,
                score=scores[s] if scores else "",
                team=session.game.team_of(s) + 1 if teams else 0,
            )
        )
    # Shown under the trump badge once the turned-up card is gone; the badge has the symbol.
    if own_trumps:
        trump_label = t("picture.own_trumps", loc)
    elif obs.trump == NO_TRUMP:
        trump_label = t("table.no_trump", loc)
    else:
        trump_label = t("picture.trumps", loc, suit=t(f"suit.{SUIT_NAMES[obs.trump]}", loc))
    # The counts stand on the talon and the pile; the captions only name them.
    talon_label = t("picture.talon", loc)
    banner = _final_banner(session, obs) if session.finished else ""
    return Scene(
        kind="table",
        game_id=session.game_id,
        version=session.version,
        seats=tuple(seats),
        trump=obs.trump,
        # (None also when no card shows trumps, or it is hidden: trumpless, invisible fool)
        trump_card=(
            int(obs.trump_card) if obs.trump_card_in_talon and obs.trump_card is not None else None
        ),
        trump_label=trump_label,
        talon=obs.talon_count,
        talon_label=talon_label,
        discard=obs.discard_mask.bit_count(),
        discard_label=t("picture.discard", loc),
        pairs=tuple((int(a), None if d is None else int(d)) for a, d in obs.table),
        pair_trump=(
            obs.trumps[obs.defender] if own_trumps and 0 <= obs.defender < len(obs.trumps) else -1
        ),
        face_down=obs.face_down,
        judging=obs.judging,
        aside_label=(t("table.out_of_play", loc, count=obs.out_of_play) if obs.out_of_play else ""),
        banner=banner,
        last_played=last_played(session, obs),
        ranks=rank_labels(loc, local_ranks=session.local_ranks),
    )
