"""Answer profiles: which plays a seat can answer, without generating its plays.

A hand's profile (:func:`profile_row`, cached per hand and rules) holds, for
each play type and length, the highest main rank the hand can play plus one.
Answers to a play are exactly the plays of its type and length with a higher
main rank (and bombs, the rocket), so the profile tells whether the hand can
answer a play (:func:`can_answer`).  The profiles of a seat's opponents,
merged nibble by nibble (:func:`merge_opponents`), tell whether any of them
can (:func:`free`: the play is *free*, nobody answers it).

Bombs.  The bomb word holds the highest bomb's *level* shifted by 4
(:func:`bomb_level`): its main rank + 1 under classic rules (the length-1
nibble, as it always was), its ``kinds.bomb_rank`` + 1 when the rule flags
hold wild ranks, where bombs order by size, tier and face and one bomb
answers another exactly when its level is higher.  The bomb word is merged
as one number (its maximum), every other word nibble by nibble.

Four players (two decks).  Bombs of 4 to 8 cards order by size, then
rank: their level is ``kinds.bomb_rank`` + 1, as under wild ranks.  Under
``top_bomb=bomb8`` an 8-card bomb beats the four jokers (the rocket word
then answers everything but such a bomb, see :func:`level_top8`).  Under
``chains=shanghai`` a chain's nibble is its top place + 2 (``AAA222``
stores main 15 for place -1; see :func:`prof_main`).

Laizi.  With wild ranks the same holds: an answer to a play of ``kind`` is a
play of its type and length with a higher main face, a bomb of higher level,
or the rocket (``kinds.play_beats``), and every such play of a hand is among
its leads, from which the profile is built.  A profile is of the hand as it
is; under ``natural_first`` a smaller hand may have plays a larger one has
not, so no rule may take a profile for a bound on what a hand will hold
later unless the hand holds no laizi (see :mod:`.threats`).  Word 0 (type
pass, which no play has) holds, under wild ranks only, 1 when the whole hand
is one play (read by the search's "out now" rule; classic profiles leave it
0).
"""

from ...core._jit import kernel
from ...core.kinds import F_FOUR, F_SHANGHAI, F_TOP_BOMB8, WILD_MASK, bomb_rank, chain_place
from ...moves.movegen import gen_into_scratch
from ...core.rules import T_AIRPLANE, T_AIRPLANE_PAIR, T_BOMB, T_CHAIN, T_PAIR_CHAIN, T_PASS, T_ROCKET
from .key import fold, slot, team
from .layout import CW_MERGED, PROF_W


@kernel
def bomb_level(kind, flags):
    """The level of a bomb in answer profiles (see the module doc): one bomb
    answers another exactly when its level is higher; always >= 1."""
    if (flags & (WILD_MASK | F_FOUR)) == 0:
        return ((kind >> 5) & 15) + 1
    return bomb_rank(kind, flags) + 1


@kernel
def top8(kind, flags):
    """True when a play of ``kind`` is an 8-card bomb that beats the four
    jokers (four-player rules with ``top_bomb=bomb8``)."""
    return (flags & F_TOP_BOMB8) != 0 and (kind & 31) == T_BOMB and ((kind >> 9) & 15) == 5


@kernel
def level_top8(level, flags):
    """True when a bomb word's ``level`` (see :func:`bomb_level`) is an
    8-card bomb's and beats the four jokers (``top_bomb=bomb8``; under the
    four-player rules a level is ``kinds.bomb_rank`` + 1, its size at bit 8)."""
    return (flags & F_TOP_BOMB8) != 0 and level > 0 and ((level - 1) >> 8) == 5


@kernel
def prof_main(k, flags):
    """The nibble a play of kind ``k`` puts in its type's profile word:
    its main rank + 1, or under ``chains=shanghai`` for a chain, pair chain
    or airplane its top place + 2 (``AAA222`` has place -1: 1; ``A``, the
    highest place, 13), so that the nibbles order as the plays do."""
    m = (k >> 5) & 15
    if (flags & F_SHANGHAI) != 0:
        t = k & 31
        if t == T_CHAIN or t == T_PAIR_CHAIN or t == T_AIRPLANE or t == T_AIRPLANE_PAIR:
            return chain_place(m) + 2
    return m + 1


@kernel
def with_play(word, k, flags):
    """The profile's word for the type of play ``k``, raised to hold it: the
    bomb word to at least its level (shifted by 4), any other word as
    :func:`with_kind`."""
    if (k & 31) == T_BOMB:
        b = bomb_level(k, flags) << 4
        return b if b > word else word
    return with_kind(word, k, flags)


@kernel
def merge_word(a, b, t):
    """Two profiles' words of type ``t`` merged: the bomb word's maximum, any
    other word's nibble-by-nibble maximum (:func:`nibble_max`)."""
    if t == T_BOMB:
        return a if a > b else b
    return nibble_max(a, b)


@kernel
def profile_row(prof, hand, flags, pbuf):
    """Row of ``prof`` holding the answer profile of ``hand`` (computed on a
    miss), or -1 when the hand has more plays than ``pbuf`` holds.

    A profile is, for each play type and length, the highest main rank the
    hand can play plus one (a nibble per length in the type's word, 0: none);
    the bomb word's length-1 nibble is the highest bomb, the rocket word is
    non-zero with the rocket.  Answers to a play are exactly the plays of its
    type and length with a higher main rank (and bombs, the rocket), so the
    profile tells whether the hand can answer any play without generating."""
    row = slot(fold(fold(0, hand), flags), prof.shape[0])
    tag = flags | (1 << 40)
    if prof[row, 0] == hand and prof[row, 1] == tag:
        return row
    n = gen_into_scratch(hand, flags, 0, pbuf[0], pbuf[1], pbuf[2])
    if n > pbuf.shape[1]:
        return -1
    for t in range(PROF_W - 2):
        prof[row, 2 + t] = 0
    for i in range(n):
        k = pbuf[1, i]
        prof[row, 2 + (k & 31)] = with_play(prof[row, 2 + (k & 31)], k, flags)
    if (flags & WILD_MASK) != 0:
        for i in range(n):
            if pbuf[0, i] == hand:
                prof[row, 2 + T_PASS] = 1
                break
    prof[row, 0] = hand
    prof[row, 1] = tag
    return row


