"""Runs of the puzzle search (ddz_tools.analysis.puzzles.collection): files and self-play,
the journal, and a run killed part-way that resumes without losing or repeating a puzzle."""

from __future__ import annotations

import json

import pytest

from ddz_tools.analysis.puzzles import read_puzzles
from ddz_tools.analysis.puzzles.collection import find_puzzles, run_find

GAMES, SEED = 60, 3


class Killed(Exception):
    pass


def _lines(path) -> list:
    return [ln for ln in open(path, encoding="utf-8").read().splitlines() if ln.strip()]


def test_a_killed_run_resumes_without_losing_or_repeating(tmp_path):
    whole = tmp_path / "whole.jsonl"
    summary = run_find(str(whole), ["data/sample_games.jsonl"], games=GAMES, seed=SEED)
    expected = _lines(whole)
    assert summary["puzzles"] == len(expected) > 0 and summary["units"] == GAMES + 8

    out = tmp_path / "out.jsonl"
    stop_at = GAMES // 2

    def kill(done, total, found):
        if done >= stop_at:
            raise Killed

    with pytest.raises(Killed):
        run_find(str(out), ["data/sample_games.jsonl"], games=GAMES, seed=SEED, progress=kill)
    # As a kill can leave it: a unit's puzzles written but not its journal line, and half a line.
    unfinished = json.loads(expected[-1])
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(unfinished) + "\n" + expected[-1][:40])
    with open(str(out) + ".done", "a", encoding="utf-8") as f:
        f.write('{"unit": ["selfplay", "stan')
    resumed = run_find(str(out), ["data/sample_games.jsonl"], games=GAMES, seed=SEED, resume=True)
    assert _lines(out) == expected
    assert resumed["puzzles"] == summary["puzzles"] and resumed["positions"] == summary["positions"]
    assert len({z.id for z in read_puzzles(str(out))}) == len(expected)


def test_results_do_not_depend_on_the_workers():
    one = [(k, [z.id for z in found]) for k, found, _ in find_puzzles(games=12, seed=SEED, workers=1)]
    two = [(k, [z.id for z in found]) for k, found, _ in find_puzzles(games=12, seed=SEED, workers=2)]
    assert one == two and len(one) == 12


def test_the_shipped_collection_reads_back():
    import glob

    found = [z for path in sorted(glob.glob("data/puzzles/*.jsonl")) for z in read_puzzles(path)]
    assert len({z.id for z in found}) == len(found)
    assert {z.side for z in found} == {"me", "landlord", "farmers"}
    assert {"standard", "laizi", "tiandi", "four"} <= {z.position.rules.preset for z in found}
    assert all(z.moves and z.natural != z.moves[0].play and z.rating is not None and z.rating_deviation for z in found)


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_puzzles(tmp_path):
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    local = [(k, [z.to_json() for z in found]) for k, found, _ in find_puzzles(games=GAMES, seed=SEED)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        remote = [(k, [z.to_json() for z in found])
                  for k, found, _ in find_puzzles(games=GAMES, seed=SEED, scheduler=client)]
        out = tmp_path / "p.jsonl"
        run_find(str(out), games=GAMES, seed=SEED, scheduler=cluster.scheduler_address)
    assert remote == local
    assert _lines(out) == [line for _, found in local for line in found]
