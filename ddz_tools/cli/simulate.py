"""``ddz replay`` (recorded games) and ``ddz simulate`` (self-play).

The two commands share this module because both deal in ``ddz-record/1``
files; each has its own section below and imports what it needs.
"""

from __future__ import annotations

import sys

import click

from .options import emit_json, format_option, print_table

# ---------------------------------------------------------------------------------------------
# ddz replay
# ---------------------------------------------------------------------------------------------

_REPLAY_HEADERS = ["file:line", "id", "status", "rules", "landlord", "base", "winner", "mult", "scores", "note"]


def _replay_row(where: str, rep) -> list:
    res = rep.result
    return [where, "" if rep.id is None else rep.id, rep.status, rep.rules,
            "" if rep.landlord is None else rep.landlord, rep.base or "",
            res.winner if res else "", res.multiplier if res else "",
            " ".join(str(x) for x in res.scores) if res else "", rep.reason or ""]


def _fast_replays(path: str):
    """(line, ReplayResult-like or error) for a file, validated by the batch kernel."""
    from ..errors import DdzError
    from ..records import ReplayResult, parse_record, validate_batch
    from ..game import Result

    def flush(chunk):
        if not chunk:
            return
        res = validate_batch([rec for _, rec in chunk])
        for g, (lineno, rec) in enumerate(chunk):
            status = res.status_name(g)
            code = res.code(g)
            idx = int(res.index[g])
            rep = ReplayResult(rec.id, status, rec.rules.describe(), code=code, n_plays=len(rec.plays),
                               landlord=int(res.landlord[g]) if not res.phase_bid[g] and res.base[g] else None,
                               base=int(res.base[g]), stored=rec.result)
            if code is not None:
                rep.phase = "bid" if res.phase_bid[g] else "play"
                rep.index = idx
                rep.reason = f"{rep.phase}s[{idx}]: {code.replace('_', ' ')}"
            elif status == "incomplete":
                rep.reason = "nobody went out" if res.base[g] else "no landlord (bidding unfinished or void)"
            else:
                ll = int(res.landlord[g])
                rep.result = Result("landlord" if res.winner[g] == ll else "farmers", int(res.winner[g]), ll,
                                    int(res.base[g]), int(res.multiplier[g]), int(res.bombs[g]),
                                    bool(res.spring[g]), bool(res.anti_spring[g]),
                                    tuple(int(x) for x in res.scores[g]))
                if status == "mismatch":
                    rep.reason = "stored result disagrees"
            yield lineno, rep, None
    chunk = []
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    try:
        for lineno, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                chunk.append((lineno, parse_record(line)))
            except DdzError as exc:
                yield from flush(chunk)
                chunk = []
                yield lineno, None, str(exc)
                continue
            if len(chunk) >= 20000:
                yield from flush(chunk)
                chunk = []
        yield from flush(chunk)
    finally:
        if stream is not sys.stdin:
            stream.close()


def replay_files(paths, fast: bool = False):
    """Yield ``(path, line, ReplayResult or None, error or None)`` for every
    record line of the files (the library function behind ``ddz replay``)."""
    from ..records import read_records
    for path in paths:
        if fast:
            for lineno, rep, err in _fast_replays(path):
                yield path, lineno, rep, err
        else:
            for item in read_records(path):
                yield path, item.line, item.replay, item.error


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--fast", is_flag=True, help="Validate with the batch kernel (same verdicts, terser reasons).")
@click.option("--errors-only", is_flag=True, help="List only the records that are not ok.")
@format_option()
def replay(files, fast, errors_only, fmt):
    """Validate and score every game of ddz-record/1 FILES.

    Every bid and play is replayed under the record's own rules and the
    result is recomputed; a stored result that disagrees is flagged
    (mismatch).  Status per game: ok, mismatch, invalid (with the move and
    the reason), incomplete.  A line that is not a record is reported on
    stderr with its line number and the run goes on.  Exit code 1 if any
    line is malformed, invalid or a mismatch.

    \b
    Examples:
      $ ddz replay data/sample_games.jsonl
      $ ddz replay data/bad_games.jsonl --format json
      $ ddz replay --fast --errors-only games.jsonl
    """
    counts = {"ok": 0, "mismatch": 0, "invalid": 0, "incomplete": 0, "malformed": 0}
    rows = []
    for path, lineno, rep, err in replay_files(files, fast):
        where = f"{path}:{lineno}"
        if err is not None:
            counts["malformed"] += 1
            click.echo(f"error: {where}: {err}", err=True)
            if fmt == "json":
                emit_json({"file": path, "line": lineno, "status": "malformed", "reason": err})
            continue
        counts[rep.status] += 1
        if rep.status in ("invalid", "mismatch"):
            click.echo(f"{rep.status}: {where}: {rep.reason}", err=True)
        if errors_only and rep.status == "ok":
            continue
        if fmt == "json":
            emit_json({"file": path, "line": lineno, **rep.to_dict()})
        else:
            rows.append(_replay_row(where, rep))
    if fmt != "json":
        print_table(rows, _REPLAY_HEADERS)
    summary = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
    click.echo(f"{sum(counts.values())} records: {summary or 'none'}", err=True)
    return 1 if counts["malformed"] or counts["invalid"] or counts["mismatch"] else 0


# ---------------------------------------------------------------------------------------------
# ddz simulate (self-play) -- below this line
# ---------------------------------------------------------------------------------------------
