"""Playing a puzzle: :class:`Session` checks the solver's moves typed by a player.

The player moves for the winning side at its ``solve`` steps; the defence
and every forced move are played from the solution line.  A play is right
when it is the line's play (at the end of a line that stops where several
plays win, any of ``accepted``).  A wrong play is shown its refutation: the
solver's principal line after it, where the defence now wins.

>>> from ddz_tools.engines.position import Position
>>> from .defence import Judge
>>> from .find import find_in_position
>>> s = Session(find_in_position(Position.two_player("8TTQKA", "6TQQA"), Judge()))
>>> s.try_play("8")["right"], s.try_play("T")["right"]
(False, True)
"""

from __future__ import annotations

from ...core.errors import PlayError
from ...engines.solver import solve
from .format import Puzzle

__all__ = ["Session"]


class Session:
    """One attempt at ``puzzle``: :attr:`position` is the position now,
    :attr:`done` whether the puzzle is solved."""

    def __init__(self, puzzle: Puzzle, node_limit: int = 1_000_000):
        self.puzzle = puzzle
        self.position = puzzle.position
        self.step = 0
        self.done = False
        self.node_limit = node_limit

    def expected(self) -> list:
        """The plays accepted now (texts)."""
        steps = self.puzzle.solution
        return [steps[self.step].play] if self.step < len(steps) else list(self.puzzle.accepted)

    def try_play(self, text: str) -> dict:
        """Check the player's play: ``{"right", "play", "replies", "refutation", "done"}``:
        ``replies`` the moves played after a right one (``(seat, play)``),
        ``refutation`` the solver's line after a wrong one.  An illegal play
        raises a :class:`~ddz_tools.core.errors.PlayError` (nothing changes)."""
        if self.done:
            raise PlayError("the puzzle is solved")
        p = self.position
        play = p.parse_play(text)
        right = any(play == p.parse_play(t) for t in self.expected())
        out = {"right": right, "play": play.notation(p.rules), "replies": [], "refutation": [], "done": False}
        if not right:
            after = p.push(play)
            if not after.is_over:
                r = solve(after, node_limit=self.node_limit)
                out["refutation"] = list(zip(r.line_by, r.line))
            return out
        steps = self.puzzle.solution
        at_end = self.step >= len(steps)
        self.position = p = p.push(play)
        self.step += 1
        if at_end or p.is_over:
            self.done = out["done"] = True
            return out
        while self.step < len(steps) and steps[self.step].role != "solve" and not p.is_over:
            s = steps[self.step]
            p = p.push(p.parse_play(s.play))
            out["replies"].append((s.by, s.play))
            self.step += 1
        self.position = p
        self.done = out["done"] = p.is_over or (self.step >= len(steps) and not self.puzzle.accepted)
        return out
