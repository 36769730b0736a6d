"""Fitting the player model by maximum likelihood, and its figures.

The positions of some games (:func:`collect`: every play, bid, call, double
and show of the scored seats, with the features of every legal action) are
a :class:`Sample`.  :func:`fit_type` fits one player type: for the plays it
maximises the conditional logit's mean log-likelihood per position minus
``lam / 2`` times the squared norm of the weights (each feature divided by
its spread over the sample, so that one ``lam`` serves them all), by Newton
steps with backtracking; the log-likelihood of a conditional logit is
concave, so they climb to its one maximum.  The decisions' ``(beta,
alpha)`` are fitted the same way, one pair per decision, from their ordered
logits (concave as well).  ``eps`` and the priors are not fitted.

Why a penalty.  The heuristic is deterministic: in its self-play every
action is its own choice and every bid sits on the right side of its
threshold, so the likelihood grows without bound with the weight of its
choice (or with ``beta``): the unpenalised maximum is at infinity.  The
penalty keeps the weights finite.

:func:`evaluate` gives the figures of a sample: the mean log-likelihood per
action and the top-1 accuracy of the model (each seat's type weighed by the
seat's earlier actions in the game, as :func:`~.model.history_loglik`
does), of each type alone, of the uniform choice among the legal actions
and of the heuristic's choice with the model's floor.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .model import (ALWAYS, DEC_COLS, DECISION_CODES, DR_CHOSEN, DR_CODE, DR_LO, DR_N, DR_ROW, DR_SEAT,
                    DR_STRENGTH, F_PASS, F_POLICY, NEVER, NF, PLAY_COLS, PR_CHOSEN, PR_N, PR_ROW, PR_SEAT, PR_START,
                    history_rows)

__all__ = ["Sample", "collect", "fit_type", "evaluate", "play_objective", "decision_objective"]


@dataclasses.dataclass
class Sample:
    """Scored positions of some games (:func:`collect`): ``features`` (one
    row per legal action of every play position), ``plays`` (a row per
    position, columns ``PR_*`` of :mod:`.model`), ``decisions`` (a row per
    bid, call, double or show, columns ``DR_*``) and the game of each play
    and decision row (an index into the games collected)."""

    features: np.ndarray
    plays: np.ndarray
    decisions: np.ndarray
    play_game: np.ndarray
    decision_game: np.ndarray

    @property
    def actions(self) -> int:
        return int(self.plays.shape[0] + self.decisions.shape[0])

    def seats_of(self, masks: np.ndarray) -> "Sample":
        """The positions of the seats whose bit is set in ``masks[game]``."""
        keep_p = (masks[self.play_game] >> self.plays[:, PR_SEAT]) & 1 == 1
        keep_d = (masks[self.decision_game] >> self.decisions[:, DR_SEAT]) & 1 == 1
        return Sample(self.features, self.plays[keep_p], self.decisions[keep_d], self.play_game[keep_p],
                      self.decision_game[keep_d])


def collect(hists, weights: np.ndarray, work, masks=None, decisions: bool = True) -> Sample:
    """The :class:`Sample` of ``hists`` (:class:`~.data.History`), in game
    ``g`` the seats whose bit is set in ``masks[g]`` scored (every seat by
    default); ``decisions=False`` leaves out the bids, calls, doubles and
    shows.  ``weights``: int64 model weights (they do not change the
    positions); ``work``: ``(table, bufc, bufk)`` work arrays."""
    table, bufc, bufk = work
    feats, plays, decs, pg, dg = [], [], [], [], []
    base = 0
    parts = np.zeros((weights.shape[0], 8), np.int64)
    for g, h in enumerate(hists):
        m = (1 << h.players) - 1 if masks is None else int(masks[g])
        f, p, d = history_rows(h.dealt, h.start, h.landlord, h.bid_flags, h.flags, h.stage_flags, h.seats, h.values,
                               h.kinds, m, weights, table, bufc, bufk, parts[:, :h.players])
        p = p.copy()
        p[:, PR_START] += base
        base += f.shape[0]
        feats.append(f)
        plays.append(p)
        pg.append(np.full(len(p), g, np.int64))
        if decisions:
            decs.append(d)
            dg.append(np.full(len(d), g, np.int64))

    def cat(parts_, shape):
        return np.concatenate(parts_) if parts_ else np.zeros(shape, np.int64)

    return Sample(cat(feats, (0, NF)), cat(plays, (0, PLAY_COLS)), cat(decs, (0, DEC_COLS)), cat(pg, (0,)),
                  cat(dg, (0,)))


# Plays: the conditional logit ----------------------------------------------------------------


def _play_arrays(sample: Sample):
    """``(X float, group starts, chosen row of each position, sizes)`` of the
    positions whose action is among their legal ones, the rows of each
    position together."""
    p = sample.plays[sample.plays[:, PR_CHOSEN] >= 0]
    ns = p[:, PR_N]
    if not len(p):
        return np.zeros((0, NF)), np.zeros(0, np.int64), np.zeros(0, np.int64), ns
    rows = np.repeat(p[:, PR_START] - np.concatenate([[0], np.cumsum(ns)[:-1]]), ns) + np.arange(ns.sum())
    X = sample.features[rows].astype(np.float64)
    starts = np.concatenate([[0], np.cumsum(ns)[:-1]]).astype(np.int64)
    return X, starts, starts + p[:, PR_CHOSEN], ns


def _softmax(z: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    top = np.maximum.reduceat(z, starts)
    e = np.exp(z - np.repeat(top, sizes))
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def play_objective(w: np.ndarray, X: np.ndarray, starts: np.ndarray, chosen: np.ndarray):
    """``(mean log-likelihood, gradient, Hessian)`` of the conditional logit
    with weights ``w`` over positions whose actions are the rows of ``X``
    from ``starts`` on, the one made at ``chosen``."""
    sizes = np.diff(np.append(starts, len(X)))
    pi = _softmax(X @ w, starts, sizes)
    n = len(starts)
    ll = float(np.sum(np.log(pi[chosen]))) / n
    mu = np.add.reduceat(pi[:, None] * X, starts)
    grad = (X[chosen].sum(axis=0) - mu.sum(axis=0)) / n
    hess = -((X * pi[:, None]).T @ X - mu.T @ mu) / n
    return ll, grad, hess


def _newton(objective, w: np.ndarray, lam: float, steps: int = 100, tol: float = 1e-10) -> np.ndarray:
    """Maximise ``objective(w)[0] - lam / 2 |w|^2`` (concave) by Newton steps
    with backtracking."""
    def value(x):
        return objective(x)[0] - lam / 2 * float(x @ x)

    cur = value(w)
    for _ in range(steps):
        _, g, h = objective(w)
        step = np.linalg.solve(h - lam * np.eye(len(w)), -(g - lam * w))
        t = 1.0
        cand, v = w, cur
        while t > 1e-8:
            cand = w + t * step
            v = value(cand)
            if v >= cur:
                break
            t /= 2
        if v < cur:
            break
        done = v - cur < tol
        w, cur = cand, v
        if done:
            break
    return w


# Decisions: the ordered logits ------------------------------------------------------------------


def _at_least(s: np.ndarray, thr: np.ndarray, beta: float, alpha: float) -> np.ndarray:
    z = beta * (s - thr + 0.5) + alpha
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -700, 700)))
    return np.where(thr == NEVER, 0.0, np.where(thr == ALWAYS, 1.0, p))


def decision_probs(d: np.ndarray, beta: float, alpha: float) -> np.ndarray:
    """The ordered logit's probability (no floor) of each of the 4 value
    slots of each decision row (0 past the legal ones)."""
    s = d[:, DR_STRENGTH].astype(np.float64)
    out = np.zeros((len(d), 4))
    for j in range(4):
        lo, hi = d[:, DR_LO + 2 * j], d[:, DR_LO + 2 * j + 1]
        out[:, j] = np.maximum(_at_least(s, lo, beta, alpha) - _at_least(s, hi, beta, alpha), 0.0)
    out[np.arange(4)[None, :] >= d[:, DR_N][:, None]] = 0.0
    return out


def decision_objective(theta: np.ndarray, d: np.ndarray):
    """``(mean log-likelihood, gradient, Hessian)`` in ``(beta, alpha)`` of
    the decision rows ``d`` (no floor), by central differences."""
    rows = np.arange(len(d))

    def ll(t):
        p = decision_probs(d, t[0], t[1])[rows, d[:, DR_CHOSEN]]
        return float(np.mean(np.log(np.maximum(p, 1e-300))))

    h = 1e-4
    f0 = ll(theta)
    grad, hess = np.zeros(2), np.zeros((2, 2))
    for i in range(2):
        e = np.eye(2)[i] * h
        fp, fm = ll(theta + e), ll(theta - e)
        grad[i] = (fp - fm) / (2 * h)
        hess[i, i] = (fp - 2 * f0 + fm) / (h * h)
    e0, e1 = np.array([h, 0.0]), np.array([0.0, h])
    hess[0, 1] = hess[1, 0] = (ll(theta + e0 + e1) - ll(theta + e0 - e1) - ll(theta - e0 + e1)
                               + ll(theta - e0 - e1)) / (4 * h * h)
    return f0, grad, hess


# The fit --------------------------------------------------------------------------------------


def fit_type(sample: Sample, lam: float, policy_feature: bool = True) -> dict:
    """The penalised maximum-likelihood weights of one player type on a
    sample: ``{"play": [NF floats], "bid": [beta, alpha], "call": ...,
    "double": ..., "show": ...}`` (a decision the sample has none of keeps
    ``[0, 0]``).  ``policy_feature=False`` fits the plays without the
    heuristic's-choice feature (its weight stays 0)."""
    X, starts, chosen, _ = _play_arrays(sample)
    if not policy_feature:
        X[:, F_POLICY] = 0.0
    spread = X.std(axis=0) if len(X) else np.ones(NF)
    spread[spread == 0] = 1.0
    w = np.zeros(NF)
    if len(starts):
        w = _newton(lambda v: play_objective(v, X / spread, starts, chosen), w, lam) / spread
    out = {"play": [float(x) for x in w]}
    for name, code in DECISION_CODES.items():
        d = sample.decisions[(sample.decisions[:, DR_CODE] == code) & (sample.decisions[:, DR_CHOSEN] >= 0)]
        theta = np.zeros(2)
        if len(d):
            theta = _newton(lambda t: decision_objective(t, d), np.array([1.0, 0.0]), lam)
        out[name] = [float(theta[0]), float(theta[1])]
    return out


