"""Beliefs: what the drawn deals say about each hidden hand.

The advisor draws deals of the hidden cards that fit a view
(:mod:`.sampling`); :func:`beliefs` sums them up per hidden seat: the expected
count of each rank and the chance of the holdings that decide a hand: a
bomb, the rocket, the 2s (at least one, two, ...) and, under Laizi rules, the
wild cards.  Each deal counts with a weight (all equal without inference;
with inference, the likelihood of the seats' earlier actions,
:mod:`.inference`), and the effective sample size
``(sum w)^2 / sum w^2`` says how many equally weighted deals they are worth.

>>> from ddz_tools.analysis.advise import counts_view
>>> b = beliefs(counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789"), samples=64)
>>> [h.seat for h in b.hands], b.hands[0].cards, round(sum(b.hands[0].expected), 6)
(['landlord', 'farmer1'], 3, 3.0)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.cards import NUM_RANKS, RANK_D, RANK_X, RANKS, card_count, counts_of, rank_limit
from .inference import Reader, weigh
from .sampling import draw_deals
from .view import View

__all__ = ["HandBelief", "Beliefs", "BeliefReport", "beliefs", "read_beliefs", "holding_names",
           "DEFAULT_BELIEF_SAMPLES"]

#: Deals drawn for a belief table unless told otherwise.
DEFAULT_BELIEF_SAMPLES = 512
_RANK_2 = RANKS.index("2")


@dataclasses.dataclass(frozen=True)
class HandBelief:
    """One hidden seat: its card count now, the expected count of each rank
    (index 0 = the 3s ... 14 = the big joker) and the chance of each holding
    of :func:`holding_names`."""

    seat: str
    cards: int
    expected: tuple
    holdings: dict

    def to_dict(self) -> dict:
        return {"seat": self.seat, "cards": self.cards,
                "expected": {RANKS[r]: round(x, 4) for r, x in enumerate(self.expected)},
                "holdings": {k: round(p, 4) for k, p in self.holdings.items()}}


@dataclasses.dataclass(frozen=True)
class Beliefs:
    """The beliefs of one view: a :class:`HandBelief` per hidden seat."""

    view: View
    samples: int
    seed: int
    inference: bool
    ess: float
    hands: tuple
    #: How inference fared: None without it, else a short note (for example
    #: that the weights collapsed and the draws were kept unweighted).
    note: "str | None" = None

    def to_dict(self) -> dict:
        return {"view": self.view.describe(), "rules": self.view.rules.describe(), "samples": self.samples,
                "seed": self.seed, "inference": self.inference, "ess": round(self.ess, 2), "note": self.note,
                "hands": [h.to_dict() for h in self.hands]}


def holding_names(view: View) -> list:
    """The holdings a belief table gives the chance of, under the view's
    rules: ``bomb`` (four or more of a natural rank), ``rocket`` (every
    joker), ``2 >= k`` for each possible count of 2s and, under Laizi rules,
    ``wild >= k`` for each possible count of wild cards (the natural cards of
    the wild ranks the view knows)."""
    decks = view.rules.decks
    names = ["bomb", "rocket"] + [f"2 >= {k}" for k in range(1, rank_limit(_RANK_2, decks) + 1)]
    if view.rules.wild:
        names += [f"wild >= {k}" for k in range(1, sum(rank_limit(r, decks) for r in view.rules.wild) + 1)]
    return names


def _holdings(counts: np.ndarray, view: View) -> np.ndarray:
    """(deals, holdings) indicator matrix of :func:`holding_names` for the
    (deals, 15) rank counts of one seat."""
    decks = view.rules.decks
    cols = [(counts[:, :RANK_X] >= 4).any(axis=1),
            (counts[:, RANK_X] == rank_limit(RANK_X, decks)) & (counts[:, RANK_D] == rank_limit(RANK_D, decks))]
    cols += [counts[:, _RANK_2] >= k for k in range(1, rank_limit(_RANK_2, decks) + 1)]
    if view.rules.wild:
        wild = counts[:, list(view.rules.wild)].sum(axis=1)
        cols += [wild >= k for k in range(1, sum(rank_limit(r, decks) for r in view.rules.wild) + 1)]
    return np.stack(cols, axis=1).astype(np.float64)


def summarise(view: View, deals: list, weights: "np.ndarray | None" = None) -> tuple:
    """(hands, ess): a :class:`HandBelief` per hidden seat of ``deals``
    (tuples of packed hands in turn order) weighted by ``weights`` (equal
    when None), and the effective sample size."""
    n = len(deals)
    w = np.ones(n) if weights is None else np.asarray(weights, np.float64)
    if w.shape != (n,) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError("weights must be one finite, non-negative number a deal, not all zero")
    w = w / w.sum()
    ess = 1.0 / float(np.sum(w * w))
    names = holding_names(view)
    out = []
    for s in range(view.players):
        if s == view.me:
            continue
        counts = np.array([counts_of(d[s]) for d in deals], np.int64).reshape(n, NUM_RANKS)
        expected = tuple(float(x) for x in w @ counts)
        chance = w @ _holdings(counts, view)
        out.append(HandBelief(view.seats[s], card_count(deals[0][s]) if n else view.counts[s], expected,
                              dict(zip(names, (float(p) for p in chance)))))
    return tuple(out), ess


def beliefs(view: View, samples: int = DEFAULT_BELIEF_SAMPLES, seed: int = 0, auction: bool = True,
            weights=None) -> Beliefs:
    """The beliefs about each hidden hand of ``view`` over ``samples`` deals
    drawn as the advisor draws them (:func:`~.sampling.draw_deals`, with
    ``seed`` and ``auction``), each weighted by ``weights`` (a function of
    ``(view, deals)`` returning ``(weights, note)``; equal weights when None).
    With :func:`inference_weights` reading the bids itself, the deals are
    drawn without the sampler's auction rule, so the bids count once."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive whole number, not {samples!r}")
    if weights is inference_weights:
        reader = Reader.of(view)
        auction = auction if reader is None else reader.auction(auction)
    deals = draw_deals(view, 0, samples, seed, auction)[0]
    w, note = (None, None) if weights is None else weights(view, deals)
    hands, ess = summarise(view, deals, w)
    return Beliefs(view, samples, seed, weights is not None, ess, hands, note)


