"""Game rules: the course of one hand, each rule written once.

:mod:`ddz_tools.core.rules` says what a play is and which play beats which.  This
module says how a hand goes: whose turn it is and who leads after a play or a
pass, how the auction goes bid by bid, how large the stake is and how the
seats settle it.  Every tool calls these functions: the Python
:class:`~ddz_tools.engines.game.Game`, the record validator, self-play, the bid
evaluator, the solver and the batch analysis.

The rules in plain English
--------------------------
*Turn and trick.*  Seats move in order (seat ``s`` is followed by ``s + 1``,
wrapping round).  A play must be answered by the next seat, with a higher
play or a pass.  A play stands until the turn comes back to the seat that made
it: with three players after two passes in a row, with four players
after three, with two players (an endgame puzzle) after one pass; that seat
then leads anything.  A seat may
pass only when it has a play to answer.

*Auction* (the ``bidding`` option; seats bid in turn from the first bidder,
round a table of three seats, or of four under four-player rules, which bid
``single-round`` only; the state's ``A_SEATS`` field holds the number):

* ``single-round``: each seat once passes (0) or bids 1-3, higher than every
  earlier bid; a bid of 3 ends the auction at once; the highest bidder is the
  landlord and the winning bid the base stake.
* ``until-two-pass``: the same bids round the table; a seat that passed is
  out; the auction ends at a bid of 3, or when every seat but one passed
  and that one holds a bid.
* ``call-grab``: bids are 1 (call, then grab) and 0 (pass).  The first seat
  to call is landlord-to-be at base 1; each later seat of the round may grab
  once (it becomes landlord-to-be, the base doubles); if anyone grabbed, the
  caller may grab back once.  The base is ``2 ** grabs``.

* ``first-call`` (three players without a bottom): one round of pass (0)
  or call (1); the first call ends the auction, that seat is landlord at
  base 1.

If every seat passes the deal is void (redealt), or, under Botzone's rule,
seat 0 becomes landlord with base 1.  With ``must_call`` a seat whose hand
holds both jokers (``jokers``), or both jokers and the four 2s
(``jokers+2s``), may not pass while nobody has called or bid.

*Stake stages* (Happy Dou Dizhu, ``show`` and ``doubling``).  A seat may show
its hand (make it public) before the deal (x5), during the deal (``show=qq``:
x4 while fewer than ``show_split`` cards are dealt, then x3; ``dianle``: x5,
x4, x3 before the 7th, 13th and 17th card), or, the landlord only, at his
first play (x2); several shows count as the largest (``show_merge=max``) or
multiply (``product``).  After the auction and the bottom each seat doubles
x1, x2 or, with ``super_double=on``, x4.  Under ``bottom_bonus=table`` the
bottom's cards multiply the stake too (:func:`bottom_bonus`).  Under
``landlord_draw=on`` (no bottom) the landlord then draws one card at random
from each farmer (:func:`draw_card`).

*Stake.*  ``stake = base * multiplier`` with ``multiplier = 2 ** (doublings +
spring + anti_spring) * 3 ** triplings``: each bomb and the rocket doubles it
(Laizi rules with ``laizi_multipliers=hlddz``: a soft bomb doubles it, a hard
or pure bomb or the rocket multiplies it by 4; four players by
``bomb_doubles``: ``all`` every bomb and the four jokers x2, ``six-plus``
only bombs of 6 or more cards and the four jokers x2, ``ladder`` bombs of 6
or 7 cards x2 and 8-card bombs and the four jokers x3, the only triplings);
a spring (the landlord wins and no farmer played a card; with
``spring=any-player`` at least one farmer played no card) doubles it; an
anti-spring (the farmers win and the landlord played only his opening lead)
doubles it.

The public multiple also holds the show multiple and the bottom bonus
(both 1 in classic games).

*Settlement* (:func:`settle_seats`, one rule for any number of seats).  Each
farmer settles the stake with the landlord: ``+2s / -s / -s`` when the
landlord wins, the reverse when the farmers win; with four players ``+3s /
-s / -s / -s``.  With doubles, ``doubling=per-pair``: farmer ``f`` settles
``s * d_landlord * d_f``, and the landlord the sum; ``global``: each farmer
settles ``s`` times every seat's factor.  The scores always sum to zero.

Calling convention
------------------
Every rule is a kernel (int64 in, int64 out), called directly by other
kernels.  Python code calls the same function interpreted,
``interpreted(rule)(...)`` (see :func:`ddz_tools.core._jit.interpreted`): a call
from Python into compiled code costs about a microsecond of dispatch, more
than any of these rules does.  The auction keeps its state in an int64 array
(or, from Python, a list) of :data:`AUCTION_SIZE` fields named ``A_*``.
"""

