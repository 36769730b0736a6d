"""Whole-game review (``ddz_tools.analysis.review``): every move judged against the exact
solver, unknowns kept unknown, and agreement with analyze's endgame search."""

from __future__ import annotations

import json

import pytest

from ddz_tools.analysis.analyze import analyze_files, find_mistakes, summarize
from ddz_tools.core.cards import card_count, format_cards, parse_cards
from ddz_tools.core.errors import DdzError
from ddz_tools.engines.records import parse_record
from ddz_tools.analysis.review import (
    HIDDEN_THRESHOLDS,
    position_of,
    GameReview,
    classify_drop,
    replay_states,
    review_record,
)
from ddz_tools.core.rules import Play
from ddz_tools.engines.selfplay import simulate
from ddz_tools.engines.solver import Solver

NODES = 30_000


@pytest.fixture(scope="module")
def games():
    """Three heuristic self-play games, parsed, and their open reviews."""
    recs = [parse_record(r) for r in simulate(3, "heuristic", seed=11)]
    return [(rec, review_record(rec, "open", node_limit=NODES)) for rec in recs]


def test_one_review_per_move_with_the_hands_shrinking(games):
    for rec, r in games:
        assert [m.move for m in r.moves] == list(range(1, len(rec.plays) + 1))
        assert r.hands == [format_cards(h) for h in rec.hands] and r.bottom == format_cards(rec.bottom)
        counts = [17, 17, 17]
        counts[r.landlord] += 3
        for m, (seat, text) in zip(r.moves, rec.plays):
            assert m.seat == seat
            assert (m.play == "pass") == (text == "")
            if text:
                counts[seat] -= card_count(parse_cards(text.replace("-", "")))
            assert [len(h) for h in m.hands] == counts
        assert r.moves[-1].hands[r.moves[-1].seat] == ""


def test_values_chain_from_move_to_move(games):
    """The value after a move is the value before the next one, seen from the mover's side."""
    for rec, r in games:
        ms = r.moves
        team = [0 if m.seat == r.landlord else 1 for m in ms]
        for a, b, ta, tb in zip(ms, ms[1:], team, team[1:]):
            want = b.open_before if ta == tb else {"win": "loss", "loss": "win"}.get(b.open_before, "unknown")
            assert a.open_after == want
        assert ms[-1].open_after == "win"
        assert r.unknown == sum(m.open_before == "unknown" for m in ms)
        # Perfect information: a lost position stays lost whatever is played.
        for m in ms:
            assert not (m.open_before == "loss" and m.open_after == "win")


def test_flagged_moves_are_exactly_won_to_lost_and_the_better_plays_win(games):
    solver = Solver(16)
    for rec, r in games:
        states, _, _ = replay_states(rec)
        for m, st in zip(r.moves, states):
            assert (m.flag == "mistake") == (m.open_before == "win" and m.open_after == "loss")
            if not m.flag:
                assert m.better == []
                continue
            assert m.better and m.play not in m.better
            # Each better play, made in the real position, keeps the win for the mover's side.
            pos = position_of(st, rec.rules)
            for text in m.better:
                after = pos.push(Play.parse(text, rec.rules))
                if after.is_over:
                    continue
                res = solver.solve(after, line=False, node_limit=200_000).result
                if after.team_of(after.to_move) != pos.team_of(pos.to_move):
                    res = {"win": "loss", "loss": "win"}.get(res, res)
                assert res in ("win", "unknown")


def test_review_finds_the_endgame_mistakes_of_analyze(games):
    """Every mistake analyze's endgame search finds is flagged by the review
    (the review's budget is larger than an endgame position needs)."""
    for rec, r in games:
        states, _, plays = replay_states(rec)
        ms = find_mistakes(list(states[0].hands), r.landlord, plays, rec.rules, solve_below=8)
        for mistake in ms.mistakes:
            mv = r.moves[mistake.move - 1]
            assert mv.flag == "mistake" and sorted(mv.better) == sorted(mistake.winning)


