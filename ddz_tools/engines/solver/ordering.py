"""Move ordering, and the moves dominance leaves out.

Ordering (:func:`score`): fewest plays left after the move first (the exact
minimum from the decomposer, :func:`ddz_tools.engines.decompose.min_plays_memo_in`,
memoised), an answer no opponent can beat counting one and a half plays more
(a lead no opponent can beat gets no bonus); then longer plays, then the
lower main rank.  Bombs and the rocket come after every other play, and a
pass after them, except that a farmer passes first over his partner's play.

Dominance (:func:`drop_dominated`): a play is not searched when the same
play with a lower loose kicker (:func:`dominated`), or the same single, pair
or trio of a lower loose rank, is at least as good whatever follows.  Under
wild ranks only where no hand holds a laizi (the game left is then a classic
one, see :func:`key.laizi_held`): a laizi can make a chain of ranks the
"loose" test reads as chainless, and an opponent's laizi answers at ranks
nobody holds.  Under the four-player rules (two decks) the loose ranks are
read with counts up to 8 and the chains of that game
(:func:`_loose_ranks`, one kernel for one deck or two), a farmer's two partners count as one (the
ranks either holds), and no airplane's wings are swapped where they must
be consecutive.

Laizi.  The ordering asks the decomposer under the classic play options
(:func:`key.plain_flags`): exact for a hand without laizi, a hint for one
with them; a hand with laizi is never taken for one play on its word (the
control-win search, which finds a hand that is one play, decides).
:func:`score` takes the search's work arrays as one record, ``wk``
(:class:`layout.Work`).
"""

from ...core._jit import high_bit, kernel
from ..decompose import min_plays_memo_in
from ...core.kinds import F_SHANGHAI, F_WING_CONSECUTIVE, wild_cards
from ...core.rules import (F_CHAINS_WITH_TWO, T_AIRPLANE_PAIR, T_AIRPLANE_SOLO, T_BOMB, T_FOUR_PAIR, T_FOUR_SOLO,
                     T_FOUR_TWO_PAIR, T_FOUR_TWO_SOLO, T_PAIR, T_ROCKET, T_SOLO, T_TRIO, T_TRIO_PAIR, T_TRIO_SOLO)
from .control import control_win
from .key import at_least, chain_places, laizi_held, plain_flags, run_starts, team
from .layout import PASS_KIND
from .profiles import free


@kernel
def sort_range(a, lo, hi):
    """Sort ``a[lo:hi]`` in place (a shell sort: no allocation, so kernels
    compiled without reference counting can call it)."""
    gap = 1
    while gap * 3 + 1 < hi - lo:
        gap = gap * 3 + 1
    while gap >= 1:
        for i in range(lo + gap, hi):
            x = a[i]
            j = i
            while j - gap >= lo and a[j - gap] > x:
                a[j] = a[j - gap]
                j -= gap
            a[j] = x
        gap //= 3


@kernel
def score(hands, turn, lb, c, k, answering, scanned, flags, nplayers, wk):
    """Ordering score of one move (higher first); -1 when it provably wins,
    -2 when ``dwork`` is too small for the decomposer (grow it and call again).
    ``scanned``: the plays nobody can beat were already looked at for an
    immediate win, or the whole hand shown to have no control split (see
    ``search._expand``), so the check is not made again."""
    memo, dwork, prof, pbuf = wk.memo, wk.dwork, wk.prof, wk.pbuf
    hand = hands[turn]
    if k == PASS_KIND:
        if nplayers >= 3 and team(lb, nplayers) == team(turn, nplayers):
            return 1 << 20
        # Otherwise pass last: beating, even at the cost of the hand's
        # structure, refutes more often (measured: 2.4x fewer nodes).
        return 0
    rest = hand - c
    if rest == 0:
        return -1
    mp = min_plays_memo_in(rest, plain_flags(flags), memo, dwork)
    if mp < 0:
        return -2
    is_free = free(hands, turn, k, flags, nplayers, prof, pbuf)
    if is_free and scanned == 0 and ((mp == 1 and (rest & wild_cards(flags)) == 0)
                                     or control_win(hands, turn, rest, flags, nplayers, wk)):
        return -1
    cnt = 0
    x = c
    while x:
        cnt += x & 15
        x >>= 4
    t = k & 31
    if t == T_BOMB or t == T_ROCKET:
        # Bombs and the rocket last, just before a pass (17% fewer nodes).
        return 1
    # Half-plays: no bonus for an unanswerable lead (spending control early is
    # seldom right; the bonus cost 2.4x more nodes on 17-card deals), and an
    # unanswerable answer counts one and a half plays more (keep the top card
    # when a lower one beats: 10x fewer nodes on the hardest 17-card deal).
    prim = 2 * (40 - mp) + 4
    if is_free and answering != 0:
        prim -= 3
    return (prim << 9) | (cnt << 4) | (15 - ((k >> 5) & 15))


RANKS_3_TO_2 = 0x1111111111111


