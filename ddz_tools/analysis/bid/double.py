"""Monte Carlo doubling evaluator (Happy Dou Dizhu's 加倍): x1, x2 or x4?

After the auction and the shown bottom the seats double in order: the farmer
on the landlord's left (the ``first`` place), the other farmer (``second``),
the landlord (``third``), each x1, x2 or (``super_double=on``) x4.
:func:`evaluate_double` deals the cards this seat cannot see, consistent
with the earlier doubles as the policy's own doubling rule judges them
(rejection sampling, :mod:`.montecarlo`), lets the later seats double by that
rule and the landlord show at his first play, plays the deal out once (a
factor does not change the play) and scores each factor for this seat under
the rules' settlement.  Under Laizi rules every wild rank is known by then
(the landlord is), so the deal's wild ranks are given.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

import numpy as np

from ...core._jit import interpreted, kernel
from ...core.cards import FULL_DECK, card_count, contains, format_cards, to_packed
from ...core.errors import ArgumentError, BidError, DdzError
from ...core.gamerules import (S_DOUBLING, SHOW_FIRST_PLAY, bottom_bonus, bottom_flush, double_ok, multiplier,
                               show_factor)
from ...core.rules import Rules
from ...engines.playermodel import load_model
from ...engines.policies import policy_show
from ...engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, R_SPRING_ANY, playout
from ...variants import variant_of
from ...variants.variant import P_SPRING, P_STAGE_FLAGS
from .montecarlo import (MAX_ATTEMPTS, PLACES, POLICIES, Verdict, check_options, mean_interval, mix2, place_index,
                         policy_work, reader, sample, score_of, seed_key, unseen_ranks, wilson_interval)
from .sampling import (D_DOUBLE, Q_BASE, Q_BEFORE, Q_BOTTOM, Q_FLUSH, Q_LEGAL, Q_ME, Q_NBEFORE, Q_POLICY, ROW_ACCEPTED,
                       ROW_ATTEMPTS, double_of, draw_sample, sample_work, situation)

__all__ = ["FACTORS", "DOUBLE_CHOICES", "DOUBLE_SEATS", "DCOL_ATTEMPTS", "DCOL_ACCEPTED", "DCOL_WON", "DCOL_MULT",
           "DCOL_SHOW", "DCOL_DOUBLES", "DCOL_SCORE", "DCOLS", "double_chunk", "double_rows", "DoubleChoice",
           "DoubleEvaluation", "parse_factors", "flush_bit", "DoubleProblem", "double_problem", "run_double_rows",
           "evaluate_double"]

#: The doubling factors, in the order of the choice columns.
FACTORS = (1, 2, 4)
#: Names of the doubling choices.
DOUBLE_CHOICES = ("x1", "x2", "x4")
#: Seats by their place in the doubling order: the farmer on the landlord's
#: left doubles first, the other farmer second, the landlord last.
DOUBLE_SEATS = PLACES[:3]
#: Relative position (0 the landlord, 1 the farmer on his left, 2 the other) of
#: each place in the doubling order.
_DOUBLE_ORDER = (1, 2, 0)
# Columns of a doubling row.
DCOL_ATTEMPTS = ROW_ATTEMPTS   # deals drawn for this sample index
DCOL_ACCEPTED = ROW_ACCEPTED   # 1 if a deal consistent with the earlier doubles was found
DCOL_WON = 2        # the landlord won (0/1)
DCOL_MULT = 3       # the public multiple (show, bottom bonus, bombs, spring)
DCOL_SHOW = 4       # the landlord's first-play show multiple (1: no show)
DCOL_DOUBLES = 5    # the three seats' factors by relative position (this seat's: 0)
DCOL_SCORE = 8      # then this seat's score per factor x1, x2, x4 (0 when illegal)
DCOLS = 11


@kernel
def double_chunk(unseen, q, params, key0, start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate the doubling choices of sample indices ``start .. start + count - 1``
    into ``out`` rows (the ``DCOL_*`` columns).

    Seats by relative position: 0 the landlord, 1 the farmer on his left, 2
    the other farmer.  The situation ``q`` (:func:`~.sampling.situation`)
    gives this seat's position, its dealt cards (the landlord's hand less the
    bottom), the shown bottom, the base and whether the bottom is a flush,
    the factors of the seats that doubled before this one, in doubling order
    (1, 2, then 0), each judged by the policy's rule on the sampled hands
    (rejection sampling), and, when this seat is a farmer, the bid the
    landlord's dealt cards must beat by the policy's bid rule (``Q_WON_AT``
    0: he would call; -1 no test); the later seats double by that rule, the
    landlord shows at his first play by the policy's rule, and the deal is
    played out by the policy: one playout a sample, since a factor does not
    change the play.  ``Q_LEGAL + c``: factor ``FACTORS[c]`` allowed.
    """
    me = q[Q_ME]
    policy = q[Q_POLICY]
    nbefore = q[Q_NBEFORE]
    stage_flags = params[P_STAGE_FLAGS]
    bottom = q[Q_BOTTOM]
    hands, scratch, st = sample_work(params, unseen)
    play = np.empty(3, np.int64)
    pols = np.empty(3, np.int64)
    pols[:] = policy
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    spring_col = R_SPRING_ANY if params[P_SPRING] == 1 else R_SPRING
    doubling = (stage_flags >> S_DOUBLING) & 3
    for s in range(count):
        row = out[s]
        accepted, key, _, flags, _ = draw_sample(q, params, unseen, key0, start + s, max_attempts, hands, scratch, st,
                                                 table, row)
        if not accepted:
            continue
        for i in range(3):
            p = (i + 1) % 3
            if i < nbefore:
                d[p] = q[Q_BEFORE + i]
            elif p == me:
                d[p] = 0
            else:
                d[p] = double_of(hands[p], policy, flags, stage_flags, 1 if p == 0 else 0, key, p, table)
        np.random.seed(mix2(key, 0x5000))
        show = 1
        if policy_show(hands[0], policy, flags, stage_flags, SHOW_FIRST_PLAY, 1, table) != 0:
            show = show_factor(stage_flags, SHOW_FIRST_PLAY, 1)
        for p in range(3):
            play[p] = hands[p]
        res = playout(play, 0, pols, flags, mix2(key, 0x1000), table, bufc, bufk)
        won = res[R_LANDLORD_WON]
        mult = show * bottom_bonus(stage_flags, bottom, q[Q_FLUSH]) * multiplier(res[R_DOUBLINGS], res[spring_col],
                                                                                res[R_ANTI_SPRING])
        row[DCOL_WON] = won
        row[DCOL_MULT] = mult
        row[DCOL_SHOW] = show
        for p in range(3):
            row[DCOL_DOUBLES + p] = d[p]
        for c in range(3):
            if q[Q_LEGAL + c] == 0:
                continue
            d[me] = FACTORS[c]
            row[DCOL_SCORE + c] = score_of(me, 0, won, q[Q_BASE] * mult, 3, doubling, d, scores)
    return count


