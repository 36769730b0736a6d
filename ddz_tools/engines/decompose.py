"""Hand decomposition: the fewest plays a hand splits into (最少手数).

Definitions
-----------
A *split* of a hand is a multiset of legal plays (under a rule set) whose
cards add up to the hand.  ``min_plays(hand)`` is the smallest size of a split:
how many times the holder must lead to play the hand out if nobody ever
answered.  It is exact (proven minimal by an exhaustive memoised search), for
every preset and rule option, because the plays come from the shared move
generator (:func:`ddz_tools.moves.movegen.gen_into`) under the same
:attr:`Rules.flags`.

On top of a minimal split, :func:`decompose` reports what players look at:

* ``uncontrolled``: plays of the split that a *same-type* higher play made
  from the cards outside the hand (the other ``54 - len(hand)`` cards) could
  beat; for a bomb, a higher bomb or the rocket outside.  This is what players
  mean by "a play I cannot take back".
* ``uncontrolled_any``: plays that any answer from the outside cards could
  beat, bombs and the rocket included (stricter: with a bomb or the rocket
  outside, every non-bomb play counts).
* ``controls``: the control cards held: 2s, jokers, bombs and the rocket.
* Among all minimal splits the reported one has the fewest ``uncontrolled``
  plays, then the fewest ``uncontrolled_any``; remaining ties go to a fixed
  deterministic order.
* ``plays`` is listed in a lead order (see :func:`lead_order`).

Algorithm
---------
Plays are *rank-bound* (chains, pair chains, airplanes with or without wings:
the body runs over consecutive ranks) or *rank-free* (solo, pair, trio, trio +
kicker, four + kickers, bomb, rocket: they fit any ranks).  So

    value(hand) = min(R(signature(hand)), 1 + value(hand - p) for rank-bound p)

where the signature counts the ranks 3..2 held once, twice, three and four
times plus the jokers, and ``R`` is the fewest rank-free plays, equal for all
hands with that signature.  ``R`` is an exact search on a representative hand,
branching only on the plays holding its lowest rank (every split covers it,
as body or kicker).  Every play comes from the shared generator, filtered by
type.  Both searches are one explicit-stack DFS memoised in an
open-addressing int64 table keyed by the packed hand (its own exact key) or
the tagged signature.  Under the four-player rules the signature's value has
a closed form, and the chain plays are taken by their lowest place, low to
high (:func:`_search_four`).

>>> min_plays("789TJ5AA")
3
>>> min_plays("33344455", "douzero"), min_plays("33344455", "standard")
(1, 2)
>>> d = decompose("33344455", "douzero")
>>> [p.notation() for p in d.plays]
['333444-55']
"""

from __future__ import annotations

import dataclasses
import threading

import numpy as np

from ..core._jit import kernel, prefetch
from ..core.cards import RANK_2, RANK_D, RANK_X, card_count, count_of, format_cards, full_deck, to_packed
from ..core.errors import ArgumentError, CardError
from ..moves.movegen import GEN_SCRATCH, first_subset, gen_all, gen_into_scratch, next_subset, pair_ranks, wing_pairs
from ..core.kinds import (
    F_CHAINS_WITH_TWO,
    F_FOUR,
    F_FOUR_WITH_ONE,
    F_JOKERS_AS_KICKERS,
    F_JOKERS_IN_FOUR_TWO,
    F_KICKERS_DISTINCT,
    F_LAIZI_ALONE_ANY,
    F_LAIZI_NO_FOUR_TWO,
    F_NATURAL_FIRST,
    F_NO_MIXED_PURE,
    F_SHANGHAI,
    F_WING_CONSECUTIVE,
    WILD_MASK,
    WILD_SHIFT,
    wild_cards,
)
from ..core.rules import (
    KICKERS,
    T_AIRPLANE,
    T_AIRPLANE_PAIR,
    T_AIRPLANE_SOLO,
    T_BOMB,
    T_CHAIN,
    T_PAIR_CHAIN,
    T_ROCKET,
    Play,
    Rules,
    kind_type,
)

# Memo table layout ------------------------------------------------------------
#
# One int64 array ``table`` of length ``2 + 2 * S`` (``S`` a power of two):
# ``table[0]`` = rule flags + 1 the entries belong to (0 = empty table),
# ``table[1]`` = number of entries, then ``S`` slots of (key, value) pairs;
# key 0 marks an empty slot (the empty hand is never stored).  When a table
# is more than 3/4 full, or was filled under other flags, it is cleared.

#: Knuth's multiplicative hash constant (2**32 / golden ratio).  The key is
#: folded to 31 bits first, so the product stays below 2**63: Numba marks
#: int64 multiplies "no signed wrap", and an overflowing one is undefined.
_HASH_MUL = 2654435761


@kernel
def _slot(key, mask):
    """Home slot of ``key`` (0 <= slot <= mask)."""
    a = (key ^ (key >> 29) ^ (key >> 47)) & 0x7FFFFFFF
    return ((a * _HASH_MUL) >> 20) & mask

#: Default number of slots (log2) of the table :func:`min_plays_fresh` allocates.
DEFAULT_MEMO_BITS = 12
#: Generator buffer for one node; grown when a hand has more leads.
_GEN_CAPACITY = 1024


@kernel
def _memo_get(table, key):
    """Value stored for ``key``, or -1."""
    mask = (table.shape[0] - 2) // 2 - 1
    i = _slot(key, mask)
    while True:
        k = table[2 + 2 * i]
        if k == key:
            return table[3 + 2 * i]
        if k == 0:
            return -1
        i = (i + 1) & mask


@kernel
def _memo_put(table, key, value):
    slots = (table.shape[0] - 2) // 2
    if 4 * (table[1] + 1) > 3 * slots:
        table[1:] = 0
    mask = slots - 1
    i = _slot(key, mask)
    while True:
        k = table[2 + 2 * i]
        if k == key:
            table[3 + 2 * i] = value
            return
        if k == 0:
            table[2 + 2 * i] = key
            table[3 + 2 * i] = value
            table[1] += 1
            return
        i = (i + 1) & mask


@kernel
def _memo_claim(table, flags):
    """Make ``table`` hold entries for ``flags`` (clearing it otherwise)."""
    f = _table_flags(flags)
    if table[0] != f + 1:
        table[:] = 0
        table[0] = f + 1


@kernel
def _table_flags(flags):
    """The flags a memo table is tagged with: ``flags``, except that with one
    wild rank which rank it is does not matter (see :func:`_hand_key`)."""
    if (flags & WILD_MASK) != 0 and ((flags >> (WILD_SHIFT + 4)) & 15) == 0:
        return (flags & ~WILD_MASK) | (15 << WILD_SHIFT)
    return flags


@kernel
def _hand_key(hand, flags):
    """The memo key of a hand: the packed hand itself, except with one wild
    rank, where the laizi count moves to bits 53-55 (free: a packed hand
    holds at most one small joker) and the wild rank's nibble is cleared.

    With a single wild rank the minimum depends only on the natural cards
    and the number of laizi, not on which rank is wild: the wild rank holds
    no natural card, a laizi in a play with natural cards may stand for any
    face, and laizi alone read as themselves make a solo, pair, trio or bomb
    whatever their rank.  So hands of deals with different wild ranks share
    one table's entries (a signature never depended on the wild rank)."""
    if (flags & WILD_MASK) == 0 or ((flags >> (WILD_SHIFT + 4)) & 15) != 0:
        return hand
    w = ((flags >> WILD_SHIFT) & 15) - 1
    lz = (hand >> (4 * w)) & 15
    return (hand & ~(15 << (4 * w))) | (lz << 53)


@kernel
def _lowest_rank(hand):
    r = 0
    while (hand >> (4 * r)) & 15 == 0:
        r += 1
    return r


@kernel
def _wild1(flags):
    """The first wild rank of ``flags`` (-1: none)."""
    return ((flags >> WILD_SHIFT) & 15) - 1


@kernel
def _wild2(flags):
    """The second wild rank of ``flags`` (-1: none)."""
    return ((flags >> (WILD_SHIFT + 4)) & 15) - 1


@kernel
def _branch_rank(hand, flags):
    """The rank whose cards a split search branches on: the lowest rank held
    that is not wild (every split covers its cards, and a laizi would be in
    far more plays), or the lowest rank when only laizi are left."""
    lz = hand & wild_cards(flags)
    nat = hand - lz
    return _lowest_rank(nat if nat != 0 else hand)


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
#: signatures (see :func:`_search`).
_CHAIN_TYPES = (1 << T_CHAIN) | (1 << T_PAIR_CHAIN) | (1 << T_AIRPLANE) | (1 << T_AIRPLANE_SOLO) | (1 << T_AIRPLANE_PAIR)
#: Tag bit of signature keys in the memo table (hands use bits 0..59).
_SIG_TAG = 1 << 61
_INF = 1 << 30


@kernel
def _signature(hand):
    """Rank-count signature: nibble ``c - 1`` = number of ranks 3..2 held
    exactly ``c`` times, bits 16.. = number of jokers."""
    s = 0
    for r in range(13):
        c = (hand >> (4 * r)) & 15
        if c:
            s += 1 << (4 * (c - 1))
    return s | ((((hand >> 52) & 15) + ((hand >> 56) & 15)) << 16)


