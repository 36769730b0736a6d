"""A record walked through the game: every bid and play replayed by
:class:`~ddz_tools.engines.game.Game`, the result recomputed.

Reading never trusts a stored value: :func:`replay_record` replays every bid
and play through :class:`~ddz_tools.engines.game.Game`, recomputes the result and
lists the stored fields that disagree.  A replay has one of four statuses:

* ``ok``: a finished game whose stored result (if any) agrees;
* ``mismatch``: a finished game whose stored result or landlord disagrees;
* ``invalid``: an illegal bid or play (``phase``, ``index`` into ``bids`` or
  ``plays``, an error ``code`` and a ``reason``);
* ``incomplete``: every action is legal but nobody went out (or the bidding
  is unfinished, or everyone passed and the deal is void).

:func:`game_before_play` replays the stages before the first play alone (the
fast validator and the analysis tools start from it); :func:`read_records`
reads and replays a file of records line by line.  (Files of any format,
Botzone logs too, are :mod:`ddz_tools.engines.replay`'s.)
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import IO, Iterator

from ...core.cards import format_cards, pack_card_ids
from ...core.errors import StageError, attempt
from ..game import (
    BIDDING,
    DOUBLING,
    DRAWING,
    E_BAD_DOUBLE,
    E_BAD_DRAW,
    E_BAD_SHOW,
    FINISHED,
    PLAYING,
    REDEAL,
    Game,
    IllegalAction,
    Result,
)
from .format import RESULT_FIELDS, Record, parse_record

__all__ = ["ReplayResult", "LineResult", "replay_record", "game_before_play", "read_records", "record_lines"]

@dataclasses.dataclass
class ReplayResult:
    """What replaying one record found (see the module doc for ``status``)."""

    id: "str | int | None"
    status: str
    rules: str
    reason: "str | None" = None
    code: "str | None" = None
    phase: "str | None" = None       # "bid" or "play" for an invalid record
    index: "int | None" = None       # index into bids or plays
    landlord: "int | None" = None
    base: int = 0
    result: "Result | None" = None
    stored: "dict | None" = None
    disagreements: tuple = ()
    n_plays: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict:
        d = {"id": self.id, "status": self.status, "rules": self.rules, "reason": self.reason,
             "code": self.code, "phase": self.phase, "index": self.index, "landlord": self.landlord,
             "base": self.base, "plays": self.n_plays,
             "result": self.result.to_dict() if self.result else None,
             "disagreements": list(self.disagreements)}
        if self.result is not None and self.result.staged:
            d["doubles"] = list(self.result.doubles)
        return d


def replay_record(record: "Record | dict | str") -> ReplayResult:
    """Replay every bid and play of a record and recompute its result.

    Never trusts the stored ``landlord`` or ``result``: it reports the stored
    fields that disagree in ``disagreements`` (status ``mismatch``).

    >>> from ddz_tools.engines.game import random_game
    >>> from ddz_tools.engines.records import record_from_game
    >>> r = replay_record(record_from_game(random_game(1)))
    >>> r.status, sum(r.result.scores)
    ('ok', 0)
    """
    rec = record if isinstance(record, Record) else parse_record(record)
    desc = rec.rules.describe()
    out = ReplayResult(rec.id, "ok", desc, stored=rec.result, n_plays=len(rec.plays))
    try:
        g = game_before_play(rec)
    except StageError as exc:
        out.status, out.code, out.phase, out.index = exc.status, exc.code, exc.phase, exc.index
        out.reason = str(exc)
        out.landlord, out.base = exc.game.landlord, exc.game.base
        return out
    out.landlord, out.base = g.landlord, g.base
    remaining = None
    if rec.hand_ids is not None and not rec.draws:     # a draw names a rank, not a card id
        remaining = [set(h) for h in rec.hand_ids]
        if g.landlord is not None:
            remaining[g.landlord] |= set(rec.bottom_ids)
    for i, (seat, text) in enumerate(rec.plays):
        try:
            p = g.play(text, seat)
        except IllegalAction as exc:
            out.status, out.code, out.phase, out.index = "invalid", exc.code, "play", i
            out.reason = f"plays[{i}]: {exc}"
            return out
        ids = rec.play_ids[i] if rec.play_ids is not None else None
        if ids is not None:
            if pack_card_ids(ids) != p.cards:
                return _invalid_ids(out, i, f"ids {ids} are not the cards {format_cards(p.cards)}")
            if remaining is not None:
                missing = [c for c in ids if c not in remaining[seat]]
                if missing:
                    return _invalid_ids(out, i, f"seat {seat} does not hold card ids {missing}")
                remaining[seat] -= set(ids)
    if g.phase == BIDDING:
        out.status, out.reason = "incomplete", "the bidding is unfinished"
    elif g.phase == REDEAL:
        out.status, out.reason = "incomplete", "every seat passed: the deal is void (redeal)"
    elif g.phase != FINISHED:
        left = ", ".join(f"seat {s} holds {len(g.hand(s))}" for s in range(g.seats))
        out.status, out.reason = "incomplete", f"nobody went out after {len(rec.plays)} plays ({left})"
    else:
        out.result = g.result
        stored, mine = {}, g.result.to_dict()
        if rec.landlord is not None:
            stored["landlord"], mine["landlord"] = rec.landlord, g.landlord
        if rec.result is not None:
            # Only the fields a stored result has are compared (an import may
            # carry just the scores); the schema requires all of them in a record.
            stored.update({k: rec.result[k] for k in RESULT_FIELDS if k in rec.result})
        bad = [k for k in stored if stored[k] != mine.get(k)]
        if bad:
            out.status, out.disagreements = "mismatch", tuple(bad)
            out.reason = "; ".join(f"stored {k} {stored[k]!r}, replayed {mine.get(k)!r}" for k in bad)
    return out


def game_before_play(rec: Record) -> Game:
    """The :class:`~ddz_tools.engines.game.Game` of a record with every stage before
    the first play replayed: the shows before the deal's end, the bids, the
    landlord's draws, the doubles (farmers from the landlord's left, then the
    landlord) and the landlord's show at his first play.  Raises
    :class:`StageError` at the first stage that does not replay."""
    ids = rec.hand_ids is not None
    g = Game(hands=list(rec.hand_ids if ids else rec.hands), bottom=rec.bottom_ids if ids else rec.bottom,
             rules=rec.rules, first_bidder=rec.first_bidder, all_pass=rec.all_pass)

    fields = {"show": "show", "bid": "bids", "draw": "draws", "double": "doubles"}

    def fail(phase, i, exc):
        field = fields[phase]
        raise StageError(f"{field}[{i}]: {exc}" if i is not None else f"{field}: {exc}", "invalid", phase, i,
                         getattr(exc, "code", None), g) from None

    late = []
    for i, (seat, stage) in enumerate(rec.shows):
        if stage == "first-play":
            late.append(i)
            continue
        try:
            g.show(stage, seat)
        except IllegalAction as exc:
            fail("show", i, exc)
    for i, (seat, bid) in enumerate(rec.bids):
        try:
            g.bid(bid, seat)
        except IllegalAction as exc:
            fail("bid", i, exc)
    if rec.draws and g.phase != DRAWING:
        fail("draw", 0, IllegalAction(E_BAD_DRAW, f"a draw in the {g.phase} phase (draws come under "
                                                   f"landlord_draw=on, after the auction)"))
    for i, (farmer, card) in enumerate(rec.draws):
        try:
            g.draw(card, farmer)
        except IllegalAction as exc:
            fail("draw", i, exc)
    if g.phase == DRAWING:
        raise StageError("the landlord's draws are missing (landlord_draw=on)", "incomplete", "draw", None,
                         None, g)
    if rec.doubles is not None and g.phase != DOUBLING and any(d != 1 for d in rec.doubles):
        if not rec.variant.stake.doubles:
            fail("double", None, IllegalAction(E_BAD_DOUBLE, f"{rec.doubles} under doubling=off"))
    if g.phase == DOUBLING:
        if rec.doubles is None:
            fail("double", None, IllegalAction(E_BAD_DOUBLE, f"missing: the rules have doubling="
                                                              f"{g.base_rules.doubling}"))
        while g.phase == DOUBLING:
            seat = g.turn
            try:
                g.double(rec.doubles[seat], seat)
            except IllegalAction as exc:
                fail("double", seat, exc)
    for i in late:
        seat = rec.shows[i][0]
        if g.phase != PLAYING:
            fail("show", i, IllegalAction(E_BAD_SHOW, f"seat {seat} showed at first-play, but no play "
                                                      f"phase was reached"))
        try:
            g.show("first-play", seat)
        except IllegalAction as exc:
            fail("show", i, exc)
    return g


def _invalid_ids(out: ReplayResult, i: int, why: str) -> ReplayResult:
    out.status, out.code, out.phase, out.index = "invalid", "card_ids", "play", i
    out.reason = f"plays[{i}]: {why}"
    return out


@dataclasses.dataclass
class LineResult:
    """One line of a record file: the parsed record and its replay, or an error."""

    path: str
    line: int
    record: "Record | None" = None
    replay: "ReplayResult | None" = None
    error: "str | None" = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.replay is not None and self.replay.ok


def record_lines(path: "str | os.PathLike | IO[str]") -> Iterator[tuple]:
    """``(line number, text, error)`` of every non-blank line of a record
    file (``-`` is stdin, or an open text stream): ``error`` is None, or why
    the line is not text (``not UTF-8 text ...``; ``text`` is then None).

    A file is read as bytes and decoded line by line, so that a stray byte
    costs its own line only.  A file that cannot be opened or read raises
    ``OSError``."""
    if not isinstance(path, (str, os.PathLike)):
        stream, close = path, False
    elif os.fspath(path) == "-":
        stream, close = getattr(sys.stdin, "buffer", sys.stdin), False
    else:
        stream, close = open(path, "rb"), True
    try:
        for lineno, line in enumerate(stream, 1):
            if isinstance(line, bytes):
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield lineno, None, (f"not UTF-8 text (byte 0x{line[exc.start]:02x} at column "
                                         f"{exc.start + 1})")
                    continue
            if line.strip():
                yield lineno, line, None
    finally:
        if close:
            stream.close()


def read_records(path: "str | os.PathLike | IO[str]", replay: bool = True) -> Iterator[LineResult]:
    """Yield one :class:`LineResult` per non-blank line of a ``ddz-record/1`` file.

    A line that is not a well-formed record (nor UTF-8 text) gets ``error``
    (the reason) and the reading goes on; with ``replay`` every record is
    replayed.  A file that cannot be read raises ``OSError``.
    """
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else getattr(path, "name", "<stream>")
    for lineno, line, error in record_lines(path):
        if error is None:
            rec, error = attempt(parse_record, line)
        if error is not None:
            yield LineResult(name, lineno, error=error)
            continue
        yield LineResult(name, lineno, rec, replay_record(rec) if replay else None)
