"""Playout policies: Numba kernels that pick a play or a bid from a packed state.

Two policies, numbered for the kernels (:data:`POLICIES` maps the names):

``random`` (0)
    Uniform over the legal actions: every lead when leading; every answer
    plus the pass when answering.  Bids uniformly among the legal bids (pass
    and every bid above the highest so far).  Doubles uniformly among the
    legal factors; never shows before the auction; as landlord shows at his
    first play with probability 1/2.

``heuristic`` (1)
    A rule-based player built on the hand decomposer
    (:func:`ddz_tools.engines.decompose.min_plays_memo`, the exact minimum number of
    plays of a hand).  It sees what a real player sees: its own hand, the
    cards not yet played (the other two hands together, never which of them
    holds what) and how many cards each player holds.

    * Leads: goes out at once when the whole hand is one play; otherwise
      plays the lead that leaves the fewest plays, preferring low main ranks
      and long plays, keeping control cards (2s, jokers), bombs and the
      rocket; with two plays left it leads the one nobody can beat first.
      Against an opponent about to go out it avoids the type he can answer
      (no low solos against one card, no low pairs against two).
    * Answers: the cheapest play of its split that beats the play; a 2 or a
      joker only against a high play (Q or more), near its end or when an
      opponent holds five cards or fewer.  It breaks its split only when the
      plays left do not go up, or when an opponent is close to going out (then
      it answers a solo or pair with its highest one); bombs (lowest bomb
      first, the rocket last) only when that wins: the hand left after the
      bomb is at most one play, or an opponent is about to go out.
    * Team play as a farmer: never overtakes a partner who is about to go
      out (two cards or fewer) and otherwise only with a cheap answer that
      keeps its split, low ranks only; feeds a partner who holds one or two
      cards by leading its lowest solo or pair.
    * Bids from a hand-strength score: control points (big joker 4, small
      joker 3, each 2 two, each bomb five) minus the minimum number of plays.
    * Stake stages (Happy Dou Dizhu): doubles, and as landlord shows at his
      first play, from the same score (:func:`policy_double`,
      :func:`policy_show`); never shows before the auction.

Kernel entry points (also named in :mod:`ddz_tools.engines.kernels`):

* ``policy_play(hands, seat, landlord, prev_kind, prev_seat, policy, flags,
  table, bufc, bufk) -> (cards, kind)``: the play of ``seat``; ``(0, 0)`` is a
  pass.  ``prev_kind == 0`` means a free lead.  ``table`` is a decomposer
  memo table (:func:`new_table`), ``bufc``/``bufk`` move buffers of
  :data:`BUFFER` entries.
* ``policy_bid(hand17, policy, flags, highest, table) -> int``: 0 = pass,
  else a bid 1..3 higher than ``highest``.
* ``policy_call(hand, policy, flags, level, table) -> 0|1``: the call-grab
  (and first-call) decision: ``level`` 0 the call, 1 + grabs so far a grab.
* ``policy_double(hand, policy, flags, stage_flags, is_landlord, table) ->
  int`` (not named in :mod:`ddz_tools.engines.kernels`): the factor a seat doubles by (1, 2 or 4; Happy Dou Dizhu's
  ``doubling``), after the auction, the bottom and any draws.
* ``policy_show(hand, policy, flags, stage_flags, stage, is_landlord, table)
  -> int`` (not named in :mod:`ddz_tools.engines.kernels`): 1 when the seat shows its hand at ``stage`` (a show stage code of
  :mod:`ddz_tools.core.gamerules`), else 0.
* ``policy_strength(hand, flags, table) -> int``: the heuristic's
  hand-strength score, which its bids, calls, doubles and shows threshold
  (the player model of :mod:`ddz_tools.engines.playermodel` softens them).
* ``seed_rng(seed)``: seed Numba's generator, which the random policy draws
  from (one generator per thread, shared by every kernel).

Public Python functions: :func:`choose` (a policy's play in a position) and
:func:`bid_rule` (its bid), both calling the kernels above.

Randomness comes from Numba's generator, seeded by the caller
(``np.random.seed`` inside a kernel), so a game is reproducible from its seed.
"""

from __future__ import annotations

