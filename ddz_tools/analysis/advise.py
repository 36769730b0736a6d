"""The advisor: the best play when the other hands are hidden.

A *view* is what one player knows at his turn: his own cards, the bottom (public
after the auction), every play so far (or only how many cards each seat holds),
and the play he must answer.  :func:`advise` draws deals of the hidden cards
consistent with the view, scores every legal candidate (and the pass when
answering) on the same deals and recommends the one that wins most often
(perfect-information Monte Carlo, as bridge programs do).

Views
-----
Three forms, all :class:`View` objects (seats ``landlord``, ``farmer1``,
``farmer2`` in turn order, and ``farmer3`` under four-player rules, or ``me``
and ``opponent`` in the two-player form):

* history: ``hand``, ``seat``, ``bottom`` and ``played`` (every play so far in
  order, ``"landlord:333-4,farmer1:pass,..."``); ``hand`` may be the seat's
  cards now or its cards before the first play (17, or the landlord's 20 with
  the bottom; four players 25, or 33).  Under four-player rules the bottom is
  hidden from the farmers, so only the landlord's view takes ``bottom``.  The
  plays are replayed through :class:`~ddz_tools.engines.game.Game` (every turn, trick
  and reading rule is the game's), which gives the trick to answer and the
  cards left in each hand.  With no plays it is the game
  start, the landlord's first lead (:func:`game_start`; :func:`build_view`
  and ``ddz-view/1`` take a seat and its dealt cards alone that way);
* counts: ``hand``, ``seat``, ``counts`` (cards held now, landlord first),
  ``after``/``by`` (the play to answer and who made it, none for a lead) and
  optionally ``unseen`` (the cards the others hold together);
* two-player: ``hand``, ``unseen`` (the opponent holds exactly these) and
  ``after`` (the opponent's play to answer); nothing is hidden.  It is an
  endgame of one deck: not under four-player rules.

The seats, the cards each holds before the first play, the deck and who sees
the bottom come from the rules (:func:`seats_of`, :attr:`Rules.seats
<ddz_tools.core.rules.Rules.seats>`, :attr:`~ddz_tools.core.rules.Rules.decks`).

:func:`view_from_record` gives the view of the player to move before move
``N`` (numbered from 1, passes included) of a recorded game.  Views read and write the
``ddz-view/1`` JSON Lines format (:meth:`View.from_json`, :meth:`View.to_json`),
documented in ``docs/advise.md``.

Sampling
--------
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
(:func:`start_cards`).  The drawn cards a view knows (the landlord both, a
farmer the one drawn from him: :attr:`View.draws`) are put in the
landlord's hidden hand as a known bottom is.  ``first-call`` bids are
calls and passes, checked by the heuristic's call rule on each seat's cards
before the auction; a draw the view does not know is drawn, for that check,
as one of the landlord's cards (:func:`_drawn_cards`).

Scoring
-------
Each deal is scored open-handed, every candidate on the same deal: by the
exact solver (:mod:`ddz_tools.engines.solver`) when the solver takes tables of that
many seats (:data:`SOLVER_SEATS`: two, three and four), the hands hold at
most ``exact_cards`` cards together and every candidate is proven within the
per-deal node budget ``nodes`` (one table per chunk of deals, cleared at its
start); otherwise by one heuristic playout per candidate (the
:mod:`ddz_tools.engines.policies` heuristic in every seat, three or four, from the
position after the candidate).  A candidate's *win* on a deal is 1 when this
seat's side wins, else 0; its *points* are this seat's score at the end of
the game (:meth:`View.deal_score`): won or lost by the win, with the stake
the heuristic playout after the candidate comes to (every bomb and rocket,
the candidate's included, and a spring or anti-spring when the playout's
winner is the deal's; solved deals are played out for this too).  A solved
deal on which every candidate has the same win is played out as well
(:data:`TIE_PLAYOUTS`): those playouts' wins break ties.

Statistics and stopping
-----------------------
``win_prob`` is the mean win with a Wilson interval, ``expected_score`` the
mean points with a normal interval.  Candidates are ranked by the objective
(``win``: ``win_prob``; ``score``: ``expected_score``), ties by the other
figure (a difference inside its paired interval counts as level), then by
the tie-break playouts, then by :func:`principle_key`.  Deals come in chunks
of :data:`CHUNK`; from :data:`MIN_SAMPLES` on, the run stops at a chunk
boundary once the best candidate is ahead of every other on the objective by
the paired test of ``ddz bid`` (:func:`ddz_tools.analysis.bid.settled`, Bonferroni
over candidates and looks).  Every draw depends only on the seed and the
sample index, chunks are fixed ranges and the stopping rule looks at whole
prefixes, so the answer is the same for any ``workers``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import time
from typing import Callable, Sequence

import numpy as np

from ..core._jit import interpreted, kernel
from .bid import mean_interval, normal_z, run_chunks, sample_key, seed_key, settled, shuffle, stop_z, wilson_interval
from ..core.cards import (NUM_RANKS, RANK_X, RANKS, card_count, counts_of, format_cards, full_deck, pack_counts,
                    parse_cards)
from ..core.errors import ArgumentError, DdzError, PlayError, PositionError, ViewError
from ..engines.game import ROLE_NAMES, Auction, Game, IllegalAction, seat_roles
from ..core.gamerules import DOUBLING_MODES, double_ok, multiplier, seat_settlement
from ..moves.movegen import generate
from ..engines.kernels import (BUFFER, min_plays_memo, must_call, new_table, next_seat, policy_bid, policy_call,
                      policy_double, policy_play, spring_silent, stake_doublings, trick_after)
from ..engines.policies import POLICIES, POLICY_HEURISTIC, seed_rng
from ..engines.position import Position, game_before_move
from ..core.rules import Play, Rules, play_on_table
from ..engines.solver import Solver

__all__ = [
    "ViewError", "View", "Candidate", "Advice", "advise", "history_view", "counts_view", "two_player_view",
    "view_from_record", "build_view", "game_start", "parse_played", "parse_bids", "sample_deals", "distinct_deals",
    "play_game", "simulate_advised", "AdvisorOptions", "SCHEMA", "THREE_SEATS", "FOUR_SEATS", "TWO_SEATS",
    "seats_of", "start_cards", "SOLVER_SEATS", "solver_scores",
]


SCHEMA = "ddz-view/1"
THREE_SEATS = ("landlord", "farmer1", "farmer2")
#: Four-player rules: the landlord and three farmers, in turn order.
FOUR_SEATS = ROLE_NAMES
TWO_SEATS = ("me", "opponent")

#: Seat counts of the tables whose deals the exact solver scores (when they
#: are small enough, :func:`advise`'s ``exact_cards``); a table not named here
#: is always scored by heuristic playouts.  The solver takes positions of two,
#: three and four seats (:class:`~ddz_tools.engines.position.Position`, the landlord
#: against three farmers under four-player rules, docs/solver.md), so every
#: table is named: a four-player deal of at most ``exact_cards`` cards is
#: solved within the same node budget as a three-player one, and played out
#: when the budget runs out.  This is the one place that decides it.
SOLVER_SEATS = (2, 3, 4)

#: Sample indices per chunk: the unit of work, of parallelism and of early stopping.
CHUNK = 16
#: No early stop before this many samples.
MIN_SAMPLES = 32
#: Default most samples of one decision.
DEFAULT_SAMPLES = 128
#: Default node budget of the exact solver per deal (all candidates together).
DEFAULT_NODES = 3000
#: Default: deals whose hands hold more cards than this together go straight to playouts.
DEFAULT_EXACT_CARDS = 24
#: Solved deals on which every candidate has the same value (all won or all lost
#: against perfect play) are also played out, and those playouts break ties in the ranking.
TIE_PLAYOUTS = True
#: Node budget when nothing is hidden (one deal, solved exactly if at all possible).
EXACT_NODES = 2_000_000

# The stake and settlement rules, called from Python (see gamerules).
_multiplier = interpreted(multiplier)
_seat_settlement = interpreted(seat_settlement)
_double_ok = interpreted(double_ok)


def seats_of(rules: Rules) -> tuple:
    """The seats of a table under ``rules``, in turn order from the landlord.

    >>> seats_of(Rules.parse("four"))
    ('landlord', 'farmer1', 'farmer2', 'farmer3')
    """
    return ROLE_NAMES[:rules.seats]


def start_cards(rules: Rules) -> tuple:
    """Cards each seat holds before the first play, landlord first (his include
    the bottom): (20, 17, 17), or (33, 25, 25, 25) under four-player rules;
    without a bottom (``notalon``) (18, 18, 18), or (20, 17, 17) when the
    landlord drew a card from each farmer (``landlord_draw=on``).

    >>> start_cards(Rules.parse("notalon,landlord_draw=on"))
    (20, 17, 17)
    """
    if _draws(rules):
        return (rules.hand_cards + 2,) + (rules.hand_cards - 1,) * (rules.seats - 1)
    return (rules.landlord_cards,) + (rules.hand_cards,) * (rules.seats - 1)


def _draws(rules: Rules) -> bool:
    """Does the landlord draw a card from each farmer (``landlord_draw=on``, no bottom)?"""
    return rules.landlord_draw and rules.bottom_cards == 0


def _bottom_public(rules: Rules) -> bool:
    """Does every seat see the bottom once the auction is over?  In the
    three-player game the landlord shows it; under four-player rules it stays
    hidden from the farmers (docs/rules.md): only the landlord's view has it."""
    return not rules.is_four


