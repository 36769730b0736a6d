"""Tests of the Monte Carlo bid evaluator (ddz_tools.analysis.bid) and ``ddz bid``."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import pack_ranks, random_deal, run_ddz
from ddz_tools.analysis import bid
from ddz_tools.analysis.bid import auction, montecarlo as mc
from ddz_tools.analysis.bid.call import sampled_flush
from ddz_tools.analysis.bid import (
    CHOICES,
    COL_ACCEPTED,
    COL_ATTEMPTS,
    COL_CHOICE,
    COL_MULT,
    COL_WON,
    NCOL_CHOICE,
    BidError,
    bid_problem,
    evaluate_bid,
    known_wild,
    run_rows,
    wilson_interval,
)
from ddz_tools.core.cards import card_count, counts_of, format_cards, full_deck
from ddz_tools.core.errors import DdzError, RulesError
from ddz_tools.core.gamerules import draw_wild_given
from ddz_tools.core.kinds import WILD_MASK, WILD_SHIFT, wild_flags
from ddz_tools.core.rules import Rules
from ddz_tools.variants import variant_of

import naive_bid

FLAGS = Rules().flags


def _hand17(seed: int) -> int:
    hands, _ = random_deal(random.Random(f"bid-{seed}"))
    return hands[0]


# The random stream and the sampler --------------------------------------------------


def test_hash_matches_python_twin():
    rng = random.Random(1)
    for _ in range(2000):
        a, b = rng.getrandbits(32), rng.getrandbits(32)
        assert mc.h32(a) == naive_bid.h32(a)
        assert mc.mix2(a, b) == naive_bid.mix2(a, b)
        assert mc.word(a, b % 100) == _nth_word(a, b % 100)
    for seed in (0, 1, -1, 2**40 + 7, -(2**70)):
        assert bid.seed_key(seed) == naive_bid.seed_key(seed)


def _nth_word(key: int, j: int) -> int:
    s = naive_bid.Stream(key)
    for _ in range(j):
        next(s)
    return next(s)


def test_shuffle_matches_python_twin():
    rng = random.Random(2)
    for _ in range(300):
        n = rng.randint(1, 54)
        items = [rng.randint(0, 14) for _ in range(n)]
        key = rng.getrandbits(32)
        arr = np.array(items, dtype=np.int64)
        mc.fisher_yates(arr, key)
        assert arr.tolist() == naive_bid.naive_shuffle(items, key)


def test_shuffle_is_uniform_over_permutations():
    """Chi-square over the 24 orders of 4 items, 24,000 seeded shuffles."""
    counts = Counter()
    key0 = bid.seed_key(12345)
    for i in range(24000):
        arr = np.arange(4, dtype=np.int64)
        mc.fisher_yates(arr, mc.key_of(key0, i, 0))
        counts[tuple(arr)] += 1
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    # 23 degrees of freedom: P(chi2 > 49.7) = 0.001.
    assert chi2 < 49.7, counts


def _deal_of(spec: str, seed) -> tuple[list[int], int]:
    """A seeded deal of ``spec``'s table: the packed hands and the bottom."""
    t = variant_of(spec).table
    deck = [r for r in range(13) for _ in range(4 * t.decks)] + [13, 14] * t.decks
    random.Random(f"bid-{spec}-{seed}").shuffle(deck)
    n = t.hand_cards
    return [pack_ranks(deck[n * s:n * (s + 1)]) for s in range(t.seats)], pack_ranks(deck[n * t.seats:])


#: The tables the bid evaluator deals: one deck and three seats, two decks and four.
BID_TABLES = ("standard", "four")


@pytest.mark.parametrize("spec", BID_TABLES)
@pytest.mark.parametrize("seed", range(3))
def test_deal_matches_python_twin_and_is_consistent(spec, seed):
    """The sampler's deal equals the Python twin's, every seat its hand's worth,
    the bottom known or drawn, the deck whole (one or two decks)."""
    v = variant_of(spec)
    n, seats = v.table.hand_cards, v.seats
    dealt, bottom0 = _deal_of(spec, seed)
    for seat, with_bottom in itertools.product(range(seats), (False, True)):
        bottom_known = bottom0 if with_bottom else None
        hand = dealt[seat] + (bottom0 if with_bottom else 0)
        problem = bid_problem(hand, format_cards(bottom0) if with_bottom else None, seat, ["pass"] * seat, v.rules)
        assert problem.seats == seats and len(problem.unseen) == card_count(full_deck(v.table.decks) - hand)
        out = np.empty(seats, np.int64)
        scratch = np.empty(128, np.int64)
        for i in range(20):
            key = mc.key_of(bid.seed_key(seed), i, 0)
            b = mc.deal(problem.unseen, key, seat, problem.me17, 0, n, bottom_known or 0, out, scratch)
            hands, bottom = naive_bid.naive_deal(problem.unseen.tolist(), key, seat, problem.me17, bottom_known,
                                                 seats)
            assert out.tolist() == hands and b == bottom
            assert [card_count(h) for h in hands] + [card_count(bottom)] == list(v.hand_sizes)
            assert sum(hands) + bottom == full_deck(v.table.decks)


@pytest.mark.parametrize("spec", BID_TABLES)
def test_deal_marginals_are_uniform(spec):
    """Each unseen card lands in the next hand with probability 17/37 (25/83 at
    four seats), in the bottom 3/37 (8/83)."""
    v = variant_of(spec)
    me = _deal_of(spec, 99)[0][0]
    problem = bid_problem(me, rules=v.rules)
    unseen_counts = counts_of(full_deck(v.table.decks) - me)
    pool = len(problem.unseen)
    n = 3000
    out = np.empty(v.seats, np.int64)
    scratch = np.empty(128, np.int64)
    key0 = bid.seed_key(7)
    in_bottom = np.zeros(15)
    in_next = np.zeros(15)
    for i in range(n):
        b = mc.deal(problem.unseen, mc.key_of(key0, i, 0), 0, me, 0, v.table.hand_cards, 0, out, scratch)
        in_bottom += counts_of(b)
        in_next += counts_of(int(out[1]))
    for r in range(15):
        c = unseen_counts[r]
        if c == 0:
            continue
        for observed, p in ((in_bottom[r], v.table.bottom_cards / pool), (in_next[r], v.table.hand_cards / pool)):
            # c cards of the rank, each placed with probability p (hypergeometric: var <= binomial).
            mean = n * c * p
            sd = math.sqrt(n * c * p * (1 - p))
            assert abs(observed - mean) < 4.5 * sd, (r, observed, mean, sd)


