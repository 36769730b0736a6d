"""``ddz moves`` and ``ddz classify``."""

from __future__ import annotations


import click

from ..moves.movegen import moves_report
from ..core.rules import TYPE_NAMES, classify_report, play_to_answer
from .options import emit_json, file_inputs, file_option, format_option, print_table, rules_option, run_each


def _print_moves_table(res: dict) -> None:
    groups: dict = {}
    for p in res["plays"]:
        groups.setdefault(p["type"], []).append(p["notation"])
    order = {name: i for i, name in enumerate(TYPE_NAMES)}
    rows = [(t, len(v), " ".join(v)) for t, v in sorted(groups.items(), key=lambda kv: order[kv[0]])]
    after = f" answering {res['after']}" if res["after"] else " (leads)"
    noun = "play" if res["count"] == 1 else "plays"
    click.echo(f"hand {res['hand']}{after}, rules {_rules_text(res)}: {res['count']} {noun}"
               + (" (pass is also legal)" if res["after"] else ""))
    if rows:
        from tabulate import tabulate
        click.echo(tabulate(rows, headers=["type", "count", "plays"], maxcolwidths=[None, None, 72]))


def _rules_text(res: dict) -> str:
    """``laizi (9 wild)``: the rules of a result and its wild ranks, if any."""
    return res["rules"] + (f" ({res['wild'] or 'none'} wild)" if "wild" in res else "")


@click.command()
@click.argument("hand", required=False)
@click.option("--after", "after", default=None, help="The play to answer (e.g. 77, 333444-56); omit to lead.")
@rules_option
@format_option()
@file_option
def moves(hand, after, rules, fmt, file):
    """List every legal play of HAND: leads, or answers to --after.

    \b
    Examples:
      $ ddz moves 3334445556667779XD
      $ ddz moves 3456789TJQKA2XD --after 34567
      $ ddz moves 33334444 --rules douzero --format json
      $ ddz moves 3456789TJ --rules laizi --wild 9
      $ ddz moves --file hands.txt --format json
    """
    if (hand is None) == (file is None):
        raise click.UsageError("give a HAND or --file (one hand per line), not both")
    prev = play_to_answer(after, rules, "--after")

    def show(res: dict) -> None:
        emit_json(res) if fmt == "json" else _print_moves_table(res)

    if file is None:
        show(moves_report(hand, prev, rules))
        return 0
    return run_each(file_inputs(file), lambda text: moves_report(text, prev, rules), show, fmt,
                    "{failed} line(s) skipped", quiet=True)


@click.command()
@click.argument("play")
@rules_option
@format_option()
def classify(play, rules, fmt):
    """Name every combination that the cards of PLAY form.

    A multiset may have several readings (under douzero, 333444555666 is an
    airplane and two airplanes with solo wings); each is listed.

    \b
    Examples:
      $ ddz classify 333444-56
      $ ddz classify 333444555666 --rules douzero --format json
      $ ddz classify 5559 --rules laizi --wild 9
    """
    res = classify_report(play, rules)
    found = res["readings"]
    if fmt == "json":
        emit_json(res)
    else:
        if not found:
            click.echo(f"{res['cards']} is not a legal play under {_rules_text(res)} rules")
        elif "wild" in res:
            print_table([(p["notation"], p["faces"], p["type"], p["main"], p["length"], p.get("tier", ""))
                         for p in res["readings"]],
                        ["play", "faces", "type", "main rank", "length", "bomb tier"],
                        title=f"{res['cards']} under {_rules_text(res)} rules:")
        else:
            print_table([(p["notation"], p["type"], p["main"], p.get("size", p["length"]))
                         for p in res["readings"]],
                        ["play", "type", "main rank", "cards" if "size" in found[0] else "length"],
                        title=f"{res['cards']} under {res['rules']} rules:")
    if not found:
        return 1
    return 0