@dataclasses.dataclass(frozen=True)
class DoubleChoice:
    """The outcome of one doubling factor over the accepted samples."""

    choice: str
    legal: bool
    expected_score: float = 0.0
    score_ci: tuple = (0.0, 0.0)

    def to_dict(self) -> dict:
        if not self.legal:
            return {"legal": False}
        return {"legal": True, "expected_score": self.expected_score, "score_ci": list(self.score_ci)}


@dataclasses.dataclass(frozen=True)
class DoubleEvaluation(Verdict):
    """The verdict of :func:`evaluate_double`: ``choices`` maps x1, x2 and x4
    to a :class:`DoubleChoice` each."""

    bottom: str
    role: str             # landlord, or farmer1 (the landlord's left) / farmer2
    base: int
    win_prob: float       # this seat's side wins
    win_prob_ci: tuple
    landlord_show_prob: float   # the landlord shows at his first play (the policy's rule)
    others_double: dict   # for each other seat (landlord / farmer1 / farmer2): share doubling x1, x2, x4

    def to_dict(self) -> dict:
        return {
            "decision": "double", "hand": self.hand, "bottom": self.bottom, "seat": self.seat, "role": self.role,
            "base": self.base, "before": [f"x{b}" for b in self.before], "rules": self.rules.describe(),
            **self.run_fields(), "win_prob": self.win_prob, "win_prob_ci": list(self.win_prob_ci),
            "landlord_show_prob": self.landlord_show_prob, "others_double": self.others_double,
            **self.verdict_fields(),
        }


def parse_factors(before: "str | Iterable | None") -> tuple:
    """Earlier doubles as factors: ``"2,1"``, ``"x2,x1"`` or ``(2, 1)``.

    >>> parse_factors("x2, 1")
    (2, 1)
    """
    if before is None or (isinstance(before, str) and not before.strip()):
        return ()
    items = before.split(",") if isinstance(before, str) else list(before)
    out = []
    for x in items:
        t = str(x).strip().lower().lstrip("x")
        if t not in ("1", "2", "4"):
            raise BidError(f"earlier double {x!r} is not x1, x2 or x4")
        out.append(int(t))
    return tuple(out)