import numpy as np

from ..core._jit import kernel
from ..core.cards import packed_count, to_packed
from .decompose import min_plays_memo
from ..core.errors import ArgumentError
from ..core.gamerules import DOUBLING_OFF, S_DOUBLING, SHOW_FIRST_PLAY, double_ok, show_factor
from ..core.kinds import laizi_count
from ..moves.movegen import gen_all, gen_into
from ..core.rules import T_BOMB, T_PAIR, T_ROCKET, T_SOLO, Play, Rules

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
#: The heuristic without the farmers' partnership conventions: each farmer
#: answers his partner's plays as he answers the landlord's and never feeds
#: him (the baseline that measures what the conventions are worth).
POLICY_SOLO = 2
#: Policy name -> number used by the kernels.
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "heuristic-solo": POLICY_SOLO}

#: Move buffer size for one decision (the generator counts plays beyond it,
#: and the kernels fall back to a bigger buffer then).
BUFFER = 4096
#: log2 of the slots of the decomposer memo table a game keeps.
TABLE_BITS = 14

_CONTROL_SHIFT = 48  # ranks 12 (2), 13 (X), 14 (D) start at bit 48


def policy_number(policy) -> int:
    """The kernel number of a policy given by name or number."""
    if isinstance(policy, str):
        p = POLICIES.get(policy.strip().lower())
        if p is None:
            raise ArgumentError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})", param="policy")
        return p
    if isinstance(policy, (int, np.integer)) and not isinstance(policy, bool) and int(policy) in POLICIES.values():
        return int(policy)
    raise ArgumentError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})", param="policy")


def new_table(bits: int = TABLE_BITS) -> np.ndarray:
    """A fresh decomposer memo table (see :mod:`ddz_tools.engines.decompose`)."""
    return np.zeros(2 + 2 * (1 << bits), np.int64)


# Small helpers ------------------------------------------------------------------


@kernel
def _controls(h):
    """Number of control cards (2s and jokers) in a packed hand."""
    c = h >> _CONTROL_SHIFT
    return (c & 15) + ((c >> 4) & 15) + ((c >> 8) & 15)


@kernel
def _is_bomb(kind):
    t = kind & 31
    return t == T_BOMB or t == T_ROCKET


@kernel
def _can_be_beaten(cards_out, flags, kind, bufc, bufk):
    """Could the cards ``cards_out`` (not in our hand) answer a play of ``kind``?"""
    return gen_into(cards_out, flags, kind, bufc[:1], bufk[:1]) > 0


@kernel
def _beaten_same_type(cards_out, flags, kind, bufc, bufk):
    """Could ``cards_out`` answer ``kind`` without a bomb or the rocket?"""
    n, gc, gk = gen_all(cards_out, flags, kind, bufc, bufk)
    for i in range(n):
        if not _is_bomb(gk[i]):
            return True
    return False


# Random policy --------------------------------------------------------------------


@kernel
def _random_play(hand, flags, prev_kind, bufc, bufk):
    """Uniform over the legal actions (the pass is one of them when answering)."""
    n, gc, gk = gen_all(hand, flags, prev_kind, bufc, bufk)
    if prev_kind == 0:
        i = np.random.randint(0, n)
        return gc[i], gk[i]
    i = np.random.randint(0, n + 1)
    if i == n:
        return 0, 0
    return gc[i], gk[i]


@kernel
def _random_bid(highest):
    """Uniform among pass and the bids highest+1 .. 3."""
    k = np.random.randint(0, 4 - highest)
    if k == 0:
        return 0
    return highest + k


# Heuristic policy -------------------------------------------------------------------


@kernel
def _strength(hand, flags, table):
    """Hand-strength score used by the heuristic bid rule."""
    pts = 4 * ((hand >> 56) & 15) + 3 * ((hand >> 52) & 15) + 2 * ((hand >> 48) & 15)
    for r in range(13):
        c = (hand >> (4 * r)) & 15
        if c >= 4:
            pts += 5 + 2 * (c - 4)   # two decks: a bomb of more cards is worth more
    return pts - min_plays_memo(hand, flags, table)


