"""``ddz analyze``: check, score and find mistakes in recorded games."""

from __future__ import annotations

import csv
import itertools
import json
import os
import sys

import click

from ..analysis.analyze import (
    CSV_COLUMNS,
    DEFAULT_NODE_LIMIT,
    STATUS_DEAL,
    STATUS_INVALID,
    analyze_files,
    flat_row,
    load_results,
    results_format,
    summarize,
    summary_rows,
)
from ..analysis.report import ReportWriter
from ..analysis.review import MODES as REVIEW_MODES
from . import EXIT_BAD_RECORDS
from .options import (Progress, bids_options, default_workers, emit_json, format_option, print_table,
                      progress_option, review_inference_option, review_nodes_option, review_samples_option, rules_option, scheduler_option,
                      seed_option, time_limit_option, workers_option)


def _game_table_row(g) -> tuple:
    r = g.result or {}
    landlord = "" if g.landlord is None else (g.players[g.landlord] if g.players else g.landlord)
    return (g.label, g.id or "", g.status, landlord, r.get("winner", ""), r.get("base", ""),
            r.get("multiplier", ""), " ".join(str(x) for x in r.get("scores", [])),
            len(g.mistakes) if g.status not in (STATUS_INVALID, STATUS_DEAL) else "", g.note())


GAME_HEADERS = ("game", "id", "status", "landlord", "winner", "base", "mult", "scores", "mistakes", "note")


def _print_summary_tables(s: dict, analyses: "list | None") -> None:
    def pct(x):
        return "" if x is None else f"{100 * x:.1f}%"

    rows = [("files", s["files"]), ("games", s["games"]), ("valid", s["valid"]), ("invalid", s["invalid"]),
            ("incomplete", s["incomplete"]), ("deals (DouZero)", s["deals"]),
            ("stored result disagrees", s["result_disagrees"]),
            ("landlord win rate", pct(s["landlord_win_rate"])),
            ("mean multiplier", "" if s["mean_multiplier"] is None else f"{s['mean_multiplier']:.3f}"),
            ("bombs and rockets", s["bombs"]),
            # Fewer only under four-player bomb_doubles=six-plus or ladder (bombs of 4 or 5 cards do not double).
            *([("bombs and rockets that raised the stake", s["stake_bombs"])] if s["stake_bombs"] != s["bombs"] else []),
            ("springs", s["springs"]), ("anti-springs", s["anti_springs"]),
            ("mistakes", s["mistakes"]), ("games with mistakes", s["games_with_mistakes"]),
            ("mistakes by " + " / ".join(s["mistakes_by_role"]),
             " / ".join(str(n) for n in s["mistakes_by_role"].values())),
            ("positions solved", s["positions_solved"]), ("moves unchecked (solver limit)", s["positions_unchecked"]),
            ("bids reviewed / agreeing with the evaluator", f"{s['bids_reviewed']} / {s['bids_agreeing']}"),
            ("expected points lost in bidding", s["bid_cost"]),
            *([("doubles reviewed / agreeing with the evaluator", f"{s['doubles_reviewed']} / {s['doubles_agreeing']}"),
               ("expected points lost in doubling", s["double_cost"])] if s["doubles_reviewed"] else []),
            *([("show decisions reviewed / agreeing with the evaluator", f"{s['shows_reviewed']} / {s['shows_agreeing']}"),
               ("expected points lost in showing", s["show_cost"])] if s.get("shows_reviewed") else []),
            *([("stake decisions reviewed / against the evaluator",
                f"{s['stake_decisions']} / {s['stake_against']}")] if s["stake_decisions"] else []),
            ("rules", ", ".join(f"{k} ({v})" for k, v in s["rules"].items()))]
    rv = s["review"]
    if rv["games"]:
        rows[-1:-1] = [("games reviewed, moves reviewed", f"{rv['games']}, {rv['moves']}"),
                       ("inaccuracies / mistakes / blunders", f"{rv['inaccuracy']} / {rv['mistake']} / {rv['blunder']}"),
                       ("open-hand values unknown (solver limit)", rv["unknown"]),
                       ("mean win probability lost per move", "" if rv["mean_prob_lost"] is None
                        else pct(rv["mean_prob_lost"]))]
    print_table(rows, ["summary", ""])
    if s["players"]:
        click.echo()
        stake = bool(s["stake_decisions"])
        print_table([(name, p["games"], p["wins"], pct(p["win_rate"]), p["landlord_games"], p["landlord_wins"],
                      p["score"], p["mistakes"], p["incomplete"], f"{p['bids_agreeing']}/{p['bids_reviewed']}",
                      *([f"{p['stake_against']}/{p['stake_decisions']}"] if stake else []))
                     for name, p in s["players"].items()],
                    ["player", "games", "wins", "win rate", "as landlord", "landlord wins", "score", "mistakes",
                     "incomplete", "bids agreeing", *(["stake decisions against the evaluator"] if stake else [])])
    if analyses:
        rows = [(g.label, g.id or "", m.move, m.role, m.player or m.seat, m.played, " ".join(m.winning))
                for g in analyses for m in g.mistakes]
        if rows:
            click.echo()
            print_table(rows, ["game", "id", "move", "role", "player", "played", "would have won"])


