"""The natural-first search: hands holding laizi under ``natural_first``.

Under ``natural_first`` a laizi may stand for a face only while no natural
card of that face is left outside its play, so the order of a split's plays
matters: a play may have to wait for others.  The minimum is then bounded
below by the minimum without the option (every order allowed) and above by
:func:`~.core.search_core` under it (one order: chains first, then the
rank-free plays by branch rank); the bounds usually meet
(:func:`_nf_bounds`).  When they do not, :func:`_nf_can` asks for each ``k``
from the lower bound up whether some sequence of at most ``k`` leads, each
legal in the hand left when it is made, plays the hand out.  Bounds found on
the way are kept in the memo under :data:`NF_KEY`.

>>> import numpy as np
>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.core.rules import Rules
>>> from ddz_tools.engines.decompose import SEARCH_WORK, new_memo_table
>>> rules = Rules.parse("laizi,natural_first=on").with_wild("9")   # 34569 (9 as 7), 669
>>> int(search_nf(parse_cards("3456699"), rules.flags, new_memo_table(8), np.empty(16 * SEARCH_WORK, np.int64)))
2
"""

from __future__ import annotations

from ...core._jit import kernel
from ...core.kinds import F_NATURAL_FIRST, wild_cards
from ...moves.movegen import GEN_SCRATCH, gen_into_scratch
from .core import STACK, WORK_FIXED, frame_stacks, push_frame, search_core
from .faces import search_static
from .memo import hand_key, memo_get, memo_put

__all__ = ["search_nf", "NF_KEY", "NF_BOUND"]


#: Memo tag of the upper bounds :func:`search_core` finds under
#: ``natural_first`` (chains first, then the rank-free plays by branch rank).
_NF_UB = 1 << 60
#: Memo tag of :func:`search_nf`'s entries: ``lb | ub << 8``, bounds on the
#: exact minimum under ``natural_first`` (equal once known).
NF_KEY = 1 << 62
NF_BOUND = 255


@kernel
def _sift_down(a, lo, root, n):
    """Move ``a[lo + root]`` down the max-heap ``a[lo:lo + n]`` to its place."""
    while True:
        c = 2 * root + 1
        if c >= n:
            return
        if c + 1 < n and a[lo + c + 1] > a[lo + c]:
            c += 1
        if a[lo + root] >= a[lo + c]:
            return
        a[lo + root], a[lo + c] = a[lo + c], a[lo + root]
        root = c


@kernel
def _heap_sort(a, lo, hi):
    """Sort ``a[lo:hi]`` in place (no allocation)."""
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        _sift_down(a, lo, start, n)
    for last in range(n - 1, 0, -1):
        a[lo], a[lo + last] = a[lo + last], a[lo]
        _sift_down(a, lo, 0, last)


@kernel
def _nf_bounds(hand, flags, table, swork):
    """``lb | ub << 8``: bounds on the exact minimum of ``hand`` under
    ``natural_first``, from the memo or else from two searches: the minimum
    without ``natural_first`` (every order of a split allowed: a lower bound)
    and :func:`search_core` under it (one order of the plays: an upper
    bound).  A hand without laizi has no order to mind: both are its value.
    -1 when ``swork`` is too small."""
    key = hand_key(hand, flags)
    v = memo_get(table, key | NF_KEY)
    if v >= 0:
        return v
    lb = memo_get(table, key)
    if lb < 0:
        lb = search_static(hand, flags & ~F_NATURAL_FIRST, table, swork)
        if lb < 0:
            return -1
    if (hand & wild_cards(flags)) == 0:
        ub = lb
    else:
        ub = memo_get(table, key | _NF_UB)
        if ub < 0:
            ub = search_core(hand, flags, table, swork, _NF_UB)
            if ub < 0:
                return -1
    v = lb | (ub << 8)
    memo_put(table, key | NF_KEY, v)
    return v


