"""Puzzle ratings: Glicko-2 as published, attempts by the solvers, and a
rating that orders puzzles and solvers sensibly."""

from __future__ import annotations

import json
import random

import pytest

from conftest import REPO, run_ddz
from ddz_tools.analysis.puzzles import Puzzle, PuzzleError, read_puzzles
from ddz_tools.analysis.puzzles.rating import SOLVERS, attempt, glicko2, rate_files, rate_puzzles, solve_rates
from ddz_tools.core.errors import ArgumentError

FILES = [str(REPO / "data" / "puzzles" / f"{name}.jsonl") for name in ("tiandi", "four", "laizi")]


@pytest.fixture(scope="module")
def puzzles():
    return [z for path in FILES for z in read_puzzles(path)][:60]


@pytest.fixture(scope="module")
def rated(puzzles):
    return rate_puzzles(puzzles, rounds=3, seed=5)


def test_glicko2_moves_as_the_results_say():
    assert glicko2(1500, 350, 0.06, [(1500, 350, 1)])[0] > 1500 > glicko2(1500, 350, 0.06, [(1500, 350, 0)])[0]
    r, rd, v = glicko2(1500, 80, 0.06, [])
    assert r == 1500 and rd > 80 and v == 0.06
    # a win over a much stronger player counts more than over a weaker one
    assert glicko2(1500, 100, 0.06, [(1900, 50, 1)])[0] > glicko2(1500, 100, 0.06, [(1100, 50, 1)])[0]
    # the deviation shrinks with games
    assert glicko2(1500, 200, 0.06, [(1500, 50, 0.5)] * 10)[1] < 200


def test_the_top_and_the_bottom_solvers(puzzles):
    rng = random.Random(0)
    assert all(attempt(z, SOLVERS["solver"], rng) for z in puzzles)
    assert not any(attempt(z, SOLVERS["heuristic"], rng) for z in puzzles)   # the natural play loses


def test_the_rating_orders_solvers_and_puzzles(rated):
    s = rated["solvers"]
    assert s["solver"]["rating"] == max(v["rating"] for v in s.values())
    assert s["heuristic"]["rating"] == min(v["rating"] for v in s.values())
    assert s["solver"]["solved"] == s["solver"]["attempts"] and s["heuristic"]["solved"] == 0
    rating = {z.id: z.rating for z in rated["puzzles"]}
    for name in ("random", "model-T2", "model-T1", "advisor-8", "solver-100", "solver-1000"):
        solved = {zid for zid, n, _, ok in rated["attempts"] if n == name and ok}
        assert solved and len(solved) < len(rating)
        low = [rating[z] for z in solved]
        high = [r for z, r in rating.items() if z not in solved]
        assert sum(low) / len(low) < sum(high) / len(high), name
    # a puzzle only the full solver solved rates above every puzzle a weaker solver did
    beaten = {zid for zid, n, _, ok in rated["attempts"] if n != "solver" and ok}
    hardest = [r for z, r in rating.items() if z not in beaten]
    assert hardest and min(hardest) > max(rating[z] for z in beaten)
    # every puzzle is rated below the solver and above the heuristic
    assert all(s["heuristic"]["rating"] < r < s["solver"]["rating"] for r in rating.values())
    assert all(0 < z.rating_deviation < 350 for z in rated["puzzles"])


def test_the_solve_rate_falls_with_the_rating(rated):
    rows = solve_rates(rated)
    assert sum(r["puzzles"] for r in rows) == len(rated["puzzles"])
    assert all(r["solver"] == 1.0 and r["heuristic"] == 0.0 for r in rows)
    assert rows[0]["random"] > rows[-1]["random"]


def test_the_same_seed_gives_the_same_ratings(puzzles):
    a, b = (rate_puzzles(puzzles[:12], rounds=2, seed=5) for _ in range(2))
    assert [(z.id, z.rating, z.rating_deviation) for z in a["puzzles"]] == \
        [(z.id, z.rating, z.rating_deviation) for z in b["puzzles"]]
    with pytest.raises(ArgumentError, match="twice"):
        rate_puzzles(puzzles[:2] * 2)


def test_rated_lines_read_back_and_are_checked(tmp_path, rated):
    z = rated["puzzles"][0]
    assert Puzzle.from_json(z.to_json()) == z and z.to_dict()["rating_deviation"] == z.rating_deviation
    d = json.loads(z.to_json())
    assert "rating_deviation" not in Puzzle.from_dict({**d, "rating": None, "rating_deviation": None}).to_dict()
    for bad in ({"rating_deviation": -1.0}, {"rating": None}, {"rating_deviation": "x"}):
        with pytest.raises(PuzzleError, match="rating"):
            Puzzle.from_dict({**d, **bad})


def test_files_rated_in_place_or_to_one_file(tmp_path):
    src = tmp_path / "a.jsonl"
    unrated = [{**json.loads(line), "rating": None} for line in open(FILES[0], encoding="utf-8") if line.strip()]
    src.write_text("".join(json.dumps({k: v for k, v in d.items() if k != "rating_deviation"}) + "\n"
                           for d in unrated))
    out = rate_files([str(src)], out=str(tmp_path / "b.jsonl"), rounds=1, seed=2)
    assert out["written"] == [str(tmp_path / "b.jsonl")] and out["puzzles"] == 12 and out["rules"] == {"tiandi": 12}
    assert all(z.rating is not None for z in read_puzzles(str(tmp_path / "b.jsonl")))
    assert all(z.rating is None for z in read_puzzles(str(src)))
    rate_files([str(src)], in_place=True, rounds=1, seed=2)
    assert [z.to_dict() for z in read_puzzles(str(src))] == \
        [z.to_dict() for z in read_puzzles(str(tmp_path / "b.jsonl"))]
    with pytest.raises(ArgumentError, match="out or in_place"):
        rate_files([str(src)], rounds=1)


def test_the_command(tmp_path):
    r = run_ddz("puzzles", "rate", FILES[0], "--out", tmp_path / "r.jsonl", "--rounds", "1", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["solvers"]["solver"]["solved"] == 12
    r = run_ddz("puzzles", "rate", FILES[0])
    assert r.returncode == 2 and r.stderr.strip() == "error: give --out or --in-place (one of them)"


def test_the_shipped_collection_rates_the_larger_positions_higher():
    """The rated collection (``make puzzles``): the endgames with the most
    cards in the hands, an expert's, rate above the small ones, a beginner's."""
    import glob

    found = [z for path in sorted(glob.glob(str(REPO / "data" / "puzzles" / "*.jsonl"))) for z in read_puzzles(path)]
    size = {z.id: sum(len(z.position.hand(s)) for s in z.position.seats) for z in found}
    small = [z.rating for z in found if size[z.id] < 20]
    large = [z.rating for z in found if size[z.id] >= 30]
    assert len(small) > 100 and len(large) > 20
    assert sum(large) / len(large) > sum(small) / len(small) + 100
