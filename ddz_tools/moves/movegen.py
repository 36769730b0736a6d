"""Move generation: every legal play of a hand, as a lead or as an answer.

Public functions validate and convert their input and call one kernel:

* :func:`generate` -> :class:`Moves` (two int64 arrays, ``cards`` and
  ``kinds``, see :mod:`ddz_tools.core.rules` for the encoding) -- the fast path;
* :func:`legal_plays` -> ``list[Play]`` -- convenient, slower.

The kernels :func:`gen_into` and :func:`gen_all` (also named in
:mod:`ddz_tools.engines.kernels`) are shared by the decomposer, the solver, the game
engine and the policies, so every tool plays by the same generator and the
same rule flags.

Kernel contract: ``gen_into(hand, flags, prev_kind, out_cards, out_kinds)``
writes the plays into the two buffers and returns how many there are; when
that is more than the buffers hold, the extra plays are counted but not
written, and the caller retries with bigger buffers (:func:`gen_all` does
that).  ``prev_kind == 0``
asks for every lead; otherwise the answers to that play (same type and
length with a higher main rank, then bombs and the rocket).  Pass is never
generated: it is always legal when answering and never when leading.
"""

from __future__ import annotations

import numpy as np

from ..core._jit import kernel
from ..core.cards import format_cards, is_valid_packed, to_packed
from ..core.errors import CardError, PlayError
from ..core.kinds import F_FOUR, F_SHANGHAI, F_WING_CONSECUTIVE, WILD_MASK, chain_place, play_beats
from .movegen_laizi import LAIZI_SCRATCH, gen_laizi_linked
from ..core.rules import (
    F_CHAINS_WITH_TWO,
    F_FOUR_WITH_ONE,
    F_JOKERS_AS_KICKERS,
    F_JOKERS_IN_FOUR_TWO,
    F_KICKERS_DISTINCT,
    T_AIRPLANE,
    T_AIRPLANE_PAIR,
    T_AIRPLANE_SOLO,
    T_BOMB,
    T_CHAIN,
    T_FOUR_PAIR,
    T_FOUR_SOLO,
    T_FOUR_TWO_PAIR,
    T_FOUR_TWO_SOLO,
    T_PAIR,
    T_PAIR_CHAIN,
    T_ROCKET,
    T_SOLO,
    T_TRIO,
    T_TRIO_PAIR,
    T_TRIO_SOLO,
    Play,
    Rules,
)

#: Buffer size that holds every play of any 20-card hand seen in testing;
#: the wrapper grows it when a hand needs more.
DEFAULT_CAPACITY = 4096
#: Work entries a generation call needs (:func:`gen_into_scratch`; the
#: classic generator uses 112, the one with wild cards ``LAIZI_SCRATCH``).
GEN_SCRATCH = max(112, LAIZI_SCRATCH)
#: First buffer size of a single :func:`generate` call (most hands need fewer).
CALL_CAPACITY = 512


