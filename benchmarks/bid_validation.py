"""Validation of the bid evaluator on seeded self-play deals (writes its tables to stdout).

Run:  .venv/bin/python benchmarks/bid_validation.py [--deals 5000] [--samples 500] [--seed 1]
          [--chart docs/bid_calibration.svg]

The study
---------
Deal ``d`` is ``ddz_tools.engines.selfplay.deal_cards(game_seed(seed, d))``; seats
bid in the order 0, 1, 2 and the evaluated seat is ``d % 3``.  The seats
before it bid by the heuristic policy's own bid rule; when one of them bids 3
the evaluated seat has no decision and the deal is skipped (and counted).
The evaluated seat's 17 cards and the earlier bids go to
:func:`ddz_tools.analysis.bid.evaluate_bid` (heuristic policy, ``--samples`` samples,
early stopping on, so a first seat is conditioned on nothing and the others
on the real earlier bids).

1. Calibration.  The real deal is played out once with the evaluated seat as
   landlord (its 17 cards plus the real bottom), by the same heuristic policy
   in every seat.  The predicted ``win_prob`` is compared with that outcome:
   a table by predicted-probability bin, and the Brier score beside the
   Brier score of always predicting the overall landlord win rate.  With
   ``--chart FILE`` the same bins are drawn as an SVG chart (observed win
   rate against mean predicted probability, 95% Wilson intervals, the number
   of deals per bin below; matplotlib, from the ``report`` extra).

2. Score.  On the same real deals, the evaluated seat bids

   * ``evaluator``: the evaluator's recommendation;
   * ``policy rule``: the heuristic policy's own bid rule;
   * ``control score``: a fixed-threshold bidder on RLCard's hand score
     (``get_landlord_score``: rocket 8, each bomb 6, otherwise A 1, 2 2,
     small joker 3, big joker 4), bidding 3 / 2 / 1 at thresholds
     ``t+4`` / ``t+2`` / ``t`` (pass below ``t``, pass if not above the
     highest bid so far); ``t`` is chosen *after the fact* as the best on
     these very deals, which flatters the baseline;
   * ``always pass`` and ``always 3`` (the highest legal bid).

   Later seats bid by the policy rule, the landlord takes the real bottom and
   the real deal is played out (one playout per landlord seat, seeded by
   deal and landlord, so every bidder faces the same outcome for the same
   landlord).  The seat scores +-2 x stake as landlord, +-stake as farmer, 0
   on a redeal (stake = bid x 2 per bomb, rocket, spring, anti-spring).
   Mean score per deal with a 95% interval, and the paired difference of the
   evaluator against each baseline.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from statistics import NormalDist

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ddz_tools.analysis.bid import CHOICES, evaluate_bid, sample_key, wilson_interval  # noqa: E402
from ddz_tools.core.cards import counts_of  # noqa: E402
from ddz_tools.core.gamerules import (  # noqa: E402
    A_BASE, A_HIGH, A_LANDLORD, A_OUTCOME, A_TURN, AUCTION_OPEN, AUCTION_SIZE, AUCTION_VOID, BIDDING_MODES,
    auction_bid, auction_start, multiplier,
)
from ddz_tools.engines.kernels import (  # noqa: E402
    R_ANTI_SPRING, R_BOMBS, R_LANDLORD_WON, R_SPRING, interpreted, playout, work_arrays,
)
from ddz_tools.engines.policies import bid_rule  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.selfplay import deal_cards, game_seed  # noqa: E402
from ddz_tools.variants import variant_of  # noqa: E402

HEURISTIC = 1
POLICIES = np.full(3, HEURISTIC, np.int64)
WORK = work_arrays()   # the policies' work arrays, kept across playouts
_auction_start = interpreted(auction_start)
_auction_bid = interpreted(auction_bid)
_multiplier = interpreted(multiplier)


def control_score(hand17: int) -> int:
    """RLCard's ``get_landlord_score`` of a hand, from its published point values."""
    c = counts_of(hand17)
    score = 0
    if c[13] and c[14]:
        score += 8
    else:
        score += 3 * c[13] + 4 * c[14]
    for r in range(13):
        if c[r] == 4:
            score += 6
        elif r == 11:
            score += c[r]
        elif r == 12:
            score += 2 * c[r]
    return score


def threshold_bid(score: int, t: int, highest: int) -> int:
    want = 3 if score >= t + 4 else 2 if score >= t + 2 else 1 if score >= t else 0
    return want if want > highest else 0


