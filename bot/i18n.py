"""The single translation layer for every user-facing string.

Strings live in ``bot/locales/<lang>.json`` (flat keys, ``str.format`` placeholders) so that a
translator can work on one file without reading code, and a test can prove that every language
has exactly the same keys and placeholders.

Missing keys and bad placeholders are *strict* (raise) under pytest or when
``DURAK_I18N_STRICT=1``, so mistakes fail CI; in production they degrade to the English text or
the bare key, because a slightly wrong message beats an interaction that errors out mid-game.
"""

from __future__ import annotations

import json
import logging
import os
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import discord
from babel import Locale
from babel.plural import PluralRule
from discord import app_commands

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES_DIR",
    "SUPPORTED_LOCALES",
    "DurakTranslator",
    "MissingTranslation",
    "catalog",
    "command_name",
    "has_key",
    "ls",
    "normalize_locale",
    "pick_locale",
    "placeholders",
    "plural_category",
    "plural_forms",
    "t",
    "tn",
]

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
SUPPORTED_LOCALES: tuple[str, ...] = ("en", "ru")
DEFAULT_LOCALE = "en"

LocaleLike = str | discord.Locale | None


class MissingTranslation(KeyError):
    """A key (or a placeholder value) is missing; only raised in strict mode."""


def _strict() -> bool:
    """Strict in tests (pytest sets PYTEST_CURRENT_TEST) unless explicitly disabled."""
    flag = os.environ.get("DURAK_I18N_STRICT")
    if flag is not None:
        return flag.strip() not in ("", "0", "false", "no")
    return "PYTEST_CURRENT_TEST" in os.environ


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """All strings of one supported locale, loaded once per process."""
    if locale not in SUPPORTED_LOCALES:
        raise ValueError(f"unsupported locale {locale!r}")
    path = LOCALES_DIR / f"{locale}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{path} must be a flat JSON object of strings")
    return data


def normalize_locale(locale: LocaleLike) -> str:
    """Map Discord locales ('ru', 'en-US', 'en-GB', …) and plain tags to 'en'/'ru'.

    Anything unknown becomes English, the language most Discord users can read.
    """
    if locale is None:
        return DEFAULT_LOCALE
    if type(locale) is str and locale in SUPPORTED_LOCALES:
        return locale  # the usual case, called for every text: no enum isinstance check
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in SUPPORTED_LOCALES else DEFAULT_LOCALE


def pick_locale(user_locale: LocaleLike, guild_locale: LocaleLike) -> str:
    """Locale for an ephemeral reply: the user's own client language when we speak it,
    otherwise the guild's configured language (public messages should use the guild's)."""
    if user_locale is not None:
        value = user_locale.value if isinstance(user_locale, discord.Locale) else str(user_locale)
        primary = value.strip().replace("_", "-").split("-", 1)[0].lower()
        if primary in SUPPORTED_LOCALES:
            return primary
    return normalize_locale(guild_locale)


def has_key(key: str, locale: LocaleLike = DEFAULT_LOCALE) -> bool:
    """Lets callers probe optional keys (e.g. engine reason codes) without strict-mode errors."""
    return key in catalog(normalize_locale(locale))


