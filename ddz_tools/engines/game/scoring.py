"""The outcome of a finished hand: :class:`Result`, :func:`score` and
:func:`seat_scores`.

The stake is the base times the public multiple: 2 per bomb or rocket (by
``bomb_doubles`` with four players, by tier under Laizi rules), per spring
and per anti-spring, times the show multiple and the bottom bonus (Happy Dou
Dizhu); each farmer settles it with the landlord, times the seats' doubles as
``doubling`` says (:func:`~ddz_tools.core.gamerules.seat_settlement`, the one
settlement rule).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from ...core._jit import interpreted
from ...core.gamerules import DOUBLING_MODES, DOUBLING_OFF, multiplier, seat_settlement, spring_silent

__all__ = ["Result", "public_multiple", "score", "seat_scores"]

# The scoring rules of ddz_tools.core.gamerules, run by Python (see its module doc).
_spring_silent = interpreted(spring_silent)
_seat_settlement = interpreted(seat_settlement)
_multiplier = interpreted(multiplier)


@dataclasses.dataclass(frozen=True)
class Result:
    """The outcome of a finished hand.

    ``bombs`` counts every bomb and the rocket that raised the stake (under
    four-player ``bomb_doubles=six-plus`` the bombs of 6 or more cards and
    the four jokers); ``multiplier`` is the public multiple, ``2 ** (bombs +
    spring + anti_spring)`` (the bombs by ``bomb_doubles`` with four players,
    by tier under Laizi rules) times the show multiple and the bottom bonus
    (both 1 in classic games), and excludes the base; ``doubles`` are the
    seats' factors (1, 2 or 4); ``scores`` are per seat (0, 1, 2, and 3 with
    four players) and sum to zero.
    """

    winner: str          # "landlord" or "farmers"
    winner_seat: int     # the seat that went out
    landlord: int
    base: int
    multiplier: int
    bombs: int
    spring: bool
    anti_spring: bool
    scores: tuple
    show_multiple: int = 1
    bottom_bonus: int = 1
    doubles: tuple = (1, 1, 1)
    #: The rules have stake stages (shows, doubles, a bottom bonus): the
    #: record's result names the show multiple and the bottom bonus.
    staged: bool = False

    def to_dict(self) -> dict:
        """The ``result`` object of a ``ddz-record/1`` line."""
        d = {"winner": self.winner, "base": self.base, "multiplier": self.multiplier,
             "bombs": self.bombs, "spring": self.spring, "anti_spring": self.anti_spring,
             "scores": list(self.scores)}
        if self.staged:
            d["show_multiple"] = self.show_multiple
            d["bottom_bonus"] = self.bottom_bonus
        return d


def score(landlord: int, winner_seat: int, base: int, bombs: int, landlord_plays: int,
          farmer_plays: Sequence[int], spring_rule: str = "landlord", doublings: "int | None" = None,
          show: int = 1, bonus: int = 1, doubles: "Sequence[int] | None" = None, doubling: str = "off",
          staged: bool = False) -> Result:
    """Score a finished hand from its counts.

    ``landlord_plays`` is the number of (non-pass) plays of the landlord,
    ``farmer_plays`` those of the farmers (two, or three with four players:
    the table has one seat more than farmers); ``doublings`` what the bombs
    multiply the stake by, summed :func:`~ddz_tools.core.gamerules.stake_doublings`
    (default: ``bombs``, one doubling each).  Stake stages (Happy Dou Dizhu,
    three players): ``show`` the show multiple, ``bonus`` the bottom bonus,
    ``doubles`` the seats' factors (default all 1) settled per the
    ``doubling`` option (:func:`~ddz_tools.core.gamerules.seat_settlement`).
    Example from docs/rules.md: bid 3, two bombs, the landlord wins:

    >>> score(0, 0, 3, 2, 9, [4, 3]).scores
    (24, -12, -12)
    >>> r = score(1, 2, 2, 0, 1, [5, 6])   # farmers win, landlord led once
    >>> r.anti_spring, r.multiplier, r.scores
    (True, 2, (4, -8, 4))
    >>> score(0, 0, 2, 2, 7, [1, 0, 0], doublings=2).scores   # four players: bid 2, x4
    (24, -8, -8, -8)
    """
    landlord_wins = winner_seat == landlord
    seats = len(farmer_plays) + 1
    silent = sum(1 for n in farmer_plays if n == 0)
    spring, anti = _spring_silent(landlord_wins, landlord_plays, silent, seats - 1, spring_rule == "any-player")
    mult = public_multiple(bombs if doublings is None else doublings, show, bonus, spring, anti)
    doubles = (1,) * seats if doubles is None else tuple(doubles)
    scores = [_seat_settlement(s, landlord, landlord_wins, base * mult, seats, DOUBLING_MODES[doubling], doubles, 0)
              for s in range(seats)]
    return Result("landlord" if landlord_wins else "farmers", winner_seat, landlord, base, mult,
                  bombs, spring == 1, anti == 1, tuple(scores), show, bonus, tuple(doubles), staged)


def public_multiple(doublings: int, show: int = 1, bonus: int = 1, spring: int = 0, anti: int = 0) -> int:
    """The multiple every seat's stake shares: the shows' multiple times the
    bottom bonus times 2 to the stake's doublings (bombs and rockets; a spring
    or an anti-spring doubles it once more).  :func:`score` settles with it;
    during a game, with no spring yet, it is the multiple so far.

    >>> public_multiple(2, show=2), public_multiple(0, spring=1)
    (8, 2)
    """
    return show * bonus * _multiplier(doublings, spring, anti)


def seat_scores(landlord: int, landlord_wins: bool, stake: int, seats: int = 3) -> tuple:
    """Per-seat scores: each farmer settles ``stake`` with the landlord.

    >>> seat_scores(1, True, 6)
    (-6, 12, -6)
    >>> seat_scores(1, False, 6, seats=4)
    (6, -18, 6, 6)
    """
    scores = [_seat_settlement(s, landlord, landlord_wins, stake, seats, DOUBLING_OFF, (), 0) for s in range(seats)]
    return tuple(scores)

