"""Monte Carlo show evaluator (Happy Dou Dizhu's 明牌): show the hand now, or not?

A seat may show its hand before the deal, during it (``deal:N``, after N
cards) or, the landlord, at his first play; a show multiplies the stake.
:func:`evaluate_show` scores both choices on the same sampled deals.  During
the deal the rest of this seat's hand, the other hands and the bottom are
dealt at random, the auction is played by the policy's call-grab (or
first-call) rule and the rest of the hand by the call evaluator's
:func:`~.call.rest_of_hand`; under Laizi rules each deal also draws the wild
ranks this seat does not know yet.  At the first play the deal is the
doubling evaluator's for the landlord (:func:`~.double.double_chunk`: the
farmers' hands drawn consistent with their doubles, one playout), every wild
rank known by then.  The policies neither read a shown hand nor play
differently against it, so the verdict prices the multiple, not the
information given away.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from ...core._jit import interpreted, kernel
from ...core.cards import FULL_DECK, card_count, contains, format_cards, to_packed
from ...core.errors import ArgumentError, BidError, DdzError, RulesError
from ...core.gamerules import (
    A_BASE,
    A_LANDLORD,
    A_OUTCOME,
    AUCTION_VOID,
    DOUBLING_MODES,
    S_DOUBLING,
    SHOW_FIRST_PLAY,
    double_ok,
    merge_show,
    play_flags,
    settle_seats,
    show_factor,
)
from ...core.kinds import WILD_MASK
from ...core.rules import Rules
from ...engines.playermodel import load_model
from ...variants import variant_of
from ...variants.variant import P_GAME_FLAGS, P_STAGE_FLAGS
from .call import finish_auction, rest_of_hand
from .double import (DCOL_ACCEPTED, DCOL_ATTEMPTS, DCOL_MULT, DCOL_SHOW, DCOL_WON, FACTORS, double_rows, flush_bit,
                     parse_factors, record_flush)
from .montecarlo import (MAX_ATTEMPTS, PLACES, POLICIES, Verdict, check_options, known_wild, mean_interval,
                         place_index, policy_work, reader, sample, score_of, seed_key, unseen_ranks, wild_fields,
                         wilson_interval)
from .sampling import (D_CALL, D_DOUBLE, Q_ME, Q_POLICY, Q_STAGE, ROW_ACCEPTED, ROW_ATTEMPTS, draw_sample,
                       sample_work, situation)

__all__ = ["SHOW_CHOICES", "SCOL_ATTEMPTS", "SCOL_ACCEPTED", "SCOL_LANDLORD", "SCOL_BASE", "SCOL_WON", "SCOL_MULT",
           "SCOL_LL_SHOW", "SCOL_SCORE", "SCOLS", "SHOW_STAGES", "ShowProblem", "show_problem", "run_show_rows",
           "ShowChoice", "ShowEvaluation", "evaluate_show"]

#: The two choices of the show decision: keep the hand hidden now, or show it.
SHOW_CHOICES = ("no", "show")
# Columns of a show row.
SCOL_ATTEMPTS = ROW_ATTEMPTS   # deals drawn for this sample index
SCOL_ACCEPTED = ROW_ACCEPTED   # 1 if a deal consistent with what is known was found
SCOL_LANDLORD = 2   # the landlord from this seat: 0 this seat, 1/2 the next ones, -1 all passed (void)
SCOL_BASE = 3       # the base the auction set
SCOL_WON = 4        # the landlord won (0/1)
SCOL_MULT = 5       # the multiple of the play and the bottom (bombs, rocket, spring, bonus), no show in it
SCOL_LL_SHOW = 6    # during the deal: the landlord's first-play show by the policy when this seat does not show
SCOL_SCORE = 7      # then this seat's score without the show and with it
SCOLS = 9


@kernel
def _show_chunk(unseen, q, params, key0, start, count, out, table, bufc, bufk):
    """Evaluate showing the hand during the deal (or before it) for sample
    indices ``start .. start + count - 1`` into ``out`` rows (``SCOL_*``).

    The situation ``q`` (:func:`~.sampling.situation`) gives this seat's
    place in the auction from the first bidder, the cards it was dealt so
    far (none before the deal), how many of its cards are still to be dealt
    and the show stage code (0 before the deal, else the cards seen).  Each
    sample deals ``unseen`` at random (the rest of this seat's hand, the
    other two hands and the bottom), draws the wild ranks not given under
    Laizi rules (``params``), plays the auction by the policy's call-grab (or
    first-call) rule from the first bidder, and the rest of the hand by
    :func:`~.call.rest_of_hand`; the policies do not react to a show, so one
    playout serves both choices.  Without the show the stake holds the
    landlord's first-play show (the policy's); with it, this seat's show
    factor, merged (``show_merge``) with the landlord's first-play show when
    the landlord is another seat (a seat shows once).  A void deal (all
    pass) scores 0.
    """
    me = q[Q_ME]
    stage_flags = params[P_STAGE_FLAGS]
    hands, scratch, st = sample_work(params, unseen)
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    game_flags = params[P_GAME_FLAGS] & ~WILD_MASK
    doubling = (stage_flags >> S_DOUBLING) & 3
    factor = show_factor(stage_flags, q[Q_STAGE], 0)
    for s in range(count):
        row = out[s]
        # Nothing before this seat's show to agree with: the first draw is the sample.
        _, key, bottom, flags, every = draw_sample(q, params, unseen, key0, start + s, 1, hands, scratch, st, table,
                                                   row)
        finish_auction(st, hands, q[Q_POLICY], flags, key, 0, table)
        if st[A_OUTCOME] == AUCTION_VOID:
            row[SCOL_LANDLORD] = -1
            continue
        lead = st[A_LANDLORD]
        rel = (lead - me) % 3
        won, mult, ll_show = rest_of_hand(hands, bottom, lead, rel, key, q, params, play_flags(game_flags, every), d,
                                          table, bufc, bufk)
        top = st[A_BASE]
        row[SCOL_LANDLORD] = rel
        row[SCOL_BASE] = top
        row[SCOL_WON] = won
        row[SCOL_MULT] = mult
        row[SCOL_LL_SHOW] = ll_show
        shown_mult = factor if rel == 0 else merge_show(stage_flags, factor, ll_show)
        row[SCOL_SCORE] = score_of(me, lead, won, top * mult * ll_show, 3, doubling, d, scores)
        row[SCOL_SCORE + 1] = score_of(me, lead, won, top * mult * shown_mult, 3, doubling, d, scores)
    return count


#: What ``stage`` may say (:func:`show_problem`).
SHOW_STAGES = "before-deal, deal, deal:N or first-play"


@dataclasses.dataclass(frozen=True)
class ShowProblem:
    """A validated show decision (see :func:`evaluate_show`), ready for the kernels."""

    hand: int
    stage: int            # the show stage code: 0 before the deal, N cards dealt, SHOW_FIRST_PLAY
    factor: int           # what this show is worth on its own (x5, x4, x3 or x2)
    seat: int             # during the deal: the place in the auction; at the first play 2 (the landlord)
    rules: Rules
    unseen: np.ndarray    # rank indices of the cards this seat cannot see
    bottom: int = 0       # at the first play: the bottom (in the hand)
    base: int = 1
    doubles: tuple = ()   # at the first play: the factors of farmer1, farmer2 and the landlord
    earlier: int = 1      # at the first play: the multiple of the farmers' shows during the deal
    shown: tuple = ()     # their stage codes
    flush: int = 0
    given: int = 0        # during the deal: the wild ranks this seat knows (Laizi rules draw the others)

    @property
    def stage_text(self) -> str:
        """The stage as the record notation writes it (``deal:8``, ``first-play``)."""
        return _show_stage_text(self.stage)

    @property
    def first_play(self) -> bool:
        """True for the landlord's show at his first play."""
        return self.stage == SHOW_FIRST_PLAY


