"""The player model: its kernels against the plain-Python twins of
``tests/naive_playermodel.py`` on seeded positions of every kind of variant,
its probabilities, the history kernel against the per-action ones, the fit
on data drawn from a known model, and the shipped weights on heuristic games."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from naive_playermodel import naive_decision, naive_features, naive_history, naive_play_logprobs
from ddz_tools.core.errors import ArgumentError, RulesError
from ddz_tools.core.gamerules import double_ok, trick_after
from ddz_tools.engines.playermodel import (FEATURE_NAMES, NF, SCALE, action_logprob, action_probs, decision_probs,
                                           histories, history_loglik, load_model, model_of, read_weights,
                                           work_arrays)
from ddz_tools.engines.playermodel.fit import Sample, collect, evaluate, fit_type
from ddz_tools.core.rules import Play
from ddz_tools.engines.playermodel.model import (D_BID, D_CALL, D_DOUBLE, D_SHOW, decision_logprob, decision_logprobs,
                                                 history_loglik as history_kernel, play_features, play_logprob,
                                                 play_logprobs)
from ddz_tools.engines.selfplay import simulate
from ddz_tools.variants import VARIANTS

#: One rule set of each kind: classic, kickers and four-with-one options,
#: one and two wild ranks, the stake stages with calls, no bottom, four seats.
RULES = ("standard", "douzero", "encyclopedia", "laizi", "tiandi", "happy", "notalon", "four")
CODES = {D_BID: "bid", D_CALL: "call", D_DOUBLE: "double", D_SHOW: "show"}


def random_types(rng: random.Random, k: int = 2) -> list:
    """Player types with random weights (every feature and decision used)."""
    types = []
    for j in range(k):
        t = {"name": f"t{j}", "prior": rng.uniform(0.2, 1.0), "eps": rng.choice([0.01, 0.05, 0.3]),
             "play": [rng.uniform(-3, 3) for _ in range(NF)]}
        for d in ("bid", "call", "double", "show"):
            t[d] = [rng.uniform(0.1, 4), rng.uniform(-1, 1)]
        types.append(t)
    return types


def twin_types(model) -> list:
    """The types as the kernels see them (the weights rounded to millionths)."""
    out = []
    for t, row in zip(model.types, model.weights):
        d = {"play": [x / SCALE for x in row[:NF]], "eps": row[NF + 8] / SCALE, "prior": t["prior"]}
        for code, name in CODES.items():
            slot = NF - 2 * code - 2
            d[name] = (row[slot] / SCALE, row[slot + 1] / SCALE)
        out.append(d)
    return out


@pytest.fixture(scope="module")
def games():
    """A few games of each rule set, heuristic and random players, as histories."""
    out = {}
    for r in RULES:
        recs = list(simulate(2, "heuristic", seed=11, rules=r)) + list(simulate(2, "random", seed=12, rules=r))
        out[r] = histories(recs)
    return out


def actions(h):
    """Every action of a history with the position it was made in:
    ``(code, seat, value, kind, hands, prev_kind, prev_seat, prev_cards, arg)``,
    ``code`` 0 for a play, else the decision's (its ``arg`` as the kernels take it)."""
    hands = h.start.copy()
    prev_kind, prev_seat, prev_cards = 0, h.landlord, 0
    highest = calls = 0
    for s, v, k in zip(h.seats.tolist(), h.values.tolist(), h.kinds.tolist()):
        if k < 0:
            arg = highest if k == D_BID else calls if k == D_CALL else int(s == h.landlord) if k == D_DOUBLE else 0
            yield k, s, v, k, None, 0, 0, 0, arg
            highest = max(highest, v) if k == D_BID else highest
            calls += k == D_CALL and v != 0
            continue
        yield 0, s, v, k, hands.copy(), prev_kind, prev_seat, prev_cards, 0
        if k:
            hands[s] -= v
            prev_cards = v
        prev_kind, prev_seat = trick_after(k, s, prev_kind, prev_seat, h.players)


def positions(h, every: int = 3):
    """Every ``every``-th play position of a history: ``(hands, seat, prev_kind, prev_seat, prev_cards)``."""
    plays = [a for a in actions(h) if a[0] == 0]
    for code, s, v, k, hands, pk, ps, pc, _ in plays[::every]:
        yield hands, s, pk, ps, pc


