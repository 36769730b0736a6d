"""One worker of the search, on the Python side: :class:`Engine`.

An Engine owns a transposition table (it starts small and doubles when half
full, up to ``tt_mb``), the search kernel's frames and work arrays, and runs
the kernel in slices of about a tenth of a second, checking time and node
limits between them (:meth:`Engine._value`: the exact value of one
position).  It also lists a position's moves in search order and the
position after a move (:class:`State`), which the probing
(:mod:`.probing`), the principal line and the strategy tree (:mod:`.lines`)
and the :class:`~.driver.Solver` build on.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from ...core._jit import interpreted
from ..decompose import SEARCH_WORK, new_memo_table
from ...core.errors import ArgumentError, SearchLimit
from ...core.gamerules import next_seat, trick_after
from ...core.kinds import WILD_MASK
from ...core.rules import Play
from .key import team
from .layout import (BUCKET, C_COVER, C_DOMINANCE, C_EVICT, C_FILLED, C_GROW_AT, C_HITS, C_KNOWN, C_NODES, C_OUT,
                     C_RESULT, C_RET, C_RX_BUDGET, C_RX_D, C_RX_MODE, C_SIZE, C_SP, C_STORES, C_TASK, C_THREAT,
                     CWM_ROWS, DEFAULT_TT_MB, ENTRY_BYTES, ENTRY_WORDS, MAX_DEPTH, MEMO_BITS, PASS_KIND, PH_NEW,
                     PROF_PLAYS, PROF_ROWS, PROF_W, RELAX_BUDGET, ST_DONE, ST_GROW, ST_MEMO, ST_TABLE, START_BUCKETS,
                     TASK_BEST_MOVES, TASK_KEY, TASK_MOVES, TASK_SPLIT, Frames)
from .relax import RX_ALONE_PAIRS
from .search import search_step

__all__ = ["Engine", "State", "notation", "team_of"]

_py_next_seat = interpreted(next_seat)
_py_trick_after = interpreted(trick_after)
#: The team of a seat (:func:`key.team`, interpreted): two players are two
#: teams, else the landlord (seat 0) against the farmers.
team_of = interpreted(team)


@dataclasses.dataclass(frozen=True)
class State:
    hands: tuple  # the packed hands in seat order (two, three or four; see Engine._set_root)
    turn: int
    pk: int       # kind of the play to answer, 0 for a lead
    lb: int       # seat that made it (0 when leading)
    cards: int    # cards of the play to answer (for display only)


class Engine:
    """One worker: a transposition table, the search kernel's frames and
    work arrays, the limits of the current solve, and the search's switches
    (each a rule the kernel may leave out, for tests and measurements).
    ``tt_mb`` bounds the table's memory (MiB) of every worker together;
    ``workers`` - 1 helpers (engines of the same class) are made with their
    share of it."""

    def __init__(self, tt_mb: float = DEFAULT_TT_MB, workers: int = 1):
        if not (tt_mb > 0):
            raise ArgumentError(f"tt_mb must be positive, not {tt_mb!r}", param="tt_mb")
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ArgumentError(f"workers must be a positive integer, not {workers!r}", param="workers")
        self.workers = workers
        self._helpers = [type(self)(tt_mb / workers) for _ in range(workers - 1)]
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
        #: Nodes a relaxation (one farmer passing throughout) may search
        #: before it is given up; 0 switches relaxations off.
        self.relax_budget = RELAX_BUDGET
        #: Which relaxations a four-player node tries (see :mod:`.relax`):
        #: ``RX_ALONE`` (0) one farmer kept against the landlord,
        #: ``RX_PAIRS`` (1) one farmer set aside, or both in either order
        #: (2: ``RX_ALONE_PAIRS``, the default, 3: ``RX_PAIRS_ALONE``).
        self.relax_mode = RX_ALONE_PAIRS
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
        same = team_of(child.turn, nplayers) == team_of(st.turn, nplayers)
        return v if same else 1 - v


def notation(move: tuple, flags: int = 0) -> str:
    """A move's text: ``pass``, or the play's notation (under wild ranks with
    what its laizi stand for, ``34569=34567``, as :meth:`Play.parse` reads it
    back)."""
    c, k = move
    if k == PASS_KIND:
        return "pass"
    return Play(c, k).notation(flags if flags & WILD_MASK else None)