def _show_stage_text(code: int) -> str:
    if code == SHOW_FIRST_PLAY:
        return "first-play"
    return "before-deal" if code == 0 else f"deal:{code}"


def _parse_show_stage(stage, n: int) -> int:
    """A show stage (``before-deal``, ``deal`` for the ``n`` cards seen, ``deal:N``, ``first-play``) as a code."""
    t = stage.strip().lower() if isinstance(stage, str) else stage
    if t == "first-play":
        return SHOW_FIRST_PLAY
    if t == "before-deal":
        return 0
    if t == "deal":
        return n
    if isinstance(t, str) and t.startswith("deal:") and t[5:].isdigit():
        return int(t[5:])
    raise BidError(f"stage {stage!r} is not {SHOW_STAGES}", param="stage")


_show_factor = interpreted(show_factor)
_merge_show = interpreted(merge_show)
_settle_seats = interpreted(settle_seats)
_double_ok = interpreted(double_ok)


def show_problem(hand="", stage="deal", seat: "int | str | None" = None, before=(), bottom=None, base: int = 1,
                 shown=(), rules: "Rules | str | None" = "happy", flush: "bool | None" = None) -> ShowProblem:
    """Validate a show decision (see :func:`evaluate_show` for the arguments).

    >>> p = show_problem("3456789T", "deal")
    >>> p.stage_text, p.factor, len(p.unseen)
    ('deal:8', 3, 46)
    >>> show_problem("3456789T", "deal:5")
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.BidError: stage deal:5 is after 5 cards dealt, but hand '3456789T' has 8
    """
    rules = Rules.parse(rules)
    variant = variant_of(rules).require("show")
    packed = to_packed(hand if hand is not None else "", "hand")
    size = card_count(packed)
    code = _parse_show_stage(stage, size)
    sf = rules.stage_flags
    if code == SHOW_FIRST_PLAY:
        return _first_play_problem(packed, seat, before, bottom, base, shown, rules, flush)
    n = variant.table.hand_cards
    where = _show_stage_text(code)
    if code != size:
        raise BidError(f"stage {where} is after {code} cards dealt, but hand {format_cards(packed)!r} has {size}",
                       param="hand")
    if code > n:
        raise BidError(f"hand {format_cards(packed)!r} has {size} cards; a seat is dealt {n} under "
                       f"{rules.describe()} (the landlord's hand shows at first-play)", param="hand")
    factor = _show_factor(sf, code, 0)
    if factor == 0:
        raise RulesError(f"there is no show at {where} under show={rules.show}: choose another stage",
                         param="stage")
    if variant.stake.auction != "call":
        raise RulesError(f"the show decision during the deal plays a call-grab or first-call auction; rules "
                         f"{rules.describe()} bid {rules.bidding}", param="rules")
    for name, value, empty in (("before", before, ()), ("bottom", bottom, None), ("shown", shown, ())):
        if value not in (empty, "", None, ()) and value != []:
            raise BidError(f"{name} is for a show at first-play: during the deal nothing has happened yet "
                           f"(shows come before the first bid)", param=name)
    if base != 1:
        raise BidError(f"base is set by the auction, after a show during the deal; leave it at 1, not {base!r}",
                       param="base")
    me = place_index(0 if seat is None else seat)
    given = known_wild(rules, all_shown=True)
    return ShowProblem(packed, code, factor, me, rules, unseen_ranks(FULL_DECK - packed), given=given)


