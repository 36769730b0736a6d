"""Benchmark of the hand decomposer (``ddz_tools.engines.decompose``).

Seeded random 17- and 20-card hands (2,000 of each by default).  Per hand,
the time of the public Python API ``min_plays(hand, rules)`` (warm: JIT
compiled), as mean, median, p99 and max.  Each hand is timed in ``--passes``
passes, each starting from fresh memo tables (so every pass does the same
work); "single pass" is the first pass, "best of passes" takes each hand's
fastest pass, which removes most scheduler noise on a shared machine.

Compared in the same run, on the same hands:

* the kernel without a kept memo table (``kernels.min_plays_fresh``: what a kernel gets
  when it passes no table) and the full report ``decompose()``;
* the plain-Python reference ``tests/naive_decompose.py`` (on the first
  ``--reference-hands`` hands of each size; it is slow), with agreement;
* RLCard's rule agent (``DouDizhuRuleAgentV1.combine_cards``, a greedy
  splitter that keeps ranks whole and attaches no kickers), when rlcard is
  installed: its number of groups vs the exact minimum, and its time.

Usage: python benchmarks/decompose.py [--hands 2000] [--rules standard] [--seed 2026]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import numpy as np  # noqa: E402

from ddz_tools.engines import decompose as dec  # noqa: E402
from ddz_tools.core.cards import format_cards  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402

DECK = [r for r in range(13) for _ in range(4)] + [13, 14]


def deal(rng: random.Random, n: int) -> int:
    return sum(1 << (4 * c) for c in rng.sample(DECK, n))


def stats(times_s: list) -> str:
    us = sorted(t * 1e6 for t in times_s)
    p99 = us[min(len(us) - 1, int(0.99 * len(us)))]
    return (f"mean {statistics.fmean(us):9.1f}  median {statistics.median(us):9.1f}  "
            f"p99 {p99:9.1f}  max {us[-1]:10.1f}  (us, n={len(us)})")


def fresh_tables():
    dec.forget_memo()


def time_public(hands, rules, passes):
    per_pass = []
    values = None
    for _ in range(passes):
        fresh_tables()
        ts, vs = [], []
        for h in hands:
            t0 = time.perf_counter()
            v = dec.min_plays(h, rules)
            ts.append(time.perf_counter() - t0)
            vs.append(v)
        per_pass.append(ts)
        values = vs
    best = [min(col) for col in zip(*per_pass)]
    return per_pass[0], best, values


def time_kernel_no_table(hands, flags):
    ts = []
    for h in hands:
        t0 = time.perf_counter()
        dec.min_plays_fresh(h, flags)
        ts.append(time.perf_counter() - t0)
    return ts


def time_decompose(hands, rules):
    fresh_tables()
    ts = []
    for h in hands:
        t0 = time.perf_counter()
        dec.decompose(h, rules)
        ts.append(time.perf_counter() - t0)
    return ts


def time_reference(hands, flags):
    from naive_decompose import clear_caches, naive_min_plays

    ts, vs = [], []
    for h in hands:
        clear_caches()
        t0 = time.perf_counter()
        vs.append(naive_min_plays(h, flags))
        ts.append(time.perf_counter() - t0)
    clear_caches()
    return ts, vs


def rlcard_peer():
    try:
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    except Exception as exc:  # not installed, or its imports fail
        print(f"  RLCard rule agent: unavailable ({type(exc).__name__}: {exc})")
        return None
    agent = DouDizhuRuleAgentV1()

    def groups(h: int) -> int:
        text = format_cards(h).replace("X", "B").replace("D", "R")
        return sum(len(v) for v in agent.combine_cards(text).values())

    return groups


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per size (default 2000)")
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--reference-hands", type=int, default=100,
                    help="hands per size also run through the plain-Python reference (default 100)")
    ap.add_argument("--decompose-hands", type=int, default=300)
    args = ap.parse_args(argv)
    rules = Rules.parse(args.rules)
    flags = rules.flags
    rng = random.Random(args.seed)
    print(f"decompose benchmark: rules {rules.describe()}, seed {args.seed}, {args.hands} hands per size, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    dec.min_plays(deal(random.Random(0), 20), rules)
    dec.min_plays_fresh(deal(random.Random(0), 20), flags)
    dec.decompose(deal(random.Random(0), 20), rules)
    print(f"warm-up (JIT compile or cache load): {time.perf_counter() - t0:.2f} s")
    peer = rlcard_peer()
    for size in (17, 20):
        hands = [deal(rng, size) for _ in range(args.hands)]
        print(f"\n{size}-card hands")
        first, best, values = time_public(hands, rules, args.passes)
        print(f"  min_plays() single pass      {stats(first)}")
        print(f"  min_plays() best of {args.passes} passes {stats(best)}")
        ts = time_kernel_no_table(hands, flags)
        print(f"  min_plays_fresh() no kept table {stats(ts)}")
        ts = time_decompose(hands[:args.decompose_hands], rules)
        print(f"  decompose() full report     {stats(ts)}")
        k = min(args.reference_hands, len(hands))
        if k:
            ref_ts, ref_vs = time_reference(hands[:k], flags)
            agree = sum(a == b for a, b in zip(ref_vs, values[:k]))
            print(f"  reference (plain Python)    {stats(ref_ts)}")
            print(f"  agreement with reference: {agree}/{k}; median ratio reference/min_plays(): "
                  f"{statistics.median(ref_ts) / statistics.median(best[:k]):,.0f}x")
        dist = np.bincount(values)
        print("  min_plays distribution: " + ", ".join(f"{i}: {c}" for i, c in enumerate(dist) if c))
        if peer is not None:
            ts, more, extra = [], 0, []
            for h, v in zip(hands, values):
                t = time.perf_counter()
                g = peer(h)
                ts.append(time.perf_counter() - t)
                if g > v:
                    more += 1
                extra.append(g - v)
            print(f"  RLCard rule agent split     {stats(ts)}")
            print(f"  RLCard groups > exact minimum on {more}/{len(hands)} hands "
                  f"({100 * more / len(hands):.0f}%), mean excess {statistics.fmean(extra):.2f} plays")


if __name__ == "__main__":
    main()
