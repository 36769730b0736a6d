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
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Sequence

from ..core._jit import interpreted
from ..core.cards import (
    NUM_RANKS,
    RANKS,
    RANK_D,
    RANK_X,
    card_count,
    count_of,
    format_cards,
    full_deck,
    is_valid_packed,
    pack_card_ids,
    packed_contains,
    rank_limit,
    rank_of_card_id,
    to_packed,
)
from ..core.errors import CardError, GameError, IllegalAction, PlayError
from ..core.gamerules import (
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
    DOUBLING_MODES,
    DOUBLING_OFF,
    SHOW_BEFORE_DEAL,
    SHOW_FIRST_PLAY,
    auction_bid,
    auction_must_call,
    auction_seats,
    auction_start,
    bid_error,
    bottom_bonus,
    bottom_flush,
    double_ok,
    draw_card,
    merge_show,
    must_call,
    show_factor,
    stake_doublings,
    may_pass,
    multiplier,
    next_seat,
    seat_settlement,
    spring_silent,
    trick_after,
)
from ..moves.movegen import generate
from ..core.rules import (
    F_NATURAL_FIRST,
    WILD_MASK,
    Play,
    Rules,
    beats,
    has_fixed_reading,
    parse_wild,
    play_text_cards,
    reads_as_itself,
    readings,
)

__all__ = [
    "IllegalAction", "Auction", "Result", "GameState", "Game", "choose_reading", "score", "seat_scores",
    "random_game", "BIDDING", "PLAYING", "FINISHED", "REDEAL", "DRAWING", "DOUBLING", "ALL_PASS_OPTIONS",
    "show_stage_code", "show_stage_text", "ROLE_NAMES", "seat_roles", "deck_problem",
]

BIDDING = "bidding"
DRAWING = "drawing"     # landlord_draw: the landlord draws a card from each farmer
DOUBLING = "doubling"   # each seat doubles x1, x2 or x4
PLAYING = "playing"
FINISHED = "finished"
REDEAL = "redeal"

#: What happens when every seat passes: a new deal, or Botzone's rule
#: (seat 0 becomes landlord with base 1).
ALL_PASS_OPTIONS = ("redeal", "seat0")

# Error codes of illegal actions (shared with the fast validator in records.py).
E_FINISHED = "game_over"
E_WRONG_TURN = "wrong_turn"
E_BAD_BID = "bad_bid"
E_NOT_BIDDING = "not_bidding"
E_NOT_PLAYING = "not_playing"
E_PASS_ON_LEAD = "pass_on_lead"
E_BAD_CARDS = "bad_cards"
E_NOT_IN_HAND = "not_in_hand"
E_NOT_A_COMBINATION = "not_a_combination"
E_DOES_NOT_BEAT = "does_not_beat"
E_BAD_SHOW = "bad_show"
E_BAD_DOUBLE = "bad_double"
E_BAD_DRAW = "bad_draw"


# The rules of ddz_tools.core.gamerules, run by Python (see its module doc).
_auction_start = interpreted(auction_start)
_auction_seats = interpreted(auction_seats)
_auction_bid = interpreted(auction_bid)
_bid_error = interpreted(bid_error)
_may_pass = interpreted(may_pass)
_trick_after = interpreted(trick_after)
_next_seat = interpreted(next_seat)
_stake_doublings = interpreted(stake_doublings)
_spring_silent = interpreted(spring_silent)
_seat_settlement = interpreted(seat_settlement)
_bottom_flush = interpreted(bottom_flush)
_multiplier = interpreted(multiplier)
_contains = interpreted(packed_contains)
_auction_must_call = interpreted(auction_must_call)
_must_call = interpreted(must_call)
_show_factor = interpreted(show_factor)
_merge_show = interpreted(merge_show)
_double_ok = interpreted(double_ok)
_bottom_bonus = interpreted(bottom_bonus)
_draw_card = interpreted(draw_card)


def show_stage_code(stage) -> int:
    """A show stage as text (``before-deal``, ``deal:N``, ``first-play``) to
    the kernels' code (:data:`~ddz_tools.core.gamerules.SHOW_BEFORE_DEAL`, ``N``,
    :data:`~ddz_tools.core.gamerules.SHOW_FIRST_PLAY`); -1 for text that is none of them."""
    if not isinstance(stage, str):
        return -1
    t = stage.strip().lower()
    if t == "before-deal":
        return SHOW_BEFORE_DEAL
    if t == "first-play":
        return SHOW_FIRST_PLAY
    if t.startswith("deal:") and t[5:].isdigit():
        n = int(t[5:])
        return n if 1 <= n < SHOW_FIRST_PLAY else -1
    return -1


