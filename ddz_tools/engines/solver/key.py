"""The position key and the transposition table.

A key is four int64 words: the three packed hands (four hands under the
four-player rules: the landlord's, then the three farmers' packed into two
words, see :func:`pack_farmers`) and a *misc word* (the
side to move, who made the play to answer, its kind, the rule flags and the
number of players: see :func:`misc` and ``MISC_BITS`` in :mod:`.layout`),
with the ranks renamed so that positions differing only in ranks nobody
holds share one entry, and, when no hand can play a chain, a seat's counts
sorted within the runs of ranks he alone holds (see :func:`canon`, one
kernel for one deck or two and any number of hands: fewer than half the
nodes on 17-card deals).

The table stores every solved node under its key (:func:`tt_store`,
:func:`tt_find`).  A hash only picks the bucket (four entries), so a
collision can cost a re-search but never change an answer.  When a bucket is
full the entry with the least work (log2 of the nodes below it) is replaced.
Memory is ``tt_mb`` MiB (default 512; 32 bytes an entry); the table starts
small and doubles in place when half full (:func:`tt_split`).
"""

from ...core._jit import high_bit, kernel, low_bit
from ...core.kinds import F_FOUR, F_SHANGHAI, F_TOP_BOMB8, WILD_SHIFT, wild_cards
from ...core.rules import F_CHAINS_WITH_TWO
from .layout import (BOMB8_BIT, BUCKET, C_EVICT, C_FILLED, C_STORES, ENTRY_WORDS, FLAGS_LIMIT, FOUR_SEATS_BIT,
                     LAIZI_BIT, MISC_MASK, VALID_BIT, VALUE_BIT, WORK_SHIFT)


@kernel
def team(seat, nplayers):
    if nplayers == 2:
        return seat
    return 0 if seat == 0 else 1


@kernel
def laizi_held(hands, flags):
    """True when some hand of ``hands`` holds a laizi (a card of a wild rank
    of ``flags``).  Hands only shrink, so when none does the rest of the game
    is a classic one: every play a reading of natural cards (the classic
    plays and kinds; bombs hard and four cards), only the play standing may
    be a tiered bomb (answered by ``kinds.play_beats``)."""
    return ((hands[0] | hands[1] | hands[2]) & wild_cards(flags)) != 0


@kernel
def plain_flags(flags):
    """The rule flags the decomposer (move ordering, and the exact "one play"
    tests on hands without laizi) is asked under: the classic play options
    when the flags hold wild ranks, else ``flags``.  A hand without laizi has
    exactly the same plays under both; for a hand with laizi the decomposer's
    count treats them as natural cards (an ordering hint, never trusted)."""
    if (flags & (255 << WILD_SHIFT)) != 0:
        return flags & 31
    return flags


@kernel
def misc(turn, lb, pk, flags, nplayers):
    """The misc word of a key (bit layout: ``MISC_BITS`` in :mod:`.layout`).
    A classic one (flags below 32, ``pk`` without tier bits) is
    ``turn | lb << 2 | pk << 4 | flags << 18 | 3-player << 23``, as it always
    was; a bomb tier and the laizi flags and wild ranks go above bit 24, and
    the four-player game's ``top_bomb=bomb8`` (flag bit 27) and four hands
    at the table to bits 46 and 47.  (Flags above bit 23 that are no play
    rule, the stake options, are not part of a key.)"""
    m = (turn | (lb << 2) | ((pk & 0x1FFF) << 4) | ((flags & 31) << 18) | ((pk >> 13) << 25)
         | (((flags & (FLAGS_LIMIT - 1)) >> 5) << 27))
    if nplayers == 3:
        m |= 1 << 23
    elif nplayers == 4:
        m |= FOUR_SEATS_BIT
    if (flags & F_TOP_BOMB8) != 0:
        m |= BOMB8_BIT
    return m


@kernel
def fold(acc, w):
    """Mix one non-negative word into a non-negative hash accumulator.

    Products of 30-bit halves by 31-bit constants stay below 2**62, so no
    int64 multiply overflows (Numba marks multiplies no-signed-wrap)."""
    x = acc ^ w
    a = x & 0x3FFFFFFF
    b = (x >> 30) & 0x3FFFFFFF
    return a * 1540483477 + b * 1911520717 + ((acc >> 31) & 0x7FFFFFFF)