def solver_scores(view: "View") -> bool:
    """Are the deals of ``view`` scored by the exact solver (when small
    enough), or always played out?  By the table's seats: see :data:`SOLVER_SEATS`.

    >>> solver_scores(counts_view("KQ6", "farmer1", "3,3,2,2", rules="four"))
    True
    """
    return view.players in SOLVER_SEATS


_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four"}
_SHORT = {"landlord": "L", "farmer1": "F1", "farmer2": "F2", "farmer3": "F3"}


def _deck(rules: Rules) -> list:
    """Cards of each rank in the deck (or decks) of ``rules``."""
    return counts_of(full_deck(rules.decks))


def _or_list(names) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}"


# Views --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class View:
    """What the player to move knows (see the module doc); build it with
    :func:`history_view`, :func:`counts_view`, :func:`two_player_view`,
    :func:`view_from_record` or :meth:`from_dict`.

    ``counts`` are the cards each seat holds now (turn order), ``pool`` the
    packed cards the hidden hands are drawn from (exactly their union when
    ``pool_exact``), ``must`` per seat the cards it surely holds, ``played``
    the history as ``(seat, Play)`` pairs and ``bids`` the auction as
    ``(seat, bid)`` pairs in order, 0 a pass (both empty in the other forms;
    ``bids`` also when not given).
    """

    form: str                    # "history", "counts" or "two-player"
    rules: Rules
    seat: str
    hand: int
    counts: tuple
    pool: int
    pool_exact: bool
    must: tuple
    last_play: "Play | None" = None
    last_by: "str | None" = None
    bottom: "int | None" = None
    played: tuple = ()
    base: int = 1
    bombs: int = 0
    id: "str | None" = None
    bids: tuple = ()
    #: Happy Dou Dizhu: the public multiple of the stages before the play
    #: (the shows and the bottom bonus), the seats' doubles in turn order
    #: (landlord, farmer1, farmer2; empty when nobody doubled) and the seats
    #: whose hands are shown (public: the view knows them exactly).
    stage: int = 1
    doubles: tuple = ()
    shown: tuple = ()
    #: What the plays so far multiply the stake by, summed
    #: :func:`~ddz_tools.core.gamerules.stake_doublings` (history form: from the
    #: replay); None: one doubling per bomb or rocket of ``bombs``.
    doublings: "int | None" = None
    #: ``landlord_draw=on``: the cards the landlord drew that this view knows,
    #: ``(farmer, packed card)`` pairs (the landlord knows both, a farmer the
    #: one drawn from him).
    draws: tuple = ()

    # Access ---------------------------------------------------------------------

    @property
    def seats(self) -> tuple:
        return TWO_SEATS if self.form == "two-player" else seats_of(self.rules)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def me(self) -> int:
        return self.seats.index(self.seat)

    @property
    def is_lead(self) -> bool:
        return self.last_play is None

    @property
    def stake(self) -> int:
        """The public stake if the game ended now: what one farmer settles
        with the landlord before the doubles."""
        return self.base * self.stage * _multiplier(self.bombs if self.doublings is None else self.doublings, 0, 0)

    def win_score(self) -> int:
        """This seat's score if its side won now (it loses as much otherwise):
        the stake settled with the doubles as the rules' ``doubling`` says;
        four players (no doubles): each farmer settles the stake with the
        landlord, who wins or loses three stakes (:func:`~ddz_tools.core.gamerules.seat_settlement`)."""
        return _seat_settlement(self.me, 0, self.me == 0, self.stake, self.players,
                                DOUBLING_MODES[self.rules.doubling], self.doubles or (1,) * self.players, 0)

    def deal_score(self, won: bool, doublings: int = 0, spring: int = 0, anti_spring: int = 0) -> int:
        """This seat's score when the game ends with its side winning (``won``)
        or losing, the plays from now on having added ``doublings`` (summed
        :func:`~ddz_tools.core.gamerules.stake_doublings`) and ending in a spring or
        anti-spring (0 or 1 each): the whole stake, settled as
        :meth:`win_score` settles the stake of now.  The two-player form
        scores 1 a win and -1 a loss."""
        if self.players == 2:
            return 1 if won else -1
        before = self.bombs if self.doublings is None else self.doublings
        stake = self.base * self.stage * _multiplier(before + doublings, spring, anti_spring)
        landlord_won = won == (self.me == 0)
        return _seat_settlement(self.me, 0, landlord_won, stake, self.players, DOUBLING_MODES[self.rules.doubling],
                                self.doubles or (1,) * self.players, 0)

    def spring_start(self) -> np.ndarray:
        """``[0, landlord's plays, bits of the farmers who played]`` so far, for
        the spring of a playout (:func:`_playout_candidates`).  The history
        form counts the plays; the counts form knows only whether a farmer
        still holds all his cards (then he has not played) and counts the
        landlord's plays as 0 before his first lead, else as 2 (so no
        anti-spring: it cannot tell one play from more)."""
        start = start_cards(self.rules)
        out = np.zeros(3, np.int64)
        if self.form == "history":
            for s, p in self.played:
                if p.is_pass:
                    continue
                k = self.seats.index(s)
                if k == 0:
                    out[1] += 1
                else:
                    out[2] |= 1 << k
        elif self.form == "counts":
            out[1] = 0 if self.counts[0] == start[0] else 2
            for k in range(1, self.players):
                if self.counts[k] != start[k]:
                    out[2] |= 1 << k
        return out

    def candidates(self) -> list:
        """Every legal play of this hand here (the pass first when answering)."""
        moves = list(generate(self.hand, self.last_play, self.rules))
        return ([] if self.last_play is None else [Play.pass_()]) + moves

    def describe(self) -> str:
        """One line for humans."""
        counts = ", ".join(f"{s} {n}" for s, n in zip(self.seats, self.counts))
        what = "leads" if self.last_play is None else f"answers {self.last_play.notation()} by {self.last_by}"
        return f"{self.seat} holds {format_cards(self.hand)} ({counts} cards); {what}"

    # ddz-view/1 --------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The ``ddz-view/1`` object of this view (its own form, canonical text)."""
        d = {"schema": SCHEMA, "id": self.id, "rules": self.rules.describe()}
        if self.form == "two-player":
            d.update(seat=None, hand=format_cards(self.hand), unseen=format_cards(self.pool),
                     after=_text(self.last_play))
            return d
        d.update(seat=self.seat, hand=format_cards(self.hand),
                 bottom=None if self.bottom is None else format_cards(self.bottom))
        if self.form == "history":
            d["played"] = [f"{s}:{p.notation(self.rules) if not p.is_pass else 'pass'}" for s, p in self.played]
            if self.bids:
                d["bids"] = [f"{s}:{b or 'pass'}" for s, b in self.bids]
            if self.shown:
                d["shown"] = {s: format_cards(self.must[self.seats.index(s)]) for s in self.shown}
            if self.doubles:
                d["doubles"] = list(self.doubles)
            if self.draws:
                d["draws"] = {s: format_cards(c) for s, c in self.draws}
            if self.stage != 1:
                d["stage_multiple"] = self.stage
        else:
            d.update(counts=list(self.counts), after=_text(self.last_play), by=self.last_by,
                     unseen=format_cards(self.pool) if self.pool_exact else None, bombs=self.bombs)
        d["base"] = self.base
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict, rules=None) -> "View":
        """A view from a parsed ``ddz-view/1`` object (the form follows from its
        keys); ``rules`` serve when the object names none."""
        if not isinstance(d, dict):
            raise ViewError(f"a view must be a JSON object, not {type(d).__name__}")
        if d.get("schema") != SCHEMA:
            raise ViewError(f"schema must be {SCHEMA!r}, not {d.get('schema')!r}")
        known = {"schema", "id", "rules", "seat", "hand", "bottom", "played", "counts", "after", "by",
                 "unseen", "base", "bombs", "bids", "shown", "doubles", "stage_multiple", "draws"}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ViewError(f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(known))})")
        if "hand" not in d:
            raise ViewError("missing key 'hand'")
        vid = d.get("id")
        vid = None if vid is None else str(vid)
        rules = d.get("rules") if d.get("rules") is not None else rules
        if d.get("seat") is None:
            for key in ("played", "counts", "bottom", "by", "bids"):
                if d.get(key) is not None:
                    raise ViewError(f"a two-player view (no seat) takes hand, unseen and after, not {key!r}")
            if d.get("unseen") is None:
                raise ViewError("a two-player view (no seat) needs 'unseen': the opponent's cards")
            return two_player_view(d["hand"], d["unseen"], d.get("after"), rules=rules, id=vid)
        if d.get("played") is None and d.get("counts") is None:   # the game start, or an error saying what is missing
            _check_start(d["hand"], d["seat"], d.get("bottom"),
                         {k: d.get(k) for k in ("after", "by", "unseen", "bombs")}, rules)
            d = dict(d, played=[])
        if d.get("played") is not None:
            for key in ("counts", "after", "by", "unseen", "bombs"):
                if d.get(key) is not None:
                    raise ViewError(f"a view with 'played' takes no {key!r}: it follows from the plays")
            return history_view(d["hand"], d["seat"], d["played"], d.get("bottom"), rules=rules,
                                base=d.get("base"), id=vid, bids=d.get("bids"), shown=d.get("shown"),
                                doubles=d.get("doubles"), stage_multiple=d.get("stage_multiple", 1),
                                draws=d.get("draws"))
        for key in ("bids", "shown", "doubles", "stage_multiple", "draws"):
            if d.get(key) is not None:
                raise ViewError(f"{key!r} goes with 'played' (the history form), not with 'counts'")
        return counts_view(d["hand"], d["seat"], d["counts"], d.get("after"), d.get("by"), d.get("unseen"),
                           d.get("bottom"), rules=rules, base=d.get("base", 1), bombs=d.get("bombs", 0), id=vid)

    @classmethod
    def from_json(cls, text: str, rules=None) -> "View":
        """A view from one ``ddz-view/1`` JSON line."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ViewError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
        return cls.from_dict(d, rules)


def _text(play: "Play | None") -> "str | None":
    return None if play is None else play.notation()


def _cards(value, what: str, decks: int = 1) -> int:
    """Packed cards from card text (of ``decks`` decks), a packed int or a :class:`~ddz_tools.core.cards.Hand`."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if hasattr(value, "packed"):
        return int(value.packed)
    if not isinstance(value, str):
        raise ViewError(f"{what} must be card text, not {type(value).__name__}")
    try:
        return parse_cards(value, decks)
    except DdzError as exc:
        raise ViewError(f"{what}: {exc}") from None


