"""The belief tables of the advisor's drawn deals (``analysis/advise/beliefs.py``)."""

import numpy as np
import pytest

from ddz_tools.analysis.advise import counts_view, view_from_record
from ddz_tools.analysis.advise.beliefs import beliefs, holding_names, summarise
from ddz_tools.analysis.advise.sampling import draw_deals
from ddz_tools.core.cards import RANKS, counts_of, parse_cards
from ddz_tools.engines.selfplay import simulate


@pytest.fixture(scope="module")
def views():
    out = []
    for spec in ("standard", "laizi", "four", "notalon"):
        for rec in simulate(2, "heuristic", seed=5, rules=spec):
            for move in (1, 6, 14):
                if move < len(rec["plays"]):
                    out.append(view_from_record(rec, move))
    return out


def test_expected_counts_add_up_to_each_hidden_hand(views):
    for v in views:
        b = beliefs(v, 64, seed=3)
        assert len(b.hands) == v.players - 1 and b.ess == pytest.approx(64)
        for h in b.hands:
            s = v.seats.index(h.seat)
            assert h.cards == v.counts[s]
            assert sum(h.expected) == pytest.approx(v.counts[s])
            p = [h.holdings[f"2 >= {k}"] for k in range(1, 4 * v.rules.decks + 1)]
            assert all(a >= b - 1e-12 for a, b in zip(p, p[1:])) and all(0 <= x <= 1 for x in p)
            assert list(h.holdings) == holding_names(v)


def test_a_weight_on_one_deal_gives_that_deal():
    v = counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")
    deals = draw_deals(v, 0, 32, 1)[0]
    w = np.zeros(len(deals))
    w[5] = 2.0
    hands, ess = summarise(v, deals, w)
    assert ess == pytest.approx(1.0)
    for h in hands:
        got = deals[5][v.seats.index(h.seat)]
        assert list(h.expected) == pytest.approx(counts_of(got))
    with pytest.raises(ValueError, match="weights"):
        summarise(v, deals, np.zeros(len(deals)))


def test_a_fixed_deal_is_known_exactly():
    v = counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")
    b = beliefs(v, 200, seed=2)
    # Every deal of the pool: the two hidden hands together hold it exactly.
    total = [sum(h.expected[r] for h in b.hands) for r in range(len(RANKS))]
    assert total == pytest.approx(counts_of(parse_cards("3456789")))


def test_laizi_views_name_the_wild_cards(views):
    v = next(v for v in views if v.rules.wild)
    names = holding_names(v)
    assert "wild >= 1" in names and "wild >= 5" not in names


# Inference: the deals weighed by the other seats' plays ------------------------------------------

from ddz_tools.analysis.advise import Reader, advise, infer_deals, read_beliefs, weigh  # noqa: E402
from ddz_tools.analysis.advise.inference import POOL, _systematic  # noqa: E402


def test_weigh_tempers_only_a_collapsed_weighting():
    flat = weigh(np.zeros(40))
    assert flat.alpha == 1 and flat.ess == pytest.approx(40) and flat.weights.sum() == pytest.approx(1)
    steep = weigh(np.arange(40) * -5.0)
    assert steep.alpha < 1 and steep.ess == pytest.approx(10, rel=1e-3)
    assert np.all(np.diff(steep.weights) <= 0)            # likelier deals keep more weight


def test_systematic_resampling_keeps_deals_in_proportion():
    w = np.array([0.5, 0.25, 0.0, 0.25])
    for u in (0.0, 0.3, 0.99):
        keep = _systematic(w, 8, u)
        assert np.bincount(keep, minlength=4).tolist() == [4, 2, 0, 2]


