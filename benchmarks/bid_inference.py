"""The bid evaluator's reading of the earlier bids: the policy's bid rule against the player model.

    python benchmarks/bid_inference.py --positions 300 --deals 1000 --seed 1

``ddz bid`` deals the unseen cards at random and keeps a deal by what the seats before this one
bid: by default when the heuristic's bid rule, on the dealt hands, bids exactly so (a hard
threshold on its hand strength); with ``--inference on`` with the chance the player model
(``ddz_tools.engines.playermodel``, fitted to heuristic self-play) gives those bids.  Either way
the kept deals follow a posterior over the earlier bidders' hands; this benchmark measures how
close each posterior comes to the hands they really held.

Positions.  ``--positions`` auctions of each kind of bidder: a deal (``--seed``), the evaluating
seat second or third (alternately), the seats before it bidding as the bidder does (the auction
must still be open at this seat).  The bidders:

* ``heuristic``: the heuristic's own rule (the rule the default reads by; the model was fitted to
  it);
* ``noisy``: the heuristic's thresholds on its strength plus a normal error (sd 2 strength points,
  rounded), a player who mostly agrees with the rule but not at its edges;
* ``bold``: the heuristic's thresholds lowered by 2 (a player who bids on weaker hands).

Posteriors.  For each position ``--deals`` deals of the unseen cards, uniformly, each weighed by
the bid rule (1 or 0), by the model's likelihood, and by 1 (no reading): importance sampling of
exactly the posteriors the evaluator's rejection loops keep.  Per earlier bidder: the mean
absolute error of the expected count of each rank (15 ranks) against the true hand, and the
log-probability of the bidder's true hand-strength score (a histogram of the weighted deals,
add-one smoothed over scores -12..15).  A position where the rule keeps no deal is counted
("rule fails": the evaluator would stop with an error) and scored with the uniform posterior.
Paired differences (model minus rule) with 95% intervals over positions.

Decisions (``--regret N``: the first N positions of each bidder).  ``evaluate_bid`` with and
without inference (``--samples``, the seed of the position) gives a recommendation; each choice
is then worth, on the true deal, the mean score over ``--playouts`` heuristic playouts after the
rest of the auction by the same bidder (the evaluator's scoring: +-2 x stake as landlord, +-stake
as a farmer, 0 when all pass).  The regret of a recommendation is the best choice's worth minus
its worth; paired difference model minus rule with its interval, and how often the two agree.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from ddz_tools.analysis.bid import CHOICES, evaluate_bid  # noqa: E402
from ddz_tools.core.cards import format_cards  # noqa: E402
from ddz_tools.core.gamerules import multiplier  # noqa: E402
from ddz_tools.core.rules import Rules  # noqa: E402
from ddz_tools.engines.kernels import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, playout  # noqa: E402
from ddz_tools.engines.kernels import decision_logprobs  # noqa: E402
from ddz_tools.engines.playermodel import DECISION_CODES, SCALE, load_model, work_arrays  # noqa: E402
from ddz_tools.engines.policies import BID_T1, BID_T2, BID_T3, bid_rule, strength  # noqa: E402

DECK = [r for r in range(13) for _ in range(4)] + [13, 14]
THRESHOLDS = (BID_T1, BID_T2, BID_T3)
SCORES = range(-12, 16)
BIDDERS = ("heuristic", "noisy", "bold")


def pack(ranks) -> int:
    return sum(1 << (4 * r) for r in ranks)


def counts(ranks) -> np.ndarray:
    return np.bincount(np.asarray(ranks, int), minlength=15)


def threshold_bid(s: int, highest: int, shift: int = 0) -> int:
    """The highest bid above ``highest`` whose (shifted) threshold ``s`` reaches, else 0 (pass)."""
    best = 0
    for level, t in zip((1, 2, 3), THRESHOLDS):
        if level > highest and s >= t + shift:
            best = level
    return best


def bidder_bid(kind: str, ranks, highest: int, rng: random.Random) -> int:
    hand = pack(ranks)
    if kind == "heuristic":
        return bid_rule(hand, highest)
    s = strength(hand)
    if kind == "noisy":
        return threshold_bid(s + round(rng.gauss(0, 2)), highest)
    return threshold_bid(s, highest, shift=-2)


def positions(kind: str, n: int, seed: int) -> list:
    """``n`` auctions of bidder ``kind``: (my seat, my ranks, each earlier seat's ranks, the bids,
    the later seats' ranks, the bottom's ranks)."""
    rng = random.Random(f"{seed}-{kind}")
    out = []
    while len(out) < n:
        deck = DECK[:]
        rng.shuffle(deck)
        hands = [sorted(deck[17 * k:17 * (k + 1)]) for k in range(3)]
        me = 1 + len(out) % 2
        bids = []
        for p in range(me):
            bids.append(bidder_bid(kind, hands[p], max(bids, default=0), rng))
        if max(bids) == 3:
            continue
        out.append((me, hands[me], hands[:me], tuple(bids), hands[me + 1:], sorted(deck[51:])))
    return out


def model_loglik(model, hands, bids, flags, table, opts, out) -> float:
    """Log-likelihood (nats) of the bids under the model, each seat mixed over the player types."""
    total = 0.0
    priors = model.priors
    highest = 0
    for h, b in zip(hands, bids):
        n = decision_logprobs(DECISION_CODES["bid"], h, highest, flags, 0, model.weights, table, opts, out)
        lp = [out[t, list(opts[:n]).index(b)] / SCALE for t in range(len(priors))]
        top = max(lp)
        total += top + math.log(sum(p * math.exp(x - top) for p, x in zip(priors, lp)))
        highest = max(highest, b)
    return total


def evaluate(pos, deals: int, rng: np.random.Generator, model, table, opts, out) -> dict:
    me, mine, truth, bids = pos[:4]
    # The unseen cards: the deck less my hand (by rank, with multiplicity).
    left = list(DECK)
    for r in mine:
        left.remove(r)
    left = np.array(left)
    flags = Rules().flags
    k = len(bids)
    ranks = np.empty((deals, k, 17), int)
    rule_w = np.zeros(deals)
    model_w = np.zeros(deals)
    strengths = np.empty((deals, k), int)
    for d in range(deals):
        perm = rng.permutation(left)
        hs = [np.sort(perm[17 * j:17 * (j + 1)]) for j in range(k)]
        packed = [pack(h) for h in hs]
        for j in range(k):
            ranks[d, j] = hs[j]
            strengths[d, j] = strength(packed[j])
        rule_w[d] = float(all(bid_rule(packed[j], max(bids[:j], default=0)) == bids[j] for j in range(k)))
        model_w[d] = math.exp(model_loglik(model, packed, bids, flags, table, opts, out))
    res = {"rule_fails": rule_w.sum() == 0}
    for name, w in (("none", np.ones(deals)), ("rule", rule_w if rule_w.sum() else np.ones(deals)),
                    ("model", model_w)):
        w = w / w.sum()
        mae, ll = 0.0, 0.0
        for j in range(k):
            exp_counts = sum(w[d] * counts(ranks[d, j]) for d in range(deals))
            mae += np.abs(exp_counts - counts(truth[j])).mean()
            hist = {s: 1.0 / deals for s in SCORES}
            for d in range(deals):
                s = int(min(max(strengths[d, j], SCORES[0]), SCORES[-1]))
                hist[s] += w[d]
            z = sum(hist.values())
            s_true = int(min(max(strength(pack(truth[j])), SCORES[0]), SCORES[-1]))
            ll += math.log(hist[s_true] / z)
        res[name] = (mae / k, ll / k)
        res[f"ess_{name}"] = 1.0 / float((w ** 2).sum())
    return res


def true_worth(kind: str, pos, choice: int, playouts: int, seed: int, work) -> float:
    """What bid ``choice`` is worth to this seat on the true deal: the rest of the auction by the
    bidder, then the mean score over heuristic playouts."""
    me, mine, earlier, bids, later, bottom = pos
    hands = [pack(h) for h in earlier] + [pack(mine)] + [pack(h) for h in later]
    rng = random.Random(f"{seed}-rest-{choice}")
    history = list(bids) + [choice]
    for p in range(me + 1, 3):
        if max(history) == 3:
            break
        history.append(bidder_bid(kind, later[p - me - 1], max(history), rng))
    top = max(history)
    if top == 0:
        return 0.0
    landlord = history.index(top)
    deal = np.array(hands, np.int64)
    deal[landlord] += pack(bottom)
    pols = np.ones(3, np.int64)
    total = 0
    for k in range(playouts):
        res = playout(deal, landlord, pols, Rules().flags, 1000003 * seed + k, *work)
        won = int(res[R_LANDLORD_WON])
        stake = top * int(multiplier(res[R_DOUBLINGS], res[R_SPRING], res[R_ANTI_SPRING]))
        if landlord == me:
            total += 2 * stake if won else -2 * stake
        else:
            total += -stake if won else stake
    return total / playouts


def regrets(kind: str, pos, samples: int, playouts: int, seed: int, work) -> tuple:
    """(regret without inference, regret with it, the two agree) of one position."""
    me, mine, bids = pos[0], pos[1], pos[3]
    legal = [c for c in range(4) if c == 0 or c > max(bids)]
    worth = {c: true_worth(kind, pos, c, playouts, seed, work) for c in legal}
    best = max(worth.values())
    recs = []
    for inference in (False, True):
        ev = evaluate_bid(format_cards(pack(mine)), seat=me, before=bids, samples=samples, seed=seed, workers=1,
                          inference=inference)
        recs.append(CHOICES.index(ev.recommendation))
    return best - worth[recs[0]], best - worth[recs[1]], recs[0] == recs[1]


def mean_ci(xs) -> tuple:
    xs = np.asarray(xs, float)
    m = xs.mean()
    h = 1.96 * xs.std(ddof=1) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - h, m + h


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bidders", default=",".join(BIDDERS))
    ap.add_argument("--regret", type=int, default=0, help="positions of each bidder whose decisions are scored")
    ap.add_argument("--samples", type=int, default=500, help="evaluate_bid's samples for --regret")
    ap.add_argument("--playouts", type=int, default=32, help="playouts of the true deal per choice for --regret")
    args = ap.parse_args(argv)
    model = load_model("standard")
    table, _, _ = work_arrays()
    opts = np.empty(4, np.int64)
    out = np.empty((len(model.types), 4), np.int64)
    print(f"bid inference: {args.positions} positions per bidder, {args.deals} deals each, seed {args.seed}")
    if args.regret:
        from ddz_tools.engines.selfplay import work_arrays as playout_work

        work = playout_work()
        print(f"decisions: {args.regret} positions per bidder, {args.samples} samples, {args.playouts} playouts "
              f"of the true deal per choice")
        for kind in args.bidders.split(","):
            t0 = time.time()
            rows = [regrets(kind, p, args.samples, args.playouts, args.seed + i, work)
                    for i, p in enumerate(positions(kind, args.regret, args.seed))]
            r0, r1 = mean_ci([r[0] for r in rows]), mean_ci([r[1] for r in rows])
            d = mean_ci([r[1] - r[0] for r in rows])
            agree = sum(r[2] for r in rows) / len(rows)
            print(f"{kind:<10} regret rule {r0[0]:.3f} [{r0[1]:.3f}, {r0[2]:.3f}], model {r1[0]:.3f} "
                  f"[{r1[1]:.3f}, {r1[2]:.3f}]; model - rule {d[0]:+.3f} [{d[1]:+.3f}, {d[2]:+.3f}]; "
                  f"agree {100 * agree:.0f}%  ({time.time() - t0:.0f} s)")
        return 0
    print(f"{'bidder':<10} {'reading':<6} {'MAE ranks':>10} {'loglik strength':>16} {'ESS':>7}  rule fails")
    for kind in args.bidders.split(","):
        t0 = time.time()
        rng = np.random.default_rng(args.seed)
        rows = [evaluate(p, args.deals, rng, model, table, opts, out)
                for p in positions(kind, args.positions, args.seed)]
        fails = sum(r["rule_fails"] for r in rows)
        for name in ("none", "rule", "model"):
            mae = np.mean([r[name][0] for r in rows])
            ll = np.mean([r[name][1] for r in rows])
            ess = np.median([r[f"ess_{name}"] for r in rows])
            print(f"{kind:<10} {name:<6} {mae:>10.4f} {ll:>16.4f} {ess:>7.0f}"
                  + (f"  {fails}/{len(rows)}" if name == "rule" else ""))
        d_mae = mean_ci([r["model"][0] - r["rule"][0] for r in rows])
        d_ll = mean_ci([r["model"][1] - r["rule"][1] for r in rows])
        print(f"{kind:<10} model - rule: MAE {d_mae[0]:+.4f} [{d_mae[1]:+.4f}, {d_mae[2]:+.4f}], "
              f"loglik {d_ll[0]:+.4f} [{d_ll[1]:+.4f}, {d_ll[2]:+.4f}]  ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
