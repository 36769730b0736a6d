"""``ddz solve`` end to end (through the real entry point)."""

from __future__ import annotations

import json
import pathlib

import pytest

from ddz_tools.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_two_player_json(capsys):
    code, out, err = run(capsys, "solve", "--me", "33JJQK2", "--opponent", "4455A", "--all",
                         "--format", "json", "--tt-mb", "4")
    assert code == 0
    d = json.loads(out)
    assert d["result"] == "win" and d["all_plays"] is True
    assert set(d["winning_plays"]) == {"JJ", "2", "33", "3", "J", "Q", "K"}
    assert d["line"][0] in d["winning_plays"] and d["line_by"][0] == "me"
    assert d["rules"] == "standard" and d["nodes"] > 0 and d["seconds"] >= 0
    assert d["tt"]["mb"] == 4.0


def test_laizi_table_names_the_wild_rank_and_the_readings(capsys):
    code, out, _ = run(capsys, "solve", "--me", "33JJQK9", "--opponent", "4455A", "--rules", "laizi", "--wild", "9")
    assert code == 0
    assert "[rules laizi, wild 9]" in out and "me wins" in out and "=" in out


def test_two_player_answering_table(capsys):
    code, out, err = run(capsys, "solve", "--me", "33", "--opponent", "44", "--after", "2", "--tt-mb", "1")
    assert code == 0
    assert "me loses" in out and "line" in out and "nodes" in out


def test_three_player_and_default_by(capsys):
    code, out, _ = run(capsys, "solve", "--landlord", "3KK", "--farmer1", "44", "--farmer2", "A2",
                       "--to-move", "farmer1", "--after", "3", "--format", "json", "--tt-mb", "1")
    d = json.loads(out)
    assert code == 0 and d["position"]["last_by"] == "landlord"
    assert d["result"] in ("win", "loss")


def test_strategy_json(capsys):
    code, out, _ = run(capsys, "solve", "--me", "33JJQK2", "--opponent", "4455A", "--strategy",
                       "--format", "json", "--tt-mb", "1")
    d = json.loads(out)
    assert d["strategy"]["by"] == "me" and "then" in d["strategy"]


def test_node_limit_unknown(capsys):
    code, out, _ = run(capsys, "solve", "--me", "3446TJQKK2", "--opponent", "3468JKAAAD", "--node-limit", "3",
                       "--format", "json", "--tt-mb", "4")
    d = json.loads(out)
    assert code == 0 and d["result"] == "unknown" and d["stopped"] == "node limit" and d["nodes"] <= 3


def test_file_mode_with_a_bad_line(capsys, tmp_path):
    lines = (ROOT / "data" / "puzzles.jsonl").read_text().splitlines()[:3]
    bad = json.dumps({"schema": "ddz-position/1", "hands": {"me": "3333", "opponent": "3"}, "to_move": "me"})
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(lines[:2] + [bad] + lines[2:]) + "\n")
    code, out, err = run(capsys, "solve", "--file", str(f), "--format", "json", "--all", "--tt-mb", "8")
    results = [json.loads(x) for x in out.splitlines()]
    assert len(results) == 3 and code == 1
    for res, ln in zip(results, lines):
        want = json.loads(ln)
        assert res["id"] == want["id"] and res["result"] == want["answer"]["result"]
        assert sorted(res["winning_plays"]) == want["answer"]["winning_plays"]
    assert f"{f}:3:" in err and "deck has 4" in err and "1 skipped" in err


@pytest.mark.parametrize("args,message", [
    (["--me", "33"], "--opponent"),
    (["--me", "33", "--opponent", "44", "--landlord", "5"], "not both"),
    (["--landlord", "3", "--farmer1", "4", "--farmer2", "5"], "--to-move"),
    (["--me", "3333", "--opponent", "3"], "deck has 4"),
    (["--me", "33", "--opponent", "44", "--after", "78"], "not a legal play"),
    (["--me", "33", "--opponent", "44", "--rules", "nope"], "nope"),
    ([], "give a position"),
])
def test_errors_exit_2_without_traceback(capsys, args, message):
    code, out, err = run(capsys, "solve", "--tt-mb", "1", *args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_interactive_defence(capsys, monkeypatch):
    """The user defends (opponent); the solver, to move, wins."""
    answers = iter(["pass", "pass", "pass", "pass", "pass"])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(answers))
    code, out, err = run(capsys, "solve", "--me", "33JJQK2", "--opponent", "4455A", "--play", "--tt-mb", "1")
    assert code == 0
    assert "me is out: me wins" in out


