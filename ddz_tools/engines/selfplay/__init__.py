"""Self-play: whole games (deal, bidding, play, scoring) inside Numba kernels.

A game
------
1. Deal: the 54 cards are shuffled by Numba's generator, seeded once per game
   (``np.random.seed`` inside the kernel) with a seed derived from the run
   seed and the game's index (:func:`game_seed`), so a game's outcome does not
   depend on batching or on the number of workers.  Seat 0 gets the first 17
   cards of the shuffled deck, seat 1 the next 17, seat 2 the next 17, and the
   last 3 are the bottom; with no bottom (``notalon``) 18 cards each.  The
   card ids 0..53 are shuffled (rank ``id // 4``, 52 and 53 the jokers, suit
   ``id % 4``) with the same swaps that once shuffled ranks, so the hands of
   a seed never changed; the suits matter only to ``bottom_bonus=table``
   (a flush bottom).
2. Shows before the auction (``show`` not ``off``): stage by stage (before the
   deal, after each card dealt) each seat in turn from the first bidder may
   show its hand (:func:`~ddz_tools.engines.policies.policy_show`).  Neither policy
   does; the landlord's show at his first play is the one they use (step 6).
3. Bidding by the auction of :mod:`ddz_tools.core.gamerules`, each seat from its
   policy's own bid rule (:func:`ddz_tools.engines.policies.policy_bid`):
   ``bidding=single-round`` (one
   round, a bid must beat every earlier bid, 3 ends it) or
   ``bidding=until-two-pass`` (round after round, a player who passed is out,
   until two players have passed or someone bids 3) or ``bidding=call-grab``
   (a first call in turn order, then each later seat of the round may grab
   once and, if anyone grabbed, the caller once more; base 2 ** grabs; the
   last to call or grab is landlord; see :func:`~ddz_tools.engines.policies.policy_call`) or
   ``bidding=first-call`` (one round of pass or call, the first call ends it
   at base 1; a seat calls when its bid rule would bid).  Under ``must_call``
   a seat whose hand forces a call calls where its policy would pass.  The
   first bidder is random (``first_bidder=random``) or left of a dealer who
   rotates with the game index (``first_bidder=left-of-dealer``: game ``i``
   has dealer ``i % 3``).  If all pass the cards are dealt again from the
   same generator (the shows of the void deal are void) and the next player
   starts; after :data:`MAX_REDEALS` all-pass deals in a row the last deal is
   played with its first bidder as landlord at base 1 (as Botzone does at
   once).
4. The landlord takes the bottom; under ``landlord_draw=on`` with no bottom
   he draws one card at random from each farmer, first the one on his left
   (:func:`~ddz_tools.core.gamerules.draw_card`).
5. Doubling (``doubling`` not ``off``): the farmers from the landlord's left,
   then the landlord, each x1, x2 or (``super_double=on``) x4
   (:func:`~ddz_tools.engines.policies.policy_double`).
6. Play from the landlord's lead to the first empty hand, each seat by its
   policy (:func:`ddz_tools.engines.policies.policy_play`), turn and trick by
   :func:`ddz_tools.core.gamerules.trick_after`.  Before his first play the
   landlord may show his hand (``show`` not ``off``, if he has not shown).
7. Scoring by :mod:`ddz_tools.core.gamerules` (docs/rules.md): the public multiple
   is the show multiple (the shows merged by ``show_merge``; 1 if none) x
   the bottom bonus x 2 per bomb or rocket x 2 for a spring x 2 for an
   anti-spring; the public stake is the base (the winning bid; ``2 **
   grabs`` under call-grab) x the public multiple, and each farmer settles
   it with the landlord, times the doubles as ``doubling`` says
   (:func:`~ddz_tools.core.gamerules.settle_seats`).  Spring: the landlord wins
   and neither farmer played a card (``spring=any-player``: at least one
   farmer played no card).  Anti-spring: the farmers win and the landlord
   made only the opening lead.

Under classic rules (no stake stages, a bottom) steps 2, 4 and 5 do nothing
and draw nothing from the generator: a seed plays the same game as before
they existed.

Four players (rules ``four``, the flag ``F_FOUR``): the 108 card ids of two
decks (id ``i`` is card ``i % 54`` of one deck) are shuffled the same way,
seat ``s`` gets ids ``[25*s, 25*s + 25)`` and the last 8 are the bottom; the
first bidder is drawn among four seats (or left of a dealer ``i % 4``); the
single-round auction goes round the four seats (:func:`~ddz_tools.core.gamerules.auction_seats`),
all four passing deals again with the next seat first; the landlord takes
the 8 bottom cards and leads, a play stands until three passes, and each
policy sees a four-entry hands array.  The plays multiply the stake by
``bomb_doubles`` (:func:`~ddz_tools.core.gamerules.stake_doublings` and
:func:`~ddz_tools.core.gamerules.multiplier`), spring and anti-spring come from
:func:`~ddz_tools.core.gamerules.spring_silent` over the three farmers, and each
seat scores by :func:`~ddz_tools.core.gamerules.settle_seats` (the landlord +-3 stakes).
There are no stake stages at four seats.  The ``deal`` and ``info`` arrays
hold four seats (``D_*``, ``I_*``); ``plays`` needs :data:`MAX_MOVES_FOUR` rows.

Kernels (module :mod:`~ddz_tools.engines.selfplay.kernel`):

* ``playout(hands, landlord, policies, flags, seed, table, bufc, bufk) ->
  int64[RESULT_SIZE]`` (public, named in :mod:`ddz_tools.engines.kernels`): one
  playout with caller-kept work arrays, its whole result row (the ``R_*``
  columns, the spring flag of both spring rules included).
* ``_playout(hands, landlord, policy, flags, seed) -> int64[5]``:
  ``[landlord_won, bombs, spring, anti_spring, n_moves]`` for ``hands``
  (int64[3], or int64[4] under four-player rules; the bottom already in the
  landlord's hand), the landlord leading,
  the same policy in every seat.  ``bombs`` counts bombs and the rocket;
  ``n_moves`` counts plays and passes.
* ``_playout_seats(hands, landlord, policies, flags, seed)``: the same with
  one policy per seat (int64[3]).
* ``_playout_t(hands, landlord, policies, flags, seed, table, bufc, bufk)``:
  the same with caller-kept work arrays (no allocation per call; make them
  with :func:`work_arrays`).
* ``_game(seed, policies, params, first_bidder, bidding, spring, deal,
  bids, plays, info, table, bufc, bufk) -> n_moves``: a whole game written
  into arrays (see :func:`new_game_arrays` for their layout); ``params`` are
  the variant's (:attr:`Variant.params <ddz_tools.variants.Variant.params>`:
  the flags, :attr:`Rules.stage_flags <ddz_tools.core.rules.Rules.stage_flags>`
  and the table's seats, decks, hand and bottom, whence the deal's sizes).

Public functions: :func:`simulate` (records) and :func:`selfplay_stats`
(aggregate figures, for benchmarks), in :mod:`~ddz_tools.engines.selfplay.run`;
the figures (:class:`SelfplayStats`, :class:`SimulationSummary`, the stake
buckets) in :mod:`~ddz_tools.engines.selfplay.summary`.
"""

from ..stats import wilson_interval
from .kernel import *  # noqa: F401,F403  (the kernels and their array layouts: kernel.__all__)
from .kernel import __all__ as _kernel
from .run import CHUNK, selfplay_stats, simulate
from .summary import SelfplayStats, SimulationSummary, stake_bucket, stake_bucket_label, stake_distribution

__all__ = [
    "simulate", "selfplay_stats", "SelfplayStats", "SimulationSummary", "stake_bucket", "stake_bucket_label",
    "stake_distribution", "wilson_interval", "CHUNK", *_kernel,
]
