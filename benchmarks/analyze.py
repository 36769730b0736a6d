"""Batch analysis speed: ``ddz analyze`` games per second, validate-and-score and with the mistake search.

Games are seeded self-play records (``ddz_tools.engines.selfplay.simulate``, heuristic
policy), written as ``ddz-record/1`` JSON Lines to a temporary file.  On one
core (``workers=1``), median of ``--repeat`` runs:

* ``analyze``: :func:`ddz_tools.analysis.analyze.analyze_files` from the file to
  :class:`GameAnalysis` objects, mistake search off (``solve_below=0``): read,
  JSON decode, record check, replay and score (one kernel call per chunk),
  result objects.  The figure the issue's target (10,000 games/s on one core)
  is about.
* the same time split into its stages: ``read lines`` (file to undecoded
  items), ``JSON decode`` (done by the worker that analyses the line),
  ``parse`` (:func:`records.parse_record`), ``pack`` (:func:`records.pack_games`:
  bids replayed in Python, play texts to ints) and ``kernel`` (the Numba
  validate-and-score kernel alone), beside ``analyze_items`` (everything but
  reading: the stages plus the analysis layer's own result objects);
* ``mistakes``: the same with the mistake search from ``--solve-below`` cards
  (default 10, node limit per position as in the CLI), one run (it is slow):
  games/s, positions solved, moves unchecked, mistakes found.

Peer on the same inputs in the same run: DouZero's ``GameEnv`` replaying
``--peer-games`` games played under the ``douzero`` rules (the peer knows no
other rules), each recorded action checked against DouZero's legal-action
list as DouZero's evaluation steps a game (the scripted player of
``benchmarks/replay.py``); our ``analyze`` rate on exactly those games is
printed beside it.  DouZero does not bid or score springs; it replays and
scores the play phase only.

CPU time (``time.process_time``) is reported beside wall time: the machine
is shared, so the CPU figure is the steadier one.

    $ .venv/bin/python benchmarks/analyze.py                 # 10,000 games
    $ .venv/bin/python benchmarks/analyze.py --games 20000 --repeat 7
    $ .venv/bin/python benchmarks/analyze.py --write-corpus data/analysis_corpus
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from ddz_tools.analysis.analyze import (  # noqa: E402
    AnalyzeOptions, analyze_files, analyze_items, gc_paused, iter_items, summarize)
from ddz_tools.engines.sources import decode_item  # noqa: E402
from ddz_tools.engines.records import pack_games, parse_record, run_batch  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402


def timed(fn, repeat: int):
    """(median wall seconds, median CPU seconds, last result)."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def write_games(path: str, games: int, seed: int, rules: str) -> None:
    with open(path, "w") as f:
        for rec in simulate(games, "heuristic", seed=seed, rules=rules):
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>10,.0f}/s" if seconds > 0 else "       inf"


# The sample corpus -----------------------------------------------------------------------------

NAMES = ("ann", "bo", "cy")


