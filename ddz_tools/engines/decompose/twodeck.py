"""The two-deck search: four-player hands by chain places.

Under the four-player rules a hand's chain plays (chains, pair chains,
airplanes with or without pair wings) run over the places 3..A, and every
other play is rank-free (:func:`~.signature.four_free_plays` values them
exactly).  A split's chain plays are taken by their lowest place, low to high: a node is
``(hand, p)``, "the fewest plays of ``hand`` when no chain may start below
place ``p``", and

    value(hand, p) = min(value(hand, p + 1), 1 + value(hand - c, p))

over the chain plays ``c`` starting at ``p``; past the last place a chain
can start, the value is the signature's.  The ranks below ``p`` ("frozen")
are then used only by rank-free plays and as wings, as is the 2 (no chain
holds it), so which of them holds how many cards does not matter: the key
sorts their counts (the 2's nibble the largest, the frozen ranks'
descending), a node with nothing frozen is the plain hand (``p`` 0: the
values :func:`~.search.min_plays_memo` looks up), and ``p`` goes in bits 54-55 and
58-59 (a two-deck hand holds at most two of each joker: bits 52-53 and
56-57).  Searching each split once, in one order, and merging the hands
that differ only in their frozen ranks visits about a seventh of the nodes
of :func:`~.core.search_core`, which tries every chain play of every sub-hand.
Under ``chains=shanghai`` (A and 2 also run low) and
``wing_pairs_consecutive=on`` (wings placed in runs) the frozen ranks do
matter: those take :func:`~.core.search_core`.

>>> import numpy as np
>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.engines.decompose import SEARCH_WORK, new_memo_table
>>> hand = parse_cards("33344455566677788QQQQQQXXDD", decks=2)
>>> int(search_four(hand, new_memo_table(10), np.empty(SEARCH_WORK, np.int64)))
4
"""

from __future__ import annotations

from ...core._jit import kernel
from ...moves.movegen import first_subset, next_subset, pair_ranks, wing_pairs
from .core import FREE, INF, STACK, WORK_FIXED, child_cost, frame_stacks, offer, push_frame, take_child
from .memo import memo_get, memo_put
from .signature import SIG_TAG, four_free_plays, signature_four

__all__ = ["search_four"]


#: The bits of a four-player node key that hold its place.
_FOUR_PLACE = (3 << 54) | (3 << 58)


@kernel
def _four_start(hand, p):
    """The first place ``>= p`` where a chain play of ``hand`` can start
    (12: none): a solo chain needs 5 places held, a pair chain 3 held twice,
    an airplane 2 held three times."""
    while p < 12:
        c = (hand >> (4 * p)) & 15
        if c != 0:
            if p <= 7:
                ok = True
                for e in range(p + 1, p + 5):
                    if (hand >> (4 * e)) & 15 == 0:
                        ok = False
                        break
                if ok:
                    return p
            if c >= 2 and p <= 9 and (hand >> (4 * (p + 1))) & 15 >= 2 and (hand >> (4 * (p + 2))) & 15 >= 2:
                return p
            if c >= 3 and p <= 10 and (hand >> (4 * (p + 1))) & 15 >= 3:
                return p
        p += 1
    return 12


@kernel
def _four_key(hand, p):
    """The memo key of node ``(hand, p)`` (see above), or, when no chain can
    start at ``p`` or above, ``hand``'s signature tagged :data:`SIG_TAG`."""
    p = _four_start(hand, p)
    if p >= 12:
        return signature_four(hand) | SIG_TAG
    low = hand & ((1 << (4 * p)) - 1)
    if low == 0:
        return hand
    # Counting sort of the frozen counts and the 2's, largest first: the
    # largest to the 2, the others down from place 0.
    two = (hand >> 48) & 15
    key = (hand - low) & ~(15 << 48)
    top = 0
    i = -1
    for v in range(8, 0, -1):
        k = 0
        for r in range(p):
            if (low >> (4 * r)) & 15 == v:
                k += 1
        if two == v:
            k += 1
        for _ in range(k):
            if i < 0:
                top = v
            else:
                key |= v << (4 * i)
            i += 1
    return key | (top << 48) | ((p & 3) << 54) | ((p >> 2) << 58)


