"""Play kinds: the int encoding of a reading, the rule-flag bits, and which
play beats which.

This is the lowest part of the rules layer: the numbers every kernel and
every tool agree on.  :mod:`ddz_tools.core.rules` builds the user-facing objects
(:class:`~ddz_tools.core.rules.Rules`, :class:`~ddz_tools.core.rules.Play`) on it.

Kind
----
A play is two int64s, ``cards`` (a packed hand, :mod:`ddz_tools.core.cards`) and
``kind``::

    kind = type | main << 5 | length << 9 | tier << 13

``type`` is one of the ``T_*`` constants, ``main`` the highest face of the
body (rank index 0 = ``3`` .. 14 = ``D``), ``length`` the number of body
faces (1 except for chains and airplanes).  A bomb's ``length`` is its number
of cards minus 3 (1 for the classic four of a kind; 2 to 9 for the long bombs
of 天地癞子), and its ``tier`` says what it is made of: ``TIER_HARD`` (natural
cards only; every classic bomb), ``TIER_SOFT`` (natural cards and laizi),
``TIER_PURE`` (laizi alone) or ``TIER_MIXED`` (laizi of both wild ranks
alone).  Every other play has tier 0, so a classic kind is the same int it
always was.

Rule flags
----------
The play options of a :class:`~ddz_tools.core.rules.Rules` reach the kernels as
one int: the ``F_*`` bits below, each set only where an option differs from
its classic default (so the classic presets keep the flags they always had),
and the wild ranks of the deal being played at ``WILD_SHIFT`` (four bits a
rank, rank + 1, 0 for none).

Order
-----
A play answers the same type and length with a higher main face; a bomb
beats every other play and the lower bombs; the rocket beats everything.
Four-player rules (``F_FOUR``): ``XX`` and ``DD`` are pairs of main 13 and
14, the four jokers ``XXDD`` are the rocket (above an 8-card bomb too, unless
``top_bomb=bomb8``), bombs are 4 to 8 natural cards (length = cards - 3).
Under ``chains=shanghai`` a chain's main is its top place where A and 2 may
run low (places -2 = low A, -1 = low 2, 0 = ``3`` .. 11 = ``A``): ``A2345``
has main 2 (``5``) like ``34567`` has 4; ``AAA222``, the one chain topped by
a low card, stores main 15 and compares as -1 (:func:`chain_place`).
Bombs order by :func:`bomb_rank`: size first, then tier (under
``bomb_order=tiered``: soft < hard < mixed pure < pure; ``pure_bomb=soft``
ranks pure bombs with the soft ones), then face.

>>> beats(make_kind(T_BOMB, 0, 1), make_kind(T_SOLO, 14, 1))
True
>>> soft_2 = make_kind(T_BOMB, 12, 1) | TIER_SOFT << TIER_SHIFT
>>> beats(make_kind(T_BOMB, 0, 1), soft_2), beats(make_kind(T_BOMB, 0, 1), soft_2, F_BOMB_ORDER_RANK)
(True, False)
"""

from __future__ import annotations

from ._jit import interpreted, kernel
from .cards import NUM_RANKS, RANK_2, RANK_A, RANK_D, RANK_X, counts_of

#: The encoding every tool names, re-exported by :mod:`ddz_tools.core.rules` (the kernels,
#: the tiers' and the wild ranks' bit layout stay here for the kernel modules).
__all__ = [
    # types and the kind int
    "T_PASS", "T_SOLO", "T_PAIR", "T_TRIO", "T_TRIO_SOLO", "T_TRIO_PAIR", "T_CHAIN", "T_PAIR_CHAIN",
    "T_AIRPLANE", "T_AIRPLANE_SOLO", "T_AIRPLANE_PAIR", "T_FOUR_TWO_SOLO", "T_FOUR_TWO_PAIR", "T_BOMB",
    "T_ROCKET", "T_FOUR_SOLO", "T_FOUR_PAIR", "NUM_TYPES", "TYPE_NAMES", "TYPE_OF_NAME", "BODY_COUNT", "KICKERS",
    "KIND_PASS", "TIER_NAMES", "make_kind", "kind_type", "kind_main", "kind_length", "kind_tier", "place_rank",
    # rule flags
    "F_KICKERS_DISTINCT", "F_JOKERS_AS_KICKERS", "F_JOKERS_IN_FOUR_TWO", "F_FOUR_WITH_ONE", "F_CHAINS_WITH_TWO",
    "F_LAIZI_ALONE_ANY", "F_LAIZI_NO_FOUR_TWO", "F_BOMB_ORDER_RANK", "F_PURE_BOMB_SOFT", "F_NATURAL_FIRST",
    "F_LONG_BOMBS", "F_NO_MIXED_PURE", "F_STAKE_TIERS", "F_FOUR", "F_SHANGHAI", "F_WING_CONSECUTIVE",
    "F_TOP_BOMB8", "F_BOMBS_SIX_PLUS", "F_BOMBS_LADDER", "WILD_MASK", "wild_flags", "wild_of_flags",
    # comparison and the classic readings
    "beats", "classic_readings",
]

