"""Plain-Python reference for the decomposer, written from the rules text.

It shares nothing with the kernels but the rules classifier
(:func:`ddz_tools.rules.readings`, itself written straight from docs/rules.md):

* candidate plays are built shape by shape with itertools (a body of one
  rank, a run of ranks, a trio / airplane / four body plus any multiset of
  kicker cards or kicker pairs from the other ranks), generously, and a
  candidate is kept only when ``readings`` says it is a legal play;
* the minimum is found by iterative deepening: "can the hand be played out
  in k plays?" for k = 1, 2, ..., where one step plays some legal play
  holding a card of the lowest rank left (every split has one).

Hands are tuples of 15 rank counts here; ``pack`` converts to the packed int.
"""

from __future__ import annotations

import functools
import itertools

from ddz_tools.cards import NUM_RANKS, counts_of, pack_counts
from ddz_tools.rules import readings


def pack(counts) -> int:
    return pack_counts(counts)


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def _kicker_sets(rest, k, pairs):
    """Every multiset of ``k`` kicker solos (or pairs) from the counts ``rest``."""
    units = []
    for r in range(NUM_RANKS):
        avail = rest[r] // 2 if pairs else rest[r]
        units.extend([r] * avail)
    seen = set()
    for combo in itertools.combinations(units, k):
        if combo in seen:
            continue
        seen.add(combo)
        out = [0] * NUM_RANKS
        for r in combo:
            out[r] += 2 if pairs else 1
        yield tuple(out)


@functools.lru_cache(maxsize=None)
def naive_plays(hand: tuple, flags: int) -> frozenset:
    """Every sub-multiset of ``hand`` that is a legal play (as count tuples)."""
    cands = set()
    ranks = range(NUM_RANKS)
    # One rank, any count; the rocket.
    for r in ranks:
        for k in range(1, hand[r] + 1):
            cands.add(tuple(k if i == r else 0 for i in ranks))
    if hand[13] and hand[14]:
        cands.add(tuple(1 if i >= 13 else 0 for i in ranks))
    # Runs of equal counts over consecutive ranks (chains, pair chains, airplanes).
    for per in (1, 2, 3):
        for lo in ranks:
            for hi in range(lo + 1, NUM_RANKS):
                if any(hand[i] < per for i in range(lo, hi + 1)):
                    break
                body = tuple(per if lo <= i <= hi else 0 for i in ranks)
                cands.add(body)
                if per == 3:
                    rest = _sub(hand, body)
                    rest = tuple(0 if lo <= i <= hi else c for i, c in enumerate(rest))
                    k = hi - lo + 1
                    for pairs in (False, True):
                        for kick in _kicker_sets(rest, k, pairs):
                            cands.add(tuple(a + b for a, b in zip(body, kick)))
    # Trio or four body plus kickers from the other ranks.
    for r in ranks:
        for per, nks in ((3, (1,)), (4, (1, 2))):
            if hand[r] < per:
                continue
            body = tuple(per if i == r else 0 for i in ranks)
            rest = tuple(0 if i == r else c for i, c in enumerate(hand))
            for k in nks:
                for pairs in (False, True):
                    for kick in _kicker_sets(rest, k, pairs):
                        cands.add(tuple(a + b for a, b in zip(body, kick)))
    return frozenset(c for c in cands if readings(pack(c), flags))


@functools.lru_cache(maxsize=None)
def _can(hand: tuple, flags: int, k: int) -> bool:
    if not any(hand):
        return True
    if k == 0:
        return False
    low = next(r for r in range(NUM_RANKS) if hand[r])
    for p in naive_plays(hand, flags):
        if p[low] and _can(_sub(hand, p), flags, k - 1):
            return True
    return False


def naive_min_plays(hand, flags: int) -> int:
    """Fewest plays for ``hand`` (packed int or count tuple) under ``flags``."""
    if isinstance(hand, int):
        hand = tuple(counts_of(hand))
    k = 0
    while not _can(hand, flags, k):
        k += 1
    return k


def naive_splits(hand, flags: int) -> set:
    """Every distinct minimal split, as a sorted tuple of packed plays (small hands only)."""
    if isinstance(hand, int):
        hand = tuple(counts_of(hand))
    k = naive_min_plays(hand, flags)
    out = set()

    def rec(h, acc, left):
        if not any(h):
            out.add(tuple(sorted(acc)))
            return
        for p in naive_plays(h, flags):
            rest = _sub(h, p)
            if _can(rest, flags, left - 1):
                rec(rest, acc + [pack(p)], left - 1)

    rec(hand, [], k)
    return out


def clear_caches() -> None:
    naive_plays.cache_clear()
    _can.cache_clear()


def _whole_kickers(hand: tuple, play: tuple, flags: int) -> bool:
    """Does every reading's kicker part take whole ranks of ``hand`` (no pair
    or trio broken into kickers)?  Used to find hands that need a break."""
    from ddz_tools.rules import body_of

    packed = pack(play)
    for cards, kind in readings(packed, flags):
        kick = counts_of(cards - body_of(cards, kind))
        if all(k == 0 or k == hand[r] for r, k in enumerate(kick)):
            return True
    return False


@functools.lru_cache(maxsize=None)
def _can_nobreak(hand: tuple, flags: int, k: int) -> bool:
    if not any(hand):
        return True
    if k == 0:
        return False
    low = next(r for r in range(NUM_RANKS) if hand[r])
    for p in naive_plays(hand, flags):
        if p[low] and _whole_kickers(hand, p, flags) and _can_nobreak(_sub(hand, p), flags, k - 1):
            return True
    return False


def naive_min_plays_nobreak(hand, flags: int) -> int:
    """Fewest plays when kickers may only take whole ranks (what greedy
    splitters do): a pair or a trio is never broken into kickers."""
    if isinstance(hand, int):
        hand = tuple(counts_of(hand))
    k = 0
    while not _can_nobreak(hand, flags, k):
        k += 1
    return k