_double_ok = interpreted(double_ok)
_bottom_bonus = interpreted(bottom_bonus)


def flush_bit(rules: Rules, bottom: int, flush: "bool | None") -> int:
    """Whether the known ``bottom`` is a flush (1) or not (0) for its bonus:
    under ``bottom_bonus=table`` a bottom of three ranks and no joker pays
    more as a flush, and only the caller knows its suits (``flush``, required
    then); 0 otherwise."""
    if not variant_of(rules).stake.bottom_bonus:
        return 0
    distinct = bottom < (1 << 52) and all((bottom >> (4 * r)) & 15 <= 1 for r in range(13))
    if not distinct or _bottom_bonus(rules.stage_flags, bottom, 0) >= 3:
        return 0
    if flush is None:
        raise BidError(f"bottom_bonus=table: say whether the bottom {format_cards(bottom)} is a flush "
                       f"(its three cards of one suit)", param="flush")
    return int(bool(flush))


@dataclasses.dataclass(frozen=True)
class DoubleProblem:
    """A validated doubling situation, ready for the kernel (see :func:`evaluate_double`)."""

    hand: int
    bottom: int
    place: int            # 0, 1, 2: first, second, third to double
    me: int               # relative position: 0 the landlord, 1 the farmer on his left, 2 the other
    me17: int             # the 17 cards this seat was dealt
    before: tuple         # the earlier seats' factors, in doubling order
    base: int
    legal: tuple          # 0/1 per factor x1, x2, x4
    unseen: np.ndarray    # rank indices of the cards this seat cannot see
    rules: Rules
    flush: int            # the bottom is a flush (bottom_bonus=table)


def double_problem(hand, bottom, seat: "int | str" = "first", before=(), base: int = 1,
                   rules: "Rules | str | None" = "happy", flush: "bool | None" = None) -> DoubleProblem:
    """Validate a doubling situation (see :func:`evaluate_double` for the arguments).

    >>> p = double_problem("3345566789TJQKA2D", "22X", seat="second", before="x2")
    >>> p.me, p.legal, len(p.unseen)
    (2, (1, 1, 1), 34)
    """
    rules = Rules.parse(rules)
    table = variant_of(rules).require("double").table
    rules.require_wild()
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ArgumentError(f"base must be a positive whole number, not {base!r}", param="base")
    place = place_index(seat)
    me = _DOUBLE_ORDER[place]
    factors = parse_factors(before)
    if len(factors) != place:
        raise BidError(f"the {DOUBLE_SEATS[place]} seat doubles after {place} seat(s), but {len(factors)} "
                       f"earlier double(s) were given", param="before")
    sf = rules.stage_flags
    for f in factors:
        if not _double_ok(sf, f):
            raise BidError(f"earlier double x{f} is not allowed under {rules.describe()}", param="before")
    packed = to_packed(hand, "hand")
    if bottom is None:
        raise BidError("give the bottom: it is shown to every seat before the doubling",
                       param="bottom")
    bot = to_packed(bottom, "bottom")
    if card_count(bot) != table.bottom_cards:
        raise BidError(f"bottom {format_cards(bot)!r} has {card_count(bot)} cards, not {table.bottom_cards}",
                       param="bottom")
    n = card_count(packed)
    if me == 0:
        if n != table.landlord_cards or not contains(packed, bot):
            raise BidError(f"the landlord (the third seat to double) holds {table.landlord_cards} cards, the bottom "
                           f"{format_cards(bot)} included; {format_cards(packed)!r} has {n}", param="hand")
        me17 = packed - bot
    else:
        if n != table.hand_cards:
            raise BidError(f"a farmer holds {table.hand_cards} cards; {format_cards(packed)!r} has {n}",
                           param="hand")
        if not contains(FULL_DECK - packed, bot):
            raise BidError(f"bottom {format_cards(bot)} and hand {format_cards(packed)} are more cards than "
                           f"one deck holds", param="bottom")
        me17 = packed
    seen = packed if me == 0 else packed + bot
    legal = tuple(1 if _double_ok(sf, f) else 0 for f in FACTORS)
    return DoubleProblem(packed, bot, place, me, me17, factors, base, legal, unseen_ranks(FULL_DECK - seen), rules,
                         flush_bit(rules, bot, flush))


