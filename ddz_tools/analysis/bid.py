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
policy's own bid rule (rejection sampling).  Each sample index draws deals
until one is accepted (at most ``max_attempts``); the rejected draws are
counted and reported.  Accepted deals are exact draws from the conditional
distribution, so rejection costs time but adds no bias.

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
margin is the paired difference to the second best.

Early stopping: samples are processed in fixed chunks of :data:`CHUNK`
sample indices; after at least :data:`MIN_SAMPLES`, the evaluation stops at a
chunk boundary once, for every other legal choice, the one-sided lower
confidence bound of the paired score difference (best minus other) is above
zero, or the two choices scored identically on every sample so far.  The
per-test level is ``(1 - confidence) / (alternatives * looks)`` (Bonferroni
over the alternatives and the planned looks), so the chance of stopping on a
wrong recommendation stays below ``1 - confidence``.

Determinism: every random draw of sample ``i`` comes from a counter-based
generator keyed by ``(seed, i, attempt)``; chunks are fixed ranges of sample
indices and the stopping rule only looks at whole prefixes of chunks, so the
result is the same for any number of ``workers``.  Workers are threads: the
kernels release the GIL.

Happy Dou Dizhu's stages have their own evaluators, on the same sampling,
statistics and stopping rule: :func:`evaluate_call` (call or grab, under
``call-grab`` or ``first-call`` bidding), :func:`evaluate_double` (x1, x2
or x4 after the auction) and :func:`evaluate_show` (show the hand during
the deal, or as landlord at the first play, or not).
"""

from __future__ import annotations

import dataclasses
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from statistics import NormalDist
from typing import Callable, Iterable, Sequence

import numpy as np

from ..core._jit import interpreted, kernel
from ..core.cards import FULL_DECK, card_count, contains, counts_of, format_cards, full_deck, packed_count, to_packed
from ..core.errors import ArgumentError, BidError, RulesError
from ..core.kinds import WILD_MASK, wild_flags
from ..core.rules import Rules
from ..core.gamerules import (
    A_BASE,
    A_CALLER,
    A_GRABS,
    A_HIGH,
    A_HIGH_SEAT,
    A_LANDLORD,
    A_OUTCOME,
    A_TURN,
    AUCTION_OPEN,
    AUCTION_SIZE,
    AUCTION_VOID,
    BID_BAD,
    BID_OK,
    BID_OVER,
    CALL_GRAB,
    FIRST_CALL,
    S_DRAW,
    SINGLE_ROUND,
    BIDDING_MODES as _ALL_BIDDING_MODES,
    SPRING_MODES,
    auction_bid,
    auction_must_call,
    auction_seats,
    auction_start,
    bid_error,
    draw_card,
    must_call,
    S_DOUBLING,
    SHOW_FIRST_PLAY,
    DOUBLING_MODES,
    DOUBLING_OFF,
    bottom_bonus,
    double_ok,
    merge_show,
    draw_wild_given,
    multiplier,
    play_flags,
    settle_seats,
    show_factor,
)
from ..engines.policies import BUFFER, new_table, policy_bid, policy_call, policy_double, policy_show
from ..engines.selfplay import R_ANTI_SPRING, R_DOUBLINGS, R_LANDLORD_WON, R_SPRING, R_SPRING_ANY, playout


SEAT_NAMES = ("first", "second", "third")
#: The places in the bidding at a four-player table (rules ``four``).
SEAT_NAMES_FOUR = SEAT_NAMES + ("fourth",)
CHOICES = ("pass", "1", "2", "3")
POLICIES = {"random": 0, "heuristic": 1}
#: Bidding options the evaluator models (kernel codes).
BIDDING_MODES = {k: _ALL_BIDDING_MODES[k] for k in ("single-round", "until-two-pass")}

#: Sample indices per chunk: the unit of work, of parallelism and of early stopping.
CHUNK = 250
#: No early stop before this many sample indices.
MIN_SAMPLES = 500
#: Deals drawn per sample index before giving it up (conditioning on earlier bids).
MAX_ATTEMPTS = 2000

# Columns of the per-sample result rows written by the kernel.
COL_ATTEMPTS = 0   # deals drawn for this sample index
COL_ACCEPTED = 1   # 1 if a deal consistent with the earlier bids was found
COL_WON = 2        # this seat as landlord: won (0/1)
COL_MULT = 3       # this seat as landlord: 2 ** (bombs + rocket + spring + anti-spring)
COL_CHOICE = 4     # then per choice (pass, 1, 2, 3) NCOL_CHOICE columns:
NCOL_CHOICE = 5    # landlord (-2 illegal, -1 redeal, 0 this seat, 1/2 the next seats), bid, landlord won, mult, score
NCOLS = COL_CHOICE + 4 * NCOL_CHOICE

# Counter-based random numbers --------------------------------------------------
#
# All arithmetic stays below 2**63, so the kernels and their plain-Python twins
# (tests/naive_bid.py) agree bit for bit, jitted or not.  _h32 is the 32-bit
# integer hash with multiplier 0x45d9f3b found by Thomas Mueller's avalanche
# search (posted on Stack Overflow, "hash function that produces good hash for
# integers"); it is a bijection of 32-bit words.

M32 = 0xFFFFFFFF


@kernel
def _h32(x):
    x = x & 0xFFFFFFFF
    x = (((x >> 16) ^ x) * 0x45D9F3B) & 0xFFFFFFFF
    x = (((x >> 16) ^ x) * 0x45D9F3B) & 0xFFFFFFFF
    return (x >> 16) ^ x


@kernel
def _mix2(a, b):
    """A 32-bit key from two 32-bit words (order matters)."""
    return _h32(_h32(a) ^ _h32((b + 0x9E3779B9) & 0xFFFFFFFF))


@kernel
def _word(key, j):
    """The j-th 32-bit random word of the stream ``key``."""
    return _h32(_mix2(key, j) + 0x7F4A7C15)


@kernel
def _shuffle(cards, key):
    """Fisher-Yates shuffle of ``cards`` in place, driven by the stream ``key``.

    Each index is drawn exactly uniformly by rejecting the words at or above
    the largest multiple of the range (no modulo bias).
    """
    j = 0
    for pos in range(cards.shape[0] - 1, 0, -1):
        m = pos + 1
        limit = (4294967296 // m) * m
        r = _word(key, j)
        j += 1
        while r >= limit:
            r = _word(key, j)
            j += 1
        idx = r % m
        t = cards[pos]
        cards[pos] = cards[idx]
        cards[idx] = t


def seed_key(seed: int) -> int:
    """The 32-bit stream key of a user seed (any Python int)."""
    s = int(seed) % (1 << 64)
    return int(_mix2(s & M32, s >> 32))


@kernel
def _sample_key(key0, index, attempt):
    return _mix2(_mix2(key0, index), attempt)


def sample_key(key0: int, index: int, attempt: int = 0) -> int:
    """The stream key of draw ``attempt`` of sample ``index`` under the run key ``key0``
    (:func:`seed_key`): the counter-based key every sampler of the package uses."""
    return int(_sample_key(int(key0), int(index), int(attempt)))


def shuffle(cards: np.ndarray, key: int) -> None:
    """Shuffle an int64 array in place by the stream ``key`` (exactly uniform,
    the same on every machine and for any number of workers).

    >>> a = np.arange(10, dtype=np.int64); shuffle(a, sample_key(seed_key(1), 0))
    >>> sorted(a.tolist()) == list(range(10))
    True
    """
    if not isinstance(cards, np.ndarray) or cards.dtype != np.int64 or cards.ndim != 1:
        raise TypeError("shuffle takes a one-dimensional int64 array")
    _shuffle(cards, int(key) & M32)


@kernel
def _deal_seats(unseen, key, me, mine, hand_n, bottom_known, hands, scratch):
    """Deal ``unseen`` (rank indices) for one sample; returns the bottom.

    ``hands`` (one packed hand per seat by bidding position: 3, or 4 at a
    four-player table) gets ``mine`` at ``me``, the first ``hand_n``
    shuffled cards at ``me + 1``, the next ``hand_n`` at ``me + 2`` (and at
    ``me + 3``); the rest is the bottom unless ``bottom_known > 0``.
    """
    n = unseen.shape[0]
    nseats = hands.shape[0]
    for i in range(n):
        scratch[i] = unseen[i]
    _shuffle(scratch[:n], key)
    hands[me] = mine
    for k in range(1, nseats):
        a = 0
        for i in range(hand_n * (k - 1), hand_n * k):
            a += 1 << (4 * scratch[i])
        hands[(me + k) % nseats] = a
    if bottom_known > 0:
        return bottom_known
    c = 0
    for i in range(hand_n * (nseats - 1), n):
        c += 1 << (4 * scratch[i])
    return c


@kernel
def _deal(unseen, key, me, me17, bottom_known, hands, scratch):
    """:func:`_deal_seats` of three 17-card hands (``hands`` int64[3]): the
    first 17 shuffled cards at ``me + 1``, the next 17 at ``me + 2``, the
    rest (3 cards) the bottom unless ``bottom_known > 0``."""
    return _deal_seats(unseen, key, me, me17, 17, bottom_known, hands, scratch)


@kernel
def _bid_of(hand17, policy, flags, highest, key, pos, table):
    """The policy's bid for one seat, with numba's RNG seeded per (sample, seat, highest bid)."""
    np.random.seed(_mix2(key, 0x2000 + 4 * pos + highest))
    return policy_bid(hand17, policy, flags, highest, table)


@kernel
def _score_of(seat, landlord, won, stake, nseats, doubling, doubles, scores):
    """The score of ``seat`` when the hand is settled by
    :func:`~ddz_tools.core.gamerules.settle_seats` (``scores`` a work array)."""
    settle_seats(landlord, won, stake, nseats, doubling, doubles, 0, scores, 0)
    return scores[seat]


@kernel
def _bid_chunk(unseen, nseats, hand_n, me, me17, bottom_known, before, legal, policy, game_flags, given, mode,
               key0, start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate sample indices ``start .. start + count - 1`` into ``out`` rows.

    ``nseats`` seats (3, or 4 under four-player rules, whose ``game_flags``
    say so) of ``hand_n`` dealt cards each (17 or 25); ``me17`` this seat's
    dealt cards.  ``before[p]`` (p < me) are the earlier bids, ``legal[c]`` is 1 when
    choice c (0 = pass, 1..3) may be made.  See the COL_* constants for the
    row layout.  ``mode``: bit 0 the bidding (0 = ``bidding=single-round``,
    1 = ``until-two-pass``), bit 1 the spring rule (0 = ``spring=landlord``,
    1 = ``any-player``).  ``game_flags`` are the rules'
    :attr:`~ddz_tools.core.rules.Rules.game_flags`: under Laizi rules each deal
    draws the wild ranks not ``given`` (flag bits at ``WILD_SHIFT``), and the
    bids see only those shown before the bidding, the play every one.
    ``table``, ``bufc``, ``bufk`` are the policies' work arrays (a decomposer
    memo table and move buffers); they hold no state that changes a result.
    """
    hands = np.empty(nseats, np.int64)
    bidding = mode & 1
    spring_col = R_SPRING_ANY if (mode >> 1) & 1 else R_SPRING
    play = np.empty(nseats, np.int64)
    pols = np.empty(nseats, np.int64)
    pols[:] = policy
    scratch = np.empty(unseen.shape[0] + 1, np.int64)
    cache_won = np.empty(nseats, np.int64)
    cache_mult = np.empty(nseats, np.int64)
    before_me = np.empty(AUCTION_SIZE, np.int64)   # the auction after the earlier bids
    auction = np.empty(AUCTION_SIZE, np.int64)
    ones = np.ones(nseats, np.int64)
    scores = np.empty(nseats, np.int64)
    for s in range(count):
        idx = start + s
        row = out[s]
        for c in range(NCOLS):
            row[c] = 0
        # Draw deals until the earlier seats would have bid as they did.
        key = 0
        bottom = 0
        accepted = False
        attempt = 0
        while attempt < max_attempts and not accepted:
            key = _sample_key(key0, idx, attempt)
            attempt += 1
            bottom = _deal_seats(unseen, key, me, me17, hand_n, bottom_known, hands, scratch)
            np.random.seed(_mix2(key, 0x3000))
            shown, every = draw_wild_given(game_flags, given)
            flags = play_flags(game_flags, shown)
            auction_start(before_me, bidding, 0, 0)
            auction_seats(before_me, nseats)
            accepted = True
            for p in range(me):
                b = _bid_of(hands[p], policy, flags, before_me[A_HIGH], key, p, table)
                if b != before[p]:
                    accepted = False
                    break
                auction_bid(before_me, p, b)
        row[COL_ATTEMPTS] = attempt
        if not accepted:
            continue
        row[COL_ACCEPTED] = 1
        for L in range(nseats):
            cache_won[L] = -1
            cache_mult[L] = 0
        # choice -1: this seat as landlord, always played (it gives win_prob);
        # then each legal choice: the rest of the auction and its landlord's playout.
        for choice in range(-1, 4):
            if choice >= 0 and legal[choice] == 0:
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
                    auction_bid(auction, p, _bid_of(hands[p], policy, flags, auction[A_HIGH], key, p, table))
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
                res = playout(play, lead, pols, play_flags(game_flags, every), _mix2(key, 0x1000 + rel), table,
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
            row[base + 4] = _score_of(me, lead, won, top * mult, nseats, DOUBLING_OFF, ones, scores)
    return count


# Statistics ---------------------------------------------------------------------


def normal_z(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence`` (1.96 at 0.95): the
    half-width, in standard errors, of the intervals here.

    >>> round(normal_z(0.95), 3)
    1.96
    """
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion.

    >>> lo, hi = wilson_interval(80, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.7112, 0.8666)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    z = normal_z(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval ``(mean, lo, hi)`` of integer values.

    >>> [round(x, 4) for x in mean_interval(np.array([2, -2, 2, 2]))]
    [1.0, -0.96, 2.96]
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    v = np.asarray(values, dtype=np.int64)
    s1 = int(v.sum())
    s2 = int((v * v).sum())
    mean = s1 / n
    var = (s2 - s1 * s1 / n) / (n - 1) if n > 1 else 0.0
    z = normal_z(confidence)
    half = z * math.sqrt(max(var, 0.0) / n)
    return (mean, mean - half, mean + half)


@dataclasses.dataclass(frozen=True)
class ChoiceResult:
    """The outcome of one bidding choice over the accepted samples."""

    choice: str
    legal: bool
    landlord_prob: float = 0.0          # this seat ends up landlord
    redeal_prob: float = 0.0            # all three passed
    landlord_win_prob: float = 0.0      # the landlord (whoever it is) wins, given there is one
    landlord_win_ci: tuple = (0.0, 1.0)
    win_prob: float = 0.0               # this seat wins the hand
    win_ci: tuple = (0.0, 1.0)
    expected_score: float = 0.0
    score_ci: tuple = (0.0, 0.0)

    def to_dict(self) -> dict:
        if not self.legal:
            return {"legal": False}
        return {"legal": True, "landlord_prob": self.landlord_prob, "redeal_prob": self.redeal_prob,
                "landlord_win_prob": self.landlord_win_prob, "landlord_win_ci": list(self.landlord_win_ci),
                "win_prob": self.win_prob, "win_ci": list(self.win_ci),
                "expected_score": self.expected_score, "score_ci": list(self.score_ci)}


@dataclasses.dataclass(frozen=True)
class BidEvaluation:
    """The verdict of :func:`evaluate_bid` (see the module doc for definitions)."""

    hand: str
    bottom: "str | None"
    seat: str
    before: tuple
    rules: Rules
    policy: str
    seed: int
    confidence: float
    samples: int          # accepted samples the figures rest on
    samples_max: int
    indices: int          # sample indices processed (accepted or given up)
    drawn: int            # deals drawn in all, rejected ones included
    rejected: int         # drawn deals inconsistent with the earlier bids
    failed: int           # sample indices with no consistent deal in max_attempts draws
    stopped_early: bool
    win_prob: float
    win_prob_ci: tuple
    choices: dict         # choice name -> ChoiceResult
    recommendation: str
    margin: float         # expected score of the recommendation minus the second best
    margin_ci: tuple

    def wild_note(self) -> str:
        """Under Laizi rules, which wild ranks were known and which drawn for
        each sampled deal (``", wild 5 known, 1 drawn a deal"``); else ``""``."""
        if not self.rules.is_laizi:
            return ""
        known = f"wild {self.rules.wild_text()} known, " if self.rules.wild else "wild "
        drawn = self.rules.wild_ranks - len(self.rules.wild)
        return f", {known}{drawn} drawn a deal" if drawn else f", wild {self.rules.wild_text()}"

    @property
    def expected_score(self) -> dict:
        """Expected score per choice, ``None`` for an illegal one."""
        return {c: (r.expected_score if r.legal else None) for c, r in self.choices.items()}

    def to_dict(self) -> dict:
        out = {
            "hand": self.hand, "bottom": self.bottom, "seat": self.seat,
            "before": [CHOICES[b] for b in self.before], "rules": self.rules.describe(),
            "policy": self.policy, "seed": self.seed, "confidence": self.confidence,
            "samples": self.samples, "samples_max": self.samples_max, "indices": self.indices,
            "drawn": self.drawn, "rejected": self.rejected, "failed": self.failed,
            "stopped_early": self.stopped_early,
            "win_prob": self.win_prob, "win_prob_ci": list(self.win_prob_ci),
            "expected_score": self.expected_score,
            "choices": {c: r.to_dict() for c, r in self.choices.items()},
            "recommendation": self.recommendation, "margin": self.margin, "margin_ci": list(self.margin_ci),
        }
        if self.rules.is_laizi:
            # The wild ranks the bidder knew ("" for none) and how many each deal drew.
            out["wild"] = self.rules.wild_text()
            out["wild_drawn"] = self.rules.wild_ranks - len(self.rules.wild)
        return out


def _choice_results(rows: np.ndarray, legal: Sequence[int], confidence: float) -> dict:
    acc = rows[rows[:, COL_ACCEPTED] == 1]
    n = len(acc)
    out = {}
    for c, name in enumerate(CHOICES):
        if not legal[c]:
            out[name] = ChoiceResult(name, False)
            continue
        base = COL_CHOICE + NCOL_CHOICE * c
        ll = acc[:, base]
        won = acc[:, base + 2]
        has = ll >= 0
        n_ll = int(has.sum())
        ll_wins = int((won[has] == 1).sum())
        me_wins = int(((ll == 0) & (won == 1)).sum() + ((ll > 0) & (won == 0)).sum())
        mean, lo, hi = mean_interval(acc[:, base + 4], confidence)
        out[name] = ChoiceResult(
            name, True,
            landlord_prob=float((ll == 0).sum()) / n if n else 0.0,
            redeal_prob=float((ll == -1).sum()) / n if n else 0.0,
            landlord_win_prob=ll_wins / n_ll if n_ll else 0.0,
            landlord_win_ci=wilson_interval(ll_wins, n_ll, confidence),
            win_prob=me_wins / n if n else 0.0,
            win_ci=wilson_interval(me_wins, n, confidence),
            expected_score=mean, score_ci=(lo, hi))
    return out


def _ranking(rows: np.ndarray, legal: Sequence[int]) -> list[int]:
    """Legal choices by expected score, best first (ties: lower choice first)."""
    acc = rows[rows[:, COL_ACCEPTED] == 1]
    totals = [(-int(acc[:, COL_CHOICE + NCOL_CHOICE * c + 4].sum()), c) for c in range(4) if legal[c]]
    return [c for _, c in sorted(totals)]


def _settled(rows: np.ndarray, legal: Sequence[int], z: float) -> bool:
    """Is the best choice ahead of every other with one-sided bound ``z``?"""
    acc = rows[rows[:, COL_ACCEPTED] == 1]
    order = _ranking(rows, legal)
    return settled(np.stack([acc[:, COL_CHOICE + NCOL_CHOICE * c + 4] for c in order], axis=1), z)


def stop_z(confidence: float, alternatives: int, looks: int) -> float:
    """The one-sided z of the early-stopping test: level ``(1 - confidence)``
    split over the alternatives and the planned looks (Bonferroni)."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / (max(1, alternatives) * max(1, looks)))


def settled(scores: np.ndarray, z: float) -> bool:
    """Is column 0 of ``scores`` (samples x choices, integer scores on the same
    samples, best choice first) ahead of every other column?

    For each other column the one-sided lower bound (``z``) of the mean paired
    difference must be above zero, or the two columns must be identical.

    >>> settled(np.array([[1, 0], [1, 0], [1, 1]] * 5), 2.0)
    True
    >>> settled(np.array([[1, 0], [0, 1], [1, 1]] * 5), 2.0)
    False
    """
    n = scores.shape[0]
    if n < 2 or scores.shape[1] < 2:
        return n >= 2
    best = scores[:, 0].astype(np.int64)
    for c in range(1, scores.shape[1]):
        d = best - scores[:, c]
        if not d.any():
            continue
        s1 = int(d.sum())
        s2 = int((d * d).sum())
        var = (s2 - s1 * s1 / n) / (n - 1)
        if s1 / n - z * math.sqrt(max(var, 0.0) / n) <= 0:
            return False
    return True


def run_chunks(n_chunks: int, work: Callable[[int], object], take: Callable[[object], bool],
               workers: int = 1) -> bool:
    """Run ``work(k)`` for chunks ``k = 0 .. n_chunks-1`` and hand each result to
    ``take`` in chunk order; stop when ``take`` returns True (then return True).

    With ``workers > 1`` the chunks run on that many threads, a few ahead of
    the one being taken; ``take`` still sees exactly the same prefix of
    results, so a result built from them does not depend on ``workers``.
    """
    if workers <= 1 or n_chunks <= 1:
        for k in range(n_chunks):
            if take(work(k)):
                return True
        return False
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = {}
        nxt = 0
        for k in range(n_chunks):
            while nxt < n_chunks and nxt < k + workers + 1:
                pending[nxt] = pool.submit(work, nxt)
                nxt += 1
            if take(pending.pop(k).result()):
                for f in pending.values():
                    f.cancel()
                return True
    return False


# The public function ------------------------------------------------------------


def parse_before(before: "str | Iterable | None") -> tuple:
    """Earlier bids as a tuple of ints (0 = pass).

    >>> parse_before("pass,1")
    (0, 1)
    >>> parse_before(["p", 2])
    (0, 2)
    >>> parse_before("")
    ()
    """
    if before is None:
        return ()
    items = [x.strip() for x in before.split(",")] if isinstance(before, str) else list(before)
    if isinstance(before, str) and before.strip() == "":
        return ()
    out = []
    for x in items:
        t = str(x).strip().lower()
        if t in ("pass", "p", "0", "-"):
            out.append(0)
        elif t in ("1", "2", "3"):
            out.append(int(t))
        else:
            raise BidError(f"earlier bid {x!r} is not pass, 1, 2 or 3")
    return tuple(out)


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


def _seat_index(seat, seats: int = 3) -> int:
    """A place in the bidding, 0 .. ``seats - 1``, from its name or number."""
    names = SEAT_NAMES_FOUR[:seats]
    what = "first, second or third" if seats == 3 else "first, second, third or fourth"
    if isinstance(seat, str):
        t = seat.strip().lower()
        if t in names:
            return names.index(t)
        if t in [str(i) for i in range(seats)]:
            return int(t)
        raise BidError(f"seat {seat!r} is not {what}")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
        return seat
    raise BidError(f"seat {seat!r} is not {what}")


# The auction rule, run by Python.
_auction_start = interpreted(auction_start)
_auction_seats = interpreted(auction_seats)
_auction_bid = interpreted(auction_bid)
_bid_error = interpreted(bid_error)
_double_ok = interpreted(double_ok)
_bottom_bonus = interpreted(bottom_bonus)


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
    seats: int = 3        # seats at the table (4 under four-player rules)
    hand_n: int = 17      # cards dealt to each seat

    @property
    def highest(self) -> int:
        return max(self.before, default=0)


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
    seats, decks = rules.seats, rules.decks
    hand_n, bottom_n = (25, 8) if rules.is_four else (17, 3)
    landlord_n = hand_n + bottom_n
    under = f" under {rules.describe()}" if rules.is_four else ""
    packed = to_packed(hand, "hand", decks)
    text = format_cards(packed)
    n = card_count(packed)
    s = _seat_index(seat, seats)
    names = SEAT_NAMES_FOUR
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
    auction = [0] * AUCTION_SIZE
    _auction_start(auction, SINGLE_ROUND, 0, 0)
    _auction_seats(auction, seats)
    for i, b in enumerate(bids):
        err = _bid_error(auction, i, b)
        if err == BID_OVER:
            break
        if err != BID_OK:
            raise BidError(f"earlier bid {b} by the {names[i]} seat does not beat the bid "
                           f"{auction[A_HIGH]} before it")
        _auction_bid(auction, i, b)
    if auction[A_OUTCOME] != AUCTION_OPEN:
        raise BidError(f"the {names[auction[A_HIGH_SEAT]]} seat bid 3, which ends the auction before the "
                       f"{names[s]} seat bids")
    legal = tuple(1 if _bid_error(auction, s, c) == BID_OK else 0 for c in range(4))
    unseen_packed = full_deck(decks) - packed
    unseen = np.array([r for r, c in enumerate(counts_of(unseen_packed)) for _ in range(c)], dtype=np.int64)
    return BidProblem(packed, bot, me17, s, bids, legal, unseen, seats, hand_n)


#: log2 of the slots of the decomposer memo table each worker keeps (16 MB):
#: the heuristic policy asks for the minimum plays of many related hands, and
#: a big warm table makes a playout several times faster.
WORK_TABLE_BITS = 20
_free_work: list = []
_work_lock = threading.Lock()


def _take_work():
    """A set of policy work arrays ``(table, bufc, bufk)``, reused between calls.

    The memo table only caches exact values, so which set a chunk gets never
    changes its result.
    """
    with _work_lock:
        if _free_work:
            return _free_work.pop()
    return new_table(WORK_TABLE_BITS), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def _give_work(work) -> None:
    with _work_lock:
        _free_work.append(work)


def run_rows(problem: BidProblem, policy: int, flags: int, seed: int, start: int, count: int,
             max_attempts: int = MAX_ATTEMPTS, mode: int = 0, spring: int = 0, given: int = 0) -> np.ndarray:
    """Per-sample result rows (see the ``COL_*`` constants) of sample indices ``start ..``.

    ``flags`` are the rules' ``game_flags`` (the same as ``flags`` under
    classic rules), ``given`` the wild ranks the bidder knows (flag bits;
    the others are drawn each sample); ``mode`` is the bidding mode
    (:data:`BIDDING_MODES`), ``spring`` the spring rule (:data:`SPRING_MODES`).
    """
    out = np.zeros((count, NCOLS), dtype=np.int64)
    before = np.zeros(4, dtype=np.int64)
    before[: len(problem.before)] = problem.before
    work = _take_work()
    try:
        _bid_chunk(problem.unseen, problem.seats, problem.hand_n, problem.seat, problem.me17,
                   problem.bottom if problem.bottom is not None else 0,
                   before, np.array(problem.legal, dtype=np.int64), policy, flags, given, mode | (spring << 1),
                   seed_key(seed),
                   start, count, max_attempts, out, *work)
    finally:
        _give_work(work)
    return out


def known_wild(rules: Rules) -> int:
    """The wild ranks a bidder knows under ``rules`` (their ``wild``), as
    flag bits; the others are drawn for each sampled deal.  Under
    ``laizi_reveal=after-landlord`` a bidder knows none under ``laizi`` and
    only the 天 rank under ``tiandi``: naming more is an error, since the
    evaluation would then use what no bidder can know."""
    if not rules.is_laizi or not rules.wild:
        return 0
    shown = rules.wild_at_bidding
    if len(rules.wild) > shown:
        what = "no wild rank is" if shown == 0 else "only the 天 rank is"
        raise RulesError(f"{rules.preset} rules with laizi_reveal=after-landlord: {what} known at the bid, "
                         f"so give {'no --wild' if shown == 0 else 'one --wild rank'} (the evaluator draws "
                         f"the rest for each sampled deal), not {rules.wild_text()}", param="wild")
    return wild_flags(rules.wild)


def evaluate_bid(hand, bottom=None, seat: "int | str" = 0, before=(), samples: int = 2000,
                 seed: int = 0, workers: "int | None" = None, policy: str = "heuristic",
                 confidence: float = 0.95, rules: "Rules | str | None" = None,
                 progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                 max_attempts: int = MAX_ATTEMPTS) -> BidEvaluation:
    """Monte Carlo verdict on each bidding choice of a hand (see the module doc).

    ``hand``: 17 cards, or the landlord's 20 with ``bottom`` (3 cards in it).
    ``seat``: 0-2 or ``first``/``second``/``third`` in the bidding order;
    ``before``: the earlier seats' bids (``"pass,1"`` or ``(0, 1)``).
    ``samples`` is the maximum number of samples (sample indices); the
    evaluation stops earlier once the recommendation is settled at
    ``confidence`` (unless ``early_stop=False``).  ``workers`` threads
    (default: all cores) give the same result as one.  ``progress(done,
    total)`` is called after each chunk.

    >>> ev = evaluate_bid("3445567789TJQKA2D", seat="first", samples=500, seed=1, workers=1)
    >>> ev.samples, ev.recommendation in ev.choices, 0.0 <= ev.win_prob <= 1.0
    (500, True, True)
    """
    rules = Rules.parse(rules)
    if rules.bidding not in BIDDING_MODES:
        raise RulesError(f"the bid evaluator supports bidding={' or '.join(BIDDING_MODES)}, not {rules.bidding}")
    if policy not in POLICIES:
        raise ArgumentError(f"policy {policy!r} is not one of {', '.join(POLICIES)}", param="policy")
    if not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be a positive number, not {samples!r}", param="samples")
    if not 0.5 <= confidence < 1:
        raise ArgumentError(f"confidence must be in [0.5, 1), not {confidence!r}", param="confidence")
    problem = bid_problem(hand, bottom, seat, before, rules)
    pol = POLICIES[policy]
    flags = rules.game_flags & ~WILD_MASK
    given = known_wild(rules)
    mode = BIDDING_MODES[rules.bidding]
    spring = SPRING_MODES[rules.spring]
    workers = workers or os.cpu_count() or 1
    n_chunks = -(-samples // CHUNK)
    n_alt = max(1, sum(problem.legal) - 1)
    looks = max(1, n_chunks - (MIN_SAMPLES - 1) // CHUNK)
    z_stop = stop_z(confidence, n_alt, looks)

    def work(k: int) -> np.ndarray:
        start = k * CHUNK
        return run_rows(problem, pol, flags, seed, start, min(CHUNK, samples - start), max_attempts, mode, spring,
                        given)

    parts: list = []

    def take(rows: np.ndarray) -> bool:
        parts.append(rows)
        done = sum(len(p) for p in parts)
        if progress is not None:
            progress(done, samples)
        if not any(p[:, COL_ACCEPTED].any() for p in parts):
            return True  # a whole chunk found no consistent deal: give up (error below)
        if early_stop and done >= MIN_SAMPLES and done < samples:
            return _settled(np.concatenate(parts), problem.legal, z_stop)
        return False

    stopped = run_chunks(n_chunks, work, take, workers)
    rows = np.concatenate(parts)
    acc = rows[rows[:, COL_ACCEPTED] == 1]
    n_acc = len(acc)
    drawn = int(rows[:, COL_ATTEMPTS].sum())
    failed = len(rows) - n_acc
    if n_acc == 0:
        raise BidError(f"no deal consistent with the earlier bids {','.join(CHOICES[b] for b in problem.before)} "
                       f"was found in {drawn} draws: the {policy} policy (almost) never bids that way")
    wins = int(acc[:, COL_WON].sum())
    choices = _choice_results(rows, problem.legal, confidence)
    order = _ranking(rows, problem.legal)
    best = CHOICES[order[0]]
    if len(order) > 1:
        d = acc[:, COL_CHOICE + NCOL_CHOICE * order[0] + 4] - acc[:, COL_CHOICE + NCOL_CHOICE * order[1] + 4]
        margin, mlo, mhi = mean_interval(d, confidence)
    else:
        margin, mlo, mhi = 0.0, 0.0, 0.0
    return BidEvaluation(
        hand=format_cards(problem.hand),
        bottom=format_cards(problem.bottom) if problem.bottom is not None else None,
        seat=SEAT_NAMES_FOUR[problem.seat], before=problem.before, rules=rules, policy=policy, seed=seed,
        confidence=confidence, samples=n_acc, samples_max=samples, indices=len(rows), drawn=drawn,
        rejected=drawn - n_acc, failed=failed, stopped_early=stopped,
        win_prob=wins / n_acc, win_prob_ci=wilson_interval(wins, n_acc, confidence),
        choices=choices, recommendation=best, margin=margin, margin_ci=(mlo, mhi))


# Doubling (Happy Dou Dizhu) -----------------------------------------------------------

#: The doubling factors, in the order of the choice columns.
FACTORS = (1, 2, 4)
#: Names of the doubling choices.
DOUBLE_CHOICES = ("x1", "x2", "x4")
#: Seats by their place in the doubling order: the farmer on the landlord's
#: left doubles first, the other farmer second, the landlord last.
DOUBLE_SEATS = ("first", "second", "third")
#: Relative position (0 the landlord, 1 the farmer on his left, 2 the other) of
#: each place in the doubling order.
_DOUBLE_ORDER = (1, 2, 0)
# Columns of a doubling row.
DCOL_ATTEMPTS = 0   # deals drawn for this sample index
DCOL_ACCEPTED = 1   # 1 if a deal consistent with the earlier doubles was found
DCOL_WON = 2        # the landlord won (0/1)
DCOL_MULT = 3       # the public multiple (show, bottom bonus, bombs, spring)
DCOL_SHOW = 4       # the landlord's first-play show multiple (1: no show)
DCOL_DOUBLES = 5    # the three seats' factors by relative position (this seat's: 0)
DCOL_SCORE = 8      # then this seat's score per factor x1, x2, x4 (0 when illegal)
DCOLS = 11


@kernel
def _double_of(hand, policy, flags, stage_flags, is_landlord, key, rel, table):
    """The policy's double for one seat, with numba's RNG seeded per (sample, seat)."""
    np.random.seed(_mix2(key, 0x4000 + rel))
    return policy_double(hand, policy, flags, stage_flags, is_landlord, table)


@kernel
def _double_chunk(unseen, me, me17, bottom, before, nbefore, legal, policy, flags, stage_flags, base, flush,
                  spring_any, won_at, key0, start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate the doubling choices of sample indices ``start .. start + count - 1``
    into ``out`` rows (the ``DCOL_*`` columns).

    Seats by relative position: 0 the landlord, 1 the farmer on his left, 2
    the other farmer; ``me`` is this seat's.  ``me17``: its 17 dealt cards (the
    landlord's hand less the bottom); ``bottom``: the shown bottom;
    ``before[:nbefore]``: the factors of the seats that doubled before this
    one, in doubling order (1, 2, then 0), each judged by the policy's rule on
    the sampled hands (rejection sampling), and when ``won_at >= 0`` (this
    seat a farmer) the landlord's 17 dealt cards must be ones the policy's
    bid rule would bid on above ``won_at`` (0: he would call); the later seats double by that
    rule, the landlord shows at his first play by the policy's rule, and the
    deal is played out by the policy: one playout a sample, since a factor
    does not change the play.  ``legal[c]``: factor ``FACTORS[c]`` allowed.
    """
    hands = np.empty(3, np.int64)
    play = np.empty(3, np.int64)
    pols = np.empty(3, np.int64)
    pols[:] = policy
    scratch = np.empty(64, np.int64)
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    spring_col = R_SPRING_ANY if spring_any else R_SPRING
    doubling = (stage_flags >> S_DOUBLING) & 3
    for s in range(count):
        idx = start + s
        row = out[s]
        for c in range(DCOLS):
            row[c] = 0
        key = 0
        accepted = False
        attempt = 0
        while attempt < max_attempts and not accepted:
            key = _sample_key(key0, idx, attempt)
            attempt += 1
            _deal(unseen, key, me, me17, bottom, hands, scratch)
            accepted = True
            if won_at >= 0 and policy_bid(hands[0], policy, flags, won_at, table) == 0:
                accepted = False
                continue
            hands[0] += bottom
            for i in range(nbefore):
                p = (i + 1) % 3
                if _double_of(hands[p], policy, flags, stage_flags, 1 if p == 0 else 0, key, p, table) != before[i]:
                    accepted = False
                    break
        row[DCOL_ATTEMPTS] = attempt
        if not accepted:
            continue
        row[DCOL_ACCEPTED] = 1
        for i in range(3):
            p = (i + 1) % 3
            if i < nbefore:
                d[p] = before[i]
            elif p == me:
                d[p] = 0
            else:
                d[p] = _double_of(hands[p], policy, flags, stage_flags, 1 if p == 0 else 0, key, p, table)
        np.random.seed(_mix2(key, 0x5000))
        show = 1
        if policy_show(hands[0], policy, flags, stage_flags, SHOW_FIRST_PLAY, 1, table) != 0:
            show = show_factor(stage_flags, SHOW_FIRST_PLAY, 1)
        for p in range(3):
            play[p] = hands[p]
        res = playout(play, 0, pols, flags, _mix2(key, 0x1000), table, bufc, bufk)
        won = res[R_LANDLORD_WON]
        mult = show * bottom_bonus(stage_flags, bottom, flush) * multiplier(res[R_DOUBLINGS], res[spring_col],
                                                                           res[R_ANTI_SPRING])
        row[DCOL_WON] = won
        row[DCOL_MULT] = mult
        row[DCOL_SHOW] = show
        for p in range(3):
            row[DCOL_DOUBLES + p] = d[p]
        for c in range(3):
            if legal[c] == 0:
                continue
            d[me] = FACTORS[c]
            row[DCOL_SCORE + c] = _score_of(me, 0, won, base * mult, 3, doubling, d, scores)
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
class DoubleEvaluation:
    """The verdict of :func:`evaluate_double`."""

    hand: str
    bottom: str
    seat: str             # place in the doubling order: first, second, third (the landlord)
    role: str             # landlord, or farmer1 (the landlord's left) / farmer2
    base: int
    before: tuple         # the earlier seats' factors, in doubling order
    rules: Rules
    policy: str
    seed: int
    confidence: float
    samples: int
    samples_max: int
    indices: int
    drawn: int
    rejected: int
    failed: int
    stopped_early: bool
    win_prob: float       # this seat's side wins
    win_prob_ci: tuple
    landlord_show_prob: float   # the landlord shows at his first play (the policy's rule)
    others_double: dict   # for each other seat (landlord / farmer1 / farmer2): share doubling x1, x2, x4
    choices: dict         # x1 / x2 / x4 -> DoubleChoice
    recommendation: str
    margin: float
    margin_ci: tuple

    @property
    def expected_score(self) -> dict:
        return {c: (r.expected_score if r.legal else None) for c, r in self.choices.items()}

    def to_dict(self) -> dict:
        return {
            "decision": "double", "hand": self.hand, "bottom": self.bottom, "seat": self.seat, "role": self.role,
            "base": self.base, "before": [f"x{b}" for b in self.before], "rules": self.rules.describe(),
            "policy": self.policy, "seed": self.seed, "confidence": self.confidence,
            "samples": self.samples, "samples_max": self.samples_max, "indices": self.indices,
            "drawn": self.drawn, "rejected": self.rejected, "failed": self.failed,
            "stopped_early": self.stopped_early, "win_prob": self.win_prob, "win_prob_ci": list(self.win_prob_ci),
            "landlord_show_prob": self.landlord_show_prob, "others_double": self.others_double,
            "expected_score": self.expected_score,
            "choices": {c: r.to_dict() for c, r in self.choices.items()},
            "recommendation": self.recommendation, "margin": self.margin, "margin_ci": list(self.margin_ci),
        }


_ROLES = ("landlord", "farmer1", "farmer2")


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
    if rules.is_four:
        raise RulesError(f"the doubling decision is a three-player one: four-player Dou Dizhu "
                         f"({rules.describe()}) has no doubles; evaluate the bid")
    if rules.doubling == "off":
        raise RulesError(f"there is no double to decide under rules {rules.describe()} (doubling=off): "
                         f"use rules happy", param="rules")
    if rules.bottom_cards != 3:
        raise RulesError(f"rules {rules.describe()} have no bottom: the doubling evaluator needs one",
                         param="rules")
    if rules.is_laizi:
        rules.require_wild()
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ArgumentError(f"base must be a positive whole number, not {base!r}", param="base")
    place = _seat_index(seat)
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
    if card_count(bot) != 3:
        raise BidError(f"bottom {format_cards(bot)!r} has {card_count(bot)} cards, not 3", param="bottom")
    n = card_count(packed)
    if me == 0:
        if n != 20 or not contains(packed, bot):
            raise BidError(f"the landlord (the third seat to double) holds 20 cards, the bottom "
                           f"{format_cards(bot)} included; {format_cards(packed)!r} has {n}", param="hand")
        me17 = packed - bot
    else:
        if n != 17:
            raise BidError(f"a farmer holds 17 cards; {format_cards(packed)!r} has {n}", param="hand")
        if not contains(FULL_DECK - packed, bot):
            raise BidError(f"bottom {format_cards(bot)} and hand {format_cards(packed)} are more cards than "
                           f"one deck holds", param="bottom")
        me17 = packed
    seen = packed if me == 0 else packed + bot
    unseen = np.array([r for r, c in enumerate(counts_of(FULL_DECK - seen)) for _ in range(c)], dtype=np.int64)
    flush_bit = 0
    if rules.bottom_bonus == "table":
        distinct = bot < (1 << 52) and all((bot >> (4 * r)) & 15 <= 1 for r in range(13))
        if distinct and _bottom_bonus(sf, bot, 0) < 3:
            if flush is None:
                raise BidError(f"bottom_bonus=table: say whether the bottom {format_cards(bot)} is a flush "
                               f"(its three cards of one suit)", param="flush")
            flush_bit = int(bool(flush))
    legal = tuple(1 if _double_ok(sf, f) else 0 for f in FACTORS)
    return DoubleProblem(packed, bot, place, me, me17, factors, base, legal, unseen, rules, flush_bit)


def run_double_rows(problem: DoubleProblem, policy: int, seed: int, start: int, count: int,
                    max_attempts: int = MAX_ATTEMPTS) -> np.ndarray:
    """Per-sample rows (the ``DCOL_*`` columns) of sample indices ``start ..``."""
    out = np.zeros((count, DCOLS), np.int64)
    before = np.zeros(3, np.int64)
    before[:len(problem.before)] = problem.before
    won_at = 0 if problem.me != 0 and policy == POLICIES["heuristic"] else -1
    rules = problem.rules
    w = _take_work()
    try:
        _double_chunk(problem.unseen, problem.me, problem.me17, problem.bottom, before, len(problem.before),
                      np.array(problem.legal, np.int64), policy, rules.flags, rules.stage_flags, problem.base,
                      problem.flush, SPRING_MODES[rules.spring], won_at, seed_key(seed), start, count,
                      max_attempts, out, *w)
    finally:
        _give_work(w)
    return out


def _check_common(policy: str, samples, confidence) -> None:
    if policy not in POLICIES:
        raise ArgumentError(f"policy {policy!r} is not one of {', '.join(POLICIES)}", param="policy")
    if not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be a positive number, not {samples!r}", param="samples")
    if not 0.5 <= confidence < 1:
        raise ArgumentError(f"confidence must be in [0.5, 1), not {confidence!r}", param="confidence")


def _sampled(rows_of: Callable[[int, int], np.ndarray], samples: int, workers: "int | None", score_cols: list,
             accepted_col: int, confidence: float, early_stop: bool,
             progress: "Callable[[int, int], None] | None") -> tuple:
    """Run a decision's sample rows chunk by chunk (``rows_of(start, count)``)
    with the early-stopping rule of :func:`evaluate_bid` over the choices'
    score columns ``score_cols``: ``(rows, accepted rows, stopped early,
    the score columns best first)``."""
    workers = workers or os.cpu_count() or 1
    n_chunks = -(-samples // CHUNK)
    looks = max(1, n_chunks - (MIN_SAMPLES - 1) // CHUNK)
    z_stop = stop_z(confidence, max(1, len(score_cols) - 1), looks)

    def ranked(acc: np.ndarray) -> list:
        return [c for _, c in sorted((-int(acc[:, c].sum()), c) for c in score_cols)]

    def work(k: int) -> np.ndarray:
        start = k * CHUNK
        return rows_of(start, min(CHUNK, samples - start))

    parts: list = []

    def take(rows: np.ndarray) -> bool:
        parts.append(rows)
        done = sum(len(p) for p in parts)
        if progress is not None:
            progress(done, samples)
        if not any(p[:, accepted_col].any() for p in parts):
            return True
        if early_stop and done >= MIN_SAMPLES and done < samples:
            acc = np.concatenate(parts)
            acc = acc[acc[:, accepted_col] == 1]
            return settled(np.stack([acc[:, c] for c in ranked(acc)], axis=1), z_stop)
        return False

    stopped = run_chunks(n_chunks, work, take, workers)
    rows = np.concatenate(parts)
    acc = rows[rows[:, accepted_col] == 1]
    return rows, acc, stopped, ranked(acc)


def evaluate_double(hand, bottom, seat: "int | str" = "first", before=(), base: int = 1,
                    samples: int = 2000, seed: int = 0, workers: "int | None" = None,
                    policy: str = "heuristic", confidence: float = 0.95, rules: "Rules | str | None" = "happy",
                    progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                    max_attempts: int = MAX_ATTEMPTS, flush: "bool | None" = None) -> DoubleEvaluation:
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

    >>> ev = evaluate_double("3345566789TJQKA2D", "22X", seat="first", samples=300, seed=1, workers=1)
    >>> ev.recommendation in ev.choices, ev.role
    (True, 'farmer1')
    """
    problem = double_problem(hand, bottom, seat, before, base, rules, flush)
    rules = problem.rules
    _check_common(policy, samples, confidence)
    pol = POLICIES[policy]
    legal = problem.legal
    rows, acc, stopped, order = _sampled(
        lambda start, count: run_double_rows(problem, pol, seed, start, count, max_attempts), samples, workers,
        [DCOL_SCORE + c for c in range(3) if legal[c]], DCOL_ACCEPTED, confidence, early_stop, progress)
    n_acc = len(acc)
    drawn = int(rows[:, DCOL_ATTEMPTS].sum())
    me = problem.me
    if n_acc == 0:
        what = [f"the earlier doubles {','.join(f'x{f}' for f in problem.before)}"] if problem.before else []
        if me != 0 and policy == "heuristic":
            what.insert(0, "a landlord whose hand the policy would call with")
        raise BidError(f"no deal consistent with {' and '.join(what)} was found in {drawn} draws: the "
                       f"{policy} policy (almost) never plays the other seats that way with these cards")
    ll_won = acc[:, DCOL_WON]
    wins = int(ll_won.sum()) if me == 0 else int((ll_won == 0).sum())
    choices = {}
    for c, name in enumerate(DOUBLE_CHOICES):
        if not legal[c]:
            choices[name] = DoubleChoice(name, False)
            continue
        mean, lo, hi = mean_interval(acc[:, DCOL_SCORE + c], confidence)
        choices[name] = DoubleChoice(name, True, mean, (lo, hi))
    best = DOUBLE_CHOICES[order[0] - DCOL_SCORE]
    if len(order) > 1:
        margin, mlo, mhi = mean_interval(acc[:, order[0]] - acc[:, order[1]], confidence)
    else:
        margin, mlo, mhi = 0.0, 0.0, 0.0
    others = {}
    for p in range(3):
        if p == me:
            continue
        col = acc[:, DCOL_DOUBLES + p]
        others[_ROLES[p]] = {f"x{f}": float((col == f).sum()) / n_acc for f in FACTORS}
    return DoubleEvaluation(
        hand=format_cards(problem.hand), bottom=format_cards(problem.bottom), seat=DOUBLE_SEATS[problem.place],
        role=_ROLES[me], base=problem.base, before=problem.before, rules=rules, policy=policy, seed=seed,
        confidence=confidence, samples=n_acc, samples_max=samples, indices=len(rows), drawn=drawn,
        rejected=drawn - n_acc, failed=len(rows) - n_acc, stopped_early=stopped, win_prob=wins / n_acc,
        win_prob_ci=wilson_interval(wins, n_acc, confidence),
        landlord_show_prob=float((acc[:, DCOL_SHOW] > 1).sum()) / n_acc, others_double=others,
        choices=choices, recommendation=best, margin=margin, margin_ci=(mlo, mhi))



# Calling and grabbing (call-grab and first-call auctions) -------------------------------

#: Columns of a call row: then per choice (pass, call-or-grab) CCOL_CHOICE columns:
#: landlord (-2 illegal, -1 redeal, 0 this seat, 1/2 the next seats), base, landlord won,
#: public multiple, this seat's score.
CCOL_ATTEMPTS = 0
CCOL_ACCEPTED = 1
CCOL_CHOICE = 2
NCCOL_CHOICE = 5
CCOLS = CCOL_CHOICE + 2 * NCCOL_CHOICE


@kernel
def _deal_rest(unseen, key, me, mine, k, n, hands, scratch):
    """Deal ``unseen`` for one sample: ``hands[me]`` is ``mine`` and the
    first ``k`` shuffled cards (the rest of a hand seen in part), the next
    ``n`` go to the next position, the next ``n`` to the one after, and the
    rest (3 cards or none) is returned as the bottom."""
    m = unseen.shape[0]
    for i in range(m):
        scratch[i] = unseen[i]
    _shuffle(scratch[:m], key)
    a = mine
    for i in range(k):
        a += 1 << (4 * scratch[i])
    hands[me] = a
    for j in range(1, 3):
        b = 0
        for i in range(k + n * (j - 1), k + n * j):
            b += 1 << (4 * scratch[i])
        hands[(me + j) % 3] = b
    c = 0
    for i in range(k + 2 * n, m):
        c += 1 << (4 * scratch[i])
    return c


@kernel
def _deal_n(unseen, key, me, mine, n, hands, scratch):
    """Deal ``unseen`` for one sample: ``hands[me] = mine``, ``n`` cards to
    each of the next two positions, the rest (3 cards or none) is returned."""
    return _deal_rest(unseen, key, me, mine, 0, n, hands, scratch)


@kernel
def _call_of(hand, policy, flags, state, key, i, table):
    """The policy's call-grab action at the auction's ``i``-th action, numba's
    RNG seeded per (sample, action); a seat that must call calls."""
    np.random.seed(_mix2(key, 0x7000 + i))
    level = 0 if state[A_CALLER] < 0 else 1 + state[A_GRABS]
    b = policy_call(hand, policy, flags, level, table)
    if b == 0 and bid_error(state, state[A_TURN], 0) == BID_BAD:
        b = 1
    return b


@kernel
def _rest_of_hand(hands, bottom, lead, rel, key, policy, flags, stage_flags, spring_col, play, pols, d, table,
                  bufc, bufk):
    """The hand after an auction that made ``lead`` landlord, by the policy
    (``rel``, his position from the evaluated seat, keys the random
    streams): he takes the bottom (``hands`` by position, 0 for none) or
    under ``landlord_draw`` draws a card from each farmer, the seats double
    (the farmers from his left, then him; the factors go into ``d``), he
    shows at his first play by the policy's rule, and the deal is played
    out (``play`` and ``pols`` are work arrays).  Returns ``(landlord won,
    the multiple of the play and the bottom, the first-play show factor or
    1)``; a sampled bottom's suits are drawn by :func:`_sampled_flush`."""
    for p in range(3):
        play[p] = hands[p]
    play[lead] += bottom
    if (stage_flags & S_DRAW) != 0 and bottom == 0:
        np.random.seed(_mix2(key, 0x6000 + rel))
        for k in range(1, 3):
            f = (lead + k) % 3
            card = draw_card(play[f], np.random.randint(0, packed_count(play[f])))
            play[f] -= card
            play[lead] += card
    for k in range(3):
        p = (lead + 1 + k) % 3
        d[p] = _double_of(play[p], policy, flags, stage_flags, 1 if p == lead else 0, key, (p - lead) % 3, table)
    np.random.seed(_mix2(key, 0x5000 + rel))
    show = 1
    if policy_show(play[lead], policy, flags, stage_flags, SHOW_FIRST_PLAY, 1, table) != 0:
        show = show_factor(stage_flags, SHOW_FIRST_PLAY, 1)
    res = playout(play, lead, pols, flags, _mix2(key, 0x1000 + rel), table, bufc, bufk)
    bonus = bottom_bonus(stage_flags, bottom, _sampled_flush(bottom, key)) if bottom != 0 else 1
    return res[R_LANDLORD_WON], bonus * multiplier(res[R_DOUBLINGS], res[spring_col], res[R_ANTI_SPRING]), show


#: The stream (under a sample's key) that draws whether a sampled bottom is a flush.
_FLUSH_STREAM = 0x7000


@kernel
def _sampled_flush(bottom, key):
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
    return 1 if (_mix2(key, _FLUSH_STREAM) & 15) == 0 else 0


@kernel
def _call_chunk(unseen, me, mine, n, before, nbefore, policy, flags, stage_flags, mode, spring_any, key0,
                start, count, max_attempts, out, table, bufc, bufk):
    """Evaluate the call-grab (or first-call) choice of sample indices
    ``start .. start + count - 1`` into ``out`` rows (``CCOL_*``).

    Positions in the auction from the first bidder: 0, 1, 2; ``me`` is this
    seat's, ``mine`` its ``n`` dealt cards (17, or 18 with no bottom).
    ``before[:nbefore]``: the auction so far (0 pass, 1 call or grab), this
    seat's own earlier actions included; the other seats' actions are judged
    by the policy's call-grab rule on the sampled hands (rejection).  Each
    choice (0 pass, 1 call or grab) is followed by the rest of the auction by
    that rule (this seat's later actions too), the landlord's draws
    (``landlord_draw``), the doubles (farmers from the landlord's left, then
    the landlord) and the landlord's first-play show by the policy, then one
    playout per landlord; this seat's score settles the whole stake (0 on a
    redeal).  Whether a sampled bottom is a flush is drawn
    (:func:`_sampled_flush`).
    """
    hands = np.empty(3, np.int64)
    play = np.empty(3, np.int64)
    pols = np.empty(3, np.int64)
    pols[:] = policy
    scratch = np.empty(64, np.int64)
    st = np.empty(AUCTION_SIZE, np.int64)
    st2 = np.empty(AUCTION_SIZE, np.int64)
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    cache_won = np.empty(3, np.int64)
    cache_mult = np.empty(3, np.int64)
    cache_doubles = np.empty((3, 3), np.int64)
    spring_col = R_SPRING_ANY if spring_any else R_SPRING
    doubling = (stage_flags >> S_DOUBLING) & 3
    for s in range(count):
        idx = start + s
        row = out[s]
        for c in range(CCOLS):
            row[c] = 0
        key = 0
        bottom = 0
        accepted = False
        attempt = 0
        while attempt < max_attempts and not accepted:
            key = _sample_key(key0, idx, attempt)
            attempt += 1
            bottom = _deal_n(unseen, key, me, mine, n, hands, scratch)
            auction_start(st, mode, 0, 0)
            for p in range(3):
                if must_call(stage_flags, hands[p]):
                    auction_must_call(st, p)
            accepted = True
            for i in range(nbefore):
                p = st[A_TURN]
                if p != me and _call_of(hands[p], policy, flags, st, key, i, table) != before[i]:
                    accepted = False
                    break
                auction_bid(st, p, before[i])
        row[CCOL_ATTEMPTS] = attempt
        if not accepted:
            continue
        row[CCOL_ACCEPTED] = 1
        for L in range(3):
            cache_won[L] = -1
        for choice in range(2):
            base_col = CCOL_CHOICE + NCCOL_CHOICE * choice
            if bid_error(st, me, choice) != BID_OK:
                row[base_col] = -2
                continue
            st2[:] = st
            auction_bid(st2, me, choice)
            i = nbefore + 1
            while st2[A_OUTCOME] == AUCTION_OPEN:
                p = st2[A_TURN]
                auction_bid(st2, p, _call_of(hands[p], policy, flags, st2, key, i, table))
                i += 1
            if st2[A_OUTCOME] == AUCTION_VOID:
                row[base_col] = -1
                continue
            lead = st2[A_LANDLORD]
            top = st2[A_BASE]
            rel = (lead - me) % 3
            if cache_won[rel] < 0:
                won, mult, show = _rest_of_hand(hands, bottom, lead, rel, key, policy, flags, stage_flags, spring_col,
                                                play, pols, d, table, bufc, bufk)
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
            row[base_col + 4] = _score_of(me, lead, won, top * mult, 3, doubling, cache_doubles[rel], scores)
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


def call_problem(hand, seat: "int | str" = 0, before=(), rules: "Rules | str | None" = "happy") -> CallProblem:
    """Validate a call-grab or first-call situation (see :func:`evaluate_call`).

    >>> p = call_problem("3345566789TJQKA2D", "second", "call")
    >>> p.what, p.legal
    ('grab', (1, 1))
    """
    rules = Rules.parse(rules)
    if rules.is_four:
        raise RulesError(f"the call decision is a three-player one (call-grab or first-call bidding): "
                         f"four-player Dou Dizhu ({rules.describe()}) bids 1, 2 or 3; evaluate the bid")
    if rules.bidding not in ("call-grab", "first-call"):
        raise RulesError(f"the call decision is for bidding=call-grab or first-call (rules {rules.describe()} "
                         f"bid {rules.bidding}: evaluate the bid instead)", param="rules")
    if rules.is_laizi:
        raise RulesError("the call decision does not draw the wild ranks yet: use it without Laizi rules",
                         param="rules")
    packed = to_packed(hand, "hand")
    n = rules.hand_cards
    if card_count(packed) != n:
        raise BidError(f"hand {format_cards(packed)!r} has {card_count(packed)} cards; a hand before the "
                       f"auction has {n} under {rules.describe()}", param="hand")
    me = _seat_index(seat)
    acts = _parse_calls(before)
    mode = BIDDING_MODES_CALL[rules.bidding]
    state = [0] * AUCTION_SIZE
    _auction_start(state, mode, 0, 0)
    for i, a in enumerate(acts):
        if state[A_OUTCOME] != AUCTION_OPEN:
            raise BidError(f"the auction is over after {i} action(s); {len(acts)} were given", param="before")
        _auction_bid(state, state[A_TURN], a)
    if state[A_OUTCOME] != AUCTION_OPEN:
        raise BidError("the auction is over after these actions: there is nothing to decide", param="before")
    if state[A_TURN] != me:
        raise BidError(f"after {','.join(_CALL_NAMES[a] for a in acts) or 'no action'} it is the "
                       f"{SEAT_NAMES[state[A_TURN]]} seat's turn, not the {SEAT_NAMES[me]} seat's", param="seat")
    what = "call" if state[A_CALLER] < 0 else "grab"
    legal = (1, 1)
    unseen = np.array([r for r, c in enumerate(counts_of(FULL_DECK - packed)) for _ in range(c)], dtype=np.int64)
    return CallProblem(packed, me, acts, legal, what, unseen, rules)


_CALL_NAMES = ("pass", "call")
#: The bidding options the call evaluator models.
BIDDING_MODES_CALL = {"call-grab": CALL_GRAB, "first-call": FIRST_CALL}


def _parse_calls(before) -> tuple:
    """The auction so far as 0/1: ``"pass,call,grab"`` (``1`` or ``0`` too)."""
    if before is None or (isinstance(before, str) and not before.strip()):
        return ()
    items = before.split(",") if isinstance(before, str) else list(before)
    out = []
    for x in items:
        t = str(x).strip().lower()
        if t in ("pass", "p", "0", "-"):
            out.append(0)
        elif t in ("call", "grab", "1"):
            out.append(1)
        else:
            raise BidError(f"earlier action {x!r} is not pass, call or grab", param="before")
    return tuple(out)


def run_call_rows(problem: CallProblem, policy: int, seed: int, start: int, count: int,
                  max_attempts: int = MAX_ATTEMPTS) -> np.ndarray:
    """Per-sample rows (the ``CCOL_*`` columns) of sample indices ``start ..``."""
    out = np.zeros((count, CCOLS), np.int64)
    before = np.zeros(max(1, len(problem.before)), np.int64)
    before[:len(problem.before)] = problem.before
    rules = problem.rules
    w = _take_work()
    try:
        _call_chunk(problem.unseen, problem.seat, problem.hand, rules.hand_cards, before, len(problem.before), policy,
                    rules.flags, rules.stage_flags, BIDDING_MODES_CALL[rules.bidding], SPRING_MODES[rules.spring],
                    seed_key(seed), start, count, max_attempts, out, *w)
    finally:
        _give_work(w)
    return out


@dataclasses.dataclass(frozen=True)
class CallEvaluation:
    """The verdict of :func:`evaluate_call`: ``choices`` are ``pass`` and
    ``call`` (or ``grab``), each a :class:`ChoiceResult`."""

    hand: str
    seat: str
    before: tuple
    what: str
    rules: Rules
    policy: str
    seed: int
    confidence: float
    samples: int
    samples_max: int
    indices: int
    drawn: int
    rejected: int
    failed: int
    stopped_early: bool
    choices: dict
    recommendation: str
    margin: float
    margin_ci: tuple

    @property
    def expected_score(self) -> dict:
        return {c: (r.expected_score if r.legal else None) for c, r in self.choices.items()}

    def to_dict(self) -> dict:
        return {
            "decision": self.what, "hand": self.hand, "seat": self.seat,
            "before": [_CALL_NAMES[a] for a in self.before], "rules": self.rules.describe(), "policy": self.policy,
            "seed": self.seed, "confidence": self.confidence, "samples": self.samples,
            "samples_max": self.samples_max, "indices": self.indices, "drawn": self.drawn,
            "rejected": self.rejected, "failed": self.failed, "stopped_early": self.stopped_early,
            "expected_score": self.expected_score, "choices": {c: r.to_dict() for c, r in self.choices.items()},
            "recommendation": self.recommendation, "margin": self.margin, "margin_ci": list(self.margin_ci),
        }


def evaluate_call(hand, seat: "int | str" = 0, before=(), samples: int = 2000, seed: int = 0,
                  workers: "int | None" = None, policy: str = "heuristic", confidence: float = 0.95,
                  rules: "Rules | str | None" = "happy", progress: "Callable[[int, int], None] | None" = None,
                  early_stop: bool = True, max_attempts: int = MAX_ATTEMPTS) -> CallEvaluation:
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
    all pass and the deal is void).  Figures and early stopping as
    :func:`evaluate_bid`.

    >>> ev = evaluate_call("3345566789TJQKA2D", "first", samples=300, seed=1, workers=1)
    >>> sorted(ev.choices), ev.recommendation in ev.choices
    (['call', 'pass'], True)
    """
    problem = call_problem(hand, seat, before, rules)
    rules = problem.rules
    _check_common(policy, samples, confidence)
    pol = POLICIES[policy]
    names = ("pass", problem.what)
    score_cols = [CCOL_CHOICE + NCCOL_CHOICE * c + 4 for c in range(2)]
    rows, acc, stopped, order = _sampled(
        lambda start, count: run_call_rows(problem, pol, seed, start, count, max_attempts), samples, workers,
        score_cols, CCOL_ACCEPTED, confidence, early_stop, progress)
    n = len(acc)
    drawn = int(rows[:, CCOL_ATTEMPTS].sum())
    if n == 0:
        raise BidError(f"no deal consistent with the auction {','.join(_CALL_NAMES[a] for a in problem.before)} "
                       f"was found in {drawn} draws: the {policy} policy (almost) never acts that way")
    choices = {}
    for c, name in enumerate(names):
        base = CCOL_CHOICE + NCCOL_CHOICE * c
        ll, won = acc[:, base], acc[:, base + 2]
        has = ll >= 0
        n_ll = int(has.sum())
        ll_wins = int((won[has] == 1).sum())
        me_wins = int(((ll == 0) & (won == 1)).sum() + ((ll > 0) & (won == 0)).sum())
        mean, lo, hi = mean_interval(acc[:, base + 4], confidence)
        choices[name] = ChoiceResult(
            name, True, landlord_prob=float((ll == 0).sum()) / n, redeal_prob=float((ll == -1).sum()) / n,
            landlord_win_prob=ll_wins / n_ll if n_ll else 0.0,
            landlord_win_ci=wilson_interval(ll_wins, n_ll, confidence),
            win_prob=me_wins / n, win_ci=wilson_interval(me_wins, n, confidence),
            expected_score=mean, score_ci=(lo, hi))
    margin, mlo, mhi = mean_interval(acc[:, order[0]] - acc[:, order[1]], confidence)
    return CallEvaluation(
        hand=format_cards(problem.hand), seat=SEAT_NAMES[problem.seat], before=problem.before, what=problem.what,
        rules=rules, policy=policy, seed=seed, confidence=confidence, samples=n, samples_max=samples,
        indices=len(rows), drawn=drawn, rejected=drawn - n, failed=len(rows) - n, stopped_early=stopped,
        choices=choices, recommendation=names[score_cols.index(order[0])], margin=margin, margin_ci=(mlo, mhi))


# Showing the hand (Happy Dou Dizhu) -------------------------------------------------------

#: The two choices of the show decision: keep the hand hidden now, or show it.
SHOW_CHOICES = ("no", "show")
# Columns of a show row.
SCOL_ATTEMPTS = 0   # deals drawn for this sample index
SCOL_ACCEPTED = 1   # 1 if a deal consistent with what is known was found
SCOL_LANDLORD = 2   # the landlord from this seat: 0 this seat, 1/2 the next ones, -1 all passed (void)
SCOL_BASE = 3       # the base the auction set
SCOL_WON = 4        # the landlord won (0/1)
SCOL_MULT = 5       # the multiple of the play and the bottom (bombs, rocket, spring, bonus), no show in it
SCOL_LL_SHOW = 6    # during the deal: the landlord's first-play show by the policy when this seat does not show
SCOL_SCORE = 7      # then this seat's score without the show and with it
SCOLS = 9


@kernel
def _show_chunk(unseen, me, mine, seen, n, stage, policy, flags, stage_flags, mode, spring_any, key0, start, count,
                out, table, bufc, bufk):
    """Evaluate showing the hand during the deal (or before it) for sample
    indices ``start .. start + count - 1`` into ``out`` rows (``SCOL_*``).

    ``me``: this seat's place in the auction from the first bidder;
    ``mine``: the ``seen`` cards it was dealt so far (0 before the deal);
    ``n``: the cards a seat is dealt (17, or 18 with no bottom); ``stage``:
    the show stage code (0 before the deal, else ``seen``).  Each sample
    deals ``unseen`` at random (the rest of this seat's hand, the other two
    hands and the bottom), plays the auction by the policy's call-grab (or
    first-call) rule from the first bidder, and the rest of the hand by
    :func:`_rest_of_hand`; the policies do not react to a show, so one
    playout serves both choices.  Without the show the stake holds the
    landlord's first-play show (the policy's); with it, this seat's show
    factor, merged (``show_merge``) with the landlord's first-play show when
    the landlord is another seat (a seat shows once).  A void deal (all
    pass) scores 0.
    """
    hands = np.empty(3, np.int64)
    play = np.empty(3, np.int64)
    pols = np.empty(3, np.int64)
    pols[:] = policy
    scratch = np.empty(64, np.int64)
    st = np.empty(AUCTION_SIZE, np.int64)
    d = np.empty(3, np.int64)
    scores = np.empty(3, np.int64)
    spring_col = R_SPRING_ANY if spring_any else R_SPRING
    doubling = (stage_flags >> S_DOUBLING) & 3
    factor = show_factor(stage_flags, stage, 0)
    for s in range(count):
        idx = start + s
        row = out[s]
        for c in range(SCOLS):
            row[c] = 0
        key = _sample_key(key0, idx, 0)
        bottom = _deal_rest(unseen, key, me, mine, n - seen, n, hands, scratch)
        row[SCOL_ATTEMPTS] = 1
        row[SCOL_ACCEPTED] = 1
        auction_start(st, mode, 0, 0)
        for p in range(3):
            if must_call(stage_flags, hands[p]):
                auction_must_call(st, p)
        i = 0
        while st[A_OUTCOME] == AUCTION_OPEN:
            p = st[A_TURN]
            auction_bid(st, p, _call_of(hands[p], policy, flags, st, key, i, table))
            i += 1
        if st[A_OUTCOME] == AUCTION_VOID:
            row[SCOL_LANDLORD] = -1
            continue
        lead = st[A_LANDLORD]
        rel = (lead - me) % 3
        won, mult, ll_show = _rest_of_hand(hands, bottom, lead, rel, key, policy, flags, stage_flags, spring_col,
                                           play, pols, d, table, bufc, bufk)
        top = st[A_BASE]
        row[SCOL_LANDLORD] = rel
        row[SCOL_BASE] = top
        row[SCOL_WON] = won
        row[SCOL_MULT] = mult
        row[SCOL_LL_SHOW] = ll_show
        shown = factor if rel == 0 else merge_show(stage_flags, factor, ll_show)
        row[SCOL_SCORE] = _score_of(me, lead, won, top * mult * ll_show, 3, doubling, d, scores)
        row[SCOL_SCORE + 1] = _score_of(me, lead, won, top * mult * shown, 3, doubling, d, scores)
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

    @property
    def stage_text(self) -> str:
        return _show_stage_text(self.stage)

    @property
    def first_play(self) -> bool:
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
    if rules.is_four:
        raise RulesError(f"the show decision is a Happy Dou Dizhu one: four-player Dou Dizhu ({rules.describe()}) "
                         f"has no shows", param="rules")
    if rules.show == "off":
        raise RulesError(f"there is no show to decide under rules {rules.describe()} (show=off): use rules happy",
                         param="rules")
    if rules.is_laizi:
        raise RulesError("the show decision does not draw the wild ranks yet: use it without Laizi rules",
                         param="rules")
    packed = to_packed(hand if hand is not None else "", "hand")
    size = card_count(packed)
    code = _parse_show_stage(stage, size)
    sf = rules.stage_flags
    if code == SHOW_FIRST_PLAY:
        return _first_play_problem(packed, seat, before, bottom, base, shown, rules, flush)
    n = rules.hand_cards
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
    if rules.bidding not in BIDDING_MODES_CALL:
        raise RulesError(f"the show decision during the deal plays a call-grab or first-call auction; rules "
                         f"{rules.describe()} bid {rules.bidding}", param="rules")
    for name, value, empty in (("before", before, ()), ("bottom", bottom, None), ("shown", shown, ())):
        if value not in (empty, "", None, ()) and value != []:
            raise BidError(f"{name} is for a show at first-play: during the deal nothing has happened yet "
                           f"(shows come before the first bid)", param=name)
    if base != 1:
        raise BidError(f"base is set by the auction, after a show during the deal; leave it at 1, not {base!r}",
                       param="base")
    me = _seat_index(0 if seat is None else seat)
    unseen = np.array([r for r, c in enumerate(counts_of(FULL_DECK - packed)) for _ in range(c)], dtype=np.int64)
    return ShowProblem(packed, code, factor, me, rules, unseen)


def _first_play_problem(packed, seat, before, bottom, base, shown, rules, flush) -> ShowProblem:
    """:func:`show_problem` at the landlord's first play."""
    sf = rules.stage_flags
    if seat is not None and str(seat).strip().lower() != "landlord" and _seat_index(seat) != 2:
        raise BidError(f"only the landlord (the third to double) shows at his first play, not the farmer of seat "
                       f"{SEAT_NAMES[_seat_index(seat)]}", param="seat")
    if rules.bottom_cards != 3:
        raise RulesError(f"rules {rules.describe()} have no bottom: the first-play show evaluator needs one",
                         param="rules")
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ArgumentError(f"base must be a positive whole number, not {base!r}", param="base")
    size = card_count(packed)
    if size != 20:
        who = "; a farmer's 17 cannot show then" if size == 17 else ""
        raise BidError(f"only the landlord shows at his first play, with his 20 cards (the bottom included); "
                       f"hand {format_cards(packed)!r} has {size}{who}", param="hand")
    if bottom is None or bottom == "":
        raise BidError("give the bottom: the landlord took it before his first play", param="bottom")
    bot = to_packed(bottom, "bottom")
    if card_count(bot) != 3 or not contains(packed, bot):
        raise BidError(f"bottom {format_cards(bot)!r} is not 3 cards of hand {format_cards(packed)!r}",
                       param="bottom")
    factors = parse_factors(before)
    if rules.doubling == "off" and factors in ((), (1, 1, 1)):
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
    flush_bit = 0
    if rules.bottom_bonus == "table":
        distinct = all((bot >> (4 * r)) & 15 <= 1 for r in range(13)) and bot < (1 << 52)
        if distinct and _bottom_bonus(sf, bot, 0) < 3:
            if flush is None:
                raise BidError(f"bottom_bonus=table: say whether the bottom {format_cards(bot)} is a flush "
                               f"(its three cards of one suit)", param="flush")
            flush_bit = int(bool(flush))
    unseen = np.array([r for r, c in enumerate(counts_of(FULL_DECK - packed)) for _ in range(c)], dtype=np.int64)
    return ShowProblem(packed, SHOW_FIRST_PLAY, _show_factor(sf, SHOW_FIRST_PLAY, 1), 2, rules, unseen, bot, base,
                       factors, earlier, tuple(codes), flush_bit)


def run_show_rows(problem: ShowProblem, policy: int, seed: int, start: int, count: int,
                  max_attempts: int = MAX_ATTEMPTS) -> np.ndarray:
    """Per-sample rows (the ``SCOL_*`` columns) of sample indices ``start ..``.

    During the deal: :func:`_show_chunk`.  At the first play the deal and
    its playout are the doubling evaluator's for the landlord
    (:func:`_double_chunk`: the farmers' hands drawn consistent with their
    doubles, one playout); the two scores are settled here from its row."""
    rules = problem.rules
    out = np.zeros((count, SCOLS), np.int64)
    if not problem.first_play:
        w = _take_work()
        try:
            _show_chunk(problem.unseen, problem.seat, problem.hand, problem.stage, rules.hand_cards, problem.stage,
                        policy, rules.flags, rules.stage_flags, BIDDING_MODES_CALL[rules.bidding],
                        SPRING_MODES[rules.spring], seed_key(seed), start, count, out, *w)
        finally:
            _give_work(w)
        return out
    f1, f2, dl = problem.doubles
    rows = np.zeros((count, DCOLS), np.int64)
    legal = np.array([1 if f == dl else 0 for f in FACTORS], np.int64)
    w = _take_work()
    try:
        _double_chunk(problem.unseen, 0, problem.hand - problem.bottom, problem.bottom,
                      np.array([f1, f2, 0], np.int64), 2, legal, policy, rules.flags, rules.stage_flags, problem.base,
                      problem.flush, SPRING_MODES[rules.spring], -1, seed_key(seed), start, count, max_attempts,
                      rows, *w)
    finally:
        _give_work(w)
    sf = rules.stage_flags
    doubling = DOUBLING_MODES[rules.doubling]
    with_show = _merge_show(sf, problem.earlier, problem.factor)
    out[:, SCOL_ATTEMPTS] = rows[:, DCOL_ATTEMPTS]
    out[:, SCOL_ACCEPTED] = rows[:, DCOL_ACCEPTED]
    for i in np.flatnonzero(rows[:, DCOL_ACCEPTED]):
        r = rows[i]
        won, mult = int(r[DCOL_WON]), int(r[DCOL_MULT]) // int(r[DCOL_SHOW])   # the policy's own show left out
        o = out[i]
        o[SCOL_BASE], o[SCOL_WON], o[SCOL_MULT], o[SCOL_LL_SHOW] = problem.base, won, mult, 1
        scores = [0, 0, 0]
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
class ShowEvaluation:
    """The verdict of :func:`evaluate_show`."""

    hand: str
    stage: str            # before-deal, deal:N or first-play
    factor: int           # what the show is worth on its own
    seat: str             # during the deal the place in the auction; at the first play "landlord"
    bottom: "str | None"
    base: int
    before: tuple         # at the first play: the doubles of farmer1, farmer2, the landlord
    shown: tuple          # at the first play: the stages of the farmers' earlier shows
    rules: Rules
    policy: str
    seed: int
    confidence: float
    samples: int
    samples_max: int
    indices: int
    drawn: int
    rejected: int
    failed: int
    stopped_early: bool
    landlord_prob: float  # this seat ends up landlord
    void_prob: float      # every seat passed (the deal is void)
    win_prob: float       # this seat's side wins, of the deals with a landlord
    win_prob_ci: tuple
    landlord_show_prob: "float | None"   # during the deal: the landlord shows at his first play (the policy)
    choices: dict         # no / show -> ShowChoice
    recommendation: str
    margin: float
    margin_ci: tuple

    @property
    def expected_score(self) -> dict:
        return {c: r.expected_score for c, r in self.choices.items()}

    def to_dict(self) -> dict:
        return {
            "decision": "show", "hand": self.hand, "stage": self.stage, "factor": self.factor, "seat": self.seat,
            "bottom": self.bottom, "base": self.base, "before": [f"x{b}" for b in self.before],
            "shown": [_show_stage_text(c) for c in self.shown], "rules": self.rules.describe(),
            "show": self.rules.show, "show_merge": self.rules.show_merge, "doubling": self.rules.doubling,
            "policy": self.policy, "seed": self.seed, "confidence": self.confidence, "samples": self.samples,
            "samples_max": self.samples_max, "indices": self.indices, "drawn": self.drawn,
            "rejected": self.rejected, "failed": self.failed, "stopped_early": self.stopped_early,
            "landlord_prob": self.landlord_prob, "void_prob": self.void_prob, "win_prob": self.win_prob,
            "win_prob_ci": list(self.win_prob_ci), "landlord_show_prob": self.landlord_show_prob,
            "expected_score": self.expected_score, "choices": {c: r.to_dict() for c, r in self.choices.items()},
            "recommendation": self.recommendation, "margin": self.margin, "margin_ci": list(self.margin_ci),
        }


def evaluate_show(hand="", stage="deal", seat: "int | str | None" = None, before=(), bottom=None, base: int = 1,
                  shown=(), samples: int = 2000, seed: int = 0, workers: "int | None" = None,
                  policy: str = "heuristic", confidence: float = 0.95, rules: "Rules | str | None" = "happy",
                  progress: "Callable[[int, int], None] | None" = None, early_stop: bool = True,
                  max_attempts: int = MAX_ATTEMPTS, flush: "bool | None" = None) -> ShowEvaluation:
    """Monte Carlo verdict on showing the hand now or not (Happy Dou Dizhu's 明牌).

    ``stage`` (the record notation): ``before-deal``, ``deal:N`` (``N``
    cards dealt so far; ``deal`` takes N from the hand's size) or
    ``first-play``.  During the deal ``hand`` is the cards this seat has
    seen (none before the deal) and ``seat`` its place in the auction from
    the first bidder; the rest of its hand is dealt with the other hands and
    the bottom, the auction is played by the policy's call-grab (or
    first-call) rule, then the draws, the doubles, the landlord's first-play
    show and the play by the policy.  At ``first-play`` only the landlord
    decides: ``hand`` his 20 cards, ``bottom`` the bottom in it, ``base``
    the auction's base, ``before`` the doubles of farmer1, farmer2 and the
    landlord (doubling order), ``shown`` the stages at which the farmers
    showed during the deal (their multiple merges with his x2 by
    ``show_merge``); the farmers' hands are drawn consistent with their
    doubles (the policy's doubling rule) and the deal is played out.  Every
    sample is scored for this seat under the rules' settlement, without and
    with the show: expected scores and intervals, the recommendation and its
    paired margin, with the early stopping of :func:`evaluate_bid`.  The
    policies neither read a shown hand nor play differently against it, so
    the verdict prices the multiple, not the information given away.

    >>> ev = evaluate_show("3456789TJQKA2", "deal", samples=250, seed=1, workers=1)
    >>> ev.stage, ev.factor, sorted(ev.choices)
    ('deal:13', 3, ['no', 'show'])
    """
    problem = show_problem(hand, stage, seat, before, bottom, base, shown, rules, flush)
    rules = problem.rules
    _check_common(policy, samples, confidence)
    pol = POLICIES[policy]
    score_cols = [SCOL_SCORE, SCOL_SCORE + 1]
    rows, acc, stopped, order = _sampled(
        lambda start, count: run_show_rows(problem, pol, seed, start, count, max_attempts), samples, workers,
        score_cols, SCOL_ACCEPTED, confidence, early_stop, progress)
    n = len(acc)
    drawn = int(rows[:, SCOL_ATTEMPTS].sum())
    if n == 0:
        raise BidError(f"no deal consistent with the doubles {','.join(f'x{f}' for f in problem.doubles)} was "
                       f"found in {drawn} draws: the {policy} policy (almost) never doubles that way with these "
                       f"farmers' cards")
    ll = acc[:, SCOL_LANDLORD]
    has = ll >= 0
    n_ll = int(has.sum())
    me_wins = int(((ll == 0) & (acc[:, SCOL_WON] == 1)).sum() + ((ll > 0) & (acc[:, SCOL_WON] == 0)).sum())
    choices = {}
    for c, name in enumerate(SHOW_CHOICES):
        mean, lo, hi = mean_interval(acc[:, SCOL_SCORE + c], confidence)
        choices[name] = ShowChoice(name, mean, (lo, hi))
    margin, mlo, mhi = mean_interval(acc[:, order[0]] - acc[:, order[1]], confidence)
    deal = not problem.first_play
    return ShowEvaluation(
        hand=format_cards(problem.hand), stage=problem.stage_text, factor=problem.factor,
        seat=SEAT_NAMES[problem.seat] if deal else "landlord",
        bottom=None if deal else format_cards(problem.bottom), base=problem.base, before=problem.doubles,
        shown=problem.shown, rules=rules, policy=policy, seed=seed, confidence=confidence, samples=n,
        samples_max=samples, indices=len(rows), drawn=drawn, rejected=drawn - n, failed=len(rows) - n,
        stopped_early=stopped, landlord_prob=float((ll == 0).sum()) / n, void_prob=float((~has).sum()) / n,
        win_prob=me_wins / n_ll if n_ll else 0.0, win_prob_ci=wilson_interval(me_wins, n_ll, confidence),
        landlord_show_prob=float((acc[has, SCOL_LL_SHOW] > 1).sum()) / n_ll if deal and n_ll else None,
        choices=choices, recommendation=SHOW_CHOICES[score_cols.index(order[0])], margin=margin,
        margin_ci=(mlo, mhi))
