"""The move generator under Laizi rules (wild cards) against the plain-Python
reference (``tests/naive_laizi.py``: every sub-multiset of the hand, every
substitution of faces for its laizi, classified and deduplicated by identity),
on seeded hands of every size up to 10 cards, both presets and every option
that changes what is a play or what beats what; and hypothesis properties of
the generator on whole hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import random_laizi_hand
from naive_laizi import naive_laizi_answers, naive_laizi_beats, naive_laizi_leads
from ddz_tools.core.cards import format_cards
from ddz_tools.core.kinds import beats
from ddz_tools.moves.movegen import generate
from ddz_tools.core.rules import Play, Rules, readings

#: Rule sets compared, each with wild ranks drawn per hand.
SPECS = [
    "laizi",
    "tiandi",
    "laizi,laizi_alone_as_self=off",
    "laizi,laizi_in_four_two=off",
    "laizi,bomb_order=rank",
    "laizi,pure_bomb=soft",
    "laizi,natural_first=on",
    "laizi,kickers_distinct=off,jokers_as_kickers=on",
    "laizi,four_with_one=on,chains_with_two=on",
    "tiandi,natural_first=on",
    "tiandi,mixed_pure_bomb=off",
    "tiandi,long_bombs=off,pure_bomb=soft",
]


def kernel_plays(hand: int, rules: Rules, after=None) -> set:
    moves = generate(hand, after, rules)
    plays = list(zip(moves.cards.tolist(), moves.kinds.tolist()))
    assert len(plays) == len(set(plays)), "a play listed twice"
    return set(plays)


@pytest.mark.parametrize("spec", SPECS)
def test_leads_and_answers_equal_the_reference(spec):
    rng = random.Random(f"movegen-laizi-{spec}")
    for _ in range(20):
        hand, rules = random_laizi_hand(rng, spec, 1, 10, max_laizi=4)
        wild = tuple(rules.wild)
        want = set(naive_laizi_leads(hand, wild, rules))
        got = kernel_plays(hand, rules)
        assert got == want, (format_cards(hand), rules.describe(), rules.wild_text(),
                             sorted(got - want)[:5], sorted(want - got)[:5])
        # Answers to plays of another random hand (bombs and chains included).
        other, _ = random_laizi_hand(rng, spec, 1, 8, max_laizi=4)
        prevs = sorted(naive_laizi_leads(other, wild, rules))
        for pc, prev in rng.sample(prevs, min(4, len(prevs))):
            want = naive_laizi_answers(hand, prev, wild, rules)
            got = kernel_plays(hand, rules, after=Play(pc, prev))
            assert got == want, (format_cards(hand), prev, rules.describe(), rules.wild_text())


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_leads_equal_the_reference_exhaustively(spec):
    rng = random.Random(f"movegen-laizi-slow-{spec}")
    for _ in range(200):
        hand, rules = random_laizi_hand(rng, spec, 1, 12, max_laizi=4)
        assert kernel_plays(hand, rules) == set(naive_laizi_leads(hand, tuple(rules.wild), rules))


def _whole_hand(data, spec: str):
    seed = data.draw(st.integers(0, 2**32 - 1))
    size = data.draw(st.sampled_from([1, 5, 12, 17, 20]))
    return random_laizi_hand(random.Random(seed), spec, size, size, max_laizi=4)


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(["laizi", "tiandi", "laizi,natural_first=on"]))
def test_plays_are_readings_of_cards_in_the_hand(data, spec):
    """Every lead's cards are in the hand and it is one of their readings;
    every answer beats what it answers (by the reference's order too)."""
    hand, rules = _whole_hand(data, spec)
    flags = rules.flags
    leads = kernel_plays(hand, rules)
    for c, k in leads:
        assert all(((hand >> (4 * r)) & 15) >= ((c >> (4 * r)) & 15) for r in range(15))
        assert (c, k) in readings(c, flags, hand)
    pc, prev = data.draw(st.sampled_from(sorted(leads)))
    for c, k in kernel_plays(hand, rules, after=Play(pc, prev)):
        assert beats(k, prev, flags) and naive_laizi_beats(k, prev, rules)


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(["laizi", "tiandi"]))
def test_without_laizi_in_hand_the_plays_are_the_classic_ones(data, spec):
    hand, rules = _whole_hand(data, spec)
    for w in rules.wild:
        hand &= ~(15 << (4 * w))
    if hand == 0:
        return
    classic = Rules.parse("standard")
    assert kernel_plays(hand, rules) == kernel_plays(hand, classic)
