"""Benchmark of the endgame solver (``ddz_tools.engines.solver``).

Sets (seeded, reproducible):

* two-player random deals, N cards each (me leads), N = 10, 13, 15, 17;
* three-player random positions, N cards per seat (landlord leads), N = 5..10,
  and 11 and 12 when named in ``--sets`` (minutes a set);
* ``p3-deal``: whole deals (landlord 20 cards, the bottom included, farmers
  17 each, landlord leads), ``--deals`` of them (default 50);
* under the four-player rules (``--rules four``, two decks), also ``p4-N``:
  the landlord and three farmers, N cards each from two seeded decks
  (landlord leads), N = 3..8, and 10 when named in ``--sets``;
* ``level50``: the WeChat expert level 50 (me ``448999TJJQQAD`` against
  ``336688TAA22X``, me to lead; a win), repeated;
* the 13-against-12 expert puzzle of ``data/puzzles.jsonl`` (repeated);
* small two-player deals (4, 5, 6 and 8 cards each) also solved by the peer
  ``doudizhu-resolver`` (PyPI, pure Python, two-player only) in the same run,
  each in a child process killed after ``--peer-timeout`` seconds.

Rules: ``--rules SPEC`` solves every set under that rule set (the deals are
the same for any rules: the seeds do not depend on them).  Under the Laizi
presets (``laizi``, ``tiandi``) the deal's wild rank(s) are ``--wild`` (e.g.
``9``, ``5,9``), or by default drawn for each deal from its seed among the
ranks its hands hold, so that every deal has laizi in hand (the peer sets
are classic only and are left out).

Every position is solved from an empty table (``Solver.clear()``), value only
(no principal line), after a warm-up that loads the compiled kernels.  Printed
per set: solved / unknown (past ``--time-limit``), median, p95 and max seconds,
nodes per second (total nodes / total time); for the peer, its median, its
timeouts, the ratio of medians on the positions both finished, and how often
the two answers agree (the peer's rules differ from ours in places, so a
disagreement is reported, not asserted).

    $ .venv/bin/python benchmarks/solve.py                 # everything
    $ .venv/bin/python benchmarks/solve.py --quick         # fewer deals
    $ .venv/bin/python benchmarks/solve.py --sets p2-17 --count 40
    $ .venv/bin/python benchmarks/solve.py --sets p2-17 --time-limit 20 --each   # nodes per deal
    $ .venv/bin/python benchmarks/solve.py --sets p3-10 --count 40 --no-cover     # without the cover rule
    $ .venv/bin/python benchmarks/solve.py --sets p3-12 --count 20 --no-threat    # without the threat rule
    $ .venv/bin/python benchmarks/solve.py --sets p2-17 --count 40 --no-out-now   # moves settled at the parent
    $ .venv/bin/python benchmarks/solve.py --sets p3-deal --no-threat-ahead       # threat rule at the child only
    $ .venv/bin/python benchmarks/solve.py --sets p2-10,p3-6 --count 30 --rules laizi       # a random wild rank a deal
    $ .venv/bin/python benchmarks/solve.py --sets p2-10 --rules tiandi --wild 5,9 --json    # fixed wild ranks
    $ .venv/bin/python benchmarks/solve.py --rules four --sets p4-3,p4-4,p4-5,p4-6,p4-7,p4-8,p4-10 --count 40
    $ .venv/bin/python benchmarks/solve.py --rules four --sets p4-8,p4-10 --count 40 --relax-mode 0 --no-dominance
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import pathlib
import random
import statistics
import sys
import time

from tabulate import tabulate

from ddz_tools.core.cards import FULL_DECK, RANKS, counts_of, pack_counts
from ddz_tools.engines.position import Position
from ddz_tools.core.rules import Rules
from ddz_tools.engines.solver import Solver

ROOT = pathlib.Path(__file__).resolve().parent.parent
_RANK_STR = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
_SUITS = "shdc"


def deal(seed: str, sizes, decks: int = 1) -> list[int]:
    """Packed hands of the given sizes from a seeded shuffle of the deck (of
    ``decks`` decks)."""
    deck = [r for r, c in enumerate(counts_of(decks * FULL_DECK)) for _ in range(c)]
    random.Random(seed).shuffle(deck)
    out, pos = [], 0
    for n in sizes:
        counts = [0] * 15
        for r in deck[pos:pos + n]:
            counts[r] += 1
        out.append(pack_counts(counts))
        pos += n
    return out


def deal_rules(spec: str, wild: "str | None", seed: str, hands) -> Rules:
    """The rules a deal is solved under: ``spec``, with the wild rank(s)
    ``wild`` under a Laizi preset, or when ``wild`` is None ranks drawn from
    the deal's seed among those its hands hold (every deal has laizi in
    hand)."""
    rules = Rules.parse(spec)
    if not rules.is_laizi:
        return rules
    if wild is not None:
        return rules.with_wild(wild)
    held = sorted({r for h in hands for r, c in enumerate(counts_of(h)[:13]) if c})
    ranks = random.Random(f"{seed}-wild").sample(held, rules.wild_ranks)
    return rules.with_wild(",".join(RANKS[r] for r in ranks))


def resolver_text(packed: int, used: dict) -> str:
    """doudizhu-resolver's card string ('As-Ac-9c', jokers BJ small, CJ big)."""
    cards = []
    for r, c in enumerate(counts_of(packed)):
        for _ in range(c):
            if r == 13:
                cards.append("BJ")
            elif r == 14:
                cards.append("CJ")
            else:
                k = used.get(r, 0)
                used[r] = k + 1
                cards.append(_RANK_STR[r] + _SUITS[k])
    return "-".join(cards)