def show_stage_text(code: int) -> str:
    """The text of a show stage code (see :func:`show_stage_code`)."""
    if code == SHOW_BEFORE_DEAL:
        return "before-deal"
    if code == SHOW_FIRST_PLAY:
        return "first-play"
    return f"deal:{code}"


#: The seats by role, in turn order from the landlord: the landlord, then the
#: farmer on his left (who moves after him), and so on round the table.
ROLE_NAMES = ("landlord", "farmer1", "farmer2", "farmer3")


def seat_roles(landlord: int, seats: int = 3) -> dict:
    """Each seat's role at a table of ``seats`` (:data:`ROLE_NAMES`).

    >>> seat_roles(2, 4)
    {2: 'landlord', 3: 'farmer1', 0: 'farmer2', 1: 'farmer3'}
    """
    return {(landlord + i) % seats: ROLE_NAMES[i] for i in range(seats)}


def _check_seat(seat, seats: int = 3) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        names = "0, 1 or 2" if seats == 3 else ", ".join(str(s) for s in range(seats - 1)) + f" or {seats - 1}"
        raise GameError(f"seat must be {names}, not {seat!r}")
    return seat


def deck_problem(parts: Sequence[int], decks: int) -> "str | None":
    """Why the packed ``parts`` of a deal (the hands and the bottom) are not
    ``decks`` whole decks, or None when they are.

    >>> from ddz_tools.core.cards import parse_cards
    >>> deck_problem([parse_cards("3" * 8, 2)] * 2, 2)
    'the hands and the bottom hold 16 3s, not 8'
    """
    for r in range(NUM_RANKS):
        held = sum(count_of(p, r) for p in parts)
        if held != rank_limit(r, decks):
            name = {RANK_X: "small jokers", RANK_D: "big jokers"}.get(r, f"{RANKS[r]}s")
            return f"the hands and the bottom hold {held} {name}, not {rank_limit(r, decks)}"
    return None


# Bidding -------------------------------------------------------------------------


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
        if seats not in (3, 4):
            raise GameError(f"an auction has 3 or 4 seats, not {seats!r}")
        #: Seats at the table: 3, or 4 under four-player rules.
        self.seats = seats
        self.first_bidder = _check_seat(first_bidder, seats)
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
            _auction_must_call(self._state, _check_seat(seat, seats))

    @property
    def turn(self) -> "int | None":
        """The seat to bid, None once the bidding is over."""
        t = self._state[A_TURN]
        return None if t < 0 else t

    @property
    def high(self) -> int:
        """The highest bid so far (call-grab: 1 once someone called)."""
        return self._state[A_HIGH]

    @property
    def high_seat(self) -> "int | None":
        s = self._state[A_HIGH_SEAT]
        return None if s < 0 else s

    @property
    def passed(self) -> set:
        """Seats that passed (until-two-pass)."""
        return {s for s in range(self.seats) if (self._state[A_PASSED] >> s) & 1}

    @property
    def caller(self) -> "int | None":
        s = self._state[A_CALLER]
        return None if s < 0 else s

    @property
    def grabs(self) -> int:
        return self._state[A_GRABS]

    @property
    def landlord(self) -> "int | None":
        s = self._state[A_LANDLORD]
        return None if s < 0 else s

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


# Results and scoring ---------------------------------------------------------------


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
    mult = show * bonus * _multiplier(bombs if doublings is None else doublings, spring, anti)
    doubles = (1,) * seats if doubles is None else tuple(doubles)
    scores = [_seat_settlement(s, landlord, landlord_wins, base * mult, seats, DOUBLING_MODES[doubling], doubles, 0)
              for s in range(seats)]
    return Result("landlord" if landlord_wins else "farmers", winner_seat, landlord, base, mult,
                  bombs, spring == 1, anti == 1, tuple(scores), show, bonus, tuple(doubles), staged)


def seat_scores(landlord: int, landlord_wins: bool, stake: int, seats: int = 3) -> tuple:
    """Per-seat scores: each farmer settles ``stake`` with the landlord.

    >>> seat_scores(1, True, 6)
    (-6, 12, -6)
    >>> seat_scores(1, False, 6, seats=4)
    (6, -18, 6, 6)
    """
    return tuple(_seat_settlement(s, landlord, landlord_wins, stake, seats, DOUBLING_OFF, (), 0) for s in range(seats))


# Choosing the reading of a play ------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def _kinds_of(cards: int, flags: int, hand: "int | None") -> tuple:
    return tuple(k for _, k in readings(cards, flags, hand))


