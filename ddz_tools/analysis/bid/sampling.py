"""The rejection-sampling loop of the decision evaluators, written once.

Each evaluator's kernel takes two int64 arrays beside its sample range: the
variant's :attr:`~ddz_tools.variants.Variant.params` (the flags, the table,
the auction, the spring rule) and the decision's situation (:func:`situation`,
the fields ``Q_*``: which decision, the policy, this seat's position and
cards, the bottom when known, the wild ranks known, what the earlier seats
did, which choices are legal).  :func:`draw_sample` deals a sample's cards
until the earlier seats would have acted as they did, by the policies' own
rules (:mod:`.montecarlo` says why this is exact): the accept test is a
switch on the decision (the bids, the calls and grabs, or the doubles).
The seats' actions by the policies (:func:`bid_of`, :func:`call_of`,
:func:`double_of`) are here too, keyed by the sample's random streams.

>>> q = situation(D_BID, 1, me=1, mine=0x11, before=(1,), legal=(1, 0, 1, 1))
>>> int(q[Q_ME]), int(q[Q_NBEFORE]), q[Q_BEFORE:Q_BEFORE + 2].tolist(), q[Q_LEGAL:Q_LEGAL + 4].tolist()
(1, 1, [1, 0], [1, 0, 1, 1])
"""

from __future__ import annotations

import numpy as np

from ...core._jit import kernel
from ...core import gamerules as G
from ...core.gamerules import auction_bid, auction_must_call, auction_seats, auction_start, bid_error, must_call
from ...core.kinds import WILD_MASK
from ...engines.policies import policy_bid, policy_call, policy_double
from ...variants.variant import P_BIDDING, P_FLAGS, P_GAME_FLAGS, P_HAND, P_SEATS, P_STAGE_FLAGS
from .montecarlo import deal, deal_sample, key_of, mix2

__all__ = ["ROW_ATTEMPTS", "ROW_ACCEPTED", "D_BID", "D_CALL", "D_DOUBLE", "Q_DECISION", "Q_POLICY", "Q_ME", "Q_MINE",
           "Q_REST", "Q_BOTTOM", "Q_GIVEN", "Q_NBEFORE", "Q_BEFORE", "Q_LEGAL", "Q_BASE", "Q_FLUSH", "Q_WON_AT",
           "Q_STAGE", "Q_SIZE", "situation", "bid_of", "call_of", "double_of", "open_auction", "sample_work",
           "draw_sample"]

#: The decisions whose earlier actions a sample must agree with (``Q_DECISION``).
D_BID, D_CALL, D_DOUBLE = range(3)

#: The first two columns of every evaluator's result row: the deals drawn for
#: the sample index, and 1 when one agreed with the earlier actions.
ROW_ATTEMPTS, ROW_ACCEPTED = 0, 1

# The fields of a situation (:func:`situation`).
Q_DECISION = 0   # D_BID, D_CALL or D_DOUBLE: which earlier actions the accept test replays
Q_POLICY = 1     # the self-play policy of every seat (kernel code)
Q_ME = 2         # this seat's position (from the first bidder; in the doubles from the landlord)
Q_MINE = 3       # this seat's cards dealt so far (packed)
Q_REST = 4       # cards of this seat's hand still to be dealt (0 when Q_MINE is whole)
Q_BOTTOM = 5     # the bottom when this seat knows it, else 0 (sampled)
Q_GIVEN = 6      # the wild ranks this seat knows (flag bits; the others are drawn a deal)
Q_NBEFORE = 7    # actions before this seat's
Q_BEFORE = 8     # four fields: those actions (bids 0-3, 0 pass / 1 call or grab, or factors)
Q_LEGAL = 12     # four fields: 1 when choice c may be made
Q_BASE = 16      # the doubles: the base the auction set
Q_FLUSH = 17     # the doubles: the known bottom is a flush (its bonus)
Q_WON_AT = 18    # the doubles: >= 0, the landlord's dealt cards bid above this by the policy; -1 no test
Q_STAGE = 19     # the show: its stage code
Q_SIZE = 20


def situation(decision: int, policy: int, me: int = 0, mine: int = 0, rest: int = 0, bottom: int = 0,
              given: int = 0, before=(), legal=(), base: int = 1, flush: int = 0, won_at: int = -1,
              stage: int = 0) -> np.ndarray:
    """A decision's situation as the kernels take it: an int64 array of
    :data:`Q_SIZE` fields ``Q_*``."""
    q = np.zeros(Q_SIZE, np.int64)
    q[Q_DECISION], q[Q_POLICY], q[Q_ME], q[Q_MINE], q[Q_REST] = decision, policy, me, mine, rest
    q[Q_BOTTOM], q[Q_GIVEN], q[Q_NBEFORE] = bottom, given, len(before)
    q[Q_BEFORE:Q_BEFORE + len(before)] = before
    q[Q_LEGAL:Q_LEGAL + len(legal)] = legal
    q[Q_BASE], q[Q_FLUSH], q[Q_WON_AT], q[Q_STAGE] = base, flush, won_at, stage
    return q


# The seats' actions by the policies, one random stream each ---------------------------------


@kernel
def bid_of(hand, policy, flags, highest, key, pos, table):
    """The policy's bid for one seat, with numba's RNG seeded per (sample, seat, highest bid)."""
    np.random.seed(mix2(key, 0x2000 + 4 * pos + highest))
    return policy_bid(hand, policy, flags, highest, table)


