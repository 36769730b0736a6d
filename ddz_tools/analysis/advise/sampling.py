"""Sampling: deals of the hidden cards that fit a view.

The hidden cards (the *pool*: every card not in this hand and not played, or
``unseen`` when given) are shuffled by the counter-based generator of
:mod:`ddz_tools.analysis.bid` keyed by ``(seed, sample index)`` and dealt to the other
seats by their card counts; in the history form the landlord's unplayed bottom
cards (for each rank, the bottom's count minus the landlord's plays of it) are
put in his hand first when the view knows the bottom (a farmer's view under
four-player rules does not: the landlord's hidden cards, the unplayed bottom
cards among them, are all drawn from the pool).  Without ``unseen`` the
counts form draws from every card it cannot see, so the cards played by the
others are drawn as well (and left out of every hand).  When the hidden cards can be dealt in one way
only (the two-player form, or an ``unseen`` that fixes every hand) there is
one deal and nothing is sampled.  When the view knows the bids (history form)
and ``auction`` is on, each sample index redraws (attempt ``k`` keyed by
``(seed, index, k)``) until every hidden seat's cards before the auction
(17, or 25 under four-player rules) would have bid as it did by the
heuristic bid rule, at most :data:`AUCTION_ATTEMPTS` times (then it keeps its
first draw).  Where the bottom is hidden from this seat by the rules (a
four-player farmer), each draw also draws which 8 of the landlord's cards
were the bottom, so that his bids constrain the deal too.

Without a bottom (``notalon``) each seat starts with 18 cards, and with
``landlord_draw=on`` the landlord with 20 and the farmers with 17
(:func:`~.parse.start_cards`).  The drawn cards a view knows (the landlord both, a
farmer the one drawn from him: :attr:`View.draws <.view.View.draws>`) are put in the
landlord's hidden hand as a known bottom is.  ``first-call`` bids are
calls and passes, checked by the heuristic's call rule on each seat's cards
before the auction; a draw the view does not know is drawn, for that check,
as one of the landlord's cards (:func:`_drawn_cards`).

>>> from ddz_tools.analysis.advise import counts_view
>>> distinct_deals(counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789"))
2
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core._jit import kernel
from ...core.cards import card_count, counts_of
from ...engines.kernels import must_call, new_table, policy_bid, policy_call
from ...engines.policies import POLICY_HEURISTIC
from ...variants import variant_of
from ..bid import sample_key, seed_key, shuffle
from .parse import landlord_draws, minus, ranks_list
from .view import View

__all__ = ["AUCTION_ATTEMPTS", "dealt_offsets", "distinct_deals", "sample_deals", "draw_deals"]


def _hidden(view: View) -> list:
    return [s for s in range(view.players) if s != view.me]


def distinct_deals(view: View, limit: int = 2) -> int:
    """How many different deals (as ranks) of the hidden cards fit the view,
    counted up to ``limit`` (1 means nothing is hidden)."""
    if view.players == 2:
        return 1
    hidden = _hidden(view)
    free = counts_of(minus(view.pool, sum(view.must[s] for s in hidden)))
    needs = [view.counts[s] - card_count(view.must[s]) for s in hidden]
    if view.pool_exact:
        return _ways(free, needs, limit)
    return limit if sum(needs) < sum(free) or sum(1 for n in needs if n) >= 2 else 1


def _ways(free: list, needs: list, limit: int) -> int:
    """Ways, counted up to ``limit``, to deal the cards of rank counts ``free``
    to seats that take ``needs`` cards each (as many as ``free`` holds)."""
    if len(needs) == 1:
        return 1 if sum(free) == needs[0] else 0
    total = 0
    for part in _parts(free, needs[0], limit):
        total += _ways([f - p for f, p in zip(free, part)], needs[1:], limit)
        if total >= limit:
            return limit
    return total


def _parts(free: list, n: int, limit: int) -> list:
    """Up to ``limit`` different choices of ``n`` cards from rank counts ``free`` (rank counts each)."""
    after = [sum(free[r:]) for r in range(len(free) + 1)]
    out: list = []

    def pick(r: int, left: int, cur: list) -> None:
        if r == len(free):
            if left == 0:
                out.append(list(cur))
            return
        for t in range(min(free[r], left), max(0, left - after[r + 1]) - 1, -1):
            cur.append(t)
            pick(r + 1, left - t, cur)
            cur.pop()
            if len(out) >= limit:
                return

    if n <= after[0]:
        pick(0, n, [])
    return out


def dealt_offsets(view: View) -> tuple:
    """What each seat's cards as dealt (at the auction) differ from its
    cards at the start of the play by, as far as ``view`` knows (packed, one
    a seat, the landlord first): the landlord's less the bottom and the
    cards he drew from the farmers, a farmer's plus the card drawn from it.
    A seat's dealt cards are its hand now plus its plays plus this."""
    offset = [0] * view.players
    offset[0] = -(view.bottom or 0)
    for seat, card in view.draws:
        offset[0] -= card
        offset[view.seats.index(seat)] += card
    return tuple(offset)