# Input validation ------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (dict(hand="3456"), "has 4 cards"),
    (dict(hand="33445566778899TTJ", seat="fourth"), "not first, second or third"),
    (dict(hand="33445566778899TTJ", seat="second"), "0 earlier bid"),
    (dict(hand="33445566778899TTJ", seat="first", before="1"), "1 earlier bid"),
    (dict(hand="33445566778899TTJ", seat="third", before="2,1"), "does not beat"),
    (dict(hand="33445566778899TTJ", seat="second", before="3"), "ends the auction"),
    (dict(hand="33445566778899TTJ", seat="second", before="4"), "not pass, 1, 2 or 3"),
    (dict(hand="33445566778899TTJ", bottom="QKA"), "landlord's 20 cards"),
    (dict(hand="33445566778899TTJQKA", bottom="QK"), "has 2 cards, not 3"),
    (dict(hand="33445566778899TTJQKA", bottom="QK2"), "not contained"),
    (dict(hand="33445566778899TTJ!"), "unknown card character"),
])
def test_bad_input_raises_one_line_error(args, message):
    with pytest.raises(DdzError) as info:
        bid_problem(**args)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_legal_choices_follow_earlier_bids():
    assert bid_problem("33445566778899TTJ").legal == (1, 1, 1, 1)
    assert bid_problem("33445566778899TTJ", seat=1, before="pass").legal == (1, 1, 1, 1)
    assert bid_problem("33445566778899TTJ", seat=1, before="1").legal == (1, 0, 1, 1)
    assert bid_problem("33445566778899TTJ", seat=2, before="pass,2").legal == (1, 0, 0, 1)
    p = bid_problem("33445566778899TTJQKA", bottom="AKQ", seat=2, before=[1, 2])
    assert p.me17 == bid_problem("33445566778899TTJ").me17 and len(p.unseen) == 34


def test_bad_options_raise():
    with pytest.raises(DdzError, match="single-round or until-two-pass"):
        evaluate_bid("33445566778899TTJ", rules="standard,bidding=call-grab", samples=10)
    with pytest.raises(DdzError, match="policy"):
        evaluate_bid("33445566778899TTJ", policy="smart", samples=10)
    with pytest.raises(DdzError, match="samples"):
        evaluate_bid("33445566778899TTJ", samples=0)


# The kernel against the Python loop ------------------------------------------------------


def _rows_as_naive(rows: np.ndarray, legal) -> list:
    out = []
    for r in rows:
        d = {"attempts": int(r[COL_ATTEMPTS]), "accepted": bool(r[COL_ACCEPTED])}
        if d["accepted"]:
            d["won"], d["mult"] = int(r[COL_WON]), int(r[COL_MULT])
            d["choices"] = {}
            for c in range(4):
                b = COL_CHOICE + NCOL_CHOICE * c
                if not legal[c]:
                    assert r[b] == -2
                    d["choices"][c] = None
                elif r[b] == -1:
                    d["choices"][c] = {"landlord": None, "score": int(r[b + 4])}
                else:
                    d["choices"][c] = {"landlord": int(r[b]), "won": int(r[b + 2]), "mult": int(r[b + 3]),
                                       "bid": int(r[b + 1]), "score": int(r[b + 4])}
        out.append(d)
    return out


@pytest.mark.parametrize("case", [
    dict(seat=0, before=(), policy=1),
    dict(seat=1, before=("pass",), policy=1),
    dict(seat=2, before=("pass", "1"), policy=1),
    dict(seat=1, before=("1",), policy=0),
    dict(seat=2, before=("1", "2"), policy=0),
    dict(seat=2, before=("pass", "pass"), policy=1, bottom=True),
])
@pytest.mark.parametrize("mode", [0, 1])
def test_rows_equal_python_loop(case, mode):
    seed = 11 + case["seat"]
    rules = Rules.parse(("standard", "standard,bidding=until-two-pass")[mode])
    hands, bottom = random_deal(random.Random(f"rows-{case}"))
    if case.get("bottom"):
        problem = bid_problem(hands[0] + bottom, format_cards(bottom), case["seat"], case["before"], rules)
    else:
        problem = bid_problem(hands[0], None, case["seat"], case["before"], rules)
    rows = run_rows(problem, case["policy"], seed, 5, 12, max_attempts=300)
    expected = naive_bid.naive_rows(problem, case["policy"], FLAGS, seed, 5, 12, max_attempts=300, mode=mode)
    assert _rows_as_naive(rows, problem.legal) == expected


@pytest.mark.parametrize("spec, known_text", [("laizi", ""), ("tiandi", ""), ("tiandi", "5"),
                                              ("laizi,laizi_reveal=before-bidding", "9")])
def test_laizi_rows_equal_python_loop(spec, known_text):
    """Under Laizi rules each sampled deal draws the wild ranks the bidder
    does not know: the bids see those shown before the bidding, the play
    every one."""
    rules = Rules.parse(spec)
    if known_text:
        rules = rules.with_wild(known_text)
    hands, _ = random_deal(random.Random(f"laizi-rows-{spec}"))
    problem = bid_problem(hands[0], None, 1, ("1",), rules)
    flags = rules.game_flags & ~WILD_MASK
    known = known_wild(rules)
    rows = run_rows(problem, 1, 7, 0, 10, max_attempts=300)
    expected = naive_bid.naive_rows(problem, 1, flags, 7, 0, 10, max_attempts=300, given=known)
    assert _rows_as_naive(rows, problem.legal) == expected


def test_draw_wild_given_keeps_the_given_ranks_and_draws_the_rest_uniformly():
    tiandi = Rules.parse("tiandi").game_flags
    seen = Counter()
    for s in range(2600):
        naive_bid._seed_numba(s)
        shown, every = draw_wild_given(tiandi, wild_flags((3,)))
        assert (every >> WILD_SHIFT) & 15 == 4 and shown == 4 << WILD_SHIFT
        seen[((every >> (WILD_SHIFT + 4)) & 15) - 1] += 1
    assert set(seen) == set(range(13)) - {3}
    assert min(seen.values()) > 150  # 2600 / 12 = 217 expected each


def test_laizi_bid_draws_the_laizi_and_refuses_one_no_bidder_knows():
    ev = evaluate_bid(_hand17(3), seat=0, samples=100, seed=2, workers=1, rules="laizi", early_stop=False)
    assert ev.samples == 100 and ev.rules.describe() == "laizi"
    with pytest.raises(RulesError, match="no wild rank is known at the bid"):
        evaluate_bid(_hand17(3), samples=100, rules=Rules.parse("laizi").with_wild("9"))
    with pytest.raises(RulesError, match="only the 天 rank is known"):
        evaluate_bid(_hand17(3), samples=100, rules=Rules.parse("tiandi").with_wild("5,9"))


def test_aggregate_equals_python_loop():
    hand = _hand17(3)
    ev = evaluate_bid(hand, seat=1, before="pass", samples=300, seed=5, workers=2, early_stop=False)
    problem = bid_problem(hand, None, 1, "pass")
    s = naive_bid.naive_summary(naive_bid.naive_rows(problem, 1, FLAGS, 5, 0, 300, bid.MAX_ATTEMPTS))
    assert ev.samples == s["n"] and ev.drawn == s["drawn"] and ev.rejected == s["drawn"] - s["n"]
    assert ev.win_prob == s["wins"] / s["n"]
    z = NormalDist().inv_cdf(0.975)
    assert ev.win_prob_ci == pytest.approx(naive_bid.naive_wilson(s["wins"], s["n"], z))
    for c in range(4):
        res = ev.choices[CHOICES[c]]
        assert res.expected_score == pytest.approx(s["score"][c] / s["n"])
        assert res.landlord_prob == pytest.approx(s["landlord"][c] / s["n"])
        sd = math.sqrt((s["score2"][c] - s["score"][c] ** 2 / s["n"]) / (s["n"] - 1))
        half = z * sd / math.sqrt(s["n"])
        assert res.score_ci == pytest.approx((s["score"][c] / s["n"] - half, s["score"][c] / s["n"] + half))
    best = max(range(4), key=lambda c: (s["score"][c], -c))
    assert ev.recommendation == CHOICES[best]