def test_a_tiny_budget_leaves_positions_unknown_and_flags_nothing():
    rec = parse_record(next(simulate(1, "heuristic", seed=5)))
    r = review_record(rec, "open", node_limit=1)
    assert r.unknown > 0
    known = [m for m in r.moves if m.open_before != "unknown"]
    assert len(known) == len(r.moves) - r.unknown
    assert all(m.flag is None or (m.open_before == "win" and m.open_after == "loss") for m in r.moves)
    assert sum(s["unknown"] for s in r.seats) == r.unknown
    assert sum(s["moves"] for s in r.seats) == len(known)


def test_reviews_are_deterministic_and_round_trip(games):
    rec, r = games[0]
    again = review_record(rec, "open", node_limit=NODES)
    a, b = r.to_dict(), again.to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    back = GameReview.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back.moves == r.moves


def test_bad_modes_and_missing_advisor():
    rec = parse_record(next(simulate(1, "heuristic", seed=5)))
    with pytest.raises(DdzError, match="review mode"):
        review_record(rec, "closed")
    try:
        import ddz_tools.analysis.advise  # noqa: F401
    except ImportError:
        with pytest.raises(DdzError, match="advisor"):
            review_record(rec, "hidden")


def test_drop_classes():
    assert classify_drop(0.0) is None
    for name, t in HIDDEN_THRESHOLDS.items():
        assert classify_drop(t) == name
    assert classify_drop(HIDDEN_THRESHOLDS["inaccuracy"] - 0.001) is None


def test_analyze_files_reviews_and_summarises(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in simulate(2, "heuristic", seed=3)))
    res = list(analyze_files([str(path)], solve_below=0, review="open", review_nodes=5_000))
    assert all(g.review and len(g.review["moves"]) == len(json.loads(line)["plays"])
               for g, line in zip(res, path.read_text().splitlines()))
    s = summarize(res)
    assert s["review"]["games"] == 2
    assert s["review"]["moves"] == sum(x["moves"] for g in res for x in g.review["seats"])
    assert s["review"]["mistake"] == sum(m["flag"] == "mistake" for g in res for m in g.review["moves"])
    with pytest.raises(DdzError, match="review must be"):
        list(analyze_files([str(path)], review="closed"))


def test_hidden_review_uses_the_advisors_view():
    advise = pytest.importorskip("ddz_tools.analysis.advise")
    raw = next(simulate(1, "heuristic", seed=8))
    raw["plays"] = raw["plays"][:4]           # the opening: four advisor calls
    raw.pop("result", None)
    rec = parse_record(raw)
    opts = {"seed": 3, "samples": 32, "nodes": 500}
    r = review_record(rec, "hidden", advisor_options=opts)
    again = review_record(rec, "hidden", advisor_options=opts)
    assert [m.to_dict() for m in r.moves] == [m.to_dict() for m in again.moves]
    for m in r.moves:
        assert 0.0 <= m.p_after <= m.p_before <= 1.0     # the best play is the advisor's first
        assert m.hidden_flag == classify_drop(m.drop) and m.flag == m.hidden_flag
        assert m.open_before is None and m.advised
        view = advise.view_from_record(rec, m.move)
        assert m.advised in {c.play for c in advise.advise(view, seed=0, samples=32, nodes=500).candidates}
    seats = r.seats
    assert sum(s["hidden_moves"] for s in seats) == len(r.moves)
    assert sum(s["moves"] for s in seats) == len(r.moves)


def test_hidden_review_of_a_four_player_game():
    """Four seats: each move is judged on its seat's own view (a farmer's without the bottom)."""
    advise = pytest.importorskip("ddz_tools.analysis.advise")
    raw = next(simulate(1, "heuristic", seed=4, rules="four"))
    raw["plays"] = raw["plays"][:5]
    raw.pop("result", None)
    rec = parse_record(raw)
    opts = {"seed": 1, "samples": 16, "nodes": 0}
    r = review_record(rec, "hidden", advisor_options=opts)
    assert len(r.moves) == 5 and len(r.seats) == 4
    for m in r.moves:
        assert 0.0 <= m.p_after <= m.p_before <= 1.0 and m.advised
        view = advise.view_from_record(rec, m.move)
        assert view.players == 4 and (view.bottom is None) == (view.me != 0)
    assert sum(s["hidden_moves"] for s in r.seats) == 5
