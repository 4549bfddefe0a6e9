"""Hand layout and public rendering without Discord: tap-a-card, defending, limits, no leaks."""

from __future__ import annotations

from typing import Any

import discord

from bot.game.models import GameSession, PublicEvent, SeatInfo, public_events
from bot.rendering.table import table_embed
from bot.surfaces.hand_controls import Several, face_key, reachable, step_clicks, tap
from bot.surfaces.hand_views import hand_message
from engine import Action, ActionKind, Card, Event, Game, RuleSet

RANKS = "6789TJQKA"


def _session(game: Game) -> GameSession:
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(game.n)]
    return GameSession(1, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=5)


def _items(view: discord.ui.View) -> list[Any]:
    """The buttons/selects themselves (our components are DynamicItems wrapping them)."""
    return [i.item if isinstance(i, discord.ui.DynamicItem) else i for i in view.children]


def _labels(view: discord.ui.View) -> list[str]:
    return [getattr(i, "label", None) or "" for i in _items(view)]


def _rows(view: discord.ui.View) -> dict[int, list[discord.ui.Item[Any]]]:
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in _items(view):
        assert item.row is not None
        rows.setdefault(item.row, []).append(item)
    return rows


def _check_limits(view: discord.ui.View) -> None:
    rows = _rows(view)
    assert len(rows) <= 5 and all(0 <= r <= 4 for r in rows)
    for items in rows.values():
        selects = [i for i in items if isinstance(i, discord.ui.Select)]
        assert (len(selects) == 1 and len(items) == 1) or (not selects and len(items) <= 5)
        for item in selects:
            assert len(item.options) <= 25
    for item in _items(view):
        custom_id = getattr(item, "custom_id", "")
        assert custom_id and len(custom_id) <= 100
        label = getattr(item, "label", None)
        assert label is None or len(label) <= 80


def _acts(view: discord.ui.View) -> list[str]:
    return [
        getattr(i, "custom_id", "")
        for i in view.children
        if getattr(i, "custom_id", "").startswith("durak:act:")
    ]


def _taps(view: discord.ui.View) -> list[str]:
    """The cards tapped by the hand's card buttons (``durak:card:...:<card>``)."""
    return [
        getattr(i, "custom_id", "").rsplit(":", 1)[1]
        for i in view.children
        if getattr(i, "custom_id", "").startswith("durak:card:")
    ]


async def test_big_hand_needs_no_paging_and_every_move_is_reachable() -> None:
    # Seat 0 leads holding 18 cards: with pairs and triples there are far more than 20 leads,
    # which paged as a button each; now every card is one button that leads it alone, and
    # the 24 leads of several cards are the options of one "Play several cards…" menu.
    hand = [f"{r}{s}" for r in "6789TJ" for s in "cdh"]
    rest = [f"{r}{s}" for r in "QKA" for s in "cdh"]
    game = Game.from_position(
        RuleSet.preset("podkidnoy", players=2, max_attack=6),
        hands=[hand, rest + [f"{r}s" for r in RANKS]],
        trump_card=None,
        trump="s",
        attacker=0,
    )
    session = _session(game)
    legal = {a for a in game.legal_actions(0) if a.kind is ActionKind.ATTACK}
    assert len(legal) > 20
    _, _, view = hand_message(session, 0, "en")
    _check_limits(view)
    selects = [i for i in _items(view) if isinstance(i, discord.ui.Select)]
    assert [s.custom_id.split(":")[1] for s in selects] == ["several"]  # no card menus
    assert len(selects[0].options) == len([a for a in legal if len(a.cards) > 1])
    assert sorted(_taps(view)) == sorted(hand)
    paths = reachable(game.observation(0))
    for action in legal:
        path = paths[face_key(action)]
        clicks = sum(step_clicks(step) for step in path)
        assert clicks <= (1 if len(action.cards) == 1 else len(action.cards) + 1), (action, path)
        for sel_len in range(1, len(path)):
            shown: tuple[Card, ...] = ()
            for step in path[:sel_len]:
                if isinstance(step, Several):
                    shown = step.selection
                elif isinstance(step, Card):
                    shown = (*shown, step)
            _, _, view = hand_message(session, 0, "en", selection=shown)
            _check_limits(view)


async def test_a_card_that_beats_two_attack_cards_asks_which() -> None:
    game = Game.from_position(
        RuleSet.preset("podkidnoy"),
        hands=[["6c", "7c"], ["8h", "9h", "Ts", "6s", "Jc", "Qc"]],
        trump_card="7s",
        talon=["7s", "8s", "9s", "As"],
        table=[["6h", None], ["7h", None]],
        attacker=0,
        defender=1,
    )
    session = _session(game)
    obs = game.observation(1)
    _, _, view = hand_message(session, 1, "en")
    _check_limits(view)
    assert not [i for i in _items(view) if isinstance(i, discord.ui.Select)]
    assert any(c.endswith(":take:") for c in _acts(view))
    nine = Card.parse("9h")
    step = tap(obs, (), nine)
    assert step is not None and step.action is None and step.selection == (nine,)
    _, _, view = hand_message(session, 1, "en", selection=step.selection)
    labels = _labels(view)
    assert "Beat 6♥ with 9♥" in labels and "Beat 7♥ with 9♥" in labels
    beaters = {a.cards[1] for a in game.legal_actions(1) if a.kind is ActionKind.DEFEND}
    assert {Card.parse(c) for c in _taps(hand_message(session, 1, "en")[2])} == beaters


