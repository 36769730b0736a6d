"""The Numba move generator against the naive reference, the readings and the rules.

Three implementations must agree, compared as sets of ``(cards, kind)``:

* the kernel ``movegen.gen_into`` (and the public ``generate``);
* ``rules.readings`` (a multiset's readings are exactly the kernel leads of
  the hand made of that multiset that use all its cards);
* ``tests/naive.py`` (every sub-multiset of the hand, classified from the
  rules text).

The default run checks a capped, seeded subset of random 17- and 20-card
hands under every preset and every preset with one option flipped; ``-m slow``
runs the full 2,000 hands of each size.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DECK, REPO, all_option_sets, random_hands, rules_with_flips
from ddz_tools.moves import movegen
from ddz_tools.core.cards import format_cards, parse_cards
from ddz_tools.core.errors import CardError, PlayError
from ddz_tools.moves.movegen import gen_into, count_batch, generate, legal_plays
from ddz_tools.core.rules import (
    TYPE_NAMES,
    TYPE_OF_NAME,
    Play,
    Rules,
    beats,
    make_kind,
    readings,
)
from naive import naive_answers, naive_beats, naive_leads, naive_play_names, unpack

# Default (capped) and full sizes of the random differential runs.
DEFAULT_HANDS = {17: 50, 20: 25}
FULL_HANDS = 2000
ROCKET_KIND = make_kind(TYPE_OF_NAME["rocket"], 14, 1)


def kernel_plays(hand: int, rules: Rules, prev_kind: int = 0) -> set:
    """The kernel's plays as a set, after checking it emits no duplicate."""
    cap = 8192
    while True:
        out_cards = np.empty(cap, np.int64)
        out_kinds = np.empty(cap, np.int64)
        n = gen_into(hand, rules.flags, prev_kind, out_cards, out_kinds)
        if n <= cap:
            break
        cap = n
    pairs = list(zip(out_cards[:n].tolist(), out_kinds[:n].tolist()))
    dupes = [p for p, c in Counter(pairs).items() if c > 1]
    assert not dupes, f"kernel emits duplicates for {format_cards(hand)} under {rules.describe()}: " \
                      f"{naive_play_names(dupes)}"
    return set(pairs)


def public_plays(hand: int, rules: Rules, prev_kind: int = 0) -> set:
    """The public API's plays as a set (``generate``)."""
    after = Play(*_prev_play(prev_kind)) if prev_kind else None
    moves = generate(hand, after, rules)
    pairs = list(zip(moves.cards.tolist(), moves.kinds.tolist()))
    assert len(pairs) == len(set(pairs))
    return set(pairs)


def _prev_play(kind: int) -> tuple[int, int]:
    # generate() only reads the kind of `after`; its cards do not matter.
    return (0, kind)


def diff_message(what: str, expected: set, got: set) -> str:
    missing = naive_play_names(expected - got)
    extra = naive_play_names(got - expected)
    return (f"{what}: kernel misses {len(missing)} {missing[:8]}, "
            f"kernel has {len(extra)} extra {extra[:8]}")


def pick_prev_kinds(source: set, rng: random.Random, per_type: int = 2) -> list[int]:
    """Previous plays to answer: up to ``per_type`` kinds of each type found in
    ``source`` (another hand's leads), plus the lowest and highest bomb and the rocket."""
    by_type: dict[int, list[int]] = {}
    for _, kind in sorted(source):
        by_type.setdefault(kind & 31, []).append(kind)
    out = []
    for t in sorted(by_type):
        kinds = sorted(set(by_type[t]))
        out.extend(rng.sample(kinds, min(per_type, len(kinds))))
    out += [make_kind(TYPE_OF_NAME["bomb"], 0, 1), make_kind(TYPE_OF_NAME["bomb"], 12, 1), ROCKET_KIND]
    return sorted(set(out))


