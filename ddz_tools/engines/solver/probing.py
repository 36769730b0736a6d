"""Probing a position's moves in rounds, and workers sharing a root:
:class:`Prober`.

On top of an :class:`~.engine.Engine`'s exact values, :meth:`Prober._best`
finds a winning move: a plain search first, then the moves (and the
relaxations, farmers set aside) probed in rounds of growing node caps, so
that a cheap win further down the search order is found before an
expensive one; with ``depth`` a probe is itself such a search of the
replies.  With several workers (threads, each with its own table) the
rounds, or the root's moves, are shared between them (:class:`Team`,
:meth:`Prober._probe_shared`, :meth:`Prober._root_parallel`), and the move
taken is the one a single worker would have proven first.
"""

from __future__ import annotations

import threading

from ...core._jit import interpreted
from ...core.errors import SearchLimit
from .engine import Engine, State, notation, team_of
from .layout import C_NODES, DEFAULT_TT_MB, PROBE_DEPTH, PROBE_GROWTH, PROBE_MIN, PROBE_NODES, PROBE_POWER, SPLIT_AFTER
from .relax import relax_aside, relax_code

__all__ = ["Prober", "Team"]

#: The settings of a worker its helpers take from it before they search (see
#: :meth:`Prober._configure_helpers`): the search's switches and budgets.
SHARED_SETTINGS = ("relax_budget", "relax_mode", "probe_relaxations", "dominance", "cover", "threat", "solo_count",
                   "threat_ahead", "out_now", "known_lost", "probe_nodes", "probe_depth")

_py_relax_code = interpreted(relax_code)
_py_relax_aside = interpreted(relax_aside)