@kernel
def _signature_f(hand, flags):
    """:func:`_signature` under ``flags``: with wild ranks, the natural ranks
    3..2 are counted as there and the laizi apart, the larger count of the two
    wild ranks at bits 20-23 and the smaller at bits 24-27 (the rank-free
    plays treat every natural rank 3..2 alike, and the two wild ranks alike:
    a laizi stands for any face, and laizi alone read as themselves make the
    same rank-free plays whichever wild rank they have).  Without laizi in
    the hand this is :func:`_signature`."""
    if (flags & F_FOUR) != 0:
        return _signature_four(hand)
    if (flags & WILD_MASK) == 0:
        return _signature(hand)
    w1 = _wild1(flags)
    w2 = _wild2(flags)
    s = 0
    l1 = 0
    l2 = 0
    for r in range(13):
        c = (hand >> (4 * r)) & 15
        if r == w1:
            l1 = c
        elif r == w2:
            l2 = c
        elif c:
            s += 1 << (4 * (c - 1))
    if l2 > l1:
        l1, l2 = l2, l1
    return s | ((((hand >> 52) & 15) + ((hand >> 56) & 15)) << 16) | (l1 << 20) | (l2 << 24)


#: Ranks a representative hand fills, in order: every other rank first, so
#: that hands of up to 7 ranks hold no chain (fewer plays to generate).
_SPREAD = (0, 2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11)


@kernel
def _representative(sig):
    """A hand with signature ``sig``: fours first, then trios, pairs and
    singles, on the ranks of :data:`_SPREAD` in order; then the small joker,
    then the big one.  Its lowest rank is its first rank (0)."""
    hand = 0
    i = 0
    for c in range(4, 0, -1):
        for _ in range((sig >> (4 * (c - 1))) & 15):
            hand |= c << (4 * _SPREAD[i])
            i += 1
    j = (sig >> 16) & 15
    if j >= 1:
        hand |= 1 << 52
    if j >= 2:
        hand |= 1 << 56
    return hand


#: Marks a signature of the four-player rules (:func:`_signature_four`).
_SIG_FOUR = 1 << 40


@kernel
def _signature_four(hand):
    """The rank-count signature of a two-deck hand (four-player rules):
    nibble ``c - 1`` = number of ranks 3..2 held exactly ``c`` times (1..8),
    bits 32-33 the small jokers, 34-35 the big ones (``XD`` is no play, so
    the two are kept apart), and :data:`_SIG_FOUR`."""
    s = _SIG_FOUR
    for r in range(13):
        c = (hand >> (4 * r)) & 15
        if c:
            s += 1 << (4 * (c - 1))
    return s | (((hand >> 52) & 3) << 32) | (((hand >> 56) & 3) << 34)


@kernel
def _representative_four(sig):
    """A hand with the four-player signature ``sig``: the biggest counts first
    on the ranks of :data:`_SPREAD`, then the jokers."""
    hand = 0
    i = 0
    for c in range(8, 0, -1):
        for _ in range((sig >> (4 * (c - 1))) & 15):
            hand |= c << (4 * _SPREAD[i])
            i += 1
    return hand | (((sig >> 32) & 3) << 52) | (((sig >> 34) & 3) << 56)


@kernel
def _four_free_plays(sig):
    """The fewest rank-free plays of a four-player signature, exactly.

    Every rank held is one play (a solo, pair, trio or bomb of up to 8
    cards; the jokers ``X``, ``XX``, ``D``, ``DD``, the four of them one
    play), except that a trio + pair carries a pair of another rank as its
    kicker: a rank held 2, 4, 6 or 8 times can go entirely as 1 to 4 kicker
    pairs (one play fewer), each needing a trio.  A rank held three times is
    a trio; a rank held six times can be two trios (one play more, two
    trios).  Every other way to split a rank saves nothing (a trio made
    from 4, 5, 7 or 8 cards costs a play for one trio, and can only carry
    away one rank held twice), so the saving is the most ranks used up as
    kickers, fewest pairs first, over how many ranks held six times are
    made two trios.  (Checked against a search over every way to split
    each rank, and against the plain-Python reference.)"""
    m = 0
    for c in range(8):
        m += (sig >> (4 * c)) & 15
    n2 = (sig >> 4) & 15
    n3 = (sig >> 8) & 15
    n4 = (sig >> 12) & 15
    n6 = (sig >> 20) & 15
    n8 = (sig >> 28) & 15
    x = (sig >> 32) & 3
    d = (sig >> 34) & 3
    j = (1 if x > 0 else 0) + (1 if d > 0 else 0)
    if x == 2 and d == 2:
        j = 1
    save = 0
    for u in range(n6 + 1):
        trios = n3 + 2 * u
        q = n2 if n2 < trios else trios
        trios -= q
        t = trios // 2
        t = n4 if n4 < t else t
        q += t
        trios -= 2 * t
        t = trios // 3
        t = n6 - u if n6 - u < t else t
        q += t
        trios -= 3 * t
        t = trios // 4
        q += n8 if n8 < t else t
        if q - u > save:
            save = q - u
    return m + j - save


@kernel
def _representative_f(sig, flags):
    """:func:`_representative` under ``flags``: with laizi in the signature
    the natural ranks skip the wild ones, and the laizi sit at the wild ranks
    (the larger count at the first); a four-player signature its own way."""
    if (sig & _SIG_FOUR) != 0:
        return _representative_four(sig)
    if (sig >> 20) == 0:
        return _representative(sig)
    w1 = _wild1(flags)
    w2 = _wild2(flags)
    hand = 0
    i = 0
    for c in range(4, 0, -1):
        for _ in range((sig >> (4 * (c - 1))) & 15):
            while _SPREAD[i] == w1 or _SPREAD[i] == w2:
                i += 1
            hand |= c << (4 * _SPREAD[i])
            i += 1
    j = (sig >> 16) & 15
    if j >= 1:
        hand |= 1 << 52
    if j >= 2:
        hand |= 1 << 56
    hand |= ((sig >> 20) & 15) << (4 * w1)
    if w2 >= 0:
        hand |= ((sig >> 24) & 15) << (4 * w2)
    return hand


@kernel
def _sig_cards(sig):
    """Number of cards of a signature."""
    if (sig & _SIG_FOUR) != 0:
        n = ((sig >> 32) & 3) + ((sig >> 34) & 3)
        for c in range(8):
            n += (c + 1) * ((sig >> (4 * c)) & 15)
        return n
    return ((sig & 15) + 2 * ((sig >> 4) & 15) + 3 * ((sig >> 8) & 15)
            + 4 * ((sig >> 12) & 15) + ((sig >> 16) & 15) + ((sig >> 20) & 15) + ((sig >> 24) & 15))


@kernel
def _sig_bound(sig):
    """A lower bound on the rank-free plays of a (non-empty) signature.

    A rank-free play covers at most 3 ranks (four + two), jokers counted as
    ranks.  Every play has one body rank (the rocket two), so every rank but
    those used up whole as kickers holds a body; kicker slots are at most 1
    per rank held three times and 2 per rank held four times.

    With laizi (bits 20..): a laizi never covers a natural rank, and each
    adds at most one kicker slot: one laizi makes a rank held three times a
    four (one slot more) or a pair a trio; a single needs two laizi to
    become a trio (one slot) and three to become a four (two); a body of
    laizi alone holds no natural rank and adds a play for its slots.

    A four-player signature: its exact value (:func:`_four_free_plays`).
    """
    if (sig & _SIG_FOUR) != 0:
        return _four_free_plays(sig)
    n1 = sig & 15
    n2 = (sig >> 4) & 15
    n3 = (sig >> 8) & 15
    n4 = (sig >> 12) & 15
    j = (sig >> 16) & 15
    m = n1 + n2 + n3 + n4 + j
    a = (m + 2) // 3
    b = m - n3 - 2 * n4 - (1 if j == 2 else 0)
    lz = (sig >> 20) & 255
    if lz != 0:
        lz = (lz & 15) + (lz >> 4)
        g = n3 + 2 * n2
        if g > lz:
            g = lz
        rest = lz - g
        t = rest // 3
        if t > n1:
            t = n1
        g += 2 * t
        if rest - 3 * t >= 2 and t < n1:
            g += 1
        b -= g
        if a < 1:
            a = 1
    return a if a > b else b


#: Bit of a child entry meaning "this child costs no play" (the signature
#: of a hand: the choice to play no more chains or airplanes).
_FREE = 1 << 62


@kernel
def _expand(key, flags, gc, gk, n, out, start):
    """Children of a search node from its ``n`` generated leads ``gc/gk``,
    written to ``out[start:]``; returns the end, or -1 when one play
    finishes the node.

    A signature node (``key`` has :data:`_SIG_TAG`): the signatures left by
    the rank-free plays holding the branch rank of its representative hand.
    A hand node: first its own signature marked :data:`_FREE`, then the hands
    left by its chain and airplane plays."""
    residual = key >= _SIG_TAG
    hand = _representative_f(key ^ _SIG_TAG, flags) if residual else key
    r4 = 4 * _branch_rank(hand, flags)
    end = start
    if not residual:
        out[end] = _signature_f(hand, flags) | _SIG_TAG | _FREE
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
        child = (_signature_f(hand - c, flags) | _SIG_TAG) if residual else hand - c
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
            kx = _sig_cards(x ^ _SIG_TAG)
            b = a - 1
            while b >= start and _sig_cards(out[b] ^ _SIG_TAG) > kx:
                out[b + 1] = out[b]
                b -= 1
            out[b + 1] = x
    return end


#: Fixed part of a search work array: the generator's scratch and five stacks.
_STACK = 120
_WORK_FIXED = GEN_SCRATCH + 5 * _STACK
#: Work entries of a first search (room for 1,024 plays of a hand).
SEARCH_WORK = _WORK_FIXED + 6 * _GEN_CAPACITY


