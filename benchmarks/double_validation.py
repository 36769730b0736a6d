"""Validation and speed of the doubling evaluator (``ddz bid --decide double``)
on seeded Happy Dou Dizhu self-play games (writes its tables to stdout).

Run:  .venv/bin/python benchmarks/double_validation.py [--deals 1000] [--samples 300] [--seed 1]
          [--timed 20] [--chart docs/double_calibration.svg]

The study
---------
Game ``d`` is game ``d`` of ``ddz_tools.engines.selfplay.simulate(deals, "heuristic",
seed, rules="happy")``: the heuristic policy in every seat, through the
auction, the doubles (farmers from the landlord's left, then the landlord),
the landlord's show at his first play and the play.  The evaluated seat is
the ``d % 3``-th to double; its cards when it doubles (the landlord's with
the bottom), the bottom, the base and the real doubles of the seats before
it go to :func:`ddz_tools.analysis.bid.evaluate_double` (heuristic policy, up to
``--samples`` samples, early stopping on).  Games with no landlord (every
seat passed until the redeal limit) are skipped.

1. Calibration.  The predicted ``win_prob`` (this seat's side wins) against
   the real game's outcome (the same heuristic in every seat), by bin of
   0.1, with the Brier score beside that of always predicting the base rate;
   ``--chart FILE`` draws it as an SVG (matplotlib, the ``report`` extra).
2. Score.  On the same games the evaluated seat doubles by

   * ``evaluator``: the evaluator's recommendation;
   * ``policy rule``: the factor the heuristic policy chose in the game;
   * ``always x1`` and ``always x4`` (the largest legal factor).

   The play does not depend on a factor (the policies never look at one), so
   each strategy's score is the real game's settlement with the seat's factor
   replaced: mean per game with a 95% interval.
3. Speed.  ``--timed`` of the evaluated situations again at the default
   sample count (2,000, early stopping on), one worker: the whole
   ``evaluate_double`` call, median and 90th percentile, and with early
   stopping off.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from statistics import NormalDist, median

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bid_validation import calibration_table, draw_calibration, mean_ci  # noqa: E402

from ddz_tools.analysis.bid import evaluate_double  # noqa: E402
from ddz_tools.core.cards import format_cards, parse_cards  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402
from ddz_tools.variants import variant_of  # noqa: E402

RULES = Rules.parse("happy")
ORDER = (1, 2, 0)   # relative to the landlord: the farmer on his left, the other farmer, the landlord


def situation(rec: dict, place: int) -> dict:
    """The doubling situation of the ``place``-th seat to double in a game record."""
    landlord = rec["landlord"]
    seat = (landlord + ORDER[place]) % 3
    hand = parse_cards(rec["deal"]["hands"][seat])
    bottom = rec["deal"]["bottom"]
    if seat == landlord:
        hand += parse_cards(bottom)
    before = [rec["doubles"][(landlord + ORDER[i]) % 3] for i in range(place)]
    return {"hand": format_cards(hand), "bottom": bottom, "seat": place, "before": before,
            "base": rec["result"]["base"], "me": seat}


def score_with(rec: dict, me: int, factor: int) -> int:
    """The seat's score in the real game had it doubled by ``factor``."""
    r = rec["result"]
    d = list(rec["doubles"])
    d[me] = factor
    won = r["winner"] == "landlord"
    return variant_of(RULES).settle(rec["landlord"], won, r["base"] * r["multiplier"], d)[me]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timed", type=int, default=20, help="situations timed at the default sample count")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chart", default=None)
    args = ap.parse_args()
    z = NormalDist().inv_cdf(0.975)

    t0 = time.perf_counter()
    preds, outs, situations = [], [], []
    scores = {"evaluator": [], "policy rule": [], "always x1": [], "always x4": []}
    skipped = 0
    for d, rec in enumerate(simulate(args.deals, "heuristic", seed=args.seed, rules=RULES, workers=1)):
        if rec.get("landlord") is None or rec.get("result") is None:
            skipped += 1
            continue
        sit = situation(rec, d % 3)
        me = sit.pop("me")
        ev = evaluate_double(**sit, samples=args.samples, seed=d, workers=args.workers, rules=RULES)
        situations.append(sit)
        side_won = (rec["result"]["winner"] == "landlord") == (me == rec["landlord"])
        preds.append(ev.win_prob)
        outs.append(int(side_won))
        scores["evaluator"].append(score_with(rec, me, int(ev.recommendation[1:])))
        scores["policy rule"].append(score_with(rec, me, rec["doubles"][me]))
        scores["always x1"].append(score_with(rec, me, 1))
        scores["always x4"].append(score_with(rec, me, 4))
    elapsed = time.perf_counter() - t0
    n = len(preds)
    preds_a, outs_a = np.array(preds), np.array(outs)
    print(f"# ddz bid --decide double: {n} evaluated games of happy self-play ({skipped} skipped), seed "
          f"{args.seed}, heuristic policy, up to {args.samples} samples, {elapsed:.0f} s")
    print()
    print("## Calibration of win_prob (this seat's side) against the real game")
    print()
    bins = calibration_table(preds_a, outs_a)
    brier = float(((preds_a - outs_a) ** 2).mean())
    base = outs_a.mean()
    brier_base = float(((base - outs_a) ** 2).mean())
    if args.chart:
        draw_calibration(args.chart, bins, n, brier, brier_base, args, tool="ddz bid --decide double",
                         won="this seat's side won", who="this seat's side, at its double")
        print(f"\n(chart written to {args.chart})")
    print()
    print(f"Brier score {brier:.4f} (always predicting the base rate {base:.3f}: {brier_base:.4f}); "
          f"mean predicted {preds_a.mean():.3f}, observed {base:.3f}")
    print()
    print("## Score per game of each way to double, on the same games")
    print()
    print("| strategy | mean score | 95% CI |")
    print("|---|---|---|")
    for name, vals in scores.items():
        m, lo, hi = mean_ci(vals, z)
        print(f"| {name} | {m:+.3f} | [{lo:+.3f}, {hi:+.3f}] |")
    diff = np.array(scores["evaluator"]) - np.array(scores["policy rule"])
    m, lo, hi = mean_ci(diff, z)
    print(f"\nevaluator minus policy rule, paired: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")

    if args.timed:
        print()
        print(f"## Time of one decision at the default sample count, one worker ({args.timed} situations)")
        print()
        for early in (True, False):
            times = []
            for i, sit in enumerate(situations[:args.timed]):
                t = time.perf_counter()
                evaluate_double(**sit, seed=i, workers=1, rules=RULES, early_stop=early)
                times.append(time.perf_counter() - t)
            times.sort()
            print(f"- early stopping {'on' if early else 'off'}: median {median(times):.2f} s, "
                  f"90th percentile {times[int(0.9 * (len(times) - 1))]:.2f} s, max {times[-1]:.2f} s")


if __name__ == "__main__":
    main()
