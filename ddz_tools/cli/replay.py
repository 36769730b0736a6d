"""``ddz replay``: validate and score recorded games."""

from __future__ import annotations

import click

from ..engines.replay import ReplaySummary, replay_files
from . import EXIT_BAD_RECORDS
from .options import emit_json, format_option, print_table

_HEADERS = ["file:line", "id", "status", "rules", "landlord", "base", "winner", "mult", "doubles", "scores", "note"]


def _row(where: str, rep) -> list:
    res = rep.result
    return [where, "" if rep.id is None else rep.id, rep.status, rep.rules,
            "" if rep.landlord is None else rep.landlord, rep.base or "",
            res.winner if res else "", res.multiplier if res else "",
            " ".join(str(x) for x in res.doubles) if res and res.staged else "",
            " ".join(str(x) for x in res.scores) if res else "", rep.reason or ""]


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--fast", is_flag=True, help="Validate with the batch kernel (same verdicts, terser reasons).")
@click.option("--errors-only", is_flag=True, help="List only the records that are not ok.")
@format_option()
def replay(files, fast, errors_only, fmt):
    """Validate and score every game of ddz-record/1 FILES (Botzone judge logs
    and bot transcripts are imported first).

    Every bid and play is replayed under the record's own rules (three or
    four players) and the result is recomputed; a stored result that disagrees is flagged
    (mismatch).  Status per game: ok, mismatch, invalid (with the move and
    the reason), incomplete.  A line that is not a record is reported on
    stderr with its line number and the run goes on.  Exit status 3 if any
    line is malformed, invalid or a mismatch; 2 (nothing replayed) if a file
    cannot be read.

    \b
    Examples:
      $ ddz replay data/sample_games.jsonl
      $ ddz replay data/bad_games.jsonl --format json
      $ ddz replay --fast --errors-only games.jsonl
      $ ddz replay data/botzone_sample_log.json
      $ ddz replay data/four_games.jsonl
    """
    summary = ReplaySummary()
    rows = []
    for path, lineno, rep, err in replay_files(files, fast):
        summary.add(rep, err)
        where = f"{path}:{lineno}"
        if err is not None:
            click.echo(f"error: {where}: {err}", err=True)
            if fmt == "json":
                emit_json({"file": path, "line": lineno, "status": "malformed", "reason": err})
            continue
        if rep.status in ("invalid", "mismatch"):
            click.echo(f"{rep.status}: {where}: {rep.reason}", err=True)
        if errors_only and rep.status == "ok":
            continue
        if fmt == "json":
            emit_json({"file": path, "line": lineno, **rep.to_dict()})
        else:
            rows.append(_row(where, rep))
    if fmt != "json":
        # The doubles column only where some game has stake stages (Happy Dou Dizhu).
        keep = [i for i, h in enumerate(_HEADERS) if h != "doubles" or any(r[i] for r in rows)]
        print_table([[r[i] for i in keep] for r in rows], [_HEADERS[i] for i in keep])
    click.echo(summary.describe(), err=True)
    return EXIT_BAD_RECORDS if summary.failed else 0
