"""Relaxations (three and four players): one farmer left alone, the others set aside.

When the landlord's first move at a node has failed, the node is searched
once more with all farmers but one passing at every turn (their hands set
aside, so the one left plays alone against the landlord); the farmers'
choices there are a subset of theirs, so a farmers' win in the relaxed
position is one here and the node is lost for the landlord without
searching his other moves.  A relaxation is named by the farmer it keeps:
farmer1 first, then farmer2 (then farmer3 at four seats), when the landlord
leads; only the farmer whose play is to be answered when the landlord
answers (a farmer set aside must never hold the lead).  With three players
one farmer is set aside, with four two (the second in the frame's ``who2``
and ``cards2``).  A relaxation gives up after ``relax_budget`` nodes
(``RELAX_BUDGET``, 20,000); its stored positions have a set-aside hand,
which no real position has, so their entries never mix.
"""

from .._jit import kernel
from .key import bucket_base, hands_key, misc, tt_find
from .layout import C_NODES, C_RX_BUDGET, C_RX_D, C_RX_N0, C_RX_TRIES, C_SP, PH_NEW


@kernel
def relax_first(hands, turn, pk, lb, nplayers, ctl):
    """The farmer the first relaxation of this node keeps, or -1 for none.

    A relaxation of a three- or four-player position where the landlord is to
    move: every other farmer passes at every turn from now on (his hand set
    aside: an empty hand has no play, so a pass is all he can do), the one
    kept plays on.  The farmers' plays are then a subset of theirs in the
    real game and the landlord's are the same, so a farmers' win there is a
    farmers' win here.  A farmer set aside must not hold the lead (the play
    to answer is not his): when the landlord answers, the farmer who made
    the play is kept; when he leads, farmer1 first, then the next ones (see
    :func:`relax_next`)."""
    if turn != 0 or not _relax_allowed(hands, nplayers, ctl):
        return -1
    return relax_seat(turn, pk, lb)


@kernel
def relax_seat(turn, pk, lb):
    """The farmer a relaxation of this node keeps first, or -1 for none: at
    the landlord's node farmer1, or the farmer who made the play to answer;
    at a farmer's node the farmer himself (his partners set aside), unless a
    partner made the play to answer (a farmer set aside must never hold the
    lead).  (Three players: farmer1 kept is farmer2 set aside, as it always
    was.)"""
    if turn == 0:
        return lb if pk != 0 else 1
    return -1 if pk != 0 and lb != 0 else turn


@kernel
def _relax_allowed(hands, nplayers, ctl):
    """True when a relaxation may be tried or looked up here: three or four
    players, relaxations on, not inside one already, every farmer holding
    cards."""
    return (nplayers >= 3 and ctl[C_RX_BUDGET] > 0 and ctl[C_RX_D] < 0 and hands[1] != 0 and hands[2] != 0
            and (nplayers == 3 or hands[3] != 0))


@kernel
def relax_next(pk, k, nplayers):
    """The farmer to keep after the relaxation keeping farmer ``k`` failed,
    or -1: the next farmer when the landlord leads."""
    return k + 1 if pk == 0 and k + 1 < nplayers else -1


@kernel
def relax_aside(k, nplayers):
    """The farmers a relaxation keeping farmer ``k`` sets aside: (first,
    second), the second the same as the first with three players."""
    if nplayers == 3:
        return 3 - k, 3 - k
    a = 1 if k != 1 else 2
    b = 3 if k != 3 else 2
    return a, b


@kernel
def relax_kept(a, b, nplayers):
    """The farmer kept by the relaxation that set aside farmers ``a`` and
    ``b`` (see :func:`relax_aside`)."""
    return 3 - a if nplayers == 3 else 6 - a - b


@kernel
def relaxed_known(hands, turn, pk, lb, nplayers, flags, tt, nbuckets, ctl):
    """The node's value (for its side to move) when a relaxation of it (see
    :func:`relax_first`) is already in the table as a farmers' win, else -1:
    at the landlord's node 0 (lost) without searching his first move; at a
    farmer's node 1 (won), his partners set aside.  Only outside a relaxation."""
    if turn == 0:
        k = relax_first(hands, turn, pk, lb, nplayers, ctl)
        want = 0
    else:
        k = relax_seat(turn, pk, lb)
        if k < 0 or not _relax_allowed(hands, nplayers, ctl):
            return -1
        want = 1
    mw = misc(turn, lb, pk, flags, nplayers)
    while k > 0:
        a, b = relax_aside(k, nplayers)
        ka = hands[a]
        kb = hands[b]
        hands[a] = 0
        hands[b] = 0
        k0, k1, k2, km = hands_key(hands, nplayers, mw, flags)
        hands[a] = ka
        hands[b] = kb
        if tt_find(tt, bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km) == want:
            return want
        k = relax_next(pk, k, nplayers) if turn == 0 else -1
    return -1


@kernel
def relax_push(hands, d, k, nplayers, ctl, fr):
    """Enter the relaxation of node ``d`` keeping farmer ``k``: the same
    position one frame up of the stack ``fr`` (:class:`layout.Frames`), the
    hands set aside in ``fr.cards[d]`` and ``fr.cards2[d]``."""
    e = d + 1
    if e >= fr.turn.shape[0]:
        return -1
    a, b = relax_aside(k, nplayers)
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
