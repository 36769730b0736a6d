"""The advisor's strength and speed (issue 12).

Strength: on seeded deals (game ``i`` of a run is the deal of ``ddz simulate --seed S`` game
``i``, bid by the heuristic bid rule), each deal is played three times with the same landlord:
heuristic in every seat (the baseline), the advisor as landlord against heuristic farmers, and
the advisor in both farmer seats against a heuristic landlord.  For each role it prints the
win rates of the baseline and of the advisor in that role with Wilson 95% intervals and the
paired difference (advisor minus heuristic, same deals) with a normal 95% interval.

Speed: the median decision time of ``advise`` at the default budget on views taken from
heuristic self-play games: positions where every hand holds at most 10 cards, and the first
decision of a farmer (whole hands); with the distribution and the share of exact answers.

    python benchmarks/advise.py strength --deals 500 --samples 32 --procs 2 --out out/adv.jsonl
    python benchmarks/advise.py rlcard --deals 200 --samples 32 --out out/adv_rl.jsonl
    python benchmarks/advise.py speed --views 40 --workers 2

``rlcard`` plays each deal four times against RLCard's rule agent (``DouDizhuRuleAgentV1``,
installed with ``pip install --no-deps rlcard``; its random choices seeded per deal): the
heuristic and the advisor as landlord against rule-agent farmers, and the heuristic and the
advisor as both farmers against a rule-agent landlord.

Strength runs are resumable: each finished deal is one JSON line of ``--out``; a rerun skips
the deals already there and the summary is computed from the whole file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.analysis.advise import AdvisorOptions, advise, play_game, view_from_record  # noqa: E402
from ddz_tools.analysis.bid import mean_interval, wilson_interval  # noqa: E402
from ddz_tools.core.cards import card_count  # noqa: E402
from ddz_tools.engines.records import parse_record  # noqa: E402

from _rows import read_rows  # noqa: E402  (beside this script)


def _set_tie_playouts(on: bool) -> None:
    from ddz_tools.analysis.advise import scoring

    scoring.TIE_PLAYOUTS = on


def _one_deal(args) -> dict:
    i, seed, opts, roles, tie_playouts = args
    _set_tie_playouts(tie_playouts)
    out = {"deal": i}
    stats: dict = {}
    t0 = time.perf_counter()
    base = play_game(i, seed)
    out["landlord_seat"] = base["landlord"]
    out["heuristic_landlord_won"] = base["result"]["winner"] == "landlord"
    if "landlord" in roles:
        ll = play_game(i, seed, landlord_policy="advisor", options=opts, stats=stats)
        out["advisor_landlord_won"] = ll["result"]["winner"] == "landlord"
    if "farmers" in roles:
        fa = play_game(i, seed, farmer_policy="advisor", options=opts, stats=stats)
        out["advisor_farmers_won"] = fa["result"]["winner"] == "farmers"
    out["decisions"] = stats.get("decisions", 0)
    out["advisor_seconds"] = round(stats.get("seconds", 0.0), 3)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


class _RuleAgent:
    """RLCard's rule agent as a player of our games (its view: its hand, the trace of moves)."""

    def __init__(self):
        from ddz_tools.agents import import_rlcard

        import_rlcard()   # with a stand-in termcolor when that is missing
        from rlcard.games.doudizhu.utils import CARD_TYPE
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self.card_type = CARD_TYPE[0]
        self.agent = DouDizhuRuleAgentV1()

    @staticmethod
    def _rl(cards: int) -> str:
        from ddz_tools.core.cards import format_cards

        return format_cards(cards).replace("X", "B").replace("D", "R")

    def __call__(self, g, seat):
        from ddz_tools.core.cards import parse_cards
        from ddz_tools.moves.movegen import generate
        from ddz_tools.core.rules import Play

        legal = list(generate(g.hands[seat], g.last_play, g.rules))
        actions, seen = [], set()
        for p in legal:
            t = self._rl(p.cards)
            if t not in seen and t in self.card_type:
                seen.add(t)
                actions.append(t)
        if g.last_play is not None:
            actions.append("pass")
        trace = [(t, "pass" if p.is_pass else self._rl(p.cards)) for t, p in g.plays]
        a = self.agent.step({"raw_obs": {"trace": trace, "current_hand": self._rl(g.hands[seat]),
                                         "actions": actions, "landlord": g.landlord, "self": seat}})
        if a == "pass":
            return Play.pass_()
        cards = parse_cards(a)
        return next(p for p in legal if p.cards == cards)


