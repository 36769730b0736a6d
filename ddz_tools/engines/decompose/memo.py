"""The memo table every search of the decomposer keeps its values in.

One int64 array (:func:`new_memo_table`) holds the exact minima of hands and
the rank-free values of signatures, keyed by the packed hand or the tagged
signature (:func:`hand_key`, :data:`~.signature.SIG_TAG`), so that a hand or
a sub-hand found once is a look-up afterwards.  The public Python functions
keep one such table per thread and rule set (:func:`shared_table`).

>>> from ddz_tools.core.cards import parse_cards
>>> t = new_memo_table(4)
>>> memo_put(t, parse_cards("33"), 1)
>>> int(memo_get(t, parse_cards("33"))), int(memo_get(t, parse_cards("44")))
(1, -1)
"""

from __future__ import annotations

import threading

import numpy as np

from ...core._jit import interpreted, kernel, prefetch
from ...core.errors import ArgumentError
from ...core.kinds import WILD_MASK, WILD_SHIFT

__all__ = ["new_memo_table", "min_plays_prefetch", "forget_memo", "shared_table", "memo_get", "memo_put",
           "memo_claim", "table_flags", "hand_key", "HASH_MUL", "DEFAULT_MEMO_BITS"]

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
HASH_MUL = 2654435761


@kernel
def _slot(key, mask):
    """Home slot of ``key`` (0 <= slot <= mask)."""
    a = (key ^ (key >> 29) ^ (key >> 47)) & 0x7FFFFFFF
    return ((a * HASH_MUL) >> 20) & mask


#: Default number of slots (log2) of the table :func:`min_plays_fresh` allocates.
DEFAULT_MEMO_BITS = 12


@kernel
def memo_get(table, key):
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
def memo_put(table, key, value):
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
def memo_claim(table, flags):
    """Make ``table`` hold entries for ``flags`` (clearing it otherwise)."""
    f = table_flags(flags)
    if table[0] != f + 1:
        table[:] = 0
        table[0] = f + 1


@kernel
def table_flags(flags):
    """The flags a memo table is tagged with: ``flags``, except that with one
    wild rank which rank it is does not matter (see :func:`hand_key`)."""
    if (flags & WILD_MASK) != 0 and ((flags >> (WILD_SHIFT + 4)) & 15) == 0:
        return (flags & ~WILD_MASK) | (15 << WILD_SHIFT)
    return flags


@kernel
def hand_key(hand, flags):
    """The memo key of a hand: the packed hand itself, except with one wild
    rank, where the laizi count moves to bits 53-55 (free: a packed hand
    holds at most one small joker) and the wild rank's nibble is cleared.

    With a single wild rank the minimum depends only on the natural cards
    and the number of laizi, not on which rank is wild: the wild rank holds
    no natural card, a laizi in a play with natural cards may stand for any
    face, and laizi alone read as themselves make a solo, pair, trio or bomb
    whatever their rank.  So hands of deals with different wild ranks share
    one table's entries (a signature never depended on the wild rank)."""
    if (flags & WILD_MASK) == 0 or ((flags >> (WILD_SHIFT + 4)) & 15) != 0:
        return hand
    w = ((flags >> WILD_SHIFT) & 15) - 1
    lz = (hand >> (4 * w)) & 15
    return (hand & ~(15 << (4 * w))) | (lz << 53)


def new_memo_table(bits: int = 16) -> np.ndarray:
    """A fresh memo table for :func:`min_plays_memo` with ``2**bits`` slots.

    >>> from ddz_tools.core.cards import parse_cards
    >>> from ddz_tools.core.rules import Rules
    >>> from ddz_tools.engines.decompose import min_plays_memo
    >>> t = new_memo_table(10)
    >>> t.shape, int(min_plays_memo(parse_cards("33344455"), Rules.parse("douzero").flags, t))
    ((2050,), 1)
    """
    if not isinstance(bits, int) or isinstance(bits, bool) or not 4 <= bits <= 26:
        raise ArgumentError(f"memo table bits must be an int from 4 to 26, not {bits!r}", param="bits")
    return np.zeros(2 + 2 * (1 << bits), np.int64)


@kernel
def min_plays_prefetch(hand, table):
    """Start loading the home slot of ``hand`` in a memo ``table`` into the
    cache, so that a :func:`min_plays_memo_in` of it soon after does not wait
    for memory (a caller with many hands to look up prefetches them all
    first, and their cache misses overlap).  Changes nothing."""
    if hand != 0:
        mask = (table.shape[0] - 2) // 2 - 1
        prefetch(table, 2 + 2 * _slot(hand, mask))


# The tables of the public Python functions ---------------------------------------

_tables = threading.local()
#: Most memo tables :func:`min_plays` keeps per thread (one per rule set; the
#: deals of 天地癞子 with different wild ranks have one each).
_MAX_TABLES = 16
_table_flags = interpreted(table_flags)


def forget_memo() -> None:
    """Forget this thread's memo tables of :func:`~.api.min_plays` and
    :func:`~.api.decompose`, so that the next calls start cold (for timing: the
    results never change)."""
    _tables.by_flags = {}


def shared_table(flags: int) -> np.ndarray:
    """This thread's persistent memo table for ``flags`` (kept across calls:
    signature values and sub-hands found once are reused): the table of
    :func:`~.api.min_plays` and :func:`~.api.decompose`."""
    tables = getattr(_tables, "by_flags", None)
    if tables is None:
        tables = _tables.by_flags = {}
    key = _table_flags(flags)
    table = tables.get(key)
    if table is None:
        if len(tables) >= _MAX_TABLES:
            tables.pop(next(iter(tables)))  # the oldest (1 MiB each)
        table = tables[key] = new_memo_table(16)
    return table

