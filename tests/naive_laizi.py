"""Plain-Python reference of play generation with wild cards (tests only).

The literal definition of docs/rules.md (Laizi): every sub-multiset of the
hand, every substitution of faces for its laizi, each classified by the
classic reference (:func:`tests.naive.naive_readings`), kept when the laizi
rules allow it, deduplicated by identity ``(cards, kind)``.  It shares no
logic with the kernel (:mod:`ddz_tools.moves.movegen_laizi`), which builds plays
type by type.

Rule options are read from a :class:`Rules` object's named fields; what it
imports from the package is the documented encoding (packed hands, the kind
int with its tier bits).

>>> from ddz_tools.core.rules import Rules
>>> from ddz_tools.core.cards import parse_cards, RANKS
>>> r = Rules.parse("laizi")
>>> sorted(naive_play_names(naive_laizi_readings(parse_cards("5678") + (1 << 24), (6,), r)))
['chain 56789=45678', 'chain 56789=56789']
"""

from __future__ import annotations

import functools
import itertools

from tests.naive import RANK_TEXT, decode, naive_readings, pack, unpack

TIER_SHIFT = 13
HARD, SOFT, PURE, MIXED = 0, 1, 2, 3
BOMB = 13
FOUR_TYPES = {"four_two_solo", "four_two_pair", "four_solo", "four_pair"}


@functools.lru_cache(maxsize=None)
def _face_multisets(k: int) -> tuple:
    """Every multiset of ``k`` faces 3..2 (rank indices 0..12), as
    ``(packed faces, bit mask of the faces used)`` (cached)."""
    out = []
    for combo in itertools.combinations_with_replacement(range(13), k):
        counts = [0] * 15
        for r in combo:
            counts[r] += 1
        out.append((pack(counts), sum(1 << r for r in set(combo))))
    return tuple(out)


def _with_tier(kind: int, tier: int) -> int:
    return kind | (tier << TIER_SHIFT)


#: Per rule set: packed faces -> what :func:`_face_readings` says of them.
_FACE_CACHE: dict = {}


def _face_readings(faces: int, rules) -> tuple:
    """What one packed multiset of faces is (cached: the same faces come
    from many sub-multisets and substitutions): ``("long", face, n)`` when a
    face appears more than 4 times and it is the only face (a long bomb
    candidate), ``("none",)`` when a face appears more than 4 times with
    others, else ``("kinds", the kinds of naive_readings)``."""
    counts = unpack(faces)
    if max(counts) > 4:
        held = [r for r in range(15) if counts[r]]
        return ("long", held[0], sum(counts)) if len(held) == 1 else ("none",)
    return ("kinds", tuple(sorted(k for _, k in naive_readings(faces, rules))))


def naive_laizi_readings(cards: int, wild: tuple, rules, hand: "int | None" = None) -> set:
    """Every ``(cards, kind)`` reading of the packed ``cards`` with the wild
    ranks ``wild``; ``hand`` (default: the cards) is the whole hand, which
    ``natural_first`` looks at."""
    counts = unpack(cards)
    hand_counts = unpack(hand if hand is not None else cards)
    lz_by_rank = {w: counts[w] for w in wild}
    lz = sum(lz_by_rank.values())
    naturals = [0 if r in wild else counts[r] for r in range(15)]
    out = set()
    if lz == 0:
        for c, k in naive_readings(cards, rules):
            out.add((c, k))  # natural bombs are hard: tier 0
        return out
    both_ranks = sum(1 for w in wild if lz_by_rank[w]) == 2
    if not any(naturals) and rules.laizi_alone_as_self:
        # A play of laizi alone reads each laizi as itself.
        for c, k in naive_readings(cards, rules):
            if decode(k)[0] in FOUR_TYPES and not rules.laizi_in_four_two:
                continue
            out.add((c, _with_tier(k, PURE) if k & 31 == BOMB else k))
        if both_ranks and rules.mixed_pure_bomb and 4 <= lz <= (12 if rules.long_bombs else 4):
            main = max(w for w in wild if lz_by_rank[w])
            out.add((cards, _with_tier(BOMB | (main << 5) | ((lz - 3) << 9), MIXED)))
        return out
    all_laizi = not any(naturals)
    nat_pack = pack(naturals)
    # natural_first: faces a laizi may not take (a natural of that face stays in the hand).
    barred = sum(1 << r for r in range(13) if r not in wild and naturals[r] != hand_counts[r])
    bomb_tier = SOFT if any(naturals) else (MIXED if both_ranks else PURE)
    cache = _FACE_CACHE.setdefault(rules, {})
    for lz_pack, used in _face_multisets(lz):
        if rules.natural_first and used & barred:
            continue
        what = cache.get(nat_pack + lz_pack)
        if what is None:
            what = cache[nat_pack + lz_pack] = _face_readings(nat_pack + lz_pack, rules)
        if what[0] == "long":
            # Five or more of one face: only a long bomb.
            _, face, n = what
            if rules.long_bombs and 5 <= n <= 12 and not (bomb_tier == MIXED and not rules.mixed_pure_bomb):
                out.add((cards, _with_tier(BOMB | (face << 5) | ((n - 3) << 9), bomb_tier)))
            continue
        if what[0] == "none":
            continue
        for k in what[1]:
            name = decode(k)[0]
            if name in FOUR_TYPES and not rules.laizi_in_four_two:
                continue
            if name == "bomb":
                if bomb_tier == MIXED and not rules.mixed_pure_bomb:
                    continue
                k = _with_tier(k, bomb_tier)
            elif all_laizi and name == "rocket":
                continue
            out.add((cards, k))
    return out


