"""Every hostile name and typed text of the corpus (tests/bot/hostile.py), through
:func:`bot.usertext.inert` and through each renderer that shows one: the table, both hands,
the last move, the result, the final hands, the dare, the game list, the stats, the profile
(title and rivals), the rating board, the season labels and the pictures' texts.

The renderers are checked by what they produce: a game with a hostile name renders exactly
like the same game with a plain name, once the name as shown is put back — so the bot's own
words are all there, in their order — and :func:`tests.bot.hostile.assert_inert` finds
nothing of the name live in it.
"""

from __future__ import annotations

import ast
import pathlib
import time

import discord
import pytest

from bot.game.models import GameSession, PublicEvent, SeatInfo, public_events
from bot.game.tables import OpenTables, RunningTable
from bot.pictures.fonts import recording, safe_text
from bot.pictures.scene import table_scene
from bot.pictures.standings import initials, render_profile_png
from bot.pictures.table import render_png
from bot.rendering.common import seat_name
from bot.rendering.result import final_hands, result_text
from bot.rendering.server import forfeits_embed, stats_embed
from bot.rendering.standings import (
    board_embed,
    board_scene,
    profile_embed,
    profile_scene,
    season_label,
)
from bot.rendering.table import event_line, hand_embed, table_embed
from bot.storage import Forfeit, UserStats
from bot.storage.rating_rows import BoardEntry, Profile, Season
from bot.surfaces.tables_views import _lines as table_lines
from bot.usertext import FSI, MAX_MARKS, NAME_CHARS, PDI, bidi_balanced, clean, inert
from engine import Game, RuleSet
from tests.bot.hostile import (
    BLANK,
    CORPUS,
    RTL,
    assert_inert,
    assert_isolated_after,
    marks_run,
)

PLAIN = "Plainname"
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


# --------------------------------------------------------------------------- the function


@pytest.mark.parametrize("key", sorted(CORPUS))
def test_each_form_is_inert(key: str) -> None:
    text = CORPUS[key]
    shown = inert(text)
    assert_inert(shown, key)
    assert shown.strip() and len(clean(text)) <= NAME_CHARS
    plain = inert(text, "plain")
    assert bidi_balanced(plain) and "\u202e" not in plain and "\u200b" not in plain
    assert len(plain) <= 40  # a label's share, the isolate's two marks included
    picture = inert(text, "picture")
    assert picture.strip()
    assert not any(0x2066 <= ord(ch) <= 0x2069 or 0x202A <= ord(ch) <= 0x202E for ch in picture)
    assert marks_run(picture) <= MAX_MARKS and marks_run(shown) <= MAX_MARKS
    if key in BLANK:
        assert shown == "?" and inert(text, fallback="Player 2") == "Player 2"
    if key in RTL:
        assert shown == FSI + clean(text) + PDI  # its own letters, isolated
        assert picture == clean(text)[::-1] or " " in text  # drawn right to left


def test_the_named_cases() -> None:
    assert inert("Bob\u200b\u202etxt.exe") == "Bobtxt.exe"
    assert inert("**S2** [win](https://evil.example) @everyone") == (
        "\\*\\*S2\\*\\* \\[win\\](https\\://evil.example) @\u200beveryone"
    )
    assert inert("<@&123>") == "\\<@&123>"
    assert inert("שלום") == "\u2068שלום\u2069"
    assert inert("محمد علي", "picture") == "يلع دمحم"  # each word and their order, mirrored
    assert inert("Anna 2 שלום", "picture") == "Anna 2 םולש"
    assert inert("x" * 200) == "x" * 99 + "…"
    assert inert("a\u200db") == "a\u200db" and inert("\u200da") == "a"  # joiners between letters
    assert inert("Ivan Petrov") == "Ivan Petrov" and inert("Иван") == "Иван"  # untouched
    assert inert("e\u0301\u0301\u0301\u0301\u0301") == "e" + "\u0301" * MAX_MARKS
    long_rtl = inert("ש" * 150, "plain", limit=100)  # a select option's 100, isolate included
    assert len(long_rtl) == 100 and long_rtl.startswith(FSI) and long_rtl.endswith("…" + PDI)


def test_bidi_balance_check_itself() -> None:
    assert bidi_balanced("a \u2068b\u2069 c") and bidi_balanced("plain")
    assert not bidi_balanced("a \u202eb c") and not bidi_balanced("a \u2068b c")
    assert not bidi_balanced("a \u2069 b") and not bidi_balanced("\u2068a\nb\u2069")
    assert bidi_balanced("\u2068a\u202eb\u2069")  # a PDI closes what was opened inside


