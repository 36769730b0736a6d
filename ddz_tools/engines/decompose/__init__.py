"""Hand decomposition: the fewest plays a hand splits into (最少手数).

Definitions
-----------
A *split* of a hand is a multiset of legal plays (under a rule set) whose
cards add up to the hand.  ``min_plays(hand)`` is the smallest size of a split:
how many times the holder must lead to play the hand out if nobody ever
answered.  It is exact (proven minimal by an exhaustive memoised search), for
every preset and rule option, because the plays come from the shared move
generator (:func:`ddz_tools.moves.movegen.gen_into`) under the same
:attr:`Rules.flags`.

On top of a minimal split, :func:`decompose` reports what players look at:

* ``uncontrolled``: plays of the split that a *same-type* higher play made
  from the cards outside the hand (the rest of the deck: 54 cards, two decks
  of 108 under the four-player rules) could beat; for a bomb, a higher bomb
  or the rocket outside.  This is what players
  mean by "a play I cannot take back".
* ``uncontrolled_any``: plays that any answer from the outside cards could
  beat, bombs and the rocket included (stricter: with a bomb or the rocket
  outside, every non-bomb play counts).
* ``controls``: the control cards held: 2s, jokers, bombs and the rocket.
* Among all minimal splits the reported one has the fewest ``uncontrolled``
  plays, then the fewest ``uncontrolled_any``; remaining ties go to a fixed
  deterministic order.
* ``plays`` is listed in a lead order (see :func:`lead_order`).

Algorithm
---------
Plays are *rank-bound* (chains, pair chains, airplanes with or without wings:
the body runs over consecutive ranks) or *rank-free* (solo, pair, trio, trio +
kicker, four + kickers, bomb, rocket: they fit any ranks).  So

    value(hand) = min(R(signature(hand)), 1 + value(hand - p) for rank-bound p)

where the signature counts the ranks 3..2 held once, twice, three and four
times plus the jokers, and ``R`` is the fewest rank-free plays, equal for all
hands with that signature.  ``R`` is an exact search on a representative hand,
branching only on the plays holding its lowest rank (every split covers it,
as body or kicker).  Every play comes from the shared generator, filtered by
type.  Both searches are one explicit-stack DFS memoised in an
open-addressing int64 table keyed by the packed hand (its own exact key) or
the tagged signature.  Under the four-player rules the signature's value has
a closed form, and the chain plays are taken by their lowest place, low to
high (:func:`~.twodeck.search_four`).  A hand holding laizi is decomposed
by a dynamic programme over the faces (:mod:`.faces`), and under
``natural_first``, where the order of the plays matters, by a search over
legal sequences (:mod:`.natural`).

What is where, each module importing only those above it (and the layers
below the engines):

* ``memo``: the memo table (layout, keys, the per-thread tables of the
  Python functions);
* ``signature``: rank-count signatures, their representative hands and bounds;
* ``core``: the search core every search shares, and its work array;
* ``twodeck``: the four-player search by chain places;
* ``faces``: the face DP of hands holding laizi;
* ``natural``: the natural-first search;
* ``search``: the kernels for other kernels (:func:`min_plays_memo`,
  :func:`min_plays_memo_in`, :func:`min_plays_fresh`), which pick the search;
* ``splits``: the minimal splits of one hand (the one shown, their count);
* ``api``: :func:`min_plays`, :func:`decompose` and :class:`Decomposition`.

>>> min_plays("789TJ5AA")
3
>>> min_plays("33344455", "douzero"), min_plays("33344455", "standard")
(1, 2)
>>> d = decompose("33344455", "douzero")
>>> [p.notation() for p in d.plays]
['333444-55']
"""

from .api import DEFAULT_SPLIT_LIMIT, MAX_CARDS, STANDARD_FLAGS, Decomposition, decompose, lead_order, min_plays
from .core import SEARCH_WORK
from .memo import DEFAULT_MEMO_BITS, forget_memo, min_plays_prefetch, new_memo_table
from .search import min_plays_fresh, min_plays_memo, min_plays_memo_in

__all__ = ["min_plays", "decompose", "Decomposition", "lead_order", "forget_memo", "DEFAULT_SPLIT_LIMIT",
           "MAX_CARDS", "STANDARD_FLAGS", "min_plays_memo", "min_plays_memo_in", "min_plays_fresh",
           "min_plays_prefetch", "new_memo_table", "SEARCH_WORK", "DEFAULT_MEMO_BITS"]
