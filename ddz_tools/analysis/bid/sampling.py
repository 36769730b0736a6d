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

Inference.  A situation made with a player ``model``
(:mod:`~ddz_tools.engines.playermodel`) reads the earlier actions by the
model instead of by the policy's rule: a drawn deal is kept with the
probability the model gives the earlier seats' actions on its hands (each
seat's likelihood mixed over the player types, the seats' multiplied).  As
that probability is at most 1, the kept deals follow the posterior exactly
(rejection sampling with the likelihood as acceptance chance); the model's
floor keeps every action possible, so a seat that bids unlike the policy
never leaves the evaluator without deals.

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
from ...engines.kernels import decision_logprobs, mix_types
from ...engines.playermodel import DECISION_CODES, IMPOSSIBLE, SCALE
from ...engines.policies import policy_bid, policy_call, policy_double
from ...variants.variant import P_BIDDING, P_FLAGS, P_GAME_FLAGS, P_HAND, P_SEATS, P_STAGE_FLAGS
from .montecarlo import deal, deal_sample, key_of, mix2

__all__ = ["ROW_ATTEMPTS", "ROW_ACCEPTED", "D_BID", "D_CALL", "D_DOUBLE", "Q_DECISION", "Q_POLICY", "Q_ME", "Q_MINE",
           "Q_REST", "Q_BOTTOM", "Q_GIVEN", "Q_NBEFORE", "Q_BEFORE", "Q_LEGAL", "Q_BASE", "Q_FLUSH", "Q_WON_AT",
           "Q_STAGE", "Q_TYPES", "Q_WCOLS", "Q_SIZE", "situation", "model_loglik", "bid_of", "call_of", "double_of",
           "open_auction", "sample_work", "draw_sample"]

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
Q_TYPES = 20     # inference: the player model's types (0: the earlier actions are read by the policy's rule)
Q_WCOLS = 21     # inference: the columns of the model's weights, which follow the fields
Q_SIZE = 22

# The player model's decision codes.
_M_BID, _M_CALL, _M_DOUBLE = DECISION_CODES["bid"], DECISION_CODES["call"], DECISION_CODES["double"]


def situation(decision: int, policy: int, me: int = 0, mine: int = 0, rest: int = 0, bottom: int = 0,
              given: int = 0, before=(), legal=(), base: int = 1, flush: int = 0, won_at: int = -1,
              stage: int = 0, model=None) -> np.ndarray:
    """A decision's situation as the kernels take it: an int64 array of
    :data:`Q_SIZE` fields ``Q_*``, then with a player ``model`` (a
    :class:`~ddz_tools.engines.playermodel.PlayerModel`: the earlier actions
    are read by it, see the module doc) its weights.

    >>> from ddz_tools.engines.playermodel import load_model
    >>> m = load_model()
    >>> q = situation(D_BID, 1, me=2, before=(0, 1), model=m)
    >>> int(q[Q_TYPES]) == m.weights.shape[0], q.shape[0] == Q_SIZE + m.weights.size
    (True, True)
    """
    w = np.zeros((0, 0), np.int64) if model is None else np.ascontiguousarray(model.weights, np.int64)
    q = np.zeros(Q_SIZE + w.size, np.int64)
    q[Q_TYPES], q[Q_WCOLS] = w.shape
    q[Q_SIZE:] = w.ravel()
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
def _model_weights(q):
    """The player model's weights a situation carries (``(types, columns)``, a view of ``q``)."""
    k, cols = q[Q_TYPES], q[Q_WCOLS]
    return q[Q_SIZE:Q_SIZE + k * cols].reshape((k, cols))


@kernel
def _score(parts, seat, code, hand, arg, value, flags, stage_flags, w, table, opts, lps):
    """Add to ``parts[:, seat]`` the model's log-probability (micro-nats, one a
    type) of the value ``value`` of decision ``code``; ``value`` -1 stands
    for any value but the first (a bid or a call rather than the pass)."""
    n = decision_logprobs(code, hand, arg, flags, stage_flags, w, table, opts, lps)
    for t in range(w.shape[0]):
        lp = IMPOSSIBLE
        if value < 0:
            rest = 1.0 - np.exp(lps[t, 0] / SCALE)
            if rest > 0.0:
                lp = int(np.log(rest) * SCALE)
        else:
            for j in range(n):
                if opts[j] == value:
                    lp = lps[t, j]
        parts[t, seat] = max(parts[t, seat] + lp, IMPOSSIBLE)