@kernel
def _kickers(body, kind, cnt, ex_lo, ex_hi, nk, pair, distinct, jokers, out_cards, out_kinds, n, scratch):
    """Emit ``body`` plus every legal kicker set of ``nk`` solos or pairs.

    Ranks ``ex_lo..ex_hi`` (the body) are excluded.  ``jokers``: 0 = no joker
    may be a kicker, 1 = at most one, 2 = both.  Kicker sets are enumerated as
    multisets (counts per rank), so each appears once.  ``scratch`` is an
    int64 work array of at least 64 entries.
    """
    cand = scratch[0:16]
    av = scratch[16:32]
    m = 0
    top = 12 if (pair or jokers == 0) else 14
    for r in range(top + 1):
        if ex_lo <= r <= ex_hi:
            continue
        c = (cnt >> (4 * r)) & 15
        if pair:
            if c >= 2:
                cand[m] = r
                av[m] = 1
                m += 1
        elif c >= 1:
            cand[m] = r
            av[m] = 1 if distinct else c
            m += 1
    if m == 0:
        return n
    cap = out_cards.shape[0]
    unit = 2 if pair else 1
    suf = scratch[32:48]
    suf[m] = 0
    for j in range(m - 1, -1, -1):
        suf[j] = suf[j + 1] + av[j]
    if suf[0] < nk:
        return n
    both_jokers_banned = (not pair) and jokers == 1 and m >= 2 and cand[m - 1] == 14 and cand[m - 2] == 13
    t = scratch[48:64]
    t[:m] = 0
    rem = nk
    i = 0
    cur = body
    while True:
        while i < m and rem > 0:
            take = av[i] if av[i] < rem else rem
            t[i] = take
            rem -= take
            cur += take * (unit << (4 * cand[i]))
            i += 1
        if rem == 0:
            if not (both_jokers_banned and t[m - 1] > 0 and t[m - 2] > 0):
                if n < cap:
                    out_cards[n] = cur
                    out_kinds[n] = kind
                n += 1
        # Step back to the last position that can give one unit to later ones.
        j = i - 1
        while j >= 0:
            if t[j] > 0 and suf[j + 1] >= rem + 1:
                t[j] -= 1
                cur -= unit << (4 * cand[j])
                rem += 1
                i = j + 1
                break
            rem += t[j]
            cur -= t[j] * (unit << (4 * cand[j]))
            t[j] = 0
            j -= 1
        if j < 0:
            break
    return n


@kernel
def gen_into(hand, flags, prev_kind, out_cards, out_kinds):
    """All leads (``prev_kind == 0``) or all answers of ``hand``; see module doc."""
    return gen_into_scratch(hand, flags, prev_kind, out_cards, out_kinds, np.empty(GEN_SCRATCH, np.int64))


