"""The mistake search: every play that turned a won position into a lost one
for the mover's side, found with the exact solver from the first moment every
hand holds at most ``solve_below`` cards (:func:`find_mistakes`).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from ...core._jit import interpreted
from ...core.cards import card_count, parse_cards  # noqa: F401  (parse_cards: the doctest's)
from ...core.gamerules import next_seat, trick_after
from ...core.rules import Rules
from ...engines.game import seat_roles
from ..review import open_position, process_solver
from .model import DEFAULT_NODE_LIMIT, Mistake

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
    if solve_below <= 0:
        return MistakeSearch([], 0, 0, None)
    ns = len(hands)
    roles = seat_roles(landlord, ns)
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