def _kinds(cards: int, flags: int, hand: "int | None" = None) -> tuple:
    """The kinds of every reading of a multiset (memoised: plays repeat a lot);
    ``hand``, the whole hand, matters only under ``natural_first``."""
    return _kinds_of(cards, flags, hand if flags & F_NATURAL_FIRST else None)


def choose_reading(cards: int, prev_kind: int, rules: Rules) -> "int | None":
    """The reading (kind) a bare set of cards takes here, or None if none is legal.

    ``prev_kind`` is 0 for a lead.  Among the legal readings the largest kind
    wins (see the module doc); with wild cards, the readings in which every
    card is itself come first.

    >>> from ddz_tools.core.cards import parse_cards
    >>> Play(parse_cards("333444555666"), choose_reading(parse_cards("333444555666"), 0, Rules.parse("douzero"))).notation()
    '333444555666'
    >>> prev = Play.parse("333444555-678", "douzero").kind
    >>> Play(parse_cards("444555666777"), choose_reading(parse_cards("444555666777"), prev, Rules.parse("douzero"))).notation()
    '555666777-444'
    """
    return _choose(cards, prev_kind, Rules.parse(rules).flags)


def _choose(cards: int, prev_kind: int, flags: int, hand: "int | None" = None) -> "int | None":
    best = None
    best_itself = False
    for kind in _kinds(cards, flags, hand):
        if prev_kind == 0 or beats(kind, prev_kind, flags):
            itself = bool(flags & WILD_MASK) and reads_as_itself(cards, kind, flags)
            if best is None or (itself, kind) > (best_itself, best):
                best, best_itself = kind, itself
    return best


# The game ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class GameState:
    """An immutable snapshot of a :class:`Game` (what a policy sees, all hands open).

    ``hands`` are packed ints (the landlord's includes the bottom once taken);
    ``last_play`` is the play to answer (None when the seat to move leads).
    """

    phase: str
    turn: "int | None"
    hands: tuple
    bottom: int
    landlord: "int | None"
    base: int
    bids: tuple
    plays: tuple          # ((seat, Play), ...), passes included
    last_play: "Play | None"
    last_seat: "int | None"
    passes: int
    bombs: int
    rules: Rules
    shows: tuple = ()          # ((seat, stage text), ...) in the order shown
    doubles: tuple = ()        # ((seat, factor), ...) in the order doubled