from __future__ import annotations

import numpy as np

from ._jit import interpreted, kernel
from .kinds import (
    F_BOMBS_LADDER,
    F_BOMBS_SIX_PLUS,
    F_STAKE_TIERS,
    T_BOMB,
    T_ROCKET,
    TIER_SHIFT,
    TIER_SOFT,
    WILD_MASK,
    WILD_SHIFT,
)

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

#: Game flags (:attr:`~ddz_tools.core.rules.Rules.game_flags`: the rule flags with
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


#: :func:`stake_doublings` counts triplings (x3) from this bit up, doublings below it.
TRIPLE_SHIFT = 8
DOUBLINGS_MASK = (1 << TRIPLE_SHIFT) - 1


@kernel
def stake_doublings(kind, flags):
    """What a play multiplies the stake by, as ``doublings + (triplings <<
    TRIPLE_SHIFT)``: 0 for a play that is no bomb or rocket; classic rules a
    bomb or the rocket 1 (x2); under ``laizi_multipliers=hlddz`` (the flag
    bit ``F_STAKE_TIERS``) a soft bomb 1 (x2) and a hard or pure bomb or the
    rocket 2 (x4).  Four players (``bomb_doubles``): ``all`` every bomb and
    the four jokers 1 (x2); ``six-plus`` (``F_BOMBS_SIX_PLUS``) bombs of 6 or
    more cards and the four jokers 1 (x2), smaller bombs 0; ``ladder``
    (``F_BOMBS_LADDER``) bombs of 6 or 7 cards 1 (x2), 8-card bombs and the
    four jokers ``1 << TRIPLE_SHIFT`` (x3).  Callers sum the values over the
    plays and hand the sum to :func:`multiplier`; a play counts as a bomb of
    the stake when its value is not 0."""
    t = kind & 31
    if t != T_BOMB and t != T_ROCKET:
        return 0
    if (flags & (F_BOMBS_SIX_PLUS | F_BOMBS_LADDER)) != 0:
        cards = ((kind >> 9) & 15) + 3 if t == T_BOMB else 4
        if t == T_BOMB and cards < 6:
            return 0
        if (flags & F_BOMBS_LADDER) != 0 and (t == T_ROCKET or cards >= 8):
            return 1 << TRIPLE_SHIFT
        return 1
    if (flags & F_STAKE_TIERS) == 0 or (t == T_BOMB and ((kind >> TIER_SHIFT) & 3) == TIER_SOFT):
        return 1
    return 2


@kernel
def spring_silent(landlord_won, landlord_plays, silent_farmers, farmers, any_player):
    """``(spring, anti_spring)`` of a finished hand, each 0 or 1, for any
    number of farmers.

    ``silent_farmers`` is how many of the ``farmers`` made no play (passes do
    not count), ``landlord_plays`` how many plays the landlord made.  Spring:
    the landlord won and no farmer played (``any_player`` 1, for
    ``spring=any-player``: at least one farmer did not play).  Anti-spring:
    the farmers won and the landlord made only his opening lead.
    """
    spring = 0
    anti = 0
    if landlord_won:
        if any_player:
            if silent_farmers > 0:
                spring = 1
        elif silent_farmers == farmers:
            spring = 1
    elif landlord_plays == 1:
        anti = 1
    return spring, anti


@kernel
def spring_doubles(landlord_won, landlord_plays, farmer1_plays, farmer2_plays, any_player):
    """:func:`spring_silent` of a three-player hand from the plays (passes
    excluded) each side made."""
    silent = (1 if farmer1_plays == 0 else 0) + (1 if farmer2_plays == 0 else 0)
    return spring_silent(landlord_won, landlord_plays, silent, 2, any_player)


@kernel
def multiplier(doublings, spring, anti_spring):
    """``2 ** (d + spring + anti_spring) * 3 ** t``, where ``doublings``
    sums :func:`stake_doublings` over the plays, ``d`` its doublings (the
    bits below ``TRIPLE_SHIFT``; classic: the bombs and the rocket) and
    ``t`` its triplings (above them; only four-player
    ``bomb_doubles=ladder`` has any)."""
    m = 1 << ((doublings & DOUBLINGS_MASK) + spring + anti_spring)
    for _ in range(doublings >> TRIPLE_SHIFT):
        m *= 3
    return m


