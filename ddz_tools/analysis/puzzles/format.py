"""The ``ddz-puzzle/1`` format: one puzzle a JSON line, and :class:`Puzzle`.

A puzzle is an open-hand position (``ddz-position/1``) where the side to move
wins with exactly one play, the heuristic's play loses, and the solution line
goes on while the winning side's play stays unique (see :mod:`.find`)::

    {"schema": "ddz-puzzle/1", "id": "pz-3f2a...", "rules": "standard",
     "position": {"schema": "ddz-position/1", ...}, "side": "landlord",
     "natural": "33", "solution": [{"by": "landlord", "play": "2", "role": "solve"}, ...],
     "accepted": ["9", "T"], "themes": ["two-early"], "rating": null,
     "source": {"file": "data/sample_games.jsonl", "line": 3, "move": 31}}

:meth:`Puzzle.from_json` checks a loaded line and raises :class:`PuzzleError`
with one line naming what is wrong.

>>> from ddz_tools.engines.position import Position
>>> p = Position.two_player("33JJQK2", "4455A")
>>> z = Puzzle(puzzle_id(p), p, "me", [Step("me", "33", "solve")], natural="2")
>>> Puzzle.from_json(z.to_json()) == z
True
>>> Puzzle.from_json('{"schema": "ddz-puzzle/1"}')
Traceback (most recent call last):
...
ddz_tools.core.errors.PuzzleError: puzzle: no 'id' (a string)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from typing import Iterator

from ...core.errors import DdzError, PuzzleError
from ...engines.position import Position

__all__ = ["SCHEMA", "ROLES", "Puzzle", "PuzzleError", "Step", "puzzle_id", "read_puzzles", "side_of"]

SCHEMA = "ddz-puzzle/1"
#: What a step of the solution is: the winning side's only winning play
#: (``solve``), the defence's reply (``defence``), or a move either side is
#: forced to make (``forced``: its only legal move, a pass).
ROLES = ("solve", "defence", "forced")


@dataclasses.dataclass(frozen=True)
class Step:
    """One move of a solution line: the seat, the play's text (``pass``) and its role (:data:`ROLES`)."""

    by: str
    play: str
    role: str


def side_of(position: Position, seat: "str | None" = None) -> str:
    """The side ``seat`` (default: the side to move) plays for: itself with
    two hands, ``landlord`` or ``farmers`` with three or four."""
    return position.team_of(position.to_move if seat is None else seat)


