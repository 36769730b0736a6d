"""Puzzles (ddz_tools.analysis.puzzles): the search of a position, checked by the tests'
plain minimax on tiny positions; the natural-play filter; the defence; the JSON format;
bad input; the command's determinism.  Themes: test_puzzles_themes.py; runs and resume:
test_puzzles_runs.py."""

from __future__ import annotations

import functools
import json

import pytest

from conftest import run_ddz
from naive_solver import plays, winning_plays
from ddz_tools.analysis.puzzles import (FindOptions, Judge, Puzzle, PuzzleError, Step, find_in_position,
                                        legal_moves, natural_play, puzzle_id, read_puzzles)
from ddz_tools.analysis.puzzles import find as find_module
from ddz_tools.core.rules import Play
from ddz_tools.engines.position import Position

#: Two-player leads where exactly one play wins and the heuristic's play loses (me to move).
CASES = [("8TTQKA", "6TQQA", "T", "8"), ("468JJA", "338QK", "8", "4"), ("66TQQA", "88TKK", "T", "66")]


def _naive_state(p: Position) -> tuple:
    hands = tuple(h for _, h in p.hands)
    prev = 0 if p.last_play is None else p.last_play.kind
    by = 0 if p.last_by is None else p.seat_index(p.last_by)
    return hands, p.seat_index(p.to_move), prev, by


@pytest.mark.parametrize("me,opponent,solution,natural", CASES)
def test_unique_winning_play_as_the_minimax_finds_it(me, opponent, solution, natural):
    p = Position.two_player(me, opponent)
    z = find_in_position(p, Judge(), FindOptions())
    assert z is not None and z.solution[0] == Step("me", solution, "solve") and z.natural == natural
    wins = winning_plays(*_naive_state(p), p.rules.flags)
    assert wins == {(Play.parse(solution).cards, Play.parse(solution).kind)}
    nat = natural_play(p)
    assert str(nat) == natural and (nat.cards, nat.kind) not in wins
    assert z.id == puzzle_id(p) and z.side == "me"


def test_several_winning_plays_or_a_loss_is_no_puzzle():
    judge = Judge()
    assert find_in_position(Position.two_player("33JJQK2", "4455A"), judge) is None   # seven plays win
    assert find_in_position(Position.two_player("4455A", "33JJQK2"), judge) is None   # lost


def test_the_natural_play_filter(monkeypatch):
    p = Position.two_player(*CASES[0][:2])
    monkeypatch.setattr(find_module, "natural_play", lambda q: Play.parse("T"))
    assert find_in_position(p, Judge()) is None


def test_filters_on_hand_sizes_and_plays_left():
    p = Position.two_player(*CASES[0][:2])
    stats = find_module.ScanStats()
    assert find_in_position(p, Judge(), FindOptions(max_cards=5), stats) is None
    assert find_in_position(p, Judge(), FindOptions(min_plays=6), stats) is None
    assert (stats.positions, stats.screened) == (2, 0)


def test_over_budget_is_skipped_and_counted():
    stats = find_module.ScanStats()
    p = Position.two_player(*CASES[0][:2])
    assert find_in_position(p, Judge(node_limit=1), FindOptions(), stats) is None
    assert stats.over_budget == 1


def _naive_dtw(p: Position, side: str) -> int:
    """The winner's shortest forced win in plies, by plain minimax over naive plays (two players)."""
    flags = p.rules.flags

    @functools.lru_cache(maxsize=None)
    def dtw(hands, turn, prev, by):
        mover_wins = turn == (0 if side == "me" else 1)
        best = None
        options = list(plays(hands[turn], prev, flags)) + ([(0, 0)] if prev else [])
        for cards, kind in options:
            if mover_wins and (cards, kind) not in winning_plays(hands, turn, prev, by, flags):
                continue
            left = list(hands)
            left[turn] -= cards
            if cards == 0:
                d = 1 + dtw(hands, 1 - turn, 0, 0)
            elif left[turn] == 0:
                d = 1
            else:
                d = 1 + dtw(tuple(left), 1 - turn, kind, turn)
            best = d if best is None else (min if mover_wins else max)(best, d)
        return best

    return dtw(*_naive_state(p))


def test_the_defence_resists_longest():
    p = Position.two_player("8TTQKA", "6TQQA").push(Play.parse("T"))
    reply, d = Judge(budget=5000).defence(p, "me")
    lengths = {str(r): _naive_dtw(p.push(r), "me") for r in legal_moves(p)}
    assert d == max(lengths.values())
    assert str(reply) == next(r for r, v in lengths.items() if v == d)     # ties: the first in order


