"""Plain-Python reference move generator, written from docs/rules.md (tests only).

This is the slow, obviously-right twin of the Numba move generator
(``ddz_tools.moves.movegen.gen_into``) and of ``ddz_tools.core.rules.readings``.  It
shares no logic with either: it enumerates *every sub-multiset* of a hand
with :func:`itertools.product` and asks, for each one, whether it is one of
the combinations of the rules table, trying every body the table allows and
checking the cards left over against the kicker rules, one sentence of the
rules text per check.

What it imports from the package is only the documented *encoding*: the
packed-hand layout (4 bits per rank, rank 0 = ``3`` .. 14 = ``D``), the play
encoding ``kind = type | main << 5 | length << 9`` and the type numbers by
name (``TYPE_OF_NAME``).  Rule options are read from a :class:`Rules`
object's named booleans, not from the kernel's bit flags.

Public functions:

* :func:`naive_readings` -- every ``(cards, kind)`` reading of one multiset;
* :func:`naive_leads` -- every legal lead of a hand (a set of pairs);
* :func:`naive_answers` -- every legal non-pass answer to a previous play;
* :func:`naive_beats` -- may a play of one kind answer another.

>>> from ddz_tools.core.rules import Rules
>>> sorted(naive_play_names(naive_leads(0x2, Rules())))  # hand "33"
['pair 33', 'solo 3']
>>> naive_play_names(naive_readings(0x111110, Rules()))  # 45678
['chain 45678']
"""

from __future__ import annotations

import functools
import itertools

from ddz_tools.core.rules import TYPE_OF_NAME, Rules

RANK_TEXT = "3456789TJQKA2XD"
ACE, TWO, SMALL_JOKER, BIG_JOKER = 11, 12, 13, 14
MAX_PLAY_CARDS = 20  # no player ever holds more than 20 cards


def unpack(packed: int) -> tuple[int, ...]:
    """The 15 rank counts of a packed hand."""
    return tuple((packed >> (4 * r)) & 15 for r in range(15))


def pack(counts) -> int:
    """The packed hand of 15 rank counts."""
    return sum(c << (4 * r) for r, c in enumerate(counts))


def encode(type_name: str, main: int, length: int) -> int:
    """The ``kind`` int of a play (documented in ddz_tools.core.rules)."""
    return TYPE_OF_NAME[type_name] | (main << 5) | (length << 9)


_NAME_OF_TYPE = {v: k for k, v in TYPE_OF_NAME.items()}


def decode(kind: int) -> tuple[str, int, int]:
    """(type name, main rank, length) of a ``kind`` int."""
    return _NAME_OF_TYPE[kind & 31], (kind >> 5) & 15, kind >> 9


# The rules table ---------------------------------------------------------------
#
# One row per combination with a body of `per` cards on each of `length`
# consecutive ranks (a single rank when the length range is (1, 1)), plus
# `kick` kickers per body rank that are solos ("solo") or pairs ("pair").
# `top` is the highest rank the body may use: "any" = up to the big joker,
# "2" = up to the 2, "A" = 3..A only, "chain" = 3..A, or 3..2 when
# chains_with_two is on.  `four` marks the four + kickers types.

_TABLE = [
    # name             per  lengths   top      kick  kick_kind  four
    ("solo",            1, (1, 1),   "any",    0,   None,      False),
    ("pair",            2, (1, 1),   "2",      0,   None,      False),
    ("trio",            3, (1, 1),   "2",      0,   None,      False),
    ("bomb",            4, (1, 1),   "2",      0,   None,      False),
    ("trio_solo",       3, (1, 1),   "2",      1,   "solo",    False),
    ("trio_pair",       3, (1, 1),   "2",      1,   "pair",    False),
    ("chain",           1, (5, 12),  "A",      0,   None,      False),
    ("pair_chain",      2, (3, 13),  "chain",  0,   None,      False),
    ("airplane",        3, (2, 13),  "chain",  0,   None,      False),
    ("airplane_solo",   3, (2, 13),  "chain",  1,   "solo",    False),
    ("airplane_pair",   3, (2, 13),  "chain",  1,   "pair",    False),
    ("four_two_solo",   4, (1, 1),   "2",      2,   "solo",    True),
    ("four_two_pair",   4, (1, 1),   "2",      2,   "pair",    True),
    ("four_solo",       4, (1, 1),   "2",      1,   "solo",    True),   # four_with_one only
    ("four_pair",       4, (1, 1),   "2",      1,   "pair",    True),   # four_with_one only
]