def test_the_true_deal_of_heuristic_play_reads_likelier_than_drawn_ones():
    """Heuristic self-play: the reader puts the true hidden hands above most
    deals drawn without inference (the other seats played as the model's
    heuristic type does)."""
    from ddz_tools.engines.records import game_before_play, parse_record

    ranks = []
    for rec in simulate(6, "heuristic", seed=8):
        move = len(rec["plays"]) // 2
        v = view_from_record(rec, move)
        r = Reader.of(v)
        if r is None:
            continue
        g = game_before_play(parse_record(rec))
        for seat, text in parse_record(rec).plays[:move - 1]:
            g.play(text, seat)
        truth = tuple(g.hands[(g.landlord + i) % g.seats] for i in range(g.seats))
        ll = r.loglik([truth] + draw_deals(v, 0, 63, 4)[0])
        ranks.append(float(np.mean(ll[1:] < ll[0])))
    assert len(ranks) >= 4 and np.mean(ranks) > 0.6, ranks
    assert Reader.of(counts_view("KK", "farmer2", "3,4,2", after="QQ", by="farmer1", unseen="3456789")) is None


def test_inference_keeps_as_many_deals_and_is_deterministic(views):
    v = next(v for v in views if Reader.of(v) is not None and len(v.played) >= 6)
    a = infer_deals(v, 16, 16, 7)
    b = infer_deals(v, 16, 16, 7)
    assert len(a[0]) == 16 and a[0] == b[0] and a[3].ess >= 0.25 * 16 * POOL - 1e-9
    one = advise(v, samples=32, seed=3, inference=True, early_stop=False)
    two = advise(v, samples=32, seed=3, inference=True, early_stop=False, workers=2)
    assert one.inference and one.ess is not None and [c.to_dict() for c in one.candidates] == \
        [c.to_dict() for c in two.candidates]


def test_beliefs_with_inference_on_the_same_deals(views):
    v = next(v for v in views if Reader.of(v) is not None)
    rep = read_beliefs(v, 64, seed=2)
    assert not rep.plain.inference and rep.inferred.inference and rep.inferred.ess <= 64
    d = rep.to_dict()
    assert set(d) == {"view", "rules", "without_inference", "with_inference"}
    for a, b in zip(rep.plain.hands, rep.inferred.hands):
        assert sum(a.expected) == pytest.approx(sum(b.expected))


@pytest.mark.parametrize("spec", ["standard", "standard,bidding=until-two-pass", "happy", "notalon"])
def test_reader_scores_every_earlier_action_as_the_record_does(spec):
    """The reader of a view (the model reading every bid) scores the other
    seats' bids (or calls and grabs), doubles, the show and plays on the true
    hands exactly as the model scores the record cut at that move (two
    paths: the view's, the record's)."""
    from ddz_tools.engines.playermodel import history_loglik
    from ddz_tools.engines.records import game_before_play, parse_record

    checked = 0
    for rec in simulate(4, "heuristic", seed=21, rules=spec):
        parsed = parse_record(rec)
        move = len(rec["plays"]) // 2
        v = view_from_record(rec, move)
        # By default the model reads only the bids the sampler's rule cannot: the calls and grabs.
        default = Reader.of(v)
        assert default.reads_auction == (spec == "happy") and default.auction(True) == (spec != "happy")
        assert not Reader.of(v, bids="none").reads_auction
        r = Reader.of(v, bids="model")
        assert r is not None and r.reads_auction and r.auction(True) is False
        g = game_before_play(parsed)
        for seat, text in parsed.plays[:move - 1]:
            g.play(text, seat)
        n = g.seats
        truth = tuple(g.hands[(g.landlord + i) % n] for i in range(n))
        me = (g.landlord + v.me) % n
        cut = dict(rec, plays=rec["plays"][:move - 1])
        want = sum(row["loglik"] for row in history_loglik(cut, [s for s in range(n) if s != me]))
        assert r.loglik([truth])[0] == pytest.approx(want, abs=1e-5)
        checked += 1
    assert checked == 4


def test_reader_leaves_the_bids_to_the_rule_where_it_cannot_tell_the_dealt_hands():
    """A four-player farmer does not see the bottom: the landlord's cards at
    the auction are unknown, so the bids stay the sampler's rule's."""
    rec = next(simulate(1, "heuristic", seed=5, rules="four"))
    v = view_from_record(rec, len(rec["plays"]) // 2)
    r = Reader.of(v, bids="model")
    assert v.bottom is None and r is not None
    assert not r.reads_auction and r.auction(True) is True
    with pytest.raises(ValueError, match="bids must be one of rule, model, none"):
        Reader.of(v, bids="maybe")