# Combination types -----------------------------------------------------------

T_PASS = 0
T_SOLO = 1
T_PAIR = 2
T_TRIO = 3
T_TRIO_SOLO = 4
T_TRIO_PAIR = 5
T_CHAIN = 6
T_PAIR_CHAIN = 7
T_AIRPLANE = 8
T_AIRPLANE_SOLO = 9
T_AIRPLANE_PAIR = 10
T_FOUR_TWO_SOLO = 11
T_FOUR_TWO_PAIR = 12
T_BOMB = 13
T_ROCKET = 14
T_FOUR_SOLO = 15
T_FOUR_PAIR = 16
NUM_TYPES = 17

TYPE_NAMES = (
    "pass", "solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain",
    "airplane", "airplane_solo", "airplane_pair", "four_two_solo", "four_two_pair",
    "bomb", "rocket", "four_solo", "four_pair",
)
TYPE_OF_NAME = {name: i for i, name in enumerate(TYPE_NAMES)}

#: Cards of each body face, per type (a bomb's size is in its length).
BODY_COUNT = (0, 1, 2, 3, 3, 3, 1, 2, 3, 3, 3, 4, 4, 4, 1, 4, 4)
#: (kicker cards per body face, kicker is a pair) for types with kickers.
KICKERS = {
    T_TRIO_SOLO: (1, False), T_TRIO_PAIR: (1, True), T_AIRPLANE_SOLO: (1, False),
    T_AIRPLANE_PAIR: (1, True), T_FOUR_TWO_SOLO: (2, False), T_FOUR_TWO_PAIR: (2, True),
    T_FOUR_SOLO: (1, False), T_FOUR_PAIR: (1, True),
}
#: The four + kickers types (``laizi_in_four_two``, ``jokers_in_four_two``).
FOUR_TYPES = (T_FOUR_TWO_SOLO, T_FOUR_TWO_PAIR, T_FOUR_SOLO, T_FOUR_PAIR)

KIND_PASS = 0

# Bomb tiers.
TIER_HARD = 0
TIER_SOFT = 1
TIER_PURE = 2
TIER_MIXED = 3
TIER_SHIFT = 13
#: JSON names of the tiers (a mixed pure bomb is a pure bomb; ``mixed`` says which).
TIER_NAMES = ("hard", "soft", "pure", "pure")

# Rule flags ----------------------------------------------------------------------

F_KICKERS_DISTINCT = 1
F_JOKERS_AS_KICKERS = 2
F_JOKERS_IN_FOUR_TWO = 4
F_FOUR_WITH_ONE = 8
F_CHAINS_WITH_TWO = 16
#: ``laizi_alone_as_self=off``: a play of laizi alone may read them as other faces.
F_LAIZI_ALONE_ANY = 32
#: ``laizi_in_four_two=off``: four + kickers never holds a laizi.
F_LAIZI_NO_FOUR_TWO = 64
#: ``bomb_order=rank``: bombs of one size order by face only.
F_BOMB_ORDER_RANK = 128
#: ``pure_bomb=soft``: pure bombs rank with the soft ones.
F_PURE_BOMB_SOFT = 256
#: ``natural_first=on``: a laizi takes face r only when every natural r of the hand is in the play.
F_NATURAL_FIRST = 512
#: ``long_bombs=on``: bombs of 5 to 12 cards of one face.
F_LONG_BOMBS = 1024
#: ``mixed_pure_bomb=off``: laizi of both wild ranks make no bomb.
F_NO_MIXED_PURE = 2048
#: ``laizi_multipliers=hlddz`` under a Laizi preset: a bomb doubles the stake
#: by its tier (soft x2; hard, pure and the rocket x4), not x2 each.  A game
#: rule, not a play rule; it rides in the flags so the game kernels see it.
F_STAKE_TIERS = 4096
#: Four-player Dou Dizhu (preset ``four``, two decks): ``XX`` and ``DD`` are
#: pairs, ``XXDD`` (the four jokers) is the top play, a bomb is 4 to 8 cards
#: of a rank, and there is no trio + solo, no airplane with solo wings and no
#: four + kickers.
F_FOUR = 1 << 13
#: ``chains=shanghai``: A and 2 may run low in chains (``A2345``, ``AA2233``).
F_SHANGHAI = 1 << 14
#: ``wing_pairs_consecutive=on``: an airplane's pair wings are consecutive ranks.
F_WING_CONSECUTIVE = 1 << 15
#: ``top_bomb=bomb8``: an 8-card bomb beats the four jokers.
F_TOP_BOMB8 = 1 << 27
#: ``bomb_doubles=six-plus``: only bombs of 6+ cards and the four jokers double
#: the stake (a game rule in the flags, like ``F_STAKE_TIERS``).
F_BOMBS_SIX_PLUS = 1 << 28
#: ``bomb_doubles=ladder``: 6-7 cards x2, 8 cards and the four jokers x3.
F_BOMBS_LADDER = 1 << 29
#: Flags bits 16-19: the first wild rank + 1 (0: none); bits 20-23: the second.
WILD_SHIFT = 16
WILD_MASK = 0xFF << WILD_SHIFT


