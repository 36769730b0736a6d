"""The model of the other players (``ddz_tools.engines.playermodel``): its fit on held-out games
and its speed.

    python benchmarks/playermodel.py --games 300 --seed 2 --rlcard 300 --rlcard-seed 101
    python benchmarks/playermodel.py --rules standard --games 100 --rlcard 0
    python benchmarks/playermodel.py --study --rlcard 300       # the penalty and the floor

Held-out heuristic self-play.  ``--games`` games of each variant (``--rules``, repeatable; default
every variant the advisor serves) from ``--seed`` (``ddz simulate --seed S``: keep it apart from the
fit's seed 1), every seat the heuristic; every play, bid, call, double and show is scored by the
shipped model of the variant.

RLCard's rule agent.  ``--rlcard`` games where RLCard's ``DouDizhuRuleAgentV1`` plays all three
seats inside RLCard's own ``doudizhu`` environment: deal ``i`` is
``deal_cards(game_seed(rlcard_seed, i))``, seat 0 the landlord with the bottom, no bidding (as in
``benchmarks/ladder.py``); the rule agent's random choices draw from NumPy's generator, seeded by
the game.  Each game is written as a ``ddz-record/1`` record under RLCard's rules
(``standard,kickers_distinct=off``; ``--rlcard-out FILE`` keeps them) and its plays are scored by
the ``standard`` model (its bid is a stand-in and is not scored).  The model was not fitted to
this player.

The figures, per kind of action: the mean log-likelihood per action (nats) and the top-1 accuracy
of the model (each seat's player type weighed by its earlier actions in the game), of each of its
types alone, of the uniform choice among the legal actions (top-1: its expected value) and of the
heuristic's own choice with the model's floor.

Speed.  ``history_loglik`` (the kernel the sampler calls once per drawn world) over every action
of each held-out game, every seat but the one after the landlord scored (the advisor's seat), one
memo table kept across the games (a world's hidden hands are new to it, as they are from one world
to the next): microseconds per scored action and per whole game.

``--study``: the ``standard`` model refitted (1000 games, seed 1) at several penalties and floors,
its figures on the held-out and the RLCard games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.agents import RLCARD_RULES, import_rlcard, rlcard_deal  # noqa: E402
from ddz_tools.core.cards import format_cards, parse_cards  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.playermodel import fit_model, heldout, histories, load_model, model_of, work_arrays  # noqa: E402
from ddz_tools.engines.playermodel.model import history_loglik  # noqa: E402
from ddz_tools.engines.records import rules_field  # noqa: E402
from ddz_tools.engines.selfplay import deal_cards, game_seed, simulate  # noqa: E402
from ddz_tools.variants import VARIANTS  # noqa: E402


def rlcard_record(i: int, seed: int) -> dict:
    """Game ``i`` of RLCard's rule agent in all three seats, as a ``ddz-record/1`` dict."""
    import rlcard
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    hands, bottom = deal_cards(game_seed(seed, i))
    gs = game_seed(seed, i)
    env = rlcard.make("doudizhu", config={"seed": gs % (2 ** 31)})
    env.reset()
    state, _ = rlcard_deal(env, hands, bottom)
    agent = DouDizhuRuleAgentV1()
    np.random.seed(gs % (2 ** 32))
    while not env.is_over():
        state, _ = env.step(agent.eval_step(state)[0], raw_action=True)
    plays = [{"seat": p, "cards": "" if a == "pass" else format_cards(parse_cards(a))}
             for p, a in env.game.round.trace]
    return {"schema": "ddz-record/1", "id": f"rlcard-rule-{seed}-{i}", "rules": rules_field(Rules.parse(RLCARD_RULES)),
            "players": ["rlcard-rule"] * 3, "deal": {"hands": [format_cards(h) for h in hands],
                                                     "bottom": format_cards(bottom)},
            "first_bidder": 0, "bids": [{"seat": 0, "bid": 3}], "landlord": 0, "plays": plays}


def table(title: str, figures: dict) -> None:
    print(title)
    print(f"  {'actions':8s} {'n':>7s}  {'model':>15s}  {'heuristic type':>15s}  {'generic type':>15s}  "
          f"{'uniform':>15s}  {'heuristic+eps':>15s}")
    for kind, f in figures.items():
        cells = [f["model"], *f["types"], f["uniform"], f["heuristic"]]
        print(f"  {kind:8s} {f['n']:7d}  " + "  ".join(f"{a:7.3f} {b:6.1%}" for a, b in cells))
    sys.stdout.flush()


