"""Rules: combination types, readings, comparison, options and presets.

The edge cases go through all three implementations (``rules.readings``, the
kernel's whole-hand leads and the naive reference) and must agree.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PLAY_OPTIONS, all_option_sets, random_hands, rules_with_flips
from ddz_tools.core.cards import format_cards, parse_cards
from ddz_tools.core.errors import DdzError, PlayError, RulesError
from ddz_tools.moves.movegen import gen_into, generate
from ddz_tools.core.rules import (
    PRESETS,
    STANDARD,
    TYPE_NAMES,
    TYPE_OF_NAME,
    Play,
    Rules,
    beats,
    classify,
    kind_length,
    kind_main,
    kind_type,
    make_kind,
    readings,
)
from naive import naive_leads, naive_play_names, naive_readings, unpack


def whole_hand_kernel(cards: int, rules: Rules) -> set:
    """Kernel leads of the hand ``cards`` that use every card."""
    out_c = np.empty(40000, np.int64)
    out_k = np.empty(40000, np.int64)
    n = gen_into(cards, rules.flags, 0, out_c, out_k)
    return {(c, k) for c, k in zip(out_c[:n].tolist(), out_k[:n].tolist()) if c == cards}


def agreed(text: str, spec: str = "standard") -> set[tuple[str, str]]:
    """The readings of ``text`` as {(notation, type)}, after checking that
    readings, the kernel and the naive reference agree."""
    rules = Rules.parse(spec)
    cards = parse_cards(text)
    r = set(readings(cards, rules.flags))
    n = naive_readings(cards, rules)
    k = whole_hand_kernel(cards, rules)
    assert r == n, f"readings {naive_play_names(r)} != naive {naive_play_names(n)} for {text} {spec}"
    assert k == n, f"kernel {naive_play_names(k)} != naive {naive_play_names(n)} for {text} {spec}"
    return {(Play(c, kd).notation(), Play(c, kd).type_name) for c, kd in r}


# Every combination type with its main rank and length ------------------------------


@pytest.mark.parametrize("text, type_name, main, length", [
    ("3", "solo", "3", 1),
    ("D", "solo", "D", 1),
    ("22", "pair", "2", 1),
    ("TTT", "trio", "T", 1),
    ("333-4", "trio_solo", "3", 1),
    ("222-X", "trio_solo", "2", 1),
    ("333-44", "trio_pair", "3", 1),
    ("AAA-22", "trio_pair", "A", 1),
    ("34567", "chain", "7", 5),
    ("3456789TJQKA", "chain", "A", 12),
    ("334455", "pair_chain", "5", 3),
    ("33445566778899TTJJQQ", "pair_chain", "Q", 10),
    ("333444", "airplane", "4", 2),
    ("333444555666777888", "airplane", "8", 6),
    ("333444-56", "airplane_solo", "4", 2),
    ("333444555666777-89TJQ", "airplane_solo", "7", 5),
    ("333444-5566", "airplane_pair", "4", 2),
    ("333444555666-77889900", None, None, None),  # 0 is not a card
    ("333444555666-7788992", None, None, None),   # odd wing count
    ("TTTJJJQQQKKK-33445566", "airplane_pair", "K", 4),
    ("3333-45", "four_two_solo", "3", 1),
    ("2222-AX", "four_two_solo", "2", 1),
    ("3333-4455", "four_two_pair", "3", 1),
    ("7777", "bomb", "7", 1),
    ("XD", "rocket", "D", 1),
])
def test_every_type_with_main_rank_and_length(text, type_name, main, length):
    if type_name is None:
        with pytest.raises(DdzError):
            Play.parse(text)
        return
    p = Play.parse(text)
    assert (p.type_name, p.main_rank, p.length) == (type_name, main, length)
    assert p.notation() == text
    assert (p.cards, p.kind) in readings(p.cards, STANDARD.flags)
    assert kind_type(p.kind) == TYPE_OF_NAME[type_name]
    assert kind_main(p.kind) == "3456789TJQKA2XD".index(main) and kind_length(p.kind) == length
    assert p.kind == make_kind(TYPE_OF_NAME[type_name], kind_main(p.kind), length)


def test_four_with_one_types():
    p = Play.parse("3333-5", "encyclopedia")
    assert (p.type_name, p.main_rank) == ("four_solo", "3")
    p = Play.parse("3333-55", "encyclopedia")
    assert (p.type_name, p.main_rank) == ("four_pair", "3")
    with pytest.raises(PlayError, match="not a legal play under standard"):
        Play.parse("3333-5")


@pytest.mark.parametrize("text", [
    "34", "3345", "3456", "345678910JQKA2", "JQKA2", "3344", "QQKKAA22", "XXD", "333444-4",
    "33334444", "33345", "333-3", "3333-4", "2222-33", "AAA222", "33-4", "X3",
])
def test_non_plays_are_rejected(text):
    with pytest.raises(DdzError):
        Play.parse(text)


# Comparison --------------------------------------------------------------------------


def kind(text: str, spec: str = "standard") -> int:
    return Play.parse(text, spec).kind


def test_comparison_same_type_and_length_by_main_rank():
    assert beats(kind("4"), kind("3")) and not beats(kind("3"), kind("4")) and not beats(kind("3"), kind("3"))
    assert beats(kind("D"), kind("X")) and beats(kind("X"), kind("2"))
    assert beats(kind("45678"), kind("34567"))
    assert not beats(kind("456789"), kind("34567"))  # different length never compares
    assert not beats(kind("TJQKA"), kind("345678"))
    assert beats(kind("444-3"), kind("333-A"))      # kickers never matter
    assert not beats(kind("444-3"), kind("333-AA"))  # trio+solo vs trio+pair
    assert not beats(kind("444"), kind("333-5"))
    assert beats(kind("444555-36"), kind("333444-AK"))
    assert not beats(kind("444555666"), kind("333444"))
    assert not beats(kind("44"), kind("3"))
    assert beats(kind("4444-33", "douzero"), kind("3333-AA", "douzero"))


def test_bombs_and_rocket():
    assert beats(kind("3333"), kind("2"))
    assert beats(kind("3333"), kind("3456789TJQKA"))
    assert beats(kind("3333"), kind("AAAA-KQ"))  # four + two is not a bomb
    assert beats(kind("4444"), kind("3333")) and not beats(kind("3333"), kind("4444"))
    assert not beats(kind("3333"), kind("3333"))
    assert beats(kind("XD"), kind("2222")) and beats(kind("XD"), kind("3"))
    assert not beats(kind("2222"), kind("XD"))
    assert not beats(kind("XD"), kind("XD"))
    assert not beats(kind("2"), kind("3333"))
    assert not beats(kind("AAAA-KQ"), kind("3333"))


def test_four_two_pairs_and_solos_never_compare():
    assert not beats(kind("4444-5566"), kind("3333-56"))
    assert not beats(kind("4444-56"), kind("3333-5566"))
    assert beats(kind("4444-5566"), kind("3333-5566"))
    assert beats(kind("4444-56"), kind("3333-78"))


def test_pass_never_beats_nor_is_beaten():
    assert not beats(0, kind("3")) and not beats(kind("3"), 0)
    assert Play.parse("pass").is_pass and Play.parse("").is_pass and Play.parse(" - ").is_pass


# Options and presets ------------------------------------------------------------------


def test_presets():
    s, d, e = PRESETS["standard"], PRESETS["douzero"], PRESETS["encyclopedia"]
    assert (s.kickers_distinct, s.jokers_as_kickers, s.jokers_in_four_two, s.four_with_one,
            s.chains_with_two) == (True, False, True, False, False)
    assert (d.kickers_distinct, d.jokers_as_kickers, d.jokers_in_four_two, d.four_with_one,
            d.chains_with_two) == (False, True, True, False, False)
    assert (e.kickers_distinct, e.jokers_as_kickers, e.jokers_in_four_two, e.four_with_one,
            e.chains_with_two) == (True, False, True, True, True)
    assert Rules.parse(None) == s and Rules.parse("") == s and Rules.parse("Standard") == s
    assert Rules() == s


@pytest.mark.parametrize("option", PLAY_OPTIONS)
@pytest.mark.parametrize("preset", ["standard", "douzero", "encyclopedia"])
def test_single_option_overrides(preset, option):
    base = PRESETS[preset]
    for value, word in ((True, "on"), (False, "off"), (True, "yes"), (False, "0")):
        r = Rules.parse(f"{preset},{option}={word}")
        assert getattr(r, option) is value
        for other in PLAY_OPTIONS:
            if other != option:
                assert getattr(r, other) == getattr(base, other)
        assert Rules.parse(r.describe()) == r
        assert r.describe() == (preset if value == getattr(base, option) else f"{preset},{option}={'on' if value else 'off'}")
    # Dashes and case are accepted in option names.
    assert getattr(Rules.parse(f"{preset},{option.replace('_', '-').upper()}=ON"), option) is True


def test_flags_are_distinct_for_all_option_sets():
    sets = all_option_sets()
    assert len({r.flags for r in sets}) == 32
    assert len({r.describe() for r in sets}) == 32
    for r in sets:
        assert Rules.parse(r.describe()) == r


def test_from_dict():
    r = Rules.from_dict({"preset": "douzero", "four_with_one": True, "bidding": "call-grab"})
    assert r.four_with_one and not r.kickers_distinct and r.bidding == "call-grab"
    assert Rules.from_dict("encyclopedia") == PRESETS["encyclopedia"]
    assert Rules.from_dict(None) == STANDARD
    with pytest.raises(RulesError):
        Rules.from_dict(3)  # type: ignore[arg-type]


def test_game_options():
    r = Rules.parse("standard,bidding=until-two-pass,first_bidder=left-of-dealer,spring=any-player")
    assert (r.bidding, r.first_bidder, r.spring) == ("until-two-pass", "left-of-dealer", "any-player")
    assert Rules.parse(r.describe()) == r
    assert r.flags == STANDARD.flags


@pytest.mark.parametrize("spec, fragment", [
    ("poker", "unknown rules preset 'poker'"),
    ("standard,four_with_one", "needs a value"),
    ("standard,four_with_one=maybe", "takes on or off"),
    ("standard,colour=red", "unknown rules option 'colour'"),
    ("standard,bidding=auction", "bidding takes one of"),
])
def test_bad_rules_specs(spec, fragment):
    with pytest.raises(RulesError) as info:
        Rules.parse(spec)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_options_only_spec_starts_from_standard():
    r = Rules.parse("four_with_one=on")
    assert r.four_with_one and r.preset == "standard"


# Readings and the edge cases of docs/rules.md ----------------------------------------------


def test_333444555666_readings():
    assert agreed("333444555666") == {("333444555666", "airplane")}
    assert agreed("333444555666", "douzero") == {
        ("333444555666", "airplane"),
        ("333444555-666", "airplane_solo"),
        ("444555666-333", "airplane_solo"),
    }
    # One play per reading: the same cards, three kinds.
    found = classify("333444555666", "douzero")
    assert len({p.cards for p in found}) == 1 and len({p.kind for p in found}) == 3


def test_33334444_is_no_single_play():
    # Two bombs; not four + two pairs (pair kickers never repeat a rank, nor
    # use a body rank) under any option set.
    for r in all_option_sets():
        assert agreed("33334444", r.describe()) == set()
    # Its leads under douzero still hold both bombs and 3333-44 / 4444-33.
    leads = naive_leads(parse_cards("33334444"), PRESETS["douzero"])
    names = naive_play_names(leads)
    assert "bomb 3333" in names and "bomb 4444" in names
    assert "four_two_solo 333344" in names and "four_two_solo 334444" in names


def test_four_two_with_jokers():
    assert agreed("33334D") == {("3333-4D", "four_two_solo")}
    assert agreed("33334D", "standard,jokers_in_four_two=off") == set()
    assert agreed("3333XD") == set()
    assert agreed("3333XD", "douzero") == {("3333-XD", "four_two_solo")}
    assert agreed("3333XD", "douzero,jokers_in_four_two=off") == set()
    assert agreed("3333XD", "standard,jokers_as_kickers=on") == {("3333-XD", "four_two_solo")}
    assert agreed("3333X", "encyclopedia") == {("3333-X", "four_solo")}
    assert agreed("3333X", "encyclopedia,jokers_in_four_two=off") == set()
    # Trio + solo takes a joker whatever jokers_in_four_two says.
    assert agreed("333X", "standard,jokers_in_four_two=off") == {("333-X", "trio_solo")}


def test_both_jokers_as_airplane_wings():
    assert agreed("333444XD") == set()
    assert agreed("333444XD", "douzero") == {("333444-XD", "airplane_solo")}
    assert agreed("333444XD", "standard,jokers_as_kickers=on") == {("333444-XD", "airplane_solo")}
    assert agreed("333444X5") == {("333444-5X", "airplane_solo")}
    assert agreed("333444555XD7", "douzero") == {("333444555-7XD", "airplane_solo")}


def test_wings_never_use_body_ranks():
    for spec in ("standard", "douzero", "encyclopedia"):
        assert agreed("3334444", spec) == set()   # 333444 + 4
        assert agreed("3333444", spec) == set()
        assert agreed("33344445", spec) == set()   # 333444 + 4 5
        assert agreed("33334", spec) == (set() if spec != "encyclopedia" else {("3333-4", "four_solo")})


def test_kickers_distinct():
    assert agreed("3334445556669999") == set()
    assert agreed("3334445556669999", "douzero") == {("333444555666-9999", "airplane_solo")}
    assert agreed("3334445556669999", "standard,kickers_distinct=off") == {("333444555666-9999", "airplane_solo")}
    assert agreed("33344455") == set()
    assert agreed("33344455", "douzero") == {("333444-55", "airplane_solo")}
    assert agreed("555533", "douzero") == {("5555-33", "four_two_solo")}
    assert agreed("555533") == set()
    # Pair kickers always have different ranks.
    assert agreed("3334445555", "douzero") == set()
    assert agreed("55553333", "douzero") == set()


def test_chains_with_two():
    assert agreed("KKAA22") == set()
    assert agreed("KKAA22", "encyclopedia") == {("KKAA22", "pair_chain")}
    assert agreed("AAA222", "encyclopedia") == {("AAA222", "airplane")}
    assert agreed("AAA22234", "encyclopedia") == {("AAA222-34", "airplane_solo")}
    assert agreed("AAA222") == set()
    # Solo chains never include a 2 or a joker, under any option set.
    for r in all_option_sets():
        assert agreed("TJQKA2", r.describe()) == set()
        assert agreed("JQKA2", r.describe()) == set()
        assert agreed("22XD", r.describe()) == set()
    assert agreed("QQKKAA22XD", "encyclopedia") == set()


def test_four_with_one():
    assert agreed("33335") == set()
    assert agreed("33335", "encyclopedia") == {("3333-5", "four_solo")}
    assert agreed("333355", "encyclopedia") == {("3333-55", "four_pair")}
    assert agreed("333355", "standard,four_with_one=on") == {("3333-55", "four_pair")}
    assert agreed("333355", "douzero,four_with_one=on") == {("3333-55", "four_pair"), ("3333-55", "four_two_solo")}


def test_chain_with_lowest_rank_four_times_is_a_chain_play_of_its_cards():
    assert agreed("34567") == {("34567", "chain")}
    # The hand 3333 4567 leads the chain 34567 (see test_movegen for the hand).


def test_rocket_and_joker_rules():
    assert agreed("XD") == {("XD", "rocket")}
    assert agreed("X") == {("X", "solo")}
    for spec in ("standard", "douzero", "encyclopedia"):
        assert ("XD", "pair") not in agreed("XD", spec)
        assert agreed("222XD", spec) == set()  # trio + two solos is no type


# Random multisets: readings == naive for every option set --------------------------------


def test_readings_equal_naive_on_random_multisets():
    rng = random.Random(21)
    option_sets = all_option_sets()
    problems = []
    # Sub-multisets of random hands, biased towards plays: many contain a trio or four.
    for hand in random_hands(300, 20, seed=21):
        counts = unpack(hand)
        sub = [rng.randint(0, c) if rng.random() < 0.5 else (c if c >= 3 else 0) for c in counts]
        cards = sum(c << (4 * r) for r, c in enumerate(sub))
        if not cards:
            continue
        for r in rng.sample(option_sets, 6):
            got, want = set(readings(cards, r.flags)), naive_readings(cards, r)
            if got != want:
                problems.append(f"{format_cards(cards)} {r.describe()}: {naive_play_names(got)} != {naive_play_names(want)}")
    assert not problems, "\n".join(problems[:20])


def test_readings_of_every_naive_lead(rule_variants):
    """Every lead the naive generator finds is a reading of its cards (and vice versa)."""
    for hand in random_hands(6, 17, seed=22):
        for rules in rule_variants:
            by_cards: dict = {}
            for c, k in naive_leads(hand, rules):
                by_cards.setdefault(c, set()).add((c, k))
            for c, want in by_cards.items():
                assert set(readings(c, rules.flags)) == want


# Play notation round trips -----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(random_hands(40, 20, seed=23)), st.sampled_from(rules_with_flips()), st.data())
def test_play_notation_round_trip(hand, rules, data):
    moves = generate(hand, rules=rules)
    plays = sorted(zip(moves.cards.tolist(), moves.kinds.tolist()))
    cards, kd = data.draw(st.sampled_from(plays))
    p = Play(cards, kd)
    assert Play.parse(p.notation(rules), rules) == p
    if p.kickers() == 0:
        assert Play.parse(str(p), rules) == p


def test_play_parse_without_dash_prefers_the_kicker_free_reading():
    assert Play.parse("333444555666", "douzero").type_name == "airplane"
    with pytest.raises(PlayError, match="several readings"):
        Play.parse("3334445556667778", "douzero")  # 333444555666-7778 or 444555666777-3338
    assert Play.parse("333444555777", "douzero").notation() == "333444555-777"
    assert Play.parse("444555666-333", "douzero").main_rank == "6"
    assert Play.parse("333444555-666", "douzero").main_rank == "5"


def test_notation_ambiguity():
    # '3333-55' is four + two solos and four + one pair under these rules; the
    # rules-aware notation marks the first with a type suffix.
    rules = Rules.parse("douzero,four_with_one=on")
    found = classify("333355", rules)
    assert sorted(p.notation(rules) for p in found) == ["3333-55", "3333-55:four_two_solo"]
    for p in found:
        assert Play.parse(p.notation(rules), rules) == p
    assert Play.parse("3333-55", rules).type_name == "four_pair"
    assert Play.parse("3333-55", "douzero").notation("douzero") == "3333-55"  # no ambiguity there
    with pytest.raises(PlayError, match="unknown combination type"):
        Play.parse("3333-55:four_of_a_kind", rules)


def test_type_names_and_codes():
    assert TYPE_NAMES[0] == "pass" and len(TYPE_NAMES) == 17
    assert all(TYPE_OF_NAME[n] == i for i, n in enumerate(TYPE_NAMES))
