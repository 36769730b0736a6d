"""Options and output helpers shared by every command (defined once here)."""

from __future__ import annotations

import functools
import json
import os
import sys
import time

import click

from ..core.errors import attempt
from ..analysis.review import REVIEW_NODE_LIMIT
from ..core.rules import PRESETS, Rules


def _parse_rules(ctx, param, value):
    # A DdzError leaves click untouched and becomes the one-line "error: ..."
    # of ddz_tools.cli.main, like every other input error.
    return Rules.parse(value)


#: Every rules preset, as the help texts list them (from :data:`ddz_tools.core.rules.PRESETS`).
PRESET_NAMES = ", ".join(PRESETS)

_rules_flag = click.option(
    "--rules", "rules", default="standard", show_default=True, callback=_parse_rules,
    help=f"Rules preset ({PRESET_NAMES}) with optional overrides, "
         "e.g. 'standard,four_with_one=on', 'laizi,natural_first=on'.")
_wild_flag = click.option(
    "--wild", "wild", default=None, metavar="RANKS",
    help="The deal's wild rank(s) under --rules laizi or tiandi: '9'; under tiandi '5,9' (天 then 地).")


def rules_option(command):
    """``--rules`` and ``--wild``: the command receives one ``rules``, the
    rule set with the deal's wild ranks (:meth:`Rules.with_wild`)."""
    @functools.wraps(command)
    def with_rules(*args, wild=None, **kwargs):
        if wild is not None:
            kwargs["rules"] = kwargs["rules"].with_wild(wild)
        return command(*args, **kwargs)

    return _rules_flag(_wild_flag(with_rules))


def format_option(*choices: str):
    choices = choices or ("table", "json")
    return click.option("--format", "fmt", type=click.Choice(choices), default=choices[0],
                        show_default=True, help="Output format; json prints one object per line.")


seed_option = click.option("--seed", type=int, default=0, show_default=True,
                           help="Random seed; the same seed gives the same output.")
workers_option = click.option("--workers", type=click.IntRange(min=1), default=None,
                              help="Parallel workers (default: all cores).")
review_nodes_option = click.option(
    "--review-nodes", type=click.IntRange(min=1), default=REVIEW_NODE_LIMIT, show_default=True,
    help="Solver nodes per position of the open review; a position beyond it is shown as unknown.")
review_samples_option = click.option(
    "--review-samples", type=click.IntRange(min=1), default=None,
    help="Advisor samples per move of the hidden review (default: the advisor's own).")
review_inference_option = click.option(
    "--review-inference", type=click.Choice(["on", "off"]), default="off", show_default=True,
    help="The hidden review's advisor weighs its deals by the other seats' actions (ddz advise --inference), "
         "and the bid review reads the earlier bids, calls and doubles by the player model (ddz bid --inference).")
#: The solver's clock per position of a batch review (``analyze``, ``report``).
time_limit_option = click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
                                 help="Solver seconds per position (makes results depend on machine load).")
scheduler_option = click.option("--scheduler", default=None, metavar="ADDRESS",
                                help="Run on a Dask cluster (dask.distributed scheduler address, e.g. "
                                     "tcp://host:8786).")
progress_option = click.option("--progress/--no-progress", default=None,
                               help="Progress bar on stderr (default: when stderr is a terminal).")


def bids_options(command):
    """``--bids`` and ``--bid-samples``: the Monte Carlo review of a game's bids
    (``analyze``, ``report``)."""
    command = click.option("--bid-samples", type=click.IntRange(min=1), default=200, show_default=True,
                           help="Samples per bid evaluation (with --bids).")(command)
    return click.option("--bids", is_flag=True,
                        help="Review every bid with the Monte Carlo bid evaluator (slow); under Happy Dou Dizhu "
                             "also the doubles and the show decisions.")(command)


file_option = click.option("--file", "file", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                           help="Read one input per line from this file ('-' for stdin).")


def default_workers(workers: "int | None") -> int:
    return workers or os.cpu_count() or 1


def emit_json(obj) -> None:
    """One compact JSON object on its own line of stdout."""
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")


def print_table(rows, headers, title: "str | None" = None) -> None:
    if title:
        click.echo(title)
    from tabulate import tabulate  # only tables need it (7 ms of a JSON call's start-up)

    click.echo(tabulate(rows, headers=headers, tablefmt="simple"))