@kernel
def slot(x, n):
    """The row, of ``n`` (a power of two), of a key folded into ``x`` by
    :func:`fold` (its high bits mixed into the low ones first)."""
    x ^= x >> 29
    return x & (n - 1)


@kernel
def bucket_base(h0, h1, h2, misc, nbuckets):
    return slot(fold(fold(fold(fold(0, h0), h1), h2), misc), nbuckets) * (BUCKET * ENTRY_WORDS)


#: Nibble bit 0 of ranks 3..A, resp. 3..2 (13 ranks).
_R12 = 0x111111111111
_R13 = 0x1111111111111


@kernel
def at_least(h, k):
    """Bit 4r set for each rank r 3..2 of which hand ``h`` holds at least
    ``k`` (1, 2 or 3) cards; for one deck or two (counts up to 8)."""
    if k == 1:
        return (h | (h >> 1) | (h >> 2) | (h >> 3)) & _R13
    if k == 2:
        return ((h >> 1) | (h >> 2) | (h >> 3)) & _R13
    return ((h & (h >> 1)) | (h >> 2) | (h >> 3)) & _R13


@kernel
def chain_places(x, flags, top):
    """The places of the chain sequence held in the rank bits ``x`` (bit 4r,
    ranks 3..2), as bits 4p: the ranks of ``top`` (``3``..``A``, or to the 2
    under ``chains_with_two``) where they are; under ``chains=shanghai`` (two
    decks) a low A and 2 first (places 0 and 1), then rank r at place r + 2
    (the A also at the top)."""
    if (flags & F_SHANGHAI) != 0:
        return ((x & _R12) << 8) | ((x >> 44) & 1) | (((x >> 48) & 1) << 4)
    return x & top


@kernel
def run_starts(p, n):
    """Bits 4p of the places p that start ``n`` set places of ``p`` in a row."""
    w = p
    for i in range(1, n):
        w &= p >> (4 * i)
    return w


@kernel
def can_chain(h, flags):
    """True when hand ``h`` could play a chain: five places in a row held
    once (a straight, ``3``..``A``), three held twice (a pair chain) or two
    held three times (an airplane, with or without wings), the last two up
    to the 2 under ``chains_with_two``, all in the sequence ``A 2 3 .. A``
    under ``chains=shanghai``.  Hands only shrink: a hand that cannot play a
    chain never will."""
    top = _R13 if (flags & F_CHAINS_WITH_TWO) != 0 else _R12
    if run_starts(chain_places(at_least(h, 1), flags, _R12), 5) != 0:
        return True
    if run_starts(chain_places(at_least(h, 2), flags, top), 3) != 0:
        return True
    return run_starts(chain_places(at_least(h, 3), flags, top), 2) != 0


@kernel
def _sorted_by_nibbles(h, a):
    """Hand ``h`` with its counts sorted, highest first, within every run of
    ranks next to each other in ``a`` (bit 3 of nibble r: ranks r and r+1
    in one run); for counts of at most 4 (one deck)."""
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
def _sorted_by_swaps(h, a):
    """:func:`_sorted_by_nibbles` for counts up to 8 (two decks), whose
    nibble trick reads counts of at most 4: neighbours swapped until none
    rises."""
    while True:
        swapped = False
        x = a
        while x != 0:
            r = low_bit(x) >> 2
            x &= x - 1
            lo = (h >> (4 * r)) & 15
            hi = (h >> (4 * r + 4)) & 15
            if lo < hi:
                h += ((hi - lo) << (4 * r)) - ((hi - lo) << (4 * r + 4))
                swapped = True
        if not swapped:
            return h


@kernel
def _sorted_in_runs(h, a, flags):
    """Hand ``h`` with its counts sorted, highest first, within every run of
    ranks next to each other in ``a`` (bit 3 of nibble r: ranks r and r+1
    in one run): by the nibble trick for one deck, by swaps for two."""
    if (flags & F_FOUR) != 0:
        return _sorted_by_swaps(h, a)
    return _sorted_by_nibbles(h, a)


