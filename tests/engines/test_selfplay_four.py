"""Four-player self-play (rules ``four``: two decks, four seats, an 8-card bottom).

The game kernel is compared game by game with a plain-Python loop
(``naive_selfplay.python_game_four``: its own deal, auction, turn and trick,
end and scoring, the policy kernels asked one decision at a time under the
same seed), and every record is replayed by the Python ``Game``
(``replay_record``), the batch validator and the plain-Python replay of
``tests/naive_game.py``.  The deal's shape, determinism, the tallies and the
plain-Python execution of the kernels are checked at every table in
tests/variants/test_variants.py and tests/engines/test_selfplay.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from naive_game import naive_replay
from naive_selfplay import python_game_four

from ddz_tools.core.cards import full_deck, parse_cards
from ddz_tools.cli import cli
from ddz_tools.core.errors import DdzError
from ddz_tools.engines.policies import BUFFER, new_table, policy_bid, policy_play
from ddz_tools.engines.records import replay_record, validate_batch
from ddz_tools.core.rules import Rules
from ddz_tools.engines.selfplay import (
    D_BOTTOM,
    I_BASE,
    I_BOMBS,
    I_FIRST_BIDDER,
    I_LANDLORD,
    I_LANDLORD_WON,
    I_MULTIPLIER,
    I_N_BIDS,
    I_N_MOVES,
    I_REDEALS,
    I_ANTI_SPRING,
    I_SCORES,
    I_SPRING,
    MAX_MOVES_FOUR,
    new_game_arrays,
    simulate,
)
from ddz_tools.engines.selfplay.kernel import _game, _game_seed
from ddz_tools.variants import variant_of

SPECS = ["four", "four,bomb_doubles=ladder", "four,bomb_doubles=all,spring=any-player",
         "four,chains=shanghai,first_bidder=left-of-dealer", "four,top_bomb=bomb8,wing_pairs_consecutive=on"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("policies", [(1, 1, 1, 1), (0, 0, 0, 0), (1, 0, 1, 0)])
def test_kernel_game_equals_python_loop(spec, policies):
    rules = Rules.parse(spec)
    pols = np.array(policies, np.int64)
    table = new_table()
    bufc = np.empty(BUFFER, np.int64)
    bufk = np.empty(BUFFER, np.int64)
    deal, bids, plays, info = new_game_arrays(rules)
    assert plays.shape[0] == MAX_MOVES_FOUR
    games = 12 if 0 in policies else 30
    for i in range(games):
        seed = _game_seed(7, i)
        fb = -1 if rules.first_bidder == "random" else (i + 1) % 4
        n = _game(seed, pols, variant_of(rules).params, fb, 0, 1 if rules.spring == "any-player" else 0,
                  deal, bids, plays, info, table, bufc, bufk)
        want = python_game_four(seed, pols, rules, fb, policy_bid, policy_play, table, bufc, bufk)
        got = {"hands": deal[:4].tolist(), "bottom": int(deal[D_BOTTOM]), "first": int(info[I_FIRST_BIDDER]),
               "redeals": int(info[I_REDEALS]),
               "bids": [tuple(b) for b in bids[:info[I_N_BIDS]].tolist()], "landlord": int(info[I_LANDLORD]),
               "base": int(info[I_BASE]), "moves": [tuple(m) for m in plays[:n].tolist()],
               "won": int(info[I_LANDLORD_WON]), "bombs": int(info[I_BOMBS]), "spring": int(info[I_SPRING]),
               "anti_spring": int(info[I_ANTI_SPRING]), "multiplier": int(info[I_MULTIPLIER]),
               "scores": info[I_SCORES:I_SCORES + 4].tolist()}
        assert n == info[I_N_MOVES]
        assert got == want, (spec, policies, i)


@pytest.mark.parametrize("spec", SPECS)
def test_records_replay_clean(spec):
    recs = list(simulate(12, "heuristic", seed=3, rules=spec)) + list(simulate(6, "random", seed=3, rules=spec))
    for rec in recs:
        assert len(rec["deal"]["hands"]) == 4 and len(rec["players"]) == 4 and len(rec["result"]["scores"]) == 4
        assert rec["deal"]["hand_ids"] is None
        hands = [parse_cards(h, 2) for h in rec["deal"]["hands"]]
        assert sum(hands) + parse_cards(rec["deal"]["bottom"], 2) == full_deck(2)
        assert sum(rec["result"]["scores"]) == 0
        rep = replay_record(rec)
        assert rep.status == "ok", (rec["id"], rep.reason)
        res = rec["result"]
        assert naive_replay(rec) == {"status": "ok", "code": None, "landlord": rec["landlord"], "base": res["base"],
                                     "scores": res["scores"], "multiplier": res["multiplier"],
                                     "bombs": res["bombs"]}, rec["id"]
    batch = validate_batch(recs)
    assert batch.status.tolist() == [0] * len(recs) and not batch.mismatch.any()
    assert batch.scores.tolist() == [r["result"]["scores"] for r in recs]


def test_policies_per_seat():
    recs = list(simulate(3, ("random", "heuristic", "random", "heuristic"), seed=1, rules="four"))
    assert recs[0]["players"] == ["random", "heuristic", "random", "heuristic"]
    with pytest.raises(DdzError, match="four"):
        next(simulate(1, ("random", "heuristic", "random"), rules="four"))
    with pytest.raises(DdzError, match="three"):
        next(simulate(1, ("random",) * 4))


def test_cli_simulate_four(tmp_path):
    runner = CliRunner()
    out = tmp_path / "four.jsonl"
    r = runner.invoke(cli, ["simulate", "--games", "10", "--rules", "four", "--seed", "2", "--out", str(out),
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["rules"] == "four" and summary["games"] == 10 and len(summary["seat_scores"]) == 4
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert recs == list(simulate(10, "heuristic", seed=2, rules="four"))
    r = runner.invoke(cli, ["replay", str(out)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["simulate", "-n", "4", "--rules", "four,bomb_doubles=ladder", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "four,bomb_doubles=ladder" in r.output and "score per seat" in r.output
    assert len(next(line for line in r.output.splitlines() if line.startswith("score per seat")).split()) == 7


def test_cli_bad_policy_count(capsys):
    from ddz_tools.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["simulate", "-n", "2", "--rules", "four", "--policy", "random,random,heuristic"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and err.startswith("error: ") and "four" in err, err
    assert "--policy" in err
