"""The public kernel surface: every Numba kernel other modules and users may call.

Kernels take and return int64 scalars and int64 arrays (see
:mod:`ddz_tools.core._jit`); they do not check their input, so give them what the
public Python functions would (legal packed hands, the ``flags`` of a
:class:`~ddz_tools.core.rules.Rules`).  A kernel calls them directly; Python code
may call them too (each call from Python costs about a microsecond of
dispatch, more than a small rule takes interpreted: ``interpreted(kernel)``
gives the plain Python function behind a kernel, the same rule without the
dispatch).  Names starting with ``_`` stay private to the module that defines
them and may change at any time; the names below are stable.

This module only re-exports: each kernel is defined (and documented) where
its layer lives, and modules of the lower layers import it from there, so
that importing this module never creates an import cycle.

Packed hands (:mod:`ddz_tools.core.cards`)
    ``packed_count(hand)``, ``packed_contains(hand, cards)``, ``packed_valid(hand)``.
Move generation (:mod:`ddz_tools.moves.movegen`)
    ``gen_into(hand, flags, prev_kind, out_cards, out_kinds) -> n``: every
    lead (``prev_kind`` 0) or every answer, into the buffers (plays past
    their size are counted, not written); ``gen_into_scratch(..., scratch)``:
    the same with the caller's work array of ``GEN_SCRATCH`` entries (no
    allocation per call); ``gen_all(hand, flags, prev_kind,
    bufc, bufk) -> (n, cards, kinds)``: the same, with fresh arrays when the
    buffers are too small; ``gen_batch(hands, flags, prev_kinds, counts) ->
    total``: the number of plays of each of many hands, in one call;
    ``first_subset(cand, k, base, idx, part)`` and ``next_subset(cand, m, k,
    idx, part) -> bool``: the ``k``-subsets of ``cand[:m]`` in lexicographic
    order with their sums, ``pair_ranks(hand, pairs) -> np2``: the ranks
    held twice or more, and ``wing_pairs(body, pairs, np2, cand) -> m``: the
    pairs of those an airplane body may carry as wings (the generator's and
    the two-deck decomposer's).
Decomposer (:mod:`ddz_tools.engines.decompose`)
    ``min_plays_memo(hand, flags, table)``: the exact minimum number of plays
    of a hand, memoised in ``table`` (:func:`new_memo_table`);
    ``min_plays_memo_in(hand, flags, table, work)``: the same in the caller's
    work array of at least ``SEARCH_WORK`` entries, with no allocation (-1
    when the array is too small for the hand: call again with a bigger one);
    ``min_plays_fresh(hand, flags)``: the same with a fresh small table;
    ``min_plays_prefetch(hand, table)``: start loading a hand's slot of the
    table into the cache (prefetch many, then look them up).
Policies (:mod:`ddz_tools.engines.policies`)
    ``policy_play(hands, seat, landlord, prev_kind, prev_seat, policy, flags,
    table, bufc, bufk) -> (cards, kind)`` and ``policy_bid(hand17, policy,
    flags, highest, table)``; ``policy_call(hand, policy, flags, level,
    table)`` (call-grab and first-call); the stake stages of Happy Dou Dizhu:
    ``policy_double(hand, policy, flags, stage_flags, is_landlord, table) ->
    1|2|4`` and ``policy_show(hand, policy, flags, stage_flags, stage,
    is_landlord, table) -> 0|1``; ``policy_strength(hand, flags, table)``,
    the hand strength they threshold; work arrays from :func:`new_table` and
    :data:`BUFFER`; ``seed_rng(seed)`` seeds the generator the random
    policy draws from.
Player model (:mod:`ddz_tools.engines.playermodel.model`)
    ``play_features(hands, seat, landlord, prev_kind, prev_seat, flags, table,
    bufc, bufk, acts_c, acts_k, feats) -> (n, cards, kinds, features)``: the
    legal actions and their features; ``play_logprobs(...)`` and
    ``play_logprob(..., cards, kind, ..., out)``: their log-probabilities
    under each player type (micro-nats); ``decision_logprobs(code, hand, arg,
    flags, stage_flags, weights, table, opts, out)`` and
    ``decision_logprob(...)``: a bid, call, double or show;
    ``history_loglik(dealt, start, landlord, bid_flags, flags, stage_flags,
    seats, values, kinds, mask, weights, table, bufc, bufk, out, parts)``:
    every action of a game, summed per seat, under each type and over the
    types; ``mix_types(parts, weights, out)``: the sum over the types.
    ``weights``: a :class:`~ddz_tools.engines.playermodel.PlayerModel`'s.
Self-play (:mod:`ddz_tools.engines.selfplay`)
    ``playout(hands, landlord, policies, flags, seed, table, bufc, bufk)``:
    one playout from the landlord's lead, its ``R_*`` result row; work arrays
    from :func:`work_arrays`.
Solver (:mod:`ddz_tools.engines.solver`)
    ``search_step(...)``: run or resume the exact open-hand search for a
    node budget (one slice); the arrays and the calling loop are a
    :class:`~ddz_tools.engines.solver.Solver`'s.
Game rules (:mod:`ddz_tools.core.gamerules`)
    ``next_seat``, ``may_pass``, ``trick_after`` (turn and trick);
    ``stake_doublings``, ``spring_doubles``, ``spring_silent``,
    ``multiplier``, ``settle_seats`` (stake and settlement, any number of
    seats; ``TRIPLE_SHIFT`` splits a stake value into doublings and
    triplings), ``bottom_flush`` (a bottom's flush, from card ids); ``auction_start``, ``auction_seats``, ``bid_error``,
    ``auction_bid``, ``auction_must_call`` (the auction, on an int64 state of
    ``AUCTION_SIZE`` fields ``A_*``, ``A_SEATS`` its number of seats); the stake stages and the deal without
    a bottom, on the ``stage_flags`` of :attr:`Rules.stage_flags`:
    ``show_factor``, ``merge_show``, ``double_ok``, ``bottom_bonus``,
    ``must_call``, ``draw_card``.
"""

