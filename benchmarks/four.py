"""Four-player benchmark: two-deck hands beside three-player hands, in the same run.

Workloads, on seeded random deals (``--deals``, default 300 of each):

* lead enumeration of a 33-card landlord hand and a 25-card farmer hand (rules
  ``four``) beside a 20-card and a 17-card hand (rules ``standard``): time per
  call and per play (the goal: per play no dearer than three-player);
* the decomposer's fewest plays of the same hands, cold (a fresh memo a hand).

Each generation time is the best of three batch calls of ``--copies`` copies of
the hand (one kernel call, no Python in between), and the figures are medians
over the hands; the machine may be shared, so compare the ratios.

Usage: ``python benchmarks/four.py [--deals 300] [--copies 200] [--seed 1] [--json]``
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

import numpy as np
from tabulate import tabulate

from ddz_tools.kernels import gen_batch, min_plays_fresh
from ddz_tools.rules import Rules


def deal(rng: random.Random, decks: int, size: int) -> int:
    deck = [r for r in range(13) for _ in range(4 * decks)] + [13, 14] * decks
    hand = 0
    for r in rng.sample(deck, size):
        hand += 1 << (4 * r)
    return hand


def batch_time(hand: int, flags: int, copies: int) -> tuple[float, int]:
    """(seconds per generation, plays) of ``hand``'s leads, best of three calls."""
    hands = np.full(copies, hand, np.int64)
    prev = np.zeros(copies, np.int64)
    counts = np.zeros(copies, np.int64)
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        gen_batch(hands, flags, prev, counts)
        best = min(best, time.perf_counter() - t)
    return best / copies, int(counts[0])


def decompose_time(hand: int, flags: int) -> float:
    best = math.inf
    for _ in range(2):
        t = time.perf_counter()
        min_plays_fresh(hand, flags)
        best = min(best, time.perf_counter() - t)
    return best


def measure(spec: str, decks: int, size: int, deals: int, copies: int, seed: int) -> dict:
    flags = Rules.parse(spec).flags
    rng = random.Random(f"four-bench-{seed}-{spec}-{size}")
    rows = []
    for _ in range(deals):
        h = deal(rng, decks, size)
        t, n = batch_time(h, flags, copies)
        rows.append((t, n, decompose_time(h, flags)))
    return {
        "rules": spec, "cards": size, "hands": deals,
        "plays": statistics.median(r[1] for r in rows),
        "us_per_call": 1e6 * statistics.median(r[0] for r in rows),
        "ns_per_play": 1e9 * statistics.median(r[0] / r[1] for r in rows),
        "decompose_us": 1e6 * statistics.median(r[2] for r in rows),
        "decompose_p99_us": 1e6 * sorted(r[2] for r in rows)[min(deals - 1, int(0.99 * deals))],
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--copies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    for spec in ("standard", "four"):   # load the kernels before timing
        batch_time(deal(random.Random(0), 1, 17), Rules.parse(spec).flags, 2)
        min_plays_fresh(deal(random.Random(0), 1, 17), Rules.parse(spec).flags)
    out = {"leads": []}
    for spec, decks, size in (("four", 2, 33), ("standard", 1, 20), ("four", 2, 25), ("standard", 1, 17)):
        out["leads"].append(measure(spec, decks, size, args.deals, args.copies, args.seed))
    by = {(r["rules"], r["cards"]): r for r in out["leads"]}
    out["per_play_ratio"] = {
        "landlord (33 vs 20)": by[("four", 33)]["ns_per_play"] / by[("standard", 20)]["ns_per_play"],
        "farmer (25 vs 17)": by[("four", 25)]["ns_per_play"] / by[("standard", 17)]["ns_per_play"],
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(tabulate([(r["rules"], r["cards"], r["plays"], f"{r['us_per_call']:.2f}", f"{r['ns_per_play']:.1f}",
                     f"{r['decompose_us']:.0f}", f"{r['decompose_p99_us']:.0f}") for r in out["leads"]],
                   ["rules", "cards", "plays (median)", "us / call", "ns / play", "decompose us (median)",
                    "decompose us (p99)"], tablefmt="github"))
    print()
    for k, v in out["per_play_ratio"].items():
        print(f"per-play time, four-player / three-player, {k}: {v:.2f}x")


if __name__ == "__main__":
    main()
