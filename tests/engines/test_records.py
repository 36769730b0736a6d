"""ddz-record/1: parse, write, replay, the batch kernel, the sample files and ``ddz replay``."""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner
from naive_game import naive_replay

from conftest import REPO, run_ddz
from ddz_tools.cli import EXIT_BAD_RECORDS
from ddz_tools.core.errors import RecordError
from ddz_tools.engines.game import Game, random_game
from ddz_tools.engines.records import (
    parse_record,
    read_records,
    record_from_game,
    record_to_dict,
    replay_record,
    validate_batch,
    write_record,
)
from ddz_tools.core.rules import Play
from ddz_tools.variants.variant import variant_of

DATA = REPO / "data"
RULE_SPECS = ["standard", "douzero", "encyclopedia", "standard,bidding=call-grab",
              "douzero,bidding=until-two-pass,spring=any-player", "standard,jokers_in_four_two=off"]


def random_records(n: int, seed: int) -> list[dict]:
    out = []
    for i in range(n):
        rules = RULE_SPECS[i % len(RULE_SPECS)]
        g = random_game(seed * 100_000 + i, rules, all_pass=("seat0" if i % 5 == 0 else "redeal"))
        out.append(record_to_dict(record_from_game(g, id=i)))
    return out


def mutate(d: dict, rng: random.Random) -> dict:
    """One random corruption of a record (some leave it legal)."""
    d = copy.deepcopy(d)
    plays, bids = d["plays"], d["bids"]
    i = rng.randrange(len(plays))
    k = rng.randrange(10)
    if k == 0:
        plays[i]["seat"] = (plays[i]["seat"] + rng.choice([1, 2])) % 3
    elif k == 1:
        plays[i]["cards"] = ""
    elif k == 2:
        plays[i]["cards"] = rng.choice(["3", "33", "XD", "2222", "34567", "3334", "KKKA", "AA", "333444-56",
                                        "Z", "33334", "3456", "-", "pass", "444555-66", "33-3"])
    elif k == 3:
        del plays[i]
    elif k == 4:
        plays.append({"seat": rng.randrange(3), "cards": rng.choice(["", "3", "D"])})
    elif k == 5:
        d["result"]["scores"][rng.randrange(3)] += 1
    elif k == 6:
        plays[i:i + 2] = plays[i:i + 2][::-1]
    elif k == 7 and bids:
        j = rng.randrange(len(bids))
        bids[j]["bid"] = rng.choice([0, 1, 2, 3, 4])
    elif k == 8:
        d["result"]["multiplier"] *= 2
    else:
        del plays[i:]
    return d


def same_verdict(py, naive, batch, g):
    assert py.status in ("ok", "mismatch") if naive["status"] == "ok" else py.status == naive["status"], (py, naive)
    assert py.code == naive.get("code"), (py, naive)
    assert py.index == naive.get("index"), (py, naive)
    if naive["status"] == "ok":
        assert list(py.result.scores) == naive["scores"]
        assert py.result.multiplier == naive["multiplier"] and py.result.bombs == naive["bombs"]
    assert batch.status_name(g) == py.status, (g, py, batch.status[g])
    assert batch.code(g) == py.code
    assert int(batch.index[g]) == (-1 if py.index is None else py.index)
    if py.result is not None:
        assert batch.scores[g].tolist() == list(py.result.scores)
        assert int(batch.multiplier[g]) == py.result.multiplier
        assert bool(batch.spring[g]) == py.result.spring and bool(batch.anti_spring[g]) == py.result.anti_spring


def test_kernel_python_and_reference_agree_on_random_games():
    recs = random_records(120, seed=1)
    batch = validate_batch(recs)
    for g, d in enumerate(recs):
        py = replay_record(d)
        assert py.status == "ok"
        same_verdict(py, naive_replay(d), batch, g)


def test_kernel_python_and_reference_agree_on_broken_games():
    rng = random.Random(5)
    recs = [mutate(d, rng) for d in random_records(150, seed=2) for _ in range(2)]
    batch = validate_batch(recs)
    statuses = set()
    for g, d in enumerate(recs):
        py = replay_record(d)
        statuses.add((py.status, py.code))
        same_verdict(py, naive_replay(d), batch, g)
    # The corruptions reach every verdict.
    for want in [("ok", None), ("mismatch", None), ("incomplete", None), ("invalid", "wrong_turn"),
                 ("invalid", "not_in_hand"), ("invalid", "pass_on_lead"), ("invalid", "game_over"),
                 ("invalid", "bad_cards"), ("invalid", "does_not_beat"), ("invalid", "bad_bid")]:
        assert want in statuses, want