def _top_rank(top: str, chains_with_two: bool) -> int:
    if top == "any":
        return BIG_JOKER
    if top == "2":
        return TWO
    if top == "A":
        return ACE
    return TWO if chains_with_two else ACE


def _kickers_legal(rest, how_many: int, kick_kind: str, four: bool, rules: Rules) -> bool:
    """Are the cards ``rest`` (counts; body ranks already excluded) a legal kicker set?"""
    cards = [r for r in range(15) for _ in range(rest[r])]
    if kick_kind == "pair":
        # `how_many` pairs, each two cards of one rank, all of different ranks
        # (always, whatever kickers_distinct says); the jokers are never a pair.
        ranks = [r for r in range(15) if rest[r]]
        if len(ranks) != how_many:
            return False
        if any(rest[r] != 2 for r in ranks):
            return False
        if SMALL_JOKER in ranks or BIG_JOKER in ranks:
            return False
        # four + two pairs: pair kickers never contain a joker anyway.
        return True
    # Solo kickers.
    if len(cards) != how_many:
        return False
    if rules.kickers_distinct and len(set(cards)) != len(cards):
        return False
    jokers = cards.count(SMALL_JOKER) + cards.count(BIG_JOKER)
    if jokers == 2 and not rules.jokers_as_kickers:
        return False
    if four and jokers and not rules.jokers_in_four_two:
        return False
    return True


def _rule_free_shapes():
    """For each number of cards: the (row, length) pairs of that size."""
    by_size: dict[int, list] = {}
    for row in _TABLE:
        name, per, (lo, hi), top, kick, kick_kind, four = row
        for length in range(lo, hi + 1):
            size = per * length + kick * length * (2 if kick_kind == "pair" else 1)
            if size <= MAX_PLAY_CARDS:
                by_size.setdefault(size, []).append((row, length))
    return by_size


_SHAPES_BY_SIZE = _rule_free_shapes()


def _structures(counts) -> list[tuple[str, int, int, tuple]]:
    """Rule-independent candidate readings of one multiset.

    Every (type name, lowest body rank, length, rest) such that the body sits
    on the multiset with exactly ``per`` cards on each body rank (a kicker
    never has a body rank) and ``rest`` (the other cards) has the size the
    row needs.  Whether ``rest`` is a legal kicker set, and the rank limits
    that depend on options, are checked later by :func:`_legal`.
    """
    n = sum(counts)
    out = []
    # exact[p]: bit r set when rank r holds exactly p cards.
    exact = [0, 0, 0, 0, 0]
    for r in range(15):
        exact[counts[r]] |= 1 << r
    for row, length in _SHAPES_BY_SIZE.get(n, ()):
        name, per, _, top, _, _, _ = row
        ranks_with_per = exact[per]
        if ranks_with_per.bit_count() < length:
            continue
        run = (1 << length) - 1
        highest_top = _top_rank(top, True)
        for low in range(0, highest_top - length + 2):
            if (ranks_with_per >> low) & run == run:
                rest = tuple(0 if low <= r < low + length else counts[r] for r in range(15))
                out.append((name, low, length, rest))
    # The rocket: the two jokers and nothing else.
    if n == 2 and counts[SMALL_JOKER] == 1 and counts[BIG_JOKER] == 1:
        out.append(("rocket", BIG_JOKER, 1, (0,) * 15))
    return out


_ROW = {row[0]: row for row in _TABLE}


def _legal(structure, rules: Rules) -> bool:
    """Is a candidate reading a legal play under ``rules``?"""
    name, low, length, rest = structure
    if name == "rocket":
        return True
    _, per, _, top, kick, kick_kind, four = _ROW[name]
    if name in ("four_solo", "four_pair") and not rules.four_with_one:
        return False
    if low + length - 1 > _top_rank(top, rules.chains_with_two):
        return False
    if kick == 0:
        return not any(rest)
    return _kickers_legal(rest, kick * length, kick_kind, four, rules)