def speed(hists, model) -> tuple:
    """(microseconds per scored action, per call) of ``history_loglik`` over whole histories, every
    seat but the one after the landlord scored (the advisor's seat), one memo table kept."""
    table_, bufc, bufk = work_arrays()
    out = np.zeros(4, np.int64)
    parts = np.zeros((len(model.types), 4), np.int64)
    actions = 0
    t = 0.0
    for h in hists:
        mask = ((1 << h.players) - 1) & ~(1 << ((h.landlord + 1) % h.players))
        actions += int(sum(1 for s in h.seats.tolist() if (mask >> s) & 1))
        t0 = time.perf_counter()
        history_loglik(h.dealt, h.start, h.landlord, h.bid_flags, h.flags, h.stage_flags, h.seats, h.values, h.kinds,
                       mask, model.weights, table_, bufc, bufk, out[:h.players], parts[:, :h.players])
        t += time.perf_counter() - t0
    return 1e6 * t / max(actions, 1), 1e6 * t / max(len(hists), 1)


def study(rl_records, games: int, seed: int) -> None:
    held = list(simulate(games, seed=seed, rules="standard"))
    for lam in (0.1, 0.01, 0.001):
        m = fit_model("standard", 1000, 1, lam=lam)
        for eps in (0.01, 0.03, 0.1):
            mm = model_of("standard", [dict(t, eps=eps) for t in m.types], m.fit)
            print(f"lam {lam} eps {eps}:")
            for name, recs, dec in (("held-out heuristic", held, True), ("RLCard rule agent", rl_records, False)):
                if recs:
                    f = heldout(mm, "standard", records=recs, decisions=dec)["all"]
                    print(f"  {name:18s} model {f['model'][0]:7.3f} {f['model'][1]:6.1%}   heuristic type "
                          f"{f['types'][0][0]:7.3f}   generic type {f['types'][1][0]:7.3f}   uniform "
                          f"{f['uniform'][0]:7.3f}   heuristic+eps {f['heuristic'][0]:7.3f}")
            sys.stdout.flush()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", action="append", help="a variant (repeat; default every variant the advisor serves)")
    ap.add_argument("--games", type=int, default=300, help="held-out self-play games a variant (default 300)")
    ap.add_argument("--seed", type=int, default=2, help="their run seed (default 2; the fit's is 1)")
    ap.add_argument("--rlcard", type=int, default=300, help="games of RLCard's rule agent (default 300)")
    ap.add_argument("--rlcard-seed", type=int, default=101, help="their deals' run seed (default 101)")
    ap.add_argument("--rlcard-out", default=None, help="write the RLCard games as ddz-record/1 lines")
    ap.add_argument("--study", action="store_true", help="refit standard at several penalties and floors")
    a = ap.parse_args(argv)
    rl = []
    if a.rlcard:
        import_rlcard()
        t0 = time.perf_counter()
        rl = [rlcard_record(i, a.rlcard_seed) for i in range(a.rlcard)]
        print(f"{len(rl)} games of RLCard's rule agent from seed {a.rlcard_seed} ({time.perf_counter() - t0:.0f} s)")
        if a.rlcard_out:
            with open(a.rlcard_out, "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in rl)
    if a.study:
        study(rl, a.games, a.seed)
        return 0
    names = a.rules or [n for n, v in VARIANTS.items() if v.supports("advise") is None]
    for name in names:
        model = load_model(name)
        recs = list(simulate(a.games, seed=a.seed, rules=name))
        table(f"{name}: {a.games} games of heuristic self-play from seed {a.seed} (model fitted on "
              f"{model.fit.get('games')} games from seed {model.fit.get('seed')}); log-likelihood per action "
              f"(nats), top-1", heldout(model, name, records=recs))
        hists = histories(recs)
        speed(hists[:3], model)                     # load the kernel
        us, per_call = speed(hists, model)
        print(f"  speed: history_loglik {us:.1f} us a scored action, {per_call / 1000:.1f} ms a whole game "
              f"({len(hists)} games, two seats scored)")
    if rl:
        table(f"RLCard's rule agent, all three seats: {len(rl)} games from seed {a.rlcard_seed}, plays scored "
              f"by the standard model", heldout(load_model("standard"), RLCARD_RULES, records=rl, decisions=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