def _csv_writer(stream):
    return csv.DictWriter(stream, fieldnames=CSV_COLUMNS, lineterminator="\n")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@format_option("table", "json", "csv")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Write each game's result to this file (JSON Lines; CSV with --format csv) as soon as it is "
                   "done; stdout then shows only the summary.")
@click.option("--resume", is_flag=True, help="Append to --out and skip the games it already holds.")
@workers_option
@scheduler_option
@click.option("--solve-below", type=click.IntRange(min=0), default=10, show_default=True,
              help="Mistake search from the first moment every hand holds at most N cards (0 = off).")
@click.option("--node-limit", type=click.IntRange(min=1), default=DEFAULT_NODE_LIMIT, show_default=True,
              help="Solver nodes per position; a position beyond it is reported unchecked.")
@time_limit_option
@bids_options
@click.option("--review", type=click.Choice(REVIEW_MODES), default=None,
              help="Judge every move: open (open-hand solver), hidden (advisor) or both.")
@review_nodes_option
@review_samples_option
@review_inference_option
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Also write an HTML report to this folder (as `ddz report`; implies --review open).")
@click.option("--force", is_flag=True, help="With --report: overwrite the report in an existing folder.")
@rules_option
@seed_option
@progress_option
def analyze(files, fmt, out, resume, workers, scheduler, solve_below, node_limit, time_limit, bids,
            bid_samples, review, review_nodes, review_samples, review_inference, report_dir, force, rules, seed,
            progress):
    """Check, score and find mistakes in recorded games.

    FILES are ddz-record/1 JSON Lines, Botzone judge logs or bot-side
    transcripts, or DouZero evaluation pickles (loaded by an unpickler that
    refuses every class).  Every bid and play is replayed; an invalid game is
    reported with its move number and reason and the run goes on.  Results
    are recomputed and a stored result that disagrees is flagged.  --rules
    applies to games that do not name their own rules.

    Exit status: 0, or 3 when some game is invalid or unreadable (with
    --resume: some game of the whole --out file).

    \b
    Examples:
      $ ddz analyze games.jsonl
      $ ddz analyze games.jsonl --format json --solve-below 8 --workers 2
      $ ddz analyze games.jsonl --out results.jsonl --resume
      $ ddz analyze games.jsonl --format csv --out results.csv
      $ ddz analyze botzone_log.json eval_data.pkl --rules douzero --bids
      $ ddz analyze games.jsonl --scheduler tcp://10.0.0.5:8786
      $ ddz analyze games.jsonl --review open --report report/
    """
    if resume and not (out or report_dir):
        raise click.UsageError("--resume needs --out (the file to append to) or --report")
    if resume and out and report_dir:
        raise click.UsageError("--resume goes on with --out or with --report, not both at once")
    if report_dir and not review:
        review = "open"
    writer = ReportWriter(report_dir, force=force, resume=resume) if report_dir else None
    if out and os.path.realpath(out) in {os.path.realpath(f) for f in files}:
        raise click.UsageError(f"--out {out} is also an input file")
    if scheduler is not None and workers is not None:
        raise click.UsageError("give --workers or --scheduler, not both")
    workers = default_workers(workers)
    previous = []
    if out and resume:
        have = results_format(out)
        if have is not None and (have == "csv") != (fmt == "csv"):
            raise click.UsageError(f"{out} holds {'CSV' if have == 'csv' else 'JSON Lines'}: "
                                   f"resume it with --format {have}")
        previous = load_results(out, repair=True)
    skip = {g.key for g in previous} | (writer.done if writer else set())
    bar = Progress("analyze", enabled=progress)
    sink = None
    csv_out = None
    if out:
        mode = "a" if resume else "w"
        sink = open(out, mode, encoding="utf-8", newline="")
        if fmt == "csv":
            csv_out = _csv_writer(sink)
            if not previous and (not resume or sink.tell() == 0):
                csv_out.writeheader()
                sink.flush()
    elif fmt == "csv":
        csv_out = _csv_writer(sys.stdout)
        csv_out.writeheader()
    # Kept in memory: every game when the table of games is printed at the
    # end, otherwise only games with mistakes (for the mistakes table); the
    # summary is accumulated as the games stream past.
    keep_all = sink is None and fmt == "table"
    kept = [g for g in previous if keep_all or g.mistakes]
    count = {"new": 0, "bad": 0}

    def analysed():
        for g in analyze_files(files, rules=rules, solve_below=solve_below, node_limit=node_limit,
                               time_limit=time_limit, bids=bids, bid_samples=bid_samples, seed=seed,
                               review=review, review_nodes=review_nodes, review_samples=review_samples,
                               review_inference=review_inference == "on",
                               workers=workers, scheduler=scheduler, skip=skip, progress=bar):
            if writer is not None:
                writer.add(g)
            count["new"] += 1
            if keep_all or g.mistakes:
                kept.append(g)
            if g.status == STATUS_INVALID:
                count["bad"] += 1
                if bar.enabled:
                    sys.stderr.write("\r\x1b[K")  # clear the bar's line; it is redrawn below
                click.echo(f"invalid: {g.label}: {g.note()}", err=True)
            if sink is not None:
                if csv_out is not None:
                    csv_out.writerow(flat_row(g))
                else:
                    sink.write(json.dumps(g.to_dict(), separators=(",", ":"), ensure_ascii=False) + "\n")
                sink.flush()
            elif fmt == "json":
                emit_json(g.to_dict())
                sys.stdout.flush()
            elif fmt == "csv":
                csv_out.writerow(flat_row(g))
                sys.stdout.flush()
            yield g

    try:
        s = summarize(itertools.chain(previous, analysed()))
    finally:
        bar.close()
        if sink is not None:
            sink.close()
        if writer is not None:
            click.echo(f"report: {writer.close()}", err=True)
    new, bad = count["new"], count["bad"]
    s["rules_default"] = rules.describe()
    s["resumed"] = len(previous)
    if fmt == "json":
        emit_json({"summary": s})
    elif fmt == "csv":
        if sink is None:
            click.echo()
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(("section", "key", "value"))
        w.writerows(summary_rows(s))
    else:
        if keep_all and kept:
            print_table([_game_table_row(g) for g in kept], GAME_HEADERS, title=None)
            click.echo()
        _print_summary_tables(s, kept)
    if previous:
        click.echo(f"resumed: {len(previous)} game(s) already in {out}, {new} analysed now", err=True)
    if s["invalid"]:
        click.echo(f"{s['invalid']} invalid or unreadable game(s)"
                   + (f" ({bad} in this run)" if previous else ""), err=True)
        return EXIT_BAD_RECORDS
    return 0
