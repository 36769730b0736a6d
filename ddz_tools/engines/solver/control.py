"""Control wins, an exact shortcut.

A mover who leads wins at once when he can split his hand into plays no
opponent can answer plus one last play of any kind: he plays the free ones,
each passed by everyone, then goes out.  :func:`control_win_search` looks
for such a split (depth-first, with a cap: giving up only loses the
shortcut); :func:`control_split` remembers its answers in ``cwm``, keyed by
the hand, the rules and the opponents' merged answer profile (see
:mod:`.profiles`), which changes far less often than their hands do.
Both take the search's work arrays as one record, ``wk``
(:class:`layout.Work`), and read from it what they use.
"""

from ...core._jit import kernel
from ...core.kinds import F_NATURAL_FIRST, wild_cards
from ...moves.movegen import GEN_SCRATCH, gen_into_scratch
from .key import fold, slot
from .layout import CONTROL_BUDGET, CW_MERGED, CW_ROWS, PROF_W
from .profiles import free


@kernel
def control_win(hands, turn, hand, flags, nplayers, wk):
    """True when :func:`control_split` finds a split (1)."""
    return control_split(hands, turn, hand, flags, nplayers, wk) == 1


@kernel
def control_split(hands, turn, hand, flags, nplayers, wk):
    """:func:`control_win_search`, remembered in ``cwm`` keyed by everything
    the answer depends on: the hand, the rules, and what the other team can
    answer.  The search asks only whether some opponent can answer a play,
    which the profile :func:`profiles.merge_opponents` merged for ``turn`` tells; so
    the key is that profile, which changes far less often than the hands
    do.  A row: the hand, the rules with the answer, the merged profile.
    1: a split, 0: none, 2: the search gave up."""
    pbuf, cwm = wk.pbuf, wk.cwm
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        # Too many plays for a profile: search without the memo.
        return control_win_search(hands, turn, hand, flags, nplayers, wk)
    acc = merged_hash(w, flags)
    row = slot(fold(acc, hand), CW_ROWS)
    tag = (flags << 3) | (1 << 2)
    if cwm[row, 0] == hand and (cwm[row, 1] >> 2) == (tag >> 2) and same_profile(cwm, row, w):
        return cwm[row, 1] & 3
    r = control_win_search(hands, turn, hand, flags, nplayers, wk)
    cwm[row, 0] = hand
    cwm[row, 1] = tag | r
    for t in range(PROF_W - 2):
        cwm[row, 2 + t] = w[CW_MERGED + t]
    return r


@kernel
def merged_hash(w, flags):
    """The hash of the rules and the profile merged at CW_MERGED of ``w``,
    worked out once and kept beside it (-1 there: not yet)."""
    acc = w[CW_MERGED + PROF_W - 2]
    if acc < 0:
        acc = fold(0, flags)
        for t in range(PROF_W - 2):
            acc = fold(acc, w[CW_MERGED + t])
        w[CW_MERGED + PROF_W - 2] = acc
    return acc


@kernel
def same_profile(cwm, row, w):
    """True when row ``row`` of ``cwm`` holds, from its third word, the
    profile merged at CW_MERGED of ``w``."""
    for t in range(PROF_W - 2):
        if cwm[row, 2 + t] != w[CW_MERGED + t]:
            return False
    return True


@kernel
def control_win_search(hands, turn, hand, flags, nplayers, wk):
    """1 when ``turn``, leading with ``hand``, can split it into plays no
    opponent can answer plus at most one last play of any kind; 0 when no
    such split exists; 2 when the search gave up (its cap, or ``sc``/``sk``
    too small), which only loses a shortcut, never exactness.

    Then the mover plays the free plays one after another (each is passed by
    every opponent, the partner passes too) and goes out with the last one:
    an exact win.  Depth-first over splits that cover the lowest rank first.

    Laizi.  The split is found as a sequence, each play generated from the
    hand left by those before it, so each is legal when played in that
    order; the one play no opponent may answer is played last instead.  A
    play legal in a hand stays legal in any smaller hand holding it (the
    one rule that looks at the hand, ``natural_first``, asks that every
    natural card of a face a laizi takes be in the play: fewer cards, fewer
    such naturals), so the play moved last is legal.  The plays moved
    before it are played with its cards still in hand: without
    ``natural_first`` legality depends on a play's cards alone; with it, a
    play of natural cards only is legal in any hand, so the answerable play
    is taken before the end of the sequence only when the hand it leaves
    holds no laizi.  Opponents' hands do not change meanwhile (they pass),
    so what is free stays free.  A 0 then means no split in this search's
    order, which under ``natural_first`` is not no split at all: callers
    that read 0 as "none" (the threat rule) do not run there with laizi.
    """
    sc, sk, prof, pbuf = wk.sc, wk.sk, wk.prof, wk.pbuf
    w = pbuf[2]
    s_hand = w[GEN_SCRATCH:GEN_SCRATCH + 64]
    s_used = w[GEN_SCRATCH + 64:GEN_SCRATCH + 128]
    s_beg = w[GEN_SCRATCH + 128:GEN_SCRATCH + 192]
    s_end = w[GEN_SCRATCH + 192:GEN_SCRATCH + 256]
    s_i = w[GEN_SCRATCH + 256:GEN_SCRATCH + 320]
    # Cap the splits tried (the search is exponential in bad cases); giving
    # up only loses the shortcut.
    budget = CONTROL_BUDGET
    # natural_first: the laizi nibbles (0 without wild ranks or without the option).
    lzm = wild_cards(flags) if (flags & F_NATURAL_FIRST) != 0 else 0
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
                is_free = free(hands, turn, sk[top + i], flags, nplayers, prof, pbuf)
                if not is_free and (s_used[d] or (lzm != 0 and c != h and ((h - c) & lzm) != 0)):
                    continue
                if c == h:
                    # Every earlier play was free, or this one is (and the
                    # one answerable play is kept for last).
                    return 1
                sc[top + m] = c
                sk[top + m] = 1 if is_free else 0
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