#: Bid thresholds of the heuristic on :func:`_strength` (bid 1, 2, 3), set from
#: heuristic self-play: as landlord (17 cards plus the bottom), hands of strength
#: -1 won 55% of 4,000 deals x 3 seats of playouts, 1 won 62%, 3 won 67%
#: (-3: 47%, -5: 37%).
BID_T1 = -1
BID_T2 = 1
BID_T3 = 3


@kernel
def policy_strength(hand, flags, table):
    """The heuristic's hand-strength score of ``hand`` (:func:`_strength`), on
    which its bids, calls, doubles and shows are thresholds; ``table`` a
    decomposer memo table."""
    return _strength(hand, flags, table)


@kernel
def _heuristic_bid(hand, flags, highest, table):
    s = _strength(hand, flags, table)
    want = 0
    if s >= BID_T3:
        want = 3
    elif s >= BID_T2:
        want = 2
    elif s >= BID_T1:
        want = 1
    return want if want > highest else 0


@kernel
def _split_pref(c, kind, child):
    """How much :func:`_best_split` wants the play ``c`` of ``kind`` (leaving
    ``child``) in a split: the more cards the better, control cards and a bomb
    that does not end the hand count against it."""
    pref = 16 * packed_count(c) - 20 * _controls(c)
    if _is_bomb(kind) and child != 0:
        pref -= 100
    return pref


@kernel
def _best_split(hand, flags, table, gc, gk, out_c, out_k):
    """One minimal split of ``hand`` into ``out_c``/``out_k``; returns its size.

    Walks the decomposer's memo: at each step, among the plays holding the
    lowest rank left whose remainder needs one play fewer, it takes the one
    with the most cards, then the fewest control cards (ties: generation
    order).  ``gc``/``gk`` are scratch move buffers.

    The plays are tried from the most wanted down, and the first whose
    remainder needs one play fewer is taken: the same play as asking the
    decomposer about every one, for a fraction of the calls (a laizi hand has
    hundreds of plays holding its lowest rank).
    """
    h = hand
    v = min_plays_memo(h, flags, table)
    k = 0
    no_pref = -(1 << 40)
    while h != 0:
        n, mc, mk = gen_all(h, flags, 0, gc, gk)
        r4 = 0
        while (h >> r4) & 15 == 0:
            r4 += 4
        best = -1
        above = 1 << 40  # the levels of preference at or above this are tried
        while best < 0:
            level = no_pref
            for i in range(n):
                if (mc[i] >> r4) & 15 != 0:
                    pref = _split_pref(mc[i], mk[i], h - mc[i])
                    if level < pref < above:
                        level = pref
            if level == no_pref:
                break
            for i in range(n):
                c = mc[i]
                if (c >> r4) & 15 != 0 and _split_pref(c, mk[i], h - c) == level:
                    if min_plays_memo(h - c, flags, table) == v - 1:
                        best = i
                        break
            above = level
        if best < 0:
            # Cannot happen with an exact decomposer; never loop: take the first
            # play holding the lowest rank and go on from what it leaves.
            for i in range(n):
                if (mc[i] >> r4) & 15:
                    best = i
                    break
            v = min_plays_memo(h - mc[best], flags, table) + 1
        out_c[k] = mc[best]
        out_k[k] = mk[best]
        k += 1
        h -= mc[best]
        v -= 1
    return k


@kernel
def _single_reading(h, flags, bufc, bufk):
    """The kind of ``h`` as one play (a non-bomb reading first), or 0."""
    n, gc, gk = gen_all(h, flags, 0, bufc, bufk)
    kind = 0
    for i in range(n):
        if gc[i] == h:
            if kind == 0 or _is_bomb(kind):
                kind = gk[i]
    return kind


@kernel
def _lead_score(hand, c, k, opp_min):
    """Lower is better: the heuristic's cost of leading a play of its split."""
    t = k & 31
    main = (k >> 5) & 15
    s = 2 * main - packed_count(c)
    n_rest = packed_count(hand - c)
    if _is_bomb(k):
        s += 250  # bombs and the rocket are kept unless they end the game
    elif n_rest > 0:
        s += 30 * _controls(c)  # keep control cards (2s, jokers) while the hand is long
    # Against an opponent about to go out, avoid what he can answer.
    if opp_min == 1 and t == T_SOLO:
        s += 60 + 2 * (14 - main)
    if opp_min == 2 and t == T_PAIR:
        s += 50 + 2 * (12 - main)
    return s


