"""``ddz moves`` and ``ddz classify``: output, JSON shape, --file batches and errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from conftest import REPO, random_hands
from ddz_tools.core.cards import format_cards
from ddz_tools.cli import main
from ddz_tools.moves.movegen import generate
from ddz_tools.core.rules import Play, Rules, classify


def run(argv, capsys, monkeypatch=None, stdin: "str | None" = None):
    """Run the CLI in-process: (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    return info.value.code, out, err


def json_lines(text: str) -> list[dict]:
    lines = [line for line in text.splitlines() if line.strip()]
    return [json.loads(line) for line in lines]


def plays_of(obj: dict) -> set[tuple[str, str]]:
    return {(p["cards"], p["type"]) for p in obj["plays"]}


def expected_plays(hand: str, after=None, rules="standard") -> set[tuple[str, str]]:
    return {(str(p), p.type_name) for p in generate(hand, after, rules)}


# ddz moves ---------------------------------------------------------------------------


def test_moves_json_lead(capsys):
    code, out, err = run(["moves", "3334445556667779XD", "--format", "json"], capsys)
    assert code == 0 and err == ""
    [obj] = json_lines(out)
    assert obj["hand"] == "3334445556667779XD"
    assert obj["rules"] == "standard"
    assert obj["after"] is None
    assert obj["count"] == len(obj["plays"]) == len(generate("3334445556667779XD"))
    assert plays_of(obj) == expected_plays("3334445556667779XD")
    for p in obj["plays"]:
        assert set(p) >= {"cards", "type", "notation", "main", "length"}
        assert Play.parse(p["notation"]).type_name == p["type"] or p["type"] == "airplane_solo"


def test_moves_json_answers_with_rules(capsys):
    code, out, _ = run(["moves", "33334444XD", "--after", "3333", "--rules", "douzero", "--format", "json"], capsys)
    assert code == 0
    [obj] = json_lines(out)
    assert obj["rules"] == "douzero" and obj["after"] == "3333"
    assert plays_of(obj) == {("4444", "bomb"), ("XD", "rocket")}


def test_moves_rules_with_override_is_reported(capsys):
    code, out, _ = run(["moves", "33335", "--rules", "standard,four_with_one=on", "--format", "json"], capsys)
    [obj] = json_lines(out)
    assert obj["rules"] == "standard,four_with_one=on"
    assert ("33335", "four_solo") in plays_of(obj)


def test_moves_canonicalises_the_hand(capsys):
    code, out, _ = run(["moves", "d x 10 j q k a", "--format", "json"], capsys)
    [obj] = json_lines(out)
    assert obj["hand"] == "TJQKAXD"
    assert ("TJQKA", "chain") in plays_of(obj) and ("XD", "rocket") in plays_of(obj)


def test_moves_table(capsys):
    code, out, err = run(["moves", "3456789TJQKA2XD", "--after", "34567"], capsys)
    assert code == 0 and err == ""
    assert "answering 34567" in out and "rules standard" in out and "pass is also legal" in out
    lines = out.splitlines()
    assert any(line.split()[:2] == ["chain", "7"] for line in lines)
    assert any(line.split()[:2] == ["rocket", "1"] for line in lines)
    assert "45678" in out and "TJQKA" in out


def test_moves_table_lead(capsys):
    code, out, _ = run(["moves", "33"], capsys)
    assert code == 0
    assert "(leads)" in out and "2 plays" in out
    assert any(line.split()[:3] == ["solo", "1", "3"] for line in out.splitlines())
    assert any(line.split()[:3] == ["pair", "1", "33"] for line in out.splitlines())


def test_moves_file_json(tmp_path, capsys):
    hands = [format_cards(h) for h in random_hands(12, 17, seed=31)]
    path = tmp_path / "hands.txt"
    path.write_text("# a comment\n" + "\n".join(hands) + "\n\n", encoding="utf-8")
    code, out, err = run(["moves", "--file", str(path), "--format", "json", "--rules", "encyclopedia"], capsys)
    assert code == 0 and err == ""
    objs = json_lines(out)
    assert [o["hand"] for o in objs] == hands
    for o in objs:
        assert o["rules"] == "encyclopedia"
        assert plays_of(o) == expected_plays(o["hand"], rules="encyclopedia")


def test_moves_file_stdin_with_after(capsys, monkeypatch):
    code, out, _ = run(["moves", "--file", "-", "--after", "77", "--format", "json"], capsys, monkeypatch,
                       stdin="88993\nTT\n")
    assert code == 0
    objs = json_lines(out)
    assert [plays_of(o) for o in objs] == [{("88", "pair"), ("99", "pair")}, {("TT", "pair")}]


def test_moves_file_skips_bad_lines_and_reports_them(tmp_path, capsys):
    path = tmp_path / "hands.txt"
    path.write_text("345\n33333\nXXD\n67\n", encoding="utf-8")
    code, out, err = run(["moves", "--file", str(path), "--format", "json"], capsys)
    assert code == 1  # some lines failed; the others were still done
    assert [o["hand"] for o in json_lines(out)] == ["345", "67"]
    err_lines = err.strip().splitlines()
    assert err_lines[0].startswith("error: ") and f"{path}:2:" in err_lines[0] and "5 3s" in err_lines[0]
    assert f"{path}:3:" in err_lines[1] and "small jokers" in err_lines[1]
    assert "2 line(s) skipped" in err_lines[-1]
    assert "Traceback" not in err


def test_moves_file_table(capsys):
    code, out, _ = run(["moves", "--file", str(REPO / "data" / "hands.txt")], capsys)
    assert code == 0
    assert out.count("(leads)") == len([l for l in (REPO / "data" / "hands.txt").read_text().splitlines()
                                        if l.strip() and not l.startswith("#")])


@pytest.mark.parametrize("argv, fragment", [
    (["moves", "33333"], "5 3s"),
    (["moves", "3Z"], "unknown card character 'Z'"),
    (["moves", "XXD"], "2 small jokers"),
    (["moves", "345", "--after", "34"], "'34' is not a legal play"),
    (["moves", "345", "--after", "pass"], "not a pass"),
    (["moves", "--file", "/nonexistent/hands.txt"], "No such file"),
    (["classify", "33333"], "5 3s"),
    (["moves", "333333333"], "has 9 3s; at most 4 exist"),
    (["moves", "3333333333", "--rules", "four"], "has 10 3s; at most 8 exist in 2 decks"),
    (["classify", "3Z"], "unknown card character"),
    (["moves", "345", "--rules", "poker"], "unknown rules preset 'poker'"),
    (["moves", "345", "--rules", "standard,colour=red"], "unknown rules option 'colour'"),
    (["classify", "345", "--rules", "standard,four_with_one=maybe"], "takes on or off"),
])
def test_errors_are_one_line_exit_2(argv, fragment, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and fragment in err


@pytest.mark.parametrize("argv, fragment", [
    (["moves"], "give a HAND or --file"),
    (["moves", "345", "--file", "x.txt"], "give a HAND or --file"),
    (["moves", "345", "--format", "xml"], "xml"),
])
def test_usage_errors_exit_2(argv, fragment, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert fragment in err and "Traceback" not in err


# ddz classify ---------------------------------------------------------------------------


def test_classify_json_readings(capsys):
    code, out, _ = run(["classify", "333444555666", "--rules", "douzero", "--format", "json"], capsys)
    assert code == 0
    [obj] = json_lines(out)
    assert obj["cards"] == "333444555666" and obj["rules"] == "douzero"
    got = {(r["notation"], r["type"], r["main"], r["length"]) for r in obj["readings"]}
    assert got == {("333444555666", "airplane", "6", 4), ("333444555-666", "airplane_solo", "5", 3),
                   ("444555666-333", "airplane_solo", "6", 3)}


def test_classify_table_and_dash(capsys):
    code, out, _ = run(["classify", "333444-56"], capsys)
    assert code == 0
    assert "airplane_solo" in out and "333444-56" in out and "standard" in out


def test_classify_not_a_play(capsys):
    code, out, err = run(["classify", "3456"], capsys)
    assert code == 1
    assert "not a legal play" in out
    code, out, _ = run(["classify", "3456", "--format", "json"], capsys)
    assert code == 1 and json_lines(out)[0]["readings"] == []


def test_classify_laizi_readings_and_a_pinned_one(capsys):
    """With wild 9, 56789 reads as 56789 and as 45678; CARDS=FACES keeps the
    one it names, and faces that are no reading of the cards are an error."""
    code, out, _ = run(["classify", "56789", "--rules", "laizi", "--wild", "9", "--format", "json"], capsys)
    assert code == 0
    [obj] = json_lines(out)
    assert obj["wild"] == "9" and {r["faces"] for r in obj["readings"]} >= {"45678", "56789"}
    code, out, _ = run(["classify", "56789=45678", "--rules", "laizi", "--wild", "9", "--format", "json"], capsys)
    assert code == 0
    [obj] = json_lines(out)
    assert [r["faces"] for r in obj["readings"]] == ["45678"] and obj["cards"] == "56789"
    code, out, err = run(["classify", "56789=6789T", "--rules", "laizi", "--wild", "9"], capsys)
    assert code == 2 and "Traceback" not in err and err.startswith("error: ")


def test_classify_agrees_with_library_for_many_plays(capsys):
    rules = Rules.parse("encyclopedia")
    for text in ("3", "XD", "2222", "3333-5", "3333-55", "KKAA22", "AAA222-34", "34567", "33334444"):
        code, out, _ = run(["classify", text, "--rules", "encyclopedia", "--format", "json"], capsys)
        [obj] = json_lines(out)
        want = {p.notation() for p in classify(text.replace("-", ""), rules)}
        assert {r["notation"] for r in obj["readings"]} == want
        assert code == (0 if want else 1)


# The installed console script ------------------------------------------------------------


def test_console_script_end_to_end():
    ddz = REPO / ".venv" / "bin" / "ddz"
    cmd = [str(ddz)] if ddz.exists() else [sys.executable, "-m", "ddz_tools"]
    res = subprocess.run(cmd + ["moves", "--file", "-", "--format", "json"], input="3334\n33333\n",
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 1
    [obj] = json_lines(res.stdout)
    assert obj["hand"] == "3334" and ("3334", "trio_solo") in plays_of(obj)
    assert "error: -:2:" in res.stderr and "Traceback" not in res.stderr
    res = subprocess.run(cmd + ["moves", "33333"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == "error: '33333' has 5 3s; at most 4 exist\n"
