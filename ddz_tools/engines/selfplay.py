"""Self-play: whole games (deal, bidding, play, scoring) inside Numba kernels.

A game
------
1. Deal: the 54 cards are shuffled by Numba's generator, seeded once per game
   (``np.random.seed`` inside the kernel) with a seed derived from the run
   seed and the game's index (:func:`game_seed`), so a game's outcome does not
   depend on batching or on the number of workers.  Seat 0 gets the first 17
   cards of the shuffled deck, seat 1 the next 17, seat 2 the next 17, and the
   last 3 are the bottom; with no bottom (``notalon``) 18 cards each.  The
   card ids 0..53 are shuffled (rank ``id // 4``, 52 and 53 the jokers, suit
   ``id % 4``) with the same swaps that once shuffled ranks, so the hands of
   a seed never changed; the suits matter only to ``bottom_bonus=table``
   (a flush bottom).
2. Shows before the auction (``show`` not ``off``): stage by stage (before the
   deal, after each card dealt) each seat in turn from the first bidder may
   show its hand (:func:`~ddz_tools.engines.policies.policy_show`).  Neither policy
   does; the landlord's show at his first play is the one they use (step 6).
3. Bidding by the auction of :mod:`ddz_tools.core.gamerules`, each seat from its
   policy's own bid rule (:func:`ddz_tools.engines.policies.policy_bid`):
   ``bidding=single-round`` (one
   round, a bid must beat every earlier bid, 3 ends it) or
   ``bidding=until-two-pass`` (round after round, a player who passed is out,
   until two players have passed or someone bids 3) or ``bidding=call-grab``
   (a first call in turn order, then each later seat of the round may grab
   once and, if anyone grabbed, the caller once more; base 2 ** grabs; the
   last to call or grab is landlord; see :func:`~ddz_tools.engines.policies.policy_call`) or
   ``bidding=first-call`` (one round of pass or call, the first call ends it
   at base 1; a seat calls when its bid rule would bid).  Under ``must_call``
   a seat whose hand forces a call calls where its policy would pass.  The
   first bidder is random (``first_bidder=random``) or left of a dealer who
   rotates with the game index (``first_bidder=left-of-dealer``: game ``i``
   has dealer ``i % 3``).  If all pass the cards are dealt again from the
   same generator (the shows of the void deal are void) and the next player
   starts; after :data:`MAX_REDEALS` all-pass deals in a row the last deal is
   played with its first bidder as landlord at base 1 (as Botzone does at
   once).
4. The landlord takes the bottom; under ``landlord_draw=on`` with no bottom
   he draws one card at random from each farmer, first the one on his left
   (:func:`~ddz_tools.core.gamerules.draw_card`).
5. Doubling (``doubling`` not ``off``): the farmers from the landlord's left,
   then the landlord, each x1, x2 or (``super_double=on``) x4
   (:func:`~ddz_tools.engines.policies.policy_double`).
6. Play from the landlord's lead to the first empty hand, each seat by its
   policy (:func:`ddz_tools.engines.policies.policy_play`), turn and trick by
   :func:`ddz_tools.core.gamerules.trick_after`.  Before his first play the
   landlord may show his hand (``show`` not ``off``, if he has not shown).
7. Scoring by :mod:`ddz_tools.core.gamerules` (docs/rules.md): the public multiple
   is the show multiple (the shows merged by ``show_merge``; 1 if none) x
   the bottom bonus x 2 per bomb or rocket x 2 for a spring x 2 for an
   anti-spring; the public stake is the base (the winning bid; ``2 **
   grabs`` under call-grab) x the public multiple, and each farmer settles
   it with the landlord, times the doubles as ``doubling`` says
   (:func:`~ddz_tools.core.gamerules.settle_seats`).  Spring: the landlord wins
   and neither farmer played a card (``spring=any-player``: at least one
   farmer played no card).  Anti-spring: the farmers win and the landlord
   made only the opening lead.

Under classic rules (no stake stages, a bottom) steps 2, 4 and 5 do nothing
and draw nothing from the generator: a seed plays the same game as before
they existed.

Four players (rules ``four``, the flag ``F_FOUR``): the 108 card ids of two
decks (id ``i`` is card ``i % 54`` of one deck) are shuffled the same way,
seat ``s`` gets ids ``[25*s, 25*s + 25)`` and the last 8 are the bottom; the
first bidder is drawn among four seats (or left of a dealer ``i % 4``); the
single-round auction goes round the four seats (:func:`~ddz_tools.core.gamerules.auction_seats`),
all four passing deals again with the next seat first; the landlord takes
the 8 bottom cards and leads, a play stands until three passes, and each
policy sees a four-entry hands array.  The plays multiply the stake by
``bomb_doubles`` (:func:`~ddz_tools.core.gamerules.stake_doublings` and
:func:`~ddz_tools.core.gamerules.multiplier`), spring and anti-spring come from
:func:`~ddz_tools.core.gamerules.spring_silent` over the three farmers, and each
seat scores :func:`~ddz_tools.core.gamerules.settle_seats` (the landlord +-3 stakes).
There are no stake stages at four seats.  The ``deal`` and ``info`` arrays
hold four seats (``D_*``, ``I_*``); ``plays`` needs :data:`MAX_MOVES_FOUR` rows.

Kernels:

* ``playout(hands, landlord, policies, flags, seed, table, bufc, bufk) ->
  int64[RESULT_SIZE]`` (public, named in :mod:`ddz_tools.engines.kernels`): one
  playout with caller-kept work arrays, its whole result row (the ``R_*``
  columns, the spring flag of both spring rules included).
* ``_playout(hands, landlord, policy, flags, seed) -> int64[5]``:
  ``[landlord_won, bombs, spring, anti_spring, n_moves]`` for ``hands``
  (int64[3], or int64[4] under four-player rules; the bottom already in the
  landlord's hand), the landlord leading,
  the same policy in every seat.  ``bombs`` counts bombs and the rocket;
  ``n_moves`` counts plays and passes.
* ``_playout_seats(hands, landlord, policies, flags, seed)``: the same with
  one policy per seat (int64[3]).
* ``_playout_t(hands, landlord, policies, flags, seed, table, bufc, bufk)``:
  the same with caller-kept work arrays (no allocation per call; make them
  with :func:`work_arrays`).
* ``_game(seed, policies, flags, stage_flags, first_bidder, bidding, spring,
  deal, bids, plays, info, table, bufc, bufk) -> n_moves``: a whole game
  written into arrays (see :func:`new_game_arrays` for their layout);
  ``stage_flags`` is :attr:`Rules.stage_flags <ddz_tools.core.rules.Rules.stage_flags>`.

Public functions: :func:`simulate` (records) and :func:`selfplay_stats`
(aggregate figures, for benchmarks).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator

import numpy as np

from ..core._jit import kernel
from ..core.cards import format_cards, packed_count
from ..core.errors import ArgumentError, RulesError
from .game import show_stage_text
from ..core.gamerules import (
    A_CALLER,
    A_GRABS,
    A_HIGH,
    A_LANDLORD,
    A_BASE,
    A_MUST,
    A_OUTCOME,
    A_TURN,
    AUCTION_OPEN,
    AUCTION_SIZE,
    AUCTION_VOID,
    BID_BAD,
    BIDDING_MODES,
    CALL_GRAB,
    DOUBLING_OFF,
    FIRST_CALL,
    S_DOUBLING,
    S_DRAW,
    S_MUST,
    S_NO_BOTTOM,
    S_SHOW,
    SHOW_FIRST_PLAY,
    SHOW_OFF,
    SPRING_MODES,
    auction_bid,
    auction_must_call,
    auction_seats,
    auction_start,
    bid_error,
    bottom_bonus,
    bottom_flush,
    draw_card,
    draw_wild,
    merge_show,
    multiplier,
    must_call,
    next_seat,
    play_flags,
    settle_seats,
    show_factor,
    spring_silent,
    stake_doublings,
    trick_after,
)
from ..core.kinds import F_FOUR, WILD_SHIFT, wild_of_flags
from .policies import (BUFFER, POLICIES, POLICY_RANDOM, TABLE_BITS, new_table, policy_bid, policy_call,
                       policy_double, policy_number, policy_play, policy_show)
from .records import play_text, rules_field as records_rules_field
from ..core.rules import Play, Rules, format_wild

#: Upper bound on the moves (plays and passes) of one game: every play takes a
#: card (at most 54 plays) and at most two passes follow a play.
MAX_MOVES = 168
#: The same with four players and two decks: at most 108 plays, three passes after each.
MAX_MOVES_FOUR = 432
#: The most seats at a table (four-player rules).
MAX_SEATS = 4
#: Upper bound on the bids of one deal.
MAX_BIDS = 16
#: All-pass deals in a row before the first bidder is made landlord at base 1.
MAX_REDEALS = 100


# Layout of a game's ``info`` array.
I_FIRST_BIDDER = 0
I_N_BIDS = 1
I_LANDLORD = 2
I_BASE = 3
I_N_MOVES = 4
I_LANDLORD_WON = 5
I_BOMBS = 6
I_SPRING = 7
I_ANTI_SPRING = 8
I_MULTIPLIER = 9
I_REDEALS = 10
#: The deal's wild ranks: the flags bits at ``WILD_SHIFT``, shifted down (0: none).
I_WILD = 11
#: Stake stages (Happy Dou Dizhu; 1 and none under classic rules): the show
#: multiple and the bottom bonus.
I_SHOW_MULTIPLE = 12
I_BONUS = 13
#: The seats' doubles d0 .. d3 (:data:`MAX_SEATS` fields; 1 when nobody doubled).
I_DOUBLES = 14
#: How many seats showed, then ``(seat, stage code)`` per show in order (up to 4 pairs).
I_N_SHOWS = 18
I_SHOWS = 19
#: ``landlord_draw=on``: the packed cards the landlord drew from seats
#: ``(landlord + 1) % 3`` and ``(landlord + 2) % 3`` (0: no draw).
I_DRAWS = 27
#: The seats' scores (:data:`MAX_SEATS` fields; the fourth 0 with three players).
I_SCORES = 29
#: 1 when the bottom is a flush (three non-jokers of one suit).
I_FLUSH = 33
INFO_SIZE = 34

#: Layout of a game's ``deal`` array: the dealt hands (packed, :data:`MAX_SEATS`
#: fields: three players leave the fourth 0), the bottom, then the shuffled
#: deck as card ids.  One deck: ids 0..53 (rank ``id // 4``, 52 the small
#: joker, 53 the big joker; suit ``id % 4``), seat ``s`` was dealt ids
#: ``[n*s, n*s + n)`` with ``n`` 17 (18 with no bottom), the bottom the last
#: 3.  Four players: ids 0..107 (card ``id % 54`` of deck ``id // 54``), 25
#: a seat in seat order, the bottom the last 8.
D_BOTTOM = 4
D_IDS = 5
DEAL_SIZE = D_IDS + 108

# Layout of the result of ``_run`` / ``_playout`` (first five are the public ones).
R_LANDLORD_WON = 0
R_BOMBS = 1
R_SPRING = 2
R_ANTI_SPRING = 3
R_N_MOVES = 4
R_SPRING_ANY = 5
#: What the plays double the stake by, as a power of 2 (:func:`stake_doublings`;
#: classic rules: the bombs and the rocket, ``R_BOMBS``).
R_DOUBLINGS = 6
RESULT_SIZE = 7

# Seeds and deals ------------------------------------------------------------------


#: The Mersenne prime 2**31 - 1: seeds are mixed modulo it, with products
#: below 2**62, because an int64 product that overflows is undefined
#: behaviour in Numba's LLVM code (``mul nsw``), not a wrap-around.
_P31 = 2147483647


@kernel
def _game_seed(run_seed, index):
    """A 31-bit seed for game ``index`` of a run: a few rounds of multiply
    modulo 2**31 - 1 and xor-shift over the run seed and the index."""
    x = ((run_seed % _P31) * 48271 % _P31 + (index % _P31) * 69621 % _P31 + 1) % _P31
    for _ in range(3):
        x = x ^ (x >> 13)
        x = (x * 48271) % _P31
        x = x ^ (x >> 17)
        x = (x * 16807 + 11) % _P31
    return x


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``run_seed``.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return int(_game_seed(np.int64(run_seed), np.int64(index)))


@kernel
def _deal_ids(out, ids, no_bottom, nseats):
    """Shuffle the deck with Numba's generator: ``ids`` gets the card ids in
    deal order, ``out`` the packed hands in seat order and at ``D_BOTTOM``
    the bottom.  Three seats deal one deck (54 ids): 17 cards each and a
    3-card bottom, or 18 each and none when ``no_bottom`` is 1.  Four seats
    deal two decks (108 ids, id ``i`` is card ``i % 54`` of one deck): 25
    cards each and an 8-card bottom.  Fisher-Yates, a swap per place from the
    last down.

    The ids are shuffled with the swaps that shuffled ranks before suits
    were kept, so the hands are those of the same seed in any version."""
    n_ids = 108 if nseats == 4 else 54
    per = 25 if nseats == 4 else (18 if no_bottom != 0 else 17)
    for i in range(n_ids):
        ids[i] = i
    for i in range(n_ids - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = ids[i]
        ids[i] = ids[j]
        ids[j] = t
    for s in range(D_BOTTOM + 1):
        out[s] = 0
    for i in range(n_ids):
        c = ids[i] % 54
        r = c // 4 if c < 52 else c - 39
        s = i // per if i < nseats * per else D_BOTTOM
        out[s] += 1 << (4 * r)


@kernel
def _deal(out):
    """Shuffle the deck with Numba's generator; ``out`` gets 3 hands and the bottom."""
    _deal_ids(out, np.empty(54, np.int64), 0, 3)


