"""The heuristic's doubling and show thresholds (Happy Dou Dizhu) derived from
the evaluators: which threshold on the policy's hand-strength score agrees best
with ``evaluate_double`` and ``evaluate_show`` on seeded self-play situations
(writes its tables to stdout).

Run:  .venv/bin/python benchmarks/stage_thresholds.py [--games 300] [--seed 1] [--samples 400]
          [--rows rows.json] [--reuse]

The study
---------
Game ``d`` is game ``d`` of ``ddz_tools.engines.selfplay.simulate(games, "heuristic",
seed, rules="happy")``; games without a landlord are skipped.  Each game gives
four situations, each seat's cards as the policy decided with them:

* ``farmer``: the two farmers' doubles (17 cards; the bottom, the base and the
  real doubles of the seats before, as in ``benchmarks/double_validation.py``);
* ``landlord``: the landlord's double (20 cards, after both farmers');
* ``show``: the landlord's show at his first play (20 cards, the bottom, the
  base, the three real doubles, the farmers' earlier shows).

Each is evaluated by :func:`ddz_tools.analysis.bid.evaluate_double` or
:func:`~ddz_tools.analysis.bid.evaluate_show` (heuristic policy, up to ``--samples``
samples, seeded by the game and the situation, one worker), and scored by
:func:`ddz_tools.engines.policies.strength`.  For each decision the threshold ``t``
(the policy acts when ``strength >= t``) that agrees with the most
recommendations is chosen; among equally good ones the nearest to today's
constant (then the higher).  The landlord's two thresholds (x2 from ``T2``, x4
from ``T4``, ``T2 <= T4``) are chosen together on the three-way choice.  A
farmer's double is "double" when the evaluator recommends x2 or x4 (the
policy's farmer never doubles x4).

What "derived from the evaluator" means here: the evaluator plays the other
seats' doubles, the landlord's show and every card by the policy itself (with
today's thresholds), so the thresholds are the ones that best imitate a
risk-neutral player who looks ahead with the policy, one step of a fixed-point
iteration; the show is priced by its multiple only (the policies never read a
shown hand).

``--rows FILE`` writes the per-situation rows (JSON) and ``--reuse`` reads
them back instead of evaluating, to derive again without the evaluations.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.analysis.bid import evaluate_double, evaluate_show  # noqa: E402
from ddz_tools.core.cards import format_cards, parse_cards  # noqa: E402
from ddz_tools.engines.policies import (  # noqa: E402
    DOUBLE_FARMER_T2, DOUBLE_LANDLORD_T2, DOUBLE_LANDLORD_T4, SHOW_T, strength,
)
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402

RULES = Rules.parse("happy")
ORDER = (1, 2, 0)   # relative to the landlord: the farmer on his left, the other farmer, the landlord


def situations(rec: dict) -> list[dict]:
    """The four decisions of a game: both farmers' doubles, the landlord's, his first-play show."""
    landlord, bottom, base = rec["landlord"], rec["deal"]["bottom"], rec["result"]["base"]
    doubles = [rec["doubles"][(landlord + r) % 3] for r in ORDER]
    out = []
    for place, rel in enumerate(ORDER):
        seat = (landlord + rel) % 3
        hand = parse_cards(rec["deal"]["hands"][seat]) + (parse_cards(bottom) if rel == 0 else 0)
        out.append({"kind": "landlord" if rel == 0 else "farmer", "place": place, "hand": format_cards(hand),
                    "bottom": bottom, "base": base, "before": doubles[:place], "made": doubles[place]})
    shown = [s["stage"] for s in rec.get("show") or [] if s["stage"] != "first-play"]
    made = any(s["stage"] == "first-play" for s in rec.get("show") or [])
    ll = out[2]
    out.append({"kind": "show", "hand": ll["hand"], "bottom": bottom, "base": base, "before": doubles,
                "shown": shown, "made": int(made)})
    return out


def evaluate(sit: dict, samples: int, seed: int) -> dict:
    """The evaluator's verdict on one situation, with the hand's strength."""
    row = dict(sit, strength=strength(sit["hand"], RULES))
    if sit["kind"] == "show":
        ev = evaluate_show(sit["hand"], "first-play", before=sit["before"], bottom=sit["bottom"], base=sit["base"],
                           shown=sit["shown"], samples=samples, seed=seed, workers=1, rules=RULES)
        row["best"] = int(ev.recommendation == "show")
    else:
        ev = evaluate_double(sit["hand"], sit["bottom"], sit["place"], sit["before"], sit["base"],
                             samples=samples, seed=seed, workers=1, rules=RULES)
        row["best"] = int(ev.recommendation[1:])
    row["expected"] = {k: round(v, 4) for k, v in ev.expected_score.items() if v is not None}
    row["margin"], row["samples"] = round(ev.margin, 4), ev.samples
    return row


def pick(candidates: list, agree, today) -> tuple:
    """The candidate of highest agreement; ties to the nearest to ``today``, then the higher."""
    def dist(c):
        return sum(abs(a - b) for a, b in zip(c, today)) if isinstance(c, tuple) else abs(c - today)

    return max(candidates, key=lambda c: (agree(c), -dist(c), c))


def binary(rows: list, today: int) -> dict:
    """The threshold on strength agreeing best with ``best`` (1: act), and the figures."""
    xs = [(r["strength"], r["yes"]) for r in rows]
    lo, hi = min(s for s, _ in xs), max(s for s, _ in xs)

    def agree(t):
        return sum((s >= t) == bool(y) for s, y in xs) / len(xs)

    # Beyond the strengths seen, every threshold agrees alike: today's stays then.
    t = pick(list(range(min(lo, today), max(hi + 1, today) + 1)), agree, today)
    return {"n": len(xs), "yes": sum(y for _, y in xs), "derived": t, "agree": agree(t),
            "today": today, "agree_today": agree(today),
            "acts_derived": sum(s >= t for s, _ in xs), "acts_today": sum(s >= today for s, _ in xs)}


def landlord_pair(rows: list, today: tuple) -> dict:
    """``(T2, T4)`` agreeing best with the evaluator's factor (1, 2 or 4)."""
    xs = [(r["strength"], r["best"]) for r in rows]
    lo, hi = min(s for s, _ in xs), max(s for s, _ in xs)

    def factor(s, t2, t4):
        return 4 if s >= t4 else 2 if s >= t2 else 1

    def agree(c):
        return sum(factor(s, *c) == f for s, f in xs) / len(xs)

    span = range(min(lo, *today), max(hi + 1, *today) + 1)
    cands = [(a, b) for a in span for b in span if a <= b]
    c = pick(cands, agree, today)
    return {"n": len(xs), "best": dict(Counter(f for _, f in xs)), "derived": c, "agree": agree(c),
            "today": today, "agree_today": agree(today)}


