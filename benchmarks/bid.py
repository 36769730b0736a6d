"""Bid evaluator benchmark: samples per second on one core and on all cores.

Run:  .venv/bin/python benchmarks/bid.py [--hands 8] [--samples 2000] [--repeats 3]

For each of ``--hands`` seeded 17-card hands (first seat, heuristic policy,
standard rules) the evaluator runs ``--samples`` samples with early stopping
off, with 1 worker and with all cores, ``--repeats`` times on different
seeds, after one warm-up run (Numba's on-disk cache loaded, the workers'
decomposer memo tables allocated).  Figures: median wall-clock seconds of a
full evaluation, median samples per wall-clock second, samples per CPU
second (``time.process_time``, which adds up the worker threads and so
counts other load on the shared machine less) and the speed-up of all cores
over one.  The target is a 2,000-sample evaluation in at most 1 s warm on
this 2-core machine.

A second table does the same for the second and third seat after earlier
bids (rejection sampling on the bid rule), and for the random policy.

``--four``: the same under four-player rules (``four``): seeded 25-card hands
of two decks, the first seat, the second after a pass, and the random
policy (the third seat after ``pass,1`` is too rare under the heuristic's bid
rule with 25 cards to time).

No peer: none of the installed projects (DouZero, RLCard,
doudizhu_resolver) evaluates bids by sampling; RLCard ranks hands by a fixed
control-card score (see ``benchmarks/bid_validation.py`` for how that bids
by comparison).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ddz_tools.analysis.bid import evaluate_bid  # noqa: E402
from ddz_tools.core.cards import format_cards  # noqa: E402

DECK = [r for r in range(13) for _ in range(4)] + [13, 14]


def hands(n: int, seed: int = 2026, decks: int = 1) -> list[str]:
    """``n`` seeded hands: 17 cards of one deck, or 25 of two."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = DECK * decks
        rng.shuffle(deck)
        out.append(format_cards(sum(1 << (4 * r) for r in deck[:17 if decks == 1 else 25])))
    return out


def measure(hand: str, samples: int, workers: int, seed: int, **kw) -> tuple[float, float, int]:
    w0, c0 = time.perf_counter(), time.process_time()
    ev = evaluate_bid(hand, samples=samples, seed=seed, workers=workers, early_stop=False, **kw)
    return time.perf_counter() - w0, time.process_time() - c0, ev.indices


def run_case(label: str, hand_list: list[str], samples: int, repeats: int, cores: int, **kw) -> list:
    rows = []
    for workers in sorted({1, cores}):
        measure(hand_list[0], samples, workers, 999, **kw)  # warm-up
        walls, rates, cpu_rates = [], [], []
        for h, hand in enumerate(hand_list):
            for r in range(repeats):
                wall, cpu, n = measure(hand, samples, workers, 1000 * h + r, **kw)
                walls.append(wall)
                rates.append(n / wall)
                cpu_rates.append(n / cpu)
        rows.append((label, workers, statistics.median(walls), statistics.median(rates),
                     statistics.median(cpu_rates), min(walls), max(walls)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--four", action="store_true", help="four-player rules: 25-card hands of two decks")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    kw = {"rules": "four"} if args.four else {}
    hl = hands(args.hands, decks=2 if args.four else 1)
    t0 = time.perf_counter()
    evaluate_bid(hl[0], samples=10, workers=1, **kw)
    cold = time.perf_counter() - t0
    print(f"bid evaluator{' (rules four)' if args.four else ''}: {args.hands} hands x {args.repeats} seeds, "
          f"{args.samples} samples each, early stopping off; {cores} cores; first call in this process (cache load, "
          f"or compile when the cache is cold) {cold:.2f} s")
    print()
    rows = run_case("first seat, heuristic", hl, args.samples, args.repeats, cores, **kw)
    rows += run_case("second seat after pass", hl, args.samples, args.repeats, cores, seat=1, before="pass", **kw)
    if not args.four:
        rows += run_case("third seat after pass,1", hl, args.samples, args.repeats, cores, seat=2, before="pass,1")
    rows += run_case("first seat, random policy", hl, args.samples, args.repeats, cores, policy="random", **kw)
    print("| case | workers | median s per evaluation | samples/s (wall) | samples/CPU-s | min-max s |")
    print("|---|---|---|---|---|---|")
    for label, w, wall, rate, cpu_rate, lo, hi in rows:
        print(f"| {label} | {w} | {wall:.3f} | {rate:,.0f} | {cpu_rate:,.0f} | {lo:.3f}-{hi:.3f} |")
    print()
    by = {(r[0], r[1]): r for r in rows}
    for label in dict.fromkeys(r[0] for r in rows):
        if cores > 1:
            one, all_ = by[(label, 1)], by[(label, cores)]
            print(f"{label}: all cores / one core = {one[2] / all_[2]:.2f}x (median wall time)")
    first = by[("first seat, heuristic", cores)]
    verdict = "meets" if first[2] <= 1.0 else "misses"
    print(f"target: a {args.samples}-sample evaluation in <= 1 s warm on all cores: median {first[2]:.3f} s ({verdict})")


if __name__ == "__main__":
    main()
