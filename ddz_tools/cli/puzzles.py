"""``ddz puzzles``: endgames with exactly one winning play, found in games."""

from __future__ import annotations

import json

import click

from ..analysis.puzzles import FindOptions, ScanStats
from ..analysis.puzzles.collection import find_puzzles, run_find
from ..core.errors import ArgumentError, DdzError
from . import EXIT_BAD_RECORDS, SubGroup
from .options import (Progress, default_workers, emit_json, format_option, print_table, progress_option,
                      rules_option, scheduler_option, seed_option, workers_option)


@click.group(cls=SubGroup, help="Find endgame puzzles (one winning play the heuristic misses) in games.")
def puzzles():
    pass


def _row(z) -> tuple:
    src = z.source
    where = (f"{src['file']}:{src['line']}" if "file" in src else f"{src['rules']} seed {src['seed']} game {src['game']}")
    where += f" move {src['move']}" + (f" ({src['duel']} alone)" if "duel" in src else "")
    line = " ".join(f"{s.by}:{s.play}" for s in z.solution)
    return z.id, z.side, z.natural, line, ", ".join(z.themes), where


@puzzles.command("find", help="Find puzzles in recorded games (--from) or fresh self-play (--games).")
@click.option("--from", "paths", multiple=True, type=click.Path(dir_okay=False),
              help="A file of games, anything `ddz analyze` reads (repeat for more files).")
@click.option("--games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Self-play games (heuristic policy) of --rules from --seed to search too.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the puzzles here (ddz-puzzle/1 JSON Lines) with a journal OUT.done.")
@click.option("--resume", is_flag=True, help="With --out: go on from its journal after a stop or kill.")
@click.option("--max-cards", type=click.IntRange(min=1), default=12, show_default=True,
              help="Skip positions where a hand holds more cards.")
@click.option("--max-total", type=click.IntRange(min=2), default=30, show_default=True,
              help="Skip positions where the hands together hold more cards.")
