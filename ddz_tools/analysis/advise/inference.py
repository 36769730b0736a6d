"""Inference: the drawn deals weighed by what the other seats did.

A drawn deal of the hidden cards fits the cards gone and (with ``auction``)
the bids by the heuristic's rule; it does not yet fit *how* the others
played: a farmer who let a lone 9 through while holding a 2, a pass over a
low pair, a low lead into a partner.  :class:`Reader` scores each drawn deal
by the log-likelihood of the other seats' earlier actions under the model
of the players (:mod:`ddz_tools.engines.playermodel`, a softened heuristic
in two player types with a floor): their doubles, the landlord's show at
his first play, their plays, and the bids the sampler's rule does not read
(the calls and grabs of ``call-grab`` bidding).  The seats' cards at each
play (and at a double or that show) are their drawn hand now plus what they
played since; at a bid they are those less the bottom and the cards the
landlord drew, plus the card drawn from a farmer.  ``bids`` of
:meth:`Reader.of` says who reads the bids: ``rule`` (the default: the rule
where it can, the model the rest), ``model`` (the model every bid whose
seat's cards at the auction the view can tell from a drawn deal; the deals
are then drawn without the rule, so a bid counts once:
:attr:`Reader.reads_auction`) or ``none`` (the rule only).  Measured on
heuristic self-play, the rule reads the heuristic's bids better than the
model does, tempering included (docs/advise.md).  A hand shown is known, so
its show says nothing more.

:func:`infer_deals` is importance resampling: for the sample indices
``start .. start+count-1`` it draws :data:`POOL` times as many deals (indices
of their own, so the chunks never share one), weighs them, and keeps
``count`` of them by systematic resampling in proportion to the weights (a
uniform from the counter-based generator keyed by the seed and ``start``:
the same seed gives the same deals for any number of workers).

A player the model finds unlikely must not blind the advisor: when the
weights' effective sample size ``(sum w)^2 / sum w^2`` falls below
:data:`MIN_ESS` of the pool, the log-weights are tempered (multiplied by the
largest ``a`` in (0, 1] that brings the effective size back to that share,
found by bisection), so the evidence still tilts the draws but no single deal
takes them all; ``a`` is reported.

>>> from ddz_tools.analysis.advise import counts_view
>>> Reader.of(counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")) is None
True
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.gamerules import SHOW_FIRST_PLAY, show_factor
from ...engines.kernels import history_loglik
from ...engines.playermodel import DECISION_CODES, SCALE, load_model, work_arrays
from ...variants import variant_of
from ..bid import sample_key, seed_key
from .parse import landlord_draws
from .sampling import dealt_offsets, draw_deals
from .view import View

__all__ = ["POOL", "MIN_ESS", "BID_READINGS", "Reader", "Weighing", "weigh", "infer_deals"]

#: Deals drawn per deal kept by :func:`infer_deals`.
POOL = 4
#: The least effective sample size, as a share of the deals weighed, before the weights are tempered.
MIN_ESS = 0.25
#: The stream (under the chunk's key) of the resampling's uniform.
_RESAMPLE_STREAM = 0x1F3


@dataclasses.dataclass(frozen=True)
class Weighing:
    """The weights of some deals (adding up to one), their effective sample
    size and the tempering ``alpha`` they took (1: none)."""

    weights: np.ndarray
    ess: float
    alpha: float


#: Who reads the bids (:meth:`Reader.of`).
BID_READINGS = ("rule", "model", "none")


def _auction_rows(view: View, bids: str = "rule") -> "tuple[list, tuple | None]":
    """The rows of the auction and the doubles for the model's kernel
    (seat, value, decision code), and what each seat's cards at the auction
    differ from its cards at the start of the play by; ``(doubles rows,
    None)`` when the bids are left to the sampler's rule (``bids``, see the
    module doc) or the view cannot tell those cards."""
    rules = view.rules
    v = variant_of(rules)
    seats = view.seats
    doubles = [(s, int(f), DECISION_CODES["double"]) for s, f in enumerate(view.doubles)]
    # The landlord's show at his first play (made by now if he has played): a show makes his hand
    # public, so only a hand not shown says something.
    if (v.stake.shows and show_factor(rules.stage_flags, SHOW_FIRST_PLAY, 1) != 0
            and any(seat == seats[0] for seat, _ in view.played)):
        doubles.append((0, int(seats[0] in view.shown), DECISION_CODES["show"]))
    if bids not in BID_READINGS:
        raise ValueError(f"bids must be one of {', '.join(BID_READINGS)}, not {bids!r}")
    if not view.bids or bids == "none" or (bids == "rule" and rules.bidding != "call-grab"):
        return doubles, None
    if (v.table.bottom_cards and view.bottom is None) or (landlord_draws(v) and len(view.draws) < view.players - 1):
        return doubles, None
    code = DECISION_CODES["call" if rules.bidding in ("call-grab", "first-call") else "bid"]
    bids = [(seats.index(seat), int(value), code) for seat, value in view.bids]
    return bids + doubles, dealt_offsets(view)


class Reader:
    """The actions of a history view as the model's kernel takes them: build
    with :meth:`of`; :meth:`loglik` scores deals.  ``reads_auction``: the
    bids are read here (draw the deals without the sampler's auction rule)."""

    def __init__(self, view: View, seats, values, kinds, played, mask, offset=None):
        self.view = view
        self.seats, self.values, self.kinds = seats, values, kinds
        self.played = played
        self.mask = mask
        self.offset = offset
        self.reads_auction = offset is not None
        self.model = load_model(view.rules)
        self.flags = view.rules.flags
        self.bid_flags = view.rules.at_bidding().flags
        self.stage_flags = view.rules.stage_flags
        # Each deal's log-likelihood by its hands: late in a game the same split of the
        # unseen cards is drawn many times (the answer is a function of the hands alone).
        self._known: dict = {}

    @classmethod
    def of(cls, view: View, bids: str = "rule") -> "Reader | None":
        """The reader of ``view``, or None when it has nothing to read: not a
        history view, or no action of another seat so far that the reader
        scores.  ``bids``: who reads the bids, ``rule``, ``model`` or
        ``none`` (see the module doc)."""
        if view.form != "history":
            return None
        rows, offset = _auction_rows(view, bids)
        played = [0] * view.players
        for seat, play in view.played:
            s = view.seats.index(seat)
            rows.append((s, int(play.cards), int(play.kind)))
            played[s] += int(play.cards)
        if not any(s != view.me for s, _, _ in rows):
            return None
        arr = np.array(rows, np.int64).reshape(-1, 3)
        mask = sum(1 << s for s in range(view.players) if s != view.me)
        return cls(view, *(np.ascontiguousarray(arr[:, j]) for j in range(3)), tuple(played), mask, offset)

    def auction(self, auction: bool) -> bool:
        """Whether to draw deals by the sampler's auction rule (``auction``
        asked for it): not when this reader reads the bids itself."""
        return auction and not self.reads_auction

    def loglik(self, deals) -> np.ndarray:
        """The log-likelihood (nats) of the other seats' actions on each deal
        (tuples of packed hands now, in turn order).  A deal scored before,
        in this call or an earlier one, is not scored again.  Safe to call
        from several threads at once (each call has its own work arrays)."""
        n = self.view.players
        table, bufc, bufk = work_arrays()
        out = np.zeros(n, np.int64)
        parts = np.zeros((self.model.weights.shape[0], n), np.int64)
        start = np.zeros(n, np.int64)
        dealt = start if self.offset is None else np.zeros(n, np.int64)
        res = np.empty(len(deals))
        known = self._known
        for j, hands in enumerate(deals):
            key = tuple(int(h) for h in hands)
            value = known.get(key)
            if value is None:
                for s in range(n):
                    start[s] = key[s] + self.played[s]
                    if self.offset is not None:
                        dealt[s] = start[s] + self.offset[s]
                history_loglik(dealt, start, 0, self.bid_flags, self.flags, self.stage_flags, self.seats,
                               self.values, self.kinds, self.mask, self.model.weights, table, bufc, bufk, out, parts)
                value = known[key] = out.sum() / SCALE
            res[j] = value
        return res


def _ess(w: np.ndarray) -> float:
    return float(w.sum() ** 2 / np.sum(w * w))


def weigh(loglik: np.ndarray, min_ess: float = MIN_ESS) -> Weighing:
    """The weights of deals of log-likelihoods ``loglik``, tempered when their
    effective sample size is below ``min_ess`` of their number (see the
    module doc)."""
    ll = np.asarray(loglik, np.float64)
    ll = ll - ll.max()
    target = min_ess * len(ll)

    def at(a):
        w = np.exp(a * ll)
        return w / w.sum()

    w = at(1.0)
    alpha = 1.0
    if _ess(w) < target:
        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if _ess(at(mid)) >= target:
                lo = mid
            else:
                hi = mid
        alpha = lo
        w = at(alpha)
    return Weighing(w, _ess(w), alpha)


def _systematic(w: np.ndarray, count: int, u: float) -> np.ndarray:
    """Indices of ``count`` draws in proportion to ``w`` (adding up to one) by
    systematic resampling with the offset ``u`` in [0, 1)."""
    edges = np.cumsum(w)
    edges[-1] = 1.0
    return np.searchsorted(edges, (u + np.arange(count)) / count, side="right")


def infer_deals(view: View, start: int, count: int, seed: int, auction: bool = True, table=None,
                reader: "Reader | None" = None):
    """(deals, draws, unfit, weighing) for sample indices ``start ..
    start+count-1``: :data:`POOL` deals drawn per index (as
    :func:`~.sampling.draw_deals` draws them), weighed by ``reader`` (made
    from the view when None) and ``count`` of them kept in proportion to
    their weights (drawn without the auction rule when the reader reads
    the bids).  Without anything to read, the deals of
    :func:`~.sampling.draw_deals` and a weighing of None."""
    reader = reader or Reader.of(view)
    if reader is None:
        deals, draws, unfit = draw_deals(view, start, count, seed, auction, table)
        return deals, draws, unfit, None
    pool, draws, unfit = draw_deals(view, start * POOL, count * POOL, seed, reader.auction(auction), table)
    w = weigh(reader.loglik(pool))
    u = (sample_key(seed_key(seed), start, _RESAMPLE_STREAM) % (1 << 30)) / float(1 << 30)
    keep = _systematic(w.weights, count, u)
    return [pool[i] for i in keep], draws, unfit, w
