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