# Conditioning, determinism, early stopping ---------------------------------------------------


def test_conditioning_rejects_and_accepted_deals_fit_the_bids():
    hand = _hand17(8)
    problem = bid_problem(hand, None, 2, "pass,pass")
    rows = run_rows(problem, 1, 21, 0, 40)
    assert rows[:, COL_ACCEPTED].all()
    assert rows[:, COL_ATTEMPTS].sum() > 40  # two passes in a row are not free
    for i, r in enumerate(rows):
        key = naive_bid.sample_key(21, i, int(r[COL_ATTEMPTS]) - 1)
        hands, _ = naive_bid.naive_deal(problem.unseen.tolist(), key, 2, hand, None)
        from ddz_tools.engines.policies import _bid_rule
        assert naive_bid.policy_bid(_bid_rule, hands[0], 1, FLAGS, 0, key, 0) == 0
        assert naive_bid.policy_bid(_bid_rule, hands[1], 1, FLAGS, 0, key, 1) == 0


def test_impossible_bids_are_reported():
    # Under the random policy every bid is possible; with max_attempts=1 most samples fail.
    ev = evaluate_bid(_hand17(4), seat=2, before="1,2", samples=250, seed=1, workers=1,
                      policy="random", max_attempts=1, early_stop=False)
    assert ev.failed > 0 and ev.samples + ev.failed == 250 and ev.rejected == ev.failed


@pytest.mark.parametrize("workers", [2, 3])
def test_same_result_for_any_workers(workers):
    kw = dict(seat=1, before="pass", samples=1250, seed=17, confidence=0.9)
    one = evaluate_bid(_hand17(5), workers=1, **kw).to_dict()
    many = evaluate_bid(_hand17(5), workers=workers, **kw).to_dict()
    assert one == many


def test_seed_changes_samples_but_not_definitions():
    a = evaluate_bid(_hand17(6), samples=250, seed=1, workers=1)
    b = evaluate_bid(_hand17(6), samples=250, seed=1, workers=1)
    c = evaluate_bid(_hand17(6), samples=250, seed=2, workers=1)
    assert a == b
    assert a.drawn == c.drawn == 250  # first seat: nothing to condition on
    assert run_rows(bid_problem(_hand17(6)), 1, 1, 0, 50).tolist() != \
        run_rows(bid_problem(_hand17(6)), 1, 2, 0, 50).tolist()


def test_early_stop_equals_a_full_run_of_the_same_prefix():
    hand = "3456789TJQKA222XD"  # two jokers, three 2s and a chain: bid 3 is far ahead
    ev = evaluate_bid(hand, samples=5000, seed=3, workers=2)
    assert ev.stopped_early and ev.indices < 5000 and ev.indices % bid.CHUNK == 0
    full = evaluate_bid(hand, samples=ev.indices, seed=3, workers=1, early_stop=False)
    assert full.choices == ev.choices and full.recommendation == ev.recommendation == "3"
    assert not evaluate_bid(hand, samples=ev.indices + bid.CHUNK, seed=3, workers=1, early_stop=False).stopped_early


def test_strong_hand_bids_three():
    ev = evaluate_bid("3456789TJQKA222XD", samples=1000, seed=2, workers=2)
    assert ev.recommendation == "3" and ev.win_prob > 0.8
    assert ev.choices["3"].expected_score > ev.choices["pass"].expected_score


def test_illegal_choices_are_not_evaluated():
    ev = evaluate_bid(_hand17(7), seat=2, before="1,2", samples=250, seed=4, workers=1, policy="random")
    d = ev.to_dict()
    assert d["expected_score"]["1"] is None and d["expected_score"]["2"] is None
    assert d["choices"]["1"] == {"legal": False} and ev.recommendation in ("pass", "3")


# Statistics --------------------------------------------------------------------------


@given(st.integers(1, 5000), st.data(), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
@settings(max_examples=200, deadline=None)
def test_wilson_matches_quadratic_roots(n, data, conf):
    k = data.draw(st.integers(0, n))
    lo, hi = wilson_interval(k, n, conf)
    z = NormalDist().inv_cdf(1 - (1 - conf) / 2)
    nlo, nhi = naive_bid.naive_wilson(k, n, z)
    assert lo == pytest.approx(max(0.0, nlo), abs=1e-9) and hi == pytest.approx(min(1.0, nhi), abs=1e-9)
    assert 0 <= lo <= k / n <= hi <= 1


@given(st.integers(0, 2**31), st.integers(0, 2), st.data())
@settings(max_examples=15, deadline=None)
def test_rows_obey_scoring_invariants(seed, seat, data):
    before = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=seat, max_size=seat))
    # Make the earlier bids legal: each non-pass higher than the last.
    fixed, top = [], 0
    for b in before:
        fixed.append(b if b > top else 0)
        top = max(top, fixed[-1])
    problem = bid_problem(_hand17(seed % 50), None, seat, fixed)
    rows = run_rows(problem, 0, seed, 0, 8, max_attempts=200)
    for r in rows[rows[:, COL_ACCEPTED] == 1]:
        for c in range(4):
            b = COL_CHOICE + NCOL_CHOICE * c
            if not problem.legal[c]:
                assert r[b] == -2
                continue
            rel, top_bid, won, mult, score = r[b:b + 5]
            if rel == -1:
                assert c == 0 and score == 0 and max(fixed, default=0) == 0
                continue
            assert top_bid >= max(c, max(fixed, default=0)) and mult & (mult - 1) == 0
            assert abs(score) == (2 if rel == 0 else 1) * top_bid * mult
            assert (score > 0) == ((rel == 0) == (won == 1))
            if rel == 0:
                assert (won, mult) == (r[COL_WON], r[COL_MULT])


# The command line ----------------------------------------------------------------------------


#: ``ddz`` run in this process (its status, stdout and stderr).
_ddz = run_ddz


def test_cli_json_and_table():
    out = _ddz("bid", "3456789TJQKA222XD", "--samples", "500", "--seed", "1", "--workers", "1",
               "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in ("hand", "samples", "win_prob", "win_prob_ci", "expected_score", "recommendation", "rules"):
        assert key in d
    assert set(d["expected_score"]) == {"pass", "1", "2", "3"} and d["rules"] == "standard"
    table = _ddz("bid", "3456789TJQKA222XD", "--samples", "500", "--seed", "1", "--workers", "1")
    assert table.returncode == 0 and "recommendation: 3" in table.stdout


def test_cli_errors_and_file(tmp_path):
    bad = _ddz("bid", "3456", "--samples", "10")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
    f = tmp_path / "hands.txt"
    f.write_text("# hands\n3456789TJQKA222XD\n3456\n334455677899TJJQK seat=second before=pass\n")
    out = _ddz("bid", "--file", str(f), "--samples", "250", "--workers", "1", "--format", "json")
    assert out.returncode == 1
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["seat"] for x in lines] == ["first", "second"]
    assert f"{f}:3:" in out.stderr