def _rank_name(r: int) -> str:
    return {RANK_X: "small joker", RANK_X + 1: "big joker"}.get(r, RANKS[r])


def _check_deck(parts: Sequence, what: str, rules: Rules) -> None:
    """No rank held more often by ``parts`` together than the deck (or decks) of ``rules`` has."""
    deck = _deck(rules)
    total = [0] * NUM_RANKS
    for p in parts:
        total = [a + b for a, b in zip(total, counts_of(p))]
    for r in range(NUM_RANKS):
        if total[r] > deck[r]:
            decks = "deck has" if rules.decks == 1 else f"{rules.decks} decks have"
            raise ViewError(f"{what} hold {total[r]} x {_rank_name(r)}; the {decks} {deck[r]}")


def _sub(a: int, b: int) -> int:
    """``a - b`` rank by rank, never below zero."""
    return pack_counts(max(0, x - y) for x, y in zip(counts_of(a), counts_of(b)))


def _contains(big: int, small: int) -> bool:
    return all(x >= y for x, y in zip(counts_of(big), counts_of(small)))


def _rules(rules) -> Rules:
    return Rules.from_dict(rules) if isinstance(rules, dict) else Rules.parse(rules)


def _no_bottom(bot, rules: Rules) -> None:
    """A bottom given under rules that deal none is an error."""
    if bot is not None and rules.bottom_cards == 0:
        raise ViewError(f"rules {rules.describe()} deal no bottom: leave out bottom", param="bottom")


def _base(base) -> int:
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise ViewError(f"base must be a positive integer, not {base!r}")
    return base


def _seat_name(seat, seats: tuple = THREE_SEATS) -> str:
    if isinstance(seat, str) and seat.strip().lower() in seats:
        return seat.strip().lower()
    raise ViewError(f"seat must be one of {', '.join(seats)}, not {seat!r}")


def _seat_items(value, key: str, example: str, seats: tuple = THREE_SEATS) -> list:
    """``(index, item, seat, right)`` for each ``"seat:right"`` string or
    ``(seat, right)`` pair of ``value`` (text split on commas, or a list),
    each seat one of ``seats``; ``key`` names the list in errors."""
    if value is None:
        return []
    if isinstance(value, str):
        items = [x for x in (t.strip() for t in value.split(",")) if x]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise ViewError(f"{key} must be text or a list, not {type(value).__name__}")
    out = []
    what = key.rstrip("s").upper() if key != "played" else "PLAY"
    for i, item in enumerate(items):
        if isinstance(item, str):
            seat, sep, right = item.partition(":")
            if not sep:
                raise ViewError(f"{key}[{i}] {item!r} is not SEAT:{what} (e.g. {example})")
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            seat, right = item
        else:
            raise ViewError(f"{key}[{i}] must be 'SEAT:{what}', not {item!r}")
        seat = seat.strip().lower() if isinstance(seat, str) else seat
        if seat not in seats:
            raise ViewError(f"{key}[{i}] {item!r}: seat must be one of {', '.join(seats)}")
        out.append((i, item, seat, right))
    return out


def _table_seats(rules) -> tuple:
    """The seats under ``rules`` (a rule set, spec or ``ddz-record/1`` rules object; None: standard)."""
    return seats_of(Rules.from_dict(rules) if isinstance(rules, dict) else Rules.parse(rules))


def parse_played(played, rules=None) -> list:
    """The history as ``(seat, text)`` pairs from ``"landlord:333-4,farmer1:pass"``
    or a list of ``"seat:play"`` strings or ``(seat, play)`` pairs; the seats
    are those of ``rules`` (``farmer3`` too under four-player rules).

    >>> parse_played("landlord:333-4, farmer1:pass,farmer2:")
    [('landlord', '333-4'), ('farmer1', 'pass'), ('farmer2', 'pass')]
    """
    out = []
    for i, item, seat, text in _seat_items(played, "played", "landlord:333-4 or farmer1:pass",
                                           _table_seats(rules)):
        text = text.notation(rules) if isinstance(text, Play) else text   # under rules: a reading's suffix kept
        if not isinstance(text, str):
            raise ViewError(f"played[{i}]: the play must be text, not {type(text).__name__}")
        text = text.strip()
        out.append((seat, "pass" if text.lower() in ("", "pass", "p", "-") else text))
    return out


def parse_bids(bids, rules=None) -> list:
    """The auction as ``(seat, bid)`` pairs (0 a pass) from
    ``"farmer1:pass,farmer2:1,landlord:3"`` or a list of ``"seat:bid"``
    strings or ``(seat, bid)`` pairs; the seats are those of ``rules``.
    Under call-grab and first-call bidding a call or a grab is 1 (``call``,
    ``grab``).

    >>> parse_bids("farmer2:pass, landlord:3")
    [('farmer2', 0), ('landlord', 3)]
    >>> parse_bids("farmer1:pass,farmer2:pass,landlord:call", "notalon")
    [('farmer1', 0), ('farmer2', 0), ('landlord', 1)]
    """
    out = []
    for i, item, seat, value in _seat_items(bids, "bids", "farmer1:pass or landlord:2", _table_seats(rules)):
        if isinstance(value, str):
            value = value.strip().lower()
            value = (0 if value in ("pass", "p", "0") else int(value) if value in ("1", "2", "3")
                     else 1 if value in ("call", "grab") else value)
        if isinstance(value, bool) or value not in (0, 1, 2, 3):
            raise ViewError(f"bids[{i}] {item!r}: a bid is pass (0), 1, 2 or 3 (call or grab: 1)")
        out.append((seat, value))
    return out


def _replay_bids(bids: list, rules: Rules) -> Auction:
    """The auction of ``bids`` (seat 0 the landlord if all pass, as under Botzone's
    rule); an error unless it is complete and made the landlord seat the landlord."""
    seats = seats_of(rules)
    a = Auction(seats.index(bids[0][0]), rules.bidding, "seat0", seats=len(seats))
    for i, (seat, value) in enumerate(bids):
        try:
            a.bid(seats.index(seat), value)
        except IllegalAction as exc:
            raise ViewError(f"bids[{i}] {seat}:{value or 'pass'}: {_relabel(str(exc), seats)}") from None
    if not a.done:
        raise ViewError("the bids leave the auction unfinished")
    if a.landlord != 0:
        raise ViewError(f"the bids make {seats[a.landlord]} the landlord, not the landlord seat")
    return a


def _parse_draws(draws, rules: Rules, seats: tuple) -> list:
    """The landlord's draws a view knows (``landlord_draw=on``) as ``(farmer
    index, packed card)`` pairs, from ``{"farmer1": "K"}``,
    ``"farmer1:K,farmer2:5"`` or ``(farmer, card)`` pairs."""
    if draws is None or draws == {} or draws == "" or draws == [] or draws == ():
        return []
    if not _draws(rules):
        raise ViewError(f"draws: under rules {rules.describe()} the landlord draws no cards (landlord_draw=on "
                        f"without a bottom)", param="draws")
    items = list(draws.items()) if isinstance(draws, dict) else draws
    out = []
    for i, item, seat, card in _seat_items(items, "draws", "farmer1:K", seats):
        k = seats.index(seat)
        if k == 0:
            raise ViewError(f"draws[{i}] {item!r}: the landlord draws from the farmers, not from himself")
        if any(f == k for f, _ in out):
            raise ViewError(f"draws[{i}] {item!r}: the landlord draws one card from {seat}")
        c = _cards(card, f"draws[{i}]")
        if card_count(c) != 1:
            raise ViewError(f"draws[{i}] {item!r}: a draw is one card, not {card_count(c)}")
        out.append((k, c))
    return out


