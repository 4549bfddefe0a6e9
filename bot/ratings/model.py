"""Skill ratings from a finished deal: who placed where, the OpenSkill update, what is shown.

Why OpenSkill (Plackett-Luce): a deal of Durak ends in an *order* of several players (they go
out one after another, the fool last), sometimes in two teams, and Plackett-Luce is a model
of exactly that - a ranking of many teams - with an uncertainty (``sigma``) per player, so a
newcomer moves fast and a regular slowly. Elo and Glicko are two-player models that would
need an invented split of a six-player deal into pairs. The library is kept (MIT, pure
Python, no native code), and we never tune its maths: the defaults (mu 25, sigma 25/3,
beta 25/6, tau 25/300) are used as published.

This module is pure: no database, no Discord, no clock. Storage feeds it what a finished
game recorded and stores what it returns, so the same results always give the same ratings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = [
    "COMPUTER_IDS",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "PROVISIONAL_GAMES",
    "TIERS",
    "Participant",
    "Placed",
    "Skill",
    "Tier",
    "computer_id",
    "display_rating",
    "is_computer",
    "out_groups_from_events",
    "placements",
    "rate",
    "record_outs",
    "tier_of",
    "week_start",
]

_MODEL = PlackettLuce()
DEFAULT_MU: float = float(_MODEL.mu)
DEFAULT_SIGMA: float = float(_MODEL.sigma)

#: Games before a rating stops being marked provisional (shown as "1043?"): by then sigma has
#: fallen from 8.3 to about 5 for a regular of four-player tables.
PROVISIONAL_GAMES = 10

#: Computer seats are rated entities, one per difficulty and per server (and season): a
#: player who beats the easy computer a hundred times meets a rating that sank long ago and
#: gains almost nothing. Their ids are negative so they can never collide with a Discord id.
COMPUTER_IDS: Mapping[str, int] = {"easy": -1, "normal": -2, "hard": -3}


def computer_id(difficulty: str) -> int:
    return COMPUTER_IDS[difficulty]


def is_computer(player_id: int) -> bool:
    return player_id < 0


@dataclass(frozen=True, slots=True)
class Skill:
    """One OpenSkill rating."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3*sigma`` (99.7 % sure the skill is above it)."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> int:
    """The one number players see: the ordinal moved into the range people know from chess.

    A newcomer (ordinal 0) shows 1000; a settled average player (mu 25, sigma ~1.5) about
    1410; every point of ordinal is 20 points shown. Never below 0.
    """
    return max(0, round(1000 + 20.0 * (mu - 3.0 * sigma)))


@dataclass(frozen=True, slots=True)
class Tier:
    key: str
    floor: int
    colour: tuple[int, int, int]


#: Named tiers by displayed rating (names in the locales as ``ratings.tier.<key>``).
TIERS: tuple[Tier, ...] = (
    Tier("newcomer", 0, (150, 160, 156)),
    Tier("bronze", 1150, (205, 127, 50)),
    Tier("silver", 1300, (192, 198, 206)),
    Tier("gold", 1400, (245, 197, 66)),
    Tier("platinum", 1500, (120, 214, 214)),
    Tier("diamond", 1600, (150, 170, 255)),
)


def tier_of(display: int) -> Tier:
    found = TIERS[0]
    for tier in TIERS:
        if display >= tier.floor:
            found = tier
    return found


def week_start(ts: float) -> float:
    """Monday 00:00 UTC of the week holding ``ts`` ("rank change since last week" compares
    with the table as it stood then). 1970-01-01 was a Thursday; Monday is four days on."""
    week = 7 * 86400.0
    return math.floor((ts - 4 * 86400.0) / week) * week + 4 * 86400.0


# --------------------------------------------------------------------------- placements


@dataclass(frozen=True, slots=True)
class Participant:
    """A rated entity at a table: a human (user id) or a computer level (negative id)."""

    player_id: int
    seat: int
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """A team (one player in a free-for-all) and its place: 1 is best, equal places tie."""

    members: tuple[Participant, ...]
    place: int


def out_groups_from_events(
    events: Iterable[Sequence[Any]], order: Sequence[int]
) -> list[list[int]]:
    """Who went out together, from the table's kept public events (``[kind, seat, ...]``).

    The engine marks every empty hand out at once after a move, so seats that went out
    together have consecutive "out" events. Only the last few events of a game are kept;
    seats of ``order`` whose "out" is no longer among them went out before and alone.
    """
    runs: list[list[int]] = []
    previous_out = False
    for ev in events:
        if ev[0] == "out":
            if previous_out:
                runs[-1].append(int(ev[1]))
            else:
                runs.append([int(ev[1])])
            previous_out = True
        else:
            previous_out = False
    grouped = {s for run in runs for s in run}
    groups: list[list[int]] = [[s] for s in order if s not in grouped]
    groups += [[s for s in run if s in order] for run in runs]
    seen: set[int] = set()
    ordered: list[list[int]] = []
    position = {s: i for i, s in enumerate(order)}
    for g in sorted((g for g in groups if g), key=lambda g: min(position[s] for s in g)):
        g = [s for s in g if s not in seen]
        seen.update(g)
        if g:
            ordered.append(g)
    return ordered