def test_features_and_logprobs_match_the_twins(games):
    rng = random.Random(5)
    table, bufc, bufk = work_arrays()
    checked = 0
    for r, hs in games.items():
        model = model_of(r, random_types(rng))
        types = twin_types(model)
        for h in hs:
            for hands, seat, pk, ps, _ in positions(h, every=7):
                n, c, k, f = play_features(hands, seat, h.landlord, pk, ps, h.flags, table, bufc, bufk,
                                           np.empty(64, np.int64), np.empty(64, np.int64), np.empty((64, NF), np.int64))
                mine = {(int(c[i]), int(k[i])): tuple(int(x) for x in f[i]) for i in range(n)}
                assert mine == dict(naive_features(list(hands), seat, h.landlord, pk, ps, h.flags)), (r, seat)
                n, c, k, lp = play_logprobs(hands, seat, h.landlord, pk, ps, h.flags, model.weights, table, bufc,
                                            bufk)
                twin = dict(naive_play_logprobs(list(hands), seat, h.landlord, pk, ps, h.flags, types))
                for i in range(n):
                    want = twin[(int(c[i]), int(k[i]))]
                    assert all(abs(lp[t, i] / SCALE - want[t]) < 1e-5 for t in range(len(types)))
                checked += 1
    assert checked > 60


def test_decisions_match_the_twin():
    rng = random.Random(6)
    table = work_arrays()[0]
    opts = np.empty(4, np.int64)
    out = np.empty((2, 4), np.int64)
    for r in ("standard", "happy", "laizi", "four"):
        v = VARIANTS[r]
        stage = v.rules.stage_flags
        model = model_of(r, random_types(rng))
        types = twin_types(model)
        for _ in range(25):
            deck = [rank for rank in range(13) for _ in range(4 * v.table.decks)] + [13, 14] * v.table.decks
            hand = sum(1 << (4 * c) for c in rng.sample(deck, rng.randint(12, 20)))
            for code in CODES:
                arg = rng.randint(0, 3) if code == D_BID else rng.randint(0, 4) if code == D_CALL else rng.randint(0, 1)
                n = decision_logprobs(code, hand, arg, v.rules.flags, stage, model.weights, table, opts, out)
                twin = naive_decision(CODES[code], hand, arg, v.rules.flags, double_ok(stage, 4), types)
                assert [int(x) for x in opts[:n]] == [val for val, _ in twin]
                for i, (_, lps) in enumerate(twin):
                    assert all(abs(out[t, i] / SCALE - lps[t]) < 1e-5 for t in range(2))
                assert abs(sum(math.exp(x / SCALE) for x in out[0, :n]) - 1) < 1e-5


def test_history_kernel_matches_the_twin_and_the_sum_of_its_actions(games):
    rng = random.Random(7)
    table, bufc, bufk = work_arrays()
    one = np.zeros(2, np.int64)
    for r, hs in games.items():
        model = model_of(r, random_types(rng))
        types = twin_types(model)
        stage = VARIANTS[r].rules.stage_flags
        for h in hs:
            mask = rng.choice([(1 << h.players) - 1, 1 << rng.randrange(h.players), 0b101])
            out = np.zeros(h.players, np.int64)
            parts = np.zeros((2, h.players), np.int64)
            history_kernel(h.dealt, h.start, h.landlord, h.bid_flags, h.flags, stage, h.seats, h.values, h.kinds,
                           mask, model.weights, table, bufc, bufk, out, parts)
            mix, tparts = naive_history(h, mask, types, double_ok(stage, 4))
            for s in range(h.players):
                assert abs(out[s] / SCALE - mix[s]) < 1e-4
                assert all(abs(parts[t, s] / SCALE - tparts[t][s]) < 1e-4 for t in range(2))
            # The same as the per-action kernels, summed.
            total = np.zeros((2, h.players), np.int64)
            for code, s, v, k, hands, pk, ps, _, arg in actions(h):
                if not (mask >> s) & 1:
                    continue
                if code == 0:
                    play_logprob(hands, s, h.landlord, pk, ps, v, k, h.flags, model.weights, table, bufc, bufk, one)
                elif code in (D_BID, D_CALL):
                    decision_logprob(code, h.dealt[s], arg, v, h.bid_flags, stage, model.weights, table, one)
                else:
                    decision_logprob(code, h.start[s], arg, v, h.flags, stage, model.weights, table, one)
                total[:, s] += one
            assert (total == parts).all()
            assert (out[[s for s in range(h.players) if not (mask >> s) & 1]] == 0).all()


