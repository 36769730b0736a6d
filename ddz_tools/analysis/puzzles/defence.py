"""The defence that resists longest, and the solution line of a puzzle.

**The measure.**  After a reply of the defending side, the *resistance* is
the winning side's shortest forced win in plies (passes count), as the solver
proves it: the winning side picks, among its winning plays (``solve(...,
all_plays=True)``), one that ends the game soonest, the defence any legal
play that makes it last longest:

    dtw(p) = 0                                   when the game is over
           = 1 + min(dtw(p + w), w winning)      winning side to move
           = 1 + max(dtw(p + r), r legal)        defending side to move

The defence answers with the reply of largest ``dtw``; ties go to the first
reply in the move generator's order, a pass after every play.  ``dtw`` is
counted over at most ``budget`` positions per choice (memoised within it);
a reply whose count passes the budget ranks above every reply measured in
full (it lasts at least that long), ties again to the first.  Values come
from the endgame solver only: the rules are the move generator's and the
solver's, never written again here.  ``dtw`` is found by deepening: whether
the winning side wins within ``d`` plies, for ``d`` = 0, 1, 2, ... (an OR over
its winning plays, an AND over the defence's replies, each position's bounds
memoised), which settles most positions without visiting every line.
"""

from __future__ import annotations

from ...core.errors import SearchLimit
from ...core.rules import Play
from ...engines.position import Position
from ...engines.solver import Solver
from ...moves.movegen import generate
from .format import Step, side_of

__all__ = ["Judge", "legal_moves"]


def legal_moves(position: Position) -> list:
    """The legal moves of the side to move in the move generator's order, a
    pass last when answering."""
    moves = list(generate(position.packed(position.to_move), after=position.last_play, rules=position.rules))
    if position.last_play is not None:
        moves.append(Play.pass_())
    return moves


def _key(p: Position) -> tuple:
    return p.hands, p.to_move, p.last_play, p.last_by


class Judge:
    """The solver's answers about positions of one rule set, cached: the
    winning plays of a position (:meth:`winning`), the value of a play
    (:meth:`wins_with`), the defence (:meth:`defence`) and the solution line
    (:meth:`line`).  ``node_limit`` bounds each solve (past it :class:`~ddz_tools.core.errors.SearchLimit`);
    ``budget`` the positions one defence choice may count."""

    def __init__(self, node_limit: int = 20_000, budget: int = 1000, tt_mb: float = 64):
        self.solver = Solver(tt_mb=tt_mb)
        self.node_limit = node_limit
        self.budget = budget
        self._wins: dict = {}
        self.nodes = 0

    def clear(self) -> None:
        """Forget every cached answer (between games: memory stays bounded)."""
        self._wins.clear()
        self.solver.clear()

    def _solve(self, p: Position, all_plays: bool):
        r = self.solver.solve(p, all_plays=all_plays, line=False, node_limit=self.node_limit)
        self.nodes += r.nodes
        if r.result == "unknown" or (all_plays and not r.all_plays):
            raise SearchLimit("puzzle budget")
        return r

    def value(self, p: Position) -> bool:
        """Whether the side to move wins (one winning play searched)."""
        k = _key(p)
        if k in self._wins:
            return bool(self._wins[k])
        return self._solve(p, False).result == "win"

    def winning(self, p: Position) -> list:
        """Every winning play of the side to move, as :class:`Play`, in the solver's order."""
        k = _key(p)
        w = self._wins.get(k)
        if w is None:
            r = self._solve(p, True)
            w = self._wins[k] = [Play.parse(t, p.rules) for t in r.winning_plays]
        return w

    def wins_with(self, p: Position, play: Play) -> bool:
        """Whether ``play`` wins for the side to move at ``p``."""
        q = p.push(play)
        if q.is_over:
            return True
        same = side_of(q) == side_of(p)
        return self.value(q) == same

    # The defence ------------------------------------------------------------------------

    def _within(self, p: Position, side: str, d: int, memo: dict, count: list) -> bool:
        """Whether the winning side wins from ``p`` within ``d`` plies; ``memo``
        keeps per position the largest ``d`` proven too few and the smallest
        proven enough."""
        if p.is_over:
            return True
        if d <= 0:
            return False
        k = _key(p)
        few, enough = memo.get(k, (0, None))
        if d <= few:
            return False
        if enough is not None and d >= enough:
            return True
        count[0] += 1
        if count[0] > self.budget:
            raise SearchLimit("puzzle budget")
        if side_of(p) == side:
            ok = any(self._within(p.push(w), side, d - 1, memo, count) for w in self.winning(p))
        else:
            ok = all(self._within(p.push(r), side, d - 1, memo, count) for r in legal_moves(p))
        few, enough = memo.get(k, (0, None))
        memo[k] = (few, d if enough is None else min(enough, d)) if ok else (max(few, d), enough)
        return ok

    def _dtw(self, p: Position, side: str, memo: dict, count: list) -> int:
        """The winning side's shortest forced win from ``p`` in plies (see the
        module), by deepening: the first ``d`` it wins within."""
        d = 0
        while not self._within(p, side, d, memo, count):
            d += 1
        return d

    def defence(self, p: Position, side: str) -> tuple:
        """The defending side's reply at ``p`` that resists longest (see the
        module's measure) and its resistance: ``(Play, dtw or None)``, None
        when its count passed the budget."""
        memo: dict = {}
        best, best_d = None, -1
        for r in legal_moves(p):
            try:
                d = self._dtw(p.push(r), side, memo, [0])
            except SearchLimit:
                return r, None
            if d > best_d:
                best, best_d = r, d
        return best, best_d

    def line(self, p: Position, first: Play) -> tuple:
        """The solution from ``p`` whose winning side's only winning play is
        ``first``: ``(steps, accepted)``.  The winning side's steps are its
        only winning play (``solve``) or its only legal move (``forced``);
        the defence answers by :meth:`defence` (``forced`` when it has one
        move).  The line ends with the game, or before a turn of the winning
        side where several plays win (``accepted`` lists them)."""
        side = side_of(p)
        steps = [Step(p.to_move, first.notation(p.rules), "solve")]
        q = p.push(first)
        while not q.is_over:
            moves = legal_moves(q)
            if side_of(q) == side:
                if len(moves) == 1:
                    mv, role = moves[0], "forced"
                else:
                    w = self.winning(q)
                    if len(w) != 1:
                        return steps, tuple(x.notation(q.rules) for x in w)
                    mv, role = w[0], "solve"
            elif len(moves) == 1:
                mv, role = moves[0], "forced"
            else:
                mv, role = self.defence(q, side)[0], "defence"
            steps.append(Step(q.to_move, mv.notation(q.rules), role))
            q = q.push(mv)
        return steps, ()
