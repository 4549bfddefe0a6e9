"""Catalogue variants (fool-variants-catalogue.txt): one module per variant, registered here.

To add a variant: write ``engine/variants/<name>.py`` with a :class:`~.base.Variant` subclass
that quotes its catalogue sentence and overrides the hooks it needs, add the instance to
``VARIANTS`` below, and give it a preset in ``engine/rules.py``. docs/variants.md says more.
"""

from __future__ import annotations

from typing import Final

from .albanian import ALBANIAN
from .armenian import ARMENIAN
from .base import NONE, Deal, Variant
from .beaten_off import BEATEN_OFF
from .big import BIG
from .boring import BORING
from .chukchi import CHUKCHI
from .double_trump import DOUBLE_TRUMP
from .empty import EMPTY
from .epaulet import EPAULET
from .heaped import HEAPED
from .invisible import INVISIBLE
from .japanese import JAPANESE
from .magadan import MAGADAN
from .point import POINT
from .poker import POKER
from .reverse import REVERSE
from .road import ROAD
from .round import ROUND
from .royal import ROYAL
from .three import THREE
from .trump_fool import TRUMP_FOOL
from .trumpless import TRUMPLESS
from .trust import TAKE_ON_TRUST

#: Every variant by its ``RuleSet.variant`` name, in the catalogue families' order.
VARIANTS: Final[dict[str, Variant]] = {
    v.name: v
    for v in (
        *(NONE, TRUMPLESS, JAPANESE, ROYAL, DOUBLE_TRUMP, ROAD, TRUMP_FOOL, INVISIBLE),
        *(HEAPED, CHUKCHI, EMPTY, ALBANIAN, BEATEN_OFF, MAGADAN, ARMENIAN, POKER, BIG),
        *(BORING, THREE),
        *(POINT, EPAULET, TAKE_ON_TRUST, REVERSE, ROUND),
    )
}

__all__ = ["NONE", "VARIANTS", "Deal", "Variant"]
