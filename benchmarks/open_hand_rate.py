"""Open-hand landlord win rate over seeded whole deals, beside heuristic self-play.

For each game index ``i`` of the run seed, :func:`ddz_tools.engines.selfplay.simulate`
deals the cards, lets the heuristic bid rule choose the landlord (the bottom
goes to his hand) and plays the game out with the heuristic policy in every
seat.  The same deal, just after the auction, is then solved open-hand (every
hand visible, the landlord to lead): does the landlord win against perfect
defence, and do the farmers win against a perfect landlord?

Printed: the open-hand landlord win rate with its 95% Wilson interval (deals
the solver did not settle within ``--time-limit`` are left out, and the
interval with them counted as all wins / all losses is shown too), the
heuristic self-play landlord win rate on the same deals with its interval,
and how the two agree deal by deal.  Per-deal results go to ``--out``
(JSON Lines; a rerun with the same file skips the deals already there, and with
``--retry-unknown`` solves the deals it left unknown under a lower limit again under
the new one, so a run can be refined in stages, and a stage stopped part way resumes:
each row says the limit it was solved under).

    $ .venv/bin/python benchmarks/open_hand_rate.py --deals 1000 --seed 1 --time-limit 60 \\
          --processes 2 --out out/open_hand_rate.jsonl
    $ .venv/bin/python benchmarks/open_hand_rate.py --deals 1000 --seed 1 --time-limit 15 \\
          --processes 2 --out out/open_hand_rate.jsonl --retry-unknown
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time

from ddz_tools.engines.position import from_record
from ddz_tools.engines.records import parse_record
from ddz_tools.engines.selfplay import simulate
from ddz_tools.engines.solver import Solver

from _rows import read_rows  # beside this script


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


_SOLVER = None


def _solve_one(args):
    rec, time_limit, tt_mb = args
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver(tt_mb)
    pos = from_record(parse_record(rec), 1)
    _SOLVER.clear()
    r = _SOLVER.solve(pos, line=False, time_limit=time_limit)
    return {"id": rec["id"], "landlord_seat": rec["landlord"], "hands": pos.to_dict()["hands"],
            "open_hand": r.result, "selfplay": rec["result"]["winner"], "nodes": r.nodes,
            "seconds": round(r.seconds, 3), "time_limit": time_limit}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal for the solver")
    ap.add_argument("--tt-mb", type=float, default=1024)
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                    help="deals solved at once (one process each)")
    ap.add_argument("--out", default=None, help="per-deal JSON Lines (resumed when it exists)")
    ap.add_argument("--retry-unknown", action="store_true",
                    help="solve again, under --time-limit, the deals --out holds as unknown under a lower limit")
    args = ap.parse_args(argv)
    if args.retry_unknown and not args.out:
        ap.error("--retry-unknown needs --out")

    done = read_rows(args.out, "id")  # a retried deal's later row replaces its earlier one
    records = list(simulate(args.deals, "heuristic", seed=args.seed))
    todo = [r for r in records if r["id"] not in done
            or (args.retry_unknown and done[r["id"]]["open_hand"] == "unknown"
                and done[r["id"]].get("time_limit", 0) < args.time_limit)]
    out = open(args.out, "a") if args.out else None
    t0 = time.perf_counter()
    with mp.Pool(args.processes) as pool:
        for i, row in enumerate(pool.imap(_solve_one, [(r, args.time_limit, args.tt_mb / args.processes)
                                                       for r in todo]), 1):
            done[row["id"]] = row
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if i % 10 == 0 or i == len(todo):
                print(f"{i}/{len(todo)} solved, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    if out:
        out.close()

    rows = [done[r["id"]] for r in records]
    n = len(rows)
    win = sum(r["open_hand"] == "win" for r in rows)
    loss = sum(r["open_hand"] == "loss" for r in rows)
    unknown = n - win - loss
    sp = sum(r["selfplay"] == "landlord" for r in rows)
    lo, hi = wilson(win, win + loss)
    lo_all, _ = wilson(win, n)
    _, hi_all = wilson(win + unknown, n)
    slo, shi = wilson(sp, n)
    both = sum(r["open_hand"] == "win" and r["selfplay"] == "landlord" for r in rows)
    ow_sl = sum(r["open_hand"] == "win" and r["selfplay"] != "landlord" for r in rows)
    ol_sw = sum(r["open_hand"] == "loss" and r["selfplay"] == "landlord" for r in rows)
    secs = sorted(r["seconds"] for r in rows)
    limits = sorted({r.get("time_limit", args.time_limit) for r in rows})
    print(f"deals {n} (seed {args.seed}, heuristic bidding, standard rules), "
          f"solver limit {' / '.join(f'{x:g}' for x in limits)} s")
    print(f"open-hand landlord wins {win}, loses {loss}, unknown {unknown}")
    if win + loss:
        print(f"open-hand landlord win rate {win / (win + loss):.4f}  95% CI [{lo:.4f}, {hi:.4f}] "
              f"(settled deals; counting unknowns as losses/wins: [{lo_all:.4f}, {hi_all:.4f}])")
    print(f"heuristic self-play landlord win rate {sp / n:.4f}  95% CI [{slo:.4f}, {shi:.4f}]")
    print(f"same deal: open-hand win and self-play win {both}; open-hand win, self-play loss {ow_sl}; "
          f"open-hand loss, self-play win {ol_sw}")
    print(f"solver seconds per deal: median {secs[n // 2]:.3f}, p95 {secs[min(n - 1, round(0.95 * (n - 1)))]:.3f}, "
          f"max {secs[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
