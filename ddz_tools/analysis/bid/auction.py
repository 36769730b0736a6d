"""Monte Carlo bid evaluator: should this hand bid, and how much?

:func:`evaluate_bid` deals the cards this seat cannot see, many times, plays
each deal out with a self-play policy in every seat and turns the outcomes
into win probabilities and expected scores for each bidding choice
(``pass``, ``1``, ``2``, ``3``).

What is known and what is sampled
---------------------------------
* A 17-card hand before bidding: the 37 unseen cards are dealt uniformly into
  the two other hands (17 each) and the bottom (3).
* A 20-card landlord hand with ``bottom`` (3 cards contained in it): this
  seat's 17 are ``hand - bottom``, the bottom is known to everyone and the 34
  unseen cards are dealt uniformly into the two other hands.

Bidding
-------
Seats bid in order ``first``, ``second``, ``third`` (play also goes round in
that order); a bid must be higher than every earlier bid; a bid of 3 ends the
auction.  Under ``bidding=single-round`` (the default of docs/rules.md) each seat
bids once; under ``bidding=until-two-pass`` the auction goes on round the
table, a seat that passed is out, until someone bids 3, all pass, or two have
passed and there is a bid (as :mod:`ddz_tools.engines.selfplay` plays it); the choice
evaluated is this seat's first bid, and in later rounds it bids by the
policy's rule like everybody else.  ``call-grab`` is not supported.
``before`` holds the bids of the seats before this one (0 = pass), so it has
as many entries as this seat's place.  A choice that is not higher than an
earlier bid is reported as illegal and is not evaluated.

Conditioning on earlier bids: a sampled deal is kept only when every earlier
seat, given its sampled 17 cards, would have made exactly its bid under the
policy's own bid rule (rejection sampling, as :mod:`.montecarlo` says).

What a choice is worth
----------------------
For each legal choice, the rest of the auction is played by the policy's bid
rule on the sampled hands: a later seat may outbid this one.  The highest
bidder becomes landlord, takes the bottom, leads, and the deal is played out
by the policy in every seat.  With ``mult = 2 ** (bombs + rocket + spring +
anti-spring)`` and ``stake = winning bid * mult``, this seat scores

* ``+2 * stake`` / ``-2 * stake`` as landlord on a win / loss,
* ``+stake`` / ``-stake`` as a farmer when the landlord loses / wins,
* ``0`` when all three seats pass (the cards are redealt, docs/rules.md).

Four players (rules ``four``): the hand is 25 cards (or the landlord's 33
with the 8-card ``bottom``), the 83 unseen cards of two decks are dealt
into three hands of 25 and the bottom (the 75 into three hands when the
bottom is known), the seats are ``first`` .. ``fourth``, one round of bids
goes round the four of them, and the landlord scores ``+-3 * stake``
(each of the three farmers settles the stake with him,
:func:`~ddz_tools.core.gamerules.settle_seats`); the stake's multiplier follows
``bomb_doubles`` (:func:`~ddz_tools.core.gamerules.multiplier`).  The call and
doubling decisions are three-player ones and refuse four-player rules.

So ``pass`` is not worth 0 by definition: passing makes this seat a farmer
whenever a later (or earlier) seat takes the contract, and that farmer
outcome is played out on the same samples.  Every choice is scored on the
same deals, and a given landlord plays a given deal with the same playout
seed whichever choice led there (common random numbers), so differences
between choices are measured with little noise.

Statistics
----------
``win_prob`` is the probability that this seat, as landlord with this hand,
wins (each sample plays this seat as landlord once), with a Wilson score
interval.  Per choice: the probability of becoming landlord, the landlord's
win probability, this seat's win probability (Wilson intervals) and the
expected score with a normal interval.  The recommendation is the legal
choice with the highest expected score (ties go to the lower choice); its
margin is the paired difference to the second best.  Early stopping and
determinism are :mod:`.montecarlo`'s.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

import numpy as np

from ...core._jit import kernel
from ...core.cards import card_count, contains, format_cards, full_deck, to_packed
from ...core.errors import BidError
from ...core.gamerules import (A_BASE, A_HIGH, A_LANDLORD, A_OUTCOME, A_TURN, AUCTION_OPEN, AUCTION_SIZE,
                               BIDDING_MODES as _ALL_BIDDING_MODES, DOUBLING_OFF, auction_bid, multiplier, play_flags)
from ...core.kinds import WILD_MASK
from ...core.rules import Rules
from ...engines.game.auction import Auction
from ...engines.playermodel import load_model
from ...engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, R_SPRING_ANY, playout
from ...variants import THREE, variant_of
from ...variants.variant import P_GAME_FLAGS, P_SEATS, P_SPRING
from .montecarlo import (MAX_ATTEMPTS, PLACES, POLICIES, ChoiceResult, Verdict, check_options, choice_result,
                         known_wild, mix2, parse_actions, place_index, policy_work, reader, sample, score_of, seed_key,
                         unseen_ranks, wild_fields, wilson_interval)
from .sampling import (D_BID, Q_LEGAL, Q_ME, Q_POLICY, ROW_ACCEPTED, ROW_ATTEMPTS, bid_of, draw_sample,
                       sample_work, situation)

__all__ = ["SEAT_NAMES", "SEAT_NAMES_FOUR", "CHOICES", "BIDDING_MODES", "COL_ATTEMPTS", "COL_ACCEPTED", "COL_WON",
           "COL_MULT", "COL_CHOICE", "NCOL_CHOICE", "NCOLS", "BidEvaluation", "parse_before", "LINE_KEYS",
           "parse_bid_line", "BidProblem", "bid_problem", "run_rows", "evaluate_bid"]

#: The places in the bidding at a three-player table.
SEAT_NAMES = PLACES[:3]
#: The places in the bidding at a four-player table (rules ``four``).
SEAT_NAMES_FOUR = PLACES
CHOICES = ("pass", "1", "2", "3")
#: Bidding options the evaluator models (kernel codes).
BIDDING_MODES = {k: _ALL_BIDDING_MODES[k] for k in ("single-round", "until-two-pass")}

# Columns of the per-sample result rows written by the kernel.
COL_ATTEMPTS = ROW_ATTEMPTS   # deals drawn for this sample index
COL_ACCEPTED = ROW_ACCEPTED   # 1 if a deal consistent with the earlier bids was found
COL_WON = 2        # this seat as landlord: won (0/1)
COL_MULT = 3       # this seat as landlord: 2 ** (bombs + rocket + spring + anti-spring)
COL_CHOICE = 4     # then per choice (pass, 1, 2, 3) NCOL_CHOICE columns:
NCOL_CHOICE = 5    # landlord (-2 illegal, -1 redeal, 0 this seat, 1/2 the next seats), bid, landlord won, mult, score
NCOLS = COL_CHOICE + 4 * NCOL_CHOICE


@kernel
def _bid_chunk(unseen, q, params, key0, start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate sample indices ``start .. start + count - 1`` into ``out`` rows.

    ``params``: the variant's (its seats, 3 or 4, of ``params[P_HAND]``
    dealt cards each, the bidding, ``single-round`` or ``until-two-pass``,
    and the spring rule); ``q``: the situation (:func:`~.sampling.situation`:
    this seat's position and dealt cards, the bottom when known, the earlier
    bids, which choices are legal, the wild ranks known).  See the COL_*
    constants for the row layout.  Under Laizi rules each deal draws the wild
    ranks not given, and the bids see only those shown before the bidding,
    the play every one.  ``table``, ``bufc``, ``bufk`` are the policies' work
    arrays (a decomposer memo table and move buffers); they hold no state
    that changes a result.
    """
    nseats = params[P_SEATS]
    me = q[Q_ME]
    policy = q[Q_POLICY]
    game_flags = params[P_GAME_FLAGS] & ~WILD_MASK
    hands, scratch, before_me = sample_work(params, unseen)   # before_me: the auction after the earlier bids
    spring_col = R_SPRING_ANY if params[P_SPRING] == 1 else R_SPRING
    play = np.empty(nseats, np.int64)
    pols = np.empty(nseats, np.int64)
    pols[:] = policy
    cache_won = np.empty(nseats, np.int64)
    cache_mult = np.empty(nseats, np.int64)
    auction = np.empty(AUCTION_SIZE, np.int64)
    ones = np.ones(nseats, np.int64)
    scores = np.empty(nseats, np.int64)
    for s in range(count):
        row = out[s]
        # Draw deals until the earlier seats would have bid as they did.
        accepted, key, bottom, flags, every = draw_sample(q, params, unseen, key0, start + s, max_attempts, hands,
                                                          scratch, before_me, table, row)
        if not accepted:
            continue
        for L in range(nseats):
            cache_won[L] = -1
            cache_mult[L] = 0
        # choice -1: this seat as landlord, always played (it gives win_prob);
        # then each legal choice: the rest of the auction and its landlord's playout.
        for choice in range(-1, 4):
            if choice >= 0 and q[Q_LEGAL + choice] == 0:
                row[COL_CHOICE + NCOL_CHOICE * choice] = -2
                continue
            if choice == -1:
                # This seat as landlord at any stake: the playout behind win_prob.
                top = 3
                lead = me
            else:
                # The rest of the auction, every other bid by the policy's rule
                # (under until-two-pass this seat's later bids too).
                auction[:] = before_me
                auction_bid(auction, me, choice)
                while auction[A_OUTCOME] == AUCTION_OPEN:
                    p = auction[A_TURN]
                    auction_bid(auction, p, bid_of(hands[p], policy, flags, auction[A_HIGH], key, p, table))
                top = auction[A_BASE]
                lead = auction[A_LANDLORD]   # -1: every seat passed
            if lead < 0:
                base = COL_CHOICE + NCOL_CHOICE * choice
                row[base] = -1
                continue
            rel = (lead - me) % nseats
            if cache_won[rel] < 0:
                for p in range(nseats):
                    play[p] = hands[p]
                play[lead] += bottom
                res = playout(play, lead, pols, play_flags(game_flags, every), mix2(key, 0x1000 + rel), table,
                              bufc, bufk)
                cache_won[rel] = res[R_LANDLORD_WON]
                cache_mult[rel] = multiplier(res[R_DOUBLINGS], res[spring_col], res[R_ANTI_SPRING])
            won = cache_won[rel]
            mult = cache_mult[rel]
            if choice == -1:
                row[COL_WON] = won
                row[COL_MULT] = mult
                continue
            base = COL_CHOICE + NCOL_CHOICE * choice
            row[base] = rel
            row[base + 1] = top
            row[base + 2] = won
            row[base + 3] = mult
            row[base + 4] = score_of(me, lead, won, top * mult, nseats, DOUBLING_OFF, ones, scores)
    return count