def test_probabilities_add_up_to_one_and_none_is_zero(games):
    for r, hs in games.items():
        h = hs[-1]
        for hands, seat, pk, ps, pc in positions(h, every=5):
            prev = Play(pc, pk) if pk else None
            probs = action_probs(list(hands), seat, h.landlord, prev=prev, prev_seat=ps if pk else None, rules=h.rules)
            p = [q for _, q in probs]
            assert abs(sum(p) - 1) < 1e-5 and min(p) > 0, r     # log-probabilities in micro-nats
            assert probs[0][0].is_pass == (pk != 0)
            best = max(probs, key=lambda a: a[1])[0]
            assert abs(action_logprob(best, list(hands), seat, h.landlord, prev=prev, prev_seat=ps if pk else None,
                                      rules=h.rules) - math.log(max(p))) < 1e-12


def test_the_heuristic_type_knows_the_heuristics_choice_and_beats_the_uniform(games):
    """On heuristic self-play the feature "the heuristic's choice" is set on
    the action made, every time (the positions are rebuilt exactly), and the
    shipped model gives the actions made more than the uniform does."""
    for r, hs in games.items():
        h = hs[0]   # a heuristic game
        model = load_model(r)
        sample = collect([h], model.weights, work_arrays())
        made = sample.plays[:, 0] + sample.plays[:, 2]
        assert (sample.features[made, FEATURE_NAMES.index("policy")] == 1).all(), r
        f = evaluate(sample, list(model.types))["all"]
        assert f["model"][0] > f["uniform"][0] + 0.3, r
        rows = history_loglik(h, model=model)
        total = sum(x["loglik"] for x in rows)
        assert abs(total - f["model"][0] * f["n"]) < 1e-3 * f["n"], r


def test_the_fit_recovers_the_weights_of_a_known_model():
    """Choices drawn from a conditional logit with known weights: the fit finds them."""
    rng = np.random.default_rng(3)
    true = np.array([2.0, -1.0, 0.5, 0.0, -0.7, 0.1, 0.3, -0.4, 1.0, 0.8, -0.2, 0.6])
    feats, plays = [], []
    base = 0
    for _ in range(3000):
        n = int(rng.integers(2, 9))
        x = rng.integers(0, 4, size=(n, NF))
        z = x @ true
        p = np.exp(z - z.max())
        p /= p.sum()
        plays.append([base, n, int(rng.choice(n, p=p)), 0, 0])
        feats.append(x)
        base += n
    sample = Sample(np.concatenate(feats).astype(np.int64), np.array(plays, np.int64), np.zeros((0, 15), np.int64),
                    np.zeros(len(plays), np.int64), np.zeros(0, np.int64))
    w = np.array(fit_type(sample, 1e-8)["play"])
    assert np.abs(w - true).max() < 0.15


def test_the_shipped_weights_name_their_fit():
    data = read_weights()
    for name, v in VARIANTS.items():
        if v.supports("advise") is None:
            fit = data["variants"][name]["fit"]
            assert {"games", "seed", "command", "lam"} <= set(fit), name
            m = load_model(name)
            assert m.names == ("heuristic", "generic") and abs(sum(m.priors) - 1) < 1e-9


def test_errors_are_one_line():
    hands = ["3456789TJQKA2XD55", "69K2", "3344"]
    for call in (lambda: action_probs(hands, 3, 0),
                 lambda: action_probs(hands[:2], 1, 0),
                 lambda: action_logprob("33", hands, 1, 0, prev="5", prev_seat=0),
                 lambda: action_probs(hands, 1, 0, prev="5", prev_seat=1),
                 lambda: action_probs(hands, 1, 0, posterior=[1.0]),
                 lambda: decision_probs("double", "33", rules="standard"),
                 lambda: decision_probs("bid", "33", highest=4)):
        with pytest.raises((ArgumentError, RulesError)) as e:
            call()
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("spec", ["standard,bidding=until-two-pass", "notalon,landlord_draw=on",
                                  "happy,show=dianle,doubling=global,must_call=jokers+2s"])
def test_the_positions_are_rebuilt_under_other_options(spec):
    """Auctions, draws, shows and doubles of other rule options: every
    action of a heuristic game is the heuristic's choice where it was made."""
    hs = histories(simulate(3, "heuristic", seed=5, rules=spec))
    model = load_model(spec)
    figures = evaluate(collect(hs, model.weights, work_arrays()), list(model.types))
    assert all(f["heuristic"][1] == 1.0 for f in figures.values()), figures