def inference_weights(view: View, deals: list) -> tuple:
    """``(weights, note)`` of ``deals`` by the other seats' actions so far
    (:func:`~.inference.weigh`): equal weights and a note when the view has
    nothing to read."""
    reader = Reader.of(view)
    if reader is None:
        return np.ones(len(deals)), "nothing to read: no action of another seat in this view"
    w = reader.loglik(deals)
    weighing = weigh(w)
    note = None if weighing.alpha == 1 else (f"the plays' likelihoods were tempered (x{weighing.alpha:.3f}) so that "
                                              f"no few deals take all the weight")
    return weighing.weights, note


@dataclasses.dataclass(frozen=True)
class BeliefReport:
    """The beliefs of a view on the same deals without and with inference
    (:func:`read_beliefs`)."""

    plain: Beliefs
    inferred: Beliefs

    @property
    def view(self) -> View:
        return self.plain.view

    def to_dict(self) -> dict:
        return {"view": self.view.describe(), "rules": self.view.rules.describe(),
                "without_inference": self.plain.to_dict(), "with_inference": self.inferred.to_dict()}


def read_beliefs(view: View, samples: int = DEFAULT_BELIEF_SAMPLES, seed: int = 0,
                 auction: bool = True) -> BeliefReport:
    """What the view's deals say about each hidden hand, without and with
    inference from the other seats' actions (the same ``samples`` deals, drawn
    with ``seed``; :func:`beliefs`)."""
    return BeliefReport(beliefs(view, samples, seed, auction), beliefs(view, samples, seed, auction, inference_weights))
