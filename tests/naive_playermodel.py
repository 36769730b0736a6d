"""Plain-Python references for the player model's kernels (tests only).

Written from the model's documentation (``ddz_tools/engines/playermodel/model.py``),
sharing none of its code: the features of each legal action, the softmax
with its floor, the ordered logits of the decisions, the mixture over player
types and the walk through a history (turn, trick, auction) are written
again here, in floating point.  The building blocks the model stands on are
taken from their own kernels, which their own tests check: the move
generator (``gen_all``), the heuristic's play (``policy_play``), the
decomposer (``min_plays_fresh``) and the hand strength (``policy_strength``).

Types are dicts with float weights: ``play`` (12 in the order of
``FEATURE_NAMES``), ``bid``/``call``/``double``/``show`` as ``(beta,
alpha)``, ``eps`` and ``prior``.
"""

from __future__ import annotations

import math

import numpy as np

from ddz_tools.engines.kernels import BUFFER, gen_all, min_plays_fresh, new_table, policy_play, policy_strength

RANK_2, RANK_X, RANK_D = 12, 13, 14
SOLO, PAIR, BOMB, ROCKET = 1, 2, 13, 14
BID_T = {1: -1, 2: 1, 3: 3}           # the heuristic's bid thresholds (docs: policies.py)
DOUBLE_LANDLORD = (0, 0)              # x2, x4 from
DOUBLE_FARMER = 5                     # x2 from (never x4)
SHOW_FROM = 0


def count(h: int, r: int) -> int:
    return (h >> (4 * r)) & 15


def size(h: int) -> int:
    return sum(count(h, r) for r in range(15))


def is_bomb(kind: int) -> bool:
    return kind & 31 in (BOMB, ROCKET)


def legal(hand: int, flags: int, prev_kind: int) -> list:
    """The legal actions: the pass first when answering, then the generator's."""
    bufc, bufk = np.empty(8192, np.int64), np.empty(8192, np.int64)
    n, c, k = gen_all(np.int64(hand), flags, prev_kind, bufc, bufk)
    acts = [(int(c[i]), int(k[i])) for i in range(n)]
    return ([(0, 0)] if prev_kind else []) + acts


def wild_ranks(flags: int) -> list:
    """The wild ranks in rule flags (bits 16-19 and 20-23: rank + 1, 0 for none)."""
    return [((flags >> sh) & 15) - 1 for sh in (16, 20) if (flags >> sh) & 15]


