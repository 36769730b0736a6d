"""The face DP: hands holding laizi, face by face.

With laizi the hand-by-hand search (:func:`~.core.search_core`) meets far
more chain plays (a laizi fills any gap), so a hand with laizi is decomposed
by a dynamic programme over the faces 3..2 instead.  A split is its chain bodies (chains, pair chains and
airplane bodies: runs of faces, p = 1, 2 or 3 cards a face), the wings of its
airplanes, and rank-free plays; the rank-free plays and the wings depend only
on the cards the bodies leave, so the DP goes face by face choosing which
bodies cover the face, and keeps per state (the bodies still open, the
signature of what the faces done leave, the laizi used, the airplanes whose
wings are still to choose) the fewest bodies.  At the end the wings are
chosen by classes of ranks (equal counts are alike) and the rest is the
signature value of :func:`~.core.search_core`.

Exchange argument: where the bodies covering a face hold a laizi while a
natural card of that face is elsewhere (a rank-free play, or the wing of an
airplane not covering the face), swapping the two keeps every play legal, so
the bodies of a face take its natural cards first (min(t, c) of them for t
body cards and c naturals) and only the rest are laizi.  Legal unless the
other play would then hold laizi alone and read as something else:
``laizi_alone_as_self`` on with laizi of both wild ranks in the hand, or
laizi of both ranks making no bomb (``mixed_pure_bomb=off``); nor under
``laizi_in_four_two=off`` (a four + kickers may hold no laizi) or
``natural_first``.  Those cases take :func:`~.core.search_core`.

:func:`search_static` is the search of a hand holding laizi without
``natural_first``: this DP where it applies, the search core otherwise.

>>> import numpy as np
>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.core.rules import Rules
>>> from ddz_tools.engines.decompose import SEARCH_WORK, new_memo_table
>>> rules = Rules.parse("laizi").with_wild("9")   # 34569 (9 as 7), QQ
>>> int(search_static(parse_cards("34569QQ"), rules.flags, new_memo_table(8), np.empty(16 * SEARCH_WORK, np.int64)))
2
"""

from __future__ import annotations

from ...core._jit import kernel
from ...core.kinds import (F_CHAINS_WITH_TWO, F_JOKERS_AS_KICKERS, F_KICKERS_DISTINCT, F_LAIZI_ALONE_ANY,
                           F_LAIZI_NO_FOUR_TWO, F_NATURAL_FIRST, F_NO_MIXED_PURE, WILD_MASK)
from .core import INF, WORK_FIXED, search_core
from .memo import HASH_MUL, hand_key, memo_get, memo_put
from .signature import SIG_TAG, sig_bound, signature_f, wild1, wild2

__all__ = ["search_static"]


_DP_SLOTS = 4096
_DP_MAX_STATES = 3072
_DP_MAX_BODIES = 5
_DP_MAX_PENDING = 3
_DP_WBUF = 2048
_DP_SCRATCH = 192
#: Work entries of the DP (taken from the end of a work array; the rest is
#: the signature search's).
_DP_WORK = 3 * _DP_MAX_STATES + 4 * _DP_SLOTS + _DP_MAX_STATES + _DP_SCRATCH + 2 * _DP_WBUF
#: Overflow of the DP's fixed sizes: the hand takes :func:`~.core.search_core`.
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
    w1 = wild1(flags)
    w2 = wild2(flags)
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
        v = memo_get(table, sig | SIG_TAG)
        if v < 0:
            if sig_bound(sig) >= best:
                continue
            v = search_core(sig | SIG_TAG, flags, table, swork, 0)
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
    :func:`search_core` decides it)."""
    total = work.shape[0]
    if total < _DP_WORK + WORK_FIXED + 6 * 64:
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

    w1 = wild1(flags)
    w2 = wild2(flags)
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
    best = _res_value(signature_f(hand, flags) & 0xFFFF | (jx << 25) | (jd << 26) | (L << 27),
                      l1, l2, flags, table, swork, INF)
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
                                    # plays, as bodies or whole kickers (see sig_bound).
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
                                    slot = ((hh * HASH_MUL) >> 16) & (_DP_SLOTS - 1)
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
def search_static(root, flags, table, work):
    """The exact minimum of ``root`` without ``natural_first``: the face DP
    when it applies, :func:`search_core` otherwise (kept in the memo under
    the hand either way).  -1 when ``work`` is too small."""
    if _dp_applies(root, flags):
        v = _dp_search(root, flags, table, work)
        if v != _DP_OVERFLOW:
            if v > 0:
                memo_put(table, hand_key(root, flags), v)
            return v
    return search_core(root, flags, table, work, 0)
