"""A ladder of agents under DouZero's evaluation protocol: win rate (WP) and average
difference in points (ADP) of each pair, both sides of every deal.

    python benchmarks/ladder.py --deals 100 --seed 1 --procs 2 --out out/ladder.jsonl
    python benchmarks/ladder.py --pairs advisor128:rule,oracle:heuristic --deals 20

The deals.  Deal ``i`` is ``ddz_tools.engines.selfplay.deal_cards(game_seed(seed, i))`` (the deal of
game ``i`` of ``ddz simulate --seed S``): seat 0 is the landlord with its 17 cards and the
bottom, seat 1 (who plays after him) and seat 2 the farmers; no bidding, base 1, as in
DouZero's evaluation data.  For a pair ``A:B`` each deal is played twice: A as landlord
against B in both farmer seats, then B as landlord against A in both.

The agents.  ``random``: a uniform choice among the harness's legal actions (DouZero's own
``RandomAgent``, over its list, which repeats some plays; in RLCard's env a seeded uniform
choice among the sorted raw legal actions, which is how RLCard's ``RandomAgent`` draws: that
class is not used, as importing ``rlcard.agents`` runs pip in a subprocess, and RLCard lists a
lead's actions in an order that changes between processes).  ``rule``: RLCard's
``DouDizhuRuleAgentV1`` (its random choices draw from NumPy's generator, seeded each game).  ``heuristic``,
``heuristic-solo`` (the heuristic without the farmers' partnership conventions), ``advisor32``, ``advisor128`` (``advise`` at 32 / 128
deals a decision), ``advisor32i`` and ``advisor128i`` (the same, weighing the deals by the other
seats' earlier actions: ``advise(..., inference=True)``) and ``oracle`` (the advisor seeing every
card): ``ddz_tools.agents``.

The engines.  A pair with ``rule`` is played inside RLCard's own ``doudizhu`` environment
(the deal put in by ``agents.rlcard_deal`` after ``env.reset()``, RLCard's rules, our agents as
``agents.RLCardAgent`` bound to the env); every other pair inside DouZero's ``GameEnv``
(``agents.douzero_deal``, DouZero's rules, ``agents.DouZeroAgent``).  Every random choice is
seeded by the deal and the side, so a (pair, deal) plays the same on any run.

The figures.  WP: A's share of games won, over both roles (2 games a deal) and per role, with
Wilson 95% intervals.  ADP: A's points a game, over both roles and per role, with normal 95%
intervals over deals: the score of A's seats under our classic settlement at base 1 (the
landlord +-2 x stake, each farmer +-stake, so A as the farmers +-2 x stake; stake = 2 ** (bombs
+ rockets), x2 for a spring or an anti-spring: ``ddz_tools.engines.game.score``).  DouZero's own
GameEnv does not count springs.  games/s: games over the seconds spent in them (one process).
With both ``oracle:heuristic`` and ``advisor128:heuristic``, the share of the oracle's margin
over the heuristic that the advisor closes (on the deals both pairs played; a seeded bootstrap
over deals gives its interval).

``--out FILE`` is resumable: one JSON line per finished (pair, deal); a rerun skips what is
there, and the summary is computed from the whole file.  Figures go to stdout, progress to
stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from tabulate import tabulate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.analysis.bid import mean_interval, wilson_interval  # noqa: E402
from ddz_tools.core.cards import counts_of, pack_douzero, parse_cards  # noqa: E402
from ddz_tools.engines.game import score  # noqa: E402
from ddz_tools.engines.selfplay import deal_cards, game_seed  # noqa: E402

AGENTS = ("random", "rule", "heuristic", "heuristic-solo", "advisor32", "advisor128", "advisor32i", "advisor128i",
          "oracle")
DEFAULT_PAIRS = ("heuristic:random,heuristic:rule,advisor32:heuristic,advisor32:rule,"
                 "advisor128:heuristic,advisor128:rule,oracle:heuristic")
_ADVISED = ("advisor32", "advisor128", "advisor32i", "advisor128i", "oracle")
_ROCKET = parse_cards("XD")


def _is_bomb(cards: int) -> bool:
    c = counts_of(cards)
    return cards == _ROCKET or (sum(c) == 4 and max(c) == 4)


def _settle(plays: list) -> dict:
    """The result of a game from its plays (packed cards, 0 a pass) in turn order from the
    landlord (seat 0), seat 1 after him: our classic settlement at base 1."""
    seat_plays = [0, 0, 0]
    bombs = 0
    for k, cards in enumerate(plays):
        if cards:
            seat_plays[k % 3] += 1
            bombs += _is_bomb(cards)
    winner = (len(plays) - 1) % 3
    r = score(0, winner, 1, bombs, seat_plays[0], seat_plays[1:])
    return {"winner": r.winner, "scores": list(r.scores), "bombs": bombs, "spring": r.spring or r.anti_spring,
            "moves": len(plays)}


def _agent_label(name: str, objective: str) -> str:
    return f"{name}/{objective}" if name in _ADVISED and objective != "win" else name


def _policy(name: str) -> tuple:
    """(policy, samples, inference) of one of our agents."""
    return {"heuristic": ("heuristic", 128, False), "heuristic-solo": ("heuristic-solo", 128, False),
            "advisor32": ("advisor", 32, False), "advisor128": ("advisor", 128, False),
            "advisor32i": ("advisor", 32, True), "advisor128i": ("advisor", 128, True),
            "oracle": ("oracle", 128, False)}[name]


# RLCard ---------------------------------------------------------------------------------


class _RLRandom:
    """A seeded uniform choice among the sorted raw legal actions (RLCard lists a lead's
    actions from a set, whose order changes between processes)."""

    use_raw = True

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def eval_step(self, state):
        actions = sorted(state["raw_legal_actions"])
        return actions[int(self.rng.integers(len(actions)))], {}


def _rl_agent(name: str, env, seed: int, objective: str):
    from ddz_tools.agents import RLCardAgent

    if name == "rule":
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        return DouDizhuRuleAgentV1()
    if name == "random":
        return _RLRandom(seed)
    policy, samples, inference = _policy(name)
    return RLCardAgent(policy, samples=samples, seed=seed, objective=objective, env=env, inference=inference)


def _play_rlcard(deal: tuple, landlord: str, farmers: str, seed: int, objective: str) -> list:
    import rlcard

    from ddz_tools.agents import rlcard_deal

    env = rlcard.make("doudizhu", config={"seed": seed % (2 ** 31)})
    env.reset()
    state, player = rlcard_deal(env, *deal)
    seats = [_rl_agent(landlord, env, seed, objective)] + [_rl_agent(farmers, env, seed + k, objective)
                                                           for k in (1, 2)]
    np.random.seed(seed % (2 ** 32))              # the rule agent's random choices
    while not env.is_over():
        action, _ = seats[player].eval_step(state)
        if action not in state["raw_legal_actions"]:
            raise RuntimeError(f"{[landlord, farmers, farmers][player]} played {action}, not a legal action")
        state, player = env.step(action, raw_action=True)
    return [0 if a == "pass" else parse_cards(a) for _, a in env.game.round.trace]


# DouZero --------------------------------------------------------------------------------


def _dz_agent(name: str, seed: int, objective: str):
    from ddz_tools.agents import DouZeroAgent

    if name == "random":
        from douzero.evaluation.random_agent import RandomAgent

        return RandomAgent()
    policy, samples, inference = _policy(name)
    return DouZeroAgent(policy=policy, samples=samples, seed=seed, objective=objective, inference=inference)


def _play_douzero(deal: tuple, landlord: str, farmers: str, seed: int, objective: str) -> list:
    from douzero.env.game import GameEnv

    from ddz_tools.agents import DOUZERO_POSITIONS, douzero_deal

    names = (landlord, farmers, farmers)
    players = {pos: _dz_agent(n, seed + k, objective) for k, (pos, n) in enumerate(zip(DOUZERO_POSITIONS, names))}
    env = GameEnv(players)
    random.seed(seed)                              # DouZero's random agent
    env.card_play_init(douzero_deal(*deal))
    while not env.game_over:
        env.step()
    return [pack_douzero(a) if a else 0 for a in env.card_play_action_seq]


# One (pair, deal) -------------------------------------------------------------------------


def _warm(min_ess: "float | None" = None) -> None:
    """Load the kernels and the harnesses in a worker before its first timed game; with
    ``min_ess``, the inference agents temper the likelihoods below that share instead of
    the advisor's own (:func:`ddz_tools.analysis.advise.weigh`)."""
    from ddz_tools.analysis.advise import history_view, inference
    from ddz_tools.agents import heuristic_play, import_rlcard

    if min_ess is not None:
        inference.weigh.__defaults__ = (min_ess,)

    import_rlcard()
    heuristic_play(history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bottom="22A"))


