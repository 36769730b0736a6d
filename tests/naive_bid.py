"""Plain-Python twin of the bid evaluator's kernels (tests only).

Written from the definitions in the module docs of ``ddz_tools/analysis/bid/`` and from
docs/rules.md, in plain Python with unbounded ints and lists, sharing no code
with the kernels:

* :class:`Stream` -- the counter-based random words, as an iterator;
* :func:`naive_deal` -- the deal of one sample (Fisher-Yates by swapping in a
  list, words drawn from a :class:`Stream`);
* :func:`naive_rows` -- one result row per sample index: the rejection loop on
  the earlier bids, the rest of the auction for every choice and the score
  of this seat, calling the policy kernels (``_bid_rule``, ``playout``)
  one decision or one playout at a time from Python;
* :func:`naive_summary` -- the aggregate figures (win counts, score sums)
  computed from the rows with Python loops;
* :func:`naive_wilson` -- the Wilson interval as the two roots of its quadratic.

The policies themselves are another module's kernels (with their own
references), so they are called, not re-implemented.
"""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np

MASK = (1 << 32) - 1


def h32(x: int) -> int:
    """Mueller's 32-bit integer hash (multiplier 0x45d9f3b), with Python ints."""
    x %= 1 << 32
    for _ in range(2):
        x = (x ^ (x >> 16)) * 0x45D9F3B % (1 << 32)
    return x ^ (x >> 16)


def mix2(a: int, b: int) -> int:
    return h32(h32(a) ^ h32((b + 0x9E3779B9) % (1 << 32)))