@dataclasses.dataclass(frozen=True)
class BidEvaluation(Verdict):
    """The verdict of :func:`evaluate_bid` (see the module doc for definitions):
    ``choices`` maps each choice to a :class:`~.montecarlo.ChoiceResult`."""

    bottom: "str | None"
    win_prob: float
    win_prob_ci: tuple

    def to_dict(self) -> dict:
        return {"hand": self.hand, "bottom": self.bottom, "seat": self.seat,
                "before": [CHOICES[b] for b in self.before], "rules": self.rules.describe(), **self.run_fields(),
                "win_prob": self.win_prob, "win_prob_ci": list(self.win_prob_ci), **self.verdict_fields(),
                **wild_fields(self.rules)}


def parse_before(before: "str | Iterable | None") -> tuple:
    """Earlier bids as a tuple of ints (0 = pass).

    >>> parse_before("pass,1")
    (0, 1)
    >>> parse_before(["p", 2])
    (0, 2)
    >>> parse_before("")
    ()
    """
    if isinstance(before, str):
        before = [x.strip() for x in before.split(",")] if before.strip() else ()
    return parse_actions(before, {"1": 1, "2": 2, "3": 3}, "earlier bid {!r} is not pass, 1, 2 or 3")


#: The keys a line of a hands file may give after the hand (:func:`parse_bid_line`).
LINE_KEYS = ("bottom", "seat", "before")


