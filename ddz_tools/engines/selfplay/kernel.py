"""The self-play kernels: a whole game (deal, shows, bidding, draws, doubles,
play, scoring) in one Numba kernel, and batches of games.

The layouts of a game's arrays (``D_*``: the deal, ``I_*``: the game's
figures, ``R_*``: a playout's result, ``ST_*``: a batch's sums) are this
module's constants.  The kernels take the variant's parameters
(:attr:`Variant.params <ddz_tools.variants.Variant.params>`): the deal's
sizes come from its table, and the stake stages from its flags.  The
package doc (:mod:`ddz_tools.engines.selfplay`) tells a game step by step.
"""

from __future__ import annotations

import numpy as np

from ...core._jit import kernel
from ...core.cards import packed_count
from ...core.gamerules import (
    A_BASE,
    A_CALLER,
    A_GRABS,
    A_HIGH,
    A_LANDLORD,
    A_MUST,
    A_OUTCOME,
    A_TURN,
    AUCTION_OPEN,
    AUCTION_SIZE,
    AUCTION_VOID,
    BID_BAD,
    CALL_GRAB,
    DOUBLING_OFF,
    FIRST_CALL,
    S_DOUBLING,
    S_DRAW,
    S_MUST,
    S_SHOW,
    SHOW_FIRST_PLAY,
    SHOW_OFF,
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
    put_outcome,
    settle_seats,
    show_factor,
    spring_silent,
    stake_doublings,
    trick_after,
)
from ...core.kinds import WILD_SHIFT
from ...variants import variant_of
from ...variants.variant import P_BOTTOM, P_DECKS, P_GAME_FLAGS, P_HAND, P_SEATS, P_STAGE_FLAGS
from ..policies import (BUFFER, TABLE_BITS, new_table, policy_bid, policy_call, policy_double, policy_play,
                        policy_show)

__all__ = [
    "D_BOTTOM", "D_IDS", "DEAL_SIZE", "I_ANTI_SPRING", "I_BASE", "I_BOMBS", "I_BONUS", "I_DOUBLES", "I_DRAWS",
    "I_FIRST_BIDDER", "I_FLUSH", "I_LANDLORD", "I_LANDLORD_WON", "I_MULTIPLIER", "I_N_BIDS", "I_N_MOVES",
    "I_N_SHOWS", "I_REDEALS", "I_SCORES", "I_SHOW_MULTIPLE", "I_SHOWS", "I_SPRING", "I_WILD", "INFO_SIZE",
    "MAX_BIDS", "MAX_MOVES", "MAX_MOVES_FOUR", "MAX_REDEALS", "MAX_SEATS", "R_ANTI_SPRING", "R_BOMBS",
    "R_DOUBLINGS", "R_LANDLORD_WON", "R_N_MOVES", "R_SPRING", "R_SPRING_ANY", "RESULT_SIZE", "STAKE_BUCKETS",
    "STATS_SIZE", "deal_cards", "game_seed", "max_moves", "new_game_arrays", "playout", "work_arrays",
]

#: Upper bound on the moves (plays and passes) of one game: every play takes a
#: card (at most 54 plays) and at most two passes follow a play.
MAX_MOVES = 168
#: The same with four players and two decks: at most 108 plays, three passes after each
#: (:func:`max_moves` asks the table: its cards times its seats).
MAX_MOVES_FOUR = 432
#: The most seats at a table (four-player rules).
MAX_SEATS = 4
#: Upper bound on the bids of one deal.
MAX_BIDS = 16
#: All-pass deals in a row before the first bidder is made landlord at base 1.
MAX_REDEALS = 100


# Layout of a game's ``info`` array (the outcome from ``I_LANDLORD_WON`` in
# :func:`~ddz_tools.core.gamerules.put_outcome`'s order).
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
#: ``landlord_draw=on`` (three seats, no bottom): the packed cards the
#: landlord drew from seats ``(landlord + 1) % 3`` and ``(landlord + 2) % 3``
#: (0: no draw).
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

# Layout of the result of ``_run`` / ``_playout`` (first five are the public ones,
# in :func:`~ddz_tools.core.gamerules.put_outcome`'s order).
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
def _deal_ids(out, ids, params):
    """Shuffle the deck of the table of ``params`` (a variant's
    :attr:`~ddz_tools.variants.Variant.params`) with Numba's generator:
    ``ids`` gets the card ids in deal order, ``out`` the packed hands in seat
    order and at ``D_BOTTOM`` the bottom.  The table's decks give the ids (54
    a deck, id ``i`` is card ``i % 54`` of one deck), each seat is dealt the
    table's hand in seat order and the rest is the bottom: 17 cards each and
    a 3-card bottom (18 each and none with no bottom) from one deck, 25 each
    and an 8-card bottom from two.  Fisher-Yates, a swap per place from the
    last down.

    The ids are shuffled with the swaps that shuffled ranks before suits
    were kept, so the hands are those of the same seed in any version."""
    n_ids = 54 * params[P_DECKS]
    per = params[P_HAND]
    nseats = params[P_SEATS]
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
def _deal_from_seed(seed, out, params):
    np.random.seed(seed)
    _deal_ids(out, np.empty(DEAL_SIZE - D_IDS, np.int64), params)