def write_corpus(folder: str) -> None:
    """``data/analysis_corpus/``: self-play games with deliberately broken ones, DouZero deals, a judge log.

    * ``selfplay.jsonl``: 12 seeded self-play games between named players, then a
      card not in hand, a play out of turn, a stored result that disagrees, an
      illegal bid, a line that is not JSON and an unknown schema;
    * ``deals.pkl``: 4 DouZero-style evaluation deals and one broken deal;
    * ``botzone_game.json``: a Botzone judge log of a seeded random game
      (``botzone.judge_log_from_game``).
    """
    from ddz_tools.engines.botzone import judge_log_from_game
    from ddz_tools.engines.game import random_game

    os.makedirs(folder, exist_ok=True)
    good = []
    for i, rec in enumerate(simulate(12, "heuristic", seed=2026)):
        rec["players"] = [NAMES[(s + i) % 3] for s in range(3)]
        good.append(rec)

    def copy(r, gid):
        r = json.loads(json.dumps(r))
        r["id"] = gid
        return r

    bad = []
    r = copy(good[0], "broken-not-in-hand")
    held = r["deal"]["hands"][r["landlord"]] + r["deal"]["bottom"]
    r["plays"][0]["cards"] = next(c for c in "3456789TJQKA2XD" if c not in held)
    bad.append(r)
    r = copy(good[1], "broken-wrong-turn")
    r["plays"][1]["seat"] = r["landlord"]
    bad.append(r)
    r = copy(good[2], "broken-stored-result")
    r["result"]["scores"] = [s * 2 for s in r["result"]["scores"]]
    r["result"]["multiplier"] *= 2
    bad.append(r)
    r = copy(good[3], "broken-bid")
    fb = r["first_bidder"]
    r["bids"] = [{"seat": fb, "bid": 2}, {"seat": (fb + 1) % 3, "bid": 1}]
    bad.append(r)
    lines = [json.dumps(x, separators=(",", ":")) for x in good + bad]
    lines.append('{"schema": "ddz-record/1", "id": "broken-json", "deal": ')
    lines.append(json.dumps({"schema": "chess-pgn/1", "id": "broken-schema"}))
    with open(os.path.join(folder, "selfplay.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")

    deck = [v for v in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17) for _ in range(4)] + [20, 30]
    rng = random.Random(2026)
    deals = []
    for _ in range(4):
        d = list(deck)
        rng.shuffle(d)
        bottom = d[51:]
        deals.append({"landlord": sorted(d[:17] + bottom), "landlord_up": sorted(d[17:34]),
                      "landlord_down": sorted(d[34:51]), "three_landlord_cards": sorted(bottom)})
    wrong = dict(deals[0])
    wrong["landlord_up"] = deals[0]["landlord_up"][:-1] + [deals[0]["landlord_down"][0]]
    deals.append(wrong)
    with open(os.path.join(folder, "deals.pkl"), "wb") as f:
        pickle.dump(deals, f, protocol=4)

    g = random_game(2026, all_pass="seat0")
    with open(os.path.join(folder, "botzone_game.json"), "w") as f:
        json.dump(judge_log_from_game(g, seed=2026), f, indent=1)
        f.write("\n")


