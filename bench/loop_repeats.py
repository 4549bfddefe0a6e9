"""How often the bot renders the same hand or table twice: what a render cache per game
version and language could save, counted on bench/bot_load.py's own run.

It runs bench/bot_load.py (same arguments) with the hand and table renders wrapped from the
outside, and counts the renders and those that repeat one already made for the same
(game, version, seat, language, selection, note) or (game, version, language). A repeat is
what a cache per version would have answered; the rest must be drawn anyway.

    .venv/bin/python bench/loop_repeats.py --sizes 100 --clicks 4 --no-trace --pictures off
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.app
import bot.surfaces.hand_views
import bot.surfaces.publisher
from bench import bot_load

renders: Counter[str] = Counter()
repeats: Counter[str] = Counter()
seen: set[tuple[Any, ...]] = set()


def counted(kind: str, render: Callable[..., Any], key: Callable[..., tuple[Any, ...]]) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        k = (kind, *key(*args, **kwargs))
        renders[kind] += 1
        if k in seen:
            repeats[kind] += 1
        seen.add(k)
        return render(*args, **kwargs)

    return wrapper


def hand_key(session: Any, seat: int, locale: str, **kw: Any) -> tuple[Any, ...]:
    selection = tuple(str(c) for c in kw.get("selection", ()))
    return (session.game_id, session.version, seat, locale, selection, kw.get("note"))


def table_key(session: Any, locale: str | None = None, **kw: Any) -> tuple[Any, ...]:
    return (session.game_id, session.version, locale or session.locale)


def main() -> int:
    hand = counted("hand", bot.surfaces.hand_views.hand_message, hand_key)
    bot.surfaces.hand_views.hand_message = hand
    bot.app.hand_message = hand
    table = counted("table", bot.surfaces.publisher.table_embed, table_key)
    bot.surfaces.publisher.table_embed = table
    code = bot_load.main(sys.argv[1:])
    print(
        f"hand renders: {renders['hand']}, of which repeats of the same game version, seat, "
        f"language, selection and note: {repeats['hand']}; table embeds: {renders['table']}, "
        f"of which repeats of the same game version and language: {repeats['table']}"
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