def deal_cards(seed: int, rules=None) -> tuple[list[int], int]:
    """The deal a game with this seed starts from: the packed hands and the
    bottom (three 17-card hands and 3 cards; 18-card hands and no bottom
    under ``notalon``; four 25-card hands of two decks and 8 cards under
    ``four``).

    >>> from ddz_tools.core.cards import format_cards
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
    v = variant_of(rules)
    out = np.zeros(D_BOTTOM + 1, np.int64)
    _deal_from_seed(np.int64(seed), out, v.params)
    dealt = out.tolist()
    return dealt[:v.seats], dealt[D_BOTTOM]


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
    put_outcome(res, R_LANDLORD_WON, won, bombs, spring, anti, moves)
    res[R_DOUBLINGS] = doublings
    res[R_SPRING_ANY] = spring_any
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
def _early_shows(deal, first, nseats, hand, pols, flags, stage_flags, table, info):
    """The shows before the auction into ``info`` (``I_N_SHOWS``, ``I_SHOWS``):
    stage by stage in deal order (before the deal, then after each card), the
    seats in turn from ``first``; a seat shows at most once, where
    :func:`~ddz_tools.core.gamerules.show_factor` allows it and its policy says so
    (:func:`~ddz_tools.engines.policies.policy_show`, on the cards it was dealt by
    then; ``nseats`` seats dealt ``hand`` cards each).  Neither policy shows
    before the auction, so this draws nothing from the generator.  Returns
    the number of shows."""
    partial = np.zeros(MAX_SEATS, np.int64)
    shown = 0
    ns = 0
    for stage in range(hand + 1):
        if stage > 0:
            for s in range(nseats):
                c = deal[D_IDS + hand * s + stage - 1]
                partial[s] += 1 << (4 * (c // 4 if c < 52 else c - 39))
        if show_factor(stage_flags, stage, 0) == 0:
            continue
        for k in range(nseats):
            s = (first + k) % nseats
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
def _game(seed, pols, params, first_bidder, bidding, spring, deal, bids, plays, info, table, bufc, bufk):
    """A whole game (deal, shows, bidding, draws, doubles, play, scoring) from ``seed``.

    ``params``: the variant's kernel parameters
    (:attr:`Variant.params <ddz_tools.variants.Variant.params>`: the flags,
    the stage flags and the table: its seats, decks, hand and bottom);
    ``pols``: one policy per seat (int64[3], or int64[4] at a four-seat table);
    ``first_bidder``: a seat, or -1 to draw it from the game's generator;
    ``bidding``: a :data:`~ddz_tools.core.gamerules.BIDDING_MODES` code;
    ``spring``: 0 landlord, 1 any-player.  Outputs: ``deal``
    int64[DEAL_SIZE] (the hands, the bottom, the card ids in deal order: see
    ``D_*``), ``bids`` int64[MAX_BIDS, 2] rows ``(seat, bid)``, ``plays``
    int64[MAX_MOVES, 3] (four players: ``MAX_MOVES_FOUR``) rows ``(seat,
    cards, kind)`` (kind 0 = pass; or no rows, to record nothing), ``info``
    int64[INFO_SIZE] (see the ``I_*`` constants).
    The flags are the game flags (:attr:`Rules.game_flags`): with Laizi rules
    the deal draws its wild ranks (:func:`~ddz_tools.core.gamerules.draw_wild`),
    shown to the bidders as the rules say.  The stage flags
    (:attr:`Rules.stage_flags`): must-call, the shows, the landlord's draws,
    the doubles and the bottom bonus; with 0 (classic rules) the game draws
    exactly what it always did from the generator.  Returns the number of
    moves.
    """
    np.random.seed(seed)
    flags = params[P_GAME_FLAGS]
    stage_flags = params[P_STAGE_FLAGS]
    nseats = params[P_SEATS]
    hand = params[P_HAND]
    bottom = params[P_BOTTOM]
    n_ids = 54 * params[P_DECKS]
    first = first_bidder
    if first < 0:
        first = np.random.randint(0, nseats)
    show_on = ((stage_flags >> S_SHOW) & 3) != SHOW_OFF
    doubling = (stage_flags >> S_DOUBLING) & 3
    redeals = 0
    while True:
        _deal_ids(deal, deal[D_IDS:], params)
        shown, every = draw_wild(flags)
        info[I_N_SHOWS] = 0
        if show_on:
            _early_shows(deal, first, nseats, hand, pols, play_flags(flags, shown), stage_flags, table, info)
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
    if (stage_flags & S_DRAW) != 0 and bottom == 0:
        for k in range(2):
            f = (landlord + 1 + k) % nseats
            c = draw_card(hands[f], np.random.randint(0, packed_count(hands[f])))
            hands[f] -= c
            hands[landlord] += c
            info[I_DRAWS + k] = c
    # The doubles: the farmers from the landlord's left, then the landlord.
    for s in range(MAX_SEATS):
        info[I_DOUBLES + s] = 1
    if doubling != DOUBLING_OFF:
        for k in range(1, nseats + 1):
            s = (landlord + k) % nseats
            info[I_DOUBLES + s] = policy_double(hands[s], pols[s], pflags, stage_flags, 1 if k == nseats else 0,
                                                table)
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
    # The bottom's suits (a flush) are known from the ids of one deck.
    flush = 0
    if params[P_DECKS] == 1:
        flush = bottom_flush(deal, D_IDS + n_ids - bottom, bottom)
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
    put_outcome(info, I_LANDLORD_WON, won, res[R_BOMBS], sp, res[R_ANTI_SPRING], mult)
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
#: Fields of the sums of :func:`selfplay_batch`.
STATS_SIZE = 16 + STAKE_BUCKETS
ST_SEAT_WINS = 8
ST_DOUBLED = 12
ST_MULTIPLIER = 13
ST_SHOWED = 14
ST_STAKES = 16


@kernel
def _stake_bucket(stake):
    b = 0
    while b < STAKE_BUCKETS - 1 and (1 << b) < stake:
        b += 1
    return b


@kernel
def selfplay_batch(run_seed, start, count, pols, params, first_mode, bidding, spring, stats):
    """Play games ``start .. start+count-1`` of a run (``params``: the
    variant's, see :func:`_game`) and add up figures.

    ``first_mode``: -1 random first bidder, else left of a dealer ``i % 3``
    (``i % 4`` at four seats).  ``stats`` (int64[STATS_SIZE]) accumulates:
    games, landlord wins, bombs, springs, anti-springs, moves, landlord
    score sum, redeals, per-seat wins from ``ST_SEAT_WINS`` (4 fields; a
    seat wins when its side wins), games where a seat doubled (x2 or x4),
    the sum of the public multiples, games with a show, and from
    ``ST_STAKES`` the farmers' stakes by bucket (one per farmer and game,
    see :data:`STAKE_BUCKETS`).
    """
    deal = np.empty(DEAL_SIZE, np.int64)
    bids = np.empty((MAX_BIDS, 2), np.int64)
    plays = np.empty((0, 3), np.int64)
    info = np.empty(INFO_SIZE, np.int64)
    table = np.zeros(2 + 2 * (1 << TABLE_BITS), np.int64)
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    nseats = params[P_SEATS]
    for i in range(start, start + count):
        fb = -1 if first_mode < 0 else (i + 1) % nseats
        _game(_game_seed(run_seed, i), pols, params, fb, bidding, spring, deal, bids, plays, info, table, bufc, bufk)
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
                stats[ST_SEAT_WINS + s] += 1
            if info[I_DOUBLES + s] > 1:
                doubled = True
        if doubled:
            stats[ST_DOUBLED] += 1
        stats[ST_MULTIPLIER] += info[I_MULTIPLIER]
        if info[I_N_SHOWS] > 0:
            stats[ST_SHOWED] += 1
        for s in range(nseats):
            if s != ll:
                stats[ST_STAKES + _stake_bucket(abs(info[I_SCORES + s]))] += 1
    return stats


@kernel
def play_games(run_seed, start, count, pols, params, first_mode, bidding, spring, deals, bids, plays, infos):
    """Games ``start .. start+count-1`` of a run (``params``: the variant's, see
    :func:`_game`) into per-game rows of the output arrays
    (``deals[count, DEAL_SIZE]``, ``bids[count, MAX_BIDS, 2]``, ``plays[count, max_moves, 3]``,
    ``infos[count, INFO_SIZE]``)."""
    table = np.zeros(2 + 2 * (1 << TABLE_BITS), np.int64)
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    nseats = params[P_SEATS]
    for j in range(count):
        i = start + j
        fb = -1 if first_mode < 0 else (i + 1) % nseats
        _game(_game_seed(run_seed, i), pols, params, fb, bidding, spring, deals[j], bids[j], plays[j], infos[j],
              table, bufc, bufk)
    return count


# Python API ---------------------------------------------------------------------------


def work_arrays(table_bits: int = TABLE_BITS):
    """``(table, bufc, bufk)`` work arrays for :func:`playout` and :func:`_game`."""
    return new_table(table_bits), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)


def max_moves(rules=None) -> int:
    """The most moves a game under ``rules`` can take, the rows of ``plays``:
    :data:`MAX_MOVES`, or more at a table whose cards times its seats exceed
    it (every play takes a card and a pass follows it at most once a seat;
    :data:`MAX_MOVES_FOUR` under four-player rules)."""
    t = variant_of(rules).table
    return max(MAX_MOVES, t.deck_size * t.seats)


def new_game_arrays(rules=None):
    """``(deal, bids, plays, info)`` output arrays for :func:`_game`: ``deal``
    int64[DEAL_SIZE] (``D_*``), ``bids`` int64[MAX_BIDS, 2], ``plays``
    int64[max_moves(rules), 3], ``info`` int64[INFO_SIZE] (``I_*``)."""
    return (np.empty(DEAL_SIZE, np.int64), np.empty((MAX_BIDS, 2), np.int64),
            np.empty((max_moves(rules), 3), np.int64), np.empty(INFO_SIZE, np.int64))