def test_rows_do_not_depend_on_the_work_tables():
    """A warm, shared memo table (reused between chunks) changes speed, never a result."""
    from ddz_tools.analysis.bid.sampling import D_BID, situation
    from ddz_tools.engines.policies import BUFFER, new_table

    problem = bid_problem(_hand17(12), None, 1, "pass")
    warm = run_rows(problem, 1, 8, 0, 30)
    run_rows(problem, 1, 9, 0, 30)  # fill the shared tables with other hands
    again = run_rows(problem, 1, 8, 0, 30)
    tiny = np.zeros((30, bid.NCOLS), np.int64)
    q = situation(D_BID, 1, me=1, mine=problem.me17, before=(0,), legal=problem.legal)
    auction._bid_chunk(problem.unseen, q, variant_of("standard").params, bid.seed_key(8), 0, 30, bid.MAX_ATTEMPTS,
                       tiny, new_table(4), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    assert warm.tolist() == again.tolist() == tiny.tolist()


def test_no_consistent_deal_is_an_error_after_one_chunk():
    with pytest.raises(BidError, match="no deal consistent with the earlier bids pass,1"):
        evaluate_bid(_hand17(9), seat=2, before="pass,1", samples=2000, workers=1, max_attempts=0)


def test_until_two_pass_is_modelled_and_named():
    hand = _hand17(10)
    kw = dict(seat=1, before="1", samples=250, seed=6, early_stop=False)
    one = evaluate_bid(hand, rules="standard,bidding=until-two-pass", workers=1, **kw)
    two = evaluate_bid(hand, rules="standard,bidding=until-two-pass", workers=2, **kw)
    assert one == two and one.to_dict()["rules"] == "standard,bidding=until-two-pass"
    single = evaluate_bid(hand, workers=1, **kw)
    # Same deals and the same playouts for this seat as landlord; only the later auction differs.
    assert single.win_prob == one.win_prob and single.drawn == one.drawn


def test_spring_any_player_only_adds_springs():
    """spring=any-player: the same deals and playouts, and a stake that is never
    lower; it is doubled exactly where the landlord won and one farmer (not
    both) played no card, which the landlord-only rule does not count."""
    from ddz_tools.engines.selfplay import R_SPRING, R_SPRING_ANY, playout
    from ddz_tools.engines.policies import BUFFER, new_table

    problem = bid_problem(_hand17(21), None, 0, ())
    plain = run_rows(problem, 1, 4, 0, 120)
    anyp = run_rows(bid_problem(_hand17(21), None, 0, (), "standard,spring=any-player"), 1, 4, 0, 120)
    cols = [bid.COL_ATTEMPTS, bid.COL_ACCEPTED, bid.COL_WON]
    assert plain[:, cols].tolist() == anyp[:, cols].tolist()
    ratio = anyp[:, bid.COL_MULT] / plain[:, bid.COL_MULT]
    assert set(ratio.tolist()) <= {1.0, 2.0}
    # The kernel's two spring flags on random playouts: "any" includes "landlord".
    rng = random.Random(3)
    work = (new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    extra = 0
    for _ in range(300):
        hands, bottom = random_deal(rng)
        arr = np.array([hands[0] + bottom, hands[1], hands[2]], np.int64)
        res = playout(arr, 0, np.array([1, 1, 1], np.int64), FLAGS, rng.randrange(2**31), *work)
        assert res[R_SPRING_ANY] >= res[R_SPRING]
        extra += res[R_SPRING_ANY] - res[R_SPRING]
    assert extra > 0
    ev = evaluate_bid(_hand17(21), samples=250, seed=4, workers=1, early_stop=False,
                      rules="standard,spring=any-player")
    assert ev.to_dict()["rules"] == "standard,spring=any-player"


# Doubling (Happy Dou Dizhu) ------------------------------------------------------------------

from ddz_tools.analysis.bid import (  # noqa: E402
    DCOL_ACCEPTED,
    DCOL_ATTEMPTS,
    DCOL_DOUBLES,
    DCOL_MULT,
    DCOL_SCORE,
    DCOL_SHOW,
    DCOL_WON,
    double_problem,
    evaluate_double,
    run_double_rows,
)


def _double_rows_as_naive(rows, problem) -> list:
    out = []
    for r in rows.tolist():
        d = {"attempts": r[DCOL_ATTEMPTS], "accepted": bool(r[DCOL_ACCEPTED])}
        if d["accepted"]:
            doubles = r[DCOL_DOUBLES:DCOL_DOUBLES + 3]
            doubles[problem.me] = None
            d.update(won=r[DCOL_WON], mult=r[DCOL_MULT], show=r[DCOL_SHOW], doubles=doubles,
                     scores={f: r[DCOL_SCORE + c] for c, f in enumerate((1, 2, 4)) if problem.legal[c]})
        out.append(d)
    return out


def _double_case(rng, place, spec):
    """A seat's hand and a bottom from a random deal: the landlord's 20 or a farmer's 17."""
    hands, bottom = random_deal(rng)
    hand = hands[0] + bottom if place == 2 else hands[0]
    return format_cards(hand), format_cards(bottom)


@pytest.mark.parametrize("place, before, policy, spec", [
    (0, "", 1, "happy"),
    (1, "1", 1, "happy"),
    (2, "1,1", 1, "happy"),
    (0, "", 0, "happy"),
    (2, "2,4", 0, "happy,doubling=global"),
    (1, "2", 0, "happy,super_double=off,bottom_bonus=table"),
])
def test_double_rows_equal_python_loop(place, before, policy, spec):
    rng = random.Random(f"double-{place}-{before}-{spec}")
    hand, bottom = _double_case(rng, place, spec)
    problem = double_problem(hand, bottom, place, before, base=2, rules=spec, flush=True)
    rows = run_double_rows(problem, policy, 5, 3, 10, max_attempts=400)
    expected = naive_bid.naive_double_rows(problem, policy, 5, 3, 10, max_attempts=400)
    assert _double_rows_as_naive(rows, problem) == expected
    assert any(r["accepted"] for r in expected)


def test_a_double_scales_this_seats_score():
    """The policies do not react to a factor, so each sample's score is
    linear in this seat's factor, per pair and globally."""
    for spec, place in (("happy", 0), ("happy,doubling=global", 2), ("happy", 1)):
        hand, bottom = _double_case(random.Random(spec + str(place)), place, spec)
        problem = double_problem(hand, bottom, place, ("1,1" if place == 2 else "1" if place == 1 else ""),
                                 rules=spec)
        rows = run_double_rows(problem, 0, 9, 0, 40, max_attempts=400)
        acc = rows[rows[:, DCOL_ACCEPTED] == 1]
        assert len(acc)
        assert (acc[:, DCOL_SCORE + 1] == 2 * acc[:, DCOL_SCORE]).all()
        assert (acc[:, DCOL_SCORE + 2] == 4 * acc[:, DCOL_SCORE]).all()


def test_evaluate_double_recommends_by_the_sign_of_the_expected_score():
    ev = evaluate_double("33344455567TJQKA22XD", "2XD", seat="third", before="1,1", samples=250, seed=2,
                         workers=1)
    assert ev.role == "landlord" and ev.win_prob > 0.9
    assert ev.recommendation == "x4" and ev.margin > 0
    ev = evaluate_double("3345566789TJQKA2D", "22X", seat="first", samples=250, seed=2, workers=1)
    best = max(ev.expected_score.items(), key=lambda kv: kv[1])[0]
    assert ev.recommendation == best
    assert ev.to_dict()["decision"] == "double" and set(ev.others_double) == {"landlord", "farmer2"}
    one = evaluate_double("3345566789TJQKA2D", "22X", seat="first", samples=600, seed=2, workers=1)
    two = evaluate_double("3345566789TJQKA2D", "22X", seat="first", samples=600, seed=2, workers=2)
    assert one.to_dict() == two.to_dict()


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules="standard"), "no double to decide"),
    (dict(rules="notalon,doubling=per-pair"), "no bottom"),
    (dict(seat="second"), r"after 1 seat\(s\), but 0 earlier"),
    (dict(seat="second", before="x3"), "not x1, x2 or x4"),
    (dict(seat="second", before="4", rules="happy,super_double=off"), "not allowed"),
    (dict(hand="3345566789TJQKA2"), "17 cards"),
    (dict(bottom=None), "give the bottom"),
    (dict(rules="happy,bottom_bonus=table", bottom="89Q"), "flush"),
    (dict(base=0), "base must be"),
])
def test_double_bad_input_is_one_line(kwargs, message):
    args = dict(hand="3345566789TJQKA2D", bottom="22X", seat="first", before="", rules="happy")
    args.update(kwargs)
    with pytest.raises(DdzError, match=message):
        evaluate_double(args.pop("hand"), args.pop("bottom"), samples=10, workers=1, **args)