@kernel
def _search_core(root, flags, table, work, tag):
    """Memoised DFS with an explicit stack over hand and signature nodes, in
    the caller's int64 ``work`` array (no allocation); -1 when ``work`` is too
    small (every value found so far stays in ``table``: call again with a
    bigger one).  Every key is stored xor ``tag`` (0, or a tag bit of its own
    for the values :func:`_search_nf` keeps apart).

    value(signature) = fewest rank-free plays (solo, pair, trio and four
    bodies with their kickers, bomb, rocket): these plays never depend on
    which ranks they use, so hands with equal signatures have equal values.
    value(hand) = min(value(signature of hand), 1 + value(hand - p)) over
    its chain and airplane plays p.  Both are exact minima (under
    ``natural_first`` with laizi, where the order of the plays matters, an
    upper bound: see :func:`_search_nf`).
    """
    scratch = work[:GEN_SCRATCH]
    s_node = work[GEN_SCRATCH:GEN_SCRATCH + _STACK]
    s_best = work[GEN_SCRATCH + _STACK:GEN_SCRATCH + 2 * _STACK]
    s_next = work[GEN_SCRATCH + 2 * _STACK:GEN_SCRATCH + 3 * _STACK]
    s_end = work[GEN_SCRATCH + 3 * _STACK:GEN_SCRATCH + 4 * _STACK]
    s_lb = work[GEN_SCRATCH + 4 * _STACK:_WORK_FIXED]
    cap = (work.shape[0] - _WORK_FIXED) // 6
    gc = work[_WORK_FIXED:_WORK_FIXED + cap]
    gk = work[_WORK_FIXED + cap:_WORK_FIXED + 2 * cap]
    ch = work[_WORK_FIXED + 2 * cap:]
    top = 0
    d = -1
    pending = root
    while True:
        if pending >= 0:
            node = pending
            pending = -1
            if node >= _SIG_TAG:
                sig = node ^ _SIG_TAG
                ef = flags if (sig >> 20) != 0 else flags & _CLASSIC_BITS
                hand = _representative_f(sig, ef)
            else:
                ef = _gen_flags(node, flags)
                hand = node
            n = gen_into_scratch(hand, ef, 0, gc, gk, scratch)
            if n > cap or top + n + 1 > ch.shape[0] or d + 1 >= _STACK:
                return -1
            end = _expand(node, ef, gc, gk, n, ch, top)
            if end < 0:
                _memo_put(table, (node if node >= _SIG_TAG else _hand_key(node, flags)) ^ tag, 1)
                if d < 0:
                    return 1
                w = 0 if ch[s_next[d] - 1] >= _FREE else 1
                if 1 + w < s_best[d]:
                    s_best[d] = 1 + w
                continue
            d += 1
            s_node[d] = node
            s_best[d] = _INF
            s_next[d] = top
            s_end[d] = end
            # A node that is not one play needs at least 2; a signature at
            # least its bound.  Reaching the bound ends the node.
            s_lb[d] = 2
            if node >= _SIG_TAG:
                lb = _sig_bound(node ^ _SIG_TAG)
                if lb > 2:
                    s_lb[d] = lb
            top = end
            continue
        i = s_next[d]
        if i < s_end[d] and s_best[d] > s_lb[d]:
            s_next[d] = i + 1
            child = ch[i]
            w = 1
            if child >= _FREE:
                child ^= _FREE
                w = 0
            elif child >= _SIG_TAG and _sig_bound(child ^ _SIG_TAG) + 1 >= s_best[d]:
                continue  # cannot beat the best found
            if child >= _SIG_TAG and (child & _SIG_FOUR) != 0:
                v = _four_free_plays(child ^ _SIG_TAG)   # exact: no search
            else:
                v = _memo_get(table, (child if child >= _SIG_TAG else _hand_key(child, flags)) ^ tag)
            if v >= 0:
                if v + w < s_best[d]:
                    s_best[d] = v + w
            else:
                pending = child
            continue
        best = s_best[d]
        node = s_node[d]
        _memo_put(table, (node if node >= _SIG_TAG else _hand_key(node, flags)) ^ tag, best)
        d -= 1
        if d < 0:
            return best
        top = s_end[d]
        w = 0 if ch[s_next[d] - 1] >= _FREE else 1
        if best + w < s_best[d]:
            s_best[d] = best + w


# The four-player search by chain places ------------------------------------------
#
# Under the four-player rules a hand's chain plays (chains, pair chains,
# airplanes with or without pair wings) run over the places 3..A, and every
# other play is rank-free (:func:`_four_free_plays` values them exactly).  A
# split's chain plays are taken by their lowest place, low to high: a node is
# ``(hand, p)``, "the fewest plays of ``hand`` when no chain may start below
# place ``p``", and
#
#     value(hand, p) = min(value(hand, p + 1), 1 + value(hand - c, p))
#
# over the chain plays ``c`` starting at ``p``; past the last place a chain
# can start, the value is the signature's.  The ranks below ``p`` ("frozen")
# are then used only by rank-free plays and as wings, as is the 2 (no chain
# holds it), so which of them holds how many cards does not matter: the key
# sorts their counts (the 2's nibble the largest, the frozen ranks'
# descending), a node with nothing frozen is the plain hand (``p`` 0: the
# values :func:`min_plays_memo` looks up), and ``p`` goes in bits 54-55 and
# 58-59 (a two-deck hand holds at most two of each joker: bits 52-53 and
# 56-57).  Searching each split once, in one order, and merging the hands
# that differ only in their frozen ranks visits about a seventh of the nodes
# of :func:`_search_core`, which tries every chain play of every sub-hand.
# Under ``chains=shanghai`` (A and 2 also run low) and
# ``wing_pairs_consecutive=on`` (wings placed in runs) the frozen ranks do
# matter: those take :func:`_search_core`.

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
    start at ``p`` or above, ``hand``'s signature tagged :data:`_SIG_TAG`."""
    p = _four_start(hand, p)
    if p >= 12:
        return _signature_four(hand) | _SIG_TAG
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
def _search_four(root, table, work):
    """The exact minimum of ``root`` under the four-player rules (without
    ``chains=shanghai`` and ``wing_pairs_consecutive``) by chain places (see
    above); -1 when ``work`` is too small (the values found stay in
    ``table``).  The value is kept under the hand itself too when its node
    has another key, so that the next :func:`min_plays_memo` of the hand is
    one look-up."""
    key = _four_key(root, 0)
    if key >= _SIG_TAG:
        v = _four_free_plays(key ^ _SIG_TAG)
    else:
        v = _search_four_node(key, table, work)
    if v > 0 and key != root:
        _memo_put(table, root, v)
    return v


@kernel
def _search_four_node(pending, table, work):
    """:func:`_search_four` from the node ``pending`` (a key of
    :func:`_four_key`): a memoised DFS with an explicit stack in ``work``,
    -1 when ``work`` is too small."""
    s_node = work[GEN_SCRATCH:GEN_SCRATCH + _STACK]
    s_best = work[GEN_SCRATCH + _STACK:GEN_SCRATCH + 2 * _STACK]
    s_next = work[GEN_SCRATCH + 2 * _STACK:GEN_SCRATCH + 3 * _STACK]
    s_end = work[GEN_SCRATCH + 3 * _STACK:GEN_SCRATCH + 4 * _STACK]
    sc = work[:64]
    ch = work[_WORK_FIXED:]
    cap = ch.shape[0]
    top = 0
    d = -1
    while True:
        if pending >= 0:
            node = pending
            pending = -1
            if d + 1 >= _STACK or top + 1 >= cap:
                return -1
            hand = node & ~_FOUR_PLACE
            p = _four_start(hand, ((node >> 54) & 3) | (((node >> 58) & 3) << 2))
            # First child: no chain starts at p (it costs no play).
            ch[top] = _four_key(hand, p + 1) | _FREE
            end = _four_children(hand, p, ch, top + 1, cap, sc)
            if end == -2:
                return -1
            if end < 0:
                _memo_put(table, node, 1)
                if d < 0:
                    return 1
                w = 0 if ch[s_next[d] - 1] >= _FREE else 1
                if 1 + w < s_best[d]:
                    s_best[d] = 1 + w
                continue
            d += 1
            s_node[d] = node
            s_best[d] = _INF
            s_next[d] = top
            s_end[d] = end
            top = end
            continue
        i = s_next[d]
        # A hand that is not one play needs 2 (when it is one, the first
        # child, tried first, says so).
        if i < s_end[d] and s_best[d] > 2:
            s_next[d] = i + 1
            child = ch[i]
            w = 1
            if child >= _FREE:
                child ^= _FREE
                w = 0
            if child >= _SIG_TAG:
                v = _four_free_plays(child ^ _SIG_TAG)
            else:
                v = _memo_get(table, child)
            if v >= 0:
                if v + w < s_best[d]:
                    s_best[d] = v + w
            else:
                pending = child
            continue
        best = s_best[d]
        node = s_node[d]
        _memo_put(table, node, best)
        d -= 1
        if d < 0:
            return best
        top = s_end[d]
        w = 0 if ch[s_next[d] - 1] >= _FREE else 1
        if best + w < s_best[d]:
            s_best[d] = best + w


#: Memo tag of the upper bounds :func:`_search_core` finds under
#: ``natural_first`` (chains first, then the rank-free plays by branch rank).
_NF_UB = 1 << 60
#: Memo tag of :func:`_search_nf`'s entries: ``lb | ub << 8``, bounds on the
#: exact minimum under ``natural_first`` (equal once known).
_NF_KEY = 1 << 62
_NF_BOUND = 255


