"""The game: a state machine for one whole hand of Dou Dizhu.

One hand, in plain English (``docs/rules.md`` is the full text)
---------------------------------------------------------------
The deck is dealt 17 cards a seat with 3 face down (the bottom).  Seats bid
for the landlord, starting from the first bidder and going round in seat
order (seat ``i`` is followed by ``i + 1 mod 3``), under the ``bidding``
option of :class:`~ddz_tools.core.rules.Rules`:

* ``single-round`` (default): each seat once passes (0) or bids 1-3, higher
  than every earlier bid; 3 ends the auction at once; the highest bidder is
  landlord and the winning bid is the base stake.
* ``until-two-pass``: the same bids, but the auction goes on round the table
  (a seat that passed is out) until someone bids 3 or every seat but the
  high bidder has passed.
* ``call-grab`` (jiao / qiang dizhu): bids are 1 (call, or grab) and 0
  (pass).  The first seat to call becomes landlord-to-be with base 1; each
  later seat of the round may then grab once (it becomes landlord-to-be and
  the base doubles); if anyone grabbed, the caller may grab back once.  So
  there are at most three grabs and the base is ``2 ** grabs``.

If everybody passes, the deal is void and the next seat starts the bidding
over a new deal (:meth:`Game.redeal`).  Botzone instead makes seat 0
landlord with base 1; ask for that with ``all_pass="seat0"``.

The landlord shows and takes the bottom (20 cards) and leads.  Each later
seat answers the last play with a higher play of the same type and length
(a bomb beats any non-bomb and a lower bomb, the rocket beats everything) or
passes; a seat may always pass when answering, never when leading.  After
two passes in a row the last seat that played leads again.  The hand ends
the moment a seat has no cards left: the landlord wins alone, or both
farmers win.

Scoring: the stake is ``base * multiplier``, where the multiplier doubles for
each bomb and for the rocket, for a spring (the landlord wins and neither
farmer played a card; with ``spring=any-player``, the landlord wins and at
least one farmer played no card) and for an anti-spring (the farmers win and
the landlord played only his opening lead).  Each farmer settles the stake
with the landlord: ``+2s / -s / -s`` when the landlord wins, the reverse
otherwise.

Four players (preset ``four``)
------------------------------
Two decks (108 cards) are dealt 25 cards to each of four seats and 8 to the
bottom.  The auction is ``single-round`` round the four seats (all four
passing voids the deal); the landlord takes the bottom (33 cards) and plays
alone against three farmers, who win together when any of them goes out.
Seats are named by role in turn order from the landlord: ``landlord``,
``farmer1``, ``farmer2``, ``farmer3`` (:func:`seat_roles`).  A play stands
until the turn comes back to its maker, after three passes in a row.  Which
bombs raise the stake is the ``bomb_doubles`` option (``six-plus`` by
default: bombs of 6 or more cards and the four jokers x2; ``all``: every bomb
x2; ``ladder``: 6 or 7 cards x2, 8 cards and the four jokers x3); spring
(no farmer played a card) and anti-spring x2 as classic; each farmer settles
the stake with the landlord: ``+3s / -s / -s / -s``.  A two-deck deal has
no card ids: hands are card text or packed ints.

Laizi rules (presets ``laizi`` and ``tiandi``)
----------------------------------------------
The deal also draws the wild rank(s): one rank of 3..2 under ``laizi``, two
different ones under ``tiandi`` (天 then 地), uniformly from the game's
random generator right after the shuffle (or given as ``wild``).  Who knows
them when follows ``laizi_reveal``: with ``after-landlord`` (default) the
single laizi, and 地, are shown when the landlord is known; 天 is always
shown before the bidding; with ``before-bidding`` every wild rank is shown
before the bidding.  :attr:`Game.rules` holds the wild ranks shown so far.
Bombs multiply the stake by ``laizi_multipliers``: ``hlddz`` (default) a soft
bomb x2, a hard or pure bomb or the rocket x4; ``flat`` every bomb x2.

Plays given as bare cards
-------------------------
A set of cards can have several readings (under ``douzero``,
``333444555666`` is a 4-trio airplane and two 3-trio airplanes with solo
wings).  A play written with ``-`` (``444555666-333``, see
:meth:`~ddz_tools.core.rules.Play.parse`) has its reading fixed.  A play given
as bare cards takes, among the readings that are legal at that point (every
reading when leading; the readings that beat the last play when
answering), **the one with the largest kind**: the longest body first, then
the highest main rank, then the highest type number (with wild cards, a
reading in which every card is itself comes before the others).  The kicker-free
reading always wins when it is legal (it is the longest), and of two
airplanes with wings the stronger one is taken.

Example
-------
>>> g = Game(hands=["3333444455556666D", "777788889999TTTTX", "JJJJQQQQKKKKAAAA2"],
...          bottom="222", first_bidder=2)
>>> g.bid(0); g.bid(1); g.bid(2)      # seats 2, 0, 1
>>> g.landlord, g.base, g.hand(1)
(1, 2, '777788889999TTTT222X')
>>> g.play("7777-8T")
Play.parse('7777-8T')
>>> g.pass_()
>>> g.play("3333-45")
Traceback (most recent call last):
...
ddz_tools.core.errors.IllegalAction: seat 0 played 3333-45, which does not beat 7777-8T

What is where, each module importing only those above it:

* ``phases``: the phases of a hand, the error codes of illegal actions, the
  show stages, the table of a seat count (:func:`seat_roles`);
* ``auction``: :class:`Auction`, the bidding of one deal;
* ``scoring``: :class:`Result`, :func:`score` and :func:`seat_scores`;
* ``reading``: :func:`choose_reading`, the reading of a play given as bare cards;
* ``state``: :class:`Game`, :class:`GameState`, :func:`random_game` (a deal's decks are
  checked by the table: :meth:`ddz_tools.variants.Table.deck_problem`).
"""

from ...core.errors import IllegalAction
from ...variants.table import ROLE_NAMES
from .auction import Auction
from .phases import *  # noqa: F401,F403  (the phases, the error codes, the show stages: phases.__all__)
from .phases import __all__ as _phases
from .reading import choose_reading
from .scoring import Result, score, seat_scores
from .state import Game, GameState, random_game

__all__ = [
    "IllegalAction", "Auction", "Result", "GameState", "Game", "choose_reading", "score", "seat_scores",
    "random_game", "ROLE_NAMES", *_phases,
]