@kernel
def model_loglik(q, params, hands, flags, st, table):
    """The log-likelihood (micro-nats) the player model gives the earlier
    actions of situation ``q`` on the drawn ``hands``: each seat's mixed over
    the player types (:func:`~ddz_tools.engines.playermodel.model.mix_types`),
    summed over the seats.  The bids and the calls leave the auction so far
    in ``st``, as the policy's accept tests do; the doubles add the bottom
    to the landlord's hand."""
    w = _model_weights(q)
    parts = np.zeros((w.shape[0], params[P_SEATS]), np.int64)
    opts = np.empty(4, np.int64)
    lps = np.empty((w.shape[0], 4), np.int64)
    stage_flags = params[P_STAGE_FLAGS]
    decision = q[Q_DECISION]
    if decision == D_BID:
        auction_start(st, params[P_BIDDING], 0, 0)
        auction_seats(st, params[P_SEATS])
        for p in range(q[Q_ME]):
            _score(parts, p, _M_BID, hands[p], st[G.A_HIGH], q[Q_BEFORE + p], flags, stage_flags, w, table, opts,
                   lps)
            auction_bid(st, p, q[Q_BEFORE + p])
    elif decision == D_CALL:
        open_auction(st, params[P_BIDDING], stage_flags, hands)
        calls = 0
        for i in range(q[Q_NBEFORE]):
            p = st[G.A_TURN]
            v = q[Q_BEFORE + i]
            if p != q[Q_ME] and not must_call(stage_flags, hands[p]):
                _score(parts, p, _M_CALL, hands[p], calls, v, flags, stage_flags, w, table, opts, lps)
            if v != 0:
                calls += 1
            auction_bid(st, p, v)
    else:
        # The landlord won the auction on his dealt cards (bid or called rather than pass) ...
        if q[Q_WON_AT] >= 0:
            by_calls = params[P_BIDDING] == G.CALL_GRAB or params[P_BIDDING] == G.FIRST_CALL
            code = _M_CALL if by_calls else _M_BID
            _score(parts, 0, code, hands[0], q[Q_WON_AT], -1, flags, stage_flags, w, table, opts, lps)
        # ... and the seats before this one doubled as they did, the landlord with the bottom.
        hands[0] += q[Q_BOTTOM]
        for i in range(q[Q_NBEFORE]):
            p = (i + 1) % 3
            _score(parts, p, _M_DOUBLE, hands[p], 1 if p == 0 else 0, q[Q_BEFORE + i], flags, stage_flags, w,
                   table, opts, lps)
    seat_ll = np.empty(params[P_SEATS], np.int64)
    mix_types(parts, w, seat_ll)
    total = 0
    for s in range(seat_ll.shape[0]):
        total += seat_ll[s]
    return total


@kernel
def _model_agrees(q, params, hands, flags, key, st, table):
    """The accept test under inference: keep the drawn deal with the chance
    the player model gives the earlier actions on its hands (see the module
    doc), by a uniform draw of the sample's stream."""
    total = model_loglik(q, params, hands, flags, st, table)
    np.random.seed(mix2(key, 0x9000))
    return np.log(np.random.random()) * SCALE < total


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
        else:
            bottom, flags, every = deal_sample(unseen, key, me, mine, q[Q_REST], hand_n, q[Q_BOTTOM], game_flags,
                                               q[Q_GIVEN], hands, scratch)
        if q[Q_TYPES] > 0:
            accepted = _model_agrees(q, params, hands, flags, key, st, table)
        elif decision == D_DOUBLE:
            accepted = _doubles_agree(q, params, hands, key, table)
        elif decision == D_BID:
            accepted = _bids_agree(q, params, hands, flags, key, st, table)
        else:
            accepted = _calls_agree(q, params, hands, flags, key, st, table)
    row[ROW_ATTEMPTS] = attempt
    row[ROW_ACCEPTED] = 1 if accepted else 0
    return accepted, key, bottom, flags, every
