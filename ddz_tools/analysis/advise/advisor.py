"""The advisor: the best play when the other hands are hidden.

:func:`advise` draws deals of the hidden cards consistent with a view
(:mod:`~.sampling`), scores every legal candidate (and the pass when
answering) on the same deals (:mod:`~.scoring`) and recommends the one that
wins most often (perfect-information Monte Carlo, as bridge programs do).

Statistics and stopping
-----------------------
``win_prob`` is the mean win with a Wilson interval, ``expected_score`` the
mean points with a normal interval.  Candidates are ranked by the objective
(``win``: ``win_prob``; ``score``: ``expected_score``), ties by the other
figure (a difference inside its paired interval counts as level), then by
the tie-break playouts, then by :func:`principle_key`.  Deals come in chunks
of :data:`CHUNK`; from :data:`MIN_SAMPLES` on, the run stops at a chunk
boundary once the best candidate is ahead of every other on the objective by
the paired test of ``ddz bid`` (:func:`ddz_tools.analysis.bid.settled`, Bonferroni
over candidates and looks).  Every draw depends only on the seed and the
sample index, chunks are fixed ranges and the stopping rule looks at whole
prefixes, so the answer is the same for any ``workers``.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable

import numpy as np

from ...core.cards import RANK_X, counts_of
from ...core.errors import ViewError
from ...core.rules import Play, Rules
from ...engines.kernels import min_plays_memo, new_table
from ...variants import variant_of
from ..bid import mean_interval, normal_z, run_chunks, settled, stop_z, wilson_interval
from .parse import or_list
from .sampling import distinct_deals
from .inference import Reader
from .scoring import Plan, score_chunk
from .view import View

__all__ = ["CHUNK", "MIN_SAMPLES", "DEFAULT_SAMPLES", "DEFAULT_NODES", "DEFAULT_EXACT_CARDS", "EXACT_NODES",
           "OBJECTIVES", "Candidate", "Advice", "principle_key", "advise"]

#: Sample indices per chunk: the unit of work, of parallelism and of early stopping.
CHUNK = 16
#: No early stop before this many samples.
MIN_SAMPLES = 32
#: Default most samples of one decision.
DEFAULT_SAMPLES = 128
#: Default node budget of the exact solver per deal (all candidates together).
DEFAULT_NODES = 3000
#: Default: deals whose hands hold more cards than this together go straight to playouts.
DEFAULT_EXACT_CARDS = 24
#: Node budget when nothing is hidden (one deal, solved exactly if at all possible).
EXACT_NODES = 2_000_000


@dataclasses.dataclass(frozen=True)
class Candidate:
    """The figures of one candidate over the deals."""

    play: str
    win_prob: float
    win_ci: tuple
    expected_score: float
    solved: int
    played_out: int
    score_ci: tuple = (0.0, 0.0)

    def to_dict(self) -> dict:
        return {"play": self.play, "win_prob": round(self.win_prob, 6),
                "win_ci": [round(self.win_ci[0], 6), round(self.win_ci[1], 6)],
                "expected_score": round(self.expected_score, 6),
                "score_ci": [round(self.score_ci[0], 6), round(self.score_ci[1], 6)], "solved": self.solved,
                "played_out": self.played_out}


@dataclasses.dataclass(frozen=True)
class Advice:
    """The verdict of :func:`advise`: candidates best first."""

    view: View
    recommendation: str
    candidates: tuple
    samples: int
    samples_max: int
    exact: bool
    stopped_early: bool
    seconds: float
    seed: int
    draws: int = 0
    unfit: int = 0
    objective: str = "win"
    #: Whether the deals were weighed by the other seats' actions, and then the
    #: smallest effective sample size of a chunk's pool and the smallest
    #: tempering it took (see :mod:`.inference`).
    inference: bool = False
    ess: "float | None" = None
    alpha: "float | None" = None

    def to_dict(self) -> dict:
        return {"recommendation": self.recommendation, "objective": self.objective,
                "candidates": [c.to_dict() for c in self.candidates],
                "samples": self.samples, "samples_max": self.samples_max, "exact": self.exact,
                "stopped_early": self.stopped_early, "draws": self.draws, "unfit": self.unfit,
                "inference": self.inference, "ess": None if self.ess is None else round(self.ess, 2),
                "alpha": None if self.alpha is None else round(self.alpha, 4),
                "seconds": round(self.seconds, 4), "seed": self.seed,
                "rules": self.view.rules.describe(), "view": self.view.to_dict()}


def _controls_kept(hand: int) -> int:
    """The controls a hand keeps: its 2s and jokers, and one more for each
    bomb (a rank held four times or more, or both jokers)."""
    counts = counts_of(hand)
    bombs = sum(1 for c in counts[:RANK_X] if c >= 4) + (1 if counts[RANK_X] and counts[RANK_X + 1] else 0)
    return sum(counts[RANK_X - 1:]) + bombs


def principle_key(view: View, play: Play, table: "np.ndarray | None" = None) -> tuple:
    """The playing principle that orders candidates tied on every figure,
    smallest first: a farmer answering his partner passes first (he does
    not beat his partner's play); then the fewest plays left to empty the
    hand after the play (the decomposer's minimum), then the most controls
    kept (2s, jokers, bombs), then a play before the pass, then the lower
    play (its main rank, then its cards)."""
    table = new_table(12) if table is None else table
    rest = view.hand - (0 if play.is_pass else play.cards)
    left = int(min_plays_memo(rest, view.rules.flags, table)) if rest else 0
    partner = view.players > 2 and view.me != 0 and view.last_by is not None and view.last_by != view.seats[0]
    main = (play.kind >> 5) & 15
    return (0 if partner and play.is_pass else int(partner), left, -_controls_kept(rest), 1 if play.is_pass else 0,
            main, play.cards)


def _order(first: np.ndarray, second: np.ndarray, ties: "np.ndarray | None" = None,
           principle: "Callable[[int], tuple] | None" = None, z: "float | None" = None) -> list:
    """Candidates best first: the most ``first`` (the objective's total over
    the deals); among candidates tied on it, the most ``second`` (the other
    objective's).  With ``z``, a tied candidate whose ``second`` is not
    behind the leader's by the paired test of :func:`~ddz_tools.analysis.bid.settled`
    stays level with it: the level ones go first, by the most tie-break playout wins
    (``ties``), then by ``principle(i)`` (smallest first), then the index;
    without ``z`` only equal totals are level."""
    t1 = first.sum(axis=0)
    t2 = second.sum(axis=0)
    tb = ties.sum(axis=0) if ties is not None else np.zeros_like(t1)
    groups: dict = {}
    for i in range(first.shape[1]):
        groups.setdefault(-int(t1[i]), []).append(i)
    out = []
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda i: (-int(t2[i]), -int(tb[i]), i))
        lead = g[0]
        level = [i for i in g if int(t2[i]) == int(t2[lead])
                 or (z is not None and not settled(second[:, [lead, i]], z))]
        if len(level) > 1 and principle is not None:
            level.sort(key=lambda i: (-int(tb[i]), principle(i), i))
        else:
            level.sort(key=lambda i: (-int(tb[i]), i))
        out += level + [i for i in g if i not in level]
    return out


#: The advisor's objectives: the chance to win, or the expected points.
OBJECTIVES = ("win", "score")


def advise(view: View, samples: int = DEFAULT_SAMPLES, seed: int = 0, workers: "int | None" = 1,
           nodes: int = DEFAULT_NODES, exact_cards: int = DEFAULT_EXACT_CARDS, confidence: float = 0.95,
           early_stop: bool = True, progress: "Callable[[int, int], None] | None" = None,
           auction: bool = True, objective: str = "win", inference: bool = False) -> Advice:
    """The best play for the player to move of ``view`` (see the module doc).

    ``samples``: most deals drawn; ``nodes``: the exact solver's node budget
    per deal (0: playouts only); ``exact_cards``: deals whose hands hold more
    cards together go straight to playouts; ``auction``: draw only deals whose
    hidden hands would have bid as the view's bids say (see
    :func:`sample_deals`); ``objective``: ``win`` ranks the candidates by the
    chance to win, ``score`` by the expected points (each breaks its ties by
    the other, then by :func:`principle_key`); ``inference``: weigh the
    deals by how likely the other seats' actions so far were on each
    (:mod:`.inference`; a history view only); ``workers`` threads give the
    same answer as one.

    >>> from ddz_tools.analysis.advise import two_player_view
    >>> a = advise(two_player_view("33JJQK2", "4455A"))   # every lead wins
    >>> a.exact, len(a.candidates), {c.win_prob for c in a.candidates}
    (True, 7, {1.0})
    >>> advise(two_player_view("JJ3", "KK4", after="9")).candidates[0].win_prob
    0.0
    """
    if not isinstance(view, View):
        raise ViewError(f"advise() takes a View, not {type(view).__name__}")
    for name, v, lo in (("samples", samples, 1), ("nodes", nodes, 0), ("exact_cards", exact_cards, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ViewError(f"{name} must be an integer >= {lo}, not {v!r}")
    if not 0.5 <= confidence < 1:
        raise ViewError(f"confidence must be in [0.5, 1), not {confidence!r}")
    if objective not in OBJECTIVES:
        raise ViewError(f"objective must be {or_list(OBJECTIVES)}, not {objective!r}")
    t0 = time.perf_counter()
    cands = view.candidates()
    plan = Plan(view, cands, np.array([p.cards for p in cands], np.int64),
                 np.array([p.kind for p in cands], np.int64), nodes, exact_cards, seed, auction)
    one = distinct_deals(view) == 1
    if inference and not one:
        plan.reader = Reader.of(view)
    if one:
        plan.nodes = max(nodes, EXACT_NODES) if nodes > 0 else 0
        plan.exact_cards = variant_of(view.rules).table.deck_size
        samples = 1
    workers = workers or 1
    n_chunks = -(-samples // CHUNK)
    looks = max(1, n_chunks - (MIN_SAMPLES - 1) // CHUNK)
    z = stop_z(confidence, max(1, len(cands) - 1), looks)
    parts: list = []
    by_score = objective == "score"

    def work(k: int):
        start = k * CHUNK
        return score_chunk(plan, start, min(CHUNK, samples - start))

    def take(part) -> bool:
        parts.append(part)
        done = sum(len(p[0]) for p in parts)
        if progress is not None:
            progress(done, samples)
        if len(cands) == 1:
            return True
        if early_stop and done >= MIN_SAMPLES and done < samples:
            wins = np.concatenate([p[0] for p in parts])
            points = np.concatenate([p[5] for p in parts])
            first, second = (points, wins) if by_score else (wins, points)
            return settled(first[:, _order(first, second)], z)
        return False

    stopped = run_chunks(n_chunks, work, take, workers) and len(cands) > 1
    wins = np.concatenate([p[0] for p in parts])
    points = np.concatenate([p[5] for p in parts])
    solved = np.concatenate([p[1] for p in parts])
    n = len(wins)
    table = new_table(12)
    first, second = (points, wins) if by_score else (wins, points)
    order = _order(first, second, np.concatenate([p[4] for p in parts]),
                   lambda i: principle_key(view, cands[i], table), normal_z(confidence))
    n_solved = int(solved.sum())
    exact = one and n_solved == n
    out = []
    for i in order:
        k = int(wins[:, i].sum())
        p = k / n
        ci = (p, p) if exact else wilson_interval(k, n, confidence)
        mean, lo, hi = mean_interval(points[:, i], confidence)
        sci = (mean, mean) if exact else (lo, hi)
        out.append(Candidate(_play_name(cands[i], view.rules), p, ci, mean, n_solved, n - n_solved, sci))
    weighings = [p[6] for p in parts if p[6] is not None]
    return Advice(view, out[0].play, tuple(out), n, samples, exact, stopped and n < samples,
                  time.perf_counter() - t0, seed, sum(p[2] for p in parts), sum(p[3] for p in parts), objective,
                  plan.reader is not None, min((w.ess for w in weighings), default=None),
                  min((w.alpha for w in weighings), default=None))


def _play_name(p: Play, rules: Rules) -> str:
    return "pass" if p.is_pass else p.notation(rules)