@pytest.mark.slow
def test_kernel_python_and_reference_agree_many():
    rng = random.Random(9)
    base = random_records(1500, seed=3)
    recs = base + [mutate(d, rng) for d in base]
    batch = validate_batch(recs)
    for g, d in enumerate(recs):
        same_verdict(replay_record(d), naive_replay(d), batch, g)


def test_numba_disabled_gives_the_same_verdicts(tmp_path):
    """The kernel run as plain Python (NUMBA_DISABLE_JIT=1) on a few games,
    two of them four-player games."""
    rng = random.Random(4)
    recs = random_records(6, seed=4) + [mutate(d, rng) for d in random_records(6, seed=5)]
    recs += [record_to_dict(record_from_game(random_game(s, "four,bomb_doubles=ladder"))) for s in (118, 3)]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in recs))
    code = ("import sys, json; from ddz_tools.engines.records import validate_batch, parse_record;"
            "recs=[parse_record(l) for l in open(sys.argv[1])]; r=validate_batch(recs);"
            "print(json.dumps([r.status.tolist(), r.index.tolist(), r.scores.tolist()]))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env,
                         check=True)
    r = validate_batch(recs)
    assert json.loads(out.stdout) == [r.status.tolist(), r.index.tolist(), r.scores.tolist()]


# Reading and writing ---------------------------------------------------------------------


def test_write_read_round_trip(tmp_path):
    path = tmp_path / "games.jsonl"
    games = [random_game(s, "douzero") for s in range(5)]
    for i, g in enumerate(games):
        write_record(path, record_from_game(g, id=f"g{i}", players=["a", "b", "c"]))
    items = list(read_records(path))
    assert [it.line for it in items] == [1, 2, 3, 4, 5]
    for it, g in zip(items, games):
        assert it.ok and it.replay.result == g.result
        assert it.record.players == ["a", "b", "c"]
        again = io.StringIO()
        write_record(again, it.record)
        assert json.loads(again.getvalue()) == record_to_dict(record_from_game(g, id=it.record.id,
                                                                               players=["a", "b", "c"]))


def test_ambiguous_plays_are_written_in_notation_and_read_back():
    deal = dict(hands=["333444555666789TJ", "777888999TTT3456X", "JJJQQQQKKKKAAAA2D"], bottom="222",
                rules="douzero", first_bidder=0)
    g = Game(**deal)
    g.bid(3)
    g.play("333444555-666")
    g.play("777888999-TTT")
    d = record_to_dict(record_from_game(g))
    assert [p["cards"] for p in d["plays"]] == ["333444555-666", "777888999-TTT"]
    assert replay_record(d).status == "incomplete"
    again = Game(**deal)
    again.bid(3)
    assert [again.play(p["cards"], p["seat"]).notation() for p in d["plays"]] == ["333444555-666", "777888999-TTT"]
    # Bare cards take the documented reading: the plain airplane on a lead, the
    # strongest airplane with wings as an answer.
    bare = Game(**deal)
    bare.bid(3)
    assert bare.play("333444555666").notation() == "333444555666"
    bare = Game(**deal)
    bare.bid(3)
    bare.play("333444555-666")
    assert bare.play("777888999TTT") == Play.parse("888999TTT-777", "douzero")
    batch = validate_batch([d])
    assert batch.status_name(0) == "incomplete"


def test_parse_errors_name_the_problem():
    good = record_to_dict(record_from_game(random_game(1)))
    cases = [
        (lambda d: d.update(schema="ddz-record/2"), "schema must be"),
        (lambda d: d.pop("deal"), "deal is missing"),
        (lambda d: d["deal"].update(bottom="22"), "bottom has 2 cards"),
        (lambda d: d.update(first_bidder=5), "first_bidder must be a seat"),
        (lambda d: d["plays"][0].update(seat="x"), r"plays\[0\].seat must be a seat"),
        (lambda d: d["plays"][0].pop("cards"), r"plays\[0\] must be an object"),
        (lambda d: d.update(rules="bogus"), "unknown rules preset"),
        (lambda d: d.update(bids=[{"seat": 0, "bid": "3"}]), r"bids\[0\].bid must be an integer"),
        (lambda d: d.update(all_pass="never"), "all_pass must be"),
    ]
    for change, message in cases:
        d = copy.deepcopy(good)
        change(d)
        with pytest.raises(RecordError, match=message):
            parse_record(d)
    with pytest.raises(RecordError, match="malformed JSON"):
        parse_record('{"schema": "ddz-record/1", ')