# --------------------------------------------------------------------------- the renderers


def _finished(name: str) -> tuple[GameSession, GameSession]:
    """A running two-seat game after the first lead, and the same game over: ``name`` at
    seat 0 leads its last card, seat 1 cannot beat and takes, so seat 1 is the fool."""
    rules = RuleSet.preset("podkidnoy", players=2)

    def session(game: Game) -> GameSession:
        seats = [SeatInfo(0, name, 100, None), SeatInfo(1, "Ann", 101, None)]
        return GameSession(1, 10, 20, 30, 100, "podkidnoy", seats, game, seed=7, version=5)

    running = session(Game.new(rules, seed=11))
    lead = running.game.legal_actions(running.game.attacker)[0]
    running.events.extend(public_events(running.game.apply(lead)))
    game = Game.from_position(
        rules, hands=[["6s"], ["7d", "8d"]], trump_card="6h", talon=[], attacker=0, defender=1
    )
    over = session(game)
    while game.phase != "over":  # seat 0 leads, seat 1 takes: seat 0 is out, 1 the fool
        seat = next(s for s in range(2) if game.legal_actions(s))
        over.events.extend(public_events(game.apply(game.legal_actions(seat)[0])))
    over.status = "finished"
    over.forfeit_seats, over.forfeit_text = (1,), name
    return running, over


def _renders(name: str) -> list[tuple[str, str]]:
    """Every text that shows seat 0's name, by where it is."""
    running, over = _finished(name)
    out = [
        ("table", _text(table_embed(running))),
        ("hand of the other seat", _text(hand_embed(running, running.game.observation(1), "en"))),
        ("own hand", _text(hand_embed(running, running.game.observation(0), "ru"))),
        ("finished table", _text(table_embed(over))),
        ("result", result_text(over, "en")),
        ("final hands", "\n".join(final_hands(over, "ru"))),
        (
            "games",
            "\n".join(
                line
                for line, _ in table_lines(
                    OpenTables([], [RunningTable(1, "podkidnoy", 30, [running.seats[0]])]), "en"
                )
            ),
        ),
        (
            "stats",
            _text(
                stats_embed(UserStats(10, 100, 3, 1, 1, 0, 0, "podkidnoy", 2, 1, None), name, "en")
            ),
        ),
        ("dares", _text(forfeits_embed([Forfeit(1, name, False)], "en"))),
    ]
    ev = PublicEvent("attack", 0, running.events[0].cards, -1, 0)
    out.append(("event", event_line(ev, running, "en") or ""))
    return out


@pytest.mark.parametrize("key", sorted(CORPUS))
def test_every_renderer_shows_the_name_inert_and_keeps_its_own_words(key: str) -> None:
    name = CORPUS[key]
    hostile, plain = _renders(name), _renders(PLAIN)
    shown = {loc: seat_name(SeatInfo(0, name, 100, None), loc) for loc in ("en", "ru")}
    dare = inert(name, limit=400)
    for (where, text), (_, expected) in zip(hostile, plain, strict=True):
        assert_inert(text, f"{key}: {where}")
        restored = text
        if where in ("dares", "result", "finished table"):  # the dare: a longer text
            restored = restored.replace(dare, PLAIN)
        for one in (inert(name), *shown.values()):
            restored = restored.replace(one, PLAIN)
        assert restored == expected, f"{key}: {where}"
    assert len(shown["en"]) <= NAME_CHARS + 2
    # the words after the name are the bot's, in their order, with nothing left open
    assert_isolated_after(hostile[0][1], shown["en"], " — 6 cards (attacking)")
    assert_isolated_after(hostile[1][1], shown["en"], " — 6 cards.")
    assert_isolated_after(hostile[-1][1], shown["en"], " attacks with ")
    if key in BLANK:
        assert shown == {"en": "Player 1", "ru": "Игрок 1"}


def test_the_override_name_no_longer_reorders_the_table() -> None:
    running, _ = _finished(CORPUS["rlo"])
    seat_line = next(
        line for line in _text(table_embed(running)).splitlines() if "Bobtxt.exe" in line
    )
    assert seat_line == "⚔️ Bobtxt.exe — 6 cards (attacking)"
    assert "\u202e" not in seat_line


# --------------------------------------------------------------------------- ratings


def _season(name: str) -> Season:
    return Season(1, 10, 2, name, time.mktime((2026, 12, 1, 0, 0, 0, 0, 0, 0)), None)