@kernel
def _table_view(hands, seat, landlord):
    """What ``seat`` sees of the others (any number of seats): the cards it
    does not hold, together; the fewest cards an opponent holds (for a
    farmer, the landlord's); and the fewest cards a partner holds (0 for the
    landlord, who has none; a partner who went out does not count)."""
    others = 0
    opp_min = 1 << 30
    partner_min = 1 << 30
    for s in range(hands.shape[0]):
        if s == seat:
            continue
        others += hands[s]
        c = packed_count(hands[s])
        if seat == landlord or s == landlord:
            if c < opp_min:
                opp_min = c
        elif 0 < c < partner_min:
            partner_min = c
    return others, opp_min, (0 if partner_min == 1 << 30 else partner_min)


@kernel
def _heuristic_lead(hands, seat, landlord, flags, table, bufc, bufk, sc, sk, team):
    hand = hands[seat]
    kind = _single_reading(hand, flags, bufc, bufk)
    if kind != 0:
        return hand, kind  # go out at once
    others, opp_min, pn = _table_view(hands, seat, landlord)
    # Feed a partner who is about to go out (not when the landlord is too).
    if team and seat != landlord and opp_min > 2:
        if pn == 1 or pn == 2:
            want = T_SOLO if pn == 1 else T_PAIR
            n, gc, gk = gen_all(hand, flags, 0, bufc, bufk)
            for r in range(15):
                for i in range(n):
                    if (gk[i] & 31) == want and ((gk[i] >> 5) & 15) == r:
                        return gc[i], gk[i]
    spc = sc[:24]
    spk = sk[:24]
    m = _best_split(hand, flags, table, bufc, bufk, spc, spk)
    best = -1
    best_s = 1 << 40
    for i in range(m):
        c = spc[i]
        k = spk[i]
        s = _lead_score(hand, c, k, opp_min)
        if m == 2:
            # Two plays left: first the one nobody can take, then the last one.
            if not _can_be_beaten(others, flags, k, sc[24:], sk[24:]):
                s -= 500
            elif not _can_be_beaten(others, flags, spk[1 - i], sc[24:], sk[24:]):
                s -= 200
        if s < best_s:
            best_s = s
            best = i
    c = spc[best]
    k = spk[best]
    if opp_min == 1 and (k & 31) == T_SOLO:
        # Only solos worth leading: lead the highest card to stop the last card.
        r = 14
        while (hand >> (4 * r)) & 15 == 0:
            r -= 1
        return 1 << (4 * r), T_SOLO | (r << 5) | (1 << 9)
    return c, k


@kernel
def _answer_price(c, k):
    """What an answer that breaks the split costs besides the plays it adds."""
    return 2 * ((k >> 5) & 15) + 30 * _controls(c)


