"""Relaxations (three players): one farmer set aside.

When the landlord's first move at a node has failed, the node is searched
once more with one farmer passing at every turn (his hand set aside, so the
other farmer plays alone against the landlord); the farmers' choices there
are a subset of theirs, so a farmers' win in the relaxed position is one
here and the node is lost for the landlord without searching his other
moves.  Farmer2 passes first, then farmer1 (never the farmer whose play is
to be answered: he would have to lead).  A relaxation gives up after
``relax_budget`` nodes (``RELAX_BUDGET``, 20,000); its stored positions have
a set-aside hand, which no real position has, so their entries never mix.
"""

from .._jit import kernel
from .key import bucket_base, canon, misc, tt_find
from .layout import C_NODES, C_RX_BUDGET, C_RX_D, C_RX_N0, C_RX_TRIES, C_SP, PH_NEW


@kernel
def relax_first(hands, turn, pk, lb, nplayers, ctl):
    """The farmer to freeze first in a relaxation of this node, or -1 for none.

    A relaxation of a three-player position where the landlord is to move:
    one farmer passes at every turn from now on (his hand set aside: an empty
    hand has no play, so a pass is all he can do), the other plays on.  The
    farmers' plays are then a subset of theirs in the real game and the
    landlord's are the same, so a farmers' win there is a farmers' win here.
    The frozen farmer must not hold the lead (the play to answer is not his):
    when the landlord leads, farmer2 is frozen first, then farmer1."""
    if turn != 0 or not _relax_allowed(hands, nplayers, ctl):
        return -1
    return relax_seat(turn, pk, lb)


@kernel
def relax_seat(turn, pk, lb):
    """The farmer a relaxation of this node sets aside first, or -1 for none:
    at the landlord's node farmer2, or farmer1 when farmer2 made the play to
    answer; at a farmer's node his partner, unless the partner made it (the
    farmer set aside must never hold the lead)."""
    if turn == 0:
        return 1 if pk != 0 and lb == 2 else 2
    fz = 3 - turn
    return -1 if pk != 0 and lb == fz else fz


@kernel
def _relax_allowed(hands, nplayers, ctl):
    """True when a relaxation may be tried or looked up here: three players,
    relaxations on, not inside one already, both farmers holding cards."""
    return nplayers == 3 and ctl[C_RX_BUDGET] > 0 and ctl[C_RX_D] < 0 and hands[1] != 0 and hands[2] != 0


@kernel
def relax_next(pk, fz):
    """The farmer to freeze after farmer ``fz``'s relaxation failed, or -1:
    farmer1 after farmer2 when the landlord leads."""
    return 1 if pk == 0 and fz == 2 else -1


@kernel
def relaxed_known(hands, turn, pk, lb, nplayers, flags, tt, nbuckets, ctl):
    """The node's value (for its side to move) when a relaxation of it (see
    :func:`relax_first`) is already in the table as a farmers' win, else -1:
    at the landlord's node 0 (lost) without searching his first move; at a
    farmer's node 1 (won), his partner set aside.  Only outside a relaxation."""
    if turn == 0:
        fz = relax_first(hands, turn, pk, lb, nplayers, ctl)
        want = 0
    else:
        fz = relax_seat(turn, pk, lb)
        if fz < 0 or not _relax_allowed(hands, nplayers, ctl):
            return -1
        want = 1
    mw = misc(turn, lb, pk, flags, nplayers)
    while fz > 0:
        keep = hands[fz]
        hands[fz] = 0
        k0, k1, k2, km = canon(hands[0], hands[1], hands[2], mw)
        hands[fz] = keep
        if tt_find(tt, bucket_base(k0, k1, k2, km, nbuckets), k0, k1, k2, km) == want:
            return want
        fz = relax_next(pk, fz) if turn == 0 else -1
    return -1


@kernel
def relax_push(hands, d, fz, ctl, fr):
    """Enter the relaxation of node ``d`` with farmer ``fz`` frozen: the same
    position one frame up of the stack ``fr`` (:class:`layout.Frames`), his
    hand set aside in ``fr.cards[d]``."""
    e = d + 1
    if e >= fr.turn.shape[0]:
        return -1
    fr.who[d] = fz
    fr.cards[d] = hands[fz]
    hands[fz] = 0
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