class Game:
    """One hand of Dou Dizhu from the deal to the score.

    Build it from a seeded deal (``Game(seed=1)``) or from given hands
    (``Game(hands=[...], bottom=...)``: three 17-card hands and the 3-card
    bottom, as card text, packed ints or Botzone card id lists; under
    four-player rules four 25-card hands and the 8-card bottom of two decks,
    as card text or packed ints).  Then call
    :meth:`bid`, :meth:`play` and :meth:`pass_` for the seat to move
    (:attr:`turn`).  Each action may name its seat; an illegal action raises
    :class:`IllegalAction` naming it, and leaves the game unchanged.

    >>> g = Game(seed=3, first_bidder=0)
    >>> g.bid(3)
    >>> g.phase, g.landlord, g.base, len(g.hand(0))
    ('playing', 0, 3, 20)
    >>> g.pass_()
    Traceback (most recent call last):
    ...
    ddz_tools.core.errors.IllegalAction: seat 0 passed but must lead (nothing to answer)
    """

    def __init__(self, hands: "Sequence | None" = None, bottom=None, rules: "Rules | str | None" = None,
                 first_bidder: "int | None" = None, seed: "int | None" = None, dealer: int = 0,
                 all_pass: str = "redeal", rng: "random.Random | None" = None, wild=None):
        rules = Rules.parse(rules)
        #: The rules without the wild ranks; :attr:`rules` has those shown so far.
        self.base_rules = rules.with_wild(())
        self.rules = self.base_rules
        self._flags = self.rules.flags
        self._wild_given = parse_wild(wild if wild is not None else (rules.wild or None))
        if self._wild_given and len(self._wild_given) != rules.wild_ranks:
            rules.with_wild(self._wild_given)       # the error for the rules (none, or too many)
            raise GameError(f"a {rules.preset} deal draws {rules.wild_ranks} wild ranks, not "
                            f"{len(self._wild_given)}", param="wild")
        #: The deal's wild ranks, shown or not yet (rank indices; () under classic rules).
        self.wild: tuple = ()
        if all_pass not in ALL_PASS_OPTIONS:
            raise GameError(f"all_pass must be one of {', '.join(ALL_PASS_OPTIONS)}, not {all_pass!r}")
        self.all_pass = all_pass
        self._rng = rng
        self._seed = seed
        #: Seats at the table (:attr:`Rules.seats <ddz_tools.core.rules.Rules.seats>`): 3, or 4.
        self.seats = self.base_rules.seats
        self.dealer = _check_seat(dealer, self.seats)
        self.hand_ids: "list[list[int]] | None" = None
        self.bottom_ids: "list[int] | None" = None
        if hands is None:
            if bottom is not None:
                raise GameError("give both hands and bottom, or neither (for a seeded deal)")
            self._deal_random()
        elif bottom is None and self.base_rules.bottom_cards == 0:
            self._set_deal(hands, "")
            self._draw_wild()
        else:
            self._set_deal(hands, bottom)
            self._draw_wild()
        if first_bidder is None:
            if self.rules.first_bidder == "random":
                first_bidder = self.rng.randrange(self.seats)
            else:
                first_bidder = (self.dealer + 1) % self.seats
        self._start(_check_seat(first_bidder, self.seats))

    @property
    def rng(self) -> random.Random:
        """The game's random generator (seeded; made on first use)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    # Dealing.
    def _deal_random(self) -> None:
        r = self.base_rules
        ids = list(range(r.deck_size))
        self.rng.shuffle(ids)
        n, seats = r.hand_cards, r.seats
        if r.decks == 1:
            self._set_deal([sorted(ids[i * n:(i + 1) * n]) for i in range(seats)], sorted(ids[seats * n:]))
        else:
            # Several decks: card k is card id k % 54 of its deck; only the ranks are kept.
            def packed(part):
                return sum(1 << (4 * rank_of_card_id(k % 54)) for k in part)
            self._set_deal([packed(ids[i * n:(i + 1) * n]) for i in range(seats)], packed(ids[seats * n:]))
        self._draw_wild()

    def _draw_wild(self) -> None:
        """The deal's wild ranks: given, or drawn (Laizi rules only)."""
        n = self.base_rules.wild_ranks
        if n == 0:
            self.wild = ()
        elif self._wild_given:
            self.wild = self._wild_given
        else:
            self.wild = tuple(self.rng.sample(range(13), n))

    def _show_wild(self, landlord_known: bool) -> None:
        """Put the wild ranks shown by now into :attr:`rules` (see the module doc)."""
        if landlord_known or self.base_rules.laizi_reveal == "before-bidding":
            shown = self.wild
        else:
            shown = self.wild[:1] if len(self.wild) == 2 else ()
        self.rules = self.base_rules.with_wild(shown)
        self._flags = self.rules.flags

    def _set_deal(self, hands, bottom) -> None:
        seats, decks = self.seats, self.base_rules.decks
        if len(hands) != seats:
            raise GameError(f"a deal has {seats} hands, not {len(hands)}")
        packed = []
        ids_given = all(isinstance(h, (list, tuple)) for h in list(hands) + [bottom])
        for i, h in enumerate(list(hands) + [bottom]):
            what = "the bottom" if i == seats else f"hand {i}"
            if isinstance(h, (list, tuple)):
                if decks != 1:
                    raise GameError(f"{what} is given as card ids, which name the cards of one deck: give a "
                                    f"{decks}-deck deal as card text or packed ints")
                p = pack_card_ids(h)
            elif isinstance(h, (str, int)) and not isinstance(h, bool):
                p = to_packed(h, what, decks)
            else:
                raise TypeError(f"a hand must be card text, a packed int or card ids, not {type(h).__name__}")
            packed.append(p)
        n, nb = self.base_rules.hand_cards, self.base_rules.bottom_cards
        for i in range(seats):
            if card_count(packed[i]) != n:
                raise CardError(f"hand {i} has {card_count(packed[i])} cards, not {n}")
        if card_count(packed[seats]) != nb:
            raise CardError(f"the bottom has {card_count(packed[seats])} cards, not {nb}"
                            + (" (no bottom under these rules)" if nb == 0 else ""))
        if decks == 1:
            total = sum(packed)
            if total != full_deck(1):
                raise CardError(f"the deal is not one deck: hands and bottom hold "
                                f"{format_cards(total) if total < (1 << 60) else '?'}")
        else:
            problem = deck_problem(packed, decks)
            if problem:
                raise CardError(f"the deal is not {decks} decks: {problem}")
        if ids_given:
            all_ids = [c for h in list(hands) + [bottom] for c in h]
            pack_card_ids(all_ids)  # rejects a repeated id
            self.hand_ids = [sorted(h) for h in hands]
            self.bottom_ids = sorted(bottom)
        self.dealt = tuple(packed[:seats])
        self.bottom = packed[seats]
        # The bottom's suits matter only to the bottom bonus (a flush): known from card ids.
        self._flush = None
        if self.bottom_ids is not None:
            self._flush = _bottom_flush(self.bottom_ids, 0, len(self.bottom_ids))
        elif self.base_rules.bottom_bonus == "table" and self.bottom:
            rules_flags = self.base_rules.stage_flags
            distinct = self.bottom < (1 << 52) and all((self.bottom >> (4 * r)) & 15 <= 1 for r in range(13))
            if distinct and _bottom_bonus(rules_flags, self.bottom, 0) < 3:
                raise GameError(f"bottom_bonus=table: whether the bottom {format_cards(self.bottom)} is a flush "
                                f"depends on its suits: give the deal as card ids", param="bottom")
            self._flush = 0

    def _start(self, first_bidder: int) -> None:
        self.first_bidder = first_bidder
        stage_flags = self.base_rules.stage_flags
        forced = [s for s in range(self.seats) if _must_call(stage_flags, self.dealt[s])]
        self.auction = Auction(first_bidder, self.rules.bidding, self.all_pass, forced, self.seats)
        #: Shows so far: ``(seat, stage code)`` in order (see :meth:`show`).
        self.shows: list[tuple[int, int]] = []
        #: Each seat's doubling factor, None until it doubled (see :meth:`double`).
        self.doubles: list = [None] * self.seats
        self._double_order: list[int] = []
        #: The landlord's draws under ``landlord_draw``: ``(farmer seat, packed card)``.
        self.draws: list[tuple[int, int]] = []
        self.hands = list(self.dealt)
        self.landlord: "int | None" = None
        self.base = 0
        self.plays: list[tuple[int, Play]] = []
        self.last_play: "Play | None" = None
        self.last_seat: "int | None" = None
        self.passes = 0
        self.bombs = 0
        self.doublings = 0
        self.played = [0] * self.seats
        self._show_wild(False)
        self.result: "Result | None" = None
        self.phase = BIDDING
        self.turn: "int | None" = first_bidder

    def redeal(self) -> None:
        """After every seat passed (phase ``redeal``): deal again from this game's
        random generator; the next seat bids first."""
        if self.phase != REDEAL:
            raise IllegalAction(E_NOT_BIDDING, "redeal is only possible after every seat passed")
        self._deal_random()
        self._start((self.first_bidder + 1) % self.seats)

    # Queries.
    def hand(self, seat: int) -> str:
        """The cards a seat holds now, as text."""
        return format_cards(self.hands[_check_seat(seat, self.seats)])

    def role(self, seat: int) -> "str | None":
        """The role of ``seat`` once the landlord is known (:data:`ROLE_NAMES`:
        ``landlord``, then ``farmer1``, ``farmer2`` (and ``farmer3``) in turn
        order from him), None before."""
        seat = _check_seat(seat, self.seats)
        return None if self.landlord is None else seat_roles(self.landlord, self.seats)[seat]

    @property
    def bids(self) -> list[tuple[int, int]]:
        return list(self.auction.bids)

    @property
    def leading(self) -> bool:
        """True when the seat to move leads freely."""
        return self.phase == PLAYING and self.last_play is None

    def state(self) -> GameState:
        """An immutable snapshot of the game."""
        return GameState(self.phase, self.turn, tuple(self.hands), self.bottom, self.landlord, self.base,
                         tuple(self.auction.bids), tuple(self.plays), self.last_play, self.last_seat,
                         self.passes, self.bombs, self.rules,
                         tuple((s, show_stage_text(c)) for s, c in self.shows),
                         tuple((s, self.doubles[s]) for s in self._double_order))

    @property
    def shown(self) -> set:
        """The seats whose hands are public (they showed)."""
        return {s for s, _ in self.shows}

    @property
    def show_multiple(self) -> int:
        """The show multiple so far: 1, or the shows merged by ``show_merge``."""
        m = 1
        for seat, code in self.shows:
            m = _merge_show(self.base_rules.stage_flags, m,
                            _show_factor(self.base_rules.stage_flags, code, seat == self.landlord))
        return m

    def legal_doubles(self) -> list[int]:
        """The factors the seat to double may choose (phase ``doubling``)."""
        if self.phase != DOUBLING:
            return []
        return [f for f in (1, 2, 4) if _double_ok(self.base_rules.stage_flags, f)]

    def show(self, stage, seat: int) -> None:
        """``seat`` shows its hand at ``stage``: ``before-deal`` or ``deal:N``
        (N cards dealt so far) before the first bid, or ``first-play`` (the
        landlord, before his first play).  Raises :class:`IllegalAction` when
        the rules allow no show there or the seat already showed."""
        seat = _check_seat(seat, self.seats)
        code = show_stage_code(stage)
        where = f"seat {seat} showed at {stage!r}"
        if code < 0:
            raise IllegalAction(E_BAD_SHOW, f"{where}: a stage is before-deal, deal:N or first-play")
        if seat in self.shown:
            raise IllegalAction(E_BAD_SHOW, f"{where}, but its hand is already shown")
        flags = self.base_rules.stage_flags
        if code == SHOW_FIRST_PLAY:
            if self.phase != PLAYING or seat != self.landlord or self.played[seat] or self.turn != seat:
                raise IllegalAction(E_BAD_SHOW, f"{where}: only the landlord shows at his first play, "
                                                f"before he plays")
        else:
            if self.phase != BIDDING or self.auction.bids:
                raise IllegalAction(E_BAD_SHOW, f"{where}: the deal is over (shows before or during the "
                                                f"deal come before the first bid)")
            if code > self.base_rules.hand_cards:
                raise IllegalAction(E_BAD_SHOW, f"{where}: a seat is dealt {self.base_rules.hand_cards} cards")
            if self.shows and self.shows[-1][1] != SHOW_FIRST_PLAY and code < self.shows[-1][1]:
                raise IllegalAction(E_BAD_SHOW, f"{where}, after a show at "
                                                f"{show_stage_text(self.shows[-1][1])}: shows come in deal order")
        if _show_factor(flags, code, seat == self.landlord) == 0:
            raise IllegalAction(E_BAD_SHOW, f"{where}: no show there under show={self.base_rules.show}")
        self.shows.append((seat, code))

    def draw(self, card=None, seat: "int | None" = None) -> int:
        """The landlord draws one card from the farmer to draw from (phase
        ``drawing``, :attr:`turn`; ``landlord_draw=on``): ``card`` (text of one
        card, or packed), or None for a card at random from the game's
        generator.  Returns the packed card."""
        if self.phase != DRAWING:
            raise IllegalAction(E_BAD_DRAW, f"a draw in the {self.phase} phase")
        farmer = self.turn
        if seat is not None and _check_seat(seat, self.seats) != farmer:
            raise IllegalAction(E_WRONG_TURN, f"a draw from seat {seat}, but the landlord draws from seat {farmer}")
        hand = self.hands[farmer]
        if card is None:
            c = _draw_card(hand, self.rng.randrange(card_count(hand)))
        else:
            try:
                c = to_packed(card)
            except (CardError, TypeError, ValueError):
                raise IllegalAction(E_BAD_DRAW, f"the landlord drew {card!r} from seat {farmer}: not a card") from None
            if card_count(c) != 1 or not _contains(hand, c):
                raise IllegalAction(E_BAD_DRAW, f"the landlord drew {format_cards(c) if is_valid_packed(c) else card!r} "
                                                f"from seat {farmer}, who holds {self.hand(farmer)}")
        self.hands[farmer] -= c
        self.hands[self.landlord] += c
        self.draws.append((farmer, c))
        if len(self.draws) < 2:
            self.turn = _next_seat(farmer, self.seats)
        else:
            self._after_auction()
        return c

    def double(self, factor: int, seat: "int | None" = None) -> None:
        """Double by ``factor`` (1, 2 or with ``super_double`` 4) for the seat to
        move (phase ``doubling``: the farmers from the landlord's left, then
        the landlord)."""
        if self.phase != DOUBLING:
            raise IllegalAction(E_BAD_DOUBLE, f"a double of {factor!r} in the {self.phase} phase")
        seat = self._check_turn(seat, factor)
        if isinstance(factor, bool) or not isinstance(factor, int) or not _double_ok(self.base_rules.stage_flags, factor):
            allowed = ", ".join(str(f) for f in self.legal_doubles())
            raise IllegalAction(E_BAD_DOUBLE, f"seat {seat} doubled by {factor!r}: it must be {allowed}")
        self.doubles[seat] = factor
        self._double_order.append(seat)
        if len(self._double_order) == self.seats:
            self.phase, self.turn = PLAYING, self.landlord
        else:
            self.turn = self.landlord if len(self._double_order) == self.seats - 1 else _next_seat(seat, self.seats)

    def _after_auction(self) -> None:
        """After the auction (and the draws): the doubling, then the play."""
        if self.base_rules.doubling != "off":
            self.phase, self.turn = DOUBLING, _next_seat(self.landlord, self.seats)
        else:
            self.phase, self.turn = PLAYING, self.landlord

    def legal_bids(self) -> list[int]:
        return self.auction.legal_bids() if self.phase == BIDDING else []

    def legal_plays(self) -> list[Play]:
        """Every legal action of the seat to move in the play phase, pass first
        when it is allowed."""
        if self.phase != PLAYING:
            return []
        moves = generate(self.hands[self.turn], self.last_play, self.rules)
        return ([] if self.last_play is None else [Play.pass_()]) + list(moves)

    # Actions.
    def _check_turn(self, seat, action) -> int:
        if seat is None or seat == self.turn:
            return self.turn
        seat = _check_seat(seat, self.seats)
        what = (f"bid {action!r}" if self.phase == BIDDING else f"doubled by {action!r}" if self.phase == DOUBLING
                else f"played {_text(action)}")
        raise IllegalAction(E_WRONG_TURN, f"seat {seat} {what} but it is seat {self.turn}'s turn")

    def bid(self, value: int, seat: "int | None" = None) -> None:
        """Bid ``value`` (0 = pass) for the seat to move (or check that it is ``seat``)."""
        if self.phase != BIDDING:
            raise IllegalAction(E_NOT_BIDDING, f"bid {value!r} in the {self.phase} phase")
        seat = self._check_turn(seat, value)
        self.auction.bid(seat, value)
        state = self.auction._state
        outcome = state[A_OUTCOME]
        if outcome == AUCTION_OPEN:
            self.turn = state[A_TURN]
        elif outcome == AUCTION_VOID:
            self.phase, self.turn = REDEAL, None
        else:
            self.landlord, self.base = state[A_LANDLORD], state[A_BASE]
            self.hands[self.landlord] += self.bottom
            self._show_wild(True)
            if self.base_rules.landlord_draw and self.base_rules.bottom_cards == 0:
                self.phase, self.turn = DRAWING, _next_seat(self.landlord, self.seats)
            else:
                self._after_auction()

    def _resolve(self, play, seat: int) -> Play:
        """Turn the argument of :meth:`play` into a Play legal here (or raise)."""
        prev = 0 if self.last_play is None else self.last_play.kind
        if isinstance(play, Play):
            if play.is_pass:
                return play
            if play.kind not in _kinds(play.cards, self._flags, self.hands[seat]):
                raise IllegalAction(E_NOT_A_COMBINATION, f"seat {seat} played {_text(play, self._flags)}: not a "
                                                         f"legal play under {self._rules_text()} rules")
            cards, fixed = play.cards, play.kind
            text = play.notation(self._flags)
        elif isinstance(play, str):
            text = play.strip()
            if text in ("", "-") or text.lower() in ("pass", "p"):
                return Play.pass_()
            fixed = None
            try:
                cards = play_text_cards(text, self.base_rules.decks)
            except PlayError:
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {text!r}: too many cards of one rank") from None
            except CardError as exc:
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {text!r}: {exc}") from None
            if has_fixed_reading(text):
                try:
                    fixed = Play.parse(text, self.rules, self.hands[seat]).kind
                except PlayError:
                    fixed = -1
        elif isinstance(play, int) and not isinstance(play, bool):
            if play == 0:
                return Play.pass_()
            if not is_valid_packed(play, self.base_rules.decks):
                raise IllegalAction(E_BAD_CARDS, f"seat {seat} played {play:#x}: not a set of cards")
            cards, fixed, text = play, None, format_cards(play)
        else:
            raise TypeError(f"a play is a Play, card text or a packed int, not {type(play).__name__}")
        if not _contains(self.hands[seat], cards):
            raise IllegalAction(E_NOT_IN_HAND, f"seat {seat} played {text} but holds {self.hand(seat)}")
        if fixed == -1 or (fixed is None and not _kinds(cards, self._flags, self.hands[seat])):
            raise IllegalAction(E_NOT_A_COMBINATION, f"seat {seat} played {text}: not a legal play under "
                                                     f"{self._rules_text()} rules")
        if fixed is not None:
            if prev and not beats(fixed, prev, self._flags):
                raise IllegalAction(E_DOES_NOT_BEAT, f"seat {seat} played {text}, which does not beat "
                                                     f"{_text(self.last_play, self._flags)}")
            return Play(cards, fixed)
        kind = _choose(cards, prev, self._flags, self.hands[seat])
        if kind is None:
            raise IllegalAction(E_DOES_NOT_BEAT, f"seat {seat} played {text}, which does not beat "
                                                 f"{_text(self.last_play, self._flags)}")
        return Play(cards, kind)

    def _rules_text(self) -> str:
        wild = f" with {self.rules.wild_text()} wild" if self.rules.wild else ""
        return self.rules.describe() + wild

    def play(self, play, seat: "int | None" = None) -> Play:
        """Play for the seat to move: a :class:`Play`, card text (``""`` or
        ``pass`` passes; ``333444-56`` fixes a reading) or a packed int (0
        passes).  Returns the play as read."""
        if self.phase != PLAYING:
            if self.phase == FINISHED:
                raise IllegalAction(E_FINISHED, f"{_text(play)} was played after the game ended")
            raise IllegalAction(E_NOT_PLAYING, f"{_text(play)} was played in the {self.phase} phase")
        seat = self._check_turn(seat, play)
        p = self._resolve(play, seat)
        kind = p.kind
        prev_kind = 0 if self.last_play is None else self.last_play.kind
        if kind == 0:       # a pass
            if not _may_pass(prev_kind):
                raise IllegalAction(E_PASS_ON_LEAD, f"seat {seat} passed but must lead (nothing to answer)")
            self.plays.append((seat, p))
            self.passes += 1
            if _trick_after(0, seat, prev_kind, self.last_seat, self.seats)[0] == 0:
                self.last_play, self.passes = None, 0
            self.turn = _next_seat(seat, self.seats)
            return p
        self.plays.append((seat, p))
        self.hands[seat] -= p.cards
        self.played[seat] += 1
        d = _stake_doublings(kind, self._flags)
        if d:
            self.bombs += 1
            self.doublings += d
        self.last_play, self.last_seat, self.passes = p, seat, 0     # trick_after of a play
        if self.hands[seat] == 0:
            self._finish(seat)
        else:
            self.turn = _next_seat(seat, self.seats)
        return p

    def pass_(self, seat: "int | None" = None) -> None:
        """Pass for the seat to move."""
        self.play(Play.pass_(), seat)

    def bottom_bonus_now(self) -> int:
        """The bottom bonus (``bottom_bonus=table``; 1 when off or without a bottom)."""
        if not self.bottom:
            return 1
        return _bottom_bonus(self.base_rules.stage_flags, self.bottom, self._flush or 0)

    def _finish(self, winner: int) -> None:
        farmers = [s for s in range(self.seats) if s != self.landlord]
        r = self.base_rules
        bonus = self.bottom_bonus_now()
        self.result = score(self.landlord, winner, self.base, self.bombs, self.played[self.landlord],
                            [self.played[s] for s in farmers], self.rules.spring, self.doublings,
                            self.show_multiple, bonus, tuple(d or 1 for d in self.doubles), r.doubling,
                            r.has_stages)
        self.phase, self.turn = FINISHED, None

    def __repr__(self) -> str:
        return (f"<Game {self.phase} turn={self.turn} landlord={self.landlord} "
                f"hands={[self.hand(s) for s in range(self.seats)]}>")


