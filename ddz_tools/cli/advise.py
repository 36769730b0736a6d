"""``ddz advise``: the best play when the other hands are hidden."""

from __future__ import annotations

import click
from tabulate import tabulate

from ..core.cards import RANKS as _RANKS
from .options import (default_workers, file_inputs, file_option, format_option, rules_option, run_inputs,
                      seed_option, workers_option)


def print_advice(a) -> None:
    """The human-readable report of one piece of advice."""
    v = a.view
    click.echo(f"{v.describe()}; rules {v.rules.describe()}")
    how = "exact: nothing hidden" if a.exact else (
        f"{a.samples} deals of {a.samples_max} max" + (", stopped early: best play settled" if a.stopped_early else "")
        + (f", {a.draws} drawn to fit the bids ({a.unfit} without a fit)" if a.draws > a.samples else ""))
    click.echo(f"{how}; ranked by {'expected score' if a.objective == 'score' else 'win probability'}; "
               f"{a.seconds:.2f} s")
    rows = []
    for c in a.candidates:
        rows.append((c.play, f"{100 * c.win_prob:.1f}%", f"[{100 * c.win_ci[0]:.1f}%, {100 * c.win_ci[1]:.1f}%]",
                     f"{c.expected_score:+.3f}", f"[{c.score_ci[0]:+.2f}, {c.score_ci[1]:+.2f}]", c.solved,
                     c.played_out))
    click.echo(tabulate(rows, headers=["play", "win", "95% interval", "E[score]", "95% interval", "solved",
                                       "played out"], tablefmt="simple", disable_numparse=True))
    if a.inference:
        click.echo("inference: the deals weighed by the other seats' actions; smallest effective sample size of a "
                   f"pool {a.ess:.1f}" + (f", tempered x{a.alpha:.3f}" if a.alpha < 1 else ""))
    click.echo(f"recommendation: {a.recommendation}")


def print_beliefs(report) -> None:
    """The human-readable belief tables: one per hidden hand, each rank's
    expected count and each holding's chance, without and with inference."""
    v = report.view
    click.echo(f"{v.describe()}; rules {v.rules.describe()}")
    inf = report.inferred
    click.echo(f"{report.plain.samples} deals; with inference: effective sample size {inf.ess:.1f}"
               + (f" ({inf.note})" if inf.note else ""))
    for plain, inferred in zip(report.plain.hands, inf.hands):
        rows = [(rank, f"{a:.2f}", f"{b:.2f}") for rank, a, b in zip(_RANKS, plain.expected, inferred.expected)]
        rows += [(name, f"{100 * plain.holdings[name]:.1f}%", f"{100 * inferred.holdings[name]:.1f}%")
                 for name in plain.holdings]
        click.echo(f"\n{plain.seat} ({plain.cards} cards)")
        click.echo(tabulate(rows, headers=["", "without", "with inference"], tablefmt="simple",
                            disable_numparse=True))


@click.command()
@click.option("--hand", default=None,
              help="This seat's cards (now, or before its first play); the landlord's 20 (33 under --rules "
                   "four) with no --played or --counts: the game start, his first lead.")
@click.option("--seat", type=click.Choice(["landlord", "farmer1", "farmer2", "farmer3"]), default=None,
              help="This seat (turn order landlord, farmer1, farmer2, and farmer3 under --rules four); leave out "
                   "for the two-player form (with --unseen).")
@click.option("--bottom", default=None,
              help="The 3 bottom cards (public after the auction); under --rules four the landlord's 8, which "
                   "only he sees.")
@click.option("--played", default=None, help="Every play so far, in order: 'landlord:333-4,farmer1:pass,...'.")
@click.option("--counts", default=None,
              help="Cards held now by landlord, farmer1, farmer2 (and farmer3 under --rules four), when the "
                   "plays are not known.")
@click.option("--after", default=None, help="The play to answer (with --counts, or the two-player form).")
@click.option("--by", default=None, help="The seat that made the play to answer (with --counts).")
@click.option("--unseen", default=None, help="The cards the other seat(s) hold together.")
@click.option("--bids", default=None,
              help="The auction, in order: 'farmer1:pass,farmer2:1,landlord:3' (with --played, or at the "
                   "game start).")
@click.option("--draws", default=None,
              help="Under landlord_draw=on (--rules notalon,landlord_draw=on): the cards the landlord drew that "
                   "this seat knows, 'farmer1:K,farmer2:5' (the landlord knows both, a farmer the one drawn "
                   "from him; with --played or at the game start).")
@click.option("--base", type=click.IntRange(min=1), default=None,
              help="The winning bid (base stake) [default: the bids' winning bid, else 1].")
@click.option("--record", "record", type=click.Path(dir_okay=False), default=None,
              help="Recorded games (ddz-record/1 JSON Lines or a Botzone log): advise the player to move "
                   "before --move in every game of the file.")
@click.option("--move", type=click.IntRange(min=1), default=None,
              help="With --record: the move to advise (numbered from 1 as ddz analyze numbers them, passes "
                   "counted; 1 is the first lead).")
