"""Move-generation benchmark: our Numba generator against DouZero and RLCard.

Workloads, all on the same seeded random deals (``--deals``, default 2,000):

* lead enumeration of the landlord's 20-card hand and of a farmer's 17-card hand;
* answers of the 17-card hand to fixed plays: single 5, pair 77, chain 34567,
  trio 888+4, bomb 9999, airplane 333444+5+6.

Implementations:

* ``ddz batch``     -- the batch kernel ``kernels.gen_batch`` (one call for all hands);
* ``ddz count_batch`` -- the public ``movegen.count_batch`` (validates, then the batch kernel);
* ``ddz generate``  -- the public per-hand API ``movegen.generate`` (one call per hand);
* text path         -- ``generate(<card text>, rules="douzero")`` on the 20-card leads,
  reported beside ``generate(packed_int, None, Rules)`` (parsing cost included);
* ``douzero``       -- DouZero's ``MovesGener(cards).gen_moves()`` for leads and, for
  answers, the same steps as ``GameEnv.get_legal_card_play_actions`` (type detection,
  generation of that type, filtering, bombs and rocket; the pass is not counted);
* ``rlcard``        -- RLCard's ``DoudizhuJudger.playable_cards_from_hand`` for leads and
  ``rlcard.games.doudizhu.utils.get_gt_cards`` for answers (pass not counted).

Ours runs under the preset that matches each peer: ``douzero`` for DouZero (its
generator's rules) and ``standard`` otherwise.  Plays differ a little between
engines (different rules, DouZero's duplicates), so the table shows plays/s as
well as hands/s.  Every time is the median of ``--repeat`` runs; the machine may
be shared, so compare ratios, not single times.

Also measured: wall time of ``ddz moves HAND`` cold (fresh NUMBA_CACHE_DIR, so
the kernels compile) and warm (median of several runs with the cache filled).

Usage: ``python benchmarks/movegen.py [--deals 2000] [--repeat 5] [--seed 1]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

from ddz_tools.core.cards import douzero_values, format_cards
from ddz_tools.engines.kernels import gen_batch
from ddz_tools.moves.movegen import count_batch, generate
from ddz_tools.core.rules import Play, Rules

REPO = Path(__file__).resolve().parent.parent
AFTER = ["5", "77", "34567", "888-4", "9999", "333444-56"]


def deals(n: int, seed: int) -> tuple[list[int], list[int]]:
    """(landlord 20-card hands, farmer 17-card hands), packed, from seeded deals."""
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    landlords, farmers = [], []
    for _ in range(n):
        rng.shuffle(deck)
        packed = [0, 0]
        for r in deck[:20]:
            packed[0] += 1 << (4 * r)
        for r in deck[20:37]:
            packed[1] += 1 << (4 * r)
        landlords.append(packed[0])
        farmers.append(packed[1])
    return landlords, farmers


def median_time(fn, repeat: int) -> tuple[float, float, object]:
    """(median CPU seconds, median wall seconds, last result) of ``fn()`` over
    ``repeat`` runs, after one untimed warm-up run.

    CPU time is this process's (``time.process_time``): on a shared machine
    the wall time of a loop longer than a scheduler time slice also counts
    the time other processes ran, so rates are computed from CPU time and the
    wall time is shown beside them.
    """
    result = fn()
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), result


# Ours --------------------------------------------------------------------------------------


def ours_batch(hands: np.ndarray, flags: int, prev: int):
    prev_kinds = np.full(hands.shape[0], prev, np.int64)
    counts = np.zeros(hands.shape[0], np.int64)

    def run():
        return int(gen_batch(hands, flags, prev_kinds, counts))
    return run


def ours_count_batch(hands: np.ndarray, rules: Rules, prev: int):
    prev_kinds = np.full(hands.shape[0], prev, np.int64)

    def run():
        return int(count_batch(hands, rules, prev_kinds).sum())
    return run


def ours_generate_text(texts: list[str], spec: str):
    """``generate(text, rules=spec)``: the text path (card text and a rules string)."""
    def run():
        total = 0
        for t in texts:
            total += len(generate(t, rules=spec))
        return total
    return run


def ours_generate(hands: list[int], rules: Rules, after: "Play | None"):
    def run():
        total = 0
        for h in hands:
            total += len(generate(h, after, rules))
        return total
    return run


# DouZero -----------------------------------------------------------------------------------


def douzero_moves_fn(after_text: "str | None"):
    """A function: DouZero card list -> DouZero's list of legal plays (pass excluded)."""
    from douzero.env import move_detector as md
    from douzero.env import move_selector as ms
    from douzero.env.move_generator import MovesGener

    if after_text is None:
        return lambda cards: MovesGener(cards).gen_moves()

    rival = douzero_values(Play.parse(after_text, "douzero").cards)
    info = md.get_move_type(rival)
    rtype, rlen = info["type"], info.get("len", 1)
    # The type-specific steps of GameEnv.get_legal_card_play_actions.
    make, keep = {
        md.TYPE_1_SINGLE: (lambda g: g.gen_type_1_single(), ms.filter_type_1_single),
        md.TYPE_2_PAIR: (lambda g: g.gen_type_2_pair(), ms.filter_type_2_pair),
        md.TYPE_3_TRIPLE: (lambda g: g.gen_type_3_triple(), ms.filter_type_3_triple),
        md.TYPE_4_BOMB: (lambda g: g.gen_type_4_bomb() + g.gen_type_5_king_bomb(), ms.filter_type_4_bomb),
        md.TYPE_6_3_1: (lambda g: g.gen_type_6_3_1(), ms.filter_type_6_3_1),
        md.TYPE_7_3_2: (lambda g: g.gen_type_7_3_2(), ms.filter_type_7_3_2),
        md.TYPE_8_SERIAL_SINGLE: (lambda g: g.gen_type_8_serial_single(repeat_num=rlen),
                                  ms.filter_type_8_serial_single),
        md.TYPE_9_SERIAL_PAIR: (lambda g: g.gen_type_9_serial_pair(repeat_num=rlen), ms.filter_type_9_serial_pair),
        md.TYPE_10_SERIAL_TRIPLE: (lambda g: g.gen_type_10_serial_triple(repeat_num=rlen),
                                   ms.filter_type_10_serial_triple),
        md.TYPE_11_SERIAL_3_1: (lambda g: g.gen_type_11_serial_3_1(repeat_num=rlen), ms.filter_type_11_serial_3_1),
        md.TYPE_12_SERIAL_3_2: (lambda g: g.gen_type_12_serial_3_2(repeat_num=rlen), ms.filter_type_12_serial_3_2),
    }[rtype]
    add_bombs = rtype != md.TYPE_4_BOMB

    def moves(cards):
        g = MovesGener(cards)
        found = keep(make(g), rival)
        if add_bombs:
            found = found + g.gen_type_4_bomb() + g.gen_type_5_king_bomb()
        return found
    return moves


