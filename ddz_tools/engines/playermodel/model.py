"""The kernels of the player model: the features of every legal action, the
log-probability of an action, and the log-likelihood of a whole history.

The model (:mod:`ddz_tools.engines.playermodel` tells it in full)
---------------------------------------------------------------------------
A seat is one of ``K`` player types, the same for the whole game, each with
its prior probability.  Under type ``t`` a play (or pass) is drawn from a
conditional logit over the seat's legal actions, mixed with a uniform floor::

    P_t(a) = (1 - eps_t) * exp(w_t . f(a)) / sum_b exp(w_t . f(b)) + eps_t / n

``f(a)`` are the ``F_*`` features below (small integers), ``n`` the number
of legal actions (the pass among them when the seat answers).  A bid, call,
double or show is an ordered logit in the heuristic's hand-strength score
``s`` (:func:`~ddz_tools.engines.policies.policy_strength`) around the
heuristic's own thresholds ``T``: the chance that the seat wants at least
level ``j`` is ``sigmoid(beta_t * (s - T_j + 1/2) + alpha_t)``, one
``(beta, alpha)`` per decision, with the same floor.  The likelihood of a
seat's actions is ``sum_t prior_t * prod_actions P_t(action)``: the types
a seat's earlier actions fit best weigh most in its next one.

Numbers.  Kernel arguments and results are int64.  ``weights`` is an int64
array ``(K, WEIGHTS_SIZE)``, one row a type: the play weights, the
decisions' ``(beta, alpha)``, ``eps`` and the log of the prior, all in
millionths (:data:`SCALE`); a log-probability is in micro-nats (a
millionth of a natural log unit).  The softmax's ``exp`` and ``log`` run in
floating point inside the kernels.  An action the candidate hand cannot
make scores :data:`IMPOSSIBLE`.

History rows (:func:`history_loglik`).  ``seats``, ``values``, ``kinds``
hold one action a row, in the order made.  A play has ``kinds >= 0``: its
kind (0: a pass) and ``values`` its packed cards; the plays run from the
landlord's lead.  The decisions before the play have a negative kind:
:data:`D_BID` (``values`` the bid, 0 a pass), :data:`D_CALL` (1 a call or a
grab, 0 a pass), :data:`D_DOUBLE` (the factor) and :data:`D_SHOW` (the
landlord's show at his first play: 1 shown, 0 not).
"""

from __future__ import annotations

import numpy as np

from ...core._jit import kernel
from ...core.cards import packed_contains, packed_count
from ...core.gamerules import double_ok, must_call, trick_after
from ...core.kinds import WILD_MASK, laizi_count
from ...core.rules import T_BOMB, T_PAIR, T_ROCKET, T_SOLO
from ...moves.movegen import gen_all
from ..decompose import min_plays_memo
from ..policies import (BID_T1, BID_T2, BID_T3, DOUBLE_FARMER_T2, DOUBLE_LANDLORD_T2, DOUBLE_LANDLORD_T4,
                        POLICY_HEURISTIC, SHOW_T, policy_play, policy_strength)

# The play features ---------------------------------------------------------------------

#: The heuristic policy's own choice here (:func:`~ddz_tools.engines.policies.policy_play`).
F_POLICY = 0
#: A pass.
F_PASS = 1
#: A pass while a partner holds the trick.
F_PASS_PARTNER = 2
#: A pass over an opponent's play while an opponent holds two cards or fewer.
F_PASS_DANGER = 3
#: Plays the hand needs after this one, minus those it needed before, plus
#: one (the decomposer's :func:`~ddz_tools.engines.decompose.min_plays_memo`):
#: 0 for a play of a minimal split, more for one that breaks it (at most 3).
#: Under wild cards it is counted once a kind (type, main face, length,
#: tier), on the kind's card set with the fewest laizi: a tiandi lead has
#: thousands of card sets (which cards the laizi stand for, the kickers) of
#: a few hundred kinds, and the decomposer is what costs.
F_ADDED = 4
#: The main face of the play (0 ``3`` .. 14 big joker; 0 for a pass).
F_MAIN = 5
#: Cards in the play.
F_CARDS = 6
#: 2s and jokers a play other than a bomb or the rocket spends.
F_CONTROLS = 7
#: A bomb or the rocket that does not empty the hand.
F_BOMB = 8
#: The play empties the hand.
F_OUT = 9
#: A lead holding the hand's lowest card, or an answer of the lowest main
#: face among the answers of the play's own type.
F_LOWEST = 10
#: A lead of a solo while an opponent holds one card, or of a pair while one holds two.
F_LEAD_DANGER = 11
#: Features of a play.
NF = 12
FEATURE_NAMES = ("policy", "pass", "pass_partner", "pass_danger", "added", "main", "cards", "controls", "bomb",
                 "out", "lowest", "lead_danger")

