"""The Python side of the search: :class:`Solver`.

A Solver owns the transposition table (it starts small and doubles when
half full, up to ``tt_mb``), the search kernel's frames and work arrays, and
runs the kernel in slices of about a tenth of a second, checking time and
node limits between them.  On top of the kernel's exact values it finds a
winning move (probing the moves in rounds, :meth:`Solver._best`), the
principal line and the strategy tree, and shares a root's moves between
worker threads (:class:`_Team`).
"""

from __future__ import annotations

import dataclasses
import threading
import time

import numpy as np

from ...core._jit import interpreted
from ..decompose import SEARCH_WORK, new_memo_table
from ...core.errors import ArgumentError, PositionError, SearchLimit
from ...core.gamerules import next_seat, trick_after
from ...core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS, F_FOUR, F_TOP_BOMB8, WILD_MASK
from ..position import Position
from ...core.rules import Play
from .layout import (BUCKET, C_COVER, C_DOMINANCE, C_EVICT, C_FILLED, C_GROW_AT, C_HITS, C_KNOWN, C_NODES, C_OUT,
                     C_RESULT, C_RET, C_RX_BUDGET, C_RX_D, C_RX_MODE, C_SIZE, C_SP, C_STORES, C_TASK, C_THREAT,
                     CWM_ROWS,
                     DEFAULT_TT_MB, ENTRY_BYTES, ENTRY_WORDS, FLAGS_LIMIT, MAX_DEPTH, MEMO_BITS, PASS_KIND, PH_NEW,
                     PROBE_DEPTH, PROBE_GROWTH, PROBE_MIN, PROBE_NODES, PROBE_POWER, PROF_PLAYS, PROF_ROWS, PROF_W,
                     RELAX_BUDGET, SPLIT_AFTER, ST_DONE, ST_GROW, ST_MEMO, ST_TABLE, START_BUCKETS, TASK_BEST_MOVES,
                     TASK_KEY, TASK_MOVES, TASK_SPLIT, Frames)
from .relax import RX_ALONE_PAIRS, relax_aside, relax_code
from .result import SolveResult
from .search import search_step

_py_next_seat = interpreted(next_seat)
_py_trick_after = interpreted(trick_after)


@dataclasses.dataclass(frozen=True)
class State:
    hands: tuple  # the packed hands in seat order (two, three or four; see Solver._set_root)
    turn: int
    pk: int       # kind of the play to answer, 0 for a lead
    lb: int       # seat that made it (0 when leading)
    cards: int    # cards of the play to answer (for display only)


