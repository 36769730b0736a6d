"""Four-player plays (two decks): the kernel generator and the readings against
the plain-Python reference (naive_four), the Shanghai play list of a public
engine, and the bad input of two decks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ddz_tools.core.cards import FULL_DECK, card_count, format_cards, is_valid_packed, pack_counts, parse_cards
from ddz_tools.core.errors import CardError, RulesError
from ddz_tools.moves.movegen import generate
from ddz_tools.core.rules import Play, Rules, classify, readings
from conftest import DATA
from naive_four import naive_answers, naive_beats, naive_leads, naive_readings

VARIANTS = ["four", "four,chains=shanghai", "four,wing_pairs_consecutive=on",
            "four,chains=shanghai,wing_pairs_consecutive=on", "four,top_bomb=bomb8"]


def two_deck_hands(seed: int, count: int, limit: int = 30000) -> list[int]:
    """Random two-deck hands built on a window of the Shanghai chain sequence
    (``A23456789TJQKA``), with 1 to 8 cards of each rank of the window, so
    that chains, airplanes, wings and bombs appear; small enough to enumerate
    every sub-multiset (at most ``limit``)."""
    rng = random.Random(seed)
    seq = [11, 12] + list(range(12))
    out = []
    while len(out) < count:
        width = rng.randint(3, 7)
        start = rng.randint(0, len(seq) - width)
        counts = [0] * 15
        for r in seq[start:start + width]:
            counts[r] = min(8, counts[r] + rng.choice((1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 8)))
        counts[13], counts[14] = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1, 2))
        size = 1
        for c in counts:
            size *= c + 1
        if size <= limit:
            out.append(pack_counts(counts))
    return out


def plays(hand: int, rules: Rules, prev_kind: int = 0) -> set:
    m = generate(hand, rules=rules, after=None if prev_kind == 0 else Play(0, prev_kind))
    got = list(zip(m.cards.tolist(), m.kinds.tolist()))
    assert len(got) == len(set(got)), "a play generated twice"
    return set(got)


@pytest.mark.parametrize("spec", VARIANTS)
def test_leads_and_answers_equal_the_reference(spec):
    _leads_and_answers(spec, two_deck_hands(VARIANTS.index(spec), 12, limit=12000))


@pytest.mark.slow
@pytest.mark.parametrize("spec", VARIANTS)
def test_leads_and_answers_equal_the_reference_exhaustive(spec):
    _leads_and_answers(spec, two_deck_hands(100 + VARIANTS.index(spec), 150, limit=60000))


def _leads_and_answers(spec, hands):
    rules = Rules.parse(spec)
    for i, hand in enumerate(hands):
        want = naive_leads(hand, rules)
        assert plays(hand, rules) == want, format_cards(hand)
        # Answers to plays of another hand.
        other = sorted(naive_leads(hands[i - 1], rules))
        for _, kind in random.Random(i).sample(other, min(8, len(other))):
            assert plays(hand, rules, kind) == naive_answers(hand, kind, rules), (format_cards(hand), kind)


@pytest.mark.parametrize("spec", VARIANTS)
def test_readings_equal_the_reference(spec):
    rules = Rules.parse(spec)
    for hand in two_deck_hands(50 + VARIANTS.index(spec), 6, limit=12000):
        by_cards = {}
        for c, k in naive_leads(hand, rules):
            by_cards.setdefault(c, set()).add((c, k))
        for c, want in by_cards.items():
            assert set(readings(c, rules.flags)) == want


def test_order_of_bombs_and_the_four_jokers():
    r = Rules.parse("four")
    p = {t: Play.parse(t, r) for t in ("2222", "33333", "333333", "22222222", "XXDD", "DD", "XX", "22", "A2345")
         if t != "A2345"}
    assert p["33333"].beats(p["2222"], r) and not p["2222"].beats(p["33333"], r)
    assert p["333333"].beats(p["33333"], r)
    assert p["XXDD"].beats(p["22222222"], r) and not p["22222222"].beats(p["XXDD"], r)
    assert p["22222222"].beats(p["XXDD"], "four,top_bomb=bomb8")
    assert not p["XXDD"].beats(p["22222222"], "four,top_bomb=bomb8")
    assert p["DD"].beats(p["XX"], r) and p["XX"].beats(p["22"], r)
    assert [q.type_name for q in classify("XD", r)] == []
    for a in p.values():
        for b in p.values():
            for spec in ("four", "four,top_bomb=bomb8"):
                assert a.beats(b, spec) == naive_beats(a.kind, b.kind, Rules.parse(spec)), (a, b, spec)


def test_no_solo_kickers_and_no_four_with_kickers():
    r = Rules.parse("four")
    for text in ("3334", "33344456", "333345", "33334455"):
        assert classify(text, r) == [], text
    assert [p.type_name for p in classify("33344", r)] == ["trio_pair"]
    assert [p.type_name for p in classify("3334445566", r)] == ["airplane_pair"]


def test_shanghai_chains_run_low():
    r = Rules.parse("four,chains=shanghai")
    assert [p.main_rank for p in classify("A2345", r)] == ["5"]
    assert classify("A2345", "four") == [] and classify("JQKA2", r) == []
    assert Play.parse("23456", r).beats(Play.parse("A2345", r), r)
    aaa222 = Play.parse("AAA222", r)
    assert (aaa222.type_name, aaa222.main_rank) == ("airplane", "2")
    assert Play.parse("222333", r).beats(aaa222, r) and not aaa222.beats(Play.parse("222333", r), r)
    # A 13-card run from the low 2 to A, or from the low A to K: two readings.
    assert sorted(p.main_rank for p in classify("3456789TJQKA2", r)) == ["A", "K"]


def test_wing_pairs_consecutive():
    on = Rules.parse("four,wing_pairs_consecutive=on")
    assert classify("3334445577", on) == []
    assert [p.type_name for p in classify("3334445566", on)] == ["airplane_pair"]
    assert [p.type_name for p in classify("3334445577", "four")] == ["airplane_pair"]


def test_every_shanghai_play_of_a_public_engine():
    """noword/rlcard's Shanghai Dou Dizhu lists every legal play of
    chains=shanghai with consecutive pair wings (rlcard/games/shanghaidoudizhu/
    action_space.txt; B and R are the jokers).  Our plays of the whole two
    decks, up to the 33 cards one hand can hold, are the same, reading for
    reading, but for the trio + pair, which that engine leaves out and the
    rule texts keep."""
    rules = Rules.parse("four,chains=shanghai,wing_pairs_consecutive=on")
    ours = Counter()
    for p in generate(2 * FULL_DECK, rules=rules):
        if card_count(p.cards) <= 33 and p.type_name != "trio_pair":
            ours[format_cards(p.cards).replace("X", "B").replace("D", "R")] += 1
    words = (DATA / "shanghai_action_space.txt").read_text().split()
    theirs = Counter(w for w in words if w != "pass" and not w.startswith(("bid_", "report_")))
    assert sum(theirs.values()) == 637
    assert ours == theirs


def test_two_decks_bad_input():
    assert parse_cards("55555555XXDD", 2) == 8 << 8 | 2 << 52 | 2 << 56
    with pytest.raises(CardError, match="9 5s; at most 8 exist in 2 decks"):
        parse_cards("555555555", 2)
    with pytest.raises(CardError, match="3 small jokers; at most 2 exist in 2 decks"):
        parse_cards("XXX", 2)
    with pytest.raises(CardError, match="at most 4 exist"):
        generate("55555")
    assert is_valid_packed(8 << 8, 2) and not is_valid_packed(9 << 8, 2) and not is_valid_packed(8 << 8)
    assert not is_valid_packed(3 << 52, 2)
    with pytest.raises(RulesError, match="four-player option"):
        Rules.parse("standard,chains=shanghai")
    with pytest.raises(RulesError, match="does not apply to four-player"):
        Rules.parse("four,four_with_one=on")
    with pytest.raises(RulesError, match="Laizi option"):
        Rules.parse("four,long_bombs=on")


def test_packed_contains_with_eight_of_a_rank():
    from ddz_tools.core.cards import contains
    rng = random.Random(5)
    for _ in range(2000):
        a = [rng.randint(0, 8) for _ in range(13)] + [rng.randint(0, 2), rng.randint(0, 2)]
        b = [rng.randint(0, 8) for _ in range(13)] + [rng.randint(0, 2), rng.randint(0, 2)]
        assert contains(pack_counts(a), pack_counts(b)) == all(x >= y for x, y in zip(a, b))


def test_whole_hands_plays_are_readings_of_cards_in_the_hand():
    """25- and 33-card hands: every play is in the hand and a reading of its cards."""
    rng = random.Random(9)
    deck = [r for r in range(13) for _ in range(8)] + [13, 13, 14, 14]
    for spec in VARIANTS:
        rules = Rules.parse(spec)
        for size in (25, 33):
            counts = [0] * 15
            for r in rng.sample(deck, size):
                counts[r] += 1
            hand = pack_counts(counts)
            for c, k in plays(hand, rules):
                assert all(x <= y for x, y in zip([(c >> 4 * r) & 15 for r in range(15)], counts))
                assert (c, k) in naive_readings(c, rules)


def test_subset_stepper_equals_itertools():
    """first_subset/next_subset walk the k-subsets in itertools.combinations' order, with sums."""
    import itertools

    import numpy as np

    from ddz_tools.engines.kernels import first_subset, next_subset

    rng = random.Random(5)
    for _ in range(200):
        m = rng.randint(1, 12)
        k = rng.randint(1, min(m, 8))
        cand = np.array([rng.randint(1, 1 << 40) for _ in range(m)] + [0] * (16 - m), np.int64)
        base = rng.randint(0, 1 << 40)
        idx = np.zeros(16, np.int64)
        part = np.zeros(17, np.int64)
        got = []
        first_subset(cand, k, base, idx, part)
        while True:
            got.append((tuple(int(x) for x in idx[:k]), int(part[k])))
            if not next_subset(cand, m, k, idx, part):
                break
        want = [(c, base + sum(int(cand[i]) for i in c)) for c in itertools.combinations(range(m), k)]
        assert got == want


