"""The decomposer's kernels for other kernels: the fewest plays of a hand.

:func:`min_plays_memo` looks a hand up in a memo table and, when it is not
there, runs the search its rules take (:func:`_search_in`: the search core,
the two-deck search, the face DP or the natural-first search);
:func:`min_plays_memo_in` does the same in the caller's work array,
allocating nothing; :func:`min_plays_fresh` with a table of its own.  These
are the kernels :mod:`ddz_tools.engines.kernels` lists.

>>> from ddz_tools.core.cards import parse_cards
>>> from ddz_tools.core.rules import Rules
>>> int(min_plays_fresh(parse_cards("33344455"), Rules.parse("douzero").flags))
1
"""

from __future__ import annotations

import numpy as np

from ...core._jit import kernel
from ...core.kinds import F_FOUR, F_NATURAL_FIRST, F_SHANGHAI, F_WING_CONSECUTIVE, WILD_MASK, wild_cards
from .core import SEARCH_WORK, search_core
from .faces import search_static
from .memo import DEFAULT_MEMO_BITS, hand_key, memo_claim, memo_get
from .natural import NF_BOUND, NF_KEY, search_nf
from .twodeck import search_four

__all__ = ["min_plays_memo", "min_plays_memo_in", "min_plays_fresh"]


@kernel
def _search_in(root, flags, table, work):
    """The exact minimum of ``root`` in the caller's ``work`` array (-1 when
    it is too small), by the search its rules take: with wild cards
    :func:`~.natural.search_nf` for a hand holding laizi under
    ``natural_first``, else :func:`~.faces.search_static`; under the
    four-player rules :func:`~.twodeck.search_four` (but for the options
    whose frozen ranks matter); else :func:`~.core.search_core`."""
    if (flags & WILD_MASK) != 0:
        if (flags & F_NATURAL_FIRST) != 0:
            if (root & wild_cards(flags)) != 0:
                return search_nf(root, flags, table, work)
            flags &= ~F_NATURAL_FIRST
        return search_static(root, flags, table, work)
    if (flags & (F_FOUR | F_SHANGHAI | F_WING_CONSECUTIVE)) == F_FOUR:
        return search_four(root, table, work)
    return search_core(root, flags, table, work, 0)


@kernel
def _search(root, flags, table):
    """:func:`_search_in` with a work array of its own, doubled until it fits
    (a first one 16 times bigger with wild cards: far more plays a node)."""
    size = SEARCH_WORK if (flags & WILD_MASK) == 0 else 16 * SEARCH_WORK
    while True:
        v = _search_in(root, flags, table, np.empty(size, np.int64))
        if v >= 0:
            return v
        size *= 2


@kernel
def min_plays_memo(hand, flags, table):
    """Exact minimum number of plays of ``hand``, memoised in ``table``.

    ``table`` is an int64 array of length ``2 + 2 * 2**k`` (see
    :func:`~.memo.new_memo_table`); keep it between calls to reuse results (it is
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
    memo_claim(table, flags)
    if (flags & WILD_MASK) == 0:
        return memo_get(table, hand)
    key = hand_key(hand, flags)
    if (flags & F_NATURAL_FIRST) != 0 and (hand & wild_cards(flags)) != 0:
        v = memo_get(table, key | NF_KEY)
        return v >> 8 if v >= 0 and (v & NF_BOUND) == (v >> 8) else -1
    return memo_get(table, key)


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
