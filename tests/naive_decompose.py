"""Plain-Python reference for the decomposer, written from the rules text.

It shares nothing with the kernels but the rules classifier
(:func:`ddz_tools.core.rules.readings`, itself written straight from docs/rules.md):

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

from ddz_tools.core.cards import NUM_RANKS, counts_of, pack_counts
from ddz_tools.core.rules import readings


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
    from ddz_tools.core.rules import body_of

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


# Wild cards (Laizi, 天地癞子) -------------------------------------------------------
#
# The plays come from the plain-Python reference of laizi move generation,
# tests/naive_laizi.py (every sub-multiset, every substitution of faces for its
# laizi).  Without natural_first a play's legality does not depend on the rest
# of the hand, so a split is a multiset of the hand's leads whose cards add up
# to the hand, and the minimum is an iterative deepening over "play one lead
# holding a card of the branch rank" (every split covers that card).  With
# natural_first a laizi may take a face only when the play holds every natural
# card of that face still in hand, so the order of the plays matters: each
# step is any lead legal in the hand left, whatever cards it holds.


def _nibbles(h: int) -> tuple:
    return tuple((h >> (4 * r)) & 15 for r in range(15))


def _fits(c: tuple, h: tuple) -> bool:
    return all(a <= b for a, b in zip(c, h))


class NaiveLaizi:
    """Minimum number of plays of one hand under Laizi rules (with their wild
    ranks), from :func:`naive_laizi_leads` of the whole hand."""

    def __init__(self, hand: int, rules):
        import dataclasses

        from naive_laizi import naive_laizi_leads, naive_laizi_readings

        self.rules = rules
        self.wild = tuple(rules.wild)
        self.nf = bool(rules.natural_first)
        self._readings = naive_laizi_readings
        self.hand = hand
        # Every set of cards of the hand that is a play under some order
        # (natural_first only ever forbids readings, so its plays are among
        # those of the same rules without it).
        free = dataclasses.replace(rules, natural_first=False) if self.nf else rules
        leads = naive_laizi_leads(hand, self.wild, free)
        self.cards = sorted({c for c, _ in leads})
        self.counts = {c: _nibbles(c) for c in self.cards}
        self._can: dict = {}
        self._legal: dict = {}

    def branch_rank(self, h: int) -> int:
        """The lowest rank held that is not wild, else the lowest rank."""
        counts = _nibbles(h)
        nat = [r for r in range(15) if counts[r] and r not in self.wild]
        return nat[0] if nat else next(r for r in range(15) if counts[r])

    def legal_now(self, c: int, h: int) -> bool:
        """Is the set of cards ``c`` a legal lead from the hand ``h`` (natural_first)?"""
        # The readings depend on the hand only through which faces of the
        # play hold every natural card of that face in the hand.
        cc, hc = self.counts[c], _nibbles(h)
        key = (c, tuple(cc[r] == hc[r] for r in range(13)))
        got = self._legal.get(key)
        if got is None:
            got = self._legal[key] = bool(self._readings(c, self.wild, self.rules, h))
        return got

    def moves(self, h: int):
        hc = _nibbles(h)
        if self.nf:
            return [c for c in self.cards if _fits(self.counts[c], hc) and self.legal_now(c, h)]
        r = self.branch_rank(h)
        return [c for c in self.cards if self.counts[c][r] and _fits(self.counts[c], hc)]

    def can(self, h: int, k: int) -> bool:
        if h == 0:
            return True
        if k == 0:
            return False
        key = (h, k)
        got = self._can.get(key)
        if got is None:
            got = any(self.can(h - c, k - 1) for c in self.moves(h))
            self._can[key] = got
        return got

    def min_plays(self, h: "int | None" = None) -> int:
        h = self.hand if h is None else h
        k = 0
        while not self.can(h, k):
            k += 1
        return k


def naive_laizi_min_plays(hand: int, rules) -> int:
    """Fewest plays for the packed ``hand`` under Laizi ``rules`` (a
    :class:`Rules` with its wild ranks): exhaustive over the plays of
    :func:`naive_laizi_leads` (small hands only: the reference is slow)."""
    return NaiveLaizi(hand, rules).min_plays()