def _one(args) -> dict:
    pair, i, seed, objective = args
    a, b = pair.split(":")
    hands, bottom = deal_cards(game_seed(seed, i))
    deal = (hands, bottom)
    engine = "rlcard" if "rule" in (a, b) else "douzero"
    play = _play_rlcard if engine == "rlcard" else _play_douzero
    games = []
    for side, (ll, fa) in enumerate(((a, b), (b, a))):
        t0 = time.perf_counter()
        g = _settle(play(deal, ll, fa, game_seed(seed, 2 * i + side), objective))
        g["landlord"] = "A" if side == 0 else "B"
        a_seats = [0] if side == 0 else [1, 2]
        g["points_a"] = sum(g["scores"][s] for s in a_seats)
        g["a_won"] = (g["winner"] == "landlord") == (side == 0)
        g["seconds"] = round(time.perf_counter() - t0, 3)
        games.append(g)
    return {"pair": _pair_label(pair, objective), "deal": i, "seed": seed, "engine": engine, "games": games}


def _pair_label(pair: str, objective: str) -> str:
    return ":".join(_agent_label(n, objective) for n in pair.split(":"))


# The summary -------------------------------------------------------------------------------


def _pct(p: float, lo: float, hi: float) -> str:
    return f"{p:.1%} [{lo:.1%}, {hi:.1%}]"


