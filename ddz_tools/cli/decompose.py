"""``ddz decompose``: split a hand into the fewest plays."""

from __future__ import annotations

import click

from ..engines.decompose import DEFAULT_SPLIT_LIMIT, Decomposition, decompose as decompose_hand
from .options import emit_json, file_inputs, file_option, format_option, print_table, rules_option, run_each


def _print_table(d: Decomposition, all_splits: bool) -> None:
    unc = set(d.uncontrolled_plays)
    n = d.splits_count
    wild = f", wild {d.rules.wild_text()}" if d.rules.wild else ""
    click.echo(f"hand {d.hand}, rules {d.rules.describe()}{wild}: {d.min_plays} play{'s' if d.min_plays != 1 else ''} "
               f"({n} minimal split{'s' if n != 1 else ''})")
    if d.rules.wild:  # under Laizi rules, what the laizi of each play stand for
        rows = [(i, p.notation(d.rules), p.faces(d.rules), p.type_name, "no" if p in unc else "yes")
                for i, p in enumerate(d.plays, 1)]
        head = ["#", "play", "reads as", "type", "controlled"]
    else:
        rows = [(i, p.notation(d.rules), p.type_name, "no" if p in unc else "yes")
                for i, p in enumerate(d.plays, 1)]
        head = ["#", "play", "type", "controlled"]
    if rows:
        print_table(rows, head)
    bombs = " ".join(str(b) for b in d.bomb_texts()) or "-"
    click.echo(f"uncontrolled: {d.uncontrolled} (by any answer incl. bombs: {d.uncontrolled_any}); "
               f"controls: 2s {d.twos}, jokers {d.jokers}, bombs {bombs}, rocket {'yes' if d.rocket else 'no'}")
    if all_splits and d.splits is not None:
        shown = len(d.splits)
        more = f", first {shown} shown" if shown < n else ""
        print_table([(i, " ".join(p.notation(d.rules) for p in s)) for i, s in enumerate(d.splits, 1)],
                    ["#", f"minimal splits ({n}{more})"])


@click.command()
@click.argument("hand", required=False)
@rules_option
@click.option("--all", "all_splits", is_flag=True,
              help="Also list every distinct minimal split (up to --limit).")
@click.option("--limit", type=click.IntRange(min=1), default=DEFAULT_SPLIT_LIMIT, show_default=True,
              help="Most minimal splits listed with --all (the count is always exact).")
@format_option()
@file_option
def decompose(hand, rules, all_splits, limit, fmt, file):
    """Split HAND into the fewest plays (最少手数), in a lead order.

    Reports the plays of the best minimal split (the one with the fewest
    uncontrolled plays), how many of them the outside cards could beat, the
    control cards held, and how many minimal splits there are.

    \b
    Examples:
      $ ddz decompose 3334445556667779XD
      $ ddz decompose 33344455 --rules douzero
      $ ddz decompose 3334445556667779XD --all --limit 10
      $ ddz decompose --file data/hands.txt --format json
    """
    if (hand is None) == (file is None):
        raise click.UsageError("give a HAND or --file (one hand per line), not both")

    def show(d: Decomposition) -> None:
        if fmt == "json":
            emit_json(d.to_dict())
        else:
            _print_table(d, all_splits)

    if file is None:
        show(decompose_hand(hand, rules, all_splits=all_splits, limit=limit))
        return 0
    return run_each(file_inputs(file), lambda text: decompose_hand(text, rules, all_splits=all_splits, limit=limit),
                    show, fmt, "{done} hand(s) decomposed, {failed} line(s) skipped", quiet=True)
