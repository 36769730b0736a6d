"""Inference alone: how much closer the weighed deals come to the true hidden hands (issue 54).

Positions are taken from recorded games (heuristic self-play by default, or ``--records FILE``:
any ``ddz-record/1`` file, for example games of RLCard's rule agent), at a quarter, half and
three quarters of each game's plays (every stage of the play).  At each position the advisor's
sampler draws ``--samples`` deals of the hidden cards that fit the view (the bids by the
heuristic's rule), summarised three ways: with equal weights (``without`` inference), and weighed
by the other seats' actions as the advisor's reader scores them (``--bids``: who reads the bids,
``rule``, ``model`` or ``none``, see ``ddz_tools.analysis.advise.inference``; where the model reads
them the deals weighed are drawn without the rule): with the weights of
:func:`ddz_tools.analysis.advise.weigh` (``inference``: tempered when the effective sample size
falls below a quarter) and with the untempered likelihoods.  Printed per way, as medians over
positions and means:

* MAE: the mean absolute error of the expected count of each rank in each hidden hand against
  the true hand;
* log-likelihood of the truth: the sum, over the hidden hands and the 15 ranks, of the log of
  the belief's probability that the hand holds exactly its true count of that rank (a
  probability below ``1 / (samples + 1)`` counts as that floor, so that one miss does not
  dominate);
* the effective sample size of the weights.

    python benchmarks/inference.py --games 340 --samples 256 --rules standard --seed 21
    python benchmarks/inference.py --records out/rlcard_games.jsonl --samples 256
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.analysis.advise import Reader, view_from_record, weigh  # noqa: E402
from ddz_tools.analysis.advise.beliefs import summarise  # noqa: E402
from ddz_tools.analysis.advise.sampling import draw_deals  # noqa: E402
from ddz_tools.core.cards import NUM_RANKS, counts_of  # noqa: E402
from ddz_tools.engines.records import game_before_play, parse_record  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402

WAYS = ("without", "inference", "untempered")


def true_hands(rec, move: int) -> tuple:
    """The hands in turn order from the landlord before play ``move`` (1-based)."""
    r = parse_record(rec)
    g = game_before_play(r)
    for seat, text in r.plays[:move - 1]:
        g.play(text, seat)
    return tuple(g.hands[(g.landlord + i) % g.seats] for i in range(g.seats))


def score_position(view, truth, deals, weights, floor: float) -> tuple:
    """(MAE, log-likelihood of the truth) of the deals under ``weights``."""
    hands, _ = summarise(view, deals, weights)
    n = len(deals)
    w = np.full(n, 1.0 / n) if weights is None else np.asarray(weights) / np.sum(weights)
    err, ll = [], 0.0
    for h in hands:
        s = view.seats.index(h.seat)
        true = counts_of(truth[s])
        err += [abs(a - b) for a, b in zip(h.expected, true)]
        held = np.array([counts_of(d[s]) for d in deals]).reshape(n, NUM_RANKS)
        for r in range(NUM_RANKS):
            ll += float(np.log(max(w[held[:, r] == true[r]].sum(), floor)))
    return float(np.mean(err)), ll


def positions(records):
    for rec in records:
        n = len(rec["plays"])
        for move in sorted({n // 4, n // 2, 3 * n // 4}):
            if move >= 2:
                yield rec, move


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=340, help="self-play games (without --records)")
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--records", default=None, help="a ddz-record/1 file instead of self-play")
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--positions", type=int, default=1000, help="stop after this many positions")
    ap.add_argument("--min-ess", type=float, default=None,
                    help="the share of the deals below which the weights are tempered (default: the advisor's)")
    ap.add_argument("--bids", choices=("rule", "model", "none"), default="rule",
                    help="who reads the bids: the sampler's rule where it can (default), the model, or the rule only")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    a = ap.parse_args(argv)
    if a.records:
        with open(a.records, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        source = a.records
    else:
        records = simulate(a.games, "heuristic", seed=a.seed, rules=a.rules)
        source = f"heuristic self-play, rules {a.rules}, seed {a.seed}"
    floor = 1.0 / (a.samples + 1)
    figs = {w: {"mae": [], "ll": []} for w in WAYS}
    ess, secs, n = [], [], 0
    for rec, move in positions(records):
        if n >= a.positions:
            break
        view = view_from_record(rec, move)
        reader = Reader.of(view, bids=a.bids)
        if reader is None:
            continue
        truth = true_hands(rec, move)
        deals = draw_deals(view, 0, a.samples, a.seed)[0]
        # Where the reader reads the bids itself, its deals are drawn without the auction rule.
        free = deals if reader.auction(True) else draw_deals(view, 0, a.samples, a.seed, auction=False)[0]
        t0 = time.perf_counter()
        ll = reader.loglik(free)
        secs.append((time.perf_counter() - t0) / len(free))
        tempered = weigh(ll) if a.min_ess is None else weigh(ll, a.min_ess)
        raw = np.exp(ll - ll.max())
        ess.append(tempered.ess)
        for way, d, w in zip(WAYS, (deals, free, free), (None, tempered.weights, raw)):
            mae, lt = score_position(view, truth, d, w, floor)
            figs[way]["mae"].append(mae)
            figs[way]["ll"].append(lt)
        n += 1
    print(f"{n} positions from {source}; {a.samples} deals each; reading the plays "
          f"{1e3 * statistics.median(secs):.2f} ms a deal (median)")
    print(f"{'':12s} {'MAE':>8s} {'MAE med':>8s} {'loglik':>9s} {'ll med':>9s}")
    out = {"positions": n, "source": source, "samples": a.samples, "ms_per_deal": 1e3 * statistics.median(secs),
           "ess_median": statistics.median(ess)}
    for way in WAYS:
        m, ll = figs[way]["mae"], figs[way]["ll"]
        print(f"{way:12s} {np.mean(m):8.4f} {statistics.median(m):8.4f} {np.mean(ll):9.3f} "
              f"{statistics.median(ll):9.3f}")
        out[way] = {"mae": float(np.mean(m)), "loglik": float(np.mean(ll))}
    base = np.array(figs["without"]["mae"])
    for way in WAYS[1:]:
        d = base - np.array(figs[way]["mae"])
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
        print(f"MAE gain of {way}: {d.mean():+.4f} [{d.mean() - half:+.4f}, {d.mean() + half:+.4f}] (paired, 95%)")
        out[f"gain_{way}"] = [float(d.mean()), float(d.mean() - half), float(d.mean() + half)]
    print(f"effective sample size with inference: median {statistics.median(ess):.1f} of {a.samples}")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
