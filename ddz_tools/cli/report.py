"""``ddz report``: review recorded games and write an HTML report folder."""

from __future__ import annotations

import sys

import click

from ..analysis.analyze import STATUS_INVALID
from ..analysis.report import write_report
from ..analysis.review import MODES as REVIEW_MODES
from . import EXIT_BAD_RECORDS
from .options import (Progress, bids_options, default_workers, emit_json, format_option, progress_option,
                      review_inference_option, review_nodes_option, review_samples_option, rules_option, scheduler_option, seed_option,
                      time_limit_option, workers_option)

@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="The report folder (index.html, games/*.html, analysis.jsonl).")
@click.option("--force", is_flag=True, help="Overwrite the report in an existing folder.")
@click.option("--resume", is_flag=True, help="Go on with the report in --out: skip the games it holds.")
@click.option("--review", "review", type=click.Choice(REVIEW_MODES), default="open", show_default=True,
              help="Judge every move: open (exact open-hand solver), hidden (the advisor's win probability), "
                   "or both.")
@review_nodes_option
@review_samples_option
@review_inference_option
@time_limit_option
@click.option("--solve-below", type=click.IntRange(min=0), default=0, show_default=True,
              help="Also run analyze's endgame mistake search from N cards a hand (0 = off).")
@bids_options
@workers_option
@scheduler_option
@rules_option
@seed_option
@format_option("table", "json")
@progress_option
def report(files, out, force, resume, review, review_nodes, review_samples, review_inference, time_limit, solve_below,
           bids, bid_samples, workers, scheduler, rules, seed, fmt, progress):
    """Review recorded games and write a static HTML report.

    FILES are read as by `ddz analyze` (ddz-record/1 JSON Lines, Botzone logs,
    DouZero pickles).  OUT/index.html holds the batch summary, a link to every
    game and every bad record with its FILE:LINE and reason; OUT/games/ one
    page per game (the deal, the auction, every move judged, the evaluation
    timeline).  The pages are self-contained and open from the file system.

    Exit status: 0, or 3 when some record is invalid or unreadable.

    \b
    Examples:
      $ ddz report games.jsonl --out report
      $ ddz report games.jsonl --out report --review-nodes 20000 --workers 2
      $ ddz report games.jsonl --out report --resume
      $ ddz report botzone_log.json --out report --force --bids
    """
    if scheduler is not None and workers is not None:
        raise click.UsageError("give --workers or --scheduler, not both")
    bar = Progress("report", enabled=progress)

    def bad(g):
        if g.status == STATUS_INVALID:
            if bar.enabled:
                sys.stderr.write("\r\x1b[K")
            click.echo(g.describe(), err=True)

    try:
        res = write_report(files, out, force=force, resume=resume, review=review, progress=bar, on_game=bad,
                           rules=rules, solve_below=solve_below, review_nodes=review_nodes,
                           review_samples=review_samples,
                           review_inference=review_inference == "on", time_limit=time_limit, bids=bids,
                           bid_samples=bid_samples, seed=seed,
                           workers=default_workers(workers) if scheduler is None else 1, scheduler=scheduler)
    finally:
        bar.close()
    if fmt == "json":
        emit_json({"report": res["index"], "games": res["games"], "new": res["new"], "resumed": res["resumed"],
                   "invalid": res["invalid"], "rules_default": rules.describe()})
    else:
        click.echo(f"report: {res['index']} ({res['games']} record(s), {res['new']} new, "
                   f"{res['invalid']} invalid)")
    return EXIT_BAD_RECORDS if res["invalid"] else 0
