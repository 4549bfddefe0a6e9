"""Translation layer: catalog parity, lookups, locales, plurals and the command translator."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from bot import i18n
from bot.i18n import (
    DurakTranslator,
    MissingTranslation,
    catalog,
    ls,
    normalize_locale,
    pick_locale,
    placeholders,
    plural_category,
    t,
    tn,
)

_KEY_RE = re.compile(r"^[a-z0-9_-]+(\.[a-z0-9_-]+)+$")


def _discord_name_ok(name: str) -> bool:
    """Discord's ^[-_\\p{L}\\p{N}]{1,32}$ plus the lowercase rule (Python re lacks \\p{L})."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)


def _plural_base(key: str) -> str | None:
    """'plural.cards' for 'plural.cards.few'; None for a key that is not a plural form."""
    return key.rsplit(".", 1)[0] if key.startswith("plural.") else None


def _concepts(locale: str) -> set[str]:
    """The catalogue's keys with each plural's forms folded into its base: plural forms
    follow each language's CLDR categories, everything else must match one to one."""
    return {_plural_base(key) or key for key in catalog(locale)}


def test_languages_have_identical_keys() -> None:
    en, ru = _concepts("en"), _concepts("ru")
    assert en - ru == set(), "keys missing in ru"
    assert ru - en == set(), "keys missing in en"


def _placeholder_sets(locale: str) -> dict[str, set[frozenset[str]]]:
    """Each key's placeholder sets in ``locale``, one per template that renders it (every
    plural form of a plural)."""
    out: dict[str, set[frozenset[str]]] = {}
    for k, v in catalog(locale).items():
        out.setdefault(_plural_base(k) or k, set()).add(placeholders(v))
    return out


def test_same_placeholders_in_every_language() -> None:
    """One test over every key (not one case per key: a thousand cases cost the suite more
    in pytest's bookkeeping than the check itself); a failure lists every key that differs."""
    en = _placeholder_sets("en")
    wrong = [f"en forms of {key} disagree on placeholders" for key, s in en.items() if len(s) > 1]
    for loc in i18n.SUPPORTED_LOCALES:
        sets = _placeholder_sets(loc)
        wrong += [f"{loc}:{key}" for key in sorted(en) if sets.get(key) != en[key]]
    assert not wrong, "\n".join(wrong)


def test_keys_are_well_formed_and_values_non_empty() -> None:
    for loc in i18n.SUPPORTED_LOCALES:
        for key, value in catalog(loc).items():
            assert _KEY_RE.match(key), key
            assert value.strip(), f"{loc}:{key} is empty"


def test_russian_uses_the_game_vocabulary() -> None:
    ru = " ".join(catalog("ru").values()).lower()
    for word in ("козырь", "бито", "беру", "переводной", "подкидной", "дурак"):
        assert word in ru, word
    assert catalog("ru")["hand.button.take"] == "Беру"
    assert catalog("ru")["hand.button.done"] == "Бито / Пас"


def test_plural_keys_have_exactly_the_cldr_forms() -> None:
    """Each plural has one form per CLDR category an integer takes in that language: no
    missing form (a KeyError mid-game), no dead one (a form nobody reads or fixes)."""
    assert i18n.plural_forms("ru") == {"one", "few", "many"}
    assert i18n.plural_forms("en") == {"one", "other"}
    for loc in i18n.SUPPORTED_LOCALES:
        bases = {b for k in catalog(loc) if (b := _plural_base(k))}
        assert bases, loc
        for base in bases:
            forms = {k.rsplit(".", 1)[1] for k in catalog(loc) if _plural_base(k) == base}
            assert forms == i18n.plural_forms(loc), f"{loc}:{base}"


def test_command_names_are_valid_for_discord() -> None:
    for loc in i18n.SUPPORTED_LOCALES:
        for key, value in catalog(loc).items():
            if key.startswith("cmd.") and key.endswith(".name") and ".choice." not in key:
                assert _discord_name_ok(value), f"{loc}:{key}={value!r}"
            if key.startswith("cmd.") and (key.endswith(".description") or ".choice." in key):
                assert 1 <= len(value) <= 100, f"{loc}:{key} too long for Discord"


def test_name_checker_rejects_bad_names() -> None:
    assert _discord_name_ok("дурак")
    assert not _discord_name_ok("Дурак")
    assert not _discord_name_ok("два слова")
    assert not _discord_name_ok("x" * 33)
    assert not _discord_name_ok("")


def test_t_formats_and_translates() -> None:
    assert t("announce.fool", "ru", user="<@1>") == "🃏 <@1> остаётся в дураках!"
    assert t("announce.fool", "en-US", user="<@1>") == "🃏 <@1> is the fool!"
    assert t("table.trump", discord.Locale.russian, card="6♠") == "Козырь: 6♠"
    assert t("common.yes") == "Yes"


def test_missing_key_and_placeholder_raise_in_tests() -> None:
    with pytest.raises(MissingTranslation):
        t("no.such.key", "en")
    with pytest.raises(MissingTranslation):
        t("announce.fool", "en")  # {user} not supplied


def test_missing_key_degrades_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DURAK_I18N_STRICT", "0")
    assert t("no.such.key", "ru") == "no.such.key"
    assert t("announce.fool", "ru") == "🃏 {user} остаётся в дураках!"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ru", "ru"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("EN_us", "en"),
        ("de", "en"),
        ("uk", "en"),
        ("", "en"),
        (None, "en"),
        (discord.Locale.russian, "ru"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.japanese, "en"),
    ],
)
def test_normalize_locale(raw: str | discord.Locale | None, expected: str) -> None:
    assert normalize_locale(raw) == expected


