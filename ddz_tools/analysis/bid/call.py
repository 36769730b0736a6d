"""Monte Carlo call evaluator: call (or grab), or pass?

Under ``bidding=call-grab`` (Happy Dou Dizhu) and ``first-call``
(``notalon``) the choices are pass and call, or, once someone has called,
pass and grab.  :func:`evaluate_call` deals the cards this seat cannot see,
consistent with the other seats' actions as the policy's call-grab rule
judges them (rejection sampling, :mod:`.montecarlo`); each choice is
followed by the rest of the auction by that rule, the landlord's draws
(``landlord_draw``), the doubles, the landlord's first-play show and a
playout (:func:`rest_of_hand`, which the show evaluator shares), and scored
for this seat with the whole stake (0 when all pass and the deal is void).

Under Laizi rules each sample also draws the wild ranks this seat does not
know at the call (:func:`~.montecarlo.known_wild`): the auction sees the
ranks turned up before the bidding, the rest of the hand every one.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from ...core._jit import interpreted, kernel
from ...core.cards import FULL_DECK, card_count, format_cards, packed_count, to_packed
from ...core.errors import BidError, DdzError
from ...core import gamerules as G
from ...core.gamerules import (auction_bid, auction_start, bid_error, bottom_bonus, draw_card, multiplier, play_flags,
                               show_factor)
from ...core.kinds import WILD_MASK
from ...core.rules import Rules
from ...engines.playermodel import load_model
from ...engines.policies import policy_show
from ...engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, R_SPRING_ANY, playout
from ...variants import variant_of
from ...variants.variant import P_GAME_FLAGS, P_SPRING, P_STAGE_FLAGS
from .montecarlo import (MAX_ATTEMPTS, PLACES, POLICIES, Verdict, check_options, choice_result, known_wild, mix2,
                         parse_actions, place_index, policy_work, reader, sample, score_of, seed_key, unseen_ranks,
                         wild_fields)
from .sampling import (D_CALL, Q_ME, Q_NBEFORE, Q_POLICY, ROW_ACCEPTED, ROW_ATTEMPTS, call_of, double_of, draw_sample,
                       sample_work, situation)

__all__ = ["CCOL_ATTEMPTS", "CCOL_ACCEPTED", "CCOL_CHOICE", "NCCOL_CHOICE", "CCOLS", "BIDDING_MODES_CALL",
           "finish_auction", "rest_of_hand", "sampled_flush", "CallProblem",
           "call_problem", "run_call_rows", "CallEvaluation", "evaluate_call"]

#: Columns of a call row: then per choice (pass, call-or-grab) CCOL_CHOICE columns:
#: landlord (-2 illegal, -1 redeal, 0 this seat, 1/2 the next seats), base, landlord won,
#: public multiple, this seat's score.
CCOL_ATTEMPTS = ROW_ATTEMPTS
CCOL_ACCEPTED = ROW_ACCEPTED
CCOL_CHOICE = 2
NCCOL_CHOICE = 5
CCOLS = CCOL_CHOICE + 2 * NCCOL_CHOICE

#: The bidding options the call evaluator models.
BIDDING_MODES_CALL = {"call-grab": G.CALL_GRAB, "first-call": G.FIRST_CALL}
_CALL_NAMES = ("pass", "call")


@kernel
def finish_auction(st, hands, policy, flags, key, i, table):
    """Play the auction ``st`` on to its end by the policy's call-grab rule
    (:func:`call_of`), ``i`` the index of its next action."""
    while st[G.A_OUTCOME] == G.AUCTION_OPEN:
        p = st[G.A_TURN]
        auction_bid(st, p, call_of(hands[p], policy, flags, st, key, i, table))
        i += 1


@kernel
def rest_of_hand(hands, bottom, lead, rel, key, q, params, flags, d, table, bufc, bufk):
    """The hand after an auction that made ``lead`` landlord, by the policy
    of the situation ``q`` (``rel``, his position from the evaluated seat,
    keys the random streams; ``flags`` the play flags, every wild rank in
    them; ``params`` the variant's): he takes the bottom (``hands`` by
    position, 0 for none) or under ``landlord_draw`` draws a card from each
    farmer, the seats double (the farmers from his left, then him; the
    factors go into ``d``), he shows at his first play by the policy's rule,
    and the deal is played out.  Returns ``(landlord won, the multiple of the
    play and the bottom, the first-play show factor or 1)``; a sampled
    bottom's suits are drawn by :func:`sampled_flush`."""
    policy = q[Q_POLICY]
    stage_flags = params[P_STAGE_FLAGS]
    play = np.empty(3, np.int64)
    pols = np.empty(3, np.int64)
    pols[:] = policy
    for p in range(3):
        play[p] = hands[p]
    play[lead] += bottom
    if (stage_flags & G.S_DRAW) != 0 and bottom == 0:
        np.random.seed(mix2(key, 0x6000 + rel))
        for k in range(1, 3):
            f = (lead + k) % 3
            card = draw_card(play[f], np.random.randint(0, packed_count(play[f])))
            play[f] -= card
            play[lead] += card
    for k in range(3):
        p = (lead + 1 + k) % 3
        d[p] = double_of(play[p], policy, flags, stage_flags, 1 if p == lead else 0, key, (p - lead) % 3, table)
    np.random.seed(mix2(key, 0x5000 + rel))
    show = 1
    if policy_show(play[lead], policy, flags, stage_flags, G.SHOW_FIRST_PLAY, 1, table) != 0:
        show = show_factor(stage_flags, G.SHOW_FIRST_PLAY, 1)
    res = playout(play, lead, pols, flags, mix2(key, 0x1000 + rel), table, bufc, bufk)
    bonus = bottom_bonus(stage_flags, bottom, sampled_flush(bottom, key)) if bottom != 0 else 1
    spring_col = R_SPRING_ANY if params[P_SPRING] == 1 else R_SPRING
    return res[R_LANDLORD_WON], bonus * multiplier(res[R_DOUBLINGS], res[spring_col], res[R_ANTI_SPRING]), show


