"""The model of the other players: how likely each legal action is.

For a seat whose cards are known (in the advisor, a hidden hand drawn for one
sampled world), the model gives the probability of each of its legal actions:
a play or the pass, a bid, a call or grab, a double, the landlord's show.
It is a softened heuristic (:mod:`~ddz_tools.engines.policies`) in two player
types, fitted by maximum likelihood on self-play (:mod:`.train`):

* ``heuristic``: a conditional logit over the legal actions whose strongest
  feature is "the heuristic's own choice";
* ``generic``: the same logit without that feature, on what any player
  weighs: the plays the hand needs after the action (the decomposer's
  fewest plays), the main face, the cards, the 2s and jokers spent, a bomb,
  going out, the lowest card or answer, a pass (over a partner's play, or
  while an opponent is about to go out), a low lead into an opponent about
  to go out (:data:`~.model.FEATURE_NAMES`).

A bid, call, double or show is an ordered logit in the heuristic's hand
strength around its thresholds.  Each type mixes in a floor ``eps`` (every
legal action gets at least ``eps / n``), and a seat's type is weighed by its
earlier actions: the likelihood of a seat's actions is ``sum_t prior_t *
prod P_t(action)``.  :mod:`.model` holds the kernels (the exact formulas),
``weights.json`` the fitted weights of every variant with how they were
fitted, and docs/advise.md ("The model of the other players") the figures.

Python functions: :func:`action_probs`, :func:`action_logprob` (a play),
:func:`decision_probs` (a bid, call, double or show), :func:`history_loglik`
(every action of a ``ddz-record/1`` game); :func:`load_model` gives the
model of a rule set, :func:`fit_model` fits one (``python -m
ddz_tools.engines.playermodel --fit``).  Kernels for other modules (named
in :mod:`ddz_tools.engines.kernels`): ``play_features``, ``play_logprob``,
``play_logprobs``, ``decision_logprobs``, ``history_loglik``, ``mix_types``.

>>> probs = action_probs(["3456789TJQKA2XD55", "69K2", "3344"], 1, 0, prev="5", prev_seat=0)
>>> [(str(p), round(q, 3)) for p, q in probs]
[('', 0.011), ('6', 0.847), ('9', 0.084), ('K', 0.041), ('2', 0.016)]
"""

from __future__ import annotations

import numpy as np

from ...core.cards import packed_count, to_packed
from ...core.errors import ArgumentError
from ...core.rules import Play, Rules, has_fixed_reading
from ...variants import variant_of
from ..policies import position_args
from .data import History, histories, history_of
from .model import (DECISION_CODES, FEATURE_NAMES, IMPOSSIBLE, NF, SCALE, decision_logprobs, history_loglik as _hl,
                    mix_types, play_features, play_logprob, play_logprobs)
from .train import EPS, LAM, PRIOR, fit_model, heldout, population, work_arrays
from .weights import WEIGHTS_PATH, PlayerModel, load_model, model_of, read_weights, write_weights

__all__ = ["action_probs", "action_logprob", "decision_probs", "history_loglik", "load_model", "fit_model",
           "heldout", "PlayerModel", "History", "history_of", "histories", "model_of", "read_weights",
           "write_weights", "work_arrays", "population", "FEATURE_NAMES", "NF", "SCALE", "IMPOSSIBLE",
           "DECISION_CODES", "WEIGHTS_PATH", "LAM",
           "EPS", "PRIOR", "play_features", "play_logprob", "play_logprobs", "decision_logprobs", "mix_types"]


def _model(model, rules: Rules) -> PlayerModel:
    if model is None:
        return load_model(rules)
    if not isinstance(model, PlayerModel):
        raise ArgumentError(f"model must be a PlayerModel (load_model), not {type(model).__name__}", param="model")
    return model


