"""The bid evaluator under four-player rules (``four``: two decks, four seats,
25 cards a seat and an 8-card bottom): the per-sample rows against the
plain-Python twin of ``tests/naive_bid.py``, the aggregate figures,
determinism, and bad input.  The deal is checked at both tables in
tests/analysis/test_bid.py; the decisions four players do not have, in the
conformance suite (tests/variants/test_variants.py)."""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import pytest

import naive_bid
from analysis.test_bid import _deal_of, _rows_as_naive
from ddz_tools.analysis import bid
from ddz_tools.analysis.bid import CHOICES, bid_problem, evaluate_bid, run_rows
from ddz_tools.core.cards import format_cards
from ddz_tools.core.errors import DdzError
from ddz_tools.core.rules import Rules

FOUR = Rules.parse("four")


def deal_four(seed) -> tuple[list[int], int]:
    """A seeded two-deck deal: four packed 25-card hands and the 8-card bottom."""
    return _deal_of("four", seed)


@pytest.mark.parametrize("case", [
    dict(seat=0, before=(), policy=1),
    dict(seat=1, before=("pass",), policy=1),
    dict(seat=3, before=("pass", "pass", "pass"), policy=1, count=3, attempts=3000),   # rare: about 1 deal in 250
    dict(seat=2, before=("1", "pass"), policy=0),
    dict(seat=3, before=("pass", "1", "2"), policy=0),
    dict(seat=1, before=("pass",), policy=1, bottom=True),
    dict(seat=0, before=(), policy=1, rules="four,bomb_doubles=ladder"),
    dict(seat=0, before=(), policy=0, rules="four,bomb_doubles=all,spring=any-player"),
])
def test_rows_equal_python_loop(case):
    rules = Rules.parse(case.get("rules", "four"))
    hands, bottom = deal_four(f"rows-{case}")
    seat = case["seat"]
    if case.get("bottom"):
        problem = bid_problem(hands[seat] + bottom, format_cards(bottom), seat, case["before"], rules)
    else:
        problem = bid_problem(hands[seat], None, seat, case["before"], rules)
    spring = 1 if rules.spring == "any-player" else 0
    seed = 17 + seat
    count, attempts = case.get("count", 10), case.get("attempts", 400)
    rows = run_rows(problem, case["policy"], seed, 3, count, max_attempts=attempts)
    expected = naive_bid.naive_rows(problem, case["policy"], rules.game_flags, seed, 3, count, max_attempts=attempts,
                                    spring=spring)
    got = _rows_as_naive(rows, problem.legal)
    assert got == expected
    accepted = [r for r in got if r["accepted"]]
    assert accepted
    for r in accepted:
        for c, res in r["choices"].items():
            if res is None or res["landlord"] is None:
                continue
            assert res["landlord"] in range(4)
            assert abs(res["score"]) == res["bid"] * res["mult"] * (3 if res["landlord"] == 0 else 1)


def test_aggregate_equals_python_loop():
    hands, _ = deal_four(4)
    ev = evaluate_bid(hands[1], seat="second", before="pass", samples=80, seed=5, workers=2, early_stop=False,
                      rules="four")
    problem = bid_problem(hands[1], None, 1, "pass", FOUR)
    s = naive_bid.naive_summary(naive_bid.naive_rows(problem, 1, FOUR.game_flags, 5, 0, 80, bid.MAX_ATTEMPTS))
    assert ev.samples == s["n"] and ev.drawn == s["drawn"]
    assert ev.win_prob == s["wins"] / s["n"]
    z = NormalDist().inv_cdf(0.975)
    for c in range(4):
        res = ev.choices[CHOICES[c]]
        assert res.expected_score == pytest.approx(s["score"][c] / s["n"])
        assert res.landlord_prob == pytest.approx(s["landlord"][c] / s["n"])
        sd = math.sqrt((s["score2"][c] - s["score"][c] ** 2 / s["n"]) / (s["n"] - 1))
        half = z * sd / math.sqrt(s["n"])
        assert res.score_ci == pytest.approx((s["score"][c] / s["n"] - half, s["score"][c] / s["n"] + half))
    d = ev.to_dict()
    assert d["rules"] == "four" and d["seat"] == "second" and d["before"] == ["pass"]


def test_same_result_for_any_workers_and_legal_choices():
    hands, bottom = deal_four(6)
    kw = dict(seat="second", before="1", samples=60, seed=2, early_stop=False, rules="four")
    one = evaluate_bid(hands[1], workers=1, **kw)
    assert one == evaluate_bid(hands[1], workers=2, **kw)
    assert not one.choices["1"].legal and one.choices["2"].legal
    assert one.expected_score["1"] is None and one.samples == 60
    # The landlord's 33 cards with a known bottom: 75 unseen cards.
    p = bid_problem(hands[0] + bottom, format_cards(bottom), "first", (), FOUR)
    assert p.me17 == hands[0] and len(p.unseen) == 75


@pytest.mark.parametrize("args, message", [
    (dict(hand="33344455566677788899TTJJQQKKA"), "has 29 cards; a hand before bidding has 25 under four"),
    (dict(hand="3333444455556666777788889TTTTJJJJ"), "has 33 cards"),
    (dict(hand="3334455667789TTJJQQKA22XD", seat="fifth"), "not first, second, third or fourth"),
    (dict(hand="3334455667789TTJJQQKA22XD", seat=4), "not first, second, third or fourth"),
    (dict(hand="3334455667789TTJJQQKA22XD", seat="fourth", before="pass,pass"), "2 earlier bid"),
    (dict(hand="3334455667789TTJJQQKA22XD", seat="fourth", before="1,1,pass"), "does not beat"),
    (dict(hand="3334455667789TTJJQQKA22XD", seat="fourth", before="pass,3,pass"), "ends the auction"),
    (dict(hand="3334455667789TTJJQQKA22XD", bottom="33344"), "has 5 cards, not 8"),
    (dict(hand="33334444455667789TTJJQQKA22XXDD", bottom="3333XXDD"), "landlord's 33 cards"),
    (dict(hand="333333333455667789TTJJQQKA2"), "9 3s"),
])
def test_bad_input_raises_one_line_error(args, message):
    with pytest.raises(DdzError) as info:
        bid_problem(**args, rules="four")
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def _ddz(capsys, *args) -> tuple:
    from ddz_tools.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_four(capsys):
    hand = "3334455667789TTJJQQKA22XD"
    code, out, err = _ddz(capsys, "bid", hand, "--rules", "four", "--seat", "second", "--before", "pass",
                          "--samples", "40", "--seed", "1", "--workers", "1", "--no-early-stop", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["rules"] == "four" and d["seat"] == "second" and set(d["expected_score"]) == {"pass", "1", "2", "3"}
    assert d["samples"] == 40 and d["before"] == ["pass"]
    code, out, err = _ddz(capsys, "bid", hand, "--rules", "four", "--samples", "40", "--seed", "1", "--workers", "1",
                          "--no-early-stop")
    assert code == 0 and "rules four" in out and "recommendation:" in out
    for args, what in ((("--seat", "fourth"), "not first, second or third"),
                       (("--rules", "four", "--decide", "double", "--bottom", "33445566"), "three-player"),
                       (("--rules", "four", "--decide", "call"), "three-player"),
                       (("--rules", "four", "--bottom", "XD"), "not 8")):
        code, out, err = _ddz(capsys, "bid", hand if "four" in args else "33445566778899TTJ", *args,
                              "--samples", "10")
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
        assert what in err, err
