"""The search core every decomposer search shares.

The fewest plays of a hand (see the package's doc):

    value(hand) = min(value(signature of hand), 1 + value(hand - p))

over its chain and airplane plays ``p``, and the value of a signature is the
fewest rank-free plays, found on a representative hand by branching on the
plays that hold its branch rank (:mod:`.signature`).  :func:`search_core`
is one memoised depth-first search with an explicit stack over both kinds of
node, in a caller's int64 work array of the layout below (the move
generator's scratch, :data:`STACK`-deep stacks, then the plays of a node and
the children of every open node): it decides every hand under classic rules
and the cases the faster searches of :mod:`.twodeck`, :mod:`.faces` and
:mod:`.natural` leave to it.

>>> import numpy as np
>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.engines.decompose import new_memo_table
>>> int(search_core(parse_cards("789TJ5AA"), 0, new_memo_table(8), np.empty(SEARCH_WORK, np.int64), 0))
3
"""

from __future__ import annotations

from ...core._jit import kernel
from ...core.kinds import (F_CHAINS_WITH_TWO, F_FOUR_WITH_ONE, F_JOKERS_AS_KICKERS, F_JOKERS_IN_FOUR_TWO,
                           F_KICKERS_DISTINCT, WILD_MASK, wild_cards)
from ...core.rules import T_AIRPLANE, T_AIRPLANE_PAIR, T_AIRPLANE_SOLO, T_CHAIN, T_PAIR_CHAIN
from ...moves.movegen import GEN_SCRATCH, gen_into_scratch
from .memo import hand_key, memo_get, memo_put
from .signature import SIG_FOUR, SIG_TAG, four_free_plays, representative_f, sig_bound, sig_cards, signature_f

__all__ = ["search_core", "lowest_rank", "SEARCH_WORK", "WORK_FIXED", "STACK", "FREE", "INF", "frame_stacks",
           "push_frame", "child_cost", "offer", "take_child"]


@kernel
def lowest_rank(hand):
    """The lowest rank a (non-empty) packed hand holds."""
    r = 0
    while (hand >> (4 * r)) & 15 == 0:
        r += 1
    return r


@kernel
def _branch_rank(hand, flags):
    """The rank whose cards a split search branches on: the lowest rank held
    that is not wild (every split covers its cards, and a laizi would be in
    far more plays), or the lowest rank when only laizi are left."""
    lz = hand & wild_cards(flags)
    nat = hand - lz
    return lowest_rank(nat if nat != 0 else hand)


#: Flag bits that matter to a hand without laizi: the classic options.
_CLASSIC_BITS = F_KICKERS_DISTINCT | F_JOKERS_AS_KICKERS | F_JOKERS_IN_FOUR_TWO | F_FOUR_WITH_ONE | F_CHAINS_WITH_TWO


@kernel
def _gen_flags(hand, flags):
    """The flags to generate the plays of ``hand`` under: a hand holding no
    laizi has exactly the classic plays (bombs of 5+ cards need laizi; the
    order of bombs does not matter to a split), so the classic generator and
    its flags serve it."""
    if (flags & WILD_MASK) != 0 and (hand & wild_cards(flags)) == 0:
        return flags & _CLASSIC_BITS
    return flags


#: Types whose body spans several ranks (searched hand by hand); every other
#: type (solo, pair, trio and four bodies with their kickers, bomb, rocket)
#: does not care which ranks it uses, so those plays are handled on rank-count
#: signatures (see :func:`search_core`).
_CHAIN_TYPES = (1 << T_CHAIN) | (1 << T_PAIR_CHAIN) | (1 << T_AIRPLANE) | (1 << T_AIRPLANE_SOLO) | (1 << T_AIRPLANE_PAIR)

#: Generator buffer for one node; grown when a hand has more leads.
_GEN_CAPACITY = 1024
#: Above any number of plays.
INF = 1 << 30

#: Bit of a child entry meaning "this child costs no play" (the signature
#: of a hand: the choice to play no more chains or airplanes).
FREE = 1 << 62


@kernel
def _expand(key, flags, gc, gk, n, out, start):
    """Children of a search node from its ``n`` generated leads ``gc/gk``,
    written to ``out[start:]``; returns the end, or -1 when one play
    finishes the node.

    A signature node (``key`` has :data:`SIG_TAG`): the signatures left by
    the rank-free plays holding the branch rank of its representative hand.
    A hand node: first its own signature marked :data:`FREE`, then the hands
    left by its chain and airplane plays."""
    residual = key >= SIG_TAG
    hand = representative_f(key ^ SIG_TAG, flags) if residual else key
    r4 = 4 * _branch_rank(hand, flags)
    end = start
    if not residual:
        out[end] = signature_f(hand, flags) | SIG_TAG | FREE
        end += 1
    for i in range(n):
        c = gc[i]
        chain = (_CHAIN_TYPES >> (gk[i] & 31)) & 1
        if residual:
            if chain or (c >> r4) & 15 == 0:
                continue
        elif not chain:
            continue
        if c == hand:
            return -1
        child = (signature_f(hand - c, flags) | SIG_TAG) if residual else hand - c
        dup = False
        for j in range(start, end):
            if out[j] == child:
                dup = True
                break
        if not dup:
            out[end] = child
            end += 1
    if residual:
        # Fewest cards left first: good splits early make the bounds bite.
        for a in range(start + 1, end):
            x = out[a]
            kx = sig_cards(x ^ SIG_TAG)
            b = a - 1
            while b >= start and sig_cards(out[b] ^ SIG_TAG) > kx:
                out[b + 1] = out[b]
                b -= 1
            out[b + 1] = x
    return end


