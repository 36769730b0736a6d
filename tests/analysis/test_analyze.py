"""``ddz analyze``: per-game verdicts, the mistake search against a plain-Python twin,
summaries, outputs, --out/--resume, process workers and a local Dask cluster."""

from __future__ import annotations

import csv
import io
import json
import os
import pickle
import random
import re
import shutil

import pytest

import naive_solver
from conftest import REPO
from ddz_tools.analysis.analyze import (
    AnalyzeOptions,
    GameAnalysis,
    Mistake,
    analyze_files,
    find_mistakes,
    flat_row,
    from_flat_row,
    load_results,
    review_bids,
    summarize,
)
from ddz_tools.core.cards import card_count, format_cards, parse_cards
from ddz_tools.cli import main
from ddz_tools.engines.game import random_game
from ddz_tools.engines.records import parse_record, record_from_game, record_to_dict, replay_record
from ddz_tools.core.rules import Play, Rules
from ddz_tools.engines.selfplay import simulate

CORPUS = REPO / "data" / "analysis_corpus"


def write_jsonl(path, records) -> str:
    with open(path, "w") as f:
        for r in records:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return str(path)


def run_cli(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# Per-game verdicts -------------------------------------------------------------------------


def test_corpus_verdicts():
    path = str(CORPUS / "selfplay.jsonl")
    res = {g.line: g for g in analyze_files([path], solve_below=0)}
    assert [res[i].status for i in range(1, 13)] == ["valid"] * 12
    assert (res[13].status, res[13].phase, res[13].move) == ("invalid", "play", 1)
    assert "but holds" in res[13].reason and res[13].id == "broken-not-in-hand"
    assert (res[14].status, res[14].move) == ("invalid", 2) and "turn" in res[14].reason
    assert res[15].status == "valid" and res[15].result_disagrees == ["multiplier", "scores"]
    assert res[15].stored_result["scores"] != res[15].result["scores"]
    assert (res[16].status, res[16].phase, res[16].move) == ("invalid", "bid", 2)
    assert res[17].status == "invalid" and res[17].reason.startswith("not JSON")
    assert res[18].status == "invalid" and "unknown schema" in res[18].reason
    # Every valid game's result is the one its record stores (the corpus was written by self-play).
    lines = open(path).read().splitlines()
    for i in range(1, 13):
        assert res[i].result == json.loads(lines[i - 1])["result"]
        assert res[i].players == json.loads(lines[i - 1])["players"]


def _mutations(rec: dict, rng: random.Random) -> dict:
    """A copy of a record with one random change that may or may not break it."""
    r = json.loads(json.dumps(rec))
    k = rng.randrange(6)
    if k == 0 and r["plays"]:
        i = rng.randrange(len(r["plays"]))
        r["plays"][i]["seat"] = (r["plays"][i]["seat"] + 1) % 3
    elif k == 1 and r["plays"]:
        i = rng.randrange(len(r["plays"]))
        r["plays"][i]["cards"] = rng.choice(["", "3", "XD", "2222", "34567", "33"])
    elif k == 2:
        r["plays"] = r["plays"][: rng.randrange(len(r["plays"]) + 1)]
    elif k == 3:
        r["result"]["scores"] = [x + 1 for x in r["result"]["scores"]]
    elif k == 4:
        r["bids"] = [{"seat": r["first_bidder"], "bid": rng.choice([0, 1, 2, 3, 4])}]
    else:
        r["landlord"] = (r["landlord"] + 1) % 3
    return r


def test_fast_path_agrees_with_the_full_replay(tmp_path):
    rng = random.Random(5)
    recs = list(simulate(40, "random", seed=9))
    recs += [_mutations(r, rng) for r in recs for _ in range(3)]
    path = write_jsonl(tmp_path / "g.jsonl", recs)
    got = list(analyze_files([path], solve_below=0, chunk_size=17))
    assert len(got) == len(recs)
    statuses = set()
    for g, rec in zip(got, recs):
        rep = replay_record(rec)
        statuses.add(rep.status)
        want = {"ok": "valid", "mismatch": "valid", "invalid": "invalid", "incomplete": "incomplete"}[rep.status]
        assert g.status == want, (g.line, rep.reason)
        if rep.status in ("ok", "mismatch"):
            assert g.result == rep.result.to_dict()
            assert g.landlord == rep.landlord
            assert g.result_disagrees == list(rep.disagreements)
        if rep.status == "invalid":
            assert g.move == rep.index + 1 and g.phase == rep.phase
            assert rep.reason.endswith(g.reason)
    assert statuses == {"ok", "mismatch", "invalid", "incomplete"}


def test_records_without_rules_take_the_default(tmp_path):
    rec = record_to_dict(record_from_game(random_game(3, rules="douzero")))
    del rec["rules"]
    path = write_jsonl(tmp_path / "g.jsonl", [rec])
    (g,) = analyze_files([path], rules="douzero", solve_below=0)
    assert g.rules == "douzero" and g.status == "valid"


def test_missing_file_and_refused_pickle_are_reported(tmp_path):
    class Evil:
        def __reduce__(self):
            return (open, (str(tmp_path / "pwned"), "w"))

    evil = tmp_path / "evil.pkl"
    evil.write_bytes(pickle.dumps([Evil()]))
    res = list(analyze_files([str(evil), str(tmp_path / "nope.jsonl"), str(CORPUS / "deals.pkl")]))
    assert not (tmp_path / "pwned").exists()
    assert (res[0].status, res[0].line) == ("invalid", 0) and "refused" in res[0].reason
    assert (res[1].status, res[1].line) == ("invalid", 0) and "No such file" in res[1].reason
    deals = res[2:]
    assert [g.status for g in deals] == ["deal"] * 4 + ["invalid"]
    d = deals[0].deal
    assert [card_count(parse_cards(h)) for h in d["hands"]] == [20, 17, 17]
    assert len(d["min_plays"]) == 3 and all(1 <= m <= 20 for m in d["min_plays"])


def test_botzone_inputs(samples_dir):
    files = [str(samples_dir / "botzone" / "ftl2_full_game-log.txt"),
             str(samples_dir / "botzone" / "ftl2_partial_game-log.txt"),
             str(CORPUS / "botzone_game.json")]
    full, partial, ours = analyze_files(files, solve_below=0)
    assert full.format == "botzone-transcript" and full.status == "valid"
    assert full.result["scores"] == [-24, 12, 12] and full.result_disagrees == []
    assert partial.status == "incomplete" and "nobody went out" in partial.reason
    assert ours.format == "botzone-log" and ours.status == "valid"


# The mistake search against a plain-Python twin ------------------------------------------------


def _random_endgame(rng: random.Random, sizes):
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    hands, i = [], 0
    for n in sizes:
        h = 0
        for r in deck[i:i + n]:
            h += 1 << (4 * r)
        hands.append(h)
        i += n
    return hands


def naive_mistakes(hands, landlord, plays, flags, rules=None):
    """Mistakes the slow way: a play is a mistake when the mover had winning plays
    (by plain minimax over every sub-multiset; under Laizi ``rules``, over every
    reading of one) and the play made is not one of them."""
    rel = lambda s: (s - landlord) % 3  # noqa: E731 - position seat of an absolute seat
    h = [0, 0, 0]
    for s in range(3):
        h[rel(s)] = hands[s]
    prev, last_by = 0, 0
    out = []
    for i, (seat, play) in enumerate(plays):
        t = rel(seat)
        if rules is not None and rules.is_laizi:
            win = naive_solver.laizi_winning_plays(tuple(h), t, prev, last_by, rules, {})
        else:
            win = naive_solver.winning_plays(tuple(h), t, prev, last_by, flags)
        made = (0, 0) if play.is_pass else (play.cards, play.kind)
        if win and made not in win:
            names = sorted("pass" if c == 0 else Play(c, k).notation(rules) for c, k in win)
            out.append((i + 1, seat, names))
        if play.is_pass:
            if (t + 1) % 3 == last_by:
                prev, last_by = 0, 0
        else:
            h[t] -= play.cards
            if h[t] == 0:
                break
            prev, last_by = play.kind, t
    return out


def _random_line(hands, landlord, rules, rng):
    """A random legal continuation to the end, by the plain-Python generator."""
    h = list(hands)
    seat, prev, last_by = landlord, 0, None
    plays = []
    while True:
        if rules.is_laizi:
            options = list(naive_solver.laizi_plays(h[seat], prev, rules))
        else:
            options = list(naive_solver.plays(h[seat], prev, rules.flags))
        if prev and (not options or rng.random() < 0.35):
            plays.append((seat, Play.pass_()))
            seat = (seat + 1) % 3
            if seat == last_by:
                prev, last_by = 0, None
            continue
        c, k = rng.choice(options)
        plays.append((seat, Play(c, k)))
        h[seat] -= c
        if h[seat] == 0:
            return plays
        prev, last_by = k, seat
        seat = (seat + 1) % 3


@pytest.mark.parametrize("seed", range(30))
def test_mistakes_match_the_naive_twin(seed):
    rng = random.Random(f"mistakes-{seed}")
    rules = [Rules.parse("standard"), Rules.parse("douzero")][seed % 2]
    sizes = [rng.randint(1, 5) for _ in range(3)]
    hands = _random_endgame(rng, sizes)
    landlord = rng.randrange(3)
    plays = _random_line(hands, landlord, rules, rng)
    r = find_mistakes(hands, landlord, plays, rules, solve_below=20, node_limit=None)
    got = [(m.move, m.seat, m.winning) for m in r.mistakes]
    assert got == naive_mistakes(hands, landlord, plays, rules.flags), \
        [format_cards(h) for h in hands]
    assert r.unchecked == 0 and r.start_move == 1
    roles = {landlord: "landlord", (landlord + 1) % 3: "farmer1", (landlord + 2) % 3: "farmer2"}
    assert all(m.role == roles[m.seat] for m in r.mistakes)


@pytest.mark.parametrize("seed", range(12))
def test_laizi_mistakes_match_the_naive_twin(seed):
    """Under Laizi rules (a random wild rank, laizi in the hands), against
    the plain minimax over every reading."""
    rng = random.Random(f"laizi-mistakes-{seed}")
    spec = ("laizi", "tiandi", "laizi,natural_first=on")[seed % 3]
    base = Rules.parse(spec)
    wild = rng.sample(range(13), base.wild_ranks)
    rules = base.with_wild(wild)
    deck = [w for w in wild for _ in range(2)] + [r for r in range(13) if r not in wild for _ in range(4)]
    rng.shuffle(deck)
    hands, i = [], 0
    for n in [rng.randint(1, 4) for _ in range(3)]:
        hands.append(sum(1 << (4 * r) for r in deck[i:i + n]))
        i += n
    landlord = rng.randrange(3)
    plays = _random_line(hands, landlord, rules, rng)
    r = find_mistakes(hands, landlord, plays, rules, solve_below=20, node_limit=None)
    got = [(m.move, m.seat, m.winning) for m in r.mistakes]
    assert got == naive_mistakes(hands, landlord, plays, rules.flags, rules), \
        ([format_cards(h) for h in hands], rules.wild_text())
    assert r.unchecked == 0


@pytest.mark.parametrize("spec", ["laizi", "tiandi"])
def test_laizi_games_are_analysed_with_their_wild_ranks(tmp_path, spec):
    """Self-play records under Laizi rules: every game valid with the result
    the replay gives, the endgames searched, the bids reviewed knowing only
    the wild ranks turned up before the bidding."""
    recs = list(simulate(6, "heuristic", seed=5, rules=spec))
    path = write_jsonl(tmp_path / "g.jsonl", recs)
    got = list(analyze_files([path], solve_below=12, bids=True, bid_samples=8))
    assert len(got) == len(recs)
    for g, rec in zip(got, recs):
        rep = replay_record(rec)
        assert g.status == "valid" and rep.status == "ok"
        assert g.result == rep.result.to_dict()
        assert g.bid_review and all(b["samples"] > 0 for b in g.bid_review)
    assert sum(g.positions_solved for g in got) > 0


def test_solve_below_starts_the_search_late_and_limits_never_make_mistakes():
    g = random_game(11)
    hands = list(g.dealt)
    hands[g.landlord] += g.bottom
    full = find_mistakes(hands, g.landlord, g.plays, g.rules, solve_below=6, node_limit=None)
    # The first checked move is the first at which every hand has at most 6 cards.
    h = list(hands)
    first = None
    for i, (s, p) in enumerate(g.plays):
        if all(card_count(x) <= 6 for x in h):
            first = i + 1
            break
        h[s] -= p.cards
    assert full.start_move == first
    assert all(m.move >= first for m in full.mistakes)
    starved = find_mistakes(hands, g.landlord, g.plays, g.rules, solve_below=20, node_limit=1)
    assert starved.mistakes == [] and starved.unchecked > 0
    assert find_mistakes(hands, g.landlord, g.plays, g.rules, solve_below=0).start_move is None


def test_mistakes_in_analyze_files_name_the_players(tmp_path):
    path = str(CORPUS / "selfplay.jsonl")
    res = [g for g in analyze_files([path], solve_below=10) if g.mistakes]
    assert res, "the corpus has games with mistakes"
    for g in res:
        rec = parse_record(open(path).read().splitlines()[g.line - 1])
        for m in g.mistakes:
            assert m.player == rec.players[m.seat] and m.winning and m.played not in m.winning


# Summary and outputs ---------------------------------------------------------------------------


def test_summary_by_hand():
    def game(ll, winner, mult, scores, players=("a", "b", "c"), status="valid", mistakes=()):
        return GameAnalysis("f", 1, "ddz-record/1", status, rules="standard", landlord=ll, players=list(players),
                            result={"winner": winner, "base": 1, "multiplier": mult, "bombs": mult // 2,
                                    "spring": False, "anti_spring": False, "scores": scores},
                            mistakes=[Mistake(5, s, "landlord" if s == ll else "farmer1", "3", ["4"]) for s in mistakes])

    gs = [game(0, "landlord", 1, [2, -1, -1]), game(1, "farmers", 2, [2, -4, 2], mistakes=[1, 1]),
          game(2, "landlord", 4, [-4, -4, 8], players=("c", "a", "b"), mistakes=[0]),
          GameAnalysis("f", 9, "ddz-record/1", "invalid", reason="x")]
    s = summarize(gs)
    assert (s["games"], s["valid"], s["invalid"], s["landlord_wins"]) == (4, 3, 1, 2)
    assert s["landlord_win_rate"] == round(2 / 3, 4) and s["mean_multiplier"] == round(7 / 3, 4)
    assert s["mistakes"] == 3 and s["games_with_mistakes"] == 2
    a, b, c = (s["players"][n] for n in "abc")
    assert (a["games"], a["wins"], a["score"], a["mistakes"]) == (3, 2, 2 + 2 - 4, 0)
    assert (b["games"], b["wins"], b["landlord_games"], b["score"], b["mistakes"]) == (3, 1, 2, -1 - 4 + 8, 2)
    assert (c["games"], c["wins"], c["score"], c["mistakes"]) == (3, 1, -1 + 2 - 4, 1)


def test_flat_rows_round_trip():
    res = list(analyze_files([str(CORPUS / "selfplay.jsonl"), str(CORPUS / "deals.pkl")], solve_below=10))
    for g in res:
        back = from_flat_row({k: str(v) for k, v in flat_row(g).items()})
        assert (back.key, back.status, back.result, back.landlord, back.players, back.move, back.phase) == \
            (g.key, g.status, g.result, g.landlord, g.players, g.move, g.phase)
        assert [m.to_dict() for m in back.mistakes] == [m.to_dict() for m in g.mistakes]
    assert summarize(from_flat_row({k: str(v) for k, v in flat_row(g).items()}) for g in res) == \
        {**summarize(res), "rules": summarize(res)["rules"]}


def test_cli_table_json_csv(capsys):
    files = [str(CORPUS / "selfplay.jsonl"), str(CORPUS / "deals.pkl")]
    code, out, err = run_cli(["analyze", *files, "--format", "json", "--workers", "1"], capsys)
    assert code == 3  # invalid games in the corpus
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 18 + 5 + 1 and "summary" in lines[-1]
    s = lines[-1]["summary"]
    assert (s["games"], s["valid"], s["invalid"], s["deals"], s["result_disagrees"]) == (23, 13, 6, 4, 1)
    assert s["rules_default"] == "standard"
    assert "invalid: " in err and "selfplay.jsonl:13: move 1:" in err
    code, out, err = run_cli(["analyze", files[0], "--format", "csv", "--workers", "1", "--solve-below", "0"], capsys)
    games, _, summary = out.partition("\n\n")
    rows = list(csv.DictReader(io.StringIO(games)))
    assert len(rows) == 18 and rows[12]["status"] == "invalid" and rows[12]["move"] == "1"
    srows = list(csv.reader(io.StringIO(summary)))
    assert srows[0] == ["section", "key", "value"] and ["summary", "games", "18"] in srows
    code, out, err = run_cli(["analyze", files[0], "--workers", "1", "--solve-below", "0"], capsys)
    assert "landlord win rate" in out and "ann" in out and "broken-wrong-turn" in out


def test_cli_usage_errors(capsys, tmp_path):
    code, out, err = run_cli(["analyze", str(CORPUS / "deals.pkl"), "--resume"], capsys)
    assert code == 2 and "--resume needs --out" in err
    code, out, err = run_cli(["analyze", str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2 and "does not exist" in err
    src = tmp_path / "g.jsonl"
    shutil.copy(CORPUS / "selfplay.jsonl", src)
    code, out, err = run_cli(["analyze", str(src), "--out", str(src)], capsys)
    assert code == 2 and "also an input file" in err
    assert src.read_bytes() == (CORPUS / "selfplay.jsonl").read_bytes()


# --out and --resume ----------------------------------------------------------------------------


def _no_resumed(text: str) -> str:
    return re.sub(r'"resumed":\d+|summary,resumed,\d+', "", text)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_resume_after_an_interruption_loses_nothing(tmp_path, capsys, fmt):
    src = tmp_path / "games.jsonl"
    shutil.copy(CORPUS / "selfplay.jsonl", src)
    full = tmp_path / f"full.{fmt}"
    args = ["analyze", str(src), "--format", fmt, "--workers", "1", "--solve-below", "8"]
    code, out, _ = run_cli(args + ["--out", str(full)], capsys)
    whole = full.read_text()
    summary_full = out
    # An interrupted run: the first lines, then half a line.
    lines = whole.splitlines(keepends=True)
    part = tmp_path / f"part.{fmt}"
    keep = 7 if fmt == "json" else 8  # csv: header + 7 games
    part.write_text("".join(lines[:keep]) + lines[keep][:25])
    code, out, err = run_cli(args + ["--out", str(part), "--resume"], capsys)
    assert part.read_text() == whole
    assert "7" in out and _no_resumed(out) == _no_resumed(summary_full)
    assert "resumed: 7 game(s)" in err
    # Resuming a complete file analyses nothing and changes nothing.
    code, out, err = run_cli(args + ["--out", str(part), "--resume"], capsys)
    assert part.read_text() == whole and "18 game(s) already" in err
    assert len(load_results(str(part))) == 18


def test_load_results_rejects_foreign_files(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"a": 1}\n{"b": 2}\n')
    with pytest.raises(Exception, match="lacks file"):
        load_results(str(p))


# Workers and Dask -------------------------------------------------------------------------------


def test_workers_give_the_same_results(tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", list(simulate(40, "heuristic", seed=4)) + ["{bad"])
    kw = dict(solve_below=9, chunk_size=3)
    one = [g.to_dict() for g in analyze_files([path], workers=1, **kw)]
    two = [g.to_dict() for g in analyze_files([path], workers=2, **kw)]
    assert one == two and len(one) == 41
    seen = []
    list(analyze_files([path], workers=2, progress=lambda d, t: seen.append((d, t)), **kw))
    assert seen[0] == (0, 41) and seen[-1] == (41, 41) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_large_inputs_stream_with_the_same_results(tmp_path, monkeypatch):
    """Past READ_AHEAD items the input is read chunk by chunk (no total known):
    the same results in the same order, with one worker or two."""
    import ddz_tools.analysis.analyze.runners as analyze_mod

    path = write_jsonl(tmp_path / "g.jsonl", list(simulate(30, "heuristic", seed=6)) + ["{bad"])
    kw = dict(solve_below=0, chunk_size=2)  # read-ahead: 4 chunks a worker, under the 31 items
    whole = [g.to_dict() for g in analyze_files([path], **kw)]
    monkeypatch.setattr(analyze_mod, "READ_AHEAD", 5)
    for workers in (1, 2):
        seen = []
        streamed = [g.to_dict() for g in analyze_files([path], workers=workers,
                                                       progress=lambda d, t: seen.append((d, t)), **kw)]
        assert streamed == whole and len(whole) == 31
        assert seen[0] == (0, None) and seen[-1] == (31, None)


def test_dask_local_cluster_gives_the_same_results(tmp_path, capsys):
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    path = write_jsonl(tmp_path / "g.jsonl", list(simulate(30, "heuristic", seed=6)))
    files = [path, str(CORPUS / "deals.pkl")]
    local = [g.to_dict() for g in analyze_files(files, solve_below=9, chunk_size=4)]
    cli_args = ["analyze", *files, "--solve-below", "9", "--format", "json"]
    _, cli_local, _ = run_cli(cli_args + ["--workers", "1"], capsys)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        via_client = [g.to_dict() for g in analyze_files(files, solve_below=9, chunk_size=4, scheduler=client)]
        via_address = [g.to_dict() for g in analyze_files(files, solve_below=9, chunk_size=4,
                                                          scheduler=cluster.scheduler_address)]
        _, cli_dask, _ = run_cli(cli_args + ["--scheduler", cluster.scheduler_address], capsys)
    assert via_client == local and via_address == local
    assert cli_dask == cli_local and len(cli_local.splitlines()) == 30 + 5 + 1


# Bid review -------------------------------------------------------------------------------------


@pytest.mark.parametrize("inference", [False, True])
def test_bid_review_matches_the_evaluator(inference):
    """The bid review is the evaluator's verdict from what each seat knew;
    ``review_inference`` has it read the earlier actions by the player model."""
    from ddz_tools.analysis.bid import evaluate_bid

    rec = parse_record(next(simulate(1, "heuristic", seed=12)))
    opts = AnalyzeOptions(bids=True, bid_samples=60, seed=3, review_inference=inference)
    entries, why = review_bids(rec, opts)
    assert why is None and len(entries) == len(rec.bids)
    before = []
    for e, (seat, bid) in zip(entries, rec.bids):
        ev = evaluate_bid(rec.hands[seat], seat=len(before), before=tuple(before), samples=60, seed=3,
                          workers=1, rules=rec.rules, inference=inference)
        assert (e["seat"], e["best"], e["samples"]) == (seat, ev.recommendation, ev.samples)
        assert e["agrees"] == (e["bid"] == e["best"]) and e["cost"] >= 0
        before.append(bid)
    # A call-grab auction: every action against the call evaluator, from what the seat knew.
    from ddz_tools.analysis.bid import evaluate_call

    happy = parse_record(next(simulate(1, "heuristic", seed=12, rules="happy")))
    entries, why = review_bids(happy, opts)
    assert why is None and len(entries) == len(happy.bids)
    for k, (e, (seat, act)) in enumerate(zip(entries, happy.bids)):
        ev = evaluate_call(happy.hands[seat], (seat - happy.first_bidder) % 3, [a for _, a in happy.bids[:k]],
                           samples=60, seed=3, workers=1, rules=happy.rules, inference=inference)
        assert (e["seat"], e["bid"], e["best"]) == (seat, ev.what if act else "pass", ev.recommendation)


def test_bid_reviews_in_the_summary_and_csv():
    g = GameAnalysis("f", 1, "ddz-record/1", "valid", landlord=0, players=["a", "b", "c"],
                     result={"winner": "landlord", "base": 2, "multiplier": 1, "bombs": 0, "spring": False,
                             "anti_spring": False, "scores": [4, -2, -2]},
                     bid_review=[{"seat": 1, "bid": "pass", "best": "pass", "agrees": True, "cost": 0.0},
                                 {"seat": 2, "bid": "1", "best": "pass", "agrees": False, "cost": 0.25},
                                 {"seat": 0, "bid": "2", "best": "3", "agrees": False, "cost": 0.5}])
    s = summarize([g])
    assert (s["bids_reviewed"], s["bids_agreeing"], s["bid_cost"]) == (3, 1, 0.75)
    assert (s["players"]["b"]["bids_reviewed"], s["players"]["b"]["bids_agreeing"]) == (1, 1)
    back = from_flat_row({k: str(v) for k, v in flat_row(g).items()})
    assert summarize([back]) == s


def test_resume_refuses_a_file_of_the_other_format(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    args = ["analyze", str(CORPUS / "deals.pkl"), "--workers", "1", "--out", str(out)]
    run_cli(args, capsys)
    code, _, err = run_cli(args + ["--resume", "--format", "csv"], capsys)
    assert code == 2 and "holds JSON Lines" in err
    code, _, err = run_cli(args + ["--resume", "--format", "table"], capsys)
    assert code == 3 and "5 game(s) already" in err


# Summary invariants (hypothesis) ------------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402


@st.composite
def analyses(draw):
    out = []
    for i in range(draw(st.integers(0, 12))):
        status = draw(st.sampled_from(["valid", "valid", "invalid", "incomplete", "deal"]))
        names = draw(st.permutations(["ann", "bo", "cy"])) if draw(st.booleans()) else None
        ll = draw(st.integers(0, 2))
        g = GameAnalysis(f"f{i % 3}", i + 1, "ddz-record/1", status, players=list(names) if names else None,
                         landlord=ll if status in ("valid", "incomplete") else None)
        if status == "valid":
            stake = draw(st.sampled_from([1, 2, 3])) * 2 ** draw(st.integers(0, 3))
            won = draw(st.booleans())
            scores = [(2 * stake if s == ll else -stake) * (1 if won else -1) for s in range(3)]
            g.result = {"winner": "landlord" if won else "farmers", "base": 1, "multiplier": stake,
                        "bombs": 0, "spring": False, "anti_spring": False, "scores": scores}
            g.mistakes = [Mistake(draw(st.integers(1, 40)), s, "landlord" if s == ll else "farmer1", "3", [])
                          for s in draw(st.lists(st.integers(0, 2), max_size=3))]
        out.append(g)
    return out


@settings(max_examples=60, deadline=None)
@given(analyses(), st.randoms(use_true_random=False))
def test_summary_invariants(gs, rnd):
    s = summarize(gs)
    assert s["games"] == len(gs) == s["valid"] + s["invalid"] + s["incomplete"] + s["deals"]
    assert s["landlord_wins"] + s["farmer_wins"] == s["valid"]
    assert s["mistakes"] == sum(len(g.mistakes) for g in gs)
    assert sum(p["score"] for p in s["players"].values()) == 0  # every game is zero-sum
    assert sum(p["games"] for p in s["players"].values()) == 3 * sum(
        1 for g in gs if g.status == "valid" and g.players)
    assert sum(p["mistakes"] for p in s["players"].values()) == sum(
        len(g.mistakes) for g in gs if g.players)
    shuffled = list(gs)
    rnd.shuffle(shuffled)
    assert summarize(shuffled) == s
    k = len(gs) // 2
    assert summarize(gs[:k] + gs[k:]) == s


def test_skip_skips_exactly_the_given_keys():
    path = str(CORPUS / "selfplay.jsonl")
    every = [g.key for g in analyze_files([path], solve_below=0)]
    skip = set(every[::3])
    rest = [g.key for g in analyze_files([path], solve_below=0, skip=skip)]
    assert rest == [k for k in every if k not in skip]


def test_happy_games_are_analysed_with_their_stages_and_doubles_reviewed(tmp_path):
    """Happy Dou Dizhu self-play records: valid, the replayed result with the
    stages, the endgames searched, each seat's double reviewed by the
    doubling evaluator (as ``evaluate_double`` gives it), and the flat row
    reads back."""
    from ddz_tools.analysis.bid import evaluate_double
    from ddz_tools.engines.records import game_before_play

    recs = list(simulate(2, "heuristic", seed=8, rules="happy"))
    path = write_jsonl(tmp_path / "h.jsonl", recs)
    got = list(analyze_files([path], solve_below=6, bids=True, bid_samples=100))
    for g, rec in zip(got, recs):
        assert g.status == "valid" and g.result == replay_record(rec).result.to_dict()
        assert [b["seat"] for b in g.double_review] == [(rec["landlord"] + k) % 3 for k in (1, 2, 0)]
        first = g.double_review[0]
        game = game_before_play(parse_record(rec))
        ev = evaluate_double(parse_record(rec).hands[first["seat"]], parse_record(rec).bottom, "first", (),
                             game.base, samples=100, seed=0, workers=1, rules="happy")
        assert first["best"] == ev.recommendation and first["double"] == f"x{rec['doubles'][first['seat']]}"
        back = from_flat_row({k: str(v) for k, v in flat_row(g).items()})
        assert [(b["seat"], b["double"], b["best"]) for b in back.double_review] == \
            [(b["seat"], b["double"], b["best"]) for b in g.double_review]
    s = summarize(got)
    assert s["doubles_reviewed"] == 6 and 0 <= s["doubles_agreeing"] <= 6 and s["double_cost"] >= 0


def _show_call(rec: dict, row: dict, base: int) -> dict:
    """The arguments of ``evaluate_show`` for a show review row, built from
    the record by hand (what the seat knew at that moment)."""
    ll, first, stage = rec["landlord"], rec["first_bidder"], row["stage"]
    if stage == "first-play":
        return {"hand": rec["deal"]["hands"][ll] + rec["deal"]["bottom"], "stage": stage,
                "bottom": rec["deal"]["bottom"], "base": base,
                "before": [rec["doubles"][(ll + r) % 3] for r in (1, 2, 0)],
                "shown": [x["stage"] for x in rec.get("show") or [] if x["stage"] != "first-play"]}
    return {"hand": "" if stage == "before-deal" else rec["deal"]["hands"][row["seat"]], "stage": stage,
            "seat": (row["seat"] - first) % 3}


def _check_show_rows(rec: dict, rows: list, samples: int = 60) -> None:
    """Every row of a show review equals a direct evaluator call, and its
    verdict follows from the figures."""
    from ddz_tools.analysis.bid import evaluate_show
    from ddz_tools.engines.records import game_before_play

    record = parse_record(rec)
    base = game_before_play(record).base
    for row in rows:
        ev = evaluate_show(**_show_call(rec, row, base), samples=samples, seed=0, workers=1, rules=record.rules)
        assert (row["best"], row["factor"], row["samples"]) == (ev.recommendation, ev.factor, ev.samples)
        assert row["expected"] == {c: round(v, 4) for c, v in ev.expected_score.items()}
        assert row["agrees"] == (row["show"] == row["best"])
        assert row["cost"] == round(ev.expected_score[row["best"]] - ev.expected_score[row["show"]], 4) >= 0
        assert "mistake" not in row      # a stake decision is against the evaluator or not, never a mistake
        assert row["margin_ci"][0] <= row["margin"] <= row["margin_ci"][1]


def test_bundled_happy_games_review_every_seats_show_decisions():
    """data/happy_games.jsonl with --bids: no seat showed during the deal, so
    each seat's choice not to show with its 17 cards dealt (deal:17, x3) is
    reviewed in auction order, then the landlord's first play; each row is
    the show evaluator's verdict from what the seat knew.  The notalon games
    (show=off) have none; the summary counts them and the CSV reads back."""
    path = str(REPO / "data" / "happy_games.jsonl")
    recs = [json.loads(line) for line in open(path, encoding="utf-8")]
    got = list(analyze_files([path], solve_below=0, bids=True, bid_samples=60, workers=1))
    reviewed = 0
    for g, rec in zip(got, recs):
        assert g.status == "valid"
        if rec["rules"]["preset"] == "notalon":
            assert g.show_review is None
            continue
        first, ll = rec["first_bidder"], rec["landlord"]
        assert [(b["seat"], b["stage"], b["show"]) for b in g.show_review] == \
            [((first + k) % 3, "deal:17", "no") for k in range(3)] + \
            [(ll, "first-play", "show" if {"seat": ll, "stage": "first-play"} in rec["show"] else "no")]
        assert [b["role"] for b in g.show_review][-1] == "landlord"
        _check_show_rows(rec, g.show_review)
        reviewed += len(g.show_review)
        back = from_flat_row({k: str(v) for k, v in flat_row(g).items()})
        keys = ("seat", "stage", "show", "best", "cost", "agrees")
        assert [tuple(b[k] for k in keys) for b in back.show_review] == \
            [tuple(b[k] for k in keys) for b in g.show_review]
    s = summarize(got)
    assert s["shows_reviewed"] == reviewed == 20
    assert s["shows_agreeing"] == sum(b["agrees"] for g in got for b in g.show_review or [])
    assert "show_mistakes" not in s and s["mistakes"] == 0
    stake = [b for g in got for b in (g.bid_review or []) + (g.double_review or []) + (g.show_review or [])]
    assert (s["stake_decisions"], s["stake_against"]) == (len(stake), sum(not b["agrees"] for b in stake))
    assert s["show_cost"] == round(sum(b["cost"] for g in got for b in g.show_review or []), 4)


def _happy_record(shows: "list | None", rules: str = "happy") -> dict:
    """A heuristic game under ``rules`` with the ``show`` field replaced (no
    stored result: the shows change the stake)."""
    rec = next(iter(simulate(1, "heuristic", seed=3, rules=rules)))
    rec["result"] = None
    if shows is not None:
        rec["show"] = shows
    return rec


def test_constructed_shows_are_reviewed_where_the_record_knows_the_cards(tmp_path):
    """A show before the deal (no cards) and one with the whole hand dealt
    are reviewed as shows; a seat that showed is not reviewed for not
    showing; a show at deal:5 is not reviewed (the record does not say which
    five cards), with a note; the landlord's first-play show is reviewed with
    the farmers' earlier shows merged, unless he showed during the deal."""
    base = _happy_record([])
    ll, first = base["landlord"], base["first_bidder"]
    f1, f2 = (ll + 1) % 3, (ll + 2) % 3
    one = _happy_record([{"seat": f1, "stage": "before-deal"}, {"seat": ll, "stage": "deal:17"}])
    two = _happy_record([{"seat": f2, "stage": "deal:5"}, {"seat": ll, "stage": "first-play"}])
    path = write_jsonl(tmp_path / "c.jsonl", [one, two])
    g1, g2 = analyze_files([path], solve_below=0, bids=True, bid_samples=60, workers=1)
    assert g1.status == g2.status == "valid"
    place = {s: (s - first) % 3 for s in range(3)}
    assert [(b["seat"], b["stage"], b["show"]) for b in g1.show_review] == \
        [(f1, "before-deal", "show")] + sorted([(ll, "deal:17", "show"), (f2, "deal:17", "no")],
                                               key=lambda x: place[x[0]])
    assert g1.show_review[0]["factor"] == 5 and not any("show review" in n for n in g1.notes)
    _check_show_rows(one, g1.show_review)
    assert [(b["seat"], b["stage"], b["show"]) for b in g2.show_review] == \
        sorted([(ll, "deal:17", "no"), (f1, "deal:17", "no")], key=lambda x: place[x[0]]) + \
        [(ll, "first-play", "show")]
    assert any(f"seat {f2}: the record does not say which 5 cards" in n for n in g2.notes)
    _check_show_rows(two, g2.show_review)


def test_show_review_under_dianle_reviews_the_first_play_only(tmp_path):
    """Under show=dianle no show is possible with the whole hand dealt (the
    last is before the 17th card), so only the landlord's first play is
    reviewed; rules without shows have no show review."""
    rec = _happy_record([], rules="happy,show=dianle")
    off = _happy_record(None, rules="happy,show=off")
    assert "show" not in off
    path = write_jsonl(tmp_path / "d.jsonl", [rec, off])
    g, h = analyze_files([path], solve_below=0, bids=True, bid_samples=60, workers=1)
    assert [(b["seat"], b["stage"]) for b in g.show_review] == [(rec["landlord"], "first-play")]
    _check_show_rows(rec, g.show_review)
    assert h.status == "valid" and h.show_review is None and h.double_review is not None


@pytest.mark.parametrize("seed", range(6))
def test_four_player_mistakes_match_the_naive_minimax(seed):
    """Four seats (two decks, the landlord in seat 0): a random legal line,
    each move a mistake exactly when the plain minimax says its side could
    win before it and not after."""
    from naive_solver_four import four_plays, four_wins, team

    rng = random.Random(f"four-mistakes-{seed}")
    rules = Rules.parse("four")
    deck = [r for r in range(13) for _ in range(8)] + [13, 13, 14, 14]
    picks = rng.sample(deck, 4 * 3)
    hands = [sum(1 << (4 * r) for r in picks[3 * s:3 * s + rng.randint(1, 3)]) for s in range(4)]
    h, seat, prev, last_by, plays, want = list(hands), 0, 0, 0, [], []
    memo: dict = {}
    while True:
        options = four_plays(h[seat], prev, rules)
        nxt = (seat + 1) % 4
        if prev and (not options or rng.random() < 0.35):
            after = (tuple(h), nxt, 0, 0) if nxt == last_by else (tuple(h), nxt, prev, last_by)
            play, gone = Play.pass_(), False
        else:
            c, k = rng.choice(options)
            left = list(h)
            left[seat] -= c
            after, play, gone = (tuple(left), nxt, k, seat), Play(c, k), left[seat] == 0
        before = four_wins(tuple(h), seat, prev, last_by, rules, memo)
        if before and not gone and (team(after[1], 4) == team(seat, 4)) != four_wins(*after, rules, memo):
            want.append((len(plays) + 1, seat))
        plays.append((seat, play))
        if gone:
            break
        h, seat, prev, last_by = list(after[0]), after[1], after[2], after[3]
    r = find_mistakes(hands, 0, plays, rules, solve_below=20, node_limit=None)
    assert [(m.move, m.seat) for m in r.mistakes] == want
    assert r.unchecked == 0 and all(m.role == ("landlord", "farmer1", "farmer2", "farmer3")[m.seat]
                                    for m in r.mistakes)


LAIZI_HAPPY = "laizi,bidding=call-grab,show=qq,doubling=per-pair,super_double=on"


def test_laizi_call_grab_calls_and_shows_are_reviewed(tmp_path):
    """Under Laizi rules with a call-grab auction and shows, every call and
    grab is reviewed by the call evaluator (knowing the wild ranks turned up
    before the bidding), every show decision by the show evaluator (during
    the deal the same, at the landlord's first play the deal's wild rank)
    and every double: none is refused."""
    recs = list(simulate(3, "heuristic", seed=1, rules=LAIZI_HAPPY))
    path = write_jsonl(tmp_path / "g.jsonl", recs)
    got = list(analyze_files([path], solve_below=0, bids=True, bid_samples=30, workers=1))
    assert len(got) == 3
    for g, rec in zip(got, recs):
        assert g.status == "valid", g.describe()
        assert not any("not available" in n or "failed" in n for n in g.notes), g.notes
        assert [b["seat"] for b in g.bid_review] == [s for s, _ in parse_record(rec).bids]
        assert all(b["bid"] in ("pass", "call", "grab") and b["samples"] > 0 for b in g.bid_review)
        assert len(g.show_review) == 4 and g.show_review[-1]["stage"] == "first-play"
        assert all(b["samples"] > 0 for b in g.show_review)
        assert len(g.double_review) == 3
    s = summarize(got)
    assert s["shows_reviewed"] == 12 and s["bids_reviewed"] == sum(len(g.bid_review) for g in got)