def make_kind(ptype: int, main: int, length: int, tier: int = 0) -> int:
    """Pack a play's type, main face, length and bomb tier into its ``kind`` int."""
    return ptype | (main << 5) | (length << 9) | (tier << TIER_SHIFT)


def kind_type(kind: int) -> int:
    return kind & 31


def kind_main(kind: int) -> int:
    return (kind >> 5) & 15


def kind_length(kind: int) -> int:
    return (kind >> 9) & 15


def kind_tier(kind: int) -> int:
    return (kind >> TIER_SHIFT) & 3


def wild_flags(wild) -> int:
    """The flag bits of up to two wild ranks (rank indices, 天 then 地)."""
    f = 0
    for i, r in enumerate(wild):
        f |= (r + 1) << (WILD_SHIFT + 4 * i)
    return f


def wild_of_flags(flags: int) -> tuple[int, ...]:
    """The wild ranks held in rule flags (inverse of :func:`wild_flags`)."""
    out = []
    for i in range(2):
        code = (flags >> (WILD_SHIFT + 4 * i)) & 15
        if code:
            out.append(code - 1)
    return tuple(out)


# Order ----------------------------------------------------------------------------


@kernel
def wild_cards(flags):
    """The nibbles of the wild ranks in a packed hand (``15 << 4w`` for each
    wild rank ``w`` the rule flags hold; 0 under classic rules): ``h &
    wild_cards(flags)`` is the laizi of hand ``h`` (kernel)."""
    m = 0
    c1 = (flags >> WILD_SHIFT) & 15
    if c1 != 0:
        m |= 15 << (4 * (c1 - 1))
    c2 = (flags >> (WILD_SHIFT + 4)) & 15
    if c2 != 0:
        m |= 15 << (4 * (c2 - 1))
    return m


@kernel
def laizi_count(h, flags):
    """How many laizi the packed cards ``h`` hold under ``flags`` (kernel)."""
    x = h & wild_cards(flags)
    n = 0
    while x != 0:
        n += x & 15
        x >>= 4
    return n


@kernel
def bomb_rank(kind, flags):
    """The order of a bomb among bombs (kernel): higher beats lower, equal
    ones never beat each other.  Size first, then tier (see the module doc),
    then face."""
    size = (kind >> 9) & 15
    tier = (kind >> TIER_SHIFT) & 3
    if (flags & F_BOMB_ORDER_RANK) != 0:
        order = 0
    elif tier == TIER_HARD:
        order = 2
    elif tier == TIER_SOFT or (flags & F_PURE_BOMB_SOFT) != 0:
        order = 1
    elif tier == TIER_MIXED:
        order = 3
    else:
        order = 4
    return (size << 8) | (order << 4) | ((kind >> 5) & 15)


@kernel
def chain_place(main):
    """A chain's top place from its stored main: 15 stands for -1 (the low
    2 of ``AAA222`` under ``chains=shanghai``; kernel)."""
    return -1 if main == 15 else main