def _one_deal_rl(args) -> dict:
    i, seed, opts, roles, tie_playouts = args
    _set_tie_playouts(tie_playouts)
    rule = _RuleAgent()
    agents = {"rlcard-rule": rule}
    out = {"deal": i}
    stats: dict = {}
    for key, lp, fp, side in (("heuristic_landlord_won", "heuristic", "rlcard-rule", "landlord"),
                              ("advisor_landlord_won", "advisor", "rlcard-rule", "landlord"),
                              ("heuristic_farmers_won", "rlcard-rule", "heuristic", "farmers"),
                              ("advisor_farmers_won", "rlcard-rule", "advisor", "farmers")):
        if side not in roles:
            continue
        np.random.seed((seed * 1_000_003 + i) % (2 ** 32))
        rec = play_game(i, seed, lp, fp, options=opts, stats=stats, agents=agents)
        out[key] = rec["result"]["winner"] == side
    out["decisions"] = stats.get("decisions", 0)
    out["advisor_seconds"] = round(stats.get("seconds", 0.0), 3)
    return out


def _summary(rows: list, label: str, rl: bool) -> None:
    n = len(rows)
    print(f"{label}: {n} deals")
    print(f"{'role':10s} {'heuristic win':>24s} {'advisor win':>24s} {'paired difference':>28s}")
    for role, key_h, key_a, flip in (("landlord", "heuristic_landlord_won", "advisor_landlord_won", False),
                                     ("farmers", "heuristic_farmers_won" if rl else "heuristic_landlord_won",
                                      "advisor_farmers_won", not rl)):
        if not rows or key_a not in rows[0]:
            continue
        h = np.array([(1 - r[key_h]) if flip else r[key_h] for r in rows], np.int64)
        a = np.array([r[key_a] for r in rows], np.int64)
        hl, hh = wilson_interval(int(h.sum()), n)
        al, ah = wilson_interval(int(a.sum()), n)
        d, dl, dh = mean_interval(a - h)
        print(f"{role:10s} {h.mean():7.1%} [{hl:5.1%}, {hh:5.1%}]   {a.mean():7.1%} [{al:5.1%}, {ah:5.1%}]   "
              f"{100 * d:+6.1f} pts [{100 * dl:+5.1f}, {100 * dh:+5.1f}]")
    dec = sum(r["decisions"] for r in rows)
    secs = sum(r["advisor_seconds"] for r in rows)
    print(f"advisor decisions: {dec}, {secs / max(dec, 1):.3f} s each on average")