def check_hands(hands: list[int], variants: list[Rules], seed: int, readings_every: int = 1) -> None:
    """Differential check of leads and answers of every hand under every variant.

    The previous plays for answers come from the naive leads of the next hand
    in the list.  Every ``readings_every``-th hand also gets the three-way
    check against ``rules.readings``.  Failures are collected and reported
    together (at most 20).
    """
    rng = random.Random(seed)
    permissive = Rules.parse("douzero,four_with_one=on,chains_with_two=on")
    problems: list[str] = []
    for i, hand in enumerate(hands):
        other = hands[(i + 1) % len(hands)]
        text = format_cards(hand)
        for rules in variants:
            where = f"hand {text} rules {rules.describe()}"
            expected = naive_leads(hand, rules)
            got = kernel_plays(hand, rules)
            if got != expected:
                problems.append(diff_message(f"{where} leads", expected, got))
            # Answers to plays of another hand, of every type it has (under
            # these rules and under the most permissive ones).
            source = naive_leads(other, rules) | naive_leads(other, permissive)
            for prev in pick_prev_kinds(source, rng):
                want = naive_answers(hand, prev, rules)
                have = kernel_plays(hand, rules, prev)
                if have != want:
                    problems.append(diff_message(f"{where} answering kind {prev} "
                                                 f"({TYPE_NAMES[prev & 31]})", want, have))
            if i % readings_every == 0:
                problems.extend(three_way_problems(expected, rules))
            if len(problems) >= 20:
                break
        if len(problems) >= 20:
            break
    assert not problems, f"{len(problems)} mismatches (first 20):\n" + "\n".join(problems[:20])


def three_way_problems(naive_lead_set: set, rules: Rules) -> list[str]:
    """readings(cards) == naive plays with those cards == kernel whole-hand leads of cards."""
    by_cards: dict[int, set] = {}
    for cards, kind in naive_lead_set:
        by_cards.setdefault(cards, set()).add((cards, kind))
    out = []
    for cards, want in sorted(by_cards.items()):
        got = set(readings(cards, rules.flags))
        if got != want:
            out.append(f"readings({format_cards(cards)}) under {rules.describe()}: "
                       f"{naive_play_names(got)} != naive {naive_play_names(want)}")
        whole = {(c, k) for c, k in kernel_plays(cards, rules) if c == cards}
        if whole != want:
            out.append(diff_message(f"whole-hand leads of {format_cards(cards)} under {rules.describe()}",
                                    want, whole))
    return out


# Random differential runs --------------------------------------------------------


@pytest.mark.parametrize("size", [17, 20])
def test_differential_default_subset(size):
    hands = random_hands(DEFAULT_HANDS[size], size, seed=1)
    check_hands(hands, rules_with_flips(), seed=size, readings_every=3)


@pytest.mark.slow
@pytest.mark.parametrize("size", [17, 20])
def test_differential_full(size):
    hands = random_hands(FULL_HANDS, size, seed=2)
    check_hands(hands, rules_with_flips(), seed=100 + size)


@pytest.mark.slow
def test_differential_every_option_set():
    """All 32 option combinations on a smaller set of hands of every size."""
    hands = [h for size in (1, 5, 9, 13, 17, 20) for h in random_hands(40, size, seed=3)]
    check_hands(hands, all_option_sets(), seed=7)


def test_differential_small_hands_every_option_set():
    """Small hands under all 32 option sets: cheap, and shows option interplay."""
    hands = [h for size in (4, 6, 8, 10) for h in random_hands(8, size, seed=4)]
    check_hands(hands, all_option_sets(), seed=8)


# Public API and kernel contract ---------------------------------------------------


def test_public_generate_equals_kernel(rule_variants):
    for hand in random_hands(20, 20, seed=5):
        for rules in rule_variants:
            assert public_plays(hand, rules) == kernel_plays(hand, rules)
            for prev in (make_kind(TYPE_OF_NAME["solo"], 2, 1), make_kind(TYPE_OF_NAME["pair"], 4, 1),
                         make_kind(TYPE_OF_NAME["chain"], 4, 5), make_kind(TYPE_OF_NAME["bomb"], 6, 1)):
                assert public_plays(hand, rules, prev) == kernel_plays(hand, rules, prev)


def test_buffer_overflow_counts_but_writes_prefix():
    hand = parse_cards("3334445556667778889XD")  # far more than 16 plays
    full_c = np.empty(8192, np.int64)
    full_k = np.empty(8192, np.int64)
    n = gen_into(hand, 5, 0, full_c, full_k)
    small_c = np.full(16, -1, np.int64)
    small_k = np.full(16, -1, np.int64)
    assert gen_into(hand, 5, 0, small_c, small_k) == n
    assert n > 16
    assert small_c.tolist() == full_c[:16].tolist()
    assert small_k.tolist() == full_k[:16].tolist()
    empty = np.empty(0, np.int64)
    assert gen_into(hand, 5, 0, empty, empty) == n


