"""Scoring: every candidate of a view played on each sampled deal.

Each deal is scored open-handed, every candidate on the same deal: by the
exact solver (:mod:`ddz_tools.engines.solver`) when the solver takes tables of that
many seats (:data:`SOLVER_SEATS`: two, three and four), the hands hold at
most ``exact_cards`` cards together and every candidate is proven within the
per-deal node budget ``nodes`` (one table per chunk of deals, cleared at its
start); otherwise by one heuristic playout per candidate (the
:mod:`ddz_tools.engines.policies` heuristic in every seat, three or four, from the
position after the candidate).  A candidate's *win* on a deal is 1 when this
seat's side wins, else 0; its *points* are this seat's score at the end of
the game (:meth:`View.deal_score <.view.View.deal_score>`): won or lost by the win, with the stake
the heuristic playout after the candidate comes to (every bomb and rocket,
the candidate's included, and a spring or anti-spring when the playout's
winner is the deal's; solved deals are played out for this too).  A solved
deal on which every candidate has the same win is played out as well
(:data:`TIE_PLAYOUTS`): those playouts' wins break ties.

:func:`score_chunk` scores one chunk of deals (a :class:`Plan` says what);
:mod:`~.advisor` ranks the candidates on the chunks' figures.

>>> from ddz_tools.analysis.advise import counts_view
>>> solver_scores(counts_view("KQ6", "farmer1", "3,3,2,2", rules="four"))
True
"""

from __future__ import annotations

import dataclasses
import threading

import numpy as np

from ...core._jit import kernel
from ...core.cards import card_count
from ...core.errors import ViewError
from ...engines.kernels import (BUFFER, new_table, next_seat, policy_play, spring_silent, stake_doublings,
                                trick_after)
from ...engines.policies import POLICY_HEURISTIC
from ...engines.position import Position
from ...engines.solver import Solver
from .inference import Reader, infer_deals
from .sampling import draw_deals
from .view import View

__all__ = ["SOLVER_SEATS", "TIE_PLAYOUTS", "WORK_TT_MB", "solver_scores", "Plan", "score_chunk"]

#: Seat counts of the tables whose deals the exact solver scores (when they
#: are small enough, :func:`~.advisor.advise`'s ``exact_cards``); a table not named here
#: is always scored by heuristic playouts.  The solver takes positions of two,
#: three and four seats (:class:`~ddz_tools.engines.position.Position`, the landlord
#: against three farmers under four-player rules, docs/solver.md), so every
#: table is named: a four-player deal of at most ``exact_cards`` cards is
#: solved within the same node budget as a three-player one, and played out
#: when the budget runs out.  This is the one place that decides it.
SOLVER_SEATS = (2, 3, 4)

#: Solved deals on which every candidate has the same value (all won or all lost
#: against perfect play) are also played out, and those playouts break ties in the ranking.
#: Read at each chunk from this module (set ``scoring.TIE_PLAYOUTS``).
TIE_PLAYOUTS = True


def solver_scores(view: View) -> bool:
    """Are the deals of ``view`` scored by the exact solver (when small
    enough), or always played out?  By the table's seats: see :data:`SOLVER_SEATS`."""
    return view.players in SOLVER_SEATS



@kernel
def _play_on(hands, landlord, seat, prev_kind, prev_seat, flags, table, bufc, bufk, tally):
    """Heuristic play in every seat from ``seat`` to move (answering
    ``prev_kind`` by ``prev_seat``, 0 = lead) to the end; returns the seat
    that went out.  ``hands`` (one a seat: 3, or 4) is consumed.  ``tally``
    (int64[3]) counts on: ``[0]`` the plays' summed
    :func:`~ddz_tools.core.gamerules.stake_doublings`, ``[1]`` the landlord's
    plays, ``[2]`` bit ``s`` set once farmer ``s`` has played."""
    nseats = hands.shape[0]
    while True:
        c, k = policy_play(hands, seat, landlord, prev_kind, prev_seat, POLICY_HEURISTIC, flags, table, bufc, bufk)
        if k > 0:
            _tally_play(tally, seat, landlord, k, flags)
            hands[seat] -= c
            if hands[seat] == 0:
                return seat
        prev_kind, prev_seat = trick_after(k, seat, prev_kind, prev_seat, nseats)
        seat = next_seat(seat, nseats)


