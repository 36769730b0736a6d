"""Whole-game review speed: ``ddz analyze --review`` / ``ddz report`` on heuristic self-play games.

Games are seeded self-play records (``ddz_tools.engines.selfplay.simulate``, heuristic
policy).  Figures:

* ``open, one core``: :func:`ddz_tools.analysis.review.review_record` in ``open`` mode
  on each game, one at a time in this process (run it under ``taskset -c 0``
  for one core): median, p90 and max seconds per game (wall and CPU), positions
  per game, the share of positions left unknown at the node budget, and
  mistakes found.  The first game is reviewed once before timing, so Numba's
  compile is not counted.
* ``open, N workers``: :func:`ddz_tools.analysis.analyze.analyze_files` with
  ``review="open"`` over the same games with ``--workers`` processes (default
  2): games per hour, wall clock, worker start-up included.
* ``hidden``: the same at the advisor's default budget on the first
  ``--hidden-games`` games (default 3: one advisor call per move is slow).
* ``report``: the time to write the pages of the reviewed games
  (:class:`ddz_tools.analysis.report.ReportWriter`: templates and SVG charts), per game.

No peer reviews Dou Dizhu games move by move with an exact solver, so there is
no ratio.  The machine is shared: CPU time is printed beside wall time.

    $ taskset -c 0 .venv/bin/python benchmarks/review.py                 # 20 games, 100,000 nodes
    $ .venv/bin/python benchmarks/review.py --games 40 --nodes 20000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from ddz_tools.analysis.analyze import analyze_files  # noqa: E402
from ddz_tools.engines.records import parse_record  # noqa: E402
from ddz_tools.analysis.review import REVIEW_NODE_LIMIT, review_record  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def one_core(recs, mode, nodes):
    review_record(recs[0], mode, node_limit=nodes)      # compile outside the timing
    wall, cpu, positions, unknown, flagged = [], [], 0, 0, 0
    for rec in recs:
        t0, c0 = time.perf_counter(), time.process_time()
        r = review_record(rec, mode, node_limit=nodes)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        positions += r.positions
        unknown += r.unknown
        flagged += sum(1 for m in r.moves if m.flag)
    return wall, cpu, positions, unknown, flagged


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=REVIEW_NODE_LIMIT, help="solver nodes per position")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hidden-games", type=int, default=3, help="games of the hidden review (it is slow)")
    ap.add_argument("--skip-parallel", action="store_true", help="no run with --workers processes")
    ap.add_argument("--only-parallel", action="store_true", help="only the run with --workers processes")
    args = ap.parse_args(argv)

    raw = list(simulate(args.games, "heuristic", seed=args.seed))
    recs = [parse_record(r) for r in raw]
    moves = [len(r.plays) for r in recs]
    print(f"{args.games} heuristic self-play games (seed {args.seed}), moves per game median "
          f"{statistics.median(moves):.0f} (min {min(moves)}, max {max(moves)}); budget {args.nodes:,} nodes "
          f"per position; machine shared, {os.cpu_count()} cores")

    if args.only_parallel:
        return parallel(raw, args)
    wall, cpu, positions, unknown, flagged = one_core(recs, "open", args.nodes)
    print(f"open, one process: median {statistics.median(wall):.2f} s/game wall "
          f"({statistics.median(cpu):.2f} s CPU), p90 {pct(wall, 0.9):.2f} s, max {max(wall):.2f} s; "
          f"{positions / len(recs):.1f} positions/game, {100 * unknown / max(positions, 1):.1f}% unknown, "
          f"{flagged} mistakes in {len(recs)} games")

    try:
        import ddz_tools.analysis.advise  # noqa: F401
        have_advisor = True
    except ImportError:
        have_advisor = False
    if have_advisor:
        try:
            some = recs[:args.hidden_games]
            hw, hc, _, _, hflag = one_core(some, "hidden", args.nodes)
            per_move = sum(hw) / sum(len(r.plays) for r in some)
            print(f"hidden (advisor defaults), one process, {len(some)} games: median {statistics.median(hw):.2f} "
                  f"s/game wall ({statistics.median(hc):.2f} s CPU), {per_move:.2f} s/move; {hflag} flagged moves")
        except Exception as exc:  # the advisor may not be wired up yet
            print(f"hidden: not measured ({exc})")
    else:
        print("hidden: not measured (no advisor in this version)")

    parallel(raw, args, workers=1 if args.skip_parallel else args.workers)


def parallel(raw, args, workers=None) -> None:
    """Games per hour with worker processes, then the time to write their report pages."""
    workers = workers or args.workers
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        with open(path, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in raw)
        t0 = time.perf_counter()
        res = list(analyze_files([path], solve_below=0, review="open", review_nodes=args.nodes, workers=workers))
        dt = time.perf_counter() - t0
        if workers > 1:
            print(f"open, {workers} workers: {len(res)} games in {dt:.1f} s = {3600 * len(res) / dt:,.0f} games/hour "
                  f"(worker start-up and compile-cache load included)")
        from ddz_tools.analysis.report import ReportWriter

        t0, c0 = time.perf_counter(), time.process_time()
        w = ReportWriter(os.path.join(tmp, "report"))
        for g in res:
            w.add(g)
        w.close()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        print(f"report pages: {1000 * dt / len(res):.0f} ms/game wall, {1000 * dc / len(res):.0f} ms CPU "
              f"(templates and SVG charts, index included)")


if __name__ == "__main__":
    main()
