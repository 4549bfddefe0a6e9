"""The exact end of a rules-of-thumb player: once nothing is hidden, prove the move.

When the talon is gone and two players are left, every card is known to both (the
observation's unseen cards are the other hand), so the rest of the game is a
perfect-information tree that :class:`~engine.ai.search.EndgameSolver` searches exactly.
A rules-of-thumb player asks it, within a small node cap, which of its moves keep it from
being the fool; its own rule's move is kept when it is one of them (the rules then still
say *how* to win), the first proven one otherwise, and the rule's move wherever the search
gives up or proves every move lost.

Why ``normal`` has it (issue 31): every member of the sparring league (``bench/sparring``)
ends this way, and against ``normal``'s rules of thumb to the end that was worth about six
points of the league mean (docs/benchmarks.md, *Judgement while the talon lasts*): what a
hobby program does at the end, our middle level does too. ``hard`` has its own, larger
search (``engine.ai.hard``) and its playouts keep the plain policy (``normal_policy``), so
this changes neither hard's playouts nor ``fastplay``.
"""

from __future__ import annotations

from ..actions import Action
from ..observation import Observation
from .search import EndgameSolver, NodeCapReached, exact_world, is_blind
from .view import View

#: Nodes the exact search of a rules-of-thumb player may visit per move before it plays its
#: rule instead. The same cap as the sparring league's members (``bench/sparring/base.py``),
#: so that ``normal`` and its sparring partners end equally. Most two-handed ends with up to
#: ~6 cards a hand are solved well inside it (a few milliseconds); a search that runs to the
#: cap (big hands, as against a random player) costs ~0.1 s of one core, off the event loop.
NODE_CAP = 3000


def exact_choice(
    obs: Observation, v: View, default: Action | None, node_cap: int = NODE_CAP
) -> Action | None:
    """``default`` (the rule's move), or a move the exact search proves keeps ``obs.seat``
    from being the fool when the rule's move is not one of those.

    Only where the seat must move (waiting is a rule's choice the solver does not weigh),
    nothing is hidden (no face-down card, no blind hand, the talon empty, two players left)
    and there is a choice to make."""
    if not v.must_act() or obs.face_down or len(v.acts) < 2 or is_blind(obs):
        return default
    world = exact_world(obs)
    if world is None:
        return default
    try:
        wins = EndgameSolver(obs.seat, node_cap).winning_moves(world, list(v.acts))
    except NodeCapReached:
        return default
    if not wins or default in wins:
        return default
    return wins[0]


__all__ = ["NODE_CAP", "exact_choice"]