def _first_play_problem(packed, seat, before, bottom, base, shown, rules, flush) -> ShowProblem:
    """:func:`show_problem` at the landlord's first play."""
    sf = rules.stage_flags
    table = variant_of(rules).table
    if seat is not None and str(seat).strip().lower() != "landlord" and place_index(seat) != 2:
        raise BidError(f"only the landlord (the third to double) shows at his first play, not the farmer of seat "
                       f"{PLACES[place_index(seat)]}", param="seat")
    no_bottom = variant_of(rules).needs_bottom("the first-play show evaluator")
    if no_bottom:
        raise RulesError(no_bottom, param="rules")
    rules.require_wild()
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ArgumentError(f"base must be a positive whole number, not {base!r}", param="base")
    size = card_count(packed)
    if size != table.landlord_cards:
        who = f"; a farmer's {table.hand_cards} cannot show then" if size == table.hand_cards else ""
        raise BidError(f"only the landlord shows at his first play, with his {table.landlord_cards} cards (the "
                       f"bottom included); hand {format_cards(packed)!r} has {size}{who}", param="hand")
    if bottom is None or bottom == "":
        raise BidError("give the bottom: the landlord took it before his first play", param="bottom")
    bot = to_packed(bottom, "bottom")
    if card_count(bot) != table.bottom_cards or not contains(packed, bot):
        raise BidError(f"bottom {format_cards(bot)!r} is not {table.bottom_cards} cards of hand "
                       f"{format_cards(packed)!r}", param="bottom")
    factors = parse_factors(before)
    if not variant_of(rules).stake.doubles and factors in ((), (1, 1, 1)):
        factors = (1, 1, 1)
    elif len(factors) != 3:
        raise BidError(f"before gives the doubles of farmer1, farmer2 and the landlord, in doubling order: three "
                       f"factors, not {len(factors)}", param="before")
    for f in factors:
        if not _double_ok(sf, f):
            raise BidError(f"double x{f} in before is not allowed under {rules.describe()}", param="before")
    stages = [x for x in (shown.split(",") if isinstance(shown, str) else list(shown or ())) if str(x).strip()]
    codes = []
    earlier = 1
    for x in stages:
        c = _parse_show_stage(x, -1)
        if c < 0 or c == SHOW_FIRST_PLAY or _show_factor(sf, c, 0) == 0:
            raise BidError(f"shown {x!r}: the farmers show before-deal or at deal:N, where the rules "
                           f"{rules.describe()} have a show", param="shown")
        codes.append(c)
        earlier = _merge_show(sf, earlier, _show_factor(sf, c, 0))
    if len(codes) > 2:
        raise BidError(f"shown lists {len(codes)} shows; the two farmers show once each at most", param="shown")
    return ShowProblem(packed, SHOW_FIRST_PLAY, _show_factor(sf, SHOW_FIRST_PLAY, 1), 2, rules,
                       unseen_ranks(FULL_DECK - packed), bot, base, factors, earlier, tuple(codes),
                       flush_bit(rules, bot, flush))