@kernel
def put_outcome(row, at, who, bombs, spring, anti_spring, last):
    """Write a finished hand's outcome to ``row[at:at + 5]`` in the one order
    every result row keeps it: who won (the seat, or 1 when the landlord
    did), the bombs, the spring, the anti-spring, then ``last`` (the
    multiple, or the moves).

    >>> row = [0] * 7
    >>> interpreted(put_outcome)(row, 2, 1, 3, 0, 1, 16); row
    [0, 0, 1, 3, 0, 1, 16]
    """
    row[at] = who
    row[at + 1] = bombs
    row[at + 2] = spring
    row[at + 3] = anti_spring
    row[at + 4] = last


@kernel
def seat_settlement(seat, landlord, landlord_won, stake, nseats, doubling, doubles, d0):
    """The score of ``seat`` when a hand at a table of ``nseats`` is settled.

    Each farmer settles with the landlord, who wins or loses what the
    farmers together lose or win; so the scores sum to zero.  A farmer's
    share is ``stake`` (the base times the public multiple), times the
    doubles where the rules have them: ``doubles[d0 + seat]`` is each seat's
    factor (1, 2 or 4), read only when ``doubling`` is not
    :data:`DOUBLING_OFF`.  :data:`DOUBLING_PER_PAIR`: farmer ``f`` settles
    ``stake * d_landlord * d_f``; :data:`DOUBLING_GLOBAL`: every factor
    multiplies one shared stake that each farmer settles.  Without doubles:
    three players ``+2s / -s / -s`` when the landlord wins, four ``+3s / -s /
    -s / -s``; the reverse when the farmers win.

    >>> interpreted(seat_settlement)(2, 2, 0, 6, 4, DOUBLING_OFF, NO_DOUBLES, 0)
    -18
    >>> interpreted(seat_settlement)(2, 0, 1, 3, 3, DOUBLING_PER_PAIR, [2, 1, 4], 0)
    -24
    """
    sign = 1 if landlord_won else -1
    total = 0
    for f in range(nseats):
        # The landlord's score sums every farmer's share, a farmer's is his own.
        if f == landlord or (seat != landlord and f != seat):
            continue
        if doubling == DOUBLING_OFF:
            share = stake
        elif doubling == DOUBLING_PER_PAIR:
            share = stake * doubles[d0 + landlord] * doubles[d0 + f]
        else:
            share = stake
            for s in range(nseats):
                share *= doubles[d0 + s]
        total += share
    return sign * total if seat == landlord else -sign * total


@kernel
def settle_seats(landlord, landlord_won, stake, nseats, doubling, doubles, d0, out, o0):
    """Write every seat's :func:`seat_settlement` to ``out[o0 + seat]``.

    >>> out = [0, 0, 0, 0]
    >>> interpreted(settle_seats)(2, 0, 6, 4, DOUBLING_OFF, NO_DOUBLES, 0, out, 0); out
    [6, 6, -18, 6]
    """
    for s in range(nseats):
        out[o0 + s] = seat_settlement(s, landlord, landlord_won, stake, nseats, doubling, doubles, d0)


@kernel
def bottom_flush(ids, i0, n):
    """1 when the ``n`` card ids from ``ids[i0]`` (a bottom dealt from one
    deck, ids 0..53 with suit ``id % 4``) are no joker and all of one suit:
    the flush that ``bottom_bonus=table`` pays for; else 0.  Without card ids
    nobody knows the suits: callers give no ids, and no flush.

    >>> interpreted(bottom_flush)([0, 4, 40], 0, 3), interpreted(bottom_flush)([0, 5, 40], 0, 3)
    (1, 0)
    """
    if n == 0:
        return 0
    suit = ids[i0] % 4
    for k in range(i0, i0 + n):
        if ids[k] >= 52 or ids[k] % 4 != suit:
            return 0
    return 1


# Stake stages (Happy Dou Dizhu) and the deal without a bottom -------------------------

#: ``doubling`` option -> code.
DOUBLING_OFF = 0
DOUBLING_PER_PAIR = 1
DOUBLING_GLOBAL = 2
DOUBLING_MODES = {"off": DOUBLING_OFF, "per-pair": DOUBLING_PER_PAIR, "global": DOUBLING_GLOBAL}
#: Every seat's factor 1: the ``doubles`` of a settlement without doubles.
NO_DOUBLES = np.ones(4, np.int64)
#: ``show`` option -> code.
SHOW_OFF = 0
SHOW_QQ = 1
SHOW_DIANLE = 2
SHOW_MODES = {"off": SHOW_OFF, "qq": SHOW_QQ, "dianle": SHOW_DIANLE}
#: ``must_call`` option -> code.
MUST_CALL_MODES = {"off": 0, "jokers": 1, "jokers+2s": 2}