# The decisions before the play ------------------------------------------------------------

D_BID = -1
D_CALL = -2
D_DOUBLE = -3
D_SHOW = -4
#: Decision codes by name.
DECISION_CODES = {"bid": D_BID, "call": D_CALL, "double": D_DOUBLE, "show": D_SHOW}

# The weights: one int64 array in millionths -----------------------------------------------

#: Fixed point of the weights, of ``eps`` and of the log-probabilities.
SCALE = 1_000_000
#: Columns of a type's row of the weights: the play weights first, then
#: ``(beta, alpha)`` of decision ``d`` (``D_BID`` .. ``D_SHOW``) at
#: ``W_DECISION - 2 * d - 2``, the floor ``eps``, the log of the prior.
W_DECISION = NF
W_EPS = NF + 8
W_PRIOR = NF + 9
WEIGHTS_SIZE = NF + 10
#: The log-probability of an action the candidate hand cannot make (micro-nats).
IMPOSSIBLE = -(1 << 50)
#: Room for the legal actions of one position (more are allocated when needed).
ACTIONS = 512
#: Slots of the memo table the Python functions give the kernels (log2).
MODEL_TABLE_BITS = 16


@kernel
def _decision_slot(code):
    """Index of ``beta`` of decision ``code`` in the weights (``alpha`` follows)."""
    return W_DECISION - 2 * code - 2


@kernel
def _spent_controls(cards):
    """2s and jokers among ``cards``."""
    return ((cards >> 48) & 15) + ((cards >> 52) & 15) + ((cards >> 56) & 15)


@kernel
def _bomb_kind(kind):
    t = kind & 31
    return t == T_BOMB or t == T_ROCKET


@kernel
def _fewest_opponent_cards(hands, seat, landlord):
    """The fewest cards an opponent of ``seat`` holds (a farmer's one opponent is the landlord)."""
    fewest = 1 << 30
    for s in range(hands.shape[0]):
        if s != seat and (s == landlord or seat == landlord):
            c = packed_count(hands[s])
            if c < fewest:
                fewest = c
    return fewest


@kernel
def _kind_reps(n, acts_c, acts_k, flags, rep):
    """``rep[i]``: under wild cards the action that stands for the kind of
    action ``i`` (its card set with the fewest laizi, first in order; the
    plays added are counted on it); ``i`` itself under natural cards."""
    for i in range(n):
        rep[i] = i
    if (flags & WILD_MASK) == 0:
        return
    order = np.argsort(acts_k[:n], kind="mergesort")
    j = 0
    while j < n:
        k = acts_k[order[j]]
        best = order[j]
        least = laizi_count(acts_c[best], flags)
        e = j + 1
        while e < n and acts_k[order[e]] == k:
            m = laizi_count(acts_c[order[e]], flags)
            if m < least:
                best = order[e]
                least = m
            e += 1
        for x in range(j, e):
            rep[order[x]] = best
        j = e