def test_pair_ranks_equal_python():
    """pair_ranks lists, lowest first, the ranks 3..2 held twice or more (jokers never)."""
    import numpy as np

    from ddz_tools.engines.kernels import pair_ranks

    rng = random.Random(7)
    for _ in range(300):
        counts = [rng.randint(0, 8) for _ in range(13)] + [rng.randint(0, 2), rng.randint(0, 2)]
        hand = pack_counts(counts)
        pairs = np.zeros(16, np.int64)
        n = pair_ranks(hand, pairs)
        assert [int(x) for x in pairs[:n]] == [r for r in range(13) if counts[r] >= 2]


def test_wing_pairs_equal_python():
    """wing_pairs lists, lowest first, a pair of each given rank that the body does not use."""
    import numpy as np

    from ddz_tools.engines.kernels import wing_pairs

    rng = random.Random(6)
    for _ in range(300):
        ranks = sorted(rng.sample(range(13), rng.randint(0, 8)))
        body_ranks = rng.sample(range(13), rng.randint(0, 5))
        body = sum(3 << (4 * r) for r in body_ranks)
        pairs = np.array(ranks + [0] * (16 - len(ranks)), np.int64)
        cand = np.zeros(16, np.int64)
        m = wing_pairs(body, pairs, len(ranks), cand)
        assert [int(x) for x in cand[:m]] == [2 << (4 * r) for r in ranks if r not in body_ranks]