@click.option("--samples", type=click.IntRange(min=1), default=None, help="Most deals drawn [default: 128].")
@click.option("--nodes", type=click.IntRange(min=0), default=None,
              help="Exact solver's node budget per deal; 0 plays every deal out [default: 3000].")
@click.option("--exact-cards", type=click.IntRange(min=0), default=None,
              help="Deals with more cards than this in all hands are played out [default: 24].")
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.95, show_default=True,
              help="Confidence level of the intervals and of the stopping rule.")
@click.option("--no-early-stop", is_flag=True, help="Always draw --samples deals.")
@click.option("--auction/--no-auction", default=True, show_default=True,
              help="Draw only deals whose hidden hands would have bid as the bids say (heuristic bid rule).")
@click.option("--inference", type=click.Choice(["on", "off"]), default="off", show_default=True,
              help="Weigh the drawn deals by how likely the other seats' actions so far were on each (the model of "
                   "the players; views with the plays only).")
@click.option("--beliefs", is_flag=True,
              help="Print what the drawn deals say about each hidden hand instead of advice: each rank's expected "
                   "count and the chance of a bomb, the rocket, the 2s (and wild cards), without and with "
                   "inference.")
@click.option("--objective", type=click.Choice(["win", "score"]), default="win", show_default=True,
              help="Rank the plays by the chance to win or by the expected points (the whole stake); "
                   "each breaks its ties by the other.")
@seed_option
@workers_option
@rules_option
@format_option()
@file_option
def advise(hand, seat, bottom, played, counts, after, by, unseen, bids, draws, base, record, move, samples, nodes,
           exact_cards, confidence, no_early_stop, auction, inference, beliefs, objective, seed, workers, rules, fmt,
           file):
    """What should this seat play? Win probability of every legal play over
    deals of the hidden cards, each solved exactly or played out.

    \b
    Examples:
      $ ddz advise --hand 33JJQK2 --unseen 4455A
      $ ddz advise --seat landlord --hand 3334456789TTJQKA22XD
      $ ddz advise --seat landlord --hand 3334456789TTJQKA22XD --objective score
      $ ddz advise --seat farmer1 --hand 3456789TJQKA2 --bottom 2XD \\
            --played landlord:33,farmer1:55,farmer2:pass,landlord:pass \\
            --bids landlord:3
      $ ddz advise --seat farmer2 --hand KKA --counts 4,5,3 --after QQ --by farmer1
      $ ddz advise --record data/sample_games.jsonl --move 6 --format json
      $ ddz advise --record data/four_games.jsonl --move 2
      $ ddz advise --record data/sample_games.jsonl --move 12 --inference on
      $ ddz advise --record data/sample_games.jsonl --move 12 --beliefs
      $ ddz advise --rules notalon,landlord_draw=on --seat landlord --hand 3345567899TJQKKA22XD \\
            --draws farmer1:K,farmer2:5 --bids farmer1:pass,farmer2:pass,landlord:call
      $ ddz advise --rules four --seat farmer2 --hand 3456789TJQKA2XD --counts 20,18,15,22 \\
            --after 33 --by farmer1
      $ ddz advise --file views.jsonl --seed 7 --format json
    """
    from ..analysis import advise as lib

    opts = dict(seed=seed, workers=default_workers(workers), confidence=confidence,
                early_stop=not no_early_stop, auction=auction, objective=objective)
    for key, value in (("samples", samples), ("nodes", nodes), ("exact_cards", exact_cards)):
        if value is not None:
            opts[key] = value
    given = [name for name, v in (("--hand", hand), ("--record", record), ("--file", file)) if v is not None]
    if len(given) != 1:
        raise click.UsageError("give exactly one of --hand (with the view options), --record or --file")
    if record is None and move is not None:
        raise click.UsageError("--move goes with --record")

    def run(view, progress):
        if beliefs:
            return lib.read_beliefs(view, samples or lib.DEFAULT_BELIEF_SAMPLES, seed, auction)
        return lib.advise(view, **opts, inference=inference == "on", progress=progress)

    show = print_beliefs if beliefs else print_advice

    summary = "{done} view(s) advised, {failed} skipped"
    if record is not None:
        if move is None:
            raise click.UsageError("--record needs --move N")
        from ..engines.position import read_game_records

        return run_inputs("advise", run, show, fmt, inputs=read_game_records(record, rules),
                          parse=lambda rec: lib.view_from_record(rec, move), summary=summary)
    if hand is not None:
        return run_inputs("advise", run, show, fmt,
                          one=lib.build_view(hand=hand, seat=seat, bottom=bottom, played=played, counts=counts,
                                             after=after, by=by, unseen=unseen, base=base, rules=rules, bids=bids,
                                             draws=draws))
    return run_inputs("advise", run, show, fmt, inputs=file_inputs(file),
                      parse=lambda text: lib.View.from_json(text, rules), summary=summary)
