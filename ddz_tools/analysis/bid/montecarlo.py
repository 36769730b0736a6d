"""The Monte Carlo machinery of the decision evaluators, written once.

Every evaluator of :mod:`ddz_tools.analysis.bid` (the bid, the call, the
double, the show) answers its question the same way: it deals the cards the
deciding seat cannot see, many times, keeps a deal only when the earlier
seats would have acted as they did (rejection sampling), plays each kept
deal out with a self-play policy in every seat, and turns the per-sample
scores of its choices into statistics and a recommendation.  This module
holds what they share: the counter-based random numbers, the deal of one
sample, the wild ranks a sample draws, the chunked threaded sampling loop
with its early stop, and the statistics.

Determinism
-----------
Every random draw of sample ``i`` comes from a counter-based generator keyed
by ``(seed, i, attempt)`` (:func:`sample_key`); chunks are fixed ranges of
sample indices and the stopping rule only looks at whole prefixes of chunks,
so a result is the same for any number of ``workers``.  Workers are threads:
the kernels release the GIL.

Rejection sampling
------------------
Each sample index draws deals until one is accepted (at most
:data:`MAX_ATTEMPTS`); the rejected draws are counted and reported, and an
index with no accepted draw is given up (``failed``).  Accepted deals are
exact draws from the conditional distribution, so rejection costs time but
adds no bias.

Wild cards
----------
Under Laizi rules (``laizi``, ``tiandi``) which ranks are wild is part of
the deal: each sample draws the wild ranks the deciding seat does not know
yet (:func:`deal_wild`, the game's own draw less the ranks given,
:func:`~ddz_tools.core.gamerules.draw_wild_given`); the earlier seats'
auction sees only the ranks shown before the bidding, the rest of the hand
every one.  Which ranks a seat may name is :func:`known_wild`'s rule.

Statistics
----------
Win probabilities carry a Wilson score interval (:func:`wilson_interval`),
expected scores a normal interval (:func:`mean_interval`).  The
recommendation is the choice with the highest expected score (ties go to
the earlier choice); its margin is the paired difference to the second best.

Early stopping: samples are processed in fixed chunks of :data:`CHUNK`
sample indices; after at least :data:`MIN_SAMPLES`, the evaluation stops at
a chunk boundary once, for every other choice, the one-sided lower
confidence bound of the paired score difference (best minus other) is above
zero, or the two choices scored identically on every sample so far
(:func:`settled`).  The per-test level is ``(1 - confidence) /
(alternatives * looks)`` (Bonferroni over the alternatives and the planned
looks, :func:`stop_z`), so the chance of stopping on a wrong recommendation
stays below ``1 - confidence``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from statistics import NormalDist
from typing import Callable, Sequence

import numpy as np

from ...core._jit import kernel
from ...core.cards import counts_of
from ...core.errors import ArgumentError, BidError, RulesError
from ...core.gamerules import DRAW_SHIFT, draw_wild_given, play_flags, settle_seats
from ...core.kinds import wild_flags
from ...core.rules import Rules
from ...engines.policies import BUFFER, new_table
from ...variants import variant_of
from ...engines.stats import normal_z, wilson_interval

__all__ = ["PLACES", "POLICIES", "CHUNK", "MIN_SAMPLES", "MAX_ATTEMPTS", "M32", "WORK_TABLE_BITS",
           "seed_key", "sample_key", "shuffle", "h32", "mix2", "word", "fisher_yates", "key_of", "deal",
           "deal_wild", "known_wild", "wild_fields", "score_of", "unseen_ranks", "place_index", "place_names",
           "PASS_WORDS", "parse_actions",
           "normal_z", "wilson_interval", "mean_interval", "stop_z", "settled", "run_chunks", "policy_work",
           "check_options", "reader", "Sampled", "sample", "ChoiceResult", "choice_result", "Verdict"]

#: The places in a round of the auction or of the doubles, in order (the
#: fourth only at a four-player table): seats are named by when they act.
PLACES = ("first", "second", "third", "fourth")
#: The self-play policies the evaluators play, by kernel code.
POLICIES = {"random": 0, "heuristic": 1}
#: Sample indices per chunk: the unit of work, of parallelism and of early stopping.
CHUNK = 250
#: No early stop before this many sample indices.
MIN_SAMPLES = 500
#: Deals drawn per sample index before giving it up (conditioning on earlier actions).
MAX_ATTEMPTS = 2000

# Counter-based random numbers --------------------------------------------------
#
# All arithmetic stays below 2**63, so the kernels and their plain-Python twins
# (tests/naive_bid.py) agree bit for bit, jitted or not.  h32 is the 32-bit
# integer hash with multiplier 0x45d9f3b found by Thomas Mueller's avalanche
# search (posted on Stack Overflow, "hash function that produces good hash for
# integers"); it is a bijection of 32-bit words.

M32 = 0xFFFFFFFF


@kernel
def h32(x):
    """Mueller's 32-bit integer hash."""
    x = x & 0xFFFFFFFF
    x = (((x >> 16) ^ x) * 0x45D9F3B) & 0xFFFFFFFF
    x = (((x >> 16) ^ x) * 0x45D9F3B) & 0xFFFFFFFF
    return (x >> 16) ^ x