def run_double_rows(problem: DoubleProblem, policy: int, seed: int, start: int, count: int,
                    max_attempts: int = MAX_ATTEMPTS, model=None) -> np.ndarray:
    """Per-sample rows (the ``DCOL_*`` columns) of sample indices ``start ..``
    (the auction and the earlier doubles read by the player ``model`` when given)."""
    won_at = 0 if problem.me != 0 and (model is not None or policy == POLICIES["heuristic"]) else -1
    q = situation(D_DOUBLE, policy, me=problem.me, mine=problem.me17, bottom=problem.bottom, before=problem.before,
                  legal=problem.legal, base=problem.base, flush=problem.flush, won_at=won_at, model=model)
    return double_rows(problem.rules, problem.unseen, q, seed, start, count, max_attempts)


def double_rows(rules: Rules, unseen: np.ndarray, q: np.ndarray, seed: int, start: int, count: int,
                max_attempts: int = MAX_ATTEMPTS) -> np.ndarray:
    """:func:`double_chunk`'s rows of the situation ``q`` under ``rules``, sample indices ``start ..``."""
    out = np.zeros((count, DCOLS), np.int64)
    with policy_work() as work:
        double_chunk(unseen, q, variant_of(rules).params, seed_key(seed), start, count, max_attempts, out, *work)
    return out


def evaluate_double(hand, bottom, seat: "int | str" = "first", before=(), base: int = 1,
                    samples: int = 2000, seed: int = 0, workers: "int | None" = None,
                    policy: str = "heuristic", confidence: float = 0.95, rules: "Rules | str | None" = "happy",
                    progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                    max_attempts: int = MAX_ATTEMPTS, flush: "bool | None" = None, inference: bool = False
                    ) -> DoubleEvaluation:
    """Monte Carlo verdict on doubling x1, x2 or x4 (Happy Dou Dizhu's 加倍).

    After the auction and the shown bottom, the seats double in order: the
    farmer on the landlord's left (``seat="first"``), the other farmer
    (``"second"``), the landlord (``"third"``).  ``hand``: a farmer's 17
    cards, or the landlord's 20 (``bottom`` included); ``bottom``: the 3
    bottom cards (shown to all); ``base``: the stake the auction set (2 to the
    number of grabs under call-grab); ``before``: the factors of the seats
    that doubled before this one.  The unseen cards are dealt at random,
    consistent with ``before`` as the policy's own doubling rule judges it; the
    later seats double by that rule, the landlord shows at his first play by
    it, and each deal is played out by the policy.  For a farmer, the
    landlord's 17 dealt cards are also ones the heuristic's bid rule would
    call with (the grabs that set the base are not conditioned on: the
    heuristic grabs too rarely for rejection sampling to find such deals).
    Each factor is scored for this seat with the rules' settlement
    (``doubling=per-pair`` or ``global``; shows, bottom bonus, bombs,
    spring): expected score and interval, the recommendation and its paired
    margin over the next best, with early stopping as :func:`evaluate_bid`.
    ``flush``: under ``bottom_bonus=table``, whether the bottom's three cards
    share a suit (needed only when that could change the bonus).
    ``inference``: the landlord's call and the earlier doubles read by the
    player model (:mod:`~ddz_tools.engines.playermodel`) instead of by the
    policy's rules, as :func:`evaluate_bid` says.

    >>> ev = evaluate_double("3345566789TJQKA2D", "22X", seat="first", samples=300, seed=1, workers=1)
    >>> ev.recommendation in ev.choices, ev.role
    (True, 'farmer1')
    """
    problem = double_problem(hand, bottom, seat, before, base, rules, flush)
    rules = problem.rules
    check_options(policy, samples, confidence)
    pol = POLICIES[policy]
    model = load_model(rules) if inference else None
    legal = problem.legal
    run = sample(lambda start, count: run_double_rows(problem, pol, seed, start, count, max_attempts, model), samples,
                 workers, [DCOL_SCORE + c for c in range(3) if legal[c]], DCOL_ACCEPTED, DCOL_ATTEMPTS, confidence,
                 early_stop, progress)
    acc, n_acc = run.acc, run.n
    me = problem.me
    if n_acc == 0:
        what = [f"the earlier doubles {','.join(f'x{f}' for f in problem.before)}"] if problem.before else []
        if me != 0 and (inference or policy == "heuristic"):
            what.insert(0, "a landlord whose hand would call")
        raise BidError(f"no deal consistent with {' and '.join(what)} was found in {run.drawn} draws: "
                       f"{reader(policy, inference)} (almost) never plays the other seats that way with these cards")
    ll_won = acc[:, DCOL_WON]
    wins = int(ll_won.sum()) if me == 0 else int((ll_won == 0).sum())
    choices = {}
    for c, name in enumerate(DOUBLE_CHOICES):
        if not legal[c]:
            choices[name] = DoubleChoice(name, False)
            continue
        mean, lo, hi = mean_interval(acc[:, DCOL_SCORE + c], confidence)
        choices[name] = DoubleChoice(name, True, mean, (lo, hi))
    roles = variant_of(rules).roles
    others = {roles[p]: {f"x{f}": float((acc[:, DCOL_DOUBLES + p] == f).sum()) / n_acc for f in FACTORS}
              for p in range(3) if p != me}
    margin, margin_ci = run.margin(confidence)
    return DoubleEvaluation(
        hand=format_cards(problem.hand), bottom=format_cards(problem.bottom), seat=DOUBLE_SEATS[problem.place],
        role=roles[me], base=problem.base, before=problem.before, inference=inference, rules=rules, policy=policy,
        seed=seed,
        confidence=confidence, **run.counts(), win_prob=wins / n_acc,
        win_prob_ci=wilson_interval(wins, n_acc, confidence),
        landlord_show_prob=float((acc[:, DCOL_SHOW] > 1).sum()) / n_acc, others_double=others,
        choices=choices, recommendation=DOUBLE_CHOICES[run.order[0] - DCOL_SCORE], margin=margin,
        margin_ci=margin_ci)


