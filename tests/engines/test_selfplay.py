"""Self-play kernels: whole games checked move by move against plain-Python references.

The kernels' RNG (Numba's) cannot be reproduced in Python, so games are
compared structurally: every recorded game is replayed by the naive checker
(``tests/naive_selfplay.py``) and by the record reader of ``ddz_tools.engines.records``,
and ``_playout`` is compared with a Python game loop that asks the same
policy kernel for each move under the same seed.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import random_deal
from naive_selfplay import check_record, python_playout, seed_ref
from ddz_tools.core.errors import DdzError, RulesError
from ddz_tools.engines.policies import BUFFER, new_table, policy_play, seed_rng
from ddz_tools.core.rules import Rules
from ddz_tools.engines.records import replay_record
from ddz_tools.engines.selfplay import (STAKE_BUCKETS, SimulationSummary, game_seed, selfplay_stats, simulate,
                                       stake_bucket)
from ddz_tools.engines.selfplay.kernel import _game_seed, _playout, _playout_seats, _playout_t
from ddz_tools.variants import variant_of


RULE_SETS = [
    "standard",
    "douzero",
    "encyclopedia",
    "standard,bidding=until-two-pass",
    "standard,spring=any-player,first_bidder=left-of-dealer",
    "douzero,four_with_one=on,kickers_distinct=on",
    "standard,bidding=call-grab",
]


def test_game_seed_matches_reference():
    rng = random.Random(5)
    cases = [(0, 0), (0, 1), (1, 0), (-1, 7), (2**40 + 3, 99), (-(2**62), 2**31)]
    cases += [(rng.randrange(-2**62, 2**62), rng.randrange(0, 2**40)) for _ in range(300)]
    for s, i in cases:
        v = int(_game_seed(np.int64(s), np.int64(i)))
        assert v == seed_ref(s, i), (s, i)
        assert 0 <= v < 2**31
    assert len({game_seed(3, i) for i in range(2000)}) == 2000


@pytest.mark.parametrize("spec", RULE_SETS)
@pytest.mark.parametrize("policy", ["random", "heuristic", ("heuristic", "random", "random")])
def test_records_replay_with_naive_rules(spec, policy):
    """Every record equals the plain-Python rules' replay; the first few are
    replayed by the record reader too (every variant's self-play replays clean
    in tests/variants/test_variants.py; here the options)."""
    rules = Rules.parse(spec)
    n = 60 if policy == "random" else 25
    for i, rec in enumerate(simulate(n, policy, seed=11, rules=rules)):
        assert check_record(rec, rules) == rec["result"], rec["id"]
        assert sum(rec["result"]["scores"]) == 0
        if i < 10:
            rep = replay_record(rec)
            assert rep.status == "ok", (rec["id"], rep.reason)


#: One rule set of each table and stake, with a policy.
EVERY_TABLE = [("standard", "random"), ("standard", "heuristic"), ("four", "heuristic"),
               ("four,bomb_doubles=ladder", "random"), ("happy", "random"), ("happy", "heuristic"),
               ("notalon", "random"), ("notalon,landlord_draw=on", "random"),
               ("happy,bottom_bonus=table,show=dianle", "heuristic"),
               ("happy,doubling=global,bottom_bonus=table", "heuristic")]


@pytest.mark.parametrize("spec, policy", EVERY_TABLE)
def test_games_depend_on_the_seed_alone(spec, policy):
    """A seed's games are the same whatever the workers, the chunks or the
    slice asked for; another seed's are others."""
    import ddz_tools.engines.selfplay.run as sp

    one = list(simulate(24, policy, seed=21, rules=spec))
    assert [r["id"] for r in one] == [f"sim-21-{i}" for i in range(24)]
    assert list(simulate(24, policy, seed=21, rules=spec, workers=2)) == one
    assert list(simulate(6, policy, seed=21, rules=spec, start=18)) == one[18:]
    assert list(simulate(6, policy, seed=22, rules=spec)) != one[:6]
    old = sp.CHUNK
    try:
        sp.CHUNK = 5
        assert list(simulate(24, policy, seed=21, rules=spec)) == one
        assert list(simulate(24, policy, seed=21, rules=spec, workers=3)) == one
    finally:
        sp.CHUNK = old
    assert selfplay_stats(80, policy, seed=2, rules=spec, workers=3) == selfplay_stats(80, policy, seed=2, rules=spec)


@pytest.mark.parametrize("spec, policy", EVERY_TABLE)
def test_stats_and_summary_agree_with_records(spec, policy):
    """The kernel's tallies and the summary of the records are the sums over
    the records of the same games, at any number of seats."""
    v = variant_of(spec)
    n = 60
    recs = list(simulate(n, policy, seed=9, rules=spec))
    st = selfplay_stats(n, policy, seed=9, rules=spec)
    summary = SimulationSummary()
    for r in recs:
        summary.add(r)
    res = [r["result"] for r in recs]
    assert st.games == n
    assert st.landlord_wins == summary.landlord_wins == sum(x["winner"] == "landlord" for x in res)
    assert st.bombs == sum(x["bombs"] for x in res)
    assert st.springs == sum(x["spring"] for x in res)
    assert st.anti_springs == sum(x["anti_spring"] for x in res)
    assert st.moves == sum(len(r["plays"]) for r in recs)
    assert st.landlord_score == summary.landlord_score == sum(r["result"]["scores"][r["landlord"]] for r in recs)
    assert st.multiplier_sum == summary.multiplier_sum == sum(x["multiplier"] for x in res)
    assert st.doubled_games == summary.doubled_games == sum(max(r.get("doubles", [1])) > 1 for r in recs)
    assert st.show_games == summary.show_games == sum(bool(r.get("show")) for r in recs)
    if not v.stake.doubles:
        assert st.doubled_games == 0
    if not v.stake.shows:
        assert st.show_games == 0
    assert list(st.seat_wins) == [sum(x["scores"][s] > 0 for x in res) for s in range(v.seats)]
    assert len(summary.seat_scores) == v.seats and sum(summary.seat_scores) == 0
    pairs = [0] * STAKE_BUCKETS      # one stake a farmer a game
    for r in recs:
        for s in range(v.seats):
            if s != r["landlord"]:
                pairs[stake_bucket(abs(r["result"]["scores"][s]))] += 1
    assert list(st.stake_counts) == summary.stake_counts == pairs
    assert sum(pairs) == (v.seats - 1) * n
    assert st.stakes == summary.figures()["stakes"]