def test_pick_locale_prefers_supported_user_locale() -> None:
    assert pick_locale(discord.Locale.russian, "en") == "ru"
    assert pick_locale(discord.Locale.german, "ru") == "ru"
    assert pick_locale(None, None) == "en"


@pytest.mark.parametrize(
    ("count", "ru_text", "en_text"),
    [
        (1, "1 карта", "1 card"),
        (2, "2 карты", "2 cards"),
        (5, "5 карт", "5 cards"),
        (11, "11 карт", "11 cards"),
        (21, "21 карта", "21 cards"),
        (24, "24 карты", "24 cards"),
        (0, "0 карт", "0 cards"),
    ],
)
def test_plurals(count: int, ru_text: str, en_text: str) -> None:
    assert tn("plural.cards", count, "ru") == ru_text
    assert tn("plural.cards", count, "en") == en_text


def test_plural_category_teens() -> None:
    assert [plural_category(n, "ru") for n in (12, 13, 14, 22, 111, 101)] == [
        "many",
        "many",
        "many",
        "few",
        "many",
        "one",
    ]


def _ctx() -> app_commands.TranslationContextTypes:
    # The constructor's overloads need a literal location; Any keeps the test readable.
    factory: Any = app_commands.TranslationContext
    return cast(
        app_commands.TranslationContextTypes,
        factory(app_commands.TranslationContextLocation.other, None),
    )


async def test_translator_translates_keyed_strings() -> None:
    translator = DurakTranslator()
    name = ls("cmd.durak.name")
    assert name.message == "durak"
    assert await translator.translate(name, discord.Locale.russian, _ctx()) == "дурак"
    assert await translator.translate(name, discord.Locale.american_english, _ctx()) == "durak"
    assert await translator.translate(name, discord.Locale.french, _ctx()) is None
    plain = app_commands.locale_str("no key here")
    assert await translator.translate(plain, discord.Locale.russian, _ctx()) is None


async def test_translator_integrates_with_command_tree() -> None:
    """A command declared with ls() exports Russian localisations in its payload."""

    @app_commands.command(
        name=ls("cmd.durak.rules.name"), description=ls("cmd.durak.rules.description")
    )
    async def rules(interaction: discord.Interaction) -> None:  # pragma: no cover - not invoked
        del interaction

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    payload = await rules.get_translated_payload(tree, DurakTranslator())
    await client.close()
    assert payload["name"] == "rules"
    assert payload["name_localizations"]["ru"] == "правила"
    assert (
        payload["description_localizations"]["ru"] == catalog("ru")["cmd.durak.rules.description"]
    )


def test_every_engine_preset_is_translated() -> None:
    from engine import PRESETS

    for preset in PRESETS:
        for loc in i18n.SUPPORTED_LOCALES:
            for key in (f"preset.{preset}.name", f"preset.{preset}.description"):
                assert key in catalog(loc), f"{loc}:{key}"
            assert f"cmd.choice.preset.{preset}" in catalog(loc)


_NAMED = re.compile(r"\{(cmd|opt|choice):([^}]*)\}")


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_no_string_types_a_command_name(locale: str) -> None:
    """A typed ``/durak new`` is English for every reader and no link; a text names a
    command through ``{cmd:durak new}``, which becomes a mention or the reader's words."""
    typed = {k: v for k, v in catalog(locale).items() if "/durak" in v or "/дурак" in v}
    assert typed == {}


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_named_command_option_and_choice_exists(locale: str) -> None:
    try:
        i18n.set_command_ids({}, [])
        for key, template in catalog(locale).items():
            for kind, spec in _NAMED.findall(template):
                named = format(i18n._Names(kind, locale), spec)
                assert named and "{" not in named, (key, spec)
        assert i18n.command_name("durak replay", "ru") == "/дурак повтор"
        assert i18n.command_name("durak forfeits list", "en") == "/durak forfeits list"
        i18n.set_command_ids({"durak": 7}, ["durak", "durak replay"])
        assert i18n.command_name("durak replay", "ru") == "</durak replay:7>"
        assert "</durak replay:7> `игра:3`" in t("replay.result_line", "ru", game_id=3)
    finally:
        i18n.set_command_ids({}, [])


def test_one_language_rule_for_private_answers() -> None:
    """A private answer speaks the reader's client language; a language we do not speak
    falls back to the game's (when given), else to the server's Discord language."""
    from types import SimpleNamespace

    from bot.surfaces.language import discord_server_locale, reader_locale

    def asked(user: discord.Locale, server: discord.Locale | None) -> Any:
        return cast(Any, SimpleNamespace(locale=user, guild_locale=server))

    assert reader_locale(asked(discord.Locale.russian, discord.Locale.american_english)) == "ru"
    assert reader_locale(asked(discord.Locale.german, discord.Locale.russian)) == "ru"
    assert reader_locale(asked(discord.Locale.german, discord.Locale.russian), "en") == "en"
    assert reader_locale(asked(discord.Locale.german, None)) == "en"
    assert discord_server_locale(asked(discord.Locale.german, discord.Locale.russian)) == "ru"
    assert discord_server_locale(asked(discord.Locale.german, None)) is None