def naive_features(hands, seat: int, landlord: int, prev_kind: int, prev_seat: int, flags: int) -> list:
    """``[((cards, kind), features)]`` of every legal action, features a
    tuple of 12.  Under wild cards the plays added are those of the card set
    of the same kind with the fewest wild cards (the first in order on a tie)."""
    hand = int(hands[seat])
    wild = wild_ranks(flags)
    choice = policy_play(np.array(hands, np.int64), seat, landlord, prev_kind, prev_seat, 1, flags,
                         new_table(14), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    choice = (int(choice[0]), int(choice[1]))
    acts = legal(hand, flags, prev_kind)
    opponents = [s for s in range(len(hands)) if s != seat and (seat == landlord or s == landlord)]
    fewest = min(size(int(hands[s])) for s in opponents)
    partner_holds = prev_kind != 0 and seat != landlord and prev_seat != landlord
    low = min(r for r in range(15) if count(hand, r))
    same = [(k >> 5) & 15 for c, k in acts if k and (k & 31) == (prev_kind & 31) and not is_bomb(k)]
    lowest_answer = min(same) if same else None
    before = min_plays_fresh(np.int64(hand), flags)
    by_kind: dict = {}
    for c, k in acts:
        by_kind.setdefault(k, []).append(c)
    stand_in = {k: min(cs, key=lambda c: sum(count(c, r) for r in wild)) for k, cs in by_kind.items()}  # first of a tie
    added = {}
    out = []
    for c, k in acts:
        f = dict.fromkeys(("policy", "pass", "pass_partner", "pass_danger", "added", "main", "cards", "controls",
                           "bomb", "out", "lowest", "lead_danger"), 0)
        f["policy"] = int((c, k) == choice)
        if k == 0:
            f["pass"] = 1
            f["pass_partner"] = int(partner_holds)
            f["pass_danger"] = int(not partner_holds and fewest <= 2)
            out.append(((c, k), tuple(f.values())))
            continue
        f["main"] = (k >> 5) & 15
        f["cards"] = size(c)
        if c == hand:
            f["out"] = 1
        else:
            s = stand_in[k] if wild else c
            if s not in added:
                added[s] = max(0, min(3, min_plays_fresh(np.int64(hand - s), flags) - before + 1))
            f["added"] = added[s]
            if is_bomb(k):
                f["bomb"] = 1
            else:
                f["controls"] = count(c, RANK_2) + count(c, RANK_X) + count(c, RANK_D)
        if prev_kind == 0:
            f["lowest"] = int(count(c, low) > 0)
            f["lead_danger"] = int((k & 31 == SOLO and fewest == 1) or (k & 31 == PAIR and fewest == 2))
        else:
            f["lowest"] = int((k & 31) == (prev_kind & 31) and not is_bomb(k) and (k >> 5) & 15 == lowest_answer)
        out.append(((c, k), tuple(f.values())))
    return out


def naive_play_logprobs(hands, seat, landlord, prev_kind, prev_seat, flags, types) -> list:
    """``[((cards, kind), [log P under each type])]`` (floats, nats)."""
    feats = naive_features(hands, seat, landlord, prev_kind, prev_seat, flags)
    n = len(feats)
    per_type = []
    for t in types:
        z = [sum(w * x for w, x in zip(t["play"], f)) for _, f in feats]
        top = max(z)
        total = sum(math.exp(v - top) for v in z)
        per_type.append([math.log((1 - t["eps"]) * math.exp(v - top) / total + t["eps"] / n) for v in z])
    return [(a, [p[i] for p in per_type]) for i, (a, _) in enumerate(feats)]


def _wants(s: int, threshold, beta: float, alpha: float) -> float:
    """The chance the seat wants a level from ``threshold`` (None: never; -inf: always)."""
    if threshold is None:
        return 0.0
    if threshold == -math.inf:
        return 1.0
    return 1 / (1 + math.exp(-(beta * (s - threshold + 0.5) + alpha)))


def naive_decision(code: str, hand: int, arg: int, flags: int, four_allowed: bool, types) -> list:
    """``[(value, [log P under each type])]`` of decision ``code`` (``bid``,
    ``call``, ``double``, ``show``)."""
    s = policy_strength(np.int64(hand), flags, new_table(12))
    if code == "bid":
        values = [0] + list(range(arg + 1, 4))
        levels = {v: (BID_T[v], BID_T.get(v + 1)) for v in values if v}
        levels[0] = (-math.inf, BID_T.get(arg + 1))
    elif code == "call":
        thr = BID_T[min(arg, 2) + 1]
        values, levels = [0, 1], {0: (-math.inf, thr), 1: (thr, None)}
    elif code == "double":
        values = [1, 2, 4] if four_allowed else [1, 2]
        two = DOUBLE_LANDLORD[0] if arg else DOUBLE_FARMER
        four = DOUBLE_LANDLORD[1] if arg and four_allowed else None
        levels = {1: (-math.inf, two), 2: (two, four), 4: (four, None)}
    else:
        values, levels = [0, 1], {0: (-math.inf, SHOW_FROM), 1: (SHOW_FROM, None)}
    out = []
    for v in values:
        lps = []
        for t in types:
            beta, alpha = t[code]
            lo, hi = levels[v]
            p = max(0.0, _wants(s, lo, beta, alpha) - _wants(s, hi, beta, alpha))
            lps.append(math.log((1 - t["eps"]) * p + t["eps"] / len(values)))
        out.append((v, lps))
    return out


CODES = {-1: "bid", -2: "call", -3: "double", -4: "show"}


def naive_history(h, mask: int, types, four_allowed: bool, must_call=lambda hand: False) -> tuple:
    """``(per seat log-likelihood over the types, per type and seat)`` of a
    :class:`~ddz_tools.engines.playermodel.History`, in nats."""
    n = h.players
    hands = [int(x) for x in h.start]
    parts = [[0.0] * n for _ in types]
    prev_kind, prev_seat = 0, h.landlord
    highest = calls = 0
    for s, v, k in zip(h.seats.tolist(), h.values.tolist(), h.kinds.tolist()):
        scored = (mask >> s) & 1
        if k >= 0:
            if scored:
                lps = dict(naive_play_logprobs(hands, s, h.landlord, prev_kind, prev_seat, h.flags, types))[(v, k)]
                for t in range(len(types)):
                    parts[t][s] += lps[t]
            if k:
                hands[s] -= v
                prev_kind, prev_seat = k, s
            elif (s + 1) % n == prev_seat:
                prev_kind, prev_seat = 0, 0
            continue
        code = CODES[k]
        if code in ("bid", "call"):
            hand, flags, arg = int(h.dealt[s]), h.bid_flags, (highest if code == "bid" else calls)
            if must_call(hand):
                scored = 0
        else:
            hand, flags, arg = int(h.start[s]), h.flags, int(s == h.landlord)
        if scored:
            lps = dict(naive_decision(code, hand, arg, flags, four_allowed, types))[v]
            for t in range(len(types)):
                parts[t][s] += lps[t]
        if code == "bid":
            highest = max(highest, v)
        if code == "call" and v:
            calls += 1
    mix = []
    for s in range(n):
        z = [math.log(t["prior"]) + parts[i][s] for i, t in enumerate(types)]
        top = max(z)
        mix.append(top + math.log(sum(math.exp(x - top) for x in z)))
    return mix, parts