@kernel
def _four_add(key, out, start, end):
    """Append ``key`` to ``out[start:end]`` unless it is there; the new end."""
    for j in range(start, end):
        if out[j] == key:
            return end
    out[end] = key
    return end + 1


@kernel
def _four_children(hand, p, out, start, cap, sc):
    """The children of node ``(hand, p)`` after its first (no chain at
    ``p``): the nodes left by each chain play starting at place ``p``,
    distinct, written from ``out[start]``; returns the end, -1 when one play
    is the whole hand, -2 past ``cap``."""
    end = start
    pairs = sc[0:16]
    np2 = pair_ranks(hand, pairs)
    for unit in range(1, 4):
        shortest = 5 if unit == 1 else (3 if unit == 2 else 2)
        body = 0
        for e in range(p, 12):
            if (hand >> (4 * e)) & 15 < unit:
                break
            body += unit << (4 * e)
            ln = e - p + 1
            if ln < shortest:
                continue
            if body == hand:
                return -1
            if end >= cap:
                return -2
            end = _four_add(_four_key(hand - body, p), out, start, end)
            if unit < 3:
                continue
            # The airplane with ``ln`` pair wings: every set of ``ln`` ranks
            # held twice or more outside the body (the generator's order).
            cand = sc[16:32]
            m = wing_pairs(body, pairs, np2, cand)
            if m < ln:
                continue
            idx = sc[32:48]
            part = sc[48:64]
            first_subset(cand, ln, body, idx, part)
            while True:
                c = part[ln]
                if c == hand:
                    return -1
                if end >= cap:
                    return -2
                end = _four_add(_four_key(hand - c, p), out, start, end)
                if not next_subset(cand, m, ln, idx, part):
                    break
    return end


@kernel
def search_four(root, table, work):
    """The exact minimum of ``root`` under the four-player rules (without
    ``chains=shanghai`` and ``wing_pairs_consecutive``) by chain places (see
    above); -1 when ``work`` is too small (the values found stay in
    ``table``).  The value is kept under the hand itself too when its node
    has another key, so that the next :func:`min_plays_memo` of the hand is
    one look-up."""
    key = _four_key(root, 0)
    if key >= SIG_TAG:
        v = four_free_plays(key ^ SIG_TAG)
    else:
        v = _search_four_node(key, table, work)
    if v > 0 and key != root:
        memo_put(table, root, v)
    return v


@kernel
def _search_four_node(pending, table, work):
    """:func:`search_four` from the node ``pending`` (a key of
    :func:`_four_key`): a memoised DFS with an explicit stack in ``work``,
    -1 when ``work`` is too small."""
    s_node, s_best, s_next, s_end = frame_stacks(work)
    sc = work[:64]
    ch = work[WORK_FIXED:]
    cap = ch.shape[0]
    top = 0
    d = -1
    while True:
        if pending >= 0:
            node = pending
            pending = -1
            if d + 1 >= STACK or top + 1 >= cap:
                return -1
            hand = node & ~_FOUR_PLACE
            p = _four_start(hand, ((node >> 54) & 3) | (((node >> 58) & 3) << 2))
            # First child: no chain starts at p (it costs no play).
            ch[top] = _four_key(hand, p + 1) | FREE
            end = _four_children(hand, p, ch, top + 1, cap, sc)
            if end == -2:
                return -1
            if end < 0:
                memo_put(table, node, 1)
                if d < 0:
                    return 1
                offer(s_best, d, 1 + child_cost(ch, s_next[d] - 1))
                continue
            d = push_frame(d, node, INF, top, end, s_node, s_best, s_next, s_end)
            top = end
            continue
        i = s_next[d]
        # A hand that is not one play needs 2 (when it is one, the first
        # child, tried first, says so).
        if i < s_end[d] and s_best[d] > 2:
            s_next[d] = i + 1
            w = child_cost(ch, i)
            child = ch[i] & ~FREE
            if child >= SIG_TAG:
                v = four_free_plays(child ^ SIG_TAG)
            else:
                v = memo_get(table, child)
            pending = take_child(s_best, d, child, v, w)
            continue
        best = s_best[d]
        memo_put(table, s_node[d], best)
        d -= 1
        if d < 0:
            return best
        top = s_end[d]
        offer(s_best, d, best + child_cost(ch, s_next[d] - 1))
