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
from ddz_tools.engines.selfplay import deal_cards, game_seed, selfplay_stats, simulate
from ddz_tools.engines.selfplay.kernel import _game_seed, _playout, _playout_seats, _playout_t

FULL = [4] * 13 + [1, 1]

RULE_SETS = [
    "standard",
    "douzero",
    "encyclopedia",
    "standard,bidding=until-two-pass",
    "standard,spring=any-player,first_bidder=left-of-dealer",
    "douzero,four_with_one=on,kickers_distinct=on",
    "standard,bidding=call-grab",
]


def _counts(h: int) -> list[int]:
    return [(h >> (4 * r)) & 15 for r in range(15)]


def test_game_seed_matches_reference():
    rng = random.Random(5)
    cases = [(0, 0), (0, 1), (1, 0), (-1, 7), (2**40 + 3, 99), (-(2**62), 2**31)]
    cases += [(rng.randrange(-2**62, 2**62), rng.randrange(0, 2**40)) for _ in range(300)]
    for s, i in cases:
        v = int(_game_seed(np.int64(s), np.int64(i)))
        assert v == seed_ref(s, i), (s, i)
        assert 0 <= v < 2**31
    assert len({game_seed(3, i) for i in range(2000)}) == 2000


def test_deal_is_one_deck():
    for s in range(200):
        hands, bottom = deal_cards(s)
        total = [sum(x) for x in zip(*(_counts(h) for h in hands + [bottom]))]
        assert total == FULL
        assert [sum(_counts(h)) for h in hands] == [17, 17, 17]
    assert deal_cards(5) == deal_cards(5) != deal_cards(6)


@pytest.mark.parametrize("spec", RULE_SETS)
@pytest.mark.parametrize("policy", ["random", "heuristic", ("heuristic", "random", "random")])
def test_records_replay_with_naive_rules(spec, policy):
    rules = Rules.parse(spec)
    n = 60 if policy == "random" else 25
    for rec in simulate(n, policy, seed=11, rules=rules):
        assert check_record(rec, rules) == rec["result"], rec["id"]
        assert sum(rec["result"]["scores"]) == 0


@pytest.mark.parametrize("spec", ["standard", "douzero", "standard,bidding=until-two-pass,spring=any-player",
                                  "encyclopedia,bidding=call-grab"])
def test_records_replay_with_record_reader(spec):
    records = pytest.importorskip("ddz_tools.engines.records")
    for rec in simulate(30, "heuristic", seed=4, rules=spec):
        rep = records.replay_record(rec)
        assert rep.status == "ok", (rec["id"], rep.reason)
    for rec in simulate(30, "random", seed=4, rules=spec):
        rep = records.replay_record(rec)
        assert rep.status == "ok", (rec["id"], rep.reason)


def test_simulate_is_reproducible_and_sliceable():
    a = list(simulate(12, "random", seed=3))
    b = list(simulate(12, "random", seed=3))
    assert a == b
    assert list(simulate(4, "random", seed=3, start=8)) == a[8:]
    assert [r["id"] for r in a] == [f"sim-3-{i}" for i in range(12)]
    assert list(simulate(5, "random", seed=4)) != a[:5]
    h = list(simulate(6, "heuristic", seed=3))
    assert list(simulate(3, "heuristic", seed=3, start=3)) == h[3:]


@pytest.mark.parametrize("policy,spec", [("random", "standard"), ("heuristic", "standard"),
                                         ("heuristic", "four"), ("random", "four,bomb_doubles=ladder")])
def test_stats_agree_with_records(policy, spec):
    """The kernel's tallies are the sums over the records of the same games (three or four seats)."""
    recs = list(simulate(40, policy, seed=9, rules=spec))
    st = selfplay_stats(40, policy, seed=9, rules=spec)
    assert st == selfplay_stats(40, policy, seed=9, rules=spec, workers=2)
    assert st.games == 40
    assert st.landlord_wins == sum(r["result"]["winner"] == "landlord" for r in recs)
    assert st.bombs == sum(r["result"]["bombs"] for r in recs)
    assert st.springs == sum(r["result"]["spring"] for r in recs)
    assert st.anti_springs == sum(r["result"]["anti_spring"] for r in recs)
    assert st.moves == sum(len(r["plays"]) for r in recs)
    assert st.landlord_score == sum(r["result"]["scores"][r["landlord"]] for r in recs)
    assert st.multiplier_sum == sum(r["result"]["multiplier"] for r in recs)
    seats = len(recs[0]["result"]["scores"])
    assert list(st.seat_wins) == [sum(r["result"]["scores"][s] > 0 for r in recs) for s in range(seats)]


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


def test_kernels_agree_with_their_python_execution():
    """The same games with NUMBA_DISABLE_JIT=1 (the kernels' code run as plain
    Python, Numba's generator replaced by NumPy's with the same streams): any
    typing that only works by luck or undefined behaviour in compiled code
    shows up as a difference."""
    import json
    import os
    import subprocess
    import sys

    script = ("import json\nfrom ddz_tools.engines.selfplay import simulate\n"
              "print(json.dumps([list(simulate(n, p, seed=3, rules=r)) for p, n in (('heuristic', 20), ('random', 3))"
              " for r in ('standard', 'douzero,bidding=call-grab')]))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    python_run = json.loads(out.stdout)
    jit_run = [list(simulate(n, p, seed=3, rules=r)) for p, n in (("heuristic", 20), ("random", 3))
               for r in ("standard", "douzero,bidding=call-grab")]
    assert python_run == jit_run


def test_results_do_not_depend_on_workers_or_chunks():
    import ddz_tools.engines.selfplay.run as sp

    one = list(simulate(40, "heuristic", seed=21))
    assert list(simulate(40, "heuristic", seed=21, workers=3)) == one
    old = sp.CHUNK
    try:
        sp.CHUNK = 7
        assert list(simulate(40, "heuristic", seed=21)) == one
        assert list(simulate(40, "heuristic", seed=21, workers=2)) == one
    finally:
        sp.CHUNK = old
    assert selfplay_stats(300, "random", seed=2, workers=3) == selfplay_stats(300, "random", seed=2)
    with pytest.raises(DdzError, match="workers"):
        selfplay_stats(3, workers=0)