def test_cli_double():
    out = _ddz("bid", "3345566789TJQKA2D", "--rules", "happy", "--decide", "double", "--bottom", "22X",
               "--base", "2", "--samples", "200", "--seed", "1", "--workers", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["decision"] == "double" and d["role"] == "farmer1" and set(d["expected_score"]) == {"x1", "x2", "x4"}
    table = _ddz("bid", "33344455567TJQKA22XD", "--rules", "happy", "--decide", "double", "--bottom", "2XD",
                 "--seat", "third", "--before", "x1,x1", "--samples", "100", "--workers", "1")
    assert table.returncode == 0 and "recommendation: x4" in table.stdout
    bad = _ddz("bid", "3345566789TJQKA2D", "--decide", "double", "--bottom", "22X")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "doubling=off" in bad.stderr


# Calling and grabbing ---------------------------------------------------------------------------

from ddz_tools.analysis.bid import CCOL_ACCEPTED, CCOL_ATTEMPTS, CCOL_CHOICE, call_problem, evaluate_call, run_call_rows  # noqa: E402,E501


def _call_rows_as_naive(rows) -> list:
    out = []
    for r in rows.tolist():
        d = {"attempts": r[CCOL_ATTEMPTS], "accepted": bool(r[CCOL_ACCEPTED])}
        if d["accepted"]:
            d["choices"] = []
            for c in range(2):
                b = CCOL_CHOICE + 5 * c
                d["choices"].append({"landlord": -1} if r[b] == -1 else
                                    {"landlord": r[b], "base": r[b + 1], "won": r[b + 2], "mult": r[b + 3],
                                     "score": r[b + 4]})
        out.append(d)
    return out


@pytest.mark.parametrize("seat, before, policy, spec", [
    (0, "", 1, "happy"),
    (1, "call", 1, "happy"),
    (2, "pass,call", 0, "happy"),
    (0, "call,grab,pass", 0, "happy,doubling=global"),      # the caller's last word
    (1, "call", 0, "happy,must_call=jokers"),
    (2, "pass,pass", 1, "notalon"),
    (0, "", 0, "notalon,landlord_draw=on"),
])
def test_call_rows_equal_python_loop(seat, before, policy, spec):
    rng = random.Random(f"call-{seat}-{before}-{spec}")
    n = Rules.parse(spec).hand_cards
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    hand = sum(1 << (4 * r) for r in deck[:n])
    problem = call_problem(format_cards(hand), seat, before, spec)
    rows = run_call_rows(problem, policy, 7, 2, 8, max_attempts=300)
    expected = naive_bid.naive_call_rows(problem, policy, 7, 2, 8, max_attempts=300)
    assert _call_rows_as_naive(rows) == expected
    assert any(r["accepted"] for r in expected)


def test_call_rows_with_the_bottom_bonus_equal_python_loop():
    # Enough samples that some sampled bottom is drawn a flush (x3) under bottom_bonus=table.
    spec = "happy,bottom_bonus=table"
    problem = call_problem("3345566789TJQKA2D", 0, "", spec)
    rows = run_call_rows(problem, 1, 3, 0, 48, max_attempts=300)
    assert _call_rows_as_naive(rows) == naive_bid.naive_call_rows(problem, 1, 3, 0, 48, max_attempts=300)


@pytest.mark.parametrize("seat, before, policy, spec, wild", [
    (0, "", 1, "laizi,bidding=call-grab,show=qq,doubling=per-pair", ""),
    (1, "call", 0, "laizi,bidding=call-grab,show=qq,doubling=per-pair,super_double=on", ""),
    (2, "pass,call", 0, "tiandi,bidding=call-grab,show=qq,doubling=global", "5"),
    (1, "pass", 1, "tiandi,bidding=first-call", ""),
    (2, "pass,pass", 0, "laizi,bidding=call-grab,laizi_reveal=before-bidding,doubling=per-pair", "9"),
])
def test_laizi_call_rows_equal_python_loop(seat, before, policy, spec, wild):
    """Under Laizi rules each sampled deal draws the wild ranks the caller
    does not know: the auction sees those turned up before it, the doubles,
    the show and the play every one (bombs by tier)."""
    rules = Rules.parse(spec).with_wild(wild) if wild else Rules.parse(spec)
    rng = random.Random(f"laizi-call-{seat}-{before}-{spec}")
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    problem = call_problem(format_cards(sum(1 << (4 * r) for r in deck[:17])), seat, before, rules)
    assert problem.given == known_wild(rules)
    rows = run_call_rows(problem, policy, 5, 1, 8, max_attempts=300)
    expected = naive_bid.naive_call_rows(problem, policy, 5, 1, 8, max_attempts=300)
    assert _call_rows_as_naive(rows) == expected
    assert any(r["accepted"] for r in expected)


def test_laizi_call_draws_the_wild_ranks_and_refuses_what_no_caller_knows():
    ev = evaluate_call("3456789TJQKA2222X", "second", "call", samples=16, seed=1, workers=1,
                       rules="laizi,bidding=call-grab,show=qq,doubling=per-pair")
    d = ev.to_dict()
    assert d["wild"] == "" and d["wild_drawn"] == 1 and ev.wild_note() == ", wild 1 drawn a deal"
    tiandi = Rules.parse("tiandi,bidding=call-grab,show=qq").with_wild("5")
    assert evaluate_call("3456789TJQKA2222X", samples=16, seed=1, workers=1, rules=tiandi).wild_note() == \
        ", wild 5 known, 1 drawn a deal"
    with pytest.raises(RulesError, match="no wild rank is known at the bid"):
        call_problem("3456789TJQKA2222X", rules=Rules.parse("laizi,bidding=call-grab").with_wild("9"))
    with pytest.raises(RulesError, match="turn every wild rank up before the bidding"):
        call_problem("3456789TJQKA2222X", rules="laizi,bidding=call-grab,laizi_reveal=before-bidding")
    # The classic call is unchanged: nothing drawn, no wild fields.
    assert "wild" not in evaluate_call("3456789TJQKA2222X", samples=16, seed=1, workers=1).to_dict()


def test_sampled_flush_equals_python_and_has_its_chance():
    rng = random.Random(11)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    eligible = flushes = 0
    for i in range(4000):
        bottom = sum(1 << (4 * r) for r in rng.sample(deck, 3))
        key = rng.getrandbits(32)
        got = sampled_flush(bottom, key)
        assert got == int(naive_bid.naive_flush(bottom, key))
        counts = counts_of(bottom)
        if counts[13] + counts[14] == 0 and max(counts) == 1:
            eligible += 1
            flushes += got
        else:
            assert got == 0
    # 1/16 of the eligible bottoms, within five standard deviations.
    p = 1 / 16
    assert abs(flushes - eligible * p) < 5 * math.sqrt(eligible * p * (1 - p))


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules="standard"), "call-grab or first-call"),
    (dict(seat="second"), "first seat's turn"),
    (dict(seat="second", before="call,call,call,call"), "auction is over"),
    (dict(before="raise"), "not pass, call or grab"),
    (dict(hand="3345566789TJQKA2"), "17"),
    (dict(rules="notalon"), "18"),
])
def test_call_bad_input_is_one_line(kwargs, message):
    args = dict(hand="3345566789TJQKA2D", seat="first", before="", rules="happy")
    args.update(kwargs)
    with pytest.raises(DdzError, match=message):
        evaluate_call(args.pop("hand"), samples=10, workers=1, **args)


