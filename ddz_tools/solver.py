"""Exact perfect-information endgame solver (two- and three-player).

Given an open-hand :class:`~ddz_tools.position.Position`, :func:`solve` decides
whether the side to move can force a win, lists the winning plays, gives the
principal line and, on request, the whole winning strategy.

The game
--------
Two-player: ``me`` against ``opponent``; whoever empties their hand first wins;
a pass is legal only when answering and after one pass the other side leads.
Three-player: ``landlord``, ``farmer1``, ``farmer2`` in turn order; the farmers
win together; after two consecutive passes the last player who played leads.
Legal plays come from the shared move generator (:mod:`ddz_tools.movegen`)
under the position's rules.

Search
------
The value of a position is a win or a loss for the team to move, so the search
is an AND/OR tree: one winning child ends a node.  The kernel :func:`search_step` is an
iterative depth-first search over an explicit stack held in NumPy arrays, so a
call can stop after a node budget and the next call resumes exactly where it
stopped: that is how time limits, node limits and Ctrl-C work without ever
giving a wrong answer.

Transposition table: every solved node is stored under its key, four int64
words (the three packed hands; the side to move, who made the play to answer,
its kind, the rule flags and the number of players), with the ranks renamed
so that positions differing only in ranks nobody holds share one entry, and,
when no hand can play a chain, a seat's counts sorted within the runs of ranks
he alone holds (see ``_canon``: fewer than half the nodes on 17-card deals).
A hash only picks the bucket (four entries), so a collision can cost a
re-search but never change an answer.  When a bucket is full the entry with
the least work (log2 of the nodes below it) is replaced.  Memory is ``tt_mb``
MiB (default 512; 32 bytes an entry).

A seat that can only pass (no answer in hand to the play standing, as its
answer profile tells) is passed over, with no node of its own (see
``_after_move``): a child may be moved by the mover's own team.

Exact shortcuts: a play that empties the hand ends the node; a *control win*
ends it too: the mover, leading, can split his hand into plays no opponent can
answer plus one last play of any kind (he plays the free ones, each passed by
everyone, then goes out); its answers are remembered (``cwm``, keyed by the
hand, the opponents' hands and the rules).  In a real three-player position a
lead, or an answer to the other team's play, is lost at once when the other
team *covers* every play the team to move could make (see ``_covered``), and
a farmer to move has lost when neither farmer can go out without letting the
landlord make a *threat*, a play after which he surely wins (see
``_threat_rule``; with a count of farmer1's low solos when the threats are
solos).  Enhanced transposition cutoff:
before ordering, a child already stored as a win for the mover's team ends the
node.  Dominated kicker choices (see ``_dominated``) are not searched: the
same body with a lower loose kicker is at least as good (for two players, the
landlord, and a farmer whose partner a relaxation sets aside).

Relaxations (three players): when the landlord's first move at a node has
failed, the node is searched once more with one farmer passing at every turn
(his hand set aside, so the other farmer plays alone against the landlord);
the farmers' choices there are a subset of theirs, so a farmers' win in the
relaxed position is one here and the node is lost for the landlord without
searching his other moves.  Farmer2 passes first, then farmer1 (never the
farmer whose play is to be answered: he would have to lead).  A relaxation
gives up after ``relax_budget`` nodes (20,000); its stored positions have a
set-aside hand, which no real position has, so their entries never mix.

Move ordering: fewest plays left after the move first (the exact minimum from
the decomposer, :func:`ddz_tools.decompose.min_plays_memo_in`, memoised), an
answer no opponent can beat counting one and a half plays more (a lead no
opponent can beat gets no bonus); then longer plays, then the lower main rank.
Bombs and the rocket come after every other play, and a pass after them,
except that a farmer passes first over his partner's play.

>>> from ddz_tools.position import Position
>>> r = solve(Position.two_player("33JJQK2", "4455A"))
>>> r.result, r.winning_plays
('win', ['33'])
>>> solve(Position.two_player("3", "XD", after="2")).result
'loss'
"""

from __future__ import annotations

import dataclasses
import threading
import time

import numpy as np

from ._jit import flat_kernel, high_bit, interpreted, kernel, low_bit, prefetch
from .cards import RANK_A
from .decompose import SEARCH_WORK, min_plays_memo_in, min_plays_prefetch, new_memo_table
from .errors import ArgumentError, PositionError, SearchLimit
from .gamerules import next_seat, trick_after
from .movegen import GEN_SCRATCH, gen_into_scratch
from .position import Position
from .rules import (F_CHAINS_WITH_TWO, T_AIRPLANE_PAIR, T_AIRPLANE_SOLO, T_BOMB, T_FOUR_PAIR, T_FOUR_SOLO,
                    T_FOUR_TWO_PAIR, T_FOUR_TWO_SOLO, T_PAIR, T_ROCKET, T_SOLO, T_TRIO, T_TRIO_PAIR, T_TRIO_SOLO, Play)

# Kernel constants ---------------------------------------------------------------

MAX_DEPTH = 512
#: Words per table entry and entries per bucket.
ENTRY_WORDS = 4
BUCKET = 4
ENTRY_BYTES = ENTRY_WORDS * 8
DEFAULT_TT_MB = 512
#: Buckets of a fresh table (128 KiB); it doubles when half full, up to ``tt_mb``.
START_BUCKETS = 1 << 10
#: Slots (log2) of the minimum-plays memo used for move ordering.
MEMO_BITS = 20
#: Rows (a power of two) and words per row of the answer-profile cache, and
#: the plays one profile may need.  ``pbuf`` rows 0-1 are the profile's
#: generation buffer, row 2 the work space of every generation call (its first
#: GEN_SCRATCH entries) and of the control-win search (the next 320).
PROF_ROWS = 1 << 13
PROF_W = 20
PROF_PLAYS = 1 << 14
#: Rows of the control-win memo (``Solver.cwm``, PROF_W words a row), and
#: the keys of the landlord's threats remembered after them (two rows a key,
#: see _threat_profile): CWM_ROWS rows in all.
CW_ROWS = 1 << 16
THREAT_ROWS = 1 << 14
CWM_ROWS = CW_ROWS + 2 * THREAT_ROWS
#: Where the control-win memo merges the opponents' profiles (in ``pbuf[2]``,
#: after the control-win search's stacks; PROF_W words: the profile, its hash
#: and the seat it is for).
CW_MERGED = GEN_SCRATCH + 320
#: Where the cover rule (see _covered) keeps its work in ``pbuf[2]``, from
#: CW_MERGED: its list of plays to cover from COVER_LIST (at most 17 types
#: of at most 15 lengths), the movers' merged profile from COVER_OW, and the
#: node's own merged profile, kept aside, from COVER_KEEP.
COVER_LIST = PROF_W
COVER_OW = COVER_LIST + 256
COVER_KEEP = COVER_OW + PROF_W
#: Where the threat rule (see _threat_rule) keeps the node's merged profile
#: aside (from THREAT_KEEP) and builds the profile of the landlord's threats
#: (from THREAT_ONE), both after CW_MERGED in ``pbuf[2]``.
THREAT_KEEP = COVER_KEEP + PROF_W
THREAT_ONE = THREAT_KEEP + PROF_W
#: Nodes of the plain search of a position before its moves are probed in
#: rounds (see ``Solver._best``); the first round's cap of the first move is
#: PROBE_GROWTH times this, and each round multiplies the caps by PROBE_GROWTH.
PROBE_NODES = 100_000
PROBE_GROWTH = 4
#: A move's cap in a round is divided by (its place in the search order + 1) ** PROBE_POWER.
PROBE_POWER = 3
#: The least cap of a move in a round.
PROBE_MIN = 1000
#: Levels of probing: 1 probes the root's moves and, in each, the replies.
PROBE_DEPTH = 1
#: Nodes one worker searches at a root before ``workers`` > 1 share its rounds.
SPLIT_AFTER = 200_000
#: Nodes a relaxation may search before it is given up (see _relax_first).
RELAX_BUDGET = 20000
#: Hands a control-win check may expand before it gives up.
CONTROL_BUDGET = 256
#: The threat rule is tried one ply ahead (see :func:`_expand`) only on the
#: landlord's moves that leave him at most this many plays.
AHEAD_PLAYS = 3
#: Sets of solo chains the low-solo bound tries before it gives up (see _low_solos_least).
LOW_SOLO_SETS = 256

# Status returned by the kernel.
ST_DONE = 0
ST_PAUSED = 1
ST_GROW = 2
ST_TABLE = 3
ST_MEMO = 4

# Slots of the control array.
C_SP = 0
C_NODES = 1
C_RESULT = 2
C_RET = 3
C_HITS = 4
C_STORES = 5
C_FILLED = 6
C_EVICT = 7
C_MAXD = 8
C_GROW_AT = 9
C_RX_BUDGET = 10
C_RX_D = 11
C_RX_N0 = 12
C_RX_TRIES = 13
C_RX_WINS = 14
C_RX_ABORTS = 15
C_DOMINANCE = 16
C_TASK = 17
C_COVER = 18
C_THREAT = 19
C_OUT = 20
C_KNOWN = 21
C_SIZE = 22

# What a call of search_step does (ctl[C_TASK]): search; or, instead, split
# the table, just doubled, from half the buckets it is given; or list the
# root's moves in search order (one kernel for the Python side to load: each
# compiled kernel loaded from the disk cache costs 5-25 ms at start-up).
TASK_SEARCH = 0
TASK_SPLIT = 1
TASK_MOVES = 2
TASK_BEST_MOVES = 3

# Frame phases.
PH_NEW = 0
PH_ITER = 1
PH_RELAX = 2

# Misc word of a key: turn (2 bits), last_by (2), prev kind (14), rule flags (5), 3-player (1),
# ranks renamed in order (1, see _canon).
MISC_BITS = 25
MISC_MASK = (1 << MISC_BITS) - 1
VALUE_BIT = 1 << 32
VALID_BIT = 1 << 33
WORK_SHIFT = 40

PASS_KIND = -1
_py_next_seat = interpreted(next_seat)
_py_trick_after = interpreted(trick_after)

# Kernels ---------------------------------------------------------------------------


@kernel
def _team(seat, nplayers):
    if nplayers == 2:
        return seat
    return 0 if seat == 0 else 1


@kernel
def _misc(turn, lb, pk, flags, nplayers):
    m = turn | (lb << 2) | (pk << 4) | (flags << 18)
    if nplayers == 3:
        m |= 1 << 23
    return m


@kernel
def _fold(acc, w):
    """Mix one non-negative word into a non-negative hash accumulator.

    Products of 30-bit halves by 31-bit constants stay below 2**62, so no
    int64 multiply overflows (Numba marks multiplies no-signed-wrap)."""
    x = acc ^ w
    a = x & 0x3FFFFFFF
    b = (x >> 30) & 0x3FFFFFFF
    return a * 1540483477 + b * 1911520717 + ((acc >> 31) & 0x7FFFFFFF)


@kernel
def _slot(x, n):
    """The row, of ``n`` (a power of two), of a key folded into ``x`` by
    :func:`_fold` (its high bits mixed into the low ones first)."""
    x ^= x >> 29
    return x & (n - 1)


@kernel
def _bucket_base(h0, h1, h2, misc, nbuckets):
    return _slot(_fold(_fold(_fold(_fold(0, h0), h1), h2), misc), nbuckets) * (BUCKET * ENTRY_WORDS)


@kernel
def _run_counts_sorted(h, a):
    """Hand ``h`` with its counts sorted, highest first, within every run of
    ranks next to each other in ``a`` (bit 3 of nibble r: ranks r and r+1
    in one run)."""
    while True:
        # Pairs in a run whose count rises (nibble r below nibble r+1;
        # counts are at most 4, so no borrow crosses a nibble).
        up = ~((h | 0x8888888888888) - ((h >> 4) & 0x7777777777777)) & a
        if up == 0:
            return h
        r = low_bit(up) >> 2
        x = ((h >> (4 * r)) ^ (h >> (4 * r + 4))) & 15
        h ^= (x << (4 * r)) | (x << (4 * r + 4))


