"""What wild cards stand for: the readings of a set of cards that holds laizi,
the faces of a play, and the ``CARDS=FACES`` notation.

Under Laizi rules a card of a wild rank (a *laizi*) stands for any face 3..2.
A play is its cards (laizi at their own rank) and its reading, the ``kind``
(:mod:`ddz_tools.core.kinds`).  The faces of the body follow from the kind; the
faces shown for laizi kickers are display only (any legal choice is the same
play), and this module picks them the same way every time: a laizi kicker
reads as its own rank when it may, else as the lowest free face.

Notation: ``CARDS=FACES`` pins a reading, each side written like a classic
play (body, then ``-`` and the kickers): with 9 wild, ``34569=34567`` is the
chain 3..7 and ``5559=5555`` a soft bomb of 5s.  A play whose every card is
read as itself is written as classic (``333-9``).

The readings here are found one candidate reading at a time (for each
type, face and length: do the cards fill the body, and are the rest legal
kickers?), a different method from the move generator's (type by type,
cards chosen per face) and from the test reference (every substitution).

>>> from ddz_tools.core.kinds import wild_flags
>>> from ddz_tools.core.cards import parse_cards
>>> flags = 5 | wild_flags([6])                     # standard, 9 wild
>>> [describe_kind(k) for _, k in wild_readings(parse_cards("34569"), flags)]
['chain 7 x5']
>>> play_notation(parse_cards("34569"), wild_readings(parse_cards("34569"), flags)[0][1], flags)
'34569=34567'
"""

from __future__ import annotations

from .cards import NUM_RANKS, RANK_2, RANK_A, RANK_D, RANK_X, RANKS, counts_of, format_cards, pack_counts
from . import kinds as K
from .kinds import (BODY_COUNT, FOUR_TYPES, KICKERS, TYPE_NAMES, classic_readings, kind_length, kind_main, kind_tier,
                    kind_type, make_kind, wild_of_flags)

#: (type, shortest, longest run of body faces, highest face: "A", "chain" (A,
#: or 2 with chains_with_two) or "2") for every type made of one or more
#: faces of equal count.
_SHAPES = (
    (K.T_SOLO, 1, 1, "2"), (K.T_PAIR, 1, 1, "2"), (K.T_TRIO, 1, 1, "2"),
    (K.T_TRIO_SOLO, 1, 1, "2"), (K.T_TRIO_PAIR, 1, 1, "2"),
    (K.T_CHAIN, 5, 12, "A"), (K.T_PAIR_CHAIN, 3, 10, "chain"), (K.T_AIRPLANE, 2, 6, "chain"),
    (K.T_AIRPLANE_SOLO, 2, 5, "chain"), (K.T_AIRPLANE_PAIR, 2, 4, "chain"),
    (11, 1, 1, "2"), (12, 1, 1, "2"), (15, 1, 1, "2"), (16, 1, 1, "2"),
)


def describe_kind(kind: int) -> str:
    """Short text of a kind, for messages and doctests: ``chain 7 x5``."""
    t = kind_type(kind)
    if t == K.T_BOMB:
        tier = ("hard", "soft", "pure", "mixed pure")[kind_tier(kind)]
        return f"bomb {RANKS[kind_main(kind)]} x{kind_length(kind) + 3} {tier}"
    return f"{TYPE_NAMES[t]} {RANKS[kind_main(kind)]} x{kind_length(kind)}"


def split_laizi(cards: int, flags: int) -> tuple[list[int], list[tuple[int, int]]]:
    """``(naturals, laizi)``: the natural counts of ``cards`` (wild ranks
    zeroed) and ``[(wild rank, count), ...]`` of its laizi."""
    c = counts_of(cards)
    lz = []
    for w in wild_of_flags(flags):
        lz.append((w, c[w]))
        c[w] = 0
    return c, lz


def _free_faces(body: set, taken: list[int], hand_nat: list[int], nf: bool) -> list[int]:
    """Faces 3..2 a laizi kicker may take as its own: outside the body, not
    taken by another kicker, and under natural_first held by no natural."""
    return [g for g in range(RANK_2 + 1) if g not in body and not taken[g] and (not nf or hand_nat[g] == 0)]