def parse_bid_line(text: str, defaults: "dict | None" = None) -> dict:
    """One line of a hands file, ``HAND [bottom=CARDS] [seat=NAME]
    [before=BIDS]``, as keyword arguments of :func:`evaluate_bid` (``hand``
    and the keys given, over ``defaults``).

    >>> parse_bid_line("3445567789 TJQKA2D seat=second before=1", {"seat": "first"})
    {'seat': 'second', 'before': '1', 'hand': '3445567789TJQKA2D'}
    """
    args = dict(defaults or {})
    hand = []
    for token in text.split():
        if "=" in token:
            key, _, value = token.partition("=")
            if key not in LINE_KEYS:
                raise BidError(f"unknown key {key!r} (use {', '.join(LINE_KEYS)})")
            args[key] = value
        else:
            hand.append(token)
    args["hand"] = "".join(hand)
    return args


@dataclasses.dataclass(frozen=True)
class BidProblem:
    """A validated bidding situation, ready for the kernels."""

    hand: int             # as given (17, or 20 with the bottom; four players 25 or 33)
    bottom: "int | None"
    me17: int             # this seat's dealt cards (17; four players 25)
    seat: int
    before: tuple
    legal: tuple          # 0/1 per choice pass, 1, 2, 3
    unseen: np.ndarray    # rank indices of the cards this seat cannot see
    rules: Rules          # the rules bid under (the wild ranks the bidder knows among them)

    @property
    def highest(self) -> int:
        return max(self.before, default=0)

    @property
    def seats(self) -> int:
        """Seats at the table (4 under four-player rules)."""
        return variant_of(self.rules).seats