@kernel
def _heap_sort(a, lo, hi):
    """Sort ``a[lo:hi]`` in place (no allocation)."""
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        root = start
        while True:
            c = 2 * root + 1
            if c >= n:
                break
            if c + 1 < n and a[lo + c + 1] > a[lo + c]:
                c += 1
            if a[lo + root] >= a[lo + c]:
                break
            a[lo + root], a[lo + c] = a[lo + c], a[lo + root]
            root = c
    for last in range(n - 1, 0, -1):
        a[lo], a[lo + last] = a[lo + last], a[lo]
        root = 0
        while True:
            c = 2 * root + 1
            if c >= last:
                break
            if c + 1 < last and a[lo + c + 1] > a[lo + c]:
                c += 1
            if a[lo + root] >= a[lo + c]:
                break
            a[lo + root], a[lo + c] = a[lo + c], a[lo + root]
            root = c


@kernel
def _nf_bounds(hand, flags, table, swork):
    """``lb | ub << 8``: bounds on the exact minimum of ``hand`` under
    ``natural_first``, from the memo or else from two searches: the minimum
    without ``natural_first`` (every order of a split allowed: a lower bound)
    and :func:`_search_core` under it (one order of the plays: an upper
    bound).  A hand without laizi has no order to mind: both are its value.
    -1 when ``swork`` is too small."""
    key = _hand_key(hand, flags)
    v = _memo_get(table, key | _NF_KEY)
    if v >= 0:
        return v
    lb = _memo_get(table, key)
    if lb < 0:
        lb = _search_static(hand, flags & ~F_NATURAL_FIRST, table, swork)
        if lb < 0:
            return -1
    if (hand & wild_cards(flags)) == 0:
        ub = lb
    else:
        ub = _memo_get(table, key | _NF_UB)
        if ub < 0:
            ub = _search_core(hand, flags, table, swork, _NF_UB)
            if ub < 0:
                return -1
    v = lb | (ub << 8)
    _memo_put(table, key | _NF_KEY, v)
    return v