#: The stream (under a sample's key) that draws whether a sampled bottom is a flush.
_FLUSH_STREAM = 0x7000


@kernel
def sampled_flush(bottom, key):
    """Whether a sampled bottom is a flush (1) or not (0).  The deals are of
    ranks, so the suits are drawn: three cards of three ranks, no joker, share
    a suit with probability 1/16 (the four copies of a rank have the four
    suits, so each of the other two matches the first with chance 1/4),
    decided by the sample's ``key``; any other bottom is no flush."""
    if ((bottom >> 52) & 255) != 0:
        return 0
    for r in range(13):
        if ((bottom >> (4 * r)) & 15) > 1:
            return 0
    return 1 if (mix2(key, _FLUSH_STREAM) & 15) == 0 else 0


@kernel
def _call_chunk(unseen, q, params, key0, start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate the call-grab (or first-call) choice of sample indices
    ``start .. start + count - 1`` into ``out`` rows (``CCOL_*``).

    Positions in the auction from the first bidder: 0, 1, 2; ``q`` (the
    situation, :func:`~.sampling.situation`) gives this seat's position, its
    dealt cards (``params[P_HAND]``: 17, or 18 with no bottom) and the
    auction so far (0 pass, 1 call or grab), this seat's own earlier actions
    included; the other seats' actions are judged by the policy's call-grab
    rule on the sampled hands (rejection).  Each choice (0 pass, 1 call or
    grab) is followed by the rest of the auction by that rule (this seat's
    later actions too), the landlord's draws (``landlord_draw``), the doubles
    (farmers from the landlord's left, then the landlord) and the landlord's
    first-play show by the policy, then one playout per landlord; this seat's
    score settles the whole stake (0 on a redeal).  Whether a sampled bottom
    is a flush is drawn (:func:`sampled_flush`).  Under Laizi rules
    (``params``) each deal draws the wild ranks not given, the auction seeing
    those shown before the bidding, the rest of the hand every one.
    """
    me = q[Q_ME]
    nbefore = q[Q_NBEFORE]
    hands, scratch, st = sample_work(params, unseen)
    st2 = np.empty(G.AUCTION_SIZE, np.int64)
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    cache_won = np.empty(3, np.int64)
    cache_mult = np.empty(3, np.int64)
    cache_doubles = np.empty((3, 3), np.int64)
    game_flags = params[P_GAME_FLAGS] & ~WILD_MASK
    doubling = (params[P_STAGE_FLAGS] >> G.S_DOUBLING) & 3
    for s in range(count):
        cache_won[:] = -1    # no landlord played out yet
        row = out[s]
        accepted, key, bottom, flags, every = draw_sample(q, params, unseen, key0, start + s, max_attempts, hands,
                                                          scratch, st, table, row)
        if not accepted:
            continue
        pflags = play_flags(game_flags, every)
        for choice in range(2):
            base_col = CCOL_CHOICE + NCCOL_CHOICE * choice
            if bid_error(st, me, choice) != G.BID_OK:
                row[base_col] = -2
                continue
            st2[:] = st
            auction_bid(st2, me, choice)
            finish_auction(st2, hands, q[Q_POLICY], flags, key, nbefore + 1, table)
            if st2[G.A_OUTCOME] == G.AUCTION_VOID:
                row[base_col] = -1
                continue
            lead = st2[G.A_LANDLORD]
            top = st2[G.A_BASE]
            rel = (lead - me) % 3
            if cache_won[rel] < 0:
                won, mult, show = rest_of_hand(hands, bottom, lead, rel, key, q, params, pflags, d, table, bufc, bufk)
                for p in range(3):
                    cache_doubles[rel, p] = d[p]
                cache_won[rel] = won
                cache_mult[rel] = show * mult
            won = cache_won[rel]
            mult = cache_mult[rel]
            row[base_col] = rel
            row[base_col + 1] = top
            row[base_col + 2] = won
            row[base_col + 3] = mult
            row[base_col + 4] = score_of(me, lead, won, top * mult, 3, doubling, cache_doubles[rel], scores)
    return count


@dataclasses.dataclass(frozen=True)
class CallProblem:
    """A validated call-grab (or first-call) situation, ready for the kernel."""

    hand: int
    seat: int             # position in the auction from the first bidder
    before: tuple         # the auction so far: 0 pass, 1 call or grab
    legal: tuple          # 0/1 for pass, call-or-grab
    what: str             # "call" or "grab": what a 1 means now
    unseen: np.ndarray
    rules: Rules
    given: int = 0        # the wild ranks this seat knows (flag bits; Laizi rules draw the others)


_auction_start = interpreted(auction_start)
_auction_bid = interpreted(auction_bid)


def _parse_calls(before) -> tuple:
    """The auction so far as 0/1: ``"pass,call,grab"`` (``1`` or ``0`` too)."""
    return parse_actions(before, {"call": 1, "grab": 1, "1": 1}, "earlier action {!r} is not pass, call or grab",
                         "before")


def call_problem(hand, seat: "int | str" = 0, before=(), rules: "Rules | str | None" = "happy") -> CallProblem:
    """Validate a call-grab or first-call situation (see :func:`evaluate_call`).

    >>> p = call_problem("3345566789TJQKA2D", "second", "call")
    >>> p.what, p.legal
    ('grab', (1, 1))
    >>> call_problem("3345566789TJQKA2D", rules="laizi,bidding=call-grab").given
    0
    """
    rules = Rules.parse(rules)
    table = variant_of(rules).require("call").table
    given = known_wild(rules, all_shown=True)
    packed = to_packed(hand, "hand")
    n = table.hand_cards
    if card_count(packed) != n:
        raise BidError(f"hand {format_cards(packed)!r} has {card_count(packed)} cards; a hand before the "
                       f"auction has {n} under {rules.describe()}", param="hand")
    me = place_index(seat)
    acts = _parse_calls(before)
    mode = BIDDING_MODES_CALL[rules.bidding]
    state = [0] * G.AUCTION_SIZE
    _auction_start(state, mode, 0, 0)
    for i, a in enumerate(acts):
        if state[G.A_OUTCOME] != G.AUCTION_OPEN:
            raise BidError(f"the auction is over after {i} action(s); {len(acts)} were given", param="before")
        _auction_bid(state, state[G.A_TURN], a)
    if state[G.A_OUTCOME] != G.AUCTION_OPEN:
        raise BidError("the auction is over after these actions: there is nothing to decide", param="before")
    if state[G.A_TURN] != me:
        raise BidError(f"after {','.join(_CALL_NAMES[a] for a in acts) or 'no action'} it is the "
                       f"{PLACES[state[G.A_TURN]]} seat's turn, not the {PLACES[me]} seat's", param="seat")
    what = "call" if state[G.A_CALLER] < 0 else "grab"
    return CallProblem(packed, me, acts, (1, 1), what, unseen_ranks(FULL_DECK - packed), rules, given)


def run_call_rows(problem: CallProblem, policy: int, seed: int, start: int, count: int,
                  max_attempts: int = MAX_ATTEMPTS, model=None) -> np.ndarray:
    """Per-sample rows (the ``CCOL_*`` columns) of sample indices ``start ..``
    (the earlier actions read by the player ``model`` when given)."""
    out = np.zeros((count, CCOLS), np.int64)
    q = situation(D_CALL, policy, me=problem.seat, mine=problem.hand, given=problem.given, before=problem.before,
                  model=model)
    with policy_work() as work:
        _call_chunk(problem.unseen, q, variant_of(problem.rules).params, seed_key(seed), start, count, max_attempts,
                    out, *work)
    return out


@dataclasses.dataclass(frozen=True)
class CallEvaluation(Verdict):
    """The verdict of :func:`evaluate_call`: ``choices`` are ``pass`` and
    ``call`` (or ``grab``), each a :class:`~.montecarlo.ChoiceResult`."""

    what: str

    def to_dict(self) -> dict:
        return {"decision": self.what, "hand": self.hand, "seat": self.seat,
                "before": [_CALL_NAMES[a] for a in self.before], "rules": self.rules.describe(), **self.run_fields(),
                **self.verdict_fields(), **wild_fields(self.rules)}


def evaluate_call(hand, seat: "int | str" = 0, before=(), samples: int = 2000, seed: int = 0,
                  workers: "int | None" = None, policy: str = "heuristic", confidence: float = 0.95,
                  rules: "Rules | str | None" = "happy", progress: "Callable[[int, int], None] | None" = None,
                  early_stop: bool = True, max_attempts: int = MAX_ATTEMPTS, inference: bool = False
                  ) -> CallEvaluation:
    """Monte Carlo verdict on calling (or grabbing) or passing, under
    ``bidding=call-grab`` (Happy Dou Dizhu) or ``first-call`` (``notalon``).

    ``hand``: this seat's dealt cards (17, or 18 with no bottom); ``seat``:
    its place in the auction from the first bidder; ``before``: the auction
    so far (``"pass,call,grab"``), this seat's own earlier call included when
    it decides whether to grab back.  The unseen cards are dealt at random,
    consistent with the other seats' actions as the policy's call-grab rule
    judges them; each choice is followed by the rest of the auction by that
    rule, the landlord's draws, the doubles, the landlord's first-play show
    and a playout, and scored for this seat with the whole stake (0 when
    all pass and the deal is void).  Under Laizi rules the wild ranks this
    seat does not know yet are drawn for each deal (the rules' ``wild``
    gives the known ones).  Figures, early stopping and ``inference`` (the
    other seats' actions read by the player model) as :func:`evaluate_bid`.

    >>> ev = evaluate_call("3345566789TJQKA2D", "first", samples=300, seed=1, workers=1)
    >>> sorted(ev.choices), ev.recommendation in ev.choices
    (['call', 'pass'], True)
    """
    problem = call_problem(hand, seat, before, rules)
    rules = problem.rules
    check_options(policy, samples, confidence)
    pol = POLICIES[policy]
    model = load_model(rules) if inference else None
    names = ("pass", problem.what)
    cols = [CCOL_CHOICE + NCCOL_CHOICE * c for c in range(2)]
    run = sample(lambda start, count: run_call_rows(problem, pol, seed, start, count, max_attempts, model), samples,
                 workers, [col + 4 for col in cols], CCOL_ACCEPTED, CCOL_ATTEMPTS, confidence, early_stop, progress)
    if run.n == 0:
        raise BidError(f"no deal consistent with the auction {','.join(_CALL_NAMES[a] for a in problem.before)} "
                       f"was found in {run.drawn} draws: {reader(policy, inference)} (almost) never acts that way")
    margin, margin_ci = run.margin(confidence)
    return CallEvaluation(
        hand=format_cards(problem.hand), seat=PLACES[problem.seat], before=problem.before, what=problem.what,
        inference=inference,
        rules=rules, policy=policy, seed=seed, confidence=confidence, **run.counts(),
        choices={name: choice_result(name, run.acc, col, confidence) for name, col in zip(names, cols)},
        recommendation=names[cols.index(run.order[0] - 4)], margin=margin, margin_ci=margin_ci)


# Review of a recorded game ----------------------------------------------------------------


def review_calls(rec, opts) -> "tuple[list | None, str | None]":
    """Every action of a record's call-grab or first-call auction against
    :func:`evaluate_call`, from what the seat knew (its hand, the actions
    before it, the wild ranks turned up before the bidding): ``(rows,
    notes)``.  ``opts`` gives ``bid_samples`` and ``seed``; a row is
    :func:`~ddz_tools.analysis.bid.review_bids`' (``bid`` and ``best`` are
    ``pass``, ``call`` or ``grab``)."""
    from .double import review_row

    # The bidders knew only the wild ranks turned up before the bidding.
    rules = rec.rules.at_bidding()
    out, notes = [], []
    for k, (seat, act) in enumerate(rec.bids):
        before = [a for _, a in rec.bids[:k]]
        try:
            ev = evaluate_call(rec.hands[seat], (seat - rec.first_bidder) % 3, before, samples=opts.bid_samples,
                               seed=opts.seed, workers=1, rules=rules, inference=opts.review_inference)
        except DdzError as exc:
            notes.append(f"bid review of bids[{k}]: {exc}")
            continue
        out.append(review_row(ev, seat, rec.players, "bid", ev.what if act else "pass", order=k))
    return out, "; ".join(notes) or None
