"""The reading a play given as bare cards takes: :func:`choose_reading`.

A set of cards can have several readings (under ``douzero``,
``333444555666`` is a 4-trio airplane and two 3-trio airplanes with solo
wings).  Among the readings that are legal at that point (every reading when
leading; the readings that beat the last play when answering) the one with
the largest kind is taken: the longest body first, then the highest main
rank, then the highest type number; with wild cards, a reading in which
every card is itself comes before the others.
"""

from __future__ import annotations

import functools

from ...core.rules import F_NATURAL_FIRST, WILD_MASK, Rules, beats, reads_as_itself, readings

__all__ = ["choose_reading", "reading_kinds", "best_reading"]


@functools.lru_cache(maxsize=1 << 16)
def _kinds_of(cards: int, flags: int, hand: "int | None") -> tuple:
    return tuple(k for _, k in readings(cards, flags, hand))


def reading_kinds(cards: int, flags: int, hand: "int | None" = None) -> tuple:
    """The kinds of every reading of a multiset (memoised: plays repeat a lot);
    ``hand``, the whole hand, matters only under ``natural_first``."""
    return _kinds_of(cards, flags, hand if flags & F_NATURAL_FIRST else None)


def choose_reading(cards: int, prev_kind: int, rules: Rules) -> "int | None":
    """The reading (kind) a bare set of cards takes here, or None if none is legal.

    ``prev_kind`` is 0 for a lead.  Among the legal readings the largest kind
    wins (see the module doc); with wild cards, the readings in which every
    card is itself come first.

    >>> from ddz_tools.core.cards import parse_cards
    >>> from ddz_tools.core.rules import Play
    >>> Play(parse_cards("333444555666"), choose_reading(parse_cards("333444555666"), 0, Rules.parse("douzero"))).notation()
    '333444555666'
    >>> prev = Play.parse("333444555-678", "douzero").kind
    >>> Play(parse_cards("444555666777"), choose_reading(parse_cards("444555666777"), prev, Rules.parse("douzero"))).notation()
    '555666777-444'
    """
    return best_reading(cards, prev_kind, Rules.parse(rules).flags)


def best_reading(cards: int, prev_kind: int, flags: int, hand: "int | None" = None) -> "int | None":
    """:func:`choose_reading` under the play ``flags``, for a seat holding
    ``hand`` (which matters only under ``natural_first``)."""
    best = None
    best_itself = False
    for kind in reading_kinds(cards, flags, hand):
        if prev_kind == 0 or beats(kind, prev_kind, flags):
            itself = bool(flags & WILD_MASK) and reads_as_itself(cards, kind, flags)
            if best is None or (itself, kind) > (best_itself, best):
                best, best_itself = kind, itself
    return best

