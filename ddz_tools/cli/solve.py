"""``ddz solve``: exact open-hand endgame solving."""

from __future__ import annotations

import json
import sys

import click

from ..core.errors import DdzError
from ..engines.position import FOUR_SEATS, TWO_SEATS, Position, from_record, read_game_records
from ..engines.solver import DEFAULT_TT_MB, Solver, SolveResult
from .options import (Progress, default_workers, emit_json, file_option, format_option, print_table, read_lines,
                      rules_option, workers_option)

_SEATS = TWO_SEATS + FOUR_SEATS


def _result_dict(res: SolveResult, with_position: bool = True) -> dict:
    d = res.to_dict()
    extra = dict(res.position.extra) if res.position is not None else {}
    if "move" in extra:
        d["record"], d["move"] = extra.get("record"), extra["move"]
    if not with_position:
        d.pop("position", None)
    return d


def _print_human(res: SolveResult) -> None:
    p = res.position
    extra = dict(p.extra)
    name = f"{res.id}, before move {extra['move']}" if "move" in extra else res.id
    wild = f", wild {p.rules.wild_text()}" if p.rules.wild else ""
    title = f"{name + ': ' if name else ''}{p.describe()}  [rules {res.rules}{wild}]"
    verdict = {"win": f"{res.to_move} wins", "loss": f"{res.to_move} loses",
               "unknown": f"unknown ({res.stopped})"}[res.result]
    rows = [("result", verdict)]
    if res.result == "win":
        label = "winning plays" if res.all_plays else "winning play"
        rows.append((label, " ".join(res.winning_plays) or "-"))
    elif res.result == "unknown" and res.winning_plays:
        rows.append(("proven winning so far", " ".join(res.winning_plays)))
    if res.root_plays is not None and res.result != "loss":
        proven = " ".join(res.lost_plays) if res.lost_plays else "none"
        rows.append((f"proven lost ({len(res.lost_plays)} of {res.root_plays} plays)", proven))
    if res.line:
        rows.append(("line", "  ".join(f"{by}:{play}" for play, by in zip(res.line, res.line_by))))
    if res.stopped and res.result != "unknown":
        rows.append(("note", f"stopped early ({res.stopped}); the result is proven"))
    rate = f" ({res.nodes / res.seconds:,.0f}/s)" if res.seconds > 0 else ""
    rows.append(("nodes", f"{res.nodes:,}{rate}"))
    rows.append(("time", f"{res.seconds:.3f} s"))
    tt = res.tt
    rows.append(("table", f"{tt['entries']:,} of {tt['capacity']:,} entries ({tt['used_mb']:g} of {tt['mb']:g} MiB), "
                          f"{tt['hits']:,} hits, {tt['evictions']:,} evictions"))
    print_table(rows, ["", ""], title=title)
    if res.strategy is not None:
        click.echo(json.dumps(res.strategy, indent=1))


def _interactive(solver: Solver, pos: Position, kwargs: dict) -> None:
    """The user defends; the solver plays the side to move (which must win)."""
    res = solver.solve(pos, **kwargs)
    if res.result != "win":
        click.echo(f"{pos.to_move} cannot force a win here ({res.result}); nothing to play out.")
        return
    solver_team = pos.team_of(pos.to_move)
    cur = pos
    while True:
        turn = cur.to_move
        if pos.team_of(turn) == solver_team:
            r = solver.solve(cur, line=False, **{k: v for k, v in kwargs.items() if k != "line"})
            play_text = r.winning_plays[0] if r.winning_plays else None
            if play_text is None:
                raise RuntimeError(f"solver found no winning play ({r.result}, {r.stopped})")
            click.echo(f"{turn} plays {play_text}")
        else:
            click.echo(cur.describe())
            play_text = click.prompt(f"{turn}, your play (cards, or pass)",
                                     default="pass" if cur.last_play else None)
        try:
            play = cur.parse_play(play_text)
        except DdzError as exc:
            click.echo(f"{exc}; try again", err=True)
            continue
        cur = cur.push(play)
        if cur.is_over:
            click.echo(f"{turn} is out: {pos.team_of(turn)} wins")
            return