def _weights_of(model: PlayerModel, posterior) -> np.ndarray:
    """The type probabilities to mix: ``posterior`` (checked), or the priors."""
    if posterior is None:
        return model.priors
    p = np.asarray(posterior, np.float64)
    if p.shape != (len(model.types),) or (p < 0).any() or p.sum() <= 0:
        raise ArgumentError(f"posterior must give {len(model.types)} type probabilities "
                            f"({', '.join(model.names)}), not {posterior!r}", param="posterior")
    return p / p.sum()


def _mix(logp: np.ndarray, mix: np.ndarray) -> np.ndarray:
    """Per action, the probability over the types (``logp``: micro-nats, one row a type)."""
    return (mix[:, None] * np.exp(logp / SCALE)).sum(axis=0)


def _all_plays(hands, seat, landlord, prev, prev_seat, rules, model):
    rules = Rules.parse(rules)
    model = _model(model, rules)
    packed, prev_kind, prev_seat = position_args(hands, seat, landlord, prev, prev_seat, rules)
    table, bufc, bufk = work_arrays()
    n, cards, kinds, logp = play_logprobs(packed, seat, landlord, prev_kind, prev_seat, rules.flags, model.weights,
                                          table, bufc, bufk)
    return rules, model, cards, kinds, logp


def action_probs(hands, seat: int, landlord: int, prev=None, prev_seat: "int | None" = None, rules=None,
                 model: "PlayerModel | None" = None, posterior=None) -> list:
    """Every legal action of ``seat`` with its probability under the model:
    a list of ``(Play, probability)``, the pass first when the seat answers,
    the probabilities adding up to one.

    ``hands``: every seat's cards now, in seat order (card text, packed ints;
    the landlord's with the bottom); ``prev``: the play to answer (text or
    :class:`~ddz_tools.core.rules.Play`), made by ``prev_seat``, ``None``
    for a free lead.  ``rules``: the rule set (under Laizi rules with the
    deal's wild ranks); ``model``: a :class:`PlayerModel` (default: the
    shipped one of the rules' variant); ``posterior``: the probability of
    each player type (default: the priors)."""
    rules, model, cards, kinds, logp = _all_plays(hands, seat, landlord, prev, prev_seat, rules, model)
    p = _mix(logp, _weights_of(model, posterior))
    return [(Play(int(c), int(k)), float(q)) for c, k, q in zip(cards, kinds, p)]


def action_logprob(action, hands, seat: int, landlord: int, prev=None, prev_seat: "int | None" = None,
                   rules=None, model: "PlayerModel | None" = None, posterior=None) -> float:
    """The natural log of the probability that ``seat`` makes ``action`` (a
    :class:`~ddz_tools.core.rules.Play`, card text, ``""`` or ``pass``),
    the other arguments as :func:`action_probs` takes them.  Card text
    without a reading counts every legal reading of those cards.

    >>> round(action_logprob("6", ["3456789TJQKA2XD55", "69K2", "3344"], 1, 0, prev="5", prev_seat=0), 4)
    -0.1659
    """
    rules, model, cards, kinds, logp = _all_plays(hands, seat, landlord, prev, prev_seat, rules, model)
    if isinstance(action, Play):
        hit = (cards == action.cards) & (kinds == action.kind)
    elif isinstance(action, str):
        text = action.strip()
        if text.lower() in ("", "-", "pass", "p"):
            hit = kinds == 0
        else:
            a = Play.parse(text, rules)
            hit = (cards == a.cards) & ((kinds == a.kind) if has_fixed_reading(text) else (kinds != 0))
    else:
        raise ArgumentError(f"an action is a Play or card text, not {type(action).__name__}", param="action")
    if not hit.any():
        raise ArgumentError(f"{action!s} is not a legal action of seat {seat} here", param="action")
    p = _mix(logp, _weights_of(model, posterior))
    return float(np.log(p[hit].sum()))


