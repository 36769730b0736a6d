"""The fast path: one Numba kernel validates and scores the play phase of
many games.

:func:`validate_batch` packs records into int64 arrays (:func:`pack_games`:
the bidding, and any stage before the play, replayed in Python, the play
texts turned into cards) and runs the kernel (``_validate_games``) on the
whole batch, with the statuses and error codes of
:func:`~ddz_tools.engines.records.walk.replay_record`; a batch may mix three-
and four-seat games.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable

import numpy as np

from ...core._jit import interpreted, kernel
from ...core.cards import is_valid_packed, packed_contains, parse_cards
from ...core.errors import CardError, PlayError, StageError
from ...core.gamerules import (
    A_BASE,
    A_LANDLORD,
    A_OUTCOME,
    AUCTION_SIZE,
    AUCTION_WON,
    BID_BAD,
    BID_OK,
    BID_OVER,
    BID_WRONG_TURN,
    BIDDING_MODES,
    DOUBLING_MODES,
    DOUBLING_OFF,
    auction_bid,
    auction_seats,
    auction_start,
    bid_error,
    may_pass,
    multiplier,
    next_seat,
    put_outcome,
    settle_seats,
    spring_silent,
    stake_doublings,
    trick_after,
)
from ...core.kinds import TIER_SHIFT, WILD_MASK
from ...core.rules import Play, Rules, has_fixed_reading, play_text_cards
from ...moves.movegen import gen_all, gen_into
from ...variants.variant import P_FLAGS, P_SEATS, P_SPRING, PARAMS_SIZE
from ..game import ERROR_CODES, PLAYING, Result
from .format import Record, parse_record
from .walk import ReplayResult, game_before_play

__all__ = ["STATUS_NAMES", "S_OK", "S_INCOMPLETE", "MAX_SEATS", "GameBatch", "BatchResult", "pack_games",
           "run_batch", "validate_batch"]

#: Status codes of the kernel, by index (the same names as the Game's error codes).
STATUS_NAMES = ("ok", "incomplete") + ERROR_CODES
S_OK, S_INCOMPLETE, S_WRONG_TURN, S_PASS_ON_LEAD, S_NOT_IN_HAND, S_NOT_A_COMBINATION, S_DOES_NOT_BEAT, \
    S_FINISHED, S_BAD_CARDS, S_BAD_BID, S_NOT_BIDDING, S_NOT_PLAYING, S_BAD_SHOW, S_BAD_DRAW, \
    S_BAD_DOUBLE = range(len(STATUS_NAMES))
#: Where a game stopped before its play phase (``GameBatch.phase_bid``).
PHASE_PLAY, PHASE_BID, PHASE_SHOW, PHASE_DRAW, PHASE_DOUBLE = range(5)
_PHASE_NAMES = ("play", "bid", "show", "draw", "double")
_STATUS_OF = {name: i for i, name in enumerate(STATUS_NAMES)}
_BID_STATUS = {BID_OVER: S_NOT_BIDDING, BID_WRONG_TURN: S_WRONG_TURN, BID_BAD: S_BAD_BID}
_auction_start = interpreted(auction_start)
_auction_seats = interpreted(auction_seats)
_auction_bid = interpreted(auction_bid)
_bid_error = interpreted(bid_error)

_CAPACITY = 1024
#: Columns of a game's head row (``GameBatch.head``): the landlord, the base,
#: a problem found while packing (its status and play index), and 1 when the
#: game is not run (its outcome is already in ``GameBatch.out``).
H_LANDLORD, H_BASE, H_PRE_STATUS, H_PRE_INDEX, H_SKIP = range(5)
_HEAD_COLS = 5
#: Columns of the kernel's output rows (the outcome from ``OUT_WINNER`` in
#: :func:`~ddz_tools.core.gamerules.put_outcome`'s order).
OUT_STATUS, OUT_INDEX, OUT_WINNER, OUT_BOMBS, OUT_SPRING, OUT_ANTI, OUT_MULT, OUT_S0 = range(8)
#: Seats a batch row has room for (scores ``OUT_S0 .. OUT_S0 + MAX_SEATS - 1``).
MAX_SEATS = 4
_OUT_COLS = OUT_S0 + MAX_SEATS
#: Columns of a game's stages row (``GameBatch.stages``): the public multiple
#: of the stages before the play (shows times bottom bonus), the ``doubling``
#: code, then each seat's double (``ST_D0 .. ST_D0 + MAX_SEATS - 1``).
ST_MULTIPLE, ST_DOUBLING, ST_D0 = range(3)
_STAGE_COLS = ST_D0 + MAX_SEATS


@kernel
def _reading(cards, fixed, prev_kind, flags, buf_cards, buf_kinds, self_kinds):
    """The kind a play takes here, or a negative status.

    Runs the shared generator on the play's own cards: its entries whose
    cards are the whole play are exactly the readings of the play that are
    legal here (all of them for a lead).  ``fixed`` > 0 asks for that reading;
    0 takes the largest legal kind (see ddz_tools.engines.game), with wild ranks in
    ``flags`` the largest of those that read every card as itself first.
    """
    wild = (flags & WILD_MASK) != 0
    n_self = 0
    if wild and fixed <= 0:
        # The readings of the cards each as itself: the classic ones (a bomb's tier aside).
        n = gen_into(cards, flags & ~WILD_MASK, 0, buf_cards, buf_kinds)
        if n > buf_cards.shape[0]:
            n, buf_cards, buf_kinds = gen_all(cards, flags & ~WILD_MASK, 0, buf_cards, buf_kinds)
        for j in range(n):
            if buf_cards[j] == cards and n_self < 8:
                self_kinds[n_self] = buf_kinds[j]
                n_self += 1
    n = gen_into(cards, flags, prev_kind, buf_cards, buf_kinds)
    if n > buf_cards.shape[0]:     # rare; gen_all's arrays cost reference counting on every call
        n, buf_cards, buf_kinds = gen_all(cards, flags, prev_kind, buf_cards, buf_kinds)
    best = -1
    best_self = -1
    for j in range(n):
        if buf_cards[j] == cards:
            k = buf_kinds[j]
            if fixed > 0:
                if k == fixed:
                    return k
            else:
                if k > best:
                    best = k
                for q in range(n_self):
                    if self_kinds[q] == (k & ~(3 << TIER_SHIFT)) and k > best_self:
                        best_self = k
    if best_self >= 0:
        return best_self
    if best >= 0:
        return best
    if fixed > 0:
        return -S_DOES_NOT_BEAT  # a reading of these cards (checked when packed), but not legal here
    if prev_kind == 0:
        return -S_NOT_A_COMBINATION
    # Is it a combination at all?  Ask for every lead of the play's cards.
    n = gen_into(cards, flags, 0, buf_cards, buf_kinds)
    if n > buf_cards.shape[0]:
        n, buf_cards, buf_kinds = gen_all(cards, flags, 0, buf_cards, buf_kinds)
    for j in range(n):
        if buf_cards[j] == cards:
            return -S_DOES_NOT_BEAT
    return -S_NOT_A_COMBINATION


@kernel
def _validate_one(hand_row, params, head, seats, cards, kinds, out, stages, work):
    """Validate and score the plays of one game (``seats``, ``cards``,
    ``kinds``: its plays) into ``out`` (one row): ``hand_row`` its hands by
    seat, ``params`` its variant's (the flags, the seats, the spring rule),
    ``head`` its row ``H_*`` (the landlord, the base, a problem found while
    packing), ``stages`` its stages row (the public multiple of the stages
    before the play, the ``doubling`` code and the seats' doubles).
    ``work``: the scratch arrays (the generator's buffers, the hands, the
    plays a seat made, the kinds of a play's own reading)."""
    buf_cards, buf_kinds, hands, played, self_kinds = work
    nseats = params[P_SEATS]
    flags = params[P_FLAGS]
    landlord = head[H_LANDLORD]
    pre_status = head[H_PRE_STATUS]
    pre_index = head[H_PRE_INDEX]
    for s in range(nseats):
        hands[s] = hand_row[s]
        played[s] = 0
    turn = landlord
    last_kind = 0          # 0: the seat to move leads
    last_seat = landlord
    bombs = 0
    doublings = 0
    winner = -1
    out[OUT_STATUS] = S_INCOMPLETE
    out[OUT_INDEX] = -1
    out[OUT_WINNER] = -1
    for idx in range(seats.shape[0]):
        s = seats[idx]
        c = cards[idx]
        if winner >= 0:
            out[OUT_STATUS] = S_FINISHED
            out[OUT_INDEX] = idx
            return
        if s != turn:
            out[OUT_STATUS] = S_WRONG_TURN
            out[OUT_INDEX] = idx
            return
        if idx == pre_index and pre_status == S_BAD_CARDS:
            out[OUT_STATUS] = pre_status
            out[OUT_INDEX] = idx
            return
        if c == 0:
            if not may_pass(last_kind):
                out[OUT_STATUS] = S_PASS_ON_LEAD
                out[OUT_INDEX] = idx
                return
            last_kind, last_seat = trick_after(0, s, last_kind, last_seat, nseats)
            turn = next_seat(s, nseats)
            continue
        if not packed_contains(hands[s], c):
            out[OUT_STATUS] = S_NOT_IN_HAND
            out[OUT_INDEX] = idx
            return
        if idx == pre_index:
            out[OUT_STATUS] = pre_status
            out[OUT_INDEX] = idx
            return
        k = _reading(c, kinds[idx], last_kind, flags, buf_cards, buf_kinds, self_kinds)
        if k < 0:
            out[OUT_STATUS] = -k
            out[OUT_INDEX] = idx
            return
        hands[s] -= c
        played[s] += 1
        d = stake_doublings(k, flags)
        if d:
            bombs += 1
            doublings += d
        last_kind, last_seat = trick_after(k, s, last_kind, last_seat, nseats)
        if hands[s] == 0:
            winner = s
        turn = next_seat(s, nseats)
    if winner < 0:
        return
    # Scoring.
    won = 1 if winner == landlord else 0
    silent = 0
    for f in range(nseats):
        if f != landlord and played[f] == 0:
            silent += 1
    spring, anti = spring_silent(won, played[landlord], silent, nseats - 1, params[P_SPRING])
    mult = stages[ST_MULTIPLE] * multiplier(doublings, spring, anti)
    settle_seats(landlord, won, head[H_BASE] * mult, nseats, stages[ST_DOUBLING], stages, ST_D0, out, OUT_S0)
    out[OUT_STATUS] = S_OK
    put_outcome(out, OUT_WINNER, winner, bombs, spring, anti, mult)


@kernel
def _validate_games(hands, params, head, start, seats, cards, kinds, out, stages):
    """Validate every game of a batch (see :func:`validate_batch`)."""
    work = (np.empty(_CAPACITY, np.int64), np.empty(_CAPACITY, np.int64), np.empty(MAX_SEATS, np.int64),
            np.empty(MAX_SEATS, np.int64), np.empty(8, np.int64))
    for g in range(hands.shape[0]):
        if head[g, H_SKIP] != 0:
            continue
        lo, hi = start[g], start[g + 1]
        _validate_one(hands[g], params[g], head[g], seats[lo:hi], cards[lo:hi], kinds[lo:hi], out[g], stages[g], work)


@dataclasses.dataclass
class GameBatch:
    """Games packed as int64 arrays for :func:`validate_batch`.

    Per game ``g``: ``hands[g]`` (:data:`MAX_SEATS` packed hands, the
    landlord's with the bottom; the first ``nseats[g]``, the seats at its
    table, are the game's), ``params[g]`` (its variant's
    :attr:`~ddz_tools.variants.Variant.params`: the flags, the seats, the
    spring rule), ``head[g]`` (columns ``H_*``: the ``landlord``, the
    ``base``, and a problem found while packing: ``pre_status`` and
    ``pre_index``, a play whose text is no cards or whose notation is no
    reading, or ``skip`` with a bidding outcome already in ``out``), plays
    ``start[g] .. start[g+1]-1`` of ``seats``/``cards``/``kinds`` (``cards``
    0 = pass; ``kinds`` the reading fixed by body-kicker notation, 0 =
    choose).
    """

    hands: np.ndarray
    params: np.ndarray
    head: np.ndarray
    start: np.ndarray
    seats: np.ndarray
    cards: np.ndarray
    kinds: np.ndarray
    out: np.ndarray          # preset rows for skipped games
    phase_bid: np.ndarray    # where a skipped game failed before the play: PHASE_BID, PHASE_SHOW, ...
    stored: np.ndarray       # has, landlord, winner(1 landlord/0 farmers), base, mult, bombs, spring, anti,
                             # s0, s1, s2, s3, show multiple, bottom bonus
    ids: list
    #: Per game: the stages row (columns ``ST_*``: the public multiple, the
    #: ``doubling`` code, the seats' doubles; 1, 0, 1, ... in a classic game).
    stages: np.ndarray
    #: Per game: (show multiple, bottom bonus, staged) for the results.
    stage_parts: list

    def __len__(self) -> int:
        return self.hands.shape[0]

    @property
    def landlord(self) -> np.ndarray:
        """Per game: the landlord (-1 when the auction made none)."""
        return self.head[:, H_LANDLORD]

    @property
    def base(self) -> np.ndarray:
        """Per game: the base the auction set."""
        return self.head[:, H_BASE]

    @property
    def nseats(self) -> np.ndarray:
        """Per game: the seats at its table."""
        return self.params[:, P_SEATS]


_TEXT_CACHE: dict = {}
#: A stored field that is absent (not compared).
_NOCMP = -(1 << 40)


def _parse_play_text(text: str, rules: Rules, flags: int):
    """(cards, fixed kind, pre status) of a play's text, memoised per rule
    flags (which tell the number of decks too: ``F_FOUR``)."""
    key = (text, flags)
    hit = _TEXT_CACHE.get(key)
    if hit is not None:
        return hit
    t = text.strip()
    if t in ("", "-") or t.lower() in ("pass", "p"):
        res = (0, 0, 0)
    else:
        try:
            if has_fixed_reading(t):
                try:
                    cards = play_text_cards(t, rules.decks)
                except PlayError:
                    raise CardError(t) from None
                try:
                    res = (cards, Play.parse(t, rules).kind, 0)
                except (PlayError, CardError):
                    res = (cards, 0, S_BAD_CARDS if not is_valid_packed(cards, rules.decks) else S_NOT_A_COMBINATION)
            else:
                res = (parse_cards(t, rules.decks), 0, 0)
        except CardError:
            res = (0, 0, S_BAD_CARDS)
    if len(_TEXT_CACHE) < 200_000:
        _TEXT_CACHE[key] = res
    return res


def _no_landlord(row: np.ndarray, has_plays: bool) -> None:
    """The output row of a game whose auction made no landlord: its plays come
    outside a play phase (an error at play 0), or it is unfinished."""
    row[OUT_STATUS], row[OUT_INDEX] = (S_NOT_PLAYING, 0) if has_plays else (S_INCOMPLETE, -1)


def pack_games(records: Iterable["Record | dict | str"]) -> GameBatch:
    """Pack records into a :class:`GameBatch`: bidding is replayed here (in
    Python, it is a handful of actions), plays are converted to ints."""
    recs = [r if isinstance(r, Record) else parse_record(r) for r in records]
    n = len(recs)
    total = sum(len(r.plays) for r in recs)
    hands = np.zeros((n, MAX_SEATS), np.int64)
    variants = [r.variant for r in recs]
    params = np.array([v.params for v in variants], np.int64).reshape(n, PARAMS_SIZE)
    head = np.zeros((n, _HEAD_COLS), np.int64)
    head[:, H_LANDLORD] = head[:, H_PRE_INDEX] = -1
    landlord, base, pre_status, pre_index, skip = (head[:, c] for c in range(_HEAD_COLS))
    start = np.zeros(n + 1, np.int64)
    seats = np.zeros(total, np.int64)
    cards = np.zeros(total, np.int64)
    kinds = np.zeros(total, np.int64)
    out = np.zeros((n, _OUT_COLS), np.int64)
    out[:, OUT_WINNER] = -1
    phase_bid = np.zeros(n, np.int64)
    stored = np.zeros((n, 14), np.int64)
    stages = np.ones((n, _STAGE_COLS), np.int64)
    stages[:, ST_DOUBLING] = DOUBLING_OFF
    parts = [(1, 1, False)] * n
    pos = 0
    auction = [0] * AUCTION_SIZE
    for g, rec in enumerate(recs):
        start[g] = pos
        r, v = rec.rules, variants[g]
        table = v.table
        if v.stake.before_play or rec.shows or rec.doubles or rec.draws:
            # Stages before the play: replayed by the Game (a handful of actions).
            try:
                game = game_before_play(rec)
            except StageError as exc:
                skip[g] = 1
                game = exc.game
                if exc.status == "incomplete":
                    out[g, OUT_STATUS], out[g, OUT_INDEX] = S_INCOMPLETE, -1
                else:
                    phase_bid[g] = _PHASE_NAMES.index(exc.phase)
                    out[g, OUT_STATUS] = _STATUS_OF.get(exc.code, S_BAD_BID)
                    out[g, OUT_INDEX] = -1 if exc.index is None else exc.index
            if not skip[g] and game.phase != PLAYING:
                skip[g] = 1
                _no_landlord(out[g], bool(rec.plays))
            if not skip[g]:
                landlord[g], base[g] = game.landlord, game.base
                hands[g, :table.seats] = game.hands
                bonus = game.bottom_bonus_now()
                stages[g, :ST_D0 + table.seats] = (game.show_multiple * bonus, DOUBLING_MODES[r.doubling],
                                                   *(d or 1 for d in game.doubles))
                parts[g] = (game.show_multiple, bonus, r.has_stages)
        else:
            # The auction rule itself on a state list (what Game.bid runs, without its messages).
            _auction_start(auction, BIDDING_MODES[rec.rules.bidding], rec.first_bidder, int(rec.all_pass == "seat0"))
            _auction_seats(auction, table.seats)
            for i, (s, b) in enumerate(rec.bids):
                err = _bid_error(auction, s, b if type(b) is int else -1)
                if err != BID_OK:
                    skip[g], phase_bid[g] = 1, PHASE_BID
                    out[g, OUT_STATUS], out[g, OUT_INDEX] = _BID_STATUS[err], i
                    break
                _auction_bid(auction, s, b)
            if not skip[g] and auction[A_OUTCOME] != AUCTION_WON:
                skip[g] = 1
                _no_landlord(out[g], bool(rec.plays))
            if not skip[g]:
                ll = auction[A_LANDLORD]
                landlord[g], base[g] = ll, auction[A_BASE]
                for s in range(table.seats):
                    hands[g, s] = rec.hands[s] + (rec.bottom if s == ll else 0)
        if not skip[g]:
            fl = rec.rules.flags
            rules = rec.rules
            for i, (s, t) in enumerate(rec.plays):
                c, k, st = _parse_play_text(t, rules, fl)
                seats[pos + i], cards[pos + i], kinds[pos + i] = s, c, k
                if st and pre_index[g] < 0:
                    pre_status[g], pre_index[g] = st, i
            pos += len(rec.plays)
        res = rec.result
        if res is not None:
            try:
                sc = res.get("scores", [_NOCMP] * table.seats)
                if len(sc) != table.seats:
                    raise ValueError("scores of another table")
                sc = list(sc) + [_NOCMP] * (MAX_SEATS - table.seats)
                winner = res.get("winner", _NOCMP)
                stored[g] = (1, _NOCMP if rec.landlord is None else rec.landlord,
                             _NOCMP if winner == _NOCMP else {"landlord": 1, "farmers": 0}.get(winner, -1),
                             res.get("base", _NOCMP), res.get("multiplier", _NOCMP), res.get("bombs", _NOCMP),
                             int(res.get("spring", _NOCMP)), int(res.get("anti_spring", _NOCMP)), *sc,
                             res.get("show_multiple", _NOCMP), res.get("bottom_bonus", _NOCMP))
            except (TypeError, ValueError):
                stored[g, 0] = 2      # unreadable stored result: always a mismatch
        else:
            stored[g, 1:] = _NOCMP
            if rec.landlord is not None:
                stored[g, 0], stored[g, 1] = 1, rec.landlord
    start[n] = pos
    return GameBatch(hands, params, head, start, seats[:pos], cards[:pos], kinds[:pos], out, phase_bid, stored,
                     [r.id for r in recs], stages, parts)


@dataclasses.dataclass
class BatchResult:
    """Per-game arrays from :func:`validate_batch`.

    ``status`` indexes :data:`STATUS_NAMES` (0 ok, 1 incomplete, then the
    error codes); ``index`` is the bid (``phase_bid`` 1) or play index of
    the first error, -1 if none; ``landlord`` is -1 and ``base`` 0 when the
    bidding gave no landlord; ``winner`` the seat that went out (-1 if none);
    ``scores`` an (n, 3) array, or (n, 4) when some game has four seats (a
    three-seat game's fourth score is 0; ``nseats`` says each game's table);
    ``mismatch`` 1 when a finished game's stored result or landlord disagrees.
    """

    status: np.ndarray
    index: np.ndarray
    phase_bid: np.ndarray
    landlord: np.ndarray
    base: np.ndarray
    winner: np.ndarray
    bombs: np.ndarray
    spring: np.ndarray
    anti_spring: np.ndarray
    multiplier: np.ndarray
    scores: np.ndarray
    mismatch: np.ndarray
    ids: list
    #: Per game: (show multiple, bottom bonus, staged) and the seats' doubles
    #: (as wide as ``scores``; 1 beyond a game's seats).
    stage_parts: list
    doubles: np.ndarray
    #: Per game: the seats at its table.
    nseats: np.ndarray

    def __len__(self) -> int:
        return self.status.shape[0]

    def status_name(self, g: int) -> str:
        """``ok``, ``mismatch``, ``invalid`` or ``incomplete``, as :class:`ReplayResult`."""
        st = int(self.status[g])
        if st == S_OK:
            return "mismatch" if self.mismatch[g] else "ok"
        return "incomplete" if st == S_INCOMPLETE else "invalid"

    def code(self, g: int) -> "str | None":
        st = int(self.status[g])
        return None if st in (S_OK, S_INCOMPLETE) else STATUS_NAMES[st]

    def results(self) -> list:
        """Per game, the recomputed :class:`~ddz_tools.engines.game.Result` of a game
        played to the end (status ``ok`` or ``mismatch``), else ``None``."""
        status, landlord, winner = self.status.tolist(), self.landlord.tolist(), self.winner.tolist()
        base, mult, bombs = self.base.tolist(), self.multiplier.tolist(), self.bombs.tolist()
        spring, anti, scores = self.spring.tolist(), self.anti_spring.tolist(), self.scores.tolist()
        parts, doubles, nseats = self.stage_parts, self.doubles.tolist(), self.nseats.tolist()
        return [Result("landlord" if winner[g] == landlord[g] else "farmers", winner[g], landlord[g], base[g],
                       mult[g], bombs[g], spring[g] == 1, anti[g] == 1, tuple(scores[g][:nseats[g]]), parts[g][0],
                       parts[g][1], tuple(doubles[g][:nseats[g]]), parts[g][2])
                if status[g] == S_OK else None for g in range(len(status))]

    def replay_result(self, g: int, record: Record, result: "Result | None" = None) -> ReplayResult:
        """Game ``g`` (of ``record``) as a :class:`ReplayResult`: the verdict
        of :func:`replay_record`, with terser reasons (the error code and the
        move index).  ``result`` is ``results()[g]`` when already computed."""
        status, code = self.status_name(g), self.code(g)
        landlord = int(self.landlord[g])
        rep = ReplayResult(record.id, status, record.rules.describe(), code=code, n_plays=len(record.plays),
                           landlord=landlord if landlord >= 0 else None, base=int(self.base[g]),
                           stored=record.result)
        if code is not None:
            rep.phase = _PHASE_NAMES[int(self.phase_bid[g])]
            rep.index = int(self.index[g])
            field = {"show": "show", "double": "doubles"}.get(rep.phase, rep.phase + "s")
            rep.reason = (f"{field}[{rep.index}]: " if rep.index >= 0 else f"{field}: ") + code.replace('_', ' ')
            if rep.index < 0:
                rep.index = None
        elif status == "incomplete":
            rep.reason = "nobody went out" if self.base[g] else "no landlord (bidding unfinished or void)"
        else:
            rep.result = result if result is not None else self.results()[g]
            if status == "mismatch":
                rep.reason = "stored result disagrees"
        return rep


def run_batch(batch: GameBatch) -> np.ndarray:
    """Run the kernel on a packed batch; returns the raw output rows (columns ``OUT_*``)."""
    out = batch.out.copy()
    _validate_games(batch.hands, batch.params, batch.head, batch.start, batch.seats, batch.cards, batch.kinds, out,
                    batch.stages)
    return out


def validate_batch(games: "GameBatch | Iterable[Record | dict | str]") -> BatchResult:
    """Validate and score many games with one kernel call.

    ``games`` is a :class:`GameBatch` or records (parsed, dicts or JSON
    lines).  The result agrees with :func:`replay_record` game by game
    (tested), except that card ids (suits) are not checked here.

    >>> from ddz_tools.engines.game import random_game
    >>> from ddz_tools.engines.records import record_from_game
    >>> res = validate_batch([record_from_game(random_game(s)) for s in range(3)])
    >>> [res.status_name(g) for g in range(3)], int(res.scores.sum())
    (['ok', 'ok', 'ok'], 0)
    """
    batch = games if isinstance(games, GameBatch) else pack_games(games)
    out = run_batch(batch)
    st = batch.stored
    fin = out[:, OUT_STATUS] == S_OK
    ll_win = (out[:, OUT_WINNER] == batch.landlord).astype(np.int64)
    has = st[:, 0] == 1
    parts = np.array([p[:2] for p in batch.stage_parts], np.int64).reshape(len(batch), 2)
    mine = np.column_stack([batch.landlord, ll_win, batch.base, out[:, OUT_MULT], out[:, OUT_BOMBS],
                            out[:, OUT_SPRING], out[:, OUT_ANTI], out[:, OUT_S0:OUT_S0 + MAX_SEATS], parts])
    theirs = st[:, 1:]
    differ = np.any((theirs != _NOCMP) & (theirs != mine), axis=1)
    mismatch = (fin & ((has & differ) | (st[:, 0] == 2))).astype(np.int64)
    nseats = batch.nseats
    width = int(nseats.max()) if len(batch) else 3
    return BatchResult(out[:, OUT_STATUS].copy(), out[:, OUT_INDEX].copy(), batch.phase_bid, batch.landlord,
                       batch.base, out[:, OUT_WINNER].copy(), out[:, OUT_BOMBS].copy(), out[:, OUT_SPRING].copy(),
                       out[:, OUT_ANTI].copy(), out[:, OUT_MULT].copy(), out[:, OUT_S0:OUT_S0 + width].copy(),
                       mismatch, batch.ids, batch.stage_parts,
                       batch.stages[:, ST_D0:ST_D0 + width].copy(), nseats)