# The figures ---------------------------------------------------------------------------------------


def _position_probs(sample: Sample, types: list):
    """Per scored position of the sample (plays first, then decisions):
    each type's probability of every legal action (a list of arrays, one a
    type, stacked over the positions' rows), the positions' row starts and
    sizes, the index of the action made, and the position's kind name."""
    X, starts, chosen, ns = _play_arrays(sample)
    plays = sample.plays[sample.plays[:, PR_CHOSEN] >= 0]
    dec = sample.decisions[sample.decisions[:, DR_CHOSEN] >= 0]
    dn = dec[:, DR_N]
    kinds = np.where(X[starts, F_PASS] > 0, "answer", "lead") if len(starts) else np.zeros(0, "<U6")
    names = {code: name for name, code in DECISION_CODES.items()}
    kinds = np.concatenate([kinds, np.array([names[c] for c in dec[:, DR_CODE]], dtype="<U6")])
    sizes = np.concatenate([ns, dn]).astype(np.int64)
    all_starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    valid = (np.arange(4)[None, :] < dn[:, None]).ravel()
    probs = []
    for t in types:
        p_play = _softmax(X @ np.array(t["play"]), starts, ns) if len(starts) else np.zeros(0)
        p_play = (1 - t["eps"]) * p_play + t["eps"] / np.repeat(ns, ns)
        p_dec = np.zeros((len(dec), 4))
        for name, code in DECISION_CODES.items():
            sel = dec[:, DR_CODE] == code
            if sel.any():
                p_dec[sel] = decision_probs(dec[sel], *t[name])
        p_dec = (1 - t["eps"]) * p_dec + t["eps"] / dn[:, None]
        probs.append(np.concatenate([p_play, p_dec.ravel()[valid]]))
    heur_dec = decision_probs(dec, 1e9, 0.0).ravel()[valid] if len(dec) else np.zeros(0)
    heuristic = np.concatenate([X[:, F_POLICY], heur_dec]) > 0.5
    made = np.concatenate([chosen - starts, dec[:, DR_CHOSEN]]).astype(np.int64)
    order = np.concatenate([np.stack([sample.play_game[sample.plays[:, PR_CHOSEN] >= 0], plays[:, PR_SEAT],
                                      plays[:, PR_ROW]], 1),
                            np.stack([sample.decision_game[sample.decisions[:, DR_CHOSEN] >= 0], dec[:, DR_SEAT],
                                      dec[:, DR_ROW]], 1)]) if len(sizes) else np.zeros((0, 3), np.int64)
    return probs, heuristic, all_starts, sizes, made, kinds, order