@kernel
def _heuristic_answer(hands, seat, landlord, prev_kind, prev_seat, flags, table, bufc, bufk, sc, sk, team):
    hand = hands[seat]
    n, gc, gk = gen_all(hand, flags, prev_kind, bufc, bufk)
    if n == 0:
        return 0, 0
    for i in range(n):
        if gc[i] == hand:
            return gc[i], gk[i]
    n_me = packed_count(hand)
    partner_holds = team and seat != landlord and prev_seat != landlord   # a partner made the play to answer
    others, opp_min, _ = _table_view(hands, seat, landlord)
    prev_n = packed_count(hands[prev_seat])
    mp0 = min_plays_memo(hand, flags, table)

    # The cheapest answer that is a play of the best split.
    spc = sc[:24]
    spk = sk[:24]
    m = _best_split(hand, flags, table, bufc[n:], bufk[n:], spc, spk) if n < bufc.shape[0] - 512 else 0
    best = -1
    for i in range(n):
        if _is_bomb(gk[i]):
            continue
        for j in range(m):
            if spc[j] == gc[i] and spk[j] == gk[i]:
                if best < 0 or gk[i] < gk[best]:
                    best = i
                break

    if partner_holds:
        # The partner holds the trick.  Overtake only cheaply, never near his end;
        # a lone 3 or 4 of his says his hand is weak: then take the lead with any
        # answer of the split that spends no 2 or joker.
        if best < 0 or prev_n <= 2 or opp_min <= 2:
            return 0, 0
        weak = (prev_kind & 31) == T_SOLO and ((prev_kind >> 5) & 15) <= 1
        if _controls(gc[best]) == 0 and (weak or ((gk[best] >> 5) & 15) <= 8):
            return gc[best], gk[best]
        return 0, 0

    danger = prev_n <= 2 or opp_min <= 2
    urgent = danger or opp_min <= 5
    pt = prev_kind & 31
    if danger and (pt == T_SOLO or pt == T_PAIR):
        # An opponent is about to go out: answer with the highest solo or pair, so
        # that his last cards cannot follow.
        top = -1
        for i in range(n):
            if not _is_bomb(gk[i]) and (top < 0 or gk[i] > gk[top]):
                top = i
        if top >= 0:
            return gc[top], gk[top]
    if best >= 0:
        # Keeps the split; spends a 2 or a joker only on a high play (Q or more),
        # near the end, or when an opponent is getting close to going out.
        if _controls(gc[best]) == 0 or urgent or n_me - packed_count(gc[best]) <= 4 or ((prev_kind >> 5) & 15) >= 9:
            return gc[best], gk[best]
    # Breaking the split: search every ordinary answer and the bombs.
    # The cost of an answer is 100 * (plays it adds) + its price (its main
    # rank and control cards); the cheapest wins, the first on a tie.  No play
    # takes away more than one play, so an answer costs at least its price - 100:
    # answers are tried from the lowest price up and the decomposer is not asked
    # about those that cannot win (the same answer as asking about every one).
    bomb = -1
    for i in range(n):
        if _is_bomb(gk[i]):
            if bomb < 0 or ((gk[bomb] & 31) == T_ROCKET and (gk[i] & 31) == T_BOMB):
                bomb = i
    brk = -1
    brk_cost = 1 << 40
    # A break costing this much or more is not played: no need to find it.
    enough = 1 << 40 if danger else (100 if urgent else 30)
    below = -1  # prices above this are still to try
    while True:
        price = 1 << 40
        for i in range(n):
            if not _is_bomb(gk[i]) and (urgent or _controls(gc[i]) == 0):
                p = _answer_price(gc[i], gk[i])
                if below < p < price:
                    price = p
        if price == 1 << 40 or price - 100 > brk_cost or price - 100 >= enough:
            break
        for i in range(n):
            c = gc[i]
            k = gk[i]
            if _is_bomb(k) or (not urgent and _controls(c) > 0) or _answer_price(c, k) != price:
                continue
            if price - 100 == brk_cost and i > brk:
                continue
            cost = 100 * (min_plays_memo(hand - c, flags, table) - mp0) + price
            if cost < brk_cost or (cost == brk_cost and i < brk):
                brk_cost = cost
                brk = i
        below = price
    if brk >= 0 and brk_cost < enough:
        return gc[brk], gk[brk]
    if bomb >= 0:
        bomb_mp = min_plays_memo(hand - gc[bomb], flags, table)
        # Bomb when that wins: at most one play left after it, or stop an opponent going out.
        if bomb_mp <= 1 or danger:
            return gc[bomb], gk[bomb]
        if bomb_mp == 2 and not _beaten_same_type(others, flags, prev_kind, sc[24:], sk[24:]):
            return gc[bomb], gk[bomb]
    return 0, 0


# Entry points -------------------------------------------------------------------------


