"""Botzone FightTheLandlord2 import: transcripts, judge logs, round trips, broken input."""

from __future__ import annotations

import copy
import json

import pytest

from conftest import REPO
from ddz_tools.engines.botzone import import_file, import_judge_log, import_transcript, judge_log_from_game, sniff_text
from ddz_tools.core.cards import format_cards, pack_card_ids
from ddz_tools.core.errors import RecordError
from ddz_tools.engines.game import random_game
from ddz_tools.engines.records import record_to_dict, replay_record, validate_batch

SAMPLE_LOG = REPO / "data" / "botzone_sample_log.json"


def test_full_transcript_imports_and_scores_minus24_12_12(samples_dir):
    path = samples_dir / "botzone" / "ftl2_full_game-log.txt"
    want = [int(x) for x in (samples_dir / "botzone" / "ftl2_full_game-scores.txt").read_text().split()]
    assert want == [-24, 12, 12]
    rec = import_transcript(path.read_text(), scores=want)
    rep = replay_record(rec)
    assert rep.status == "ok" and list(rep.result.scores) == want      # stored scores agree
    assert rep.result.bombs == 2 and rep.result.winner == "farmers"
    assert rec.bids == [(0, 3)] and rep.landlord == 0 and rep.base == 3
    assert rec.extra["botzone"]["complete"] and rec.all_pass == "seat0"
    assert rec.plays[0] == (0, format_cards(pack_card_ids([11, 14, 17, 22, 24])))
    assert rec.play_ids[0] == [11, 14, 17, 22, 24]
    assert rec.hand_ids[0][:3] == [0, 3, 5] and sorted(rec.bottom_ids) == [43, 46, 50]
    # The seat that went out is farmer 1, with his last card id 42.
    assert rec.plays[-1] == (1, "K") and rec.play_ids[-1] == [42]          # 42 // 4 = 10: K
    # import_file finds the scores file next to the log.
    (via_file,) = import_file(str(path))
    assert via_file.result == {"scores": [-24, 12, 12]} and replay_record(via_file).status == "ok"


def test_partial_transcript_is_incomplete_not_a_crash(samples_dir):
    text = (samples_dir / "botzone" / "ftl2_partial_game-log.txt").read_text()
    rec = import_transcript(text)
    rep = replay_record(rec)
    assert rep.status == "incomplete"
    assert rec.bids == [(0, 0), (1, 0), (2, 0)]
    assert rep.landlord == 0 and rep.base == 1                          # Botzone's all-pass rule
    info = rec.extra["botzone"]
    assert not info["complete"] and "unanswered request at line" in info["reason"]
    assert sum(len(h) for h in rec.hand_ids) == 51
    assert validate_batch([rec]).status_name(0) == "incomplete"


def test_wrong_scores_are_flagged(samples_dir):
    text = (samples_dir / "botzone" / "ftl2_full_game-log.txt").read_text()
    rep = replay_record(import_transcript(text, scores=[3, -3, 0]))
    assert rep.status == "mismatch" and rep.disagreements == ("scores",)


def test_transcript_inconsistencies_are_errors(samples_dir):
    text = (samples_dir / "botzone" / "ftl2_full_game-log.txt").read_text()
    with pytest.raises(RecordError, match="Bot 2 answers a request for seat 1"):
        import_transcript(text.replace("Bot 1:", "Bot 2:", 1))
    # A dropped bot answer shows up in the next play request's history.
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("Bot 1:"))
    with pytest.raises(RecordError, match="history"):
        import_transcript("\n".join(lines[:k - 1] + lines[k + 1:]))
    with pytest.raises(RecordError, match="malformed JSON"):
        import_transcript("Judge: {not json}\n")


def test_sample_judge_log_imports():
    rec = import_judge_log(SAMPLE_LOG.read_text())
    rep = replay_record(rec)
    assert rep.status == "ok" and rep.result.bombs >= 1
    assert rec.result["scores"] == list(rep.result.scores)
    assert len(rec.bids) == 3 and rep.landlord == 2


