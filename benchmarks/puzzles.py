"""Puzzle search speed: positions scanned, puzzles found, positions a second and puzzles a minute.

Runs :func:`ddz_tools.analysis.puzzles.collection.find_puzzles` over ``--games`` seeded
self-play games (heuristic policy) of each rule set of ``--rules`` with the defaults of
``ddz puzzles find`` (every hand at most 12 cards, 30 together, 20,000 solver nodes per
solve), on ``--workers`` processes (default 2), and prints one row per rule set and their
total: units (games, and the two-player duels inside them), positions scanned, positions
solved (past the cheap filters), positions over the node limit, puzzles found, positions a
second and puzzles a minute (wall clock, simulation of the games included).

    python benchmarks/puzzles.py --games 500 --rules standard,laizi,four
"""

from __future__ import annotations

import argparse
import time

from tabulate import tabulate

from ddz_tools.analysis.puzzles import FindOptions, ScanStats
from ddz_tools.analysis.puzzles.collection import find_puzzles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--rules", default="standard,laizi,four")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    # Load every kernel once before the clock starts.
    for spec in args.rules.split(","):
        list(find_puzzles(games=1, rules=spec, seed=args.seed))
    rows, total, secs = [], ScanStats(), 0.0
    for spec in args.rules.split(","):
        stats = ScanStats()
        t0 = time.perf_counter()
        for _, _, st in find_puzzles(games=args.games, rules=spec, seed=args.seed, opts=FindOptions(),
                                     workers=args.workers):
            stats.add(st)
        dt = time.perf_counter() - t0
        total.add(stats)
        secs += dt
        rows.append(_row(spec, args.games, stats, dt))
    rows.append(_row("all", args.games * len(rows), total, secs))
    print(tabulate(rows, headers=["rules", "games", "positions", "solved", "over limit", "puzzles",
                                  "positions/s", "puzzles/min", "seconds"]))


def _row(name, games, s: ScanStats, dt: float) -> tuple:
    return (name, games, s.positions, s.screened, s.over_budget, s.puzzles, round(s.positions / dt),
            round(60 * s.puzzles / dt, 1), round(dt, 1))


if __name__ == "__main__":
    main()