@kernel
def policy_play(hands, seat, landlord, prev_kind, prev_seat, policy, flags, table, bufc, bufk):
    """The play of ``seat`` under ``policy``: ``(cards, kind)``, ``(0, 0)`` = pass.

    ``hands``: int64[3] packed hands; ``prev_kind``/``prev_seat``: the play to
    answer and who made it (``prev_kind == 0``: free lead).  ``table``: a
    decomposer memo table (:func:`new_table`).  ``bufc``/``bufk`` must hold
    more than 64 entries; all but the last 64 are used for the move list.
    """
    hand = hands[seat]
    if policy == POLICY_RANDOM:
        return _random_play(hand, flags, prev_kind, bufc, bufk)
    half = bufc.shape[0] - 64
    mc = bufc[:half]
    mk = bufk[:half]
    sc = bufc[half:]
    sk = bufk[half:]
    team = policy != POLICY_SOLO
    if prev_kind == 0:
        c, k = _heuristic_lead(hands, seat, landlord, flags, table, mc, mk, sc, sk, team)
    else:
        c, k = _heuristic_answer(hands, seat, landlord, prev_kind, prev_seat, flags, table, mc, mk, sc, sk, team)
    if k != 0 and laizi_count(c, flags) != 0:
        c = _spare_laizi(hand, c, k, flags, prev_kind, mc, mk)
    return c, k


@kernel
def _spare_laizi(hand, c, k, flags, prev_kind, bufc, bufk):
    """The cards of the same play ``k`` (type, main face, length, tier) that
    hold the fewest laizi: a laizi is never spent where natural cards of the
    hand make the same play (it stays in hand, free to stand for any face);
    ``c`` itself when no other cards do."""
    n, gc, gk = gen_all(hand, flags, prev_kind, bufc, bufk)
    best = c
    least = laizi_count(c, flags)
    for i in range(n):
        if gk[i] == k and gc[i] != best:
            m = laizi_count(gc[i], flags)
            if m < least:
                best = gc[i]
                least = m
    return best


@kernel
def policy_bid(hand17, policy, flags, highest, table):
    """The policy's bid for a 17-card hand: 0 = pass, else higher than
    ``highest`` (the highest bid so far); ``table`` a decomposer memo table."""
    if highest >= 3:
        return 0
    if policy == POLICY_RANDOM:
        return _random_bid(highest)
    return _heuristic_bid(hand17, flags, highest, table)


@kernel
def _bid_rule(hand17, policy, flags, highest_bid_so_far):
    """The policy's bid for a 17-card hand: 0 = pass, else higher than the highest so far."""
    table = np.zeros(2 + 2 * (1 << 10), np.int64)
    return policy_bid(hand17, policy, flags, highest_bid_so_far, table)


@kernel
def policy_call(hand, policy, flags, level, table):
    """The call-grab decision (1 = call or grab, 0 = pass); also the first-call
    decision (``level`` 0).  ``level`` 0 asks for the call; 1, 2, ... for a
    grab after that many calls and grabs.  The random policy calls or grabs
    with probability 1/2; the heuristic one when its bid rule would bid
    above ``min(level, 2)``."""
    if policy == POLICY_RANDOM:
        return np.random.randint(0, 2)
    return 1 if policy_bid(hand, policy, flags, min(level, 2), table) > 0 else 0


# Stake stages (Happy Dou Dizhu) ----------------------------------------------------------

#: Doubling and show thresholds of the heuristic on :func:`_strength`, derived
#: from the evaluators (``benchmarks/stage_thresholds.py``, docs/selfplay.md):
#: on 1,000 seeded ``happy`` self-play games (seed 1), each farmer's and the
#: landlord's double went to :func:`~ddz_tools.analysis.bid.evaluate_double` and the
#: landlord's first-play show to :func:`~ddz_tools.analysis.bid.evaluate_show` (up to
#: 1,000 samples each), and each threshold is the one whose "act from here"
#: agrees with the most recommendations (ties: the nearest to the earlier
#: value).  The evaluators are risk-neutral: a double or a show multiplies
#: this seat's score on every sample, so they recommend the largest factor
#: (x4, the show) exactly when the seat's side expects to win, and x2 never
#: beats x4; hence one landlord threshold for both:
#:
#: * the landlord doubles from 0 (x4 under ``super_double=on``, else x2):
#:   70.6% agreement with the recommended factor (41.5% for the earlier
#:   x2 from 3 and x4 from 6, which came from win rates by strength);
#: * the landlord shows at his first play from 0: 70.7% (33.8% for the
#:   earlier 16); the evaluator prices the multiple only, and these policies
#:   never read a shown hand, so showing costs them nothing;
#: * a farmer doubles x2 from 5 (89.9%, 89.6% for the earlier 8; the
#:   evaluator says double on 10% of farmer hands, scattered over strengths
#:   -4 to 2, which no threshold separates; only 7 of 2,000 hands scored 5 or
#:   more).  A farmer never doubles x4.
#:
#: The evaluators play the other seats by this policy, so these thresholds are
#: one step of a fixed point; the study run again with them derives the same
#: values (agreements 88.1%, 71.0%, 71.3%).  The earlier thresholds (the
#: landlord x2 from 3 and x4 from 6, the show from 16, a farmer x2 from 8)
#: came from self-play win rates by strength (docs/selfplay.md).
DOUBLE_LANDLORD_T2 = 0
DOUBLE_LANDLORD_T4 = 0
DOUBLE_FARMER_T2 = 5
#: The heuristic landlord shows his hand at his first play from this strength on.
SHOW_T = 0


