"""``ddz play``: a whole game at the terminal against the bots, with hints."""

from __future__ import annotations

import os
import sys

import click

from .options import emit_json, format_option, rules_option, seed_option


@click.command()
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Your seat: 0, 1, 2 (3 under --rules four); seat 0 bids first in game 1, the next seat in "
                   "game 2, and so on.")
@click.option("--opponents", default="heuristic", show_default=True, metavar="heuristic|advisor|advisor:N",
              help="The bots: the heuristic, or the advisor on its own view with N deals a decision "
                   "(advisor alone: 32).")
@click.option("--resume", "resume_from", type=click.Path(dir_okay=False), default=None,
              help="Go on with the match saved in FILE (its seat, bots, seed and rules).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="The file the match is saved to (ddz-record/1), which must not exist [default: the resumed "
                   "file, else ddz-play-SEED.jsonl, or -2, -3... when that exists].")
@click.option("--hint-samples", type=click.IntRange(min=1), default=128, show_default=True,
              help="Most deals of a hint in the play (the advisor's --samples).")
@click.option("--bid-samples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Most samples of a hint in the auction and the stake stages (ddz bid's --samples).")
@click.option("--review-nodes", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Solver nodes per position of the review after each game.")
@click.option("--review/--no-review", default=True, show_default=True,
              help="Review your moves after each game (open hands, as ddz analyze --review open).")
@seed_option
@rules_option
@format_option()
def play(seat, opponents, resume_from, save, hint_samples, bid_samples, review_nodes, review, seed, rules, fmt):
    """Play Dou Dizhu against the bots, with hints.

    You sit in one seat, the bots in the others, under any --rules.  At each
    decision type your answer (a bid, call/grab, x1/x2/x4, show/no, a play in
    the cards' notation such as 33 or 333-4, or pass) or a command: hint,
    why X, undo, history, solve, save [FILE], quit, look, help.  The match is
    saved after every game as ddz-record/1 lines, which ddz replay, analyze
    and report read; --resume goes on with it.  Colour on a terminal, plain
    text with NO_COLOR or through a pipe.  With --format json the game is
    written to stderr and the match's summary to stdout.

    \b
    Examples:
      $ ddz play
      $ ddz play --rules happy --opponents advisor:64 --seed 7
      $ ddz play --rules four --seat 2
      $ ddz play --resume ddz-play-7.jsonl
    """
    from ..analysis.play import PlayOptions, Style, line_editing, play as run, use_colour

    out = sys.stderr if fmt == "json" else sys.stdout
    options = PlayOptions(rules=rules.describe(), seat=seat, opponents=opponents, seed=seed,
                          hint_samples=hint_samples, bid_samples=bid_samples, review_nodes=review_nodes)
    if resume_from is None:
        options.checked()
    line_editing(os.path.expanduser("~/.ddz_play_history"))

    def progress(text: str) -> None:
        click.echo(text, err=True)

    def ask(prompt: str) -> str:
        if out is sys.stdout:
            return input(prompt)
        out.write(prompt)
        out.flush()
        return input()

    summary = run(options, ask=ask, out=out, style=Style(use_colour(out)), save=save, resume_from=resume_from,
                  review=review, progress=progress)
    if fmt == "json":
        emit_json(summary.to_dict())
        return
    mine = summary.scores[summary.seat] if summary.scores else 0
    click.echo(f"{summary.games} game(s) finished under rules {summary.rules}; you {mine:+d}"
               + (f"; saved to {summary.saved}" if summary.saved else ""))