def bid_problem(hand, bottom=None, seat: "int | str" = 0, before=(), rules: "Rules | str | None" = None
                ) -> BidProblem:
    """Validate a bidding situation (see :func:`evaluate_bid` for the arguments).

    >>> p = bid_problem("33445566778899TTJ", seat="second", before="1")
    >>> p.legal, len(p.unseen)
    ((1, 0, 1, 1), 37)
    >>> bid_problem("3456", seat=0)
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.BidError: hand '3456' has 4 cards; a hand before bidding has 17 (or 20 when bottom is given)
    >>> p = bid_problem("3334455667789TTJJQQKA22XD", seat="fourth", before="pass,1,pass", rules="four")
    >>> p.legal, len(p.unseen), p.seats
    ((1, 0, 1, 1), 83, 4)
    """
    rules = Rules.parse(rules)
    table = variant_of(rules).table
    seats, decks = table.seats, table.decks
    hand_n, bottom_n, landlord_n = table.hand_cards, table.bottom_cards, table.landlord_cards
    under = "" if table == THREE else f" under {rules.describe()}"
    packed = to_packed(hand, "hand", decks)
    text = format_cards(packed)
    n = card_count(packed)
    s = place_index(seat, seats)
    names = PLACES
    bids = parse_before(before)
    if bottom is not None:
        bot = to_packed(bottom, "bottom", decks)
        if card_count(bot) != bottom_n:
            raise BidError(f"bottom {format_cards(bot)!r} has {card_count(bot)} cards, not {bottom_n}")
        if n != landlord_n:
            raise BidError(f"with a bottom the hand must be the landlord's {landlord_n} cards, bottom included; "
                           f"{text!r} has {n}")
        if not contains(packed, bot):
            raise BidError(f"bottom {format_cards(bot)!r} is not contained in hand {text!r}")
        me17 = packed - bot
    else:
        bot = None
        if n != hand_n:
            raise BidError(f"hand {text!r} has {n} cards; a hand before bidding has {hand_n}{under} "
                           f"(or {landlord_n} when bottom is given)", param="bottom")
        me17 = packed
    if len(bids) != s:
        raise BidError(f"the {names[s]} seat bids after {s} seat(s), but {len(bids)} earlier "
                       f"bid(s) were given")
    # The earlier bids through the auction rule (the first round is the same
    # under both bidding options the evaluator models).
    auction = Auction(0, seats=seats)
    for i, b in enumerate(bids):
        if auction.done:
            break
        if b not in auction.legal_bids():
            raise BidError(f"earlier bid {b} by the {names[i]} seat does not beat the bid "
                           f"{auction.high} before it")
        auction.bid(i, b)
    if auction.done:
        raise BidError(f"the {names[auction.high_seat]} seat bid 3, which ends the auction before the "
                       f"{names[s]} seat bids")
    legal = tuple(1 if c in auction.legal_bids() else 0 for c in range(4))
    return BidProblem(packed, bot, me17, s, bids, legal, unseen_ranks(full_deck(decks) - packed), rules)


def run_rows(problem: BidProblem, policy: int, seed: int, start: int, count: int,
             max_attempts: int = MAX_ATTEMPTS, model=None) -> np.ndarray:
    """Per-sample result rows (see the ``COL_*`` constants) of sample indices
    ``start ..``, under the problem's rules (the variant's
    :attr:`~ddz_tools.variants.Variant.params`: the flags, the table, the
    bidding, the spring rule); the wild ranks the bidder knows are given,
    the others drawn each sample.  With a player ``model`` the earlier bids
    are read by it (:mod:`.sampling`), else by the policy's bid rule."""
    out = np.zeros((count, NCOLS), dtype=np.int64)
    q = situation(D_BID, policy, me=problem.seat, mine=problem.me17,
                  bottom=problem.bottom if problem.bottom is not None else 0, given=known_wild(problem.rules),
                  before=problem.before, legal=problem.legal, model=model)
    with policy_work() as work:
        _bid_chunk(problem.unseen, q, variant_of(problem.rules).params, seed_key(seed), start, count, max_attempts,
                   out, *work)
    return out