@kernel
def policy_double(hand, policy, flags, stage_flags, is_landlord, table):
    """The factor a seat doubles by: 1, 2 or (``super_double=on``) 4, always
    one :func:`~ddz_tools.core.gamerules.double_ok` allows (1 under ``doubling=off``).

    ``hand``: the seat's cards when it doubles (the landlord's with the bottom
    and any draws); ``flags``: the play flags (the wild ranks known by then).
    ``is_landlord``: 1 for the landlord, 0 for a farmer.  The random policy
    draws uniformly among the legal factors; the heuristic doubles from its
    hand strength (:func:`_strength`): the landlord x2 from
    :data:`DOUBLE_LANDLORD_T2`, x4 from :data:`DOUBLE_LANDLORD_T4`, a farmer
    x2 from :data:`DOUBLE_FARMER_T2` and never x4.  It does not look at the
    doubles made before it.
    """
    if ((stage_flags >> S_DOUBLING) & 3) == DOUBLING_OFF:
        return 1
    top = 4 if double_ok(stage_flags, 4) else 2
    if policy == POLICY_RANDOM:
        return 1 << np.random.randint(0, 3 if top == 4 else 2)
    s = _strength(hand, flags, table)
    if is_landlord != 0:
        if s >= DOUBLE_LANDLORD_T4 and top == 4:
            return 4
        return 2 if s >= DOUBLE_LANDLORD_T2 else 1
    return 2 if s >= DOUBLE_FARMER_T2 else 1


@kernel
def policy_show(hand, policy, flags, stage_flags, stage, is_landlord, table):
    """1 when the seat shows its hand at ``stage`` (a show stage code of
    :mod:`ddz_tools.core.gamerules`: before the deal, ``N`` cards dealt, or the
    landlord's first play), else 0; never where
    :func:`~ddz_tools.core.gamerules.show_factor` allows no show.

    ``hand``: the cards the seat holds at that stage (the first ``N`` dealt,
    none before the deal; the landlord's whole hand at his first play).
    Neither policy shows before the auction.  At his first play the random
    landlord shows with probability 1/2, the heuristic one from strength
    :data:`SHOW_T` on (the show is x2 on a stake the show evaluator expects
    him to win; his hand becomes public, which costs him nothing against
    these policies: they see the unplayed cards of the other two seats
    together, never who holds what).  ``is_landlord``: 1 or 0.
    """
    if stage != SHOW_FIRST_PLAY or show_factor(stage_flags, stage, is_landlord) == 0:
        return 0
    if policy == POLICY_RANDOM:
        return np.random.randint(0, 2)
    return 1 if _strength(hand, flags, table) >= SHOW_T else 0


# Public API ---------------------------------------------------------------------------------