def seed_key(seed: int) -> int:
    s = seed % (1 << 64)
    return mix2(s % (1 << 32), s // (1 << 32))


def sample_key(seed: int, index: int, attempt: int) -> int:
    return mix2(mix2(seed_key(seed), index), attempt)


class Stream:
    """The random 32-bit words of one sample key, in order."""

    def __init__(self, key: int):
        self.key = key
        self.j = 0

    def __iter__(self):
        return self

    def __next__(self) -> int:
        w = h32(mix2(self.key, self.j) + 0x7F4A7C15)
        self.j += 1
        return w

    def below(self, m: int) -> int:
        """A uniform integer in ``[0, m)``: reject words in the incomplete last block."""
        top = (1 << 32) - (1 << 32) % m
        for w in self:
            if w < top:
                return w % m
        raise AssertionError("unreachable")


def naive_shuffle(items: list, key: int) -> list:
    out = list(items)
    stream = Stream(key)
    for pos in reversed(range(1, len(out))):
        idx = stream.below(pos + 1)
        out[pos], out[idx] = out[idx], out[pos]
    return out


def pack(ranks) -> int:
    return sum(1 << (4 * r) for r in ranks)


def naive_deal(unseen: list, key: int, me: int, me17: int, bottom_known: "int | None", seats: int = 3):
    """(hands by bidding position, bottom) of one sample key: the shuffled
    unseen cards go round the other seats from this seat's left, a hand's
    worth each (17, or 25 at a four-player table), the rest to the bottom."""
    cards = naive_shuffle(unseen, key)
    n = 17 if seats == 3 else 25
    hands = [0] * seats
    hands[me] = me17
    for k in range(1, seats):
        hands[(me + k) % seats] = pack(cards[n * (k - 1):n * k])
    bottom = bottom_known if bottom_known is not None else pack(cards[n * (seats - 1):])
    return hands, bottom


@numba.njit
def _seed_numba(s):
    np.random.seed(s)


def policy_bid(bid_rule, hand: int, policy: int, flags: int, highest: int, key: int, pos: int) -> int:
    """The policy's bid, numba's generator seeded as the module doc says."""
    _seed_numba(mix2(key, 0x2000 + 4 * pos + highest))
    return int(bid_rule(hand, policy, flags, highest))


def naive_wild(flags: int, given: int, key: int) -> tuple[int, int]:
    """The flags of one sampled deal's bids and play under Laizi rules
    (``flags`` the game flags): numba's generator seeded with the deal's key
    draws the wild ranks (the game's rule, ``gamerules.draw_wild``); the
    ``given`` ones replace the first drawn, and a drawn second rank equal to
    a given first is replaced by the drawn first."""
    from ddz_tools.core.gamerules import GAME_MASK, draw_wild
    from ddz_tools.core.kinds import WILD_MASK, WILD_SHIFT

    n = (flags >> 24) & 3
    if n == 0:
        return flags, flags
    _seed_numba(mix2(key, 0x3000))
    _, every = draw_wild(flags)
    drawn = [((every >> (WILD_SHIFT + 4 * i)) & 15) - 1 for i in range(n)]
    known = [((given >> (WILD_SHIFT + 4 * i)) & 15) - 1 for i in range(n)]
    wild = [k if k >= 0 else d for k, d in zip(known, drawn)]
    if n == 2 and known[0] >= 0 and known[1] < 0 and wild[1] == wild[0]:
        wild[1] = drawn[0]
    shown = wild if flags & (1 << 26) else wild[:n - 1]
    base = flags & ~(GAME_MASK | WILD_MASK)

    def bits(ranks):
        return sum((r + 1) << (WILD_SHIFT + 4 * i) for i, r in enumerate(ranks))

    return base | bits(shown), base | bits(wild)


def _stake_multiple(doublings: int, spring_events: int) -> int:
    """The multiplier from the playout's stake value (doublings below bit 8,
    triplings above: four-player ``bomb_doubles=ladder``) and its spring and
    anti-spring: a factor 2 per doubling event, 3 per tripling."""
    return 2 ** ((doublings & 255) + spring_events) * 3 ** (doublings >> 8)


def naive_rows(problem, policy: int, flags: int, seed: int, start: int, count: int, max_attempts: int,
               mode: int = 0, given: int = 0, spring: int = 0, model=None, rules=None):
    """One dict per sample index, from the rules text and the documented seeds.

    ``mode`` 0 is ``bidding=single-round``, 1 is ``until-two-pass``;
    ``flags`` are the game flags, ``given`` the wild ranks the bidder knows
    (Laizi rules draw the others for each deal, see :func:`naive_wild`).
    With a player ``model`` (and the ``rules``) a deal is kept by
    :func:`naive_model_accepts` instead of the policy's bids.
    """
    from ddz_tools.engines.policies import _bid_rule
    from ddz_tools.engines.selfplay import (R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, R_SPRING_ANY, playout,
                                    work_arrays)

    game_flags = flags
    spring_col = R_SPRING_ANY if spring else R_SPRING   # spring=any-player: one silent farmer is enough

    unseen = [int(x) for x in problem.unseen]
    me = problem.seat
    seats = getattr(problem, "seats", 3)
    rows = []
    for index in range(start, start + count):
        row = {"attempts": 0, "accepted": False}
        for attempt in range(max_attempts):
            key = sample_key(seed, index, attempt)
            hands, bottom = naive_deal(unseen, key, me, problem.me17, problem.bottom, seats)
            flags, play_fl = naive_wild(game_flags, given, key)
            row["attempts"] += 1
            if model is not None:
                likelihood = naive_model_likelihood("bid", rules, model, hands, me, problem.before)
                if naive_model_accepts(likelihood, key):
                    row["accepted"] = True
                    break
                continue
            made = []
            for p in range(me):
                made.append(policy_bid(_bid_rule, hands[p], policy, flags, max(made, default=0), key, p))
                if made[-1] != problem.before[p]:
                    break
            if made == list(problem.before):
                row["accepted"] = True
                break
        rows.append(row)
        if not row["accepted"]:
            continue
        outcomes = {}

        def outcome(landlord):
            if landlord not in outcomes:
                deal = list(hands)
                deal[landlord] += bottom
                rel = (landlord - me) % seats
                res = playout(np.array(deal, dtype=np.int64), landlord, np.full(seats, policy, np.int64), play_fl,
                              mix2(key, 0x1000 + rel), *work_arrays())
                # The stake's doublings (each bomb and the rocket; by tier under Laizi multipliers),
                # spring and anti-spring.
                outcomes[landlord] = (int(res[R_LANDLORD_WON]),
                                      _stake_multiple(int(res[R_DOUBLINGS]), int(res[spring_col] + res[R_ANTI_SPRING])))
            return outcomes[landlord]

        row["won"], row["mult"] = outcome(me)
        row["choices"] = {}
        earlier = list(problem.before)
        for choice in range(4):
            if choice and choice <= max(earlier, default=0):
                row["choices"][choice] = None
                continue
            history = [(p, earlier[p]) for p in range(me)] + [(me, choice)]
            if mode == 0:
                # One round: each later seat bids once, unless a 3 ended it.
                for p in range(me + 1, seats):
                    if max(b for _, b in history) == 3:
                        break
                    history.append((p, policy_bid(_bid_rule, hands[p], policy, flags,
                                                  max(b for _, b in history), key, p)))
            else:
                # Round the table; a seat that passed is out; stop at a 3, when
                # everyone passed, or when two passed and someone bid.
                out = {p for p, b in history if b == 0}
                turn = itertools.cycle([(me + 1) % 3, (me + 2) % 3, me])
                while True:
                    top = max(b for _, b in history)
                    if top == 3 or len(out) == 3 or (len(out) == 2 and top > 0):
                        break
                    p = next(turn)
                    if p in out:
                        continue
                    b = policy_bid(_bid_rule, hands[p], policy, flags, top, key, p)
                    history.append((p, b))
                    if b == 0:
                        out.add(p)
            top = max(b for _, b in history)
            if top == 0:
                row["choices"][choice] = {"landlord": None, "score": 0}
                continue
            landlord = [p for p, b in history if b == top][0]
            won, mult = outcome(landlord)
            stake = top * mult
            if landlord == me:
                # Each of the other seats (two, or three at four seats) settles the stake with him.
                score = (seats - 1) * (stake if won else -stake)
            else:
                score = stake if not won else -stake
            row["choices"][choice] = {"landlord": (landlord - me) % seats, "won": won, "mult": mult,
                                      "bid": top, "score": score}
    return rows


def naive_summary(rows) -> dict:
    """Counts and sums over the accepted rows, with plain loops."""
    s = {"n": 0, "drawn": 0, "wins": 0, "score": {c: 0 for c in range(4)},
         "score2": {c: 0 for c in range(4)}, "landlord": {c: 0 for c in range(4)}}
    for row in rows:
        s["drawn"] += row["attempts"]
        if not row["accepted"]:
            continue
        s["n"] += 1
        s["wins"] += row["won"]
        for c, res in row["choices"].items():
            if res is None:
                continue
            s["score"][c] += res["score"]
            s["score2"][c] += res["score"] ** 2
            s["landlord"][c] += res["landlord"] == 0
    return s


def naive_wilson(k: int, n: int, z: float) -> tuple[float, float]:
    """Both p with |k/n - p| = z * sqrt(p (1 - p) / n): a quadratic in p."""
    ph = k / n
    a = 1 + z * z / n
    b = -(2 * ph + z * z / n)
    c = ph * ph
    disc = math.sqrt(max(b * b - 4 * a * c, 0.0))
    return ((-b - disc) / (2 * a), (-b + disc) / (2 * a))


def _known_bottom_playout(hands, problem, policy: int, key: int, table, bufc, bufk) -> tuple[int, int]:
    """The playout of a deal whose landlord (seat 0) took the known bottom
    ``problem.bottom``: (landlord won, the multiple of the bottom bonus
    (``problem.flush`` for a flush), the bombs and the spring)."""
    from naive_gamerules import bottom_multiple

    from ddz_tools.engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, playout

    rules = problem.rules
    res = playout(np.array(hands, dtype=np.int64), 0, np.full(3, policy, np.int64), rules.flags, mix2(key, 0x1000),
                  table, bufc, bufk)
    bonus = 1
    if rules.bottom_bonus == "table":
        ranks = [r for r in range(15) for _ in range((problem.bottom >> (4 * r)) & 15)]
        bonus = bottom_multiple(ranks, [0, 0, 0] if problem.flush else [0, 1, 2])
    mult = _stake_multiple(int(res[R_DOUBLINGS]), int(res[R_SPRING] + res[R_ANTI_SPRING]))
    return int(res[R_LANDLORD_WON]), bonus * mult


def naive_double_rows(problem, policy: int, seed: int, start: int, count: int, max_attempts: int) -> list:
    """One dict per sample index of the doubling evaluator, from the
    definitions of ``evaluate_double``: the deal, the landlord's call and the
    earlier doubles judged by the policy (rejection), the later doubles and
    the landlord's first-play show by the policy, one playout, and this seat's
    score for each factor settled in plain Python (``naive_gamerules``)."""
    from naive_gamerules import settlement_doubled, show_multiple

    from ddz_tools.engines.policies import policy_bid, policy_double, policy_show
    from ddz_tools.engines.selfplay import work_arrays

    rules = problem.rules
    flags, sf = rules.flags, rules.stage_flags
    table, bufc, bufk = work_arrays(16)
    unseen = [int(x) for x in problem.unseen]
    me = problem.me
    order = [1, 2, 0]            # the doubling order by relative position: 0 is the landlord
    legal_factors = [f for f, ok in zip((1, 2, 4), problem.legal) if ok]

    def doubles_of(hand, p, key):
        _seed_numba(mix2(key, 0x4000 + p))
        return int(policy_double(hand, policy, flags, sf, 1 if p == 0 else 0, table))

    rows = []
    for index in range(start, start + count):
        row = {"attempts": 0, "accepted": False}
        for attempt in range(max_attempts):
            key = sample_key(seed, index, attempt)
            hands, _ = naive_deal(unseen, key, me, problem.me17, problem.bottom)
            row["attempts"] += 1
            if me != 0 and policy == 1 and policy_bid(hands[0], policy, flags, 0, table) == 0:
                continue           # a landlord the policy would not have called with
            hands[0] += problem.bottom
            if all(doubles_of(hands[p], p, key) == problem.before[i] for i, p in enumerate(order[:len(problem.before)])):
                row["accepted"] = True
                break
        rows.append(row)
        if not row["accepted"]:
            continue
        d = {}
        for i, p in enumerate(order):
            d[p] = problem.before[i] if i < len(problem.before) else (None if p == me else doubles_of(hands[p], p, key))
        _seed_numba(mix2(key, 0x5000))
        shows = policy_show(hands[0], policy, flags, sf, 100, 1, table)
        show = show_multiple(rules.show, rules.show_split, "first-play", True) if shows else 1
        won, mult = _known_bottom_playout(hands, problem, policy, key, table, bufc, bufk)
        mult *= show
        row.update(won=won, mult=mult, show=show, doubles=[d[0], d[1], d[2]])
        row["scores"] = {}
        for f in legal_factors:
            dd = [f if p == me else d[p] for p in range(3)]
            row["scores"][f] = settlement_doubled(0, bool(won), problem.base * mult, dd, rules.doubling)[me]
    return rows


class NaiveAuction:
    """A call-grab (or, with ``first_call``, first-call) auction from the
    first bidder: who acts next, the caller, the grabs and who holds the
    contract."""

    def __init__(self, first_call: bool):
        self.first_call = first_call
        self.acts, self.caller, self.grabs, self.holder, self.last_word, self.done = [], None, 0, None, False, False

    def turn(self):
        # The first round goes round once from the first bidder (seats that
        # passed the call never grab); then only the caller, for his last word.
        k = len(self.acts)
        return k % 3 if k < 3 else self.caller

    def level(self):
        return 0 if self.caller is None else 1 + self.grabs

    def act(self, a):
        seat = self.turn()
        self.acts.append(a)
        if self.caller is None:
            if a:
                self.caller, self.holder = seat, seat
                self.done = self.first_call
        elif a:
            self.grabs += 1
            self.holder = seat
        k = len(self.acts)
        if self.caller is None:
            self.done = self.done or k == 3          # all passed: a void deal
        elif k == 3 and self.grabs == 0 or k == 4:
            self.done = True



def _naive_caller(rules, policy: int, table):
    """``decide(hands, auction, key, i, flags)``: the policy's call-grab action
    at the auction's ``i``-th action under the rule flags ``flags`` (the wild
    ranks shown before the bidding in them; numba's generator seeded per
    action), a seat forced by ``must_call`` calling while nobody has called."""
    from ddz_tools.engines.policies import policy_call

    jokers_2s = {"off": None, "jokers": (1, 0), "jokers+2s": (1, 4)}[rules.must_call]

    def forced(hand):
        if jokers_2s is None:
            return False
        return (hand >> 52) & 15 and (hand >> 56) & 15 and (jokers_2s[1] == 0 or (hand >> 48) & 15 == 4)

    def decide(hands, auction, key, i, flags):
        _seed_numba(mix2(key, 0x7000 + i))
        seat = auction.turn()
        b = int(policy_call(hands[seat], policy, flags, auction.level(), table))
        if b == 0 and auction.caller is None and forced(hands[seat]):
            b = 1
        return b

    return decide


def naive_flush(bottom: int, key: int) -> bool:
    """A sampled bottom is a flush: three ranks, no joker, and the sample's
    flush stream (0x7000 under its key) 0 modulo 16 (chance 1/16)."""
    counts = [(bottom >> (4 * r)) & 15 for r in range(15)]
    return counts[13] + counts[14] == 0 and max(counts) <= 1 and mix2(key, 0x7000) % 16 == 0


def naive_rest_of_hand(hands, bottom, lead, rel, key, rules, policy, table, bufc, bufk, flags):
    """After the auction made ``lead`` landlord: the bottom or the draws, the
    doubles, the landlord's first-play show and the playout, by the policies
    (seeded as the module docs of ``bid`` say) under the rule flags
    ``flags`` (every wild rank in them).  ``(landlord won, the multiple of
    the bombs (by tier under Laizi multipliers), spring and bottom bonus,
    the show's multiple or 1, the doubles by seat)``."""
    from naive_gamerules import bottom_multiple, show_multiple

    from ddz_tools.core.cards import packed_count
    from ddz_tools.engines.policies import policy_double, policy_show
    from ddz_tools.engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, playout

    sf = rules.stage_flags
    play = list(hands)
    play[lead] += bottom
    if rules.landlord_draw and bottom == 0:
        _seed_numba(mix2(key, 0x6000 + rel))
        for k in (1, 2):
            f = (lead + k) % 3
            idx = _randint(packed_count(play[f]))
            ranks = [r for r in range(15) for _ in range((play[f] >> (4 * r)) & 15)]
            card = 1 << (4 * ranks[idx])
            play[f] -= card
            play[lead] += card
    d = [0, 0, 0]
    for k in range(3):
        p = (lead + 1 + k) % 3
        _seed_numba(mix2(key, 0x4000 + (p - lead) % 3))
        d[p] = int(policy_double(play[p], policy, flags, sf, 1 if p == lead else 0, table))
    _seed_numba(mix2(key, 0x5000 + rel))
    shows = policy_show(play[lead], policy, flags, sf, 100, 1, table)
    show = show_multiple(rules.show, rules.show_split, "first-play", True) if shows else 1
    res = playout(np.array(play, dtype=np.int64), lead, np.full(3, policy, np.int64), flags,
                  mix2(key, 0x1000 + rel), table, bufc, bufk)
    ranks = [r for r in range(15) for _ in range((bottom >> (4 * r)) & 15)]
    suits = [0, 0, 0] if naive_flush(bottom, key) else [0, 1, 2]
    bonus = bottom_multiple(ranks, suits) if bottom and rules.bottom_bonus == "table" else 1
    mult = bonus * _stake_multiple(int(res[R_DOUBLINGS]), int(res[R_SPRING] + res[R_ANTI_SPRING]))
    return int(res[R_LANDLORD_WON]), mult, show, d


def naive_call_rows(problem, policy: int, seed: int, start: int, count: int, max_attempts: int) -> list:
    """One dict per sample index of the call-grab evaluator, from the
    definitions of ``evaluate_call``: the auction written again from the
    rules text (``naive_game.auction``'s call-grab and first-call reading:
    the first call, the grabs of the later seats, the caller's last word),
    the others' actions and the later ones by the policy's call rule, the
    draws, the doubles and the show by the policies, one playout per
    landlord, this seat's score settled in plain Python.  Under Laizi rules
    each deal draws the wild ranks not given (:func:`naive_wild`): the
    auction sees those shown before the bidding, the rest of the hand every
    one."""
    from naive_gamerules import settlement_doubled

    from ddz_tools.core.kinds import WILD_MASK
    from ddz_tools.engines.selfplay import work_arrays

    rules = problem.rules
    game_flags = rules.game_flags & ~WILD_MASK
    n = rules.hand_cards
    table, bufc, bufk = work_arrays(16)
    unseen = [int(x) for x in problem.unseen]
    me = problem.seat
    first_call = rules.bidding == "first-call"
    decide = _naive_caller(rules, policy, table)

    rows = []
    for index in range(start, start + count):
        row = {"attempts": 0, "accepted": False}
        for attempt in range(max_attempts):
            key = sample_key(seed, index, attempt)
            cards = naive_shuffle(unseen, key)
            hands = [0, 0, 0]
            hands[me] = problem.hand
            hands[(me + 1) % 3] = pack(cards[:n])
            hands[(me + 2) % 3] = pack(cards[n:2 * n])
            bottom = pack(cards[2 * n:])
            flags, play_fl = naive_wild(game_flags, problem.given, key)
            row["attempts"] += 1
            auction = NaiveAuction(first_call)
            ok = True
            for i, a in enumerate(problem.before):
                if auction.turn() != me and decide(hands, auction, key, i, flags) != a:
                    ok = False
                    break
                auction.act(a)
            if ok:
                row["accepted"] = True
                break
        rows.append(row)
        if not row["accepted"]:
            continue
        outcomes = {}
        row["choices"] = []
        for choice in (0, 1):
            au = NaiveAuction(first_call)
            for a in problem.before:
                au.act(a)
            au.act(choice)
            i = len(problem.before) + 1
            while not au.done:
                au.act(decide(hands, au, key, i, flags))
                i += 1
            if au.holder is None:
                row["choices"].append({"landlord": -1})
                continue
            lead, base = au.holder, 1 if first_call else 2 ** au.grabs
            rel = (lead - me) % 3
            if rel not in outcomes:
                won, mult, show, d = naive_rest_of_hand(hands, bottom, lead, rel, key, rules, policy, table, bufc, bufk,
                                                        play_fl)
                outcomes[rel] = (won, show * mult, d)
            won, mult, d = outcomes[rel]
            row["choices"].append({"landlord": rel, "base": base, "won": won, "mult": mult,
                                   "score": settlement_doubled(lead, bool(won), base * mult, d, rules.doubling)[me]})
    return rows


@numba.njit
def _randint_numba(n):
    return np.random.randint(0, n)


def _randint(n: int) -> int:
    """numba's generator's next integer below ``n`` (after a seed)."""
    return int(_randint_numba(n))


def _merged(mode: str, shows: list) -> int:
    """The multiple of several shows: the largest, or their product."""
    m = 1
    for f in shows:
        m = max(m, f) if mode == "max" else m * f
    return m


def naive_show_rows(problem, policy: int, seed: int, start: int, count: int, max_attempts: int) -> list:
    """One dict per sample index of the show evaluator, from the definitions
    of ``evaluate_show``.  During the deal: the rest of this seat's hand,
    the other hands and the bottom dealt from one shuffle, the auction from
    the first bidder by the policy's call rule (:class:`NaiveAuction`), the
    rest of the hand (:func:`naive_rest_of_hand`) and this seat's score
    without its show (the landlord's first-play show alone) and with it
    (merged with the landlord's, unless this seat is the landlord, who
    showed already).  At the first play: the farmers' hands dealt and kept
    when their doubles fit (the policy's doubling rule), one playout, the
    landlord's score with the earlier shows' multiple and with his x2 too.
    Show multiples from the rules tables (``naive_gamerules``).  Under Laizi
    rules a deal during the deal draws the wild ranks not given
    (:func:`naive_wild`); at the first play they are all given."""
    from naive_gamerules import settlement_doubled, show_multiple

    from ddz_tools.core.kinds import WILD_MASK
    from ddz_tools.engines.policies import policy_double
    from ddz_tools.engines.selfplay import work_arrays

    rules = problem.rules
    n = rules.hand_cards
    table, bufc, bufk = work_arrays(16)
    unseen = [int(x) for x in problem.unseen]
    rows = []
    if problem.stage != 100:
        me = problem.seat
        k = problem.stage
        stage = "before-deal" if k == 0 else ("deal", k)
        mine = show_multiple(rules.show, rules.show_split, stage, False)
        decide = _naive_caller(rules, policy, table)
        for index in range(start, start + count):
            key = sample_key(seed, index, 0)
            cards = naive_shuffle(unseen, key)
            hands = [0, 0, 0]
            hands[me] = problem.hand + pack(cards[:n - k])
            rest = cards[n - k:]
            hands[(me + 1) % 3] = pack(rest[:n])
            hands[(me + 2) % 3] = pack(rest[n:2 * n])
            bottom = pack(rest[2 * n:])
            flags, play_fl = naive_wild(rules.game_flags & ~WILD_MASK, problem.given, key)
            au = NaiveAuction(rules.bidding == "first-call")
            i = 0
            while not au.done:
                au.act(decide(hands, au, key, i, flags))
                i += 1
            row = {"attempts": 1, "accepted": True}
            rows.append(row)
            if au.holder is None:
                row["landlord"] = -1
                continue
            lead, base = au.holder, 1 if rules.bidding == "first-call" else 2 ** au.grabs
            rel = (lead - me) % 3
            won, mult, show, d = naive_rest_of_hand(hands, bottom, lead, rel, key, rules, policy, table, bufc, bufk,
                                                    play_fl)
            with_show = [mine] if lead == me else [mine, show]
            row.update(landlord=rel, base=base, won=won, mult=mult, ll_show=show, scores=[
                settlement_doubled(lead, bool(won), base * mult * m, d, rules.doubling)[me]
                for m in (show, _merged(rules.show_merge, with_show))])
        return rows
    f1, f2, dl = problem.doubles
    flags, sf = rules.flags, rules.stage_flags
    earlier = [show_multiple(rules.show, rules.show_split, "before-deal" if c == 0 else ("deal", c), False)
               for c in problem.shown]
    for index in range(start, start + count):
        row = {"attempts": 0, "accepted": False}
        for attempt in range(max_attempts):
            key = sample_key(seed, index, attempt)
            hands, _ = naive_deal(unseen, key, 0, problem.hand - problem.bottom, problem.bottom)
            hands[0] += problem.bottom
            row["attempts"] += 1
            fits = True
            for p, f in ((1, f1), (2, f2)):
                _seed_numba(mix2(key, 0x4000 + p))
                if int(policy_double(hands[p], policy, flags, sf, 0, table)) != f:
                    fits = False
                    break
            if fits:
                row["accepted"] = True
                break
        rows.append(row)
        if not row["accepted"]:
            continue
        won, mult = _known_bottom_playout(hands, problem, policy, key, table, bufc, bufk)
        row.update(landlord=0, base=problem.base, won=won, mult=mult, ll_show=1, scores=[
            settlement_doubled(0, bool(won), problem.base * mult * m, [dl, f1, f2], rules.doubling)[0]
            for m in (_merged(rules.show_merge, earlier),
                      _merged(rules.show_merge, earlier + [show_multiple(rules.show, rules.show_split,
                                                                         "first-play", True)]))])
    return rows


# Inference: the earlier actions read by the player model ----------------------------------------


@numba.njit
def _uniform_numba(s):
    np.random.seed(s)
    return np.random.random()


def _seat_likelihood(model, actions) -> float:
    """A seat's likelihood of its ``actions`` (``[(decision, hand, kwargs, value)]``,
    ``value`` None for "anything but the first value"), mixed over the
    model's player types by their priors."""
    from ddz_tools.engines.playermodel import decision_probs

    total = 0.0
    for t, prior in enumerate(model.priors):
        onehot = [1.0 if u == t else 0.0 for u in range(len(model.priors))]
        p = 1.0
        for decision, hand, kwargs, value in actions:
            probs = decision_probs(decision, hand, model=model, posterior=onehot, **kwargs)
            p *= 1.0 - probs[0][1] if value is None else dict(probs).get(value, 0.0)
        total += prior * p
    return total


def naive_model_likelihood(decision: str, rules, model, hands, me: int, before, won_at: int = -1,
                           bottom: int = 0) -> float:
    """The chance the player model gives the earlier actions of a decision
    on dealt ``hands`` (by position), from the rules text: ``bid`` the bids
    of the seats before ``me``; ``call`` the auction ``before`` by the
    auction rule, a seat whose hand must call and ``me`` not read; ``double``
    the landlord's (position 0) win of the auction when ``won_at`` >= 0 (any
    bid or call rather than the pass) and the doubles ``before`` of the seats
    after him in turn, the landlord's with the bottom."""
    from ddz_tools.core.gamerules import must_call
    from ddz_tools.engines.game.auction import Auction

    acts = {p: [] for p in range(len(hands))}
    if decision == "bid":
        for p in range(me):
            acts[p].append(("bid", hands[p], {"rules": rules, "highest": max(before[:p], default=0)}, before[p]))
    elif decision == "call":
        forced = [p for p in range(3) if must_call(rules.stage_flags, hands[p])]
        auction = Auction(0, bidding=rules.bidding, must_call=forced)
        calls = 0
        for v in before:
            p = auction.turn
            if p != me and p not in forced:
                acts[p].append(("call", hands[p], {"rules": rules, "level": calls}, v))
            calls += v != 0
            auction.bid(p, v)
    else:
        if won_at >= 0:
            what = "call" if rules.bidding in ("call-grab", "first-call") else "bid"
            arg = {"level": won_at} if what == "call" else {"highest": won_at}
            acts[0].append((what, hands[0], {"rules": rules, **arg}, None))
        start = list(hands)
        start[0] += bottom
        for i, v in enumerate(before):
            p = (i + 1) % 3
            acts[p].append(("double", start[p], {"rules": rules, "landlord": p == 0}, v))
    likelihood = 1.0
    for p, a in acts.items():
        if a:
            likelihood *= _seat_likelihood(model, a)
    return likelihood


def naive_model_accepts(likelihood: float, key: int) -> bool:
    """The accept test under inference: a uniform draw of the deal's stream below the likelihood."""
    return _uniform_numba(mix2(key, 0x9000)) < likelihood