@kernel
def with_kind(word, k, flags):
    """A profile's word for the type of the play ``k`` (see
    :func:`profile_row`), raised to hold ``k``: its length's nibble at
    least ``k``'s main rank plus one (see :func:`prof_main`)."""
    m = prof_main(k, flags)
    sh = 4 * ((k >> 9) & 15)
    if ((word >> sh) & 15) < m:
        return (word & ~(15 << sh)) | (m << sh)
    return word


@kernel
def can_answer(hand, flags, kind, prof, pbuf):
    """True when ``hand`` holds an answer to a play of ``kind`` (see profile_row).
    Under ``top_bomb=bomb8`` an 8-card bomb answers the four jokers, and
    they do not answer it."""
    t = kind & 31
    if t == T_ROCKET and (flags & F_TOP_BOMB8) == 0:
        return False
    row = profile_row(prof, hand, flags, pbuf)
    if row < 0:
        return gen_into_scratch(hand, flags, kind, pbuf[0, :0], pbuf[1, :0], pbuf[2]) > 0
    bomb = prof[row, 2 + T_BOMB] >> 4
    if t == T_ROCKET:
        return level_top8(bomb, flags)
    if prof[row, 2 + T_ROCKET] != 0 and not top8(kind, flags):
        return True
    if t == T_BOMB:
        return bomb > bomb_level(kind, flags)
    if bomb > 0:
        return True
    return ((prof[row, 2 + t] >> (4 * ((kind >> 9) & 15))) & 15) > prof_main(kind, flags)


@kernel
def unanswered(hands, turn, kind, flags, nplayers, prof, pbuf):
    """True when no opponent of ``turn`` can answer a play of ``kind``."""
    me = team(turn, nplayers)
    for s in range(nplayers):
        if s != turn and team(s, nplayers) != me:
            if can_answer(hands[s], flags, kind, prof, pbuf):
                return False
    return True


#: Low three bits of every nibble below bit 60, resp. the top bit.
NIB_LOW = 0x0777777777777777
NIB_TOP = 0x0888888888888888


@kernel
def nibble_max(a, b):
    """The nibble-by-nibble maximum of two words below 2**60 (no carries:
    each nibble's difference is worked out with its top bit set first)."""
    d = (a | NIB_TOP) - (b & NIB_LOW)
    # Top bit of a nibble of d set where a's low three bits >= b's; fold in
    # the top bits themselves.
    ge = ((d & ~(a ^ b)) | (a & ~b)) & NIB_TOP
    m = (ge >> 3) * 15
    return (a & m) | (b & ~m & 0x0FFFFFFFFFFFFFFF)


@kernel
def merge_opponents(hands, turn, flags, nplayers, prof, pbuf):
    """Merge the answer profiles of ``turn``'s opponents (see
    :func:`profile_row`), nibble by nibble the highest, into ``pbuf[2]`` at
    ``CW_MERGED``: some opponent can answer a play exactly when the merged
    profile says so.  Then a word for the hash of the rules and the merged
    profile (worked out when :func:`control.control_win` first needs it), and
    ``turn + 1`` (0 when some opponent has too many plays for a profile: then
    :func:`free` asks each opponent instead).  Every node with a play to
    weigh merges once before it asks (see ``search._expand``); its moves take
    cards from ``turn`` only."""
    me = team(turn, nplayers)
    w = pbuf[2]
    first = True
    for q in range(nplayers):
        if q != turn and team(q, nplayers) != me:
            r = profile_row(prof, hands[q], flags, pbuf)
            if r < 0:
                w[CW_MERGED + PROF_W - 1] = 0
                return
            if first:
                for t in range(PROF_W - 2):
                    w[CW_MERGED + t] = prof[r, 2 + t]
                first = False
            else:
                for t in range(PROF_W - 2):
                    w[CW_MERGED + t] = merge_word(w[CW_MERGED + t], prof[r, 2 + t], t)
    w[CW_MERGED + PROF_W - 2] = -1
    w[CW_MERGED + PROF_W - 1] = turn + 1


@kernel
def free(hands, turn, kind, flags, nplayers, prof, pbuf):
    """True when no opponent of ``turn`` can answer a play of ``kind``: read
    off the profile :func:`merge_opponents` merged for ``turn``."""
    w = pbuf[2]
    if w[CW_MERGED + PROF_W - 1] != turn + 1:
        return unanswered(hands, turn, kind, flags, nplayers, prof, pbuf)
    t = kind & 31
    bomb = w[CW_MERGED + T_BOMB] >> 4
    if t == T_ROCKET:
        return not level_top8(bomb, flags)
    if w[CW_MERGED + T_ROCKET] != 0 and not top8(kind, flags):
        return False
    if t == T_BOMB:
        return bomb <= bomb_level(kind, flags)
    if bomb > 0:
        return False
    return ((w[CW_MERGED + t] >> (4 * ((kind >> 9) & 15))) & 15) <= prof_main(kind, flags)