@click.command()
@click.option("--me", default=None, help="Two-player: my hand.")
@click.option("--opponent", default=None, help="Two-player: the opponent's hand.")
@click.option("--landlord", default=None, help="Three-player: the landlord's hand.")
@click.option("--farmer1", default=None, help="Three-player: the farmer after the landlord.")
@click.option("--farmer2", default=None, help="Three-player: the farmer before the landlord (with --rules four: "
                                              "the second farmer).")
@click.option("--farmer3", default=None, help="With --rules four: the third farmer, before the landlord (the "
                                              "landlord and one, two or three farmers).")
@click.option("--to-move", "to_move", type=click.Choice(_SEATS), default=None,
              help="Side to move (default me in two-player; required with the landlord and farmers).")
@click.option("--after", default=None, help="The play to answer (e.g. 77, 333444-56); omit for a free lead.")
@click.option("--by", type=click.Choice(_SEATS), default=None,
              help="Three-player: who made the --after play (default: the seat before the side to move).")
@file_option
@rules_option
@format_option()
@click.option("--all", "all_plays", is_flag=True, help="List every winning play at the root.")
@click.option("--strategy", is_flag=True, help="Also output the whole winning strategy as a JSON tree.")
@click.option("--no-line", "no_line", is_flag=True, help="Skip the principal line.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per position; past it the result is 'unknown'.")
@click.option("--node-limit", type=click.IntRange(min=1), default=None,
              help="Nodes per position; past it the result is 'unknown'.")
@click.option("--tt-mb", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TT_MB, show_default=True,
              help="Transposition table size in MiB (the bound on its memory).")
@workers_option
@click.option("--record", "record", type=click.Path(dir_okay=False), default=None,
              help="Solve a recorded game (ddz-record/1 JSON Lines or a Botzone log): every game in the file.")
@click.option("--move", type=click.IntRange(min=1), default=None,
              help="With --record: the position before this move (numbered from 1 as ddz analyze numbers "
                   "them, passes counted; default 1, just after the auction).")
@click.option("--play", "interactive", is_flag=True,
              help="Interactive: you play the defence against the solver.")
def solve(me, opponent, landlord, farmer1, farmer2, farmer3, to_move, after, by, file, rules, fmt, all_plays,
          strategy, no_line, time_limit, node_limit, tt_mb, workers, record, move, interactive):
    """Solve an open-hand endgame exactly: can the side to move force a win?

    Two-player (me against one opponent) or three-player (the landlord against
    two farmers who win together); with --rules four (two decks) the landlord
    against one, two or three farmers.  A position is the hands, the side to move
    and the play to answer (--after, made by --by) or a free lead.  Positions
    in a file are ddz-position/1 JSON Lines; with --format json each result is
    one JSON object per line.  Ctrl-C or a limit gives 'unknown', never a
    wrong answer.

    \b
    Examples:
      $ ddz solve --me 33JJQK2 --opponent 4455A --all
      $ ddz solve --me 9AA --opponent 5577TTQQ2 --after 3
      $ ddz solve --landlord 3KK --farmer1 44 --farmer2 A2 --to-move landlord
      $ ddz solve --rules four --landlord 3XX --farmer1 44 --farmer2 55 --farmer3 A --to-move landlord
      $ ddz solve --file data/puzzles.jsonl --format json --all
      $ ddz solve --record data/sample_games.jsonl --move 6 --time-limit 10
    """
    solver = Solver(tt_mb, default_workers(workers))
    kwargs = dict(all_plays=all_plays, line=not no_line, strategy=strategy,
                  time_limit=time_limit, node_limit=node_limit)
    if move is not None and record is None:
        raise click.UsageError("--move needs --record")
    if record is not None:
        if file is not None or any(x is not None for x in (me, opponent, landlord, farmer1, farmer2, farmer3,
                                                           to_move, after, by)):
            raise click.UsageError("--record takes the positions from the game records; drop the other inputs")
        if interactive:
            raise click.UsageError("--play works on one position given by hands, not --record")
        return _solve_positions(solver, _record_positions(record, move, rules), fmt, kwargs)
    if file is not None:
        if any(x is not None for x in (me, opponent, landlord, farmer1, farmer2, farmer3, to_move, after, by)):
            raise click.UsageError("--file takes the positions from the file; drop the hand options")
        if interactive:
            raise click.UsageError("--play works on one position, not --file")
        return _solve_file(solver, file, fmt, kwargs)
    hands = dict(me=me, opponent=opponent, landlord=landlord, farmer1=farmer1, farmer2=farmer2, farmer3=farmer3)
    if all(h is None for h in hands.values()):
        raise click.UsageError("give a position: --me/--opponent, --landlord/--farmer1/--farmer2 (--farmer3 with "
                               "--rules four), or --file")
    pos = Position.from_hands(**hands, to_move=to_move, after=after, by=by, rules=rules)
    if interactive:
        _interactive(solver, pos, kwargs)
        return 0
    res = _solve_one(solver, pos, kwargs, "solve")
    if fmt == "json":
        emit_json(_result_dict(res))
    else:
        _print_human(res)
    if res.stopped == "interrupted":
        return 130
    return 0


