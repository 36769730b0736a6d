"""Exact perfect-information endgame solver (two- and three-player, and the
four-player rules with two decks: the landlord against one to three farmers).

Given an open-hand :class:`~ddz_tools.engines.position.Position`, :func:`solve`
decides whether the side to move can force a win, lists the winning plays,
gives the principal line and, on request, the whole winning strategy.

>>> from ddz_tools.engines.position import Position
>>> r = solve(Position.two_player("33JJQK2", "4455A"))
>>> r.result, r.winning_plays
('win', ['33'])
>>> solve(Position.two_player("3", "XD", after="2")).result
'loss'

What is where, each module importing only those above it (and the layers
below the solver):

* ``layout``: the kernels' constants (table sizes, control slots, statuses,
  tasks, the key's bit layout, budgets);
* ``key``: the position key (renamed ranks, sorted runs) and the
  transposition table;
* ``profiles``: answer profiles, which plays a seat or its opponents can
  answer;
* ``control``: control wins, an exact shortcut, and their memo;
* ``threats``: the three-player cover rule and threat rule;
* ``ordering``: move ordering, and the moves dominance leaves out;
* ``relax``: relaxations, farmers set aside;
* ``search``: the search kernel :func:`search_step` and node expansion;
* ``result``: :class:`SolveResult`, what a solve answers (plain data);
* ``engine``: one worker on the Python side (its table and its growth, the
  kernel run in slices under time and node limits, a position's moves);
* ``probing``: a winning move found by probing the moves in rounds, and
  workers sharing a root;
* ``lines``: the principal line and the strategy tree;
* ``driver``: the :class:`Solver` and :func:`solve` (a position's root set
  up, solved, reported).
"""

from ...core.errors import SearchLimit
from .layout import DEFAULT_TT_MB
from .result import SolveResult
from .search import search_step
from .driver import Solver, solve

__all__ = ["solve", "Solver", "SolveResult", "SearchLimit", "DEFAULT_TT_MB", "search_step"]