def test_json_round_trip_and_file(tmp_path):
    z = find_in_position(Position.two_player(*CASES[1][:2]), Judge(), source={"rules": "standard", "seed": 1,
                                                                              "game": 0, "move": 1})
    assert Puzzle.from_json(z.to_json()) == z
    d = json.loads(z.to_json())
    assert d["schema"] == "ddz-puzzle/1" and d["rating"] is None and d["solution"][0]["role"] == "solve"
    path = tmp_path / "p.jsonl"
    path.write_text(z.to_json() + "\n\n" + z.to_json() + "\n")
    assert [q.id for q in read_puzzles(str(path))] == [z.id, z.id]


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(schema="ddz-position/1"), "schema 'ddz-position/1' is not 'ddz-puzzle/1'"),
    (lambda d: d.pop("id"), "no 'id' (a string)"),
    (lambda d: d["position"].update(hands={"me": "3"}), "position: "),
    (lambda d: d.update(side="opponent"), "side 'opponent' is not the side to move ('me')"),
    (lambda d: d.update(solution=[]), "solution must be a non-empty list of steps"),
    (lambda d: d["solution"][0].update(play="KKKK"), "solution[0]: "),
    (lambda d: d["solution"][0].update(role="defence"), "solution[0]: role 'defence' of 'me' does not fit"),
    (lambda d: d["solution"][0].update(by="opponent"), "solution[0]: 'opponent' plays, but 'me' is to move"),
    (lambda d: d.update(rating="high"), "rating must be a number or null"),
    (lambda d: d.update(themes="pair-split"), "themes must be a list of strings"),
])
def test_a_bad_puzzle_is_one_line_naming_it(change, message, tmp_path):
    z = find_in_position(Position.two_player(*CASES[0][:2]), Judge())
    d = json.loads(z.to_json())
    change(d)
    path = tmp_path / "bad.jsonl"
    path.write_text(z.to_json() + "\n" + json.dumps(d) + "\n")
    with pytest.raises(PuzzleError) as exc:
        list(read_puzzles(str(path)))
    text = str(exc.value)
    assert text.startswith(f"{path}:2: ") and message in text and "\n" not in text


def test_the_command_is_deterministic_and_says_its_rules():
    a = run_ddz("puzzles", "find", "--games", "60", "--seed", "3", "--workers", "1", "--format", "json")
    b = run_ddz("puzzles", "find", "--games", "60", "--seed", "3", "--workers", "1", "--format", "json")
    assert a.returncode == 0 and a.stdout == b.stdout
    found = [json.loads(line) for line in a.stdout.splitlines()]
    assert found and all(f["source"]["seed"] == 3 for f in found)
    assert json.loads(a.stderr.strip().splitlines()[-1])["summary"]["rules"] == "standard"
    t = run_ddz("puzzles", "find", "--from", "data/sample_games.jsonl", "--workers", "1")
    assert t.returncode == 0 and "rules standard:" in t.stdout and "positions" in t.stdout


@pytest.mark.parametrize("args,message", [
    ((), "error: give games to search: --from FILE or --games N"),
    (("--games", "1", "--resume"), "error: --resume needs --out"),
    (("--games", "1", "--rules", "nonsense"), "error: unknown rules preset 'nonsense'"),
    (("--from", "no/such.jsonl"), "error: cannot read no/such.jsonl: no such file"),
])
def test_bad_command_lines(args, message):
    r = run_ddz("puzzles", "find", *args)
    assert r.returncode == 2 and r.stderr.strip().startswith(message) and len(r.stderr.strip().splitlines()) == 1


def test_bad_games_are_counted_and_exit_3():
    r = run_ddz("puzzles", "find", "--from", "data/bad_games.jsonl", "--workers", "1")
    assert r.returncode == 3 and "could not be read or replayed" in r.stderr.strip().splitlines()[-1]


def test_playing_a_puzzle(tmp_path):
    from click.testing import CliRunner

    from ddz_tools.analysis.puzzles.play import Session
    from ddz_tools.cli import cli

    z = find_in_position(Position.two_player(*CASES[0][:2]), Judge())
    s = Session(z)
    wrong = s.try_play("8")
    assert not wrong["right"] and wrong["refutation"][0][0] == "opponent" and not s.done
    with pytest.raises(Exception):
        s.try_play("KKKK")
    while not s.done:
        r = s.try_play(s.expected()[0])
        assert r["right"]
    path = tmp_path / "p.jsonl"
    path.write_text(z.to_json() + "\n")
    typed = ["8", "T"] + [st.play for st in z.solution[1:] if st.role == "solve"] + list(z.accepted[:1])
    out = CliRunner().invoke(cli, ["puzzles", "play", str(path)], input="\n".join(typed) + "\n")
    assert out.exit_code == 0 and "8 loses: opponent:" in out.output and "solved" in out.output
