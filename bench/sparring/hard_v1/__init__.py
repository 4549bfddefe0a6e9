"""``hard-v1``: the ``hard`` player as it was before issue 20, frozen as a sparring partner.

Why a copy and not an import: every change to ``engine/ai`` (the playout policy, the search,
the pruning) would otherwise change this opponent too, and "hard vs hard-v1" would measure a
moving target. These four modules are ``engine/ai/{hard,search,policies,view}.py`` at commit
f510abb, unchanged except that their imports name the engine's stable modules
(``engine``, ``engine.actions``, ``engine.cards``, ``engine.variants``) instead of relative
paths, and that its think clock is the thread's CPU time (``time.thread_time``) rather than
the wall clock: today's hard counts its budget in CPU time, and on a loaded machine a wall
clock gave hard-v1 about a third of hard's CPU, so "hard vs hard-v1 at the budget" was not
an equal-think-time match. It includes the old pruning bug (only the cheapest beater of
each kind is searched) on purpose: that is the behaviour being measured against. Do not
edit or "fix" it; if an engine API it uses moves, change only the import.
"""

from __future__ import annotations

from .hard import HardPlayer as _Hard


class HardV1(_Hard):
    """The frozen player under its own name, so tallies do not mix it with today's hard."""

    kind = "hard-v1"


__all__ = ["HardV1"]