def run_show_rows(problem: ShowProblem, policy: int, seed: int, start: int, count: int,
                  max_attempts: int = MAX_ATTEMPTS, model=None) -> np.ndarray:
    """Per-sample rows (the ``SCOL_*`` columns) of sample indices ``start ..``
    (the farmers' doubles read by the player ``model`` when given).

    During the deal: :func:`_show_chunk`.  At the first play the deal and
    its playout are the doubling evaluator's for the landlord
    (:func:`~.double.double_chunk`: the farmers' hands drawn consistent with their
    doubles, one playout); the two scores are settled here from its row."""
    rules = problem.rules
    out = np.zeros((count, SCOLS), np.int64)
    if not problem.first_play:
        q = situation(D_CALL, policy, me=problem.seat, mine=problem.hand,
                      rest=variant_of(rules).table.hand_cards - problem.stage, given=problem.given, stage=problem.stage,
                      model=model)
        with policy_work() as work:
            _show_chunk(problem.unseen, q, variant_of(rules).params, seed_key(seed), start, count, out, *work)
        return out
    f1, f2, dl = problem.doubles
    q = situation(D_DOUBLE, policy, mine=problem.hand - problem.bottom, bottom=problem.bottom, before=(f1, f2),
                  legal=[1 if f == dl else 0 for f in FACTORS], base=problem.base, flush=problem.flush, model=model)
    rows = double_rows(rules, problem.unseen, q, seed, start, count, max_attempts)
    sf = rules.stage_flags
    doubling = DOUBLING_MODES[rules.doubling]
    with_show = _merge_show(sf, problem.earlier, problem.factor)
    out[:, SCOL_ATTEMPTS] = rows[:, DCOL_ATTEMPTS]
    out[:, SCOL_ACCEPTED] = rows[:, DCOL_ACCEPTED]
    scores = [0, 0, 0]
    for i in np.flatnonzero(rows[:, DCOL_ACCEPTED]):
        r = rows[i]
        won, mult = int(r[DCOL_WON]), int(r[DCOL_MULT]) // int(r[DCOL_SHOW])   # the policy's own show left out
        o = out[i]
        o[SCOL_BASE], o[SCOL_WON], o[SCOL_MULT], o[SCOL_LL_SHOW] = problem.base, won, mult, 1
        for c, m in enumerate((problem.earlier, with_show)):
            _settle_seats(0, won, problem.base * mult * m, 3, doubling, (dl, f1, f2), 0, scores, 0)
            o[SCOL_SCORE + c] = scores[0]
    return out