def history_view(hand, seat, played, bottom=None, rules=None, base: "int | None" = None,
                 id: "str | None" = None, bids=None, shown=None, doubles=None, stage_multiple=1,
                 draws=None) -> View:
    """The view of ``seat`` after the plays ``played`` (see :func:`parse_played`).

    ``hand`` is the seat's cards now, or before its first play (17 cards; the
    landlord's 20 with the bottom; four-player rules 25, the landlord's 33).
    Every play is replayed through
    :class:`~ddz_tools.engines.game.Game`: an illegal one is an error naming it, and
    so is a history after which it is not ``seat``'s turn.  ``bids`` (see
    :func:`parse_bids`), if known, is the auction: it must make the landlord
    seat the landlord, and its winning bid is the base (1 without bids).
    ``bottom`` (3 cards, or 8 under four-player rules, where only the
    landlord sees it) is the bottom, if known.
    Happy Dou Dizhu: ``shown`` maps the seats whose hands are public to the
    cards they hold now (the view knows them exactly), ``doubles`` gives the
    seats' factors in turn order (landlord, farmer1, farmer2) and
    ``stage_multiple`` the shows' multiple times the bottom bonus.
    Without a bottom (``notalon``) each seat starts with 18 cards; under
    ``landlord_draw=on`` the landlord with 20, the farmers with 17, and
    ``draws`` gives the cards he drew that this seat knows (``{"farmer1":
    "K"}``: the landlord knows both, a farmer the one drawn from him): like
    a public bottom, a known drawn card the landlord has not played is in
    his hand in every sampled deal.

    >>> v = history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass")
    >>> v.is_lead, v.counts, format_cards(v.hand)
    (True, (18, 15, 17), '3456789TJQKA2XD')
    """
    rules = _rules(rules)
    seats = seats_of(rules)
    n_seats = len(seats)
    start = start_cards(rules)
    decks = rules.decks
    auction = parse_bids(bids, rules)
    if auction:
        won = _replay_bids(auction, rules).base
        if base is not None and _base(base) != won:
            raise ViewError(f"base is {base}, but the bids make it {won}")
        base = won
    base = _base(1 if base is None else base)
    seat = _seat_name(seat, seats)
    me = seats.index(seat)
    history = parse_played(played, rules)
    mine = _cards(hand, "hand", decks)
    bot = None if bottom is None else _cards(bottom, "bottom", decks)
    _no_bottom(bot, rules)
    drawn = _parse_draws(draws, rules, seats)
    # The landlord's cards this view knows besides his plays: the bottom, or the draws it knows.
    known = bot if bot is not None else (sum(c for _, c in drawn) if drawn else None)
    if bot is not None and me != 0 and not _bottom_public(rules):
        raise ViewError(f"{seat} does not see the bottom: under {rules.describe()} rules only the landlord "
                        f"does (leave out bottom)", param="bottom")
    if bot is not None and card_count(bot) != rules.bottom_cards:
        raise ViewError(f"the bottom has {card_count(bot)} cards, not {rules.bottom_cards}")
    # What each seat played, as cards (the reading is the game's business below).
    from ..core.rules import play_text_cards

    deck = _deck(rules)
    played_by = [0] * n_seats
    for i, (s, text) in enumerate(history):
        if text == "pass":
            continue
        try:
            cards = play_text_cards(text, decks)
        except DdzError as exc:
            raise ViewError(f"played[{i}] {s}:{text}: {exc}") from None
        k = seats.index(s)
        if any(a + b > deck[r] for r, (a, b) in enumerate(zip(counts_of(played_by[k]), counts_of(cards)))):
            raise ViewError(f"the plays of {s} hold more cards of a rank than the deck has")
        played_by[k] += cards
    n_hand, n_mine = card_count(mine), card_count(played_by[me])
    if n_mine and n_hand == start[me] and _contains(mine, played_by[me]):
        original = mine
    elif n_hand == start[me] - n_mine:
        original = mine + played_by[me]
    else:
        raise ViewError(f"hand has {n_hand} cards, but {seat} holds {start[me] - n_mine} after playing "
                        f"{n_mine} (and held {start[me]} before the first play)")
    if me == 0 and bot is not None and not _contains(original, bot):
        raise ViewError(f"the bottom {format_cards(bot)} is not in the landlord's cards {format_cards(original)}")
    if me == 0 and drawn and not _contains(original, known):
        raise ViewError(f"the drawn cards {format_cards(known)} are not in the landlord's cards "
                        f"{format_cards(original)}", param="draws")
    # A deal consistent with what is known, for the game to replay the plays on.
    need = list(played_by)
    need[me] = original
    if me != 0 and known is not None:
        need[0] = pack_counts(max(a, b) for a, b in zip(counts_of(played_by[0]), counts_of(known)))
    if known is not None and me != 0:
        what = "the bottom" if bot is not None else "the drawn cards"
        _check_deck([original, known], f"{seat}'s cards and {what} (the landlord's)", rules)
    _check_deck(need, "the hands and the plays", rules)
    for s in range(n_seats):
        if card_count(need[s]) > start[s]:
            raise ViewError(f"{seats[s]} played {card_count(need[s])} cards"
                            f"{' (bottom included)' if s == 0 and bot is not None else ''}; "
                            f"a seat starts with {start[s]}")
    rest = [r for r, c in enumerate(counts_of(full_deck(decks) - sum(need))) for _ in range(c)]
    full = list(need)
    for s in range(n_seats):
        k = start[s] - card_count(full[s])
        for r in rest[:k]:
            full[s] += 1 << (4 * r)
        rest = rest[k:]
    # Without a bottom, any of the landlord's cards serve as the bottom for the replay.
    game_bottom = bot if bot is not None else sum(1 << (4 * r) for r in _ranks(full[0])[:rules.bottom_cards])
    deal = [full[0] - game_bottom] + full[1:]
    replay_rules = rules.play_only()
    gives = []
    if _draws(rules):
        # The deal before the draws: each farmer held the card the landlord drew
        # from him (known, or any other of the landlord's cards for the replay).
        spare = _ranks(_sub(full[0], known or 0))
        for f in range(1, n_seats):
            c = dict(drawn).get(f)
            if c is None:
                c = 1 << (4 * spare.pop())
            gives.append((f, c))
            deal[0] -= c
            deal[f] += c
        replay_rules = dataclasses.replace(replay_rules, landlord_draw=True)
    # Every seat passing makes seat 0 the landlord under every bidding option (Botzone's all-pass rule).
    g = Game(hands=deal, bottom=game_bottom, rules=replay_rules, first_bidder=0, all_pass="seat0")
    for _ in range(n_seats):
        g.bid(0)
    for f, c in gives:
        g.draw(c, seat=f)
    for i, (s, text) in enumerate(history):
        if g.phase != "playing":
            raise ViewError(f"played[{i}] {s}:{text}: the game was already over")
        try:
            g.play(text, seat=seats.index(s))
        except IllegalAction as exc:
            raise ViewError(f"played[{i}] {s}:{text}: {_relabel(str(exc), seats)}") from None
    if g.phase != "playing":
        raise ViewError(f"the game is over after these plays ({seats[g.result.winner_seat]} went out)")
    if g.turn != me:
        if not history:
            raise ViewError(f"before any play the landlord leads (the game start): {seat} is not to move; "
                            f"give played (every play so far) once it is {seat}'s turn", param="played")
        raise ViewError(f"after these plays it is {seats[g.turn]}'s turn, not {seat}'s")
    counts = tuple(card_count(h) for h in g.hands)
    pool = full_deck(decks) - g.hands[me] - sum(played_by)
    must = [0] * n_seats
    if me != 0 and known is not None:
        must[0] = _sub(known, played_by[0])
    shown_seats = []
    for name, cards in (shown or {}).items():
        s = seats.index(_seat_name(name, seats))
        if s == me:
            continue
        c = _cards(cards, f"shown {name}", decks)
        if card_count(c) != counts[s] or not _contains(pool, c):
            raise ViewError(f"shown {name}: {format_cards(c)} is not {counts[s]} cards of the unseen ones")
        if not _contains(c, must[s]):
            raise ViewError(f"shown {name}: {format_cards(c)} lacks the bottom cards the landlord still holds")
        must[s] = c
        shown_seats.append(seats[s])
    dbl = _doubles(doubles, rules)
    stage = _base(stage_multiple) if stage_multiple != 1 else 1
    plays = tuple((seats[s], p) for s, p in g.plays)
    last_by = None if g.last_play is None else seats[g.last_seat]
    return View("history", rules, seat, g.hands[me], counts, pool, True, tuple(must), g.last_play, last_by,
                bot, plays, base, g.bombs, id, tuple(auction), stage, dbl, tuple(shown_seats), g.doublings,
                tuple((seats[f], c) for f, c in sorted(drawn)))


def _doubles(doubles, rules: Rules) -> tuple:
    """The seats' doubles (landlord, farmer1, farmer2), checked against the rules; () for none."""
    if doubles is None or doubles == () or doubles == []:
        return ()
    seats = seats_of(rules)
    if not isinstance(doubles, (list, tuple)) or len(doubles) != len(seats):
        raise ViewError(f"doubles must be {_NUMBER[len(seats)]} factors ({', '.join(seats)}), not {doubles!r}")
    allowed = [f for f in (1, 2, 4) if _double_ok(rules.stage_flags, f)]
    for f in doubles:
        if isinstance(f, bool) or f not in allowed:
            raise ViewError(f"doubles: {f!r} is not one of {', '.join(map(str, allowed))} under {rules.describe()}")
    return tuple(int(f) for f in doubles)


def _relabel(message: str, seats: tuple = THREE_SEATS) -> str:
    for i, name in enumerate(seats):
        message = message.replace(f"seat {i}", name)
    return message


