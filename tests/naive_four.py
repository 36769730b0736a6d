"""Plain-Python reference of the four-player plays (two decks), written from
docs/rules.md (tests only).

The slow, obviously-right twin of the kernel generator under ``rules four``
(``ddz_tools.moves.movegen._gen_four``) and of ``ddz_tools.core.rules.readings`` there.
Like :mod:`naive` it shares no logic with either: it enumerates every
sub-multiset of a hand and asks of each whether the rules text makes it a
play.  Chains are read as substrings of the chain sequence, written out as
text: ``3456789TJQKA``, or under ``chains=shanghai`` ``A23456789TJQKA`` (A and
2 may run low, and A high too).

What it imports from the package is only the documented encoding: the packed
layout, ``kind = type | main << 5 | length << 9`` with the type numbers by
name, a bomb's length = cards - 3, and a chain's main = its top card's rank
index (15 for the low 2 that tops ``AAA222``).  Options are read from the
named fields of a :class:`Rules`.
"""

from __future__ import annotations

import functools
import itertools

from ddz_tools.core.rules import TYPE_OF_NAME, Rules

RANK_TEXT = "3456789TJQKA2XD"
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14


def unpack(packed: int) -> tuple[int, ...]:
    return tuple((packed >> (4 * r)) & 15 for r in range(15))


def pack(counts) -> int:
    return sum(c << (4 * r) for r, c in enumerate(counts))


def encode(type_name: str, main: int, length: int) -> int:
    return TYPE_OF_NAME[type_name] | (main << 5) | (length << 9)


def sequence(rules: Rules) -> str:
    """The chain sequence: a run is a substring of it."""
    return "A23456789TJQKA" if rules.chains == "shanghai" else "3456789TJQKA"


def runs(rules: Rules, length: int) -> list[tuple[tuple[int, ...], int]]:
    """Every run of ``length`` chain cards: (rank indices, stored main)."""
    seq = sequence(rules)
    out = []
    for start in range(len(seq) - length + 1):
        sub = seq[start:start + length]
        ranks = tuple(RANK_TEXT.index(ch) for ch in sub)
        top_is_low_two = rules.chains == "shanghai" and start + length - 1 == 1
        out.append((ranks, 15 if top_is_low_two else ranks[-1]))
    return out


def naive_readings(cards: int, rules: Rules) -> set[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of a multiset under four-player rules."""
    c = unpack(cards)
    n = sum(c)
    held = [r for r in range(15) if c[r]]
    out = set()
    if n == 0:
        return out
    # One rank: solo, pair (XX and DD too), trio, bomb of 4 to 8 cards.
    if len(held) == 1:
        r = held[0]
        if n == 1:
            out.add(encode("solo", r, 1))
        elif n == 2:
            out.add(encode("pair", r, 1))
        elif n == 3 and r <= TWO:
            out.add(encode("trio", r, 1))
        elif 4 <= n <= 8 and r <= TWO:
            out.add(encode("bomb", r, n - 3))
    # The four jokers.
    if c[SMALL_JOKER] == 2 and c[BIG_JOKER] == 2 and n == 4:
        out.add(encode("rocket", BIG_JOKER, 1))
    # Chains: a run of the sequence, the same number of cards on each place.
    for name, per, shortest in (("chain", 1, 5), ("pair_chain", 2, 3), ("airplane", 3, 2)):
        if n % per == 0 and n // per >= shortest:
            for ranks, main in runs(rules, n // per):
                want = [0] * 15
                for r in ranks:
                    want[r] += per
                if tuple(want) == c:
                    out.add(encode(name, main, n // per))
    # Trio + pair, and airplanes with pair wings: the body's ranks hold
    # exactly the body's cards; the rest is k pairs of other ranks, no joker.
    if n % 5 == 0:
        k = n // 5
        bodies = [((r,), r) for r in range(TWO + 1)] if k == 1 else runs(rules, k)
        for ranks, main in bodies:
            body = [0] * 15
            for r in ranks:
                body[r] += 3
            if any(body[r] and c[r] != body[r] for r in range(15)):
                continue
            rest = [c[r] - body[r] for r in range(15)]
            if min(rest) < 0:
                continue
            wings = [r for r in range(15) if rest[r]]
            if len(wings) != k or any(rest[r] != 2 for r in wings) or any(r > TWO for r in wings):
                continue
            if k > 1 and rules.wing_pairs_consecutive:
                wing_sets = {tuple(sorted(rs)) for rs, _ in runs(rules, k)}
                if tuple(wings) not in wing_sets:
                    continue
            out.add(encode("trio_pair" if k == 1 else "airplane_pair", main, k))
    return {(cards, kind) for kind in out}


@functools.lru_cache(maxsize=256)
def naive_leads(hand: int, rules: Rules) -> frozenset:
    """Every legal lead of ``hand``: each sub-multiset, read (cached)."""
    out = set()
    for sub in itertools.product(*(range(x + 1) for x in unpack(hand))):
        if any(sub):
            out |= naive_readings(pack(sub), rules)
    return frozenset(out)


def _decode(kind: int):
    names = {v: k for k, v in TYPE_OF_NAME.items()}
    return names[kind & 31], (kind >> 5) & 15, (kind >> 9) & 15


def naive_beats(kind: int, prev_kind: int, rules: Rules) -> bool:
    """May a play of ``kind`` answer ``prev_kind``?  Ordinary plays < bombs
    < the four jokers (with ``top_bomb=bomb8`` the 8-card bombs above them);
    bombs by cards, then rank; ordinary plays of one type and length by the
    place of their top card in the sequence."""
    a, am, al = _decode(kind)
    b, bm, bl = _decode(prev_kind)

    def cls(name, length):
        if name == "bomb" and length == 5 and rules.top_bomb == "bomb8":
            return 3
        return {"rocket": 2, "bomb": 1}.get(name, 0)

    ca, cb = cls(a, al), cls(b, bl)
    if ca != cb:
        return ca > cb
    if ca >= 2:
        return ca == 3 and (al, am) > (bl, bm)   # two 8-card bombs: by rank
    if ca == 1:
        return (al, am) > (bl, bm)
    if (a, al) != (b, bl):
        return False
    return (-1 if am == 15 else am) > (-1 if bm == 15 else bm)


def naive_answers(hand: int, prev_kind: int, rules: Rules) -> set:
    return {(c, k) for c, k in naive_leads(hand, rules) if naive_beats(k, prev_kind, rules)}


@functools.lru_cache(maxsize=None)
def naive_min_plays(hand: int, rules: Rules) -> int:
    """The fewest plays that empty ``hand``: every split covers the lowest
    rank held, so try each lead holding a card of it (cached)."""
    if hand == 0:
        return 0
    counts = unpack(hand)
    low = next(r for r in range(15) if counts[r])
    best = sum(counts)   # a solo a card
    for cards, _ in naive_leads(hand, rules):
        if (cards >> (4 * low)) & 15:
            best = min(best, 1 + naive_min_plays(hand - cards, rules))
    return best