# Review of a recorded game ----------------------------------------------------------------


def review_row(ev, seat: int, players, key: str, made: str, **fields) -> dict:
    """One reviewed stake decision of a record, as :func:`review_doubles`
    and the bid and call reviews write it: ``seat``, ``player``, ``fields``
    (``order``, ``role``), ``key`` (the choice made), ``best`` (the
    evaluator's recommendation), ``agrees``, ``expected`` (expected score of
    the choice made and of the best), ``cost`` (best minus made) and
    ``samples``."""
    exp = ev.expected_score
    best = ev.recommendation
    return {"seat": seat, **fields, "player": players[seat] if players else None, key: made, "best": best,
            "agrees": made == best, "expected": {made: round(exp[made], 4), best: round(exp[best], 4)},
            "cost": round(exp[best] - exp[made], 4), "samples": ev.samples}


_bottom_flush = interpreted(bottom_flush)


def record_flush(rec) -> "bool | None":
    """Is a record's bottom a flush (three cards of one suit, no joker)?
    ``None`` when the record keeps no card ids (no suits): the evaluators
    then draw the suits."""
    if rec.bottom_ids is None:
        return None
    return bool(_bottom_flush(list(rec.bottom_ids), 0, len(rec.bottom_ids)))


def review_doubles(rec, opts) -> tuple["list | None", "str | None"]:
    """Each seat's double of a Happy Dou Dizhu game against
    :func:`evaluate_double`, from what the seat knew then (its cards, the
    bottom, the base and the doubles before it): ``(rows, None)``, or
    ``(None, why)`` when the game has no doubles to review.  ``opts`` gives
    ``bid_samples`` and ``seed`` (an
    :class:`~ddz_tools.analysis.analyze.AnalyzeOptions`).  A row: ``seat``,
    ``role``, ``player``, ``double`` (as made, ``x2``), ``best``, ``agrees``,
    ``expected`` (both choices' expected scores), ``cost`` and ``samples``."""
    from ...engines.records import game_before_play

    if not variant_of(rec.rules).stake.doubles:
        return None, None
    g = game_before_play(rec)
    if g.landlord is None or any(d is None for d in g.doubles):
        return None, "double review: the game did not reach the doubling"
    flush = record_flush(rec)
    out = []
    notes = []
    for place, rel in enumerate((1, 2, 0)):
        seat = (g.landlord + rel) % 3
        hand = rec.hands[seat] + (rec.bottom if rel == 0 else 0)
        before = [g.doubles[(g.landlord + r) % 3] for r in (1, 2, 0)[:place]]
        try:
            ev = evaluate_double(hand, rec.bottom, DOUBLE_SEATS[place], before, g.base, samples=opts.bid_samples,
                                 seed=opts.seed, workers=1, rules=rec.rules, flush=flush,
                                 inference=opts.review_inference)
        except DdzError as exc:
            notes.append(f"double review of seat {seat}: {exc}")
            continue
        out.append(review_row(ev, seat, rec.players, "double", f"x{g.doubles[seat]}", role=ev.role))
    return out, "; ".join(notes) or None
