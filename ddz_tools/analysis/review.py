"""Whole-game review: every move of a game judged, as on a chess analysis board.

Two views of a move, chosen by ``mode``:

``open``
    The open-hand value (every hand visible, the farmers one team) of the
    position before the move and after it, for the **mover's side**: ``win``
    (it can force a win), ``loss`` or ``unknown`` (the exact solver,
    :class:`ddz_tools.engines.solver.Solver`, hit its node or time budget for that
    position; an unknown is never guessed).  A move that turns a won position
    into a lost one is a **mistake**, reported with every winning play the
    mover had.  In a position that is lost whatever one plays no move can be
    a mistake; a position that is won stays won after the right move.
``hidden``
    The advisor's win probability for the mover, from the mover's own view
    (his hand, the cards played, the bottom if he is the landlord), before and
    after the move.  A drop of at least :data:`HIDDEN_THRESHOLDS` is an
    inaccuracy, a mistake or a blunder, reported with the advisor's choice.
``both``
    Both views; a move's ``flag`` is the worse of the two.

Positions are taken from the game engine (:class:`ddz_tools.engines.game.Game`): the
turn and trick rule is the engine's, never rewritten here.  The open-hand
positions are solved from the last move back to the first, with one
transposition table per game (cleared before each game, so verdicts do not
depend on which games a worker reviewed before): the late positions are cheap
and their values speed up the earlier ones.

Move numbers count every play and pass from the landlord's opening lead,
starting at 1, as in :mod:`ddz_tools.analysis.analyze`.

>>> from ddz_tools.engines.records import parse_record
>>> rec = parse_record({"schema": "ddz-record/1", "deal": {
...     "hands": ["333344445555666XD", "6777788889999TTTT", "JJJJQQQQKKKKAAAA2"], "bottom": "222"},
...     "first_bidder": 0, "bids": [{"seat": 0, "bid": 3}],
...     "plays": [{"seat": 0, "cards": "XD"}, {"seat": 1, "cards": ""}]})
>>> r = review_record(rec, "open", node_limit=2000)
>>> [(m.move, m.role, m.play, m.hands[m.seat][:6]) for m in r.moves]
[(1, 'landlord', 'XD', '333344'), (2, 'farmer1', 'pass', '677778')]
"""

from __future__ import annotations

import dataclasses
import time
from typing import Sequence

from ..core.cards import format_cards
from ..core.errors import ArgumentError, RecordError

MODES = ("open", "hidden", "both")

#: Flag classes, mildest first.
CLASSES = ("inaccuracy", "mistake", "blunder")

#: Smallest drop of the mover's win probability (hidden review) for each class.
#: Chosen above the advisor's sampling noise at its default budget (a standard
#: error of a few points): a drop of 5 points is an inaccuracy, 10 a mistake,
#: 20 a blunder.
HIDDEN_THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}

#: Solver nodes per position of an open review (a position beyond it is unknown).
REVIEW_NODE_LIMIT = 100_000
#: Transposition table of the per-process review solver (MiB).
REVIEW_TT_MB = 64

@dataclasses.dataclass
class MoveReview:
    """The verdict on one move.

    ``hands`` are the three hands (by seat) after the move.  ``open_before``
    and ``open_after`` are the open-hand values for the mover's side;
    ``better`` lists the winning plays the mover had when ``open_flag`` is
    set.  ``p_before`` and ``p_after`` are the advisor's win probabilities for
    the mover, ``advised`` its choice.  ``flag`` is the worst class of the
    move (None when nothing is wrong).
    """

    move: int
    seat: int
    role: str
    play: str
    hands: list
    player: "str | None" = None
    open_before: "str | None" = None
    open_after: "str | None" = None
    open_flag: "str | None" = None
    better: list = dataclasses.field(default_factory=list)
    p_before: "float | None" = None
    p_after: "float | None" = None
    hidden_flag: "str | None" = None
    advised: "str | None" = None
    flag: "str | None" = None
    #: At a move the hidden review flags: what the mover could infer of each
    #: hidden hand (:func:`ddz_tools.analysis.advise.beliefs` with inference):
    #: ``{"samples", "ess", "hands": [{"seat", "cards", "expected", "holdings"}]}``.
    beliefs: "dict | None" = None

    @property
    def is_pass(self) -> bool:
        return self.play == "pass"

    @property
    def drop(self) -> "float | None":
        """Win probability the move lost for the mover (hidden review)."""
        if self.p_before is None or self.p_after is None:
            return None
        return max(0.0, self.p_before - self.p_after)

    def landlord_open(self) -> "float | None":
        """The open-hand value after the move for the landlord: 1 win, 0 loss, None unknown."""
        if self.open_after in (None, "unknown"):
            return None
        mover_wins = self.open_after == "win"
        return 1.0 if mover_wins == (self.role == "landlord") else 0.0

    def landlord_p(self) -> "float | None":
        """The hidden-card win probability after the move, for the landlord's side."""
        if self.p_after is None:
            return None
        return self.p_after if self.role == "landlord" else 1.0 - self.p_after

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        if d["beliefs"] is None:
            del d["beliefs"]
        return d