@kernel
def gen_into_scratch(hand, flags, prev_kind, out_cards, out_kinds, scratch):
    """:func:`gen_into` with the caller's int64 work array of at least
    ``GEN_SCRATCH`` entries, for callers that generate in a tight loop (the
    solver): no allocation per call.  With wild ranks in ``flags`` the plays
    are those of :mod:`ddz_tools.moves.movegen_laizi`, compiled once and called by
    name (:func:`~ddz_tools.moves.movegen_laizi.gen_laizi_linked`)."""
    if (flags & WILD_MASK) != 0:
        return gen_laizi_linked(hand, flags, prev_kind, out_cards, out_kinds, scratch)
    if (flags & F_FOUR) != 0:
        return _gen_four(hand, flags, prev_kind, out_cards, out_kinds, scratch)
    n = 0
    lead = prev_kind == 0
    pt = prev_kind & 31
    pm = (prev_kind >> 5) & 15
    pl = prev_kind >> 9
    if pt == T_ROCKET:
        return 0
    lo = 0 if lead else pm + 1
    distinct = (flags & F_KICKERS_DISTINCT) != 0
    j2 = 2 if (flags & F_JOKERS_AS_KICKERS) != 0 else 1
    j42 = j2 if (flags & F_JOKERS_IN_FOUR_TWO) != 0 else 0
    top_chain = 12 if (flags & F_CHAINS_WITH_TWO) != 0 else 11
    cap = out_cards.shape[0]

    # Rank lists: ranks held at least once / twice (3..2) / three times (3..2).
    r1 = scratch[64:80]
    r2 = scratch[80:96]
    r3 = scratch[96:112]
    n1 = 0
    n2 = 0
    n3 = 0
    for r in range(15):
        c = (hand >> (4 * r)) & 15
        if c:
            r1[n1] = r
            n1 += 1
            if c >= 2 and r <= 12:
                r2[n2] = r
                n2 += 1
                if c >= 3:
                    r3[n3] = r
                    n3 += 1

    # Solos, pairs, trios and trios with a kicker.
    if lead or pt == T_SOLO:
        for i in range(n1):
            r = r1[i]
            if r >= lo:
                if n < cap:
                    out_cards[n] = 1 << (4 * r)
                    out_kinds[n] = T_SOLO | (r << 5) | (1 << 9)
                n += 1
    if lead or pt == T_PAIR:
        for i in range(n2):
            r = r2[i]
            if r >= lo:
                if n < cap:
                    out_cards[n] = 2 << (4 * r)
                    out_kinds[n] = T_PAIR | (r << 5) | (1 << 9)
                n += 1
    if lead or pt == T_TRIO or pt == T_TRIO_SOLO or pt == T_TRIO_PAIR:
        for i in range(n3):
            r = r3[i]
            if r < lo:
                continue
            body = 3 << (4 * r)
            if lead or pt == T_TRIO:
                if n < cap:
                    out_cards[n] = body
                    out_kinds[n] = T_TRIO | (r << 5) | (1 << 9)
                n += 1
            if lead or pt == T_TRIO_SOLO:
                kind = T_TRIO_SOLO | (r << 5) | (1 << 9)
                for j in range(n1):
                    k = r1[j]
                    if k != r:
                        if n < cap:
                            out_cards[n] = body + (1 << (4 * k))
                            out_kinds[n] = kind
                        n += 1
            if lead or pt == T_TRIO_PAIR:
                kind = T_TRIO_PAIR | (r << 5) | (1 << 9)
                for j in range(n2):
                    k = r2[j]
                    if k != r:
                        if n < cap:
                            out_cards[n] = body + (2 << (4 * k))
                            out_kinds[n] = kind
                        n += 1

    # Chains of singles (5..12, up to A) and pair chains (3..10 pairs).
    if lead or pt == T_CHAIN:
        for s in range(0, 8):
            cards = 0
            for e in range(s, 12):
                if (hand >> (4 * e)) & 15 == 0:
                    break
                cards += 1 << (4 * e)
                ln = e - s + 1
                if ln >= 5 and (lead or (ln == pl and e > pm)):
                    if n < cap:
                        out_cards[n] = cards
                        out_kinds[n] = T_CHAIN | (e << 5) | (ln << 9)
                    n += 1
    if lead or pt == T_PAIR_CHAIN:
        for s in range(0, top_chain - 1):
            cards = 0
            for e in range(s, min(top_chain + 1, s + 10)):
                if (hand >> (4 * e)) & 15 < 2:
                    break
                cards += 2 << (4 * e)
                ln = e - s + 1
                if ln >= 3 and (lead or (ln == pl and e > pm)):
                    if n < cap:
                        out_cards[n] = cards
                        out_kinds[n] = T_PAIR_CHAIN | (e << 5) | (ln << 9)
                    n += 1

    # Airplanes: k consecutive trios, bare or with k solo or k pair wings.
    if lead or pt == T_AIRPLANE or pt == T_AIRPLANE_SOLO or pt == T_AIRPLANE_PAIR:
        for s in range(0, top_chain):
            body = 0
            for e in range(s, min(top_chain + 1, s + 6)):
                if (hand >> (4 * e)) & 15 < 3:
                    break
                body += 3 << (4 * e)
                ln = e - s + 1
                if ln < 2:
                    continue
                if not lead and (ln != pl or e <= pm):
                    continue
                if lead or pt == T_AIRPLANE:
                    if n < cap:
                        out_cards[n] = body
                        out_kinds[n] = T_AIRPLANE | (e << 5) | (ln << 9)
                    n += 1
                if ln <= 5 and (lead or pt == T_AIRPLANE_SOLO):
                    n = _kickers(body, T_AIRPLANE_SOLO | (e << 5) | (ln << 9), hand, s, e, ln,
                                 False, distinct, j2, out_cards, out_kinds, n, scratch)
                if ln <= 4 and (lead or pt == T_AIRPLANE_PAIR):
                    n = _kickers(body, T_AIRPLANE_PAIR | (e << 5) | (ln << 9), hand, s, e, ln,
                                 True, distinct, j2, out_cards, out_kinds, n, scratch)

    # Four with kickers (not bombs).
    if lead or pt == T_FOUR_TWO_SOLO or pt == T_FOUR_TWO_PAIR or pt == T_FOUR_SOLO or pt == T_FOUR_PAIR:
        four_one = (flags & F_FOUR_WITH_ONE) != 0
        for r in range(lo, 13):
            if (hand >> (4 * r)) & 15 == 4:
                body = 4 << (4 * r)
                if lead or pt == T_FOUR_TWO_SOLO:
                    n = _kickers(body, T_FOUR_TWO_SOLO | (r << 5) | (1 << 9), hand, r, r, 2,
                                 False, distinct, j42, out_cards, out_kinds, n, scratch)
                if lead or pt == T_FOUR_TWO_PAIR:
                    n = _kickers(body, T_FOUR_TWO_PAIR | (r << 5) | (1 << 9), hand, r, r, 2,
                                 True, distinct, j42, out_cards, out_kinds, n, scratch)
                if four_one and (lead or pt == T_FOUR_SOLO):
                    n = _kickers(body, T_FOUR_SOLO | (r << 5) | (1 << 9), hand, r, r, 1,
                                 False, distinct, j42, out_cards, out_kinds, n, scratch)
                if four_one and (lead or pt == T_FOUR_PAIR):
                    n = _kickers(body, T_FOUR_PAIR | (r << 5) | (1 << 9), hand, r, r, 1,
                                 True, distinct, j42, out_cards, out_kinds, n, scratch)

    # Bombs and the rocket.
    blo = pm + 1 if pt == T_BOMB else 0
    for r in range(blo, 13):
        if (hand >> (4 * r)) & 15 == 4:
            if n < cap:
                out_cards[n] = 4 << (4 * r)
                out_kinds[n] = T_BOMB | (r << 5) | (1 << 9)
            n += 1
    if (hand >> 52) & 15 and (hand >> 56) & 15:
        if n < cap:
            out_cards[n] = (1 << 52) | (1 << 56)
            out_kinds[n] = T_ROCKET | (14 << 5) | (1 << 9)
        n += 1
    return n


