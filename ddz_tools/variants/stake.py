"""The stake axis of a variant: how the auction runs and which stake stages
a hand has.

Classic Dou Dizhu bids 1, 2 or 3 (``single-round`` or ``until-two-pass``)
and doubles the stake for each bomb and a spring.  Happy Dou Dizhu adds
stages: the auction is call and grab, a seat may show its hand, each seat
doubles after the bottom, and the bottom itself may pay a bonus; three
players without a bottom call once (``first-call``) and may draw a card from
each farmer.  :class:`Stake` says which of these decisions a hand has.

>>> from ddz_tools.core.rules import Rules
>>> s = Stake.of(Rules.parse("happy"))
>>> s.name, s.auction, s.shows, s.doubles
('happy', 'call', True, True)
>>> Stake.of(Rules.parse("standard")).name, Stake.of(Rules.parse("notalon")).auction
('classic', 'call')
"""

from __future__ import annotations

import dataclasses

from ..core.rules import Rules

__all__ = ["Stake", "BID_AUCTIONS", "CALL_AUCTIONS"]

#: Auctions of bids 1, 2 or 3.
BID_AUCTIONS = ("single-round", "until-two-pass")
#: Auctions of calls (call and grab, or one call ends it).
CALL_AUCTIONS = ("call-grab", "first-call")


@dataclasses.dataclass(frozen=True)
class Stake:
    """Which stake decisions a hand has under a rule set."""

    #: ``classic`` (bids, bombs, springs) or ``happy`` (stages beyond those).
    name: str
    #: ``bid`` (1, 2 or 3) or ``call`` (call and grab, or first call).
    auction: str
    #: A seat may show its hand (``show`` on).
    shows: bool
    #: Each seat doubles after the bottom (``doubling`` on).
    doubles: bool
    #: The bottom's cards multiply the stake (``bottom_bonus=table``).
    bottom_bonus: bool
    #: The landlord draws a card from each farmer (``landlord_draw`` on a table
    #: without a bottom; with a bottom the option does nothing).
    draws: bool
    #: A seat whose hand holds certain cards may not pass (``must_call``).
    must_call: bool = False

    @classmethod
    def of(cls, rules: Rules) -> "Stake":
        """The stake axis of ``rules``."""
        return cls("happy" if rules.has_stages else "classic",
                   "call" if rules.bidding in CALL_AUCTIONS else "bid",
                   rules.show != "off", rules.doubling != "off", rules.bottom_bonus != "off",
                   rules.landlord_draw and rules.bottom_cards == 0, rules.must_call != "off")

    @property
    def multiplies(self) -> bool:
        """True when a stage multiplies the stake beyond the bids and the
        bombs: a show, a double or a bottom bonus (the Happy stages)."""
        return self.shows or self.doubles or self.bottom_bonus

    @property
    def before_play(self) -> bool:
        """True when a hand has actions before the play beyond the auction's
        bids, which a replay must walk: a stage (:attr:`staged`) or a forced
        call (``must_call``)."""
        return self.staged or self.must_call

    @property
    def staged(self) -> bool:
        """True when a hand has a stage beyond the classic auction and play:
        a show, a double, a bottom bonus or a draw."""
        return self.shows or self.doubles or self.bottom_bonus or self.draws