# The stage flags (:attr:`~ddz_tools.core.rules.Rules.stage_flags`): one int64 that
# holds every stake-stage and deal option, for the kernels.
S_SHOW = 0               # bits 0-1: a SHOW_MODES code
S_SPLIT = 2              # bits 2-6: show_split
S_MERGE_PRODUCT = 1 << 7  # show_merge=product (else max)
S_DOUBLING = 8           # bits 8-9: a DOUBLING_MODES code
S_SUPER = 1 << 10        # super_double=on: x4 allowed
S_BONUS = 1 << 11        # bottom_bonus=table
S_MUST = 12              # bits 12-13: a MUST_CALL_MODES code
S_DRAW = 1 << 14         # landlord_draw=on
S_NO_BOTTOM = 1 << 15    # 18 cards a seat, no bottom (notalon)

#: Show stages as the kernels code them: ``SHOW_BEFORE_DEAL`` (0), ``N`` for
#: ``deal:N`` (1..17: N cards dealt so far), ``SHOW_FIRST_PLAY``; ``SHOW_NONE``
#: for a seat that did not show.
SHOW_NONE = -1
SHOW_BEFORE_DEAL = 0
SHOW_FIRST_PLAY = 100


@kernel
def show_factor(stage_flags, stage, is_landlord):
    """The multiple a show at ``stage`` is worth, or 0 when the rules do not
    allow a show there (1 for :data:`SHOW_NONE`).

    ``show=qq``: before the deal x5; during the deal x4 while fewer than
    ``show_split`` cards are dealt, then x3 (up to all 17); at his first play
    the landlord only, x2.  ``show=dianle``: before the deal or before the 7th
    card x5, before the 13th x4, before the 17th x3; the landlord's first play
    x2.  ``show=off``: no show."""
    if stage == SHOW_NONE:
        return 1
    mode = (stage_flags >> S_SHOW) & 3
    if mode == SHOW_OFF:
        return 0
    if stage == SHOW_FIRST_PLAY:
        return 2 if is_landlord else 0
    if stage == SHOW_BEFORE_DEAL:
        return 5
    if mode == SHOW_QQ:
        if stage < 1 or stage > 17:
            return 0
        return 4 if stage < ((stage_flags >> S_SPLIT) & 31) else 3
    if stage < 1 or stage > 16:
        return 0
    if stage <= 6:
        return 5
    return 4 if stage <= 12 else 3


@kernel
def merge_show(stage_flags, current, factor):
    """The show multiple after one more show worth ``factor``: the larger of
    the two (``show_merge=max``) or their product (``product``)."""
    if (stage_flags & S_MERGE_PRODUCT) != 0:
        return current * factor
    return factor if factor > current else current


@kernel
def double_ok(stage_flags, factor):
    """May a seat double by ``factor``: 1 always; 2 unless ``doubling=off``;
    4 only with ``super_double=on``."""
    if factor == 1:
        return True
    if ((stage_flags >> S_DOUBLING) & 3) == DOUBLING_OFF:
        return False
    if factor == 2:
        return True
    return factor == 4 and (stage_flags & S_SUPER) != 0


@kernel
def bottom_bonus(stage_flags, bottom, flush):
    """The bottom's multiple under ``bottom_bonus=table`` (1 when off): both
    jokers or three of a rank x4, a flush (``flush`` 1: the three cards of
    one suit) or a straight (three consecutive ranks in 3..A) x3, one joker
    or a pair of 2s x2; the highest applies.  ``bottom``: the packed bottom."""
    if (stage_flags & S_BONUS) == 0:
        return 1
    jokers = ((bottom >> 52) & 15) + ((bottom >> 56) & 15)
    if jokers == 2:
        return 4
    for r in range(13):
        if ((bottom >> (4 * r)) & 15) == 3:
            return 4
    if flush != 0:
        return 3
    for r in range(10):
        if ((bottom >> (4 * r)) & 15) == 1 and ((bottom >> (4 * r + 4)) & 15) == 1 \
                and ((bottom >> (4 * r + 8)) & 15) == 1:
            return 3
    if jokers == 1 or ((bottom >> 48) & 15) == 2:
        return 2
    return 1


@kernel
def must_call(stage_flags, hand):
    """True when ``hand`` forces its seat to call (``must_call=jokers``: both
    jokers; ``jokers+2s``: both jokers and the four 2s)."""
    mode = (stage_flags >> S_MUST) & 3
    if mode == 0:
        return False
    if ((hand >> 52) & 15) == 0 or ((hand >> 56) & 15) == 0:
        return False
    return mode == 1 or ((hand >> 48) & 15) == 4


