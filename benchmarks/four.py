"""Four-player benchmark: two-deck hands beside three-player hands, in the same run.

Workloads, on seeded random deals (``--deals``, default 300 of each):

* lead enumeration of a 33-card landlord hand and a 25-card farmer hand (rules
  ``four``) beside a 20-card and a 17-card hand (rules ``standard``): time per
  call and per play (the goal: per play no dearer than three-player);
* the decomposer's fewest plays of the same hands, cold (a fresh memo a hand).

Each generation time is the best of three batch calls of ``--copies`` copies of
the hand (one kernel call, no Python in between), and the figures are medians
over the hands; the machine may be shared, so compare the ratios.

Self-play (``--selfplay``):

* speed: heuristic games per CPU second of one thread (``selfplay_stats``, one
  kernel call, ``workers=1``), ``four`` beside ``standard`` in the same run,
  median of ``--repeats`` runs on different seeds (wall-clock median beside
  it); the goal is 2,000 four-player games a second;
* where the time goes: the same games played twice through the game kernel
  with one memo table large enough to keep every entry, the first time cold
  (as self-play plays them) and then warm, when every exact decomposer search
  the policy asks for is a table look-up: the difference is the decomposer's
  search time;
* the stake under each ``bomb_doubles`` option: ``--stake-games`` heuristic games
  (``simulate``, the same seeds for each option) with the landlord's win rate
  (95% Wilson interval), the mean multiplier and the landlord's mean score
  (95% normal intervals), the stake bombs per game and the springs.

Usage: ``python benchmarks/four.py [--deals 300] [--copies 200] [--seed 1] [--json]``,
``python benchmarks/four.py --selfplay [--games 2000] [--repeats 3] [--stake-games 10000] [--workers 2]``
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

from ddz_tools.engines.kernels import min_plays_fresh
from laizi import batch_time  # noqa: E402  (beside this script: the leads of a hand, one batch call)
from ddz_tools.core.rules import Rules
from ddz_tools.engines.selfplay import new_game_arrays, selfplay_stats, simulate
from ddz_tools.engines.selfplay.kernel import _game, _game_seed
from ddz_tools.engines.stats import wilson_interval
from ddz_tools.variants import variant_of
from ddz_tools.engines.policies import BUFFER, new_table


def deal(rng: random.Random, decks: int, size: int) -> int:
    deck = [r for r in range(13) for _ in range(4 * decks)] + [13, 14] * decks
    hand = 0
    for r in rng.sample(deck, size):
        hand += 1 << (4 * r)
    return hand


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


# Self-play -------------------------------------------------------------------------------


def selfplay_speed(games: dict, repeats: int, seed: int) -> list:
    """Heuristic games a CPU second (and a wall second) of one thread, per rule set."""
    out = []
    for spec, n in games.items():
        selfplay_stats(4, "heuristic", seed=12345, rules=spec, workers=1)   # load the kernels
        cpu, wall, moves = [], [], 0
        for rep in range(repeats):
            t0, w0 = time.process_time(), time.perf_counter()
            st = selfplay_stats(n, "heuristic", seed=seed + rep, rules=spec, workers=1)
            cpu.append(n / (time.process_time() - t0))
            wall.append(n / (time.perf_counter() - w0))
            moves += st.moves
        out.append({"rules": spec, "games": n, "repeats": repeats, "games_per_cpu_s": statistics.median(cpu),
                    "games_per_wall_s": statistics.median(wall), "moves_per_game": moves / (n * repeats)})
    return out


def decomposer_share(spec: str, games: int, seed: int, table_bits: int = 22) -> dict:
    """ms a game cold and warm: the same games twice through the game kernel with one
    memo table that keeps every entry (``table_bits`` slots, never 3/4 full here)."""
    rules = Rules.parse(spec)
    pols = np.full(rules.seats, 1, np.int64)
    deal, bids, _, info = new_game_arrays(rules)
    plays = np.empty((0, 3), np.int64)
    bufc, bufk = np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    params = variant_of(rules).params
    _game(1, pols, params, -1, 0, 0, deal, bids, plays, info, new_table(10), bufc, bufk)
    table = new_table(table_bits)
    times = []
    for _ in range(2):
        t = time.process_time()
        for i in range(games):
            _game(_game_seed(seed, i), pols, params, -1, 0, 0, deal, bids, plays, info, table, bufc, bufk)
        times.append(1e3 * (time.process_time() - t) / games)
    assert 4 * table[1] < 3 * ((table.shape[0] - 2) // 2), "the table filled up: raise table_bits"
    return {"rules": spec, "games": games, "cold_ms": times[0], "warm_ms": times[1],
            "search_share": (times[0] - times[1]) / times[0], "memo_entries_per_game": int(table[1]) / games}


def _mean_ci(values) -> tuple:
    v = np.asarray(values, np.float64)
    half = 1.96 * v.std(ddof=1) / math.sqrt(len(v))
    return float(v.mean()), float(v.mean() - half), float(v.mean() + half)


def stakes(games: int, seed: int, workers: int) -> list:
    """The landlord's win rate and the stake under each ``bomb_doubles`` option, on the same seeds."""
    out = []
    plays_of = {}
    for option in ("six-plus", "all", "ladder"):
        spec = f"four,bomb_doubles={option}"
        recs = list(simulate(games, "heuristic", seed=seed, rules=spec, workers=workers))
        plays_of[option] = [tuple((p["seat"], p["cards"]) for p in r["plays"]) for r in recs]
        wins = sum(r["result"]["winner"] == "landlord" for r in recs)
        lo, hi = wilson_interval(wins, games)
        mult = _mean_ci([r["result"]["multiplier"] for r in recs])
        score = _mean_ci([r["result"]["scores"][r["landlord"]] for r in recs])
        out.append({
            "rules": spec, "games": games, "landlord_win_rate": wins / games, "landlord_win_ci": [lo, hi],
            "mean_multiplier": mult[0], "mean_multiplier_ci": list(mult[1:]),
            "landlord_mean_score": score[0], "landlord_mean_score_ci": list(score[1:]),
            "stake_bombs_per_game": sum(r["result"]["bombs"] for r in recs) / games,
            "multiplier_above_1": sum(r["result"]["multiplier"] > 1 for r in recs) / games,
            "springs": sum(r["result"]["spring"] for r in recs),
            "anti_springs": sum(r["result"]["anti_spring"] for r in recs),
            "base_3": sum(r["result"]["base"] == 3 for r in recs) / games,
            "moves_per_game": sum(len(r["plays"]) for r in recs) / games,
        })
    same = sum(a == b == c for a, b, c in zip(plays_of["six-plus"], plays_of["all"], plays_of["ladder"]))
    for row in out:
        row["same_plays_as_other_options"] = same
    return out