def _probe_cap(i: int, cap: int, alone: bool):
    """The node cap of the move at place ``i`` in a round of :meth:`Prober._best`
    whose first move may search ``cap`` nodes (None: the last move left, no cap)."""
    return None if alone else max(PROBE_MIN, cap // (i + 1) ** PROBE_POWER)


class Team:
    """Workers solving or probing the root moves of one position in parallel
    (each with its own table: they share nothing but this bookkeeping)."""

    def __init__(self, engines, node_limit):
        self.engines = engines
        self.node_limit = node_limit
        self.lock = threading.Lock()
        self.next = 0
        self.best = None      # lowest index (probing: (round, place)) of a winning move found so far
        self.stop = None      # a limit or an interrupt ended the work
        self.values = {}      # move index -> 1 (wins) / 0 (loses)
        self.busy = {}        # engine id -> index it is solving
        self.by = None        # the worker that proved the winning move (probing)

        self.reserved = 0     # nodes handed out to the workers' slices (node limit)

    def reserve(self, want: int) -> int:
        """Nodes a worker may search in its next slice (0: the node limit is spent)."""
        with self.lock:
            got = max(0, min(want, self.node_limit - self.reserved))
            self.reserved += got
            return got

    def release(self, unused: int) -> None:
        with self.lock:
            self.reserved -= max(0, unused)

    def attempt(self, fn) -> tuple:
        """(True, ``fn()``) for a worker, or (False, None) when a limit, a
        call-off or an interrupt ended it (a limit or an interrupt becomes
        ``stop``; an interrupt is raised again)."""
        try:
            return True, fn()
        except SearchLimit as exc:
            with self.lock:
                if exc.reason != "cancelled" and self.stop is None:
                    self.stop = exc.reason
            return False, None
        except BaseException:
            with self.lock:
                self.stop = "interrupted"
            raise

    def cancelled(self, engine) -> bool:
        if self.stop is not None:
            return True
        i = self.busy.get(id(engine))
        return self.best is not None and i is not None and i > self.best



class Prober(Engine):
    """An :class:`~.engine.Engine` that finds winning moves by probing them
    in rounds (:meth:`_best`), alone or with its helpers as a :class:`Team`."""

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, workers: int = 1):
        super().__init__(tt_mb, workers)
        #: Nodes of the plain search before a position's moves are probed in
        #: rounds; see :meth:`_best`.
        self.probe_nodes = PROBE_NODES
        #: Levels of probing (0: the root's moves only; 1: and their replies).
        self.probe_depth = PROBE_DEPTH
        #: Nodes one worker searches at the root before the others join its
        #: rounds (most positions need fewer, and threads cost more than
        #: they give there).
        self.split_after = SPLIT_AFTER
        #: Whether a probed node's relaxations are probed beside its moves
        #: (see :meth:`_rounds`).
        self.probe_relaxations = True
        #: Probed nodes settled by a relaxation so far (a count, for tests and benchmarks).
        self.relax_refuted = 0

    def _capped(self, fn, cap):
        """``fn()`` with at most ``cap`` more nodes (None: no cap of its own);
        None when that cap, not a limit of the solve or an outer cap, stops it."""
        if cap is None:
            return fn()
        own = self._node_limit
        lim = int(self.ctl[C_NODES]) + cap
        self._node_limit = lim if own is None else min(own, lim)
        try:
            return fn()
        except SearchLimit as exc:
            if exc.reason == "node limit" and not exc.shared and (own is None or lim < own):
                return None
            raise
        finally:
            self._node_limit = own

    def _best(self, st: State, nplayers: int, flags: int, depth: "int | None" = None, team=None,
              lost: "list | None" = None, need_move: bool = True):
        """(value, a winning move or None, the worker that proved it) for the
        team to move at ``st``.

        A plain search first, capped at :attr:`probe_nodes`: a loss ends it.
        Otherwise the moves are probed in rounds: in round r (from 1) the
        move at place i of the search order (from 0) may search
        ``probe_nodes * 4**r / (i+1)**3`` nodes (at least 1,000); a move
        proven either way drops out, the last move left is searched without
        a cap, and the winning move is the lowest in search order proven in
        the first round that proves one (all proven lost: a loss).  A move
        the ordering ranks first gets most of each round, but a cheap win
        further down is found before an expensive one.  Every probe is an
        exact search under a node cap, so the value is exact; the winning
        move found may depend on what the table holds (its size, the
        worker).  With ``depth`` > 0 a probe of a move is itself a
        :meth:`_best` of the position after it (its replies probed in
        rounds).  ``team``: the workers that share the rounds once
        :attr:`split_after` nodes are searched (at the root only; see
        :meth:`_probe_shared`).  ``lost``: a list that gets (place, move)
        of each move proven lost by the probing.  Beside its moves, a
        landlord's node probes its relaxations, and so does a farmer's
        node when ``need_move`` is False (see :meth:`_relaxations`): a
        farmers' win in one settles the node without a winning move.
        Three and four players alike (a farmer's team wins together)."""
        if nplayers == 2:
            return self._first_win(st, nplayers, flags, team, lost)
        if depth is None:
            depth = self.probe_depth
        start = int(self.ctl[C_NODES])
        v = self._capped(lambda: self._value(st, nplayers, flags), self.probe_nodes)
        if v == 0:
            return 0, None, self
        moves = self._moves(st, nplayers, flags, best=True)
        relax = self._relaxations(st, need_move)
        how, got = self._rounds(st, moves, list(range(len(moves))), 0, self.probe_nodes, nplayers, flags, depth,
                                pause_at=None if team is None else start + self.split_after, lost=lost,
                                relax=relax)
        if how == "paused":
            return self._probe_shared(st, moves, *got, nplayers, flags, depth, team, v, lost, relax)
        if how == "refuted":
            return (0 if st.turn == 0 else 1), None, self
        if how == "win":
            return 1, moves[got[1]], self
        if v == 1:
            raise AssertionError("won without a winning move")
        return 0, None, self

    def _relaxations(self, st: State, need_move: bool = True) -> list:
        """The relaxed positions probed beside the moves of ``st`` in the
        rounds of :meth:`_best` (see :meth:`_rounds`), each ``st`` with some
        farmers' hands set aside (they pass throughout): the relaxations the
        search kernel would try or look up at that node (see
        :func:`relax.relax_code`; at a farmer's node only when no winning
        move is needed, ``need_move`` False: a reply probed, not the root).
        A farmers' win in one is a farmers' win at ``st``.  Empty when
        relaxations are off."""
        h = st.hands
        n = len(h)
        if (not self.probe_relaxations or self.relax_budget <= 0 or n < 3 or 0 in h
                or (st.turn != 0 and need_move)):
            return []
        out = []
        while True:
            code = _py_relax_code(len(out), st.turn, st.pk, st.lb, n, self.relax_mode)
            if code < 0:
                return out
            hands = list(h)
            for q in _py_relax_aside(code, n):
                hands[q] = 0
            out.append(State(tuple(hands), st.turn, st.pk, st.lb, st.cards))

    def _rounds(self, st, moves, mine, rnd, cap, nplayers, flags, depth, team=None, pause_at=None, lost=None,
                relax=None):
        """Probe the moves at places ``mine`` of ``moves`` in the rounds of
        :meth:`_best` that follow round ``rnd`` (whose first move's cap was
        ``cap``), with this worker's table.

        Each round first probes the relaxed positions ``relax`` (see
        :meth:`_relaxations`; the list keeps those still open) with the
        round's first cap: one the farmers win settles the node, with
        ("refuted", None).
        Returns ("win", (round, place)) for the first win, ("lost", None)
        when every move is proven lost, ("paused", (mine, rnd, cap)) when
        this worker's nodes have reached ``pause_at`` before a round, or
        ("stopped", None) when ``team`` (see :meth:`_probe_shared`) calls
        it off: a limit, an interrupt, or a probe after a win found.  Each
        move proven lost goes to ``lost`` (when given) as (place, move)."""
        while mine:
            if pause_at is not None and int(self.ctl[C_NODES]) >= pause_at:
                return "paused", (mine, rnd, cap)
            rnd += 1
            cap *= PROBE_GROWTH
            if relax:
                # A relaxation the farmers win proves the node lost; one the
                # landlord wins says nothing more.  Each gets the round's
                # first cap.
                left = []
                for rst in relax:
                    # Ordered before the round's moves: (rnd, -1).
                    ok, res = self._probe_at(team, (rnd, -1), lambda: self._capped(
                        lambda: self._value(rst, nplayers, flags), cap))
                    if not ok:
                        return "stopped", None
                    if res == (0 if st.turn == 0 else 1):
                        self.relax_refuted += 1
                        if team is not None:
                            with team.lock:
                                if team.stop is None:
                                    team.stop, team.by = "refuted", self
                        return "refuted", None
                    if res is None:
                        left.append(rst)
                relax[:] = left
            alone = len(mine) == 1 and not relax
            still = []
            for i in mine:
                ok, res = self._probe_at(team, (rnd, i), lambda: self._capped(
                    lambda: self._probe(st, moves[i], nplayers, flags, depth), _probe_cap(i, cap, alone)))
                if not ok:
                    return "stopped", None
                if res is None:
                    still.append(i)
                elif res:
                    return "win", (rnd, i)
                elif lost is not None:
                    lost.append((i, moves[i]))
            mine = still
        return "lost", None

    def _probe_at(self, team, at, fn) -> tuple:
        """(True, ``fn()``) for a probe of :meth:`_rounds` at ``at`` (round,
        place), or (False, None) when ``team`` stops it: before it starts (a
        limit, or a win found before ``at``) or while it runs (see
        :meth:`Team.attempt`).  Without a team, ``fn()`` is run as it is."""
        if team is None:
            return True, fn()
        with team.lock:
            if team.stop is not None or (team.best is not None and at > team.best):
                return False, None
            team.busy[id(self)] = at
        try:
            return team.attempt(fn)
        finally:
            with team.lock:
                team.busy.pop(id(self), None)

    def _first_win(self, st: State, nplayers: int, flags: int, team=None, lost=None):
        """:meth:`_best` without probing: the value, then the first winning
        move in search order (for two players, whose move ordering is right
        far more often: at the root of 16 deals of 17 v 17 the first play
        searched wins in 11 of the 12 wins).  With ``team``, past
        :attr:`split_after` nodes the root's moves are solved on every worker
        (see :meth:`_root_parallel`)."""
        if team is not None:
            own = self._node_limit
            v = self._capped(lambda: self._value(st, nplayers, flags), self.split_after)
            if v is None:
                limit = None if own is None else own - int(self.ctl[C_NODES])
                result, _, first, eng = self._root_parallel(st, nplayers, flags, False, limit, lost)
                return (1, first, eng) if result == "win" else (0, None, eng)
        else:
            v = self._value(st, nplayers, flags)
        if not v:
            return 0, None, self
        for i, mv in enumerate(self._moves(st, nplayers, flags, best=True)):
            if self._move_value(st, mv, nplayers, flags):
                return 1, mv, self
            if lost is not None:
                lost.append((i, mv))
        raise AssertionError("won without a winning move")

    def _probe(self, st: State, move: tuple, nplayers: int, flags: int, depth: int) -> int:
        """1 if ``move`` wins for the team to move at ``st`` (see :meth:`_best`)."""
        if depth <= 0:
            return self._move_value(st, move, nplayers, flags)
        child = self._child(st, move, nplayers)
        if child is None:
            return 1
        v = self._best(child, nplayers, flags, depth - 1, need_move=False)[0]
        return v if team_of(child.turn, nplayers) == team_of(st.turn, nplayers) else 1 - v

    def _probe_shared(self, st, moves, open_, rnd, cap, nplayers, flags, depth, team, v, lost=None, relax=None):
        """The rest of :meth:`_best`'s rounds on every worker of ``team``:
        the move at place i goes to worker i mod n (the first move to this
        one), which runs the rounds on its own moves and its own table,
        without waiting for the others (:meth:`_rounds`).  The winning move
        taken is the first in the order of (round, place) that one worker
        would have proven: a worker stops before a probe that comes after a
        win found, and one on such a probe is called off, but every probe
        before it runs to its end."""
        if self._node_limit is not None:
            # The solve's node limit becomes the workers' to share.
            team.node_limit = max(0, self._node_limit - int(self.ctl[C_NODES]))
        self._configure_helpers()
        for e in team.engines:
            e._node_limit = None
            e._team = team
        team.best, team.stop, team.by, team.busy = None, None, None, {}
        n = len(team.engines)

        def work(k, engine):
            how, got = engine._rounds(st, moves, [i for i in open_ if i % n == k], rnd, cap, nplayers, flags,
                                      depth, team=team, lost=lost, relax=relax if k == 0 else None)
            if how == "win":
                with team.lock:
                    if team.best is None or got < team.best:
                        team.best, team.by = got, engine

        threads = [threading.Thread(target=work, args=(k, e), daemon=True)
                   for k, e in enumerate(team.engines) if k > 0]
        for th in threads:
            th.start()
        try:
            work(0, self)
        finally:
            for th in threads:
                th.join()
            # How far the other workers got depends on the threads' timing:
            # forget what they stored, so that later solves with this Solver
            # give the same answers whatever the timing was.  (Without a win
            # or a stop, every worker ran all its probes: nothing to forget.)
            if team.best is not None or team.stop is not None:
                # The tables as the search left them, for the solve's report.
                self._end_tables = self._tables_now()
                for e in team.engines:
                    if e is not team.by:
                        e._forget()
        if team.stop == "refuted":
            # Settled by a relaxation (this worker's): the line that follows
            # must not be called off.
            team.stop = None
            return (0 if st.turn == 0 else 1), None, self
        if team.stop is not None:
            raise SearchLimit(team.stop)
        if team.best is not None:
            return 1, moves[team.best[1]], team.by
        if v == 1:
            raise AssertionError("won without a winning move")
        return 0, None, self

    def _root_parallel(self, root: State, nplayers: int, flags: int, all_plays: bool, node_limit, lost=None):
        """Solve the root's moves in search order on every worker.

        Returns (result, winning plays, the first of them or None, the worker
        that solved it, or on a loss the one that solved the first move).  The winning plays are every winning move
        (``all_plays``) or the first in search order, exactly as one worker
        finds them: a worker never starts a move after a known win, and a
        worker on a move after a win is called off.  Each move proven lost
        goes to ``lost`` (when given) as (place, move) as soon as it is
        proven (a progress report counts them; see :meth:`_watch`).
        """
        moves = self._moves(root, nplayers, flags, best=not all_plays)
        engines = [self] + self._helpers
        self._configure_helpers()
        team = Team(engines, node_limit)
        solved_by = {}

        def work(engine):
            engine._team = team
            while True:
                with team.lock:
                    i = team.next
                    if team.stop is not None or i >= len(moves) or (not all_plays and team.best is not None):
                        return
                    team.next += 1
                    team.busy[id(engine)] = i
                ok, v = team.attempt(lambda: engine._move_value(root, moves[i], nplayers, flags))
                if not ok:
                    if team.stop is None:  # called off: a win came before this move
                        continue
                    return
                with team.lock:
                    team.values[i] = v
                    solved_by[i] = engine
                    if not v and lost is not None:
                        lost.append((i, moves[i]))
                    if v and not all_plays and (team.best is None or i < team.best):
                        team.best = i

        threads = [threading.Thread(target=work, args=(e,), daemon=True) for e in self._helpers]
        for t in threads:
            t.start()
        try:
            work(self)
        finally:
            for t in threads:
                t.join()
            for e in engines:
                e._team = None
        vals = team.values
        if team.stop is not None:
            # Proven so far: winning moves whose earlier moves are all known.
            proven = []
            for i in range(len(moves)):
                if i not in vals:
                    break
                if vals[i]:
                    proven.append(notation(moves[i], flags))
                    if not all_plays:
                        break
            exc = SearchLimit(team.stop)
            exc.proven = proven
            raise exc
        wins = [i for i in range(len(moves)) if vals.get(i)]
        if not all_plays:
            wins = wins[:1]
        if wins:
            return "win", [notation(moves[i], flags) for i in wins], moves[wins[0]], solved_by[wins[0]]
        return "loss", [], None, solved_by.get(0, self)

    def _configure_helpers(self) -> None:
        """Give every helper this worker's switches and budgets (:data:`SHARED_SETTINGS`)."""
        for h in self._helpers:
            for name in SHARED_SETTINGS:
                setattr(h, name, getattr(self, name))