def _kickers_ok(rest: list[int], lk: int, body: set, nk: int, pair: bool, four: bool, flags: int,
                hand_nat: list[int]) -> bool:
    """Are the natural cards ``rest`` (outside the body faces) and ``lk``
    laizi a legal set of ``nk`` solo or pair kickers?"""
    nf = (flags & K.F_NATURAL_FIRST) != 0
    jokers = rest[RANK_X] + rest[RANK_D]
    if pair:
        if jokers or any(x > 2 for x in rest):
            return False
        held = [r for r in range(NUM_RANKS) if rest[r]]
        halves = [r for r in held if rest[r] == 1]
        if nf and any(hand_nat[r] != 1 for r in halves):
            return False
        open_laizi = lk - len(halves)
        if open_laizi < 0 or open_laizi % 2 or len(held) + open_laizi // 2 != nk:
            return False
        return open_laizi // 2 <= len(_free_faces(body, rest, hand_nat, nf))
    if sum(rest) + lk != nk:
        return False
    if four and jokers and not flags & K.F_JOKERS_IN_FOUR_TWO:
        return False
    if rest[RANK_X] and rest[RANK_D] and not flags & K.F_JOKERS_AS_KICKERS:
        return False
    if flags & K.F_KICKERS_DISTINCT:
        return max(rest) <= 1 and lk <= len(_free_faces(body, rest, hand_nat, nf))
    room = sum(4 - rest[g] for g in range(RANK_2 + 1)
               if g not in body and (not nf or hand_nat[g] == rest[g]))
    return lk <= room


def _bomb_tier(nat_used: int, laizi: list[tuple[int, int]]) -> int:
    if not any(n for _, n in laizi):
        return K.TIER_HARD
    if nat_used:
        return K.TIER_SOFT
    return K.TIER_MIXED if sum(1 for _, n in laizi if n) == 2 else K.TIER_PURE


def wild_readings(cards: int, flags: int, hand: "int | None" = None) -> list[tuple[int, int]]:
    """Every ``(cards, kind)`` reading of ``cards`` under rule ``flags``
    that hold wild ranks; ``hand`` (default: the cards) is the whole hand,
    which ``natural_first`` looks at.  Sorted by kind."""
    nat, laizi = split_laizi(cards, flags)
    lz = sum(n for _, n in laizi)
    classic = flags & 31
    if lz == 0:
        return classic_readings(cards, classic)
    hand_nat = split_laizi(hand if hand is not None else cards, flags)[0]
    nf = (flags & K.F_NATURAL_FIRST) != 0
    n = sum(nat) + lz
    out = set()
    if not any(nat) and not flags & K.F_LAIZI_ALONE_ANY:
        # Laizi alone, each read as itself.
        for _, k in classic_readings(cards, classic):
            if kind_type(k) in FOUR_TYPES and flags & K.F_LAIZI_NO_FOUR_TWO:
                continue
            out.add(k | (K.TIER_PURE << 13) if kind_type(k) == K.T_BOMB else k)
        both = [w for w, c in laizi if c]
        big = 12 if flags & K.F_LONG_BOMBS else 4
        if len(both) == 2 and not flags & K.F_NO_MIXED_PURE and 4 <= lz <= big:
            out.add(make_kind(K.T_BOMB, max(both), lz - 3, K.TIER_MIXED))
        return [(cards, k) for k in sorted(out)]
    top_chain = RANK_2 if flags & K.F_CHAINS_WITH_TWO else RANK_A
    for t, shortest, longest, top in _SHAPES:
        if t in (15, 16) and not flags & K.F_FOUR_WITH_ONE:
            continue
        if t in FOUR_TYPES and lz and flags & K.F_LAIZI_NO_FOUR_TWO:
            continue
        per = BODY_COUNT[t]
        nk, pair = KICKERS.get(t, (0, False))
        highest = {"A": RANK_A, "2": RANK_2, "chain": top_chain}[top]
        for length in range(shortest, longest + 1):
            size = length * (per + nk * (2 if pair else 1))
            if size != n:
                continue
            for main in range(length - 1, highest + 1):
                body = set(range(main - length + 1, main + 1))
                if any(nat[f] > per for f in body):
                    continue
                lb = sum(per - nat[f] for f in body)
                if lb > lz:
                    continue
                if nf and any(nat[f] < per and nat[f] != hand_nat[f] for f in body):
                    continue
                rest = [0 if r in body else nat[r] for r in range(NUM_RANKS)]
                if nk == 0:
                    ok = not any(rest) and lb == lz
                else:
                    ok = _kickers_ok(rest, lz - lb, body, nk * length, pair, t in FOUR_TYPES, flags, hand_nat)
                if ok and (any(nat) or flags & K.F_LAIZI_ALONE_ANY):
                    out.add(make_kind(t, main, length))
    # Bombs: the cards are one face.
    big = 12 if flags & K.F_LONG_BOMBS else 4
    held = [r for r in range(NUM_RANKS) if nat[r]]
    if 4 <= n <= big and len(held) <= 1:
        faces = held if held else range(RANK_2 + 1)
        for f in faces:
            if f > RANK_2 or (nf and nat[f] != hand_nat[f]):
                continue
            tier = _bomb_tier(nat[f], laizi)
            if tier == K.TIER_MIXED and flags & K.F_NO_MIXED_PURE:
                continue
            out.add(make_kind(K.T_BOMB, f, n - 3, tier))
    return [(cards, k) for k in sorted(out)]