def main_selfplay(args) -> None:
    out = {"speed": selfplay_speed({"standard": args.games, "four": max(args.games // 4, 100)}, args.repeats,
                                   args.seed),
           "decomposer": [decomposer_share("standard", 1000, args.seed), decomposer_share("four", 300, args.seed)],
           "stakes": stakes(args.stake_games, args.seed, args.workers) if args.stake_games else []}
    by = {r["rules"]: r for r in out["speed"]}
    out["four_vs_standard"] = by["four"]["games_per_cpu_s"] / by["standard"]["games_per_cpu_s"]
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(tabulate([(r["rules"], r["games"], r["repeats"], f"{r['games_per_cpu_s']:,.0f}",
                     f"{r['games_per_wall_s']:,.0f}", f"{r['moves_per_game']:.1f}") for r in out["speed"]],
                   ["rules", "games", "runs", "games / CPU-s (median)", "games / wall-s (median)", "moves / game"],
                   tablefmt="github"))
    print(f"\nfour / standard: {out['four_vs_standard']:.3f}x (goal: 2,000 four-player games a second)\n")
    print(tabulate([(r["rules"], r["games"], f"{r['cold_ms']:.3f}", f"{r['warm_ms']:.3f}",
                     f"{100 * r['search_share']:.0f}%", f"{r['memo_entries_per_game']:,.0f}")
                    for r in out["decomposer"]],
                   ["rules", "games", "ms / game cold", "ms / game warm memo", "decomposer search share",
                    "memo entries / game"], tablefmt="github"))
    if out["stakes"]:
        print()
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        print(tabulate([(r["rules"], r["games"],
                         f"{pct(r['landlord_win_rate'])} [{pct(r['landlord_win_ci'][0])}, {pct(r['landlord_win_ci'][1])}]",
                         f"{r['mean_multiplier']:.3f} [{r['mean_multiplier_ci'][0]:.3f}, {r['mean_multiplier_ci'][1]:.3f}]",
                         f"{r['landlord_mean_score']:+.3f} [{r['landlord_mean_score_ci'][0]:+.3f}, "
                         f"{r['landlord_mean_score_ci'][1]:+.3f}]",
                         f"{r['stake_bombs_per_game']:.3f}", pct(r["multiplier_above_1"]),
                         f"{r['springs']} / {r['anti_springs']}", pct(r["base_3"]))
                        for r in out["stakes"]],
                       ["rules", "games", "landlord wins [95%]", "mean multiplier [95%]", "landlord mean score [95%]",
                        "stake bombs / game", "multiplier > 1", "springs / anti", "bid 3"], tablefmt="github"))
        print(f"\ngames played alike under all three options: {out['stakes'][0]['same_plays_as_other_options']} "
              f"of {args.stake_games}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--copies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--selfplay", action="store_true", help="the self-play figures instead of the lead ones")
    ap.add_argument("--games", type=int, default=2000, help="--selfplay: standard games a speed run (four: a quarter)")
    ap.add_argument("--repeats", type=int, default=3, help="--selfplay: speed runs (median)")
    ap.add_argument("--stake-games", type=int, default=10000, help="--selfplay: games per bomb_doubles option")
    ap.add_argument("--workers", type=int, default=2, help="--selfplay: threads of the stake games")
    args = ap.parse_args(argv)
    if args.selfplay:
        main_selfplay(args)
        return
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