@dataclasses.dataclass(frozen=True)
class _AuctionCheck:
    """The bids of the hidden seats, for :func:`_bids_fit`: ``seats[j]`` bid
    ``values[j]`` when the highest bid was ``highs[j]``; ``played[s]`` is what
    seat ``s`` played and ``offset[s]`` what its cards before the auction
    (17, 18 or 25) differ from those at the start of the play by, as far as
    this view knows (:func:`dealt_offsets`): a seat's cards before the
    auction are its hand now plus ``played[s]`` plus ``offset[s]``.
    ``draw_bottom``: the landlord's bids are checked though this seat does
    not see the bottom (a farmer under four-player rules), so each deal also
    draws which ``bottom_cards`` of the landlord's were the bottom;
    ``hidden_draws``: the farmers whose drawn card this view does not know
    (``landlord_draw=on``), each deal draws it among the landlord's cards.
    ``calls``: first-call bidding, the values are calls (1) and passes,
    judged by the policy's call rule (a seat forced by ``must_call``
    calls)."""

    seats: np.ndarray
    values: np.ndarray
    highs: np.ndarray
    played: tuple
    offset: tuple
    draw_bottom: bool = False
    bottom_cards: int = 0
    hidden_draws: tuple = ()
    calls: bool = False
    stage_flags: int = 0


def _auction_check(view: View) -> "_AuctionCheck | None":
    """What the auction says about the hidden hands under the heuristic bid
    (or, first-call, call) rule, or None when it says nothing (no bids,
    call-grab bidding, or only the landlord's bids and no bottom where the
    bottom is public)."""
    rules = view.rules
    if view.form != "history" or not view.bids or rules.bidding == "call-grab":
        return None
    seats = view.seats
    played = [0] * view.players
    for s, p in view.played:
        played[seats.index(s)] += p.cards
    # A bottom hidden by the rules is drawn with each deal; one merely not given says nothing.
    v = variant_of(rules)
    draw_bottom = view.bottom is None and not v.table.bottom_public
    bottom_cards = v.table.bottom_cards
    no_bottom = bottom_cards == 0
    rows = []
    high = 0
    for seat, value in view.bids:
        s = seats.index(seat)
        if s != view.me and (s != 0 or view.bottom is not None or draw_bottom or no_bottom):
            rows.append((s != 0, s, value, high))   # the landlord's bids first: they reject most
        high = max(high, value)
    if not rows:
        return None
    rows.sort(key=lambda r: r[0])
    ll_rows = rows[0][1] == 0
    seats_, values, highs = (np.array([r[k] for r in rows], np.int64) for k in (1, 2, 3))
    offset = dealt_offsets(view)
    hidden_draws = tuple(f for f in range(1, view.players) if offset[f] == 0) if landlord_draws(v) else ()
    return _AuctionCheck(seats_, values, highs, tuple(played), offset, draw_bottom and ll_rows,
                         bottom_cards, hidden_draws, rules.bidding == "first-call", rules.stage_flags)


@kernel
def _bids_fit(hands17, seats, values, highs, calls, stage_flags, flags, table):
    """Would every seat ``seats[j]`` holding ``hands17`` have bid ``values[j]``
    by the heuristic bid rule with ``highs[j]`` the highest bid before it?
    With ``calls`` (first-call bidding) the values are calls and passes by
    the heuristic's call rule at level ``highs[j]`` (0: nobody called), a
    seat that ``must_call`` calling."""
    for j in range(seats.shape[0]):
        h = hands17[seats[j]]
        if calls != 0:
            b = policy_call(h, POLICY_HEURISTIC, flags, highs[j], table)
            if b == 0 and highs[j] == 0 and must_call(stage_flags, h):
                b = 1
        else:
            b = policy_bid(h, POLICY_HEURISTIC, flags, highs[j], table)
        if b != values[j]:
            return False
    return True