def _probe_cap(i: int, cap: int, alone: bool):
    """The node cap of the move at place ``i`` in a round of :meth:`Solver._best`
    whose first move may search ``cap`` nodes (None: the last move left, no cap)."""
    return None if alone else max(PROBE_MIN, cap // (i + 1) ** PROBE_POWER)


class _Team:
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


class Solver:
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

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, workers: int = 1):
        if not (tt_mb > 0):
            raise ArgumentError(f"tt_mb must be positive, not {tt_mb!r}", param="tt_mb")
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ArgumentError(f"workers must be a positive integer, not {workers!r}", param="workers")
        self.workers = workers
        self._helpers = [Solver(tt_mb / workers) for _ in range(workers - 1)]
        tt_mb = tt_mb / workers
        entries = int(tt_mb * (1 << 20)) // ENTRY_BYTES
        nb = 1
        while nb * 2 * BUCKET <= entries:
            nb *= 2
        if nb * BUCKET > entries:
            raise ArgumentError(f"tt_mb={tt_mb} is too small for one bucket ({BUCKET * ENTRY_BYTES} bytes)",
                                param="tt_mb")
        #: Buckets the table may grow to (``tt_mb`` bounds it).
        self.max_buckets = nb
        self.ctl = np.zeros(C_SIZE, np.int64)
        # The table's memory: one zeroed array of tt_mb, whose pages the system
        # maps only when first written; the table is its first part, and
        # ``_dirty`` words from the start may hold entries of an earlier table.
        self._mem = np.zeros(self._table_words(nb), np.int64)
        self._dirty = 0
        self._new_table(min(nb, START_BUCKETS))
        # The search's stack (see layout.Frames).
        self._frames = Frames(*[np.zeros(MAX_DEPTH, np.int64) for _ in range(13)],
                              key=np.zeros((MAX_DEPTH, 4), np.int64))
        self._grow_moves(1 << 16)
        self.memo = new_memo_table(MEMO_BITS)
        self.dwork = np.empty(SEARCH_WORK, np.int64)
        self.sc = np.empty(1 << 15, np.int64)
        self.sk = np.empty(1 << 15, np.int64)
        # Answer profiles of hands (a pure function of hand and rules: never cleared).
        self.prof = np.zeros((PROF_ROWS, PROF_W), np.int64)
        self.pbuf = np.zeros((3, PROF_PLAYS), np.int64)
        # Control-win answers (a pure function of hands and rules: never cleared).
        self.cwm = np.zeros((CWM_ROWS, PROF_W), np.int64)
        # Limits of the current solve.
        self._deadline = None
        self._node_limit = None
        self._slice = 50_000
        self._team = None
        # Called between the search's slices during a solve given ``progress``.
        self._report = None
        # The tables as a solve's search left them, when it forgot some after.
        self._end_tables = None
        #: Nodes of the plain search before a position's moves are probed in
        #: rounds; see :meth:`_best`.
        self.probe_nodes = PROBE_NODES
        #: Levels of probing (0: the root's moves only; 1: and their replies).
        self.probe_depth = PROBE_DEPTH
        #: Nodes one worker searches at the root before the others join its
        #: rounds (most positions need fewer, and threads cost more than
        #: they give there).
        self.split_after = SPLIT_AFTER
        #: Nodes a relaxation (one farmer passing throughout) may search
        #: before it is given up; 0 switches relaxations off.
        self.relax_budget = RELAX_BUDGET
        #: Which relaxations a four-player node tries (see :mod:`.relax`):
        #: ``RX_ALONE`` (0) one farmer kept against the landlord,
        #: ``RX_PAIRS`` (1) one farmer set aside, or both in either order
        #: (2: ``RX_ALONE_PAIRS``, the default, 3: ``RX_PAIRS_ALONE``).
        self.relax_mode = RX_ALONE_PAIRS
        #: Whether a probed node's relaxations are probed beside its moves
        #: (see :meth:`_rounds`).
        self.probe_relaxations = True
        #: Probed nodes settled by a relaxation so far (a count, for tests and benchmarks).
        self.relax_refuted = 0
        #: Skip dominated plays (see :func:`ordering.dominated` and
        #: ``ordering._dominated_by_lower``); False searches them too (for
        #: tests and measurements).
        self.dominance = True
        #: Settle a three-player lead, or an answer to the other team's play,
        #: at once when the other team covers every play the team to move
        #: could make (see :func:`threats.covered`; real three-hand positions only,
        #: not two-player games or relaxations); False leaves the rule out.
        self.cover = True
        #: Whether a farmer's node is lost at once when neither farmer can go
        #: out without letting the landlord make one of his threats (see
        #: :func:`threats.threat_rule`); False leaves the rule out.
        self.threat = True
        #: Sharpen the threat rule when the landlord's threats are all solos
        #: (as when he holds one card) by counting farmer1's solos below them
        #: against farmer2's plays that beat those (see :func:`threats.threat_rule`);
        #: False leaves the count out.
        self.solo_count = True
        #: Apply the threat rule one ply ahead at the landlord's nodes: a move
        #: after which the farmer to move loses by the rule wins at once.
        self.threat_ahead = True
        #: Settle a move at its parent when another seat, to move after it,
        #: goes out at once (see :func:`search.plays_out`): no node for it; False
        #: leaves the rule out.
        self.out_now = True
        #: Leave out of a node's moves those whose child the cutoff probe
        #: finds stored as a loss for the mover (they would only be visited to
        #: read the table again); False searches them.
        self.known_lost = True
        # Load the search kernel now (from the disk cache, or compile it), so
        # that a solve's clock counts its search and not the loading: ordering
        # the plays of an empty hand is the cheapest call it answers.
        self._moves(State((0, 0, 0, 0), 0, 0, 0, 0), 2, 0)

    @property
    def tt_mb(self) -> float:
        """The cap on the tables' memory (MiB), every worker's together."""
        return self.workers * self.max_buckets * BUCKET * ENTRY_BYTES / (1 << 20)

    @property
    def tt_used_mb(self) -> float:
        """The tables' memory now (MiB): each doubles when half full, up to its share of :attr:`tt_mb`."""
        return sum(e.tt.nbytes for e in [self] + self._helpers) / (1 << 20)

    def _table_words(self, nb: int) -> int:
        return nb * BUCKET * ENTRY_WORDS

    def _use_table(self, nb: int, keep: int) -> None:
        """Make the first ``nb`` buckets of the table's memory the table,
        keeping its first ``keep`` words: the rest is zeroed only where an
        earlier, bigger table left entries, so a small search touches little."""
        words = self._table_words(nb)
        if self._dirty > keep:
            self._mem[keep:min(words, self._dirty)].fill(0)
        self._dirty = max(self._dirty, words)
        self.tt = self._mem[:words]
        self.nbuckets = nb

    def _new_table(self, nb: int) -> None:
        self._use_table(nb, 0)
        self.ctl[C_FILLED] = 0
        self._set_grow_at()

    def _set_grow_at(self) -> None:
        # Double the table when it is half full, until the cap; at the cap the
        # replacement scheme takes over (C_GROW_AT 0 = never stop to grow).
        self.ctl[C_GROW_AT] = self.nbuckets * BUCKET // 2 if self.nbuckets < self.max_buckets else 0

    def _grow_table(self) -> None:
        """Double the table in place (called between kernel slices: the search
        resumes exactly)."""
        nb = self.nbuckets
        self._use_table(2 * nb, self.tt.shape[0])
        self._task(TASK_SPLIT, np.zeros(3, np.int64), self.mc, self.mk, self.key)
        self._set_grow_at()

    def _step(self, hands: np.ndarray, nplayers: int, flags: int, budget: int, mc, mk, key) -> int:
        """One call of the search kernel with this solver's table, frames and
        work arrays and the move buffers given; returns its status."""
        return search_step(hands, nplayers, flags, self.tt, self.nbuckets, self.ctl, budget, tuple(self._frames),
                           mc, mk, key, self.ekey, self._work())

    def _work(self) -> tuple:
        """The work arrays as the search kernel takes them: a plain tuple in
        the order of :class:`layout.Work` (see :func:`search.search_step`)."""
        return self.memo, self.dwork, self.sc, self.sk, self.prof, self.pbuf, self.cwm

    def _set_root(self, st: State) -> np.ndarray:
        """Put ``st``'s turn and play to answer in the root frame; returns its
        hands as an array of four (the seats past the position's 0: the
        kernels read a hand past the number of players as none)."""
        f = self._frames
        f.turn[0] = st.turn
        f.pk[0] = st.pk
        f.lb[0] = st.lb
        return np.array(tuple(st.hands) + (0,) * (4 - len(st.hands)), np.int64)

    def _task(self, task: int, hands: np.ndarray, mc, mk, key, nplayers: int = 2, flags: int = 0) -> int:
        """Have the search kernel do ``task`` (see :func:`search.search_step`) on the
        root frame's position and these buffers; returns ``ctl[C_RESULT]``."""
        self.ctl[C_TASK] = task
        self._step(hands, nplayers, flags, 0, mc, mk, key)
        return int(self.ctl[C_RESULT])

    def _grow_moves(self, size: int) -> None:
        """(Re)allocate the move buffers, keeping their contents (a paused search uses them)."""
        for name in ("mc", "mk", "key", "ekey"):
            old = getattr(self, name, None)
            new = np.zeros((size, 5) if name == "ekey" else size, np.int64)
            if old is not None:
                new[:old.shape[0]] = old
            setattr(self, name, new)

    def _grow_dwork(self) -> None:
        """Double the decomposer's work array (a search asked for more: ST_MEMO)."""
        self.dwork = np.empty(2 * self.dwork.shape[0], np.int64)

    def clear(self) -> None:
        """Forget every stored position.  The table shrinks back to its first
        size; its memory stays mapped, and a later growth zeroes only what an
        earlier table used (no fresh pages to touch again)."""
        self._forget()
        for h in self._helpers:
            h.clear()

    def _forget(self) -> None:
        """Clear this worker's own table (not its helpers')."""
        self._new_table(min(self.max_buckets, START_BUCKETS))

    def _tables_now(self) -> tuple[int, int, float]:
        """(capacity, entries filled, MiB) of every worker's table together."""
        engines = [self] + self._helpers
        return (sum(e.nbuckets * BUCKET for e in engines), sum(int(e.ctl[C_FILLED]) for e in engines),
                self.tt_used_mb)

    def table_stats(self) -> dict:
        """The tables now, every worker's together: cap and memory (MiB),
        capacity and entries filled; hits, stores and evictions since the
        solver was made (:meth:`solve` reports its own)."""
        cap, filled, used = self._tables_now()
        return {"mb": round(self.tt_mb, 1), "used_mb": round(used, 3), "capacity": cap,
                "entries": filled, "fill": round(filled / cap, 6), "hits": int(self.ctl[C_HITS]),
                "stores": int(self.ctl[C_STORES]), "evictions": int(self.ctl[C_EVICT])}

    # One exact value ------------------------------------------------------------------

    def _value(self, st: State, nplayers: int, flags: int) -> int:
        """1 if the team to move at ``st`` wins, else 0; may raise SearchLimit."""
        if self._time_up():
            # Probes that end before their first pause check nothing else.
            raise SearchLimit("time limit")
        ctl = self.ctl
        hands = self._set_root(st)
        f = self._frames
        f.start[0] = 0
        f.phase[0] = PH_NEW
        f.key[0, 3] = -1
        ctl[C_SP] = 0
        ctl[C_RET] = -1
        ctl[C_RX_D] = -1
        ctl[C_RX_BUDGET] = self.relax_budget
        ctl[C_RX_MODE] = self.relax_mode
        ctl[C_DOMINANCE] = 1 if self.dominance else 0
        ctl[C_COVER] = 1 if self.cover else 0
        ctl[C_THREAT] = (1 | (2 if self.solo_count else 0) | (4 if self.threat_ahead else 0)) if self.threat else 0
        ctl[C_OUT] = 1 if self.out_now else 0
        ctl[C_KNOWN] = 1 if self.known_lost else 0
        while True:
            budget = int(ctl[C_NODES]) + self._slice
            team = self._team
            granted = 0
            if self._node_limit is not None:
                budget = min(budget, self._node_limit)
            if team is not None and team.node_limit is not None and budget > int(ctl[C_NODES]):
                granted = team.reserve(budget - int(ctl[C_NODES]))
                if granted == 0:
                    raise SearchLimit("node limit", shared=True)
                budget = int(ctl[C_NODES]) + granted
            before = int(ctl[C_NODES])
            t0 = time.perf_counter()
            try:
                status = self._step(hands, nplayers, flags, budget, self.mc, self.mk, self.key)
            finally:
                if granted:
                    team.release(granted - (int(ctl[C_NODES]) - before))
            if status == ST_DONE:
                if self._report is not None:
                    self._report()
                return int(ctl[C_RESULT])
            if status == ST_TABLE:
                self._grow_table()
                continue
            if status == ST_MEMO:
                self._grow_dwork()
                continue
            if status == ST_GROW:
                need = int(ctl[C_RESULT])
                if need < 0:
                    raise RuntimeError("search deeper than the solver's stack (corrupt position?)")
                self._grow_moves(max(need + 1024, 2 * self.mc.shape[0]))
                continue
            # Paused: check the limits and size the next slice to about 0.1 s.
            dt = time.perf_counter() - t0
            if self._report is not None:
                self._report()
            self._check_limits()
            if dt < 0.05:
                self._slice = min(self._slice * 2, 10_000_000)
            elif dt > 0.2:
                self._slice = max(self._slice // 2, 1000)

    def _time_up(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    def _check_limits(self) -> None:
        """Raise SearchLimit when a worker is called off, or past the time or node limit.

        The time limit is checked before the node limits: a probe's node cap
        (see :meth:`_capped`) is a node limit too, and a search whose pauses all
        fall on probes' caps must still stop at its time limit."""
        team = self._team
        if team is not None and team.cancelled(self):
            raise SearchLimit("cancelled")
        if self._time_up():
            raise SearchLimit("time limit")
        if team is not None and team.node_limit is not None and team.reserved >= team.node_limit:
            raise SearchLimit("node limit", shared=True)
        if self._node_limit is not None and self.ctl[C_NODES] >= self._node_limit:
            raise SearchLimit("node limit")

    # Moves in Python -------------------------------------------------------------------

    def _moves(self, st: State, nplayers: int, flags: int, best: bool = False) -> list:
        """(cards, kind) of every move at ``st`` in search order; pass is (0, -1).

        ``best``: only the moves that may be needed to find a winning one,
        without the dominated ones (as the search leaves them out, when
        :attr:`dominance` is on; see :func:`ordering.drop_dominated`): a dominated move wins
        only if the move dominating it does, so a node is lost when every
        move left is, and the first winning move left is a winning move.
        Not for every winning move (``all_plays``) or every defence."""
        hands = self._set_root(st)
        self.ctl[C_DOMINANCE] = 1 if self.dominance else 0
        size = 4096
        while True:
            mc = np.empty(size, np.int64)
            mk = np.empty(size, np.int64)
            key = np.empty(size, np.int64)
            n = self._task(TASK_BEST_MOVES if best else TASK_MOVES, hands, mc, mk, key, nplayers, flags)
            if n >= 0:
                break
            if n == -1:
                self._grow_dwork()
            else:
                size = -n + 16
        order = (key[:n] & 0xFFFF).tolist()
        return [(int(mc[i]), int(mk[i])) for i in order]

    def _key(self, st: State, nplayers: int, flags: int) -> tuple:
        """The table key the search stores ``st`` under (four ints; see
        :func:`key.hands_key`), as the search kernel works it out."""
        hands = self._set_root(st)
        mc = np.zeros(4, np.int64)
        self._task(TASK_KEY, hands, mc, mc, mc, nplayers, flags)
        return tuple(int(w) for w in mc)

    @staticmethod
    def _child(st: State, move: tuple, nplayers: int) -> "State | None":
        """The state after ``move``, or None when it empties the mover's hand."""
        c, k = move
        nxt = _py_next_seat(st.turn, nplayers)
        if k == PASS_KIND:
            pk, lb = _py_trick_after(k, st.turn, st.pk, st.lb, nplayers)
            return State(st.hands, nxt, pk, lb, st.cards if pk else 0)
        hands = list(st.hands)
        hands[st.turn] -= c
        if hands[st.turn] == 0:
            return None
        return State(tuple(hands), nxt, k, st.turn, c)

    def _move_value(self, st: State, move: tuple, nplayers: int, flags: int) -> int:
        """1 if ``move`` wins for the team to move at ``st``."""
        child = self._child(st, move, nplayers)
        if child is None:
            return 1
        v = self._value(child, nplayers, flags)
        same = _team_py(child.turn, nplayers) == _team_py(st.turn, nplayers)
        return v if same else 1 - v

    # Probing ---------------------------------------------------------------------------

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
            code = interpreted(relax_code)(len(out), st.turn, st.pk, st.lb, n, self.relax_mode)
            if code < 0:
                return out
            hands = list(h)
            for q in interpreted(relax_aside)(code, n):
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
        :meth:`_Team.attempt`).  Without a team, ``fn()`` is run as it is."""
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
        return v if _team_py(child.turn, nplayers) == _team_py(st.turn, nplayers) else 1 - v

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

    # Public entry --------------------------------------------------------------------

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
                        winning.append(_notation(mv, flags))
                        first = first or mv
                    else:
                        lost.append((i, mv))
                result = "win" if winning else "loss"
            else:
                team = _Team(engines, None) if self._helpers else None
                v, first, eng = self._best(root, nplayers, flags, team=team, lost=lost)
                result = "win" if v else "loss"
                if v:
                    winning.append(_notation(first, flags))
            if line:
                lead = first
                if lead is None:
                    # A loss: the line starts with the loser's first play in
                    # search order, from the table of the worker that refuted it.
                    lead = self._moves(root, nplayers, flags)[0]
                line_plays, line_by = eng._line(root, nplayers, flags, seats, lead)
            if strategy:
                budget = [strategy_max_nodes]
                tree = eng._tree(root, nplayers, flags, seats, budget, first)
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
            lost_plays = [_notation(mv, flags) for _, mv in sorted(lost, key=lambda t: t[0])]
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
        team = _Team(engines, node_limit)
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
                    proven.append(_notation(moves[i], flags))
                    if not all_plays:
                        break
            exc = SearchLimit(team.stop)
            exc.proven = proven
            raise exc
        wins = [i for i in range(len(moves)) if vals.get(i)]
        if not all_plays:
            wins = wins[:1]
        if wins:
            return "win", [_notation(moves[i], flags) for i in wins], moves[wins[0]], solved_by[wins[0]]
        return "loss", [], None, solved_by.get(0, self)

    def _configure_helpers(self) -> None:
        for h in self._helpers:
            h.relax_budget = self.relax_budget
            h.relax_mode = self.relax_mode
            h.probe_relaxations = self.probe_relaxations
            h.dominance = self.dominance
            h.cover = self.cover
            h.threat = self.threat
            h.solo_count = self.solo_count
            h.threat_ahead = self.threat_ahead
            h.out_now = self.out_now
            h.known_lost = self.known_lost
            h.probe_nodes = self.probe_nodes
            h.probe_depth = self.probe_depth

    def _line(self, root: State, nplayers: int, flags: int, seats, first=None) -> tuple[list, list]:
        """Principal line: at each turn the winner's winning play found by
        :meth:`_best` (``first`` at the root when given), the loser's first
        play in search order."""
        plays, by = [], []
        st = root
        for step in range(400):
            if step == 0 and first is not None:
                chosen = first
            else:
                v, chosen, _ = self._best(st, nplayers, flags)
                if not v:
                    chosen = self._moves(st, nplayers, flags)[0]
            plays.append(_notation(chosen, flags))
            by.append(seats[st.turn])
            st = self._child(st, chosen, nplayers)
            if st is None:
                break
        return plays, by

    def _tree(self, st: State, nplayers: int, flags: int, seats, budget: list, first=None) -> dict:
        """The winning strategy of the team to move at the root (or of the
        other team if the root is lost): one winning play for the winner
        (``first`` at the root when given), every legal play for the loser."""
        won = first is not None or self._best(st, nplayers, flags)[0]
        winner_team = _team_py(st.turn, nplayers) if won else 1 - _team_py(st.turn, nplayers)
        return self._subtree(st, nplayers, flags, seats, budget, winner_team, first)

    def _subtree(self, st, nplayers, flags, seats, budget, winner_team, first=None) -> dict:
        budget[0] -= 1
        if budget[0] < 0:
            raise ArgumentError("the strategy tree is larger than the node cap; raise strategy_max_nodes",
                                param="strategy_max_nodes")
        seat = seats[st.turn]
        if _team_py(st.turn, nplayers) == winner_team:
            mv = first if first is not None else self._best(st, nplayers, flags)[1]
            if mv is None:
                raise AssertionError("winning side without a winning play")
            child = self._child(st, mv, nplayers)
            node = {"by": seat, "play": _notation(mv, flags)}
            node["then"] = None if child is None else self._subtree(child, nplayers, flags, seats, budget, winner_team)
            return node
        replies = {}
        for mv in self._moves(st, nplayers, flags):
            child = self._child(st, mv, nplayers)
            replies[_notation(mv, flags)] = None if child is None else self._subtree(child, nplayers, flags, seats, budget, winner_team)
        return {"by": seat, "replies": replies}


def _team_py(seat: int, nplayers: int) -> int:
    return seat if nplayers == 2 else (0 if seat == 0 else 1)


def _notation(move: tuple, flags: int = 0) -> str:
    """A move's text: ``pass``, or the play's notation (under wild ranks with
    what its laizi stand for, ``34569=34567``, as :meth:`Play.parse` reads it
    back)."""
    c, k = move
    if k == PASS_KIND:
        return "pass"
    return Play(c, k).notation(flags if flags & WILD_MASK else None)
