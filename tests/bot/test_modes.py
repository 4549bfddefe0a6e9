"""The /durak new mode list, twists on a base mode, variant rule texts, and the hand's buttons
and narration for the catalogue variants' own moves."""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

from bot.discord_limits import AUTOCOMPLETE_CHOICES
from bot.game import modes
from bot.game.models import GameSession, PublicEvent, SeatInfo
from bot.i18n import SUPPORTED_LOCALES, has_key, t
from bot.rendering.server import rules_embed
from bot.rendering.table import event_line
from bot.surfaces.hand_labels import _move_label
from engine import PRESETS, Action, ActionKind, Card, Game, RuleSet
from engine.variants import VARIANTS
from tests.bot.helpers import add_computer, message, message_text, rules_details, service


def _session(game: Game, preset: str = "podkidnoy") -> GameSession:
    seats = [SeatInfo(i, f"p{i}", 100 + i, None) for i in range(game.n)]
    return GameSession(1, 10, 20, 30, 100, preset, seats, game, seed=7, version=5)


# ------------------------------------------------------------------ the mode list


def test_empty_box_offers_base_games_first_and_at_most_25() -> None:
    ranked = modes.ranked_presets("")
    assert len(PRESETS) > AUTOCOMPLETE_CHOICES  # why ranking matters at all
    assert len(ranked) == AUTOCOMPLETE_CHOICES
    assert ranked[: len(modes.BASE_PRESETS)] == list(modes.BASE_PRESETS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_is_reachable_by_typing(preset: str) -> None:
    assert preset in modes.ranked_presets(preset)
    for loc in SUPPORTED_LOCALES:
        name = t(f"preset.{preset}.name", loc)
        assert preset in modes.ranked_presets(name[:6]), (loc, name)


def test_start_of_a_name_beats_a_match_inside_a_description() -> None:
    # "Japanese" starts one name; no base game's name starts with it
    assert modes.ranked_presets("jap")[0] == "japanese"
    # Russian typed into an English client still finds the game
    assert modes.ranked_presets("японск")[0] == "japanese"
    assert modes.ranked_presets("nothing like this") == []


def test_twists_are_every_variant_and_labels_fit() -> None:
    assert set(modes.ranked_twists("")) == set(VARIANTS) - {"none"}
    for name in (*PRESETS, *modes.TWISTS):
        for loc in SUPPORTED_LOCALES:
            assert 1 <= len(modes.choice_label(name, loc)) <= 100


@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - {"none"}))
def test_every_variant_has_its_rule_and_reading_in_both_languages(variant: str) -> None:
    for loc in SUPPORTED_LOCALES:
        for part in ("rule", "reading"):
            assert has_key(f"variant.{variant}.{part}", loc), (loc, variant, part)
    assert t(f"variant.{variant}.rule", "en") == VARIANTS[variant].rule_text
    assert t(f"variant.{variant}.rule", "ru") != VARIANTS[variant].rule_text
    embed = rules_embed(RuleSet.preset(variant), "x", "ru")
    assert t(f"variant.{variant}.rule", "ru") in (embed.description or "")


def test_mode_name_names_the_twist_only_when_it_adds_one() -> None:
    assert (
        modes.mode_name("perevodnoy", "trumpless", "en") == "Perevodnoy (transfer) + Trumpless fool"
    )
    assert modes.mode_name("trumpless", "trumpless", "en") == t("preset.trumpless.name", "en")
    assert modes.mode_name("podkidnoy", "none", "en") == t("preset.podkidnoy.name", "en")


# ------------------------------------------------------------------ buttons and narration


def test_every_kind_of_move_gets_a_label() -> None:
    g = Game.new(RuleSet.preset("armenian"), 3)
    obs = g.observation(g.attacker)
    cards = (Card.parse("6s"), Card.parse("7s"))
    for kind in ActionKind:
        label = _move_label(Action(0, kind, cards), obs, "en")
        assert label and "{" not in label
    assert _move_label(Action(0, ActionKind.TOP, ()), obs, "ru") == t("hand.button.lead_top", "ru")
    swap = _move_label(Action(0, ActionKind.SWAP, cards), obs, "en")
    assert swap.startswith(t("hand.button.swap", "en")) and "6♠" in swap


def test_variant_events_are_narrated_and_a_swap_names_no_card() -> None:
    s = _session(Game.new(RuleSet.preset("poker"), 5))
    six, ace = Card.parse("6s"), Card.parse("As")
    top = event_line(PublicEvent("top", 0, (six,), 1, 1), s, "en")
    assert top is not None and "6♠" in top and "p0" in top
    swap = event_line(PublicEvent("swap", 1, (), -1, 2), s, "en")
    assert swap == t("event.swap", "en", name="p1")
    opened = event_line(PublicEvent("open", 1, (ace,), -1, 1), s, "ru")
    assert opened is not None and "Т♠" in opened and "A♠" not in opened  # Russian ranks
    back = event_line(PublicEvent("reshuffle", 1, (six, ace), -1, 2), s, "en")
    assert back is not None and "6♠" in back and "A♠" in back