@kernel
def _in_runs(x, n, flags, top):
    """The rank bits (bit 4r, ranks 3..2) of ``x`` that lie in some run of
    ``n`` places in a row of the chain sequence (:func:`key.chain_places`:
    the ranks of ``top``, and under ``chains=shanghai`` a low A and 2 below
    the 3, the A at either end) all set in ``x``."""
    w = run_starts(chain_places(x, flags, top), n)
    m = w
    for i in range(1, n):
        m |= w << (4 * i)
    if (flags & F_SHANGHAI) == 0:
        return m
    return ((m >> 8) & 0x111111111111) | ((m & 1) << 44) | (((m >> 4) & 1) << 48)


@kernel
def _loose_ranks(hand, flags):
    """(solo, pair, trio): bit 4r set for each rank r (3..2) held exactly
    once, twice, resp. three times, that is in no chain ``hand`` could play:
    no five consecutive chain ranks through it held, for a pair or trio no
    three consecutive ones held twice, for a trio no two consecutive ones
    held three times (an airplane); hands only shrink, so none ever will.
    For one deck or two (counts up to 8, the chains of
    :func:`key.chain_places`; under ``chains_with_two`` a straight through
    the 2 counts too, which only makes fewer ranks loose)."""
    top = RANKS_3_TO_2 if (flags & F_CHAINS_WITH_TWO) != 0 else RANKS_3_TO_2 >> 4
    in5 = _in_runs(at_least(hand, 1), 5, flags, top)
    in3 = _in_runs(at_least(hand, 2), 3, flags, top)
    in2 = _in_runs(at_least(hand, 3), 2, flags, top)
    once = hand & ~(hand >> 1) & ~(hand >> 2) & ~(hand >> 3) & RANKS_3_TO_2
    twice = (hand >> 1) & ~hand & ~(hand >> 2) & ~(hand >> 3) & RANKS_3_TO_2
    thrice = hand & (hand >> 1) & ~(hand >> 2) & ~(hand >> 3) & RANKS_3_TO_2
    return once & ~in5, twice & ~in5 & ~in3, thrice & ~in5 & ~in3 & ~in2


@kernel
def _above_up_to(yb, xb):
    """The rank bits (bit 4r) above the rank of bit ``yb`` up to that of
    ``xb``."""
    return ((xb << 1) - 1) & ~((yb << 1) - 1)


@kernel
def _dominated_by_lows(hand, c, k, solo, pair, mate):
    """:func:`dominated` with the hand's :func:`_loose_ranks` given, for a
    mover whose partner holds the ranks ``mate`` (bit 4r; 0 for none): then
    the lower card must also leave the partner no card of a rank above it up
    to the kicker, so that he has the same answers to every later use of
    either card."""
    t = k & 31
    if t == T_TRIO_SOLO or t == T_AIRPLANE_SOLO or t == T_FOUR_TWO_SOLO or t == T_FOUR_SOLO:
        kick = c & ~(c >> 1) & ~(c >> 2) & hand & ~(hand >> 1) & ~(hand >> 2) & RANKS_3_TO_2
        low = solo
    elif t == T_TRIO_PAIR or t == T_AIRPLANE_PAIR or t == T_FOUR_TWO_PAIR or t == T_FOUR_PAIR:
        kick = (c >> 1) & ~c & ~(c >> 2) & (hand >> 1) & ~hand & ~(hand >> 2) & RANKS_3_TO_2
        low = pair
    else:
        return False
    if kick == 0 or c == hand:
        return False
    low &= ~((c | (c >> 1) | (c >> 2)) & RANKS_3_TO_2)
    if low == 0:
        return False
    if mate == 0:
        # Dominated when some kicker's rank is above the lowest such rank left out.
        return kick > (low & -low)
    # Some kicker x and the nearest such rank y below it with no rank of the
    # partner's above y up to x.
    while kick != 0:
        xb = kick & -kick
        kick ^= xb
        below = low & (xb - 1)
        if below != 0:
            if (mate & _above_up_to(1 << high_bit(below), xb)) == 0:
                return True
    return False


@kernel
def dominated(hand, c, k, flags):
    """True when the play ``c`` (kind ``k``) from ``hand`` is dominated by the
    same play with a lower kicker.

    Say a solo kicker x (not a joker, its rank held once) goes with the body,
    and a lower card y (not a joker, its rank held once, not in the play) is
    in no chain the hand could make.  The same body with y instead of x is
    legal and leaves x instead of y: every later use of y (a single, or a
    kicker) can be made with x, which beats more and leaves the opponents
    fewer answers, so that play is at least as good for the mover whatever
    follows.  The same for a pair kicker (a rank held exactly twice) against
    a lower pair held exactly twice in no chain or pair chain.  Holds for
    either player of a two-player game and for the landlord, and for a
    farmer whose partner a relaxation sets aside (a two-player game); for a
    farmer otherwise only when his partner holds no card of a rank between
    the two (he may have wanted to beat the lower card; see
    :func:`_dominated_by_lows` with the partner's ranks)."""
    solo, pair, _ = _loose_ranks(hand, flags)
    return _dominated_by_lows(hand, c, k, solo, pair, 0)