@kernel
def _runs_sorted(c0, c1, c2, c3, cut, flags):
    """Hands renamed when no hand can play a chain (ranks 1, 2, 3, ... of
    which only the order counts) with the counts sorted, highest first,
    within every run of ranks next to each other held by one seat alone;
    no run crosses from rank ``cut`` to ``cut + 1`` (the main rank of the
    play to answer; 0 for none).  Jokers are in no run."""
    o0 = at_least(c0, 1)
    o1 = at_least(c1, 1)
    o2 = at_least(c2, 1)
    nocut = ~(1 << (4 * cut)) if cut > 0 else -1
    # Each seat's ranks held by him alone whose next rank is too, at bit 3
    # (a fourth hand only at a four-seat table).
    if c3 == 0:
        a0 = o0 & ~(o1 | o2)
        a1 = o1 & ~(o0 | o2)
        a2 = o2 & ~(o0 | o1)
    else:
        o3 = at_least(c3, 1)
        a0 = o0 & ~(o1 | o2 | o3)
        a1 = o1 & ~(o0 | o2 | o3)
        a2 = o2 & ~(o0 | o1 | o3)
        a3 = o3 & ~(o0 | o1 | o2)
        c3 = _sorted_in_runs(c3, (a3 & (a3 >> 4) & nocut) << 3, flags)
    return (_sorted_in_runs(c0, (a0 & (a0 >> 4) & nocut) << 3, flags),
            _sorted_in_runs(c1, (a1 & (a1 >> 4) & nocut) << 3, flags),
            _sorted_in_runs(c2, (a2 & (a2 >> 4) & nocut) << 3, flags), c3)


@kernel
def canon(h0, h1, h2, h3, misc, nplayers, flags):
    """The table key of a position: its hands (``nplayers`` of them, the rest
    0) and misc word with the ranks renamed so that positions that play
    alike share one entry.  One kernel for every rule set: one deck or two
    (a rank held up to 8 times; ``XX`` and ``DD`` pairs), two, three or four
    hands.

    Only the order of the ranks and, for chains, which ranks are next to each
    other decide what can be played and what beats what; suits never matter.
    So, when some rank 3..2 is held by nobody:

    * if no hand can play a chain (:func:`can_chain`; hands only shrink, so
      none ever will), the held ranks 3..2 are renamed 1, 2, 3, ... in order
      (flag bit 24 keeps these keys apart), and each seat's counts are sorted
      within the runs of ranks he alone holds (see :func:`_runs_sorted`);
    * otherwise A and 2 keep their ranks and below A every run of two or more
      ranks held by nobody closes to one (the key is then a real position
      with the same plays and answers); except under ``chains=shanghai``,
      where A and 2 also run low, below the 3, so no gap may close: no
      renaming.

    Jokers keep their ranks.  The main rank of the play to answer is renamed
    with the held ranks (an unheld one to just below the next held rank), so
    every answer still beats it.  With four hands the key's first three
    words are the landlord's hand and the farmers' packed in two words
    (:func:`pack_farmers`).  Equal keys mean equal game values, which
    ``tests/engines/test_solver.py`` and ``tests/engines/test_solver_four.py`` check against
    the plain reference solver.
    """
    allh = h0 | h1 | h2 | h3
    if (allh & wild_cards(flags)) != 0:
        # A hand holds laizi: a laizi stands for any rank, held or not, so
        # the empty ranks are not interchangeable (a laizi fills a chain's
        # gap, or makes a pair of a face nobody holds): no renaming, and the
        # key is marked apart from every renamed one (which may put cards
        # on a wild rank).  Without laizi in any hand the game left is a
        # classic one (see :func:`laizi_held`), renamed as below: the play
        # to answer may be a tiered bomb, whose main rank is renamed like
        # any other and whose answers (hard four-card bombs, the rocket)
        # compare with it by size and tier first, then face, all kept.
        # (Three hands at most: the Laizi rules seat three.)
        return h0, h1, h2, misc | LAIZI_BIT
    occn = at_least(allh, 1)
    c0, c1, c2, c3 = h0, h1, h2, h3
    chains = False
    if occn != _R13:
        for q in range(4):
            h = h0 if q == 0 else (h1 if q == 1 else (h2 if q == 2 else h3))
            if h != 0 and can_chain(h, flags):
                chains = True
                break
    if occn != _R13 and (not chains or (flags & F_SHANGHAI) == 0):
        # New hands (jokers in place), built a run of held ranks at a time
        # (one shift and mask each, rather than a rank at a time); npm: the
        # new main rank of the play to answer (of an empty rank: the new rank
        # just below the next held rank above it, so every answer still
        # beats it).
        c0 = h0 & (0xFF << 52)
        c1 = h1 & (0xFF << 52)
        c2 = h2 & (0xFF << 52)
        c3 = h3 & (0xFF << 52)
        pk = (misc >> 4) & 0x3FFF
        pm = (pk >> 5) & 15
        npm = pm
        pb = 4 * pm
        if not chains:
            # No hand can ever play a chain: only the order of the ranks
            # counts.  The held ranks 3..2 become 1, 2, 3, ... (d: the bit
            # of the next).
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
                c3 |= ((h3 >> s) & mask) << d
                if not found and pb < s + w:
                    npm = ((d + pb - s) >> 2) if pb >= s else (d >> 2) - 1
                    found = True
                d += w
                m = (t >> w) << (s + w)
            if not found:
                npm = (d >> 2) - 1
            flag = 1 << 24
            c0, c1, c2, c3 = _runs_sorted(c0, c1, c2, c3, npm if pk != 0 else 0, flags)
        else:
            # Chains matter: keep 2 and A in place and close every run of two
            # or more empty ranks below A to one empty rank, from the top
            # down (pr, pi: the old and new rank of the last held rank
            # placed).
            c0 |= h0 & (0xFF << 44)
            c1 |= h1 & (0xFF << 44)
            c2 |= h2 & (0xFF << 44)
            c3 |= h3 & (0xFF << 44)
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
                c3 |= (h3 & mask) << sh
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
        misc = (misc & ~(0x3FFF << 4)) | (pk << 4) | flag
    if nplayers == 4:
        lo, hi = pack_farmers(c1, c2, c3)
        return c0, lo, hi, misc
    return c0, c1, c2, misc