def placeholders(template: str) -> frozenset[str]:
    """Field names used by a template; the parity test compares these across languages."""
    return frozenset(
        field.split(".", 1)[0].split("[", 1)[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field is not None and field != ""
    )


#: "durak help" -> the registered command's id, once the bot knows them (after a sync or
#: the start-up check); empty until then, and text names the command in the reader's words.
_COMMAND_IDS: dict[str, int] = {}


def set_command_ids(top_level: dict[str, int], paths: list[str] | None = None) -> None:
    """Remember the registered commands, so text names them as Discord command mentions
    (``</durak help:ID>``): each client then shows the command in its own language and a
    click fills it in."""
    _COMMAND_IDS.clear()
    _TEXTS.clear()  # texts that named a command by its typed name now mention it
    for path in paths or []:
        top = path.split(" ", 1)[0]
        if top in top_level:
            _COMMAND_IDS[path] = top_level[top]


def command_paths(payloads: list[dict[str, Any]]) -> list[str]:
    """Every command and subcommand name path ("durak forfeits add") of command payloads."""
    out: list[str] = []
    for payload in payloads:
        out.append(payload["name"])
        for option in payload.get("options") or []:
            if option.get("type") in (1, 2):
                out.append(f"{payload['name']} {option['name']}")
                for sub in option.get("options") or []:
                    if sub.get("type") == 1:
                        out.append(f"{payload['name']} {option['name']} {sub['name']}")
    return out


def command_name(path: str, locale: LocaleLike = DEFAULT_LOCALE) -> str:
    """How a text names the command ``path`` ("durak replay"): a command mention once its id
    is known (each client shows it in its own language, and a click fills it in), before
    that the name the reader's client shows (``/дурак повтор`` in Russian), never a name
    typed into a string, which would be English for everyone."""
    if path in _COMMAND_IDS:
        return f"</{path}:{_COMMAND_IDS[path]}>"
    loc = normalize_locale(locale)
    parts = path.split()
    words = [catalog(loc)[f"cmd.{'.'.join(parts[: i + 1])}.name"] for i in range(len(parts))]
    return "/" + " ".join(words)


class _Names:
    """The ``{cmd:durak replay}``, ``{opt:season}`` and ``{choice:pings.off}`` fields of a
    template: ``str.format`` hands the text after the colon to ``__format__``, so the
    catalogue names a command, an option or a choice once, and the reader's client words
    (or a mention) come out."""

    __slots__ = ("_kind", "_locale")

    def __init__(self, kind: str, locale: str) -> None:
        self._kind = kind
        self._locale = locale

    def __format__(self, spec: str) -> str:
        if self._kind == "cmd":
            return command_name(spec, self._locale)
        if self._kind == "opt":
            return catalog(self._locale)[f"cmd.param.{spec}.name"]
        return catalog(self._locale)[f"cmd.choice.{spec}"]


#: The placeholders :func:`t` fills itself: command, option and choice names.
NAME_FIELDS: frozenset[str] = frozenset({"cmd", "opt", "choice"})


#: Per (locale, key): the template and whether it names commands, options or choices.
_TEMPLATES: dict[tuple[str, str], tuple[str, bool]] = {}
#: Per (locale, key): the finished text of a template that takes no values (button labels,
#: headings), which every render of a table or a hand asks for again. Cleared when the
#: command ids change, since a text that names a command mentions it from then on.
_TEXTS: dict[tuple[LocaleLike, str], str] = {}


def t(key: str, locale: LocaleLike = DEFAULT_LOCALE, /, **kwargs: Any) -> str:
    """Translate ``key`` into ``locale`` and fill its placeholders from ``kwargs``.
    Commands, options and choices the text names (``{cmd:durak new}``) are filled in by
    :class:`_Names`, in the reader's words."""
    if not kwargs:
        # keyed by the locale as given: "en" and "ru", the usual callers' values, hit at once
        text = _TEXTS.get((locale, key))
        if text is not None:
            return text
    loc = normalize_locale(locale)
    entry = _TEMPLATES.get((loc, key))
    if entry is None:
        found = catalog(loc).get(key)
        if found is None:
            if _strict():
                raise MissingTranslation(f"no translation for {key!r} in {loc!r}")
            log.warning("missing translation %r for locale %r", key, loc)
            template = catalog(DEFAULT_LOCALE).get(key, key)
            names = "{cmd:" in template or "{opt:" in template or "{choice:" in template
        else:
            names = "{cmd:" in found or "{opt:" in found or "{choice:" in found
            entry = _TEMPLATES[(loc, key)] = (found, names)
            template = found
    else:
        template, names = entry
    values = {**{kind: _Names(kind, loc) for kind in NAME_FIELDS}, **kwargs} if names else kwargs
    try:
        text = template.format(**values)
    except (KeyError, IndexError, ValueError) as exc:
        if _strict():
            raise MissingTranslation(f"cannot format {key!r} in {loc!r}: {exc!r}") from exc
        log.warning("cannot format translation %r (%s): %r", key, loc, exc)
        return template
    if not kwargs and entry is not None:
        _TEXTS[(loc, key)] = text
    return text


@cache
def _plural_rule(locale: str) -> PluralRule:
    """Babel's copy of the CLDR plural rule of a supported locale, built once."""
    return Locale.parse(locale).plural_form


#: Per (locale, count): the plural category of the small counts texts show (cards, players,
#: moves), so Babel's rule is evaluated once per count and not on every render.
_PLURALS: dict[tuple[str, int], str] = {}


def plural_category(count: int, locale: LocaleLike) -> str:
    """The CLDR plural category of an integer count: 'one'/'few'/'many' in Russian,
    'one'/'other' in English.

    The rule comes from Babel's copy of the Unicode CLDR data rather than our own code,
    because a hand-written rule gets the teens (11-14, 111-114) wrong sooner or later, and
    every new language would need its own.
    """
    loc = normalize_locale(locale)
    category = _PLURALS.get((loc, count))
    if category is None:
        category = str(_plural_rule(loc)(abs(count)))
        if -1000 < count < 1000:  # bounded: larger counts are rare and not kept
            _PLURALS[(loc, count)] = category
    return category


def plural_forms(locale: LocaleLike) -> frozenset[str]:
    """The categories an integer count can take in ``locale``: the forms every ``plural.*``
    string of that language needs (fractions, CLDR's Russian 'other', never occur here)."""
    rule = _plural_rule(normalize_locale(locale))
    return frozenset(str(rule(n)) for n in range(200))


def tn(key: str, count: int, locale: LocaleLike = DEFAULT_LOCALE, /, **kwargs: Any) -> str:
    """Plural-aware ``t``: ``tn("plural.cards", 3, "ru")`` → "3 карты"."""
    return t(f"{key}.{plural_category(count, locale)}", locale, count=count, **kwargs)


def ls(key: str, **extras: Any) -> app_commands.locale_str:
    """A ``locale_str`` whose default text is the English string and which carries its key.

    Use for command/parameter/choice names and descriptions so that :class:`DurakTranslator`
    can find the translation; Discord shows the English text to every other locale.
    """
    return app_commands.locale_str(catalog(DEFAULT_LOCALE)[key], key=key, **extras)


class DurakTranslator(app_commands.Translator):
    """Feeds Discord the localised command names/descriptions from our string files.

    Only locales we actually translate return a value; for all others we return None so
    Discord falls back to the default (English) text instead of receiving duplicates.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """Look up ``string.extras['key']``; strings without a key are left untouched."""
        key = string.extras.get("key")
        if not isinstance(key, str):
            return None
        primary = locale.value.split("-", 1)[0].lower()
        if primary not in SUPPORTED_LOCALES:
            return None
        text = catalog(primary).get(key)
        if text is None:
            log.warning("no %s translation for command string %r", primary, key)
        return text