@kernel
def draw_card(hand, index):
    """The packed card number ``index`` (0-based, in rank order) of ``hand``:
    the card the landlord draws from a farmer under ``landlord_draw=on``, the
    caller drawing ``index`` uniformly below the hand's card count."""
    for r in range(15):
        c = (hand >> (4 * r)) & 15
        if index < c:
            return 1 << (4 * r)
        index -= c
    return 0


# The auction ---------------------------------------------------------------------------

#: ``spring`` option -> the ``any_player`` argument of :func:`spring_doubles`.
SPRING_MODES = {"landlord": 0, "any-player": 1}
#: ``bidding`` option -> kernel code.
BIDDING_MODES = {"single-round": 0, "until-two-pass": 1, "call-grab": 2, "first-call": 3}
SINGLE_ROUND = 0
UNTIL_TWO_PASS = 1
CALL_GRAB = 2
FIRST_CALL = 3

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
A_MUST = 14        # bit s set when seat s must call (``must_call``; :func:`auction_must_call`)
A_SEATS = 15       # seats at the table (3, or 4 for four-player rules)
AUCTION_SIZE = 16

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
    """Set ``state`` (:data:`AUCTION_SIZE` fields) to a new auction of three
    seats (:func:`auction_seats` changes the number)."""
    for i in range(AUCTION_SIZE):
        state[i] = 0
    state[A_MODE] = mode
    state[A_ALL_PASS] = all_pass_seat0
    state[A_FIRST] = first_bidder
    state[A_TURN] = first_bidder
    state[A_HIGH_SEAT] = -1
    state[A_CALLER] = -1
    state[A_LANDLORD] = -1
    state[A_SEATS] = 3


@kernel
def auction_seats(state, nseats):
    """Seat ``nseats`` bidders (3, or 4 under four-player rules) at a new
    auction (call it right after :func:`auction_start`)."""
    state[A_SEATS] = nseats


@kernel
def bid_error(state, seat, value):
    """:data:`BID_OK` when ``seat`` may bid ``value`` (0 = pass) now, else the
    reason: the auction is over, it is another seat's turn, or the value is
    not allowed (a bid 1-3 above every earlier bid; under call-grab 0 or 1)."""
    if state[A_OUTCOME] != AUCTION_OPEN:
        return BID_OVER
    if seat != state[A_TURN]:
        return BID_WRONG_TURN
    mode = state[A_MODE]
    if value == 0:
        # A seat that must call may not pass while nobody has called or bid.
        if (state[A_MUST] >> seat) & 1 and state[A_HIGH_SEAT] < 0:
            return BID_BAD
        return BID_OK
    if mode == CALL_GRAB or mode == FIRST_CALL:
        return BID_OK if value == 1 else BID_BAD
    return BID_OK if state[A_HIGH] < value <= 3 else BID_BAD


@kernel
def auction_must_call(state, seat):
    """Mark ``seat`` as forced to call (its hand holds what ``must_call``
    names, :func:`must_call`): it may not pass while nobody has called."""
    state[A_MUST] |= 1 << seat


@kernel
def auction_bid(state, seat, value):
    """Apply one legal bid (check it with :func:`bid_error` first); returns
    the outcome, ``AUCTION_OPEN`` while bids are still to come."""
    n = state[A_BIDS] + 1
    state[A_BIDS] = n
    mode = state[A_MODE]
    nseats = state[A_SEATS]
    landlord = -1
    base = 0
    if mode == FIRST_CALL:
        if value != 0:
            state[A_CALLER] = seat
            state[A_HIGH_SEAT] = seat
            state[A_HIGH] = 1
            landlord = seat
            base = 1
        elif n < nseats:
            state[A_TURN] = (seat + 1) % nseats
            return AUCTION_OPEN
    elif mode == CALL_GRAB:
        caller = state[A_CALLER]
        if caller < 0:
            if value == 0:
                if n < nseats:
                    state[A_TURN] = (seat + 1) % nseats
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
            if n < nseats:
                state[A_TURN] = (seat + 1) % nseats     # the rest of the round may grab
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
            over = n == nseats
        else:
            npass = 0
            for s in range(nseats):
                npass += (passed >> s) & 1
            over = npass == nseats or (npass == nseats - 1 and high_seat >= 0)
        if not over:
            nxt = (seat + 1) % nseats
            if mode == UNTIL_TWO_PASS:
                while (passed >> nxt) & 1:
                    nxt = (nxt + 1) % nseats
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