@click.option("--node-limit", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Solver nodes per solve; a position past it is skipped and counted.")
@click.option("--budget", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Positions the defence's measure may count per reply choice.")
@click.option("--duels/--no-duels", default=True, show_default=True,
              help="Also the two-player endgames of the landlord against each farmer alone.")
@workers_option
@scheduler_option
@format_option("table", "json")
@rules_option
@seed_option
@progress_option
def find(paths, games, out, resume, max_cards, max_total, node_limit, budget, duels, workers, scheduler, fmt,
         rules, seed, progress):
    if not paths and not games:
        raise ArgumentError("give games to search: --from FILE or --games N")
    if resume and out is None:
        raise ArgumentError("--resume needs --out")
    opts = FindOptions(max_cards=max_cards, max_total=max_total, node_limit=node_limit, budget=budget, duels=duels)
    workers = default_workers(workers)
    with Progress("puzzles", enabled=progress) as bar:
        if out is not None:
            summary = run_find(out, paths, games=games, rules=rules, seed=seed, opts=opts, workers=workers,
                               scheduler=scheduler, resume=resume,
                               progress=lambda d, t, n: bar(d, t, f"{n} puzzles"))
            summary = dict(summary, out=out, rules=rules.describe())
            if fmt == "json":
                emit_json(summary)
            else:
                print_table([(k, v) for k, v in summary.items()], ["run", ""])
            _bad_games(summary["bad_games"])
            return
        stats, rows = ScanStats(), []
        for _, found, st in find_puzzles(paths, games=games, rules=rules, seed=seed, opts=opts, workers=workers,
                                         scheduler=scheduler):
            stats.add(st)
            for z in found:
                if fmt == "json":
                    click.echo(z.to_json())
                else:
                    rows.append(_row(z))
    if fmt == "table":
        print_table(rows, ["id", "side", "natural (loses)", "solution", "themes", "source"])
        click.echo(f"\nrules {rules.describe()}: {stats.positions} positions, {stats.screened} solved, "
                   f"{stats.over_budget} over the node limit, {stats.puzzles} puzzles")
    else:
        click.echo(json.dumps({"summary": dict(stats.to_dict(), rules=rules.describe())}), err=True)
    _bad_games(stats.bad_games)


def _bad_games(n: int) -> None:
    """Games that could not be read or replayed were skipped: say so, exit 3."""
    if n:
        click.echo(f"error: {n} game(s) could not be read or replayed and were skipped", err=True)
        raise SystemExit(EXIT_BAD_RECORDS)


@puzzles.command("play", help="Play a puzzle at the terminal: type the winning side's plays.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--id", "puzzle_id", default=None, help="The puzzle's id (default: the file's first).")
def play(file, puzzle_id):
    from ..analysis.puzzles import read_puzzles
    from ..analysis.puzzles.play import Session

    found = [z for z in read_puzzles(file) if puzzle_id is None or z.id == puzzle_id]
    if not found:
        raise ArgumentError(f"{file}: no puzzle" + (f" with id {puzzle_id}" if puzzle_id else ""))
    z = found[0]
    s = Session(z)
    click.echo(f"{z.id}  [rules {z.position.rules.describe()}]  themes: {', '.join(z.themes) or '-'}")
    click.echo(f"{z.position.describe()}\nyou play for the {z.side}; one play wins")
    while not s.done:
        text = click.prompt(f"{s.position.to_move}", default="", show_default=False).strip()
        if text in ("", "quit", "q"):
            click.echo(f"the solution: {' '.join(f'{st.by}:{st.play}' for st in z.solution)}")
            return
        try:
            r = s.try_play(text)
        except DdzError as exc:
            click.echo(f"  {exc}")
            continue
        if not r["right"]:
            line = " ".join(f"{by}:{p}" for by, p in r["refutation"])
            click.echo(f"  {r['play']} loses: {line}")
            continue
        click.echo("  right" + (": " + " ".join(f"{by}:{p}" for by, p in r["replies"]) if r["replies"] else ""))
    click.echo("solved")


@puzzles.command("book", help="Write a static HTML book of puzzles: an index by rating and theme, a page each.")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False), help="The book's folder.")
@click.option("--force", is_flag=True, help="Overwrite the book in an existing folder.")
@click.option("--title", default="Dou Dizhu puzzles", show_default=True, help="The index's title.")
@format_option("table", "json")
def book(files, out, force, title, fmt):
    from ..analysis.puzzles.book import write_book

    summary = write_book(files, out, force=force, title=title)
    if fmt == "json":
        emit_json(summary)
        return
    rows = [("index", summary["index"]), ("puzzles", summary["puzzles"]), ("duplicates", summary["duplicates"])]
    rows += [(f"rating {b}", n) for b, n in summary["bands"].items()]
    rows += [(f"rules {r}", n) for r, n in summary["rules"].items()]
    rows += [(f"theme {t}", n) for t, n in summary["themes"].items()]
    print_table(rows, ["book", ""])


@puzzles.command("rate", help="Rate puzzles by the attempts of solvers of known strength (Glicko-2).")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write the rated puzzles here.")
@click.option("--in-place", is_flag=True, help="Rewrite each file with its puzzles rated.")
@click.option("--rounds", type=click.IntRange(min=1), default=4, show_default=True,
              help="Rounds of attempts: each solver tries each puzzle once a round, one rating period each.")
@format_option("table", "json")
@seed_option
@progress_option
def rate(files, out, in_place, rounds, fmt, seed, progress):
    from ..analysis.puzzles.rating import rate_files

    with Progress("attempts", enabled=progress) as bar:
        summary = rate_files(list(files), out=out, in_place=in_place, rounds=rounds, seed=seed, progress=bar)
    if fmt == "json":
        emit_json(summary)
        return
    print_table([(n, s["rating"], s["deviation"], f"{s['solved']} / {s['attempts']}")
                 for n, s in summary["solvers"].items()], ["solver", "rating", "deviation", "solved"])
    names = list(summary["solvers"])
    click.echo()
    print_table([(b["band"], b["puzzles"], *("" if b[n] is None else f"{100 * b[n]:.0f}%" for n in names))
                 for b in summary["bands"]], ["puzzle rating", "puzzles", *names])
    rules = ", ".join(f"{r} {n}" for r, n in summary["rules"].items())
    plural = "s" if rounds != 1 else ""
    click.echo(f"\n{summary['puzzles']} puzzles ({rules}) rated in {rounds} round{plural} (seed {seed}); "
               f"written: {', '.join(summary['written'])}")