@kernel
def play_features(hands, seat, landlord, prev_kind, prev_seat, flags, table, bufc, bufk, acts_c, acts_k, feats):
    """The legal actions of ``seat`` and their features: ``(n, cards, kinds,
    features)``.

    ``hands``: every seat's cards now (the landlord's with the bottom);
    ``prev_kind``/``prev_seat``: the play to answer and who made it
    (``prev_kind`` 0: a free lead).  When answering, action 0 is the pass
    (cards and kind 0), then the generator's answers; when leading, the
    generator's leads.  ``features[i]`` holds the :data:`NF` features
    ``F_*`` of action ``i``.  ``acts_c``/``acts_k``/``feats`` (``feats``
    ``(m, NF)``) receive them while they have room, else fresh arrays are
    returned.  ``table``: a decomposer memo table;
    ``bufc``/``bufk``: the policy's move buffers
    (:data:`~ddz_tools.engines.policies.BUFFER`).
    """
    hand = hands[seat]
    pc, pk = policy_play(hands, seat, landlord, prev_kind, prev_seat, POLICY_HEURISTIC, flags, table, bufc, bufk)
    first = 0 if prev_kind == 0 else 1
    n, gc, gk = gen_all(hand, flags, prev_kind, acts_c[first:], acts_k[first:])
    total = n + first
    if total > acts_c.shape[0]:
        acts_c = np.empty(total, np.int64)
        acts_k = np.empty(total, np.int64)
        acts_c[first:] = gc[:n]
        acts_k[first:] = gk[:n]
    if total > feats.shape[0]:
        feats = np.empty((total, NF), np.int64)
    if first:
        acts_c[0] = 0
        acts_k[0] = 0
    rep = np.empty(total, np.int64)
    _kind_reps(total, acts_c, acts_k, flags, rep)
    mp0 = min_plays_memo(hand, flags, table)
    fewest = _fewest_opponent_cards(hands, seat, landlord)
    partner_holds = first == 1 and seat != landlord and prev_seat != landlord
    low = 0
    while (hand >> (4 * low)) & 15 == 0:
        low += 1
    prev_type = prev_kind & 31
    lowest_main = 1 << 10
    for i in range(first, total):
        k = acts_k[i]
        if (k & 31) == prev_type and not _bomb_kind(k) and ((k >> 5) & 15) < lowest_main:
            lowest_main = (k >> 5) & 15
    added = np.zeros(total, np.int64)
    for i in range(total):
        rest = hand - acts_c[rep[i]]
        if rep[i] == i and acts_k[i] != 0 and rest != 0:
            added[i] = min(max(min_plays_memo(rest, flags, table) - mp0 + 1, 0), 3)
    for i in range(total):
        c = acts_c[i]
        k = acts_k[i]
        f = feats[i]
        f[:] = 0
        f[F_POLICY] = 1 if c == pc and k == pk else 0
        if k == 0:
            f[F_PASS] = 1
            f[F_PASS_PARTNER] = 1 if partner_holds else 0
            f[F_PASS_DANGER] = 1 if (not partner_holds and fewest <= 2) else 0
            continue
        t = k & 31
        main = (k >> 5) & 15
        f[F_MAIN] = main
        f[F_CARDS] = packed_count(c)
        if c == hand:
            f[F_OUT] = 1
        else:
            f[F_ADDED] = added[rep[i]]
            if _bomb_kind(k):
                f[F_BOMB] = 1
            else:
                f[F_CONTROLS] = _spent_controls(c)
        if first == 0:
            f[F_LOWEST] = 1 if (c >> (4 * low)) & 15 != 0 else 0
            if (t == T_SOLO and fewest == 1) or (t == T_PAIR and fewest == 2):
                f[F_LEAD_DANGER] = 1
        elif t == prev_type and main == lowest_main and not _bomb_kind(k):
            f[F_LOWEST] = 1
    return total, acts_c, acts_k, feats


@kernel
def _play_logits(n, feats, w, out):
    """``log P`` (float) of each of the ``n`` actions into ``out``, under the
    weights ``w`` of one player type (a row of the weights)."""
    top = -1e300
    for i in range(n):
        z = 0.0
        for j in range(NF):
            z += w[j] * feats[i, j]
        z /= SCALE
        out[i] = z
        if z > top:
            top = z
    total = 0.0
    for i in range(n):
        total += np.exp(out[i] - top)
    eps = w[W_EPS] / SCALE
    for i in range(n):
        out[i] = np.log((1.0 - eps) * np.exp(out[i] - top) / total + eps / n)