@kernel
def _wings(hand, body, kind, k, flags, pairs, np2, out_cards, out_kinds, n, scratch):
    """Emit ``body`` (a trio or a run of ``k`` trios) plus every set of ``k``
    pair wings: ranks of ``pairs[:np2]`` (3..2, held twice or more) not in
    the body; under ``wing_pairs_consecutive=on`` only wings on consecutive
    chain places."""
    if k == 1:
        for i in range(np2):
            r = pairs[i]
            if (body >> (4 * r)) & 15 == 0:
                if n < out_cards.shape[0]:
                    out_cards[n] = body + (2 << (4 * r))
                    out_kinds[n] = kind
                n += 1
        return n
    if (flags & F_WING_CONSECUTIVE) != 0:
        first = -2 if (flags & F_SHANGHAI) != 0 else 0
        for s in range(first, 13 - k):
            w = 0
            ok = True
            for p in range(s, s + k):
                r = p + 13 if p < 0 else p
                if (hand >> (4 * r)) & 15 < 2 or (body >> (4 * r)) & 15 != 0:
                    ok = False
                    break
                w += 2 << (4 * r)
            if ok:
                if n < out_cards.shape[0]:
                    out_cards[n] = body + w
                    out_kinds[n] = kind
                n += 1
        return n
    cand = scratch[0:16]
    m = wing_pairs(body, pairs, np2, cand)
    if m < k:
        return n
    # Every k-subset of the m candidate pairs, in lexicographic order.
    idx = scratch[16:24]
    part = scratch[24:32]
    first_subset(cand, k, body, idx, part)
    while True:
        if n < out_cards.shape[0]:
            out_cards[n] = part[k]
            out_kinds[n] = kind
        n += 1
        if not next_subset(cand, m, k, idx, part):
            break
    return n