@kernel
def _tally_play(tally, seat, landlord, kind, flags):
    tally[0] += stake_doublings(kind, flags)
    if seat == landlord:
        tally[1] += 1
    else:
        tally[2] |= 1 << seat


@kernel
def _playout_candidates(hands, landlord, me, cand_c, cand_k, prev_kind, prev_seat, flags, table, bufc, bufk,
                        start, any_player, out, stake):
    """``out[i]`` = 1 when ``me``'s side wins the heuristic playout after
    candidate ``i``; ``hands`` one a seat (3, or 4 under four-player rules).

    ``stake[i]`` gets what the game's stake comes to by the end of that
    playout: ``[0]`` the doublings of the candidate and the plays after it
    (summed :func:`~ddz_tools.core.gamerules.stake_doublings`), ``[1]`` spring and
    ``[2]`` anti-spring (0 or 1, :func:`~ddz_tools.core.gamerules.spring_silent`
    with ``any_player``), counting the plays before the candidate that
    ``start`` gives: ``[1]`` the landlord's plays, ``[2]`` the bits of the
    farmers who played."""
    nseats = hands.shape[0]
    h = np.empty(nseats, np.int64)
    tally = np.empty(3, np.int64)
    for i in range(cand_c.shape[0]):
        for s in range(nseats):
            h[s] = hands[s]
        tally[0] = 0
        tally[1] = start[1]
        tally[2] = start[2]
        k = cand_k[i]
        if k > 0:
            h[me] -= cand_c[i]
            _tally_play(tally, me, landlord, k, flags)
        if h[me] == 0:
            winner = me
        else:
            pk, ps = trick_after(k, me, prev_kind, prev_seat, nseats)
            winner = _play_on(h, landlord, next_seat(me, nseats), pk, ps, flags, table, bufc, bufk, tally)
        same = (winner == landlord) == (me == landlord)
        out[i] = 1 if same else 0
        silent = nseats - 1
        for s in range(nseats):
            if s != landlord:
                silent -= (tally[2] >> s) & 1
        spring, anti = spring_silent(1 if winner == landlord else 0, tally[1], silent, nseats - 1, any_player)
        stake[i, 0] = tally[0]
        stake[i, 1] = spring
        stake[i, 2] = anti


def _team(view: View, s: int) -> int:
    return s if view.players == 2 else (0 if s == 0 else 1)


def _solve_deal(view: View, hands: tuple, cands: list, solver: Solver, nodes: int) -> "list | None":
    """1/0 per candidate by the exact solver, or None when the budget runs out;
    only for the tables the solver takes (:func:`solver_scores`)."""
    seats = view.seats
    me = view.me
    root = Position.build(dict(zip(seats, hands)), view.seat, view.last_play, view.last_by, view.rules)
    out = []
    spent = 0
    for p in cands:
        child = root.push(p)
        if child.is_over:
            out.append(1)
            continue
        left = nodes - spent
        if left < 1:
            return None
        r = solver.solve(child, line=False, node_limit=left)
        spent += r.nodes
        if r.result == "unknown":
            return None
        win = r.result == "win"
        out.append(int(win) if _team(view, seats.index(child.to_move)) == _team(view, me) else int(not win))
    return out


_free_work: list = []
_work_lock = threading.Lock()
#: Transposition table (MiB) of each worker's solver.
WORK_TT_MB = 16


def _take_work():
    with _work_lock:
        if _free_work:
            return _free_work.pop()
    return Solver(WORK_TT_MB), new_table(16), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def _give_work(work) -> None:
    with _work_lock:
        _free_work.append(work)


