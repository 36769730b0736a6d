"""The card axis of a variant: natural cards, or wild ranks drawn each deal.

``laizi`` draws one wild rank a deal (shown once the landlord is known),
``tiandi`` (天地癞子) two: 天 shown before the bidding, 地 with the landlord;
``laizi_reveal=before-bidding`` shows every wild rank before the bidding.
Which ranks are wild is part of the deal; :class:`WildCards` draws them and
says which of them a seat sees at each point of the hand.

>>> import random
>>> TIANDI.draw(random.Random(1))
(2, 9)
>>> TIANDI.shown((2, 9), landlord_known=False, at_bidding=1), TIANDI.shown((2, 9), True, 1)
((2,), (2, 9))
>>> NATURAL.draw(random.Random(1))
()
"""

from __future__ import annotations

import dataclasses
import random

from ..core.cards import RANK_2

__all__ = ["WildCards", "NATURAL", "LAIZI", "TIANDI", "WILD_CARDS"]


@dataclasses.dataclass(frozen=True)
class WildCards:
    """How many wild ranks a deal draws, and when they are shown."""

    #: ``natural``, ``laizi`` or ``tiandi``.
    name: str
    #: Wild ranks a deal draws.
    ranks: int

    @property
    def wild(self) -> bool:
        """True when a deal has wild cards."""
        return self.ranks > 0

    def draw(self, rng: random.Random) -> tuple:
        """The deal's wild ranks (rank indices of 3..2, different), drawn with ``rng``."""
        return tuple(rng.sample(range(RANK_2 + 1), self.ranks)) if self.ranks else ()

    def shown(self, wild: tuple, landlord_known: bool, at_bidding: int) -> tuple:
        """The wild ranks the table sees: all once the landlord is known, else
        the ``at_bidding`` first (:attr:`Rules.wild_at_bidding
        <ddz_tools.core.rules.Rules.wild_at_bidding>`)."""
        return tuple(wild) if landlord_known else tuple(wild)[:at_bidding]


NATURAL = WildCards("natural", 0)
LAIZI = WildCards("laizi", 1)
TIANDI = WildCards("tiandi", 2)
#: By the number of wild ranks a deal draws.
WILD_CARDS = {w.ranks: w for w in (NATURAL, LAIZI, TIANDI)}