@kernel
def _deal_from_seed(seed, out, no_bottom, four):
    np.random.seed(seed)
    _deal_ids(out, np.empty(108, np.int64), no_bottom, 4 if four != 0 else 3)


def deal_cards(seed: int, rules=None) -> tuple[list[int], int]:
    """The deal a game with this seed starts from: the packed hands and the
    bottom (three 17-card hands and 3 cards; 18-card hands and no bottom
    under ``notalon``; four 25-card hands of two decks and 8 cards under
    ``four``).

    >>> hands, bottom = deal_cards(game_seed(0, 0))
    >>> [len(format_cards(h)) for h in hands], len(format_cards(bottom))
    ([17, 17, 17], 3)
    >>> hands, bottom = deal_cards(game_seed(0, 0), rules="notalon")
    >>> [len(format_cards(h)) for h in hands], bottom
    ([18, 18, 18], 0)
    >>> hands, bottom = deal_cards(game_seed(0, 0), rules="four")
    >>> [len(format_cards(h)) for h in hands], len(format_cards(bottom))
    ([25, 25, 25, 25], 8)
    """
    r = Rules.parse(rules)
    out = np.zeros(D_BOTTOM + 1, np.int64)
    _deal_from_seed(np.int64(seed), out, np.int64(r.bottom_cards == 0), np.int64(r.is_four))
    v = out.tolist()
    return v[:r.seats], v[D_BOTTOM]