@kernel
def _nf_mark(table, node, yes, k, flags):
    """Keep what :func:`_nf_can` found for ``node``: at most ``k`` plays
    (``yes``) or more than ``k``."""
    key = hand_key(node, flags) | NF_KEY
    v = memo_get(table, key)
    lb = 1
    ub = NF_BOUND
    if v >= 0:
        lb = v & NF_BOUND
        ub = v >> 8
    if yes:
        if k < ub:
            ub = k
    elif k + 1 > lb:
        lb = k + 1
    memo_put(table, key, lb | (ub << 8))


@kernel
def _nf_can(root, k, flags, table, work):
    """Can ``root`` (holding laizi) be played out in at most ``k`` leads
    under ``natural_first``, each lead legal in the hand left when it is
    made?  1 yes, 0 no, -1 when ``work`` is too small.

    Exhaustive over every lead of a node, not only those holding its branch
    rank (the order of the plays matters: a laizi may take a face only once
    every other natural card of that face is gone, so a play may have to
    wait for others), cut by the bounds of :func:`_nf_bounds` on each
    child; what is found is kept in the memo as bounds.  The caller has
    made sure that the bounds of ``root`` do not decide it."""
    half = work.shape[0] // 2
    swork = work[:half]
    nw = work[half:]
    scratch = nw[:GEN_SCRATCH]
    s_node, s_k, s_next, s_end = frame_stacks(nw)
    cap = (nw.shape[0] - WORK_FIXED) // 4
    if cap < 16:
        return -1
    gc = nw[WORK_FIXED:WORK_FIXED + cap]
    gk = nw[WORK_FIXED + cap:WORK_FIXED + 2 * cap]
    ch = nw[WORK_FIXED + 2 * cap:]
    d = -1
    top = 0
    node = root
    nk = k
    while True:
        # Expand (node, nk): its children, distinct, sorted.
        if d + 1 >= STACK:
            return -1
        n = gen_into_scratch(node, flags, 0, gc, gk, scratch)
        if n > cap or top + n > ch.shape[0]:
            return -1
        one = False
        end = top
        for i in range(n):
            if gc[i] == node:
                one = True
                break
            ch[end] = node - gc[i]
            end += 1
        if one:
            _nf_mark(table, node, True, 1, flags)
            for e in range(d, -1, -1):
                _nf_mark(table, s_node[e], True, s_k[e], flags)
            return 1
        _heap_sort(ch, top, end)
        u = top
        for i in range(top, end):
            if i == top or ch[i] != ch[i - 1]:
                ch[u] = ch[i]
                u += 1
        d = push_frame(d, node, nk, top, u, s_node, s_k, s_next, s_end)
        top = u
        # Scan the children of the top frame; pop the frames that run out.
        while True:
            if d < 0:
                return 0
            i = s_next[d]
            kk = s_k[d] - 1
            descend = False
            while i < s_end[d]:
                child = ch[i]
                i += 1
                b = _nf_bounds(child, flags, table, swork)
                if b < 0:
                    return -1
                if (b >> 8) <= kk:
                    for e in range(d, -1, -1):
                        _nf_mark(table, s_node[e], True, s_k[e], flags)
                    return 1
                if (b & NF_BOUND) <= kk:
                    s_next[d] = i
                    node = child
                    nk = kk
                    descend = True
                    break
            if descend:
                break
            _nf_mark(table, s_node[d], False, s_k[d], flags)
            d -= 1
            top = s_end[d] if d >= 0 else 0


@kernel
def search_nf(root, flags, table, work):
    """Exact minimum of ``root`` (holding laizi) under ``natural_first``:
    from the bounds of :func:`_nf_bounds` up, the first ``k`` for which
    :func:`_nf_can` says yes (usually the bounds meet at once).  -1 when
    ``work`` is too small."""
    b = _nf_bounds(root, flags, table, work[:work.shape[0] // 2])
    if b < 0:
        return -1
    lb = b & NF_BOUND
    ub = b >> 8
    while lb < ub:
        r = _nf_can(root, lb, flags, table, work)
        if r < 0:
            return -1
        if r == 1:
            ub = lb
        else:
            lb += 1
    memo_put(table, hand_key(root, flags) | NF_KEY, lb | (lb << 8))
    return lb
