"""Validate-and-score speed: the Numba batch kernel vs the Python state machine (and DouZero).

Games are seeded self-play records (``ddz_tools.engines.selfplay.simulate``), written
as ``ddz-record/1`` JSON lines.  For each rule set the script times, on one
core, median of ``--repeat`` runs:

* ``python``  -- :func:`ddz_tools.engines.records.replay_record` per record (the
  Python :class:`~ddz_tools.engines.game.Game`), on already parsed records;
* ``kernel``  -- the batch kernel alone (``run_batch`` on packed arrays);
* ``pack``    -- :func:`pack_games`: parsed records to int64 arrays (bids
  replayed, play texts converted);
* ``batch``   -- :func:`validate_batch` from parsed records (pack + kernel);
* ``json->``  -- from JSON text: ``parse_record`` of every line + ``validate_batch``;
* ``douzero`` -- the peer: DouZero's ``GameEnv`` replaying the same games
  (douzero rules only), each action checked against its legal-action list,
  as DouZero's own evaluation does when it steps a game.

Every path must agree on every game (checked before timing).

    $ .venv/bin/python benchmarks/replay.py --games 20000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ddz_tools.engines.records import pack_games, parse_record, replay_record, run_batch, validate_batch  # noqa: E402
from ddz_tools.engines.selfplay import simulate  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


# The DouZero peer -------------------------------------------------------------------------------

_DZ = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def _dz_cards(packed: int) -> list:
    out = []
    for r in range(15):
        out.extend([_DZ[r]] * ((packed >> (4 * r)) & 15))
    return out


class _Scripted:
    """A DouZero player that plays the recorded action after checking it is legal."""

    def __init__(self):
        self.actions: list = []
        self.illegal = 0

    def act(self, infoset):
        action = self.actions.pop(0)
        if action not in infoset.legal_actions:
            self.illegal += 1
        return action


def douzero_games(recs) -> list:
    """Per game: the DouZero env's input (deal and actions per position), prepared outside the timing."""
    out = []
    for rec in recs:
        rep = replay_record(rec)
        ll = rep.landlord
        pos = {ll: "landlord", (ll + 1) % 3: "landlord_down", (ll + 2) % 3: "landlord_up"}
        hands = [h + (rec.bottom if s == ll else 0) for s, h in enumerate(rec.hands)]
        data = {pos[s]: _dz_cards(hands[s]) for s in range(3)}
        data["three_landlord_cards"] = _dz_cards(rec.bottom)
        actions = {p: [] for p in pos.values()}
        for s, text in rec.plays:
            from ddz_tools.core.cards import parse_cards
            body = text.replace("-", "")
            actions[pos[s]].append(_dz_cards(parse_cards(body)) if body else [])
        out.append((data, actions, rep.result))
    return out


def run_douzero(prepared) -> tuple[int, int]:
    from douzero.env.game import GameEnv
    illegal = wins = 0
    for data, actions, _ in prepared:
        players = {p: _Scripted() for p in ("landlord", "landlord_up", "landlord_down")}
        for p, acts in actions.items():
            players[p].actions = [list(a) for a in acts]
        env = GameEnv(players)
        env.card_play_init({k: list(v) for k, v in data.items()})
        while not env.game_over:
            env.step()
        illegal += sum(p.illegal for p in players.values())
        wins += env.get_winner() == "landlord"
    return illegal, wins


# Main -----------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000, help="games per rule set (kernel, batch)")
    ap.add_argument("--python-games", type=int, default=3000, help="games for the Python and DouZero paths")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="standard,douzero")
    args = ap.parse_args(argv)

    t = time.perf_counter()
    validate_batch([next(simulate(1, "random", seed=0))])
    print(f"kernel load/compile: {time.perf_counter() - t:.2f} s (cached after the first run)")
    rows = []
    for rules in args.rules.split(","):
        t = time.perf_counter()
        lines = [json.dumps(d) for d in simulate(args.games, args.policy, seed=args.seed, rules=rules)]
        recs = [parse_record(x) for x in lines]
        plays = sum(len(r.plays) for r in recs)
        print(f"{rules}: {len(recs)} {args.policy} self-play games, {plays / len(recs):.1f} actions/game "
              f"(made in {time.perf_counter() - t:.1f} s)")
        small = recs[:args.python_games]

        # Agreement first.
        res = validate_batch(recs)
        py = [replay_record(r) for r in small]
        assert all(res.status_name(g) == "ok" for g in range(len(recs))), "a self-play game is not ok"
        assert all(p.status == "ok" and list(p.result.scores) == res.scores[g].tolist() for g, p in enumerate(py))

        t_py, _ = timed(lambda: [replay_record(r) for r in small], max(1, args.repeat // 2))
        batch = pack_games(recs)
        t_kernel, _ = timed(lambda: run_batch(batch), args.repeat)
        t_pack, _ = timed(lambda: pack_games(recs), args.repeat)
        t_batch, _ = timed(lambda: validate_batch(recs), args.repeat)
        t_json, _ = timed(lambda: validate_batch([parse_record(x) for x in lines]), max(1, args.repeat // 2))
        row = {"rules": rules, "python": len(small) / t_py, "kernel": len(recs) / t_kernel,
               "pack": len(recs) / t_pack, "batch": len(recs) / t_batch, "json": len(recs) / t_json}
        if rules.startswith("douzero"):
            try:
                prepared = douzero_games(small)
                illegal, wins = run_douzero(prepared)
                assert illegal == 0, f"DouZero finds {illegal} illegal actions"
                assert wins == sum(p.result.winner == "landlord" for p in py)
                t_dz, _ = timed(lambda: run_douzero(prepared), max(1, args.repeat // 2))
                row["douzero"] = len(small) / t_dz
            except ImportError as exc:
                print(f"  (douzero not installed: {exc})")
        rows.append(row)

    print()
    print("games per second, one core, median of runs (higher is better)")
    head = f"{'rules':<10} {'python':>9} {'douzero':>9} {'kernel':>10} {'pack':>9} {'batch':>9} {'json->':>9}" \
           f" {'kernel/py':>10} {'batch/py':>9} {'kernel/dz':>10}"
    print(head)
    for r in rows:
        dz = r.get("douzero")
        print(f"{r['rules']:<10} {r['python']:>9,.0f} {dz if dz else float('nan'):>9,.0f} {r['kernel']:>10,.0f} "
              f"{r['pack']:>9,.0f} {r['batch']:>9,.0f} {r['json']:>9,.0f} {r['kernel'] / r['python']:>9.0f}x "
              f"{r['batch'] / r['python']:>8.1f}x "
              + (f"{r['kernel'] / dz:>9.0f}x" if dz else f"{'':>10}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