@dataclasses.dataclass
class GameReview:
    """The review of one game: the deal, the auction and every move judged.

    ``seats`` holds per seat: ``moves`` reviewed (open: moves whose value
    before was known; hidden: moves with both probabilities), the count of
    each class, ``unknown`` (open-hand values the solver could not settle) and
    ``prob_lost`` (hidden: the sum of the drops over ``hidden_moves`` moves;
    ``mean_prob_lost`` per move).
    """

    mode: str
    hands: list           # the three hands as dealt (17 cards each)
    bottom: str
    first_bidder: int
    bids: list            # [[seat, bid], ...] in order
    landlord: int
    moves: list
    seats: list
    node_limit: "int | None" = None
    time_limit: "float | None" = None
    positions: int = 0    # open-hand positions solved (known or not)
    unknown: int = 0      # of which unknown
    seconds: float = 0.0
    wild: str = ""        # the deal's wild ranks under Laizi rules ("9", "5,9"), "" for none
    #: Happy Dou Dizhu: the shows ``[[seat, stage], ...]``, the seats' doubles
    #: (by seat; empty when the rules have none), the landlord's draws
    #: ``[[farmer seat, card], ...]`` and the base the auction set.
    shows: list = dataclasses.field(default_factory=list)
    doubles: list = dataclasses.field(default_factory=list)
    draws: list = dataclasses.field(default_factory=list)
    base: int = 0

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["seconds"] = round(self.seconds, 3)
        d["moves"] = [m.to_dict() for m in self.moves]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "GameReview":
        kw = dict(d)
        kw["moves"] = [MoveReview(**m) for m in d.get("moves") or []]
        return cls(**kw)


# Open-hand solver, one per process ----------------------------------------------------

_SOLVERS: dict = {}


def process_solver(tt_mb: int):
    """This process's open-hand :class:`~ddz_tools.engines.solver.Solver` with a ``tt_mb`` MiB table.

    Made on first use and kept, one per table size (the review's and the batch
    analysis's).  Callers clear it before each game, so that verdicts do not
    depend on what it solved before.
    """
    solver = _SOLVERS.get(tt_mb)
    if solver is None:
        from ..engines.solver import Solver
        solver = _SOLVERS[tt_mb] = Solver(tt_mb)
    return solver


def position_of(state, rules):
    """The open-hand :class:`~ddz_tools.engines.position.Position` of a game state (before a move)."""
    from ..engines.position import Position

    return open_position(state.hands, state.landlord, state.turn, state.last_play,
                         state.last_seat if state.last_play is not None else None, rules)


def open_position(hands, landlord: int, to_move: int, last_play, last_seat, rules):
    """The open-hand :class:`~ddz_tools.engines.position.Position` of a table: the
    packed ``hands`` by seat (three, or four under four-player rules), the
    seat to move and the play it answers (``None``, and ``last_seat`` None,
    for a free lead); seats are named by role (:func:`~ddz_tools.engines.game.seat_roles`)."""
    from ..engines.game import seat_roles
    from ..engines.position import Position

    roles = seat_roles(landlord, len(hands))
    by_role = {roles[s]: hands[s] for s in sorted(roles, key=lambda s: (s - landlord) % len(hands))}
    by = roles[last_seat] if last_play is not None else None
    if len(hands) == 3:
        return Position.three_player(by_role["landlord"], by_role["farmer1"], by_role["farmer2"],
                                     to_move=roles[to_move], after=last_play, by=by, rules=rules)
    return Position.build(by_role, roles[to_move], last_play, by, rules)


def _team(seat: int, landlord: int) -> int:
    return 0 if seat == landlord else 1


def _flip(value: str) -> str:
    return {"win": "loss", "loss": "win"}.get(value, value)