def test_progress_and_players():
    calls = []
    recs = list(simulate(3, ("random", "heuristic", "random"), seed=1, progress=lambda d, t: calls.append((d, t))))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert recs[0]["players"] == ["random", "heuristic", "random"]


@pytest.mark.parametrize("policies", [(0, 0, 0), (1, 1, 1), (1, 0, 0), (0, 1, 1)])
def test_playout_matches_python_game_loop(policies):
    rng = random.Random(f"playout-{policies}")
    table = new_table()
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    pols = np.array(policies, np.int64)
    for spec in ("standard", "douzero"):
        rules = Rules.parse(spec)
        for g in range(25):
            hands, bottom = random_deal(rng)
            ll = rng.randrange(3)
            hands[ll] += bottom
            arr = np.array(hands, np.int64)
            seed = rng.randrange(2**31)
            want, moves = python_playout(arr, ll, pols, rules, seed, seed_rng, policy_play, table, bufc, bufk)
            got = _playout_seats(arr, ll, pols, rules.flags, seed).tolist()
            assert got == want, (spec, g)
            assert arr.tolist() == hands  # inputs untouched
            if len(set(policies)) == 1:
                assert _playout(arr, ll, policies[0], rules.flags, seed).tolist() == want
            assert _playout_t(arr, ll, pols, rules.flags, seed, table, bufc, bufk).tolist() == want


def test_playout_outcome_invariants():
    rng = random.Random(77)
    for _ in range(200):
        hands, bottom = random_deal(rng)
        ll = rng.randrange(3)
        hands[ll] += bottom
        pol = rng.randrange(2)
        won, bombs, spring, anti, n = _playout(np.array(hands, np.int64), ll, pol, 5, rng.randrange(2**31)).tolist()
        assert won in (0, 1) and spring in (0, 1) and anti in (0, 1)
        assert not (spring and not won) and not (anti and won)
        assert 0 <= bombs <= 14 and 1 <= n <= 168
        if spring:
            assert n >= 1


def test_bad_arguments():
    with pytest.raises(RulesError, match="bidding"):
        next(simulate(1, rules="standard,bidding=auction"))
    with pytest.raises(DdzError, match="unknown policy"):
        next(simulate(1, policy="clever"))
    with pytest.raises(DdzError, match="games"):
        next(simulate(-1))
    with pytest.raises(DdzError, match="three"):
        selfplay_stats(1, policy=("random", "random"))
    with pytest.raises(DdzError, match="workers"):
        selfplay_stats(3, workers=0)


def test_cli_simulate(tmp_path):
    import json

    from click.testing import CliRunner

    from ddz_tools.cli import cli

    out = tmp_path / "games.jsonl"
    runner = CliRunner()
    r = runner.invoke(cli, ["simulate", "--games", "15", "--policy", "heuristic", "--seed", "5", "--workers", "2",
                            "--out", str(out), "--format", "json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["games"] == 15 and summary["rules"] == "standard" and summary["policy"] == "heuristic"
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert recs == list(simulate(15, "heuristic", seed=5))
    assert summary["landlord_wins"] == sum(r["result"]["winner"] == "landlord" for r in recs)
    r2 = runner.invoke(cli, ["simulate", "-n", "3", "--policy", "random,heuristic,random", "--rules", "douzero",
                             "--out", "-"])
    assert r2.exit_code == 0
    lines = [json.loads(x) for x in r2.stdout.strip().splitlines()]
    assert [x["players"] for x in lines] == [["random", "heuristic", "random"]] * 3
    assert lines[0]["rules"]["preset"] == "douzero"
    r3 = runner.invoke(cli, ["simulate", "--policy", "random,random"])
    assert r3.exit_code == 2 and "three" in r3.output


#: The games run as plain Python and compiled: (policy, games, rules), seed 3.
PYTHON_RUNS = [("heuristic", 20, "standard"), ("random", 3, "standard"), ("heuristic", 20, "douzero,bidding=call-grab"),
               ("random", 3, "douzero,bidding=call-grab"), ("heuristic", 2, "four"),
               ("heuristic", 1, "four,bomb_doubles=ladder"), ("random", 2, "four"),
               ("heuristic", 2, "happy,bottom_bonus=table,must_call=jokers"), ("random", 4, "happy,show=dianle"),
               ("random", 4, "notalon,landlord_draw=on,doubling=global")]


def test_kernels_agree_with_their_python_execution():
    """The same games with NUMBA_DISABLE_JIT=1 (the kernels' code run as plain
    Python, Numba's generator replaced by NumPy's with the same streams), at
    three and four seats and through the stake stages: any typing that only
    works by luck or undefined behaviour in compiled code shows up as a
    difference."""
    import json
    import os
    import subprocess
    import sys

    script = ("import json\nfrom ddz_tools.engines.selfplay import simulate\n"
              f"print(json.dumps([list(simulate(n, p, seed=3, rules=r)) for p, n, r in {PYTHON_RUNS!r}]))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == [list(simulate(n, p, seed=3, rules=r)) for p, n, r in PYTHON_RUNS]