def choose(hands, seat: int, landlord: int, prev=None, prev_seat: "int | None" = None,
           policy="heuristic", rules=None, seed: "int | None" = None) -> Play:
    """The play a policy makes for ``seat`` (a :class:`Play`; ``Play.pass_()`` to pass).

    ``hands``: the current hands in turn order, one a seat of the rules (three,
    or four under four-player rules; card text, :class:`Hand` or packed ints),
    the landlord's with the bottom; ``prev``: the play to answer (text or
    :class:`Play`), ``None`` for a free lead, made by ``prev_seat``; ``seed``
    seeds the random policy.

    >>> str(choose(["3456789TJQKA", "8", "6KKQQ"], 2, 0, prev="5", prev_seat=1))  # partner about to go out
    ''
    >>> str(choose(["34567D", "56789T", "4AA"], 0, 0))  # unbeatable first, then the chain
    'D'
    """
    rules = Rules.parse(rules)
    packed, prev_kind, prev_seat = position_args(hands, seat, landlord, prev, prev_seat, rules)
    if seed is not None:
        seed_rng(int(seed))
    pol = policy_number(policy)
    c, k = policy_play(packed, seat, landlord, prev_kind, prev_seat, pol, rules.flags, new_table(12),
                       np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    return Play(int(c), int(k))


def position_args(hands, seat: int, landlord: int, prev, prev_seat, rules: Rules) -> tuple:
    """A play position checked and converted for the kernels:
    ``(hands as an int64 array, prev_kind, prev_seat)`` (``prev_seat`` the
    landlord when ``None``), from the arguments as :func:`choose` takes them;
    an :class:`~ddz_tools.core.errors.ArgumentError` names what is wrong."""
    n = rules.seats
    packed = [to_packed(h, decks=rules.decks) for h in hands]
    if len(packed) != n:
        raise ArgumentError(f"give {n} hands (one a seat of rules {rules.describe()}), not {len(packed)}",
                            param="hands")
    for name, v in (("seat", seat), ("landlord", landlord)):
        if not isinstance(v, int) or not 0 <= v < n:
            raise ArgumentError(f"{name} must be 0 to {n - 1}, not {v!r}", param=name)
    if packed[seat] == 0:
        raise ArgumentError(f"seat {seat} holds no cards", param="hands")
    prev_kind = 0
    if prev is not None:
        p = prev if isinstance(prev, Play) else Play.parse(prev, rules)
        if not p.is_pass:
            prev_kind = p.kind
            if prev_seat is None or prev_seat == seat or not 0 <= prev_seat < n:
                raise ArgumentError("prev_seat must name the other seat that made the play to answer", param="prev_seat")
    return np.array(packed, np.int64), prev_kind, (landlord if prev_seat is None else prev_seat)


def bid_rule(hand, highest: int = 0, policy="heuristic", rules=None, seed: "int | None" = None) -> int:
    """A policy's bid for a hand as dealt (17 cards, 18 without a bottom, 25
    under four-player rules): 0 (pass) or a bid above ``highest``.

    >>> bid_rule("3456789TJQKA222XD"), bid_rule("3456789TJQKA222XD", highest=3)
    (3, 0)
    """
    rules = Rules.parse(rules)
    h = to_packed(hand, decks=rules.decks)
    if packed_count(h) != rules.hand_cards:
        raise ArgumentError(f"a hand as dealt holds {rules.hand_cards} cards under rules {rules.describe()}, "
                            f"not {packed_count(h)}", param="hand")
    if not isinstance(highest, int) or not 0 <= highest <= 3:
        raise ArgumentError(f"highest must be 0..3, not {highest!r}", param="highest")
    if seed is not None:
        seed_rng(int(seed))
    return int(_bid_rule(h, policy_number(policy), rules.flags, highest))


def strength(hand, rules=None) -> int:
    """The heuristic's hand-strength score (:func:`_strength`), on which its
    bids, doubles and shows are thresholds: 4 per big joker, 3 per small
    joker, 2 per 2, 5 per bomb (more for a bigger one under two decks),
    minus the fewest plays that empty the hand.  ``hand``: any cards (17 as
    dealt, the landlord's 20), text or packed.

    >>> strength("3456789TJQKA222XD"), strength("33445566778899TTJ")
    (10, -2)
    """
    rules = Rules.parse(rules)
    h = to_packed(hand, decks=rules.decks)
    if h == 0:
        raise ArgumentError("give a hand of at least one card", param="hand")
    return int(_strength(np.int64(h), rules.flags, new_table(12)))


@kernel
def seed_rng(seed):
    """Seed Numba's generator (shared by every kernel of this thread)."""
    np.random.seed(seed)
