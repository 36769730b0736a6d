"""The advisor: the best play when the other hands are hidden.

A *view* is what one player knows at his turn: his own cards, the bottom (public
after the auction), every play so far (or only how many cards each seat holds),
and the play he must answer.  :func:`advise` draws deals of the hidden cards
consistent with the view, scores every legal candidate (and the pass when
answering) on the same deals and recommends the one that wins most often
(perfect-information Monte Carlo, as bridge programs do).

The package is in rooms of one concern each, every one documented where its
code is:

* :mod:`~.parse` -- the seats and cards of the rules' table (asked of the
  variant) and the reading of a view's parts: cards, seats, plays, bids,
  draws, doubles;
* :mod:`~.view` -- :class:`View` (the three forms: history, counts,
  two-player), its builders and the ``ddz-view/1`` format;
* :mod:`~.sampling` -- deals of the hidden cards that fit a view (and its
  auction);
* :mod:`~.beliefs` -- what the drawn deals say about each hidden hand
  (expected rank counts, the chance of a bomb, the rocket, the 2s, the wild
  cards);
* :mod:`~.inference` -- the drawn deals weighed by how likely the other
  seats' plays were on each (the model of the players);
* :mod:`~.scoring` -- each candidate scored on each deal: the exact solver
  for small deals, heuristic playouts otherwise;
* :mod:`~.advisor` -- :func:`advise`: the chunks of deals, the statistics,
  the ranking and the early stop;
* :mod:`~.policy` -- the advisor as a self-play policy (:func:`play_game`).

Every public name is importable from here.  The settings the advisor reads
while it runs (:data:`~.scoring.TIE_PLAYOUTS`,
:data:`~.sampling.AUCTION_ATTEMPTS`) are read from their own module: set them
there.

>>> a = advise(two_player_view("33JJQK2", "4455A"))   # every lead wins
>>> a.recommendation in {c.play for c in a.candidates}, a.exact
(True, True)
"""

from ...core.errors import ViewError
from .advisor import (CHUNK, DEFAULT_EXACT_CARDS, DEFAULT_NODES, DEFAULT_SAMPLES, EXACT_NODES, MIN_SAMPLES,
                      OBJECTIVES, Advice, Candidate, advise, principle_key)
from .beliefs import (DEFAULT_BELIEF_SAMPLES, BeliefReport, Beliefs, HandBelief, beliefs, holding_names,
                      read_beliefs)
from .inference import Reader, Weighing, infer_deals, weigh
from .parse import FOUR_SEATS, THREE_SEATS, TWO_SEATS, parse_bids, parse_played, seats_of, start_cards
from .policy import GAME_POLICIES, AdvisorOptions, play_game, simulate_advised
from .sampling import AUCTION_ATTEMPTS, distinct_deals, sample_deals
from .scoring import SOLVER_SEATS, TIE_PLAYOUTS, WORK_TT_MB, solver_scores
from .view import (SCHEMA, View, build_view, counts_view, game_start, game_view, history_view, two_player_view,
                   view_from_record)

__all__ = [
    "ViewError", "View", "Candidate", "Advice", "advise", "history_view", "counts_view", "two_player_view",
    "view_from_record", "game_view", "build_view", "game_start", "parse_played", "parse_bids", "sample_deals", "distinct_deals",
    "play_game", "simulate_advised", "AdvisorOptions", "SCHEMA", "THREE_SEATS", "FOUR_SEATS", "TWO_SEATS",
    "seats_of", "start_cards", "SOLVER_SEATS", "solver_scores",
    "OBJECTIVES", "GAME_POLICIES", "principle_key", "CHUNK", "MIN_SAMPLES", "DEFAULT_SAMPLES", "DEFAULT_NODES",
    "DEFAULT_EXACT_CARDS", "EXACT_NODES", "TIE_PLAYOUTS", "AUCTION_ATTEMPTS", "WORK_TT_MB",
    "beliefs", "Beliefs", "HandBelief", "holding_names", "DEFAULT_BELIEF_SAMPLES", "BeliefReport", "read_beliefs",
    "Reader", "Weighing", "infer_deals", "weigh",
]