def test_big_fool_narrates_the_52_card_loss() -> None:
    s = _session(Game.new(RuleSet.preset("big"), 5))
    line = event_line(PublicEvent("hand_limit", 1, (), -1, 53), s, "en")
    assert line == "p1 holds 53 cards: 52 or more lose at once"
    ru = event_line(PublicEvent("hand_limit", 1, (), -1, 53), s, "ru")
    assert ru is not None and "53" in ru and "p1" in ru


# ------------------------------------------------------------------ twists in Discord


async def _new(world: dict[str, Any], **options: Any) -> Any:
    return await world["alice"].slash(world["channel"], "durak new", **options)


async def test_a_twist_combines_with_the_base_mode(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    created = await _new(world, mode="perevodnoy", twist="trumpless", seats=2)
    assert created.response is not None and not created.ephemeral
    lobby_id = created.response.id
    assert "Perevodnoy (transfer) + Trumpless fool" in message_text(message(channel, lobby_id))
    await add_computer(world["alice"], channel, lobby_id)
    await world["alice"].click(message(channel, lobby_id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None
    rules = session.game.rules
    assert rules.variant == "trumpless" and rules.transfer == "before_beat"
    assert rules == RuleSet.preset("perevodnoy", players=2).with_variant("trumpless").replace(
        auto_done=rules.auto_done
    )
    table = message_text(message(channel, session.message_id or 0))
    assert "+ Trumpless fool" in table and t("table.no_trump", "en") in table


async def test_impossible_twists_are_refused_with_the_reason(
    simcord_env: simcord.Env, world: Any
) -> None:
    too_many = await _new(world, mode="podkidnoy", twist="double-trump", seats=5)
    assert too_many.ephemeral and too_many.response is not None
    text = too_many.response.content
    assert "can't be played" in text and "at most four players" in text
    on_variant = await _new(world, mode="royal", twist="trumpless")
    assert on_variant.ephemeral and on_variant.response is not None
    assert "base game" in on_variant.response.content
    unknown = await _new(world, mode="podkidnoy", twist="czech")
    assert unknown.ephemeral and unknown.response is not None
    assert "Unknown twist" in unknown.response.content
    assert service(simcord_env).session(1) is None


async def test_rules_command_shows_a_variants_text(simcord_env: simcord.Env, world: Any) -> None:
    shown = await rules_details(world["alice"], world["channel"], mode="magadan")
    text = message_text(shown.message)
    assert VARIANTS["magadan"].rule_text[:60] in text


def test_docs_list_every_preset() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    presets = (docs / "presets.md").read_text(encoding="utf-8")
    table = presets.split("| preset | game |", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"`([a-z0-9-]+)`", table))
    assert set(PRESETS) <= listed, sorted(set(PRESETS) - listed)
    assert "[twist]" in (docs / "playing.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ what a variant makes public


def test_table_and_hand_show_what_a_variant_makes_public() -> None:
    from bot.rendering.table import hand_embed, table_embed
    from engine.cards import SUIT_SYMBOLS

    g = Game.new(RuleSet.preset("double-trump", players=3), 11)
    s = _session(g, "double-trump")
    trumps = g.public_observation().trumps
    assert len(set(trumps)) == 3
    table = table_embed(s).description or ""
    assert all(f"p{i} {SUIT_SYMBOLS[suit]}" in table for i, suit in enumerate(trumps))
    for seat in range(3):
        hand = hand_embed(s, g.observation(seat), "en")
        line = next(x for x in message_like(hand).splitlines() if x.startswith("Trump"))
        assert SUIT_SYMBOLS[trumps[seat]] in line, (seat, line)  # the seat's own trump

    magadan = Game.new(RuleSet.preset("magadan", players=2), 3)
    text = table_embed(_session(magadan, "magadan")).description or ""
    assert t("table.closed_cards", "en", counts="p0 5, p1 5") in text

    chukchi = Game.new(RuleSet.preset("chukchi", players=2), 3)
    out = chukchi.public_observation().out_of_play
    text = table_embed(_session(chukchi, "chukchi")).description or ""
    assert out > 0 and t("table.out_of_play", "en", count=out) in text

    invisible = Game.new(RuleSet.preset("invisible", players=2), 3)
    text = table_embed(_session(invisible, "invisible")).description or ""
    assert CARDS_PRETTY(invisible.trump_card) not in text and "Trump suit" in text


def message_like(embed: Any) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f.name + "\n" + f.value for f in embed.fields]
    return "\n".join(parts)


def CARDS_PRETTY(card: int) -> str:
    from engine.cards import CARDS

    return CARDS[card].pretty()


@pytest.mark.parametrize("preset", ["magadan", "three"])
async def test_any_preset_can_be_the_servers_default_mode(
    simcord_env: simcord.Env, world: Any, preset: str
) -> None:
    channel, mod = world["channel"], world["mod"]
    saved = await mod.slash(channel, "durak settings", mode=preset)
    assert saved.ephemeral and saved.response is not None
    assert "Unknown" not in saved.response.content and "can't" not in saved.response.content
    created = await mod.slash(channel, "durak new")
    assert created.response is not None and not created.ephemeral
    assert t(f"preset.{preset}.name", "en") in message_text(message(channel, created.response.id))
    assert service(simcord_env).session(1) is None
    lobby = await service(simcord_env).lobby(1)
    assert lobby.preset == preset
