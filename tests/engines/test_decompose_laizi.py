"""The hand decomposer under Laizi rules (wild cards) against the plain-Python
reference (``naive_decompose.naive_laizi_min_plays``: iterative deepening over
every lead of tests/naive_laizi.py), on seeded hands of both presets and every
option that changes what is a play; and the split ``decompose`` reports: its
plays are readings of the hand's cards, add up to the hand, number the
minimum, and under ``natural_first`` are legal in the order given."""

from __future__ import annotations

import random

import pytest

from conftest import random_laizi_hand
from ddz_tools.core.cards import format_cards
from ddz_tools.engines.decompose import decompose, min_plays
from ddz_tools.core.rules import Rules, readings

from naive_decompose import naive_laizi_min_plays

#: Rule sets tested, each with wild ranks drawn per hand.
SPECS = [
    "laizi",
    "tiandi",
    "laizi,natural_first=on",
    "laizi,laizi_alone_as_self=off",
    "laizi,laizi_in_four_two=off",
    "laizi,jokers_as_kickers=on,kickers_distinct=off",
    "tiandi,natural_first=on",
    "tiandi,long_bombs=off,mixed_pure_bomb=off",
]



def _check(spec: str, count: int, lo: int, hi: int) -> None:
    rng = random.Random(f"decompose-{spec}-{lo}-{hi}")
    for _ in range(count):
        h, rules = random_laizi_hand(rng, spec, lo, hi)
        want = naive_laizi_min_plays(h, rules)
        got = min_plays(h, rules)
        assert got == want, (spec, rules.wild_text(), format_cards(h), got, want)


@pytest.mark.parametrize("spec", SPECS)
def test_min_plays_equals_reference(spec):
    """60 seeded hands of 1-8 cards per rule set (480 in all)."""
    _check(spec, 60, 1, 8)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_min_plays_equals_reference_bigger(spec):
    _check(spec, 150, 6, 11)


def _split_is_valid(h: int, rules: Rules, d) -> None:
    assert d.min_plays == min_plays(h, rules) == len(d.plays)
    assert sum(p.cards for p in d.plays) == h
    left = h
    for p in d.plays:
        # each play is a reading of its cards; under natural_first, legal in
        # the hand left when it is played
        hand = left if rules.natural_first else None
        assert (p.cards, p.kind) in readings(p.cards, rules.flags, hand), (format_cards(h), p.notation(rules))
        left -= p.cards
    assert 1 <= d.splits_count


@pytest.mark.parametrize("spec", SPECS)
def test_split_plays_are_readings_adding_up_to_the_hand(spec):
    rng = random.Random(f"split-{spec}")
    for _ in range(25):
        h, rules = random_laizi_hand(rng, spec, 1, 12)
        d = decompose(h, rules, all_splits=True, limit=20)
        _split_is_valid(h, rules, d)
        keys = {tuple(sorted(p.cards for p in s)) for s in d.splits}
        assert len(keys) == len(d.splits) == min(20, d.splits_count)


def test_full_hands_of_both_presets():
    """17- and 20-card hands: the split is valid (the reference is too slow
    there; the minimum is checked against it on smaller hands above)."""
    rng = random.Random("full-hands")
    for spec in ("laizi", "tiandi", "laizi,natural_first=on"):
        for n in (17, 20):
            for _ in range(4):
                h, rules = random_laizi_hand(rng, spec, n, n)
                _split_is_valid(h, rules, decompose(h, rules))


def test_laizi_is_a_budget_shared_by_the_plays():
    """A laizi completes one play, not two: with wild 9, one 9 makes 3456 a
    chain or TJQ(K) one, never both; two 9s make both."""
    r = Rules.parse("laizi").with_wild((6,))
    assert min_plays("345679", r) == 1  # 345679=345678
    assert min_plays("34569TJQ", r) == 4  # 34569=34567 T J Q
    assert min_plays("3456TJQK99", r) == 2  # 34569=34567 9TJQK=TJQKA
    assert min_plays("3569", r) == 3  # 3 5 69=66
    assert min_plays("33559", r) == 1  # 339-55=333-55