def naive_readings(cards: int, rules: Rules) -> set[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of the packed multiset ``cards``."""
    out = set()
    for s in _structures(unpack(cards)):
        if _legal(s, rules):
            name, low, length, _ = s
            out.add((cards, encode(name, low + length - 1, length)))
    return out


@functools.lru_cache(maxsize=64)
def _hand_structures(hand: int) -> tuple:
    """Every sub-multiset of ``hand`` with its candidate readings (cached)."""
    counts = unpack(hand)
    found = []
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if 0 < sum(sub) <= MAX_PLAY_CARDS:
            structures = _structures(sub)
            if structures:
                found.append((pack(sub), structures))
    return tuple(found)


@functools.lru_cache(maxsize=512)
def naive_leads(hand: int, rules: Rules) -> frozenset[tuple[int, int]]:
    """Every legal lead of the packed ``hand``: a set of ``(cards, kind)`` (cached)."""
    out = set()
    for cards, structures in _hand_structures(hand):
        for s in structures:
            if _legal(s, rules):
                name, low, length, _ = s
                out.add((cards, encode(name, low + length - 1, length)))
    return frozenset(out)


def naive_beats(kind: int, prev_kind: int) -> bool:
    """May a play of ``kind`` answer a play of ``prev_kind``?  (docs/rules.md, Play.)

    Plays fall in three classes: ordinary < bomb < rocket.  A higher class
    always wins; within the bomb class the higher four wins; ordinary plays
    compare only with the same type and length, by main rank.
    """
    a_type, a_main, a_len = decode(kind)
    b_type, b_main, b_len = decode(prev_kind)
    if "pass" in (a_type, b_type):
        return False
    cls = {"rocket": 2, "bomb": 1}
    a_cls, b_cls = cls.get(a_type, 0), cls.get(b_type, 0)
    if a_cls != b_cls:
        return a_cls > b_cls
    if a_cls == 2:
        return False  # there is only one rocket
    if a_cls == 1:
        return a_main > b_main
    return (a_type, a_len) == (b_type, b_len) and a_main > b_main


def naive_answers(hand: int, prev_kind: int, rules: Rules) -> set[tuple[int, int]]:
    """Every legal non-pass answer of ``hand`` to a play of ``prev_kind``."""
    return {(c, k) for c, k in naive_leads(hand, rules) if naive_beats(k, prev_kind)}


def naive_play_names(plays) -> list[str]:
    """Readable ``"type cards"`` strings of a set of plays, sorted (for messages)."""
    out = []
    for cards, kind in plays:
        text = "".join(RANK_TEXT[r] * c for r, c in enumerate(unpack(cards)))
        out.append(f"{decode(kind)[0]} {text}")
    return sorted(out)


# Perft-style count file ---------------------------------------------------------

MOVECOUNT_HANDS = [
    # Hand-made: every combination type, the traps of other engines, jokers as kickers.
    "3334445556667779XD",
    "33445566778899TTJJ",
    "3456789TJQKA2XD",
    "33334444",
    "3333456789TJQKA2",
    "333444555666999922",
    "3333XD55667788",
    "3344KKKAAA222XD",
    "33344455566677788",
    "3333444455556666",
]


def _movecount_line(hand_text: str, spec: str, after: "str | None") -> str:
    from collections import Counter

    from ddz_tools.core.cards import parse_cards
    from ddz_tools.core.rules import Play

    rules = Rules.parse(spec)
    hand = parse_cards(hand_text)
    if after:
        plays = naive_answers(hand, Play.parse(after, rules).kind, rules)
    else:
        plays = naive_leads(hand, rules)
    counts = Counter(decode(k)[0] for _, k in plays)
    order = list(TYPE_OF_NAME)
    items = " ".join(f"{t}={counts[t]}" for t in sorted(counts, key=order.index))
    return f"{hand_text} {spec} {after or 'lead'} {items}"


def write_movecounts(out) -> None:
    """Write ``data/movecounts.txt``: play counts per type, computed by this module."""
    import random

    rng = random.Random("ddz-movecounts")
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    hands = list(MOVECOUNT_HANDS)
    for size in (17, 20, 17, 20, 20):
        rng.shuffle(deck)
        hands.append("".join(RANK_TEXT[r] for r in sorted(deck[:size])))
    afters = ["5", "77", "34567", "888-4", "9999", "333444-56", "334455", "3333-56", "XD"]
    out.write("# Perft-style play counts: hand, rules, 'lead' or the play answered, then the number\n"
              "# of legal plays (pass excluded) of each type.  Computed by the naive reference\n"
              "# generator (python tests/naive.py > data/movecounts.txt) and checked against the\n"
              "# Numba kernel and the reference by tests/moves/test_movegen.py.\n")
    for hand_text in hands:
        for spec in ("standard", "douzero", "encyclopedia"):
            out.write(_movecount_line(hand_text, spec, None) + "\n")
    for i, after in enumerate(afters):
        hand_text = hands[10 + i % 5]
        out.write(_movecount_line(hand_text, "standard", after) + "\n")
        out.write(_movecount_line(hands[i % 10], "douzero", after) + "\n")


if __name__ == "__main__":
    import sys

    write_movecounts(sys.stdout)