def test_interactive_defence_refuses_illegal_plays(capsys, monkeypatch):
    """A bad answer is explained (Position.parse_play) and asked again."""
    answers = iter(["3Z", "33", "4", "pass", "pass", "pass", "pass", "pass"])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(answers))
    code, out, err = run(capsys, "solve", "--me", "33JJQK2", "--opponent", "4455A", "--play", "--tt-mb", "1")
    assert code == 0 and "me is out: me wins" in out
    assert "unknown card" in err and "is not a legal play here; try again" in err


def test_file_positions_without_id_are_named_by_line(capsys, tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text("# a comment\n" + json.dumps({"schema": "ddz-position/1", "hands": {"me": "3", "opponent": "4"},
                                                "to_move": "me"}) + "\n")
    code, out, err = run(capsys, "solve", "--file", str(f), "--format", "json", "--tt-mb", "1")
    assert code == 0 and json.loads(out)["id"] == "line 2"


def test_whole_deal_from_options(capsys):
    """A whole deal, 20/17/17, is accepted (here cut short by a node limit)."""
    from ddz_tools.core.cards import card_count, parse_cards
    from ddz_tools.core.cards import FULL_DECK
    landlord, farmer1, farmer2 = "33445566778899TTJQKD", "34567789TJJQKAA22", "345689TJQQKKAA22X"
    assert [card_count(parse_cards(h)) for h in (landlord, farmer1, farmer2)] == [20, 17, 17]
    assert sum(parse_cards(h) for h in (landlord, farmer1, farmer2)) == FULL_DECK
    code, out, err = run(capsys, "solve", "--landlord", landlord, "--farmer1", farmer1, "--farmer2", farmer2,
                         "--to-move", "landlord", "--node-limit", "20000", "--format", "json", "--no-line",
                         "--workers", "2", "--tt-mb", "8")
    assert code == 0, err
    d = json.loads(out)
    assert d["result"] in ("win", "loss", "unknown") and d["position"]["hands"]["landlord"] == landlord


def test_unknown_lists_the_plays_proven_lost(capsys):
    """Cut short, a solve says which root plays it had proven lost (table and JSON)."""
    hands = ["--landlord", "44589TQAAX", "--farmer1", "467TJQQK22", "--farmer2", "579TJJKKA2",
             "--to-move", "landlord", "--node-limit", "400000", "--tt-mb", "8", "--workers", "1", "--no-line"]
    code, out, _ = run(capsys, "solve", *hands, "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["result"] == "unknown" and d["root_plays"] > len(d["lost_plays"]) > 0
    code, out, _ = run(capsys, "solve", *hands)
    assert code == 0 and f"proven lost ({len(d['lost_plays'])} of {d['root_plays']} plays)" in out
    assert " ".join(d["lost_plays"]) in out


def test_record_and_move(capsys):
    path = ROOT / "data" / "sample_games.jsonl"
    first = json.loads(path.read_text().splitlines()[0])
    n = len(first["plays"]) - 4
    code, out, err = run(capsys, "solve", "--record", str(path), "--move", str(n), "--format", "json",
                         "--tt-mb", "8", "--workers", "1")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rows[0]["record"] == first["id"] and rows[0]["move"] == n
    assert rows[0]["result"] in ("win", "loss")
    assert "past its last play" in err or code == 0
    code, out, _ = run(capsys, "solve", "--record", str(ROOT / "data" / "botzone_sample_log.json"),
                       "--move", "3", "--format", "json", "--tt-mb", "8", "--node-limit", "1000")
    d = json.loads(out.splitlines()[0])
    assert d["move"] == 3 and d["position"]["to_move"] in ("landlord", "farmer1", "farmer2")
    code, _, err = run(capsys, "solve", "--move", "3", "--me", "3", "--opponent", "4")
    assert code == 2 and "--move needs --record" in err


def test_record_and_move_four_players(capsys):
    """A four-player record: the position before a move names four seats by role."""
    path = ROOT / "data" / "four_games.jsonl"
    first = json.loads(path.read_text().splitlines()[0])
    n = len(first["plays"]) - 6
    code, out, err = run(capsys, "solve", "--record", str(path), "--move", str(n), "--format", "json",
                         "--tt-mb", "8", "--workers", "1", "--node-limit", "200000")
    d = json.loads(out.splitlines()[0])
    assert d["record"] == first["id"] and d["move"] == n
    assert set(d["position"]["hands"]) == {"landlord", "farmer1", "farmer2", "farmer3"}
    assert d["result"] in ("win", "loss", "unknown")


def test_progress_line_on_stderr(capsys, monkeypatch):
    """With DDZ_PROGRESS=1 (as on a terminal) a solve draws its nodes and the
    root's plays proven lost on stderr, ending with the solve's own count;
    stdout holds only the result."""
    monkeypatch.setenv("DDZ_PROGRESS", "1")
    code, out, err = run(capsys, "solve", "--landlord", "3333445678899JJKKA2D", "--farmer1", "5567899TTJQKKAA22",
                         "--farmer2", "44566778TTJQQQA2X", "--to-move", "landlord", "--node-limit", "150000",
                         "--no-line", "--format", "json", "--tt-mb", "16", "--workers", "1")
    assert code == 0
    d = json.loads(out)
    last = [s for s in err.replace("\r", "\n").splitlines() if s.strip()][-1].split()
    assert last[0] == "solve" and last[2] == "nodes" and " ".join(last[-6:-3]) == f"of {d['root_plays']} root"
    assert int(last[1].replace(",", "")) == d["nodes"]
    assert int(last[-7]) == len(d["lost_plays"])


def test_four_players_table_and_json(capsys):
    """--rules four with the landlord and three farmers: the table names the
    four seats and the rules; JSON gives the result, the line and the
    four-seat position."""
    args = ["solve", "--rules", "four", "--landlord", "3XX", "--farmer1", "44", "--farmer2", "55", "--farmer3", "A",
            "--to-move", "landlord", "--tt-mb", "1"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "landlord 3XX, farmer1 44, farmer2 55, farmer3 A; landlord leads  [rules four]" in out
    assert "landlord wins" in out and "farmer3:pass" in out
    code, out, _ = run(capsys, *args, "--format", "json", "--all")
    d = json.loads(out)
    assert code == 0 and d["rules"] == "four" and d["result"] == "win"
    assert set(d["winning_plays"]) == {"X", "XX"}
    assert d["position"]["hands"] == {"landlord": "3XX", "farmer1": "44", "farmer2": "55", "farmer3": "A"}
    assert d["line_by"][:4] == ["landlord", "farmer1", "farmer2", "farmer3"]


def test_four_player_rules_with_fewer_hands_and_options(capsys):
    code, out, _ = run(capsys, "solve", "--rules", "four,top_bomb=bomb8", "--landlord", "5XXDD", "--farmer1",
                       "22222222", "--to-move", "landlord", "--format", "json", "--tt-mb", "1")
    d = json.loads(out)
    assert code == 0 and d["rules"] == "four,top_bomb=bomb8" and d["result"] == "loss"
    assert d["position"]["hands"] == {"landlord": "5XXDD", "farmer1": "22222222"}


def test_four_player_file(capsys, tmp_path):
    lines = [
        {"schema": "ddz-position/1", "id": "a", "rules": "four", "to_move": "farmer1", "last_play": "6",
         "last_by": "landlord", "hands": {"landlord": "3XX", "farmer1": "44", "farmer2": "55", "farmer3": "A"}},
        {"schema": "ddz-position/1", "id": "b", "rules": "four,chains=shanghai", "to_move": "landlord",
         "hands": {"landlord": "A2345", "farmer1": "66", "farmer2": "77"}},
        {"schema": "ddz-position/1", "id": "c", "rules": "standard", "to_move": "landlord",
         "hands": {"landlord": "A2345", "farmer1": "66", "farmer2": "77", "farmer3": "8"}},
    ]
    f = tmp_path / "four.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, out, err = run(capsys, "solve", "--file", str(f), "--format", "json", "--all", "--tt-mb", "4")
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and [r["id"] for r in results] == ["a", "b"]
    assert results[0]["result"] == "win" and results[0]["winning_plays"] == ["pass"]
    assert results[1]["result"] == "win" and results[1]["winning_plays"] == ["345A2"]  # A2345, cards in rank order
    assert results[1]["rules"] == "four,chains=shanghai"
    assert f"{f}:3: farmer3 is a four-player seat: rules standard seat three players" in err


@pytest.mark.parametrize("args,message", [
    (["--landlord", "3", "--farmer1", "4", "--farmer2", "5", "--farmer3", "6", "--to-move", "landlord"],
     "--farmer3 is a four-player seat"),
    (["--rules", "four", "--landlord", "3", "--farmer2", "5", "--to-move", "landlord"], "--farmer1 missing"),
    (["--rules", "four", "--landlord", "3", "--farmer1", "4"], "--to-move"),
    (["--rules", "four", "--landlord", "3", "--farmer1", "4", "--to-move", "farmer3"],
     "--to-move must be landlord or farmer1 here"),
    (["--rules", "four", "--landlord", "333333333", "--farmer1", "4", "--to-move", "landlord"], "at most 8"),
])
def test_four_player_errors_exit_2(capsys, args, message):
    code, out, err = run(capsys, "solve", "--tt-mb", "1", *args)
    assert code == 2
    assert message in err and "Traceback" not in err and err.count("\n") == 1