# The play phase ---------------------------------------------------------------------


@kernel
def _run(hands, landlord, pols, flags, table, bufc, bufk, plays, res):
    """Play from the landlord's lead to the end.

    ``hands`` (int64[3], or int64[4] at a four-player table: one hand a
    seat) is consumed.  ``plays`` (int64[MAX_MOVES, 3] or with 0 rows; four
    players ``MAX_MOVES_FOUR``) receives ``(seat, cards, kind)`` per move
    when it has rows.  ``res`` (int64[RESULT_SIZE]) gets the outcome.
    Returns the number of moves.
    """
    nseats = hands.shape[0]
    record = plays.shape[0] > 0
    seat = landlord
    prev_kind = 0
    prev_seat = landlord
    bombs = 0
    doublings = 0
    moves = 0
    ll_plays = 0
    played = 0   # bit s: farmer s made a play
    while True:
        c, k = policy_play(hands, seat, landlord, prev_kind, prev_seat, pols[seat], flags, table, bufc, bufk)
        if record:
            plays[moves, 0] = seat
            plays[moves, 1] = c
            plays[moves, 2] = k
        moves += 1
        if k != 0:
            hands[seat] -= c
            d = stake_doublings(k, flags)
            if d:
                bombs += 1
                doublings += d
            if seat == landlord:
                ll_plays += 1
            else:
                played |= 1 << seat
            if hands[seat] == 0:
                break
        prev_kind, prev_seat = trick_after(k, seat, prev_kind, prev_seat, nseats)
        seat = next_seat(seat, nseats)
    won = 1 if seat == landlord else 0
    silent = nseats - 1
    for s in range(nseats):
        silent -= (played >> s) & 1
    spring, anti = spring_silent(won, ll_plays, silent, nseats - 1, 0)
    spring_any, _ = spring_silent(won, ll_plays, silent, nseats - 1, 1)
    res[R_LANDLORD_WON] = won
    res[R_BOMBS] = bombs
    res[R_DOUBLINGS] = doublings
    res[R_SPRING] = spring
    res[R_SPRING_ANY] = spring_any
    res[R_ANTI_SPRING] = anti
    res[R_N_MOVES] = moves
    return moves


@kernel
def playout(hands, landlord, pols, flags, seed, table, bufc, bufk):
    """One playout: the whole ``R_*`` result row (int64[RESULT_SIZE]).

    ``hands``: int64[3] packed hands (int64[4] under four-player rules,
    whose ``flags`` say so), the bottom already in the landlord's (not
    changed); the landlord leads; ``pols``: one policy per seat; Numba's
    generator is seeded with ``seed``; ``table``, ``bufc``, ``bufk``: the
    policies' work arrays (:func:`work_arrays`).
    """
    np.random.seed(seed)
    h = hands.copy()
    res = np.zeros(RESULT_SIZE, np.int64)
    _run(h, landlord, pols, flags, table, bufc, bufk, np.empty((0, 3), np.int64), res)
    return res


@kernel
def _playout_t(hands, landlord, pols, flags, seed, table, bufc, bufk):
    """:func:`_playout_seats` with caller-kept work arrays (see module doc)."""
    return playout(hands, landlord, pols, flags, seed, table, bufc, bufk)[:5]


@kernel
def _playout_seats(hands, landlord, policies, flags, seed):
    """One playout with a policy per seat: ``[landlord_won, bombs, spring, anti_spring, n_moves]``."""
    table = np.zeros(2 + 2 * (1 << 12), np.int64)
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    return _playout_t(hands, landlord, policies, flags, seed, table, bufc, bufk)


@kernel
def _playout(hands, landlord, policy, flags, seed):
    """One playout, the same policy in every seat: ``[landlord_won, bombs, spring, anti_spring, n_moves]``.

    ``hands``: int64[3] packed hands, the bottom already in the landlord's;
    the landlord leads.  ``policy``: 0 random, 1 heuristic.
    """
    pols = np.empty(hands.shape[0], np.int64)
    pols[:] = policy
    return _playout_seats(hands, landlord, pols, flags, seed)


# Bidding and whole games ----------------------------------------------------------------