@kernel
def play_beats(kind, prev_kind, flags):
    """True when a play of ``kind`` may answer a play of ``prev_kind``
    under the rule ``flags`` (kernel)."""
    t = kind & 31
    pt = prev_kind & 31
    if t == T_PASS or pt == T_PASS:
        return False
    if pt == T_ROCKET:
        # Only an 8-card bomb under top_bomb=bomb8 beats the four jokers.
        return t == T_BOMB and (flags & F_TOP_BOMB8) != 0 and ((kind >> 9) & 15) == 5
    if t == T_ROCKET:
        return not (pt == T_BOMB and (flags & F_TOP_BOMB8) != 0 and ((prev_kind >> 9) & 15) == 5)
    if t == T_BOMB:
        return pt != T_BOMB or bomb_rank(kind, flags) > bomb_rank(prev_kind, flags)
    if t != pt or ((kind >> 9) & 15) != ((prev_kind >> 9) & 15):
        return False
    return chain_place((kind >> 5) & 15) > chain_place((prev_kind >> 5) & 15)


_beats_py = interpreted(play_beats)


def beats(kind: int, prev_kind: int, flags: int = 0) -> bool:
    """True when a play of ``kind`` may answer a play of ``prev_kind``
    (:func:`play_beats`; ``flags`` matter only to the order of bombs)."""
    return _beats_py(kind, prev_kind, flags)


# Readings of natural cards ------------------------------------------------------------


def _kickers_ok(rest: list[int], n_kick: int, pairs: bool, flags: int, four: bool) -> bool:
    """Is ``rest`` (rank counts outside the body) a legal kicker set?"""
    if sum(rest) != (2 * n_kick if pairs else n_kick):
        return False
    if pairs:
        ranks = [r for r in range(NUM_RANKS) if rest[r]]
        return len(ranks) == n_kick and all(rest[r] == 2 and r <= RANK_2 for r in ranks)
    if four and not (flags & F_JOKERS_IN_FOUR_TWO) and (rest[RANK_X] or rest[RANK_D]):
        return False
    if rest[RANK_X] and rest[RANK_D] and not (flags & F_JOKERS_AS_KICKERS):
        return False
    if flags & F_KICKERS_DISTINCT and max(rest) > 1:
        return False
    return True


