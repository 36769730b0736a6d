"""The auction of one deal, as its own small state machine: :class:`Auction`.

Seats bid for the landlord under the ``bidding`` option (``single-round``,
``until-two-pass``, ``call-grab``, ``first-call``; see the package doc and
``docs/rules.md``), by the auction rule of :mod:`ddz_tools.core.gamerules`
run as Python.  An illegal bid raises
:class:`~ddz_tools.core.errors.IllegalAction` naming it and changes nothing.
"""

from __future__ import annotations

from typing import Sequence

from ...core._jit import interpreted
from ...core.errors import GameError, IllegalAction
from ...core.gamerules import (
    A_BASE,
    A_CALLER,
    A_GRABS,
    A_HIGH,
    A_HIGH_SEAT,
    A_LANDLORD,
    A_OUTCOME,
    A_PASSED,
    A_TURN,
    AUCTION_OPEN,
    AUCTION_SIZE,
    AUCTION_VOID,
    BID_OK,
    BID_OVER,
    BID_WRONG_TURN,
    BIDDING_MODES,
    auction_bid,
    auction_must_call,
    auction_seats,
    auction_start,
    bid_error,
)
from .phases import ALL_PASS_OPTIONS, E_BAD_BID, E_NOT_BIDDING, E_WRONG_TURN, SEAT_COUNTS, seat_table

__all__ = ["Auction"]

# The auction rule of ddz_tools.core.gamerules, run by Python (see its module doc).
_auction_start = interpreted(auction_start)
_auction_seats = interpreted(auction_seats)
_auction_bid = interpreted(auction_bid)
_bid_error = interpreted(bid_error)
_auction_must_call = interpreted(auction_must_call)


class Auction:
    """The bidding of one deal, as its own small state machine.

    >>> a = Auction(first_bidder=1)
    >>> a.bid(1, 1); a.bid(2, 0); a.bid(0, 2)
    >>> a.done, a.landlord, a.base
    (True, 0, 2)
    >>> a = Auction(first_bidder=0, bidding="call-grab")
    >>> for seat, v in [(0, 1), (1, 1), (2, 0), (0, 1)]: a.bid(seat, v)
    >>> a.landlord, a.base, a.grabs
    (0, 4, 2)
    """

    def __init__(self, first_bidder: int = 0, bidding: str = "single-round", all_pass: str = "redeal",
                 must_call: Sequence = (), seats: int = 3):
        if bidding not in BIDDING_MODES:
            raise GameError(f"unknown bidding option {bidding!r}")
        if all_pass not in ALL_PASS_OPTIONS:
            raise GameError(f"all_pass must be one of {', '.join(ALL_PASS_OPTIONS)}, not {all_pass!r}")
        table = seat_table(seats)
        if table is None:
            raise GameError(f"an auction has {' or '.join(map(str, SEAT_COUNTS))} seats, not {seats!r}")
        #: Seats at the table: 3, or 4 under four-player rules.
        self.seats = seats
        self.first_bidder = table.check_seat(first_bidder)
        self.bidding = bidding
        self.all_pass = all_pass
        self.bids: list[tuple[int, int]] = []
        #: Seats that may not pass while nobody has called (the ``must_call`` option).
        self.must_call = tuple(sorted(set(must_call)))
        # The state of the auction rule of ddz_tools.core.gamerules (A_* fields).
        self._state = [0] * AUCTION_SIZE
        _auction_start(self._state, BIDDING_MODES[bidding], self.first_bidder, int(all_pass == "seat0"))
        _auction_seats(self._state, seats)
        for seat in self.must_call:
            _auction_must_call(self._state, table.check_seat(seat))

    def _seat(self, field: int) -> "int | None":
        """The seat in a field of the state, None for none (-1)."""
        s = self._state[field]
        return None if s < 0 else s

    @property
    def turn(self) -> "int | None":
        """The seat to bid, None once the bidding is over."""
        return self._seat(A_TURN)

    @property
    def high(self) -> int:
        """The highest bid so far (call-grab: 1 once someone called)."""
        return self._state[A_HIGH]

    @property
    def high_seat(self) -> "int | None":
        return self._seat(A_HIGH_SEAT)

    @property
    def passed(self) -> set:
        """Seats that passed (until-two-pass)."""
        return {s for s in range(self.seats) if (self._state[A_PASSED] >> s) & 1}

    @property
    def caller(self) -> "int | None":
        return self._seat(A_CALLER)

    @property
    def grabs(self) -> int:
        return self._state[A_GRABS]

    @property
    def landlord(self) -> "int | None":
        return self._seat(A_LANDLORD)

    @property
    def base(self) -> int:
        return self._state[A_BASE]

    @property
    def done(self) -> bool:
        return self._state[A_OUTCOME] != AUCTION_OPEN

    @property
    def void(self) -> bool:
        """Every seat passed and the deal is redealt."""
        return self._state[A_OUTCOME] == AUCTION_VOID

    def legal_bids(self) -> list[int]:
        """The values the seat to act may bid (0 is a pass)."""
        if self.done:
            return []
        turn = self._state[A_TURN]
        return [v for v in range(4) if _bid_error(self._state, turn, v) == BID_OK]

    def check(self, seat: int, value) -> None:
        """Raise :class:`IllegalAction` if ``seat`` may not bid ``value`` now."""
        is_int = isinstance(value, int) and not isinstance(value, bool)
        err = _bid_error(self._state, seat, value if is_int else -1)
        if err == BID_OK:
            return
        if err == BID_OVER:
            raise IllegalAction(E_NOT_BIDDING, f"seat {seat} bid {value!r} but the bidding is over")
        if err == BID_WRONG_TURN:
            raise IllegalAction(E_WRONG_TURN, f"seat {seat} bid {value!r} but it is seat {self.turn}'s turn")
        if not is_int:
            raise IllegalAction(E_BAD_BID, f"seat {seat} bid {value!r}: a bid is an integer")
        if value == 0 and seat in self.must_call:
            raise IllegalAction(E_BAD_BID, f"seat {seat} passed but must call (must_call: its hand holds "
                                           f"the cards that force a call)")
        if self.bidding == "call-grab":
            raise IllegalAction(E_BAD_BID, f"seat {seat} bid {value}: call-grab bids are 1 (call or grab) or 0 (pass)")
        if self.bidding == "first-call":
            raise IllegalAction(E_BAD_BID, f"seat {seat} bid {value}: first-call bids are 1 (call) or 0 (pass)")
        low = self.high + 1
        allowed = "0 (pass)" if low > 3 else f"0 (pass) or {low}..3"
        raise IllegalAction(E_BAD_BID, f"seat {seat} bid {value}: it must be {allowed}")

    def bid(self, seat: int, value: int) -> None:
        """Apply one bid; raises :class:`IllegalAction` and changes nothing if illegal."""
        self.check(seat, value)
        self.bids.append((seat, value))
        _auction_bid(self._state, seat, value)