@kernel
def _runs_sorted(c0, c1, c2, cut):
    """Hands renamed when no hand can play a chain (ranks 1, 2, 3, ... of
    which only the order counts) with the counts sorted, highest first,
    within every run of ranks next to each other held by one seat alone;
    no run crosses from rank ``cut`` to ``cut + 1`` (the main rank of the
    play to answer; 0 for none).  Jokers are in no run."""
    m = 0x1111111111111
    o0 = (c0 | (c0 >> 1) | (c0 >> 2)) & m
    o1 = (c1 | (c1 >> 1) | (c1 >> 2)) & m
    o2 = (c2 | (c2 >> 1) | (c2 >> 2)) & m
    nocut = ~(1 << (4 * cut)) if cut > 0 else -1
    # Each seat's ranks held by him alone whose next rank is too, at bit 3.
    a0 = o0 & ~o1 & ~o2
    a1 = o1 & ~o0 & ~o2
    a2 = o2 & ~o0 & ~o1
    return (_run_counts_sorted(c0, (a0 & (a0 >> 4) & nocut) << 3),
            _run_counts_sorted(c1, (a1 & (a1 >> 4) & nocut) << 3),
            _run_counts_sorted(c2, (a2 & (a2 >> 4) & nocut) << 3))


@kernel
def _canon(h0, h1, h2, misc):
    """The table key of a position: its hands and misc word with the ranks
    renamed so that positions that play alike share one entry.

    Only the order of the ranks and, for chains, which ranks are next to each
    other decide what can be played and what beats what; suits never matter.
    So, when some rank 3..2 is held by nobody:

    * if no hand can play a chain (a straight, a pair chain or an airplane;
      hands only shrink, so none ever will), the held ranks 3..2 are renamed
      1, 2, 3, ... in order (flag bit 24 keeps these keys apart), and each
      seat's counts are sorted within the runs of ranks he alone holds (see
      :func:`_runs_sorted`);
    * otherwise A and 2 keep their ranks and below A every run of two or more
      ranks held by nobody closes to one (the key is then a real position
      with the same plays and answers).

    Jokers keep their ranks.  The main rank of the play to answer is renamed
    with the held ranks (an unheld one to just below the next held rank), so
    every answer still beats it.  Equal keys mean equal game values, which
    ``tests/test_solver.py`` checks against the plain reference solver.
    """
    allh = h0 | h1 | h2
    occn = (allh | (allh >> 1) | (allh >> 2)) & 0x1111111111111
    if occn == 0x1111111111111:
        return h0, h1, h2, misc
    top = 0x1111111111111 if ((misc >> 18) & F_CHAINS_WITH_TWO) else 0x111111111111
    chains = False
    for q in range(3):
        h = h0 if q == 0 else (h1 if q == 1 else h2)
        x = (h | (h >> 1) | (h >> 2)) & 0x111111111111
        if x & (x >> 4) & (x >> 8) & (x >> 12) & (x >> 16):
            chains = True
            break
        y = ((h >> 1) | (h >> 2)) & top
        if y & (y >> 4) & (y >> 8):
            chains = True
            break
        z = ((h & (h >> 1)) | (h >> 2)) & top
        if z & (z >> 4):
            chains = True
            break
    # New hands (jokers in place), built a run of held ranks at a time (one
    # shift and mask each, rather than a rank at a time); npm: the new main
    # rank of the play to answer (of an empty rank: the new rank just below
    # the next held rank above it, so every answer still beats it).
    c0 = h0 & (0xFF << 52)
    c1 = h1 & (0xFF << 52)
    c2 = h2 & (0xFF << 52)
    pk = (misc >> 4) & 0x3FFF
    pm = (pk >> 5) & 15
    npm = pm
    pb = 4 * pm
    if not chains:
        # No hand can ever play a chain: only the order of the ranks counts.
        # The held ranks 3..2 become 1, 2, 3, ... (d: the bit of the next).
        found = pm >= 13
        m = occn
        d = 4
        while m != 0:
            s = low_bit(m)
            t = m >> s
            w = low_bit(~t & 0x1111111111111111)
            mask = (1 << w) - 1
            c0 |= ((h0 >> s) & mask) << d
            c1 |= ((h1 >> s) & mask) << d
            c2 |= ((h2 >> s) & mask) << d
            if not found and pb < s + w:
                npm = ((d + pb - s) >> 2) if pb >= s else (d >> 2) - 1
                found = True
            d += w
            m = (t >> w) << (s + w)
        if not found:
            npm = (d >> 2) - 1
        flag = 1 << 24
        c0, c1, c2 = _runs_sorted(c0, c1, c2, npm if pk != 0 else 0)
    else:
        # Chains matter: keep 2 and A in place and close every run of two or
        # more empty ranks below A to one empty rank, from the top down
        # (pr, pi: the old and new rank of the last held rank placed).
        c0 |= h0 & (0xFF << 44)
        c1 |= h1 & (0xFF << 44)
        c2 |= h2 & (0xFF << 44)
        found = pm >= 11
        m = occn & 0x11111111111
        pr = 11
        pi = 11
        while m != 0:
            tb = high_bit(m)
            rt = tb >> 2
            u = ~m & ((1 << tb) - 1) & 0x11111111111
            lb_ = high_bit(u) + 4 if u != 0 else 0
            it = pi - 1 if pr == rt + 1 else pi - 2
            mask = ((1 << (tb + 4 - lb_)) - 1) << lb_
            sh = 4 * (it - rt)
            c0 |= (h0 & mask) << sh
            c1 |= (h1 & mask) << sh
            c2 |= (h2 & mask) << sh
            if not found and pb >= lb_:
                npm = pm + (it - rt) if pm <= rt else pi - 1
                found = True
            pr = lb_ >> 2
            pi = it - (rt - pr)
            m &= (1 << lb_) - 1
        if not found:
            npm = pi - 1
        flag = 0
    if pk != 0:
        pk = (pk & ~(15 << 5)) | (npm << 5)
    return c0, c1, c2, (misc & ~(0x3FFF << 4)) | (pk << 4) | flag


@kernel
def _tt_find(tt, base, h0, h1, h2, misc):
    """0 or 1 (the value for the side to move) if the key, already renamed by
    :func:`_canon`, is stored in its bucket at ``base``, else -1."""
    for e in range(BUCKET):
        b = base + e * ENTRY_WORDS
        w = tt[b + 3]
        if (w & VALID_BIT) != 0 and (w & MISC_MASK) == misc and tt[b] == h0 and tt[b + 1] == h1 and tt[b + 2] == h2:
            return 1 if (w & VALUE_BIT) != 0 else 0
    return -1


@kernel
def _tt_store(tt, nbuckets, h0, h1, h2, misc, value, work, ctl):
    """Store ``value`` under a key already renamed by :func:`_canon`, with
    ``work`` (log2 of the nodes below it) for the replacement rule."""
    base = _bucket_base(h0, h1, h2, misc, nbuckets)
    word = misc | VALID_BIT | (work << WORK_SHIFT)
    if value:
        word |= VALUE_BIT
    victim = -1
    least = 1 << 20
    for e in range(BUCKET):
        b = base + e * ENTRY_WORDS
        w = tt[b + 3]
        if (w & VALID_BIT) == 0:
            victim = b
            least = -1
            ctl[C_FILLED] += 1
            break
        if (w & MISC_MASK) == misc and tt[b] == h0 and tt[b + 1] == h1 and tt[b + 2] == h2:
            victim = b
            least = -1
            break
        wk = (w >> WORK_SHIFT) & 63
        if wk < least:
            least = wk
            victim = b
    if least >= 0:
        ctl[C_EVICT] += 1
    tt[victim] = h0
    tt[victim + 1] = h1
    tt[victim + 2] = h2
    tt[victim + 3] = word
    ctl[C_STORES] += 1


@kernel
def _tt_split(tt, nbuckets):
    """Double the table in place: ``tt`` holds ``2 * nbuckets`` buckets, the
    first ``nbuckets`` in use and the rest zero.  A bucket's index is the low
    bits of the key's hash, so each entry of bucket ``b`` either stays there
    or moves to bucket ``b + nbuckets``; nothing is dropped, and the entries
    left in ``b`` close up to its front in their order (an empty slot is only
    ever behind the filled ones).  Returns the entries kept."""
    kept = 0
    wide = 2 * nbuckets
    step = BUCKET * ENTRY_WORDS
    for bk in range(nbuckets):
        lo = bk * step
        hi = lo + nbuckets * step
        nlo = 0
        nhi = 0
        for e in range(BUCKET):
            b = lo + e * ENTRY_WORDS
            w = tt[b + 3]
            if (w & VALID_BIT) == 0:
                continue
            kept += 1
            if _bucket_base(tt[b], tt[b + 1], tt[b + 2], w & MISC_MASK, wide) == hi:
                t = hi + nhi * ENTRY_WORDS
                nhi += 1
            else:
                t = lo + nlo * ENTRY_WORDS
                nlo += 1
            if t != b:
                tt[t] = tt[b]
                tt[t + 1] = tt[b + 1]
                tt[t + 2] = tt[b + 2]
                tt[t + 3] = w
        for e in range(nlo, BUCKET):
            b = lo + e * ENTRY_WORDS
            tt[b] = 0
            tt[b + 1] = 0
            tt[b + 2] = 0
            tt[b + 3] = 0
    return kept