# Main -------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--solve-below", type=int, default=10)
    ap.add_argument("--mistake-games", type=int, default=None,
                    help="games for the mistake search (default: all --games)")
    ap.add_argument("--peer-games", type=int, default=2000)
    ap.add_argument("--write-corpus", metavar="FOLDER", default=None,
                    help="write the sample corpus into FOLDER and exit")
    args = ap.parse_args(argv)
    if args.write_corpus:
        write_corpus(args.write_corpus)
        print(f"corpus written to {args.write_corpus}")
        return 0

    tmp = tempfile.mkdtemp(prefix="ddz-bench-analyze-")
    path = os.path.join(tmp, "games.jsonl")
    t0 = time.perf_counter()
    write_games(path, args.games, args.seed, "standard")
    print(f"{args.games} self-play games (heuristic, standard rules, seed {args.seed}) written in "
          f"{time.perf_counter() - t0:.1f} s; one core, median of {args.repeat} runs (wall, and CPU)")
    n = args.games

    # Warm up every kernel (compile or load from the cache) outside the timing.
    list(analyze_files([path], solve_below=0, chunk_size=64))

    # End to end, mistake search off.
    w, c, res = timed(lambda: list(analyze_files([path], solve_below=0, workers=1)), args.repeat)
    assert len(res) == n and all(g.status == "valid" for g in res), "self-play games must all be valid"
    s = summarize(res)
    print(f"\nvalidate-and-score (analyze_files, solve_below=0, workers=1): {rate(n, w)} wall, {rate(n, c)} CPU")
    print(f"  landlord win rate {s['landlord_win_rate']:.3f}, mean multiplier {s['mean_multiplier']:.3f}, "
          f"bombs {s['bombs']}, springs {s['springs']}")

    # The stages of the same work (with the garbage collector paused, as analyze_files does).
    def paused(fn):
        def run():
            with gc_paused():
                return fn()
        return run

    wr, cr, raw = timed(paused(lambda: list(iter_items([path]))), args.repeat)
    wd, cd, items = timed(paused(lambda: [decode_item(it) for it in raw]), args.repeat)
    objs = [it.data for it in items]
    wp, cp, recs = timed(paused(lambda: [parse_record(o) for o in objs]), args.repeat)
    wk, ck, batch = timed(paused(lambda: pack_games(recs)), args.repeat)
    wn, cn, _ = timed(lambda: run_batch(batch), args.repeat)
    opts = AnalyzeOptions(solve_below=0)
    wa, ca, _ = timed(lambda: analyze_items(raw, opts), args.repeat)
    print("  stages (CPU per game):")
    for name, sec in (("read lines", cr), ("JSON decode", cd), ("parse_record", cp), ("pack_games", ck),
                      ("kernel", cn), ("sum of the stages", cr + cd + cp + ck + cn),
                      ("analyze_items (all but read)", ca)):
        print(f"    {name:<30}{1e6 * sec / n:8.1f} us  {rate(n, sec)}")
    print(f"    {'kernel alone':<30} is {cn / max(c, 1e-12):.1%} of the end-to-end CPU time "
          f"(end to end {1e6 * c / n:.1f} us per game)")

    # With the mistake search.
    m = args.mistake_games or n
    mpath = path
    if m != n:
        mpath = os.path.join(tmp, "mistakes.jsonl")
        with open(path) as fi, open(mpath, "w") as fo:
            for i, line in enumerate(fi):
                if i >= m:
                    break
                fo.write(line)
    w0, c0 = time.perf_counter(), time.process_time()
    res = list(analyze_files([mpath], solve_below=args.solve_below, workers=1))
    wm, cm = time.perf_counter() - w0, time.process_time() - c0
    s = summarize(res)
    print(f"\nwith the mistake search (solve_below={args.solve_below}, node limit "
          f"{AnalyzeOptions().node_limit:,} per position), {m} games, one run: {rate(m, wm)} wall, {rate(m, cm)} CPU")
    print(f"  positions solved {s['positions_solved']:,}, moves unchecked {s['positions_unchecked']}, "
          f"mistakes {s['mistakes']} in {s['games_with_mistakes']} games "
          f"(by landlord/farmer1/farmer2: {'/'.join(str(v) for v in s['mistakes_by_role'].values())})")

    # The DouZero peer on the same games.
    try:
        from replay import douzero_games, run_douzero
        import douzero.env.game  # noqa: F401
    except ImportError as exc:
        print(f"\npeer: DouZero not available ({exc})")
        return 0
    ppath = os.path.join(tmp, "douzero_rules.jsonl")
    write_games(ppath, args.peer_games, args.seed, "douzero")
    p = args.peer_games
    list(analyze_files([ppath], solve_below=0))
    w, c, res = timed(lambda: list(analyze_files([ppath], solve_below=0, workers=1)), args.repeat)
    prepared = douzero_games([parse_record(line) for line in open(ppath)])
    illegal, _ = run_douzero(prepared)
    wd, cd, _ = timed(lambda: run_douzero(prepared), max(1, args.repeat // 2))
    print(f"\npeer, {p} games under douzero rules (the same games for both):")
    print(f"  ddz analyze (validate-and-score, one core)     {rate(p, w)} wall, {rate(p, c)} CPU")
    print(f"  DouZero GameEnv replay (each action checked)   {rate(p, wd)} wall, {rate(p, cd)} CPU"
          f"   ({illegal} actions not in DouZero's legal list)")
    print(f"  ratio ddz/DouZero (CPU): {cd / max(c, 1e-12):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