def _pts(m: float, lo: float, hi: float) -> str:
    return f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _stats(rows: list) -> dict:
    n = len(rows)
    won_l = sum(r["games"][0]["a_won"] for r in rows)
    won_f = sum(r["games"][1]["a_won"] for r in rows)
    pl = np.array([r["games"][0]["points_a"] for r in rows], np.int64)
    pf = np.array([r["games"][1]["points_a"] for r in rows], np.int64)
    both = mean_interval(pl + pf)
    secs = sum(g["seconds"] for r in rows for g in r["games"])
    return {"n": n, "wp": ((won_l + won_f) / (2 * n), *wilson_interval(won_l + won_f, 2 * n)),
            "wp_l": (won_l / n, *wilson_interval(won_l, n)), "wp_f": (won_f / n, *wilson_interval(won_f, n)),
            "adp": tuple(x / 2 for x in both), "adp_l": mean_interval(pl), "adp_f": mean_interval(pf),
            "games_s": 2 * n / secs if secs else float("inf"),
            "springs": sum(g["spring"] for r in rows for g in r["games"])}


def _closed_share(oracle: dict, advisor: dict, seed: int) -> "list | None":
    """Rows of the advisor's share of the oracle's margin over the heuristic, on common deals."""
    common = sorted(set(oracle) & set(advisor))
    if not common:
        return None
    rng = np.random.default_rng(seed)

    def margins(rows):
        wins = np.array([r["games"][0]["a_won"] + r["games"][1]["a_won"] for r in rows], float) / 2
        pts = np.array([r["games"][0]["points_a"] + r["games"][1]["points_a"] for r in rows], float) / 2
        return wins - 0.5, pts

    ow, op = margins([oracle[i] for i in common])
    aw, ap = margins([advisor[i] for i in common])
    out = []
    for what, o, a in (("WP margin over 50%", ow, aw), ("ADP", op, ap)):
        share = a.mean() / o.mean() if o.mean() else float("nan")
        boot = []
        for _ in range(2000):
            k = rng.integers(len(common), size=len(common))
            if o[k].mean():
                boot.append(a[k].mean() / o[k].mean())
        lo, hi = np.percentile(boot, [2.5, 97.5]) if boot else (float("nan"), float("nan"))
        out.append([what, f"{o.mean():+.3f}", f"{a.mean():+.3f}", f"{share:.0%} [{lo:.0%}, {hi:.0%}]"])
    return [len(common), out]


def summary(rows: list, seed: int, objective: str) -> None:
    """Print the tables of every pair in ``rows`` (the lines of the output file)."""
    by_pair: dict = {}
    for r in rows:
        by_pair.setdefault(r["pair"], {})[r["deal"]] = r
    print(f"ladder: seed {seed}, deals ddz_tools.engines.selfplay.deal_cards(game_seed({seed}, i)), landlord seat 0, "
          f"base 1, each pair on both sides of each deal")
    print("WP: A's games won (both roles: 2 a deal); ADP: A's points a game (landlord +-2 x stake, "
          "the two farmers +-2 x stake; stake 2^(bombs+rockets), x2 for a spring or anti-spring: "
          "DouZero's own GameEnv does not count springs); 95% intervals")
    wp, adp = [], []
    for pair, deals in by_pair.items():
        s = _stats(list(deals.values()))
        wp.append([pair, next(iter(deals.values()))["engine"], s["n"], _pct(*s["wp"]), _pct(*s["wp_l"]),
                   _pct(*s["wp_f"]), f"{s['games_s']:.1f}"])
        adp.append([pair, _pts(*s["adp"]), _pts(*s["adp_l"]), _pts(*s["adp_f"]), s["springs"]])
    print(tabulate(wp, headers=["A:B", "engine", "deals", "WP", "WP as landlord", "WP as farmers", "games/s"],
                   disable_numparse=True))
    print()
    print(tabulate(adp, headers=["A:B", "ADP", "ADP as landlord", "ADP as farmers", "springs"], disable_numparse=True))
    ora = _pair_label("oracle:heuristic", objective)
    for name in ("advisor128", "advisor128i"):
        adv = _pair_label(f"{name}:heuristic", objective)
        got = _closed_share(by_pair[ora], by_pair[adv], seed) if adv in by_pair and ora in by_pair else None
        if got:
            n, lines = got
            print(f"\nthe share of the oracle's margin over the heuristic that {name} closes ({n} common deals; "
                  f"bootstrap 95% interval over deals)")
            print(tabulate(lines, headers=["margin", "oracle", name, "share closed"], disable_numparse=True))
    _paired_inference(by_pair, objective)