def read_lines(path: str):
    """Yield (line number, stripped text) of non-blank, non-# lines of a file or stdin."""
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    try:
        for i, line in enumerate(stream, 1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield i, text
    finally:
        if stream is not sys.stdin:
            stream.close()


def file_inputs(path: str):
    """``(label, text, None)`` for every input line of a file or stdin (see
    :func:`read_lines`), ``label`` being ``file:line``: the ``inputs`` of
    :func:`run_each`."""
    for lineno, text in read_lines(path):
        yield f"{path}:{lineno}", text, None


def run_each(inputs, run, show, fmt: str, summary: str, quiet: bool = False) -> int:
    """The loop of a command over many inputs (``--file``, ``--record``).

    ``inputs`` yields ``(label, item, error)``: ``error`` is why the input
    could not be read (None if it could), else ``run(item)`` gives a result
    for ``show`` (in table format a blank line follows each).  An input that
    could not be read, or whose ``run`` raises a
    :class:`~ddz_tools.core.errors.DdzError`, is reported on stderr as ``error:
    LABEL: REASON`` and skipped; the others go on.  At the end ``summary``,
    formatted with ``done`` and ``failed``, goes to stderr (with ``quiet``
    only when an input was skipped).  Returns the exit code: 1 when an input
    was skipped, else 0.
    """
    done = failed = 0
    for label, item, error in inputs:
        if error is None:
            result, error = attempt(run, item)
        if error is not None:
            failed += 1
            click.echo(f"error: {label}: {error}", err=True)
            continue
        done += 1
        show(result)
        if fmt != "json":
            click.echo()
    if failed or not quiet:
        click.echo(summary.format(done=done, failed=failed), err=True)
    return 1 if failed else 0


def run_inputs(label: str, compute, show_table, fmt: str, one=None, inputs=None, parse=None,
               summary: str = "") -> int:
    """The body of a command that computes one result per input under a
    progress line (``ddz bid``, ``ddz advise``).

    ``compute(item, progress)`` gives the result of one input, run inside a
    :class:`Progress` named ``label``; a result is printed as one JSON line
    of its ``to_dict()`` when ``fmt`` is ``json``, else by ``show_table``.
    With ``inputs`` None the input is ``one``: its error propagates (one
    ``error:`` line, exit status 2) and the exit status is 0.  Otherwise
    ``inputs`` yields ``(label, raw, error)`` (:func:`file_inputs`, a reader
    of records) and each ``raw`` is turned into an item by ``parse`` (if
    given) and computed through :func:`run_each`: an input that fails is
    reported as ``error: LABEL: REASON`` and the run goes on; ``summary`` at
    the end; exit status 1 if any failed.
    """
    def run(item):
        with Progress(label) as progress:
            return compute(item, progress)

    def show(result) -> None:
        emit_json(result.to_dict()) if fmt == "json" else show_table(result)

    if inputs is None:
        show(run(one))
        return 0
    return run_each(inputs, (lambda raw: run(parse(raw))) if parse is not None else run, show, fmt, summary)


class Progress:
    """A progress line on stderr (only when stderr is a terminal, or DDZ_PROGRESS=1).

    Call it as ``progress(done, total)``, or ``progress(done, total, detail)``
    to add a note at the end; it redraws at most ten times a second (but
    always with ``force=True``, as for the last figures).  With a
    ``unit`` and no total, the line reads ``label 1,234 unit (56/s)``.
    As a context manager it closes itself (ends its line) on leaving.
    """

    def __init__(self, label: str, enabled: "bool | None" = None, unit: "str | None" = None):
        if enabled is None:
            enabled = sys.stderr.isatty() or os.environ.get("DDZ_PROGRESS") == "1"
        self.enabled = enabled
        self.label = label
        self.unit = unit
        self.start = time.perf_counter()
        self._last = 0.0
        self._width = 0

    def __call__(self, done: int, total: "int | None" = None, detail: "str | None" = None,
                 force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last < 0.1 and done != total and not force:
            return
        self._last = now
        rate = done / max(now - self.start, 1e-9)
        if total:
            width = 30
            filled = int(width * done / total)
            bar = "#" * filled + "." * (width - filled)
            msg = f"{self.label} [{bar}] {done}/{total} {rate:,.0f}/s"
        elif self.unit:
            msg = f"{self.label} {done:,} {self.unit} ({rate:,.0f}/s)"
        else:
            msg = f"{self.label} {done} {rate:,.0f}/s"
        if detail:
            msg += f", {detail}"
        # Blank out what is left of a longer line before.
        pad = " " * max(0, self._width - len(msg))
        self._width = len(msg)
        sys.stderr.write("\r" + msg + pad)
        sys.stderr.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
