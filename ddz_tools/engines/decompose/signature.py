"""Rank-count signatures: what the rank-free plays of a hand depend on.

A rank-free play (solo, pair, trio and four bodies with their kickers, bomb,
rocket) fits any ranks, so the fewest rank-free plays of a hand depend only
on its *signature*: how many ranks 3..2 it holds once, twice, three and four
times, and its jokers (:func:`signature_f`; with wild cards the laizi are
counted apart, under the four-player rules the counts go up to 8 and the two
jokers are kept apart).  The search values a signature on a representative
hand of it (:func:`representative_f`), cut by a lower bound
(:func:`sig_bound`); a four-player signature has a closed form
(:func:`four_free_plays`).

>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.core.rules import Rules
>>> hex(signature_f(parse_cards("33445XD"), 0))   # two ranks twice, one once, two jokers
'0x20021'
>>> four = Rules.parse("four").flags
>>> sig = signature_f(parse_cards("333444555566", decks=2), four)
>>> int(four_free_plays(sig)), int(sig_cards(sig))   # 333-66, 444, 5555
(3, 12)
"""

from __future__ import annotations

from ...core._jit import kernel
from ...core.kinds import F_FOUR, WILD_MASK, WILD_SHIFT

__all__ = ["SIG_TAG", "SIG_FOUR", "signature_f", "signature_four", "representative_f", "four_free_plays",
           "sig_cards", "sig_bound", "wild1", "wild2"]


@kernel
def wild1(flags):
    """The first wild rank of ``flags`` (-1: none)."""
    return ((flags >> WILD_SHIFT) & 15) - 1


@kernel
def wild2(flags):
    """The second wild rank of ``flags`` (-1: none)."""
    return ((flags >> (WILD_SHIFT + 4)) & 15) - 1


#: Tag bit of signature keys in the memo table (hands use bits 0..59).
SIG_TAG = 1 << 61


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
def signature_f(hand, flags):
    """:func:`_signature` under ``flags``: with wild ranks, the natural ranks
    3..2 are counted as there and the laizi apart, the larger count of the two
    wild ranks at bits 20-23 and the smaller at bits 24-27 (the rank-free
    plays treat every natural rank 3..2 alike, and the two wild ranks alike:
    a laizi stands for any face, and laizi alone read as themselves make the
    same rank-free plays whichever wild rank they have).  Without laizi in
    the hand this is :func:`_signature`."""
    if (flags & F_FOUR) != 0:
        return signature_four(hand)
    if (flags & WILD_MASK) == 0:
        return _signature(hand)
    w1 = wild1(flags)
    w2 = wild2(flags)
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
def _representative(sig, w1, w2):
    """A hand with the natural cards of signature ``sig``: fours first, then
    trios, pairs and singles, on the ranks of :data:`_SPREAD` in order
    skipping the wild ranks ``w1`` and ``w2`` (-1: none); then the small
    joker, then the big one.  Without wild ranks its lowest rank is its first
    rank (0)."""
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
    return hand


#: Marks a signature of the four-player rules (:func:`signature_four`).
SIG_FOUR = 1 << 40


@kernel
def signature_four(hand):
    """The rank-count signature of a two-deck hand (four-player rules):
    nibble ``c - 1`` = number of ranks 3..2 held exactly ``c`` times (1..8),
    bits 32-33 the small jokers, 34-35 the big ones (``XD`` is no play, so
    the two are kept apart), and :data:`SIG_FOUR`."""
    s = SIG_FOUR
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
def four_free_plays(sig):
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
def representative_f(sig, flags):
    """:func:`_representative` under ``flags``: with laizi in the signature
    the natural ranks skip the wild ones, and the laizi sit at the wild ranks
    (the larger count at the first); a four-player signature its own way."""
    if (sig & SIG_FOUR) != 0:
        return _representative_four(sig)
    if (sig >> 20) == 0:
        return _representative(sig, -1, -1)
    w1 = wild1(flags)
    w2 = wild2(flags)
    hand = _representative(sig, w1, w2)
    hand |= ((sig >> 20) & 15) << (4 * w1)
    if w2 >= 0:
        hand |= ((sig >> 24) & 15) << (4 * w2)
    return hand


@kernel
def sig_cards(sig):
    """Number of cards of a signature."""
    if (sig & SIG_FOUR) != 0:
        n = ((sig >> 32) & 3) + ((sig >> 34) & 3)
        for c in range(8):
            n += (c + 1) * ((sig >> (4 * c)) & 15)
        return n
    return ((sig & 15) + 2 * ((sig >> 4) & 15) + 3 * ((sig >> 8) & 15)
            + 4 * ((sig >> 12) & 15) + ((sig >> 16) & 15) + ((sig >> 20) & 15) + ((sig >> 24) & 15))


@kernel
def sig_bound(sig):
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

    A four-player signature: its exact value (:func:`four_free_plays`).
    """
    if (sig & SIG_FOUR) != 0:
        return four_free_plays(sig)
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