def _review_open(states, end, moves: list, landlord: int, rules, node_limit, time_limit) -> tuple[int, int]:
    """Fill the open-hand fields of ``moves``; returns (positions, unknown)."""
    solver = process_solver(REVIEW_TT_MB)
    solver.clear()
    n = len(moves)
    # The position after the last move is solved too when the game stopped
    # before anyone went out.
    positions = list(states) + ([] if end.turn is None else [end])
    values: list = [None] * len(positions)
    for i in range(len(positions) - 1, -1, -1):
        res = solver.solve(position_of(positions[i], rules), line=False, node_limit=node_limit,
                           time_limit=time_limit)
        values[i] = res.result
    for i, m in enumerate(moves):
        m.open_before = values[i]
        if i + 1 < len(positions):
            nxt = positions[i + 1].turn
            after = values[i + 1]
            m.open_after = after if _team(nxt, landlord) == _team(m.seat, landlord) else _flip(after)
        else:
            m.open_after = "win"     # the mover went out
        if m.open_before == "win" and m.open_after == "loss":
            res = solver.solve(position_of(states[i], rules), all_plays=True, line=False,
                               node_limit=node_limit, time_limit=time_limit)
            m.open_flag = "mistake"
            m.better = sorted(res.winning_plays)
    return len(positions), sum(v == "unknown" for v in values)


def classify_drop(drop: "float | None") -> "str | None":
    """The class of a drop in win probability (see :data:`HIDDEN_THRESHOLDS`).

    >>> [classify_drop(x) for x in (0.02, 0.05, 0.12, 0.5, None)]
    [None, 'inaccuracy', 'mistake', 'blunder', None]
    """
    if drop is None:
        return None
    out = None
    for name in CLASSES:
        if drop >= HIDDEN_THRESHOLDS[name] - 1e-12:
            out = name
    return out


def _worst(*flags) -> "str | None":
    ranked = [f for f in flags if f]
    return max(ranked, key=CLASSES.index) if ranked else None


def _seat_stats(moves: Sequence[MoveReview], mode: str, seats: int = 3) -> list:
    out = []
    for seat in range(seats):
        mine = [m for m in moves if m.seat == seat]
        s = {"moves": 0, "unknown": 0, "hidden_moves": 0, "prob_lost": 0.0, "mean_prob_lost": None}
        for c in CLASSES:
            s[c] = 0
        for m in mine:
            if mode in ("open", "both"):
                if m.open_before == "unknown":
                    s["unknown"] += 1
            reviewed = (mode in ("open", "both") and m.open_before not in (None, "unknown")) or \
                (mode in ("hidden", "both") and m.drop is not None)
            s["moves"] += reviewed
            if m.drop is not None:
                s["hidden_moves"] += 1
                s["prob_lost"] += m.drop
            if m.flag:
                s[m.flag] += 1
        s["prob_lost"] = round(s["prob_lost"], 4)
        if s["hidden_moves"]:
            s["mean_prob_lost"] = round(s["prob_lost"] / s["hidden_moves"], 4)
        out.append(s)
    return out


# Public entry ---------------------------------------------------------------------------


def stage_fields(rec) -> dict:
    """The stages of a record before its play, as :class:`GameReview` keeps
    them (``shows``, ``doubles``, ``draws``, ``base``)."""
    from ..engines.game import show_stage_text
    from ..engines.records import game_before_play

    g = game_before_play(rec)
    return {"shows": [[s, show_stage_text(c)] for s, c in g.shows],
            "doubles": list(g.doubles) if all(d is not None for d in g.doubles) else [],
            "draws": [[s, format_cards(c)] for s, c in g.draws], "base": g.base}


def replay_states(rec):
    """Replay a valid record with the game engine: (the engine's state before each
    move, the state at the end, the moves as ``(seat, Play)``).  The stages
    before the play (shows, bids, draws, doubles) are replayed first
    (:func:`ddz_tools.engines.records.game_before_play`)."""
    from ..engines.records import game_before_play

    game = game_before_play(rec)
    states = []
    for seat, text in rec.plays:
        states.append(game.state())
        game.play(text, seat)
    return states, game.state(), list(game.plays)


