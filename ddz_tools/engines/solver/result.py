"""What a solve answers: :class:`SolveResult`.

Given an open-hand :class:`~ddz_tools.engines.position.Position`,
:func:`~.driver.solve` decides whether the side to move can force a win,
lists the winning plays, gives the principal line and, on request, the
whole winning strategy; a :class:`SolveResult` holds the answer (plain
data: this module imports nothing of the search).

Two-player: ``me`` against ``opponent``; whoever empties their hand first
wins; a pass is legal only when answering and after one pass the other side
leads.  Three-player: ``landlord``, ``farmer1``, ``farmer2`` in turn order;
the farmers win together; after two consecutive passes the last player who
played leads.  Under the four-player rules (two decks) the landlord plays
one, two or three farmers (``farmer3`` last), and a play stands until the
turn comes back to its maker.  Legal plays come from the shared move generator
(:mod:`ddz_tools.moves.movegen`) under the position's rules.
"""

from __future__ import annotations

import dataclasses

from ..position import Position

__all__ = ["SolveResult"]

@dataclasses.dataclass
class SolveResult:
    """The answer for the side to move of one position.

    ``result`` is ``"win"``, ``"loss"`` or ``"unknown"`` (a limit or an
    interrupt stopped the search: ``stopped`` says which).  ``winning_plays``
    holds one winning play, or every one with ``all_plays=True`` (then
    ``all_plays`` is True; for ``unknown`` it lists those proven so far).
    ``line`` is the principal line (plays in order with ``line_by`` the seats),
    ``strategy`` the winning strategy tree when asked for.  When a limit
    stopped the search (``stopped`` set), ``lost_plays`` lists the root's
    plays proven lost by then, in search order, of ``root_plays`` legal ones
    (a value solve leaves out plays that another dominates; see
    ``docs/solver.md``); otherwise it is empty and ``root_plays`` None.
    """

    id: "str | None"
    result: str
    to_move: str
    winning_plays: list
    line: list
    line_by: list
    nodes: int
    seconds: float
    rules: str
    all_plays: bool = False
    stopped: "str | None" = None
    tt: dict = dataclasses.field(default_factory=dict)
    strategy: "dict | None" = None
    position: "Position | None" = None
    lost_plays: list = dataclasses.field(default_factory=list)
    root_plays: "int | None" = None

    def to_dict(self) -> dict:
        d = {
            "id": self.id,
            "result": self.result,
            "to_move": self.to_move,
            "winning_plays": list(self.winning_plays),
            "all_plays": self.all_plays,
            "line": list(self.line),
            "line_by": list(self.line_by),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "nodes_per_second": int(self.nodes / self.seconds) if self.seconds > 0 else None,
            "rules": self.rules,
            "stopped": self.stopped,
            "tt": dict(self.tt),
        }
        if self.stopped is not None:
            d["lost_plays"] = list(self.lost_plays)
            d["root_plays"] = self.root_plays
        if self.position is not None:
            d["position"] = self.position.to_dict()
        if self.strategy is not None:
            d["strategy"] = self.strategy
        return d
