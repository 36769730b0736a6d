"""Hand decomposition: the fewest plays a hand splits into (最少手数).

Definitions
-----------
A *split* of a hand is a multiset of legal plays (under a rule set) whose
cards add up to the hand.  ``min_plays(hand)`` is the smallest size of a split:
how many times the holder must lead to play the hand out if nobody ever
answered.  It is exact (proven minimal by an exhaustive memoised search), for
every preset and rule option, because the plays come from the shared move
generator (:func:`ddz_tools.movegen.gen_into`) under the same
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
the tagged signature.

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

from ._jit import kernel, prefetch
from .cards import FULL_DECK, RANK_2, RANK_D, RANK_X, card_count, count_of, format_cards, to_packed
from .errors import ArgumentError, CardError
from .movegen import GEN_SCRATCH, gen_all, gen_into_scratch
from .rules import (
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
    if table[0] != flags + 1:
        table[:] = 0
        table[0] = flags + 1


@kernel
def _lowest_rank(hand):
    r = 0
    while (hand >> (4 * r)) & 15 == 0:
        r += 1
    return r


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
    j = sig >> 16
    if j >= 1:
        hand |= 1 << 52
    if j >= 2:
        hand |= 1 << 56
    return hand


@kernel
def _sig_cards(sig):
    """Number of cards of a signature."""
    return ((sig & 15) + 2 * ((sig >> 4) & 15) + 3 * ((sig >> 8) & 15)
            + 4 * ((sig >> 12) & 15) + (sig >> 16))


@kernel
def _sig_bound(sig):
    """A lower bound on the rank-free plays of a (non-empty) signature.

    A rank-free play covers at most 3 ranks (four + two), jokers counted as
    ranks.  Every play has one body rank (the rocket two), so every rank but
    those used up whole as kickers holds a body; kicker slots are at most 1
    per rank held three times and 2 per rank held four times.
    """
    n3 = (sig >> 8) & 15
    n4 = (sig >> 12) & 15
    j = sig >> 16
    m = (sig & 15) + ((sig >> 4) & 15) + n3 + n4 + j
    a = (m + 2) // 3
    b = m - n3 - 2 * n4 - (1 if j == 2 else 0)
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
    the rank-free plays holding the lowest rank of its representative hand.
    A hand node: first its own signature marked :data:`_FREE`, then the hands
    left by its chain and airplane plays."""
    residual = key >= _SIG_TAG
    hand = _representative(key ^ _SIG_TAG) if residual else key
    r4 = 4 * _lowest_rank(hand)
    end = start
    if not residual:
        out[end] = _signature(hand) | _SIG_TAG | _FREE
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
        child = (_signature(hand - c) | _SIG_TAG) if residual else hand - c
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
def _search_in(root, flags, table, work):
    """Memoised DFS with an explicit stack over hand and signature nodes, in
    the caller's int64 ``work`` array (no allocation); -1 when ``work`` is too
    small (every value found so far stays in ``table``: call again with a
    bigger one).

    value(signature) = fewest rank-free plays (solo, pair, trio and four
    bodies with their kickers, bomb, rocket): these plays never depend on
    which ranks they use, so hands with equal signatures have equal values.
    value(hand) = min(value(signature of hand), 1 + value(hand - p)) over
    its chain and airplane plays p.  Both are exact minima.
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
            hand = _representative(node ^ _SIG_TAG) if node >= _SIG_TAG else node
            n = gen_into_scratch(hand, flags, 0, gc, gk, scratch)
            if n > cap or top + n + 1 > ch.shape[0] or d + 1 >= _STACK:
                return -1
            end = _expand(node, flags, gc, gk, n, ch, top)
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
            v = _memo_get(table, child)
            if v >= 0:
                if v + w < s_best[d]:
                    s_best[d] = v + w
            else:
                pending = child
            continue
        best = s_best[d]
        _memo_put(table, s_node[d], best)
        d -= 1
        if d < 0:
            return best
        top = s_end[d]
        w = 0 if ch[s_next[d] - 1] >= _FREE else 1
        if best + w < s_best[d]:
            s_best[d] = best + w


@kernel
def _search(root, flags, table):
    """:func:`_search_in` with a work array of its own, doubled until it fits."""
    size = SEARCH_WORK
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
    return _memo_get(table, hand)


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

    >>> from ddz_tools.cards import parse_cards
    >>> t = new_memo_table(10)
    >>> t.shape, int(min_plays_memo(parse_cards("33344455"), Rules.parse("douzero").flags, t))
    ((2050,), 1)
    """
    if not isinstance(bits, int) or isinstance(bits, bool) or not 4 <= bits <= 26:
        raise ArgumentError(f"memo table bits must be an int from 4 to 26, not {bits!r}", param="bits")
    return np.zeros(2 + 2 * (1 << bits), np.int64)


_tables = threading.local()
STANDARD_FLAGS = Rules().flags