@dataclasses.dataclass(frozen=True)
class ShowChoice:
    """The outcome of one show choice over the accepted samples."""

    choice: str
    expected_score: float
    score_ci: tuple

    def to_dict(self) -> dict:
        return {"expected_score": self.expected_score, "score_ci": list(self.score_ci)}


@dataclasses.dataclass(frozen=True)
class ShowEvaluation(Verdict):
    """The verdict of :func:`evaluate_show`: ``choices`` maps ``no`` and
    ``show`` to a :class:`ShowChoice` each."""

    stage: str            # before-deal, deal:N or first-play
    factor: int           # what the show is worth on its own
    bottom: "str | None"
    base: int
    shown: tuple          # at the first play: the stages of the farmers' earlier shows
    landlord_prob: float  # this seat ends up landlord
    void_prob: float      # every seat passed (the deal is void)
    win_prob: float       # this seat's side wins, of the deals with a landlord
    win_prob_ci: tuple
    landlord_show_prob: "float | None"   # during the deal: the landlord shows at his first play (the policy)

    def to_dict(self) -> dict:
        return {
            "decision": "show", "hand": self.hand, "stage": self.stage, "factor": self.factor, "seat": self.seat,
            "bottom": self.bottom, "base": self.base, "before": [f"x{b}" for b in self.before],
            "shown": [_show_stage_text(c) for c in self.shown], "rules": self.rules.describe(),
            "show": self.rules.show, "show_merge": self.rules.show_merge, "doubling": self.rules.doubling,
            **self.run_fields(), "landlord_prob": self.landlord_prob, "void_prob": self.void_prob,
            "win_prob": self.win_prob, "win_prob_ci": list(self.win_prob_ci),
            "landlord_show_prob": self.landlord_show_prob, **self.verdict_fields(), **wild_fields(self.rules),
        }