@kernel
def _profile_row(prof, hand, flags, pbuf):
    """Row of ``prof`` holding the answer profile of ``hand`` (computed on a
    miss), or -1 when the hand has more plays than ``pbuf`` holds.

    A profile is, for each play type and length, the highest main rank the
    hand can play plus one (a nibble per length in the type's word, 0: none);
    the bomb word's length-1 nibble is the highest bomb, the rocket word is
    non-zero with the rocket.  Answers to a play are exactly the plays of its
    type and length with a higher main rank (and bombs, the rocket), so the
    profile tells whether the hand can answer any play without generating."""
    row = _slot(_fold(_fold(0, hand), flags), prof.shape[0])
    tag = flags | (1 << 40)
    if prof[row, 0] == hand and prof[row, 1] == tag:
        return row
    n = gen_into_scratch(hand, flags, 0, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return -1
    for t in range(PROF_W - 2):
        prof[row, 2 + t] = 0
    for i in range(n):
        k = pbuf[1, i]
        prof[row, 2 + (k & 31)] = _with_kind(prof[row, 2 + (k & 31)], k)
    prof[row, 0] = hand
    prof[row, 1] = tag
    return row


@kernel
def _with_kind(word, k):
    """A profile's word for the type of the play ``k`` (see
    :func:`_profile_row`), raised to hold ``k``: its length's nibble at
    least ``k``'s main rank plus one."""
    m = ((k >> 5) & 15) + 1
    sh = 4 * (k >> 9)
    if ((word >> sh) & 15) < m:
        return (word & ~(15 << sh)) | (m << sh)
    return word


@kernel
def _can_answer(hand, flags, kind, prof, pbuf):
    """True when ``hand`` holds an answer to a play of ``kind`` (see _profile_row)."""
    t = kind & 31
    if t == T_ROCKET:
        return False
    row = _profile_row(prof, hand, flags, pbuf)
    if row < 0:
        return gen_into_scratch(hand, flags, kind, pbuf[0, :0], pbuf[1, :0], pbuf[2]) > 0
    if prof[row, 2 + T_ROCKET] != 0:
        return True
    m = ((kind >> 5) & 15) + 1
    bomb = (prof[row, 2 + T_BOMB] >> 4) & 15
    if t == T_BOMB:
        return bomb > m
    if bomb > 0:
        return True
    return ((prof[row, 2 + t] >> (4 * (kind >> 9))) & 15) > m


@kernel
def _unanswered(hands, turn, kind, flags, nplayers, prof, pbuf):
    """True when no opponent of ``turn`` can answer a play of ``kind``."""
    me = _team(turn, nplayers)
    for s in range(nplayers):
        if s != turn and _team(s, nplayers) != me:
            if _can_answer(hands[s], flags, kind, prof, pbuf):
                return False
    return True


#: Low three bits of every nibble below bit 60, resp. the top bit.
NIB_LOW = 0x0777777777777777
NIB_TOP = 0x0888888888888888


@kernel
def _nibble_max(a, b):
    """The nibble-by-nibble maximum of two words below 2**60 (no carries:
    each nibble's difference is worked out with its top bit set first)."""
    d = (a | NIB_TOP) - (b & NIB_LOW)
    # Top bit of a nibble of d set where a's low three bits >= b's; fold in
    # the top bits themselves.
    ge = ((d & ~(a ^ b)) | (a & ~b)) & NIB_TOP
    m = (ge >> 3) * 15
    return (a & m) | (b & ~m & 0x0FFFFFFFFFFFFFFF)


@kernel
def _merge_opponents(hands, turn, flags, nplayers, prof, pbuf):
    """Merge the answer profiles of ``turn``'s opponents (see
    :func:`_profile_row`), nibble by nibble the highest, into ``pbuf[2]`` at
    ``CW_MERGED``: some opponent can answer a play exactly when the merged
    profile says so.  Then a word for the hash of the rules and the merged
    profile (worked out when :func:`_control_win` first needs it), and
    ``turn + 1`` (0 when some opponent has too many plays for a profile: then
    :func:`_free` asks each opponent instead).  Every node with a play to
    weigh merges once before it asks (see :func:`_expand`); its moves take
    cards from ``turn`` only."""
    me = _team(turn, nplayers)
    w = pbuf[2]
    first = True
    for q in range(nplayers):
        if q != turn and _team(q, nplayers) != me:
            r = _profile_row(prof, hands[q], flags, pbuf)
            if r < 0:
                w[CW_MERGED + PROF_W - 1] = 0
                return
            if first:
                for t in range(PROF_W - 2):
                    w[CW_MERGED + t] = prof[r, 2 + t]
                first = False
            else:
                for t in range(PROF_W - 2):
                    w[CW_MERGED + t] = _nibble_max(w[CW_MERGED + t], prof[r, 2 + t])
    w[CW_MERGED + PROF_W - 2] = -1
    w[CW_MERGED + PROF_W - 1] = turn + 1


@kernel
def _free(hands, turn, kind, flags, nplayers, prof, pbuf):
    """True when no opponent of ``turn`` can answer a play of ``kind``: read
    off the profile :func:`_merge_opponents` merged for ``turn``."""
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        return _unanswered(hands, turn, kind, flags, nplayers, prof, pbuf)
    t = kind & 31
    if t == T_ROCKET:
        return True
    if w[CW_MERGED + T_ROCKET] != 0:
        return False
    m = ((kind >> 5) & 15) + 1
    bomb = (w[CW_MERGED + T_BOMB] >> 4) & 15
    if t == T_BOMB:
        return bomb <= m
    if bomb > 0:
        return False
    return ((w[CW_MERGED + t] >> (4 * (kind >> 9))) & 15) <= m


@kernel
def _control_win(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf, cwm):
    """True when :func:`_control_split` finds a split (1)."""
    return _control_split(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf, cwm) == 1


@kernel
def _control_split(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf, cwm):
    """:func:`_control_win_search`, remembered in ``cwm`` keyed by everything
    the answer depends on: the hand, the rules, and what the other team can
    answer.  The search asks only whether some opponent can answer a play,
    which the profile :func:`_merge_opponents` merged for ``turn`` tells; so
    the key is that profile, which changes far less often than the hands
    do.  A row: the hand, the rules with the answer, the merged profile.
    1: a split, 0: none, 2: the search gave up."""
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        # Too many plays for a profile: search without the memo.
        return _control_win_search(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf)
    acc = _merged_hash(w, flags)
    row = _slot(_fold(acc, hand), CW_ROWS)
    tag = (flags << 3) | (1 << 2)
    if cwm[row, 0] == hand and (cwm[row, 1] >> 2) == (tag >> 2) and _same_profile(cwm, row, w):
        return cwm[row, 1] & 3
    r = _control_win_search(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf)
    cwm[row, 0] = hand
    cwm[row, 1] = tag | r
    for t in range(PROF_W - 2):
        cwm[row, 2 + t] = w[CW_MERGED + t]
    return r


@kernel
def _merged_hash(w, flags):
    """The hash of the rules and the profile merged at CW_MERGED of ``w``,
    worked out once and kept beside it (-1 there: not yet)."""
    acc = w[CW_MERGED + PROF_W - 2]
    if acc < 0:
        acc = _fold(0, flags)
        for t in range(PROF_W - 2):
            acc = _fold(acc, w[CW_MERGED + t])
        w[CW_MERGED + PROF_W - 2] = acc
    return acc


@kernel
def _same_profile(cwm, row, w):
    """True when row ``row`` of ``cwm`` holds, from its third word, the
    profile merged at CW_MERGED of ``w``."""
    for t in range(PROF_W - 2):
        if cwm[row, 2 + t] != w[CW_MERGED + t]:
            return False
    return True


@kernel
def _control_win_search(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf):
    """1 when ``turn``, leading with ``hand``, can split it into plays no
    opponent can answer plus at most one last play of any kind; 0 when no
    such split exists; 2 when the search gave up (its cap, or ``sc``/``sk``
    too small), which only loses a shortcut, never exactness.

    Then the mover plays the free plays one after another (each is passed by
    every opponent, the partner passes too) and goes out with the last one:
    an exact win.  Depth-first over splits that cover the lowest rank first.
    """
    w = pbuf[2]
    s_hand = w[GEN_SCRATCH:GEN_SCRATCH + 64]
    s_used = w[GEN_SCRATCH + 64:GEN_SCRATCH + 128]
    s_beg = w[GEN_SCRATCH + 128:GEN_SCRATCH + 192]
    s_end = w[GEN_SCRATCH + 192:GEN_SCRATCH + 256]
    s_i = w[GEN_SCRATCH + 256:GEN_SCRATCH + 320]
    # Cap the splits tried (the search is exponential in bad cases); giving
    # up only loses the shortcut.
    budget = CONTROL_BUDGET
    d = 0
    s_hand[0] = hand
    s_used[0] = 0
    top = 0
    expand = True
    while d >= 0:
        if expand:
            expand = False
            budget -= 1
            if budget < 0:
                return 2
            h = s_hand[d]
            cap = sc.shape[0] - top
            n = gen_into_scratch(h, flags, 0, sc[top:], sk[top:], pbuf[2])
            if n > cap:
                return 2
            r4 = 0
            while (h >> r4) & 15 == 0:
                r4 += 4
            m = 0
            for i in range(n):
                c = sc[top + i]
                if (c >> r4) & 15 == 0:
                    continue
                free = _free(hands, turn, sk[top + i], flags, nplayers, prof, pbuf)
                if s_used[d] and not free:
                    continue
                if c == h:
                    # Every earlier play was free, or this one is (and the
                    # one answerable play is kept for last).
                    return 1
                sc[top + m] = c
                sk[top + m] = 1 if free else 0
                m += 1
            s_beg[d] = top
            s_end[d] = top + m
            s_i[d] = top
            top += m
        i = s_i[d]
        if i < s_end[d] and d + 1 < 64:
            s_i[d] = i + 1
            s_hand[d + 1] = s_hand[d] - sc[i]
            s_used[d + 1] = s_used[d] | (1 - sk[i])
            d += 1
            expand = True
        else:
            top = s_beg[d]
            d -= 1
    return 0


@kernel
def _covered(hands, turn, pk, lb, flags, nplayers, mc, mk, lo, memo, dwork, sc, sk, prof, pbuf, cwm):
    """1 when ``turn``'s team loses at once because the other team *covers*
    everything it could play before that team's next turn; 0 when not shown;
    -1 when ``dwork`` is too small for the decomposer.

    Call the mover's team the movers and the other team the coverers.  The
    rule (exact), for a lead (``pk`` 0) and for an answer to a play of the
    coverers:

    * no hand of the movers is one play, so none of them goes out before a
      coverer's next turn (the caller has checked that no move of the mover
      empties his hand; his partner's fewest plays are asked here);
    * the movers hold no rocket;
    * every play the movers could make (for a lead, every play type and
      length their merged answer profile holds, bombs included; for an
      answer, the standing play's type and length where they can beat it,
      and their bombs) has a cover: some coverer holds an answer to the
      highest such play that no mover can beat, after which the rest of his
      hand is empty or a control win;
    * for an answer, the coverer who made the standing play also has a
      control win with his whole hand (the movers may all pass).

    Whatever the movers play, the coverer holding the cover of the play
    standing plays it when his turn comes (a farmer's partner passes before
    him), everyone passes, and he goes out with his control win.  The
    movers' hands only shrink meanwhile, so what none of them could answer
    stays unanswerable.

    The caller has merged the coverers' profiles for ``turn`` (see
    :func:`_merge_opponents`, as :func:`_expand` does before); the merged
    profile is left in place when the answer is 0.  The coverers' answers
    are generated into ``mc``/``mk`` from ``lo`` (past the node's own moves);
    a buffer too small only loses the shortcut."""
    me = _team(turn, nplayers)
    if pk != 0 and _team(lb, nplayers) == me:
        return 0
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        # Some coverer has too many plays for a profile.
        return 0
    tw = w[CW_MERGED:CW_MERGED + PROF_W]
    # The movers' merged answer profile: the mover's and his partner's (each
    # row read before the next is looked up, which may take its place).
    # Merged here, beside the coverers' profile, rather than by
    # _merge_opponents, which would overwrite that profile before the cheap
    # test below has settled most calls (measured: 10% slower on three
    # players 10 a seat, the same nodes).
    ow = w[CW_MERGED + COVER_OW:CW_MERGED + COVER_OW + PROF_W]
    r = _profile_row(prof, hands[turn], flags, pbuf)
    if r < 0:
        return 0
    for t in range(PROF_W - 2):
        ow[t] = prof[r, 2 + t]
    mate = hands[3 - turn] if nplayers == 3 and turn != 0 else 0
    if mate != 0:
        r = _profile_row(prof, mate, flags, pbuf)
        if r < 0:
            return 0
        for t in range(PROF_W - 2):
            ow[t] = _nibble_max(ow[t], prof[r, 2 + t])
    if ow[T_ROCKET] != 0:
        return 0
    # The plays to cover (kinds at the movers' highest main rank), each tested
    # first on the profiles alone: a higher one of the same type and length,
    # or a bomb above the movers' highest bomb, or the rocket.
    obomb = (ow[T_BOMB] >> 4) & 15
    bomb_cover = tw[T_ROCKET] != 0 or ((tw[T_BOMB] >> 4) & 15) > obomb
    pend = CW_MERGED + COVER_LIST
    npend = 0
    if pk == 0:
        for t in range(PROF_W - 2):
            if t == T_ROCKET:
                continue
            x = ow[t]
            i = 0
            while x != 0:
                v = x & 15
                if v != 0:
                    if not (bomb_cover or (t != T_BOMB and ((tw[t] >> (4 * i)) & 15) > v)):
                        return 0
                    w[pend + npend] = t | ((v - 1) << 5) | (i << 9)
                    npend += 1
                x >>= 4
                i += 1
    else:
        t = pk & 31
        i = pk >> 9
        pm1 = ((pk >> 5) & 15) + 1
        if t != T_BOMB and t != T_ROCKET:
            v = (ow[t] >> (4 * i)) & 15
            if v > pm1:
                if not (bomb_cover or ((tw[t] >> (4 * i)) & 15) > v):
                    return 0
                w[pend] = t | ((v - 1) << 5) | (i << 9)
                npend = 1
        if obomb > 0 and t != T_ROCKET and (t != T_BOMB or obomb > pm1):
            if not bomb_cover:
                return 0
            w[pend + npend] = T_BOMB | ((obomb - 1) << 5) | (1 << 9)
            npend += 1
    # The mover's partner must not go out with one play either.
    if mate != 0:
        mp = min_plays_memo_in(mate, flags, memo, dwork)
        if mp < 0:
            return -1
        if mp == 1:
            return 0
    # From here on the coverers ask about the movers: the merged profile
    # becomes the movers' (what _merge_opponents merges for any coverer),
    # set for one coverer at a time.  The coverers' is kept aside, to put
    # back when the answer is 0.
    keep = CW_MERGED + COVER_KEEP
    for t in range(PROF_W):
        w[keep + t] = tw[t]
    for t in range(PROF_W - 2):
        w[CW_MERGED + t] = ow[t]
    w[CW_MERGED + PROF_W - 2] = -1
    ok = True
    if pk != 0:
        # The movers may all pass: the coverer who made the play then leads.
        w[CW_MERGED + PROF_W - 1] = lb + 1
        ok = _control_win(hands, lb, hands[lb], flags, nplayers, sc, sk, prof, pbuf, cwm)
    cap = mc.shape[0] - lo
    for s in range(nplayers):
        if not ok or npend == 0:
            break
        if _team(s, nplayers) == me or hands[s] == 0:
            continue
        w[CW_MERGED + PROF_W - 1] = s + 1
        h = hands[s]
        j = 0
        while j < npend:
            kind = w[pend + j]
            n = gen_into_scratch(h, flags, kind, mc[lo:], mk[lo:], w)
            if n > cap:
                ok = False
                break
            hit = False
            for i in range(n):
                if _free(hands, s, mk[lo + i], flags, nplayers, prof, pbuf):
                    rest = h - mc[lo + i]
                    if rest == 0 or _control_win(hands, s, rest, flags, nplayers, sc, sk, prof, pbuf, cwm):
                        hit = True
                        break
            if hit:
                npend -= 1
                w[pend + j] = w[pend + npend]
            else:
                j += 1
    if ok and npend == 0:
        return 1
    for t in range(PROF_W):
        w[CW_MERGED + t] = w[keep + t]
    return 0


@kernel
def _threat_profile(hands, flags, w, at, sc, sk, prof, pbuf, cwm):
    """Write at ``w[at:]`` the answer profile (see :func:`_profile_row`) of
    the landlord's *threats*: his plays after which he surely wins, that is
    plays that empty his hand, and plays no farmer can beat that leave him a
    control win.  Returns 0 when he has none (or too many plays for
    ``pbuf``), 1 when he has some, 2 when he has some and his whole hand is
    a control win too.  Leaves the farmers' merged profile at CW_MERGED,
    for the landlord.

    Remembered in the rows of ``cwm`` from CW_ROWS, two a key: what it
    depends on is the landlord's hand, the rules and the farmers' merged
    profile (which the control wins ask), and in a search the landlord's
    hand stays the same while the farmers play on."""
    m = CW_MERGED
    _merge_opponents(hands, 0, flags, 3, prof, pbuf)
    if w[m + PROF_W - 1] != 1:
        # A farmer has too many plays for a profile.
        return 0
    hand = hands[0]
    ra = CW_ROWS + 2 * _slot(_fold(_merged_hash(w, flags), hand), THREAT_ROWS)
    rb = ra + 1
    tag = (flags << 1) | 1
    if cwm[ra, 0] == hand and cwm[ra, 1] == tag and _same_profile(cwm, ra, w):
        for t in range(PROF_W - 2):
            w[at + t] = cwm[rb, 2 + t]
        return cwm[rb, 0]
    n = gen_into_scratch(hand, flags, 0, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return 0
    for t in range(PROF_W - 2):
        w[at + t] = 0
    found = False
    for i in range(n):
        k = pbuf[1, i]
        rest = hand - pbuf[0, i]
        if rest != 0 and not (_free(hands, 0, k, flags, 3, prof, pbuf)
                              and _control_split(hands, 0, rest, flags, 3, sc, sk, prof, pbuf, cwm) == 1):
            continue
        w[at + (k & 31)] = _with_kind(w[at + (k & 31)], k)
        found = True
    res = 0
    if found:
        res = 2 if _control_split(hands, 0, hand, flags, 3, sc, sk, prof, pbuf, cwm) == 1 else 1
    cwm[ra, 0] = hand
    cwm[ra, 1] = tag
    cwm[rb, 0] = res
    for t in range(PROF_W - 2):
        cwm[ra, 2 + t] = w[m + t]
        cwm[rb, 2 + t] = w[at + t]
    return res


@kernel
def _lone_solos(h, r):
    """The solos below rank ``r`` when every rank of ``h`` is played whole
    (a pair, trio or bomb, the two jokers as the rocket): the ranks below
    ``r`` held once, the small joker not counted beside the big one."""
    n = 0
    for i in range(15):
        if i < r and (h >> (4 * i)) & 15 == 1 and not (i == 13 and (h >> 56) & 15 == 1):
            n += 1
    return n


@kernel
def _low_solos_least(hand, r, work):
    """A lower bound on the solos of rank below ``r`` (*low* solos) in any
    split of ``hand`` into plays (under any rules).

    Take a split and make each kicker a play of its own (a solo, or a pair
    for a pair kicker): what is left are solo chains and plays that hold no
    single card of a rank but a solo (pairs, trios, bombs, pair chains,
    airplanes, the rocket).  Only the solo chains decide which ranks are
    left with one card, so the fewest low solos of such splits is the least,
    over every set of solo chains the hand holds, of the ranks below ``r``
    left with one card (searched here, up to ``LOW_SOLO_SETS`` sets of
    chains; past that the bound is 0).  The kickers took at most one card
    per trio and two per four of the hand, each at most one low solo: the
    bound is the least less those.  A bound below 2 is given as 0 when no
    chain needs searching to show it (the threat rule asks for 2 or more)."""
    best = _lone_solos(hand, r)
    kick = 0
    for i in range(15):
        c = (hand >> (4 * i)) & 15
        if c >= 3:
            kick += c - 2
    if best <= kick + 1:
        # Below 2 whatever the chains: 0, all the threat rule needs to know.
        return 0
    # Depth-first over sets of solo chains, each chain (start, length) not
    # before the one it follows: a frame holds the hand left and the next
    # chain to try (in ``work``, 24 words).
    fh = work[0:8]
    fs = work[8:16]
    fl = work[16:24]
    fh[0] = hand
    fs[0] = 0
    fl[0] = 5
    d = 0
    sets = 0
    while d >= 0:
        h = fh[d]
        st = fs[d]
        ln = fl[d]
        found = False
        while st + 4 <= RANK_A:
            end = st + ln - 1
            ok = end <= RANK_A
            if ok:
                for i in range(st, end + 1):
                    if (h >> (4 * i)) & 15 == 0:
                        ok = False
                        break
            if ok:
                found = True
                break
            st += 1
            ln = 5
        if not found or d + 1 >= 8:
            d -= 1
            continue
        fs[d] = st
        fl[d] = ln + 1
        chain = 0
        for i in range(st, st + ln):
            chain += 1 << (4 * i)
        sets += 1
        if sets > LOW_SOLO_SETS:
            return 0
        rest = h - chain
        v = _lone_solos(rest, r)
        if v < best:
            best = v
        fh[d + 1] = rest
        fs[d + 1] = st
        fl[d + 1] = ln
        d += 1
    return best - kick if best > kick else 0


@kernel
def _low_solo_covers(hand, r):
    """An upper bound on the number of plays of ``hand``, none sharing a
    card, that each beat a solo below rank ``r`` and are no such solo
    themselves: its cards of rank ``r`` and up (each a solo at most), and
    its bombs below ``r``."""
    n = 0
    for i in range(15):
        c = (hand >> (4 * i)) & 15
        if i >= r:
            n += c
        elif c == 4:
            n += 1
    return n


@kernel
def _regains(a, b, top, flags, sc, sk, prof, pbuf):
    """An upper bound on the number of plays of hand ``a``, none sharing a
    card, that each beat some play of hand ``b`` that is no solo below rank
    ``top`` (0 when no play of ``a`` beats one).

    Such a play is a bomb or the rocket, or beats a play of ``b`` of its own
    type and length, so its main rank (whose cards it holds) is above the
    lowest main rank ``m`` of the plays of ``b`` that ``a`` can beat with
    one of their type (read off ``a``'s answer profile): at most ``a``'s
    cards above ``m``, its bombs and its rocket.  Large when ``a`` or ``b``
    has more plays than the buffers hold."""
    r1 = _profile_row(prof, a, flags, pbuf)
    if r1 < 0:
        return 1 << 20
    n = gen_into_scratch(b, flags, 0, sc, sk, pbuf[2])
    if n > sc.shape[0]:
        return 1 << 20
    m = 99
    bombs = 0
    for i in range(13):
        if (a >> (4 * i)) & 15 == 4:
            bombs += 1
    if (a >> 52) == 0x11:
        bombs += 1
    beaten = False
    for i in range(n):
        k = sk[i]
        t = k & 31
        main = (k >> 5) & 15
        if t == T_SOLO and main < top:
            continue
        if t == T_BOMB or t == T_ROCKET:
            if not beaten and _can_answer(a, flags, k, prof, pbuf):
                beaten = True
            continue
        beaten = True if bombs > 0 else beaten
        if main < m and ((prof[r1, 2 + t] >> (4 * (k >> 9))) & 15) - 1 > main:
            m = main
            beaten = True
    if not beaten:
        return 0
    count = bombs
    for i in range(m + 1, 15):
        count += (a >> (4 * i)) & 15
    return count


@kernel
def _solo_threats_top(w, at):
    """The highest main rank of the threats profiled at ``w[at:]`` (see
    :func:`_threat_profile`) when they are all solos, else -1."""
    for t in range(PROF_W - 2):
        if t != T_SOLO and w[at + t] != 0:
            return -1
    return ((w[at + T_SOLO] >> 4) & 15) - 1


@kernel
def _threat_rule(hands, turn, pk, lb, flags, sc, sk, prof, pbuf, cwm, count):
    """2 when the farmer to move loses at once by the *threat rule*, else 0.
    Real three-player positions (every hand holding cards), a farmer to
    move who cannot go out with one play.

    The landlord's threats are his plays after which he surely wins (see
    :func:`_threat_profile`); a farmer's play is *safe* when no threat beats
    it.  Fix the landlord's strategy: he plays a threat as soon as one
    beats the play standing, and passes otherwise.  He wins as soon as he
    plays one, and he leads only after one (or, when the play standing now
    is his and both farmers pass, with his whole hand, which the rule then
    asks to be a control win).  Against that:

    * after farmer2's play the landlord is next, so farmer2 can go out only
      if his hand splits into safe plays and at most one more (a control
      split against the threats alone);
    * farmer1's play goes to farmer2 first, who may beat it with a safe play
      of his own (one of the same type and length at least as high as the
      threats of that type and length, or a bomb when no threat is one and
      the rocket is not a threat, a bomb above the threats' bombs when some
      threat is one, the rocket): so farmer1 can go out only if his hand
      splits into plays that are safe or that some safe play of farmer2
      beats, and at most one more.

    When neither holds, the farmers never go out: the landlord wins.  A
    split search that gives up shows nothing.

    With ``count`` not 0 and every threat a solo (as when the landlord holds
    one card), farmer1's condition is sharpened by counting.  Let r be the
    highest threat's rank: the threats beat the solos below r (*low* solos)
    and nothing else.  Each low solo farmer1 plays, but his last play, must
    be beaten by farmer2 before the landlord's turn, with a safe play (a
    card of rank r or above, or a bomb), and farmer2, who cannot go out,
    spends a different play on each.  So farmer1 goes out only if some
    split of his hand has at most one low solo more than farmer2 has such
    plays.  And after each such cover farmer2 holds the trick and plays
    only safe plays, so farmer1 plays again only by beating one of them,
    with a different play of his own each time.  So when the least low
    solos of any split (a lower bound, see :func:`_low_solos_least`) exceed
    by two or more the most of farmer2's covers (an upper bound, see
    :func:`_low_solo_covers`) or the most of farmer1's plays that win the
    trick back (an upper bound, see :func:`_regains`), the landlord wins."""
    w = pbuf[2]
    m = CW_MERGED
    keep = m + THREAT_KEEP
    one = m + THREAT_ONE
    # The node's merged profile, kept aside for its ordering.
    for t in range(PROF_W):
        w[keep + t] = w[m + t]
    res = 0
    tp = _threat_profile(hands, flags, w, one, sc, sk, prof, pbuf, cwm)
    if tp == 2 or (tp == 1 and (pk == 0 or lb != 0)):
        # Farmer2 against the threats alone.
        for t in range(PROF_W - 2):
            w[m + t] = w[one + t]
        w[m + PROF_W - 2] = -1
        w[m + PROF_W - 1] = 3
        if _control_split(hands, 2, hands[2], flags, 3, sc, sk, prof, pbuf, cwm) == 0:
            lr = _solo_threats_top(w, one) if count != 0 else -1
            if lr >= 0:
                least = _low_solos_least(hands[1], lr, sc)
                if least >= 2 and (least >= _low_solo_covers(hands[2], lr) + 2
                                   or least >= _regains(hands[1], hands[2], lr, flags, sc, sk, prof, pbuf) + 2):
                    res = 2
            r2 = _profile_row(prof, hands[2], flags, pbuf) if res == 0 else -1
            if r2 >= 0:
                # Farmer1 against what a threat beats and farmer2 cannot
                # beat with a safe play.
                xbomb = (w[one + T_BOMB] >> 4) & 15
                fbomb = (prof[r2, 2 + T_BOMB] >> 4) & 15
                frocket = prof[r2, 2 + T_ROCKET] != 0
                if w[one + T_ROCKET] != 0:
                    empty = False
                elif xbomb > 0:
                    empty = frocket or fbomb > xbomb
                else:
                    empty = frocket or fbomb > 0
                for t in range(PROF_W - 2):
                    x = w[one + t]
                    if empty:
                        x = 0
                    elif xbomb == 0 and t != T_ROCKET:
                        fw = prof[r2, 2 + t]
                        for i in range(15):
                            v = (x >> (4 * i)) & 15
                            if v != 0 and ((fw >> (4 * i)) & 15) >= v:
                                x &= ~(15 << (4 * i))
                    w[m + t] = x
                w[m + PROF_W - 2] = -1
                w[m + PROF_W - 1] = 2
                if _control_split(hands, 1, hands[1], flags, 3, sc, sk, prof, pbuf, cwm) == 0:
                    res = 2
    for t in range(PROF_W):
        w[m + t] = w[keep + t]
    return res


@kernel
def _plays_out(hand, flags, pk, pbuf):
    """True when ``hand`` can be played whole over the play ``pk`` (0: a
    lead): the seat holding it, to move, goes out at once.  Asks the move
    generator (into ``pbuf``'s rows 0 and 1); False when it lists more plays
    than they hold."""
    n = gen_into_scratch(hand, flags, pk, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return False
    for i in range(n):
        if pbuf[0, i] == hand:
            return True
    return False


@kernel
def _sort_range(a, lo, hi):
    """Sort ``a[lo:hi]`` in place (a shell sort: no allocation, so kernels
    compiled without reference counting can call it)."""
    gap = 1
    while gap * 3 + 1 < hi - lo:
        gap = gap * 3 + 1
    while gap >= 1:
        for i in range(lo + gap, hi):
            x = a[i]
            j = i
            while j - gap >= lo and a[j - gap] > x:
                a[j] = a[j - gap]
                j -= gap
            a[j] = x
        gap //= 3


@kernel
def _score(hands, turn, lb, c, k, answering, scanned, flags, nplayers, memo, dwork, sc, sk, prof, pbuf, cwm):
    """Ordering score of one move (higher first); -1 when it provably wins,
    -2 when ``dwork`` is too small for the decomposer (grow it and call again).
    ``scanned``: the plays nobody can beat were already looked at for an
    immediate win, or the whole hand shown to have no control split (see
    :func:`_expand`), so the check is not made again."""
    hand = hands[turn]
    if k == PASS_KIND:
        if nplayers == 3 and _team(lb, 3) == _team(turn, 3):
            return 1 << 20
        # Otherwise pass last: beating, even at the cost of the hand's
        # structure, refutes more often (measured: 2.4x fewer nodes).
        return 0
    rest = hand - c
    if rest == 0:
        return -1
    mp = min_plays_memo_in(rest, flags, memo, dwork)
    if mp < 0:
        return -2
    free = _free(hands, turn, k, flags, nplayers, prof, pbuf)
    if free and scanned == 0 and (mp == 1 or _control_win(hands, turn, rest, flags, nplayers, sc, sk, prof, pbuf, cwm)):
        return -1
    cnt = 0
    x = c
    while x:
        cnt += x & 15
        x >>= 4
    t = k & 31
    if t == T_BOMB or t == T_ROCKET:
        # Bombs and the rocket last, just before a pass (17% fewer nodes).
        return 1
    # Half-plays: no bonus for an unanswerable lead (spending control early is
    # seldom right; the bonus cost 2.4x more nodes on 17-card deals), and an
    # unanswerable answer counts one and a half plays more (keep the top card
    # when a lower one beats: 10x fewer nodes on the hardest 17-card deal).
    prim = 2 * (40 - mp) + 4
    if free and answering != 0:
        prim -= 3
    return (prim << 9) | (cnt << 4) | (15 - ((k >> 5) & 15))


#: One bit per rank 3..2 (bit 4r), the packed-hand nibble layout.
RANKS_3_TO_2 = 0x1111111111111


@kernel
def _loose_ranks(hand, flags):
    """(solo, pair, trio): bit 4r set for each rank r (3..2) held exactly
    once, twice, resp. three times, that is in no chain ``hand`` could play:
    no five consecutive chain ranks through it held, for a pair or trio no
    three consecutive ones held twice, for a trio no two consecutive ones
    held three times (an airplane); hands only shrink, so none ever will."""
    top = RANKS_3_TO_2 if (flags & F_CHAINS_WITH_TWO) != 0 else RANKS_3_TO_2 >> 4
    held = (hand | (hand >> 1) | (hand >> 2)) & top
    held2 = ((hand >> 1) | (hand >> 2)) & top
    held3 = ((hand >> 2) | ((hand >> 1) & hand)) & top
    w5 = held & (held >> 4) & (held >> 8) & (held >> 12) & (held >> 16)
    in5 = w5 | (w5 << 4) | (w5 << 8) | (w5 << 12) | (w5 << 16)
    w3 = held2 & (held2 >> 4) & (held2 >> 8)
    in3 = w3 | (w3 << 4) | (w3 << 8)
    w2 = held3 & (held3 >> 4)
    in2 = w2 | (w2 << 4)
    once = hand & ~(hand >> 1) & ~(hand >> 2) & RANKS_3_TO_2
    twice = (hand >> 1) & ~hand & ~(hand >> 2) & RANKS_3_TO_2
    thrice = hand & (hand >> 1) & ~(hand >> 2) & RANKS_3_TO_2
    return once & ~in5, twice & ~in5 & ~in3, thrice & ~in5 & ~in3 & ~in2


@kernel
def _above_up_to(yb, xb):
    """The rank bits (bit 4r) above the rank of bit ``yb`` up to that of
    ``xb``."""
    return ((xb << 1) - 1) & ~((yb << 1) - 1)


@kernel
def _dominated_by_lows(hand, c, k, solo, pair, mate):
    """:func:`_dominated` with the hand's :func:`_loose_ranks` given, for a
    mover whose partner holds the ranks ``mate`` (bit 4r; 0 for none): then
    the lower card must also leave the partner no card of a rank above it up
    to the kicker, so that he has the same answers to every later use of
    either card."""
    t = k & 31
    if t == T_TRIO_SOLO or t == T_AIRPLANE_SOLO or t == T_FOUR_TWO_SOLO or t == T_FOUR_SOLO:
        kick = c & ~(c >> 1) & ~(c >> 2) & hand & ~(hand >> 1) & ~(hand >> 2) & RANKS_3_TO_2
        low = solo
    elif t == T_TRIO_PAIR or t == T_AIRPLANE_PAIR or t == T_FOUR_TWO_PAIR or t == T_FOUR_PAIR:
        kick = (c >> 1) & ~c & ~(c >> 2) & (hand >> 1) & ~hand & ~(hand >> 2) & RANKS_3_TO_2
        low = pair
    else:
        return False
    if kick == 0 or c == hand:
        return False
    low &= ~((c | (c >> 1) | (c >> 2)) & RANKS_3_TO_2)
    if low == 0:
        return False
    if mate == 0:
        # Dominated when some kicker's rank is above the lowest such rank left out.
        return kick > (low & -low)
    # Some kicker x and the nearest such rank y below it with no rank of the
    # partner's above y up to x.
    while kick != 0:
        xb = kick & -kick
        kick ^= xb
        below = low & (xb - 1)
        if below != 0:
            if (mate & _above_up_to(1 << high_bit(below), xb)) == 0:
                return True
    return False


@kernel
def _dominated(hand, c, k, flags):
    """True when the play ``c`` (kind ``k``) from ``hand`` is dominated by the
    same play with a lower kicker.

    Say a solo kicker x (not a joker, its rank held once) goes with the body,
    and a lower card y (not a joker, its rank held once, not in the play) is
    in no chain the hand could make.  The same body with y instead of x is
    legal and leaves x instead of y: every later use of y (a single, or a
    kicker) can be made with x, which beats more and leaves the opponents
    fewer answers, so that play is at least as good for the mover whatever
    follows.  The same for a pair kicker (a rank held exactly twice) against
    a lower pair held exactly twice in no chain or pair chain.  Holds for
    either player of a two-player game and for the landlord, and for a
    farmer whose partner a relaxation sets aside (a two-player game); for a
    farmer otherwise only when his partner holds no card of a rank between
    the two (he may have wanted to beat the lower card; see
    :func:`_dominated_by_lows` with the partner's ranks)."""
    solo, pair, _ = _loose_ranks(hand, flags)
    return _dominated_by_lows(hand, c, k, solo, pair, 0)


@kernel
def _drop_dominated(hands, turn, flags, nplayers, mc, mk, start, n, pk):
    """Remove the dominated plays (see :func:`_dominated` and
    :func:`_dominated_by_lower`) from the ``n`` plays at ``start``, keeping
    the order of the others; returns how many are left.  ``pk``: the play to
    answer (0 for a lead).  For every seat; for a farmer whose partner
    plays, the partner must also hold no card of a rank between the two
    cards (he then has the same answers to every later use of either)."""
    hand = hands[turn]
    lows = _loose_ranks(hand, flags)
    solo, pair, trio = lows
    if (solo | pair | trio) == 0:
        return n
    # Ranks of which an opponent could play a single, a pair, a trio.  A
    # farmer's partner must keep every answer he had (a pair or trio may
    # later be split), so for a farmer with a partner every rank the
    # partner holds counts for all three.
    me = _team(turn, nplayers)
    opp1 = 0
    opp2 = 0
    opp3 = 0
    mate = 0
    for q in range(nplayers):
        if q != turn:
            h = hands[q]
            any_ = (h | (h >> 1) | (h >> 2)) & RANKS_3_TO_2
            if _team(q, nplayers) != me:
                opp1 |= any_
                opp2 |= ((h >> 1) | (h >> 2)) & RANKS_3_TO_2
                opp3 |= ((h >> 2) | ((h >> 1) & h)) & RANKS_3_TO_2
            else:
                mate = any_
                opp1 |= any_
                opp2 |= any_
                opp3 |= any_
    opps = (opp1, opp2, opp3)
    m = 0
    for i in range(n):
        c = mc[start + i]
        k = mk[start + i]
        if _dominated_by_lows(hand, c, k, solo, pair, mate):
            continue
        if _dominated_by_lower(hand, c, k, lows, opps, pk):
            continue
        mc[start + m] = c
        mk[start + m] = k
        m += 1
    return m


@kernel
def _dominated_by_lower(hand, c, k, lows, opps, pk):
    """True when the single, pair or trio (kickers allowed) ``c`` of kind
    ``k`` is dominated by the same play with a lower loose rank.

    Say the mover plays a single x (not a joker, its rank held once) where a
    lower single y (its rank held once, in no chain the hand could make:
    ``lows[0]``, the ``solo`` of :func:`_loose_ranks`) would do too (a lead,
    or y also beats the play to answer ``pk``), and no opponent holds a card
    of a rank above y up to x (``opps[0]``: the ranks the opponents hold).
    Then the opponents' answers to y are exactly their answers to x, and
    playing y leaves x instead of y: every later use of y (a single, a
    kicker) can be made with x, which beats more and leaves the opponents
    fewer answers.  So playing y is at least as good whatever follows.  The
    same for a pair x (held exactly twice) against a lower loose pair y
    (``lows[1]``) when no opponent holds two cards of a rank above y up to x
    (``opps[1]``), and for a trio body x (held exactly three times, with the
    same kickers, none of rank y) against a lower loose trio y (``lows[2]``)
    when no opponent holds three cards of a rank in between (``opps[2]``).
    For a farmer whose partner plays, ``opps`` also hold every rank the
    partner holds: the partner's answers to y and x, and to every later use
    of either, are then the same too (see :func:`_drop_dominated`)."""
    t = k & 31
    if t == T_SOLO:
        j = 0
        mine = hand & ~(hand >> 1) & ~(hand >> 2)
    elif t == T_PAIR:
        j = 1
        mine = (hand >> 1) & ~hand & ~(hand >> 2)
    elif (t == T_TRIO or t == T_TRIO_SOLO or t == T_TRIO_PAIR) and (k >> 9) == 1:
        j = 2
        mine = hand & (hand >> 1) & ~(hand >> 2)
    else:
        return False
    x = (k >> 5) & 15
    if x >= 13:
        return False
    xb = 1 << (4 * x)
    if (mine & xb) == 0:
        return False
    # Lower loose ranks not among the play's cards (a trio's kickers).
    below = lows[j] & (xb - 1) & ~((c | (c >> 1) | (c >> 2)) & RANKS_3_TO_2)
    if below == 0:
        return False
    # The nearest such y below x: if an opponent can answer between it and
    # x, he can between any lower one and x too.
    yb = 1 << high_bit(below)
    if pk != 0 and yb <= (1 << (4 * ((pk >> 5) & 15))):
        return False
    return (opps[j] & _above_up_to(yb, xb)) == 0


@kernel
def _expand(hands, turn, pk, lb, flags, nplayers, mc, mk, key, ekey, start, memo, dwork, sc, sk, prof, pbuf, cwm, tt,
            nbuckets, dominance, cover, threat, out_now, known_lost):
    """Generate and order the moves of a node into the buffers at ``start``
    (and, from the cutoff probe, each move's child key into the rows of
    ``ekey``, columns 0-3, and in column 4 the seat to move after it, the
    play to answer and who made it: ``nxt | clb << 2 | cpk << 4``).

    Returns (n, immediate): ``n`` moves (pass included, as kind -1) whose
    order is ``key[start:start+n] & 0xFFFF``; ``immediate`` is 1 when an exact
    shortcut proves a win for the side to move, 2 when the cover rule (see
    :func:`_covered`, on when ``cover`` is not 0) proves a loss; ``n ==
    -needed`` when the move buffers are too small and ``n == -1`` when
    ``dwork`` is.  With ``out_now`` not 0, a move after which another seat
    is to move and goes out at once (his hand one play, which beats the play
    standing: see :func:`_plays_out`) is settled here: a win when that seat
    is of the mover's team, else left out of the moves (it loses), so
    neither becomes a node; with ``known_lost`` not 0, so is a move whose
    child the cutoff probe finds stored as a loss for the mover.  ``n`` may
    then be 0 (the node lost).  With ``threat & 4`` (and the rule on), a
    landlord's move that leaves him at most ``AHEAD_PLAYS`` plays and after
    which the farmer to move loses by :func:`_threat_rule` wins the node
    (``immediate`` 1).
    """
    hand = hands[turn]
    cap = mc.shape[0] - start - 1
    if cap < 0:
        return -(start + 2), 0
    n = gen_into_scratch(hand, flags, pk, mc[start:start + cap], mk[start:start + cap], pbuf[2])
    if n > cap:
        return -(start + n + 2), 0
    for i in range(n):
        if mc[start + i] == hand:
            return n, 1
    if n > 0 or pk == 0:
        _merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    else:
        # A forced pass: nothing to weigh.
        pbuf[2, CW_MERGED + PROF_W - 1] = 0
    # Whether the ordering must still look for a lead no one can answer that
    # leaves one play or a control win: only when the control-win search of
    # the whole hand gave up, since such a lead and the rest's split are a
    # split of the whole hand.  (Answers are looked at just below.)
    scanned = 1
    if pk == 0:
        cs = _control_split(hands, turn, hand, flags, nplayers, sc, sk, prof, pbuf, cwm)
        if cs == 1:
            return n, 1
        if cs == 2:
            scanned = 0
    if pk != 0 and n > 0:
        # An answer nobody can beat that leaves one play or a control win
        # ends the node before the cutoff probe renames every child's key.
        for i in range(n):
            if _free(hands, turn, mk[start + i], flags, nplayers, prof, pbuf):
                rest = hand - mc[start + i]
                mp = min_plays_memo_in(rest, flags, memo, dwork)
                if mp < 0:
                    return -1, 0
                if mp == 1 or _control_win(hands, turn, rest, flags, nplayers, sc, sk, prof, pbuf, cwm):
                    return n, 1
    # The threat and cover rules: real three-player positions only.  A
    # two-hand game (two players, or a relaxation with a farmer set aside)
    # has an empty hand, and there they cost more time than they save.
    three_hands = hands[1] != 0 and hands[2] != 0
    if (threat != 0 and turn != 0 and three_hands
            and _threat_rule(hands, turn, pk, lb, flags, sc, sk, prof, pbuf, cwm, threat & 2) != 0):
        return n, 2
    if cover != 0 and (n > 0 or pk == 0) and three_hands:
        cv = _covered(hands, turn, pk, lb, flags, nplayers, mc, mk, start + n + 1, memo, dwork, sc, sk, prof, pbuf,
                      cwm)
        if cv < 0:
            return -1, 0
        if cv == 1:
            return n, 2
    if dominance != 0:
        n = _drop_dominated(hands, turn, flags, nplayers, mc, mk, start, n, pk)
    if pk != 0:
        mc[start + n] = 0
        mk[start + n] = PASS_KIND
        n += 1
    # Enhanced transposition cutoff: a child already proven good for us ends
    # the node.  The children's keys first (into ``ekey``, where each child
    # takes its own), each bucket prefetched, then the probes (in blocks
    # whose buckets and children's teams fit the two halves of the scratch):
    # the cache misses overlap.
    me = _team(turn, nplayers)
    block = sc.shape[0] // 2
    dropped = 0
    # Which other seats hold one play (the decomposer's memo): only they can
    # go out at once.  (The mover's own rest is the shortcuts' business.)
    one = 0
    if out_now != 0:
        for q in range(nplayers):
            if q != turn and hands[q] != 0:
                mp = min_plays_memo_in(hands[q], flags, memo, dwork)
                if mp < 0:
                    return -1, 0
                if mp == 1:
                    one |= 1 << q
    for b0 in range(0, n, block):
        b1 = min(n, b0 + block)
        for i in range(b0, b1):
            c = mc[start + i]
            nxt, cpk, clb = _after_move(hands, turn, mk[start + i], pk, lb, nplayers, flags, prof, pbuf)
            # A child's value is for its own side to move (the seat after a
            # pass over those who cannot answer): good for us when it is ours.
            sc[block + i - b0] = 1 if _team(nxt, nplayers) == me else 0
            hands[turn] -= c
            if (one >> nxt) & 1 and _plays_out(hands[nxt], flags, cpk, pbuf):
                hands[turn] += c
                if _team(nxt, nplayers) == me:
                    return n, 1
                # Lost: no key, no probe; left out below.
                ekey[start + i, 4] = -1
                dropped += 1
                continue
            k0, k1, k2, km = _canon(hands[0], hands[1], hands[2] if nplayers == 3 else 0,
                                    _misc(nxt, clb, cpk, flags, nplayers))
            hands[turn] += c
            base = _bucket_base(k0, k1, k2, km, nbuckets)
            prefetch(tt, base)
            # The ordering looks up every move's rest in the decomposer's memo.
            min_plays_prefetch(hands[turn] - c, memo)
            ekey[start + i, 0] = k0
            ekey[start + i, 1] = k1
            ekey[start + i, 2] = k2
            ekey[start + i, 3] = km
            ekey[start + i, 4] = nxt | (clb << 2) | (cpk << 4)
            sc[i - b0] = base
        for i in range(b0, b1):
            r = start + i
            if ekey[r, 4] < 0:
                continue
            v = _tt_find(tt, sc[i - b0], ekey[r, 0], ekey[r, 1], ekey[r, 2], ekey[r, 3])
            if v >= 0:
                if v == sc[block + i - b0]:
                    return n, 1
                if known_lost != 0:
                    ekey[r, 4] = -1
                    dropped += 1
    if dropped > 0:
        j = start
        for r in range(start, start + n):
            if ekey[r, 4] >= 0:
                if j != r:
                    mc[j] = mc[r]
                    mk[j] = mk[r]
                    for q in range(5):
                        ekey[j, q] = ekey[r, q]
                j += 1
        n = j - start
    if (threat & 4) != 0 and turn == 0 and three_hands:
        # The threat rule one ply ahead: a move of the landlord after which
        # a farmer is to move and loses by the rule wins the node (whatever
        # the ordering would have tried first), with no node for the child.
        ahead = False
        for i in range(n):
            nw = ekey[start + i, 4]
            nxt = nw & 3
            if nxt == 0:
                continue
            c = mc[start + i]
            mp = min_plays_memo_in(hands[0] - c, flags, memo, dwork)
            if mp < 0:
                return -1, 0
            if mp > AHEAD_PLAYS:
                continue
            hands[0] -= c
            if out_now == 0 and _plays_out(hands[nxt], flags, nw >> 4, pbuf):
                # The farmer goes out at once: not the rule's business.  (With
                # out_now such moves were left out above.)
                hands[0] += c
                continue
            _merge_opponents(hands, nxt, flags, 3, prof, pbuf)
            ahead = True
            lost = _threat_rule(hands, nxt, nw >> 4, (nw >> 2) & 3, flags, sc, sk, prof, pbuf, cwm, threat & 2)
            hands[0] += c
            if lost != 0:
                return n, 1
        if ahead:
            _merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    for i in range(n):
        c = mc[start + i]
        k = mk[start + i]
        score = _score(hands, turn, lb, c, k, 1 if pk != 0 else 0, scanned, flags, nplayers, memo, dwork,
                       sc, sk, prof, pbuf, cwm)
        if score == -2:
            return -1, 0
        if score < 0:
            return n, 1
        key[start + i] = ((((1 << 22) - score) << 16) | i)
    _sort_range(key, start, start + n)
    return n, 0


@flat_kernel
def search_step(hands, nplayers, flags, tt, nbuckets, ctl, budget,
                f_turn, f_pk, f_lb, f_start, f_n, f_i, f_phase, f_cards, f_nodes0, f_who, f_key,
                mc, mk, key, ekey, memo, dwork, sc, sk, prof, pbuf, cwm):
    """Run (or resume) the search on the stack until it is done (``ST_DONE``,
    the value for the side to move at the root in ``ctl[C_RESULT]``), has
    searched up to ``budget`` nodes in all (``ST_PAUSED``), needs a bigger move
    buffer (``ST_GROW``), a bigger table (``ST_TABLE``) or a bigger decomposer
    work array (``ST_MEMO``); a call after a
    pause resumes exactly.  The arrays are a :class:`Solver`'s (see
    ``Solver._value``, which sets up the root frame and runs the slices).
    A frame below the top has taken ``f_cards[p]`` from the hand of seat
    ``f_who[p]`` (its move, or the farmer its relaxation sets aside); popping
    back to it gives them back.  ``f_key[p]`` is the frame's renamed table
    key, which it probes and stores under (``f_key[p, 3] < 0``: not worked
    out yet, as at the root and in a relaxation); a child takes it from the
    row of ``ekey`` its parent's cutoff probe filled.

    ``ctl[C_TASK]`` may ask for another task instead, done at once (the
    search state is left as it is; the slot is reset): ``TASK_SPLIT`` moves
    the entries of a table just doubled (see :func:`_tt_split`);
    ``TASK_MOVES`` puts the root frame's moves in search order into ``mc``,
    ``mk`` and ``key`` (see :func:`_ordered_moves`; its return value in
    ``ctl[C_RESULT]``), ``TASK_BEST_MOVES`` the same without the dominated
    plays (see :func:`_drop_dominated`) when ``ctl[C_DOMINANCE]`` is set.  They return
    ``ST_DONE``."""
    task = ctl[C_TASK]
    if task != TASK_SEARCH:
        ctl[C_TASK] = TASK_SEARCH
        if task == TASK_SPLIT:
            ctl[C_FILLED] = _tt_split(tt, nbuckets // 2)
        else:
            ctl[C_RESULT] = _ordered_moves(hands, f_turn[0], f_pk[0], f_lb[0], flags, nplayers, mc, mk, key,
                                           memo, dwork, sc, sk, prof, pbuf, cwm,
                                           ctl[C_DOMINANCE] if task == TASK_BEST_MOVES else 0)
        return ST_DONE
    while True:
        if ctl[C_FILLED] >= ctl[C_GROW_AT] > 0:
            return ST_TABLE
        d = ctl[C_SP]
        res = -1
        turn = f_turn[d]
        if f_phase[d] == PH_NEW:
            if ctl[C_NODES] >= budget:
                return ST_PAUSED
            r = ctl[C_RX_D]
            if r >= 0 and ctl[C_NODES] - ctl[C_RX_N0] >= ctl[C_RX_BUDGET]:
                # The relaxation under node r is over its budget: give it up
                # (every value it stored is exact) and go back to node r.
                for p in range(d - 1, r - 1, -1):
                    hands[f_who[p]] += f_cards[p]
                ctl[C_SP] = r
                ctl[C_RET] = -1
                ctl[C_RX_ABORTS] += 1
                continue
            # The node's table key (its parent's cutoff probe worked it out,
            # unless km < 0), kept for its store when it is solved.
            km = f_key[d, 3]
            if km < 0:
                k0, k1, k2, km = _canon(hands[0], hands[1], hands[2] if nplayers == 3 else 0,
                                        _misc(turn, f_lb[d], f_pk[d], flags, nplayers))
                f_key[d, 0] = k0
                f_key[d, 1] = k1
                f_key[d, 2] = k2
                f_key[d, 3] = km
            else:
                k0 = f_key[d, 0]
                k1 = f_key[d, 1]
                k2 = f_key[d, 2]
            v = _tt_find(tt, _bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km)
            if v >= 0:
                ctl[C_HITS] += 1
                ctl[C_NODES] += 1
                res = v
                # Already stored: pop without storing again.
                if d == 0:
                    ctl[C_RESULT] = res
                    ctl[C_SP] = -1
                    return ST_DONE
                ctl[C_SP] = d - 1
                p = d - 1
                hands[f_who[p]] += f_cards[p]
                ctl[C_RET] = res
                continue
            # The node's value when known without a search: a relaxation of
            # it stored as a farmers' win, or an exact shortcut of _expand.
            now = _relaxed_known(hands, turn, f_pk[d], f_lb[d], nplayers, flags, tt, nbuckets, ctl)
            if now < 0:
                n, imm = _expand(hands, turn, f_pk[d], f_lb[d], flags, nplayers, mc, mk, key, ekey,
                                 f_start[d], memo, dwork, sc, sk, prof, pbuf, cwm, tt, nbuckets, ctl[C_DOMINANCE],
                                 ctl[C_COVER], ctl[C_THREAT], ctl[C_OUT], ctl[C_KNOWN])
                if n == -1:
                    return ST_MEMO
                if n < 0:
                    ctl[C_RESULT] = -n
                    return ST_GROW
                if imm:
                    now = 1 if imm == 1 else 0
            ctl[C_NODES] += 1
            f_nodes0[d] = ctl[C_NODES]
            if d > ctl[C_MAXD]:
                ctl[C_MAXD] = d
            if now >= 0:
                res = now
            else:
                f_n[d] = n
                f_i[d] = 0
                f_phase[d] = PH_ITER
                continue
        elif f_phase[d] == PH_RELAX:
            # Back from the relaxed position (``f_who[d]`` passing throughout):
            # the farmers win it, so they win here; else try the other farmer
            # or search the moves.
            cv = ctl[C_RET]
            ctl[C_RET] = -1
            ctl[C_RX_D] = -1
            if cv == 0:
                ctl[C_RX_WINS] += 1
                res = 0
            else:
                nz = _relax_next(f_pk[d], f_who[d])
                if nz > 0:
                    e = _relax_push(hands, d, nz, ctl, f_turn, f_pk, f_lb, f_start, f_n, f_phase, f_cards, f_who, f_key)
                    if e < 0:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                else:
                    f_phase[d] = PH_ITER
                continue
        else:
            cv = ctl[C_RET]
            if cv >= 0:
                ctl[C_RET] = -1
                child_turn = f_turn[d + 1]
                v = cv if _team(child_turn, nplayers) == _team(turn, nplayers) else 1 - cv
                if v == 1:
                    res = 1
            if res < 0 and cv >= 0 and f_i[d] == 1 and f_n[d] > 1:
                # The first move failed: the node is likely lost, so try to
                # prove that at once with a relaxation.
                fz = _relax_first(hands, turn, f_pk[d], f_lb[d], nplayers, ctl)
                if fz >= 0:
                    f_phase[d] = PH_RELAX
                    e = _relax_push(hands, d, fz, ctl, f_turn, f_pk, f_lb, f_start, f_n, f_phase, f_cards, f_who, f_key)
                    if e < 0:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                    continue
            if res < 0:
                if f_i[d] == f_n[d]:
                    res = 0
                else:
                    s = f_start[d]
                    idx = key[s + f_i[d]] & 0xFFFF
                    f_i[d] += 1
                    c = mc[s + idx]
                    k = mk[s + idx]
                    # Who moves next and what stands, as the cutoff probe
                    # worked them out (see _after_move).
                    nw = ekey[s + idx, 4]
                    nxt = nw & 3
                    clb = (nw >> 2) & 3
                    cpk = nw >> 4
                    f_who[d] = turn
                    if k == PASS_KIND:
                        f_cards[d] = 0
                    else:
                        f_cards[d] = c
                        hands[turn] -= c
                    e = d + 1
                    if e >= f_turn.shape[0]:
                        ctl[C_RESULT] = -1
                        return ST_GROW
                    f_turn[e] = nxt
                    f_pk[e] = cpk
                    f_lb[e] = clb
                    for q in range(4):
                        f_key[e, q] = ekey[s + idx, q]
                    f_start[e] = s + f_n[d]
                    f_phase[e] = PH_NEW
                    ctl[C_SP] = e
                    continue
        # Node d is solved with value res for its side to move.
        work = ctl[C_NODES] - f_nodes0[d]
        lg = 0
        while work > 1 and lg < 63:
            work >>= 1
            lg += 1
        _tt_store(tt, nbuckets, f_key[d, 0], f_key[d, 1], f_key[d, 2], f_key[d, 3], res, lg, ctl)
        f_phase[d] = PH_NEW
        if d == 0:
            ctl[C_RESULT] = res
            ctl[C_SP] = -1
            return ST_DONE
        p = d - 1
        ctl[C_SP] = p
        hands[f_who[p]] += f_cards[p]
        ctl[C_RET] = res


@kernel
def _after_move(hands, turn, kind, pk, lb, nplayers, flags, prof, pbuf):
    """(seat to move, play to answer, seat that made it) after ``turn`` makes
    the move ``kind`` (a pass: ``PASS_KIND``) over ``pk`` made by ``lb``.
    A seat that can only pass passes at once, with no node of its own: one
    holding no answer to the play (read off its answer profile), and one with
    no cards, the farmer a relaxation sets aside (a real position never holds
    an empty hand).  A lead always has a seat with a play to make."""
    nxt = next_seat(turn, nplayers)
    cpk, clb = trick_after(kind, turn, pk, lb, nplayers)
    while cpk != 0 and (hands[nxt] == 0 or not _can_answer(hands[nxt], flags, cpk, prof, pbuf)):
        cpk, clb = trick_after(PASS_KIND, nxt, cpk, clb, nplayers)
        nxt = next_seat(nxt, nplayers)
    return nxt, cpk, clb


@kernel
def _relax_first(hands, turn, pk, lb, nplayers, ctl):
    """The farmer to freeze first in a relaxation of this node, or -1 for none.

    A relaxation of a three-player position where the landlord is to move:
    one farmer passes at every turn from now on (his hand set aside: an empty
    hand has no play, so a pass is all he can do), the other plays on.  The
    farmers' plays are then a subset of theirs in the real game and the
    landlord's are the same, so a farmers' win there is a farmers' win here.
    The frozen farmer must not hold the lead (the play to answer is not his):
    when the landlord leads, farmer2 is frozen first, then farmer1."""
    if turn != 0 or not _relax_allowed(hands, nplayers, ctl):
        return -1
    return _relax_seat(turn, pk, lb)


@kernel
def _relax_seat(turn, pk, lb):
    """The farmer a relaxation of this node sets aside first, or -1 for none:
    at the landlord's node farmer2, or farmer1 when farmer2 made the play to
    answer; at a farmer's node his partner, unless the partner made it (the
    farmer set aside must never hold the lead)."""
    if turn == 0:
        return 1 if pk != 0 and lb == 2 else 2
    fz = 3 - turn
    return -1 if pk != 0 and lb == fz else fz


@kernel
def _relax_allowed(hands, nplayers, ctl):
    """True when a relaxation may be tried or looked up here: three players,
    relaxations on, not inside one already, both farmers holding cards."""
    return nplayers == 3 and ctl[C_RX_BUDGET] > 0 and ctl[C_RX_D] < 0 and hands[1] != 0 and hands[2] != 0


@kernel
def _relax_next(pk, fz):
    """The farmer to freeze after farmer ``fz``'s relaxation failed, or -1:
    farmer1 after farmer2 when the landlord leads."""
    return 1 if pk == 0 and fz == 2 else -1


@kernel
def _relaxed_known(hands, turn, pk, lb, nplayers, flags, tt, nbuckets, ctl):
    """The node's value (for its side to move) when a relaxation of it (see
    :func:`_relax_first`) is already in the table as a farmers' win, else -1:
    at the landlord's node 0 (lost) without searching his first move; at a
    farmer's node 1 (won), his partner set aside.  Only outside a relaxation."""
    if turn == 0:
        fz = _relax_first(hands, turn, pk, lb, nplayers, ctl)
        want = 0
    else:
        fz = _relax_seat(turn, pk, lb)
        if fz < 0 or not _relax_allowed(hands, nplayers, ctl):
            return -1
        want = 1
    misc = _misc(turn, lb, pk, flags, nplayers)
    while fz > 0:
        keep = hands[fz]
        hands[fz] = 0
        k0, k1, k2, km = _canon(hands[0], hands[1], hands[2], misc)
        hands[fz] = keep
        if _tt_find(tt, _bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km) == want:
            return want
        fz = _relax_next(pk, fz) if turn == 0 else -1
    return -1


@kernel
def _relax_push(hands, d, fz, ctl, f_turn, f_pk, f_lb, f_start, f_n, f_phase, f_cards, f_who, f_key):
    """Enter the relaxation of node ``d`` with farmer ``fz`` frozen: the same
    position one frame up, his hand set aside in ``f_cards[d]``."""
    e = d + 1
    if e >= f_turn.shape[0]:
        return -1
    f_who[d] = fz
    f_cards[d] = hands[fz]
    hands[fz] = 0
    f_turn[e] = f_turn[d]
    f_pk[e] = f_pk[d]
    f_lb[e] = f_lb[d]
    f_key[e, 3] = -1
    f_start[e] = f_start[d] + f_n[d]
    f_phase[e] = PH_NEW
    ctl[C_SP] = e
    ctl[C_RX_D] = d
    ctl[C_RX_N0] = ctl[C_NODES]
    ctl[C_RX_TRIES] += 1
    return e


@kernel
def _ordered_moves(hands, turn, pk, lb, flags, nplayers, mc, mk, key, memo, dwork, sc, sk, prof, pbuf, cwm,
                   dominance):
    """The node's moves in search order (no shortcut exit): n, -needed when
    the move buffers are too small, or -1 when ``dwork`` is."""
    # Run the ordering with shortcuts disabled by scoring every move ourselves.
    hand = hands[turn]
    cap = mc.shape[0] - 1
    n = gen_into_scratch(hand, flags, pk, mc[:cap], mk[:cap], pbuf[2])
    if n > cap:
        return -(n + 2)
    if dominance != 0:
        n = _drop_dominated(hands, turn, flags, nplayers, mc, mk, 0, n, pk)
    if pk != 0:
        mc[n] = 0
        mk[n] = PASS_KIND
        n += 1
    _merge_opponents(hands, turn, flags, nplayers, prof, pbuf)
    for i in range(n):
        score = _score(hands, turn, lb, mc[i], mk[i], 1 if pk != 0 else 0, 0, flags, nplayers, memo, dwork, sc, sk, prof,
                       pbuf, cwm)
        if score == -2:
            return -1
        if score < 0:
            score = 1 << 21
        key[i] = ((((1 << 22) - score) << 16) | i)
    _sort_range(key, 0, n)
    return n


# Python side ---------------------------------------------------------------------------


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


@dataclasses.dataclass(frozen=True)
class _State:
    hands: tuple  # three packed hands (the third 0 in two-player)
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
        self._frames = [np.zeros(MAX_DEPTH, np.int64) for _ in range(10)] + [np.zeros((MAX_DEPTH, 4), np.int64)]
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
        #: Whether a probed node's relaxations are probed beside its moves
        #: (see :meth:`_rounds`).
        self.probe_relaxations = True
        #: Probed nodes settled by a relaxation so far (a count, for tests and benchmarks).
        self.relax_refuted = 0
        #: Skip dominated plays (see :func:`_dominated` and
        #: :func:`_dominated_by_lower`); False searches them too (for
        #: tests and measurements).
        self.dominance = True
        #: Settle a three-player lead, or an answer to the other team's play,
        #: at once when the other team covers every play the team to move
        #: could make (see :func:`_covered`; real three-hand positions only,
        #: not two-player games or relaxations); False leaves the rule out.
        self.cover = True
        #: Whether a farmer's node is lost at once when neither farmer can go
        #: out without letting the landlord make one of his threats (see
        #: :func:`_threat_rule`); False leaves the rule out.
        self.threat = True
        #: Sharpen the threat rule when the landlord's threats are all solos
        #: (as when he holds one card) by counting farmer1's solos below them
        #: against farmer2's plays that beat those (see :func:`_threat_rule`);
        #: False leaves the count out.
        self.solo_count = True
        #: Apply the threat rule one ply ahead at the landlord's nodes: a move
        #: after which the farmer to move loses by the rule wins at once.
        self.threat_ahead = True
        #: Settle a move at its parent when another seat, to move after it,
        #: goes out at once (see :func:`_plays_out`): no node for it; False
        #: leaves the rule out.
        self.out_now = True
        #: Leave out of a node's moves those whose child the cutoff probe
        #: finds stored as a loss for the mover (they would only be visited to
        #: read the table again); False searches them.
        self.known_lost = True
        # Load the search kernel now (from the disk cache, or compile it), so
        # that a solve's clock counts its search and not the loading: ordering
        # the plays of an empty hand is the cheapest call it answers.
        self._moves(_State((0, 0, 0), 0, 0, 0, 0), 2, 0)

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
        return search_step(hands, nplayers, flags, self.tt, self.nbuckets, self.ctl, budget, *self._frames,
                           mc, mk, key, self.ekey, self.memo, self.dwork, self.sc, self.sk, self.prof, self.pbuf,
                           self.cwm)

    def _set_root(self, st: _State) -> np.ndarray:
        """Put ``st``'s turn and play to answer in the root frame; returns its hands as an array."""
        f = self._frames
        f[0][0] = st.turn
        f[1][0] = st.pk
        f[2][0] = st.lb
        return np.array(st.hands, np.int64)

    def _task(self, task: int, hands: np.ndarray, mc, mk, key, nplayers: int = 2, flags: int = 0) -> int:
        """Have the search kernel do ``task`` (see :func:`search_step`) on the
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

    def _value(self, st: _State, nplayers: int, flags: int) -> int:
        """1 if the team to move at ``st`` wins, else 0; may raise SearchLimit."""
        if self._time_up():
            # Probes that end before their first pause check nothing else.
            raise SearchLimit("time limit")
        ctl = self.ctl
        hands = self._set_root(st)
        f = self._frames
        f[3][0] = 0
        f[6][0] = PH_NEW
        f[10][0, 3] = -1
        ctl[C_SP] = 0
        ctl[C_RET] = -1
        ctl[C_RX_D] = -1
        ctl[C_RX_BUDGET] = self.relax_budget
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

    def _moves(self, st: _State, nplayers: int, flags: int, best: bool = False) -> list:
        """(cards, kind) of every move at ``st`` in search order; pass is (0, -1).

        ``best``: only the moves that may be needed to find a winning one,
        without the dominated ones (as the search leaves them out, when
        :attr:`dominance` is on; see :func:`_drop_dominated`): a dominated move wins
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

    @staticmethod
    def _child(st: _State, move: tuple, nplayers: int) -> "_State | None":
        """The state after ``move``, or None when it empties the mover's hand."""
        c, k = move
        nxt = _py_next_seat(st.turn, nplayers)
        if k == PASS_KIND:
            pk, lb = _py_trick_after(k, st.turn, st.pk, st.lb, nplayers)
            return _State(st.hands, nxt, pk, lb, st.cards if pk else 0)
        hands = list(st.hands)
        hands[st.turn] -= c
        if hands[st.turn] == 0:
            return None
        return _State(tuple(hands), nxt, k, st.turn, c)

    def _move_value(self, st: _State, move: tuple, nplayers: int, flags: int) -> int:
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

    def _best(self, st: _State, nplayers: int, flags: int, depth: "int | None" = None, team=None,
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
        farmers' win in one settles the node without a winning move."""
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

    def _relaxations(self, st: _State, need_move: bool = True) -> list:
        """The relaxed positions probed beside the moves of ``st`` in the
        rounds of :meth:`_best` (see :meth:`_rounds`), each ``st`` with one
        farmer's hand set aside (he passes throughout): at the landlord's
        node each farmer the search kernel's relaxations would set aside
        (see ``_relax_first``); at a farmer's node his partner, unless the
        partner made the play to answer, and only when no winning move is
        needed (``need_move`` False: a reply probed, not the root).  A
        farmers' win in one is a farmers' win at ``st``.  Empty when
        relaxations are off."""
        h = st.hands
        if (not self.probe_relaxations or self.relax_budget <= 0 or h[1] == 0 or h[2] == 0
                or (st.turn != 0 and need_move)):
            return []
        out = []
        fz = interpreted(_relax_seat)(st.turn, st.pk, st.lb)
        while fz > 0:
            hands = list(h)
            hands[fz] = 0
            out.append(_State(tuple(hands), st.turn, st.pk, st.lb, st.cards))
            fz = interpreted(_relax_next)(st.pk, fz) if st.turn == 0 else -1
        return out

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

    def _first_win(self, st: _State, nplayers: int, flags: int, team=None, lost=None):
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

    def _probe(self, st: _State, move: tuple, nplayers: int, flags: int, depth: int) -> int:
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
        flags = position.rules.flags
        seats = position.seats
        hands = [h for _, h in position.hands] + [0] * (3 - nplayers)
        turn = seats.index(position.to_move)
        if position.last_play is None:
            root = _State(tuple(hands), turn, 0, 0, 0)
        else:
            root = _State(tuple(hands), turn, position.last_play.kind, seats.index(position.last_by),
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
                        winning.append(_notation(mv))
                        first = first or mv
                    else:
                        lost.append((i, mv))
                result = "win" if winning else "loss"
            else:
                team = _Team(engines, None) if self._helpers else None
                v, first, eng = self._best(root, nplayers, flags, team=team, lost=lost)
                result = "win" if v else "loss"
                if v:
                    winning.append(_notation(first))
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
            # Workers' tables forgotten after the search (see _probe_shared):
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
            lost_plays = [_notation(mv) for _, mv in sorted(lost, key=lambda t: t[0])]
            root_plays = plays if plays is not None else len(self._moves(root, nplayers, flags))
        return SolveResult(
            id=position.id, result=result, to_move=position.to_move, winning_plays=winning,
            line=line_plays, line_by=line_by, nodes=nodes,
            seconds=seconds, rules=position.rules.describe(), all_plays=all_plays and result != "unknown",
            stopped=stopped, tt=tt, strategy=tree, position=position, lost_plays=lost_plays,
            root_plays=root_plays)

    def _watch(self, progress, root: _State, nplayers: int, flags: int, engines, nodes0, lost) -> int:
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

    def _root_parallel(self, root: _State, nplayers: int, flags: int, all_plays: bool, node_limit, lost=None):
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
                    proven.append(_notation(moves[i]))
                    if not all_plays:
                        break
            exc = SearchLimit(team.stop)
            exc.proven = proven
            raise exc
        wins = [i for i in range(len(moves)) if vals.get(i)]
        if not all_plays:
            wins = wins[:1]
        if wins:
            return "win", [_notation(moves[i]) for i in wins], moves[wins[0]], solved_by[wins[0]]
        return "loss", [], None, solved_by.get(0, self)

    def _configure_helpers(self) -> None:
        for h in self._helpers:
            h.relax_budget = self.relax_budget
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

    def _line(self, root: _State, nplayers: int, flags: int, seats, first=None) -> tuple[list, list]:
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
            plays.append(_notation(chosen))
            by.append(seats[st.turn])
            st = self._child(st, chosen, nplayers)
            if st is None:
                break
        return plays, by

    def _tree(self, st: _State, nplayers: int, flags: int, seats, budget: list, first=None) -> dict:
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
            node = {"by": seat, "play": _notation(mv)}
            node["then"] = None if child is None else self._subtree(child, nplayers, flags, seats, budget, winner_team)
            return node
        replies = {}
        for mv in self._moves(st, nplayers, flags):
            child = self._child(st, mv, nplayers)
            replies[_notation(mv)] = None if child is None else self._subtree(child, nplayers, flags, seats, budget, winner_team)
        return {"by": seat, "replies": replies}


def _team_py(seat: int, nplayers: int) -> int:
    return seat if nplayers == 2 else (0 if seat == 0 else 1)


def _notation(move: tuple) -> str:
    c, k = move
    if k == PASS_KIND:
        return "pass"
    return Play(c, k).notation()


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

    >>> from ddz_tools.position import Position
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


__all__ = ["solve", "Solver", "SolveResult", "SearchLimit", "DEFAULT_TT_MB", "search_step"]