def test_generate_grows_past_its_first_buffer():
    # The whole deck has thousands of leads under douzero, more than any first buffer.
    deck = parse_cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")
    moves = generate(deck, rules="douzero")
    assert len(moves) == len(kernel_plays(deck, Rules.parse("douzero")))
    assert len(moves) > movegen.DEFAULT_CAPACITY


def test_count_batch_matches_generate():
    hands = random_hands(50, 20, seed=6)
    for spec in ("standard", "douzero", "encyclopedia"):
        counts = count_batch(np.array(hands, np.int64), spec)
        assert counts.tolist() == [len(generate(h, rules=spec)) for h in hands]
    prev = make_kind(TYPE_OF_NAME["pair"], 4, 1)
    counts = count_batch(np.array(hands, np.int64), "standard", np.full(len(hands), prev, np.int64))
    assert counts.tolist() == [len(kernel_plays(h, Rules(), prev)) for h in hands]


def test_public_api_rejects_bad_input():
    with pytest.raises(CardError, match="5 3s"):
        generate("33333")
    with pytest.raises(CardError, match="not a legal packed hand"):
        generate(0xFF)
    with pytest.raises(TypeError, match="must be a Hand"):  # a programmer's misuse, not bad input
        generate(3.5)
    with pytest.raises(PlayError, match="nothing to answer"):
        generate("3456", after="pass")
    with pytest.raises(PlayError, match="not a legal play"):
        generate("3456", after="34")
    with pytest.raises(CardError):
        count_batch(np.array([0xF], np.int64))


def test_legal_plays_are_play_objects():
    plays = legal_plays("3344", after="33")
    assert [p.notation() for p in plays] == ["44"]
    assert all(isinstance(p, Play) for p in plays)
    assert legal_plays("") == []


# The traps of other engines, one test each ------------------------------------------


def notations(hand: str, after: "str | None" = None, rules: str = "standard") -> set[str]:
    return {p.notation() for p in generate(hand, after, rules)}


def test_no_bomb_answers_the_rocket():
    for spec in ("standard", "douzero", "encyclopedia"):
        assert len(generate("33334444555566667777888899992222", after="XD", rules=spec)) == 0
        assert naive_answers(parse_cards("22223333"), ROCKET_KIND, Rules.parse(spec)) == set()


def test_chain_whose_lowest_rank_is_held_four_times():
    assert {"34567", "345678"} <= notations("3333456789")
    assert "34567" in notations("333345678")
    assert {"45678", "56789"} <= notations("3333456789", after="34567")
    # Pair chains and airplanes too.
    assert "334455" in notations("33334455")
    assert "333444" in notations("3333444")
    assert "445566" in notations("3344445566", after="334455")


def test_four_with_two_exists():
    assert {"3333-45", "3333-4455"} <= notations("33334455")
    assert "3333-4455" in notations("33334455")
    assert "3333-45" in notations("333345")
    assert "4444-3X" in notations("34444X")  # one joker kicker (jokers_in_four_two on)


def test_four_two_pairs_and_four_two_solos_never_beat_each_other():
    hand = "4444TTJJ"
    after_solos = notations(hand, after="3333-56")
    assert "4444-TJ" in after_solos and "4444" in after_solos
    assert not any(n == "4444-TTJJ" for n in after_solos)
    after_pairs = notations(hand, after="3333-5566")
    assert after_pairs == {"4444-TTJJ", "4444"}
    assert not beats(Play.parse("4444-TTJJ").kind, Play.parse("3333-56").kind)
    assert not beats(Play.parse("4444-TJ").kind, Play.parse("3333-5566").kind)


def test_answer_to_rocket_is_empty():
    assert notations("3333XD2222", after="XD") == set()


def test_bomb_answers_a_bomb_only_higher():
    assert notations("333344445555", after="4444") == {"5555"}
    assert notations("333344445555XD", after="4444") == {"5555", "XD"}
    assert notations("33334444", after="4444") == set()
    assert notations("3333", after="2222") == set()


def test_bombs_and_rocket_answer_everything_else():
    got = notations("3333XD7", after="2")
    assert got == {"3333", "XD", "X", "D"}
    got = notations("3333XD", after="3456789TJQKA")
    assert got == {"3333", "XD"}