def evaluate_show(hand="", stage="deal", seat: "int | str | None" = None, before=(), bottom=None, base: int = 1,
                  shown=(), samples: int = 2000, seed: int = 0, workers: "int | None" = None,
                  policy: str = "heuristic", confidence: float = 0.95, rules: "Rules | str | None" = "happy",
                  progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                  max_attempts: int = MAX_ATTEMPTS, flush: "bool | None" = None, inference: bool = False
                  ) -> ShowEvaluation:
    """Monte Carlo verdict on showing the hand now or not (Happy Dou Dizhu's 明牌).

    ``stage`` (the record notation): ``before-deal``, ``deal:N`` (``N``
    cards dealt so far; ``deal`` takes N from the hand's size) or
    ``first-play``.  During the deal ``hand`` is the cards this seat has
    seen (none before the deal) and ``seat`` its place in the auction from
    the first bidder; the rest of its hand is dealt with the other hands and
    the bottom, the auction is played by the policy's call-grab (or
    first-call) rule, then the draws, the doubles, the landlord's first-play
    show and the play by the policy; under Laizi rules the wild ranks this
    seat does not know yet are drawn for each deal.  At ``first-play`` only
    the landlord decides: ``hand`` his 20 cards, ``bottom`` the bottom in
    it, ``base`` the auction's base, ``before`` the doubles of farmer1,
    farmer2 and the landlord (doubling order), ``shown`` the stages at which
    the farmers showed during the deal (their multiple merges with his x2 by
    ``show_merge``); the farmers' hands are drawn consistent with their
    doubles (the policy's doubling rule) and the deal is played out.  Every
    sample is scored for this seat under the rules' settlement, without and
    with the show: expected scores and intervals, the recommendation and its
    paired margin, with the early stopping of :func:`evaluate_bid`.  The
    policies neither read a shown hand nor play differently against it, so
    the verdict prices the multiple, not the information given away.
    ``inference``: the farmers' doubles read by the player model, as
    :func:`evaluate_bid` says.

    >>> ev = evaluate_show("3456789TJQKA2", "deal", samples=250, seed=1, workers=1)
    >>> ev.stage, ev.factor, sorted(ev.choices)
    ('deal:13', 3, ['no', 'show'])
    """
    problem = show_problem(hand, stage, seat, before, bottom, base, shown, rules, flush)
    rules = problem.rules
    check_options(policy, samples, confidence)
    pol = POLICIES[policy]
    model = load_model(rules) if inference else None
    score_cols = [SCOL_SCORE, SCOL_SCORE + 1]
    run = sample(lambda start, count: run_show_rows(problem, pol, seed, start, count, max_attempts, model), samples,
                 workers, score_cols, SCOL_ACCEPTED, SCOL_ATTEMPTS, confidence, early_stop, progress)
    acc, n = run.acc, run.n
    if n == 0:
        raise BidError(f"no deal consistent with the doubles {','.join(f'x{f}' for f in problem.doubles)} was "
                       f"found in {run.drawn} draws: {reader(policy, inference)} (almost) never doubles that way with "
                       f"these farmers' cards")
    ll = acc[:, SCOL_LANDLORD]
    has = ll >= 0
    n_ll = int(has.sum())
    me_wins = int(((ll == 0) & (acc[:, SCOL_WON] == 1)).sum() + ((ll > 0) & (acc[:, SCOL_WON] == 0)).sum())
    choices = {}
    for c, name in enumerate(SHOW_CHOICES):
        mean, lo, hi = mean_interval(acc[:, SCOL_SCORE + c], confidence)
        choices[name] = ShowChoice(name, mean, (lo, hi))
    margin, margin_ci = run.margin(confidence)
    deal_stage = not problem.first_play
    return ShowEvaluation(
        hand=format_cards(problem.hand), stage=problem.stage_text, factor=problem.factor,
        seat=PLACES[problem.seat] if deal_stage else "landlord",
        bottom=None if deal_stage else format_cards(problem.bottom), base=problem.base, before=problem.doubles,
        shown=problem.shown, inference=inference, rules=rules, policy=policy, seed=seed, confidence=confidence,
        **run.counts(),
        landlord_prob=float((ll == 0).sum()) / n, void_prob=float((~has).sum()) / n,
        win_prob=me_wins / n_ll if n_ll else 0.0, win_prob_ci=wilson_interval(me_wins, n_ll, confidence),
        landlord_show_prob=float((acc[has, SCOL_LL_SHOW] > 1).sum()) / n_ll if deal_stage and n_ll else None,
        choices=choices, recommendation=SHOW_CHOICES[score_cols.index(run.order[0])], margin=margin,
        margin_ci=margin_ci)


# Review of a recorded game ----------------------------------------------------------------