@kernel
def _find_action(n, acts_c, acts_k, cards, kind):
    for i in range(n):
        if acts_c[i] == cards and acts_k[i] == kind:
            return i
    return -1


@kernel
def _micro(x):
    """A log-probability (float) in micro-nats, rounded half to even as
    ``np.round`` rounds (the builtin ``round``: NumPy's would tie a cached
    kernel to Numba's NumPy implementations, which then load with it)."""
    return round(x * SCALE)


@kernel
def play_logprobs(hands, seat, landlord, prev_kind, prev_seat, flags, weights, table, bufc, bufk):
    """Every legal action of ``seat`` with its log-probability under each
    player type: ``(n, cards, kinds, logp)``, ``logp`` int64 ``(K, n)`` in
    micro-nats (see :func:`play_features` for the arguments and the
    actions' order)."""
    acts_c = np.empty(ACTIONS, np.int64)
    acts_k = np.empty(ACTIONS, np.int64)
    feats = np.empty((ACTIONS, NF), np.int64)
    n, acts_c, acts_k, feats = play_features(hands, seat, landlord, prev_kind, prev_seat, flags, table, bufc, bufk,
                                             acts_c, acts_k, feats)
    lp = np.empty(n, np.float64)
    out = np.empty((weights.shape[0], n), np.int64)
    for t in range(weights.shape[0]):
        _play_logits(n, feats, weights[t], lp)
        for i in range(n):
            out[t, i] = _micro(lp[i])
    return n, acts_c[:n], acts_k[:n], out


@kernel
def _score_play(n, acts_c, acts_k, feats, cards, kind, weights, lp, out):
    """The log-probability (micro-nats) of the action ``(cards, kind)``
    among the ``n`` of a position under each type into ``out``; returns its
    index, or -1 (``out`` :data:`IMPOSSIBLE`) when it is none of them.
    ``lp``: float work of at least ``n`` entries."""
    i = _find_action(n, acts_c, acts_k, cards, kind)
    for t in range(weights.shape[0]):
        if i < 0:
            out[t] = IMPOSSIBLE
        else:
            _play_logits(n, feats, weights[t], lp)
            out[t] = _micro(lp[i])
    return i


@kernel
def play_logprob(hands, seat, landlord, prev_kind, prev_seat, cards, kind, flags, weights, table, bufc, bufk, out):
    """The log-probability (micro-nats) that ``seat`` makes the play
    ``(cards, kind)`` (``(0, 0)``: the pass) in this position, under each
    player type into ``out`` (int64, one a type): :data:`IMPOSSIBLE` when
    that is no legal action of its hand.  Returns the number of legal
    actions."""
    n, ac, ak, fe = play_features(hands, seat, landlord, prev_kind, prev_seat, flags, table, bufc, bufk,
                                  np.empty(ACTIONS, np.int64), np.empty(ACTIONS, np.int64),
                                  np.empty((ACTIONS, NF), np.int64))
    _score_play(n, ac, ak, fe, cards, kind, weights, np.empty(n, np.float64), out)
    return n


@kernel
def mix_types(parts, weights, out):
    """The likelihood of each seat's actions over the player types: ``out[s]
    = log sum_t prior_t exp(parts[t, s])`` (micro-nats; ``parts`` int64 ``(K,
    seats)`` the log-likelihoods under each type).  Returns ``out``."""
    for s in range(parts.shape[1]):
        top = -1e300
        for t in range(parts.shape[0]):
            z = (parts[t, s] + weights[t, W_PRIOR]) / SCALE
            if z > top:
                top = z
        total = 0.0
        for t in range(parts.shape[0]):
            total += np.exp((parts[t, s] + weights[t, W_PRIOR]) / SCALE - top)
        out[s] = max(_micro(top + np.log(total)), IMPOSSIBLE)
    return out


# Decisions before the play ----------------------------------------------------------------

#: A threshold no strength reaches (the level is never wanted) and one every
#: strength reaches (always wanted).
NEVER = 1 << 20
ALWAYS = -(1 << 20)