def counts_view(hand, seat, counts, after=None, by=None, unseen=None, bottom=None, rules=None,
                base: int = 1, bombs: int = 0, id: "str | None" = None) -> View:
    """The view of ``seat`` when only the card counts are known.

    ``counts``: cards held now by landlord, farmer1, farmer2 (and farmer3
    under four-player rules; ``"5,3,7"`` or a sequence); ``after``/``by``:
    the play to answer and its seat (both None for a lead); ``unseen``: the
    cards the others hold together, if known; ``bombs``: the bombs and
    rockets played so far that doubled the stake (x2 each).  ``bottom``
    under four-player rules only for the landlord, who alone sees it.

    >>> v = counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")
    >>> v.pool_exact, v.last_by, format_cards(v.pool)
    (True, 'farmer1', '3456789')
    """
    rules = _rules(rules)
    seats = seats_of(rules)
    start = start_cards(rules)
    base = _base(base)
    seat = _seat_name(seat, seats)
    me = seats.index(seat)
    mine = _cards(hand, "hand", rules.decks)
    form = f"{_NUMBER[len(seats)]} numbers {','.join(_SHORT[s] for s in seats)}"
    if isinstance(counts, str):
        try:
            counts = [int(x) for x in counts.split(",")]
        except ValueError:
            raise ViewError(f"counts must be {form}, not {counts!r}") from None
    counts = tuple(counts) if isinstance(counts, (list, tuple)) else counts
    if (not isinstance(counts, tuple) or len(counts) != len(seats)
            or any(isinstance(c, bool) or not isinstance(c, int) for c in counts)):
        raise ViewError(f"counts must be {form}, not {counts!r}")
    for s, c in enumerate(counts):
        if not 1 <= c <= start[s]:
            raise ViewError(f"{seats[s]} holds {c} cards: it must be 1..{start[s]}")
    if counts[me] != card_count(mine):
        raise ViewError(f"counts give {seat} {counts[me]} cards, but the hand has {card_count(mine)}")
    if isinstance(bombs, bool) or not isinstance(bombs, int) or bombs < 0:
        raise ViewError(f"bombs must be a non-negative integer, not {bombs!r}")
    play, by = _after(after, by, seat, rules, seats)
    table = play.cards if play is not None else 0
    bot = None if bottom is None else _cards(bottom, "bottom", rules.decks)
    _no_bottom(bot, rules)
    if bot is not None and me != 0 and not _bottom_public(rules):
        raise ViewError(f"{seat} does not see the bottom: under {rules.describe()} rules only the landlord "
                        f"does (leave out bottom)", param="bottom")
    if bot is not None and card_count(bot) != rules.bottom_cards:
        raise ViewError(f"the bottom has {card_count(bot)} cards, not {rules.bottom_cards}")
    _check_deck([mine, table], "the hand and the play to answer", rules)
    others = sum(c for s, c in enumerate(counts) if s != me)
    if unseen is not None:
        pool = _cards(unseen, "unseen", rules.decks)
        _check_deck([mine, table, pool], "the hand, the play to answer and the unseen cards", rules)
        if card_count(pool) != others:
            raise ViewError(f"unseen has {card_count(pool)} cards, but the other {_NUMBER[len(seats) - 1]} "
                            f"seats hold {others}")
        exact = True
    else:
        pool = full_deck(rules.decks) - mine - table
        if me == 0 and bot is not None:
            pool = _sub(pool, _sub(bot, mine))  # bottom cards no longer in my hand: I played them
        exact = card_count(pool) == others
        if card_count(pool) < others:
            raise ViewError(f"the other seats hold {others} cards, but only {card_count(pool)} are unaccounted for")
    return View("counts", rules, seat, mine, counts, pool, exact, (0,) * len(seats), play, by, bot, (), base,
                bombs, id)


def _after(after, by, seat, rules, seats=THREE_SEATS, default_by=None):
    """The play to answer and its seat (:func:`~ddz_tools.core.rules.play_on_table`), errors as :class:`ViewError`."""
    if isinstance(by, str):
        by = by.strip().lower()
    try:
        return play_on_table(after, by, seat, seats, rules, default_by=default_by)
    except PlayError as exc:
        raise ViewError(str(exc), param=exc.param) from None


def two_player_view(hand, unseen, after=None, rules=None, id: "str | None" = None) -> View:
    """Me against one opponent who holds exactly ``unseen``; ``after`` is his
    play to answer.  Nothing is hidden: :func:`advise` solves it exactly.
    An endgame of one deck: four-player rules are refused.

    >>> two_player_view("33JJQK2", "4455A").counts
    (7, 5)
    """
    rules = _rules(rules)
    if rules.is_four:
        raise ViewError(f"the two-player form (no seat) is an endgame of one deck, not of {rules.describe()} "
                        f"rules: give seat ({_or_list(seats_of(rules))})", param="seat")
    mine = _cards(hand, "hand")
    opp = _cards(unseen, "unseen")
    for what, h in (("hand", mine), ("unseen", opp)):
        if card_count(h) == 0:
            raise ViewError(f"{what} is empty: the game is already over")
        if card_count(h) > 20:
            raise ViewError(f"{what} has {card_count(h)} cards; at most 20 are possible")
    play, by = _after(after, None, "me", rules, TWO_SEATS, default_by="opponent")
    _check_deck([mine, opp] + ([play.cards] if play else []), "the hand, the unseen cards and the play to answer",
                rules)
    return View("two-player", rules, "me", mine, (card_count(mine), card_count(opp)), opp, True, (0, 0),
                play, by, None, (), 1, 0, id)


def build_view(hand, seat=None, bottom=None, played=None, counts=None, after=None, by=None, unseen=None,
               base: "int | None" = None, rules=None, id: "str | None" = None, bids=None, draws=None) -> View:
    """A view of any form from the ``ddz advise`` options (the form follows
    from which are given): ``seat`` and ``played``; ``seat`` and ``counts``;
    ``seat`` and neither, for the game start (see :func:`game_start`); or no
    ``seat`` (two-player, with ``unseen``).

    >>> v = build_view("3334456789TTJQKA22XD", seat="landlord")   # the landlord's first lead
    >>> v.is_lead, v.counts, v.played
    (True, (20, 17, 17), ())
    """
    if seat is None:
        for name, v in (("bottom", bottom), ("played", played), ("counts", counts), ("by", by), ("bids", bids),
                        ("draws", draws)):
            if v is not None:
                raise ViewError(f"{name} needs a seat (without one, the view is the two-player form)", param=name)
        if unseen is None:
            seats = _table_seats(rules)
            raise ViewError(f"without a seat the view is the two-player form, which needs unseen (the opponent's "
                            f"cards); give seat ({_or_list(seats)}) for the {_NUMBER[len(seats)]}-player game",
                            param=("unseen", "seat"))
        return two_player_view(hand, unseen, after, rules=rules, id=id)
    if played is None and counts is None:
        _check_start(hand, seat, bottom, {"after": after, "by": by, "unseen": unseen}, rules)
        played = []
    if played is not None:
        for name, v in (("counts", counts), ("after", after), ("by", by), ("unseen", unseen)):
            if v is not None:
                raise ViewError(f"{name} cannot go with played: it follows from the plays")
        return history_view(hand, seat, played, bottom, rules=rules, base=base, id=id, bids=bids, draws=draws)
    if bids is not None:
        raise ViewError("bids go with played (the history form), not with counts")
    if draws is not None:
        raise ViewError("draws go with played (the history form), not with counts", param="draws")
    return counts_view(hand, seat, counts, after, by, unseen, bottom, rules=rules,
                       base=1 if base is None else base, id=id)


def game_start(hand, seat: str = "landlord", bottom=None, rules=None, base: "int | None" = None,
               id: "str | None" = None, bids=None, draws=None) -> View:
    """The view before any play: ``seat`` holds ``hand``, its cards as dealt
    (the landlord's 20 with the bottom, a farmer's 17; four-player rules 33
    and 25), the others theirs and every other card is unseen.  It is the
    landlord's first lead, so only the landlord is to move: for a farmer
    (with ``bottom``, public after the auction) the error says it is not
    his turn.  ``bottom`` and ``bids``, if known, are used as in
    :func:`history_view` (which this is, with no plays).

    >>> game_start("3334456789TTJQKA22XD").describe()
    'landlord holds 3334456789TTJQKA22XD (landlord 20, farmer1 17, farmer2 17 cards); leads'
    """
    _check_start(hand, seat, bottom, {}, rules)
    return history_view(hand, seat, [], bottom, rules=rules, base=base, id=id, bids=bids, draws=draws)


def _check_start(hand, seat, bottom, others: dict, rules=None) -> None:
    """That ``hand`` with no plays and no counts is the game start: the seat's
    cards as dealt, and for a farmer the bottom where it is public; else the
    error saying what is missing (``others``: options that need counts, by name)."""
    for name, v in others.items():
        if v is not None:
            raise ViewError(f"{name} goes with counts (the cards each seat holds now)", param=(name, "counts"))
    rules = _rules(rules)
    seats = seats_of(rules)
    start = start_cards(rules)
    seat = _seat_name(seat, seats)
    me = seats.index(seat)
    n = card_count(_cards(hand, "hand", rules.decks))
    if n != start[me]:
        dealt = f"the {start[me]} of the game start" + (" (the bottom included)" if me == 0 else "")
        raise ViewError(f"{seat} holds {n} cards, not {dealt}: give played (every play so far) or counts "
                        f"(the cards each seat holds now)", param=("played", "counts"))
    # Under four-player rules a farmer never sees the bottom: history_view says whose turn it is.
    if me != 0 and bottom is None and _bottom_public(rules) and rules.bottom_cards > 0:
        raise ViewError(f"{seat}'s {n} cards with no history: the game start needs bottom (the landlord's "
                        f"{rules.bottom_cards} extra cards, public after the auction) or counts",
                        param=("bottom", "counts"))


