"""Laizi (wild cards) side by side with classic, on the same seeded deals.

Run:  .venv/bin/python benchmarks/laizi.py [--hands 400] [--games 2000] [--stats-games 3000]

1. Leads per play.  Seeded 20-card hands (a dealt 17 plus the bottom); each
   hand's wild rank is drawn among the ranks it holds, so that it holds 1-4
   laizi.  Each hand's leads are generated under ``laizi`` with that wild rank
   and under ``standard`` (the same cards, every card natural), each time in
   one ``gen_batch`` kernel call over the hand repeated ``--copies`` times
   (the call's dispatch spread over the copies), best of three.  Per hand:
   the time per play of each and their ratio; printed: medians by laizi held.
2. Decomposer.  ``min_plays_fresh`` (a fresh memo table per call) on the same
   20-card hands, laizi and classic: median, p99, max per hand.
3. Self-play.  Heuristic games per CPU second on one core
   (``selfplay_stats``, ``workers=1``), median of ``--repeats`` runs, under
   ``standard``, ``laizi`` and ``tiandi``.
4. Figures.  Lead counts of seeded 17- and 20-card hands by the number of
   laizi held (``laizi``: a random wild rank a deal; ``tiandi``: two), median
   and 90th percentile; and the landlord's self-play win rate (Wilson 95%
   interval), mean multiplier and bombs per game over ``--stats-games``
   heuristic games under each preset, the same seeds for all.

The endgame sets with laizi are run by ``benchmarks/solve.py --rules laizi``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.engines.kernels import gen_batch, min_plays_fresh  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.selfplay import SimulationSummary, selfplay_stats, simulate  # noqa: E402

DECK = [r for r in range(13) for _ in range(4)] + [13, 14]


def deal_hand(rng: random.Random, size: int) -> int:
    deck = list(DECK)
    rng.shuffle(deck)
    return sum(1 << (4 * r) for r in deck[:size])


def held(hand: int) -> list[int]:
    return [r for r in range(13) if (hand >> (4 * r)) & 15]


def count(hand: int, r: int) -> int:
    return (hand >> (4 * r)) & 15


def pct(values, q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


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


def leads_per_play(hands, copies: int) -> dict:
    classic = Rules.parse("standard").flags
    rng = random.Random("laizi-bench-wild")
    rows = []
    for h in hands:
        w = rng.choice(held(h))
        flags = Rules.parse("laizi").with_wild((w,)).flags
        t_l, n_l = batch_time(h, flags, copies)
        t_c, n_c = batch_time(h, classic, copies)
        rows.append({"laizi": count(h, w), "t_laizi": t_l, "plays_laizi": n_l, "t_classic": t_c,
                     "plays_classic": n_c, "ratio": (t_l / n_l) / (t_c / n_c)})
    out = {"hands": len(rows), "by_laizi": {}}
    for k in sorted({r["laizi"] for r in rows}) + ["all"]:
        sel = [r for r in rows if k == "all" or r["laizi"] == k]
        out["by_laizi"][str(k)] = {
            "hands": len(sel),
            "plays_laizi": statistics.median(r["plays_laizi"] for r in sel),
            "plays_classic": statistics.median(r["plays_classic"] for r in sel),
            "us_per_call_laizi": 1e6 * statistics.median(r["t_laizi"] for r in sel),
            "us_per_call_classic": 1e6 * statistics.median(r["t_classic"] for r in sel),
            "ns_per_play_laizi": 1e9 * statistics.median(r["t_laizi"] / r["plays_laizi"] for r in sel),
            "ns_per_play_classic": 1e9 * statistics.median(r["t_classic"] / r["plays_classic"] for r in sel),
            "per_play_ratio": statistics.median(r["ratio"] for r in sel),
        }
    return out


def decomposer(hands) -> dict:
    classic = Rules.parse("standard").flags
    rng = random.Random("laizi-bench-wild")
    out = {}
    times = {"laizi": [], "classic": []}
    for h in hands:
        w = rng.choice(held(h))
        for name, flags in (("laizi", Rules.parse("laizi").with_wild((w,)).flags), ("classic", classic)):
            best = math.inf
            for _ in range(2):
                t = time.perf_counter()
                min_plays_fresh(h, flags)
                best = min(best, time.perf_counter() - t)
            times[name].append(best)
    for name, ts in times.items():
        out[name] = {"median_us": 1e6 * statistics.median(ts), "p99_us": 1e6 * pct(ts, 0.99),
                     "max_us": 1e6 * max(ts)}
    return out


def selfplay_speed(games: int, repeats: int, seed: int) -> dict:
    out = {}
    for spec in ("standard", "laizi", "tiandi"):
        selfplay_stats(20, "heuristic", seed=seed, rules=spec, workers=1)  # loads the kernels
        rates = []
        for i in range(repeats):
            t = time.process_time()
            selfplay_stats(games, "heuristic", seed=seed + i, rules=spec, workers=1)
            rates.append(games / (time.process_time() - t))
        out[spec] = {"games_per_cpu_s": statistics.median(rates)}
    return out


def lead_counts(deals: int) -> dict:
    out = {}
    for spec in ("laizi", "tiandi"):
        base = Rules.parse(spec)
        for size in (17, 20):
            rng = random.Random(f"lead-counts-{spec}-{size}")
            by = {}
            for _ in range(deals):
                h = deal_hand(rng, size)
                wild = tuple(rng.sample(range(13), base.wild_ranks))
                n = sum(count(h, w) for w in wild)
                c = np.zeros(1, np.int64)
                gen_batch(np.array([h], np.int64), base.with_wild(wild).flags, np.zeros(1, np.int64), c)
                by.setdefault(n, []).append(int(c[0]))
            out[f"{spec}-{size}"] = {str(n): {"hands": len(v), "median": statistics.median(v), "p90": pct(v, 0.9)}
                                     for n, v in sorted(by.items())}
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def game_figures(games: int, seed: int) -> dict:
    out = {}
    for spec in ("standard", "laizi", "tiandi"):
        s = SimulationSummary()
        mults = []
        for rec in simulate(games, "heuristic", seed=seed, rules=spec):
            s.add(rec)
            mults.append(rec["result"]["multiplier"])
        lo, hi = wilson(s.landlord_wins, s.games)
        out[spec] = {"games": s.games, "landlord_win_rate": s.landlord_wins / s.games, "interval": [lo, hi],
                     "mean_multiplier": statistics.fmean(mults), "bombs_per_game": s.bombs / s.games}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=400, help="20-card hands of parts 1 and 2")
    ap.add_argument("--copies", type=int, default=20, help="copies of a hand in one timed kernel call")
    ap.add_argument("--games", type=int, default=2000, help="heuristic games per self-play speed run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--deals", type=int, default=2000, help="hands per size for the lead counts")
    ap.add_argument("--stats-games", type=int, default=3000, help="games per preset for the win rates")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the text")
    args = ap.parse_args(argv)

    rng = random.Random(f"laizi-bench-{args.seed}")
    hands = [deal_hand(rng, 20) for _ in range(args.hands)]
    res = {"leads": leads_per_play(hands, args.copies), "decompose": decomposer(hands),
           "selfplay": selfplay_speed(args.games, args.repeats, args.seed),
           "lead_counts": lead_counts(args.deals), "games": game_figures(args.stats_games, args.seed)}
    if args.json:
        print(json.dumps(res))
        return 0
    print("1. leads of 20-card hands, laizi (wild rank drawn among the ranks held) vs the same cards classic")
    for k, r in res["leads"]["by_laizi"].items():
        print(f"  laizi held {k:>3}: {r['hands']:4d} hands, plays {r['plays_laizi']:.0f} vs {r['plays_classic']:.0f}, "
              f"{r['us_per_call_laizi']:.1f} vs {r['us_per_call_classic']:.2f} us a call, "
              f"{r['ns_per_play_laizi']:.1f} vs {r['ns_per_play_classic']:.1f} ns a play, "
              f"per-play ratio {r['per_play_ratio']:.2f}")
    print("2. min_plays_fresh on the same hands")
    for name, r in res["decompose"].items():
        print(f"  {name:8s} median {r['median_us']:.1f} us, p99 {r['p99_us']:.0f} us, max {r['max_us']:.0f} us")
    print("3. heuristic self-play, games per CPU second, one core")
    for name, r in res["selfplay"].items():
        print(f"  {name:8s} {r['games_per_cpu_s']:,.0f}")
    print("4. lead counts by laizi held (median / p90)")
    for key, rows in res["lead_counts"].items():
        print(f"  {key}: " + ", ".join(f"{n}: {r['median']:.0f} / {r['p90']:.0f} ({r['hands']})"
                                      for n, r in rows.items()))
    print("   landlord self-play figures (heuristic, same seeds)")
    for name, r in res["games"].items():
        print(f"  {name:8s} {r['games']} games: landlord wins {100 * r['landlord_win_rate']:.1f}% "
              f"[{100 * r['interval'][0]:.1f}, {100 * r['interval'][1]:.1f}], mean multiplier "
              f"{r['mean_multiplier']:.2f}, bombs a game {r['bombs_per_game']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
