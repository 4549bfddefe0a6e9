"""The mode list of ``/durak new``: which presets and twists to offer, best match first.

The engine has more presets than Discord's autocomplete shows (25 at most), so the list is
ranked, not just filtered: with nothing typed the base games come first (what most tables
play), the catalogue variants after them; with text typed, a match at the start of a name (in
English or Russian, or the preset's key) beats a match inside a name, which beats a match in
the one-line description. A Russian speaker typing "пере" finds Perevodnoy even when Discord
shows the list in English, and vice versa.

A *twist* is a catalogue variant put on the chosen base mode (``RuleSet.with_variant``), so
"Perevodnoy + trumpless" needs no preset of its own.
"""

from __future__ import annotations

from engine.rules import PRESETS, RuleSet
from engine.variants import VARIANTS

from ..discord_limits import AUTOCOMPLETE_CHOICES, CHOICE_NAME
from ..i18n import SUPPORTED_LOCALES, t

#: Presets that are a base game (no catalogue variant), in the engine's order.
BASE_PRESETS: tuple[str, ...] = tuple(n for n, r in PRESETS.items() if r.variant == "none")
#: Catalogue variants a twist may name (the plain base game is "no twist", not a choice).
TWISTS: tuple[str, ...] = tuple(v for v in VARIANTS if v != "none")


def _score(needle: str, key: str, names: list[str], descriptions: list[str]) -> int | None:
    """Smaller is better; None: no match."""
    if not needle:
        return 0
    words = [w for name in names for w in name.lower().replace("(", " ").split()]
    if key.startswith(needle) or any(n.lower().startswith(needle) for n in names):
        return 0
    if any(w.startswith(needle) for w in words):
        return 1
    if needle in key or any(needle in n.lower() for n in names):
        return 2
    if any(needle in d.lower() for d in descriptions):
        return 3
    return None


def _rank(needle: str, keys: tuple[str, ...], prefix: str, first: tuple[str, ...]) -> list[str]:
    needle = needle.strip().lower()
    scored: list[tuple[int, int, int, str]] = []
    for i, key in enumerate(keys):
        names = [t(f"{prefix}.{key}.name", loc) for loc in SUPPORTED_LOCALES]
        descriptions = [t(f"{prefix}.{key}.description", loc) for loc in SUPPORTED_LOCALES]
        score = _score(needle, key, names, descriptions)
        if score is not None:
            scored.append((score, 0 if key in first else 1, i, key))
    return [key for *_, key in sorted(scored)][:AUTOCOMPLETE_CHOICES]


def ranked_presets(needle: str) -> list[str]:
    """Preset keys for an autocomplete box holding ``needle``, best first, as many as fit."""
    return _rank(needle, tuple(PRESETS), "preset", BASE_PRESETS)


def ranked_twists(needle: str) -> list[str]:
    """Variant names for the ``twist`` autocomplete box, best first, as many as Discord shows."""
    # every variant has a preset of its own name, whose name and description say the rule
    return _rank(needle, TWISTS, "preset", ())


def choice_label(preset: str, locale: str) -> str:
    """ "Name — description", cut to Discord's limit on a choice's name."""
    label = f"{t(f'preset.{preset}.name', locale)} — {t(f'preset.{preset}.description', locale)}"
    return label if len(label) <= CHOICE_NAME else label[: CHOICE_NAME - 1] + "…"


def combine(rules: RuleSet, twist: str) -> RuleSet:
    """The base rules with the twist on top (RuleError with the engine's reason if the two
    cannot be played together)."""
    return rules.with_variant(twist)


def variant_of(preset: str, overrides: dict[str, object]) -> str:
    """The catalogue variant a lobby will play: its twist, or the preset's own."""
    twist = overrides.get("variant")
    return str(twist) if isinstance(twist, str) else PRESETS[preset].variant


def mode_name(preset: str, variant: str, locale: str) -> str:
    """The mode as a title shows it: the preset's name, plus its twist when it has one the
    preset does not imply ("Perevodnoy (passing) + Trumpless fool")."""
    name = t(f"preset.{preset}.name", locale)
    if preset in PRESETS and variant not in ("none", PRESETS[preset].variant):
        return t("mode.with_twist", locale, mode=name, twist=t(f"preset.{variant}.name", locale))
    return name
