"""Typical tables, reproducibly: for the render benchmark, the picture tests and the README
screenshot (``python -m bot.pictures.samples docs/table.png``).

A seeded game is played with a fixed, slightly cautious random policy until the wanted
moment arrives (an open attack, everything beaten, a transfer, a pick-up, the end), so every
preset and table size can be shown in each state without hand-written positions. Names mix
Latin, Cyrillic, emoji and one overlong name on purpose: the pictures must cope with them.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from engine import PRESETS, ActionKind, Game, RuleSet

from ..game.models import GameSession, LobbyInfo, PublicEvent, SeatInfo, public_events

__all__ = [
    "NAMES",
    "PLAIN_NAMES",
    "STAGES",
    "plain_names",
    "sample_game",
    "sample_lobby",
    "sample_session",
    "session_of",
]

STAGES = ("attack", "defence", "transfer", "pickup", "end")
NAMES = ("Alice", "Борис", "Carol 🎲", "Дмитрий Константинопольский-Длинный", "Eve", "Фёдор")
#: Names a reader of each language expects at a table: the help picture shows a game as a
#: player of that language would see one, not the stress test of :data:`NAMES`.
PLAIN_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank"),
    "ru": ("Алиса", "Борис", "Вера", "Глеб", "Даша", "Егор"),
}

_WEIGHTS = {
    ActionKind.PASS: 0.6,
    ActionKind.TAKE: 0.25,
    ActionKind.PILE: 0.5,
    ActionKind.TRANSFER: 3.0,
}


def _seats(players: int, computers: int) -> list[SeatInfo]:
    """Humans first, the last ``computers`` seats played by the computer."""
    seats = []
    for i in range(players):
        if i >= players - computers:
            seats.append(SeatInfo(i, f"#{i + 1}", None, "normal"))
        else:
            seats.append(SeatInfo(i, NAMES[i], 1000 + i, None))
    return seats


def plain_names(session: GameSession, locale: str) -> GameSession:
    """``session`` with its human seats renamed to :data:`PLAIN_NAMES` of ``locale``."""
    names = PLAIN_NAMES.get(locale, PLAIN_NAMES["en"])
    for seat in session.seats:
        if seat.user_id is not None:
            seat.name = names[seat.seat % len(names)]
    return session


def _moment(stage: str, need: int) -> Callable[[Game, ActionKind | None], bool]:
    """When a game has reached ``stage`` with at least ``need`` cards attacked (judged after
    each move; ``last`` = the kind of that move)."""

    def attack(g: Game, last: ActionKind | None) -> bool:
        return g.bout_no >= 3 and len(g.table) >= need and bool(g.unbeaten()) and not g.taking

    def defence(g: Game, last: ActionKind | None) -> bool:
        return g.bout_no >= 3 and len(g.table) >= need and not g.unbeaten() and not g.taking

    def transfer(g: Game, last: ActionKind | None) -> bool:
        return last is ActionKind.TRANSFER and len(g.table) >= min(need, 2)

    def pickup(g: Game, last: ActionKind | None) -> bool:
        return g.taking and len(g.table) >= need

    def end(g: Game, last: ActionKind | None) -> bool:
        return g.result is not None

    return {
        "attack": attack,
        "defence": defence,
        "transfer": transfer,
        "pickup": pickup,
        "end": end,
    }[stage]


def sample_session(
    preset: str = "podkidnoy",
    players: int = 4,
    stage: str = "attack",
    *,
    seed: int = 1,
    computers: int = 1,
    locale: str = "en",
    tries: int = 40,
) -> GameSession | None:
    """A session of ``preset`` at ``stage``; None if that moment never comes in the rules
    (a transfer in podkidnoy) or in ``tries`` seeded games."""
    rules = RuleSet.preset(preset, players=players) if preset in PRESETS else None
    if rules is None:
        raise ValueError(f"unknown preset {preset!r}")
    # A busy table first (three pairs); rules without throw-ins rarely get there, so then
    # settle for any table at that moment.
    for need in (3, 1):
        session = _play_to(
            rules, preset, players, _moment(stage, need), seed, computers, locale, tries
        )
        if session is not None:
            return session
    return None


def session_of(
    game: Game,
    preset: str,
    *,
    computers: int = 1,
    locale: str = "en",
    seed: int = 1,
    events: list[PublicEvent] | None = None,
) -> GameSession:
    """A session around ``game`` as the bot would hold it (sample names, the last
    ``computers`` seats played by the computer, ``events`` as its public "last moves")."""
    seats = _seats(game.n, min(computers, game.n - 1))
    session = GameSession(
        game_id=42,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=1000,
        preset=preset,
        seats=seats,
        game=game,
        seed=seed,
        version=game.version,
        locale=locale,
    )
    if game.result is not None:
        session.status = "finished"
    session.events.extend(events or ())
    return session


def sample_game(
    preset: str, players: int, *, seed: int = 1, locale: str = "en", limit: int = 3000
) -> Iterator[GameSession]:
    """A whole seeded game, as the bot's session after every move (the dealt position first,
    the finished game last; at most ``limit``): for the painter's test and benchmark, which
    draw the table after every move. The session's version counts the moves; its game id is
    ``seed``, so that games of different seeds are different games to the painter."""
    game = Game.new(RuleSet.preset(preset, players=players), seed=f"game:{seed}")
    rng = random.Random(f"game:{seed}:policy")
    events: list[PublicEvent] = []
    for version in range(limit):
        session = session_of(game, preset, locale=locale, seed=seed, events=events)
        session.game_id, session.version = seed, version
        yield session
        if game.result is not None:
            return
        actions = game.all_legal_actions()
        action = rng.choices(actions, [_WEIGHTS.get(a.kind, 1.0) for a in actions])[0]
        events += public_events(game.apply(action))


def _play_to(
    rules: RuleSet,
    preset: str,
    players: int,
    reached: Callable[[Game, ActionKind | None], bool],
    seed: int,
    computers: int,
    locale: str,
    tries: int,
) -> GameSession | None:
    for attempt in range(tries):
        game = Game.new(rules, seed=f"{seed}:{attempt}")
        rng = random.Random(f"{seed}:{attempt}:policy")
        last: ActionKind | None = None
        events: list[PublicEvent] = []
        for _ in range(2000):
            if reached(game, last):
                return session_of(
                    game, preset, computers=computers, locale=locale, seed=seed, events=events
                )
            if game.result is not None:
                break
            actions = game.all_legal_actions()
            action = rng.choices(actions, [_WEIGHTS.get(a.kind, 1.0) for a in actions])[0]
            events += public_events(game.apply(action))
            last = action.kind
    return None


def sample_lobby(players: int = 2, max_seats: int = 4, locale: str = "en") -> LobbyInfo:
    """A lobby with ``players`` seated (the last one a computer) and room for more."""
    return LobbyInfo(
        game_id=42,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=1000,
        preset="podkidnoy",
        max_seats=max_seats,
        deck_size=36,
        seats=_seats(players, 1 if players > 1 else 0),
        status="lobby",
        locale=locale,
    )


#: The width Discord shows a picture at in a channel (the README shows the table at it too).
DISCORD_WIDTH = 450


def main(argv: list[str] | None = None) -> int:
    """Write the README screenshot: a four-player podkidnoy table during an attack, with
    42 s left on the turn timer; and next to it the same picture at Discord's display width
    (``table-450.png``), which is the size the layout is judged at."""
    import io

    from PIL import Image

    from .scene import table_scene
    from .table import render_png

    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0] if args else "docs/table.png")
    session = sample_session("podkidnoy", 4, "attack", seed=3)
    assert session is not None
    png = render_png(table_scene(session))
    target.write_bytes(png)
    print(f"wrote {target} ({target.stat().st_size // 1024} KB)")
    full = Image.open(io.BytesIO(png)).convert("RGB")
    small = full.resize(
        (DISCORD_WIDTH, round(full.height * DISCORD_WIDTH / full.width)), Image.Resampling.LANCZOS
    )
    shown = target.with_name(f"{target.stem}-{DISCORD_WIDTH}{target.suffix}")
    small.quantize(256, method=Image.Quantize.FASTOCTREE).save(shown, "PNG", optimize=True)
    print(f"wrote {shown} ({shown.stat().st_size // 1024} KB, as Discord shows it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