def test_solo_chains_never_include_two_or_jokers():
    for spec in ("standard", "encyclopedia", "douzero"):
        chains = [p for p in generate("TJQKA2XD", rules=spec) if p.type_name == "chain"]
        assert [p.notation() for p in chains] == ["TJQKA"]


def test_pair_chain_with_two_only_under_chains_with_two():
    assert "KKAA22" not in notations("KKAA22")
    assert "KKAA22" in notations("KKAA22", rules="encyclopedia")
    assert "KKKAAA222" in notations("KKKAAA222", rules="standard,chains_with_two=on")
    assert "KKKAAA222" not in notations("KKKAAA222")
    assert "AAA222" in notations("AAA222", rules="encyclopedia")
    # Never past the 2 into the jokers.
    assert "22XD" not in notations("22XD", rules="encyclopedia")


def test_four_with_one_plays():
    got = notations("3333569", rules="encyclopedia")
    assert {"3333-5", "3333-6", "3333-9", "3333-56", "3333-69"} <= got
    got = notations("333366", rules="encyclopedia")
    assert "3333-66" in got
    assert "3333-5" not in notations("33335")
    assert "3333-66" not in notations("333366")
    # It answers only the same type.
    assert notations("44446", after="3333-5", rules="encyclopedia") == {"4444-6", "4444"}


def test_wings_never_use_body_ranks():
    assert "333444-4" not in notations("3334444")
    assert not any(n.startswith("333444-") and "4" in n.split("-")[1] for n in notations("33344445"))
    for spec in ("standard", "douzero"):
        assert all("4" not in n.split("-")[1] for n in notations("3334444", rules=spec) if n.startswith("333444-"))


def test_both_jokers_as_wings_only_with_jokers_as_kickers():
    assert "333444-XD" not in notations("333444XD")
    assert "333444-XD" in notations("333444XD", rules="douzero")
    assert "333444-XD" in notations("333444XD", rules="standard,jokers_as_kickers=on")
    # One joker wing is always fine.
    assert "333444-5X" in notations("3334445X")


def test_kickers_distinct_off_allows_repeated_solo_wings():
    hand = "3334445556669999"
    assert "333444555666-9999" in notations(hand, rules="douzero")
    assert "333444555666-9999" not in notations(hand)
    assert "333444-55" in notations("33344455", rules="douzero")
    assert "333444-55" not in notations("33344455")


def test_four_two_with_jokers_under_each_option():
    hand = "3333XD5"
    assert "3333-5X" in notations(hand) and "3333-5D" in notations(hand)
    assert "3333-XD" not in notations(hand)
    assert "3333-XD" in notations(hand, rules="douzero")
    for spec in ("standard,jokers_in_four_two=off", "douzero,jokers_in_four_two=off",
                 "encyclopedia,jokers_in_four_two=off"):
        fours = [p for p in generate(hand + "66", rules=spec) if p.type_name.startswith("four")]
        assert fours and not any("X" in str(p) or "D" in str(p) for p in fours)
    # Trio + solo may still take a joker when four + two may not.
    assert "333-X" in notations("333X", rules="standard,jokers_in_four_two=off")


def test_answers_keep_length_and_type():
    got = notations("3456789TJQKA", after="34567")
    assert got == {"45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"}
    assert notations("3456789TJQKA", after="345678") == {"456789", "56789T", "6789TJ", "789TJQ",
                                                         "89TJQK", "9TJQKA"}
    # Airplanes: same number of trios, higher; wings follow the kicker rules.
    assert notations("444555667", after="333444-56") == {"444555-67"}
    assert notations("444555667", after="333444-56", rules="douzero") == {"444555-66", "444555-67"}
    assert notations("444555666777", after="333444555") == {"444555666", "555666777"}
    assert notations("4445556677", after="333444-5566") == {"444555-6677"}


# Hypothesis properties ---------------------------------------------------------------

hands_st = st.lists(st.sampled_from(DECK), min_size=0, max_size=20).map(
    lambda ranks: sum(1 << (4 * r) for r, c in Counter(ranks).items() for _ in range(min(c, 1 if r >= 13 else 4)))
)
rules_st = st.sampled_from(all_option_sets())
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(hands_st, rules_st)
def test_every_play_is_a_readable_sub_multiset(hand, rules):
    held = unpack(hand)
    for cards, kind in kernel_plays(hand, rules):
        assert all(a <= b for a, b in zip(unpack(cards), held))
        assert cards != 0
        assert (cards, kind) in readings(cards, rules.flags)
        play = Play(cards, kind)
        assert play.num_cards() == sum(unpack(cards))


