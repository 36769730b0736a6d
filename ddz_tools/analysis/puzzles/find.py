"""Finding puzzles in games: :func:`find_in_position`, :func:`find_in_record`.

A position of a game, hands open, is a puzzle when

1. it passes the cheap filters (:class:`FindOptions`): every hand at most
   ``max_cards`` cards and all together at most ``max_total``, and every
   hand of the side to move's team needs at least ``min_plays`` plays
   (the decomposer's fewest plays: the winning side still has at least
   three plays to make);
2. the side to move wins (the endgame solver, at most ``node_limit`` nodes;
   past it the position is skipped and counted ``over_budget``);
3. the natural play, the heuristic policy's choice (:func:`natural_play`),
   loses (one solve of the position after it);
4. exactly one of its plays wins and every other loses
   (``solve(..., all_plays=True)``, the dearest test, last).

Its solution line is then built by :meth:`.defence.Judge.line`.  The side
to move is the player of a two-player endgame, and the landlord or the
farmers as a team with three or four seats.
"""

from __future__ import annotations

import dataclasses

from ...core.cards import card_count
from ...core.errors import DdzError, SearchLimit
from ...core.rules import Play
from ...engines.decompose import min_plays
from ...engines.policies import choose
from ...engines.position import Position
from .defence import Judge
from .format import Puzzle, puzzle_id, side_of
from .themes import detect_themes

__all__ = ["FindOptions", "ScanStats", "natural_play", "find_in_position", "positions_of_game", "find_in_record"]


@dataclasses.dataclass(frozen=True)
class FindOptions:
    """The filters and budgets of a search for puzzles (see the module)."""

    max_cards: int = 12
    max_total: int = 30
    min_plays: int = 3
    node_limit: int = 20_000
    budget: int = 1000
    duels: bool = True


@dataclasses.dataclass
class ScanStats:
    """What a search did: ``positions`` scanned, ``screened`` (passed the
    cheap filters and were solved), ``over_budget`` (skipped at a limit),
    ``puzzles`` found, ``nodes`` searched by the solver, ``bad_games``
    (games that could not be read or replayed, skipped)."""

    positions: int = 0
    screened: int = 0
    over_budget: int = 0
    puzzles: int = 0
    nodes: int = 0
    bad_games: int = 0

    def add(self, other: "ScanStats") -> None:
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def natural_play(position: Position) -> Play:
    """The heuristic policy's play at ``position`` (:func:`~ddz_tools.engines.policies.choose`):
    the seats in turn order with the landlord (or ``me``) first; a
    two-player position is given to it as the landlord against one farmer
    whose partner holds nothing.

    >>> str(natural_play(Position.two_player("33JJQK2", "4455A")))
    '33'
    """
    hands, seat, by = policy_view(position)
    return choose(hands, seat, 0, position.last_play, by, "heuristic", position.rules)


def policy_view(position: Position) -> tuple:
    """``(hands, seat, prev_seat)`` of a position as the policies and the
    player model read a table (the landlord, or ``me``, seat 0): every
    seat's packed hand in turn order, an empty hand for a seat the position
    leaves out, the seat to move and the seat of the play to answer (None
    on a lead)."""
    seats = position.seats
    hands = [position.packed(s) for s in seats] + [0] * (position.rules.seats - len(seats))
    by = None if position.last_by is None else seats.index(position.last_by)
    return hands, seats.index(position.to_move), by


def _passes_filters(position: Position, opts: FindOptions) -> bool:
    counts = [card_count(h) for _, h in position.hands]
    if max(counts) > opts.max_cards or sum(counts) > opts.max_total:
        return False
    side = side_of(position)
    return all(min_plays(h, position.rules) >= opts.min_plays
               for s, h in position.hands if position.team_of(s) == side)


def find_in_position(position: Position, judge: Judge, opts: FindOptions = FindOptions(),
                     stats: "ScanStats | None" = None, source: "dict | None" = None) -> "Puzzle | None":
    """The puzzle at ``position``, or None (see the module for the tests).
    ``judge`` holds the solver and its cache; ``stats`` counts the work."""
    stats = stats if stats is not None else ScanStats()
    stats.positions += 1
    if not _passes_filters(position, opts):
        return None
    stats.screened += 1
    nodes0 = judge.nodes
    try:
        try:
            if not judge.value(position):
                return None
            natural = natural_play(position)
            if judge.wins_with(position, natural):
                return None
            wins = judge.winning(position)
            if len(wins) != 1:
                return None
            steps, accepted = judge.line(position, wins[0])
        except SearchLimit:
            stats.over_budget += 1
            return None
    finally:
        stats.nodes += judge.nodes - nodes0
    stats.puzzles += 1
    rules = position.rules
    return Puzzle(puzzle_id(position), position, side_of(position), steps, natural.notation(rules), accepted,
                  tuple(detect_themes(position, steps)), None, dict(source or {}))


def positions_of_game(record, duels: bool = True):
    """Every position of a recorded game before each of its plays, as
    ``(move, Position)`` (moves numbered from 1 as ``ddz analyze`` numbers
    them), and with ``duels`` under three-seat rules, before each free lead
    of the landlord, the two-player endgames of the landlord (``me``)
    against each farmer alone (``(move, Position)`` too, the position's
    ``extra`` naming the farmer).  Raises a ``DdzError`` for a record that
    cannot be replayed."""
    from ...engines.position import game_before_move

    g = game_before_move(record, 1)
    roles = g.variant.seat_roles(g.landlord)
    rules = record.rules
    for move, (seat, text) in enumerate(record.plays, 1):
        hands = {roles[s]: g.hands[s] for s in range(g.seats)}
        last_by = None if g.last_play is None else roles[g.last_seat]
        if all(hands.values()):
            yield move, Position.build(hands, roles[g.turn], g.last_play, last_by, rules)
            if duels and g.last_play is None and roles[g.turn] == "landlord":
                for farmer in g.variant.table.duel_roles:
                    yield move, Position.build({"me": hands["landlord"], "opponent": hands[farmer]}, "me",
                                               None, None, rules, None, {"duel": farmer})
        g.play(text, seat)
        if g.phase != "playing":
            return


def find_in_record(record, judge: Judge, opts: FindOptions = FindOptions(), source: "dict | None" = None,
                   stats: "ScanStats | None" = None) -> list:
    """Every puzzle of one recorded game (:func:`positions_of_game`), each
    ``source`` extended by the ``move`` (and ``duel``: the farmer) it was
    found before.  A game that cannot be replayed gives the puzzles found
    before the bad move, and counts in ``stats.bad_games``."""
    out = []
    try:
        for move, p in positions_of_game(record, opts.duels):
            extra = dict(p.extra)
            src = dict(source or {}, move=move, **({"duel": extra["duel"]} if "duel" in extra else {}))
            if "duel" in extra:
                p = Position.build({"me": p.packed("me"), "opponent": p.packed("opponent")}, "me",
                                   None, None, p.rules)
            z = find_in_position(p, judge, opts, stats, src)
            if z is not None:
                out.append(z)
    except DdzError:
        if stats is not None:
            stats.bad_games += 1
    judge.clear()
    return out