@kernel
def _at_least(s, threshold, beta, alpha):
    """The chance the seat wants a level whose threshold is ``threshold``."""
    if threshold == NEVER:
        return 0.0
    if threshold == ALWAYS:
        return 1.0
    z = (beta * (2 * (s - threshold) + 1) / 2 + alpha) / SCALE
    if z >= 0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


@kernel
def decision_options(code, arg, stage_flags, opts):
    """The legal values of decision ``code`` into ``opts``; returns how many.

    ``arg``: the highest bid so far for :data:`D_BID` (the values are the pass
    0 and every bid above it up to 3); the call level for :data:`D_CALL`
    (0, 1: pass or call); 1 for the landlord's double, 0 for a farmer's
    (1, 2, and 4 where ``stage_flags`` allow it); for :data:`D_SHOW` 0 and 1."""
    n = 0
    opts[n] = 1 if code == D_DOUBLE else 0
    n += 1
    if code == D_BID:
        for b in range(arg + 1, 4):
            opts[n] = b
            n += 1
    elif code == D_DOUBLE:
        opts[n] = 2
        n += 1
        if double_ok(stage_flags, 4):
            opts[n] = 4
            n += 1
    else:
        opts[n] = 1
        n += 1
    return n


@kernel
def _bid_threshold(level):
    """The heuristic's threshold for bid ``level`` (1..3; :data:`NEVER` above)."""
    if level == 1:
        return BID_T1
    if level == 2:
        return BID_T2
    return BID_T3 if level == 3 else NEVER


@kernel
def option_interval(code, arg, n, value):
    """``(lo, hi)``: the heuristic makes decision ``code`` (with ``arg`` and
    ``n`` legal values, :func:`decision_options`) by ``value`` exactly when
    its strength ``s`` has ``lo <= s < hi``; the model gives the value
    ``P(level lo) - P(level hi)`` (:data:`ALWAYS`, :data:`NEVER` at the ends)."""
    if code == D_BID:
        if value == 0:
            return ALWAYS, _bid_threshold(arg + 1)
        return _bid_threshold(value), _bid_threshold(value + 1)
    if code == D_DOUBLE:
        two = DOUBLE_LANDLORD_T2 if arg != 0 else DOUBLE_FARMER_T2
        four = DOUBLE_LANDLORD_T4 if arg != 0 and n == 3 else NEVER
        if value == 1:
            return ALWAYS, two
        if value == 2:
            return two, four
        return four, NEVER
    threshold = SHOW_T if code == D_SHOW else _bid_threshold(min(arg, 2) + 1)
    if value == 0:
        return ALWAYS, threshold
    return threshold, NEVER


@kernel
def decision_logprobs(code, hand, arg, flags, stage_flags, weights, table, opts, out):
    """The legal values of decision ``code`` (:func:`decision_options`) into
    ``opts`` and their log-probabilities (micro-nats) under each player type
    into ``out`` (int64 ``(K, 4)``); returns how many.  ``hand``: the seat's
    cards when it decides (as dealt for a bid or a call; after the bottom
    and any draws for a double or a show); ``flags``: the play flags it
    decides under (the wild ranks shown by then)."""
    n = decision_options(code, arg, stage_flags, opts)
    s = policy_strength(hand, flags, table)
    slot = _decision_slot(code)
    for t in range(weights.shape[0]):
        beta = weights[t, slot]
        alpha = weights[t, slot + 1]
        eps = weights[t, W_EPS] / SCALE
        for i in range(n):
            lo, hi = option_interval(code, arg, n, opts[i])
            p = _at_least(s, lo, beta, alpha) - _at_least(s, hi, beta, alpha)
            out[t, i] = _micro(np.log((1.0 - eps) * max(p, 0.0) + eps / n))
    return n