def record_outs(
    groups: Sequence[Sequence[int]], before: Sequence[int], after: Sequence[int]
) -> list[list[int]]:
    """``groups`` (who went out together, in order) after a move took the engine's ``out``
    list from ``before`` to ``after``: the seats new in it went out with that move, together.
    The session keeps this in its snapshot (``out_groups``) so ties are exact however long
    the game; the kept events only remember the last few moves."""
    new = [int(s) for s in after[len(before) :]]
    return [list(g) for g in groups] + ([new] if new else [])


def placements(
    participants: Sequence[Participant],
    result: Mapping[str, Any] | None,
    out_groups: Sequence[Sequence[int]],
    *,
    teams: bool,
    n_seats: int,
) -> list[Placed]:
    """The finishing order of a deal as ranked teams, or [] when it is not rated.

    * Free-for-all: seats that went out earlier place higher, seats that went out together
      tie; a draw ties everyone still holding cards; the fool is last.
    * ``result`` None (the game ended because a player forfeited): those already out keep
      their order, everyone still playing ties after them.
    * A forfeit counts as the fool: the forfeiter takes the last place (tied with the fool),
      even if the computer that took over the seat then did well.
    * Teams: the two teams are rated as teams (winners 1, losers 2; a draw ties them);
      a forfeiter is a one-player team on the losing place.
    * Not rated: fewer than two sides, or a game every human forfeited (abandoned).
    """
    humans = [p for p in participants if not is_computer(p.player_id)]
    if not humans or all(p.forfeit for p in humans):
        return []
    if teams:
        return _team_placements(participants, result, n_seats)
    place_of: dict[int, int] = {}
    place = 1
    for group in out_groups:
        for s in group:
            place_of[s] = place
        place += 1
    kind = None if result is None else result.get("kind")
    fool = None if result is None else result.get("fool")
    remaining = [p.seat for p in participants if p.seat not in place_of and not p.forfeit]
    if kind == "fool" and fool is not None:
        others = [s for s in remaining if s != fool]
        for s in others:  # not expected: everyone but the fool went out
            place_of[s] = place
        place += 1 if others else 0
        place_of[fool] = place
        forfeit_place = place
    else:  # a draw, or the game ended on a forfeit: everyone still playing ties
        for s in remaining:
            place_of[s] = place
        forfeit_place = place + 1 if remaining else place
    placed = [Placed((p,), forfeit_place if p.forfeit else place_of[p.seat]) for p in participants]
    if len(placed) < 2:
        return []
    return _dense(placed)


def _team_placements(
    participants: Sequence[Participant], result: Mapping[str, Any] | None, n_seats: int
) -> list[Placed]:
    losing: int | None = None
    if result is not None and result.get("kind") == "team":
        losing = result.get("losing_team")
    elif result is None:
        forfeiters = [p for p in participants if p.forfeit]
        losing = forfeiters[-1].seat % 2 if forfeiters else None
    sides: dict[int, list[Participant]] = {0: [], 1: []}
    loners: list[Participant] = []
    for p in participants:
        (loners if p.forfeit else sides[p.seat % 2]).append(p)
    placed: list[Placed] = []
    for team, members in sides.items():
        if members:
            placed.append(Placed(tuple(members), 2 if team == losing else 1))
    for p in loners:
        placed.append(Placed((p,), 2))
    if len(placed) < 2:
        return []
    return _dense(placed)


def _dense(placed: list[Placed]) -> list[Placed]:
    """Places renumbered 1, 2, 3 ... without gaps (ties keep equal numbers)."""
    distinct = sorted({p.place for p in placed})
    rank = {v: i + 1 for i, v in enumerate(distinct)}
    return [Placed(p.members, rank[p.place]) for p in placed]


def rate(placed: Sequence[Placed], skills: Mapping[int, Skill]) -> dict[int, tuple[Skill, Skill]]:
    """OpenSkill's update for one deal: player id -> (before, after).

    ``skills`` holds the players' current ratings (a newcomer may be missing: default). A
    computer level sitting in two seats of one deal is two players to the model; its stored
    rating moves by the mean of the two updates.
    """
    teams = []
    for pl in placed:
        team = []
        for m in pl.members:
            skill = skills.get(m.player_id, Skill())
            team.append(_MODEL.rating(mu=skill.mu, sigma=skill.sigma))
        teams.append(team)
    new = _MODEL.rate(teams, ranks=[float(pl.place) for pl in placed])
    updates: dict[int, list[Skill]] = {}
    for pl, team_after in zip(placed, new, strict=True):
        for m, r in zip(pl.members, team_after, strict=True):
            updates.setdefault(m.player_id, []).append(Skill(float(r.mu), float(r.sigma)))
    out: dict[int, tuple[Skill, Skill]] = {}
    for player_id, after in updates.items():
        mu = sum(a.mu for a in after) / len(after)
        sigma = sum(a.sigma for a in after) / len(after)
        out[player_id] = (skills.get(player_id, Skill()), Skill(mu, sigma))
    return out
