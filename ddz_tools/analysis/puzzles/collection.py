"""Runs that find puzzles over many games: :func:`find_puzzles`, :func:`run_find`.

The games are *units*: a line (or item) of an input file, as ``ddz analyze``
reads it, keyed by file and line; or a self-play game, keyed by rules, seed
and game number (game ``i`` of seed ``s`` is played on its own, so a unit
is reproduced anywhere).  Chunks of units run here, in a process pool or on
a Dask cluster (:func:`~ddz_tools.analysis.analyze.run_chunks`, as ``ddz
analyze`` runs), and come back in order.

:func:`run_find` writes the puzzles to a JSON Lines file and, beside it,
a journal (``OUT.done``): one line per finished unit, written after its
puzzles.  ``resume`` reads the journal, keeps the puzzles of finished units
(a unit killed half-written is dropped and found again), and goes on with
the units not done: nothing lost, nothing repeated.  A puzzle whose id is
already written (the same position found in another game) is written once.
"""

from __future__ import annotations

import json
import os
import time
from typing import Callable, Iterable, Iterator

from ...core.errors import ArgumentError, DdzError
from ...core.rules import Rules
from ...engines.sources import FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT, FMT_RECORD, decode_item
from ..analyze import iter_items, run_chunks
from .defence import Judge
from .find import FindOptions, ScanStats, find_in_record
from .format import Puzzle, PuzzleError

__all__ = ["find_puzzles", "run_find", "unit_key", "selfplay_units"]


def unit_key(source: dict) -> tuple:
    """The unit a puzzle's ``source`` names: ``("file", file, line)`` or
    ``("selfplay", rules, seed, game)``."""
    if "file" in source:
        return ("file", source["file"], source["line"])
    return ("selfplay", source["rules"], source["seed"], source["game"])


def selfplay_units(games: int, rules, seed: int) -> list:
    """The units of ``games`` self-play games (heuristic policy) of ``rules`` from ``seed``."""
    spec = Rules.parse(rules).describe()
    return [("selfplay", spec, int(seed), i) for i in range(games)]


def _record(unit, rules: Rules):
    """(record, source) of a unit, or (None, None) when it holds no game."""
    from ...engines.records import parse_record

    if unit[0] == "selfplay":
        from ...engines.selfplay import simulate

        _, spec, seed, i = unit
        rec = next(simulate(1, "heuristic", seed=seed, rules=spec, start=i, workers=1))
        return parse_record(rec), {"rules": spec, "seed": seed, "game": i}
    item = decode_item(unit[1])
    source = {"file": item.file, "line": item.line}
    if item.error is not None:
        return None, None
    if item.fmt == FMT_RECORD:
        data = item.data
        if isinstance(data, dict) and "rules" not in data:
            data = dict(data, rules=rules.describe())
        return parse_record(data), source
    if item.fmt in (FMT_BOTZONE_LOG, FMT_BOTZONE_TRANSCRIPT):
        from ...engines import botzone

        if item.fmt == FMT_BOTZONE_LOG:
            return botzone.import_judge_log(item.data, rules=rules), source
        return botzone.import_file(item.file, rules=rules)[0], source
    return None, None


def _key(unit) -> tuple:
    if unit[0] == "selfplay":
        return unit
    item = unit[1]
    return ("file", item.file, item.line)


def search_units(args) -> list:
    """Search a chunk of units (``(units, rules, opts)``): one ``(key,
    [puzzle dicts], stats dict)`` per unit, in order (a module-level
    function: chunks are pickled to workers)."""
    units, rules, opts = args
    judge = Judge(opts.node_limit, opts.budget)
    out = []
    for unit in units:
        stats = ScanStats()
        try:
            rec, source = _record(unit, rules)
        except (DdzError, OSError):
            rec = None
        if rec is None:
            stats.bad_games += 1
        found = [] if rec is None else find_in_record(rec, judge, opts, source, stats)
        out.append((_key(unit), [z.to_dict() for z in found], stats.to_dict()))
    return out


def _check_paths(paths) -> list:
    paths = list(paths)
    for path in paths:
        if not os.path.isfile(path):
            raise ArgumentError(f"cannot read {path}: no such file")
    return paths


