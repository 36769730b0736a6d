"""The analysis of one game as a value: :class:`GameAnalysis` (with its
:class:`Mistake` rows), the :class:`AnalyzeOptions` of a run, the flat rows
of a CSV file (:func:`flat_row`, :func:`from_flat_row`) and the reading of a
results file a previous run wrote (:func:`load_results`, for ``--resume``).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os

from ...core.errors import RecordError
from ...core.rules import Rules
from ..review import REVIEW_NODE_LIMIT

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
    review_inference: bool = False        # the advisor and the stake reviews read the other seats' actions by the model


def player_names(g: GameAnalysis) -> "list | None":
    """The players a game names, by seat, when it names every one (else None)."""
    if g.players and len(g.players) in (3, 4) and all(isinstance(p, str) and p for p in g.players):
        return g.players
    return None


# Resume: the results a previous run wrote ----------------------------------------------------------------------------------


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