@kernel
def hands_key(hands, nplayers, m, flags):
    """The table key of the position ``hands`` (``nplayers`` of them, the
    rest 0) with misc word ``m`` (see :func:`misc`): :func:`canon`.
    ``hands[3]`` is read only when four hands are at the table."""
    return canon(hands[0], hands[1], hands[2] if nplayers >= 3 else 0, hands[3] if nplayers == 4 else 0, m,
                 nplayers, flags)


@kernel
def _tri_index(a, b, c):
    """A dense index of the counts (a, b, c) of one rank in three hands of
    two decks (a + b + c <= 8: 165 triples, below 256; with a joker's
    counts, at most 2: below 10): the triples of smaller sum first, then by
    a, then by b."""
    s = a + b + c
    return (s * (s + 1) * (s + 2)) // 6 + a * (s + 1) - (a * (a - 1)) // 2 + b


@kernel
def pack_farmers(h1, h2, h3):
    """The three farmers' hands of a four-hand key as two words: each rank
    3..2 a byte (:func:`_tri_index` of its three counts), ranks 3..9 in the
    first word and ``T``..``2`` in the second, the small joker's index at
    bit 56 of the first and the big joker's at bit 48 of the second.  Exact
    for hands of two decks (a rank's counts sum to at most 8): equal words,
    equal hands."""
    lo = 0
    hi = 0
    for r in range(13):
        v = _tri_index((h1 >> (4 * r)) & 15, (h2 >> (4 * r)) & 15, (h3 >> (4 * r)) & 15)
        if r < 7:
            lo |= v << (8 * r)
        else:
            hi |= v << (8 * (r - 7))
    lo |= _tri_index((h1 >> 52) & 15, (h2 >> 52) & 15, (h3 >> 52) & 15) << 56
    hi |= _tri_index((h1 >> 56) & 15, (h2 >> 56) & 15, (h3 >> 56) & 15) << 48
    return lo, hi


@kernel
def tt_find(tt, base, h0, h1, h2, misc):
    """0 or 1 (the value for the side to move) if the key, already renamed by
    :func:`canon`, is stored in its bucket at ``base``, else -1."""
    for e in range(BUCKET):
        b = base + e * ENTRY_WORDS
        w = tt[b + 3]
        if (w & VALID_BIT) != 0 and (w & MISC_MASK) == misc and tt[b] == h0 and tt[b + 1] == h1 and tt[b + 2] == h2:
            return 1 if (w & VALUE_BIT) != 0 else 0
    return -1


@kernel
def tt_store(tt, nbuckets, h0, h1, h2, misc, value, work, ctl):
    """Store ``value`` under a key already renamed by :func:`canon`, with
    ``work`` (log2 of the nodes below it) for the replacement rule."""
    base = bucket_base(h0, h1, h2, misc, nbuckets)
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
def tt_split(tt, nbuckets):
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
            if bucket_base(tt[b], tt[b + 1], tt[b + 2], w & MISC_MASK, wide) == hi:
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