def _peer_worker(me: str, opp: str, conn) -> None:
    import doudizhu_resolver
    doudizhu_resolver.clear_cache()
    sys.setrecursionlimit(100000)
    t = time.perf_counter()
    v = doudizhu_resolver.is_winable(me, opp)
    conn.send((bool(v), time.perf_counter() - t))


def run_peer(me: int, opp: int, timeout: float):
    """(win?, seconds) from doudizhu-resolver, or (None, None) on a timeout."""
    used: dict = {}
    a, b = resolver_text(me, used), resolver_text(opp, used)
    parent, child = mp.Pipe(duplex=False)
    proc = mp.Process(target=_peer_worker, args=(a, b, child), daemon=True)
    proc.start()
    try:
        if parent.poll(timeout):
            return parent.recv()
        return None, None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def bench_set(solver: Solver, name: str, positions, time_limit: float, peer_timeout: "float | None",
              each: bool = False):
    times, nodes, unknown, node_counts = [], 0, 0, []
    rows_peer = []
    for i, p in enumerate(positions):
        solver.clear()
        r = solver.solve(p, line=False, time_limit=time_limit)
        if each:
            # A whole deal by its seed's number (the set may start past 0).
            num = p.id.rsplit("-", 1)[1] if p.id else i
            wild = f" wild {p.rules.wild_text()}" if p.rules.is_laizi else ""
            print(f"{name} {num}: {r.result} {r.nodes} nodes {r.seconds:.3f} s{wild}", file=sys.stderr, flush=True)
        times.append(r.seconds)
        nodes += r.nodes
        node_counts.append(r.nodes)
        if r.result == "unknown":
            unknown += 1
        if peer_timeout:
            win, secs = run_peer(p.packed("me"), p.packed("opponent"), peer_timeout)
            rows_peer.append((r, win, secs))
    row = {
        "set": name, "positions": len(times), "unknown": unknown,
        "median_s": statistics.median(times), "p95_s": p95(times), "max_s": max(times),
        "nodes_per_s": nodes / max(sum(times), 1e-9),
        "median_nodes": int(statistics.median(node_counts)), "p95_nodes": p95(node_counts),
        "nodes": nodes, "rules": positions[0].rules.describe() if positions else None,
    }
    if peer_timeout:
        done = [(r, w, s) for r, w, s in rows_peer if s is not None and r.result != "unknown"]
        row["peer_timeouts"] = sum(1 for _, _, s in rows_peer if s is None)
        if done:
            ours = statistics.median(r.seconds for r, _, _ in done)
            theirs = statistics.median(s for _, _, s in done)
            row["peer_median_s"] = theirs
            row["ratio_peer_over_ours"] = theirs / max(ours, 1e-9)
            row["agree"] = f"{sum((r.result == 'win') == w for r, w, _ in done)}/{len(done)}"
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20, help="positions per set")
    ap.add_argument("--deals", type=int, default=50, help="whole deals in the p3-deal set")
    ap.add_argument("--first-deal", type=int, default=0,
                    help="seed number of the p3-deal set's first deal (to split the set between runs)")
    ap.add_argument("--peer-count", type=int, default=10, help="positions per set run through the peer")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per position for our solver")
    ap.add_argument("--peer-timeout", type=float, default=10.0, help="seconds per position for the peer")
    ap.add_argument("--tt-mb", type=float, default=512)
    ap.add_argument("--workers", type=int, default=1, help="threads per position (root plays split)")
    ap.add_argument("--no-cover", action="store_true",
                    help="leave the solver's cover rule out (Solver.cover = False), to measure what it gives")
    ap.add_argument("--no-threat", action="store_true",
                    help="leave the solver's threat rule out (Solver.threat = False), to measure what it gives")
    ap.add_argument("--no-threat-ahead", action="store_true",
                    help="leave out the threat rule one ply ahead at the landlord's nodes "
                         "(Solver.threat_ahead = False), to measure what it gives")
    ap.add_argument("--no-out-now", action="store_true",
                    help="leave out the solver's rule that settles a move at its parent when the seat to move "
                         "after it goes out at once (Solver.out_now = False), to measure what it gives")
    ap.add_argument("--relax-mode", type=int, default=None, choices=range(4),
                    help="four seats: which relaxations a node tries (Solver.relax_mode: 0 farmers alone, 1 pairs, "
                         "2 alone then pairs, the default, 3 pairs then alone)")
    ap.add_argument("--no-dominance", action="store_true",
                    help="search dominated plays too (Solver.dominance = False), to measure what leaving them out gives")
    ap.add_argument("--rules", default="standard",
                    help="rule set to solve every set under (a preset and overrides, as ddz solve --rules)")
    ap.add_argument("--wild", default=None,
                    help="under laizi/tiandi: the wild rank(s) of every deal (e.g. 9, or 5,9); "
                         "default: drawn per deal from its seed among the ranks its hands hold")
    ap.add_argument("--quick", action="store_true", help="5 positions per set")
    ap.add_argument("--sets", default=None, help="comma-separated set names to run (default: all)")
    ap.add_argument("--json", action="store_true", help="one JSON object per set instead of a table")
    ap.add_argument("--each", action="store_true",
                    help="also print every position's result, nodes and seconds on stderr")
    args = ap.parse_args(argv)
    count = 5 if args.quick else args.count
    peer_count = min(count, args.peer_count)

    try:
        laizi = Rules.parse(args.rules).is_laizi
        if args.wild is not None:
            Rules.parse(args.rules).with_wild(args.wild)
    except Exception as exc:  # a bad spec or wild rank: say so, as the CLI would
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def two(seed, n, id=None):
        hands = deal(seed, (n, n))
        return Position.two_player(*hands, rules=deal_rules(args.rules, args.wild, seed, hands), id=id)

    def three(seed, sizes, id=None):
        hands = deal(seed, sizes)
        return Position.three_player(*hands, to_move="landlord", rules=deal_rules(args.rules, args.wild, seed, hands),
                                     id=id)

    def fixed(me, opp):
        hands = [Position.two_player(me, opp).packed(s) for s in ("me", "opponent")]
        return Position.two_player(me, opp, rules=deal_rules(args.rules, args.wild, me + opp, hands))

    sets = []
    four = Rules.parse(args.rules).is_four
    if four:
        for n in (3, 4, 5, 6, 7, 8, 10):
            sets.append((f"p4-{n}", [Position.four_player(*deal(f"p4-{n}-{i}", (n, n, n, n), 2), rules=args.rules)
                                     for i in range(count)], False))
    if not laizi and not four:
        for n in (4, 5, 6, 8):
            sets.append((f"p2-{n}-peer", [Position.two_player(*deal(f"p2-{n}-{i}", (n, n)), rules=args.rules)
                                          for i in range(peer_count)], True))
    for n in (10, 13, 15, 17):
        sets.append((f"p2-{n}", [two(f"p2-{n}-{i}", n) for i in range(count)], False))
    for n in range(5, 13):
        sets.append((f"p3-{n}", [three(f"p3-{n}-{i}", (n, n, n)) for i in range(count)], False))
    sets.append(("p3-deal", [three(f"p3-deal-{i}", (20, 17, 17), id=f"p3-deal-{i}")
                             for i in range(args.first_deal, args.first_deal + (5 if args.quick else args.deals))],
                 False))
    sets.append(("level50", [fixed("448999TJJQQAD", "336688TAA22X")] * 5, False))
    puzzles = {json.loads(ln)["id"]: Position.from_json(ln)
               for ln in (ROOT / "data" / "puzzles.jsonl").read_text().splitlines() if ln.strip()}
    expert = puzzles.get("p2-expert-13v12")
    if expert is not None and not laizi and args.rules == "standard":
        sets.append(("expert-13v12", [expert] * 5, False))
    if args.sets:
        wanted = set(args.sets.split(","))
        unknown = sorted(wanted - {s[0] for s in sets})
        if unknown:
            print(f"error: no set named {', '.join(unknown)} (sets: {', '.join(s[0] for s in sets)})",
                  file=sys.stderr)
            return 2
        sets = [s for s in sets if s[0] in wanted]
    else:
        sets = [s for s in sets if s[0] not in ("p3-11", "p3-12", "p4-10")]  # minutes a set: only when named

    solver = Solver(args.tt_mb, args.workers)
    solver.cover = not args.no_cover
    solver.threat = not args.no_threat
    solver.threat_ahead = not args.no_threat_ahead
    solver.out_now = not args.no_out_now
    solver.dominance = not args.no_dominance
    if args.relax_mode is not None:
        solver.relax_mode = args.relax_mode
    # Warm-up: load every compiled kernel once.
    solver.solve(Position.two_player("33JJQK2", "4455A"), all_plays=True)
    solver.solve(Position.three_player("3KK", "44", "A2", to_move="landlord"), all_plays=True)

    rows = []
    for name, positions, with_peer in sets:
        t = time.perf_counter()
        row = bench_set(solver, name, positions, args.time_limit, args.peer_timeout if with_peer else None,
                        args.each)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{name}: done in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    if not args.json:
        headers = ["set", "positions", "unknown", "median s", "p95 s", "max s", "nodes/s", "median nodes",
                   "peer median s", "peer timeouts", "peer/ours", "agree"]
        table = [[r["set"], r["positions"], r["unknown"], f"{r['median_s']:.4f}", f"{r['p95_s']:.3f}",
                  f"{r['max_s']:.3f}", f"{r['nodes_per_s']:,.0f}", f"{r['median_nodes']:,}",
                  f"{r['peer_median_s']:.3f}" if "peer_median_s" in r else "",
                  r.get("peer_timeouts", ""),
                  f"{r['ratio_peer_over_ours']:.0f}x" if "ratio_peer_over_ours" in r else "",
                  r.get("agree", "")] for r in rows]
        wild = (f", wild {args.wild}" if args.wild else ", wild drawn per deal") if laizi else ""
        print(f"rules {args.rules}{wild}; time limit {args.time_limit} s per position (ours), "
              f"{args.workers} worker(s), peer timeout {args.peer_timeout} s")
        print(tabulate(table, headers=headers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