@kernel
def call_of(hand, policy, flags, state, key, i, table):
    """The policy's call-grab action at the auction's ``i``-th action, numba's
    RNG seeded per (sample, action); a seat that must call calls."""
    np.random.seed(mix2(key, 0x7000 + i))
    level = 0 if state[G.A_CALLER] < 0 else 1 + state[G.A_GRABS]
    b = policy_call(hand, policy, flags, level, table)
    if b == 0 and bid_error(state, state[G.A_TURN], 0) == G.BID_BAD:
        b = 1
    return b


@kernel
def double_of(hand, policy, flags, stage_flags, is_landlord, key, rel, table):
    """The policy's double for one seat, with numba's RNG seeded per (sample, seat)."""
    np.random.seed(mix2(key, 0x4000 + rel))
    return policy_double(hand, policy, flags, stage_flags, is_landlord, table)


@kernel
def open_auction(st, mode, stage_flags, hands):
    """Start the call-grab (or first-call) auction ``st`` from the first
    bidder, marking the seats whose hands must call (``must_call``)."""
    auction_start(st, mode, 0, 0)
    for p in range(3):
        if must_call(stage_flags, hands[p]):
            auction_must_call(st, p)


# The accept tests ------------------------------------------------------------------------


@kernel
def _bids_agree(q, params, hands, flags, key, st, table):
    """Would the seats before this one have bid as they did (``st`` gets the auction so far)?"""
    auction_start(st, params[P_BIDDING], 0, 0)
    auction_seats(st, params[P_SEATS])
    for p in range(q[Q_ME]):
        b = bid_of(hands[p], q[Q_POLICY], flags, st[G.A_HIGH], key, p, table)
        if b != q[Q_BEFORE + p]:
            return False
        auction_bid(st, p, b)
    return True


@kernel
def _calls_agree(q, params, hands, flags, key, st, table):
    """Would the other seats have called and grabbed as they did (``st`` gets the auction so far)?"""
    open_auction(st, params[P_BIDDING], params[P_STAGE_FLAGS], hands)
    for i in range(q[Q_NBEFORE]):
        p = st[G.A_TURN]
        if p != q[Q_ME] and call_of(hands[p], q[Q_POLICY], flags, st, key, i, table) != q[Q_BEFORE + i]:
            return False
        auction_bid(st, p, q[Q_BEFORE + i])
    return True


@kernel
def _doubles_agree(q, params, hands, key, table):
    """Would the landlord (position 0) have bid on his dealt cards, and the
    seats before this one have doubled as they did?  The landlord's hand gets
    the bottom."""
    policy = q[Q_POLICY]
    flags = params[P_FLAGS]
    if q[Q_WON_AT] >= 0 and policy_bid(hands[0], policy, flags, q[Q_WON_AT], table) == 0:
        return False
    hands[0] += q[Q_BOTTOM]
    for i in range(q[Q_NBEFORE]):
        p = (i + 1) % 3
        if double_of(hands[p], policy, flags, params[P_STAGE_FLAGS], 1 if p == 0 else 0, key, p,
                     table) != q[Q_BEFORE + i]:
            return False
    return True


@kernel
def sample_work(params, unseen):
    """The work arrays of :func:`draw_sample`: ``(hands, scratch, st)``, the
    hands by position, the deal's scratch and an auction state."""
    return (np.empty(params[P_SEATS], np.int64), np.empty(unseen.shape[0] + 1, np.int64),
            np.empty(G.AUCTION_SIZE, np.int64))


@kernel
def draw_sample(q, params, unseen, key0, idx, max_attempts, hands, scratch, st, table, row):
    """Deal sample ``idx`` (``hands`` by position) until the earlier seats
    would have acted as ``q`` says (at most ``max_attempts`` draws), and
    start its result ``row``: zeros but the draws made
    (:data:`ROW_ATTEMPTS`) and 1 when one was accepted
    (:data:`ROW_ACCEPTED`).  Returns ``(accepted, key, bottom, flags,
    every)``, ``key`` the accepted draw's stream, ``flags`` the play flags
    the auction sees (the wild ranks shown before the bidding), ``every`` the
    flag bits of every wild rank.  The doubles deal with the known bottom and
    the play flags, every wild rank known; the bids and the calls draw the
    wild ranks not given (:func:`~.montecarlo.deal_sample`) and leave the
    auction so far in ``st``."""
    decision = q[Q_DECISION]
    me, mine, hand_n = q[Q_ME], q[Q_MINE], params[P_HAND]
    game_flags = params[P_GAME_FLAGS] & ~WILD_MASK
    row[:] = 0
    key = 0
    bottom = 0
    flags = 0
    every = 0
    accepted = False
    attempt = 0
    while attempt < max_attempts and not accepted:
        key = key_of(key0, idx, attempt)
        attempt += 1
        if decision == D_DOUBLE:
            bottom = deal(unseen, key, me, mine, 0, hand_n, q[Q_BOTTOM], hands, scratch)
            flags = params[P_FLAGS]
            accepted = _doubles_agree(q, params, hands, key, table)
            continue
        bottom, flags, every = deal_sample(unseen, key, me, mine, q[Q_REST], hand_n, q[Q_BOTTOM], game_flags,
                                           q[Q_GIVEN], hands, scratch)
        if decision == D_BID:
            accepted = _bids_agree(q, params, hands, flags, key, st, table)
        else:
            accepted = _calls_agree(q, params, hands, flags, key, st, table)
    row[ROW_ATTEMPTS] = attempt
    row[ROW_ACCEPTED] = 1 if accepted else 0
    return accepted, key, bottom, flags, every