def decision_probs(decision: str, hand, rules=None, highest: int = 0, level: int = 0, landlord: bool = False,
                   model: "PlayerModel | None" = None, posterior=None) -> list:
    """The legal values of a decision before the play with their
    probabilities: ``[(value, probability)]``.

    ``decision``: ``bid`` (values 0 = pass, then each bid above ``highest``),
    ``call`` (0 or 1: pass, or call or grab at ``level``: 0 the first call,
    1 + grabs so far a grab), ``double`` (the factors 1, 2 and, with
    ``super_double``, 4; ``landlord`` says whose) or ``show`` (the landlord
    at his first play: 0 or 1).  ``hand``: the seat's cards when it
    decides (as dealt for a bid or a call; the landlord's with the bottom).

    >>> [(v, round(p, 3)) for v, p in decision_probs("bid", "3456789TJQKA222XD")]
    [(0, 0.008), (1, 0.008), (2, 0.008), (3, 0.977)]
    >>> [(v, round(p, 3)) for v, p in decision_probs("bid", "33445566778899TTJ")]
    [(0, 0.83), (1, 0.155), (2, 0.008), (3, 0.008)]
    """
    rules = Rules.parse(rules)
    if decision not in DECISION_CODES:
        raise ArgumentError(f"decision must be one of {', '.join(DECISION_CODES)}, not {decision!r}",
                            param="decision")
    variant_of(rules).require(decision)
    model = _model(model, rules)
    h = to_packed(hand, decks=rules.decks)
    if packed_count(h) == 0:
        raise ArgumentError("give the seat's cards", param="hand")
    code = DECISION_CODES[decision]
    arg = {"bid": highest, "call": level, "double": int(bool(landlord)), "show": 0}[decision]
    for name, x, hi in (("highest", highest, 3), ("level", level, 64)):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= hi:
            raise ArgumentError(f"{name} must be 0 to {hi}, not {x!r}", param=name)
    opts = np.empty(4, np.int64)
    out = np.empty((len(model.types), 4), np.int64)
    table, _, _ = work_arrays()
    n = decision_logprobs(code, np.int64(h), arg, rules.flags, rules.stage_flags, model.weights, table, opts, out)
    p = _mix(out[:, :n], _weights_of(model, posterior))
    return [(int(v), float(q)) for v, q in zip(opts[:n], p)]


def history_loglik(record, seats=None, model: "PlayerModel | None" = None) -> list:
    """The log-likelihood (nats) of each seat's actions in a game (a
    ``ddz-record/1`` record, its dict or JSON line, or a :class:`History`):
    a list of ``{"seat", "loglik", "types", "posterior"}`` per seat scored
    (``seats``: a list; default every seat), ``types`` the log-likelihood
    under each player type and ``posterior`` each type's probability after
    the game.  An action the seat's cards cannot make raises an error.

    >>> from ddz_tools.engines.selfplay import simulate
    >>> rows = history_loglik(next(simulate(1, seed=3)))
    >>> [r["seat"] for r in rows], all(r["loglik"] < 0 for r in rows)
    ([0, 1, 2], True)
    """
    h = record if isinstance(record, History) else history_of(record)
    model = _model(model, h.rules)
    n = h.players
    seats = list(range(n)) if seats is None else list(seats)
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise ArgumentError(f"seats must be seats 0 to {n - 1}, not {s!r}", param="seats")
    mask = sum(1 << s for s in set(seats))
    table, bufc, bufk = work_arrays()
    out = np.zeros(n, np.int64)
    parts = np.zeros((len(model.types), n), np.int64)
    _hl(h.dealt, h.start, h.landlord, h.bid_flags, h.flags, h.stage_flags, h.seats, h.values, h.kinds, mask,
        model.weights, table, bufc, bufk, out, parts)
    if (parts[:, seats] <= IMPOSSIBLE).all(axis=0).any():
        raise ArgumentError("an action of the game is not one its seat's cards can make", param="record")
    rows = []
    for s in seats:
        lw = np.log(model.priors) + parts[:, s] / SCALE
        post = np.exp(lw - lw.max())
        post /= post.sum()
        rows.append({"seat": s, "loglik": out[s] / SCALE,
                     "types": {name: parts[t, s] / SCALE for t, name in enumerate(model.names)},
                     "posterior": {name: float(post[t]) for t, name in enumerate(model.names)}})
    return rows
