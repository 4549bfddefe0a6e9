"""Every engine rule option (and each of its values) reads in both languages in /durak rules."""

from __future__ import annotations

import pytest

from bot.i18n import has_key
from engine import RuleSet


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_option_and_choice_is_translated(locale: str) -> None:
    missing = []
    for name, _default, _doc, _source, choices in RuleSet.describe_options():
        keys = [f"option.{name}.label", f"option.{name}.doc"]
        if choices and isinstance(choices[0], str):
            keys += [f"option.{name}.value.{c}" for c in choices]
        missing += [k for k in keys if not has_key(k, locale)]
    assert not missing, f"untranslated rule strings ({locale}): {missing}"