def _profile(name: str) -> Profile:
    return Profile(
        10,
        4242,
        name,
        _season(name),
        display=1100,
        rated_games=12,
        rank=1,
        games=12,
        beats=[(77, name, 3)],
        loses_to=[(78, name, 2)],
    )


@pytest.mark.parametrize("key", sorted(CORPUS))
def test_profile_board_and_seasons_show_the_name_inert(key: str) -> None:
    name = CORPUS[key]
    embed = profile_embed(_profile(name), 5, "en")
    text = _text(embed)
    assert_inert(text, f"{key}: profile")
    for f in embed.fields:  # "Finishes ahead of" / "Loses to": the rival's name, inert
        if f.name in ("Finishes ahead of", "Loses to"):
            assert_isolated_after(
                f.value or "",
                inert(name, fallback="Player …0077" if f.name.startswith("F") else "Player …0078"),
                " ×",
            )
    assert inert(name, fallback="Player …4242") in (embed.title or "")
    for form in ("markdown", "plain"):
        label = season_label(_season(name), "en", form)  # type: ignore[arg-type]
        assert bidi_balanced(label) and label.endswith(" · since 2026-12-01")
        if form == "markdown":
            assert_inert(label, f"{key}: season")
    board = board_embed(_season(name), [BoardEntry(1, 4242, name, 1100, 12)], 0, 1, "en")
    footer = board.footer.text or ""
    assert bidi_balanced(footer) and "\u202e" not in footer and "Page 1/1" in footer
    scene = board_scene(_season(name), [BoardEntry(1, 4242, name, 1100, 12)], "en")
    card = profile_scene(_profile(name), 5, "en")
    for text in (
        scene.rows[0].name,
        scene.subtitle,
        card.name,
        card.subtitle,
        *dict(card.rivals).values(),
    ):
        drawn = safe_text(text, True)
        assert drawn.strip() and "\ufffd" not in drawn
        assert not any(0x2066 <= ord(ch) <= 0x2069 or 0x202A <= ord(ch) <= 0x202E for ch in drawn)
        assert marks_run(drawn) <= MAX_MARKS
    if key == "emoji" or key in BLANK:  # nothing the font draws: a label, not boxes
        assert card.name == "Player …4242" and scene.rows[0].name == "Player …4242"
        assert initials(name) == "?"


# --------------------------------------------------------------------------- pictures


@pytest.mark.parametrize("key", ["rlo", "emoji", "hebrew", "arabic", "zalgo", "zero_width", "long"])
def test_table_picture_draws_each_name_as_text(key: str) -> None:
    running, _ = _finished(CORPUS[key])
    with recording() as drawn:
        render_png(table_scene(running))
    texts = [d.text for d in drawn if d.kind == "text"]
    assert texts
    for text in texts:
        assert not any(unicodedata_format(ch) for ch in text), (key, text)
        assert marks_run(text) <= MAX_MARKS
    if key in ("emoji", "zero_width"):
        assert any("Player 1" in t for t in texts)
    if key == "hebrew":
        assert any("םולש" in t for t in texts)  # in the order it is read, right to left


def unicodedata_format(ch: str) -> bool:
    import unicodedata

    return unicodedata.category(ch) in ("Cf", "Cc") or 0x202A <= ord(ch) <= 0x202E


def test_profile_card_of_an_emoji_name_is_readable(tmp_path: pathlib.Path) -> None:
    with recording() as drawn:
        png = render_profile_png(profile_scene(_profile(CORPUS["emoji"]), 5, "en"))
    (tmp_path / "profile.png").write_bytes(png)
    texts = [d.text for d in drawn if d.kind == "text"]
    assert "Player …4242" in texts and "P" in texts  # the label, and its letter on the avatar
    assert "#1 of 5 · Season 2" in texts  # the season name, all emoji, left out


# --------------------------------------------------------------------------- mentions


def test_every_send_that_may_ping_names_its_users_and_never_everyone_or_roles() -> None:
    """The bot's default allows no mention (bot/app.py); a send that overrides it names the
    users it means and says ``roles=False, everyone=False``, or allows none."""
    overrides = 0
    for path in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.keyword) or node.arg != "allowed_mentions":
                continue
            overrides += 1
            source = ast.unparse(node.value)
            if source == "discord.AllowedMentions.none()":
                continue
            assert source.startswith("discord.AllowedMentions(users="), (path, source)
            assert "roles=False" in source and "everyone=False" in source, (path, source)
            assert "users=True" not in source, (path, source)
    assert overrides >= 5
    app = (ROOT / "bot" / "app.py").read_text(encoding="utf-8")
    assert "allowed_mentions=discord.AllowedMentions.none()" in app