def _text(play, flags: int = 0) -> str:
    if isinstance(play, Play):
        return play.notation(flags)
    if isinstance(play, int) and not isinstance(play, bool):
        return format_cards(play) if play >= 0 else repr(play)
    return repr(play) if not isinstance(play, str) else (play or "pass")


def random_game(seed: int, rules: "Rules | str | None" = None, first_bidder: "int | None" = None,
                all_pass: str = "redeal", pass_prob: float = 0.3) -> Game:
    """Play one whole hand with uniformly random legal actions (for tests and
    benchmarks): random bids (redealing while everyone passes), random draws
    and doubles where the rules have them, the landlord showing at his first
    play one time in two where shows are played, then a random legal play, or
    a pass with probability ``pass_prob`` when answering.

    >>> g = random_game(5)
    >>> g.phase, sum(g.result.scores)
    ('finished', 0)
    >>> g = random_game(5, "happy")
    >>> g.phase, sum(g.result.scores), len(g.state().doubles)
    ('finished', 0, 3)
    """
    rng = random.Random(seed)
    g = Game(rules=rules, first_bidder=first_bidder, all_pass=all_pass, rng=rng)
    while g.phase != PLAYING:
        if g.phase == REDEAL:
            g.redeal()
        elif g.phase == DRAWING:
            g.draw()
        elif g.phase == DOUBLING:
            g.double(rng.choice(g.legal_doubles()))
        else:
            g.bid(rng.choice(g.legal_bids()))
    if g.base_rules.show != "off" and rng.random() < 0.5:
        g.show("first-play", g.landlord)
    while g.phase == PLAYING:
        options = g.legal_plays()
        if g.last_play is not None and (len(options) == 1 or rng.random() < pass_prob):
            g.pass_()
        else:
            plays = options[1:] if g.last_play is not None else options
            g.play(rng.choice(plays))
    return g
