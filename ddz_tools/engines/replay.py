"""Replaying record files of any supported format: the function behind ``ddz replay``.

A file is ``ddz-record/1`` JSON Lines (``-`` is stdin) or a Botzone judge log
or bot transcript, sniffed by :func:`ddz_tools.engines.botzone.sniff_text` and imported
first.  Every record, of three or four players, is replayed by
:func:`ddz_tools.engines.records.replay_record`, or with ``fast`` validated in batches
by :func:`ddz_tools.engines.records.validate_batch`; :class:`ReplaySummary` counts the
verdicts.  A bad record is one item of the run; a file that cannot be read
stops it (``OSError``).  It sits above both
:mod:`ddz_tools.engines.records` and :mod:`ddz_tools.engines.botzone`, which it joins.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Iterator

from . import botzone
from ..core.errors import DdzError
from .records import ReplayResult, parse_record, read_records, record_lines, replay_record, validate_batch

__all__ = ["REPLAY_CHUNK", "REPLAY_VERDICTS", "ReplaySummary", "replay_files"]

#: Records per kernel call when :func:`replay_files` validates in batches.
REPLAY_CHUNK = 20000
#: The verdicts :class:`ReplaySummary` counts: a record's status, or ``malformed``
#: for a line that is not a record.
REPLAY_VERDICTS = ("ok", "mismatch", "invalid", "incomplete", "malformed")


def replay_files(paths: Iterable[str], fast: bool = False) -> Iterator[tuple]:
    """Replay every game of record files: yield ``(path, line, ReplayResult
    or None, error or None)`` per record (the function behind ``ddz replay``).

    Files are ``ddz-record/1`` JSON Lines (``-`` is stdin); a Botzone judge
    log or bot transcript is imported first (``line`` then counts its games).
    A line that is not a record (or not UTF-8 text) yields its error and the
    run goes on.  A file that cannot be read (missing, a folder, no
    permission) raises ``OSError``: that is not a bad record but a bad
    argument.  With ``fast`` the records are validated by the batch kernel
    (:func:`validate_batch`, in chunks of :data:`REPLAY_CHUNK`): the same
    verdicts, terser reasons, card ids not checked.
    """
    for path in paths:
        yield from _replay_file(path, fast)


def _replay_file(path: str, fast: bool) -> Iterator[tuple]:
    if path != "-":
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            is_botzone = botzone.sniff_text(f.read(65536))
        if is_botzone:
            yield from _replay_botzone(path)
            return
    if fast:
        for lineno, rep, err in _replay_lines_fast(path):
            yield path, lineno, rep, err
    else:
        for item in read_records(path):
            yield path, item.line, item.replay, item.error


def _replay_botzone(path: str) -> Iterator[tuple]:
    try:
        recs = botzone.import_file(path)
    except DdzError as exc:
        yield path, 1, None, str(exc)
        return
    except UnicodeDecodeError as exc:   # a log is one JSON document: the whole of it is bad
        yield path, 1, None, f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at byte {exc.start})"
        return
    for i, rec in enumerate(recs, 1):
        rep = replay_record(rec)
        info = rec.extra.get("botzone", {})
        if rep.status == "incomplete" and info.get("reason"):
            rep.reason = info["reason"]
        yield path, i, rep, None


def _replay_lines_fast(path: str) -> Iterator[tuple]:
    """``(line, ReplayResult or None, error or None)`` of a file, by the batch kernel."""
    def flush(chunk):
        if not chunk:
            return
        res = validate_batch([rec for _, rec in chunk])
        results = res.results()
        for g, (lineno, rec) in enumerate(chunk):
            yield lineno, res.replay_result(g, rec, results[g]), None

    chunk: list = []
    for lineno, line, error in record_lines(path):
        if error is None:
            try:
                chunk.append((lineno, parse_record(line)))
            except DdzError as exc:
                error = str(exc)
        if error is not None:
            yield from flush(chunk)
            chunk = []
            yield lineno, None, error
            continue
        if len(chunk) >= REPLAY_CHUNK:
            yield from flush(chunk)
            chunk = []
    yield from flush(chunk)


@dataclasses.dataclass
class ReplaySummary:
    """How many replayed records got each verdict (:data:`REPLAY_VERDICTS`).

    >>> s = ReplaySummary()
    >>> s.add(ReplayResult(None, "ok", "standard")); s.add(None, "not a record")
    >>> s.describe(), s.failed
    ('2 records: 1 ok, 1 malformed', True)
    """

    counts: dict = dataclasses.field(default_factory=lambda: dict.fromkeys(REPLAY_VERDICTS, 0))

    def add(self, replay: "ReplayResult | None", error: "str | None" = None) -> None:
        """Count one item of :func:`replay_files`."""
        self.counts["malformed" if error is not None else replay.status] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> bool:
        """True when some line is malformed, or some record invalid or a mismatch."""
        return bool(self.counts["malformed"] or self.counts["invalid"] or self.counts["mismatch"])

    def describe(self) -> str:
        """One line: ``N records: 3 ok, 1 invalid`` (verdicts with a count)."""
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items() if v)
        return f"{self.total} records: {parts or 'none'}"
