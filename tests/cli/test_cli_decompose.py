"""Tests of ``ddz decompose`` (through the real entry point, as a user runs it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ddz_tools.cli import main
from ddz_tools.engines.decompose import decompose

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(capsys, *args, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exc:
        main(["decompose", *args])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_table(capsys):
    code, out, err = run(capsys, "3334445556667779XD")
    assert code == 0 and err == ""
    assert "rules standard: 3 plays (55 minimal splits)" in out
    assert "333444555666" in out and "rocket" in out and "uncontrolled: 2" in out


def test_json_fields(capsys):
    code, out, _ = run(capsys, "33344455", "--rules", "douzero", "--format", "json")
    assert code == 0
    obj = json.loads(out)
    assert obj["hand"] == "33344455" and obj["rules"] == "douzero"
    assert obj["min_plays"] == 1 and obj["plays"] == ["333444-55"]
    code, out, _ = run(capsys, "33344455", "--format", "json")
    assert json.loads(out)["min_plays"] == 2 and json.loads(out)["rules"] == "standard"


def test_all_with_limit(capsys):
    code, out, _ = run(capsys, "3334445556667779XD", "--all", "--limit", "4", "--format", "json")
    obj = json.loads(out)
    assert obj["splits_count"] == 55 and len(obj["splits"]) == 4
    code, out, _ = run(capsys, "3334445556667779XD", "--all", "--limit", "4")
    assert "minimal splits (55, first 4 shown)" in out


def test_rules_override(capsys):
    code, out, _ = run(capsys, "3333X", "--rules", "standard,four_with_one=on", "--format", "json")
    obj = json.loads(out)
    assert obj["min_plays"] == 1 and obj["rules"] == "standard,four_with_one=on"


def test_file_skips_bad_lines(capsys, tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("# hands\n789TJ5AA\n33333\n\n3456789TJQKA2XD\n")
    code, out, err = run(capsys, "--file", str(f), "--format", "json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["min_plays"] for x in lines] == [3, 3]
    assert code == 1
    assert f"{f}:3:" in err and "5 3s" in err and "1 line(s) skipped" in err


def test_stdin(capsys, monkeypatch):
    code, out, err = run(capsys, "--file", "-", "--format", "json", stdin="33344455\nXD\n",
                         monkeypatch=monkeypatch)
    assert code == 0 and [json.loads(x)["min_plays"] for x in out.splitlines()] == [2, 1]


def test_bad_hand_is_one_line_error(capsys):
    code, out, err = run(capsys, "3Z")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and "'Z'" in err and "Traceback" not in err


def test_usage_errors(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "give a HAND or --file" in err
    code, _, err = run(capsys, "33", "--rules", "nosuch")
    assert code == 2 and "unknown rules preset" in err


def test_matches_library(capsys):
    code, out, _ = run(capsys, "3458TTTQQ22XD", "--format", "json")
    assert json.loads(out) == decompose("3458TTTQQ22XD").to_dict()


def test_console_script():
    exe = os.path.join(os.path.dirname(sys.executable), "ddz")
    if not os.path.exists(exe):
        pytest.skip("ddz console script not installed")
    res = subprocess.run([exe, "decompose", "789TJ5AA", "--format", "json"], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert res.returncode == 0 and json.loads(res.stdout)["plays"] == ["5", "789TJ", "AA"]
