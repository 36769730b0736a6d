"""The decomposer under the four-player rules (two decks): the fewest plays
against the plain-Python reference, and whole 25- and 33-card hands."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ddz_tools.core.cards import card_count, format_cards, pack_counts
from ddz_tools.core.errors import CardError
from ddz_tools.engines.decompose import SEARCH_WORK, decompose, min_plays, new_memo_table
from ddz_tools.engines.decompose.core import search_core
from ddz_tools.core.rules import Rules, readings
from naive_four import naive_min_plays
from moves.test_movegen_four import VARIANTS, two_deck_hands


@pytest.mark.parametrize("spec", VARIANTS[:4])
def test_min_plays_equals_the_reference(spec):
    rules = Rules.parse(spec)
    for hand in two_deck_hands(200 + VARIANTS.index(spec), 12, limit=3000):
        assert min_plays(hand, rules) == naive_min_plays(hand, rules), format_cards(hand)


def test_ranks_used_up_as_kicker_pairs():
    # A rank held 4, 6 or 8 times can go entirely as the pairs of trio + pair
    # plays, and one held 6 times can be two trios carrying two pairs.
    for text, want in (("3344888888", 2), ("3344888888XD", 4), ("33335558889", 3), ("3333555888", 2),
                       ("33557777779", 3), ("333355557777888999TTT", 3)):
        assert min_plays(text, "four") == want, text


def _rank_free_hands(count: int, seed: int) -> None:
    # Hands on ranks two apart (no chain), many ranks held 2 to 8 times: the
    # exact rank-free value, kickers taken from ranks of any count.
    rules = Rules.parse("four")
    rng = random.Random(seed)
    done = 0
    while done < count:
        counts = [0] * 15
        for r in rng.sample([0, 2, 4, 6, 8, 10, 12], rng.randint(2, 5)):
            counts[r] = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7, 8])
        counts[13], counts[14] = rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1, 2])
        if sum(counts) > 15:
            continue
        hand = pack_counts(counts)
        assert min_plays(hand, rules) == naive_min_plays(hand, rules), format_cards(hand)
        done += 1


def test_rank_free_hands_equal_the_reference():
    _rank_free_hands(100, 11)


@pytest.mark.slow
def test_rank_free_hands_equal_the_reference_many():
    _rank_free_hands(1000, 12)


def _deal(rng, size):
    deck = [r for r in range(13) for _ in range(8)] + [13, 13, 14, 14]
    counts = [0] * 15
    for r in rng.sample(deck, size):
        counts[r] += 1
    return pack_counts(counts)


def test_whole_hands_split_into_legal_plays():
    rng = random.Random(3)
    for spec in VARIANTS[:4]:
        rules = Rules.parse(spec)
        for size in (25, 33):
            hand = _deal(rng, size)
            d = decompose(hand, rules, all_splits=True, limit=5)
            assert d.min_plays == min_plays(hand, rules) == len(d.plays)
            for split in d.splits:
                assert sum(p.cards for p in split) == hand
                for p in split:
                    assert (p.cards, p.kind) in readings(p.cards, rules.flags)


def test_search_by_places_equals_the_search_of_every_chain():
    # Plain four-player rules search chain plays by their lowest place with
    # the frozen ranks merged; the other variants, and this check, take the
    # search that tries every chain play of every sub-hand.
    rules = Rules.parse("four")
    rng = random.Random(44)
    for size in (33, 25, 33, 18):
        for _ in range(30):
            hand = _deal(rng, size)
            want = search_core(hand, rules.flags, new_memo_table(14), np.empty(8 * SEARCH_WORK, np.int64), 0)
            assert min_plays(hand, rules) == want, format_cards(hand)


def test_worked_split_and_controls():
    d = decompose("33344455566677788XXDD", "four")
    assert d.min_plays == 3 and sorted(p.type_name for p in d.plays) == ["airplane", "rocket", "trio_pair"]
    assert d.rocket and d.jokers == 4
    d = decompose("55555555666622", "four")
    assert d.bomb_texts() == ["55555555", "6666"] and d.min_plays == 3
    with pytest.raises(CardError, match="at most 33"):
        decompose("3333444455556666777788889999TTTTJJ", "four")
    with pytest.raises(CardError, match="at most 8 exist in 2 decks"):
        decompose("555555555", "four")