def classic_readings(cards: int, flags: int) -> list[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of a packed multiset as one play, each
    card read as itself (the classic rules; :func:`ddz_tools.core.rules.readings`
    adds the readings of laizi).

    Sorted by kind.  Empty when the cards form no legal play.
    """
    c = counts_of(cards)
    n = sum(c)
    if n == 0:
        return []
    ranks = [r for r in range(NUM_RANKS) if c[r]]
    if flags & F_FOUR:
        return _four_readings(cards, flags, c, n, ranks)
    out: list[int] = []
    top_chain = RANK_2 if flags & F_CHAINS_WITH_TWO else RANK_A
    # Kicker-free types: one count repeated over consecutive ranks.
    if len(set(c[r] for r in ranks)) == 1:
        k = c[ranks[0]]
        m = len(ranks)
        consecutive = ranks[-1] - ranks[0] == m - 1
        if m == 1:
            out.append(make_kind((0, T_SOLO, T_PAIR, T_TRIO, T_BOMB)[k], ranks[0], 1))
        elif consecutive:
            if k == 1 and 5 <= m <= 12 and ranks[-1] <= RANK_A:
                out.append(make_kind(T_CHAIN, ranks[-1], m))
            if k == 2 and 3 <= m <= 10 and ranks[-1] <= top_chain:
                out.append(make_kind(T_PAIR_CHAIN, ranks[-1], m))
            if k == 3 and 2 <= m <= 6 and ranks[-1] <= top_chain:
                out.append(make_kind(T_AIRPLANE, ranks[-1], m))
    if c == [0] * 13 + [1, 1]:
        out.append(make_kind(T_ROCKET, RANK_D, 1))
    # Types with kickers: try every body.
    for r in range(RANK_2 + 1):
        if c[r] >= 3:
            rest = list(c)
            rest[r] -= 3
            if rest[r] == 0:
                if n == 4 and _kickers_ok(rest, 1, False, flags, False):
                    out.append(make_kind(T_TRIO_SOLO, r, 1))
                if n == 5 and _kickers_ok(rest, 1, True, flags, False):
                    out.append(make_kind(T_TRIO_PAIR, r, 1))
        if c[r] == 4:
            rest = list(c)
            rest[r] = 0
            if n == 6 and _kickers_ok(rest, 2, False, flags, True):
                out.append(make_kind(T_FOUR_TWO_SOLO, r, 1))
            if n == 8 and _kickers_ok(rest, 2, True, flags, True):
                out.append(make_kind(T_FOUR_TWO_PAIR, r, 1))
            if flags & F_FOUR_WITH_ONE:
                if n == 5 and _kickers_ok(rest, 1, False, flags, True):
                    out.append(make_kind(T_FOUR_SOLO, r, 1))
                if n == 6 and _kickers_ok(rest, 1, True, flags, True):
                    out.append(make_kind(T_FOUR_PAIR, r, 1))
    # Airplanes with wings: k consecutive ranks holding exactly three each.
    for k in range(2, 6):
        for wing_pairs in (False, True):
            if n != (5 if wing_pairs else 4) * k or (wing_pairs and k > 4):
                continue
            for low in range(0, top_chain - k + 2):
                body = range(low, low + k)
                if all(c[r] == 3 for r in body):
                    rest = list(c)
                    for r in body:
                        rest[r] = 0
                    if _kickers_ok(rest, k, wing_pairs, flags, False):
                        t = T_AIRPLANE_PAIR if wing_pairs else T_AIRPLANE_SOLO
                        out.append(make_kind(t, low + k - 1, k))
    return [(cards, kind) for kind in sorted(set(out))]


# Readings under the four-player rules (two decks) ---------------------------------------


def place_rank(place: int) -> int:
    """The rank at a chain place: places 0..11 are ``3``..``A``; under
    ``chains=shanghai`` place -2 is a low ``A`` and -1 a low ``2``."""
    return place + 13 if place < 0 else place


def chain_runs(flags: int):
    """Every run of chain places ``(low, high)`` the rules allow, low to high:
    within ``3``..``A``, or under ``chains=shanghai`` from the low ``A``."""
    first = -2 if flags & F_SHANGHAI else 0
    for low in range(first, 12):
        for high in range(low, 12):
            yield low, high


def _run_counts(low: int, high: int, unit: int) -> list[int]:
    c = [0] * NUM_RANKS
    for p in range(low, high + 1):
        c[place_rank(p)] += unit
    return c


def _stored_main(high: int) -> int:
    return 15 if high < 0 else high


def _four_readings(cards: int, flags: int, c: list[int], n: int, ranks: list[int]) -> list[tuple[int, int]]:
    """:func:`classic_readings` under the four-player rules (``F_FOUR``) of
    ``cards``: ``c`` their counts, ``n`` how many (not 0), ``ranks`` those held."""
    out: list[int] = []
    if len(ranks) == 1:
        r, k = ranks[0], c[ranks[0]]
        if k == 1:
            out.append(make_kind(T_SOLO, r, 1))
        elif k == 2:
            out.append(make_kind(T_PAIR, r, 1))
        elif k == 3 and r <= RANK_2:
            out.append(make_kind(T_TRIO, r, 1))
        elif 4 <= k <= 8 and r <= RANK_2:
            out.append(make_kind(T_BOMB, r, k - 3))
    if ranks == [RANK_X, RANK_D] and c[RANK_X] == 2 and c[RANK_D] == 2:
        out.append(make_kind(T_ROCKET, RANK_D, 1))
    for unit, t, shortest in ((1, T_CHAIN, 5), (2, T_PAIR_CHAIN, 3), (3, T_AIRPLANE, 2)):
        if n % unit or not shortest <= n // unit <= 15:
            continue
        for low, high in chain_runs(flags):
            if high - low + 1 == n // unit and _run_counts(low, high, unit) == c:
                out.append(make_kind(t, _stored_main(high), n // unit))
    # Trio + pair and airplanes with pair wings: k trios, k pairs of other ranks.
    if n % 5 == 0:
        k = n // 5
        bodies = [(r, r) for r in range(RANK_2 + 1)] if k == 1 else \
            [(lo, hi) for lo, hi in chain_runs(flags) if hi - lo + 1 == k]
        for low, high in bodies:
            body = _run_counts(low, high, 3)
            if any(body[r] and c[r] != body[r] for r in range(NUM_RANKS)) or any(c[r] < body[r] for r in range(NUM_RANKS)):
                continue
            rest = [c[r] - body[r] for r in range(NUM_RANKS)]
            wings = [r for r in range(NUM_RANKS) if rest[r]]
            if len(wings) != k or any(rest[r] != 2 or r > RANK_2 for r in wings):
                continue
            if k > 1 and flags & F_WING_CONSECUTIVE and not any(
                    _run_counts(lo, hi, 2) == rest for lo, hi in chain_runs(flags) if hi - lo + 1 == k):
                continue
            t = T_TRIO_PAIR if k == 1 else T_AIRPLANE_PAIR
            out.append(make_kind(t, _stored_main(high), k))
    return [(cards, kind) for kind in sorted(set(out))]
