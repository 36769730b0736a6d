"""Game rules: the course of one hand, each rule written once.

:mod:`ddz_tools.rules` says what a play is and which play beats which.  This
module says how a hand goes: whose turn it is and who leads after a play or a
pass, how the auction goes bid by bid, how large the stake is and how the
seats settle it.  Every tool calls these functions: the Python
:class:`~ddz_tools.game.Game`, the record validator, self-play, the bid
evaluator, the solver and the batch analysis.

The rules in plain English
--------------------------
*Turn and trick.*  Seats move in order (seat ``s`` is followed by ``s + 1``,
wrapping round).  A play must be answered by the next seat, with a higher
play or a pass.  A play stands until the turn comes back to the seat that made
it: with three players after two passes in a row, with two players (an
endgame puzzle) after one pass; that seat then leads anything.  A seat may
pass only when it has a play to answer.

*Auction* (the ``bidding`` option; seats bid in turn from the first bidder):

* ``single-round``: each seat once passes (0) or bids 1-3, higher than every
  earlier bid; a bid of 3 ends the auction at once; the highest bidder is the
  landlord and the winning bid the base stake.
* ``until-two-pass``: the same bids round the table; a seat that passed is
  out; the auction ends at a bid of 3, or when two seats passed and the third
  holds a bid.
* ``call-grab``: bids are 1 (call, then grab) and 0 (pass).  The first seat
  to call is landlord-to-be at base 1; each later seat of the round may grab
  once (it becomes landlord-to-be, the base doubles); if anyone grabbed, the
  caller may grab back once.  The base is ``2 ** grabs``.

If every seat passes the deal is void (redealt), or, under Botzone's rule,
seat 0 becomes landlord with base 1.

*Stake.*  ``stake = base * multiplier`` with ``multiplier = 2 ** (doublings +
spring + anti_spring)``: each bomb and the rocket doubles it (Laizi rules
with ``laizi_multipliers=hlddz``: a soft bomb doubles it, a hard or pure bomb
or the rocket multiplies it by 4); a spring (the
landlord wins and neither farmer played a card; with ``spring=any-player``
at least one farmer played no card) doubles it; an anti-spring (the farmers
win and the landlord played only his opening lead) doubles it.

*Settlement.*  Each farmer settles the stake with the landlord: ``+2s / -s /
-s`` when the landlord wins, the reverse when the farmers win.  The three
scores sum to zero.

Calling convention
------------------
Every rule is a kernel (int64 in, int64 out), called directly by other
kernels.  Python code calls the same function interpreted,
``interpreted(rule)(...)`` (see :func:`ddz_tools._jit.interpreted`): a call
from Python into compiled code costs about a microsecond of dispatch, more
than any of these rules does.  The auction keeps its state in an int64 array
(or, from Python, a list) of :data:`AUCTION_SIZE` fields named ``A_*``.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .kinds import F_STAKE_TIERS, T_BOMB, T_ROCKET, TIER_SHIFT, TIER_SOFT, WILD_MASK, WILD_SHIFT

# Turn and trick ------------------------------------------------------------------------


@kernel
def next_seat(seat, nplayers):
    """The seat that moves after ``seat`` (seats go round in order)."""
    return (seat + 1) % nplayers


@kernel
def may_pass(prev_kind):
    """True when the seat to move may pass: it has a play to answer
    (``prev_kind`` is not 0); a seat that leads must play."""
    return prev_kind > 0


@kernel
def trick_after(kind, seat, prev_kind, prev_seat, nplayers):
    """The play to answer after ``seat`` moved: ``(kind, seat that made it)``.

    ``kind`` is the move of ``seat`` (0 or less is a pass); ``prev_kind`` and
    ``prev_seat`` the play it answered.  A play is answered by the next seat.
    After a pass the play stands, unless the turn comes back to the seat that
    made it (two passes with three players, one with two): then that seat
    leads, and the result is ``(0, 0)``.
    """
    if kind > 0:
        return kind, seat
    if (seat + 1) % nplayers == prev_seat:
        return 0, 0
    return prev_kind, prev_seat


# The deal's wild ranks (Laizi rules) ---------------------------------------------------

#: Game flags (:attr:`~ddz_tools.rules.Rules.game_flags`: the rule flags with
#: these bits) say how a deal draws its wild ranks: how many (bits 24-25: 0, 1
#: for ``laizi``, 2 for ``tiandi``) and whether every one is shown before the
#: bidding (``laizi_reveal=before-bidding``).
DRAW_SHIFT = 24
REVEAL_BEFORE = 1 << 26
GAME_MASK = (3 << DRAW_SHIFT) | REVEAL_BEFORE


@kernel
def draw_wild(game_flags):
    """Draw a deal's wild ranks with Numba's generator (none under classic
    rules): ``(shown, all)``, each the flag bits at ``WILD_SHIFT`` of the
    wild ranks shown before the bidding and of every wild rank.  ``laizi``:
    one rank of 3..2, shown when the landlord is known; ``tiandi``: two
    different ranks, 天 shown before the bidding and 地 when the landlord is
    known; ``laizi_reveal=before-bidding`` shows them all before it."""
    n = (game_flags >> DRAW_SHIFT) & 3
    if n == 0:
        return 0, 0
    w1 = np.random.randint(0, 13)
    every = (w1 + 1) << WILD_SHIFT
    shown = 0
    if n == 2:
        w2 = np.random.randint(0, 12)
        if w2 >= w1:
            w2 += 1
        every |= (w2 + 1) << (WILD_SHIFT + 4)
        shown = (w1 + 1) << WILD_SHIFT
    if (game_flags & REVEAL_BEFORE) != 0:
        shown = every
    return shown, every


@kernel
def draw_wild_given(game_flags, given):
    """:func:`draw_wild` where some wild ranks are already known: ``given``
    holds them as flag bits at ``WILD_SHIFT`` (the first, under ``tiandi``
    the 天 rank, and then the second; 0: none known), and only the others
    are drawn, each uniformly among the ranks not yet wild.  ``(shown,
    all)`` as :func:`draw_wild` says them."""
    shown, every = draw_wild(game_flags)
    n = (game_flags >> DRAW_SHIFT) & 3
    if n == 0 or given == 0:
        return shown, every
    d1 = ((every >> WILD_SHIFT) & 15) - 1
    d2 = ((every >> (WILD_SHIFT + 4)) & 15) - 1
    w1 = ((given >> WILD_SHIFT) & 15) - 1
    w2 = ((given >> (WILD_SHIFT + 4)) & 15) - 1
    if w1 < 0:
        w1 = d1
    every = (w1 + 1) << WILD_SHIFT
    if n == 2:
        if w2 < 0:
            # The drawn pair is uniform over ordered pairs of different
            # ranks, so its second rank, or its first where the second is
            # the given rank, is uniform over the ranks other than w1.
            w2 = d2 if d2 != w1 else d1
        every |= (w2 + 1) << (WILD_SHIFT + 4)
        shown = (w1 + 1) << WILD_SHIFT
    else:
        shown = 0
    if (game_flags & REVEAL_BEFORE) != 0:
        shown = every
    return shown, every


@kernel
def play_flags(game_flags, wild_bits):
    """The rule flags a deal is played under: the game flags less their deal
    bits, with the wild ranks ``wild_bits`` (flags bits at ``WILD_SHIFT``)."""
    return (game_flags & ~(GAME_MASK | WILD_MASK)) | wild_bits


# Stake and settlement ------------------------------------------------------------------


@kernel
def stake_doublings(kind, flags):
    """How many times a play doubles the stake: 0, or for a bomb or the rocket
    1; under ``laizi_multipliers=hlddz`` (the flag bit ``F_STAKE_TIERS``) a
    soft bomb 1 (x2) and a hard or pure bomb or the rocket 2 (x4)."""
    t = kind & 31
    if t != T_BOMB and t != T_ROCKET:
        return 0
    if (flags & F_STAKE_TIERS) == 0 or (t == T_BOMB and ((kind >> TIER_SHIFT) & 3) == TIER_SOFT):
        return 1
    return 2


@kernel
def spring_doubles(landlord_won, landlord_plays, farmer1_plays, farmer2_plays, any_player):
    """``(spring, anti_spring)`` of a finished hand, each 0 or 1.

    Counts are the plays (passes excluded) each side made.  Spring: the
    landlord won and neither farmer played (``any_player`` 1, for
    ``spring=any-player``: at least one farmer did not play).  Anti-spring:
    the farmers won and the landlord made only his opening lead.
    """
    spring = 0
    anti = 0
    if landlord_won:
        if any_player:
            if farmer1_plays == 0 or farmer2_plays == 0:
                spring = 1
        elif farmer1_plays == 0 and farmer2_plays == 0:
            spring = 1
    elif landlord_plays == 1:
        anti = 1
    return spring, anti


@kernel
def multiplier(doublings, spring, anti_spring):
    """``2 ** (doublings + spring + anti_spring)``: ``doublings`` sums
    :func:`stake_doublings` over the plays (classic: the bombs and the rocket)."""
    return 1 << (doublings + spring + anti_spring)


@kernel
def settle(landlord, landlord_won, stake):
    """Scores of seats 0, 1, 2: each farmer settles ``stake`` with the landlord
    (``+2s / -s / -s`` when the landlord wins, the reverse otherwise)."""
    s = stake if landlord_won else -stake
    return (2 * s if landlord == 0 else -s), (2 * s if landlord == 1 else -s), (2 * s if landlord == 2 else -s)


# The auction ---------------------------------------------------------------------------

#: ``spring`` option -> the ``any_player`` argument of :func:`spring_doubles`.
SPRING_MODES = {"landlord": 0, "any-player": 1}
#: ``bidding`` option -> kernel code.
BIDDING_MODES = {"single-round": 0, "until-two-pass": 1, "call-grab": 2}
SINGLE_ROUND = 0
UNTIL_TWO_PASS = 1
CALL_GRAB = 2

# Fields of an auction state.
A_MODE = 0         # a BIDDING_MODES code
A_ALL_PASS = 1     # 0: every seat passing voids the deal; 1: seat 0 becomes landlord at base 1
A_FIRST = 2        # the first bidder
A_TURN = 3         # the seat to bid, -1 once the auction is over
A_BIDS = 4         # bids made so far (passes included)
A_HIGH = 5         # highest bid so far (call-grab: 1 once someone called)
A_HIGH_SEAT = 6    # the seat holding it, -1 if none
A_PASSED = 7       # until-two-pass: bit s set when seat s passed
A_CALLER = 8       # call-grab: the seat that called, -1 if none yet
A_GRABS = 9        # call-grab: grabs so far
A_LAST_WORD = 10   # call-grab: 1 once the caller was asked to grab back
A_OUTCOME = 11     # one of the AUCTION_* codes below
A_LANDLORD = 12    # the landlord, -1 until decided
A_BASE = 13        # the base stake, 0 until decided
AUCTION_SIZE = 14

AUCTION_OPEN = 0   # bids still to come
AUCTION_WON = 1    # a landlord and a base are decided
AUCTION_VOID = 2   # every seat passed: the deal is void

# Error codes of :func:`bid_error`.
BID_OK = 0
BID_OVER = 1       # the auction is over
BID_WRONG_TURN = 2
BID_BAD = 3        # a value the bidding option does not allow here


@kernel
def auction_start(state, mode, first_bidder, all_pass_seat0):
    """Set ``state`` (:data:`AUCTION_SIZE` fields) to a new auction."""
    for i in range(AUCTION_SIZE):
        state[i] = 0
    state[A_MODE] = mode
    state[A_ALL_PASS] = all_pass_seat0
    state[A_FIRST] = first_bidder
    state[A_TURN] = first_bidder
    state[A_HIGH_SEAT] = -1
    state[A_CALLER] = -1
    state[A_LANDLORD] = -1


@kernel
def bid_error(state, seat, value):
    """:data:`BID_OK` when ``seat`` may bid ``value`` (0 = pass) now, else the
    reason: the auction is over, it is another seat's turn, or the value is
    not allowed (a bid 1-3 above every earlier bid; under call-grab 0 or 1)."""
    if state[A_OUTCOME] != AUCTION_OPEN:
        return BID_OVER
    if seat != state[A_TURN]:
        return BID_WRONG_TURN
    if value == 0:
        return BID_OK
    if state[A_MODE] == CALL_GRAB:
        return BID_OK if value == 1 else BID_BAD
    return BID_OK if state[A_HIGH] < value <= 3 else BID_BAD


@kernel
def auction_bid(state, seat, value):
    """Apply one legal bid (check it with :func:`bid_error` first); returns
    the outcome, ``AUCTION_OPEN`` while bids are still to come."""
    n = state[A_BIDS] + 1
    state[A_BIDS] = n
    mode = state[A_MODE]
    landlord = -1
    base = 0
    if mode == CALL_GRAB:
        caller = state[A_CALLER]
        if caller < 0:
            if value == 0:
                if n < 3:
                    state[A_TURN] = (seat + 1) % 3
                    return AUCTION_OPEN
            else:
                caller = seat
                state[A_CALLER] = seat
                state[A_HIGH_SEAT] = seat
                state[A_HIGH] = 1
        elif value != 0:
            state[A_GRABS] += 1
            state[A_HIGH_SEAT] = seat
        if caller >= 0:
            if n < 3:
                state[A_TURN] = (seat + 1) % 3      # the rest of the round may grab
                return AUCTION_OPEN
            if state[A_GRABS] > 0 and state[A_LAST_WORD] == 0:
                state[A_TURN] = caller              # the caller may grab back once
                state[A_LAST_WORD] = 1
                return AUCTION_OPEN
            landlord = state[A_HIGH_SEAT]
            base = 1 << state[A_GRABS]
    else:
        high_seat = state[A_HIGH_SEAT]
        passed = state[A_PASSED]
        if value != 0:
            state[A_HIGH] = value
            state[A_HIGH_SEAT] = seat
            high_seat = seat
        else:
            passed |= 1 << seat
            state[A_PASSED] = passed
        if value == 3:
            over = True
        elif mode == SINGLE_ROUND:
            over = n == 3
        else:
            npass = (passed & 1) + ((passed >> 1) & 1) + ((passed >> 2) & 1)
            over = npass == 3 or (npass == 2 and high_seat >= 0)
        if not over:
            nxt = (seat + 1) % 3
            if mode == UNTIL_TWO_PASS:
                while (passed >> nxt) & 1:
                    nxt = (nxt + 1) % 3
            state[A_TURN] = nxt
            return AUCTION_OPEN
        landlord = high_seat
        base = state[A_HIGH]
    # The auction is over.
    state[A_TURN] = -1
    if landlord < 0:
        if state[A_ALL_PASS] == 0:
            state[A_OUTCOME] = AUCTION_VOID
            return AUCTION_VOID
        landlord = 0
        base = 1
    state[A_LANDLORD] = landlord
    state[A_BASE] = base
    state[A_OUTCOME] = AUCTION_WON
    return AUCTION_WON
