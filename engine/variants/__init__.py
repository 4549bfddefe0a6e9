"""Catalogue variants (fool-variants-catalogue.txt): one module per variant, registered here.

To add a variant: write ``engine/variants/<name>.py`` with a :class:`~.base.Variant` subclass
that quotes its catalogue sentence and overrides the hooks it needs, add the instance to
``VARIANTS`` below, and give it a preset in ``engine/rules.py``. docs/variants.md says more.
"""

from __future__ import annotations

from typing import Final

from .base import NONE, Deal, Variant
from .trumpless import TRUMPLESS

VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in (NONE, TRUMPLESS)}

__all__ = ["NONE", "VARIANTS", "Deal", "Variant"]
