"""``ddz play`` driven through a pseudo-terminal, as a person plays it: a
seeded game from the deal to the saved record through every command and bad
input, line editing, colour on a terminal and plain text with NO_COLOR or a
pipe, and the match resumed from its file."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, run_ddz
from ddz_tools.analysis.play import read_match
from ddz_tools.engines.records import replay_record

pexpect = pytest.importorskip("pexpect")

#: Small budgets: the terminal is what is tested here, not the advisor.
BUDGETS = ["--hint-samples", "16", "--bid-samples", "64", "--review-nodes", "2000"]
LEAD, ANSWER, NEXT = r"your lead\? > ", r"your play \(or pass\)\? > ", r"next game\? \(enter, report \[DIR\], quit\) > "


def _env(**extra) -> dict:
    env = dict(os.environ)
    # The tests give the program a HOME of its own (its readline history); the kernel cache
    # stays where this run keeps it, or the program would compile every kernel again.
    env.setdefault("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache"))
    env["PYTHONPATH"] = str(REPO)
    env.pop("NO_COLOR", None)
    env.update({"TERM": "xterm", "COLUMNS": "80", "LINES": "40", **extra})
    return env


def spawn(args, tmp_path, **env) -> "pexpect.spawn":
    child = pexpect.spawn(sys.executable, ["-c", "from ddz_tools.cli import main; main()", "play", *args],
                          cwd=str(tmp_path), env=_env(HOME=str(tmp_path), **env), encoding="utf-8", timeout=60,
                          dimensions=(40, 80))
    return child


def say(child, line: str, expect) -> str:
    child.sendline(line)
    child.expect(expect)
    return child.before


def lowest_card(screen: str) -> str:
    """The lowest card of the player's hand on the last screen drawn."""
    hands = re.findall(r"you(?: \(\w+\))?, \d+ cards?: (\S)", screen)
    return hands[-1]