def view_from_record(record, move: int = 1) -> View:
    """The view of the player to move before move ``move`` of a recorded game
    (numbered from 1, passes included, as ``ddz analyze`` and ``ddz solve
    --record --move`` number them: 1 is the landlord's first lead): a
    :class:`~ddz_tools.engines.records.Record`, a ``ddz-record/1`` dict or JSON line,
    of three or four seats.

    Only that player's cards are used; the bids, the base and the plays
    before ``move`` are public, and so is the bottom, but under four-player
    rules only the landlord sees it.
    """
    from ..engines.records import Record, parse_record

    rec = record if isinstance(record, Record) else parse_record(record)
    try:
        g = game_before_move(rec, move)     # the record's stages and plays before move, replayed
    except PositionError as exc:
        raise ViewError(str(exc)) from None
    if (move or 1) > len(rec.plays):     # a game still in play past its last recorded move: nothing to advise on
        raise ViewError(f"move {move}: the record has moves 1..{len(rec.plays)}")
    role = seat_roles(g.landlord, g.seats)                      # seat -> role
    turn_order = sorted(role, key=lambda s: (s - g.landlord) % g.seats)   # the seats from the landlord on
    to_move = role[g.turn]
    # Happy Dou Dizhu: the shown hands are public, the doubles and the stages' multiple are known.
    shown = {role[s]: format_cards(g.hands[s]) for s in g.shown if role[s] != to_move}
    doubles = [g.doubles[s] for s in turn_order] if all(d is not None for d in g.doubles) else None
    bottom = rec.bottom if to_move == "landlord" or _bottom_public(rec.rules) else None
    if rec.rules.bottom_cards == 0:
        bottom = None
    # The landlord knows the cards he drew; a farmer the one drawn from him.
    draws = [(role[f], c) for f, c in g.draws if to_move == "landlord" or role[f] == to_move]
    return history_view(g.hands[g.turn], to_move, [(role[s], p) for s, p in g.plays], bottom, rules=rec.rules,
                        base=g.base, id=None if rec.id is None else f"{rec.id}@{move}",
                        bids=[(role[s], v) for s, v in g.bids], shown=shown or None,
                        doubles=doubles, stage_multiple=g.show_multiple * g.bottom_bonus_now(), draws=draws or None)


# Sampling -------------------------------------------------------------------------------


def _ranks(packed: int) -> list:
    return [r for r, c in enumerate(counts_of(packed)) for _ in range(c)]


def _hidden(view: View) -> list:
    return [s for s in range(view.players) if s != view.me]


def distinct_deals(view: View, limit: int = 2) -> int:
    """How many different deals (as ranks) of the hidden cards fit the view,
    counted up to ``limit`` (1 means nothing is hidden)."""
    if view.players == 2:
        return 1
    hidden = _hidden(view)
    free = counts_of(_sub(view.pool, sum(view.must[s] for s in hidden)))
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