@kernel
def mix2(a, b):
    """A 32-bit key from two 32-bit words (order matters)."""
    return h32(h32(a) ^ h32((b + 0x9E3779B9) & 0xFFFFFFFF))


@kernel
def word(key, j):
    """The j-th 32-bit random word of the stream ``key``."""
    return h32(mix2(key, j) + 0x7F4A7C15)


@kernel
def fisher_yates(cards, key):
    """Fisher-Yates shuffle of ``cards`` in place, driven by the stream ``key``.

    Each index is drawn exactly uniformly by rejecting the words at or above
    the largest multiple of the range (no modulo bias).
    """
    j = 0
    for pos in range(cards.shape[0] - 1, 0, -1):
        m = pos + 1
        limit = (4294967296 // m) * m
        r = word(key, j)
        j += 1
        while r >= limit:
            r = word(key, j)
            j += 1
        idx = r % m
        t = cards[pos]
        cards[pos] = cards[idx]
        cards[idx] = t


def seed_key(seed: int) -> int:
    """The 32-bit stream key of a user seed (any Python int)."""
    s = int(seed) % (1 << 64)
    return int(mix2(s & M32, s >> 32))


@kernel
def key_of(key0, index, attempt):
    """The stream key of draw ``attempt`` of sample ``index`` (:func:`sample_key`)."""
    return mix2(mix2(key0, index), attempt)


def sample_key(key0: int, index: int, attempt: int = 0) -> int:
    """The stream key of draw ``attempt`` of sample ``index`` under the run key ``key0``
    (:func:`seed_key`): the counter-based key every sampler of the package uses."""
    return int(key_of(int(key0), int(index), int(attempt)))


def shuffle(cards: np.ndarray, key: int) -> None:
    """Shuffle an int64 array in place by the stream ``key`` (exactly uniform,
    the same on every machine and for any number of workers).

    >>> a = np.arange(10, dtype=np.int64); shuffle(a, sample_key(seed_key(1), 0))
    >>> sorted(a.tolist()) == list(range(10))
    True
    """
    if not isinstance(cards, np.ndarray) or cards.dtype != np.int64 or cards.ndim != 1:
        raise TypeError("shuffle takes a one-dimensional int64 array")
    fisher_yates(cards, int(key) & M32)


# The deal of one sample ---------------------------------------------------------


@kernel
def deal(unseen, key, me, mine, rest, hand_n, bottom_known, hands, scratch):
    """Deal ``unseen`` (rank indices) for one sample; returns the bottom.

    ``hands`` (one packed hand per position, as many as seats) gets ``mine``
    plus the first ``rest`` shuffled cards at ``me`` (the rest of a hand
    seen in part; 0 when ``mine`` is whole), the next ``hand_n`` at ``me +
    1``, the next ``hand_n`` at ``me + 2``, and so on round the table; the
    cards left over are the bottom unless ``bottom_known > 0`` (then it is
    returned as it is).
    """
    n = unseen.shape[0]
    nseats = hands.shape[0]
    for i in range(n):
        scratch[i] = unseen[i]
    fisher_yates(scratch[:n], key)
    a = mine
    for i in range(rest):
        a += 1 << (4 * scratch[i])
    hands[me] = a
    for k in range(1, nseats):
        b = 0
        for i in range(rest + hand_n * (k - 1), rest + hand_n * k):
            b += 1 << (4 * scratch[i])
        hands[(me + k) % nseats] = b
    if bottom_known > 0:
        return bottom_known
    c = 0
    for i in range(rest + hand_n * (nseats - 1), n):
        c += 1 << (4 * scratch[i])
    return c


#: The stream (under a sample's key) that draws the deal's wild ranks.
WILD_STREAM = 0x3000


@kernel
def deal_wild(game_flags, given, key):
    """The wild ranks of the sample ``key`` under the game flags
    ``game_flags``: ``(shown, every)`` as flag bits (shown before the
    bidding, all), the ``given`` ones kept and the others drawn by Numba's
    generator seeded from the sample's wild stream
    (:func:`~ddz_tools.core.gamerules.draw_wild_given`).  Under classic rules
    nothing is drawn: ``(0, 0)``."""
    if ((game_flags >> DRAW_SHIFT) & 3) != 0:
        np.random.seed(mix2(key, WILD_STREAM))
    return draw_wild_given(game_flags, given)


@kernel
def deal_sample(unseen, key, me, mine, rest, hand_n, bottom_known, game_flags, given, hands, scratch):
    """The deal of the sample ``key`` (:func:`deal`) and its wild ranks
    (:func:`deal_wild`): ``(bottom, flags, every)``, ``flags`` the play flags
    of the wild ranks shown before the bidding (what the auction sees),
    ``every`` the flag bits of every wild rank (what the play sees)."""
    bottom = deal(unseen, key, me, mine, rest, hand_n, bottom_known, hands, scratch)
    shown, every = deal_wild(game_flags, given, key)
    return bottom, play_flags(game_flags, shown), every


def known_wild(rules: Rules, all_shown: bool = False) -> int:
    """The wild ranks a seat knows before the bidding under ``rules`` (their
    ``wild``), as flag bits; the others are drawn for each sampled deal.
    Under ``laizi_reveal=after-landlord`` a bidder knows none under ``laizi``
    and only the 天 rank under ``tiandi``: naming more is an error, since the
    evaluation would then use what no bidder can know.  With ``all_shown``
    the ranks turned up before the bidding must all be given
    (``laizi_reveal=before-bidding``: every one).

    >>> known_wild(Rules.parse("standard")), known_wild(Rules.parse("laizi"))
    (0, 0)
    >>> known_wild(Rules.parse("laizi").with_wild("9"))
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.RulesError: laizi rules with laizi_reveal=after-landlord: no wild rank is known at the bid, so give no --wild (the evaluator draws the rest for each sampled deal), not 9
    >>> known_wild(Rules.parse("laizi,laizi_reveal=before-bidding"), all_shown=True)
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.RulesError: laizi rules with laizi_reveal=before-bidding turn every wild rank up before the bidding: give wild (e.g. 9)
    """
    cards = variant_of(rules).cards
    if not cards.wild:
        return 0
    shown = rules.wild_at_bidding
    if all_shown and shown == cards.ranks and len(rules.wild) < shown:
        raise RulesError(f"{rules.preset} rules with laizi_reveal=before-bidding turn every wild rank up before "
                         f"the bidding: give wild (e.g. {'5,9' if shown == 2 else '9'})", param="wild")
    if not rules.wild:
        return 0
    if len(rules.wild) > shown:
        what = "no wild rank is" if shown == 0 else "only the 天 rank is"
        raise RulesError(f"{rules.preset} rules with laizi_reveal=after-landlord: {what} known at the bid, "
                         f"so give {'no --wild' if shown == 0 else 'one --wild rank'} (the evaluator draws "
                         f"the rest for each sampled deal), not {rules.wild_text()}", param="wild")
    return wild_flags(rules.wild)


def wild_fields(rules: Rules) -> dict:
    """Under Laizi rules the JSON fields ``wild`` (the ranks known, ``""`` for
    none) and ``wild_drawn`` (how many each deal drew); else none.

    >>> wild_fields(Rules.parse("tiandi").with_wild("5")), wild_fields(Rules.parse("standard"))
    ({'wild': '5', 'wild_drawn': 1}, {})
    """
    cards = variant_of(rules).cards
    if not cards.wild:
        return {}
    return {"wild": rules.wild_text(), "wild_drawn": cards.ranks - len(rules.wild)}


@kernel
def score_of(seat, landlord, won, stake, nseats, doubling, doubles, scores):
    """The score of ``seat`` when the hand is settled by
    :func:`~ddz_tools.core.gamerules.settle_seats` (``doubles`` by seat,
    ``scores`` a work array)."""
    settle_seats(landlord, won, stake, nseats, doubling, doubles, 0, scores, 0)
    return scores[seat]


def unseen_ranks(unseen: int) -> np.ndarray:
    """The packed cards ``unseen`` as an int64 array of rank indices, one a card
    (the cards :func:`deal` shuffles).

    >>> unseen_ranks(0x2001).tolist()
    [0, 3, 3]
    """
    return np.array([r for r, c in enumerate(counts_of(unseen)) for _ in range(c)], dtype=np.int64)


def place_names(seats: int = 3) -> str:
    """The places of a round as a reader lists them: ``first, second or third``."""
    names = PLACES[:seats]
    return ", ".join(names[:-1]) + " or " + names[-1]


def place_index(seat, seats: int = 3) -> int:
    """A place in a round, 0 .. ``seats - 1``, from its name or number.

    >>> place_index("second"), place_index(2), place_index("3", 4)
    (1, 2, 3)
    """
    names = PLACES[:seats]
    if isinstance(seat, str):
        t = seat.strip().lower()
        if t in names:
            return names.index(t)
        if t in [str(i) for i in range(seats)]:
            return int(t)
    elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
        return seat
    raise BidError(f"seat {seat!r} is not {place_names(seats)}")


#: The words of a pass among earlier actions (:func:`parse_actions`).
PASS_WORDS = ("pass", "p", "0", "-")


def parse_actions(before, values: dict, error: str, param: "str | None" = None) -> tuple:
    """Earlier actions (``"pass,1"``, or a sequence) as kernel values: a
    pass (:data:`PASS_WORDS`) is 0, a word of ``values`` its value; any other
    is a :class:`~ddz_tools.core.errors.BidError` of ``error`` (``{!r}`` the
    word).

    >>> parse_actions("pass, call", {"call": 1}, "{!r} is no call"), parse_actions("", {}, "")
    ((0, 1), ())
    """
    if before is None or (isinstance(before, str) and not before.strip()):
        return ()
    out = []
    for x in before.split(",") if isinstance(before, str) else list(before):
        t = str(x).strip().lower()
        if t in PASS_WORDS:
            out.append(0)
        elif t in values:
            out.append(values[t])
        else:
            raise BidError(error.format(x), param=param)
    return tuple(out)


# Statistics ---------------------------------------------------------------------


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


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What every evaluation reports beside its own figures: the rules and
    settings it ran with, the sample counts (:meth:`Sampled.counts`), the
    choices' results and the recommendation, and the decision's own hand,
    seat and earlier actions (each evaluator says what they hold)."""

    rules: Rules
    policy: str
    seed: int
    confidence: float
    samples: int          # accepted samples the figures rest on
    samples_max: int
    indices: int          # sample indices processed (accepted or given up)
    drawn: int            # deals drawn in all, rejected ones included
    rejected: int         # drawn deals inconsistent with what the earlier seats did
    failed: int           # sample indices with no consistent deal in max_attempts draws
    stopped_early: bool
    choices: dict         # choice name -> its result
    recommendation: str
    margin: float         # expected score of the recommendation minus the second best
    margin_ci: tuple
    hand: str             # the deciding seat's cards
    seat: str             # its place (in the auction, in the doubling order, or "landlord")
    before: tuple         # the earlier actions it saw (bids, calls, or doubling factors)
    inference: bool       # the earlier actions read by the player model (else by the policy's own rule)

    @property
    def expected_score(self) -> dict:
        """Expected score per choice, ``None`` for an illegal one."""
        return {c: (r.expected_score if getattr(r, "legal", True) else None) for c, r in self.choices.items()}

    def wild_note(self) -> str:
        """Under Laizi rules, which wild ranks were known and which drawn for
        each sampled deal, as a report says it (``", wild 5 known, 1 drawn a
        deal"``); else ``""``."""
        rules = self.rules
        fields = wild_fields(rules)
        if not fields:
            return ""
        known = f"wild {rules.wild_text()} known, " if rules.wild else "wild "
        drawn = fields["wild_drawn"]
        return f", {known}{drawn} drawn a deal" if drawn else f", wild {rules.wild_text()}"

    def run_fields(self) -> dict:
        """The settings and sample counts, as the JSON reports give them."""
        return {"policy": self.policy, "inference": self.inference, "seed": self.seed, "confidence": self.confidence,
                "samples": self.samples, "samples_max": self.samples_max, "indices": self.indices, "drawn": self.drawn,
                "rejected": self.rejected, "failed": self.failed, "stopped_early": self.stopped_early}

    def verdict_fields(self) -> dict:
        """The choices and the recommendation, as the JSON reports end."""
        return {"expected_score": self.expected_score, "choices": {c: r.to_dict() for c, r in self.choices.items()},
                "recommendation": self.recommendation, "margin": self.margin, "margin_ci": list(self.margin_ci)}


@dataclasses.dataclass(frozen=True)
class ChoiceResult:
    """The outcome of one auction choice (a bid, a call) over the accepted
    samples, where the choice decides who is landlord."""

    choice: str
    legal: bool
    landlord_prob: float = 0.0          # this seat ends up landlord
    redeal_prob: float = 0.0            # every seat passed
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


def choice_result(name: str, acc: np.ndarray, base: int, confidence: float) -> ChoiceResult:
    """The :class:`ChoiceResult` of a legal choice from the accepted rows
    ``acc``, whose columns from ``base`` are the landlord relative to this
    seat (0 this seat, -1 a redeal), the base, whether the landlord won, the
    multiple, and this seat's score."""
    n = len(acc)
    ll = acc[:, base]
    won = acc[:, base + 2]
    has = ll >= 0
    n_ll = int(has.sum())
    ll_wins = int((won[has] == 1).sum())
    me_wins = int(((ll == 0) & (won == 1)).sum() + ((ll > 0) & (won == 0)).sum())
    mean, lo, hi = mean_interval(acc[:, base + 4], confidence)
    return ChoiceResult(
        name, True,
        landlord_prob=float((ll == 0).sum()) / n if n else 0.0,
        redeal_prob=float((ll == -1).sum()) / n if n else 0.0,
        landlord_win_prob=ll_wins / n_ll if n_ll else 0.0,
        landlord_win_ci=wilson_interval(ll_wins, n_ll, confidence),
        win_prob=me_wins / n if n else 0.0,
        win_ci=wilson_interval(me_wins, n, confidence),
        expected_score=mean, score_ci=(lo, hi))


# Chunked, threaded sampling with the early stop -------------------------------------


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


#: log2 of the slots of the decomposer memo table each worker keeps (16 MB):
#: the heuristic policy asks for the minimum plays of many related hands, and
#: a big warm table makes a playout several times faster.
WORK_TABLE_BITS = 20
_free_work: list = []
_work_lock = threading.Lock()


@contextlib.contextmanager
def policy_work():
    """A set of policy work arrays ``(table, bufc, bufk)`` (a decomposer memo
    table and move buffers) for the time of a ``with`` block, reused between
    calls.  The memo table only caches exact values, so which set a chunk
    gets never changes its result."""
    with _work_lock:
        work = _free_work.pop() if _free_work else None
    if work is None:
        work = new_table(WORK_TABLE_BITS), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    try:
        yield work
    finally:
        with _work_lock:
            _free_work.append(work)


def reader(policy: str, inference: bool) -> str:
    """Who reads the earlier actions, as an error message names it.

    >>> reader("heuristic", False), reader("heuristic", True)
    ('the heuristic policy', 'the player model')
    """
    return "the player model" if inference else f"the {policy} policy"


def check_options(policy: str, samples, confidence) -> None:
    """Refuse an unknown policy, a sample count below 1 or a confidence outside [0.5, 1)."""
    if policy not in POLICIES:
        raise ArgumentError(f"policy {policy!r} is not one of {', '.join(POLICIES)}", param="policy")
    if not isinstance(samples, int) or samples < 1:
        raise ArgumentError(f"samples must be a positive number, not {samples!r}", param="samples")
    if not 0.5 <= confidence < 1:
        raise ArgumentError(f"confidence must be in [0.5, 1), not {confidence!r}", param="confidence")


@dataclasses.dataclass(frozen=True)
class Sampled:
    """The rows of a finished sampling run (:func:`sample`)."""

    rows: np.ndarray      # every sample index processed
    acc: np.ndarray       # the accepted ones
    samples_max: int
    drawn: int            # deals drawn in all, rejected ones included
    stopped_early: bool
    order: list           # the score columns, best first

    @property
    def n(self) -> int:
        """Accepted samples: what the figures rest on."""
        return len(self.acc)

    def counts(self) -> dict:
        """The sample counts every evaluation reports, by field name."""
        n = len(self.acc)
        return dict(samples=n, samples_max=self.samples_max, indices=len(self.rows), drawn=self.drawn,
                    rejected=self.drawn - n, failed=len(self.rows) - n, stopped_early=self.stopped_early)

    def margin(self, confidence: float) -> tuple:
        """``(margin, (lo, hi))``: the mean paired score difference of the best
        choice over the second best, with its interval (0 with one choice)."""
        if len(self.order) < 2:
            return 0.0, (0.0, 0.0)
        m, lo, hi = mean_interval(self.acc[:, self.order[0]] - self.acc[:, self.order[1]], confidence)
        return m, (lo, hi)


def sample(rows_of: Callable[[int, int], np.ndarray], samples: int, workers: "int | None", score_cols: Sequence[int],
           accepted_col: int, attempts_col: int, confidence: float, early_stop: bool,
           progress: "Callable[[int, int], None] | None") -> Sampled:
    """Run a decision's sample rows chunk by chunk (``rows_of(start, count)``
    for sample indices ``start ..``), on ``workers`` threads (default: all
    cores), with the early-stopping rule over the choices' score columns
    ``score_cols`` (ranked by their sums, ties to the earlier column).
    ``progress(done, total)`` is called after each chunk.  A first chunk
    with no accepted row ends the run (the caller reports it)."""
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
            return True  # a whole chunk found no consistent deal: give up
        if early_stop and done >= MIN_SAMPLES and done < samples:
            acc = np.concatenate(parts)
            acc = acc[acc[:, accepted_col] == 1]
            return settled(np.stack([acc[:, c] for c in ranked(acc)], axis=1), z_stop)
        return False

    stopped = run_chunks(n_chunks, work, take, workers)
    rows = np.concatenate(parts)
    acc = rows[rows[:, accepted_col] == 1]
    return Sampled(rows, acc, samples, int(rows[:, attempts_col].sum()), stopped, ranked(acc))