#: Fixed part of a search work array: the generator's scratch and five stacks.
STACK = 120
WORK_FIXED = GEN_SCRATCH + 5 * STACK
#: Work entries of a first search (room for 1,024 plays of a hand).
SEARCH_WORK = WORK_FIXED + 6 * _GEN_CAPACITY


# The explicit stack every search of this package keeps: one frame per open
# node, its children in ``ch[s_next:s_end]`` (a child is a key, marked
# :data:`FREE` when taking it costs no play).


@kernel
def frame_stacks(work):
    """The four stacks after the generator's scratch in a work array: each
    frame's node, its best value so far (or its budget), its next child and
    the end of its children."""
    s = work[GEN_SCRATCH:GEN_SCRATCH + 4 * STACK]
    return s[:STACK], s[STACK:2 * STACK], s[2 * STACK:3 * STACK], s[3 * STACK:]


@kernel
def push_frame(d, node, value, top, end, s_node, s_value, s_next, s_end):
    """Open the frame of ``node`` above frame ``d``, its children
    ``ch[top:end]``; returns the new depth."""
    d += 1
    s_node[d], s_value[d], s_next[d], s_end[d] = node, value, top, end
    return d


@kernel
def child_cost(ch, i):
    """The plays taking child ``ch[i]`` costs: 0 when marked :data:`FREE`, else 1."""
    return 0 if ch[i] >= FREE else 1


@kernel
def offer(s_best, d, v):
    """Frame ``d`` keeps ``v`` when it beats its best so far."""
    if v < s_best[d]:
        s_best[d] = v


@kernel
def take_child(s_best, d, child, v, w):
    """Frame ``d`` takes ``child``, of value ``v`` (-1: not known yet) plus
    the ``w`` plays taking it costs: -1 when the value is known (offered to
    the frame), else ``child``, the node to search next."""
    if v < 0:
        return child
    offer(s_best, d, v + w)
    return -1


@kernel
def search_core(root, flags, table, work, tag):
    """Memoised DFS with an explicit stack over hand and signature nodes, in
    the caller's int64 ``work`` array (no allocation); -1 when ``work`` is too
    small (every value found so far stays in ``table``: call again with a
    bigger one).  Every key is stored xor ``tag`` (0, or a tag bit of its own
    for the values :func:`search_nf` keeps apart).

    value(signature) = fewest rank-free plays (solo, pair, trio and four
    bodies with their kickers, bomb, rocket): these plays never depend on
    which ranks they use, so hands with equal signatures have equal values.
    value(hand) = min(value(signature of hand), 1 + value(hand - p)) over
    its chain and airplane plays p.  Both are exact minima (under
    ``natural_first`` with laizi, where the order of the plays matters, an
    upper bound: see :func:`search_nf`).
    """
    scratch = work[:GEN_SCRATCH]
    s_node, s_best, s_next, s_end = frame_stacks(work)
    s_lb = work[GEN_SCRATCH + 4 * STACK:WORK_FIXED]
    cap = (work.shape[0] - WORK_FIXED) // 6
    gc = work[WORK_FIXED:WORK_FIXED + cap]
    gk = work[WORK_FIXED + cap:WORK_FIXED + 2 * cap]
    ch = work[WORK_FIXED + 2 * cap:]
    top = 0
    d = -1
    pending = root
    while True:
        if pending >= 0:
            node = pending
            pending = -1
            if node >= SIG_TAG:
                sig = node ^ SIG_TAG
                ef = flags if (sig >> 20) != 0 else flags & _CLASSIC_BITS
                hand = representative_f(sig, ef)
            else:
                ef = _gen_flags(node, flags)
                hand = node
            n = gen_into_scratch(hand, ef, 0, gc, gk, scratch)
            if n > cap or top + n + 1 > ch.shape[0] or d + 1 >= STACK:
                return -1
            end = _expand(node, ef, gc, gk, n, ch, top)
            if end < 0:
                memo_put(table, (node if node >= SIG_TAG else hand_key(node, flags)) ^ tag, 1)
                if d < 0:
                    return 1
                offer(s_best, d, 1 + child_cost(ch, s_next[d] - 1))
                continue
            d = push_frame(d, node, INF, top, end, s_node, s_best, s_next, s_end)
            # A node that is not one play needs at least 2; a signature at
            # least its bound.  Reaching the bound ends the node.
            s_lb[d] = 2
            if node >= SIG_TAG:
                lb = sig_bound(node ^ SIG_TAG)
                if lb > 2:
                    s_lb[d] = lb
            top = end
            continue
        i = s_next[d]
        if i < s_end[d] and s_best[d] > s_lb[d]:
            s_next[d] = i + 1
            w = child_cost(ch, i)
            child = ch[i] & ~FREE
            if w and child >= SIG_TAG and sig_bound(child ^ SIG_TAG) + 1 >= s_best[d]:
                continue  # cannot beat the best found
            if child >= SIG_TAG and (child & SIG_FOUR) != 0:
                v = four_free_plays(child ^ SIG_TAG)   # exact: no search
            else:
                v = memo_get(table, (child if child >= SIG_TAG else hand_key(child, flags)) ^ tag)
            pending = take_child(s_best, d, child, v, w)
            continue
        best = s_best[d]
        memo_put(table, (s_node[d] if s_node[d] >= SIG_TAG else hand_key(s_node[d], flags)) ^ tag, best)
        d -= 1
        if d < 0:
            return best
        top = s_end[d]
        offer(s_best, d, best + child_cost(ch, s_next[d] - 1))
