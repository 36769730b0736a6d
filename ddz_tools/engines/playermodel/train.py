"""The fit from self-play: the games, the two player types, the held-out figures.

:func:`fit_model` plays seeded self-play (:func:`~ddz_tools.engines.selfplay.simulate`,
``ddz-record/1`` records) of a population of our two heuristics: in each
block of games one seat, or every seat, or none plays the heuristic without
the partnership conventions (``heuristic-solo``), the others the heuristic.
It fits two player types on them (:func:`~.fit.fit_type`):

* ``heuristic``: the seats that played the heuristic, with the feature
  "the heuristic's own choice": a sharp model of our heuristic;
* ``generic``: every seat, without that feature: a player who weighs the
  same things (keeping the split, low cards first, passing a partner, the
  controls, the bombs) without following the heuristic's rules to the
  letter, which is what another player is more like.

Both take the same floor ``eps`` and a prior of one half each.
:func:`heldout` gives the figures of a model on fresh self-play.
"""

from __future__ import annotations

import numpy as np

from ...core.errors import ArgumentError
from ...variants import variant_of
from ..policies import BUFFER, new_table
from ..selfplay import simulate
from .data import histories, history_of
from .fit import collect, evaluate, fit_type
from .model import MODEL_TABLE_BITS, WEIGHTS_SIZE
from .weights import PlayerModel, model_of

__all__ = ["LAM", "EPS", "PRIOR", "population", "fit_model", "heldout", "work_arrays"]

#: The penalty of the fit (see :mod:`.fit`).
LAM = 0.01
#: The floor: each type gives every legal action at least ``eps / n``.
EPS = 0.03
#: The prior of the ``heuristic`` type (``generic`` has the rest).
PRIOR = 0.5


def work_arrays() -> tuple:
    """``(table, bufc, bufk)``: the work arrays of the model's kernels (a
    decomposer memo table and the policy's move buffers)."""
    return new_table(MODEL_TABLE_BITS), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def population(seats: int) -> list:
    """The seats' policies of each block of training games: every seat the
    heuristic; each seat in turn ``heuristic-solo``; every seat ``heuristic-solo``."""
    blocks = [["heuristic"] * seats]
    for s in range(seats):
        blocks.append(["heuristic-solo" if k == s else "heuristic" for k in range(seats)])
    blocks.append(["heuristic-solo"] * seats)
    return blocks


def _records(rules, games: int, seed: int, workers=None) -> list:
    v = variant_of(rules)
    blocks = population(v.seats)
    out = []
    start = 0
    for j, pols in enumerate(blocks):
        n = games // len(blocks) + (1 if j < games % len(blocks) else 0)
        out.extend(simulate(n, policy=pols, seed=seed, rules=rules, start=start, workers=workers))
        start += n
    return out


def fit_model(rules=None, games: int = 1000, seed: int = 1, lam: float = LAM, eps: float = EPS,
              prior: float = PRIOR, workers=None) -> PlayerModel:
    """Fit the model of a rule set's variant on ``games`` self-play games of
    the :func:`population` from ``seed`` (game ``i`` is
    :func:`~ddz_tools.engines.selfplay.game_seed` ``(seed, i)``)."""
    v = variant_of(rules)
    recs = _records(v.rules, games, seed, workers)
    hists, masks = [], []
    for rec in recs:
        try:
            h = history_of(rec)
        except ArgumentError:       # a game that does not replay: no position to learn from
            continue
        hists.append(h)
        masks.append(sum(1 << s for s, p in enumerate(rec["players"]) if p == "heuristic"))
    work = work_arrays()
    sample = collect(hists, np.zeros((1, WEIGHTS_SIZE), np.int64), work)
    sharp = fit_type(sample.seats_of(np.array(masks, np.int64)), lam, policy_feature=True)
    generic = fit_type(sample, lam, policy_feature=False)
    types = [dict(sharp, name="heuristic", prior=prior, eps=eps),
             dict(generic, name="generic", prior=1 - prior, eps=eps)]
    fit = {"command": f"python -m ddz_tools.engines.playermodel --fit --rules {v.name} --games {games} --seed {seed}",
           "games": games, "seed": seed, "lam": lam, "eps": eps, "prior": prior,
           "population": "heuristic with heuristic-solo in 0, 1 or every seat",
           "positions": {"heuristic": int(sample.seats_of(np.array(masks, np.int64)).actions),
                         "generic": int(sample.actions)}}
    return model_of(v.name, types, fit)


def heldout(model: PlayerModel, rules=None, games: int = 300, seed: int = 2, records=None, decisions: bool = True,
            workers=None) -> dict:
    """The figures (:func:`~.fit.evaluate`) of ``model`` on ``games`` games
    of heuristic self-play from ``seed`` (or on ``records``, any
    ``ddz-record/1`` games; ``decisions=False`` scores their plays only)."""
    if records is None:
        records = simulate(games, seed=seed, rules=rules, workers=workers)
    sample = collect(histories(records), model.weights, work_arrays(), decisions=decisions)
    return evaluate(sample, list(model.types))