def seat_score(hands, bottom, me, bids_before, my_bid, rules, outcome) -> int:
    """The evaluated seat's score when it bids ``my_bid`` in the real auction
    (single round, first bidder 0; the later seats by the policy's bid rule)."""
    state = [0] * AUCTION_SIZE
    _auction_start(state, BIDDING_MODES["single-round"], 0, 0)
    for p, b in enumerate(list(bids_before) + [my_bid]):
        _auction_bid(state, p, b)
    while state[A_OUTCOME] == AUCTION_OPEN:
        p = state[A_TURN]
        _auction_bid(state, p, bid_rule(hands[p], state[A_HIGH], rules=rules))
    if state[A_OUTCOME] == AUCTION_VOID:
        return 0
    landlord = state[A_LANDLORD]
    won, mult = outcome(landlord)
    return variant_of(rules).settle(landlord, won, state[A_BASE] * mult)[me]


def calibration_table(preds: np.ndarray, outs: np.ndarray) -> list:
    """Print the calibration table (bins of 0.1 of the predicted probability)
    and return its bins ``(lo, hi, deals, mean predicted, observed, ci lo, ci hi)``."""
    print("| predicted | deals | mean predicted | observed win rate | 95% CI |")
    print("|---|---|---|---|---|")
    edges = np.linspace(0, 1, 11)
    bins = []
    for i in range(10):
        lo, hi = edges[i], edges[i + 1]
        m = (preds >= lo) & ((preds < hi) if i < 9 else (preds <= hi))
        k = int(m.sum())
        if k == 0:
            print(f"| {lo:.1f}-{hi:.1f} | 0 | | | |")
            continue
        w = int(outs[m].sum())
        clo, chi = wilson_interval(w, k)
        bins.append((lo, hi, k, float(preds[m].mean()), w / k, clo, chi))
        print(f"| {lo:.1f}-{hi:.1f} | {k} | {preds[m].mean():.3f} | {w / k:.3f} | [{clo:.3f}, {chi:.3f}] |")
    return bins


def draw_calibration(path, bins, n, brier, brier_base, args, tool: str = "ddz bid",
                     won: str = "landlord won", who: str = "this seat as landlord") -> None:
    """The calibration bins as an SVG chart: observed win rate against mean
    predicted probability with 95% Wilson intervals, deals per bin below
    (``tool``, ``won`` and ``who`` name the evaluator and the outcome)."""
    from ddz_tools.analysis.report import pyplot

    plt = pyplot()

    fig, (ax, hx) = plt.subplots(2, 1, figsize=(5.2, 5.6), sharex=True, gridspec_kw={"height_ratios": [3.2, 1]})
    ax.plot([0, 1], [0, 1], color="#999999", lw=0.8, ls="--", label="perfect calibration")
    x = [b[3] for b in bins]
    y = [b[4] for b in bins]
    err = [[b[4] - b[5] for b in bins], [b[6] - b[4] for b in bins]]
    ax.errorbar(x, y, yerr=err, fmt="o", color="#c0392b", ms=5, capsize=3, lw=1.2,
                label="observed win rate, 95% interval")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"{won} (share of deals)")
    ax.set_title(f"{tool}: predicted win probability vs outcome\n{n} self-play deals, seed {args.seed}, "
                 f"up to {args.samples} samples; Brier {brier:.3f} (base rate {brier_base:.3f})", fontsize=9)
    ax.legend(loc="upper left", frameon=False, fontsize=8)
    ax.grid(color="#eeeeee", lw=0.6)
    hx.bar([(b[0] + b[1]) / 2 for b in bins], [b[2] for b in bins], width=0.09, color="#2471a3")
    hx.set_ylabel("deals")
    hx.set_xlabel(f"predicted win probability ({who}), by bin of 0.1")
    fig.tight_layout()
    fig.savefig(path, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)


