"""Relaxations (three and four players): some farmers set aside.

When the landlord's first move at a node has failed, the node is searched
once more with some farmers passing at every turn (their hands set aside,
so the others play on against the landlord); the farmers' choices there are
a subset of theirs, so a farmers' win in the relaxed position is one here
and the node is lost for the landlord without searching his other moves.
A farmer set aside must never hold the lead: not the one whose play is to
be answered.  A relaxation gives up after ``relax_budget`` nodes
(``RELAX_BUDGET``, 20,000); its stored positions have a set-aside hand,
which no real position has, so their entries never mix.

A relaxation is named by a *code*: with three players the farmer kept (the
other set aside), farmer1 first, then farmer2, when the landlord leads.
With four (``mode``, ``Solver.relax_mode``): codes 1-3 keep one farmer (the
two others set aside, the second in the frame's ``who2`` and ``cards2``),
codes 4-6 set one farmer aside (farmer code - 3; two play on), tried in the
order of :func:`_candidate`.  :func:`relax_code` lists a node's
relaxations; a frame keeps the place of the one it is in (``rx``).
"""

from ...core._jit import kernel
from .key import bucket_base, hands_key, misc, tt_find
from .layout import C_NODES, C_RX_BUDGET, C_RX_D, C_RX_MODE, C_RX_N0, C_RX_TRIES, C_SP, PH_NEW

#: Relaxation modes at four seats: farmers kept alone (codes 1, 2, 3); pairs of
#: farmers (one set aside: codes 6, 5, 4); alone, then pairs; pairs, then alone.
RX_ALONE = 0
RX_PAIRS = 1
RX_ALONE_PAIRS = 2
RX_PAIRS_ALONE = 3


@kernel
def _candidate(j, mode):
    """The code of the ``j``-th relaxation (0-5) tried at four seats in
    ``mode``, or 0 for none: farmer1, farmer2, farmer3 kept alone (codes 1-3),
    and farmer3, farmer2, farmer1 set aside (codes 6, 5, 4)."""
    if j < 3:
        return j + 1 if mode == RX_ALONE or mode == RX_ALONE_PAIRS else 6 - j
    if mode == RX_ALONE_PAIRS:
        return 3 - j + 6
    if mode == RX_PAIRS_ALONE:
        return j - 2
    return 0


@kernel
def _valid(code, turn, pk, lb):
    """True when relaxation ``code`` (four seats) may be tried at this node:
    no farmer whose play is to be answered set aside; at a farmer's node he
    plays on (kept alone only when no partner made the play)."""
    if code <= 3:
        if turn == 0:
            return pk == 0 or lb == code
        return code == turn and (pk == 0 or lb == 0)
    x = code - 3
    if turn == 0:
        return pk == 0 or lb != x
    return x != turn and (pk == 0 or lb != x)


@kernel
def relax_code(i, turn, pk, lb, nplayers, mode):
    """The code of this node's relaxation number ``i`` (from 0), or -1 when
    there is none.  Three players: at the landlord's node farmer1, then
    farmer2 kept when he leads, the farmer who made the play when he
    answers; at a farmer's node the farmer himself (his partner set aside)
    unless his partner made the play.  Four players: the candidates of
    ``mode`` (see :func:`_candidate`) that :func:`_valid` allows, in order."""
    if nplayers == 3:
        if turn == 0:
            if pk != 0:
                return lb if i == 0 else -1
            return i + 1 if i < 2 else -1
        return turn if i == 0 and (pk == 0 or lb == 0) else -1
    n = 0
    for j in range(6):
        c = _candidate(j, mode)
        if c > 0 and _valid(c, turn, pk, lb):
            if n == i:
                return c
            n += 1
    return -1


@kernel
def relax_aside(code, nplayers):
    """The farmers relaxation ``code`` sets aside: (first, second), the
    second the same as the first when it sets one aside."""
    if nplayers == 3:
        return 3 - code, 3 - code
    if code >= 4:
        return code - 3, code - 3
    a = 1 if code != 1 else 2
    b = 3 if code != 3 else 2
    return a, b


@kernel
def relax_first(hands, turn, pk, lb, nplayers, ctl):
    """The code of the first relaxation of this node (see
    :func:`relax_code`), or -1 for none: only at the landlord's node, outside
    a relaxation, relaxations on, every farmer holding cards."""
    if turn != 0 or not _relax_allowed(hands, nplayers, ctl):
        return -1
    return relax_code(0, turn, pk, lb, nplayers, ctl[C_RX_MODE])


@kernel
def _relax_allowed(hands, nplayers, ctl):
    """True when a relaxation may be tried or looked up here: three or four
    players, relaxations on, not inside one already, every farmer holding
    cards."""
    return (nplayers >= 3 and ctl[C_RX_BUDGET] > 0 and ctl[C_RX_D] < 0 and hands[1] != 0 and hands[2] != 0
            and (nplayers == 3 or hands[3] != 0))


@kernel
def relaxed_known(hands, turn, pk, lb, nplayers, flags, tt, nbuckets, ctl):
    """The node's value (for its side to move) when a relaxation of it (see
    :func:`relax_code`) is already in the table as a farmers' win, else -1:
    at the landlord's node 0 (lost) without searching his first move; at a
    farmer's node 1 (won).  Only outside a relaxation."""
    if not _relax_allowed(hands, nplayers, ctl):
        return -1
    want = 0 if turn == 0 else 1
    mw = misc(turn, lb, pk, flags, nplayers)
    i = 0
    while True:
        code = relax_code(i, turn, pk, lb, nplayers, ctl[C_RX_MODE])
        if code < 0:
            return -1
        a, b = relax_aside(code, nplayers)
        ka = hands[a]
        kb = hands[b]
        hands[a] = 0
        hands[b] = 0
        k0, k1, k2, km = hands_key(hands, nplayers, mw, flags)
        hands[a] = ka
        hands[b] = kb
        if tt_find(tt, bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km) == want:
            return want
        i += 1


@kernel
def relax_push(hands, d, i, nplayers, ctl, fr):
    """Enter relaxation number ``i`` of node ``d`` (see :func:`relax_code`;
    its code must exist): the same position one frame up of the stack ``fr``
    (:class:`layout.Frames`), the hands set aside in ``fr.cards[d]`` and
    ``fr.cards2[d]``, ``i`` in ``fr.rx[d]``."""
    e = d + 1
    if e >= fr.turn.shape[0]:
        return -1
    code = relax_code(i, fr.turn[d], fr.pk[d], fr.lb[d], nplayers, ctl[C_RX_MODE])
    a, b = relax_aside(code, nplayers)
    fr.rx[d] = i
    fr.who[d] = a
    fr.cards[d] = hands[a]
    hands[a] = 0
    fr.who2[d] = b
    fr.cards2[d] = hands[b]
    hands[b] = 0
    fr.turn[e] = fr.turn[d]
    fr.pk[e] = fr.pk[d]
    fr.lb[e] = fr.lb[d]
    fr.key[e, 3] = -1
    fr.start[e] = fr.start[d] + fr.n[d]
    fr.phase[e] = PH_NEW
    ctl[C_SP] = e
    ctl[C_RX_D] = d
    ctl[C_RX_N0] = ctl[C_NODES]
    ctl[C_RX_TRIES] += 1
    return e