#: Deals drawn per sample index before giving up conditioning it on the auction.
AUCTION_ATTEMPTS = 300
#: The stream (an index under a deal's key) that draws which of the landlord's cards were the
#: bottom, where the rules hide it from this seat.
_BOTTOM_STREAM = 0xB077


def _drawn_cards(cards: int, n: int, key: int) -> list:
    """``n`` of the packed ``cards`` (the landlord's) drawn uniformly in order
    as physical cards by the stream ``key`` of a deal, each packed: given his
    cards, every ``n`` of them (in every order) are equally likely to have
    been the bottom, or the cards he drew from the farmers whose draws this
    view does not know (a uniform deal, then a uniform draw from each farmer,
    leaves every ordered pair of his final cards equally likely)."""
    ranks = np.array(ranks_list(cards), np.int64)
    shuffle(ranks, sample_key(key, _BOTTOM_STREAM))
    return [1 << (4 * int(r)) for r in ranks[:n]]


def _drawn_bottom(cards: int, n: int, key: int) -> int:
    """``n`` of the packed ``cards`` (the landlord's, the bottom among them)
    drawn uniformly (:func:`_drawn_cards`), as one packed set."""
    return sum(_drawn_cards(cards, n, key))


def draw_deals(view: View, start: int, count: int, seed: int, auction: bool = True, table=None):
    """(deals, draws, unfit) for sample indices ``start .. start+count-1``; see
    :func:`sample_deals`.  ``draws`` counts every deal drawn (rejected ones
    included), ``unfit`` the indices that fell back to their first draw."""
    key0 = seed_key(seed)
    hidden = _hidden(view)
    base = [0] * view.players
    base[view.me] = view.hand
    for s in hidden:
        base[s] = view.must[s]
    free = np.array(ranks_list(minus(view.pool, sum(view.must))), np.int64)
    need = [view.counts[s] - card_count(view.must[s]) for s in hidden]
    check = _auction_check(view) if auction else None
    if check is not None and table is None:
        table = new_table(14)
    h17 = np.zeros(view.players, np.int64)
    # The bids were made knowing only the wild ranks turned up before the bidding.
    bid_flags = view.rules.at_bidding().flags
    out = []
    draws = unfit = 0

    def deal(key):
        cards = free.copy()
        shuffle(cards, key)
        hands = list(base)
        pos = 0
        for s, n in zip(hidden, need):
            hands[s] += int(np.sum(np.left_shift(1, 4 * cards[pos:pos + n])))
            pos += n
        return tuple(hands)

    for i in range(start, start + count):
        key = sample_key(key0, i)
        first = hands = deal(key)
        draws += 1
        if check is not None:
            attempt = 0
            while True:
                for s in range(view.players):
                    h17[s] = hands[s] + check.played[s] + check.offset[s]
                if check.draw_bottom:
                    h17[0] -= _drawn_bottom(int(h17[0]), check.bottom_cards, key)
                if check.hidden_draws:
                    for f, c in zip(check.hidden_draws, _drawn_cards(int(h17[0]), len(check.hidden_draws), key)):
                        h17[0] -= c
                        h17[f] += c
                if _bids_fit(h17, check.seats, check.values, check.highs, int(check.calls), check.stage_flags,
                             bid_flags, table):
                    break
                attempt += 1
                if attempt == AUCTION_ATTEMPTS:
                    hands = first
                    unfit += 1
                    break
                key = sample_key(key0, i, attempt)
                hands = deal(key)
                draws += 1
        out.append(hands)
    return out, draws, unfit


def sample_deals(view: View, start: int, count: int, seed: int, auction: bool = True) -> list:
    """Deals ``start .. start+count-1`` for this view: tuples of packed hands in turn order.

    With ``auction`` and a view that knows the bids, each sample index draws
    deals (attempt ``k`` keyed by ``(seed, index, k)``) until the hidden seats'
    hands before the auction would have bid as they did by the heuristic bid
    rule (:func:`ddz_tools.engines.policies.bid_rule`); after :data:`AUCTION_ATTEMPTS`
    draws it keeps its first draw.  Attempt 0 is the unconditioned draw.
    Where the rules hide the bottom from this seat (a farmer under
    four-player rules), each attempt also draws which of the landlord's
    cards were the bottom (:func:`_drawn_bottom`), for his bids.
    """
    return draw_deals(view, start, count, seed, auction)[0]