@PROPS
@given(hands_st, hands_st, rules_st)
def test_answers_are_exactly_the_leads_that_beat(hand, other, rules):
    leads = kernel_plays(hand, rules)
    prevs = sorted({k for _, k in kernel_plays(other, rules)})[:40] + [ROCKET_KIND]
    for prev in prevs:
        answers = kernel_plays(hand, rules, prev)
        assert all(beats(k, prev) for _, k in answers)
        assert answers == {(c, k) for c, k in leads if beats(k, prev)}


@PROPS
@given(hands_st, rules_st)
def test_leads_have_pass_free_kinds_and_bombs_once(hand, rules):
    leads = kernel_plays(hand, rules)
    kinds = Counter(k & 31 for _, k in leads)
    assert kinds[0] == 0
    counts = unpack(hand)
    assert kinds[TYPE_OF_NAME["bomb"]] == sum(1 for c in counts[:13] if c == 4)
    assert kinds[TYPE_OF_NAME["rocket"]] == (1 if counts[13] and counts[14] else 0)
    assert kinds[TYPE_OF_NAME["solo"]] == sum(1 for c in counts if c)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**60), st.integers(0, 2**60))
def test_beats_equals_naive_beats(a, b):
    # Random kinds of every type (main and length within their fields; a
    # classic bomb is four cards, length 1: longer ones are Laizi's).
    def kind(x):
        t = x % 17
        return t | (((x >> 5) % 15) << 5) | ((1 if t == 13 else (x >> 9) % 12 + 1) << 9)

    ka, kb = kind(a), kind(b)
    assert beats(ka, kb) == naive_beats(ka, kb)


# Perft-style play counts ------------------------------------------------------------

MOVECOUNTS = REPO / "data" / "movecounts.txt"


def read_movecounts(path: Path = MOVECOUNTS):
    """Rows of (hand text, rules spec, after text or None, {type: count})."""
    rows = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        hand, spec, after = fields[0], fields[1], fields[2]
        counts = {}
        for item in fields[3:]:
            name, _, value = item.partition("=")
            counts[name] = int(value)
        rows.append((lineno, hand, spec, None if after == "lead" else after, counts))
    return rows


def count_by_type(plays) -> dict[str, int]:
    return dict(Counter(TYPE_NAMES[k & 31] for _, k in plays))


def test_movecounts_file_against_kernel_and_naive():
    rows = read_movecounts()
    assert len(rows) >= 30
    problems = []
    for lineno, hand_text, spec, after, want in rows:
        hand = parse_cards(hand_text)
        rules = Rules.parse(spec)
        prev = Play.parse(after, rules).kind if after else 0
        got = count_by_type(kernel_plays(hand, rules, prev))
        naive = count_by_type(naive_answers(hand, prev, rules) if prev else naive_leads(hand, rules))
        for name, counts in (("kernel", got), ("naive", naive)):
            if counts != want:
                diff = {t: (want.get(t, 0), counts.get(t, 0)) for t in set(want) | set(counts)
                        if want.get(t, 0) != counts.get(t, 0)}
                problems.append(f"line {lineno} {hand_text} {spec} {after or 'lead'}: {name} differs "
                                f"by type (file, got): {diff}")
    assert not problems, "\n".join(problems)


# The full deck: play counts by type from closed-form combinatorics ------------------------
#
# The naive generator cannot enumerate the 54-card deck (5^13 * 4 sub-multisets), but on
# the full deck every count has a closed form: bodies by position, kickers by counting
# multisets of the allowed ranks (a generating-function coefficient).  This also checks
# the "at most 20 cards per play" limits (airplanes of 6 trios, 5 with solo wings, 4 with
# pair wings; pair chains of 10 pairs).


def multisets(caps: list[int], k: int) -> int:
    """Number of multisets of size ``k`` taking at most caps[i] of kind i."""
    poly = [1]
    for cap in caps:
        nxt = [0] * (len(poly) + cap)
        for i, a in enumerate(poly):
            for j in range(cap + 1):
                nxt[i + j] += a
        poly = nxt
    return poly[k] if k < len(poly) else 0