def _units(paths: Iterable[str], games: int, rules: Rules, seed: int) -> list:
    units = [("file", it) for it in iter_items(paths)]
    if games:
        units += selfplay_units(games, rules, seed)
    return units


def find_puzzles(paths: Iterable[str] = (), *, games: int = 0, rules=None, seed: int = 0,
                 opts: FindOptions = FindOptions(), workers: int = 1, scheduler=None,
                 skip: Iterable[tuple] = (), chunk_size: int = 4) -> Iterator[tuple]:
    """Search the games of ``paths`` (anything ``ddz analyze`` reads) and
    ``games`` self-play games of ``rules`` from ``seed``; yields ``(key,
    puzzles, stats)`` per unit in order (``puzzles`` a list of
    :class:`Puzzle`, ``stats`` a :class:`ScanStats`), skipping the unit
    keys in ``skip``.  The result does not depend on ``workers`` or the
    scheduler."""
    rules = Rules.parse(rules)
    paths = _check_paths(paths)
    if games < 0:
        raise ArgumentError(f"games must be 0 or more, not {games}", param="games")
    skip = set(tuple(k) for k in skip)
    units = [u for u in _units(paths, games, rules, seed) if _key(u) not in skip]
    chunks = [(units[i:i + chunk_size], rules, opts) for i in range(0, len(units), chunk_size)]
    for res in run_chunks(search_units, chunks, workers=workers, scheduler=scheduler):
        for key, found, stats in res:
            yield key, [Puzzle.from_dict(d) for d in found], ScanStats(**stats)


def _read_done(path: str) -> tuple:
    """(done unit keys, their stats summed) of a journal."""
    done, total = set(), ScanStats()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    d = json.loads(line)
                    key, stats = tuple(d["unit"]), ScanStats(**d["stats"])
                except (ValueError, KeyError, TypeError):
                    continue        # a line cut by a kill: that unit is not done
                done.add(key)
                total.add(stats)
    return done, total


def run_find(out: str, paths: Iterable[str] = (), *, games: int = 0, rules=None, seed: int = 0,
             opts: FindOptions = FindOptions(), workers: int = 1, scheduler=None, resume: bool = False,
             progress: "Callable | None" = None, chunk_size: int = 4) -> dict:
    """:func:`find_puzzles` written to ``out`` (``ddz-puzzle/1`` JSON Lines)
    with its journal ``out + ".done"``; ``resume`` goes on from them (see the
    module), otherwise both are started afresh.  ``progress(done, total,
    found)`` is called as units finish.  Returns the run's figures:
    ``units``, ``positions``, ``screened``, ``over_budget``, ``bad_games``, ``puzzles``
    (written, the resumed ones included), ``duplicates`` and ``seconds``."""
    paths = _check_paths(paths)
    journal = out + ".done"
    done, stats = _read_done(journal) if resume else (set(), ScanStats())
    kept, seen = [], set()
    if resume and os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    z = Puzzle.from_json(line, f"{out}:{i}")
                except PuzzleError:
                    continue        # a line cut by a kill: its unit is not done
                if unit_key(z.source) in done and z.id not in seen:
                    kept.append(line.rstrip("\n"))
                    seen.add(z.id)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(k + "\n" for k in kept)
    os.replace(tmp, out)
    if not resume:
        open(journal, "w").close()
    start = time.perf_counter()
    units = len(done)
    duplicates = 0
    total = None
    if progress:
        total = len(_units(paths, games, Rules.parse(rules), seed))
        progress(units, total, len(seen))
    with open(out, "a", encoding="utf-8") as fo, open(journal, "a", encoding="utf-8") as fj:
        for key, found, st in find_puzzles(paths, games=games, rules=rules, seed=seed, opts=opts, workers=workers,
                                           scheduler=scheduler, skip=done):
            for z in found:
                if z.id in seen:
                    duplicates += 1
                    continue
                seen.add(z.id)
                fo.write(z.to_json() + "\n")
            fo.flush()
            os.fsync(fo.fileno())
            fj.write(json.dumps({"unit": list(key), "stats": st.to_dict()}) + "\n")
            fj.flush()
            stats.add(st)
            units += 1
            if progress:
                progress(units, total, len(seen))
    d = stats.to_dict()
    d.update(units=units, puzzles=len(seen), duplicates=duplicates,
             seconds=round(time.perf_counter() - start, 3))
    return d