@kernel
def drop_dominated(hands, turn, flags, nplayers, mc, mk, start, n, pk):
    """Remove the dominated plays (see :func:`dominated` and
    :func:`_dominated_by_lower`) from the ``n`` plays at ``start``, keeping
    the order of the others; returns how many are left.  ``pk``: the play to
    answer (0 for a lead).  For every seat; for a farmer whose partner
    plays, the partner must also hold no card of a rank between the two
    cards (he then has the same answers to every later use of either)."""
    if laizi_held(hands, flags):
        return n
    hand = hands[turn]
    lows = _loose_ranks(hand, flags)
    solo, pair, trio = lows
    if (solo | pair | trio) == 0:
        return n
    # Ranks of which an opponent could play a single, a pair, a trio.  A
    # farmer's partner must keep every answer he had (a pair or trio may
    # later be split), so for a farmer with a partner every rank the
    # partner holds counts for all three.
    me = team(turn, nplayers)
    opp1 = 0
    opp2 = 0
    opp3 = 0
    mate = 0
    for q in range(nplayers):
        if q != turn:
            h = hands[q]
            any_ = at_least(h, 1)
            two = at_least(h, 2)
            three = at_least(h, 3)
            if team(q, nplayers) != me:
                opp1 |= any_
                opp2 |= two
                opp3 |= three
            else:
                # A partner (two with four seats): every rank he holds counts.
                mate |= any_
                opp1 |= any_
                opp2 |= any_
                opp3 |= any_
    opps = (opp1, opp2, opp3)
    # Pair wings that must be consecutive ranks: an airplane's wing swapped
    # for a lower loose pair may be no play (no kicker dominance there).
    wings = (flags & F_WING_CONSECUTIVE) != 0
    m = 0
    for i in range(n):
        c = mc[start + i]
        k = mk[start + i]
        if (_dominated_by_lows(hand, c, k, solo, pair, mate)
                and not (wings and (k & 31) == T_AIRPLANE_PAIR)):
            continue
        if _dominated_by_lower(hand, c, k, lows, opps, pk):
            continue
        mc[start + m] = c
        mk[start + m] = k
        m += 1
    return m


@kernel
def _dominated_by_lower(hand, c, k, lows, opps, pk):
    """True when the single, pair or trio (kickers allowed) ``c`` of kind
    ``k`` is dominated by the same play with a lower loose rank.

    Say the mover plays a single x (not a joker, its rank held once) where a
    lower single y (its rank held once, in no chain the hand could make:
    ``lows[0]``, the ``solo`` of :func:`_loose_ranks`) would do too (a lead,
    or y also beats the play to answer ``pk``), and no opponent holds a card
    of a rank above y up to x (``opps[0]``: the ranks the opponents hold).
    Then the opponents' answers to y are exactly their answers to x, and
    playing y leaves x instead of y: every later use of y (a single, a
    kicker) can be made with x, which beats more and leaves the opponents
    fewer answers.  So playing y is at least as good whatever follows.  The
    same for a pair x (held exactly twice) against a lower loose pair y
    (``lows[1]``) when no opponent holds two cards of a rank above y up to x
    (``opps[1]``), and for a trio body x (held exactly three times, with the
    same kickers, none of rank y) against a lower loose trio y (``lows[2]``)
    when no opponent holds three cards of a rank in between (``opps[2]``).
    For a farmer whose partner plays, ``opps`` also hold every rank the
    partner holds: the partner's answers to y and x, and to every later use
    of either, are then the same too (see :func:`drop_dominated`)."""
    t = k & 31
    if t == T_SOLO:
        j = 0
        mine = hand & ~(hand >> 1) & ~(hand >> 2)
    elif t == T_PAIR:
        j = 1
        mine = (hand >> 1) & ~hand & ~(hand >> 2)
    elif (t == T_TRIO or t == T_TRIO_SOLO or t == T_TRIO_PAIR) and (k >> 9) == 1:
        j = 2
        mine = hand & (hand >> 1) & ~(hand >> 2)
    else:
        return False
    x = (k >> 5) & 15
    if x >= 13:
        return False
    xb = 1 << (4 * x)
    if (mine & xb) == 0:
        return False
    # Lower loose ranks not among the play's cards (a trio's kickers).
    below = lows[j] & (xb - 1) & ~((c | (c >> 1) | (c >> 2)) & RANKS_3_TO_2)
    if below == 0:
        return False
    # The nearest such y below x: if an opponent can answer between it and
    # x, he can between any lower one and x too.
    yb = 1 << high_bit(below)
    if pk != 0 and yb <= (1 << (4 * ((pk >> 5) & 15))):
        return False
    return (opps[j] & _above_up_to(yb, xb)) == 0