def test_call_evaluation_and_cli():
    ev = evaluate_call("3456789TJQKA2222X", "second", "call", samples=300, seed=1, workers=1)
    assert ev.what == "grab" and ev.recommendation == "grab" and ev.choices["grab"].landlord_prob > 0.5
    assert ev.to_dict() == evaluate_call("3456789TJQKA2222X", "second", "call", samples=300, seed=1,
                                         workers=2).to_dict()
    out = _ddz("bid", "3456789TJQKA2222X", "--rules", "happy", "--decide", "call", "--seat", "second",
               "--before", "call", "--samples", "200", "--seed", "1", "--workers", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["decision"] == "grab" and set(d["expected_score"]) == {"pass", "grab"}
    table = _ddz("bid", "33445566778899TJQK", "--rules", "notalon", "--decide", "call", "--seat", "third",
                 "--before", "pass,pass", "--samples", "100", "--workers", "1")
    assert table.returncode == 0 and "recommendation: call" in table.stdout


# Showing the hand (Happy Dou Dizhu) -----------------------------------------------------------

from ddz_tools.analysis.bid import (SCOL_ACCEPTED, SCOL_ATTEMPTS, SCOL_BASE, SCOL_LANDLORD, SCOL_LL_SHOW,  # noqa: E402
                          SCOL_MULT, SCOL_SCORE, SCOL_WON, evaluate_show, run_show_rows, show_problem)


def _show_rows_as_naive(rows) -> list:
    out = []
    for r in rows.tolist():
        d = {"attempts": r[SCOL_ATTEMPTS], "accepted": bool(r[SCOL_ACCEPTED])}
        if d["accepted"]:
            if r[SCOL_LANDLORD] < 0:
                d["landlord"] = -1
            else:
                d.update(landlord=r[SCOL_LANDLORD], base=r[SCOL_BASE], won=r[SCOL_WON], mult=r[SCOL_MULT],
                         ll_show=r[SCOL_LL_SHOW], scores=[r[SCOL_SCORE], r[SCOL_SCORE + 1]])
        out.append(d)
    return out


@pytest.mark.parametrize("seat, seen, policy, spec", [
    (0, 0, 1, "happy"),
    (1, 5, 0, "happy"),
    (2, 12, 1, "happy,show=dianle,show_merge=product"),
    (0, 17, 0, "happy,doubling=global,must_call=jokers"),
    (1, 9, 0, "notalon,show=qq,landlord_draw=on,doubling=per-pair"),
    (2, 7, 1, "happy,show_split=3,show_merge=product,bottom_bonus=table"),
])
def test_show_rows_during_the_deal_equal_python_loop(seat, seen, policy, spec):
    rng = random.Random(f"show-{seat}-{seen}-{spec}")
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    hand = format_cards(sum(1 << (4 * r) for r in deck[:seen])) if seen else ""
    problem = show_problem(hand, "deal", seat, rules=spec)
    assert problem.stage == seen
    rows = run_show_rows(problem, policy, 3, 5, 12)
    expected = naive_bid.naive_show_rows(problem, policy, 3, 5, 12, max_attempts=1)
    assert _show_rows_as_naive(rows) == expected
    assert any(r.get("landlord", -1) >= 0 for r in expected)


@pytest.mark.parametrize("before, shown, policy, spec", [
    ("x1,x1,x2", "", 1, "happy"),
    ("x1,x1,x4", "deal:3", 1, "happy,show_merge=product"),
    ("x2,x1,x4", "before-deal,deal:9", 0, "happy"),
    ("x4,x2,x1", "deal:12", 0, "happy,show=dianle,show_merge=product,doubling=global"),
    ("", "", 0, "happy,doubling=off,bottom_bonus=table"),
])
def test_show_rows_at_the_first_play_equal_python_loop(before, shown, policy, spec):
    rng = random.Random(f"show-first-{before}-{spec}")
    hands, bottom = random_deal(rng)
    problem = show_problem(format_cards(hands[0] + bottom), "first-play", before=before, bottom=format_cards(bottom),
                           base=2, shown=shown, rules=spec, flush=True)
    rows = run_show_rows(problem, policy, 4, 2, 10, max_attempts=300)
    expected = naive_bid.naive_show_rows(problem, policy, 4, 2, 10, max_attempts=300)
    assert _show_rows_as_naive(rows) == expected
    assert any(r["accepted"] for r in expected)


@pytest.mark.parametrize("seat, seen, policy, spec, wild", [
    (0, 0, 1, "laizi,bidding=call-grab,show=qq,doubling=per-pair", ""),
    (1, 9, 0, "laizi,bidding=call-grab,show=qq,doubling=global,show_merge=product", ""),
    (2, 13, 0, "tiandi,bidding=call-grab,show=qq,doubling=per-pair", "5"),
    (0, 5, 1, "laizi,bidding=first-call,show=dianle,laizi_reveal=before-bidding", "J"),
])
def test_laizi_show_rows_during_the_deal_equal_python_loop(seat, seen, policy, spec, wild):
    rules = Rules.parse(spec).with_wild(wild) if wild else Rules.parse(spec)
    rng = random.Random(f"laizi-show-{seat}-{seen}-{spec}")
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    hand = format_cards(sum(1 << (4 * r) for r in deck[:seen])) if seen else ""
    problem = show_problem(hand, "deal", seat, rules=rules)
    assert problem.given == known_wild(rules)
    rows = run_show_rows(problem, policy, 6, 3, 10)
    expected = naive_bid.naive_show_rows(problem, policy, 6, 3, 10, max_attempts=1)
    assert _show_rows_as_naive(rows) == expected
    assert any(r.get("landlord", -1) >= 0 for r in expected)


@pytest.mark.parametrize("before, spec, wild", [
    ("x1,x1,x2", "laizi,bidding=call-grab,show=qq,doubling=per-pair", "9"),
    ("x2,x1,x4", "tiandi,bidding=call-grab,show=qq,doubling=per-pair,super_double=on", "5,9"),
])
def test_laizi_show_rows_at_the_first_play_equal_python_loop(before, spec, wild):
    """At the first play the landlord is known, and so every wild rank: given."""
    rules = Rules.parse(spec).with_wild(wild)
    hands, bottom = random_deal(random.Random(f"laizi-show-first-{spec}"))
    problem = show_problem(format_cards(hands[0] + bottom), "first-play", before=before, bottom=format_cards(bottom),
                           base=2, rules=rules)
    rows = run_show_rows(problem, 1, 4, 0, 8, max_attempts=300)
    expected = naive_bid.naive_show_rows(problem, 1, 4, 0, 8, max_attempts=300)
    assert _show_rows_as_naive(rows) == expected
    assert any(r["accepted"] for r in expected)
    with pytest.raises(RulesError, match="need the deal's laizi rank"):
        show_problem(format_cards(hands[0] + bottom), "first-play", before=before, bottom=format_cards(bottom),
                     rules=spec)


def test_show_scores_scale_by_the_show():
    """During the deal the policies ignore a show: where nobody shows at the
    first play, showing multiplies the score by the show's factor; where
    this seat is the landlord and would have shown at his first play (x2),
    by 3/2 (it showed already, once); where another landlord shows, the
    larger factor stands (show_merge=max); a void deal scores 0 either way."""
    problem = show_problem("3456789TJQKA2X", "deal", "second", rules="happy")
    rows = run_show_rows(problem, 0, 11, 0, 80)     # the random policy shows at his first play half the time
    ll, no, yes, llshow = rows[:, SCOL_LANDLORD], rows[:, SCOL_SCORE], rows[:, SCOL_SCORE + 1], rows[:, SCOL_LL_SHOW]
    plain = (ll >= 0) & (llshow == 1)
    assert (yes[plain] == problem.factor * no[plain]).all()
    mine = (ll == 0) & (llshow == 2)
    assert (2 * yes[mine] == problem.factor * no[mine]).all()
    other = (ll > 0) & (llshow == 2)
    assert (2 * yes[other] == problem.factor * no[other]).all()
    assert (no[ll < 0] == 0).all() and (yes[ll < 0] == 0).all()
    assert problem.factor == 3 and plain.any() and (mine.any() or other.any())


def test_evaluate_show_recommends_and_is_the_same_for_any_workers():
    ev = evaluate_show("33344455567TJQKA22XD", "first-play", before="x1,x1,x4", bottom="2XD", base=2,
                       samples=250, seed=2, workers=1)
    assert ev.seat == "landlord" and ev.factor == 2 and ev.win_prob > 0.9
    assert ev.recommendation == "show" and ev.margin > 0
    d = ev.to_dict()
    assert d["decision"] == "show" and d["stage"] == "first-play" and d["rules"] == "happy"
    assert d["show"] == "qq" and d["show_merge"] == "max" and set(d["expected_score"]) == {"no", "show"}
    one = evaluate_show("3456789TJQKA2", "deal", "third", samples=600, seed=3, workers=1)
    two = evaluate_show("3456789TJQKA2", "deal", "third", samples=600, seed=3, workers=2)
    assert one.to_dict() == two.to_dict() and one.stage == "deal:13"
    # Under show_merge=max a farmer's earlier x4 already covers the landlord's x2.
    tie = evaluate_show("33344455567TJQKA22XD", "first-play", before="x1,x1,x4", bottom="2XD", shown="deal:3",
                        samples=250, seed=2, workers=1)
    assert tie.margin == 0 and tie.expected_score["no"] == tie.expected_score["show"]


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules="standard"), "show=off"),
    (dict(rules="happy,show=off"), "show=off"),
    (dict(rules="four"), "four-player"),
    (dict(rules="laizi,show=qq"), "call-grab or first-call"),
    (dict(stage="middle"), "not before-deal, deal, deal:N or first-play"),
    (dict(stage="deal:5"), "after 5 cards dealt"),
    (dict(hand="33445566778899TTJQK"), "a seat is dealt 17"),
    (dict(hand="3456789TJQKA2345X", rules="happy,show=dianle"), "no show at deal:17 under show=dianle"),
    (dict(rules="happy,bidding=single-round"), "call-grab or first-call"),
    (dict(before="x2"), "first-play"),
    (dict(bottom="22X"), "first-play"),
    (dict(base=2), "base is set by the auction"),
    (dict(seat="fourth"), "first, second or third"),
    (dict(stage="first-play"), "20 cards"),
    (dict(stage="first-play", hand="3456789TJQKA2345X", seat="first"), "only the landlord"),
    (dict(stage="first-play", hand="3456789TJQKA2345X"), "a farmer's 17 cannot"),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", bottom="2XD", before="x1,x1"), "three factors"),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", bottom="2XD", before="x1,x1,x2", shown="first-play"),
     "farmers show before-deal or at deal:N"),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", bottom="2XD", before="x1,x1,x2"), None),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", before="x1,x1,x2"), "give the bottom"),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", bottom="89X", before="x1,x1,x2"), "not 3 cards of"),
    (dict(stage="first-play", hand="33344455567TJQKA22XD", bottom="2XD", before="x1,x1,x4",
          rules="happy,super_double=off"), "not allowed"),
    (dict(stage="first-play", hand="334455667789TTJQKAXD", rules="notalon,show=qq,landlord_draw=on"), "no bottom"),
])
def test_show_bad_input_is_one_line(kwargs, message):
    args = dict(hand="3456789TJQKA2", stage="deal", rules="happy")
    args.update(kwargs)
    if message is None:
        assert show_problem(**args).first_play
        return
    with pytest.raises(DdzError, match=message) as err:
        evaluate_show(samples=10, workers=1, **args)
    assert "\n" not in str(err.value) and "--" not in str(err.value)


