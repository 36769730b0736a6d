"""The ``ddz`` command line: a thin layer over the library.

Each command lives in its own module and is imported only when it runs, so
``ddz moves`` does not pay for loading the solver.  Errors are mapped to exit
codes here, in one place: a :class:`~ddz_tools.core.errors.DdzError` (bad input)
or an unreadable file becomes ``error: ...`` on stderr and exit code 2
(:data:`EXIT_BAD_INPUT`), never a traceback; a library message that names a
parameter names the command's flag instead (``bottom`` -> ``--bottom``).  A
batch that reported and skipped bad records or input lines, and did all the
rest, returns :data:`EXIT_BAD_RECORDS` (3).  Any other exception is a bug and
propagates: Python prints the traceback and exits with code 1.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import re
import sys

import click

from ..core.errors import DdzError
from ..core.rules import PRESETS

#: Exit status of bad input: one line ``error: ...`` on stderr, nothing done
#: (a bug exits with 1, Python's status for an uncaught exception).
EXIT_BAD_INPUT = 2
#: Exit status of a batch (``ddz replay``, ``analyze``, ``report``, a
#: ``--file`` or ``--record`` run) that finished but found bad records or
#: input lines: each was reported on stderr and skipped, nothing else lost.
EXIT_BAD_RECORDS = 3

# Numba leaves hundreds of thousands of objects behind, and the garbage
# collection at interpreter exit walked them all: about a quarter of a one-second
# ``ddz solve``.  Frozen just before it, they are skipped (atexit handlers run
# before that collection; files are closed by their ``with`` blocks, not by it).
atexit.register(gc.freeze)

#: command name -> (module, attribute, one-line help)
COMMANDS = {
    "moves": ("ddz_tools.cli.moves", "moves", "List the legal plays of a hand, as leads or answers."),
    "classify": ("ddz_tools.cli.moves", "classify", "Name the combination(s) a set of cards forms."),
    "decompose": ("ddz_tools.cli.decompose", "decompose", "Split a hand into the fewest plays."),
    "solve": ("ddz_tools.cli.solve", "solve", "Solve an open-hand endgame exactly."),
    "simulate": ("ddz_tools.cli.simulate", "simulate", "Play seeded self-play games and record them."),
    "replay": ("ddz_tools.cli.replay", "replay", "Validate and score recorded games."),
    "bid": ("ddz_tools.cli.bid", "bid", "Should this hand bid? Monte Carlo verdict per bid."),
    "analyze": ("ddz_tools.cli.analyze", "analyze", "Check, score and find mistakes in recorded games."),
    "advise": ("ddz_tools.cli.advise", "advise", "The best play when the other hands are hidden."),
    "report": ("ddz_tools.cli.report", "report", "Review recorded games and write an HTML report."),
    "play": ("ddz_tools.cli.play", "play", "Play a whole game against the bots, with hints."),
    "puzzles": ("ddz_tools.cli.puzzles", "puzzles", "Find endgame puzzles in games, and play them."),
}


_COMMAND = "ddz.command"


def flag_message(exc: DdzError, command: click.Command) -> str:
    """The message of ``exc`` with the parameter(s) it is about (``exc.param``)
    replaced by the command's flag, e.g. ``tt_mb`` by ``--tt-mb`` (the last
    mention of each; unchanged when the command has no such option)."""
    message = str(exc)
    names = (exc.param,) if isinstance(exc.param, str) else tuple(exc.param or ())
    for name in names:
        for p in command.params:
            if isinstance(p, click.Option) and p.name == name:
                # The last mention: a file name earlier in the message may hold the word.
                found = list(re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", message))
                if found:
                    a, b = found[-1].span()
                    message = message[:a] + max(p.opts, key=len) + message[b:]
                break
    return message


class SubGroup(click.Group):
    """A command group under ``ddz`` (``ddz puzzles find``): its subcommand is
    the one whose flags an error's message names."""

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_COMMAND] = command
        return name, command, rest


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx):
        return [name for name, (mod, _, _) in COMMANDS.items() if importlib.util.find_spec(mod) is not None]

    def get_command(self, ctx, name):
        entry = COMMANDS.get(name)
        if entry is None:
            return None
        try:
            module = importlib.import_module(entry[0])
        except ModuleNotFoundError as exc:
            if exc.name == entry[0]:
                return None
            raise
        # The command's modules are loaded (and Numba with them): from here
        # on, a kernel that is about to be compiled is announced on stderr,
        # and cached ones load without Numba's context refresh (0.2 s).
        from ..core._jit import announce_compiles, load_cached_kernels_directly
        announce_compiles()
        load_cached_kernels_directly()
        return getattr(module, entry[1])

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_COMMAND] = command
        return name, command, rest

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DdzError as exc:
            command = ctx.meta.get(_COMMAND)
            if exc.param is not None and command is not None:
                exc.args = (flag_message(exc, command),)
                exc.param = None
            raise

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


# The presets are listed from the one registry, never typed out here.
_HELP = f"""ddz-tools: Dou Dizhu move generator, hand decomposer, endgame solver,
    bid evaluator and game analyser.

    Every command takes --format json for scripts, and every command but
    replay (a record names its own rules) takes --rules: a preset
    ({", ".join(PRESETS)}) with optional overrides such as
    standard,four_with_one=on.
    """


@click.group(cls=LazyGroup, help=_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddz-tools", prog_name="ddz")
def cli():
    pass


def main(argv=None) -> None:
    """Entry point of the ``ddz`` console script."""
    try:
        rv = cli.main(args=argv, prog_name="ddz", standalone_mode=False)
    except click.exceptions.Exit as exc:
        rv = exc.exit_code
    except click.ClickException as exc:
        # Usage errors too are one line, like every other input error.
        click.echo(f"error: {exc.format_message()}", err=True)
        rv = exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("error: interrupted", err=True)
        rv = 130
    except DdzError as exc:
        click.echo(f"error: {exc}", err=True)
        rv = EXIT_BAD_INPUT
    except BrokenPipeError:
        rv = 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}", err=True)
        rv = EXIT_BAD_INPUT
    sys.exit(rv if isinstance(rv, int) else 0)