# Faces and notation ---------------------------------------------------------------------


def play_faces(cards: int, kind: int, flags: int) -> tuple[int, int, int, int]:
    """``(body cards, kicker cards, body faces, kicker faces)`` of a play,
    each packed: the cards as they leave the hand, split into body and
    kickers, and what they stand for.  Laizi kickers read as their own rank
    when they may, else as the lowest free faces (display only)."""
    t = kind_type(kind)
    nat, laizi = split_laizi(cards, flags)
    main, length = kind_main(kind), kind_length(kind)
    if t == K.T_ROCKET or kind == 0:
        return cards, 0, cards, 0
    if t == K.T_BOMB:
        size = length + 3
        return cards, 0, size << (4 * main), 0
    per = BODY_COUNT[t]
    body = list(range(main - length + 1, main + 1))
    body_set = set(body)
    # The body: its naturals, then laizi; laizi whose own rank is a body face first.
    need = sum(per - min(per, nat[f]) for f in body)
    order = sorted(laizi, key=lambda wc: (wc[0] not in body_set, wc[0]))
    body_cards = [0] * NUM_RANKS
    for f in body:
        body_cards[f] = min(per, nat[f])
    left = dict(laizi)
    for w, c in order:
        take = min(c, need)
        body_cards[w] += take
        left[w] -= take
        need -= take
    body_faces = [0] * NUM_RANKS
    for f in body:
        body_faces[f] = per
    kick_cards = [counts_of(cards)[r] - body_cards[r] for r in range(NUM_RANKS)]
    kick_faces = [0 if r in left else kick_cards[r] for r in range(NUM_RANKS)]
    nk, pair = KICKERS.get(t, (0, False))
    if nk:
        if pair:
            # Half pairs: a natural and a laizi of its face.
            spare = [w for w in sorted(left) for _ in range(left[w])]
            for r in range(RANK_2 + 1):
                if kick_faces[r] == 1 and spare:
                    spare.pop(0)
                    kick_faces[r] = 2
            pairs = [(spare[i], spare[i + 1]) for i in range(0, len(spare) - 1, 2)]
            for w, _ in pairs:
                g = _display_face(w, body_set, kick_faces)
                kick_faces[g] += 2
        else:
            for w in sorted(left):
                for _ in range(left[w]):
                    g = _display_face(w, body_set, kick_faces)
                    kick_faces[g] += 1
    return pack_counts(body_cards), pack_counts(kick_cards), pack_counts(body_faces), pack_counts(kick_faces)


def _display_face(w: int, body: set, taken: list[int]) -> int:
    """The face a laizi kicker of rank ``w`` is shown as: its own when free."""
    if w not in body and not taken[w]:
        return w
    for g in range(RANK_2 + 1):
        if g not in body and not taken[g]:
            return g
    return w  # every face taken: shown as itself (never reached by a legal play)