@pytest.mark.parametrize("spec", ["standard", "notalon", "four", "laizi"])
def test_the_structure_follows_the_variants_table(spec):
    """Seats, hand and bottom sizes and the deck come from the rules' table."""
    g = random_game(3, spec)
    rec = parse_record(record_to_dict(record_from_game(g)))
    t = variant_of(spec).table
    assert rec.variant.table == t and len(rec.hands) == t.seats and rec.rules == g.rules
    swapped = record_to_dict(rec)
    hands = swapped["deal"]["hands"]
    other = next(c for c in "3456789TJQKA2" if c != hands[0][0] and hands[0].count(c) < 4 * t.decks)
    hands[0] = other + hands[0][1:]          # as many cards, one of them not the deck's
    want = ("the hands and the bottom are not one 54-card deck" if t.decks == 1
            else "not 2 decks of 108 cards: they hold (7|9) ")
    with pytest.raises(RecordError, match=want):
        parse_record(swapped)
    with pytest.raises(RecordError, match=f"landlord must be a seat {t.seat_numbers}, not {t.seats}"):
        parse_record(dict(record_to_dict(rec), landlord=t.seats))


def test_a_batch_of_several_tables_gives_each_game_its_seats_doubles():
    specs = ["happy", "four", "happy,doubling=global", "notalon,landlord_draw=on", "standard", "happy"]
    games = [random_game(s, spec) for s, spec in enumerate(specs)]
    res = validate_batch([record_from_game(g) for g in games])
    assert res.results() == [g.result for g in games]
    assert [len(r.doubles) for r in res.results()] == [g.seats for g in games]


# The data files --------------------------------------------------------------------------------


def test_sample_games_are_valid():
    items = list(read_records(DATA / "sample_games.jsonl"))
    assert len(items) >= 6
    assert all(it.ok for it in items), [it.replay.reason for it in items if not it.ok]
    ids = {it.record.id: it.replay.result for it in items}
    assert ids["spring-1"].spring and ids["spring-1"].scores == (12, -6, -6)
    assert ids["anti-spring-1"].anti_spring and ids["anti-spring-1"].scores == (-64, 32, 32)


BAD_EXPECTED = {
    1: ("invalid", "does_not_beat", "play", 1),
    2: ("invalid", "not_in_hand", "play", 7),
    3: ("invalid", "wrong_turn", "play", 1),
    4: ("invalid", "pass_on_lead", "play", 3),
    5: ("invalid", "bad_bid", "bid", 1),
    6: "malformed JSON",
    7: "not one 54-card deck",
    8: ("mismatch", None, None, None),
    9: ("incomplete", None, None, None),
}


def test_bad_games_are_reported_line_by_line():
    items = list(read_records(DATA / "bad_games.jsonl"))
    assert [it.line for it in items] == sorted(BAD_EXPECTED)
    for it in items:
        want = BAD_EXPECTED[it.line]
        if isinstance(want, str):
            assert it.error is not None and want in it.error
        else:
            r = it.replay
            assert (r.status, r.code, r.phase, r.index) == want, (it.line, r)
    mismatch = items[7].replay
    assert set(mismatch.disagreements) == {"multiplier", "spring", "scores"}
    # The batch kernel gives the same verdicts.
    recs = [it.record for it in items if it.record is not None]
    batch = validate_batch(recs)
    assert [batch.status_name(g) for g in range(len(recs))] == [it.replay.status for it in items if it.record]
    assert batch.landlord.tolist() == [0, 0, 0, 0, -1, 0, 0]     # bad-bid: no landlord
    assert batch.winner.tolist()[5] == 0 and batch.winner.tolist()[6] == -1


def test_schema_accepts_the_samples():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "ddz-record-1.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for line in (DATA / "sample_games.jsonl").read_text().splitlines():
        v.validate(json.loads(line))
    for d in random_records(10, seed=7):
        v.validate(d)
    bad = json.loads((DATA / "sample_games.jsonl").read_text().splitlines()[0])
    bad["plays"][0]["seat"] = 3
    assert not v.is_valid(bad)


# ddz replay ----------------------------------------------------------------------------------


