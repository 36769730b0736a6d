"""Move generation with wild cards (Laizi, 天地癞子): the kernel behind
:func:`ddz_tools.moves.movegen.gen_into` when the deal has wild ranks.

What a play is
--------------
The cards of a wild rank (one rank under ``laizi``, two under ``tiandi``)
are *laizi*: each stands for any rank 3..2 (its own included, never a joker).
A play is identified by the cards that leave the hand (laizi counted at
their own rank, as in any packed hand) and its reading, the ``kind``
``type | main << 5 | length << 9 | tier << 13`` (see :mod:`ddz_tools.core.rules`):
the same cards read two ways are two plays, and the same reading made from
different cards (``55`` or ``5`` plus a laizi) is two plays.  The faces given
to laizi kickers are not part of a play: any legal choice is the same play.

How the plays are built
-----------------------
For every combination type and every body (a face, or a run of faces for
chains and airplanes) the generator chooses how many natural cards of each
body face go in (``j``); the other ``per - j`` cards of that face are laizi.
Every natural card of a body face that stays out of the play stays in the
hand (a kicker never has a body face).  Kickers are then every multiset of
natural cards outside the body faces plus enough laizi to complete them,
when the laizi can be given legal faces (:func:`_kickers`).  The laizi a
play uses are counted, not named, until the end: each way to take them from
the wild ranks held (both ranks under ``tiandi``) is its own play
(:func:`_emit`).  Nothing is produced twice: the cards of a play and its
kind fix ``j`` for every body face and the kickers.

A play made only of laizi reads every laizi as itself unless
``laizi_alone_as_self`` is off: with it on the general sections skip such
plays and :func:`_gen_core` runs once more on the laizi alone, read as
natural cards (their bombs are pure), followed by the mixed pure bombs of
both wild ranks.  With no laizi in the hand the plays are exactly the classic
ones; only the order of bombs (tiers, long bombs) differs from classic.

Rule flags (see :class:`~ddz_tools.core.rules.Rules`): the classic bits, the
laizi bits ``F_LAIZI_*``, ``F_NATURAL_FIRST`` and friends, and the wild ranks
at ``WILD_SHIFT`` (rank + 1 in four bits each, 0 for none).
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numba
from llvmlite import ir
from numba import carray, cfunc, types
from numba.core import cgutils, errors
from numba.extending import intrinsic

from ..core._jit import before_first_kernel, kernel
from ..core import kinds as K
from ..core.kinds import bomb_rank, play_beats

#: The four + kickers types in the order they are generated: (type, kickers
#: per body face, pair kickers); the last two only under ``four_with_one``.
_FOUR_KICKERS = ((K.T_FOUR_TWO_SOLO, 2, False), (K.T_FOUR_TWO_PAIR, 2, True), (K.T_FOUR_SOLO, 1, False),
                 (K.T_FOUR_PAIR, 1, True))

#: Work entries :func:`gen_laizi_scratch` needs in its ``scratch`` array.
LAIZI_SCRATCH = 96

# Scratch layout (int64 entries).
_K_CAND = 0      # kicker candidates: ranks
_K_MAX = 16      # kicker candidates: most natural cards (solo) or 2 (pair)
_K_T = 32        # kicker candidates: cards taken
_C_J = 48        # chain search: naturals taken at each depth
_C_CARDS = 64    # chain search: natural cards of the body up to each depth
_C_LZ = 80       # chain search: laizi of the body up to each depth


@kernel
def _emit(nat, lz, kind, w1, w2, l1, l2, skip_all_laizi, out_cards, out_kinds, n):
    """Write the play of natural cards ``nat`` plus ``lz`` laizi once for
    every way to take the laizi from the wild ranks held (``l1`` of rank
    ``w1``, ``l2`` of ``w2``).  A play of laizi alone is skipped when
    ``skip_all_laizi`` (it reads as itself and is made elsewhere; bombs of
    laizi alone are made by :func:`_laizi_bombs`)."""
    if nat == 0 and (skip_all_laizi or lz == 0):
        return n
    cap = out_cards.shape[0]
    lo = lz - l2 if lz > l2 else 0
    hi = lz if lz < l1 else l1
    for a in range(lo, hi + 1):
        cards = nat
        if a > 0:
            cards += a << (4 * w1)
        if lz - a > 0:
            cards += (lz - a) << (4 * w2)
        k = kind
        if n < cap:
            out_cards[n] = cards
            out_kinds[n] = k
        n += 1
    return n


@kernel
def _kicker_faces_ok(need, body_mask, t_of, handnat, flags, solo):
    """Can ``need`` laizi kickers (solos, or pairs of two laizi) take legal
    faces?  ``body_mask``: bit r for each body face; ``t_of``: packed
    natural kickers chosen; ``handnat``: the natural cards of the whole hand
    (under ``natural_first`` a laizi may take face r only when every natural
    r of the hand is in the play)."""
    if need == 0:
        return True
    nf = (flags & K.F_NATURAL_FIRST) != 0
    distinct = (flags & K.F_KICKERS_DISTINCT) != 0 or not solo
    room = 0
    for g in range(13):
        if (body_mask >> g) & 1:
            continue
        t = (t_of >> (4 * g)) & 15
        h = (handnat >> (4 * g)) & 15
        if distinct:
            if t == 0 and (not nf or h == 0):
                room += 1
        elif not nf or h == t:
            room += 4 - t
        if room >= need:
            return True
    return False


@kernel
def _kickers(body, body_lz, kind, avail, body_mask, nk, pair, jokers, lbudget, handnat, flags,
             w1, w2, l1, l2, skip_all_laizi, out_cards, out_kinds, n, scratch):
    """Emit the body (natural cards ``body`` and ``body_lz`` laizi) with
    every legal set of ``nk`` solo or pair kickers made of the natural cards
    ``avail`` outside the body faces and at most ``lbudget`` laizi.

    Natural kickers are enumerated as multisets (cards taken per rank); the
    kicker units they leave open are laizi: a solo is one laizi, a pair one
    natural plus one laizi (a *half* pair) or two laizi.  ``jokers``: 0 = no
    joker may be a kicker, 1 = at most one, 2 = both."""
    cand = scratch[_K_CAND:_K_CAND + 16]
    mx = scratch[_K_MAX:_K_MAX + 16]
    t = scratch[_K_T:_K_T + 16]
    distinct = (flags & K.F_KICKERS_DISTINCT) != 0
    nf = (flags & K.F_NATURAL_FIRST) != 0
    m = 0
    top = 12 if (pair or jokers == 0) else 14
    for r in range(top + 1):
        if (body_mask >> r) & 1:
            continue
        c = (avail >> (4 * r)) & 15
        if c == 0:
            continue
        if pair:
            # mx: 2 when a natural pair is there, else 1 (only a half pair);
            # whether a half pair may be taken is asked as the odometer runs.
            mx[m] = 2 if c >= 2 else 1
            if c < 2 and (lbudget == 0 or (nf and c != 1)):
                continue
        else:
            mx[m] = 1 if distinct else (c if c < nk else nk)
        cand[m] = r
        m += 1
    for i in range(m):
        t[i] = 0
    units = 0       # kicker units with a natural card
    halves = 0      # pair kickers of one natural and one laizi
    nat = 0         # the natural kicker cards
    both_jokers_banned = (not pair) and jokers == 1 and m >= 2 and cand[m - 1] == 14 and cand[m - 2] == 13
    while True:
        # Visit the current choice: the open units are laizi.
        open_units = nk - units
        lk = halves + (2 * open_units if pair else open_units)
        if lk <= lbudget and not (both_jokers_banned and t[m - 1] > 0 and t[m - 2] > 0):
            if _kicker_faces_ok(open_units, body_mask, nat, handnat, flags, not pair):
                n = _emit(body + nat, body_lz + lk, kind, w1, w2, l1, l2, skip_all_laizi,
                          out_cards, out_kinds, n)
        # Next choice: an odometer over the candidates, units kept <= nk.
        i = 0
        while i < m:
            r = cand[i]
            if pair:
                half_ok = lbudget > 0 and (not nf or ((avail >> (4 * r)) & 15) == 1)
                if t[i] == 0 and units < nk:
                    t[i] = 1 if half_ok else 2
                    units += 1
                    if t[i] == 1:
                        halves += 1
                    nat += t[i] << (4 * r)
                    break
                if t[i] == 1 and mx[i] == 2:
                    t[i] = 2
                    halves -= 1
                    nat += 1 << (4 * r)
                    break
                if t[i] > 0:
                    units -= 1
                    if t[i] == 1:
                        halves -= 1
                    nat -= t[i] << (4 * r)
                    t[i] = 0
            else:
                if t[i] < mx[i] and units < nk:
                    t[i] += 1
                    units += 1
                    nat += 1 << (4 * r)
                    break
                units -= t[i]
                nat -= t[i] << (4 * r)
                t[i] = 0
            i += 1
        if i == m:
            break
    return n


@kernel
def _face_lo(per, c, budget, nf):
    """Fewest natural cards of a face holding ``c`` naturals that a body part
    of ``per`` cards may take, with ``budget`` laizi left (-1: none fits)."""
    lo = per - budget
    if lo < 0:
        lo = 0
    hi = per if per < c else c
    if lo > hi:
        return -1
    if nf and hi < per:
        # natural_first: all the naturals of the face, then laizi.
        return hi
    return lo


@kernel
def _face_ok(j, per, c, nf):
    """May a body part of ``per`` cards of one face take ``j`` of its ``c``
    naturals?  (natural_first: all of them or none of the laizi.)"""
    return not nf or j == per or j == c


@kernel
def lead_or_beats(kind, prev_kind, flags):
    """True for a lead (``prev_kind`` 0) or when ``kind`` beats ``prev_kind``."""
    return prev_kind == 0 or play_beats(kind, prev_kind, flags)


@kernel
def _laizi_bombs(kind, size, w1, w2, l1, l2, flags, prev_kind, out_cards, out_kinds, n):
    """Bombs of ``size`` laizi alone read as the face of ``kind`` (with
    ``laizi_alone_as_self`` off): pure when the laizi are of one wild rank,
    mixed pure when of both (none with ``mixed_pure_bomb`` off); each answer
    checked against ``prev_kind`` after its tier is known."""
    cap = out_cards.shape[0]
    lo = size - l2 if size > l2 else 0
    hi = size if size < l1 else l1
    for a in range(lo, hi + 1):
        mixed = 0 < a < size
        if mixed and (flags & K.F_NO_MIXED_PURE) != 0:
            continue
        k = (kind & ~(3 << K.TIER_SHIFT)) | ((K.TIER_MIXED if mixed else K.TIER_PURE) << K.TIER_SHIFT)
        if not lead_or_beats(k, prev_kind, flags):
            continue
        if n < cap:
            out_cards[n] = (a << (4 * w1)) + ((size - a) << (4 * w2) if size > a else 0)
            out_kinds[n] = k
        n += 1
    return n


@kernel
def _gen_core(nat, lz_total, w1, w2, l1, l2, flags, prev_kind, pure, out_cards, out_kinds, n, scratch):
    """Every play of the natural cards ``nat`` and ``lz_total`` laizi (``l1``
    of rank ``w1``, ``l2`` of ``w2``), leads or answers to ``prev_kind``.

    ``pure``: the cards ``nat`` are laizi read as themselves (the plays made
    only of laizi): no laizi is added and bombs are pure.
    """
    lead = prev_kind == 0
    pt = prev_kind & 31
    pm = (prev_kind >> 5) & 15
    pl = (prev_kind >> 9) & 15
    lo = 0 if lead else pm + 1
    nf = (flags & K.F_NATURAL_FIRST) != 0 and not pure
    skip = (flags & K.F_LAIZI_ALONE_ANY) == 0
    distinct = (flags & K.F_KICKERS_DISTINCT) != 0
    j2 = 2 if (flags & K.F_JOKERS_AS_KICKERS) != 0 else 1
    lz_four = 0 if (flags & K.F_LAIZI_NO_FOUR_TWO) != 0 else lz_total
    j42 = j2 if (flags & K.F_JOKERS_IN_FOUR_TWO) != 0 else 0
    top_chain = 12 if (flags & K.F_CHAINS_WITH_TWO) != 0 else 11
    cap = out_cards.shape[0]
    L = lz_total
    if pure and (flags & K.F_LAIZI_NO_FOUR_TWO) != 0:
        j42 = -1  # no four + kickers from laizi alone
    cj = scratch[_C_J:_C_J + 16]
    cc = scratch[_C_CARDS:_C_CARDS + 16]
    cl = scratch[_C_LZ:_C_LZ + 16]

    # Jokers: solos only (the rocket below).
    if lead or pt == K.T_SOLO:
        for r in range(13, 15):
            if r >= lo and (nat >> (4 * r)) & 15:
                if n < cap:
                    out_cards[n] = 1 << (4 * r)
                    out_kinds[n] = K.T_SOLO | (r << 5) | (1 << 9)
                n += 1

    # One face: solo, pair, trio, trio + kicker, four + kickers.
    for f in range(lo if lo < 13 else 13, 13):
        c = (nat >> (4 * f)) & 15
        if c == 0 and L == 0:
            continue
        for per in range(1, 5):
            if per == 4:
                if not (lead or pt == K.T_FOUR_TWO_SOLO or pt == K.T_FOUR_TWO_PAIR
                        or pt == K.T_FOUR_SOLO or pt == K.T_FOUR_PAIR) or j42 < 0:
                    continue
                budget = lz_four
            else:
                if per == 1 and not (lead or pt == K.T_SOLO):
                    continue
                if per == 2 and not (lead or pt == K.T_PAIR):
                    continue
                if per == 3 and not (lead or pt == K.T_TRIO or pt == K.T_TRIO_SOLO or pt == K.T_TRIO_PAIR):
                    continue
                budget = L
            jlo = _face_lo(per, c, budget, nf)
            if jlo < 0:
                continue
            jhi = per if per < c else c
            for j in range(jlo, jhi + 1):
                if not _face_ok(j, per, c, nf):
                    continue
                body = j << (4 * f)
                blz = per - j
                left = nat - body
                mask = 1 << f
                if per == 1:
                    n = _emit(body, blz, K.T_SOLO | (f << 5) | (1 << 9), w1, w2, l1, l2, skip,
                              out_cards, out_kinds, n)
                elif per == 2:
                    n = _emit(body, blz, K.T_PAIR | (f << 5) | (1 << 9), w1, w2, l1, l2, skip,
                              out_cards, out_kinds, n)
                elif per == 3:
                    if lead or pt == K.T_TRIO:
                        n = _emit(body, blz, K.T_TRIO | (f << 5) | (1 << 9), w1, w2, l1, l2, skip,
                                  out_cards, out_kinds, n)
                    if lead or pt == K.T_TRIO_SOLO:
                        n = _kickers(body, blz, K.T_TRIO_SOLO | (f << 5) | (1 << 9), left, mask, 1, False, 2,
                                     L - blz, nat, flags, w1, w2, l1, l2, skip, out_cards, out_kinds, n, scratch)
                    if lead or pt == K.T_TRIO_PAIR:
                        n = _kickers(body, blz, K.T_TRIO_PAIR | (f << 5) | (1 << 9), left, mask, 1, True, 2,
                                     L - blz, nat, flags, w1, w2, l1, l2, skip, out_cards, out_kinds, n, scratch)
                else:
                    kb = lz_four - blz
                    for t, nk, pair in _FOUR_KICKERS:
                        if (lead or pt == t) and (nk == 2 or (flags & K.F_FOUR_WITH_ONE) != 0):
                            n = _kickers(body, blz, t | (f << 5) | (1 << 9), left, mask, nk, pair, j42, kb, nat,
                                         flags, w1, w2, l1, l2, skip, out_cards, out_kinds, n, scratch)

    # Runs of faces: chains (per 1), pair chains (2), airplanes (3, with wings).
    for per in range(1, 4):
        if per == 1:
            if not (lead or pt == K.T_CHAIN):
                continue
            minlen = 5
            maxlen = 12
            topf = 11
        elif per == 2:
            if not (lead or pt == K.T_PAIR_CHAIN):
                continue
            minlen = 3
            maxlen = 10
            topf = top_chain
        else:
            if not (lead or pt == K.T_AIRPLANE or pt == K.T_AIRPLANE_SOLO or pt == K.T_AIRPLANE_PAIR):
                continue
            minlen = 2
            maxlen = 6
            topf = top_chain
        if not lead:
            if pl < minlen or pl > maxlen:
                continue
            minlen = pl
            maxlen = pl
        for s in range(0, topf - minlen + 2):
            if not lead and s + pl - 1 <= pm:
                continue
            # Depth-first over the faces s, s+1, ...: cj[d] naturals of face
            # s + d; cc/cl the body's naturals and laizi after depth d.
            d = 0
            cj[0] = -1
            while d >= 0:
                f = s + d
                c = (nat >> (4 * f)) & 15
                prev_lz = cl[d - 1] if d > 0 else 0
                prev_c = cc[d - 1] if d > 0 else 0
                # Next choice at depth d: more laizi first is not needed; go
                # from the most naturals down.
                if cj[d] == -1:
                    j = per if per < c else c
                else:
                    j = cj[d] - 1
                jl = _face_lo(per, c, L - prev_lz, nf)
                while j >= 0 and j >= jl and jl >= 0 and not _face_ok(j, per, c, nf):
                    j -= 1
                if jl < 0 or j < jl or j < 0:
                    d -= 1
                    continue
                cj[d] = j
                cc[d] = prev_c + (j << (4 * f))
                cl[d] = prev_lz + per - j
                ln = d + 1
                e = f
                if ln >= minlen and (lead or e > pm):
                    body = cc[d]
                    blz = cl[d]
                    if per == 1:
                        n = _emit(body, blz, K.T_CHAIN | (e << 5) | (ln << 9), w1, w2, l1, l2, skip,
                                  out_cards, out_kinds, n)
                    elif per == 2:
                        n = _emit(body, blz, K.T_PAIR_CHAIN | (e << 5) | (ln << 9), w1, w2, l1, l2, skip,
                                  out_cards, out_kinds, n)
                    else:
                        mask = ((1 << ln) - 1) << s
                        left = nat - body
                        if lead or pt == K.T_AIRPLANE:
                            n = _emit(body, blz, K.T_AIRPLANE | (e << 5) | (ln << 9), w1, w2, l1, l2, skip,
                                      out_cards, out_kinds, n)
                        if ln <= 5 and (lead or pt == K.T_AIRPLANE_SOLO):
                            n = _kickers(body, blz, K.T_AIRPLANE_SOLO | (e << 5) | (ln << 9), left, mask, ln, False,
                                         j2, L - blz, nat, flags, w1, w2, l1, l2, skip,
                                         out_cards, out_kinds, n, scratch)
                        if ln <= 4 and (lead or pt == K.T_AIRPLANE_PAIR):
                            n = _kickers(body, blz, K.T_AIRPLANE_PAIR | (e << 5) | (ln << 9), left, mask, ln, True,
                                         j2, L - blz, nat, flags, w1, w2, l1, l2, skip,
                                         out_cards, out_kinds, n, scratch)
                if ln < maxlen and f + 1 <= topf:
                    d += 1
                    cj[d] = -1
    # Bombs: natural (hard), natural and laizi (soft), laizi alone (pure);
    # 5 to 12 cards with long_bombs.
    big = 12 if (flags & K.F_LONG_BOMBS) != 0 else 4
    for f in range(13):
        c = (nat >> (4 * f)) & 15
        if c == 0 and L == 0:
            continue
        for size in range(4, big + 1):
            jlo = size - L
            if jlo < 0:
                jlo = 0
            jhi = size if size < c else c
            for j in range(jlo, jhi + 1):
                if nf and j != size and j != c:
                    continue
                if j == size:
                    tier = K.TIER_PURE if pure else K.TIER_HARD
                elif j > 0:
                    tier = K.TIER_SOFT
                else:
                    tier = K.TIER_PURE
                kind = K.T_BOMB | (f << 5) | ((size - 3) << 9) | (tier << K.TIER_SHIFT)
                if j == 0:
                    if not skip:
                        n = _laizi_bombs(kind, size, w1, w2, l1, l2, flags, prev_kind, out_cards, out_kinds, n)
                    continue  # (with laizi_alone_as_self on: made in the pure pass)
                if pt == K.T_BOMB and bomb_rank(kind, flags) <= bomb_rank(prev_kind, flags):
                    continue
                n = _emit(j << (4 * f), size - j, kind, w1, w2, l1, l2, skip, out_cards, out_kinds, n)
    if (nat >> 52) & 15 and (nat >> 56) & 15 and pt != K.T_ROCKET:
        if n < cap:
            out_cards[n] = (1 << 52) | (1 << 56)
            out_kinds[n] = K.T_ROCKET | (14 << 5) | (1 << 9)
        n += 1
    return n


@kernel
def gen_laizi_scratch(hand, flags, prev_kind, out_cards, out_kinds, scratch):
    """Every lead (``prev_kind == 0``) or every answer of ``hand`` under the
    wild ranks in ``flags`` (see the module doc); the contract of
    :func:`ddz_tools.moves.movegen.gen_into` (pass never generated, plays past the
    buffers counted but not written).  ``scratch``: int64 work array of at
    least :data:`LAIZI_SCRATCH` entries."""
    if (prev_kind & 31) == K.T_ROCKET:
        return 0
    w1 = ((flags >> K.WILD_SHIFT) & 15) - 1
    w2 = ((flags >> (K.WILD_SHIFT + 4)) & 15) - 1
    nat = hand
    l1 = 0
    l2 = 0
    if w1 >= 0:
        l1 = (hand >> (4 * w1)) & 15
        nat -= l1 << (4 * w1)
    else:
        w1 = 0
    if w2 >= 0:
        l2 = (hand >> (4 * w2)) & 15
        nat -= l2 << (4 * w2)
    else:
        w2 = w1
    n = _gen_core(nat, l1 + l2, w1, w2, l1, l2, flags, prev_kind, False, out_cards, out_kinds, 0, scratch)
    if l1 + l2 > 0 and (flags & K.F_LAIZI_ALONE_ANY) == 0:
        # Plays of laizi alone: each laizi is itself.
        lz = (l1 << (4 * w1)) + (l2 << (4 * w2) if w2 != w1 else 0)
        n = _gen_core(lz, 0, w1, w2, 0, 0, flags & ~K.F_NATURAL_FIRST, prev_kind, True, out_cards, out_kinds, n,
                      scratch)
        if (flags & K.F_NO_MIXED_PURE) == 0 and l1 > 0 and l2 > 0 and w1 != w2:
            big = l1 + l2 if (flags & K.F_LONG_BOMBS) != 0 else 4
            main = w1 if w1 > w2 else w2
            cap = out_cards.shape[0]
            for size in range(4, big + 1):
                kind = K.T_BOMB | (main << 5) | ((size - 3) << 9) | (K.TIER_MIXED << K.TIER_SHIFT)
                if not lead_or_beats(kind, prev_kind, flags):
                    continue
                lo = size - l2 if size - l2 > 1 else 1
                hi = l1 if l1 < size - 1 else size - 1
                for a in range(lo, hi + 1):
                    if n < cap:
                        out_cards[n] = (a << (4 * w1)) + ((size - a) << (4 * w2))
                        out_kinds[n] = kind
                    n += 1
    return n


# Compiled once, called by name ---------------------------------------------------
#
# Every kernel that generates plays reaches this generator through
# ``movegen.gen_into_scratch``.  Numba links a callee's code into each
# caller's module and optimises it again there, so a generator called directly
# would be compiled once for every kernel above it (minutes more on a fresh
# machine).  It is compiled once instead, as a C-callable function (a Numba ``cfunc``, cached on disk like the
# kernels) whose address is registered in the process under one symbol name
# before the first kernel runs (:func:`ddz_tools.core._jit.before_first_kernel`);
# the kernels call that symbol (:func:`gen_laizi_linked`), and their cached
# code finds it by name when it is loaded.

#: The symbol the C-callable generator is registered under in this process.
LINKED_SYMBOL = "ddz_tools_gen_laizi"

_P64 = types.CPointer(types.int64)
_C_SIGNATURE = types.int64(types.int64, types.int64, types.int64, _P64, _P64, types.int64, _P64, types.int64)


def _gen_laizi_c(hand, flags, prev_kind, cards_ptr, kinds_ptr, cap, scratch_ptr, scratch_n):
    """:func:`gen_laizi_scratch` over raw buffers: ``cap`` entries at
    ``cards_ptr`` and at ``kinds_ptr``, ``scratch_n`` at ``scratch_ptr``."""
    return gen_laizi_scratch(hand, flags, prev_kind, carray(cards_ptr, (cap,)), carray(kinds_ptr, (cap,)),
                             carray(scratch_ptr, (scratch_n,)))


#: The compiled C-callable generator (kept alive: the kernels call its code).
_LINKED: list = []


def _link() -> None:
    """Compile (or load) the C-callable generator and register its address."""
    compiled = cfunc(_C_SIGNATURE, cache=True)(_gen_laizi_c)
    _LINKED.append(compiled)
    llvm.add_symbol(LINKED_SYMBOL, compiled.address)


def _linked_codegen(context, builder, signature, args):
    i64 = ir.IntType(64)
    hand, flags, prev_kind, cards, kinds, scratch = args
    arrays = [context.make_array(signature.args[i])(context, builder, v)
              for i, v in ((3, cards), (4, kinds), (5, scratch))]
    cap = cgutils.unpack_tuple(builder, arrays[0].shape, 1)[0]
    kinds_cap = cgutils.unpack_tuple(builder, arrays[1].shape, 1)[0]
    # The generator writes at most ``cap`` plays into both buffers: the shorter one bounds it.
    cap = builder.select(builder.icmp_signed("<", kinds_cap, cap), kinds_cap, cap)
    scratch_n = cgutils.unpack_tuple(builder, arrays[2].shape, 1)[0]
    fnty = ir.FunctionType(i64, [i64, i64, i64, i64.as_pointer(), i64.as_pointer(), i64, i64.as_pointer(), i64])
    fn = cgutils.get_or_insert_function(builder.module, fnty, LINKED_SYMBOL)
    return builder.call(fn, [hand, flags, prev_kind, arrays[0].data, arrays[1].data, cap, arrays[2].data, scratch_n])


if numba.config.DISABLE_JIT:
    gen_laizi_linked = gen_laizi_scratch
else:
    before_first_kernel(_link)

    @intrinsic
    def gen_laizi_linked(typingctx, hand, flags, prev_kind, out_cards, out_kinds, scratch):
        """:func:`gen_laizi_scratch` called through :data:`LINKED_SYMBOL` (in
        kernels only): the same plays, with the generator compiled once
        instead of into every caller.  The three arrays must be contiguous
        1-D int64 arrays (any other type does not compile)."""
        for a in (out_cards, out_kinds, scratch):
            if not (isinstance(a, types.Array) and a.ndim == 1 and a.dtype == types.int64 and a.layout == "C"):
                raise errors.TypingError(f"gen_laizi_linked takes contiguous 1-D int64 arrays, not {a}")
        return types.int64(hand, flags, prev_kind, out_cards, out_kinds, scratch), _linked_codegen