@dataclasses.dataclass(frozen=True)
class _AuctionCheck:
    """The bids of the hidden seats, for :func:`_bids_fit`: ``seats[j]`` bid
    ``values[j]`` when the highest bid was ``highs[j]``; ``played[s]`` is what
    seat ``s`` played and ``bottom`` the cards the landlord took that this
    view knows: the bottom, or the cards he drew (a seat's cards before the
    auction, 17, 18 or 25, are its hand now plus its plays, less those for
    the landlord, plus ``gave[s]``, the card he drew from it, for a farmer).
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
    bottom: int
    draw_bottom: bool = False
    bottom_cards: int = 0
    gave: tuple = ()
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
    draw_bottom = view.bottom is None and not _bottom_public(rules)
    no_bottom = rules.bottom_cards == 0
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
    gave = [0] * view.players
    known = view.bottom or 0
    hidden_draws = ()
    if _draws(rules):
        for seat, c in view.draws:
            gave[seats.index(seat)] = c
            known += c
        hidden_draws = tuple(f for f in range(1, view.players) if gave[f] == 0)
    return _AuctionCheck(seats_, values, highs, tuple(played), known, draw_bottom and ll_rows,
                         rules.bottom_cards, tuple(gave), hidden_draws, rules.bidding == "first-call",
                         rules.stage_flags)


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
    ranks = np.array(_ranks(cards), np.int64)
    shuffle(ranks, sample_key(key, _BOTTOM_STREAM))
    return [1 << (4 * int(r)) for r in ranks[:n]]


def _drawn_bottom(cards: int, n: int, key: int) -> int:
    """``n`` of the packed ``cards`` (the landlord's, the bottom among them)
    drawn uniformly (:func:`_drawn_cards`), as one packed set."""
    return sum(_drawn_cards(cards, n, key))


def _draw(view: View, start: int, count: int, seed: int, auction: bool = True, table=None):
    """(deals, draws, unfit) for sample indices ``start .. start+count-1``; see
    :func:`sample_deals`.  ``draws`` counts every deal drawn (rejected ones
    included), ``unfit`` the indices that fell back to their first draw."""
    key0 = seed_key(seed)
    hidden = _hidden(view)
    base = [0] * view.players
    base[view.me] = view.hand
    for s in hidden:
        base[s] = view.must[s]
    free = np.array(_ranks(_sub(view.pool, sum(view.must))), np.int64)
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
                    h17[s] = hands[s] + check.played[s] - (check.bottom if s == 0 else 0) + check.gave[s]
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
    return _draw(view, start, count, seed, auction)[0]


# Scoring -------------------------------------------------------------------------------


@kernel
def _play_on(hands, landlord, seat, prev_kind, prev_seat, flags, table, bufc, bufk, tally):
    """Heuristic play in every seat from ``seat`` to move (answering
    ``prev_kind`` by ``prev_seat``, 0 = lead) to the end; returns the seat
    that went out.  ``hands`` (one a seat: 3, or 4) is consumed.  ``tally``
    (int64[3]) counts on: ``[0]`` the plays' summed
    :func:`~ddz_tools.core.gamerules.stake_doublings`, ``[1]`` the landlord's
    plays, ``[2]`` bit ``s`` set once farmer ``s`` has played."""
    nseats = hands.shape[0]
    while True:
        c, k = policy_play(hands, seat, landlord, prev_kind, prev_seat, POLICY_HEURISTIC, flags, table, bufc, bufk)
        if k > 0:
            _tally_play(tally, seat, landlord, k, flags)
            hands[seat] -= c
            if hands[seat] == 0:
                return seat
        prev_kind, prev_seat = trick_after(k, seat, prev_kind, prev_seat, nseats)
        seat = next_seat(seat, nseats)


@kernel
def _tally_play(tally, seat, landlord, kind, flags):
    tally[0] += stake_doublings(kind, flags)
    if seat == landlord:
        tally[1] += 1
    else:
        tally[2] |= 1 << seat


@kernel
def _playout_candidates(hands, landlord, me, cand_c, cand_k, prev_kind, prev_seat, flags, table, bufc, bufk,
                        start, any_player, out, stake):
    """``out[i]`` = 1 when ``me``'s side wins the heuristic playout after
    candidate ``i``; ``hands`` one a seat (3, or 4 under four-player rules).

    ``stake[i]`` gets what the game's stake comes to by the end of that
    playout: ``[0]`` the doublings of the candidate and the plays after it
    (summed :func:`~ddz_tools.core.gamerules.stake_doublings`), ``[1]`` spring and
    ``[2]`` anti-spring (0 or 1, :func:`~ddz_tools.core.gamerules.spring_silent`
    with ``any_player``), counting the plays before the candidate that
    ``start`` gives: ``[1]`` the landlord's plays, ``[2]`` the bits of the
    farmers who played."""
    nseats = hands.shape[0]
    h = np.empty(nseats, np.int64)
    tally = np.empty(3, np.int64)
    for i in range(cand_c.shape[0]):
        for s in range(nseats):
            h[s] = hands[s]
        tally[0] = 0
        tally[1] = start[1]
        tally[2] = start[2]
        k = cand_k[i]
        if k > 0:
            h[me] -= cand_c[i]
            _tally_play(tally, me, landlord, k, flags)
        if h[me] == 0:
            winner = me
        else:
            pk, ps = trick_after(k, me, prev_kind, prev_seat, nseats)
            winner = _play_on(h, landlord, next_seat(me, nseats), pk, ps, flags, table, bufc, bufk, tally)
        same = (winner == landlord) == (me == landlord)
        out[i] = 1 if same else 0
        silent = nseats - 1
        for s in range(nseats):
            if s != landlord:
                silent -= (tally[2] >> s) & 1
        spring, anti = spring_silent(1 if winner == landlord else 0, tally[1], silent, nseats - 1, any_player)
        stake[i, 0] = tally[0]
        stake[i, 1] = spring
        stake[i, 2] = anti


def _team(view: View, s: int) -> int:
    return s if view.players == 2 else (0 if s == 0 else 1)


def _solve_deal(view: View, hands: tuple, cands: list, solver: Solver, nodes: int) -> "list | None":
    """1/0 per candidate by the exact solver, or None when the budget runs out;
    only for the tables the solver takes (:func:`solver_scores`)."""
    seats = view.seats
    me = view.me
    root = Position.build(dict(zip(seats, hands)), view.seat, view.last_play, view.last_by, view.rules)
    out = []
    spent = 0
    for p in cands:
        child = root.push(p)
        if child.is_over:
            out.append(1)
            continue
        left = nodes - spent
        if left < 1:
            return None
        r = solver.solve(child, line=False, node_limit=left)
        spent += r.nodes
        if r.result == "unknown":
            return None
        win = r.result == "win"
        out.append(int(win) if _team(view, seats.index(child.to_move)) == _team(view, me) else int(not win))
    return out


_free_work: list = []
_work_lock = threading.Lock()
#: Transposition table (MiB) of each worker's solver.
WORK_TT_MB = 16


def _take_work():
    with _work_lock:
        if _free_work:
            return _free_work.pop()
    return Solver(WORK_TT_MB), new_table(16), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def _give_work(work) -> None:
    with _work_lock:
        _free_work.append(work)


@dataclasses.dataclass
class _Plan:
    view: View
    cands: list
    cand_c: np.ndarray
    cand_k: np.ndarray
    nodes: int
    exact_cards: int
    seed: int
    auction: bool = True


def _deal_points(view: View, wins: np.ndarray, out: np.ndarray, stake: np.ndarray, memo: dict) -> np.ndarray:
    """This seat's points on one deal per candidate: its side wins by
    ``wins`` (the solver's or the playout's verdict), with the stake the
    playout came to (``stake``, see :func:`_playout_candidates`); a spring or
    anti-spring counts only where the playout's winner is the deal's."""
    pts = np.empty(len(wins), np.int64)
    for i in range(len(wins)):
        w = int(wins[i])
        same = w == int(out[i])
        key = (w, int(stake[i, 0]), int(stake[i, 1]) if same else 0, int(stake[i, 2]) if same else 0)
        v = memo.get(key)
        if v is None:
            v = memo[key] = view.deal_score(bool(key[0]), key[1], key[2], key[3])
        pts[i] = v
    return pts


def _score_chunk(plan: _Plan, start: int, count: int):
    """(wins[count, ncand], solved[count], draws, unfit, ties[count, ncand],
    points[count, ncand]) for deals ``start ..``: ``wins`` 1/0 by the solver
    where it proves every candidate, else by a heuristic playout; ``points``
    this seat's score (:func:`_deal_points`); ``ties`` the playout values of
    the solved deals on which every candidate has the same value (when
    :data:`TIE_PLAYOUTS`), else 0."""
    view = plan.view
    solver, table, bufc, bufk = work = _take_work()
    try:
        deals, draws, unfit = _draw(view, start, count, plan.seed, plan.auction, table)
        nc = len(plan.cands)
        wins = np.zeros((len(deals), nc), np.int64)
        ties = np.zeros((len(deals), nc), np.int64)
        points = np.zeros((len(deals), nc), np.int64)
        solved = np.zeros(len(deals), np.int64)
        prev_kind = view.last_play.kind if view.last_play is not None else 0
        prev_seat = view.seats.index(view.last_by) if view.last_by is not None else view.me
        spring0 = view.spring_start()
        any_player = 1 if view.rules.spring == "any-player" else 0
        out = np.zeros(nc, np.int64)
        stake = np.zeros((nc, 3), np.int64)
        memo: dict = {}
        solver.clear()
        for j, hands in enumerate(deals):
            values = None
            if plan.nodes > 0 and solver_scores(view) and sum(card_count(h) for h in hands) <= plan.exact_cards:
                values = _solve_deal(view, hands, plan.cands, solver, plan.nodes)
            if values is None and view.players == 2:
                raise ViewError("the two-player position was not solved within the node budget")
            if view.players > 2:
                _playout_candidates(np.array(hands, np.int64), 0, view.me, plan.cand_c, plan.cand_k, prev_kind,
                                    prev_seat, view.rules.flags, table, bufc, bufk, spring0, any_player, out, stake)
            if values is not None:
                wins[j] = values
                solved[j] = 1
                if TIE_PLAYOUTS and view.players > 2 and nc > 1 and min(values) == max(values):
                    ties[j] = out
            else:
                wins[j] = out
            points[j] = _deal_points(view, wins[j], out, stake, memo) if view.players > 2 else 2 * wins[j] - 1
    finally:
        _give_work(work)
    return wins, solved, draws, unfit, ties, points


# Results ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Candidate:
    """The figures of one candidate over the deals."""

    play: str
    win_prob: float
    win_ci: tuple
    expected_score: float
    solved: int
    played_out: int
    score_ci: tuple = (0.0, 0.0)

    def to_dict(self) -> dict:
        return {"play": self.play, "win_prob": round(self.win_prob, 6),
                "win_ci": [round(self.win_ci[0], 6), round(self.win_ci[1], 6)],
                "expected_score": round(self.expected_score, 6),
                "score_ci": [round(self.score_ci[0], 6), round(self.score_ci[1], 6)], "solved": self.solved,
                "played_out": self.played_out}


@dataclasses.dataclass(frozen=True)
class Advice:
    """The verdict of :func:`advise`: candidates best first."""

    view: View
    recommendation: str
    candidates: tuple
    samples: int
    samples_max: int
    exact: bool
    stopped_early: bool
    seconds: float
    seed: int
    draws: int = 0
    unfit: int = 0
    objective: str = "win"

    def to_dict(self) -> dict:
        return {"recommendation": self.recommendation, "objective": self.objective,
                "candidates": [c.to_dict() for c in self.candidates],
                "samples": self.samples, "samples_max": self.samples_max, "exact": self.exact,
                "stopped_early": self.stopped_early, "draws": self.draws, "unfit": self.unfit,
                "seconds": round(self.seconds, 4), "seed": self.seed,
                "rules": self.view.rules.describe(), "view": self.view.to_dict()}


def _controls_kept(hand: int) -> int:
    """The controls a hand keeps: its 2s and jokers, and one more for each
    bomb (a rank held four times or more, or both jokers)."""
    counts = counts_of(hand)
    bombs = sum(1 for c in counts[:RANK_X] if c >= 4) + (1 if counts[RANK_X] and counts[RANK_X + 1] else 0)
    return sum(counts[RANK_X - 1:]) + bombs


def principle_key(view: View, play: Play, table: "np.ndarray | None" = None) -> tuple:
    """The playing principle that orders candidates tied on every figure,
    smallest first: a farmer answering his partner passes first (he does
    not beat his partner's play); then the fewest plays left to empty the
    hand after the play (the decomposer's minimum), then the most controls
    kept (2s, jokers, bombs), then a play before the pass, then the lower
    play (its main rank, then its cards)."""
    table = new_table(12) if table is None else table
    rest = view.hand - (0 if play.is_pass else play.cards)
    left = int(min_plays_memo(rest, view.rules.flags, table)) if rest else 0
    partner = view.players > 2 and view.me != 0 and view.last_by is not None and view.last_by != view.seats[0]
    main = (play.kind >> 5) & 15
    return (0 if partner and play.is_pass else int(partner), left, -_controls_kept(rest), 1 if play.is_pass else 0,
            main, play.cards)


def _order(first: np.ndarray, second: np.ndarray, ties: "np.ndarray | None" = None,
           principle: "Callable[[int], tuple] | None" = None, z: "float | None" = None) -> list:
    """Candidates best first: the most ``first`` (the objective's total over
    the deals); among candidates tied on it, the most ``second`` (the other
    objective's).  With ``z``, a tied candidate whose ``second`` is not
    behind the leader's by the paired test of :func:`~ddz_tools.analysis.bid.settled`
    stays level with it: the level ones go first, by the most tie-break playout wins
    (``ties``), then by ``principle(i)`` (smallest first), then the index;
    without ``z`` only equal totals are level."""
    t1 = first.sum(axis=0)
    t2 = second.sum(axis=0)
    tb = ties.sum(axis=0) if ties is not None else np.zeros_like(t1)
    groups: dict = {}
    for i in range(first.shape[1]):
        groups.setdefault(-int(t1[i]), []).append(i)
    out = []
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda i: (-int(t2[i]), -int(tb[i]), i))
        lead = g[0]
        level = [i for i in g if int(t2[i]) == int(t2[lead])
                 or (z is not None and not settled(second[:, [lead, i]], z))]
        if len(level) > 1 and principle is not None:
            level.sort(key=lambda i: (-int(tb[i]), principle(i), i))
        else:
            level.sort(key=lambda i: (-int(tb[i]), i))
        out += level + [i for i in g if i not in level]
    return out


#: The advisor's objectives: the chance to win, or the expected points.
OBJECTIVES = ("win", "score")


def advise(view: View, samples: int = DEFAULT_SAMPLES, seed: int = 0, workers: "int | None" = 1,
           nodes: int = DEFAULT_NODES, exact_cards: int = DEFAULT_EXACT_CARDS, confidence: float = 0.95,
           early_stop: bool = True, progress: "Callable[[int, int], None] | None" = None,
           auction: bool = True, objective: str = "win") -> Advice:
    """The best play for the player to move of ``view`` (see the module doc).

    ``samples``: most deals drawn; ``nodes``: the exact solver's node budget
    per deal (0: playouts only); ``exact_cards``: deals whose hands hold more
    cards together go straight to playouts; ``auction``: draw only deals whose
    hidden hands would have bid as the view's bids say (see
    :func:`sample_deals`); ``objective``: ``win`` ranks the candidates by the
    chance to win, ``score`` by the expected points (each breaks its ties by
    the other, then by :func:`principle_key`); ``workers`` threads give the
    same answer as one.

    >>> a = advise(two_player_view("33JJQK2", "4455A"))   # every lead wins
    >>> a.exact, len(a.candidates), {c.win_prob for c in a.candidates}
    (True, 7, {1.0})
    >>> advise(two_player_view("JJ3", "KK4", after="9")).candidates[0].win_prob
    0.0
    """
    if not isinstance(view, View):
        raise ViewError(f"advise() takes a View, not {type(view).__name__}")
    for name, v, lo in (("samples", samples, 1), ("nodes", nodes, 0), ("exact_cards", exact_cards, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ViewError(f"{name} must be an integer >= {lo}, not {v!r}")
    if not 0.5 <= confidence < 1:
        raise ViewError(f"confidence must be in [0.5, 1), not {confidence!r}")
    if objective not in OBJECTIVES:
        raise ViewError(f"objective must be {_or_list(OBJECTIVES)}, not {objective!r}")
    t0 = time.perf_counter()
    cands = view.candidates()
    plan = _Plan(view, cands, np.array([p.cards for p in cands], np.int64),
                 np.array([p.kind for p in cands], np.int64), nodes, exact_cards, seed, auction)
    one = distinct_deals(view) == 1
    if one:
        plan.nodes = max(nodes, EXACT_NODES) if nodes > 0 else 0
        plan.exact_cards = view.rules.deck_size
        samples = 1
    workers = workers or 1
    n_chunks = -(-samples // CHUNK)
    looks = max(1, n_chunks - (MIN_SAMPLES - 1) // CHUNK)
    z = stop_z(confidence, max(1, len(cands) - 1), looks)
    parts: list = []
    by_score = objective == "score"

    def work(k: int):
        start = k * CHUNK
        return _score_chunk(plan, start, min(CHUNK, samples - start))

    def take(part) -> bool:
        parts.append(part)
        done = sum(len(p[0]) for p in parts)
        if progress is not None:
            progress(done, samples)
        if len(cands) == 1:
            return True
        if early_stop and done >= MIN_SAMPLES and done < samples:
            wins = np.concatenate([p[0] for p in parts])
            points = np.concatenate([p[5] for p in parts])
            first, second = (points, wins) if by_score else (wins, points)
            return settled(first[:, _order(first, second)], z)
        return False

    stopped = run_chunks(n_chunks, work, take, workers) and len(cands) > 1
    wins = np.concatenate([p[0] for p in parts])
    points = np.concatenate([p[5] for p in parts])
    solved = np.concatenate([p[1] for p in parts])
    n = len(wins)
    table = new_table(12)
    first, second = (points, wins) if by_score else (wins, points)
    order = _order(first, second, np.concatenate([p[4] for p in parts]),
                   lambda i: principle_key(view, cands[i], table), normal_z(confidence))
    n_solved = int(solved.sum())
    exact = one and n_solved == n
    out = []
    for i in order:
        k = int(wins[:, i].sum())
        p = k / n
        ci = (p, p) if exact else wilson_interval(k, n, confidence)
        mean, lo, hi = mean_interval(points[:, i], confidence)
        sci = (mean, mean) if exact else (lo, hi)
        out.append(Candidate(_play_name(cands[i], view.rules), p, ci, mean, n_solved, n - n_solved, sci))
    return Advice(view, out[0].play, tuple(out), n, samples, exact, stopped and n < samples,
                  time.perf_counter() - t0, seed, sum(p[2] for p in parts), sum(p[3] for p in parts), objective)


def _play_name(p: Play, rules: Rules) -> str:
    return "pass" if p.is_pass else p.notation(rules)


# Self-play with the advisor in some seats -------------------------------------------------

#: Play policies of :func:`play_game` (per role).
GAME_POLICIES = ("heuristic", "heuristic-solo", "random", "advisor")


@dataclasses.dataclass(frozen=True)
class AdvisorOptions:
    """The advisor's budget in self-play (see :func:`advise`)."""

    samples: int = DEFAULT_SAMPLES
    nodes: int = DEFAULT_NODES
    exact_cards: int = DEFAULT_EXACT_CARDS
    workers: int = 1
    auction: bool = True
    objective: str = "win"


def _decision_seed(seed: int, game: int, move: int) -> int:
    return sample_key(sample_key(seed_key(seed), game, 0x5EED), move)


def _policy_play(g: Game, seat: int, policy: str, rules: Rules, seed: "int | None", table, bufc, bufk) -> Play:
    """The play of ``policy`` (heuristic or random, seeded by ``seed``) for
    ``seat`` of the game ``g`` in play, at a table of any size: the kernel
    :func:`~ddz_tools.engines.policies.policy_play`, as :func:`ddz_tools.engines.policies.choose`
    calls it for three seats."""
    if seed is not None:
        seed_rng(int(seed))
    prev_kind = 0 if g.last_play is None else g.last_play.kind
    prev_seat = g.landlord if g.last_seat is None else g.last_seat
    c, k = policy_play(np.array(g.hands, np.int64), seat, g.landlord, prev_kind, prev_seat, POLICIES[policy],
                       rules.flags, table, bufc, bufk)
    return Play(int(c), int(k))


def play_game(index: int, seed: int = 0, landlord_policy: str = "heuristic", farmer_policy: str = "heuristic",
              rules=None, options: AdvisorOptions = AdvisorOptions(), stats: "dict | None" = None,
              agents: "dict | None" = None) -> dict:
    """One self-play game with a policy per role; its ``ddz-record/1`` dict.

    The deal is :func:`ddz_tools.engines.selfplay.deal_cards` of
    :func:`~ddz_tools.engines.selfplay.game_seed` ``(seed, index)`` (the deal of game
    ``index`` of ``ddz simulate --seed``), the first bidder is ``index % 3``
    (``index % 4`` under four-player rules) and every seat bids by the
    heuristic bid rule, or under call-grab and first-call bidding its call
    rule (if all pass, seat 0 is landlord with base 1); under
    ``landlord_draw=on`` the landlord draws a random card from each farmer
    (the game's generator, seeded by the game), and where the rules have
    doubles each seat doubles by the heuristic's rule.  Then each seat plays by its role's
    policy: ``heuristic`` or ``random`` (the kernel of :func:`ddz_tools.engines.policies.choose`) or
    ``advisor`` (:func:`advise` on the seat's own view: under four-player
    rules a farmer's view has no bottom), each seeded by the game and the move.
    The record's ``players`` name each seat's policy.  ``stats`` (a dict), if
    given, collects ``decisions`` and ``seconds`` of the advisor.  ``agents``
    maps a policy name to a callable ``(game, seat) -> Play`` for players from
    outside the package (a benchmark's peer); its name goes in the record.
    """
    from ..engines.records import record_from_game, record_to_dict
    from ..engines.selfplay import deal_cards, game_seed

    agents = agents or {}
    for name, pol in (("landlord_policy", landlord_policy), ("farmer_policy", farmer_policy)):
        if pol not in GAME_POLICIES and pol not in agents:
            raise ArgumentError(f"{name} must be one of {', '.join(GAME_POLICIES)}, not {pol!r}", param=name)
    rules = _rules(rules)
    n = rules.seats
    hands, bottom = deal_cards(game_seed(seed, index), rules=rules)
    g = Game(hands=hands, bottom=bottom, rules=rules, first_bidder=index % n, all_pass="seat0",
             rng=random.Random(game_seed(seed, index)))
    table, bufc, bufk = new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    calls = rules.bidding in ("call-grab", "first-call")
    while g.phase in ("bidding", "drawing", "doubling"):
        if g.phase == "drawing":
            g.draw()
        elif g.phase == "doubling":
            s = g.turn
            g.double(int(policy_double(g.hands[s], POLICY_HEURISTIC, rules.flags, rules.stage_flags,
                                       int(s == g.landlord), table)))
        elif calls:
            a = g.auction
            level = 0 if a.caller is None else 1 + a.grabs
            v = int(policy_call(g.hands[g.turn], POLICY_HEURISTIC, rules.flags, level, table))
            g.bid(v if v in g.legal_bids() else 1)      # a seat that must call calls
        else:
            g.bid(int(policy_bid(g.hands[g.turn], POLICY_HEURISTIC, rules.flags, g.auction.high, table)))
    if g.phase != "playing":
        raise RuntimeError(f"game {index}: the bidding did not make a landlord")  # all_pass="seat0" always does
    ll = g.landlord
    name = seat_roles(ll, n)
    pols = [landlord_policy if s == ll else farmer_policy for s in range(n)]
    move = 0
    while g.phase == "playing":
        s = g.turn
        if pols[s] in agents:
            p = agents[pols[s]](g, s)
        elif pols[s] != "advisor":
            p = _policy_play(g, s, pols[s], rules, _decision_seed(seed, index, move) if pols[s] == "random" else None,
                             table, bufc, bufk)
        else:
            history = [(name[t], q) for t, q in g.plays]
            view = history_view(g.hands[s], name[s], history,
                                bottom if (s == ll or _bottom_public(rules)) and rules.bottom_cards else None,
                                rules=rules, bids=[(name[t], v) for t, v in g.bids],
                                draws=[(name[f], c) for f, c in g.draws if s == ll or f == s] or None,
                                doubles=[g.doubles[t] for t in sorted(range(n), key=lambda t: (t - ll) % n)]
                                if rules.doubling != "off" else None,
                                stage_multiple=g.show_multiple * g.bottom_bonus_now())
            cands = view.candidates()
            if len(cands) == 1:
                p = cands[0]
            else:
                t0 = time.perf_counter()
                a = advise(view, samples=options.samples, seed=_decision_seed(seed, index, move),
                           workers=options.workers, nodes=options.nodes, exact_cards=options.exact_cards,
                           auction=options.auction, objective=options.objective)
                p = Play.pass_() if a.recommendation == "pass" else Play.parse(a.recommendation, rules)
                if stats is not None:
                    stats["decisions"] = stats.get("decisions", 0) + 1
                    stats["seconds"] = stats.get("seconds", 0.0) + time.perf_counter() - t0
        g.play(p, seat=s)
        move += 1
    rec = record_to_dict(record_from_game(g, id=f"advised-{seed}-{index}", players=pols))
    return rec


def simulate_advised(games: int, seed: int = 0, landlord_policy: str = "heuristic",
                     farmer_policy: str = "heuristic", rules=None, options: AdvisorOptions = AdvisorOptions(),
                     start: int = 0, progress: "Callable[[int, int], None] | None" = None):
    """Yield the records of games ``start .. start+games-1`` of :func:`play_game`."""
    for k in range(games):
        yield play_game(start + k, seed, landlord_policy, farmer_policy, rules, options)
        if progress is not None:
            progress(k + 1, games)