def review_shows(rec, opts) -> tuple["list | None", "str | None"]:
    """The show decisions of a Happy Dou Dizhu game against
    :func:`evaluate_show`, from what the seat knew then: ``(rows, notes)``,
    or ``(None, why)`` when the game has none to review.  ``opts`` gives
    ``bid_samples`` and ``seed`` (an
    :class:`~ddz_tools.analysis.analyze.AnalyzeOptions`).

    Reviewed: every show the record holds at a moment whose cards the record
    knows (``before-deal``: none; ``deal:N`` with the whole hand dealt), and
    the decision not to show at one moment per seat: for a seat that never
    showed during the deal, the end of the deal (``deal:N`` with all its
    cards, when the rules allow a show there: ``show=qq``), and for the
    landlord who had not shown yet, his first play, shown or not.  A show at
    ``deal:N`` before the whole hand is dealt is not reviewed (the record does
    not say which cards the seat held then), nor the first play after the
    landlord's draws (the evaluator does not model them); a note says so.
    Under Laizi rules a show during the deal is judged with the wild ranks
    turned up before the bidding (the evaluator draws the others), the
    landlord's at his first play with the deal's every wild rank.

    A row: ``seat``, ``role``, ``player``, ``stage``, ``factor`` (what the
    show was worth there), ``show`` (``show`` or ``no``, as made), ``best``,
    ``agrees``, ``expected`` (both choices' expected scores), ``margin`` and
    ``margin_ci`` (the evaluator's best over the other choice, with its 95%
    interval: an interval reaching 0 is a call inside the evaluator's noise),
    ``cost`` (best minus made) and ``samples``.  A choice is *against the
    evaluator* when it is not ``best`` (``agrees`` false), as for the bids and
    the doubles: the one definition :func:`~ddz_tools.analysis.analyze.summarize`
    counts."""
    from ...engines.game import show_stage_code
    from ...engines.records import game_before_play

    rules = rec.rules
    variant = variant_of(rules)
    if not variant.stake.shows:
        return None, None
    g = game_before_play(rec)
    if g.landlord is None:
        return None, "show review: the game has no landlord"
    n = variant.table.hand_cards
    early = {seat: stage for seat, stage in rec.shows if stage != "first-play"}
    flush = record_flush(rec)
    # (stage code, place in the auction, seat, stage, choice made, evaluate_show's arguments) of every
    # reviewed moment; sorted, they come in time order.
    moments, notes = [], []
    dealt = rules.at_bidding()         # during the deal a seat knows the wild ranks turned up before the bidding
    for k in range(3):
        seat = (rec.first_bidder + k) % 3
        stage = early.get(seat)
        if stage is None:
            if _show_factor(rules.stage_flags, n, 0) == 0:
                continue               # no show with the whole hand dealt (show=dianle, 18 cards)
            stage, made = f"deal:{n}", "no"
        else:
            made = "show"
        code = show_stage_code(stage)
        if code not in (0, n):
            notes.append(f"show review of seat {seat}: the record does not say which {code} cards it held at "
                         f"{stage}")
            continue
        moments.append((code, k, seat, stage, made,
                        {"hand": rec.hands[seat] if code else "", "seat": k, "rules": dealt}))
    moments.sort()
    ll = g.landlord
    if ll not in early:
        if rec.draws:
            notes.append("show review of the landlord's first play: the evaluator does not model his draws")
        else:
            before = [g.doubles[(ll + r) % 3] for r in (1, 2, 0)] if variant.stake.doubles else ()
            shown = [stage for seat, stage in rec.shows if stage != "first-play"]
            made = "show" if (ll, "first-play") in rec.shows else "no"
            moments.append((n + 1, 0, ll, "first-play", made,
                            {"hand": rec.hands[ll] + rec.bottom, "bottom": rec.bottom, "base": g.base,
                             "before": before, "shown": shown, "flush": flush, "rules": rules}))
    roles = variant.seat_roles(ll)
    out = []
    for _, _, seat, stage, made, kw in moments:
        try:
            ev = evaluate_show(stage=stage, samples=opts.bid_samples, seed=opts.seed, workers=1,
                               inference=opts.review_inference, **kw)
        except DdzError as exc:
            notes.append(f"show review of seat {seat} at {stage}: {exc}")
            continue
        exp = ev.expected_score
        best = ev.recommendation
        out.append({"seat": seat, "role": roles[seat], "player": rec.players[seat] if rec.players else None,
                    "stage": ev.stage, "factor": ev.factor, "show": made, "best": best, "agrees": made == best,
                    "expected": {c: round(v, 4) for c, v in exp.items()}, "margin": round(ev.margin, 4),
                    "margin_ci": [round(x, 4) for x in ev.margin_ci], "cost": round(exp[best] - exp[made], 4),
                    "samples": ev.samples})
    return out, "; ".join(notes) or None