#: Most cards the public functions take: a landlord's hand.  The search is
#: exact for any hand, but its time grows quickly past 20 cards (about 6 ms
#: median at 30 cards, 35 ms at 34, far longer for a whole deck).
MAX_CARDS = 20


def _checked_hand(hand) -> int:
    h = to_packed(hand)
    n = card_count(h)
    if n > MAX_CARDS:
        raise CardError(f"{format_cards(h)!r} has {n} cards; a hand to decompose has at most {MAX_CARDS}")
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
    table = tables.get(flags)
    if table is None:
        table = tables[flags] = new_memo_table(16)
    return table


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
    return int(min_plays_memo(_checked_hand(hand), flags, _shared_table(flags)))


@kernel
def _optimal_plays(hand, flags, table, out_cards, out_kinds):
    """The leads holding the lowest rank of ``hand`` that start a minimal
    split (``min(hand - play) == min(hand) - 1``), written to the buffers;
    returns how many (counted past the buffer size like ``gen_into``)."""
    if hand == 0:
        return 0
    best = min_plays_memo(hand, flags, table)
    n, gc, gk = gen_all(hand, flags, 0, np.empty(256, np.int64), np.empty(256, np.int64))
    r4 = 4 * _lowest_rank(hand)
    m = 0
    for i in range(n):
        c = gc[i]
        if (c >> r4) & 15 == 0:
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
            "plays": [p.notation() for p in self.plays],
            "types": [p.type_name for p in self.plays],
            "uncontrolled": self.uncontrolled,
            "uncontrolled_any": self.uncontrolled_any,
            "uncontrolled_plays": [p.notation() for p in self.uncontrolled_plays],
            "controls": {"twos": self.twos, "jokers": self.jokers,
                         "bombs": self.bomb_texts(), "rocket": self.rocket},
            "splits_count": self.splits_count,
        }
        if self.splits is not None:
            d["splits"] = [[p.notation() for p in s] for s in self.splits]
        return d


class _Search:
    """Minimal-split search over one hand: memo table, optimal plays per
    sub-hand, the uncontrolled cost of each play, canonical split counting."""

    def __init__(self, hand: int, rules: Rules):
        self.hand = hand
        self.rules = rules
        self.flags = rules.flags
        self.outside = FULL_DECK - hand
        self.table = _shared_table(self.flags)
        self._opt: dict = {}
        self._cost: dict = {}
        self._best: dict = {}
        self._count: dict = {}
        self._buf = (np.empty(512, np.int64), np.empty(512, np.int64))

    def min_plays(self, h: int) -> int:
        return int(min_plays_memo(h, self.flags, self.table))

    def optimal_groups(self, h: int) -> list:
        """[(cards, [kinds...])] of the plays starting a minimal split of ``h``,
        grouped by cards, sorted by cards."""
        got = self._opt.get(h)
        if got is None:
            a, b = self._buf
            n = _optimal_plays(h, self.flags, self.table, a, b)
            if n > a.shape[0]:
                self._buf = a, b = np.empty(2 * n, np.int64), np.empty(2 * n, np.int64)
                n = _optimal_plays(h, self.flags, self.table, a, b)
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
            from .movegen import generate

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
    bombs.sort(key=lambda p: (p.type == T_ROCKET, p.main))
    if len(unc) <= 1:
        return ctrl + bombs + unc
    return unc + ctrl + bombs


def _controls(hand: int) -> tuple:
    twos = count_of(hand, RANK_2)
    jokers = count_of(hand, RANK_X) + count_of(hand, RANK_D)
    bombs = [4 << (4 * r) for r in range(13) if count_of(hand, r) == 4]
    rocket = count_of(hand, RANK_X) == 1 and count_of(hand, RANK_D) == 1
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
    h = _checked_hand(hand)
    rules = Rules.parse(rules)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ArgumentError(f"limit must be a positive int, not {limit!r}", param="limit")
    twos, jokers, bombs, rocket = _controls(h)
    if h == 0:
        return Decomposition(format_cards(h), rules, 0, [], 0, 0, [], twos, jokers, bombs, rocket, 1,
                             [[]] if all_splits else None)
    s = _Search(h, rules)
    (unc_same, unc_any), best = s.best(h)
    plays = [Play(c, k) for c, k in best]
    unc = {p for p in plays if s.cost(p.cards, p.kind)[0]}
    ordered = lead_order(plays, unc)
    splits = None
    if all_splits:
        splits = []
        for split in s.enumerate(h, limit):
            ps = [Play(c, k) for c, k in split]
            splits.append(lead_order(ps, {p for p in ps if s.cost(p.cards, p.kind)[0]}))
    return Decomposition(
        hand=format_cards(h), rules=rules, min_plays=len(plays), plays=ordered,
        uncontrolled=unc_same, uncontrolled_any=unc_any,
        uncontrolled_plays=[p for p in ordered if p in unc],
        twos=twos, jokers=jokers, bombs=bombs, rocket=rocket,
        splits_count=s.count(h), splits=splits)