@kernel
def pair_ranks(hand, pairs):
    """The ranks 3..2 that ``hand`` holds twice or more, into ``pairs``,
    lowest first (the ranks an airplane's pair wings come from); returns how
    many."""
    np2 = 0
    for r in range(13):
        if (hand >> (4 * r)) & 15 >= 2:
            pairs[np2] = r
            np2 += 1
    return np2


@kernel
def wing_pairs(body, pairs, np2, cand):
    """The pair wings an airplane ``body`` may carry: a pair (packed) of each
    rank ``pairs[:np2]`` (the ranks held twice or more) that the body does
    not use, into ``cand``, lowest first; returns how many."""
    m = 0
    for i in range(np2):
        r = pairs[i]
        if (body >> (4 * r)) & 15 == 0:
            cand[m] = 2 << (4 * r)
            m += 1
    return m


@kernel
def first_subset(cand, k, base, idx, part):
    """Start the ``k``-subsets of ``cand[:m]`` in lexicographic order:
    ``idx[:k]`` the chosen positions (the first ``k``), ``part[i]`` ``base``
    plus the first ``i`` chosen values (``part[k]`` the whole sum)."""
    part[0] = base
    for i in range(k):
        idx[i] = i
        part[i + 1] = part[i] + cand[i]


@kernel
def next_subset(cand, m, k, idx, part):
    """Step ``idx`` and ``part`` (see :func:`first_subset`) to the next
    ``k``-subset of ``cand[:m]``; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    part[i + 1] = part[i] + cand[idx[i]]
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
        part[j + 1] = part[j] + cand[idx[j]]
    return True


@kernel
def _gen_four(hand, flags, prev_kind, out_cards, out_kinds, scratch):
    """:func:`gen_into_scratch` under the four-player rules (two decks;
    ``F_FOUR``): solos and pairs (``XX``, ``DD`` too), trios, trio + pair,
    chains of solos, pairs and trios over the chain places (A and 2 low too
    under ``chains=shanghai``), airplanes with pair wings, bombs of 4 to 8
    cards and the four jokers."""
    n = 0
    lead = prev_kind == 0
    pt = prev_kind & 31
    pm = (prev_kind >> 5) & 15
    pl = (prev_kind >> 9) & 15
    lo = 0 if lead else pm + 1
    pairs = scratch[32:48]
    np2 = pair_ranks(hand, pairs)
    if lead or pt == T_SOLO:
        for r in range(lo, 15):
            if (hand >> (4 * r)) & 15 >= 1:
                if n < out_cards.shape[0]:
                    out_cards[n] = 1 << (4 * r)
                    out_kinds[n] = T_SOLO | (r << 5) | (1 << 9)
                n += 1
    if lead or pt == T_PAIR:
        for r in range(lo, 15):
            if (hand >> (4 * r)) & 15 >= 2:
                if n < out_cards.shape[0]:
                    out_cards[n] = 2 << (4 * r)
                    out_kinds[n] = T_PAIR | (r << 5) | (1 << 9)
                n += 1
    if lead or pt == T_TRIO or pt == T_TRIO_PAIR:
        for r in range(lo, 13):
            if (hand >> (4 * r)) & 15 >= 3:
                body = 3 << (4 * r)
                if lead or pt == T_TRIO:
                    if n < out_cards.shape[0]:
                        out_cards[n] = body
                        out_kinds[n] = T_TRIO | (r << 5) | (1 << 9)
                    n += 1
                if lead or pt == T_TRIO_PAIR:
                    n = _wings(hand, body, T_TRIO_PAIR | (r << 5) | (1 << 9), 1, flags, pairs, np2, out_cards,
                               out_kinds, n, scratch)
    # Chains of solos (5+), pairs (3+) and trios (2+) over the chain places.
    first = -2 if (flags & F_SHANGHAI) != 0 else 0
    for unit in range(1, 4):
        t = T_CHAIN if unit == 1 else (T_PAIR_CHAIN if unit == 2 else T_AIRPLANE)
        shortest = 5 if unit == 1 else (3 if unit == 2 else 2)
        wings = unit == 3 and (lead or pt == T_AIRPLANE_PAIR)
        if not (lead or pt == t or wings):
            continue
        for s in range(first, 12):
            cards = 0
            for e in range(s, 12):
                r = e + 13 if e < 0 else e
                cards += unit << (4 * r)
                if (cards >> (4 * r)) & 15 > (hand >> (4 * r)) & 15:
                    break
                ln = e - s + 1
                if ln < shortest:
                    continue
                if not lead and (ln != pl or e <= chain_place(pm)):
                    continue
                main = e if e >= 0 else 15
                if lead or pt == t:
                    if n < out_cards.shape[0]:
                        out_cards[n] = cards
                        out_kinds[n] = t | (main << 5) | (ln << 9)
                    n += 1
                if wings:
                    n = _wings(hand, cards, T_AIRPLANE_PAIR | (main << 5) | (ln << 9), ln, flags, pairs, np2,
                               out_cards, out_kinds, n, scratch)
    # Bombs of 4 to 8 cards and the four jokers.
    for r in range(13):
        c = (hand >> (4 * r)) & 15
        for size in range(4, c + 1):
            kind = T_BOMB | (r << 5) | ((size - 3) << 9)
            if lead or play_beats(kind, prev_kind, flags):
                if n < out_cards.shape[0]:
                    out_cards[n] = size << (4 * r)
                    out_kinds[n] = kind
                n += 1
    if (hand >> 52) & 15 == 2 and (hand >> 56) & 15 == 2:
        kind = T_ROCKET | (14 << 5) | (1 << 9)
        if lead or play_beats(kind, prev_kind, flags):
            if n < out_cards.shape[0]:
                out_cards[n] = (2 << 52) | (2 << 56)
                out_kinds[n] = kind
            n += 1
    return n


@kernel
def gen_all(hand, flags, prev_kind, bufc, bufk):
    """Every play, whatever the buffers hold: ``(n, cards, kinds)``.

    Generates into ``bufc``/``bufk``; when they are too small, into fresh
    arrays that hold everything, which are returned instead (a caller that
    keeps its buffers may keep the bigger ones).
    """
    n = gen_into(hand, flags, prev_kind, bufc, bufk)
    if n > bufc.shape[0]:
        c2 = np.empty(n, np.int64)
        k2 = np.empty(n, np.int64)
        gen_into(hand, flags, prev_kind, c2, k2)
        return n, c2, k2
    return n, bufc, bufk


@kernel
def _gen(hand, flags, prev_kind, capacity):
    """A fresh (2, n) array: row 0 the cards, row 1 the kinds of every play."""
    out = np.empty((2, capacity), np.int64)
    n, c, k = gen_all(hand, flags, prev_kind, out[0], out[1])
    if n > capacity:
        out = np.empty((2, n), np.int64)
        out[0] = c
        out[1] = k
    return out[:, :n]


@kernel
def gen_batch(hands, flags, prev_kinds, counts):
    """Generate for many hands in one call (kernel; :func:`count_batch` is its
    checked Python entry): ``counts[i]`` gets the number of plays of
    ``hands[i]`` answering ``prev_kinds[i]`` (0: leads); returns the total.
    ``hands``, ``prev_kinds`` and ``counts`` are int64 arrays of one length."""
    out_cards = np.empty(DEFAULT_CAPACITY, np.int64)
    out_kinds = np.empty(DEFAULT_CAPACITY, np.int64)
    total = 0
    for i in range(hands.shape[0]):
        c, out_cards, out_kinds = gen_all(hands[i], flags, prev_kinds[i], out_cards, out_kinds)
        counts[i] = c
        total += c
    return total


# Public API ---------------------------------------------------------------------


class Moves:
    """The legal plays of one position: parallel int64 arrays ``cards`` and
    ``kinds``.  Iterating yields :class:`Play` objects."""

    __slots__ = ("cards", "kinds")

    def __init__(self, cards: np.ndarray, kinds: np.ndarray):
        self.cards = cards
        self.kinds = kinds

    def __len__(self) -> int:
        return self.cards.shape[0]

    def __getitem__(self, i: int) -> Play:
        return Play(int(self.cards[i]), int(self.kinds[i]))

    def __iter__(self):
        for c, k in zip(self.cards.tolist(), self.kinds.tolist()):
            yield Play(c, k)

    def __repr__(self) -> str:
        return f"<Moves: {len(self)} plays>"


def _flags(rules) -> int:
    if rules is None:
        return 5  # standard: kickers_distinct | jokers_in_four_two
    return Rules.parse(rules).flags


def _prev_kind(after, rules) -> int:
    if after is None:
        return 0
    if isinstance(after, Play):
        return after.kind
    if isinstance(after, str):
        play = Play.parse(after, rules)
        if play.is_pass:
            raise PlayError("there is nothing to answer in a pass; leave 'after' empty for a lead")
        return play.kind
    raise TypeError(f"'after' must be a Play or play text, not {type(after).__name__}")


def generate(hand, after=None, rules=None) -> Moves:
    """Every legal play of ``hand``: leads, or answers to ``after`` (pass excluded).

    ``hand`` is a :class:`Hand`, card text or a packed int; ``after`` a
    :class:`Play` or play text; ``rules`` a :class:`Rules` or spec string.

    >>> len(generate("33"))
    2
    >>> [str(p) for p in generate("3456789", after="34567")]
    ['45678', '56789']
    """
    decks = 1 if rules is None else Rules.parse(rules).decks
    out = _gen(to_packed(hand, decks=decks), _flags(rules), _prev_kind(after, rules), CALL_CAPACITY)
    return Moves(out[0], out[1])


def legal_plays(hand, after=None, rules=None) -> list[Play]:
    """:func:`generate` as a list of :class:`Play`."""
    return list(generate(hand, after, rules))


def moves_report(hand, after=None, rules=None) -> dict:
    """The legal plays of ``hand`` (leads, or answers to ``after``) as the
    JSON-ready object of ``ddz moves --format json``: ``hand`` (canonical
    text), ``rules`` (spec), ``after`` (notation or ``None``), ``count`` and
    ``plays`` (each :meth:`Play.to_dict`).

    >>> r = moves_report("3345", after="4")
    >>> r["hand"], r["after"], r["count"], [p["notation"] for p in r["plays"]]
    ('3345', '4', 1, ['5'])
    """
    rules = Rules.parse(rules).require_wild()
    packed = to_packed(hand, decks=rules.decks)
    moves = generate(packed, after, rules)
    if isinstance(after, str):
        after = Play.parse(after, rules)
    out = {
        "hand": format_cards(packed),
        "rules": rules.describe(),
    }
    out.update(rules.wild_field())
    return {
        **out,
        "after": after.notation(rules) if after is not None else None,
        "count": len(moves),
        "plays": [p.to_dict(rules) for p in moves],
    }


def count_batch(hands: np.ndarray, rules=None, prev_kinds: "np.ndarray | None" = None) -> np.ndarray:
    """Number of legal plays for each packed hand of an int64 array (one kernel call)."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if prev_kinds is None:
        prev_kinds = np.zeros(hands.shape[0], np.int64)
    prev_kinds = np.ascontiguousarray(prev_kinds, dtype=np.int64)
    if prev_kinds.shape != hands.shape:
        raise ValueError("hands and prev_kinds must have the same length")
    decks = 1 if rules is None else Rules.parse(rules).decks
    for h in hands.tolist():
        if not is_valid_packed(h, decks):
            raise CardError(f"{h:#x} is not a legal packed hand")
    counts = np.zeros(hands.shape[0], np.int64)
    gen_batch(hands, _flags(rules), prev_kinds, counts)
    return counts
