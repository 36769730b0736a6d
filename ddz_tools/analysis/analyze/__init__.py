"""Batch analysis of recorded games: check, score, find mistakes, summarise.

What it does, per game (:func:`analyze_files` yields one :class:`GameAnalysis`
per game or deal, in input order):

1. **Replay and validate** every bid and play with the game engine
   (:mod:`ddz_tools.engines.records`, :mod:`ddz_tools.engines.botzone`).  The first illegal
   action makes the game ``invalid``, reported with its move number and the
   reason; other games are not affected.  A Botzone game that stops before
   anyone went out is ``incomplete``.
2. **Score**: the result (winner, base, multiplier, bombs, spring,
   anti-spring, scores) is recomputed from the plays; the fields in which a
   stored result disagrees are listed in ``result_disagrees``.
3. **Mistakes** (``solve_below`` > 0): from the first moment every hand holds
   at most ``solve_below`` cards, every position is solved with the exact
   three-player solver (the farmers cooperate).  A play is a *mistake* when the
   mover's side could force a win before it and is lost after it; the report
   names the seat, its role, the move number, the play made and every winning
   play it had.  Positions the solver cannot settle within its node/time
   limit are counted as ``unchecked``, never as mistakes.  Positions are cached
   within a game, so each is solved once.
4. **Bid review** (``bids=True``): the bid evaluator's best bid for each seat
   that bid, against the bid made (each call and grab against the call
   evaluator); under Happy Dou Dizhu also each seat's double and show
   decisions against the doubling and show evaluators.

DouZero evaluation pickles hold deals, not games: each deal is validated and
reported (hands in our notation, control cards, bombs and minimum number of
plays per seat) with status ``deal``.

:func:`summarize` folds results into one summary: games, valid / invalid /
incomplete, landlord win rate, mean multiplier, bombs, springs, mistakes, and
per-player figures when the records name their players.

Move numbers count every play and pass from the landlord's opening lead,
starting at 1 (bids are numbered on their own, also from 1).

The modules: :mod:`.model` (the result of a game, the options, the CSV rows,
reading a results file back), :mod:`.runners` (the items of the files and
the runs over them, in a pool or on Dask), :mod:`.mistakes` (the mistake
search) and :mod:`.summary`.  Each stake decision's review lives beside its
evaluator in :mod:`ddz_tools.analysis.bid` (:func:`review_bids`,
:func:`~ddz_tools.analysis.bid.review_calls`, :func:`review_doubles`,
:func:`review_shows`), re-exported here.
"""

from ..bid import review_bids, review_calls, review_doubles, review_shows
from .mistakes import SOLVER_TT_MB, MistakeSearch, find_mistakes
from .model import (CSV_COLUMNS, DEFAULT_NODE_LIMIT, ROLES, STATUS_DEAL, STATUS_INCOMPLETE, STATUS_INVALID,
                    STATUS_VALID, AnalyzeOptions, GameAnalysis, Mistake, flat_row, from_flat_row, load_results,
                    player_names, results_format)
from .runners import READ_AHEAD, analyze_files, analyze_items, bombs_played, gc_paused, iter_items, run_chunks
from .summary import summarize, summary_rows

__all__ = [
    # the model
    "STATUS_VALID", "STATUS_INVALID", "STATUS_INCOMPLETE", "STATUS_DEAL", "ROLES", "DEFAULT_NODE_LIMIT", "Mistake",
    "GameAnalysis", "AnalyzeOptions", "player_names", "results_format", "load_results", "CSV_COLUMNS", "flat_row",
    "from_flat_row",
    # the runners
    "gc_paused", "analyze_items", "bombs_played", "iter_items", "READ_AHEAD", "analyze_files", "run_chunks",
    # the mistake search
    "SOLVER_TT_MB", "MistakeSearch", "find_mistakes",
    # the summary
    "summarize", "summary_rows",
    # the stake decisions' reviews (from ddz_tools.analysis.bid)
    "review_bids", "review_calls", "review_doubles", "review_shows",
]