def review_record(rec, mode: str = "open", *, node_limit: "int | None" = REVIEW_NODE_LIMIT,
                  time_limit: "float | None" = None, players: "Sequence | None" = None,
                  advisor_options: "dict | None" = None) -> GameReview:
    """Review every move of a valid, finished record (:class:`ddz_tools.engines.records.Record`).

    ``mode`` is ``open``, ``hidden`` or ``both`` (see the module text);
    ``node_limit`` / ``time_limit`` bound the solver per position (open);
    ``advisor_options`` are passed to the advisor (hidden).  Raises
    :class:`~ddz_tools.core.errors.DdzError` when the record cannot be replayed.
    """
    if mode not in MODES:
        raise ArgumentError(f"review mode must be one of {', '.join(MODES)}, not {mode!r}")
    t0 = time.perf_counter()
    states, end, plays = replay_states(rec)
    if not states:
        raise RecordError("the game has no plays to review")
    if end.landlord is None:
        raise RecordError("the game has no landlord (the auction did not finish)")
    landlord = end.landlord
    from ..engines.game import seat_roles

    roles = seat_roles(landlord, rec.rules.seats)
    players = players if players is not None else rec.players
    moves = []
    for i, (seat, play) in enumerate(plays):
        after = states[i + 1].hands if i + 1 < len(states) else end.hands
        moves.append(MoveReview(i + 1, seat, roles[seat], play.notation(rec.rules),
                                [format_cards(h) for h in after],
                                player=players[seat] if players else None))
    review = GameReview(mode, [format_cards(h) for h in rec.hands], format_cards(rec.bottom), rec.first_bidder,
                        [[s, b] for s, b in rec.bids], landlord, moves, [], node_limit=node_limit,
                        time_limit=time_limit, wild=rec.rules.wild_text(), **stage_fields(rec))
    if mode in ("open", "both"):
        review.positions, review.unknown = _review_open(states, end, moves, landlord, rec.rules, node_limit,
                                                        time_limit)
    if mode in ("hidden", "both"):
        _review_hidden(moves, rec, advisor_options or {})
    for m in moves:
        m.flag = _worst(m.open_flag, m.hidden_flag)
    review.seats = _seat_stats(moves, mode, rec.rules.seats)
    review.seconds = time.perf_counter() - t0
    return review


#: Deals drawn for the beliefs shown at a move the hidden review flags.
BELIEF_SAMPLES = 256


def _move_seed(seed: int, move: int) -> int:
    """The advisor's seed for one move: fixed by the run's seed and the move number."""
    return (int(seed) * 1_000_003 + move) & 0x7FFFFFFF


def _review_hidden(moves, rec, options: dict) -> None:
    """Fill the hidden-card fields of ``moves`` with the advisor's verdicts.

    At each move the advisor (:func:`ddz_tools.analysis.advise.advise`) scores every
    legal play of the mover on the same sampled deals, from the mover's view
    (:func:`ddz_tools.analysis.advise.view_from_record`): ``p_before`` is the best
    play's win probability, ``p_after`` the played one's, ``advised`` the best
    play.  Both come from the same deals, so their difference is not blurred
    by sampling the two apart.
    """
    from .advise import advise, beliefs, view_from_record
    from .advise.beliefs import inference_weights

    opts = dict(options)
    seed = int(opts.pop("seed", 0))
    opts.setdefault("workers", 1)
    for m in moves:
        view = view_from_record(rec, m.move)
        adv = advise(view, seed=_move_seed(seed, m.move), **opts)
        by_play = {c.play: c for c in adv.candidates}
        mine = by_play.get(m.play)
        m.advised = adv.recommendation
        m.p_before = round(float(adv.candidates[0].win_prob), 4)
        m.p_after = None if mine is None else round(float(mine.win_prob), 4)
        m.hidden_flag = classify_drop(m.drop)
        if m.hidden_flag is not None:
            b = beliefs(view, BELIEF_SAMPLES, _move_seed(seed, m.move), weights=inference_weights)
            m.beliefs = {"samples": b.samples, "ess": round(b.ess, 1), "hands": [h.to_dict() for h in b.hands]}


# Totals over games ------------------------------------------------------------------------


def new_totals() -> dict:
    """Zeroed review totals (a batch, or one player across games); see :func:`add_to_totals`."""
    t = {"games": 0, "moves": 0, "unknown": 0}
    for c in CLASSES:
        t[c] = 0
    t.update({"prob_lost": 0.0, "hidden_moves": 0, "mean_prob_lost": None})
    return t


def add_to_totals(totals: dict, review: dict, seats: "Sequence[int] | None" = None) -> None:
    """Add the per-seat figures of a review (:meth:`GameReview.to_dict`) for
    ``seats`` (default: every seat of the game, three or four as its rules
    seat them: the review has one entry per seat).

    ``mean_prob_lost`` is the probability lost per hidden-reviewed move.
    """
    totals["games"] += 1
    for seat in range(len(review["seats"])) if seats is None else seats:
        s = review["seats"][seat]
        for k in ("moves", "unknown", "hidden_moves") + CLASSES:
            totals[k] += s[k]
        totals["prob_lost"] = round(totals["prob_lost"] + s["prob_lost"], 4)
    if totals["hidden_moves"]:
        totals["mean_prob_lost"] = round(totals["prob_lost"] / totals["hidden_moves"], 4)