@kernel
def decision_logprob(code, hand, arg, value, flags, stage_flags, weights, table, out):
    """The log-probability (micro-nats) of the value ``value`` of decision
    ``code`` under each player type into ``out`` (see
    :func:`decision_logprobs`; :data:`IMPOSSIBLE` for a value that is not
    legal).  Returns its index among the legal values, or -1."""
    opts = np.empty(4, np.int64)
    lps = np.empty((weights.shape[0], 4), np.int64)
    n = decision_logprobs(code, hand, arg, flags, stage_flags, weights, table, opts, lps)
    for i in range(n):
        if opts[i] == value:
            out[:] = lps[:, i]
            return i
    out[:] = IMPOSSIBLE
    return -1


# A whole history ---------------------------------------------------------------------------------

#: Columns of a play row of :func:`history_rows`: where its actions' features
#: start, how many, the index of the action made, the seat, the history row.
PR_START, PR_N, PR_CHOSEN, PR_SEAT, PR_ROW = range(5)
PLAY_COLS = 5
#: Columns of a decision row of :func:`history_rows`: the code, the seat's
#: strength, ``arg``, the number of legal values, the index of the value
#: made, the seat, the history row, then ``(lo, hi)`` of each value
#: (:func:`option_interval`).
DR_CODE, DR_STRENGTH, DR_ARG, DR_N, DR_CHOSEN, DR_SEAT, DR_ROW, DR_LO = range(8)
DEC_COLS = DR_LO + 8


@kernel
def _add(parts, s, lps):
    """Add one action's log-probabilities (one a type) to seat ``s``."""
    for t in range(parts.shape[0]):
        parts[t, s] = max(parts[t, s] + lps[t], IMPOSSIBLE)


@kernel
def _play_row(row, start, n, chosen, seat, index):
    """Fill a play row of :func:`history_rows` (columns ``PR_*``, in this order)."""
    values = (start, n, chosen, seat, index)
    for j in range(PLAY_COLS):
        row[j] = values[j]


@kernel
def _walk(dealt, start, landlord, bid_flags, flags, stage_flags, seats, values, kinds, mask, weights, table, bufc,
          bufk, parts, record):
    """The log-likelihood of each scored seat's actions under each type into
    ``parts`` (``(K, seats)``); with ``record`` also the scored positions as
    :func:`history_rows` returns them (empty arrays without)."""
    nseats = start.shape[0]
    hands = start.copy()
    parts[:, :] = 0
    acts_c = np.empty(ACTIONS, np.int64)
    acts_k = np.empty(ACTIONS, np.int64)
    feats = np.empty((ACTIONS, NF), np.int64)
    lp = np.empty(ACTIONS, np.float64)
    lps = np.empty(weights.shape[0], np.int64)
    opts = np.empty(4, np.int64)
    dlp = np.empty((weights.shape[0], 4), np.int64)
    rec_f = np.empty((ACTIONS * 8 if record else 0, NF), np.int64)
    rec_p = np.empty((seats.shape[0] if record else 0, PLAY_COLS), np.int64)
    rec_d = np.empty((seats.shape[0] if record else 0, DEC_COLS), np.int64)
    nf = 0
    npl = 0
    nd = 0
    prev_kind = 0
    prev_seat = landlord
    highest = 0
    calls = 0
    for i in range(seats.shape[0]):
        s = seats[i]
        v = values[i]
        k = kinds[i]
        scored = (mask >> s) & 1
        if k >= 0:
            if scored:
                if k != 0 and not packed_contains(hands[s], v):
                    lps[:] = IMPOSSIBLE
                    _add(parts, s, lps)
                else:
                    n, ac, ak, fe = play_features(hands, s, landlord, prev_kind, prev_seat, flags, table, bufc, bufk,
                                                  acts_c, acts_k, feats)
                    if n > acts_c.shape[0]:
                        acts_c, acts_k, feats = ac, ak, fe
                        lp = np.empty(n, np.float64)
                    idx = _score_play(n, ac, ak, fe, v, k, weights, lp, lps)
                    _add(parts, s, lps)
                    if record:
                        if nf + n > rec_f.shape[0]:
                            grown = np.empty((2 * (nf + n), NF), np.int64)
                            grown[:nf] = rec_f[:nf]
                            rec_f = grown
                        rec_f[nf:nf + n] = fe[:n]
                        _play_row(rec_p[npl], nf, n, idx, s, i)
                        nf += n
                        npl += 1
            if k != 0:
                hands[s] -= v
            prev_kind, prev_seat = trick_after(k, s, prev_kind, prev_seat, nseats)
            continue
        arg = 0
        hand = start[s]
        fl = flags
        if k == D_BID or k == D_CALL:
            hand = dealt[s]
            fl = bid_flags
            arg = highest if k == D_BID else calls
            if must_call(stage_flags, hand):
                scored = 0
        elif k == D_DOUBLE:
            arg = 1 if s == landlord else 0
        if scored:
            n = decision_logprobs(k, hand, arg, fl, stage_flags, weights, table, opts, dlp)
            idx = -1
            lps[:] = IMPOSSIBLE
            for j in range(n):
                if opts[j] == v:
                    idx = j
                    lps[:] = dlp[:, j]
            _add(parts, s, lps)
            if record:
                row = rec_d[nd]
                row[DR_CODE] = k
                row[DR_STRENGTH] = policy_strength(hand, fl, table)
                row[DR_ARG] = arg
                row[DR_N] = n
                row[DR_CHOSEN] = idx
                row[DR_SEAT] = s
                row[DR_ROW] = i
                for j in range(4):
                    lo, hi = option_interval(k, arg, n, opts[j]) if j < n else (NEVER, NEVER)
                    row[DR_LO + 2 * j] = lo
                    row[DR_LO + 2 * j + 1] = hi
                nd += 1
        if k == D_BID and v > highest:
            highest = v
        if k == D_CALL and v != 0:
            calls += 1
    return rec_f[:nf], rec_p[:npl], rec_d[:nd]


