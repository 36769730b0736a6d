"""Monte Carlo evaluators of the decisions before the play: should this hand
bid, call, double or show?

Each evaluator deals the cards the deciding seat cannot see, many times,
consistent with what the earlier seats did (rejection sampling), plays each
deal out with a self-play policy in every seat, and turns the outcomes into
expected scores per choice, intervals and a recommendation.  The machinery
they share is :mod:`.montecarlo` (the counter-based random numbers, the
deal of a sample, the wild ranks it draws, the chunked threaded sampling
with its early stop, the statistics); each decision has its module:

* :mod:`.auction` -- the bid of 1, 2 or 3 (:func:`evaluate_bid`);
* :mod:`.call` -- call (or grab) or pass, under call-grab or first-call
  bidding (:func:`evaluate_call`);
* :mod:`.double` -- x1, x2 or x4 after the auction (:func:`evaluate_double`);
* :mod:`.show` -- show the hand during the deal, or as landlord at the first
  play, or not (:func:`evaluate_show`).

Each decision's module also reviews that decision in a recorded game
(:func:`review_bids`, :func:`review_calls`, :func:`review_doubles`,
:func:`review_shows`, one row per decision made: what
:mod:`ddz_tools.analysis.analyze` reports with ``bids=True``).

Which decisions a rule set has is the variant's answer
(:meth:`~ddz_tools.variants.Variant.supports`); every evaluator refuses the
others with its reason.
"""

from ...core.errors import BidError
from .auction import (BIDDING_MODES, CHOICES, COL_ACCEPTED, COL_ATTEMPTS, COL_CHOICE, COL_MULT, COL_WON, LINE_KEYS,
                      NCOL_CHOICE, NCOLS, SEAT_NAMES, SEAT_NAMES_FOUR, BidEvaluation, BidProblem, bid_problem,
                      evaluate_bid, parse_before, parse_bid_line, review_bids, run_rows)
from .call import (BIDDING_MODES_CALL, CCOL_ACCEPTED, CCOL_ATTEMPTS, CCOL_CHOICE, CCOLS, NCCOL_CHOICE, CallEvaluation,
                   CallProblem, call_problem, evaluate_call, review_calls, run_call_rows)
from .double import (DCOL_ACCEPTED, DCOL_ATTEMPTS, DCOL_DOUBLES, DCOL_MULT, DCOL_SCORE, DCOL_SHOW, DCOL_WON, DCOLS,
                     DOUBLE_CHOICES, DOUBLE_SEATS, FACTORS, DoubleChoice, DoubleEvaluation, DoubleProblem,
                     double_problem, evaluate_double, parse_factors, record_flush, review_doubles, review_row,
                     run_double_rows)
from .montecarlo import (CHUNK, M32, MAX_ATTEMPTS, MIN_SAMPLES, POLICIES, WORK_TABLE_BITS, ChoiceResult, known_wild,
                         mean_interval, normal_z, run_chunks, sample_key, seed_key, settled, shuffle, stop_z,
                         wilson_interval)
from .show import (SCOL_ACCEPTED, SCOL_ATTEMPTS, SCOL_BASE, SCOL_LANDLORD, SCOL_LL_SHOW, SCOL_MULT, SCOL_SCORE,
                   SCOL_WON, SCOLS, SHOW_CHOICES, SHOW_STAGES, ShowChoice, ShowEvaluation, ShowProblem, evaluate_show,
                   review_shows, run_show_rows, show_problem)

__all__ = [
    # the machinery
    "CHUNK", "MIN_SAMPLES", "MAX_ATTEMPTS", "POLICIES", "M32", "WORK_TABLE_BITS", "seed_key", "sample_key",
    "shuffle", "normal_z", "wilson_interval", "mean_interval", "stop_z", "settled", "run_chunks", "known_wild",
    "ChoiceResult", "BidError",
    # the bid
    "SEAT_NAMES", "SEAT_NAMES_FOUR", "CHOICES", "BIDDING_MODES", "COL_ATTEMPTS", "COL_ACCEPTED", "COL_WON",
    "COL_MULT", "COL_CHOICE", "NCOL_CHOICE", "NCOLS", "BidEvaluation", "BidProblem", "bid_problem", "parse_before",
    "LINE_KEYS", "parse_bid_line", "run_rows", "evaluate_bid", "review_bids",
    # the double
    "FACTORS", "DOUBLE_CHOICES", "DOUBLE_SEATS", "DCOL_ATTEMPTS", "DCOL_ACCEPTED", "DCOL_WON", "DCOL_MULT",
    "DCOL_SHOW", "DCOL_DOUBLES", "DCOL_SCORE", "DCOLS", "DoubleChoice", "DoubleEvaluation", "DoubleProblem",
    "parse_factors", "double_problem", "run_double_rows", "evaluate_double", "review_doubles",
    "review_row", "record_flush",
    # the call
    "CCOL_ATTEMPTS", "CCOL_ACCEPTED", "CCOL_CHOICE", "NCCOL_CHOICE", "CCOLS", "BIDDING_MODES_CALL", "CallProblem",
    "CallEvaluation", "call_problem", "run_call_rows", "evaluate_call", "review_calls",
    # the show
    "SHOW_CHOICES", "SHOW_STAGES", "SCOL_ATTEMPTS", "SCOL_ACCEPTED", "SCOL_LANDLORD", "SCOL_BASE", "SCOL_WON",
    "SCOL_MULT", "SCOL_LL_SHOW", "SCOL_SCORE", "SCOLS", "ShowChoice", "ShowEvaluation", "ShowProblem",
    "show_problem", "run_show_rows", "evaluate_show", "review_shows",
]
