"""The minimal splits of one hand: which one to show, how many there are.

A minimal split is found play by play: the plays of a hand that keep its
minimum (``min(hand - play) == min(hand) - 1``, :func:`_optimal_plays`),
then the same for what is left.  :class:`SplitSearch` chooses among the
minimal splits the one with the fewest plays the outside cards could beat,
counts the distinct minimal splits exactly and lists them, taking the plays
that hold the lowest rank in increasing order so that each split comes once
(under ``natural_first`` with laizi, where the order of the plays matters,
splits are sequences and are told apart by their sets of plays).

>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.core.rules import Rules
>>> h = parse_cards("3334445556667779XD")
>>> s = SplitSearch(h, Rules())
>>> s.count(h), s.best(h)[0]
(55, (2, 2))
"""

from __future__ import annotations

import numpy as np

from ...core._jit import interpreted, kernel
from ...core.cards import full_deck
from ...core.kinds import wild_cards
from ...core.rules import KICKERS, T_BOMB, T_ROCKET, Play, Rules, kind_type
from ...moves.movegen import gen_all, generate
from .core import lowest_rank
from .memo import shared_table
from .search import min_plays_memo

__all__ = ["SplitSearch"]

_wild_cards = interpreted(wild_cards)


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
    r4 = 4 * lowest_rank(hand)
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


class SplitSearch:
    """Minimal-split search over one hand: memo table, optimal plays per
    sub-hand, the uncontrolled cost of each play, canonical split counting."""

    def __init__(self, hand: int, rules: Rules):
        self.hand = hand
        self.rules = rules
        self.flags = rules.flags
        self.outside = full_deck(rules.decks) - hand
        self.table = shared_table(self.flags)
        self._opt: dict = {}
        self._cost: dict = {}
        self._best: dict = {}
        self._count: dict = {}
        self._buf = (np.empty(512, np.int64), np.empty(512, np.int64))
        # Under natural_first a laizi may stand for a face only while no
        # natural card of that face is left outside its play, so the order of
        # the plays matters: a split is a sequence, searched from any lead.
        self._laizi = _wild_cards(self.flags) if rules.natural_first else 0
        self._sets: dict = {}

    def sequenced(self, h: int) -> bool:
        """Does the order of the plays of ``h`` matter (natural_first, laizi held)?"""
        return (h & self._laizi) != 0

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
            r = lowest_rank(h)
            for cards, _ in self.optimal_groups(h):
                if cards < low:
                    continue
                rest = h - cards
                got += self.count(rest, cards if rest and lowest_rank(rest) == r else -1)
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
        r = lowest_rank(h)
        made = 0
        for cards, kinds in self.optimal_groups(h):
            if cards < low:
                continue
            _, k = self.reading(cards, kinds)
            rest = h - cards
            for sub in self.enumerate(rest, limit - made, cards if rest and lowest_rank(rest) == r else -1):
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