def douzero_runner(hands: list[int], after_text: "str | None"):
    moves = douzero_moves_fn(after_text)
    lists = [douzero_values(h) for h in hands]

    def run():
        return sum(len(moves(cards)) for cards in lists)
    return run


def douzero_distinct(hands: list[int], after_text: "str | None") -> int:
    """Distinct plays (as sorted card lists) that DouZero generates, summed over hands."""
    moves = douzero_moves_fn(after_text)
    return sum(len({tuple(sorted(m)) for m in moves(douzero_values(h))}) for h in hands)


# RLCard ------------------------------------------------------------------------------------


class _Card:
    __slots__ = ("suit", "rank")

    def __init__(self, rank: str):
        self.suit, self.rank = ("BJ", "") if rank == "B" else ("RJ", "") if rank == "R" else ("S", rank)


class _Player:
    def __init__(self, hand_text: str = "", played: str = ""):
        self.current_hand = [_Card(c) for c in hand_text]
        self.played_cards = played


def rlcard_text(packed: int) -> str:
    return format_cards(packed).replace("X", "B").replace("D", "R")


def rlcard_runner(hands: list[int], after_text: "str | None"):
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    texts = [rlcard_text(h) for h in hands]
    if after_text is None:
        def run():
            return sum(len(DoudizhuJudger.playable_cards_from_hand(t)) for t in texts)
        return run
    target = _Player(played=rlcard_text(Play.parse(after_text).cards))
    players = [_Player(t) for t in texts]

    def run():
        # get_gt_cards includes 'pass' in its list; it is not counted.
        return sum(len(get_gt_cards(p, target)) - 1 for p in players)
    return run