def test_a_seeded_game_from_the_deal_to_the_saved_record(tmp_path):
    save = tmp_path / "match.jsonl"
    child = spawn(["--seed", "3", "--save", str(save), *BUDGETS], tmp_path, NO_COLOR="1")
    child.expect(r"your bid \(pass, 1, 2, 3\)\? > ")
    screen = child.before
    assert "-- ddz play: rules standard, game 1, match 0 --" in screen and "\x1b[" not in screen
    assert "you, 17 cards: 33 44 5 6 7 8 9 TT J Q KK 2 D" in screen
    bid = r"your bid \(pass, 1, 2, 3\)\? > "
    assert "save [FILE]" in say(child, "help", bid)
    assert re.search(r"bid evaluator \(\d+ deals.*hint: (pass|1|2|3)", say(child, "hint", bid), re.S)
    assert "3: expected score" in say(child, "why 3", bid)
    assert "error: '4' is not a choice here: pass, 1, 2, 3" in say(child, "why 4", bid)
    assert "error: 'bogus' is not a bid here: answer pass, 1, 2, 3" in say(child, "bogus", bid)
    screen = say(child, "3", LEAD)
    assert "you (landlord), 20 cards:" in screen and "bottom: 9AX; stake: base 3 = 3" in screen
    assert "you (landlord): bid 3" in say(child, "history", LEAD)
    # Readline: the up arrow brings back the last line (history), Ctrl-A and Ctrl-E move in it.
    child.send("\x1b[A\r")
    child.expect(LEAD)
    assert "you (landlord): bid 3" in child.before
    assert "undone: back to your decision" in say(child, "undo", bid)
    say(child, "3", LEAD)
    assert re.search(r"advisor \(16 deals.*hint: \S+", say(child, "hint", LEAD), re.S)
    assert "33: win " in say(child, "why 33", LEAD)
    assert "error: solve answers once every hand holds at most 10 cards" in say(child, "solve", LEAD)
    assert "error: you played 'zz'" in say(child, "zz", LEAD)
    assert "error: you passed but must lead" in say(child, "pass", LEAD)
    child.send("3\x01#\x05\r")          # "#3": Ctrl-A went to the start of the line
    child.expect(LEAD)
    assert "error: you played '#3'" in child.before
    screen = say(child, "look", LEAD)
    for _ in range(60):
        card = lowest_card(screen)
        child.sendline(card)
        k = child.expect([LEAD, ANSWER, NEXT, r"your lead\? > "])
        screen = child.before
        while k == 1:
            child.sendline("pass")
            k = child.expect([LEAD, ANSWER, NEXT])
            screen = child.before
        if k == 2:
            break
    else:
        raise AssertionError("the game did not end")
    assert re.search(r"the (landlord wins|farmers win).*: you (win|lose) \d+", screen)
    assert "review (open hands, as ddz analyze --review open)" in screen
    assert "saved to " + str(save) in screen
    say(child, "report " + str(tmp_path / "rep"), NEXT)
    assert (tmp_path / "rep" / "index.html").exists()
    assert "error: after the game" in say(child, "what", NEXT)
    child.sendline("quit")
    child.expect(r"1 game\(s\) finished under rules standard; you [+-]\d+; saved to ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    games = read_match(str(save))
    assert len(games) == 1 and replay_record(games[0]).status == "ok"
    assert games[0]["players"] == ["you", "heuristic", "heuristic"]
    # Going on with the match: the next deal, the match score kept; quit saves it.
    child = spawn(["--resume", str(save), *BUDGETS], tmp_path)
    child.expect(r"your bid .*\? > ")
    assert "\x1b[" in child.before                  # a terminal without NO_COLOR: colour
    assert "game 2, match" in re.sub(r"\x1b\[[0-9;]*m", "", child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and len(read_match(str(save))) == 2


def test_happy_rules_ask_the_shows_the_calls_and_the_doubles(tmp_path):
    child = spawn(["--rules", "happy", "--seed", "2", "--save", str(tmp_path / "h.jsonl"), *BUDGETS], tmp_path,
                  NO_COLOR="1")
    child.expect(r"show your hand before the bidding \(x\d\)\? > ")
    child.sendline("maybe")
    child.expect(r"error: answer show or no, not 'maybe'")
    child.sendline("no")
    seen = set()
    for _ in range(12):
        k = child.expect([r"(call|grab) or pass\? > ", r"double \(x1, x2(, x4)?\)\? > ",
                          r"show your hand before your first play \(x\d\)\? > ", LEAD, ANSWER,
                          r"show your hand before the bidding \(x\d\)\? > "])
        if k in (3, 4):
            break
        seen.add(k)
        if k == 1:
            child.sendline("hint")
            child.expect(r"double evaluator .*hint: x\d")
            child.expect(r"double .*\? > ")
            child.sendline("x2")
        else:
            child.sendline("pass" if k == 0 else "no")      # every seat may pass: then a new deal
    assert {0, 1} <= seen
    child.sendintr()                    # Ctrl-C at the prompt: saved, and stopped
    child.expect("saved to " + str(tmp_path / "h.jsonl"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and read_match(str(tmp_path / "h.jsonl"))


def test_bad_options_and_a_pipe(tmp_path):
    child = spawn(["--seat", "7"], tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "error: --seat must be 0 to 2 under rules standard, not 7" in child.before
    run = run_ddz("play", "--resume", tmp_path / "none.jsonl")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "none.jsonl: No such file" in run.stderr
    (tmp_path / "bad.jsonl").write_text("not json\n")
    run = run_ddz("play", "--resume", tmp_path / "bad.jsonl")
    assert run.returncode == 2 and run.stderr.startswith("error: ") and "line 1: malformed JSON" in run.stderr
    # A pipe: plain text (no colour codes), the same game, the prompts answered from stdin.
    run = subprocess.run([sys.executable, "-c", "from ddz_tools.cli import main; main()", "play", "--seed", "3",
                          "--save", str(tmp_path / "p.jsonl"), "--format", "json"],
                         input="3\nquit\n", capture_output=True, text=True, cwd=str(tmp_path),
                         env=_env(HOME=str(tmp_path)), timeout=120)
    assert run.returncode == 0
    assert "\x1b[" not in run.stderr and "you (landlord), 20 cards:" in run.stderr
    assert '"games":0' in run.stdout and '"rules":"standard"' in run.stdout
