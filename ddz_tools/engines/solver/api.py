"""The one call of the solver: :func:`solve`, an open-hand position's answer
(:class:`~.result.SolveResult`) from a :class:`~.driver.Solver`, made for the
call or shared between calls.
"""

from __future__ import annotations

from ..position import Position
from .driver import Solver
from .layout import DEFAULT_TT_MB
from .result import SolveResult

__all__ = ["solve"]


def solve(position: Position, *, all_plays: bool = False, line: bool = True, strategy: bool = False,
          strategy_max_nodes: int = 100_000, time_limit: "float | None" = None,
          node_limit: "int | None" = None, tt_mb: float = DEFAULT_TT_MB,
          solver: "Solver | None" = None, workers: int = 1, progress=None) -> SolveResult:
    """Solve an open-hand position exactly.

    ``all_plays`` lists every winning play at the root (otherwise one);
    ``line`` computes the principal line; ``strategy`` the whole winning
    strategy as a JSON-able tree (at most ``strategy_max_nodes`` nodes).
    ``time_limit`` (seconds) and ``node_limit`` end the search with
    ``result == "unknown"`` and ``stopped`` set; Ctrl-C does the same with
    ``stopped == "interrupted"``.  Pass a :class:`Solver` to share one table
    between solves (``tt_mb`` and ``workers`` are then ignored).  ``workers``
    threads share the root's moves; the result, and with ``all_plays`` the
    winning plays, are the same for any number of workers and table size
    (without it, the one winning play and the line are proven but may
    differ with them: see :meth:`Solver._best`).  ``progress``, when given,
    is called as ``progress(nodes, lost, plays)`` before the search, between
    its slices (about ten times a second in a long search) and after each of
    its searches: the nodes searched so far, how many of the root's plays
    are proven lost so far (as ``lost_plays`` counts them), and how many
    legal plays the root has; with several workers, from their threads,
    one call at a time.

    >>> from ddz_tools.engines.position import Position
    >>> p = Position.three_player("3", "44", "55", to_move="landlord")
    >>> r = solve(p, all_plays=True)
    >>> r.result, r.winning_plays, r.line
    ('win', ['3'], ['3'])
    >>> solve(p, node_limit=1).result in ("win", "unknown")
    True
    """
    if solver is None:
        solver = Solver(tt_mb, workers)
    return solver.solve(position, all_plays=all_plays, line=line, strategy=strategy,
                        strategy_max_nodes=strategy_max_nodes, time_limit=time_limit,
                        node_limit=node_limit, progress=progress)
