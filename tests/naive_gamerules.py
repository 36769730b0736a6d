"""Plain-Python references for ``ddz_tools.core.gamerules`` (tests only), written from
the rules text with other algorithms than the kernels:

* the trick is followed through the whole move history (who played last and
  how many passes came after), not by seat arithmetic;
* the stake doubles once per doubling event in a list of events;
* settlement moves the stake between each farmer and the landlord one
  transfer at a time;
* four-player stakes read ``bomb_doubles`` from a table by a bomb's number of
  cards (the option as docs/game.md states it), not from the flag bits.

The auction reference is ``naive_game.auction`` ("who may still speak" lists).
"""

from __future__ import annotations

BOMB_TYPES = (13, 14)   # bomb, rocket (rules table)


def play_to_answer(moves, nplayers: int):
    """The play to answer after a history of ``(seat, kind)`` moves (kind 0 = pass):
    ``(kind, seat)``, or ``(0, 0)`` when the seat to move leads."""
    last = None
    passes = 0
    for seat, kind in moves:
        if kind > 0:
            last = (kind, seat)
            passes = 0
        else:
            passes += 1
            if passes == nplayers - 1:     # everybody else passed: the trick is over
                last = None
                passes = 0
    return last if last is not None else (0, 0)


#: Four players: what a bomb of n cards (the four jokers: "jokers") multiplies
#: the stake by, per ``bomb_doubles`` (as docs/game.md states it).
FOUR_FACTORS = {
    "all": {4: 2, 5: 2, 6: 2, 7: 2, 8: 2, "jokers": 2},
    "six-plus": {4: 1, 5: 1, 6: 2, 7: 2, 8: 2, "jokers": 2},
    "ladder": {4: 1, 5: 1, 6: 2, 7: 2, 8: 3, "jokers": 3},
}


def bomb_factor(kind: int, tiers: bool, bomb_doubles: "str | None" = None) -> int:
    """What one play multiplies the stake by: 1 for a non-bomb; a bomb or the
    rocket 2; with the Laizi multipliers (``laizi_multipliers=hlddz``) a soft
    bomb (tier bits 13-14 equal to 1) 2, any other bomb and the rocket 4;
    four players (``bomb_doubles`` given) by :data:`FOUR_FACTORS`, a bomb's
    cards being its length (bits 9-12) + 3."""
    if (kind & 31) not in BOMB_TYPES:
        return 1
    if bomb_doubles is not None:
        size = "jokers" if (kind & 31) == 14 else ((kind >> 9) & 15) + 3
        return FOUR_FACTORS[bomb_doubles][size]
    if tiers and not ((kind & 31) == 13 and (kind >> 13) & 3 == 1):
        return 4
    return 2


def stake_of(base: int, plays, landlord: int, winner: int, any_player: bool, tiers: bool = False,
             seats: int = 3, bomb_doubles: "str | None" = None):
    """``(spring, anti_spring, multiplier, stake)`` of a finished hand from its
    ``(seat, kind)`` plays (passes excluded) in order; ``tiers``: the Laizi
    multipliers of bombs; ``bomb_doubles``: the four-player ones (see
    :func:`bomb_factor`)."""
    events = [k for _, k in plays if (k & 31) in BOMB_TYPES]
    farmers = [s for s in range(seats) if s != landlord]
    made = {s: sum(1 for p, _ in plays if p == s) for s in range(seats)}
    landlord_won = winner == landlord
    silent = [made[f] == 0 for f in farmers]
    spring = landlord_won and (any(silent) if any_player else all(silent))
    anti = (not landlord_won) and made[landlord] == 1
    if spring:
        events.append("spring")
    if anti:
        events.append("anti-spring")
    mult = 1
    for e in events:
        mult *= 2 if isinstance(e, str) else bomb_factor(e, tiers, bomb_doubles)
    return int(spring), int(anti), mult, base * mult


def settlement(landlord: int, landlord_won: bool, stake: int, seats: int = 3) -> list:
    """Each farmer settles the stake with the landlord, one transfer each."""
    scores = [0] * seats
    for farmer in range(seats):
        if farmer == landlord:
            continue
        payer, payee = (farmer, landlord) if landlord_won else (landlord, farmer)
        scores[payer] -= stake
        scores[payee] += stake
    return scores


# Stake stages (Happy Dou Dizhu), from VARIANTS.md §2 --------------------------------------

def show_multiple(mode: str, split: int, stage, landlord: bool):
    """What a show at ``stage`` ("before-deal", ("deal", N) or "first-play") is
    worth, None where the rules allow no show there.  Tables, not arithmetic:
    qq: before the deal 5, during it 4 until ``split`` cards are dealt and 3
    after; dianle: 5 before the 7th card, 4 before the 13th, 3 before the 17th;
    the landlord's first play 2."""
    if mode == "off":
        return None
    if stage == "first-play":
        return 2 if landlord else None
    if stage == "before-deal":
        return 5
    _, n = stage
    if mode == "qq":
        table = {k: (4 if k < split else 3) for k in range(1, 18)}
    else:
        table = {**{k: 5 for k in range(1, 7)}, **{k: 4 for k in range(7, 13)}, **{k: 3 for k in range(13, 17)}}
    return table.get(n)


def bottom_multiple(ranks: list, suits: "list | None") -> int:
    """The bottom bonus of three cards (``ranks`` 0..14, ``suits`` of the
    non-jokers or None): every category that applies, the highest wins."""
    found = [1]
    jokers = sum(r >= 13 for r in ranks)
    if jokers == 1:
        found.append(2)
    if sorted(ranks).count(12) == 2:
        found.append(2)
    if jokers == 0 and suits is not None and len(set(suits)) == 1:
        found.append(3)
    if jokers == 0 and len(set(ranks)) == 3 and max(ranks) <= 11 and max(ranks) - min(ranks) == 2:
        found.append(3)
    if jokers == 2 or len(set(ranks)) == 1:
        found.append(4)
    return max(found)


def settlement_doubled(landlord: int, landlord_won: bool, stake: int, doubles, mode: str) -> list:
    """Settlement with the seats' doubles, one transfer per farmer: per-pair
    the farmer's stake is times his and the landlord's factors; global every
    factor multiplies one shared stake; off ignores them."""
    scores = [0, 0, 0]
    for farmer in range(3):
        if farmer == landlord:
            continue
        if mode == "per-pair":
            amount = stake * doubles[landlord] * doubles[farmer]
        elif mode == "global":
            amount = stake * doubles[0] * doubles[1] * doubles[2]
        else:
            amount = stake
        payer, payee = (farmer, landlord) if landlord_won else (landlord, farmer)
        scores[payer] -= amount
        scores[payee] += amount
    return scores
