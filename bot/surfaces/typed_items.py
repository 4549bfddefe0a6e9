"""Components whose custom id is ``durak:<kind>:<parts>``, each part a named group of the
item's template (discord.py routes a click to the item whose template takes its whole id).

The template checks the parts' types, so a click handler starts from :attr:`_TypedItem.fields`
already validated instead of splitting and checking the id by hand; an id with our prefix
that no template takes is answered as malformed by bot.surfaces.dynamic_items."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from .door import _Guarded, _Malformed

# Parts shared by several templates.
GAME = r"(?P<game>[0-9]+)"
VERSION = r"(?P<version>[0-9]+)"
CARDS = r"(?:[2-9TJQKA][cdhs]'?)*"
PART = r"[^:]*"


class _TypedItem(_Guarded):
    """Mixin of a DynamicItem with a typed template: built from a clicked id with
    ``cls(rest=<the id after durak:<kind>:>)``, so every such item takes ``rest``."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(rest=match.string.split(":", 2)[2])  # type: ignore[call-arg]

    #: The custom id last parsed by :attr:`fields`, and its parts (None: not taken).
    _parsed: tuple[str, dict[str, str] | None] | None = None

    @property
    def fields(self) -> dict[str, str]:
        """The parts of the custom id, by the names of the item's template (_Malformed for
        an id the template does not take: an item built with parts out of type). Parsed once
        per id: a click reads its parts several times (game, version, kind, cards…)."""
        item: Any = self  # a DynamicItem: its template and custom id
        custom_id: str = item.custom_id
        parsed = self._parsed
        if parsed is None or parsed[0] != custom_id:
            match = item.template.fullmatch(custom_id)
            parsed = self._parsed = (custom_id, None if match is None else match.groupdict())
        if parsed[1] is None:
            raise _Malformed
        return dict(parsed[1])
