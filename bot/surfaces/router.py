"""Clicks routed to the bot's items by their custom id, from the client's ``on_interaction``.

Every component the bot sends is a :class:`discord.ui.DynamicItem` whose template takes its
custom id (bot/surfaces/dynamic_items.py). Registered with ``Client.add_dynamic_items``,
discord.py answers each click by matching the id against every template, then building a
whole :class:`discord.ui.View` from the clicked message (``View.from_message``: an item per
component, about twenty on a hand, and ``os.urandom`` for the view's id) only to find the
clicked component in it and swap the new item in. None of our items reads that view: an item
is made from its id alone (``from_custom_id``), and a select's chosen values are read from
the interaction's data (:func:`chosen_values`). So the bot routes the click itself: the
templates are indexed by the id's kind (``durak:<kind>:…``), a click tries the templates of
its kind and the catch-alls, and the item that takes it is made and its callback awaited.

The outcome is the same as discord.py's dispatch: every template that takes the id gets the
click (tests/bot/test_door.py checks that exactly one does for every format the bot ever
wrote), a click whose component is not on its message is ignored as discord.py ignores it,
and an item that fails to be made or to answer is logged the same way. Old messages keep
working across restarts: routing depends on the id alone, never on memory of a view.

discord.py itself routes nothing of ours: the items are not registered with it, and every
view the bot sends is stopped (bot/surfaces/interactions.py ``_components_view``), which
discord.py never stores, so it never learns an item's template from a sent view either.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

import discord

__all__ = ["ComponentRouter", "chosen_values"]

log = logging.getLogger(__name__)

#: A template that starts with a literal ``durak:<kind>`` followed by ``:`` or its end takes
#: only ids of that kind; any other template is tried on every id.
_KIND = re.compile(r"durak:([a-z]+)(?::|\Z)")

_Factory = type[discord.ui.DynamicItem[discord.ui.Item[Any]]]


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select menu, from the interaction's data (what discord.py
    would have set on the select's ``values``)."""
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return [str(v) for v in values]


def _kind(custom_id: str) -> str | None:
    if not custom_id.startswith("durak:"):
        return None
    return custom_id.split(":", 2)[1]


def _components(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones (action rows' children) included."""
    for component in components:
        yield component
        children = getattr(component, "children", None)
        if children:
            yield from _components(children)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def on_message(message: discord.Message, component_type: int, custom_id: str) -> bool:
    """The clicked component is on the message (discord.py ignores a click that is not)."""
    return any(
        getattr(c, "custom_id", None) == custom_id and c.type.value == component_type
        for c in _components(message.components)
    )


class ComponentRouter:
    """The bot's dynamic items, indexed by the kind their template takes."""

    def __init__(self, factories: Iterable[_Factory]) -> None:
        self._by_kind: dict[str, list[tuple[re.Pattern[str], _Factory]]] = {}
        self._anywhere: list[tuple[re.Pattern[str], _Factory]] = []
        for factory in factories:
            pattern: re.Pattern[str] = factory.__discord_ui_compiled_template__
            found = _KIND.match(pattern.pattern)
            entry = (pattern, factory)
            if found is None:
                self._anywhere.append(entry)
            else:
                self._by_kind.setdefault(found[1], []).append(entry)

    def matches(self, custom_id: str) -> list[tuple[_Factory, re.Match[str]]]:
        """Every item whose template takes ``custom_id`` (the same as trying them all)."""
        kind = _kind(custom_id)
        candidates = self._by_kind.get(kind, []) if kind is not None else []
        out = []
        for pattern, factory in (*candidates, *self._anywhere):
            match = pattern.fullmatch(custom_id)
            if match is not None:
                out.append((factory, match))
        return out

    async def dispatch(self, interaction: discord.Interaction) -> None:
        """Answer a component click by the item its custom id names (any other interaction
        is not ours to route)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        component_type = data.get("component_type")
        message = interaction.message
        if not isinstance(custom_id, str) or message is None:
            return
        found = self.matches(custom_id)
        if not found or not on_message(message, component_type, custom_id):
            return
        for factory, match in found:
            await self._run(factory, interaction, match)

    @staticmethod
    async def _run(
        factory: _Factory, interaction: discord.Interaction, match: re.Match[str]
    ) -> None:
        try:
            item = await factory.from_custom_id(interaction, _CLICKED, match)
        except Exception:
            log.exception("could not make the item %s for a click", factory.__name__)
            return
        try:
            if await item.interaction_check(interaction):
                await item.callback(interaction)
        except Exception:
            log.exception("item %s failed on a click", factory.__name__)


#: What ``from_custom_id`` is given as the clicked component: the bot's items are made from
#: their id alone and never read it.
_CLICKED: discord.ui.Item[Any] = discord.ui.Button(label="?")