def _paired_inference(by_pair: dict, objective: str) -> None:
    """advisorNi against advisorN (the same advisor without inference) against the same
    opponent, on the deals both played: the paired difference of WP and ADP per role."""
    lines = []
    for pair in sorted(by_pair):
        a, b = pair.split(":")
        name = a.split("/")[0]
        if name not in ("advisor32i", "advisor128i"):
            continue
        base = _pair_label(f"{name[:-1]}:{b.split('/')[0]}", objective)
        if base not in by_pair:
            continue
        common = sorted(set(by_pair[pair]) & set(by_pair[base]))
        for role, k in (("both", None), ("landlord", 0), ("farmers", 1)):
            def won(r):
                return (r["games"][0]["a_won"] + r["games"][1]["a_won"]) / 2 if k is None else r["games"][k]["a_won"]

            def pts(r):
                return (r["games"][0]["points_a"] + r["games"][1]["points_a"]) / 2 if k is None else r["games"][k]["points_a"]
            dw = np.array([won(by_pair[pair][i]) - won(by_pair[base][i]) for i in common], float)
            dp = np.array([pts(by_pair[pair][i]) - pts(by_pair[base][i]) for i in common], float)
            lines.append([f"{pair} - {base}", role, len(common), _pts(*mean_interval(100 * dw)) + " pts",
                          _pts(*mean_interval(dp))])
    if lines:
        print("\ninference, paired: the advisor with inference minus the same advisor without, on the deals "
              "both played (95% normal intervals over deals)")
        print(tabulate(lines, headers=["pairs", "role", "deals", "WP difference", "ADP difference"],
                       disable_numparse=True))


def _read(path: "str | None", seed: int) -> dict:
    if not path or not os.path.exists(path):
        return {}
    done = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if r["seed"] != seed:
                    raise SystemExit(f"error: {path} holds deals of seed {r['seed']}, not {seed}: use another file")
                done[(r["pair"], r["deal"])] = r
    return done


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"A:B,... of {', '.join(AGENTS)}")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="the first deal")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2, help="processes playing deals at once")
    ap.add_argument("--objective", choices=("win", "score"), default="win",
                    help="what the advisor agents (and the oracle) maximise")
    ap.add_argument("--out", default=None, help="JSON Lines of finished (pair, deal)s; a rerun skips them")
    ap.add_argument("--min-ess", type=float, default=None,
                    help="the inference agents' tempering threshold (default: the advisor's, a quarter); "
                         "give it its own --out")
    args = ap.parse_args(argv)
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()]
    for p in pairs:
        names = p.split(":")
        if len(names) != 2 or any(n not in AGENTS for n in names):
            ap.error(f"a pair is A:B with A and B among {', '.join(AGENTS)}, not {p!r}")
    done = _read(args.out, args.seed)
    # deal by deal, every pair on a deal before the next deal: a run stopped early leaves pairs
    # comparable on the same deals
    todo = [(p, i, args.seed, args.objective) for i in range(args.start, args.start + args.deals) for p in pairs
            if (_pair_label(p, args.objective), i) not in done]
    print(f"ladder: {len(pairs)} pairs x {args.deals} deals, seed {args.seed}, objective {args.objective}; "
          f"{len(done)} (pair, deal)s in the file, {len(todo)} to play, {args.procs} process(es)", file=sys.stderr)
    out = open(args.out, "a") if args.out else None
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.procs, initializer=_warm, initargs=(args.min_ess,)) as pool:
        for k, r in enumerate(pool.map(_one, todo, chunksize=1), 1):
            done[(r["pair"], r["deal"])] = r
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
            if k % 10 == 0 or k == len(todo):
                print(f"  {k}/{len(todo)} {r['pair']} deal {r['deal']}, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr)
    if out:
        out.close()
    order = [_pair_label(p, args.objective) for p in pairs]
    rows = sorted(done.values(), key=lambda r: (order.index(r["pair"]) if r["pair"] in order else len(order),
                                                r["pair"], r["deal"]))
    summary(rows, args.seed, args.objective)


if __name__ == "__main__":
    main()