def by_strength(rows: list, key=lambda r: r["yes"]) -> list:
    """Per strength: situations and those the evaluator says act on."""
    n, y = Counter(), Counter()
    for r in rows:
        n[r["strength"]] += 1
        y[r["strength"]] += key(r)
    return [(s, n[s], y[s]) for s in sorted(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--rows", default=None, help="write (or with --reuse read) the per-situation rows here")
    ap.add_argument("--reuse", action="store_true")
    args = ap.parse_args()

    t0 = time.perf_counter()
    if args.reuse:
        with open(args.rows, encoding="utf-8") as f:
            rows = json.load(f)
    else:
        rows = []
        for d, rec in enumerate(simulate(args.games, "heuristic", seed=args.seed, rules=RULES, workers=1)):
            if rec.get("landlord") is None or rec.get("result") is None:
                continue
            for k, sit in enumerate(situations(rec)):
                rows.append(dict(evaluate(sit, args.samples, 4 * d + k), game=d))
            print(f"\rgame {d + 1}/{args.games}, {time.perf_counter() - t0:.0f} s", end="", file=sys.stderr)
        print(file=sys.stderr)
        if args.rows:
            with open(args.rows, "w", encoding="utf-8") as f:
                json.dump(rows, f)
    elapsed = time.perf_counter() - t0
    for r in rows:
        r["yes"] = int(r["best"] > 1) if r["kind"] != "show" else r["best"]
    kinds = {k: [r for r in rows if r["kind"] == k] for k in ("farmer", "landlord", "show")}
    games = len({r["game"] for r in rows})
    print(f"# Heuristic thresholds against the evaluators: {games} games of happy self-play, seed {args.seed}, "
          f"up to {args.samples} samples a decision, {elapsed:.0f} s")
    print()
    farmer = binary(kinds["farmer"], DOUBLE_FARMER_T2)
    ll_any = binary(kinds["landlord"], DOUBLE_LANDLORD_T2)
    ll = landlord_pair(kinds["landlord"], (DOUBLE_LANDLORD_T2, DOUBLE_LANDLORD_T4))
    show = binary(kinds["show"], SHOW_T)
    print("| decision | situations | evaluator acts | today | agreement today | derived | agreement derived |")
    print("|---|---|---|---|---|---|---|")
    for name, b in (("farmer doubles (x2 or x4)", farmer), ("landlord doubles (x2 or x4)", ll_any),
                    ("landlord shows at his first play", show)):
        print(f"| {name} | {b['n']} | {b['yes']} | {b['today']} ({b['acts_today']} act) | {b['agree_today']:.1%} "
              f"| {b['derived']} ({b['acts_derived']} act) | {b['agree']:.1%} |")
    print(f"| landlord x1/x2/x4 (T2, T4) | {ll['n']} | {ll['best']} | {ll['today']} | {ll['agree_today']:.1%} "
          f"| {ll['derived']} | {ll['agree']:.1%} |")
    print()
    print("Per strength, situations and how many the evaluator would act on (double, or show):")
    print()
    for name, rs in kinds.items():
        print(f"- {name}: " + ", ".join(f"{s}: {y}/{n}" for s, n, y in by_strength(rs)))
    print()
    print("Policy constants from the derivation:")
    print(f"DOUBLE_FARMER_T2 = {farmer['derived']}; DOUBLE_LANDLORD_T2, DOUBLE_LANDLORD_T4 = {ll['derived']}; "
          f"(landlord doubles at all from {ll_any['derived']}); SHOW_T = {show['derived']}")


if __name__ == "__main__":
    main()