def reads_as_itself(cards: int, kind: int, flags: int) -> bool:
    """True when every card of the play stands for its own rank."""
    _, _, bf, kf = play_faces(cards, kind, flags)
    return bf + kf == cards


def play_notation(cards: int, kind: int, flags: int) -> str:
    """``BODY-KICKERS`` of the cards, then ``=`` and the faces when a laizi
    stands for another rank (``34569=34567``, ``559-9=555-9``)."""
    bc, kc, bf, kf = play_faces(cards, kind, flags)
    text = format_cards(bc) + (f"-{format_cards(kc)}" if kc else "")
    if bf + kf != cards or (kind_type(kind) == K.T_BOMB and kind_tier(kind) != K.TIER_HARD
                            and not _bomb_reads_as_itself(cards, kind)):
        text += "=" + format_cards(bf) + (f"-{format_cards(kf)}" if kf else "")
    return text


def _bomb_reads_as_itself(cards: int, kind: int) -> bool:
    return cards == (kind_length(kind) + 3) << (4 * kind_main(kind))


def faces_text(cards: int, kind: int, flags: int) -> str:
    """The faces of a play as text (body, ``-``, kickers): what JSON calls ``faces``."""
    _, _, bf, kf = play_faces(cards, kind, flags)
    return format_cards(bf) + (f"-{format_cards(kf)}" if kf else "")


def readings_of_faces(cards: int, faces_body: int, faces_kick: "int | None", flags: int,
                      hand: "int | None" = None) -> list[tuple[int, int]]:
    """The readings of ``cards`` whose body faces are ``faces_body`` (and,
    when given, whose kicker faces could be ``faces_kick``): what the text
    ``CARDS=FACES`` names.  Empty when the faces are no reading of the
    cards."""
    faces = faces_body + (faces_kick or 0)
    nat, laizi = split_laizi(cards, flags)
    fc = counts_of(faces)
    if sum(fc) != sum(counts_of(cards)):
        return []
    # Every natural card stands for itself; the laizi fill the rest (never a joker).
    if any(nat[r] > fc[r] for r in range(NUM_RANKS)):
        return []
    if fc[RANK_X] != nat[RANK_X] or fc[RANK_D] != nat[RANK_D]:
        return []
    out = []
    for c, k in wild_readings(cards, flags, hand):
        bc, _, bf, kf = play_faces(c, k, flags)
        if faces_kick is None and kind_type(k) in KICKERS and faces_body == faces:
            # No dash: the faces are the whole play, body and kickers.
            if _faces_fit(k, faces, nat, flags):
                out.append((c, k))
        elif bf == faces_body and (faces_kick is None or _kick_faces_fit(k, faces_body, faces_kick, nat)):
            out.append((c, k))
    return out


def _faces_fit(kind: int, faces: int, nat: list[int], flags: int) -> bool:
    """Do the faces (body and kickers together) contain this kind's body,
    the rest being kicker faces its naturals and laizi can take?"""
    t, main, length = kind_type(kind), kind_main(kind), kind_length(kind)
    per = BODY_COUNT[t]
    fc = counts_of(faces)
    body = range(main - length + 1, main + 1)
    if any(fc[f] < per for f in body):
        return False
    rest = list(fc)
    for f in body:
        rest[f] -= per
    return _kick_faces_fit(kind, pack_counts([per if r in body else 0 for r in range(NUM_RANKS)]),
                           pack_counts(rest), nat)


def _kick_faces_fit(kind: int, body_faces: int, kick_faces: int, nat: list[int]) -> bool:
    """Are ``kick_faces`` legal kicker faces for this kind: no body face, and
    every natural outside the body standing for itself among them?"""
    kc = counts_of(kick_faces)
    bc = counts_of(body_faces)
    nk, pair = KICKERS.get(kind_type(kind), (0, False))
    if any(kc[r] and bc[r] for r in range(NUM_RANKS)):
        return False
    if any(nat[r] > kc[r] for r in range(NUM_RANKS) if not bc[r]):
        return False
    if pair:
        return all(x in (0, 2) for x in kc) and sum(1 for x in kc if x) == nk * kind_length(kind)
    return sum(kc) == nk * kind_length(kind)