def full_deck_counts(rules: Rules) -> dict[str, int]:
    top = 13 if rules.chains_with_two else 12  # ranks a pair chain / airplane may use
    solo_cap = 1 if rules.kickers_distinct else 4

    def solo_kickers(normal_ranks: int, k: int, jokers_ok: bool) -> int:
        jokers = 2 if jokers_ok else 0
        total = multisets([solo_cap] * normal_ranks + [1] * jokers, k)
        if jokers == 2 and not rules.jokers_as_kickers:
            total -= multisets([solo_cap] * normal_ranks, k - 2) if k >= 2 else 0
        return total

    comb = __import__("math").comb
    c = {
        "solo": 15, "pair": 13, "trio": 13, "bomb": 13, "rocket": 1,
        "trio_solo": 13 * 14, "trio_pair": 13 * 12,
        "chain": sum(12 - n + 1 for n in range(5, 13)),
        "pair_chain": sum(top - n + 1 for n in range(3, 11)),
        "airplane": sum(top - n + 1 for n in range(2, 7)),
        "airplane_solo": sum((top - n + 1) * solo_kickers(13 - n, n, True) for n in range(2, 6)),
        "airplane_pair": sum((top - n + 1) * comb(13 - n, n) for n in range(2, 5)),
        "four_two_solo": 13 * solo_kickers(12, 2, rules.jokers_in_four_two),
        "four_two_pair": 13 * comb(12, 2),
    }
    if rules.four_with_one:
        c["four_solo"] = 13 * (12 + (2 if rules.jokers_in_four_two else 0))
        c["four_pair"] = 13 * 12
    return c


@pytest.mark.parametrize("rules", all_option_sets(), ids=lambda r: r.describe())
def test_full_deck_counts_by_type(rules):
    deck = parse_cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")
    got = count_by_type(kernel_plays(deck, rules))
    want = full_deck_counts(rules)
    diff = {t: (want.get(t, 0), got.get(t, 0)) for t in set(want) | set(got) if want.get(t, 0) != got.get(t, 0)}
    assert not diff, f"(closed form, kernel) by type: {diff}"


# Golden enumeration and the kernel as plain Python --------------------------------------

GOLDEN_FULL_DECK = {  # sha256 of repr(sorted (cards, kind) pairs)), first 16 hex digits
    "standard": (12654, "69c3619473ca20de"),
    "douzero": (30383, "87c8cdca2820af65"),
    "encyclopedia": (14083, "a629ec16b26c64da"),
}


@pytest.mark.parametrize("spec", sorted(GOLDEN_FULL_DECK))
def test_golden_full_deck_enumeration(spec):
    """The exact list of leads of the 54-card deck (counts by type are checked in
    closed form above; this pins the plays themselves against regressions)."""
    import hashlib

    deck = parse_cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")
    pairs = sorted(kernel_plays(deck, Rules.parse(spec)))
    digest = hashlib.sha256(repr(pairs).encode()).hexdigest()[:16]
    assert (len(pairs), digest) == GOLDEN_FULL_DECK[spec]


def test_kernel_as_plain_python_matches_naive():
    """With NUMBA_DISABLE_JIT=1 the kernels run as Python: same plays as the reference
    (catches code that only type-checks by luck, and covers the kernel's lines)."""
    import os
    import subprocess
    import sys

    script = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from conftest import random_hands\n"
        "from naive import naive_leads, naive_answers\n"
        "from ddz_tools.moves.movegen import generate\n"
        "from ddz_tools.core.rules import Rules, Play\n"
        "n = 0\n"
        "for spec in ('standard', 'douzero', 'encyclopedia'):\n"
        "    r = Rules.parse(spec)\n"
        "    for h in random_hands(4, 12, seed=9):\n"
        "        m = generate(h, rules=r)\n"
        "        assert set(zip(m.cards.tolist(), m.kinds.tolist())) == naive_leads(h, r), (spec, h)\n"
        "        for after in ('5', '77', '888-4', '9999'):\n"
        "            k = Play.parse(after, r).kind\n"
        "            m = generate(h, after=Play(0, k), rules=r)\n"
        "            assert set(zip(m.cards.tolist(), m.kinds.tolist())) == naive_answers(h, k, r)\n"
        "        n += 1\n"
        "print('ok', n)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip() == "ok 12"