@kernel
def _bidding(hands, nseats, first, pols, flags, stage_flags, mode, table, bids):
    """One auction of ``nseats`` (3 or 4) over ``hands`` (the dealt hands
    first), each seat bidding by its policy (call-grab and first-call:
    :func:`~ddz_tools.engines.policies.policy_call`).

    Under ``must_call`` (``stage_flags``) a seat whose hand forces a call
    (:func:`~ddz_tools.core.gamerules.must_call`) is marked before the first bid,
    and calls where its policy would pass while the rule forbids the pass.
    Writes ``(seat, bid)`` rows into ``bids``; returns ``(landlord, base,
    n_bids)``, landlord -1 when all passed.
    """
    st = np.empty(AUCTION_SIZE, np.int64)
    auction_start(st, mode, first, 0)
    auction_seats(st, nseats)
    if ((stage_flags >> S_MUST) & 3) != 0:
        for s in range(nseats):
            if must_call(stage_flags, hands[s]):
                auction_must_call(st, s)
    nb = 0
    while st[A_OUTCOME] == AUCTION_OPEN:
        s = st[A_TURN]
        if mode == CALL_GRAB:
            b = policy_call(hands[s], pols[s], flags, 0 if st[A_CALLER] < 0 else 1 + st[A_GRABS], table)
        elif mode == FIRST_CALL:
            b = policy_call(hands[s], pols[s], flags, 0, table)
        else:
            b = policy_bid(hands[s], pols[s], flags, st[A_HIGH], table)
        if b == 0 and st[A_MUST] != 0 and bid_error(st, s, 0) == BID_BAD:
            b = 1   # a seat that must call may not pass: it calls (bids 1)
        bids[nb, 0] = s
        bids[nb, 1] = b
        nb += 1
        auction_bid(st, s, b)
    if st[A_OUTCOME] == AUCTION_VOID:
        return -1, 0, nb
    return st[A_LANDLORD], st[A_BASE], nb