def strength(args) -> None:
    opts = AdvisorOptions(samples=args.samples, nodes=args.nodes, exact_cards=args.exact_cards, workers=1,
                          auction=not args.no_auction, objective=args.objective)
    done = read_rows(args.out, "deal")
    args.roles = ("landlord", "farmers") if args.roles == "both" else (args.roles,)
    todo = [i for i in range(args.start, args.start + args.deals) if i not in done]
    print(f"strength: deals {args.start}..{args.start + args.deals - 1} seed {args.seed}, "
          f"advisor samples={opts.samples} nodes={opts.nodes} exact_cards={opts.exact_cards} auction={opts.auction} "
          f"objective={opts.objective} tie_playouts={not args.no_tie_playouts}; "
          f"{len(done)} done before, {len(todo)} to play, {args.procs} process(es)",
          file=sys.stderr)
    out = open(args.out, "a") if args.out else None
    t0 = time.perf_counter()
    fn = _one_deal_rl if args.what == "rlcard" else _one_deal
    with ProcessPoolExecutor(max_workers=args.procs) as pool:
        for k, r in enumerate(pool.map(fn, [(i, args.seed, opts, args.roles, not args.no_tie_playouts) for i in todo], chunksize=1), 1):
            done[r["deal"]] = r
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
            if k % 10 == 0:
                print(f"  {k}/{len(todo)} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rows = [done[i] for i in range(args.start, args.start + args.deals) if i in done]
    others = "RLCard's rule agent in the other seats" if args.what == "rlcard" else "heuristic"
    _summary(rows, f"advisor (samples={opts.samples}, nodes={opts.nodes}, auction={opts.auction}) vs heuristic, same seats, "
                   f"against {others}; seed {args.seed}", args.what == "rlcard")


def _speed_views(n: int, seed: int):
    """Views of heuristic games: every hand <= 10 cards; a farmer's first decision; the first lead."""
    small, whole, lead = [], [], []
    i = 0
    while len(small) < n or len(whole) < n:
        rec = parse_record(play_game(i, seed))
        if len(lead) < n:
            lead.append(view_from_record(rec, 1))
        counts = [17, 17, 17]
        counts[rec.landlord] = 20
        got_small = got_whole = False
        for m, (s, text) in enumerate(rec.plays):
            farmer = s != rec.landlord
            if not got_whole and farmer and len(whole) < n:
                whole.append(view_from_record(rec, m + 1))
                got_whole = True
            if not got_small and max(counts) <= 10 and len(small) < n:
                v = view_from_record(rec, m + 1)
                if len(v.candidates()) > 1:
                    small.append(v)
                    got_small = True
            counts[s] -= card_count(parse_record_cards(text))
        i += 1
    return small, whole, lead


def parse_record_cards(text: str) -> int:
    from ddz_tools.core.rules import play_text_cards

    return 0 if text in ("", "pass") else play_text_cards(text)


def speed(args) -> None:
    small, whole, lead = _speed_views(args.views, args.seed)
    advise(small[0], workers=args.workers, inference=args.inference)  # load the kernels
    print(f"speed: default budget, {args.workers} worker(s), inference {'on' if args.inference else 'off'}; wall "
          f"seconds (the machine may be shared) and the process's CPU seconds")
    for label, views in (("every hand <= 10 cards", small), ("whole hands (a farmer's first play)", whole),
                         ("whole hands (the landlord's first lead)", lead)):
        wall, cpu, exact, solved, total, stopped = [], [], 0, 0, 0, 0
        for k, v in enumerate(views):
            c0 = time.process_time()
            a = advise(v, seed=k, workers=args.workers, inference=args.inference)
            cpu.append(time.process_time() - c0)
            wall.append(a.seconds)
            exact += a.exact
            stopped += a.stopped_early
            solved += a.candidates[0].solved
            total += a.samples
        for name, xs in (("wall", wall), ("cpu", cpu)):
            q = statistics.quantiles(xs, n=10)
            print(f"{label}, {name}: {len(views)} views, median {statistics.median(xs):.3f} s, "
                  f"p10 {q[0]:.3f} s, p90 {q[-1]:.3f} s, max {max(xs):.3f} s")
        print(f"{label}: exact {exact}/{len(views)}, stopped early {stopped}/{len(views)}, "
              f"deals solved {solved}/{total} ({solved / max(total, 1):.0%})")


def compare(args) -> None:
    """Two strength runs (two variants of the advisor) on their common deals, paired per role."""
    runs = []
    for path in (args.a, args.b):
        with open(path) as f:
            runs.append({r["deal"]: r for r in (json.loads(line) for line in f if line.strip())})
    common = sorted(set(runs[0]) & set(runs[1]))
    print(f"{args.b} minus {args.a}: {len(common)} common deals")
    for key in ("advisor_landlord_won", "advisor_farmers_won"):
        deals = [i for i in common if key in runs[0][i] and key in runs[1][i]]
        if not deals:
            continue
        a = np.array([runs[0][i][key] for i in deals], np.int64)
        b = np.array([runs[1][i][key] for i in deals], np.int64)
        d, dl, dh = mean_interval(b - a)
        print(f"{key}: {a.mean():.1%} -> {b.mean():.1%} on {len(deals)} deals, paired {100 * d:+.1f} pts "
              f"[{100 * dl:+.1f}, {100 * dh:+.1f}] ({int((b > a).sum())} deals gained, {int((b < a).sum())} lost)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    for name in ("strength", "rlcard"):
        s = sub.add_parser(name)
        _strength_args(s)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    p = sub.add_parser("speed")
    p.add_argument("--views", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--inference", action="store_true", help="weigh the deals by the other seats' actions")
    args = ap.parse_args()
    {"speed": speed, "compare": compare}.get(args.what, strength)(args)


def _strength_args(s) -> None:
    s.add_argument("--deals", type=int, default=500)
    s.add_argument("--start", type=int, default=0)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--samples", type=int, default=32)
    s.add_argument("--nodes", type=int, default=3000)
    s.add_argument("--no-auction", action="store_true", help="the advisor ignores the bids when drawing deals")
    s.add_argument("--no-tie-playouts", action="store_true",
                   help="no playouts to break ties between candidates on solved deals (TIE_PLAYOUTS off)")
    s.add_argument("--exact-cards", type=int, default=24)
    s.add_argument("--objective", choices=("win", "score"), default="win", help="the advisor's objective")
    s.add_argument("--procs", type=int, default=2)
    s.add_argument("--out", default=None)
    s.add_argument("--roles", choices=("both", "landlord", "farmers"), default="both",
                   help="the advisor's roles to play (both: as landlord and as the farmers)")


if __name__ == "__main__":
    main()