def test_cli_show():
    out = _ddz("bid", "3456789TJQKA2", "--rules", "happy", "--decide", "show", "--seat", "second", "--samples",
               "250", "--seed", "1", "--workers", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["decision"] == "show" and d["stage"] == "deal:13" and d["factor"] == 3 and d["seat"] == "second"
    assert d["rules"] == "happy" and d["recommendation"] in ("no", "show")
    before = _ddz("bid", "--rules", "happy", "--decide", "show", "--stage", "before-deal", "--samples", "250",
                  "--workers", "1")
    assert before.returncode == 0, before.stderr
    assert "no card yet" in before.stdout and "before-deal (x5)" in before.stdout
    table = _ddz("bid", "33344455567TJQKA22XD", "--rules", "happy", "--decide", "show", "--stage", "first-play",
                 "--bottom", "2XD", "--base", "2", "--before", "x1,x1,x4", "--samples", "100", "--workers", "1")
    assert table.returncode == 0 and "recommendation: show" in table.stdout, table.stderr
    bad = _ddz("bid", "3456789TJQKA2345X", "--rules", "happy", "--decide", "show", "--stage", "first-play",
               "--seat", "first")
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "--seat first" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    off = _ddz("bid", "3456789TJQKA2", "--decide", "show")
    assert off.returncode == 2 and "show=off" in off.stderr
    other = _ddz("bid", "3345566789TJQKA2D", "--rules", "happy", "--decide", "double", "--bottom", "22X",
                 "--stage", "first-play")
    assert other.returncode == 2 and "--decide show" in other.stderr


# Inference: the earlier actions read by the player model -------------------------------------------

from ddz_tools.analysis.bid.sampling import D_BID, D_CALL, D_DOUBLE, Q_BOTTOM, model_loglik, situation  # noqa: E402
from ddz_tools.core.gamerules import AUCTION_SIZE  # noqa: E402
from ddz_tools.engines.playermodel import SCALE, load_model  # noqa: E402


def _deal(rng, n: int) -> list:
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    rng.shuffle(deck)
    return [pack_ranks(deck[n * k:n * (k + 1)]) for k in range(3)], pack_ranks(deck[3 * n:])


@pytest.mark.parametrize("decision, spec, me, before, won_at", [
    ("bid", "standard", 1, (0,), -1),
    ("bid", "standard", 2, (0, 1), -1),
    ("bid", "standard", 2, (1, 2), -1),
    ("bid", "standard,bidding=until-two-pass", 2, (0, 0), -1),
    ("call", "happy", 2, (0, 1), -1),
    ("call", "happy", 0, (1, 1, 0), -1),          # this seat called, was grabbed: grab back?
    ("call", "happy,must_call=jokers", 1, (1,), -1),
    ("call", "notalon", 2, (0, 0), -1),
    ("double", "happy", 1, (2,), 0),
    ("double", "happy", 2, (1, 4), 0),
    ("double", "happy", 0, (2, 2), -1),           # the landlord: no auction test
])
def test_model_loglik_equals_python(decision, spec, me, before, won_at):
    """The likelihood a sampled deal is kept with under inference, against
    the player model's probabilities of each earlier action (Python, from
    the rules text) on 30 random deals."""
    rules = Rules.parse(spec)
    model = load_model(rules)
    code = {"bid": D_BID, "call": D_CALL, "double": D_DOUBLE}[decision]
    q = situation(code, 1, me=me, before=before, won_at=won_at, model=model)
    params = variant_of(rules).params
    rng = random.Random(f"loglik-{decision}-{spec}-{before}")
    with mc.policy_work() as (table, _, _):
        for _ in range(30):
            hands, bottom = _deal(rng, rules.hand_cards)
            if decision == "double":
                q[Q_BOTTOM] = bottom
            flags = rules.flags
            got = model_loglik(q, params, np.array(hands, np.int64), flags, np.empty(AUCTION_SIZE, np.int64),
                               table)
            want = naive_bid.naive_model_likelihood(decision, rules, model, hands, me, before, won_at, bottom)
            assert want > 0
            assert math.isclose(math.exp(got / SCALE), want, rel_tol=1e-4), (hands, got, want)


@pytest.mark.parametrize("case", [
    dict(seat=1, before=("pass",)),
    dict(seat=2, before=("pass", "1")),
    dict(seat=2, before=("1", "2")),
    dict(seat=2, before=("pass", "pass"), bottom=True),
])
def test_model_rows_equal_python_loop(case):
    """Under inference the bid kernel keeps exactly the deals the Python loop
    keeps (a uniform draw below the model's likelihood of the earlier bids)
    and plays them out the same."""
    rules = Rules.parse("standard")
    model = load_model(rules)
    hands, bottom = random_deal(random.Random(f"model-rows-{case}"))
    if case.get("bottom"):
        problem = bid_problem(hands[0] + bottom, format_cards(bottom), case["seat"], case["before"], rules)
    else:
        problem = bid_problem(hands[0], None, case["seat"], case["before"], rules)
    rows = run_rows(problem, 1, 13, 3, 8, max_attempts=300, model=model)
    expected = naive_bid.naive_rows(problem, 1, FLAGS, 13, 3, 8, max_attempts=300, model=model, rules=rules)
    assert _rows_as_naive(rows, problem.legal) == expected
    assert any(r["accepted"] for r in expected)


def test_inference_is_named_in_the_result_and_keeps_the_floor():
    """The result says whether the earlier bids were read by the player
    model; a drawn deal is kept at least with the model's floor chance
    (eps / legal bids), so even a bid the policy's rule seldom makes keeps
    deals (the first seat bid 2 while this seat holds every 2, both jokers
    and the aces)."""
    hand = "56789TJAAAA2222XD"
    kw = dict(seat="second", before="2", samples=60, seed=3, workers=1, early_stop=False)
    on = evaluate_bid(hand, inference=True, **kw)
    assert on.inference and on.to_dict()["inference"] is True
    assert on.failed == 0 and on.samples == 60
    floor = load_model("standard").types[0]["eps"] / 4
    assert on.samples / on.drawn >= floor
    off = evaluate_bid(hand, **kw)
    assert off.inference is False and off.to_dict()["inference"] is False


def test_inference_same_for_any_workers_and_in_every_evaluator():
    kw = dict(samples=120, seed=5, early_stop=False, inference=True)
    a = evaluate_bid("3455789TJQKKA222D", seat="third", before="pass,1", workers=1, **kw)
    b = evaluate_bid("3455789TJQKKA222D", seat="third", before="pass,1", workers=2, **kw)
    assert a.to_dict() == b.to_dict()
    c = bid.evaluate_call("3345566789TJQKA2D", "third", "call,pass", rules="happy", workers=1, **kw)
    d = bid.evaluate_double("3345566789TJQKA2D", "22X", seat="second", before="1", rules="happy", workers=1, **kw)
    s = bid.evaluate_show("33445566789TJQKA22XD", "first-play", bottom="22X", before="x1,x1,x1", rules="happy",
                          workers=1, **kw)
    for e in (c, d, s):
        assert e.inference and e.samples == 120


def test_inference_keeps_deals_for_doubles_the_policy_never_makes():
    """Farmer2 holds 2, A, K, Q, the bottom is 22X, and farmer1 doubled: the
    policy's doubling rule never doubles with what is left (no deal in
    240,000 draws, an error); the player model keeps deals (its floor keeps
    every factor possible)."""
    kw = dict(seat="second", before="2", rules="happy", workers=1, samples=120, seed=5, early_stop=False)
    with pytest.raises(BidError, match="the heuristic policy .almost. never plays the other seats that way"):
        bid.evaluate_double("3345566789TJQKA2D", "22X", **kw)
    ev = bid.evaluate_double("3345566789TJQKA2D", "22X", inference=True, **kw)
    assert ev.samples > 0 and ev.samples + ev.failed == 120


def test_cli_inference():
    args = ("bid", "3455789TJQKKA222D", "--seat", "third", "--before", "pass,1", "--samples", "200",
            "--no-early-stop", "--seed", "1", "--workers", "1", "--inference")
    out = _ddz(*args, "on", "--format", "json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["inference"] is True and d["samples"] == 200
    off = json.loads(_ddz(*args, "off", "--format", "json").stdout)
    assert off["inference"] is False
    table = _ddz(*args, "on")
    assert "rejected by the earlier bids, read by the player model" in table.stdout
    bad = _ddz(*args, "maybe")
    assert bad.returncode == 2 and "--inference" in bad.stderr and "Traceback" not in bad.stderr