from ..core._jit import interpreted
from ..core.cards import packed_contains, packed_count, packed_valid, packed_valid_decks
from .decompose import (SEARCH_WORK, min_plays_fresh, min_plays_memo, min_plays_memo_in, min_plays_prefetch,
                        new_memo_table)
from ..core.gamerules import *  # noqa: F401,F403  (the game-rule kernels and constants named in __all__)
from ..moves.movegen import (GEN_SCRATCH, first_subset, gen_all, gen_batch, gen_into, gen_into_scratch, next_subset,
                      pair_ranks, wing_pairs)
from .playermodel.model import (decision_logprob, decision_logprobs, history_loglik, mix_types, play_features,
                                play_logprob, play_logprobs)
from .policies import (BUFFER, POLICIES, new_table, policy_bid, policy_call, policy_double, policy_play, policy_show,
                       policy_strength, seed_rng)
from .selfplay import (R_ANTI_SPRING, R_BOMBS, R_DOUBLINGS, R_LANDLORD_WON, R_N_MOVES, R_SPRING, R_SPRING_ANY, RESULT_SIZE,
                       playout, work_arrays)
from .solver import search_step

__all__ = [
    # calling a kernel from Python without the dispatch
    "interpreted",
    # cards
    "packed_count", "packed_contains", "packed_valid", "packed_valid_decks",
    # movegen
    "gen_into", "gen_into_scratch", "GEN_SCRATCH", "gen_all", "gen_batch", "first_subset", "next_subset",
    "pair_ranks", "wing_pairs",
    # decompose
    "min_plays_memo", "min_plays_memo_in", "min_plays_prefetch", "SEARCH_WORK", "min_plays_fresh", "new_memo_table",
    # policies
    "policy_play", "policy_bid", "policy_call", "policy_double", "policy_show", "new_table", "BUFFER", "POLICIES",
    "seed_rng", "policy_strength",
    # player model
    "play_features", "play_logprob", "play_logprobs", "decision_logprob", "decision_logprobs", "history_loglik",
    "mix_types",
    # selfplay
    "playout", "work_arrays", "RESULT_SIZE", "R_LANDLORD_WON", "R_BOMBS", "R_SPRING", "R_ANTI_SPRING",
    "R_N_MOVES", "R_SPRING_ANY", "R_DOUBLINGS",
    # solver
    "search_step",
    # gamerules
    "next_seat", "may_pass", "trick_after", "stake_doublings", "spring_doubles", "multiplier", "settle_seats", "bottom_flush",
    "auction_start", "bid_error", "auction_bid", "AUCTION_SIZE", "A_FIRST", "A_TURN", "A_BIDS", "A_HIGH",
    "A_HIGH_SEAT", "A_PASSED", "A_CALLER", "A_GRABS", "A_OUTCOME", "A_LANDLORD", "A_BASE", "AUCTION_OPEN",
    "AUCTION_WON", "AUCTION_VOID", "BID_OK", "BID_OVER", "BID_WRONG_TURN", "BID_BAD", "BIDDING_MODES",
    "SPRING_MODES", "auction_must_call", "show_factor", "merge_show", "double_ok", "bottom_bonus", "must_call",
    "draw_card", "auction_seats", "A_SEATS", "spring_silent", "TRIPLE_SHIFT",
]