def evaluate(sample: Sample, types: list) -> dict:
    """The figures of the model on a sample: ``{kind: {"n", "model",
    "types", "uniform", "heuristic"}}`` for each kind of action (``all``,
    ``lead``, ``answer``, then each decision the sample holds), each figure
    ``(mean log-likelihood per action in nats, top-1 accuracy)`` (a tie for
    the top counts as its share); ``types`` lists the figures of each type
    alone.  ``types``: the model's types (dicts with ``play``, the
    decisions, ``eps`` and ``prior``, as :func:`~.weights.load_model` gives
    them); ``heuristic`` is the heuristic's own choice with the first
    type's floor."""
    probs, heuristic, starts, sizes, made, kinds, order = _position_probs(sample, types)
    if not len(sizes):
        return {}
    pos = np.repeat(np.arange(len(sizes)), sizes)
    made_row = starts + made
    # Each seat's types weighed by its earlier actions in the game.
    lp = np.stack([np.log(p[made_row]) for p in probs])          # (K, positions)
    seq = np.lexsort((order[:, 2], order[:, 1], order[:, 0]))
    key = order[seq, 0] * 8 + order[seq, 1]
    first = np.concatenate([[True], key[1:] != key[:-1]])
    cum = np.cumsum(lp[:, seq], axis=1)
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(seq)), 0))
    before = cum - lp[:, seq] - np.where(group_start > 0, cum[:, np.maximum(group_start - 1, 0)], 0.0)
    logw = np.log(np.array([t["prior"] for t in types]))[:, None] + before
    post = np.exp(logw - logw.max(axis=0))
    post /= post.sum(axis=0)
    posterior = np.empty_like(post)
    posterior[:, seq] = post
    mix = sum(posterior[t][pos] * probs[t] for t in range(len(types)))
    floor = types[0]["eps"]
    heur_p = (1 - floor) * heuristic + floor / np.repeat(sizes, sizes)
    figures = {}
    for name in ["all", "lead", "answer", *DECISION_CODES]:
        sel = np.ones(len(sizes), bool) if name == "all" else kinds == name
        if not sel.any():
            continue
        figures[name] = {"n": int(sel.sum()), "model": _figure(mix, starts, sizes, made_row, sel),
                         "types": [_figure(p, starts, sizes, made_row, sel) for p in probs],
                         "uniform": (float(-np.log(sizes[sel]).mean()), float((1.0 / sizes[sel]).mean())),
                         "heuristic": _figure(heur_p, starts, sizes, made_row, sel)}
    return figures


def _figure(p: np.ndarray, starts, sizes, made_row, sel) -> tuple:
    """(mean log-probability of the actions made, top-1 accuracy) over the positions ``sel``."""
    best = np.maximum.reduceat(p, starts)
    ties = np.add.reduceat((p >= np.repeat(best, sizes)).astype(np.float64), starts)
    top = (p[made_row] >= best) / ties
    return float(np.log(p[made_row][sel]).mean()), float(top[sel].mean())