@kernel
def history_loglik(dealt, start, landlord, bid_flags, flags, stage_flags, seats, values, kinds, mask, weights,
                   table, bufc, bufk, out, parts):
    """The log-likelihood (micro-nats) of each seat's actions in a history:
    under each player type into ``parts`` (int64 ``(K, seats)``), and over
    the types (:func:`mix_types`) into ``out`` (int64, one a seat), which is
    returned.  The seats whose bit is set in ``mask`` are scored, the others
    get 0 (and ``out`` 0 too, the types' priors adding up to one).

    ``dealt``: each seat's cards as dealt (the bids and calls are scored on
    them, under ``bid_flags``: the wild ranks shown before the auction);
    ``start``: each seat's cards when the play begins (the landlord's with
    the bottom and any draws: the doubles, the show and the plays, under
    ``flags``); ``stage_flags``: :attr:`Rules.stage_flags
    <ddz_tools.core.rules.Rules.stage_flags>`.  ``seats``/``values``/``kinds``:
    the history rows (see the module doc).  A seat whose dealt hand forces a
    call (``must_call``) scores 0 for its bids and calls.  A play the hand
    does not hold counts :data:`IMPOSSIBLE` and is then taken from the hand
    as it is.  ``table``: a decomposer memo table (keep one across calls);
    ``bufc``/``bufk``: move buffers of
    :data:`~ddz_tools.engines.policies.BUFFER` entries.
    """
    _walk(dealt, start, landlord, bid_flags, flags, stage_flags, seats, values, kinds, mask, weights, table, bufc,
          bufk, parts, False)
    return mix_types(parts, weights, out)


@kernel
def history_rows(dealt, start, landlord, bid_flags, flags, stage_flags, seats, values, kinds, mask, weights,
                 table, bufc, bufk, parts):
    """The positions :func:`history_loglik` scores, for the fit:
    ``(features, plays, decisions)``, and each type's log-likelihood per
    seat into ``parts``.  ``features`` stacks the :data:`NF` features of
    every legal action of every scored play position; ``plays`` has a row
    per position (columns ``PR_*``: where its actions start in
    ``features``, how many, the index of the action made (-1 for an
    impossible one), the seat, the history row); ``decisions`` a row per
    scored bid, call, double or show (columns ``DR_*``)."""
    return _walk(dealt, start, landlord, bid_flags, flags, stage_flags, seats, values, kinds, mask, weights, table,
                 bufc, bufk, parts, True)