def have(module: str) -> bool:
    try:
        __import__(module)
        return True
    except Exception:  # a peer that fails to import is simply skipped
        return False


# CLI wall time -----------------------------------------------------------------------------


def ddz_wall(hand: str, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``ddz moves HAND`` process."""
    ddz = REPO / ".venv" / "bin" / "ddz"
    cmd = [str(ddz)] if ddz.exists() else [sys.executable, "-m", "ddz_tools"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd + ["moves", hand], check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_times(hand: str, warm_runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """((cold wall, cold CPU), (warm wall median, warm CPU median)) of ``ddz moves``."""
    cold_dir = tempfile.mkdtemp(prefix="ddz-numba-cold-")
    try:
        cold = ddz_wall(hand, dict(os.environ, NUMBA_CACHE_DIR=cold_dir))
    finally:
        shutil.rmtree(cold_dir, ignore_errors=True)
    ddz_wall(hand, dict(os.environ))  # fill the normal cache
    runs = [ddz_wall(hand, dict(os.environ)) for _ in range(warm_runs)]
    warm = (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
    return cold, warm


# Main ----------------------------------------------------------------------------------------


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    ap.add_argument("--peer-repeat", type=int, default=3, help="runs per peer measurement (median)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--no-cli", action="store_true")
    args = ap.parse_args(argv)

    landlords, farmers = deals(args.deals, args.seed)
    std, dz = Rules.parse("standard"), Rules.parse("douzero")
    peers = [] if args.no_peers else [p for p in ("douzero", "rlcard") if have(p)]
    print(f"{args.deals} seeded deals (seed {args.seed}); medians of {args.repeat} runs "
          f"({args.peer_repeat} for peers); peers: {', '.join(peers) or 'none'}", file=sys.stderr)
    print(f"{args.deals} seeded deals (seed {args.seed}); rates from the median CPU time of {args.repeat} runs "
          f"({args.peer_repeat} for peers); wall us/call beside them; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    # Warm the kernels up (compile or load from the cache) outside the timings.
    for rules in (std, dz):
        count_batch(np.array(landlords[:2], np.int64), rules)
        generate(landlords[0], None, rules)
        generate(landlords[0], Play.parse("5"), rules)

    workloads = [("lead, 20 cards", landlords, None), ("lead, 17 cards", farmers, None)]
    workloads += [(f"answer {a}, 17 cards", farmers, a) for a in AFTER]
    rows = []
    summary = {}
    dz_distinct: dict = {}
    for label, hands, after_text in workloads:
        arr = np.array(hands, np.int64)
        n = len(hands)
        results = []  # (impl, rules, seconds, plays)
        for rules in (std, dz):
            after = Play.parse(after_text, rules) if after_text else None
            prev = after.kind if after else 0
            t, w, plays = median_time(ours_batch(arr, rules.flags, prev), args.repeat)
            results.append(("ddz batch", rules.preset, t, w, plays))
            t, w, plays = median_time(ours_count_batch(arr, rules, prev), args.repeat)
            results.append(("ddz count_batch", rules.preset, t, w, plays))
            t, w, plays = median_time(ours_generate(hands, rules, after), args.repeat)
            results.append(("ddz generate", rules.preset, t, w, plays))
        if "douzero" in peers:
            t, w, plays = median_time(douzero_runner(hands, after_text), args.peer_repeat)
            results.append(("douzero", "douzero", t, w, plays))
            dz_distinct[label] = douzero_distinct(hands, after_text)
        if "rlcard" in peers:
            t, w, plays = median_time(rlcard_runner(hands, after_text), args.peer_repeat)
            results.append(("rlcard", "rlcard", t, w, plays))
        by = {(impl, r): t for impl, r, t, _, _ in results}
        for impl, r, t, w, plays in results:
            ours_pc = by[("ddz generate", "douzero" if impl == "douzero" else "standard")]
            ours_b = by[("ddz batch", "douzero" if impl == "douzero" else "standard")]
            peer = impl in ("douzero", "rlcard")
            rows.append([label, impl, r, plays, f"{n / t:,.0f}", f"{plays / t:,.0f}", f"{t / n * 1e6:.2f}",
                         f"{w / n * 1e6:.2f}",
                         f"{t / ours_pc:.0f}x" if peer else "", f"{t / ours_b:.0f}x" if peer else ""])
        summary[label] = by
        print(f"  done: {label}", file=sys.stderr)

    print(tabulate(rows, headers=["workload", "implementation", "rules", "plays", "hands/s", "plays/s",
                                  "us/call", "wall us/call", "peer/ours (generate)",
                                  "peer/ours (batch)"],
                   disable_numparse=True, colalign=("left", "left", "left", "right", "right", "right", "right",
                                                   "right", "right", "right")))

    # Targets.
    lead20 = summary["lead, 20 cards"][("ddz generate", "standard")] / args.deals * 1e6
    batch_rates = [r[5] for r in rows if r[1] == "ddz batch"]
    lead_batch = [r for r in rows if r[1] == "ddz batch" and r[0] == "lead, 20 cards" and r[2] == "standard"][0]
    if dz_distinct:
        print("DouZero's plays include repeats; distinct plays per workload: "
              + ", ".join(f"{k}: {v}" for k, v in dz_distinct.items()))
    print()
    print(f"target: lead of a 20-card hand via generate(): {lead20:.2f} us/call (target <= 3 us)")
    # The text path: the same leads from card text and a rules string, beside
    # generate(packed_int, None, Rules) in the same run.
    texts = [format_cards(h) for h in landlords]
    t_text, w_text, plays_text = median_time(ours_generate_text(texts, "douzero"), args.repeat)
    t_packed = summary["lead, 20 cards"][("ddz generate", "douzero")]
    assert plays_text == [r for r in rows if r[:3] == ["lead, 20 cards", "ddz generate", "douzero"]][0][3]
    print(f"text path: generate(<20-card text>, rules='douzero'): {t_text / args.deals * 1e6:.2f} us/call "
          f"(wall {w_text / args.deals * 1e6:.2f}; target <= 5 us); generate(packed_int, None, Rules): "
          f"{t_packed / args.deals * 1e6:.2f} us/call; text/packed {t_text / t_packed:.2f}x")
    print(f"target: batch kernel, leads of 20-card hands: {lead_batch[5]} plays/s (target >= 50,000,000)")
    print(f"        batch kernel plays/s over all workloads: {', '.join(batch_rates)}")
    if not args.no_cli:
        hand = format_cards(landlords[0])
        cold, warm = cli_times(hand, warm_runs=5)
        print(f"ddz moves {hand}: cold (fresh numba cache) {cold[0]:.2f} s wall, {cold[1]:.2f} s CPU; "
              f"warm (median of 5) {warm[0]:.2f} s wall, {warm[1]:.2f} s CPU (target warm < 1 s)")


if __name__ == "__main__":
    main()