@functools.lru_cache(maxsize=256)
def naive_laizi_leads(hand: int, wild: tuple, rules) -> frozenset:
    """Every lead of ``hand``: the readings of every sub-multiset (cached)."""
    counts = unpack(hand)
    out = set()
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            out |= naive_laizi_readings(pack(sub), wild, rules, hand)
    return frozenset(out)


def naive_bomb_order(kind: int, rules) -> tuple:
    """A bomb's place among bombs, from the rules text: its number of cards
    first; then, under ``bomb_order=tiered``, soft < hard < pure, with a
    mixed pure bomb the lowest of the pure ones, and ``pure_bomb=soft``
    putting every pure bomb with the soft ones; then its face."""
    _, main, length = decode(kind & ((1 << TIER_SHIFT) - 1))
    tier = (kind >> TIER_SHIFT) & 3
    size = length + 3
    if rules.bomb_order == "rank":
        level = 0
    elif tier == HARD:
        level = 2
    elif tier == SOFT or rules.pure_bomb == "soft":
        level = 1
    else:
        level = 3 if tier == MIXED else 4
    return (size, level, main)


def naive_laizi_beats(kind: int, prev_kind: int, rules) -> bool:
    """May a play of ``kind`` answer one of ``prev_kind``?  Ordinary < bomb
    < rocket; bombs by :func:`naive_bomb_order`; ordinary plays only the same
    type and length with a higher main face."""
    a, b = decode(kind & 0x1FFF), decode(prev_kind & 0x1FFF)
    if "pass" in (a[0], b[0]):
        return False
    cls = {"rocket": 2, "bomb": 1}
    ca, cb = cls.get(a[0], 0), cls.get(b[0], 0)
    if ca != cb:
        return ca > cb
    if ca == 2:
        return False
    if ca == 1:
        return naive_bomb_order(kind, rules) > naive_bomb_order(prev_kind, rules)
    return (a[0], a[2]) == (b[0], b[2]) and a[1] > b[1]


def naive_laizi_answers(hand: int, prev_kind: int, wild: tuple, rules) -> set:
    """Every non-pass answer of ``hand`` to a play of ``prev_kind``."""
    return {(c, k) for c, k in naive_laizi_leads(hand, wild, rules) if naive_laizi_beats(k, prev_kind, rules)}


def naive_play_names(plays) -> list[str]:
    """Readable ``"type cards=faces"`` strings (faces: the body faces only, for messages)."""
    out = []
    for cards, kind in plays:
        name, main, length = decode(kind & 0x1FFF)
        text = "".join(RANK_TEXT[r] * c for r, c in enumerate(unpack(cards)))
        per = {"solo": 1, "pair": 2, "trio": 3, "chain": 1, "pair_chain": 2, "airplane": 3}.get(name)
        if per:
            faces = "".join(RANK_TEXT[r] * per for r in range(main - length + 1, main + 1))
            text += "=" + faces
        tier = (kind >> TIER_SHIFT) & 3
        if name == "bomb":
            text += f"@{RANK_TEXT[main]}x{length + 3}/{('hard', 'soft', 'pure', 'mixed')[tier]}"
        out.append(f"{name} {text}")
    return sorted(out)
