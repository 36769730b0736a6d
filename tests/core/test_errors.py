"""Exceptions: one module holds every class; bad input, API misuse and bugs
fail differently; library messages name parameters and the CLI names flags."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys

import pytest

import ddz_tools
from conftest import REPO
from ddz_tools.core import errors
from ddz_tools.cli import main
from ddz_tools.core.errors import ArgumentError, BidError, CardError, DdzError, GameError, IllegalAction, RecordError


def package_modules():
    for info in pkgutil.walk_packages(ddz_tools.__path__, "ddz_tools."):
        yield importlib.import_module(info.name)


def test_every_exception_class_lives_in_errors():
    defined = set()
    for module in package_modules():
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__.startswith("ddz_tools"):
                defined.add((obj.__module__, name))
    assert defined and {m for m, _ in defined} == {"ddz_tools.core.errors"}
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), DdzError) or name == "SearchLimit"


def test_old_import_paths_still_work():
    from ddz_tools.analysis.bid import BidError as bid_error
    from ddz_tools.engines.game import IllegalAction as illegal_action
    assert bid_error is BidError and illegal_action is IllegalAction
    assert issubclass(IllegalAction, GameError) and issubclass(BidError, DdzError)


def test_argument_errors_carry_their_parameter():
    from ddz_tools.engines.decompose import decompose
    from ddz_tools.engines.selfplay import simulate
    from ddz_tools.engines.solver import Solver

    cases = [(lambda: list(simulate(1, "greedy")), "policy"),
             (lambda: list(simulate(1, seed=2 ** 70)), "seed"),
             (lambda: list(simulate(1, workers=0)), "workers"),
             (lambda: Solver(tt_mb=0), "tt_mb"),
             (lambda: decompose("33", limit=0), "limit")]
    for call, param in cases:
        with pytest.raises(ArgumentError) as info:
            call()
        assert info.value.param == param
        assert re.search(rf"(?<![\w-]){param}(?![\w-])", str(info.value)), str(info.value)


def test_misuse_of_the_api_is_a_type_error():
    from ddz_tools.moves.movegen import generate

    with pytest.raises(TypeError):
        generate(3.5)
    with pytest.raises(TypeError):
        generate("33", after=5)
    with pytest.raises(CardError):  # bad text is bad input, not misuse
        generate("3Z")


def test_library_messages_name_no_flags():
    root = REPO / "ddz_tools"
    pattern = re.compile(r"(Error|Action)\(\s*f?[\"'][^\"']*--[a-z]")
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), f"{path.name} names a command-line flag in an error message"


def test_cli_names_its_flag_for_a_parameter(capsys):
    with pytest.raises(SystemExit) as info:
        main(["bid", "3456"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.startswith("error: hand '3456' has 4 cards") and "(or 20 when --bottom is given)" in err


def test_cli_names_resume_flag(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    games.write_text("")
    out = tmp_path / "out.jsonl"
    out.write_text("not an analysis line\n")
    with pytest.raises(SystemExit) as info:
        main(["analyze", str(games), "--out", str(out), "--resume"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--resume needs the file a previous run wrote" in err


def test_flag_message_leaves_other_words_alone():
    import click

    from ddz_tools.cli import flag_message

    @click.command()
    @click.option("--tt-mb", type=float)
    def cmd(tt_mb):
        pass

    exc = ArgumentError("tt_mb.txt: tt_mb=0.001 is too small; tt_mb_x is not it", param="tt_mb")
    assert flag_message(exc, cmd) == "tt_mb.txt: --tt-mb=0.001 is too small; tt_mb_x is not it"
    two = ArgumentError("give tt_mb or seed, not both", param=("tt_mb", "seed"))
    assert flag_message(two, cmd) == "give --tt-mb or seed, not both"
    assert flag_message(ArgumentError("seed is bad", param="seed"), cmd) == "seed is bad"


def test_bad_input_exits_2_without_traceback():
    proc = subprocess.run([sys.executable, "-m", "ddz_tools", "moves", "3Z"], capture_output=True, text=True,
                          cwd=REPO)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


def test_a_bug_is_not_reported_as_bad_input(monkeypatch, capsys):
    import ddz_tools.cli.moves as moves_cli

    def broken(*args, **kwargs):
        raise RuntimeError("unexpected internal state")

    monkeypatch.setattr(moves_cli, "moves_report", broken)
    with pytest.raises(RuntimeError, match="unexpected internal state"):
        main(["moves", "33"])
    assert "error:" not in capsys.readouterr().err


def test_a_bug_exits_1_with_a_traceback():
    code = ("import ddz_tools.cli.moves as m\n"
            "def broken(*a, **k):\n    raise RuntimeError('unexpected internal state')\n"
            "m.moves_report = broken\n"
            "from ddz_tools.cli import main\nmain(['moves', '33'])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 1
    assert "Traceback" in proc.stderr and "RuntimeError: unexpected internal state" in proc.stderr


def test_record_errors_are_input_errors():
    from ddz_tools.engines.records import parse_record

    with pytest.raises(RecordError):
        parse_record("{")