async def test_single_unbeaten_card_is_paired_directly() -> None:
    game = Game.from_position(
        RuleSet.preset("podkidnoy"),
        hands=[["6c", "7c"], ["8h", "9h", "Ts", "6s", "Jc", "Qc"]],
        trump_card="7s",
        talon=["7s", "8s", "9s", "As"],
        table=[["6h", None]],
        attacker=0,
        defender=1,
    )
    _, _, view = hand_message(_session(game), 1, "en")
    assert not [i for i in _items(view) if isinstance(i, discord.ui.Select)]
    labels = _labels(view)
    assert "8♥" in labels and "Take" in labels
    step = tap(game.observation(1), (), Card.parse("8h"))
    assert step is not None and step.action == Action(
        1, ActionKind.DEFEND, (Card.parse("6h"), Card.parse("8h"))
    )


async def test_waiting_player_sees_hand_without_moves() -> None:
    game = Game.new(RuleSet.preset("podkidnoy"), seed=3)
    waiting = game.defender
    _, embed, view = hand_message(_session(game), waiting, "en")
    assert _acts(view) == [] and _taps(view) == []
    text = embed.fields[0].value or ""
    assert "You are waiting for your turn." in text
    assert "Waiting for other players." not in text
    assert "Opponent: p" in text and "Talon: " in text


def test_public_events_strip_private_draws() -> None:
    six, seven, ace = Card.parse("6h"), Card.parse("7h"), Card.parse("As")
    events = [
        Event("beaten", 1, amount=2),
        Event("draw", 0, (six, seven), amount=2),
        Event("draw", 1, (ace,), amount=1, public_cards=(ace,)),
    ]
    assert public_events(events) == [
        PublicEvent("beaten", 1, (), -1, 2),
        PublicEvent("draw", -1, (ace,), -1, 3),
    ]


async def test_table_shows_only_public_information() -> None:
    game = Game.new(RuleSet.preset("podkidnoy", players=3), seed=11)
    session = _session(game)
    lead: Action = game.legal_actions(game.attacker)[0]
    session.events.extend(public_events(game.apply(lead)))
    embed = table_embed(session)
    text = "\n".join(
        [embed.title or "", embed.description or ""]
        + [f"{f.name}\n{f.value}" for f in embed.fields]
    )
    for seat in range(game.n):
        for card in game.hand(seat):
            assert card.pretty() not in text
    for card in lead.cards:
        assert card.pretty() in text
    assert "p0" in text and "6 cards" in text and "defending" in text


async def test_big_fool_twins_give_one_button_per_face() -> None:
    """Big fool: a card and its twin look and play alike, so a hand holding both shows one
    button for the two; tapping it leads it alone, and the twin pair is led from the
    "Play several cards…" menu. A selection (from a starter) still names physical cards, so
    the twin can join it for a two-card lead."""
    game = Game.from_position(
        RuleSet.preset("big"),
        hands=[["6c", "6c'", "7d", "7d'", "8h"], ["9s", "9s'", "Ts", "Ts'", "6h", "Kc"]],
        trump="h",
        attacker=0,
    )
    session = _session(game)
    obs = game.observation(0)
    _, _, view = hand_message(session, 0, "en")
    _check_limits(view)
    ids = [getattr(i, "custom_id", "") for i in view.children]
    assert len(ids) == len(set(ids))
    assert _taps(view) == ["6c", "7d", "8h"]
    six, twin = Card.parse("6c"), Card.parse("6c'")
    step = tap(obs, (), six)
    assert step is not None and step.action is not None
    assert step.action.kind is ActionKind.ATTACK and step.action.cards == (six,)
    menu = [i for i in _items(view) if isinstance(i, discord.ui.Select)]
    assert [o.value for o in menu[0].options] == ["attack:6c6c'", "attack:7d7d'"]
    assert [o.label for o in menu[0].options] == ["Attack: 6♣ 6♣", "Attack: 7♦ 7♦"]
    _, _, view = hand_message(session, 0, "en", selection=(six,))
    assert _acts(view)[0].endswith(":attack:6c")
    assert "6c'" in _taps(view)
    both = tap(obs, (six,), twin)
    assert both is not None and set(both.selection) == {six, twin}
    _, _, view = hand_message(session, 0, "en", selection=both.selection)
    assert any(c.endswith(":attack:6c6c'") for c in _acts(view))


def test_a_two_pack_lobby_says_two_packs() -> None:
    from bot.game.models import LobbyInfo
    from bot.rendering.common import deck_text

    fields = {f: None for f in LobbyInfo.__dataclass_fields__}
    info = LobbyInfo(**{**fields, "preset": "big", "overrides": {}, "deck_size": 36})
    assert deck_text(info, "en") == "Two packs of 36 cards"
    plain = LobbyInfo(**{**fields, "preset": "podkidnoy", "overrides": {}, "deck_size": 36})
    assert deck_text(plain, "en") == "36-card deck"
    twisted = LobbyInfo(
        **{**fields, "preset": "perevodnoy", "overrides": {"variant": "big"}, "deck_size": 52}
    )
    assert deck_text(twisted, "ru") == "Две колоды, в каждой карт: 52"