@kernel
def _early_shows(deal, first, pols, flags, stage_flags, table, info):
    """The shows before the auction into ``info`` (``I_N_SHOWS``, ``I_SHOWS``):
    stage by stage in deal order (before the deal, then after each card), the
    seats in turn from ``first``; a seat shows at most once, where
    :func:`~ddz_tools.core.gamerules.show_factor` allows it and its policy says so
    (:func:`~ddz_tools.engines.policies.policy_show`, on the cards it was dealt by
    then).  Neither policy shows before the auction, so this draws nothing
    from the generator.  Returns the number of shows."""
    n = 18 if (stage_flags & S_NO_BOTTOM) != 0 else 17
    partial = np.zeros(3, np.int64)
    shown = 0
    ns = 0
    for stage in range(n + 1):
        if stage > 0:
            for s in range(3):
                c = deal[D_IDS + n * s + stage - 1]
                partial[s] += 1 << (4 * (c // 4 if c < 52 else c - 39))
        if show_factor(stage_flags, stage, 0) == 0:
            continue
        for k in range(3):
            s = (first + k) % 3
            if (shown >> s) & 1:
                continue
            if policy_show(partial[s], pols[s], flags, stage_flags, stage, 0, table) != 0:
                shown |= 1 << s
                info[I_SHOWS + 2 * ns] = s
                info[I_SHOWS + 2 * ns + 1] = stage
                ns += 1
    info[I_N_SHOWS] = ns
    return ns


@kernel
def _game(seed, pols, flags, stage_flags, first_bidder, bidding, spring, deal, bids, plays, info, table, bufc,
          bufk):
    """A whole game (deal, shows, bidding, draws, doubles, play, scoring) from ``seed``.

    ``pols``: one policy per seat (int64[3], or int64[4] under four-player
    rules: ``flags`` with ``F_FOUR`` seat four players and deal two decks);
    ``first_bidder``: a seat, or -1 to draw it from the game's generator;
    ``bidding``: a :data:`~ddz_tools.core.gamerules.BIDDING_MODES` code;
    ``spring``: 0 landlord, 1 any-player.  Outputs: ``deal``
    int64[DEAL_SIZE] (the hands, the bottom, the card ids in deal order: see
    ``D_*``), ``bids`` int64[MAX_BIDS, 2] rows ``(seat, bid)``, ``plays``
    int64[MAX_MOVES, 3] (four players: ``MAX_MOVES_FOUR``) rows ``(seat,
    cards, kind)`` (kind 0 = pass; or no rows, to record nothing), ``info``
    int64[INFO_SIZE] (see the ``I_*`` constants).
    ``flags`` are the game flags (:attr:`Rules.game_flags`): with Laizi rules
    the deal draws its wild ranks (:func:`~ddz_tools.core.gamerules.draw_wild`),
    shown to the bidders as the rules say.  ``stage_flags``
    (:attr:`Rules.stage_flags`): the deal without a bottom, must-call, the
    shows, the landlord's draws, the doubles and the bottom bonus; with 0
    (classic rules) the game draws exactly what it always did from the
    generator.  Returns the number of moves.
    """
    np.random.seed(seed)
    nseats = 4 if (flags & F_FOUR) != 0 else 3
    first = first_bidder
    if first < 0:
        first = np.random.randint(0, nseats)
    no_bottom = 1 if (stage_flags & S_NO_BOTTOM) != 0 else 0
    show_on = ((stage_flags >> S_SHOW) & 3) != SHOW_OFF
    doubling = (stage_flags >> S_DOUBLING) & 3
    redeals = 0
    while True:
        _deal_ids(deal, deal[D_IDS:], no_bottom, nseats)
        shown, every = draw_wild(flags)
        info[I_N_SHOWS] = 0
        if show_on:
            _early_shows(deal, first, pols, play_flags(flags, shown), stage_flags, table, info)
        landlord, base, nb = _bidding(deal, nseats, first, pols, play_flags(flags, shown), stage_flags, bidding,
                                      table, bids)
        if landlord >= 0:
            break
        if redeals == MAX_REDEALS:
            landlord = first
            base = 1
            break
        redeals += 1
        first = (first + 1) % nseats
    hands = np.empty(nseats, np.int64)
    hands[:] = deal[:nseats]
    hands[landlord] += deal[D_BOTTOM]
    pflags = play_flags(flags, every)
    # The landlord's draws (landlord_draw=on, no bottom): a card at random from each farmer.
    info[I_DRAWS] = 0
    info[I_DRAWS + 1] = 0
    if (stage_flags & S_DRAW) != 0 and no_bottom != 0:
        for k in range(2):
            f = (landlord + 1 + k) % 3
            c = draw_card(hands[f], np.random.randint(0, packed_count(hands[f])))
            hands[f] -= c
            hands[landlord] += c
            info[I_DRAWS + k] = c
    # The doubles: the farmers from the landlord's left, then the landlord.
    for s in range(MAX_SEATS):
        info[I_DOUBLES + s] = 1
    if doubling != DOUBLING_OFF:
        for k in (1, 2, 0):
            s = (landlord + k) % 3
            info[I_DOUBLES + s] = policy_double(hands[s], pols[s], pflags, stage_flags, 1 if k == 0 else 0, table)
    # The landlord may show at his first play if he has not shown yet.
    ns = info[I_N_SHOWS]
    if show_on:
        before = False
        for j in range(ns):
            if info[I_SHOWS + 2 * j] == landlord:
                before = True
        if not before and policy_show(hands[landlord], pols[landlord], pflags, stage_flags, SHOW_FIRST_PLAY, 1,
                                      table) != 0:
            info[I_SHOWS + 2 * ns] = landlord
            info[I_SHOWS + 2 * ns + 1] = SHOW_FIRST_PLAY
            ns += 1
            info[I_N_SHOWS] = ns
    show_mult = 1
    for j in range(ns):
        seat = info[I_SHOWS + 2 * j]
        show_mult = merge_show(stage_flags, show_mult,
                               show_factor(stage_flags, info[I_SHOWS + 2 * j + 1], 1 if seat == landlord else 0))
    flush = 0
    if no_bottom == 0 and nseats == 3:
        flush = bottom_flush(deal, D_IDS + 51, 3)
    bonus = bottom_bonus(stage_flags, deal[D_BOTTOM], flush)
    res = np.zeros(RESULT_SIZE, np.int64)
    n = _run(hands, landlord, pols, pflags, table, bufc, bufk, plays, res)
    sp = res[R_SPRING_ANY] if spring == 1 else res[R_SPRING]
    mult = show_mult * bonus * multiplier(res[R_DOUBLINGS], sp, res[R_ANTI_SPRING])
    won = res[R_LANDLORD_WON]
    for s in range(MAX_SEATS):
        info[I_SCORES + s] = 0
    settle_seats(landlord, won, base * mult, nseats, doubling, info, I_DOUBLES, info, I_SCORES)
    info[I_WILD] = every >> WILD_SHIFT
    info[I_FIRST_BIDDER] = first
    info[I_N_BIDS] = nb
    info[I_LANDLORD] = landlord
    info[I_BASE] = base
    info[I_N_MOVES] = n
    info[I_LANDLORD_WON] = won
    info[I_BOMBS] = res[R_BOMBS]
    info[I_SPRING] = sp
    info[I_ANTI_SPRING] = res[R_ANTI_SPRING]
    info[I_MULTIPLIER] = mult
    info[I_REDEALS] = redeals
    info[I_SHOW_MULTIPLE] = show_mult
    info[I_BONUS] = bonus
    info[I_FLUSH] = flush
    return n


#: Buckets of the stake each farmer settles with the landlord (its score's
#: absolute value): bucket ``b`` holds the stakes ``s`` with
#: ``2 ** (b - 1) < s <= 2 ** b`` (bucket 0: a stake of 1), the last one every
#: stake above ``2 ** (STAKE_BUCKETS - 2)``.
STAKE_BUCKETS = 18
#: Fields of the sums of :func:`_selfplay_batch`.
STATS_SIZE = 16 + STAKE_BUCKETS
_ST_SEAT_WINS = 8
_ST_DOUBLED = 12
_ST_MULTIPLIER = 13
_ST_SHOWED = 14
_ST_STAKES = 16


@kernel
def _stake_bucket(stake):
    b = 0
    while b < STAKE_BUCKETS - 1 and (1 << b) < stake:
        b += 1
    return b


@kernel
def _selfplay_batch(run_seed, start, count, pols, flags, stage_flags, first_mode, bidding, spring, stats):
    """Play games ``start .. start+count-1`` of a run and add up figures.

    ``first_mode``: -1 random first bidder, else left of a dealer ``i % 3``
    (``i % 4`` at four seats).  ``stats`` (int64[STATS_SIZE]) accumulates:
    games, landlord wins, bombs, springs, anti-springs, moves, landlord
    score sum, redeals, per-seat wins from ``_ST_SEAT_WINS`` (4 fields; a
    seat wins when its side wins), games where a seat doubled (x2 or x4),
    the sum of the public multiples, games with a show, and from
    ``_ST_STAKES`` the farmers' stakes by bucket (one per farmer and game,
    see :data:`STAKE_BUCKETS`).
    """
    deal = np.empty(DEAL_SIZE, np.int64)
    bids = np.empty((MAX_BIDS, 2), np.int64)
    plays = np.empty((0, 3), np.int64)
    info = np.empty(INFO_SIZE, np.int64)
    table = np.zeros(2 + 2 * (1 << TABLE_BITS), np.int64)
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    nseats = 4 if (flags & F_FOUR) != 0 else 3
    for i in range(start, start + count):
        fb = -1 if first_mode < 0 else (i + 1) % nseats
        _game(_game_seed(run_seed, i), pols, flags, stage_flags, fb, bidding, spring, deal, bids, plays, info,
              table, bufc, bufk)
        ll = info[I_LANDLORD]
        won = info[I_LANDLORD_WON]
        stats[0] += 1
        stats[1] += won
        stats[2] += info[I_BOMBS]
        stats[3] += info[I_SPRING]
        stats[4] += info[I_ANTI_SPRING]
        stats[5] += info[I_N_MOVES]
        stats[6] += info[I_SCORES + ll]
        stats[7] += info[I_REDEALS]
        doubled = False
        for s in range(nseats):
            if (s == ll) == (won == 1):
                stats[_ST_SEAT_WINS + s] += 1
            if info[I_DOUBLES + s] > 1:
                doubled = True
        if doubled:
            stats[_ST_DOUBLED] += 1
        stats[_ST_MULTIPLIER] += info[I_MULTIPLIER]
        if info[I_N_SHOWS] > 0:
            stats[_ST_SHOWED] += 1
        for s in range(nseats):
            if s != ll:
                stats[_ST_STAKES + _stake_bucket(abs(info[I_SCORES + s]))] += 1
    return stats


# Python API ---------------------------------------------------------------------------


def work_arrays(table_bits: int = TABLE_BITS):
    """``(table, bufc, bufk)`` work arrays for :func:`playout` and :func:`_game`."""
    return new_table(table_bits), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def max_moves(rules=None) -> int:
    """The most moves a game under ``rules`` can take (:data:`MAX_MOVES`, or
    :data:`MAX_MOVES_FOUR` under four-player rules): the rows of ``plays``."""
    return MAX_MOVES_FOUR if Rules.parse(rules).is_four else MAX_MOVES


def new_game_arrays(rules=None):
    """``(deal, bids, plays, info)`` output arrays for :func:`_game`: ``deal``
    int64[DEAL_SIZE] (``D_*``), ``bids`` int64[MAX_BIDS, 2], ``plays``
    int64[max_moves(rules), 3], ``info`` int64[INFO_SIZE] (``I_*``)."""
    return (np.empty(DEAL_SIZE, np.int64), np.empty((MAX_BIDS, 2), np.int64),
            np.empty((max_moves(rules), 3), np.int64), np.empty(INFO_SIZE, np.int64))


def _game_options(rules: Rules) -> tuple[int, int, int]:
    """(first_mode, bidding, spring) kernel codes of a rule set."""
    if rules.bidding not in BIDDING_MODES:
        raise RulesError(f"self-play does not implement bidding={rules.bidding} "
                         f"(supported: {', '.join(BIDDING_MODES)})")
    first_mode = -1 if rules.first_bidder == "random" else 0
    return first_mode, BIDDING_MODES[rules.bidding], SPRING_MODES[rules.spring]


def _policies(policy, seats: int = 3) -> np.ndarray:
    """One policy number per seat, from one policy or one per seat."""
    if isinstance(policy, (list, tuple)):
        if len(policy) != seats:
            many = "three" if seats == 3 else "four, one per seat (four-player rules)"
            raise ArgumentError(f"give one policy or {many if seats != 3 else many + ' (one per seat)'}, "
                                f"not {len(policy)}", param="policy")
        return np.array([policy_number(p) for p in policy], np.int64)
    return np.full(seats, policy_number(policy), np.int64)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not -2**63 <= seed < 2**63:
        raise ArgumentError(f"seed must be an integer that fits in 64 bits, not {seed!r}", param="seed")
    return int(seed)


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ArgumentError(f"{name} must be a non-negative integer, not {value!r}", param=name)
    return int(value)


#: Games per kernel call of :func:`simulate` (and per task when it uses threads).
CHUNK = 256


@kernel
def _play_games(run_seed, start, count, pols, flags, stage_flags, first_mode, bidding, spring, deals, bids, plays,
                infos):
    """Games ``start .. start+count-1`` of a run into per-game rows of the output arrays
    (``deals[count, DEAL_SIZE]``, ``bids[count, MAX_BIDS, 2]``, ``plays[count, max_moves, 3]``,
    ``infos[count, INFO_SIZE]``)."""
    table = np.zeros(2 + 2 * (1 << TABLE_BITS), np.int64)
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    nseats = 4 if (flags & F_FOUR) != 0 else 3
    for j in range(count):
        i = start + j
        fb = -1 if first_mode < 0 else (i + 1) % nseats
        _game(_game_seed(run_seed, i), pols, flags, stage_flags, fb, bidding, spring, deals[j], bids[j], plays[j],
              infos[j], table, bufc, bufk)
    return count


def _chunk_arrays(count: int, rules=None):
    return (np.empty((count, DEAL_SIZE), np.int64), np.empty((count, MAX_BIDS, 2), np.int64),
            np.empty((count, max_moves(rules), 3), np.int64), np.empty((count, INFO_SIZE), np.int64))


def _workers(workers) -> int:
    if workers is None:
        return 1
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ArgumentError(f"workers must be a positive integer, not {workers!r}", param="workers")
    return int(workers)


def _run_args(games, policy, seed, rules, start, workers) -> tuple:
    """The checked arguments of a run (:func:`simulate`, :func:`selfplay_stats`), checked in this order:
    ``(rules, games, start, seed, workers, pols, first_mode, bidding, spring)``."""
    rules = Rules.parse(rules)
    return (rules, _check_count("games", games), _check_count("start", start), _check_seed(seed),
            _workers(workers), _policies(policy, rules.seats), *_game_options(rules))


def simulate(games: int, policy="heuristic", seed: int = 0, rules=None,
             progress: "Callable[[int, int], None] | None" = None, start: int = 0,
             workers: "int | None" = None) -> Iterator[dict]:
    """Play ``games`` seeded self-play games; yield one ``ddz-record/1`` dict per game.

    ``policy`` is a name (``random``, ``heuristic``) or one name per seat
    (three, or four under four-player rules).  Game ``i`` (counting from ``start``) is played from
    :func:`game_seed` ``(seed, i)``, so any slice of a run is reproducible on
    its own and the records do not depend on ``workers`` (threads running the
    kernel, which releases the GIL, on chunks of :data:`CHUNK` games; records
    come out in game order).  ``progress(done, total)`` is called as games
    are done.

    Under rules with stake stages or no bottom a record also holds, only
    where the rules use them: ``show`` (``[{"seat", "stage"}]`` in the order
    shown; rules with ``show``), ``doubles`` (``[d0, d1, d2]``; ``doubling``),
    ``draws`` (``[{"from", "card"}]``; ``landlord_draw``), ``deal.hand_ids``
    and ``deal.bottom_ids`` (``bottom_bonus=table``: the suits tell a flush
    bottom); ``deal.bottom`` is ``""`` under ``notalon``.
    ``result.multiplier`` is the public multiple, and with stake stages
    ``result`` names its ``show_multiple`` and ``bottom_bonus``.  Under
    four-player rules a record has four hands of 25 cards, an 8-card bottom,
    four ``players`` and four ``scores``, and no card ids.

    >>> rec = next(simulate(1, "random", seed=7))
    >>> rec["schema"], len(rec["deal"]["hands"]), rec["result"]["winner"] in ("landlord", "farmers")
    ('ddz-record/1', 3, True)
    """
    rules, games, start, seed, workers, pols, first_mode, bidding, spring = _run_args(
        games, policy, seed, rules, start, workers)
    flags = rules.game_flags
    stage_flags = rules.stage_flags
    names = [next(k for k, v in POLICIES.items() if v == p) for p in pols.tolist()]
    rules_field = dict(records_rules_field(rules), bidding=rules.bidding)
    texts: dict = {}
    chunk = CHUNK if games > CHUNK or workers > 1 else max(games, 1)
    if workers > 1:
        chunk = min(CHUNK, max(1, -(-games // workers)))
    bounds = [(start + j, min(chunk, games - j)) for j in range(0, games, chunk)]

    def run(lo: int, count: int):
        arrays = _chunk_arrays(count, rules)
        _play_games(np.int64(seed), np.int64(lo), np.int64(count), pols, flags, stage_flags, first_mode, bidding,
                    spring, *arrays)
        return arrays

    def records(lo: int, count: int, arrays):
        deals, bids, plays, infos = arrays
        for j in range(count):
            n = int(infos[j, I_N_MOVES])
            yield _record(f"sim-{seed}-{lo + j}", rules, rules_field, names, deals[j], bids[j], plays[j, :n],
                          infos[j], rules.flags | (int(infos[j, I_WILD]) << WILD_SHIFT), texts)

    done = 0
    if workers == 1:
        for lo, count in bounds:
            for rec in records(lo, count, run(lo, count)):
                done += 1
                yield rec
                if progress is not None:
                    progress(done, games)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = []
        it = iter(bounds)
        for lo, count in it:
            pending.append((lo, count, pool.submit(run, lo, count)))
            if len(pending) >= 2 * workers:
                break
        while pending:
            lo, count, fut = pending.pop(0)
            arrays = fut.result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append((nxt[0], nxt[1], pool.submit(run, *nxt)))
            for rec in records(lo, count, arrays):
                done += 1
                yield rec
                if progress is not None:
                    progress(done, games)


def _play_text(cards: int, kind: int, flags: int, cache: dict) -> str:
    """:func:`ddz_tools.engines.records.play_text`, memoised in ``cache``."""
    if kind == 0:
        return ""
    key = (cards, kind, flags)
    text = cache.get(key)
    if text is None:
        text = play_text(Play(cards, kind), flags)
        if len(cache) > 100_000:
            cache.clear()
        cache[key] = text
    return text


def _deal_field(deal: list, wild_code: int, rules: Rules) -> dict:
    """The ``deal`` of a record: hands, bottom and, under Laizi rules, the wild
    ranks; under ``bottom_bonus=table`` the suited cards (``hand_ids``,
    ``bottom_ids``, sorted), which tell whether the bottom is a flush."""
    d = {"hands": [format_cards(h) for h in deal[:rules.seats]], "bottom": format_cards(deal[D_BOTTOM]),
         "hand_ids": None, "bottom_ids": None}
    if rules.bottom_bonus == "table":
        n = rules.hand_cards
        ids = deal[D_IDS:D_IDS + 54]
        d["hand_ids"] = [sorted(ids[n * s:n * s + n]) for s in range(3)]
        d["bottom_ids"] = sorted(ids[3 * n:])
    if wild_code:
        d["wild"] = format_wild(wild_of_flags(wild_code << WILD_SHIFT))
    return d


def _record(gid, rules, rules_field, names, deal, bids, plays, info, flags, cache) -> dict:
    d = deal.tolist()
    inf = info.tolist()
    ll = inf[I_LANDLORD]
    won = inf[I_LANDLORD_WON] == 1
    rec = {
        "schema": "ddz-record/1",
        "id": gid,
        "rules": dict(rules_field),
        "players": list(names),
        "deal": _deal_field(d, inf[I_WILD], rules),
        "first_bidder": inf[I_FIRST_BIDDER],
        "bids": [{"seat": s, "bid": b} for s, b in bids[:inf[I_N_BIDS]].tolist()],
        "landlord": ll,
        "plays": [{"seat": s, "cards": _play_text(c, k, flags, cache)} for s, c, k in plays.tolist()],
    }
    if rules.show != "off":
        rec["show"] = [{"seat": inf[I_SHOWS + 2 * j], "stage": show_stage_text(inf[I_SHOWS + 2 * j + 1])}
                       for j in range(inf[I_N_SHOWS])]
    if rules.doubling != "off":
        rec["doubles"] = inf[I_DOUBLES:I_DOUBLES + 3]
    if rules.landlord_draw:
        rec["draws"] = [{"from": (ll + 1 + k) % 3, "card": format_cards(inf[I_DRAWS + k])}
                        for k in range(2) if inf[I_DRAWS + k]]
    result = {"winner": "landlord" if won else "farmers", "base": inf[I_BASE],
              "multiplier": inf[I_MULTIPLIER], "bombs": inf[I_BOMBS],
              "spring": bool(inf[I_SPRING]), "anti_spring": bool(inf[I_ANTI_SPRING]),
              "scores": inf[I_SCORES:I_SCORES + rules.seats]}
    if rules.has_stages:
        result["show_multiple"] = inf[I_SHOW_MULTIPLE]
        result["bottom_bonus"] = inf[I_BONUS]
    rec["result"] = result
    return rec


def stake_bucket(stake: int) -> int:
    """The bucket of a stake (:data:`STAKE_BUCKETS`): the least ``b`` with
    ``stake <= 2 ** b``, at most ``STAKE_BUCKETS - 1``.

    >>> [stake_bucket(s) for s in (1, 2, 3, 4, 5, 8, 9)]
    [0, 1, 2, 2, 3, 3, 4]
    """
    return min(max(0, (int(stake) - 1).bit_length()), STAKE_BUCKETS - 1)


def stake_bucket_label(b: int) -> str:
    """The stakes bucket ``b`` holds, as text: ``1``, ``2``, ``3-4``, ``5-8``, ...

    >>> [stake_bucket_label(b) for b in (0, 1, 2, 3, STAKE_BUCKETS - 1)]
    ['1', '2', '3-4', '5-8', '65537+']
    """
    if b == 0:
        return "1"
    if b == 1:
        return "2"
    lo = (1 << (b - 1)) + 1
    if b == STAKE_BUCKETS - 1:
        return f"{lo}+"
    return f"{lo}-{1 << b}"


def stake_distribution(counts) -> dict:
    """Bucket counts (by :func:`stake_bucket`) as ``{label: count}``, the
    non-empty buckets in order."""
    return {stake_bucket_label(b): int(c) for b, c in enumerate(counts) if c}


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple:
    """The Wilson score interval of a rate (95% with the default ``z``).

    >>> [round(x, 3) for x in wilson_interval(650, 1000)]
    [0.62, 0.679]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / den
    return (centre - half, centre + half)


@dataclasses.dataclass
class SelfplayStats:
    """Aggregate figures of a batch of self-play games.

    The stake-stage figures (Happy Dou Dizhu): ``doubled_games``, games in
    which at least one seat doubled (x2 or x4); ``multiplier_sum``, the sum
    of the public multiples (show multiple x bottom bonus x 2 per bomb,
    rocket, spring, anti-spring); ``show_games``, games with a show;
    ``stake_counts``, how many farmer-landlord pairs settled a stake in each
    bucket (:func:`stake_bucket`; two pairs a game, the base included).
    """

    games: int
    landlord_wins: int
    bombs: int
    springs: int
    anti_springs: int
    moves: int
    landlord_score: int
    redeals: int
    seat_wins: tuple
    doubled_games: int = 0
    multiplier_sum: int = 0
    show_games: int = 0
    stake_counts: tuple = ()

    @property
    def landlord_win_rate(self) -> float:
        return self.landlord_wins / self.games if self.games else 0.0

    @property
    def landlord_win_interval(self) -> tuple:
        """The 95% Wilson interval of the landlord's win rate."""
        return wilson_interval(self.landlord_wins, self.games)

    @property
    def double_rate(self) -> float:
        """The share of games in which at least one seat doubled."""
        return self.doubled_games / self.games if self.games else 0.0

    @property
    def mean_multiplier(self) -> float:
        """The mean public multiple."""
        return self.multiplier_sum / self.games if self.games else 0.0

    @property
    def stakes(self) -> dict:
        """The farmer-pair stakes by bucket, ``{label: pairs}`` (:func:`stake_distribution`)."""
        return stake_distribution(self.stake_counts)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["seat_wins"] = list(self.seat_wins)
        d["stake_counts"] = list(self.stake_counts)
        d["landlord_win_rate"] = self.landlord_win_rate
        d["landlord_win_interval"] = list(self.landlord_win_interval)
        d["double_rate"] = self.double_rate
        d["mean_multiplier"] = self.mean_multiplier
        d["stakes"] = self.stakes
        return d


@dataclasses.dataclass
class SimulationSummary:
    """Summary figures of self-play records as they stream past (what
    ``ddz simulate`` prints): add each ``ddz-record/1`` dict with :meth:`add`.

    >>> s = SimulationSummary()
    >>> for rec in simulate(10, "random", seed=1):
    ...     s.add(rec)
    >>> s.games, sum(s.seat_scores), s.figures()["landlord_wins"] == s.landlord_wins
    (10, 0, True)
    """

    games: int = 0
    landlord_wins: int = 0
    bombs: int = 0
    springs: int = 0
    anti_springs: int = 0
    moves: int = 0
    landlord_score: int = 0
    seat_scores: list = dataclasses.field(default_factory=lambda: [0, 0, 0])
    #: Games in which a seat doubled (x2 or x4; records with ``doubles``).
    doubled_games: int = 0
    #: Sum of the public multiples (``result.multiplier``).
    multiplier_sum: int = 0
    #: Games with a show (records with a non-empty ``show``).
    show_games: int = 0
    #: Farmer-pair stakes by :func:`stake_bucket` (two a game).
    stake_counts: list = dataclasses.field(default_factory=lambda: [0] * STAKE_BUCKETS)

    def add(self, record: dict) -> None:
        """Count one finished game record."""
        res = record["result"]
        self.games += 1
        self.landlord_wins += res["winner"] == "landlord"
        self.bombs += res["bombs"]
        self.springs += res["spring"]
        self.anti_springs += res["anti_spring"]
        self.moves += len(record["plays"])
        scores = res["scores"]
        ll = record["landlord"]
        self.landlord_score += scores[ll]
        if len(scores) > len(self.seat_scores):   # four players
            self.seat_scores += [0] * (len(scores) - len(self.seat_scores))
        for seat in range(len(scores)):
            self.seat_scores[seat] += scores[seat]
            if seat != ll:
                self.stake_counts[stake_bucket(abs(scores[seat]))] += 1
        self.multiplier_sum += res["multiplier"]
        if any(d > 1 for d in record.get("doubles") or ()):
            self.doubled_games += 1
        if record.get("show"):
            self.show_games += 1

    def figures(self) -> dict:
        """Rates and totals by name (rates are ``None`` before any game)."""
        n = self.games
        return {
            "landlord_win_rate": self.landlord_wins / n if n else None, "landlord_wins": self.landlord_wins,
            "landlord_win_interval": list(wilson_interval(self.landlord_wins, n)) if n else None,
            "bombs_per_game": self.bombs / n if n else None, "springs": self.springs,
            "anti_springs": self.anti_springs, "moves_per_game": self.moves / n if n else None,
            "landlord_mean_score": self.landlord_score / n if n else None, "seat_scores": list(self.seat_scores),
            "double_rate": self.doubled_games / n if n else None, "doubled_games": self.doubled_games,
            "show_games": self.show_games, "mean_multiplier": self.multiplier_sum / n if n else None,
            "stakes": stake_distribution(self.stake_counts),
        }


def selfplay_stats(games: int, policy="heuristic", seed: int = 0, rules=None, start: int = 0,
                   workers: "int | None" = None) -> SelfplayStats:
    """Play games ``start .. start+games-1`` of a seeded run in kernel calls and sum up.

    The same games as :func:`simulate` with the same arguments, without records;
    ``workers`` threads each run one kernel call on a share of the games (the
    sums do not depend on it).

    >>> s = selfplay_stats(20, "random", seed=1)
    >>> s.games, 0 <= s.landlord_wins <= 20
    (20, True)
    """
    rules, games, start, seed, workers, pols, first_mode, bidding, spring = _run_args(
        games, policy, seed, rules, start, workers)

    def run(lo: int, count: int) -> np.ndarray:
        stats = np.zeros(STATS_SIZE, np.int64)
        _selfplay_batch(np.int64(seed), np.int64(lo), np.int64(count), pols, rules.game_flags, rules.stage_flags,
                        first_mode, bidding, spring, stats)
        return stats

    if workers == 1 or games < 2 * workers:
        stats = run(start, games)
    else:
        from concurrent.futures import ThreadPoolExecutor

        step = -(-games // workers)
        parts = [(start + j, min(step, games - j)) for j in range(0, games, step)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            stats = sum(pool.map(lambda p: run(*p), parts))
    s = stats.tolist()
    return SelfplayStats(games=s[0], landlord_wins=s[1], bombs=s[2], springs=s[3], anti_springs=s[4],
                         moves=s[5], landlord_score=s[6], redeals=s[7],
                         seat_wins=tuple(s[_ST_SEAT_WINS:_ST_SEAT_WINS + rules.seats]),
                         doubled_games=s[_ST_DOUBLED], multiplier_sum=s[_ST_MULTIPLIER], show_games=s[_ST_SHOWED],
                         stake_counts=tuple(s[_ST_STAKES:_ST_STAKES + STAKE_BUCKETS]))
