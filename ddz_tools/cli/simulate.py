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
                               landlord=int(res.landlord[g]) if res.landlord[g] >= 0 else None,
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


def _botzone_kind(path: str):
    from ..botzone import sniff_text
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        return sniff_text(f.read(65536))


def _botzone_replays(path: str):
    from ..botzone import import_file
    from ..errors import DdzError
    from ..records import replay_record
    try:
        recs = import_file(path)
    except DdzError as exc:
        yield path, 1, None, str(exc)
        return
    for i, rec in enumerate(recs, 1):
        rep = replay_record(rec)
        info = rec.extra.get("botzone", {})
        if rep.status == "incomplete" and info.get("reason"):
            rep.reason = info["reason"]
        yield path, i, rep, None


def replay_files(paths, fast: bool = False):
    """Yield ``(path, line, ReplayResult or None, error or None)`` for every
    record line of the files (the function behind ``ddz replay``).  A file
    that cannot be read is one error (line 0) and the run goes on."""
    for path in paths:
        try:
            yield from _replay_one_file(path, fast)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            yield path, 0, None, f"cannot read the file: {reason}"


def _replay_one_file(path: str, fast: bool):
    from ..records import read_records
    if path != "-" and _botzone_kind(path):
        yield from _botzone_replays(path)
    elif fast:
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
    """Validate and score every game of ddz-record/1 FILES (Botzone judge logs
    and bot transcripts are imported first).

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
      $ ddz replay data/botzone_sample_log.json
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

from .options import default_workers, rules_option, seed_option, workers_option  # noqa: E402  (this section's own)


def _parse_policy(ctx, param, value):
    from ..errors import DdzError
    from ..policies import policy_number

    parts = [p.strip() for p in value.split(",")]
    try:
        for p in parts:
            policy_number(p)
    except DdzError as exc:
        raise click.BadParameter(str(exc)) from None
    if len(parts) == 1:
        return parts[0]
    if len(parts) != 3:
        raise click.BadParameter("give one policy, or three separated by commas (one per seat)")
    return tuple(parts)


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=0), default=100, show_default=True,
              help="Number of games to play.")
@click.option("--policy", default="heuristic", show_default=True, callback=_parse_policy,
              help="random or heuristic, or three comma-separated policies for seats 0, 1, 2.")
@seed_option
@rules_option
@click.option("--out", "out", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write every game as a ddz-record/1 JSON line to this file ('-' for stdout).")
@click.option("--landlord-policy", type=click.Choice(["heuristic", "random", "advisor"]), default=None,
              help="The landlord's policy (default: --policy); advisor = ddz advise on the seat's own view.")
@click.option("--farmer-policy", type=click.Choice(["heuristic", "random", "advisor"]), default=None,
              help="The farmers' policy (default: --policy).")
@click.option("--advisor-samples", type=click.IntRange(min=1), default=32, show_default=True,
              help="The advisor's most deals per decision.")
@click.option("--advisor-nodes", type=click.IntRange(min=0), default=3000, show_default=True,
              help="The advisor's solver node budget per deal.")
@workers_option
@format_option()
def simulate(games, policy, seed, rules, out, workers, fmt, landlord_policy, farmer_policy, advisor_samples,
             advisor_nodes):
    """Play seeded self-play games and summarise them (optionally recording them).

    Each game is dealt, bid and played to the end inside a Numba kernel by
    the chosen policy in every seat (or one policy per seat), and scored
    (base bid, x2 per bomb or rocket, spring, anti-spring).  Game i uses a
    seed derived from --seed and i, so the same --seed always gives the same
    games, whatever --workers (threads that run the game kernel on chunks of
    games; records stay in game order).  A progress bar goes to stderr; the summary to stdout (to stderr
    when the records go to stdout with --out -).

    \b
    Examples:
      $ ddz simulate --games 1000 --policy heuristic --seed 7 --out games.jsonl
      $ ddz simulate --games 200 --policy heuristic,random,random --format json
      $ ddz simulate --games 100 --rules douzero,bidding=call-grab --out - | ddz replay -
      $ ddz simulate --games 20 --landlord-policy advisor --farmer-policy heuristic --out adv.jsonl

    With --landlord-policy or --farmer-policy the games are played in Python
    (ddz_tools.advise.play_game): the same deals, heuristic bidding, the
    first bidder game i % 3, and each seat playing its role's policy; the
    records' players name each seat's policy.
    """
    import json

    from .options import Progress
    from ..selfplay import simulate as run

    progress = Progress("simulate")
    stream = None
    if out == "-":
        stream = sys.stdout
    elif out is not None:
        stream = open(out, "w", encoding="utf-8")
    n = ll_wins = bombs = springs = antis = moves = 0
    ll_score = 0
    seat_score = [0, 0, 0]
    try:
        if landlord_policy or farmer_policy:
            from ..advise import AdvisorOptions, simulate_advised

            if not isinstance(policy, str):
                raise click.UsageError("--landlord-policy/--farmer-policy go with one --policy, not one per seat")
            landlord_policy, farmer_policy = landlord_policy or policy, farmer_policy or policy
            policy = f"landlord={landlord_policy},farmers={farmer_policy}"
            opts = AdvisorOptions(samples=advisor_samples, nodes=advisor_nodes, workers=default_workers(workers))
            records = simulate_advised(games, seed, landlord_policy, farmer_policy, rules, opts, progress=progress)
        else:
            records = run(games, policy, seed=seed, rules=rules, progress=progress, workers=default_workers(workers))
        for rec in records:
            if stream is not None:
                stream.write(json.dumps(rec, separators=(",", ":")) + "\n")
            res = rec["result"]
            n += 1
            ll_wins += res["winner"] == "landlord"
            bombs += res["bombs"]
            springs += res["spring"]
            antis += res["anti_spring"]
            moves += len(rec["plays"])
            ll_score += res["scores"][rec["landlord"]]
            for s in range(3):
                seat_score[s] += res["scores"][s]
    finally:
        progress.close()
        if stream is not None and stream is not sys.stdout:
            stream.close()
    pol = policy if isinstance(policy, str) else ",".join(policy)
    summary = {
        "games": n, "policy": pol, "seed": seed, "rules": rules.describe(), "out": out,
        "landlord_win_rate": ll_wins / n if n else None, "landlord_wins": ll_wins,
        "bombs_per_game": bombs / n if n else None, "springs": springs, "anti_springs": antis,
        "moves_per_game": moves / n if n else None,
        "landlord_mean_score": ll_score / n if n else None, "seat_scores": seat_score,
    }
    to_err = out == "-"
    if fmt == "json":
        line = json.dumps(summary, separators=(",", ":"))
        click.echo(line, err=to_err)
    else:
        from tabulate import tabulate

        rows = [("games", n), ("policy", pol), ("seed", seed), ("rules", rules.describe()),
                ("landlord win rate", f"{summary['landlord_win_rate']:.3f}" if n else "-"),
                ("bombs + rockets per game", f"{summary['bombs_per_game']:.3f}" if n else "-"),
                ("springs / anti-springs", f"{springs} / {antis}"),
                ("moves per game", f"{summary['moves_per_game']:.1f}" if n else "-"),
                ("landlord mean score", f"{summary['landlord_mean_score']:+.3f}" if n else "-"),
                ("score per seat", " ".join(f"{x:+d}" for x in seat_score))]
        if out not in (None, "-"):
            rows.append(("records", out))
        click.echo(tabulate(rows, tablefmt="plain"), err=to_err)
    return 0
