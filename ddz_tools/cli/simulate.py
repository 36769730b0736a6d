"""``ddz simulate``: seeded self-play games, summarised and optionally recorded."""

from __future__ import annotations

import json
import sys

import click
from tabulate import tabulate

from ..core.errors import DdzError
from ..engines.policies import policy_number
from ..engines.selfplay import SimulationSummary, simulate as run
from .options import Progress, default_workers, format_option, rules_option, seed_option, workers_option


def _parse_policy(ctx, param, value):
    parts = [p.strip() for p in value.split(",")]
    try:
        for p in parts:
            policy_number(p)
    except DdzError as exc:
        raise click.BadParameter(str(exc)) from None
    if len(parts) == 1:
        return parts[0]
    if len(parts) not in (3, 4):
        raise click.BadParameter("give one policy, or three separated by commas (one per seat; four "
                                 "under --rules four)")
    return tuple(parts)


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=0), default=100, show_default=True,
              help="Number of games to play.")
@click.option("--policy", default="heuristic", show_default=True, callback=_parse_policy,
              help="random, heuristic or heuristic-solo (no farmers' conventions), or three comma-separated "
                   "policies for seats 0, 1, 2 "
                   "(four under --rules four).")
@seed_option
@rules_option
@click.option("--out", "out", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write every game as a ddz-record/1 JSON line to this file ('-' for stdout).")
@click.option("--landlord-policy", type=click.Choice(["heuristic", "heuristic-solo", "random", "advisor"]),
              default=None,
              help="The landlord's policy (default: --policy); advisor = ddz advise on the seat's own view.")
@click.option("--farmer-policy", type=click.Choice(["heuristic", "heuristic-solo", "random", "advisor"]),
              default=None,
              help="The farmers' policy (default: --policy).")
@click.option("--advisor-samples", type=click.IntRange(min=1), default=32, show_default=True,
              help="The advisor's most deals per decision.")
@click.option("--advisor-nodes", type=click.IntRange(min=0), default=3000, show_default=True,
              help="The advisor's solver node budget per deal.")
@click.option("--advisor-auction/--no-advisor-auction", default=True, show_default=True,
              help="The advisor draws only deals that fit the bids (see ddz advise --auction).")
@click.option("--advisor-inference", type=click.Choice(["on", "off"]), default="off", show_default=True,
              help="The advisor weighs its deals by the other seats' actions (ddz advise --inference).")
@click.option("--advisor-objective", type=click.Choice(["win", "score"]), default="win", show_default=True,
              help="The advisor ranks plays by the chance to win or the expected points (see ddz advise).")
@workers_option
@format_option()
def simulate(games, policy, seed, rules, out, workers, fmt, landlord_policy, farmer_policy, advisor_samples,
             advisor_nodes, advisor_auction, advisor_inference, advisor_objective):
    """Play seeded self-play games and summarise them (optionally recording them).

    Each game is dealt, bid and played to the end inside a Numba kernel by
    the chosen policy in every seat (or one policy per seat), and scored
    (base bid, x2 per bomb or rocket, spring, anti-spring; under --rules
    happy also the shows, the doubles and the bottom bonus, and the summary
    adds the share of games with a double or a show, the mean public
    multiplier and the stakes per farmer pair by bucket).  Under --rules four
    (four players, two decks) the bombs raise the stake as bomb_doubles says,
    the landlord wins or loses three stakes, and the summary counts the
    stake bombs and adds the mean multiplier.  Game i uses a
    seed derived from --seed and i, so the same --seed always gives the same
    games, whatever --workers (threads that run the game kernel on chunks of
    games; records stay in game order).  A progress bar goes to stderr; the summary to stdout (to stderr
    when the records go to stdout with --out -).

    \b
    Examples:
      $ ddz simulate --games 1000 --policy heuristic --seed 7 --out games.jsonl
      $ ddz simulate --games 200 --policy heuristic,random,random --format json
      $ ddz simulate --games 100 --rules douzero,bidding=call-grab --out - | ddz replay -
      $ ddz simulate --games 10000 --rules happy --seed 1 --format json
      $ ddz simulate --games 1000 --rules four,bomb_doubles=ladder --seed 1 --out four.jsonl
      $ ddz simulate --games 20 --landlord-policy advisor --farmer-policy heuristic --out adv.jsonl

    With --landlord-policy or --farmer-policy the games are played in Python
    (ddz_tools.analysis.advise.play_game): the same deals, heuristic bidding, the
    first bidder game i % 3, and each seat playing its role's policy; the
    records' players name each seat's policy.
    """
    progress = Progress("simulate")
    stream = None
    if out == "-":
        stream = sys.stdout
    elif out is not None:
        stream = open(out, "w", encoding="utf-8")
    tally = SimulationSummary()
    try:
        if landlord_policy or farmer_policy:
            from ..analysis.advise import AdvisorOptions, simulate_advised

            if not isinstance(policy, str):
                raise click.UsageError("--landlord-policy/--farmer-policy go with one --policy, not one per seat")
            landlord_policy, farmer_policy = landlord_policy or policy, farmer_policy or policy
            policy = f"landlord={landlord_policy},farmers={farmer_policy}"
            opts = AdvisorOptions(samples=advisor_samples, nodes=advisor_nodes, workers=default_workers(workers),
                                  auction=advisor_auction, objective=advisor_objective,
                                  inference=advisor_inference == "on")
            records = simulate_advised(games, seed, landlord_policy, farmer_policy, rules, opts, progress=progress)
        else:
            records = run(games, policy, seed=seed, rules=rules, progress=progress, workers=default_workers(workers))
        for rec in records:
            if stream is not None:
                stream.write(json.dumps(rec, separators=(",", ":")) + "\n")
            tally.add(rec)
    finally:
        progress.close()
        if stream is not None and stream is not sys.stdout:
            stream.close()
    pol = policy if isinstance(policy, str) else ",".join(policy)
    summary = {"games": tally.games, "policy": pol, "seed": seed, "rules": rules.describe(), "out": out,
               **tally.figures()}
    to_err = out == "-"
    if fmt == "json":
        click.echo(json.dumps(summary, separators=(",", ":")), err=to_err)
        return 0
    rows = [("games", tally.games), ("policy", pol), ("seed", seed), ("rules", rules.describe()),
            *tally.rows(rules)]
    if out not in (None, "-"):
        rows.append(("records", out))
    click.echo(tabulate(rows, tablefmt="plain"), err=to_err)
    return 0