def evaluate_bid(hand, bottom=None, seat: "int | str" = 0, before=(), samples: int = 2000,
                 seed: int = 0, workers: "int | None" = None, policy: str = "heuristic",
                 confidence: float = 0.95, rules: "Rules | str | None" = None,
                 progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                 max_attempts: int = MAX_ATTEMPTS, inference: bool = False) -> BidEvaluation:
    """Monte Carlo verdict on each bidding choice of a hand (see the module doc).

    ``hand``: 17 cards, or the landlord's 20 with ``bottom`` (3 cards in it).
    ``seat``: 0-2 or ``first``/``second``/``third`` in the bidding order;
    ``before``: the earlier seats' bids (``"pass,1"`` or ``(0, 1)``).
    ``samples`` is the maximum number of samples (sample indices); the
    evaluation stops earlier once the recommendation is settled at
    ``confidence`` (unless ``early_stop=False``).  ``workers`` threads
    (default: all cores) give the same result as one.  ``progress(done,
    total)`` is called after each chunk.  ``inference``: read the earlier
    bids by the player model (:mod:`~ddz_tools.engines.playermodel`), each
    drawn deal kept with the chance the model gives them, instead of by the
    policy's own bid rule (a deal kept only when the rule bids exactly so).

    >>> ev = evaluate_bid("3445567789TJQKA2D", seat="first", samples=500, seed=1, workers=1)
    >>> ev.samples, ev.recommendation in ev.choices, 0.0 <= ev.win_prob <= 1.0
    (500, True, True)
    """
    rules = Rules.parse(rules)
    variant_of(rules).require("bid")
    check_options(policy, samples, confidence)
    problem = bid_problem(hand, bottom, seat, before, rules)
    pol = POLICIES[policy]
    model = load_model(rules) if inference else None
    known_wild(rules)
    cols = [COL_CHOICE + NCOL_CHOICE * c for c in range(4)]
    run = sample(lambda start, count: run_rows(problem, pol, seed, start, count, max_attempts, model),
                 samples, workers, [col + 4 for col, ok in zip(cols, problem.legal) if ok], COL_ACCEPTED,
                 COL_ATTEMPTS, confidence, early_stop, progress)
    acc = run.acc
    n_acc = run.n
    if n_acc == 0:
        raise BidError(f"no deal consistent with the earlier bids {','.join(CHOICES[b] for b in problem.before)} "
                       f"was found in {run.drawn} draws: {reader(policy, inference)} (almost) never bids that way")
    wins = int(acc[:, COL_WON].sum())
    choices = {name: choice_result(name, acc, col, confidence) if ok else ChoiceResult(name, False)
               for name, col, ok in zip(CHOICES, cols, problem.legal)}
    margin, margin_ci = run.margin(confidence)
    return BidEvaluation(
        hand=format_cards(problem.hand),
        bottom=format_cards(problem.bottom) if problem.bottom is not None else None,
        seat=PLACES[problem.seat], before=problem.before, inference=inference, rules=rules, policy=policy, seed=seed,
        confidence=confidence, **run.counts(), win_prob=wins / n_acc,
        win_prob_ci=wilson_interval(wins, n_acc, confidence), choices=choices,
        recommendation=CHOICES[cols.index(run.order[0] - 4)], margin=margin, margin_ci=margin_ci)


# Review of a recorded game ----------------------------------------------------------------


def review_bids(rec, opts) -> "tuple[list | None, str | None]":
    """The bid evaluator's verdict on every bid of a record: (entries, None) or (None, why not).

    ``opts`` gives ``bid_samples``, ``seed`` and ``review_inference`` (the
    earlier bids read by the player model; an
    :class:`~ddz_tools.analysis.analyze.AnalyzeOptions`).  Each entry:
    ``seat``, ``order`` (0 = first to bid), ``player``, ``bid``
    (``pass``/``1``/``2``/``3``), ``best`` (the evaluator's recommendation),
    ``agrees``, ``expected`` (expected score of the bid made and of the best),
    ``cost`` (best minus made, in expected points) and ``samples``.  Under
    ``call-grab`` and ``first-call`` every action of the auction is reviewed
    by :func:`~ddz_tools.analysis.bid.evaluate_call`
    (:func:`~ddz_tools.analysis.bid.review_calls`: ``bid`` and ``best`` are
    ``pass``, ``call`` or ``grab``).
    """
    from .call import review_calls
    from .double import review_row

    # The bidders knew only the wild ranks turned up before the bidding.
    rules = rec.rules.at_bidding()
    variant = variant_of(rules)
    if variant.supports("call") is None:
        return review_calls(rec, opts)
    why = variant.supports("bid")
    if why:
        return None, f"bid review: {why}"
    out = []
    before: list = []
    for k, (seat, bid) in enumerate(rec.bids[:variant.seats]):
        ev = evaluate_bid(rec.hands[seat], seat=k, before=tuple(before), samples=opts.bid_samples,
                          seed=opts.seed, workers=1, rules=rules, inference=opts.review_inference)
        out.append(review_row(ev, seat, rec.players, "bid", CHOICES[bid], order=k))
        before.append(bid)
    return out, None
