"""The solver's entry points: :class:`Solver` and :func:`solve`.

A Solver is a :class:`~.probing.Prober` (one worker's table and the search
kernel's slices, :mod:`.engine`; probing moves in rounds and sharing a
root between workers, :mod:`.probing`) that answers a whole
:class:`~ddz_tools.engines.position.Position`: the root set up from it, its
value and winning plays, the principal line and the strategy tree
(:mod:`.lines`), the table's figures and the progress reports, as a
:class:`~.result.SolveResult`.
"""

from __future__ import annotations

import threading
import time

from ...core.errors import ArgumentError, PositionError, SearchLimit
from ...core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS, F_FOUR, F_TOP_BOMB8
from ..position import Position
from .engine import State, notation
from .layout import C_EVICT, C_HITS, C_NODES, C_STORES, DEFAULT_TT_MB, FLAGS_LIMIT
from .lines import principal_line, strategy_tree
from .probing import Prober, Team
from .result import SolveResult

__all__ = ["Solver", "solve"]


class Solver(Prober):
    """A reusable solver: one transposition table shared by many solves.

    ``tt_mb`` bounds the table's memory (MiB); the table starts small and
    doubles when half full.  ``workers`` > 1 probes (or, for every winning
    play, solves) the moves at the root in parallel threads, each with its
    own table of ``tt_mb / workers``, once one worker alone has searched
    :attr:`split_after` nodes at the root without an answer (most positions
    need fewer, and threads cost more than they give there).  The result,
    and with ``all_plays`` the winning plays, are the same for any number of
    workers and any table size; without ``all_plays`` the one winning play and the
    line are proven but may differ with them (see :meth:`_best`).  Results
    for different rules and player counts never mix: both are part of every
    key.  One solve at a time per Solver.
    """

    def solve(self, position: Position, *, all_plays: bool = False, line: bool = True,
              strategy: bool = False, strategy_max_nodes: int = 100_000,
              time_limit: "float | None" = None, node_limit: "int | None" = None,
              progress=None) -> SolveResult:
        """Solve ``position``; see :func:`solve`."""
        if not isinstance(position, Position):
            raise PositionError(f"solve() takes a Position, not {type(position).__name__}")
        if time_limit is not None and not time_limit > 0:
            raise ArgumentError(f"time_limit must be positive, not {time_limit!r}", param="time_limit")
        if node_limit is not None and (not isinstance(node_limit, int) or node_limit < 1):
            raise ArgumentError(f"node_limit must be a positive integer, not {node_limit!r}", param="node_limit")
        nplayers = position.players
        # The stake options in the flags (bomb_doubles) are no play rule: left out.
        flags = position.rules.flags & ~(F_BOMBS_SIX_PLUS | F_BOMBS_LADDER)
        if not 0 <= flags & ~F_TOP_BOMB8 < FLAGS_LIMIT or (flags & F_TOP_BOMB8 and not flags & F_FOUR):
            raise PositionError(f"rules {position.rules.describe()}: flags {flags:#x} do not fit the solver's keys")
        seats = position.seats
        hands = [h for _, h in position.hands]
        turn = seats.index(position.to_move)
        if position.last_play is None:
            root = State(tuple(hands), turn, 0, 0, 0)
        else:
            root = State(tuple(hands), turn, position.last_play.kind, seats.index(position.last_by),
                          position.last_play.cards)
        engines = [self] + self._helpers
        self._end_tables = None
        nodes0 = [int(e.ctl[C_NODES]) for e in engines]
        hits0 = [int(e.ctl[C_HITS]) for e in engines]
        stores0 = [int(e.ctl[C_STORES]) for e in engines]
        evict0 = [int(e.ctl[C_EVICT]) for e in engines]
        lost: list = []
        # The root's legal plays, counted once for the progress reports (and
        # for ``root_plays``), or only if a limit stops the search.
        plays = None if progress is None else self._watch(progress, root, nplayers, flags, engines, nodes0, lost)
        start = time.perf_counter()
        for e in engines:
            e._deadline = None if time_limit is None else start + time_limit
            e._node_limit = None if node_limit is None else int(e.ctl[C_NODES]) + node_limit
            e._slice = 50_000 if node_limit is None else max(1, min(50_000, node_limit))
        result, stopped = "unknown", None
        winning: list = []
        line_plays: list = []
        line_by: list = []
        tree = None
        try:
            eng, first = self, None
            if all_plays and self._helpers:
                result, winning, first, eng = self._root_parallel(root, nplayers, flags, True, node_limit, lost)
            elif all_plays:
                for i, mv in enumerate(self._moves(root, nplayers, flags)):
                    if self._move_value(root, mv, nplayers, flags):
                        winning.append(notation(mv, flags))
                        first = first or mv
                    else:
                        lost.append((i, mv))
                result = "win" if winning else "loss"
            else:
                team = Team(engines, None) if self._helpers else None
                v, first, eng = self._best(root, nplayers, flags, team=team, lost=lost)
                result = "win" if v else "loss"
                if v:
                    winning.append(notation(first, flags))
            if line:
                lead = first
                if lead is None:
                    # A loss: the line starts with the loser's first play in
                    # search order, from the table of the worker that refuted it.
                    lead = self._moves(root, nplayers, flags)[0]
                line_plays, line_by = principal_line(eng, root, nplayers, flags, seats, lead)
            if strategy:
                budget = [strategy_max_nodes]
                tree = strategy_tree(eng, root, nplayers, flags, seats, budget, first)
        except (SearchLimit, KeyboardInterrupt) as exc:
            # A result already proven stays; only the extras are cut short.
            stopped = exc.reason if isinstance(exc, SearchLimit) else "interrupted"
            if isinstance(exc, SearchLimit) and exc.proven is not None:
                winning = exc.proven
            if result == "unknown" and winning:
                result = "win"
        finally:
            for e in engines:
                e._deadline = None
                e._node_limit = None
                e._team = None
                e._report = None
        seconds = time.perf_counter() - start
        tt = self.table_stats()
        if self._end_tables is not None:
            # Workers' tables forgotten after the search (see :meth:`_probe_shared`):
            # report them as the search left them.
            cap, filled, used = self._end_tables
            tt.update(capacity=cap, entries=filled, fill=round(filled / cap, 6), used_mb=round(used, 3))
        tt["hits"] = sum(int(e.ctl[C_HITS]) - h for e, h in zip(engines, hits0))
        tt["stores"] = sum(int(e.ctl[C_STORES]) - h for e, h in zip(engines, stores0))
        tt["evictions"] = sum(int(e.ctl[C_EVICT]) - h for e, h in zip(engines, evict0))
        nodes = sum(int(e.ctl[C_NODES]) - n for e, n in zip(engines, nodes0))
        lost_plays, root_plays = [], None
        if stopped is not None:
            # What the search proved before it stopped: the root's plays lost.
            lost_plays = [notation(mv, flags) for _, mv in sorted(lost, key=lambda t: t[0])]
            root_plays = plays if plays is not None else len(self._moves(root, nplayers, flags))
        return SolveResult(
            id=position.id, result=result, to_move=position.to_move, winning_plays=winning,
            line=line_plays, line_by=line_by, nodes=nodes,
            seconds=seconds, rules=position.rules.describe(), all_plays=all_plays and result != "unknown",
            stopped=stopped, tt=tt, strategy=tree, position=position, lost_plays=lost_plays,
            root_plays=root_plays)

    def _watch(self, progress, root: State, nplayers: int, flags: int, engines, nodes0, lost) -> int:
        """Call ``progress(nodes, lost, plays)`` once now, and have every
        worker call it between the search's slices and after each of its
        searches (see :func:`solve`), from whichever thread runs it, one call
        at a time; returns ``plays``, the root's number of legal plays.
        ``lost`` holds each root play proven lost once, as ``lost_plays``
        lists them.  (A solve may search nothing: a play that empties the
        hand wins without a search; the first call still gives ``plays``.)"""
        plays = len(self._moves(root, nplayers, flags))
        lock = threading.Lock()

        def report():
            with lock:
                nodes = sum(int(e.ctl[C_NODES]) - n for e, n in zip(engines, nodes0))
                progress(nodes, len(lost), plays)

        for e in engines:
            e._report = report
        report()
        return plays


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
