"""Records as the model's kernels take them: one :class:`History` a game.

A ``ddz-record/1`` game is replayed through :class:`~ddz_tools.engines.game.Game`
(every action checked, each play's reading resolved) into the arrays of
:func:`~.model.history_loglik`: the hands as dealt and at the start of the
play, the flags each stage runs under, and one row per action.  The rows
hold the bids (or calls), the doubles (the farmers from the landlord's left,
then the landlord), the landlord's show at his first play where the rules
allow one and he had not shown before, then the plays.  Shows before the
auction are left out: the heuristic never makes them, so the model gives
them the same floor whatever the hand, and they say nothing about it.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.errors import ArgumentError, DdzError
from ...core.gamerules import SHOW_FIRST_PLAY, show_factor
from ...core.rules import Rules
from ..game import show_stage_code
from ..records import Record, game_before_play, parse_record
from .model import D_BID, D_CALL, D_DOUBLE, D_SHOW

__all__ = ["History", "history_of", "histories"]


@dataclasses.dataclass(frozen=True)
class History:
    """One game's actions for the model's kernels (see :func:`history_of`).

    ``dealt`` and ``start``: each seat's cards as dealt and when the play
    begins (int64, one a seat); ``bid_flags``: the play flags the auction
    runs under (the wild ranks shown before it), ``flags`` those of the
    doubles, the show and the plays; ``seats``/``values``/``kinds``: the
    rows (:mod:`~ddz_tools.engines.playermodel.model`).  ``rules``: the rule
    set with the deal's wild ranks."""

    id: "str | int | None"
    rules: Rules
    dealt: np.ndarray
    start: np.ndarray
    landlord: int
    bid_flags: int
    flags: int
    stage_flags: int
    seats: np.ndarray
    values: np.ndarray
    kinds: np.ndarray

    def __len__(self) -> int:
        return int(self.seats.shape[0])

    @property
    def players(self) -> int:
        return int(self.start.shape[0])


def history_of(record: "Record | dict | str") -> History:
    """The :class:`History` of a ``ddz-record/1`` game (a :class:`Record`, its
    dict or its JSON line); an :class:`~ddz_tools.core.errors.ArgumentError`
    when the record does not replay to a game with a landlord.

    >>> from ddz_tools.engines.selfplay import simulate
    >>> h = history_of(next(simulate(1, seed=3)))
    >>> h.landlord, int(h.kinds[0]), len(h) > 20
    (1, -1, True)
    """
    rec = record if isinstance(record, Record) else parse_record(record)
    try:
        g = game_before_play(rec)
    except DdzError as exc:
        raise ArgumentError(f"record {rec.id!r} does not replay: {exc}", param="record") from None
    if g.landlord is None:
        raise ArgumentError(f"record {rec.id!r} has no landlord (the auction did not end)", param="record")
    v = g.variant
    landlord = g.landlord
    bid_rules = g.base_rules.with_wild(v.wild_shown(g.wild, False))
    rows: list = []
    code = D_CALL if v.stake.auction == "call" else D_BID
    rows.extend((s, int(b), code) for s, b in rec.bids)
    if v.stake.doubles:
        for k in range(1, v.seats + 1):
            s = (landlord + k) % v.seats
            rows.append((s, int(g.doubles[s] or 1), D_DOUBLE))
    stage_flags = g.base_rules.stage_flags
    if v.stake.shows and show_factor(stage_flags, SHOW_FIRST_PLAY, 1) != 0:
        early = any(s == landlord and show_stage_code(st) != SHOW_FIRST_PLAY for s, st in rec.shows)
        if not early:
            late = any(s == landlord and show_stage_code(st) == SHOW_FIRST_PLAY for s, st in rec.shows)
            rows.append((landlord, int(late), D_SHOW))
    start = np.array(g.hands, np.int64)
    for i, (seat, text) in enumerate(rec.plays):
        try:
            p = g.play(text, seat)
        except DdzError as exc:
            raise ArgumentError(f"record {rec.id!r} does not replay: plays[{i}]: {exc}", param="record") from None
        rows.append((seat, int(p.cards), int(p.kind)))
    arr = np.array(rows, np.int64).reshape(-1, 3)
    return History(rec.id, g.rules, np.array(g.dealt, np.int64), start, int(landlord), int(bid_rules.flags),
                   int(g.rules.flags), int(stage_flags), np.ascontiguousarray(arr[:, 0]),
                   np.ascontiguousarray(arr[:, 1]), np.ascontiguousarray(arr[:, 2]))


def histories(records) -> list:
    """:func:`history_of` every record of an iterable (records that do not
    replay to a played game are skipped)."""
    out = []
    for rec in records:
        try:
            out.append(history_of(rec))
        except ArgumentError:
            continue
    return out
