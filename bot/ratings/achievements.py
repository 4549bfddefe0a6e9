"""Achievements: which ones a player's finished game earns.

Each rule is a pure function of :class:`PlayerGame`, the facts storage gathers when it rates a
game (this game's place and table, the player's record up to and including it). Earned once
per player and server: storage keeps the first game that satisfied a rule and ignores the
rule afterwards. Names and descriptions are in the locales as ``ratings.ach.<key>.name`` and
``.description``; the badge (a small card) draws ``glyph`` on ``colour``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from .model import COMPUTER_IDS, tier_of

__all__ = ["ACHIEVEMENTS", "Achievement", "PlayerGame", "earned"]


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """What one rated game meant for one human player."""

    player_id: int
    #: 1 = went out first; ties share a place.
    place: int
    #: How many players shared this place.
    place_shared: int
    players: int
    teams: bool
    outcome: str  # fool / win / draw / forfeit / lost_team
    preset: str
    display_before: int
    display_after: int
    #: Other participants: (player id, display before the game, place).
    opponents: tuple[tuple[int, int, int], ...] = ()
    #: Rated games in this server, this one included.
    games: int = 1
    #: Games in a row without being the fool, ending with this one (0 if the fool now).
    streak: int = 0
    #: Fool outcomes in a row just before this game.
    fools_in_row_before: int = 0
    #: Modes (presets) played in this server, this game's included.
    presets_played: frozenset[str] = field(default_factory=frozenset)
    #: Every mode of the catalogue (for "played them all").
    all_presets: frozenset[str] = field(default_factory=frozenset)

    @property
    def fool(self) -> bool:
        return self.outcome in ("fool", "lost_team", "forfeit")

    @property
    def went_out_first(self) -> bool:
        return not self.teams and self.place == 1 and self.place_shared == 1


@dataclass(frozen=True, slots=True)
class Achievement:
    key: str
    glyph: str
    colour: tuple[int, int, int]
    rule: Callable[[PlayerGame], bool]


def _beat(g: PlayerGame, pred: Callable[[int, int], bool]) -> bool:
    return any(pred(pid, disp) and place > g.place for pid, disp, place in g.opponents)


_RED = (200, 40, 48)
_BLACK = (30, 30, 34)
_GOLD = (196, 146, 20)
_BLUE = (48, 96, 190)
_GREEN = (30, 130, 80)

#: In the order the profile lists them.
ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_game", "1", _BLACK, lambda g: g.games >= 1),
    Achievement("first_escape", "✓", _GREEN, lambda g: not g.fool),
    Achievement("streak_5", "5", _GREEN, lambda g: g.streak >= 5),
    Achievement("streak_10", "10", _GREEN, lambda g: g.streak >= 10),
    Achievement("games_25", "25", _BLUE, lambda g: g.games >= 25),
    Achievement("games_100", "100", _BLUE, lambda g: g.games >= 100),
    Achievement("first_out", "♠", _BLACK, lambda g: g.went_out_first and g.players >= 3),
    Achievement("big_table", "6", _RED, lambda g: g.went_out_first and g.players >= 6),
    Achievement("survivor", "♥", _RED, lambda g: not g.fool and g.players >= 6),
    Achievement("team_win", "♣", _BLACK, lambda g: g.teams and g.outcome == "win"),
    Achievement("peacemaker", "=", _BLUE, lambda g: g.outcome == "draw"),
    Achievement("comeback", "↑", _GREEN, lambda g: not g.fool and g.fools_in_row_before >= 3),
    Achievement(
        "giant_slayer",
        "★",
        _GOLD,
        lambda g: _beat(g, lambda pid, disp: pid > 0 and disp >= g.display_before + 200),
    ),
    Achievement(
        "beat_hard", "♦", _RED, lambda g: _beat(g, lambda pid, _d: pid == COMPUTER_IDS["hard"])
    ),
    Achievement("explorer", "?", _BLUE, lambda g: len(g.presets_played) >= 5),
    Achievement(
        "catalogue",
        "∞",
        _GOLD,
        lambda g: bool(g.all_presets) and g.all_presets <= g.presets_played,
    ),
    Achievement("silver", "S", (120, 126, 136), lambda g: tier_of(g.display_after).floor >= 1300),
    Achievement("gold", "G", _GOLD, lambda g: tier_of(g.display_after).floor >= 1400),
    Achievement("diamond", "◆", (90, 110, 230), lambda g: tier_of(g.display_after).floor >= 1600),
    # Earned by winning a tournament (bot/storage/tournaments.py awards it), never by a game.
    Achievement("tournament_win", "♛", _GOLD, lambda g: False),
)

BY_KEY = {a.key: a for a in ACHIEVEMENTS}


def earned(game: PlayerGame, already: Collection[str] = ()) -> list[str]:
    """Keys of the achievements this game earns that the player does not hold yet."""
    return [a.key for a in ACHIEVEMENTS if a.key not in already and a.rule(game)]