def puzzle_id(position: Position) -> str:
    """A stable id derived from the position alone (rules, hands, side to
    move, play to answer): ``pz-`` and 12 hex digits of a SHA-256, so the same
    position found twice gets the same id.

    >>> from ddz_tools.engines.position import Position
    >>> puzzle_id(Position.two_player("33JJQK2", "4455A"))
    'pz-869df9629120'
    """
    d = position.to_dict()
    core = {k: d[k] for k in ("rules", "hands", "to_move", "last_play", "last_by")}
    if "wild" in d:
        core["wild"] = d["wild"]
    text = json.dumps(core, sort_keys=True, ensure_ascii=False)
    return "pz-" + hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """One puzzle.  ``position`` is the position before the first move;
    ``side`` the winning side (:func:`side_of` its side to move);
    ``solution`` the line (:class:`Step`), which ends where the game ends or
    where several plays win (then ``accepted`` lists them, every one
    accepted); ``natural`` the heuristic's play, which loses; ``themes``
    the theme names (:mod:`.themes`); ``rating`` None until rated
    (:mod:`.rating`), ``rating_deviation`` its Glicko-2 deviation;
    ``source`` where the position was found (``file``, ``line``, ``move``
    of a record, or ``rules``, ``seed``, ``game`` of self-play)."""

    id: str
    position: Position
    side: str
    solution: list
    natural: "str | None" = None
    accepted: tuple = ()
    themes: tuple = ()
    rating: "float | None" = None
    source: dict = dataclasses.field(default_factory=dict)
    rating_deviation: "float | None" = None

    def __eq__(self, other):
        return isinstance(other, Puzzle) and self.to_dict() == other.to_dict()

    __hash__ = None

    @property
    def moves(self) -> list:
        """The winning side's moves to find: the steps of role ``solve``."""
        return [s for s in self.solution if s.role == "solve"]

    def to_dict(self) -> dict:
        pos = self.position.to_dict()
        pos.pop("record", None), pos.pop("move", None)
        d = {"schema": SCHEMA, "id": self.id, "rules": pos["rules"], "position": pos, "side": self.side,
             "natural": self.natural,
             "solution": [{"by": s.by, "play": s.play, "role": s.role} for s in self.solution],
             "accepted": list(self.accepted), "themes": list(self.themes), "rating": self.rating,
             "source": dict(self.source)}
        if self.rating_deviation is not None:
            d["rating_deviation"] = self.rating_deviation
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d, where: str = "puzzle") -> "Puzzle":
        """A puzzle from its JSON object, checked: the schema, every field's
        type, the position (as ``ddz-position/1`` reads it), the side to move
        on ``side``, each step's seat, role and play (legal where it is made:
        the line is walked on the position), the first step a ``solve`` by the
        side to move.  Raises :class:`PuzzleError` ``where: reason``."""
        def bad(reason):
            return PuzzleError(f"{where}: {reason}")

        if not isinstance(d, dict):
            raise bad(f"expected a JSON object, got {type(d).__name__}")
        if d.get("schema") != SCHEMA:
            raise bad(f"schema {d.get('schema')!r} is not {SCHEMA!r}")
        if not isinstance(d.get("id"), str) or not d["id"]:
            raise bad("no 'id' (a string)")
        try:
            pos = Position.from_dict(d.get("position"))
        except (DdzError, TypeError, AttributeError) as exc:
            raise bad(f"position: {exc}") from None
        side = d.get("side")
        if side != side_of(pos):
            raise bad(f"side {side!r} is not the side to move ({side_of(pos)!r})")
        steps = d.get("solution")
        if not isinstance(steps, list) or not steps:
            raise bad("solution must be a non-empty list of steps")
        line = []
        q = pos
        for i, s in enumerate(steps):
            if not isinstance(s, dict) or set(s) != {"by", "play", "role"}:
                raise bad(f"solution[{i}] must be an object of by, play and role")
            if s["role"] not in ROLES:
                raise bad(f"solution[{i}]: role {s['role']!r} is not one of {', '.join(ROLES)}")
            if q.is_over:
                raise bad(f"solution[{i}]: the game is over before it")
            if s["by"] != q.to_move:
                raise bad(f"solution[{i}]: {s['by']!r} plays, but {q.to_move!r} is to move")
            if s["role"] != "forced" and (s["role"] == "defence") == (side_of(q) == side):
                raise bad(f"solution[{i}]: role {s['role']!r} of {s['by']!r} does not fit side {side!r}")
            try:
                q = q.push(q.parse_play(s["play"]))
            except (DdzError, TypeError) as exc:
                raise bad(f"solution[{i}]: {exc}") from None
            line.append(Step(s["by"], s["play"], s["role"]))
        if line[0].role != "solve":
            raise bad("solution[0] must be the side to move's winning play (role 'solve')")
        natural = d.get("natural")
        if natural is not None and not isinstance(natural, str):
            raise bad("natural must be a play's text or null")
        for name in ("accepted", "themes"):
            v = d.get(name, [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise bad(f"{name} must be a list of strings")
        rating, deviation = d.get("rating"), d.get("rating_deviation")
        for name, v in (("rating", rating), ("rating_deviation", deviation)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise bad(f"{name} must be a number or null")
        if deviation is not None and (rating is None or deviation < 0):
            raise bad("rating_deviation must be a number of 0 or more, with a rating")
        source = d.get("source", {})
        if not isinstance(source, dict):
            raise bad("source must be an object")
        return cls(d["id"], pos, side, line, natural, tuple(d.get("accepted", [])), tuple(d.get("themes", [])),
                   rating, source, deviation)

    @classmethod
    def from_json(cls, text: str, where: str = "puzzle") -> "Puzzle":
        """A puzzle from one JSON line (see :meth:`from_dict`)."""
        try:
            d = json.loads(text)
        except ValueError as exc:
            raise PuzzleError(f"{where}: not JSON: {exc}") from None
        return cls.from_dict(d, where)


def read_puzzles(path: str) -> Iterator[Puzzle]:
    """Every puzzle of a ``ddz-puzzle/1`` JSON Lines file (blank lines and
    ``#`` comments skipped); a bad line raises :class:`PuzzleError`
    ``FILE:LINE: reason``."""
    try:
        f = open(path, encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"{path}: {exc.strerror or exc}") from None
    with f:
        for i, line in enumerate(f, 1):
            s = line.strip()
            if s and not s.startswith("#"):
                yield Puzzle.from_json(s, f"{path}:{i}")