def _ddz(*args):
    from ddz_tools.cli import cli
    return CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)


def test_cli_replay_table_and_exit_codes():
    r = _ddz("replay", str(DATA / "sample_games.jsonl"))
    assert r.return_value == 0
    assert "spring-1" in r.output and "12 -6 -6" in r.output
    # Bad records: each reported, the others replayed, exit status 3 (not 1, a bug's).
    r = _ddz("replay", str(DATA / "bad_games.jsonl"))
    assert r.return_value == EXIT_BAD_RECORDS == 3
    assert "bad_games.jsonl:6: malformed JSON" in r.stderr
    assert "invalid: " in r.stderr and "plays[7]: seat 1 played J but holds" in r.stderr


@pytest.mark.parametrize("fast", [False, True])
def test_cli_replay_a_file_that_cannot_be_read_is_one_error_line(tmp_path, fast):
    """A missing file, or a folder, is bad input: one ``error:`` line, exit
    status 2 and nothing replayed (it printed an empty table and exited 1)."""
    for bad in (DATA / "no-such-file.jsonl", tmp_path):
        proc = run_ddz("replay", DATA / "sample_games.jsonl", bad, *(["--fast"] if fast else []))
        assert proc.returncode == 2 and proc.stdout == "", proc
        assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
        assert str(bad) in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("fast", [False, True])
def test_cli_replay_a_line_that_is_not_utf8_costs_that_line_only(tmp_path, fast):
    lines = (DATA / "sample_games.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "games.jsonl"
    path.write_bytes(lines[0] + b'{"id": "caf\xe9"}\n' + lines[1])
    r = _ddz("replay", str(path), *(["--fast"] if fast else []))
    assert r.return_value == EXIT_BAD_RECORDS
    assert f"error: {path}:2: not UTF-8 text (byte 0xe9 at column 12)" in r.stderr
    assert "sample-11" in r.output and "sample-12" in r.output and "2 ok, 1 malformed" in r.stderr


@pytest.mark.parametrize("fast", [False, True])
def test_cli_replay_json(fast):
    args = ["replay", str(DATA / "bad_games.jsonl"), "--format", "json"] + (["--fast"] if fast else [])
    r = _ddz(*args)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["line"] for row in rows] == sorted(BAD_EXPECTED)
    by_line = {row["line"]: row for row in rows}
    assert by_line[2]["status"] == "invalid" and by_line[2]["code"] == "not_in_hand" and by_line[2]["index"] == 7
    assert by_line[6]["status"] == "malformed"
    assert by_line[8]["status"] == "mismatch" and by_line[8]["result"]["scores"] == [12, -6, -6]
    assert all(row.get("rules") == "standard" for row in rows if row["status"] != "malformed")


def test_replay_files_fast_and_full_agree():
    """The library behind ``ddz replay``: the batch kernel and the full replay
    give each line the same verdict, result and move index."""
    from ddz_tools.engines.replay import ReplaySummary, replay_files

    paths = [str(DATA / "sample_games.jsonl"), str(DATA / "bad_games.jsonl")]
    full, fast = list(replay_files(paths)), list(replay_files(paths, fast=True))
    assert [(p, n) for p, n, _, _ in full] == [(p, n) for p, n, _, _ in fast]
    summaries = []
    for items in (full, fast):
        s = ReplaySummary()
        for _, _, rep, err in items:
            s.add(rep, err)
        summaries.append(s)
    assert summaries[0] == summaries[1] and summaries[0].failed
    assert summaries[0].counts["malformed"] == sum(isinstance(v, str) for v in BAD_EXPECTED.values())
    for (path, line, a, ea), (_, _, b, eb) in zip(full, fast):
        assert (ea is None) == (eb is None), (path, line)
        if a is None:
            continue
        assert (a.status, a.code, a.phase, a.index, a.landlord) == (b.status, b.code, b.phase, b.index, b.landlord)
        assert a.result == b.result, (path, line)
    # A file that cannot be read is no record: it stops the run.
    for fast in (False, True):
        with pytest.raises(FileNotFoundError):
            list(replay_files([str(DATA / "no-such-file.jsonl")], fast=fast))


def test_a_rules_field_of_the_wrong_type_is_a_record_error():
    """A list where the rules name or object goes was a TypeError (a bug's traceback)."""
    with pytest.raises(RecordError, match="rules must be a name or an object, not list"):
        parse_record({"schema": "ddz-record/1", "rules": ["standard"], "deal": {}})