@dataclasses.dataclass
class Plan:
    """What :func:`score_chunk` scores: the view, its candidates (plays, and
    their cards and kinds as arrays for the kernels), the solver's node
    budget per deal, the most cards of a solved deal, the seed, and whether
    the deals fit the auction."""

    view: View
    cands: list
    cand_c: np.ndarray
    cand_k: np.ndarray
    nodes: int
    exact_cards: int
    seed: int
    auction: bool = True
    #: Weigh the drawn deals by the other seats' actions (:mod:`.inference`): the reader, or None.
    reader: "Reader | None" = None


def _deal_points(view: View, wins: np.ndarray, out: np.ndarray, stake: np.ndarray, memo: dict) -> np.ndarray:
    """This seat's points on one deal per candidate: its side wins by
    ``wins`` (the solver's or the playout's verdict), with the stake the
    playout came to (``stake``, see :func:`_playout_candidates`); a spring or
    anti-spring counts only where the playout's winner is the deal's."""
    pts = np.empty(len(wins), np.int64)
    for i in range(len(wins)):
        w = int(wins[i])
        same = w == int(out[i])
        key = (w, int(stake[i, 0]), int(stake[i, 1]) if same else 0, int(stake[i, 2]) if same else 0)
        v = memo.get(key)
        if v is None:
            v = memo[key] = view.deal_score(bool(key[0]), key[1], key[2], key[3])
        pts[i] = v
    return pts


def score_chunk(plan: Plan, start: int, count: int):
    """(wins[count, ncand], solved[count], draws, unfit, ties[count, ncand],
    points[count, ncand], weighing) for deals ``start ..`` (``weighing``:
    the :class:`~.inference.Weighing` of the pool they were kept from under
    inference, else None): ``wins`` 1/0 by the solver
    where it proves every candidate, else by a heuristic playout; ``points``
    this seat's score (:func:`_deal_points`); ``ties`` the playout values of
    the solved deals on which every candidate has the same value (when
    :data:`TIE_PLAYOUTS`), else 0."""
    view = plan.view
    solver, table, bufc, bufk = work = _take_work()
    try:
        if plan.reader is not None:
            deals, draws, unfit, weighing = infer_deals(view, start, count, plan.seed, plan.auction, table,
                                                        plan.reader)
        else:
            (deals, draws, unfit), weighing = draw_deals(view, start, count, plan.seed, plan.auction, table), None
        nc = len(plan.cands)
        wins = np.zeros((len(deals), nc), np.int64)
        ties = np.zeros((len(deals), nc), np.int64)
        points = np.zeros((len(deals), nc), np.int64)
        solved = np.zeros(len(deals), np.int64)
        prev_kind = view.last_play.kind if view.last_play is not None else 0
        prev_seat = view.seats.index(view.last_by) if view.last_by is not None else view.me
        spring0 = view.spring_start()
        any_player = 1 if view.rules.spring == "any-player" else 0
        out = np.zeros(nc, np.int64)
        stake = np.zeros((nc, 3), np.int64)
        memo: dict = {}
        solver.clear()
        for j, hands in enumerate(deals):
            values = None
            if plan.nodes > 0 and solver_scores(view) and sum(card_count(h) for h in hands) <= plan.exact_cards:
                values = _solve_deal(view, hands, plan.cands, solver, plan.nodes)
            if values is None and view.players == 2:
                raise ViewError("the two-player position was not solved within the node budget")
            if view.players > 2:
                _playout_candidates(np.array(hands, np.int64), 0, view.me, plan.cand_c, plan.cand_k, prev_kind,
                                    prev_seat, view.rules.flags, table, bufc, bufk, spring0, any_player, out, stake)
            if values is not None:
                wins[j] = values
                solved[j] = 1
                if TIE_PLAYOUTS and view.players > 2 and nc > 1 and min(values) == max(values):
                    ties[j] = out
            else:
                wins[j] = out
            points[j] = _deal_points(view, wins[j], out, stake, memo) if view.players > 2 else 2 * wins[j] - 1
    finally:
        _give_work(work)
    return wins, solved, draws, unfit, ties, points, weighing
