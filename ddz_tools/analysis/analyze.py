"""Batch analysis of recorded games: check, score, find mistakes, summarise.

What it does, per game (:func:`analyze_files` yields one :class:`GameAnalysis`
per game or deal, in input order):

1. **Replay and validate** every bid and play with the game engine
   (:mod:`ddz_tools.engines.records`, :mod:`ddz_tools.engines.botzone`).  The first illegal
   action makes the game ``invalid``, reported with its move number and the
   reason; other games are not affected.  A Botzone game that stops before
   anyone went out is ``incomplete``.
2. **Score**: the result (winner, base, multiplier, bombs, spring,
   anti-spring, scores) is recomputed from the plays; the fields in which a
   stored result disagrees are listed in ``result_disagrees``.
3. **Mistakes** (``solve_below`` > 0): from the first moment every hand holds
   at most ``solve_below`` cards, every position is solved with the exact
   three-player solver (the farmers cooperate).  A play is a *mistake* when the
   mover's side could force a win before it and is lost after it; the report
   names the seat, its role, the move number, the play made and every winning
   play it had.  Positions the solver cannot settle within its node/time
   limit are counted as ``unchecked``, never as mistakes.  Positions are cached
   within a game, so each is solved once.
4. **Bid review** (``bids=True``): the bid evaluator's best bid for each seat
   that bid, against the bid made; under Happy Dou Dizhu also each seat's
   double and show decisions against the doubling and show evaluators.

DouZero evaluation pickles hold deals, not games: each deal is validated and
reported (hands in our notation, control cards, bombs and minimum number of
plays per seat) with status ``deal``.

:func:`summarize` folds results into one summary: games, valid / invalid /
incomplete, landlord win rate, mean multiplier, bombs, springs, mistakes, and
per-player figures when the records name their players.

Move numbers count every play and pass from the landlord's opening lead,
starting at 1 (bids are numbered on their own, also from 1).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import gc
import itertools
import io
import json
import os
from typing import Callable, Iterable, Iterator, Sequence

from ..core._jit import interpreted
from ..core.cards import card_count, parse_cards
from ..core.errors import ArgumentError, DdzError, RecordError
from ..core.gamerules import next_seat, trick_after
from ..core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS, T_BOMB, T_ROCKET
from .review import (
    MODES as REVIEW_MODES,
    REVIEW_NODE_LIMIT,
    add_to_totals,
    new_totals,
    process_solver,
    replay_states,
)
from ..core.rules import Play, Rules, play_text_cards
from ..engines.sources import (
    FMT_BOTZONE_LOG,
    FMT_BOTZONE_TRANSCRIPT,
    FMT_DOUZERO,
    FMT_RECORD,
    Item,
    decode_item,
    parse_douzero_deal,
    read_items,
)

STATUS_VALID = "valid"
STATUS_INVALID = "invalid"
STATUS_INCOMPLETE = "incomplete"
STATUS_DEAL = "deal"

ROLES = ("landlord", "farmer1", "farmer2")

#: Default node budget of the solver per position (deterministic, unlike a time limit).
DEFAULT_NODE_LIMIT = 200_000


# Result model --------------------------------------------------------------------------


@dataclasses.dataclass
class Mistake:
    """A play that turned a won position into a lost one for the mover's side."""

    move: int
    seat: int
    role: str
    played: str
    winning: list
    player: "str | None" = None

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class GameAnalysis:
    """The analysis of one game (or one DouZero deal).

    ``file`` and ``line`` locate it (``line`` is the JSON Lines line, the index
    of a deal in a pickle, 1 for a one-game file, 0 for a whole file that could
    not be read); together they are the key that ``--resume`` skips on.
    """

    file: str
    line: int
    format: str
    status: str
    id: "str | None" = None
    rules: "str | None" = None
    reason: "str | None" = None
    phase: "str | None" = None
    move: "int | None" = None
    players: "list | None" = None
    landlord: "int | None" = None
    result: "dict | None" = None
    #: Every bomb and rocket played (``result["bombs"]`` counts those that
    #: raised the stake: fewer under four-player ``bomb_doubles=six-plus`` or
    #: ``ladder``, where bombs of 4 or 5 cards do not).
    bombs_played: "int | None" = None
    result_disagrees: list = dataclasses.field(default_factory=list)
    stored_result: "dict | None" = None
    mistakes: list = dataclasses.field(default_factory=list)
    positions_solved: int = 0
    positions_unchecked: int = 0
    bid_review: "list | None" = None
    #: Happy Dou Dizhu, with ``--bids``: each seat's double against the doubling evaluator.
    double_review: "list | None" = None
    #: Happy Dou Dizhu, with ``--bids``: the shows made and not made, against the show evaluator.
    show_review: "list | None" = None
    review: "dict | None" = None
    deal: "dict | None" = None
    notes: list = dataclasses.field(default_factory=list)

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.line)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "GameAnalysis":
        """Inverse of :meth:`to_dict` (used to resume from an ``--out`` file)."""
        if not isinstance(d, dict):
            raise RecordError(f"an analysis line is a JSON object, not {type(d).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        missing = {"file", "line", "format", "status"} - set(d)
        if missing:
            raise RecordError(f"analysis line lacks {', '.join(sorted(missing))}")
        kw = {k: v for k, v in d.items() if k in names}
        kw["mistakes"] = [Mistake(**m) if isinstance(m, dict) else m for m in kw.get("mistakes") or []]
        return cls(**kw)

    @property
    def label(self) -> str:
        """Where the game is: ``file:line`` (the file alone for a whole-file game)."""
        return f"{self.file}:{self.line}" if self.line else self.file

    def note(self) -> str:
        """The note of a table of games (``ddz analyze``): the reason of an
        invalid or incomplete game, the figures of a deal, or what a valid
        game's replay and review found (stored result disagreeing, moves left
        unchecked, bids other than the best, notes)."""
        if self.status == STATUS_INVALID:
            at = f"{'bid' if self.phase == 'bid' else 'move'} {self.move}: " if self.move else ""
            return at + (self.reason or "")
        if self.status == STATUS_INCOMPLETE:
            return self.reason or ""
        if self.status == STATUS_DEAL and self.deal:
            d = self.deal
            return (f"hands {' / '.join(d['hands'])}, bottom {d['bottom']}; controls {d['controls']}, "
                    f"bombs {d['bombs']}, min plays {d.get('min_plays')}")
        parts = []
        if self.result_disagrees:
            parts.append("stored result disagrees: " + ", ".join(self.result_disagrees))
        if self.positions_unchecked:
            parts.append(f"{self.positions_unchecked} move(s) unchecked")
        for b in self.bid_review or []:
            if not b["agrees"]:
                parts.append(f"seat {b['seat']} bid {b['bid']}, best {b['best']}")
        for b in self.double_review or []:
            if not b["agrees"]:
                parts.append(f"seat {b['seat']} doubled {b['double']}, best {b['best']}")
        for b in self.show_review or []:
            if not b["agrees"]:
                did = "showed" if b["show"] == "show" else "did not show"
                parts.append(f"seat {b['seat']} {did} at {b['stage']}, best {b['best']}")
        parts.extend(self.notes)
        return "; ".join(parts)

    def describe(self) -> str:
        """Where the game is and what is wrong with it, in one line."""
        where = self.label
        if self.status == STATUS_INVALID:
            at = f"{'bid' if self.phase == 'bid' else 'move'} {self.move}: " if self.move else ""
            return f"{where}: invalid: {at}{self.reason}"
        if self.status == STATUS_INCOMPLETE:
            return f"{where}: incomplete: {self.reason}"
        return f"{where}: {self.status}"


@dataclasses.dataclass(frozen=True)
class AnalyzeOptions:
    """What to compute for each game (picklable: it travels to the workers).

    ``rules`` applies to games that do not name their rules (Botzone games,
    DouZero deals, records without a ``rules`` field).
    """

    rules: Rules = Rules()
    solve_below: int = 10
    node_limit: "int | None" = DEFAULT_NODE_LIMIT
    time_limit: "float | None" = None
    bids: bool = False
    bid_samples: int = 200
    seed: int = 0
    review: "str | None" = None
    review_nodes: "int | None" = REVIEW_NODE_LIMIT
    review_samples: "int | None" = None   # advisor samples per move (None: the advisor's default)


# Per-game analysis ---------------------------------------------------------------------


def _invalid(item: Item, reason: str, move: "int | None" = None, **kw) -> GameAnalysis:
    return GameAnalysis(item.file, item.line, item.fmt, STATUS_INVALID, reason=reason, move=move, **kw)


def _analyze_deal(item: Item, opts: AnalyzeOptions) -> GameAnalysis:
    from ..engines.decompose import min_plays

    try:
        info = parse_douzero_deal(item.data)
    except DdzError as exc:
        return _invalid(item, str(exc), rules=opts.rules.describe())
    info["min_plays"] = [min_plays(h, opts.rules) for h in info["hands"]]
    return GameAnalysis(item.file, item.line, item.fmt, STATUS_DEAL, id=f"deal-{item.line}",
                        rules=opts.rules.describe(), deal=info)


@contextlib.contextmanager
def gc_paused():
    """A context in which Python's cyclic garbage collector is paused: for
    building many small acyclic objects (parsed JSON, records), where its
    repeated passes over them cost a third of the validate-and-score time.
    Reference counting still frees them; the collector's state is restored
    on leaving.  :func:`analyze_items` and the chunked readers run in it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def analyze_items(items: Sequence[Item], opts: AnalyzeOptions = AnalyzeOptions()) -> list[GameAnalysis]:
    """Analyse a chunk of items, in order: the unit of work of a worker."""
    with gc_paused():
        return _analyze_items(items, opts)


def _analyze_items(items: Sequence[Item], opts: AnalyzeOptions) -> list[GameAnalysis]:
    items = [decode_item(it) for it in items]
    out: list = [None] * len(items)
    games = []
    for i, item in enumerate(items):
        if item.error is not None:
            out[i] = _invalid(item, item.error)
        elif item.fmt == FMT_DOUZERO:
            out[i] = _analyze_deal(item, opts)
        else:
            games.append(i)
    if games:
        done = _analyze_games([items[i] for i in games], opts)
        for i, res in zip(games, done):
            out[i] = res
    return out


# Replay, score, search ------------------------------------------------------------------


def _strip_index(reason: str) -> str:
    """``plays[12]: seat 0 ...`` -> ``seat 0 ...`` (the move number is reported apart)."""
    if reason and reason.startswith(("plays[", "bids[")):
        head, sep, rest = reason.partition("]: ")
        if sep:
            return rest
    return reason


def _from_replay(item: Item, rec, rep) -> GameAnalysis:
    """A GameAnalysis from :func:`ddz_tools.engines.records.replay_record`'s verdict."""
    g = GameAnalysis(item.file, item.line, item.fmt, STATUS_VALID, id=_id(rec, item), rules=rep.rules,
                     players=list(rec.players) if rec.players else None, landlord=rep.landlord)
    if rep.status == "invalid":
        g.status, g.phase = STATUS_INVALID, rep.phase
        g.move = None if rep.index is None else rep.index + 1
        g.reason = _strip_index(rep.reason)
    elif rep.status == "incomplete":
        g.status, g.reason = STATUS_INCOMPLETE, rep.reason
        info = rec.extra.get("botzone") if isinstance(rec.extra, dict) else None
        if isinstance(info, dict) and info.get("reason"):
            g.notes.append(f"botzone: {info['reason']}")
    else:
        g.result = rep.result.to_dict()
        if rep.status == "mismatch":
            g.result_disagrees = list(rep.disagreements)
            g.stored_result = dict(rep.stored) if rep.stored else None
            g.reason = rep.reason
    return g


def _id(rec, item: Item):
    return None if rec.id is None else str(rec.id)


def _game_plays(rec):
    """Replay a valid record with the game engine: (hands at the lead, landlord, [(seat, Play)])."""
    states, end, plays = replay_states(rec)
    return list(states[0].hands if states else end.hands), end.landlord, plays


#: (play text, rule flags) -> is the play a bomb or a rocket (the four jokers with two decks).
_BOMB_TEXT: dict = {}


def _is_bomb_text(text: str, rules: Rules) -> bool:
    """Is a valid play's text a bomb or a rocket (as the engine reads it)?  Memoised."""
    key = (text, rules.flags)
    hit = _BOMB_TEXT.get(key)
    if hit is None:
        try:
            hit = Play.parse(text, rules).type in (T_BOMB, T_ROCKET)
        except DdzError:
            hit = False
        if len(_BOMB_TEXT) < 100_000:
            _BOMB_TEXT[key] = hit
    return hit


def bombs_played(rec, result: dict) -> int:
    """Every bomb and rocket played in a valid record whose replayed result is ``result``.

    ``result["bombs"]`` counts the bombs and rockets that raised the stake;
    that is every one of them except under four-player ``bomb_doubles=six-plus``
    or ``ladder``, where bombs of 4 or 5 cards leave the stake alone: only
    there are the plays read (each distinct text once)."""
    rules = rec.rules
    if not rules.flags & (F_BOMBS_SIX_PLUS | F_BOMBS_LADDER):
        return result.get("bombs") or 0
    return sum(1 for _, text in rec.plays if text and _is_bomb_text(text, rules))


def _reaches(rec, landlord: int, below: int) -> bool:
    """Does a valid game ever reach a moment when every hand holds at most ``below`` cards?

    Most games end before that, and then the mistake search has nothing to do:
    this cheap count spares them the full replay."""
    rules = rec.rules
    n = [rules.hand_cards] * rules.seats
    n[landlord] += rules.bottom_cards
    for seat, text in rec.plays:
        if max(n) <= below:
            return True
        if text:
            n[seat] -= card_count(play_text_cards(text, rules.decks))
    return False


def review_bids(rec, opts: AnalyzeOptions) -> "tuple[list | None, str | None]":
    """The bid evaluator's verdict on every bid of a record: (entries, None) or (None, why not).

    Each entry: ``seat``, ``order`` (0 = first to bid), ``player``, ``bid``
    (``pass``/``1``/``2``/``3``), ``best`` (the evaluator's recommendation),
    ``agrees``, ``expected`` (expected score of the bid made and of the best),
    ``cost`` (best minus made, in expected points) and ``samples``.  Under
    ``call-grab`` and ``first-call`` every action of the auction is reviewed
    by :func:`~ddz_tools.analysis.bid.evaluate_call` (``bid`` and ``best`` are
    ``pass``, ``call`` or ``grab``).
    """
    from .bid import CHOICES, evaluate_bid

    # The bidders knew only the wild ranks turned up before the bidding.
    rules = rec.rules.at_bidding()
    if rules.bidding in ("call-grab", "first-call"):
        return _review_calls(rec, opts, rules)
    if rules.bidding not in ("single-round", "until-two-pass"):
        return None, f"bid review needs bidding=single-round or until-two-pass (this game: {rules.describe()})"
    out = []
    before: list = []
    for k, (seat, bid) in enumerate(rec.bids[:rules.seats]):
        ev = evaluate_bid(rec.hands[seat], seat=k, before=tuple(before), samples=opts.bid_samples,
                          seed=opts.seed, workers=1, rules=rules)
        made = CHOICES[bid]
        exp = ev.expected_score
        out.append({"seat": seat, "order": k, "player": rec.players[seat] if rec.players else None,
                    "bid": made, "best": ev.recommendation, "agrees": made == ev.recommendation,
                    "expected": {made: round(exp[made], 4), ev.recommendation: round(exp[ev.recommendation], 4)},
                    "cost": round(exp[ev.recommendation] - exp[made], 4), "samples": ev.samples})
        before.append(bid)
    return out, None


def _review_calls(rec, opts: "AnalyzeOptions", rules) -> "tuple[list | None, str | None]":
    """:func:`review_bids` for a call-grab or first-call auction: each action
    against :func:`~ddz_tools.analysis.bid.evaluate_call` from what the seat knew."""
    from .bid import evaluate_call

    if rules.is_laizi:
        return None, "bid review of a call-grab auction under Laizi rules is not available"
    out, notes = [], []
    for k, (seat, act) in enumerate(rec.bids):
        before = [a for _, a in rec.bids[:k]]
        try:
            ev = evaluate_call(rec.hands[seat], (seat - rec.first_bidder) % 3, before, samples=opts.bid_samples,
                               seed=opts.seed, workers=1, rules=rules)
        except DdzError as exc:
            notes.append(f"bid review of bids[{k}]: {exc}")
            continue
        made = ev.what if act else "pass"
        exp = ev.expected_score
        out.append({"seat": seat, "order": k, "player": rec.players[seat] if rec.players else None,
                    "bid": made, "best": ev.recommendation, "agrees": made == ev.recommendation,
                    "expected": {made: round(exp[made], 4), ev.recommendation: round(exp[ev.recommendation], 4)},
                    "cost": round(exp[ev.recommendation] - exp[made], 4), "samples": ev.samples})
    return out, "; ".join(notes) or None


def review_doubles(rec, opts: "AnalyzeOptions") -> tuple["list | None", "str | None"]:
    """Each seat's double of a Happy Dou Dizhu game against
    :func:`~ddz_tools.analysis.bid.evaluate_double`, from what the seat knew then (its
    cards, the bottom, the base and the doubles before it): ``(rows, None)``,
    or ``(None, why)`` when the game has no doubles to review.  A row:
    ``seat``, ``role``, ``double`` (as made, ``x2``), ``best``, ``agrees``,
    ``expected`` (both choices' expected scores) and ``cost``."""
    from .bid import DOUBLE_SEATS, evaluate_double
    from ..engines.records import game_before_play

    if rec.rules.doubling == "off":
        return None, None
    g = game_before_play(rec)
    if g.landlord is None or any(d is None for d in g.doubles):
        return None, "double review: the game did not reach the doubling"
    flush = None
    if rec.bottom_ids is not None:
        flush = all(c < 52 for c in rec.bottom_ids) and len({c % 4 for c in rec.bottom_ids}) == 1
    out = []
    notes = []
    for place, rel in enumerate((1, 2, 0)):
        seat = (g.landlord + rel) % 3
        hand = rec.hands[seat] + (rec.bottom if rel == 0 else 0)
        before = [g.doubles[(g.landlord + r) % 3] for r in (1, 2, 0)[:place]]
        try:
            ev = evaluate_double(hand, rec.bottom, DOUBLE_SEATS[place], before, g.base, samples=opts.bid_samples,
                                 seed=opts.seed, workers=1, rules=rec.rules, flush=flush)
        except DdzError as exc:
            notes.append(f"double review of seat {seat}: {exc}")
            continue
        made = f"x{g.doubles[seat]}"
        exp = ev.expected_score
        out.append({"seat": seat, "role": ev.role, "player": rec.players[seat] if rec.players else None,
                    "double": made, "best": ev.recommendation, "agrees": made == ev.recommendation,
                    "expected": {made: round(exp[made], 4), ev.recommendation: round(exp[ev.recommendation], 4)},
                    "cost": round(exp[ev.recommendation] - exp[made], 4), "samples": ev.samples})
    return out, "; ".join(notes) or None


def review_shows(rec, opts: "AnalyzeOptions") -> tuple["list | None", "str | None"]:
    """The show decisions of a Happy Dou Dizhu game against
    :func:`~ddz_tools.analysis.bid.evaluate_show`, from what the seat knew then:
    ``(rows, notes)``, or ``(None, why)`` when the game has none to review.

    Reviewed: every show the record holds at a moment whose cards the record
    knows (``before-deal``: none; ``deal:N`` with the whole hand dealt), and
    the decision not to show at one moment per seat: for a seat that never
    showed during the deal, the end of the deal (``deal:N`` with all its
    cards, when the rules allow a show there: ``show=qq``), and for the
    landlord who had not shown yet, his first play, shown or not.  A show at
    ``deal:N`` before the whole hand is dealt is not reviewed (the record does
    not say which cards the seat held then), nor the first play after the
    landlord's draws (the evaluator does not model them); a note says so.

    A row: ``seat``, ``role``, ``player``, ``stage``, ``factor`` (what the
    show was worth there), ``show`` (``show`` or ``no``, as made), ``best``,
    ``agrees``, ``expected`` (both choices' expected scores), ``margin`` and
    ``margin_ci`` (the evaluator's best over the other choice, with its 95%
    interval: an interval reaching 0 is a call inside the evaluator's noise),
    ``cost`` (best minus made) and ``samples``.  A choice is *against the
    evaluator* when it is not ``best`` (``agrees`` false), as for the bids and
    the doubles: the one definition :func:`summarize` counts."""
    from .bid import evaluate_show
    from ..engines.game import show_stage_code
    from ..variants.table import ROLE_NAMES
    from ..core.gamerules import show_factor
    from ..engines.records import game_before_play

    rules = rec.rules
    if rules.show == "off":
        return None, None
    if rules.is_laizi:
        return None, "show review under Laizi rules is not available (the show evaluator does not draw wild ranks)"
    g = game_before_play(rec)
    if g.landlord is None:
        return None, "show review: the game has no landlord"
    n = rules.hand_cards
    factor_at = interpreted(show_factor)
    early = {seat: stage for seat, stage in rec.shows if stage != "first-play"}
    flush = None
    if rec.bottom_ids is not None:
        flush = all(c < 52 for c in rec.bottom_ids) and len({c % 4 for c in rec.bottom_ids}) == 1
    # (stage code, place in the auction, seat, stage, choice made, evaluate_show's arguments) of every
    # reviewed moment; sorted, they come in time order.
    moments, notes = [], []
    for k in range(3):
        seat = (rec.first_bidder + k) % 3
        stage = early.get(seat)
        if stage is None:
            if factor_at(rules.stage_flags, n, 0) == 0:
                continue               # no show with the whole hand dealt (show=dianle, 18 cards)
            stage, made = f"deal:{n}", "no"
        else:
            made = "show"
        code = show_stage_code(stage)
        if code not in (0, n):
            notes.append(f"show review of seat {seat}: the record does not say which {code} cards it held at "
                         f"{stage}")
            continue
        moments.append((code, k, seat, stage, made, {"hand": rec.hands[seat] if code else "", "seat": k}))
    moments.sort()
    ll = g.landlord
    if ll not in early:
        if rec.draws:
            notes.append("show review of the landlord's first play: the evaluator does not model his draws")
        else:
            before = () if rules.doubling == "off" else [g.doubles[(ll + r) % 3] for r in (1, 2, 0)]
            shown = [stage for seat, stage in rec.shows if stage != "first-play"]
            made = "show" if (ll, "first-play") in rec.shows else "no"
            moments.append((n + 1, 0, ll, "first-play", made,
                            {"hand": rec.hands[ll] + rec.bottom, "bottom": rec.bottom, "base": g.base,
                             "before": before, "shown": shown, "flush": flush}))
    roles = {(ll + r) % 3: ROLE_NAMES[r] for r in range(3)}
    out = []
    for _, _, seat, stage, made, kw in moments:
        try:
            ev = evaluate_show(stage=stage, samples=opts.bid_samples, seed=opts.seed, workers=1, rules=rules, **kw)
        except DdzError as exc:
            notes.append(f"show review of seat {seat} at {stage}: {exc}")
            continue
        exp = ev.expected_score
        best = ev.recommendation
        out.append({"seat": seat, "role": roles[seat], "player": rec.players[seat] if rec.players else None,
                    "stage": ev.stage, "factor": ev.factor, "show": made, "best": best, "agrees": made == best,
                    "expected": {c: round(v, 4) for c, v in exp.items()}, "margin": round(ev.margin, 4),
                    "margin_ci": [round(x, 4) for x in ev.margin_ci], "cost": round(exp[best] - exp[made], 4),
                    "samples": ev.samples})
    return out, "; ".join(notes) or None


def _guarded(review, rec, opts: AnalyzeOptions, what: str) -> tuple:
    """``review(rec, opts)``, its error as ``(None, "WHAT failed: ...")``: one
    game's review never loses the batch."""
    try:
        return review(rec, opts)
    except DdzError as exc:
        return None, f"{what} failed: {exc}"


def _deep(g: GameAnalysis, rec, opts: AnalyzeOptions) -> None:
    """Mistake search and bid review of a valid game, in place."""
    if opts.solve_below > 0 and _reaches(rec, g.landlord, opts.solve_below):
        try:
            hands, landlord, plays = _game_plays(rec)
            ms = find_mistakes(hands, landlord, plays, rec.rules, opts.solve_below, opts.node_limit,
                               opts.time_limit, rec.players)
        except DdzError as exc:  # never lose the batch to one game's search
            g.notes.append(f"mistake search failed: {exc}")
        else:
            g.mistakes, g.positions_solved, g.positions_unchecked = ms.mistakes, ms.solved, ms.unchecked
    if opts.bids:
        g.bid_review, why = _guarded(review_bids, rec, opts, "bid review")
        if why:
            g.notes.append(why)
        elif rec.all_pass != "redeal":
            g.notes.append("bid review assumes a redeal when all pass (Botzone makes seat 0 landlord)")
        if rec.rules.doubling != "off":
            g.double_review, why = _guarded(review_doubles, rec, opts, "double review")
            if why:
                g.notes.append(why)
        if rec.rules.show != "off":
            g.show_review, why = _guarded(review_shows, rec, opts, "show review")
            if why:
                g.notes.append(why)
    if opts.review:
        from .review import review_record

        try:
            adv = {"seed": opts.seed} if opts.review_samples is None else {"seed": opts.seed,
                                                                           "samples": opts.review_samples}
            g.review = review_record(rec, opts.review, node_limit=opts.review_nodes, time_limit=opts.time_limit,
                                     players=_player_names(g), advisor_options=adv).to_dict()
        except DdzError as exc:
            g.notes.append(f"review failed: {exc}")


def _record_of(item: Item, opts: AnalyzeOptions):
    """(Record, None) or (None, GameAnalysis of a game that cannot be replayed)."""
    from ..engines.records import parse_record

    if item.fmt == FMT_RECORD:
        data = item.data
        if isinstance(data, dict) and "rules" not in data:
            data = dict(data, rules=opts.rules.describe())
        try:
            return parse_record(data), None
        except DdzError as exc:
            return None, _invalid(item, str(exc), rules=opts.rules.describe())
    if item.fmt in (FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT):
        return _botzone_record(item, opts)
    return None, _invalid(item, f"unknown input format {item.fmt!r}")


def _botzone_record(item: Item, opts: AnalyzeOptions):
    """Import a Botzone judge log or transcript as a record (card ids kept, so suits are checked)."""
    from ..engines import botzone

    try:
        if item.fmt == FMT_BOTZONE_LOG:
            rec = botzone.import_judge_log(item.data, rules=opts.rules)
        else:
            # import_file also reads the judge's sibling "*-scores.txt" file, when there is one.
            rec = botzone.import_file(item.file, rules=opts.rules)[0]
    except (DdzError, OSError) as exc:
        return None, _invalid(item, str(exc), rules=opts.rules.describe())
    return rec, None


def _analyze_games(items: Sequence[Item], opts: AnalyzeOptions) -> list[GameAnalysis]:
    """Replay (one kernel call for the whole chunk), score and search a chunk of games."""
    from ..engines.records import S_OK, replay_record, validate_batch

    out: list = [None] * len(items)
    fast, slow = [], []
    for i, item in enumerate(items):
        rec, bad = _record_of(item, opts)
        if bad is not None:
            out[i] = bad
        elif rec.hand_ids is not None or rec.play_ids is not None:
            slow.append((i, rec))      # card ids (suits) are checked by the full replay only
        else:
            fast.append((i, rec))
    deep = []
    if fast:
        res = validate_batch([r for _, r in fast])
        ok = ((res.status == S_OK) & (res.mismatch == 0)).tolist()
        results = res.results()
        described: dict = {}
        for k, (i, rec) in enumerate(fast):
            if not ok[k]:
                # Rare: the full replay gives the reason in words (and agrees with the kernel).
                slow.append((i, rec))
                continue
            item = items[i]
            desc = described.get(rec.rules)
            if desc is None:
                desc = described[rec.rules] = rec.rules.describe()
            result = results[k]
            g = GameAnalysis(item.file, item.line, item.fmt, STATUS_VALID,
                             None if rec.id is None else str(rec.id), desc, landlord=result.landlord,
                             players=list(rec.players) if rec.players else None, result=result.to_dict())
            g.bombs_played = bombs_played(rec, g.result)
            out[i] = g
            deep.append((g, rec))
    for i, rec in slow:
        g = _from_replay(items[i], rec, replay_record(rec))
        out[i] = g
        if g.status == STATUS_VALID:
            g.bombs_played = bombs_played(rec, g.result)
            deep.append((g, rec))
    if opts.solve_below > 0 or opts.bids or opts.review:
        for g, rec in deep:
            _deep(g, rec, opts)
    return out


# Mistake search ---------------------------------------------------------------------------

_next_seat = interpreted(next_seat)
_trick_after = interpreted(trick_after)

#: Transposition table of the per-process solver (MiB); cleared before every game so
#: that node limits give the same verdicts whatever else a worker analysed before.
SOLVER_TT_MB = 16


@dataclasses.dataclass
class MistakeSearch:
    """What :func:`find_mistakes` found in one game."""

    mistakes: list
    solved: int        # positions with a proven value
    unchecked: int     # moves that could not be checked (a position hit a limit)
    start_move: "int | None"  # first move checked (1-based), None if never reached


def find_mistakes(hands: Sequence[int], landlord: int, plays: Sequence, rules: Rules,
                  solve_below: int = 10, node_limit: "int | None" = DEFAULT_NODE_LIMIT,
                  time_limit: "float | None" = None, players: "Sequence | None" = None) -> MistakeSearch:
    """Every play that turned a won position into a lost one for the mover's side.

    ``hands`` are the packed hands by seat when play starts (three, or four
    under four-player rules; the landlord's with the bottom), ``plays`` the ``(seat, Play)`` actions in order, passes
    included.  From the first move at which every hand holds at most
    ``solve_below`` cards, the position before each move is solved (the
    farmers one team); when the mover's side was winning and the position
    after the move is lost for it, the move is a :class:`Mistake` listing every
    winning play the mover had.  A move whose positions hit the solver's
    limits is counted as unchecked.

    >>> from ddz_tools.core.rules import Play
    >>> hands = [parse_cards("KK2"), parse_cards("A"), parse_cards("3")]
    >>> r = find_mistakes(hands, 0, [(0, Play.parse("K")), (1, Play.parse("A"))], Rules())
    >>> [(m.move, m.seat, m.role, m.played, m.winning) for m in r.mistakes]
    [(1, 0, 'landlord', 'K', ['2', 'KK'])]
    >>> r.solved, r.unchecked, r.start_move
    (2, 0, 1)
    >>> r = find_mistakes(hands, 0, [(0, Play.parse("KK")), (1, Play.pass_())], Rules())
    >>> r.mistakes, r.solved
    ([], 2)
    """
    from .review import open_position, roles_of

    if solve_below <= 0:
        return MistakeSearch([], 0, 0, None)
    ns = len(hands)
    roles = roles_of(landlord, ns)
    team = {s: (0 if s == landlord else 1) for s in range(ns)}
    solver = None
    cache: dict = {}
    h = list(hands)
    last = None          # the Play to answer
    last_by = None       # its seat
    started = None
    mistakes: list = []
    solved = unchecked = 0

    def value(hs, to_move, prev, prev_by, want_plays=False):
        """(result for the side to move, winning plays or None)."""
        nonlocal solved
        key = (*hs, to_move, prev.cards if prev else 0, prev.kind if prev else 0, prev_by)
        hit = cache.get(key)
        if hit is not None and (not want_plays or hit[1] is not None or hit[0] != "win"):
            return hit
        nonlocal solver
        if solver is None:
            solver = process_solver(SOLVER_TT_MB)
            solver.clear()
        pos = open_position(hs, landlord, to_move, prev, prev_by, rules)
        res = solver.solve(pos, all_plays=want_plays, line=False, node_limit=node_limit,
                           time_limit=time_limit)
        out = (res.result, sorted(res.winning_plays) if want_plays and res.result == "win" else None)
        if hit is None and res.result != "unknown":
            solved += 1
        cache[key] = out
        return out

    for i, (seat, play) in enumerate(plays):
        if started is None and max(card_count(x) for x in h) <= solve_below:
            started = i
        if started is not None:
            before, _ = value(h, seat, last, last_by)
        # Apply the move.
        after_h = list(h)
        if not play.is_pass:
            after_h[seat] -= play.cards
        nxt = _next_seat(seat, ns)
        nxt_kind, nxt_by = _trick_after(play.kind, seat, 0 if last is None else last.kind, last_by, ns)
        if nxt_kind == 0:           # the trick is over: the seat to move leads
            nxt_last, nxt_by = None, None
        else:
            nxt_last = last if play.is_pass else play
        if started is not None:
            if before == "unknown":
                unchecked += 1
            elif before == "win" and after_h[seat] != 0:
                after, _ = value(after_h, nxt, nxt_last, nxt_by)
                if after == "unknown":
                    unchecked += 1
                elif (after == "win") != (team[nxt] == team[seat]):
                    _, winning = value(h, seat, last, last_by, want_plays=True)
                    mistakes.append(Mistake(i + 1, seat, roles[seat], play.notation(), winning or [],
                                            players[seat] if players else None))
        if after_h[seat] == 0:
            break
        h, last, last_by = after_h, nxt_last, nxt_by
    return MistakeSearch(mistakes, solved, unchecked, None if started is None else started + 1)


# Reading and running ---------------------------------------------------------------------


def iter_items(paths: Iterable[str]) -> Iterator[Item]:
    """Every item of every file, in order; a file that cannot be read at all
    becomes one item with ``line`` 0 and ``error`` set.  JSON Lines stay
    undecoded here: the worker that analyses a line decodes it."""
    for path in paths:
        try:
            yield from read_items(path, decode=False)
        except (DdzError, OSError) as exc:
            reason = str(exc) if isinstance(exc, DdzError) else (exc.strerror or str(exc))
            norm = os.path.normpath(path)
            if reason.startswith(norm + ": "):
                reason = reason[len(norm) + 2:]
            yield Item(norm, 0, "unknown", None, reason)


def _chunks(seq: Sequence, size: int) -> list:
    return [seq[i:i + size] for i in range(0, len(seq), size)]


#: Items read before the analysis starts: an input up to this size is known
#: whole (progress shows its total); a larger one is read chunk by chunk.
READ_AHEAD = 20_000


def _read_chunks(stream: Iterator, size: int) -> Iterator[list]:
    """Lists of ``size`` items read from ``stream`` as they are needed."""
    while True:
        with gc_paused():
            chunk = list(itertools.islice(stream, size))
        if not chunk:
            return
        yield chunk


def _default_chunk(n: int, workers: int, opts: AnalyzeOptions) -> int:
    per = 1 if opts.review else 8 if opts.solve_below > 0 or opts.bids else 1024
    return max(1, min(per, -(-n // max(1, 4 * workers))))


def _run_ordered(submit: Callable, chunks: list, window: int) -> Iterator[list]:
    """Submit chunks with at most ``window`` in flight; yield results in order."""
    pending = collections.deque()
    it = iter(chunks)
    for chunk in it:
        pending.append(submit(chunk))
        if len(pending) >= window:
            break
    while pending:
        fut = pending.popleft()
        res = fut.result()
        nxt = next(it, None)
        if nxt is not None:
            pending.append(submit(nxt))
        yield res


def analyze_files(paths: Iterable[str], *, rules: "Rules | str | None" = None, solve_below: int = 10,
                  node_limit: "int | None" = DEFAULT_NODE_LIMIT, time_limit: "float | None" = None,
                  bids: bool = False, bid_samples: int = 200, seed: int = 0, review: "str | None" = None,
                  review_nodes: "int | None" = REVIEW_NODE_LIMIT, review_samples: "int | None" = None,
                  workers: int = 1,
                  scheduler: "str | object | None" = None, skip: Iterable[tuple] = (),
                  progress: "Callable[[int, int], None] | None" = None,
                  chunk_size: "int | None" = None) -> Iterator[GameAnalysis]:
    """Analyse every game of ``paths``; yields one :class:`GameAnalysis` per game, in input order.

    ``rules`` is used for games that do not name their own; ``solve_below``
    (0 = off) starts the mistake search once every hand holds at most that many
    cards, with ``node_limit`` / ``time_limit`` per position; ``bids`` adds the
    bid review (``bid_samples`` deals per evaluation, seeded by ``seed``);
    ``review`` (``open``, ``hidden`` or ``both``) reviews every move
    (:mod:`ddz_tools.analysis.review`, ``review_nodes`` solver nodes per position,
    ``review_samples`` advisor samples per move, seeded by ``seed``).
    ``workers`` > 1 runs chunks of games in a process pool; ``scheduler`` (a
    ``dask.distributed`` address or ``Client``) runs them on a Dask cluster.
    Either way the results are the same as a single-worker run, in the same
    order (with a ``time_limit`` the solver's verdicts may depend on load).
    ``skip`` holds ``(file, line)`` keys already analysed (``--resume``);
    ``progress(done, total)`` is called as games complete.

    >>> import pickle, tempfile, os
    >>> deck = [r for r in range(3, 15) for _ in range(4)] + [17] * 4 + [20, 30]
    >>> deal = {"landlord": deck[:20], "landlord_down": deck[20:37],
    ...         "landlord_up": deck[37:], "three_landlord_cards": deck[17:20]}
    >>> path = os.path.join(tempfile.mkdtemp(), "deals.pkl")
    >>> with open(path, "wb") as f:
    ...     pickle.dump([deal, {"landlord": [3]}], f)
    >>> [(g.line, g.status, g.reason) for g in analyze_files([path])]
    [(1, 'deal', None), (2, 'invalid', 'DouZero deal lacks landlord_down, landlord_up, three_landlord_cards')]
    """
    opts = AnalyzeOptions(rules=Rules.parse(rules) if not isinstance(rules, Rules) else rules,
                          solve_below=int(solve_below), node_limit=node_limit, time_limit=time_limit,
                          bids=bool(bids), bid_samples=int(bid_samples), seed=int(seed), review=review or None,
                          review_nodes=review_nodes, review_samples=review_samples)
    if opts.solve_below < 0:
        raise ArgumentError("solve_below must be 0 (off) or a positive number of cards", param="solve_below")
    if opts.review is not None and opts.review not in REVIEW_MODES:
        raise ArgumentError(f"review must be one of {', '.join(REVIEW_MODES)}, not {opts.review!r}", param="review")
    skip = set(tuple(k) for k in skip)
    stream = (it for it in iter_items(paths) if it.key not in skip)
    workers = max(1, int(workers or 1))
    slots = workers if scheduler is None else 8
    # Read ahead up to a few chunks: a small input is then known whole (its
    # total is shown and its chunks are sized to keep every worker busy); a
    # large one is streamed chunk by chunk, so memory does not grow with it.
    per = chunk_size or _default_chunk(1 << 62, slots, opts)
    ahead = max(READ_AHEAD, 4 * slots * per)
    with gc_paused():
        head = list(itertools.islice(stream, ahead + 1))
    if len(head) <= ahead:
        total = len(head)
        size = chunk_size or _default_chunk(total, slots, opts)
        chunks = iter(_chunks(head, size))
        several = total > size
    else:
        total = None
        size = per
        chunks = itertools.chain(_chunks(head, size), _read_chunks(stream, size))
        several = True
    if progress:
        progress(0, total)
    if not head:
        return
    done = 0
    if scheduler is not None:
        results = _run_dask(scheduler, chunks, opts)
    elif workers > 1 and several:
        results = _run_pool(workers, chunks, opts)
    else:
        results = (analyze_items(c, opts) for c in chunks)
    for res in results:
        for g in res:
            yield g
        done += len(res)
        if progress:
            progress(done, total)


def _run_pool(workers: int, chunks: list, opts: AnalyzeOptions) -> Iterator[list]:
    import concurrent.futures
    import functools
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        fn = functools.partial(analyze_items, opts=opts)
        yield from _run_ordered(lambda c: pool.submit(fn, c), chunks, 4 * workers)


def _run_dask(scheduler, chunks: list, opts: AnalyzeOptions) -> Iterator[list]:
    try:
        from distributed import Client
    except ImportError:
        raise ArgumentError("scheduler needs dask.distributed: pip install 'ddz-tools[dask]'",
                            param="scheduler") from None
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        n = max(1, sum(client.nthreads().values()))
        yield from _run_ordered(lambda c: client.submit(analyze_items, c, opts, pure=False),
                                chunks, 4 * n)
    finally:
        if own:
            client.close()


# Resume ----------------------------------------------------------------------------------


def results_format(path: str) -> "str | None":
    """The format of a results file a previous run wrote: ``"csv"``,
    ``"json"`` (JSON Lines), or ``None`` when it is missing or empty."""
    if not os.path.exists(path) or not os.path.getsize(path):
        return None
    with open(path, "rb") as f:
        return "csv" if f.read(5) == b"file," else "json"


def load_results(path: str, repair: bool = False) -> list[GameAnalysis]:
    """The analyses already written to an ``--out`` file (JSON Lines, or CSV with a header).

    A last line cut short by an interrupted run is dropped (and, with
    ``repair``, cut from the file so that appending starts on a fresh line);
    any other unreadable line is an error.
    """
    import csv

    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        raw = f.read()
    complete = raw.endswith(b"\n")
    if repair and raw and not complete:
        cut = raw.rfind(b"\n") + 1
        with open(path, "r+b") as f:
            f.truncate(cut)
    text = raw.decode("utf-8", errors="replace")
    if not complete:
        text = text[:text.rfind("\n") + 1]
    if not text.strip():
        return []
    if text.startswith("file,"):
        out = []
        for i, row in enumerate(csv.DictReader(io.StringIO(text, newline="")), 2):
            try:
                out.append(from_flat_row(row))
            except RecordError as exc:
                raise RecordError(f"{path}:{i}: {exc}; resume needs the file a previous run wrote",
                                  param="resume") from None
        return out
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            out.append(GameAnalysis.from_dict(json.loads(line)))
        except (ValueError, TypeError) as exc:
            raise RecordError(f"{path}:{i}: not an analysis line ({exc}); "
                              "resume needs the file a previous run wrote", param="resume") from None
    return out


# Summary ---------------------------------------------------------------------------------


def _player_names(g: GameAnalysis) -> "list | None":
    if g.players and len(g.players) in (3, 4) and all(isinstance(p, str) and p for p in g.players):
        return g.players
    return None


def summarize(analyses: Iterable[GameAnalysis]) -> dict:
    """Figures across games (each field is described in the README, "Summary").

    >>> g = GameAnalysis("f", 1, "ddz-record/1", "valid", landlord=0, players=["a", "b", "c"],
    ...                  result={"winner": "landlord", "multiplier": 2, "bombs": 1, "spring": False,
    ...                          "anti_spring": False, "scores": [4, -2, -2]})
    >>> s = summarize([g])
    >>> s["games"], s["valid"], s["landlord_win_rate"], s["players"]["a"]["wins"]
    (1, 1, 1.0, 1)
    """
    s = {
        "files": 0, "games": 0, "valid": 0, "invalid": 0, "incomplete": 0, "deals": 0,
        "result_disagrees": 0, "landlord_wins": 0, "farmer_wins": 0, "landlord_win_rate": None,
        "mean_multiplier": None, "bombs": 0, "stake_bombs": 0, "springs": 0, "anti_springs": 0,
        "mistakes": 0, "games_with_mistakes": 0, "mistakes_by_role": {r: 0 for r in ROLES},
        "positions_solved": 0, "positions_unchecked": 0, "bids_reviewed": 0, "bids_agreeing": 0,
        "bid_cost": 0.0, "doubles_reviewed": 0, "doubles_agreeing": 0, "double_cost": 0.0,
        "shows_reviewed": 0, "shows_agreeing": 0, "show_cost": 0.0,
        "stake_decisions": 0, "stake_against": 0,
        "review": new_totals(), "rules": {}, "players": {},
    }
    files = set()
    mult_sum = 0
    players: dict = {}
    for g in analyses:
        files.add(g.file)
        s["games"] += 1
        if g.status == STATUS_VALID:
            s["valid"] += 1
        elif g.status == STATUS_INVALID:
            s["invalid"] += 1
        elif g.status == STATUS_INCOMPLETE:
            s["incomplete"] += 1
        elif g.status == STATUS_DEAL:
            s["deals"] += 1
        if g.rules:
            s["rules"][g.rules] = s["rules"].get(g.rules, 0) + 1
        if g.result_disagrees:
            s["result_disagrees"] += 1
        if g.result and len(g.result.get("scores") or ()) == 4:
            s["mistakes_by_role"].setdefault("farmer3", 0)   # a four-player game: three farmers
        s["positions_solved"] += g.positions_solved
        s["positions_unchecked"] += g.positions_unchecked
        if g.mistakes:
            s["games_with_mistakes"] += 1
        for m in g.mistakes:
            s["mistakes"] += 1
            role = m.role if isinstance(m, Mistake) else m["role"]
            s["mistakes_by_role"][role] = s["mistakes_by_role"].get(role, 0) + 1
        names = _player_names(g)
        if g.review:
            add_to_totals(s["review"], g.review)
            for seat, n in enumerate(names or ()):
                add_to_totals(players.setdefault(n, _new_player()).setdefault("review", new_totals()),
                              g.review, (seat,))
        for b in g.double_review or []:
            s["doubles_reviewed"] += 1
            s["doubles_agreeing"] += bool(b.get("agrees"))
            s["double_cost"] += b.get("cost") or 0.0
        for b in g.show_review or []:
            s["shows_reviewed"] += 1
            s["shows_agreeing"] += bool(b.get("agrees"))
            s["show_cost"] += b.get("cost") or 0.0
        for b in g.bid_review or []:
            s["bids_reviewed"] += 1
            s["bids_agreeing"] += bool(b.get("agrees"))
            s["bid_cost"] += b.get("cost") or 0.0
            if names:
                p = players.setdefault(names[b["seat"]], _new_player())
                p["bids_reviewed"] += 1
                p["bids_agreeing"] += bool(b.get("agrees"))
        # Stake decisions: every bid, call or grab, double and show decision the
        # evaluators reviewed; one is against the evaluator when the choice made
        # is not the evaluator's recommendation.  (Mistakes are plays only.)
        for b in itertools.chain(g.bid_review or (), g.double_review or (), g.show_review or ()):
            against = not b.get("agrees")
            s["stake_decisions"] += 1
            s["stake_against"] += against
            if names:
                p = players.setdefault(names[b["seat"]], _new_player())
                p["stake_decisions"] += 1
                p["stake_against"] += against
        if g.status != STATUS_VALID or not g.result:
            if names and g.status == STATUS_INCOMPLETE:
                for n in names:
                    players.setdefault(n, _new_player())["incomplete"] += 1
            continue
        r = g.result
        won_landlord = r.get("winner") == "landlord"
        s["landlord_wins" if won_landlord else "farmer_wins"] += 1
        mult_sum += r.get("multiplier") or 0
        s["stake_bombs"] += r.get("bombs") or 0
        s["bombs"] += (r.get("bombs") or 0) if g.bombs_played is None else g.bombs_played
        s["springs"] += bool(r.get("spring"))
        s["anti_springs"] += bool(r.get("anti_spring"))
        if names and g.landlord is not None:
            scores = r.get("scores") or [0, 0, 0]
            for seat, n in enumerate(names):
                p = players.setdefault(n, _new_player())
                is_ll = seat == g.landlord
                won = is_ll == won_landlord
                p["games"] += 1
                p["wins"] += won
                p["landlord_games"] += is_ll
                p["landlord_wins"] += is_ll and won
                p["score"] += scores[seat]
            for m in g.mistakes:
                seat = m.seat if isinstance(m, Mistake) else m["seat"]
                players[names[seat]]["mistakes"] += 1
    decided = s["landlord_wins"] + s["farmer_wins"]
    if decided:
        s["landlord_win_rate"] = round(s["landlord_wins"] / decided, 4)
        s["mean_multiplier"] = round(mult_sum / decided, 4)
    for p in players.values():
        p["win_rate"] = round(p["wins"] / p["games"], 4) if p["games"] else None
    s["bid_cost"] = round(s["bid_cost"], 4)
    s["double_cost"] = round(s["double_cost"], 4)
    s["show_cost"] = round(s["show_cost"], 4)
    s["players"] = dict(sorted(players.items()))
    s["files"] = len(files)
    return s


def _new_player() -> dict:
    return {"games": 0, "wins": 0, "win_rate": None, "landlord_games": 0, "landlord_wins": 0,
            "score": 0, "mistakes": 0, "incomplete": 0, "bids_reviewed": 0, "bids_agreeing": 0,
            "stake_decisions": 0, "stake_against": 0}


# Flat rows for tables and CSV --------------------------------------------------------------

#: Columns of the per-game CSV (and of the table, which shows a subset).
CSV_COLUMNS = ("file", "line", "format", "id", "status", "rules", "phase", "move", "reason", "players",
               "landlord", "winner", "base", "multiplier", "bombs", "spring", "anti_spring",
               "scores", "result_disagrees", "mistakes", "mistake_moves", "positions_solved",
               "positions_unchecked", "bid_review", "double_review", "show_review", "notes", "bombs_played")


def flat_row(g: GameAnalysis) -> dict:
    """One CSV row: scalars only, lists joined with ``|``.

    ``mistake_moves`` holds ``move:seat:role:played>win1/win2`` per mistake and
    ``bid_review`` ``seat:bid>best@cost`` per reviewed bid (``double_review``
    ``seat:x2>x1@cost`` per reviewed double, ``show_review``
    ``seat:stage=no>show@cost`` per reviewed show decision); :func:`from_flat_row`
    reads a row back (for ``--resume`` on a CSV file).
    """
    r = g.result or {}

    def j(xs):
        return "|".join(str(x) for x in xs) if xs else ""

    return {
        "file": g.file, "line": g.line, "format": g.format, "id": g.id or "", "status": g.status,
        "rules": g.rules or "", "phase": g.phase or "", "move": "" if g.move is None else g.move,
        "reason": g.reason or "", "players": j(g.players or []),
        "landlord": "" if g.landlord is None else g.landlord,
        "winner": r.get("winner", ""), "base": r.get("base", ""), "multiplier": r.get("multiplier", ""),
        "bombs": r.get("bombs", ""), "spring": r.get("spring", ""), "anti_spring": r.get("anti_spring", ""),
        "scores": j(r.get("scores") or []), "result_disagrees": j(g.result_disagrees),
        "mistakes": len(g.mistakes),
        "mistake_moves": j(f"{m.move}:{m.seat}:{m.role}:{m.played}>{'/'.join(m.winning)}" for m in g.mistakes),
        "positions_solved": g.positions_solved, "positions_unchecked": g.positions_unchecked,
        "bid_review": j(f"{b['seat']}:{b['bid']}>{b['best']}@{b.get('cost', 0)}" for b in (g.bid_review or [])),
        "double_review": j(f"{b['seat']}:{b['double']}>{b['best']}@{b.get('cost', 0)}"
                           for b in (g.double_review or [])),
        "show_review": j(f"{b['seat']}:{b['stage']}={b['show']}>{b['best']}@{b.get('cost', 0)}"
                         for b in (g.show_review or [])),
        "notes": j(g.notes), "bombs_played": "" if g.bombs_played is None else g.bombs_played,
    }


def from_flat_row(row: dict) -> GameAnalysis:
    """A :class:`GameAnalysis` from a CSV row of :func:`flat_row` (the fields a summary needs)."""
    try:
        def ints(x):
            return [int(v) for v in x.split("|")] if x else []

        def opt_int(x):
            return int(x) if x not in ("", None) else None

        result = None
        if row.get("winner"):
            result = {"winner": row["winner"], "base": int(row["base"]), "multiplier": int(row["multiplier"]),
                      "bombs": int(row["bombs"]), "spring": row["spring"] == "True",
                      "anti_spring": row["anti_spring"] == "True", "scores": ints(row["scores"])}
        mistakes = []
        for tok in (row.get("mistake_moves") or "").split("|"):
            if tok:
                head, _, wins = tok.partition(">")
                move, seat, role, played = head.split(":", 3)
                mistakes.append(Mistake(int(move), int(seat), role, played, wins.split("/") if wins else []))
        players = row["players"].split("|") if row.get("players") else None
        for m in mistakes:
            m.player = players[m.seat] if players else None
        def review_rows(text, key):
            if not text:
                return None
            out = []
            for tok in text.split("|"):
                seat, _, rest = tok.partition(":")
                made, _, rest = rest.partition(">")
                best, _, cost = rest.partition("@")
                out.append({"seat": int(seat), key: made, "best": best, "agrees": made == best,
                            "cost": float(cost) if cost else 0.0})
            return out

        reviews = review_rows(row.get("bid_review"), "bid")
        doubles = review_rows(row.get("double_review"), "double")
        shows = None
        if row.get("show_review"):
            shows = []
            for tok in row["show_review"].split("|"):
                seat, _, rest = tok.partition(":")
                stage, _, rest = rest.partition("=")
                made, _, rest = rest.partition(">")
                best, _, cost = rest.partition("@")
                # (A "!" after the cost, written by earlier versions, is dropped.)
                shows.append({"seat": int(seat), "stage": stage, "show": made, "best": best, "agrees": made == best,
                              "cost": float(cost.rstrip("!") or 0)})
        return GameAnalysis(
            row["file"], int(row["line"]), row["format"], row["status"], id=row.get("id") or None,
            rules=row.get("rules") or None, reason=row.get("reason") or None, phase=row.get("phase") or None,
            move=opt_int(row.get("move")), players=players, landlord=opt_int(row.get("landlord")),
            result=result, result_disagrees=row["result_disagrees"].split("|") if row.get("result_disagrees") else [],
            bombs_played=opt_int(row.get("bombs_played")),
            mistakes=mistakes, positions_solved=int(row.get("positions_solved") or 0),
            positions_unchecked=int(row.get("positions_unchecked") or 0), bid_review=reviews,
            double_review=doubles, show_review=shows, notes=row["notes"].split("|") if row.get("notes") else [])
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise RecordError(f"not an analysis row ({type(exc).__name__}: {exc})") from None


def summary_rows(s: dict) -> list[tuple[str, str, object]]:
    """The summary as ``(section, key, value)`` rows, for CSV."""
    rows = []
    for k, v in s.items():
        if isinstance(v, dict):
            continue
        rows.append(("summary", k, "" if v is None else v))
    for role, n in s["mistakes_by_role"].items():
        rows.append(("mistakes_by_role", role, n))
    for k, v in s["review"].items():
        rows.append(("review", k, "" if v is None else v))
    for spec, n in s["rules"].items():
        rows.append(("rules", spec, n))
    for name, p in s["players"].items():
        for k, v in p.items():
            if isinstance(v, dict):
                rows.extend((f"player:{name}:{k}", k2, "" if v2 is None else v2) for k2, v2 in v.items())
            else:
                rows.append((f"player:{name}", k, "" if v is None else v))
    return rows
