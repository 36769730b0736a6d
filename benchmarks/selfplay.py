"""Self-play benchmark: full games per second on one core, and the heuristic
policy head to head against RLCard's rule agent.

Run:  .venv/bin/python benchmarks/selfplay.py [--games N] [--deals D] [--repeats R]

1. Speed.  ``selfplay_stats`` plays N whole games (deal, bidding, play,
   scoring) in one kernel call on one thread, for each policy; the figure is
   games per CPU second of this process (``time.process_time``, so other load
   on the shared machine counts less), median of R runs on different seeds,
   wall-clock median beside it.  Peer on the same machine in the same run:
   RLCard's ``DouDizhuRuleAgentV1`` in all three seats of RLCard's own
   ``doudizhu`` environment (its own deals, CPython).

2. Head to head.  D seeded deals (``selfplay.deal_cards(game_seed(seed, i))``); deal ``i``
   has landlord seat ``i % 3`` (that hand plus the bottom, no bidding).  Each
   deal is played four times: heuristic landlord vs rule-agent farmers,
   rule-agent landlord vs heuristic farmers, and the two mirror matches
   (heuristic in all seats, rule agent in all seats) as baselines.  Win rates
   come with Wilson 95% intervals.  The rule agent sees RLCard's raw state
   (``trace``, ``current_hand``, ``actions``, ``landlord``, ``self``), its legal
   actions are ours under the standard rules written in RLCard's notation (all
   of them are in RLCard's action table), and its random choices are seeded per
   deal.  Our policy is called through the ``policy_play`` kernel, and the game's
   turn and trick follow ``gamerules.trick_after``.

RLCard and its rule agent are peers installed with ``--no-deps``; RLCard's
package import needs ``termcolor`` (for its UNO game only).  When termcolor is
missing, ``ddz_tools.agents.import_rlcard`` registers a stand-in module with its
``colored`` function so the import works; nothing of UNO is used.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.core.cards import format_cards, parse_cards  # noqa: E402
from ddz_tools.core.gamerules import stake_doublings, trick_after  # noqa: E402
from ddz_tools.engines.kernels import interpreted  # noqa: E402
from ddz_tools.moves.movegen import gen_into  # noqa: E402
from ddz_tools.engines.policies import BUFFER, POLICY_HEURISTIC, new_table, policy_play  # noqa: E402
from ddz_tools.core.rules import STANDARD  # noqa: E402
from ddz_tools.engines.selfplay import deal_cards, game_seed, selfplay_stats  # noqa: E402


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def _import_rlcard():
    from ddz_tools.agents import import_rlcard

    rlcard = import_rlcard()
    from rlcard.games.doudizhu.utils import CARD_TYPE
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    return rlcard, CARD_TYPE, DouDizhuRuleAgentV1


# Speed ---------------------------------------------------------------------------------


def speed(games: int, repeats: int) -> list[tuple]:
    rows = []
    for policy, n in (("random", games), ("heuristic", max(games // 10, 100))):
        selfplay_stats(10, policy, seed=12345)  # compile / load the cache
        cpu, wall = [], []
        for rep in range(repeats):
            t0, w0 = time.process_time(), time.perf_counter()
            s = selfplay_stats(n, policy, seed=1000 + rep)
            cpu.append(n / (time.process_time() - t0))
            wall.append(n / (time.perf_counter() - w0))
        rows.append((f"ddz-tools {policy}", n, statistics.median(cpu), statistics.median(wall),
                     f"{s.landlord_win_rate:.3f}", f"{s.moves / s.games:.1f}"))
    return rows


def rlcard_speed(games: int, repeats: int) -> tuple:
    rlcard, _, Agent = _import_rlcard()
    cpu, wall = [], []
    wins = moves = 0
    for rep in range(repeats):
        env = rlcard.make("doudizhu", config={"seed": 1000 + rep})
        agent = Agent()
        env.set_agents([agent, agent, agent])
        np.random.seed(rep)
        t0, w0 = time.process_time(), time.perf_counter()
        for _ in range(games):
            trajectories, payoffs = env.run(is_training=False)
            wins += int(payoffs[0] > 0)
        cpu.append(games / (time.process_time() - t0))
        wall.append(games / (time.perf_counter() - w0))
    return ("RLCard rule agent (own env)", games, statistics.median(cpu), statistics.median(wall),
            f"{wins / (games * repeats):.3f}", "")


# Head to head ----------------------------------------------------------------------------


def _rl(cards: int) -> str:
    return format_cards(cards).replace("X", "B").replace("D", "R")


class Match:
    """Plays one deal with a given agent per seat: 'ours' or 'rule'."""

    def __init__(self, flags: int):
        _, self.card_type, Agent = _import_rlcard()
        self.agent = Agent()
        self.flags = flags
        self.table = new_table()
        self.bufc = np.empty(BUFFER, np.int64)
        self.bufk = np.empty(BUFFER, np.int64)
        self.gc = np.empty(BUFFER, np.int64)
        self.gk = np.empty(BUFFER, np.int64)
        self.illegal = 0

    def _legal(self, hand: int, prev_kind: int):
        n = gen_into(hand, self.flags, prev_kind, self.gc, self.gk)
        return list(zip(self.gc[:n].tolist(), self.gk[:n].tolist()))

    def _rule_move(self, hands, seat, landlord, prev_kind, trace):
        legal = self._legal(int(hands[seat]), prev_kind)
        actions = []
        seen = set()
        for c, _ in legal:
            s = _rl(c)
            if s not in seen and s in self.card_type[0]:
                seen.add(s)
                actions.append(s)
        if prev_kind != 0:
            actions.append("pass")
        state = {"raw_obs": {"trace": list(trace), "current_hand": _rl(int(hands[seat])),
                             "actions": actions, "landlord": landlord, "self": seat}}
        a = self.agent.step(state)
        if a == "pass":
            if prev_kind == 0:
                self.illegal += 1
                raise RuntimeError("rule agent passed on a lead")
            return 0, 0
        cards = parse_cards(a)
        for c, k in legal:
            if c == cards:
                return c, k
        self.illegal += 1
        raise RuntimeError(f"rule agent played {a!r}, which is not legal here")

    def play(self, hands0, landlord: int, agents, seed: int) -> dict:
        np.random.seed(seed % (2 ** 32))
        hands = np.array(hands0, np.int64)
        seat = landlord
        prev_kind = 0
        prev_seat = landlord
        bombs = 0
        trace = []
        plays_by = [0, 0, 0]
        while True:
            if agents[seat] == "ours":
                c, k = policy_play(hands, seat, landlord, prev_kind, prev_seat, POLICY_HEURISTIC, self.flags,
                                   self.table, self.bufc, self.bufk)
                c, k = int(c), int(k)
            else:
                c, k = self._rule_move(hands, seat, landlord, prev_kind, trace)
            if k == 0:
                trace.append((seat, "pass"))
            else:
                trace.append((seat, _rl(c)))
                hands[seat] -= c
                plays_by[seat] += 1
                if _stake_doublings(k, 0):
                    bombs += 1
                if hands[seat] == 0:
                    break
            prev_kind, prev_seat = _trick_after(k, seat, prev_kind, prev_seat, 3)
            seat = (seat + 1) % 3
        return {"landlord_won": seat == landlord, "bombs": bombs, "moves": len(trace)}


_trick_after = interpreted(trick_after)
_stake_doublings = interpreted(stake_doublings)


def deals(n: int, seed: int):
    for i in range(n):
        hands17, bottom = deal_cards(game_seed(seed, i))
        landlord = i % 3
        hands = np.array(hands17, np.int64)
        hands[landlord] += bottom
        yield i, hands, landlord


def head_to_head(n_deals: int, seed: int) -> dict:
    m = Match(STANDARD.flags)
    configs = {
        "heuristic landlord vs rule farmers": ("ours", "rule"),
        "rule landlord vs heuristic farmers": ("rule", "ours"),
        "heuristic mirror": ("ours", "ours"),
        "rule mirror": ("rule", "rule"),
    }
    wins = {name: 0 for name in configs}
    times = {name: 0.0 for name in configs}
    for i, hands, landlord in deals(n_deals, seed):
        for name, (ll, fa) in configs.items():
            agents = [fa, fa, fa]
            agents[landlord] = ll
            t0 = time.process_time()
            r = m.play(hands, landlord, agents, seed * 1_000_003 + i)
            times[name] += time.process_time() - t0
            wins[name] += int(r["landlord_won"])
    return {"deals": n_deals, "wins": wins, "cpu": times, "illegal": m.illegal}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000, help="random-policy games per speed run (heuristic: /10)")
    ap.add_argument("--deals", type=int, default=1000, help="deals of the head-to-head match")
    ap.add_argument("--repeats", type=int, default=5, help="speed runs per policy (median reported)")
    ap.add_argument("--rlcard-games", type=int, default=200, help="games per RLCard speed run")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-match", action="store_true")
    args = ap.parse_args(argv)
    from tabulate import tabulate

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    if not args.skip_speed:
        rows = speed(args.games, args.repeats)
        rows.append(rlcard_speed(args.rlcard_games, max(1, args.repeats // 2)))
        base = rows[-1][2]
        table = [(name, n, f"{cpu:,.0f}", f"{wall:,.0f}", f"{cpu / base:,.1f}x", ll, mv)
                 for name, n, cpu, wall, ll, mv in rows]
        print("\nFull games per second, one core (median of runs):")
        print(tabulate(table, headers=["player", "games/run", "games/s (CPU)", "games/s (wall)",
                                        "vs RLCard", "landlord win", "moves/game"]))
    if not args.skip_match:
        t0 = time.perf_counter()
        res = head_to_head(args.deals, args.seed)
        n = res["deals"]
        print(f"\nHead to head on {n} seeded deals (landlord = seat i % 3 with the bottom, no bidding), "
              f"{time.perf_counter() - t0:.0f} s:")
        table = []
        for name, w in res["wins"].items():
            lo, hi = wilson(w, n)
            fw = n - w
            flo, fhi = wilson(fw, n)
            table.append((name, f"{w / n:.3f} [{lo:.3f}, {hi:.3f}]", f"{fw / n:.3f} [{flo:.3f}, {fhi:.3f}]",
                          f"{n / max(res['cpu'][name], 1e-9):,.0f}"))
        print(tabulate(table, headers=["match", "landlord win rate [95% CI]", "farmers win rate [95% CI]",
                                        "games/s (CPU)"]))
        w = res["wins"]
        ll = w["heuristic landlord vs rule farmers"] / n
        ff = 1 - w["rule landlord vs heuristic farmers"] / n
        print(f"\nheuristic as landlord wins {ll:.1%} against rule farmers; "
              f"heuristic farmers win {ff:.1%} against the rule landlord; illegal rule-agent moves: {res['illegal']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