def mean_ci(values, z):
    v = np.asarray(values, dtype=float)
    m = v.mean()
    half = z * v.std(ddof=1) / math.sqrt(len(v))
    return m, m - half, m + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=5000, help="evaluated deals (skipped ones not counted)")
    ap.add_argument("--samples", type=int, default=500, help="samples per evaluation (maximum)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--chart", default=None, help="also draw the calibration table as an SVG chart into this file")
    args = ap.parse_args()
    rules = Rules()
    flags = rules.flags
    z = NormalDist().inv_cdf(0.975)
    thresholds = list(range(0, 13))
    preds, outcomes, seats = [], [], []
    scores = {"evaluator": [], "policy rule": [], "always pass": [], "always 3": []}
    thr_scores = {t: [] for t in thresholds}
    recs = {c: 0 for c in CHOICES}
    skipped = 0
    samples_used = 0
    d = 0
    t0 = time.perf_counter()
    while len(preds) < args.deals:
        hands, bottom = deal_cards(game_seed(args.seed, d))
        me = d % 3
        index = d
        d += 1
        before = []
        for p in range(me):
            before.append(bid_rule(hands[p], max(before, default=0), rules=rules))
        if 3 in before:
            skipped += 1
            continue
        cache = {}

        def outcome(landlord, hands=hands, bottom=bottom, index=index, cache=cache):
            if landlord not in cache:
                deal = np.array(hands, dtype=np.int64)
                deal[landlord] += bottom
                res = playout(deal, landlord, POLICIES, flags, sample_key(args.seed, index, 0x3000 + landlord), *WORK)
                cache[landlord] = (int(res[R_LANDLORD_WON]),
                                   _multiplier(int(res[R_BOMBS]), int(res[R_SPRING]), int(res[R_ANTI_SPRING])))
            return cache[landlord]

        ev = evaluate_bid(hands[me], seat=me, before=before, samples=args.samples, seed=args.seed * 1000003 + index,
                          workers=args.workers, rules=rules)
        samples_used += ev.samples
        preds.append(ev.win_prob)
        outcomes.append(outcome(me)[0])
        seats.append(me)
        rec = CHOICES.index(ev.recommendation)
        recs[ev.recommendation] += 1
        highest = max(before, default=0)
        scores["evaluator"].append(seat_score(hands, bottom, me, before, rec, rules, outcome))
        scores["policy rule"].append(seat_score(hands, bottom, me, before,
                                                bid_rule(hands[me], highest, rules=rules), rules, outcome))
        scores["always pass"].append(seat_score(hands, bottom, me, before, 0, rules, outcome))
        scores["always 3"].append(seat_score(hands, bottom, me, before, 3, rules, outcome))
        cs = control_score(hands[me])
        for t in thresholds:
            thr_scores[t].append(seat_score(hands, bottom, me, before, threshold_bid(cs, t, highest), rules, outcome))
        if len(preds) % 250 == 0:
            el = time.perf_counter() - t0
            print(f"  {len(preds)} deals, {el:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t0
    preds_a = np.array(preds)
    out_a = np.array(outcomes)
    n = len(preds_a)
    print(f"# Bid evaluator validation: {n} evaluated deals ({skipped} skipped: an earlier seat bid 3), "
          f"seed {args.seed}, heuristic policy, standard rules, up to {args.samples} samples per evaluation "
          f"({samples_used / n:.0f} on average), {elapsed:.0f} s")
    print()
    print("## Calibration of win_prob (this seat as landlord) against the real deal played out")
    print()
    bins = calibration_table(preds_a, out_a)
    brier = float(((preds_a - out_a) ** 2).mean())
    base = out_a.mean()
    brier_base = float(((base - out_a) ** 2).mean())
    if args.chart:
        draw_calibration(args.chart, bins, n, brier, brier_base, args)
        print(f"\n(chart written to {args.chart})")
    print()
    print(f"Brier score {brier:.4f} (always predicting the base rate {base:.3f}: {brier_base:.4f}; "
          f"skill {1 - brier / brier_base:.3f}); mean predicted {preds_a.mean():.3f}, observed {base:.3f}")
    seats_a = np.array(seats)
    print("By place in the bidding: " + "; ".join(
        f"{name} seat {int((seats_a == k).sum())} deals, Brier {float(((preds_a - out_a)[seats_a == k] ** 2).mean()):.4f}, "
        f"predicted {preds_a[seats_a == k].mean():.3f} vs observed {out_a[seats_a == k].mean():.3f}"
        for k, name in enumerate(("first", "second", "third"))))
    print()
    best_t = max(thresholds, key=lambda t: sum(thr_scores[t]))
    scores[f"control score, t={best_t} (best t)"] = thr_scores[best_t]
    print("## Score of the evaluated seat per deal, by bidder (same deals, same playouts)")
    print()
    print("| bidder | mean score | 95% CI | evaluator minus this | 95% CI |")
    print("|---|---|---|---|---|")
    ev_scores = np.array(scores["evaluator"])
    for name, vals in scores.items():
        m, lo, hi = mean_ci(vals, z)
        if name == "evaluator":
            print(f"| {name} | {m:+.3f} | [{lo:+.3f}, {hi:+.3f}] | | |")
            continue
        dm, dlo, dhi = mean_ci(ev_scores - np.array(vals), z)
        print(f"| {name} | {m:+.3f} | [{lo:+.3f}, {hi:+.3f}] | {dm:+.3f} | [{dlo:+.3f}, {dhi:+.3f}] |")
    print()
    print("Control-score thresholds tried (mean score): "
          + ", ".join(f"t={t}: {np.mean(thr_scores[t]):+.3f}" for t in thresholds))
    print("Evaluator recommendations: " + ", ".join(f"{c}: {k}" for c, k in recs.items()))


if __name__ == "__main__":
    main()
