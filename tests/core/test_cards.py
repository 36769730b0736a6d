"""Cards: parsing, formatting, packed hands, card ids and the Hand class."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DECK, random_hands
from ddz_tools.core.cards import (
    FULL_DECK,
    RANKS,
    Hand,
    card_count,
    contains,
    count_of,
    counts_of,
    douzero_values,
    format_cards,
    is_valid_packed,
    pack_card_ids,
    pack_counts,
    pack_douzero,
    packed_contains,
    packed_count,
    packed_valid,
    parse_cards,
    rank_of_card_id,
    to_packed,
)
from ddz_tools.core.errors import CardError, DdzError

# A legal hand as rank counts: up to 4 of 3..2, up to 1 of each joker.
counts_st = st.tuples(*([st.integers(0, 4)] * 13 + [st.integers(0, 1)] * 2)).map(list)


def slow_valid(packed: int) -> bool:
    """Legality of a packed value, nibble by nibble."""
    if packed < 0 or packed >> 60:
        return False
    counts = [(packed >> (4 * r)) & 15 for r in range(15)]
    return all(c <= 4 for c in counts[:13]) and counts[13] <= 1 and counts[14] <= 1


# Parsing and formatting ------------------------------------------------------------


@pytest.mark.parametrize("text, canonical", [
    ("33456789TJQKA22XD", "33456789TJQKA22XD"),
    ("D X 2 2 A K Q J T 9 8 7 6 5 4 3 3", "33456789TJQKA22XD"),
    ("10 j q k a", "TJQKA"),
    ("10,10,10", "TTT"),
    ("t J 10", "TTJ"),
    ("BR", "XD"),
    ("b r", "XD"),
    ("xd", "XD"),
    ("3,3 ,4\t5", "3345"),
    ("", ""),
    ("   ", ""),
    ("2222", "2222"),
])
def test_parse_accepts_documented_spellings(text, canonical):
    assert format_cards(parse_cards(text)) == canonical


@pytest.mark.parametrize("text, fragment", [
    ("33333", "5 3s"),
    ("XX", "2 small jokers"),
    ("DD", "2 big jokers"),
    ("BX", "2 small jokers"),
    ("RD", "2 big jokers"),
    ("3Z4", "unknown card character 'Z'"),
    ("1", "unknown card character '1'"),
    ("345-6", "unknown card character '-'"),
    ("11", "unknown card character '1'"),
    ("3♠", "unknown card character '♠'"),
    ("AAAAA", "5 As"),
    ("1010101010", "5 Ts"),
])
def test_parse_rejects_impossible_input_with_one_line_message(text, fragment):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    msg = str(info.value)
    assert fragment in msg
    assert "\n" not in msg
    assert isinstance(info.value, DdzError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("text, decks, message", [
    ("333333333", 1, "'333333333' has 9 3s; at most 4 exist"),
    ("3333333333", 2, "'3333333333' has 10 3s; at most 8 exist in 2 decks"),
    ("3" * 20, 1, f"'{'3' * 20}' has 20 3s; at most 4 exist"),          # more than a nibble holds
    ("4" * 17, 2, f"'{'4' * 17}' has 17 4s; at most 8 exist in 2 decks"),
    ("3 3 3 3 3 3, 10 10", 1, "has 6 3s"),
    ("XXX", 2, "'XXX' has 3 small jokers; at most 2 exist in 2 decks"),
])
def test_too_many_of_a_rank_gives_the_true_count(text, decks, message):
    """The error counts every card of the rank, not the card at which the
    limit was passed (``ddz moves 333333333`` said it has 5 3s)."""
    with pytest.raises(CardError) as info:
        parse_cards(text, decks)
    assert message in str(info.value)


def test_parse_rejects_non_text():
    with pytest.raises(CardError, match="must be text"):
        parse_cards(345)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(counts_st)
def test_format_parse_round_trip(counts):
    packed = pack_counts(counts)
    text = format_cards(packed)
    assert parse_cards(text) == packed
    assert len(text) == sum(counts)
    assert list(text) == sorted(text, key=RANKS.index)  # canonical: low to high


@settings(max_examples=200, deadline=None)
@given(counts_st, st.randoms(use_true_random=False))
def test_parse_of_shuffled_aliased_text(counts, rnd):
    """Any order, case, separators, 10 for T and B/R for the jokers give the same hand."""
    cards = [c for r, n in enumerate(counts) for c in RANKS[r] * n]
    rnd.shuffle(cards)
    spelled = []
    for c in cards:
        options = {"T": ["T", "t", "10"], "X": ["X", "x", "B", "b"], "D": ["D", "d", "R", "r"]}.get(
            c, [c, c.lower()])
        spelled.append(rnd.choice(options) + rnd.choice(["", " ", ","]))
    assert parse_cards("".join(spelled)) == pack_counts(counts)


# Packed layout -----------------------------------------------------------------------


def test_packed_layout_is_four_bits_per_rank():
    assert parse_cards("3") == 1
    assert parse_cards("4") == 1 << 4
    assert parse_cards("33") == 2
    assert parse_cards("2") == 1 << 48
    assert parse_cards("X") == 1 << 52
    assert parse_cards("D") == 1 << 56
    assert card_count(FULL_DECK) == 54
    assert FULL_DECK == parse_cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")
    assert counts_of(parse_cards("3345XD")) == [2, 1, 1] + [0] * 10 + [1, 1]
    assert count_of(parse_cards("TTT"), RANKS.index("T")) == 3


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.integers(-5, 2**61), counts_st.map(pack_counts),
                 st.tuples(*([st.integers(0, 15)] * 15)).map(pack_counts)))
def test_is_valid_packed_equals_slow_check(packed):
    assert is_valid_packed(packed) == slow_valid(packed)


def test_is_valid_packed_edges():
    assert is_valid_packed(0)
    assert is_valid_packed(FULL_DECK)
    assert not is_valid_packed(FULL_DECK + 1)           # a fifth 3
    assert not is_valid_packed(FULL_DECK + (1 << 52))   # a second small joker
    assert not is_valid_packed(1 << 60)                 # past the last rank
    assert not is_valid_packed(-1)
    for r in range(13):
        assert is_valid_packed(4 << (4 * r)) and not is_valid_packed(5 << (4 * r))


def test_packed_primitives_kernels_and_python_agree_with_counts():
    """Card count, containment and validity: kernel, Python form and a count-by-count reference."""
    import random

    rng = random.Random(8)
    for _ in range(3000):
        a = [rng.randint(0, 4) for _ in range(13)] + [rng.randint(0, 1), rng.randint(0, 1)]
        b = [rng.randint(0, x) if rng.random() < 0.7 else rng.randint(0, 4) for x in a]
        b[13:] = [min(x, 1) for x in b[13:]]
        ha, hb = pack_counts(a), pack_counts(b)
        assert packed_count(ha) == card_count(ha) == sum(a)
        want = all(y <= x for x, y in zip(a, b))
        assert bool(packed_contains(ha, hb)) == contains(ha, hb) == want
        raw = rng.randrange(-4, 1 << 61)
        assert bool(packed_valid(raw)) == is_valid_packed(raw) == slow_valid(raw)
    assert packed_count(FULL_DECK) == 54 and packed_count(0) == 0
    assert contains(FULL_DECK, FULL_DECK) and not contains(0, 1)


def test_to_packed_coerces_and_checks():
    import numpy as np

    h = parse_cards("334XD")
    assert to_packed("334XD") == to_packed(Hand("334XD")) == to_packed(h) == to_packed(np.int64(h)) == h
    with pytest.raises(CardError, match="not a legal packed hand"):
        to_packed(5)
    with pytest.raises(TypeError, match="bottom must be a Hand"):  # misuse of the API, not bad cards
        to_packed(3.0, "bottom")


def test_pack_counts_and_counts_of_are_inverse():
    for hand in random_hands(200, 20, seed=11):
        assert pack_counts(counts_of(hand)) == hand
        assert card_count(hand) == 20


# Card ids and DouZero values -------------------------------------------------------------


def test_card_ids():
    assert [rank_of_card_id(i) for i in (0, 3, 4, 51, 52, 53)] == [0, 0, 1, 12, 13, 14]
    assert pack_card_ids(range(54)) == FULL_DECK
    assert format_cards(pack_card_ids([0, 1, 2, 52, 53])) == "333XD"
    with pytest.raises(CardError, match="appears twice"):
        pack_card_ids([5, 5])
    for bad in (-1, 54, "3", 1.0, True):
        with pytest.raises(CardError, match="out of range"):
            rank_of_card_id(bad)  # type: ignore[arg-type]


def test_douzero_values_round_trip():
    for hand in random_hands(200, 20, seed=12) + [FULL_DECK, 0]:
        values = douzero_values(hand)
        assert values == sorted(values)
        assert pack_douzero(values) == hand
    assert douzero_values(parse_cards("3TJA2XD")) == [3, 10, 11, 14, 17, 20, 30]
    with pytest.raises(CardError, match="not a DouZero card value"):
        pack_douzero([15])
    with pytest.raises(CardError, match="2 small jokers"):
        pack_douzero([20, 20])
    with pytest.raises(CardError, match="has 5 3s"):
        pack_douzero([3, 3, 3, 3, 3])
    with pytest.raises(CardError, match="has 16 3s"):   # 16 would overflow a nibble
        pack_douzero([3] * 16)


# Hand --------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(counts_st)
def test_hand_round_trips(counts):
    h = Hand(pack_counts(counts))
    assert Hand.parse(str(h)) == h
    assert eval(repr(h)) == h  # noqa: S307 - repr is documented as round-trippable
    assert Hand(list(h)) == h
    assert len(h) == sum(counts)
    assert h.counts() == counts
    assert hash(h) == hash(Hand(str(h)))


def test_hand_operators_are_multiset_operators():
    a, b = Hand("334455X"), Hand("3456XD")
    assert str(a | b) == "3344556XD"
    assert str(a & b) == "345X"
    assert str(a - b) == "345"
    assert str(b - a) == "6D"
    assert Hand("34") <= a and not (b <= a) and a >= Hand("33")
    assert "33" in a and "333" not in a and Hand("X") in a and "Z" not in a
    assert not Hand() and Hand("3")
    assert a.count("4") == 2 and a.count("x") == 1 and a.count("B") == 1 and a.count(0) == 2
    with pytest.raises(CardError):
        a.count("Z")
    with pytest.raises(CardError, match="2 small jokers"):
        Hand("X") + Hand("X")
    with pytest.raises(CardError, match="not a legal packed hand"):
        Hand(0xF)


def test_random_deals_are_real_deals():
    for hand in random_hands(100, 17, seed=13) + random_hands(100, 20, seed=13):
        assert is_valid_packed(hand)
    sizes = Counter(card_count(h) for h in random_hands(10, 20, seed=1))
    assert sizes == {20: 10}
    assert Counter(DECK)[0] == 4 and len(DECK) == 54