@pytest.mark.parametrize("seed", range(12))
def test_judge_log_round_trip(seed):
    g = random_game(seed, first_bidder=0, all_pass="seat0")
    log = json.loads(json.dumps(judge_log_from_game(g, seed=seed)))
    rec = import_judge_log(log)
    rep = replay_record(rec)
    assert rep.status == "ok" and rep.result == g.result
    assert [(s, t) for s, t in rec.plays] == [(s, format_cards(p.cards)) for s, p in g.plays]
    assert rec.bids == g.bids
    assert rep.reason is None


def test_judge_log_variants():
    g = random_game(3, first_bidder=0, all_pass="seat0")
    log = judge_log_from_game(g)
    # initdata as a JSON string, responses as JSON strings, no allocation (hands from requests).
    alt = copy.deepcopy(log)
    alt["initdata"] = json.dumps({"publiccard": log["initdata"]["publiccard"]})
    for e in alt["log"]:
        for v in e.values():
            if "response" in v:
                v["response"] = json.dumps(v["response"])
    assert replay_record(import_judge_log(alt)).result == g.result
    # A cut log: incomplete, no crash.
    cut = copy.deepcopy(log)
    cut["log"] = cut["log"][:12]
    rec = import_judge_log(cut)
    assert replay_record(rec).status == "incomplete" and not rec.extra["botzone"]["complete"]
    # A judge verdict ends the game and keeps the offending move.
    bad = copy.deepcopy(log)
    idx = next(i for i, e in enumerate(bad["log"]) if "output" not in e and isinstance(
        next(iter(e.values()))["response"], list))
    seat = next(iter(bad["log"][idx]))
    bad["log"][idx][seat] = {"verdict": "MISSING_CARD", "response": [53, 52, 51]}
    rec = import_judge_log(bad)
    assert "MISSING_CARD" in rec.extra["botzone"]["reason"]
    assert replay_record(rec).status == "invalid"
    # Scores in the finish entry that disagree.
    wrong = copy.deepcopy(log)
    wrong["log"][-1]["output"]["display"]["0"] += 1
    wrong["log"][-1]["output"]["content"]["0"] += 1
    assert replay_record(import_judge_log(wrong)).status == "mismatch"


def test_judge_log_errors():
    with pytest.raises(RecordError, match="'log' list"):
        import_judge_log({"initdata": {}})
    with pytest.raises(RecordError, match="malformed JSON"):
        import_judge_log("{")
    g = random_game(1, first_bidder=0, all_pass="seat0")
    log = judge_log_from_game(g)
    log["initdata"]["allocation"][0][0] = 99
    with pytest.raises(RecordError, match="out of range"):
        import_judge_log(log)


def test_sniff_and_records_written_back(samples_dir):
    assert sniff_text(SAMPLE_LOG.read_text()) == "judge-log"
    text = (samples_dir / "botzone" / "ftl2_full_game-log.txt").read_text()
    assert sniff_text(text) == "transcript"
    assert sniff_text('{"schema": "ddz-record/1"}') is None
    d = record_to_dict(import_transcript(text, scores=[-24, 12, 12]))
    assert d["all_pass"] == "seat0" and d["deal"]["hand_ids"] is not None and "ids" in d["plays"][0]
    assert replay_record(json.dumps(d)).status == "ok"


def test_a_table_botzone_does_not_seat_has_no_judge_log():
    """The refusal is the variant's (``supports("botzone")``), raised as a RecordError."""
    from ddz_tools.variants.variant import variant_of
    with pytest.raises(RecordError) as exc:
        judge_log_from_game(random_game(1, "four", first_bidder=0))
    assert str(exc.value) == variant_of("four").supports("botzone")
    assert str(exc.value) == "Botzone's FightTheLandlord2 seats three players; a 4-player game has no Botzone log"
