"""Fixed standings for the goldens, the benchmark and the README pictures: a full page of a
rating board and a regular's profile card, with the texts in English (as the scenes the bot
builds, but without a database)."""

from __future__ import annotations

from ..ratings import tier_of
from ..ratings.achievements import ACHIEVEMENTS
from .standings import BoardRow, BoardScene, ProfileScene

__all__ = ["sample_board", "sample_profile"]

_NAMES = (
    "Anna Karenina",
    "Dmitri",
    "Олег Петров",
    "sasha_k",
    "Marguerite",
    "Ivan the Terrible at cards",
    "Lena",
    "Боря",
    "Tom",
    "newcomer42",
)
_TIER_LETTERS = {
    "newcomer": "N",
    "bronze": "B",
    "silver": "S",
    "gold": "G",
    "platinum": "P",
    "diamond": "D",
}


def sample_board() -> BoardScene:
    rows = []
    ratings = (1642, 1561, 1502, 1455, 1433, 1390, 1311, 1240, 1175, 1043)
    changes = (0, 2, -1, 1, None, -2, 0, 3, -1, None)
    for i, (name, value, change) in enumerate(zip(_NAMES, ratings, changes, strict=True)):
        tier = tier_of(value)
        provisional = i == 9
        rows.append(
            BoardRow(
                rank=i + 1,
                player_id=1000 + 37 * i,
                name=name,
                rating=f"{value}?" if provisional else str(value),
                tier_letter=_TIER_LETTERS[tier.key],
                tier_name=tier.key.capitalize(),
                tier_colour=tier.colour,
                games=str(120 - 11 * i if not provisional else 4),
                change=change,
            )
        )
    return BoardScene(
        title="Leaderboard · rating",
        subtitle="Season 2 “Winter” · since 1 Dec 2026 · all modes · min. 5 games",
        rows=tuple(rows),
        header_rating="Rating",
        header_games="Games",
    )


def sample_profile() -> ProfileScene:
    history = (
        1000,
        1040,
        1021,
        1080,
        1122,
        1108,
        1160,
        1201,
        1188,
        1240,
        1282,
        1270,
        1315,
        1352,
        1340,
        1391,
        1420,
        1433,
    )
    tier = tier_of(history[-1])
    keys = [a.key for a in ACHIEVEMENTS][:6]
    return ProfileScene(
        player_id=1037,
        name="Dmitri",
        rating=str(history[-1]),
        tier_letter=_TIER_LETTERS[tier.key],
        tier_name=tier.key.capitalize(),
        tier_colour=tier.colour,
        subtitle="#5 of 38 · Season 2 “Winter” · best 1433",
        history=history,
        history_label="Rating, last 18 games",
        stats=(
            ("Games", "109"),
            ("Not the fool", "74%"),
            ("Fool", "26%"),
            ("Games abandoned", "2"),
            ("Streak now", "6"),
            ("Best streak", "14"),
            ("Favourite mode", "Perevodnoy"),
            ("Draws", "3"),
        ),
        modes=(("Perevodnoy", 61), ("Podkidnoy", 38), ("Teams 2 vs 2", 7), ("Trumpless", 3)),
        modes_label="Games by mode",
        rivals=(
            ("Finishes ahead of most often", "Anna Karenina ×23"),
            ("Finishes behind most often", "Олег Петров ×17"),
        ),
        achievements=tuple((k, k.replace("_", " ").capitalize()) for k in keys),
        achievements_label="Recent achievements",
    )