def _solve_one(solver: Solver, pos: Position, kwargs: dict, label: str) -> SolveResult:
    """``solver.solve(pos)`` with a progress line on stderr (see :class:`Progress`)."""
    with Progress(label, unit="nodes") as bar:
        if not bar.enabled:
            return solver.solve(pos, **kwargs)
        last = [0, 0, 0]

        def show(nodes: int, lost: int, plays: int, force: bool = False) -> None:
            last[:] = nodes, lost, plays
            bar(nodes, None, f"{lost} of {plays} root plays proven lost", force=force)

        res = solver.solve(pos, **kwargs, progress=show)
        show(*last, force=True)
        return res


def _file_positions(path: str):
    """(position or None, error text) for every line of a ddz-position/1 file."""
    for lineno, text in read_lines(path):
        try:
            yield Position.from_json(text, default_id=f"line {lineno}"), None
        except DdzError as exc:
            yield None, f"{path}:{lineno}: {exc}"


def _record_positions(path: str, move, rules):
    """(position or None, error text) for every game of a record file (see :func:`from_record`)."""
    for label, rec, err in read_game_records(path, rules):
        if rec is None:
            yield None, f"{label}: {err}"
            continue
        try:
            yield from_record(rec, move), None
        except DdzError as exc:
            yield None, f"{label}: {exc}"


def _solve_file(solver: Solver, path: str, fmt: str, kwargs: dict) -> int:
    return _solve_positions(solver, _file_positions(path), fmt, kwargs)


def _solve_positions(solver: Solver, positions, fmt: str, kwargs: dict) -> int:
    done = failed = unknown = 0
    counts = {"win": 0, "loss": 0, "unknown": 0}
    interrupted = False
    for pos, err in positions:
        if pos is None:
            failed += 1
            click.echo(f"error: {err}", err=True)
            continue
        res = _solve_one(solver, pos, kwargs, f"solve {pos.id}")
        done += 1
        counts[res.result] += 1
        if fmt == "json":
            emit_json(_result_dict(res))
        else:
            _print_human(res)
            click.echo()
        sys.stdout.flush()
        if res.stopped == "interrupted":
            interrupted = True
            break
        unknown += res.result == "unknown"
    click.echo(f"{done} solved ({counts['win']} win, {counts['loss']} loss, {counts['unknown']} unknown), "
               f"{failed} skipped" + (", interrupted" if interrupted else ""), err=True)
    if interrupted:
        return 130
    return 1 if failed else 0