@kernel
def _nf_mark(table, node, yes, k, flags):
    """Keep what :func:`_nf_can` found for ``node``: at most ``k`` plays
    (``yes``) or more than ``k``."""
    key = _hand_key(node, flags) | _NF_KEY
    v = _memo_get(table, key)
    lb = 1
    ub = _NF_BOUND
    if v >= 0:
        lb = v & _NF_BOUND
        ub = v >> 8
    if yes:
        if k < ub:
            ub = k
    elif k + 1 > lb:
        lb = k + 1
    _memo_put(table, key, lb | (ub << 8))


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
    s_node = nw[GEN_SCRATCH:GEN_SCRATCH + _STACK]
    s_k = nw[GEN_SCRATCH + _STACK:GEN_SCRATCH + 2 * _STACK]
    s_next = nw[GEN_SCRATCH + 2 * _STACK:GEN_SCRATCH + 3 * _STACK]
    s_end = nw[GEN_SCRATCH + 3 * _STACK:GEN_SCRATCH + 4 * _STACK]
    cap = (nw.shape[0] - _WORK_FIXED) // 4
    if cap < 16:
        return -1
    gc = nw[_WORK_FIXED:_WORK_FIXED + cap]
    gk = nw[_WORK_FIXED + cap:_WORK_FIXED + 2 * cap]
    ch = nw[_WORK_FIXED + 2 * cap:]
    d = -1
    top = 0
    node = root
    nk = k
    while True:
        # Expand (node, nk): its children, distinct, sorted.
        if d + 1 >= _STACK:
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
        d += 1
        s_node[d] = node
        s_k[d] = nk
        s_next[d] = top
        s_end[d] = u
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
                if (b & _NF_BOUND) <= kk:
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
def _search_nf(root, flags, table, work):
    """Exact minimum of ``root`` (holding laizi) under ``natural_first``:
    from the bounds of :func:`_nf_bounds` up, the first ``k`` for which
    :func:`_nf_can` says yes (usually the bounds meet at once).  -1 when
    ``work`` is too small."""
    b = _nf_bounds(root, flags, table, work[:work.shape[0] // 2])
    if b < 0:
        return -1
    lb = b & _NF_BOUND
    ub = b >> 8
    while lb < ub:
        r = _nf_can(root, lb, flags, table, work)
        if r < 0:
            return -1
        if r == 1:
            ub = lb
        else:
            lb += 1
    _memo_put(table, _hand_key(root, flags) | _NF_KEY, lb | (lb << 8))
    return lb


# The face DP (wild cards) -------------------------------------------------------
#
# With laizi the hand-by-hand search above meets far more chain plays (a laizi
# fills any gap), so a hand with laizi is decomposed by a dynamic programme over
# the faces 3..2 instead.  A split is its chain bodies (chains, pair chains and
# airplane bodies: runs of faces, p = 1, 2 or 3 cards a face), the wings of its
# airplanes, and rank-free plays; the rank-free plays and the wings depend only
# on the cards the bodies leave, so the DP goes face by face choosing which
# bodies cover the face, and keeps per state (the bodies still open, the
# signature of what the faces done leave, the laizi used, the airplanes whose
# wings are still to choose) the fewest bodies.  At the end the wings are
# chosen by classes of ranks (equal counts are alike) and the rest is the
# signature value of :func:`_search_core`.
#
# Exchange argument: where the bodies covering a face hold a laizi while a
# natural card of that face is elsewhere (a rank-free play, or the wing of an
# airplane not covering the face), swapping the two keeps every play legal, so
# the bodies of a face take its natural cards first (min(t, c) of them for t
# body cards and c naturals) and only the rest are laizi.  Legal unless the
# other play would then hold laizi alone and read as something else:
# ``laizi_alone_as_self`` on with laizi of both wild ranks in the hand, or
# laizi of both ranks making no bomb (``mixed_pure_bomb=off``); nor under
# ``laizi_in_four_two=off`` (a four + kickers may hold no laizi) or
# ``natural_first``.  Those cases take :func:`_search_core`.

_DP_SLOTS = 4096
_DP_MAX_STATES = 3072
_DP_MAX_BODIES = 5
_DP_MAX_PENDING = 3
_DP_WBUF = 2048
_DP_SCRATCH = 192
#: Work entries of the DP (taken from the end of a work array; the rest is
#: the signature search's).
_DP_WORK = 3 * _DP_MAX_STATES + 4 * _DP_SLOTS + _DP_MAX_STATES + _DP_SCRATCH + 2 * _DP_WBUF
#: Overflow of the DP's fixed sizes: the hand takes :func:`_search_core`.
_DP_OVERFLOW = -2


@kernel
def _dp_min_len(p):
    return 5 if p == 1 else (3 if p == 2 else 2)


@kernel
def _dp_max_len(p, wing):
    if p == 1:
        return 12
    if p == 2:
        return 10
    return 6 if wing == 0 else (5 if wing == 1 else 4)


@kernel
def _dp_applies(hand, flags):
    """May :func:`_dp_search` decompose ``hand`` (see the exchange argument)?"""
    if (flags & WILD_MASK) == 0 or (flags & (F_NATURAL_FIRST | F_LAIZI_NO_FOUR_TWO)) != 0:
        return False
    w1 = _wild1(flags)
    w2 = _wild2(flags)
    l1 = (hand >> (4 * w1)) & 15 if w1 >= 0 else 0
    l2 = (hand >> (4 * w2)) & 15 if w2 >= 0 else 0
    if l1 + l2 == 0:
        return False
    if l1 > 0 and l2 > 0:
        return (flags & F_LAIZI_ALONE_ANY) != 0 and (flags & F_NO_MIXED_PURE) == 0
    return True


@kernel
def _res_value(cls, l1, l2, flags, table, swork, cap):
    """Fewest rank-free plays of the cards a split leaves: natural ranks
    ``cls`` (counts of ranks held 1..4 times, 4 bits each), jokers at bits
    16.., ``rl`` laizi at bits 27..; the laizi may be of either wild rank
    (at most ``l1`` / ``l2``), the least of the ways.  Only values below
    ``cap`` matter (``cap`` when none is).  -1: work too small."""
    rl = (cls >> 27) & 15
    base = (cls & 0xFFFF) | (((cls >> 25) & 1) + ((cls >> 26) & 1)) << 16
    best = cap
    lo = rl - l2 if rl > l2 else 0
    hi = rl if rl < l1 else l1
    for a in range(lo, hi + 1):
        b = rl - a
        hi_l = a if a >= b else b
        lo_l = b if a >= b else a
        sig = base | (hi_l << 20) | (lo_l << 24)
        if sig == 0:
            return 0
        v = _memo_get(table, sig | _SIG_TAG)
        if v < 0:
            if _sig_bound(sig) >= best:
                continue
            v = _search_core(sig | _SIG_TAG, flags, table, swork, 0)
            if v < 0:
                return -1
        if v < best:
            best = v
    return best


@kernel
def _wing_expand(src, n_src, dst, own, k, pair, flags, sc):
    """The class states after the ``k`` wings (pairs when ``pair``) of pending
    airplane ``own`` are taken from each of ``src[:n_src]``, written to
    ``dst``; returns how many (``_DP_OVERFLOW`` past its size).

    A class state: counts of natural ranks held 1..4 times (4 bits each),
    the forbidden singles of pending airplane j (3 bits at 16 + 3j: a
    natural card of one of its body faces, no wing of its own), the jokers
    (bits 25, 26), the laizi left (bits 27..).  Natural wings come from
    distinct ranks (solo wings with ``kickers_distinct`` off may share one);
    a laizi wing takes a face of its own (there are always enough); both
    jokers only with ``jokers_as_kickers``; pair wings are a natural pair, a
    natural and a laizi, or two laizi, of distinct faces, never jokers."""
    # ops: source pool (0..3 ranks held 1..4 times, 4..6 forbidden singles of
    # airplane j, 7 small joker, 8 big joker, 9 laizi only), destination class
    # (-1 none), wings a use makes, laizi a use takes.
    o_src = sc[0:16]
    o_dst = sc[16:32]
    o_unit = sc[32:48]
    o_lz = sc[48:64]
    use = sc[64:80]
    pool = sc[80:90]
    nops = 0
    distinct = (flags & F_KICKERS_DISTINCT) != 0
    if not pair:
        for c in range(4):
            for j in range(1, c + 2):
                if j > 1 and distinct:
                    break
                o_src[nops] = c
                o_dst[nops] = c - j
                o_unit[nops] = j
                o_lz[nops] = 0
                nops += 1
        for s in range(4, 10):
            o_src[nops] = s
            o_dst[nops] = -1
            o_unit[nops] = 1
            o_lz[nops] = 1 if s == 9 else 0
            nops += 1
    else:
        for c in range(4):
            if c >= 1:
                o_src[nops] = c
                o_dst[nops] = c - 2
                o_unit[nops] = 1
                o_lz[nops] = 0
                nops += 1
            o_src[nops] = c
            o_dst[nops] = c - 1
            o_unit[nops] = 1
            o_lz[nops] = 1
            nops += 1
        for s in range(4, 7):
            o_src[nops] = s
            o_dst[nops] = -1
            o_unit[nops] = 1
            o_lz[nops] = 1
            nops += 1
        o_src[nops] = 9
        o_dst[nops] = -1
        o_unit[nops] = 1
        o_lz[nops] = 2
        nops += 1
    jak = (flags & F_JOKERS_AS_KICKERS) != 0
    m = 0
    cap = dst.shape[0]
    for si in range(n_src):
        st = src[si]
        for c in range(4):
            pool[c] = (st >> (4 * c)) & 15
        for j in range(3):
            pool[4 + j] = 0 if j == own else (st >> (16 + 3 * j)) & 7
        pool[7] = (st >> 25) & 1
        pool[8] = (st >> 26) & 1
        lz = (st >> 27) & 15
        cls = st
        rem = k
        for o in range(nops):
            use[o] = 0
        d = 0
        while True:
            if rem == 0:
                # Emit: the own forbidden singles become plain singles.
                fo = (cls >> (16 + 3 * own)) & 7
                out = (cls & ~(7 << (16 + 3 * own))) + fo
                out = (out & ~(15 << 27)) | (lz << 27)
                if m >= cap:
                    return _DP_OVERFLOW
                dst[m] = out
                m += 1
            elif d + 1 < nops:
                d += 1
                continue
            # Next use vector: one more use of op d, or back up.
            while d >= 0:
                s = o_src[d]
                ok = rem >= o_unit[d] and lz >= o_lz[d] and (s == 9 or pool[s] > 0)
                if ok and (s == 7 or s == 8) and not jak and use[d] == 0:
                    # the other joker already a wing of this airplane?
                    for e in range(nops):
                        if e != d and (o_src[e] == 7 or o_src[e] == 8) and use[e] > 0:
                            ok = False
                if ok:
                    use[d] += 1
                    rem -= o_unit[d]
                    lz -= o_lz[d]
                    if s < 9:
                        pool[s] -= 1
                        if s < 4:
                            cls -= 1 << (4 * s)
                        elif s < 7:
                            cls -= 1 << (16 + 3 * (s - 4))
                        else:
                            cls -= 1 << (25 + s - 7)
                    if o_dst[d] >= 0:
                        cls += 1 << (4 * o_dst[d])
                    break
                u = use[d]
                if u > 0:
                    rem += u * o_unit[d]
                    lz += u * o_lz[d]
                    if s < 9:
                        pool[s] += u
                        if s < 4:
                            cls += u << (4 * s)
                        elif s < 7:
                            cls += u << (16 + 3 * (s - 4))
                        else:
                            cls += u << (25 + s - 7)
                    if o_dst[d] >= 0:
                        cls -= u << (4 * o_dst[d])
                    use[d] = 0
                d -= 1
            if d < 0:
                break
    return m


@kernel
def _dp_final(res, used, pcodes, npend, jx, jd, L, l1, l2, best, flags, table, swork, wa, wb, sc):
    """Fewest rank-free plays once every pending airplane has its wings
    (below ``best``; ``best`` when none is): -1 work too small, overflow."""
    st = res | (jx << 25) | (jd << 26) | ((L - used) << 27)
    for j in range(npend):
        st |= ((pcodes[j] >> 4) & 7) << (16 + 3 * j)
    wa[0] = st
    n = 1
    src = wa
    dst = wb
    for j in range(npend):
        pc = pcodes[j]
        n = _wing_expand(src, n, dst, j, pc & 7, (pc >> 3) & 1, flags, sc)
        if n < 0:
            return n
        src, dst = dst, src
    out = best
    for i in range(n):
        v = _res_value(src[i], l1, l2, flags, table, swork, out)
        if v < 0:
            return v
        if v < out:
            out = v
            if out == 0:
                break
    return out


@kernel
def _dp_search(hand, flags, table, work):
    """The exact minimum of a hand holding laizi by the face DP (see above),
    when :func:`_dp_applies`; -1 when ``work`` is too small, ``_DP_OVERFLOW``
    when the DP's fixed sizes do not hold the hand (then
    :func:`_search_core` decides it)."""
    total = work.shape[0]
    if total < _DP_WORK + _WORK_FIXED + 6 * 64:
        return -1
    swork = work[:total - _DP_WORK]
    dw = work[total - _DP_WORK:]
    o = 0
    ca = dw[o:o + _DP_MAX_STATES]
    o += _DP_MAX_STATES
    cb = dw[o:o + _DP_MAX_STATES]
    o += _DP_MAX_STATES
    cc = dw[o:o + _DP_MAX_STATES]
    o += _DP_MAX_STATES
    ha = dw[o:o + _DP_SLOTS]
    o += _DP_SLOTS
    hb = dw[o:o + _DP_SLOTS]
    o += _DP_SLOTS
    hc = dw[o:o + _DP_SLOTS]
    o += _DP_SLOTS
    hs = dw[o:o + _DP_SLOTS]
    o += _DP_SLOTS
    hl = dw[o:o + _DP_MAX_STATES]
    o += _DP_MAX_STATES
    sc = dw[o:o + _DP_SCRATCH]
    o += _DP_SCRATCH
    wa = dw[o:o + _DP_WBUF]
    o += _DP_WBUF
    wb = dw[o:o + _DP_WBUF]
    cnt = sc[0:13]
    bp = sc[13:19]
    bw = sc[19:25]
    bl = sc[25:31]
    bf = sc[31:37]
    codes = sc[37:53]
    pcodes = sc[53:57]
    dem = sc[57:62]
    ffour = sc[62:76]
    wsc = sc[96:192]  # the wing enumeration's scratch

    w1 = _wild1(flags)
    w2 = _wild2(flags)
    l1 = (hand >> (4 * w1)) & 15 if w1 >= 0 else 0
    l2 = (hand >> (4 * w2)) & 15 if w2 >= 0 else 0
    L = l1 + l2
    jx = (hand >> 52) & 15
    jd = (hand >> 56) & 15
    for f in range(13):
        cnt[f] = 0 if (f == w1 or f == w2) else (hand >> (4 * f)) & 15
    ffour[13] = 0
    for f in range(12, -1, -1):
        ffour[f] = ffour[f + 1] + (1 if cnt[f] == 4 else 0)
    top2 = 12 if (flags & F_CHAINS_WITH_TWO) != 0 else 11

    # The split without chain bodies bounds the answer.
    best = _res_value(_signature_f(hand, flags) & 0xFFFF | (jx << 25) | (jd << 26) | (L << 27),
                      l1, l2, flags, table, swork, _INF)
    if best < 0:
        return -1
    if best <= 1:
        return best

    for i in range(_DP_SLOTS):
        hs[i] = 0
    sc[190] = 0
    sc[191] = 0
    ncur = 1
    ca[0] = 0
    cb[0] = 0
    cc[0] = 0
    for f in range(13):
        c = cnt[f]
        nn = 0
        sc[190] += ncur
        for si in range(ncur):
            A = ca[si]
            B = cb[si]
            cost = cc[si]
            nb = 0
            x = A
            while x != 0:
                code = x & 0xFFF
                bp[nb] = code & 3
                bw[nb] = (code >> 2) & 3
                bl[nb] = (code >> 4) & 15
                bf[nb] = (code >> 8) & 7
                nb += 1
                x >>= 12
            res = B & 0xFFFF
            used = (B >> 16) & 15
            npend = 0
            x = B >> 20
            while x != 0:
                pcodes[npend] = x & 0xFF
                npend += 1
                x >>= 8
            lzleft = L - used
            for mask in range(1 << nb):
                valid = True
                tcont = 0
                ncont = 0
                npend2 = npend
                closed_solo = False
                closed_pair = False
                closed_plane = False
                for i in range(nb):
                    p = bp[i]
                    wg = bw[i]
                    if (mask >> i) & 1:
                        topp = 11 if p == 1 else top2
                        if f > topp or bl[i] + 1 > _dp_max_len(p, wg):
                            valid = False
                            break
                        tcont += p
                        ncont += 1
                    else:
                        if bl[i] < _dp_min_len(p):
                            valid = False
                            break
                        if wg != 0:
                            if npend2 >= _DP_MAX_PENDING:
                                return _DP_OVERFLOW
                            pcodes[npend2] = bl[i] | ((wg - 1) << 3) | (bf[i] << 4)
                            npend2 += 1
                        elif p == 1:
                            closed_solo = True
                        elif p == 2:
                            if bl[i] + (top2 - f + 1) <= 10:
                                closed_pair = True
                        elif bl[i] + (top2 - f + 1) <= 6:
                            closed_plane = True
                if not valid:
                    continue
                room = c + lzleft - tcont
                if room < 0:
                    continue
                amax = 0 if (f + 4 > 11 or closed_solo) else room
                for a in range(amax + 1):
                    r1 = room - a
                    bmax = 0 if (f + 2 > top2 or closed_pair) else r1 // 2
                    for b in range(bmax + 1):
                        r2 = r1 - 2 * b
                        tmax = 0 if f + 1 > top2 else r2 // 3
                        for t0 in range((0 if closed_plane else tmax) + 1):
                            for t1 in range(tmax - t0 + 1):
                                for t2 in range(tmax - t0 - t1 + 1):
                                    nnew = a + b + t0 + t1 + t2
                                    t = tcont + a + 2 * b + 3 * (t0 + t1 + t2)
                                    u = t if t < c else c
                                    lz = t - u
                                    r = c - u
                                    # The bodies after this face, as codes.
                                    k = 0
                                    wing_at = -1
                                    for i in range(nb):
                                        if (mask >> i) & 1:
                                            p = bp[i]
                                            wg = bw[i]
                                            ln = bl[i] + 1
                                            if wg == 0:
                                                topp = 11 if p == 1 else top2
                                                mn = _dp_min_len(p)
                                                if ln > mn and ln + (topp - f) <= _dp_max_len(p, 0):
                                                    ln = mn
                                            if p == 3 and wg != 0:
                                                wing_at = k
                                            codes[k] = p | (wg << 2) | (ln << 4) | (bf[i] << 8)
                                            k += 1
                                    for i in range(a):
                                        codes[k] = 1 | (1 << 4)
                                        k += 1
                                    for i in range(b):
                                        codes[k] = 2 | (1 << 4)
                                        k += 1
                                    for i in range(t0):
                                        codes[k] = 3 | (1 << 4)
                                        k += 1
                                    for i in range(t1):
                                        wing_at = k
                                        codes[k] = 3 | (1 << 2) | (1 << 4)
                                        k += 1
                                    for i in range(t2):
                                        wing_at = k
                                        codes[k] = 3 | (2 << 2) | (1 << 4)
                                        k += 1
                                    nres = res
                                    if r > 0:
                                        if wing_at >= 0:
                                            # c == 4 and the winged airplane alone takes 3:
                                            # the fourth is no wing of its own.
                                            codes[wing_at] += 1 << 8
                                        else:
                                            nres += 1 << (4 * (r - 1))
                                    # Look ahead: the open bodies must reach their least length.
                                    for i in range(5):
                                        dem[i] = 0
                                    dead = False
                                    for i in range(k):
                                        p = codes[i] & 3
                                        ln = (codes[i] >> 4) & 15
                                        need = _dp_min_len(p) - ln
                                        if need > 0:
                                            topp = 11 if p == 1 else top2
                                            if f + need > topp:
                                                dead = True
                                                break
                                            for e in range(1, need + 1):
                                                dem[e] += p
                                    if dead:
                                        continue
                                    extra = 0
                                    for e in range(1, 5):
                                        if dem[e] > 0 and dem[e] > cnt[f + e]:
                                            extra += dem[e] - cnt[f + e]
                                    if extra > lzleft - lz:
                                        continue
                                    ncost = cost + nnew
                                    sc[191] += 1
                                    # Bound: the ranks left must be covered by rank-free
                                    # plays, as bodies or whole kickers (see _sig_bound).
                                    m = (nres & 15) + ((nres >> 4) & 15) + ((nres >> 8) & 15) + ((nres >> 12) & 15)
                                    slots = ((nres >> 8) & 15) + 2 * ((nres >> 12) & 15)
                                    wcap = 0
                                    for i in range(k):
                                        if (codes[i] & 3) == 3 and (codes[i] >> 2) & 3:
                                            m += (codes[i] >> 8) & 7
                                            wcap += _dp_max_len(3, (codes[i] >> 2) & 3)
                                    for j in range(npend2):
                                        m += (pcodes[j] >> 4) & 7
                                        wcap += pcodes[j] & 7
                                    lbr = m - slots - wcap - (lzleft - lz) - ffour[f + 1]
                                    if lbr < 0:
                                        lbr = 0
                                    if ncost + lbr >= best:
                                        continue
                                    if k > _DP_MAX_BODIES:
                                        return _DP_OVERFLOW
                                    # Canonical keys: codes sorted, pending sorted.
                                    for i in range(1, k):
                                        y = codes[i]
                                        e = i - 1
                                        while e >= 0 and codes[e] < y:
                                            codes[e + 1] = codes[e]
                                            e -= 1
                                        codes[e + 1] = y
                                    nA = 0
                                    for i in range(k - 1, -1, -1):
                                        nA = (nA << 12) | codes[i]
                                    pk = 0
                                    for i in range(npend2):
                                        y = pcodes[i]
                                        # insertion into a descending byte list
                                        pk = _dp_pend_insert(pk, y)
                                    nB = nres | ((used + lz) << 16) | (pk << 20)
                                    # Insert into the next layer.
                                    hh = (nA ^ (nA >> 31) ^ (nB * 3) ^ (nB >> 23)) & 0x7FFFFFFF
                                    slot = ((hh * _HASH_MUL) >> 16) & (_DP_SLOTS - 1)
                                    while True:
                                        if hs[slot] == 0:
                                            if nn >= _DP_MAX_STATES:
                                                return _DP_OVERFLOW
                                            hs[slot] = 1
                                            ha[slot] = nA
                                            hb[slot] = nB
                                            hc[slot] = ncost
                                            hl[nn] = slot
                                            nn += 1
                                            break
                                        if ha[slot] == nA and hb[slot] == nB:
                                            if ncost < hc[slot]:
                                                hc[slot] = ncost
                                            break
                                        slot = (slot + 1) & (_DP_SLOTS - 1)
        # The next layer becomes the current one.
        for i in range(nn):
            slot = hl[i]
            ca[i] = ha[slot]
            cb[i] = hb[slot]
            cc[i] = hc[slot]
            hs[slot] = 0
        ncur = nn
    # Close the bodies still open, choose the wings, value the rest.
    for si in range(ncur):
        A = ca[si]
        B = cb[si]
        cost = cc[si]
        if cost >= best:
            continue
        npend = 0
        x = B >> 20
        while x != 0:
            pcodes[npend] = x & 0xFF
            npend += 1
            x >>= 8
        ok = True
        x = A
        while x != 0:
            code = x & 0xFFF
            x >>= 12
            p = code & 3
            wg = (code >> 2) & 3
            ln = (code >> 4) & 15
            if ln < _dp_min_len(p):
                ok = False
                break
            if wg != 0:
                if npend >= _DP_MAX_PENDING:
                    return _DP_OVERFLOW
                pcodes[npend] = ln | ((wg - 1) << 3) | (((code >> 8) & 7) << 4)
                npend += 1
        if not ok:
            continue
        v = _dp_final(B & 0xFFFF, (B >> 16) & 15, pcodes, npend, jx, jd, L, l1, l2, best - cost,
                      flags, table, swork, wa, wb, wsc)
        if v < 0:
            return v
        if cost + v < best:
            best = cost + v
    return best


@kernel
def _dp_pend_insert(pk, y):
    """Insert the byte ``y`` into ``pk``, a list of bytes kept in descending
    order from the low byte up (0 bytes end it)."""
    out = 0
    shift = 0
    placed = False
    x = pk
    while x != 0 or not placed:
        b = x & 0xFF
        if not placed and (x == 0 or y >= b):
            out |= y << shift
            shift += 8
            placed = True
            continue
        out |= b << shift
        shift += 8
        x >>= 8
    return out


@kernel
def _search_in(root, flags, table, work):
    """The exact minimum of ``root`` in the caller's ``work`` array (-1 when
    it is too small): :func:`_search_core`, or :func:`_search_nf` for a hand
    holding laizi under ``natural_first``."""
    if (flags & WILD_MASK) != 0:
        if (flags & F_NATURAL_FIRST) != 0:
            if (root & wild_cards(flags)) != 0:
                return _search_nf(root, flags, table, work)
            flags &= ~F_NATURAL_FIRST
        return _search_static(root, flags, table, work)
    if (flags & (F_FOUR | F_SHANGHAI | F_WING_CONSECUTIVE)) == F_FOUR:
        return _search_four(root, table, work)
    return _search_core(root, flags, table, work, 0)


@kernel
def _search_static(root, flags, table, work):
    """The exact minimum of ``root`` without ``natural_first``: the face DP
    when it applies, :func:`_search_core` otherwise (kept in the memo under
    the hand either way).  -1 when ``work`` is too small."""
    if _dp_applies(root, flags):
        v = _dp_search(root, flags, table, work)
        if v != _DP_OVERFLOW:
            if v > 0:
                _memo_put(table, _hand_key(root, flags), v)
            return v
    return _search_core(root, flags, table, work, 0)


@kernel
def _search(root, flags, table):
    """:func:`_search_in` with a work array of its own, doubled until it fits
    (a first one 16 times bigger with wild cards: far more plays a node)."""
    size = SEARCH_WORK if (flags & WILD_MASK) == 0 else 16 * SEARCH_WORK
    while True:
        v = _search_in(root, flags, table, np.empty(size, np.int64))
        if v >= 0:
            return v
        size *= 2


@kernel
def min_plays_memo(hand, flags, table):
    """Exact minimum number of plays of ``hand``, memoised in ``table``.

    ``table`` is an int64 array of length ``2 + 2 * 2**k`` (see
    :func:`new_memo_table`); keep it between calls to reuse results (it is
    cleared automatically when used under other ``flags`` or when it gets
    3/4 full).  Returns 0 for the empty hand.
    """
    v = _memo_lookup(hand, flags, table)
    return v if v >= 0 else _search(hand, flags, table)


@kernel
def _memo_lookup(hand, flags, table):
    """The stored minimum of ``hand`` (0 for the empty hand), or -1; claims
    ``table`` for ``flags`` first."""
    if hand == 0:
        return 0
    _memo_claim(table, flags)
    if (flags & WILD_MASK) == 0:
        return _memo_get(table, hand)
    key = _hand_key(hand, flags)
    if (flags & F_NATURAL_FIRST) != 0 and (hand & wild_cards(flags)) != 0:
        v = _memo_get(table, key | _NF_KEY)
        return v >> 8 if v >= 0 and (v & _NF_BOUND) == (v >> 8) else -1
    return _memo_get(table, key)


@kernel
def min_plays_prefetch(hand, table):
    """Start loading the home slot of ``hand`` in a memo ``table`` into the
    cache, so that a :func:`min_plays_memo_in` of it soon after does not wait
    for memory (a caller with many hands to look up prefetches them all
    first, and their cache misses overlap).  Changes nothing."""
    if hand != 0:
        mask = (table.shape[0] - 2) // 2 - 1
        prefetch(table, 2 + 2 * _slot(hand, mask))


@kernel
def min_plays_memo_in(hand, flags, table, work):
    """:func:`min_plays_memo` in the caller's ``work`` array of at least
    :data:`SEARCH_WORK` entries, allocating nothing (for kernels compiled
    without reference counting): -1 when ``work`` is too small for this hand
    (call again with a bigger one; nothing is lost)."""
    v = _memo_lookup(hand, flags, table)
    return v if v >= 0 else _search_in(hand, flags, table, work)


@kernel
def min_plays_fresh(hand, flags):
    """Exact minimum number of plays of the packed ``hand`` under ``flags``,
    with a fresh small memo table (kernel).

    Callable from other kernels; allocates the table per call.  For many
    calls, :func:`min_plays_memo` with a kept table is several times faster.
    Exact for any hand; the time grows quickly past 20 cards.
    """
    if hand == 0:
        return 0
    table = np.zeros(2 + 2 * (1 << DEFAULT_MEMO_BITS), np.int64)
    return min_plays_memo(hand, flags, table)


def new_memo_table(bits: int = 16) -> np.ndarray:
    """A fresh memo table for :func:`min_plays_memo` with ``2**bits`` slots.

    >>> from ddz_tools.core.cards import parse_cards
    >>> t = new_memo_table(10)
    >>> t.shape, int(min_plays_memo(parse_cards("33344455"), Rules.parse("douzero").flags, t))
    ((2050,), 1)
    """
    if not isinstance(bits, int) or isinstance(bits, bool) or not 4 <= bits <= 26:
        raise ArgumentError(f"memo table bits must be an int from 4 to 26, not {bits!r}", param="bits")
    return np.zeros(2 + 2 * (1 << bits), np.int64)


_tables = threading.local()
STANDARD_FLAGS = Rules().flags

#: Most cards the public functions take: a landlord's hand (20; under the
#: four-player rules 33, :attr:`Rules.landlord_cards`).  The search is exact
#: for any hand, but its time grows quickly past 20 cards of one deck (about
#: 6 ms median at 30 cards, 35 ms at 34, far longer for a whole deck).
MAX_CARDS = 20


def _checked_hand(hand, rules: "Rules | None" = None) -> int:
    decks = 1 if rules is None else rules.decks
    most = MAX_CARDS if rules is None else max(MAX_CARDS, rules.landlord_cards)
    h = to_packed(hand, decks=decks)
    n = card_count(h)
    if n > most:
        raise CardError(f"{format_cards(h)!r} has {n} cards; a hand to decompose has at most {most}")
    return h


_flags_of: dict = {None: STANDARD_FLAGS}


def _rules_flags(rules) -> int:
    """``Rules.parse(rules).flags``, remembered per spec (str or Rules)."""
    try:
        return _flags_of[rules]
    except (KeyError, TypeError):
        flags = Rules.parse(rules).flags
        if isinstance(rules, (str, Rules)) and len(_flags_of) < 1024:
            _flags_of[rules] = flags
        return flags


def forget_memo() -> None:
    """Forget this thread's memo tables of :func:`min_plays` and
    :func:`decompose`, so that the next calls start cold (for timing: the
    results never change)."""
    _tables.by_flags = {}


def _shared_table(flags: int) -> np.ndarray:
    """This thread's persistent memo table for ``flags`` (kept across calls:
    signature values and sub-hands found once are reused)."""
    tables = getattr(_tables, "by_flags", None)
    if tables is None:
        tables = _tables.by_flags = {}
    key = _table_flags_py(flags)
    table = tables.get(key)
    if table is None:
        if len(tables) >= _MAX_TABLES:
            tables.pop(next(iter(tables)))  # the oldest (1 MiB each)
        table = tables[key] = new_memo_table(16)
    return table


#: Most memo tables :func:`min_plays` keeps per thread (one per rule set; the
#: deals of 天地癞子 with different wild ranks have one each).
_MAX_TABLES = 16


def _table_flags_py(flags: int) -> int:
    """:func:`_table_flags` in plain Python."""
    if flags & WILD_MASK and not (flags >> (WILD_SHIFT + 4)) & 15:
        return (flags & ~WILD_MASK) | (15 << WILD_SHIFT)
    return flags


def min_plays(hand, rules=None) -> int:
    """The exact minimum number of plays of ``hand`` (card text, Hand or packed int).

    Results are memoised in a per-thread table per rule set, so repeated
    and related hands get faster.

    >>> min_plays("3456789TJQKA2XD")  # chain 3..A, 2, rocket
    3
    >>> min_plays("")
    0
    """
    flags = _rules_flags(rules)
    h = _checked_hand(hand) if flags & F_FOUR == 0 else _checked_hand(hand, Rules.parse(rules))
    return int(min_plays_memo(h, flags, _shared_table(flags)))


@kernel
def _optimal_plays(hand, flags, table, out_cards, out_kinds, any_rank):
    """The leads holding the lowest rank of ``hand`` (every lead when
    ``any_rank``) that start a minimal split (``min(hand - play) ==
    min(hand) - 1``), written to the buffers; returns how many (counted past
    the buffer size like ``gen_into``)."""
    if hand == 0:
        return 0
    best = min_plays_memo(hand, flags, table)
    n, gc, gk = gen_all(hand, flags, 0, np.empty(256, np.int64), np.empty(256, np.int64))
    r4 = 4 * _lowest_rank(hand)
    m = 0
    for i in range(n):
        c = gc[i]
        if not any_rank and (c >> r4) & 15 == 0:
            continue
        if min_plays_memo(hand - c, flags, table) == best - 1:
            if m < out_cards.shape[0]:
                out_cards[m] = c
                out_kinds[m] = gk[i]
            m += 1
    return m


# Public API -------------------------------------------------------------------

#: Default cap on the minimal splits listed by ``decompose(all_splits=True)``.
DEFAULT_SPLIT_LIMIT = 100


@dataclasses.dataclass
class Decomposition:
    """The result of :func:`decompose`.

    ``plays`` is the chosen minimal split in lead order; ``uncontrolled`` and
    ``uncontrolled_any`` count its plays that the outside cards could beat
    with a same-type play (bombs: a higher bomb or the rocket) or with any
    answer including bombs and the rocket.  ``splits_count`` is the exact
    number of distinct minimal splits (splits differing only in how the same
    groups of cards are read count once); ``splits`` lists up to ``limit`` of
    them when asked, each in lead order.
    """

    hand: str
    rules: Rules
    min_plays: int
    plays: list
    uncontrolled: int
    uncontrolled_any: int
    uncontrolled_plays: list
    twos: int
    jokers: int
    bombs: list
    rocket: bool
    splits_count: int
    splits: "list | None" = None

    @property
    def control_cards(self) -> int:
        """2s and jokers held (the six control cards)."""
        return self.twos + self.jokers

    def bomb_texts(self) -> list:
        """The bombs held, as card text (``['3333', ...]``)."""
        return [format_cards(b) for b in self.bombs]

    def to_dict(self) -> dict:
        """JSON-ready fields (the ``ddz decompose --format json`` object)."""
        d = {
            "hand": self.hand,
            "rules": self.rules.describe(),
            "min_plays": self.min_plays,
            "plays": [p.notation(self.rules) for p in self.plays],
            "types": [p.type_name for p in self.plays],
            "uncontrolled": self.uncontrolled,
            "uncontrolled_any": self.uncontrolled_any,
            "uncontrolled_plays": [p.notation(self.rules) for p in self.uncontrolled_plays],
            "controls": {"twos": self.twos, "jokers": self.jokers,
                         "bombs": self.bomb_texts(), "rocket": self.rocket},
            "splits_count": self.splits_count,
        }
        if self.splits is not None:
            d["splits"] = [[p.notation(self.rules) for p in s] for s in self.splits]
        if self.rules.wild:
            d["wild"] = self.rules.wild_text()
            d["faces"] = [p.faces(self.rules) for p in self.plays]
        return d


class _Search:
    """Minimal-split search over one hand: memo table, optimal plays per
    sub-hand, the uncontrolled cost of each play, canonical split counting."""

    def __init__(self, hand: int, rules: Rules):
        self.hand = hand
        self.rules = rules
        self.flags = rules.flags
        self.outside = full_deck(rules.decks) - hand
        self.table = _shared_table(self.flags)
        self._opt: dict = {}
        self._cost: dict = {}
        self._best: dict = {}
        self._count: dict = {}
        self._buf = (np.empty(512, np.int64), np.empty(512, np.int64))
        # Under natural_first a laizi may stand for a face only while no
        # natural card of that face is left outside its play, so the order of
        # the plays matters: a split is a sequence, searched from any lead.
        self.ordered = bool(rules.wild) and rules.natural_first
        self._wild_mask = sum(15 << (4 * r) for r in rules.wild)
        self._sets: dict = {}

    def sequenced(self, h: int) -> bool:
        """Does the order of the plays of ``h`` matter (natural_first, laizi held)?"""
        return self.ordered and (h & self._wild_mask) != 0

    def min_plays(self, h: int) -> int:
        return int(min_plays_memo(h, self.flags, self.table))

    def optimal_groups(self, h: int) -> list:
        """[(cards, [kinds...])] of the plays starting a minimal split of ``h``,
        grouped by cards, sorted by cards."""
        got = self._opt.get(h)
        if got is None:
            a, b = self._buf
            seq = self.sequenced(h)
            n = _optimal_plays(h, self.flags, self.table, a, b, seq)
            if n > a.shape[0]:
                self._buf = a, b = np.empty(2 * n, np.int64), np.empty(2 * n, np.int64)
                n = _optimal_plays(h, self.flags, self.table, a, b, seq)
            groups: dict = {}
            for c, k in zip(a[:n].tolist(), b[:n].tolist()):
                groups.setdefault(c, []).append(k)
            got = sorted(groups.items())
            self._opt[h] = got
        return got

    def cost(self, cards: int, kind: int) -> tuple:
        """(beatable by a same-type play, beatable by any answer) as 0/1 ints."""
        got = self._cost.get(kind)
        if got is None:
            from ..moves.movegen import generate

            answers = generate(self.outside, Play(cards, kind), self.rules)
            t = kind_type(kind)
            same = False
            for ak in answers.kinds.tolist():
                at = ak & 31
                if at == t or (t == T_BOMB and at == T_ROCKET):
                    same = True
                    break
            got = (int(same), int(len(answers) > 0))
            self._cost[kind] = got  # the answers depend only on the kind
        return got

    def reading(self, cards: int, kinds: list) -> tuple:
        """The cheapest reading of a group of cards: (cost, kind)."""
        return min((self.cost(cards, k), _reading_rank(k), k) for k in kinds)[::2]

    def best(self, h: int) -> tuple:
        """(total cost, plays) of the minimal split of ``h`` with the least cost."""
        if h == 0:
            return (0, 0), ()
        got = self._best.get(h)
        if got is None:
            got = None
            for cards, kinds in self.optimal_groups(h):
                c, k = self.reading(cards, kinds)
                sub_cost, sub_plays = self.best(h - cards)
                total = (c[0] + sub_cost[0], c[1] + sub_cost[1])
                if got is None or total < got[0]:
                    got = (total, ((cards, k),) + sub_plays)
            self._best[h] = got
        return got

    def count(self, h: int, low: int = -1) -> int:
        """Distinct minimal splits of ``h`` in which every play holding the
        lowest rank of ``h`` has cards ``>= low`` (canonical order: the plays
        holding the lowest rank are taken in increasing order of cards)."""
        if h == 0:
            return 1
        if self.sequenced(h):
            return len(self.play_sets(h))
        key = (h, low)
        got = self._count.get(key)
        if got is None:
            got = 0
            r = _lowest_rank(h)
            for cards, _ in self.optimal_groups(h):
                if cards < low:
                    continue
                rest = h - cards
                got += self.count(rest, cards if rest and _lowest_rank(rest) == r else -1)
            self._count[key] = got
        return got

    def enumerate(self, h: int, limit: int, low: int = -1):
        """Yield up to ``limit`` distinct minimal splits of ``h`` (tuples of (cards, kind))."""
        if h == 0:
            yield ()
            return
        if self.sequenced(h):
            yield from self._enumerate_sequenced(h, limit)
            return
        r = _lowest_rank(h)
        made = 0
        for cards, kinds in self.optimal_groups(h):
            if cards < low:
                continue
            _, k = self.reading(cards, kinds)
            rest = h - cards
            for sub in self.enumerate(rest, limit - made, cards if rest and _lowest_rank(rest) == r else -1):
                yield ((cards, k),) + sub
                made += 1
                if made >= limit:
                    return


    def play_sets(self, h: int) -> frozenset:
        """The distinct minimal splits of ``h`` when the order of the plays
        matters, each as the sorted tuple of its plays' cards (any order in
        which they can be played makes the set one split)."""
        got = self._sets.get(h)
        if got is None:
            if h == 0:
                return frozenset([()])
            out = set()
            for cards, _ in self.optimal_groups(h):
                rest = h - cards
                if self.sequenced(rest):
                    subs = self.play_sets(rest)
                else:  # the rest's splits in any order: the canonical ones
                    subs = {tuple(sorted(c for c, _ in s)) for s in self.enumerate(rest, 1 << 30)}
                out.update(tuple(sorted(s + (cards,))) for s in subs)
            got = self._sets[h] = frozenset(out)
        return got

    def _enumerate_sequenced(self, h: int, limit: int):
        """Up to ``limit`` distinct minimal splits of ``h`` (order matters),
        each in an order it can be played in: the first order found."""
        seen: set = set()

        def walk(hh):
            if hh == 0:
                yield ()
                return
            if not self.sequenced(hh):
                yield from self.enumerate(hh, 1 << 30)
                return
            for cards, kinds in self.optimal_groups(hh):
                _, k = self.reading(cards, kinds)
                for sub in walk(hh - cards):
                    yield ((cards, k),) + sub

        for split in walk(h):
            key = tuple(sorted(c for c, _ in split))
            if key in seen:
                continue
            seen.add(key)
            yield split
            if len(seen) >= limit:
                return


def _reading_rank(kind: int) -> int:
    """Prefer kicker-free readings, then the lower kind (deterministic)."""
    return (1 if kind_type(kind) in KICKERS else 0) * (1 << 20) + kind


def lead_order(plays: list, uncontrolled: "set | list") -> list:
    """A sensible order to lead a split in (documented heuristic).

    ``uncontrolled`` holds the plays that can be beaten.  With at most one of
    them: every controlled play first (each keeps the lead), bombs and the
    rocket next, the uncontrolled play last (it goes out).  Otherwise: the
    uncontrolled plays from the lowest main rank up (more cards first on a
    tie), then the controlled plays low to high, then bombs and the rocket,
    so the hand ends on plays that win the lead back.
    """
    unc = [p for p in plays if p in uncontrolled]
    bombs = [p for p in plays if p.type in (T_BOMB, T_ROCKET) and p not in uncontrolled]
    ctrl = [p for p in plays if p not in uncontrolled and p.type not in (T_BOMB, T_ROCKET)]

    def key(p):
        return (p.main, -p.num_cards(), p.type, p.cards)

    unc.sort(key=key)
    ctrl.sort(key=key)
    bombs.sort(key=lambda p: (p.type == T_ROCKET, p.length, p.main))
    if len(unc) <= 1:
        return ctrl + bombs + unc
    return unc + ctrl + bombs


def _controls(hand: int, rules: Rules) -> tuple:
    """2s and jokers held, the bombs (each rank held 4 times or more, whole)
    and whether the rocket is held (both jokers; with two decks all four)."""
    twos = count_of(hand, RANK_2)
    jokers = count_of(hand, RANK_X) + count_of(hand, RANK_D)
    bombs = [count_of(hand, r) << (4 * r) for r in range(13) if count_of(hand, r) >= 4]
    rocket = count_of(hand, RANK_X) == rules.decks and count_of(hand, RANK_D) == rules.decks
    return twos, jokers, bombs, rocket


def decompose(hand, rules=None, all_splits: bool = False, limit: int = DEFAULT_SPLIT_LIMIT) -> Decomposition:
    """Split ``hand`` into the fewest plays, with the control statistics.

    Among the minimal splits, the one with the fewest uncontrolled plays is
    chosen (then the fewest ``uncontrolled_any``); ``all_splits=True`` also
    lists up to ``limit`` distinct minimal splits (``splits_count`` always
    says how many there are).

    >>> d = decompose("3334445556667779XD")
    >>> d.min_plays, d.splits_count
    (3, 55)
    >>> decompose("789TJ5AA").min_plays
    3
    """
    rules = Rules.parse(rules)
    h = _checked_hand(hand, rules)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ArgumentError(f"limit must be a positive int, not {limit!r}", param="limit")
    twos, jokers, bombs, rocket = _controls(h, rules)
    if h == 0:
        return Decomposition(format_cards(h), rules, 0, [], 0, 0, [], twos, jokers, bombs, rocket, 1,
                             [[]] if all_splits else None)
    s = _Search(h, rules)
    (unc_same, unc_any), best = s.best(h)
    plays = [Play(c, k) for c, k in best]
    unc = {p for p in plays if s.cost(p.cards, p.kind)[0]}
    # A split whose order matters (natural_first) keeps the order it is legal in.
    order = (lambda ps, u: ps) if s.sequenced(h) else lead_order
    ordered = order(plays, unc)
    splits = None
    if all_splits:
        splits = []
        for split in s.enumerate(h, limit):
            ps = [Play(c, k) for c, k in split]
            splits.append(order(ps, {p for p in ps if s.cost(p.cards, p.kind)[0]}))
    return Decomposition(
        hand=format_cards(h), rules=rules, min_plays=len(plays), plays=ordered,
        uncontrolled=unc_same, uncontrolled_any=unc_any,
        uncontrolled_plays=[p for p in ordered if p in unc],
        twos=twos, jokers=jokers, bombs=bombs, rocket=rocket,
        splits_count=s.count(h), splits=splits)
