"""Tests of the hand decomposer against the plain-Python reference."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numba
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ddz_tools.core.cards import FULL_DECK, format_cards, parse_cards
from ddz_tools.engines.decompose import (
    SEARCH_WORK,
    Decomposition,
    min_plays_memo,
    min_plays_memo_in,
    min_plays_prefetch,
    decompose,
    lead_order,
    min_plays,
    min_plays_fresh,
    new_memo_table,
)
from ddz_tools.core.errors import CardError, DdzError
from ddz_tools.moves.movegen import generate
from ddz_tools.core.rules import Play, Rules, readings

from naive_decompose import clear_caches, naive_min_plays, naive_min_plays_nobreak, naive_splits

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "data", "decompose_cases.txt")
DECK = [r for r in range(13) for _ in range(4)] + [13, 14]
PRESETS = ("standard", "douzero", "encyclopedia")
#: Rule sets beyond the presets: every option switched away from standard once.
VARIANTS = (
    "standard,kickers_distinct=off",
    "standard,jokers_as_kickers=on",
    "standard,jokers_in_four_two=off",
    "standard,four_with_one=on",
    "standard,chains_with_two=on",
    "douzero,jokers_in_four_two=off,four_with_one=on",
)


def _slow_selected(request) -> bool:
    return "slow" in (request.config.getoption("markexpr") or "")


def random_hands(seed: int, count: int, sizes=(1, 20)):
    """Seeded hands: half uniform deals, half drawn from few ranks (many
    repeated ranks, where splitting is hardest)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = rng.randint(*sizes)
        if i % 2 == 0:
            cards = rng.sample(DECK, n)
        else:
            ranks = rng.sample(range(15), rng.randint(4, 9))
            pool = [r for r in ranks for _ in range(4 if r < 13 else 1)]
            cards = rng.sample(pool, min(n, len(pool)))
        out.append(sum(1 << (4 * c) for c in cards))
    return out


def read_cases():
    with open(CASES, encoding="utf-8") as f:
        for line in f:
            text = line.split("#", 1)[0].split()
            if text:
                yield text[0], text[1], int(text[2])


# Known cases ----------------------------------------------------------------------


@pytest.mark.parametrize("hand,rules,expected", list(read_cases()))
def test_known_cases(hand, rules, expected):
    flags = Rules.parse(rules).flags
    assert min_plays(hand, rules) == expected
    assert naive_min_plays(parse_cards(hand), flags) == expected
    d = decompose(hand, rules)
    assert d.min_plays == expected == len(d.plays)
    assert sum(p.cards for p in d.plays) == parse_cards(hand)


def test_cases_file_has_break_cases_and_noip():
    """The file keeps hands where a whole-rank kicker splitter needs one play more."""
    cases = list(read_cases())
    assert ("789TJ5AA", "standard", 3) in cases
    assert ("345567TTJQQQQA22X", "standard", 6) in cases
    needing = [h for h, r, m in cases
               if naive_min_plays_nobreak(parse_cards(h), Rules.parse(r).flags) > m]
    assert len(needing) >= 6


def test_rules_change_the_answer():
    assert min_plays("333444" "55", "douzero") == 1
    assert min_plays("333444" "55", "standard") == 2


# Differential tests against the reference ----------------------------------------


def _differential(rules: str, hands):
    flags = Rules.parse(rules).flags
    table = new_memo_table(14)
    bad = []
    for h in hands:
        got = min_plays(h, rules)
        want = naive_min_plays(h, flags)
        if got != want or min_plays_memo(h, flags, table) != want:
            bad.append((format_cards(h), got, want))
    clear_caches()
    assert not bad, f"{len(bad)} mismatches under {rules}, first: {bad[:5]}"


@pytest.mark.parametrize("rules", PRESETS)
def test_differential_presets(rules):
    """200 seeded hands per preset by default (2,500 with -m slow)."""
    _differential(rules, random_hands(1000 + PRESETS.index(rules), 200))


@pytest.mark.parametrize("rules", VARIANTS)
def test_differential_options(rules):
    _differential(rules, random_hands(2000 + VARIANTS.index(rules), 80))


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS)
def test_differential_presets_full(rules, request):
    if not _slow_selected(request):
        pytest.skip("full differential run: use -m slow")
    _differential(rules, random_hands(3000 + PRESETS.index(rules), 2500))


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS)
def test_differential_options_full(rules, request):
    if not _slow_selected(request):
        pytest.skip("full differential run: use -m slow")
    _differential(rules, random_hands(4000 + VARIANTS.index(rules), 600))


def _all_option_sets(count: int, seed: int):
    from conftest import all_option_sets

    for i, rules in enumerate(all_option_sets()):
        _differential(rules.describe(), random_hands(seed + i, count, sizes=(6, 20)))


def test_differential_all_option_sets():
    """Every one of the 32 combinations of the five play options, 8 hands each (200 with -m slow)."""
    _all_option_sets(8, 5000)


@pytest.mark.slow
def test_differential_all_option_sets_full(request):
    if not _slow_selected(request):
        pytest.skip("full differential run: use -m slow")
    _all_option_sets(200, 6000)


@pytest.mark.parametrize("rules", ("standard", "douzero"))
def test_full_deals(rules):
    """17- and 20-card deals, the sizes the game uses."""
    rng = random.Random(55)
    hands = [sum(1 << (4 * c) for c in rng.sample(DECK, 17 + 3 * (i % 2))) for i in range(60)]
    _differential(rules, hands)


# Splits ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ("standard", "douzero"))
def test_all_splits_match_reference(rules):
    """Every distinct minimal split, and their count, on small hands."""
    flags = Rules.parse(rules).flags
    for h in random_hands(77 + len(rules), 60, sizes=(2, 10)):
        want = naive_splits(h, flags)
        d = decompose(h, rules, all_splits=True, limit=10_000)
        got = {tuple(sorted(p.cards for p in s)) for s in d.splits}
        assert len(got) == len(d.splits), "a split was listed twice"
        assert got == want
        assert d.splits_count == len(want)
    clear_caches()


def test_split_limit_and_count():
    d = decompose("3334445556667779XD", all_splits=True, limit=7)
    assert d.splits_count == 55 and len(d.splits) == 7
    assert all(len(s) == 3 for s in d.splits)
    assert decompose("3334445556667779XD").splits is None


def _check_split(d: Decomposition, hand: int, rules: Rules):
    assert sum(p.cards for p in d.plays) == hand
    for p in d.plays:
        assert (p.cards, p.kind) in readings(p.cards, rules.flags)


@pytest.mark.parametrize("rules", PRESETS)
def test_best_split_is_legal_and_least_uncontrolled(rules):
    r = Rules.parse(rules)
    for h in random_hands(99 + PRESETS.index(rules), 40, sizes=(4, 12)):
        d = decompose(h, r, all_splits=True, limit=100_000)
        _check_split(d, h, r)
        assert len(d.plays) == d.min_plays
        outside = FULL_DECK - h
        costs = []
        for s in d.splits:
            same = sum(_beaten_same_type(outside, p, r) for p in s)
            anyb = sum(len(generate(outside, p, r)) > 0 for p in s)
            costs.append((same, anyb))
        assert (d.uncontrolled, d.uncontrolled_any) == min(costs)
        assert d.uncontrolled == sum(_beaten_same_type(outside, p, r) for p in d.plays)
        assert [str(p) for p in d.uncontrolled_plays] == [str(p) for p in d.plays if _beaten_same_type(outside, p, r)]


def _beaten_same_type(outside: int, play: Play, rules: Rules) -> bool:
    """Written from the definition: some same-type play of the outside cards is higher."""
    for q in generate(outside, None, rules):
        if q.type == play.type and q.length == play.length and q.main > play.main:
            return True
        if play.type == 13 and q.type == 14:  # the rocket beats a bomb
            return True
    return False


def test_controls_and_order():
    d = decompose("3456789TJQKA2XD")
    assert (d.twos, d.jokers, d.rocket, d.bombs, d.control_cards) == (1, 2, True, [], 3)
    assert d.uncontrolled == 0
    assert str(d.plays[-1]) in ("XD", "2", "3456789TJQKA")
    d = decompose("3333456789")
    assert d.bombs == [parse_cards("3333")]
    d = decompose("3458TTTQQ22XD")
    # 3, 4, 5 (or 8) are uncontrolled; the rocket and 22 are not: the
    # uncontrolled plays lead, lowest first, and the rocket comes last.
    assert d.uncontrolled >= 2
    assert d.plays[0] in d.uncontrolled_plays and d.plays[0].main == 0
    assert str(d.plays[-1]) == "XD"


def test_lead_order_single_uncontrolled_goes_last():
    a, b, c = Play.parse("33"), Play.parse("2"), Play.parse("XD")
    assert lead_order([a, b, c], {a}) == [b, c, a]
    # No uncontrolled play: plain plays low to high, then bombs and the rocket.
    assert lead_order([c, a, b], set()) == [a, b, c]
    d, e = Play.parse("3"), Play.parse("4")
    # Several uncontrolled: those first from the lowest, controlled plays after.
    assert lead_order([b, e, c, d], {d, e}) == [d, e, b, c]


def test_to_dict():
    d = decompose("33344455", "douzero").to_dict()
    assert d["hand"] == "33344455" and d["rules"] == "douzero" and d["min_plays"] == 1
    assert d["plays"] == ["333444-55"]
    assert set(d) >= {"uncontrolled", "uncontrolled_any", "controls", "splits_count"}


def test_empty_hand():
    assert min_plays("") == 0
    d = decompose("")
    assert d.min_plays == 0 and d.plays == [] and d.splits_count == 1


def test_bad_input():
    with pytest.raises(CardError):
        min_plays("33333")
    with pytest.raises(CardError):
        decompose("3Z")
    with pytest.raises(DdzError):
        decompose("33", limit=0)
    with pytest.raises(DdzError):
        decompose("33", rules="nosuch")
    with pytest.raises(CardError, match="at most 20"):
        min_plays("33334444555566667777X")
    with pytest.raises(CardError, match="at most 20"):
        decompose(FULL_DECK)
    with pytest.raises(DdzError, match="bits"):
        new_memo_table(40)


def test_kernels_run_without_jit():
    """The kernels as plain Python (NUMBA_DISABLE_JIT=1) give the same answers
    on a few hands: coverage of kernel code and of typing that works by luck."""
    hands = random_hands(8, 12, sizes=(3, 12))
    code = (
        "import sys, warnings; warnings.simplefilter('ignore')\n"
        "from ddz_tools.engines.decompose import min_plays\n"
        f"print([min_plays(h, r) for r in ('standard', 'douzero') for h in {hands!r}])\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    want = [naive_min_plays(h, Rules.parse(r).flags) for r in ("standard", "douzero") for h in hands]
    assert res.stdout.strip() == str(want)
    clear_caches()


# Kernels ---------------------------------------------------------------------------


def test_memo_table_reuse_and_flag_switch():
    table = new_memo_table(10)  # small: forces clearing when full
    hands = random_hands(5, 150, sizes=(10, 20))
    for rules in ("standard", "douzero", "standard"):
        flags = Rules.parse(rules).flags
        for h in hands:
            assert min_plays_memo(h, flags, table) == min_plays_fresh(h, flags)
    assert table[0] == Rules.parse("standard").flags + 1


def test_prefetch_changes_nothing():
    """Prefetching hands' slots leaves the memo table exactly as it was, and
    the lookups after it give the reference's values."""
    flags = Rules.parse("standard").flags
    table = new_memo_table(8)
    hands = random_hands(33, 60, sizes=(1, 20))
    for h in hands[:30]:
        min_plays_memo(h, flags, table)
    before = table.copy()
    for h in hands + [0]:
        min_plays_prefetch(h, table)
    assert np.array_equal(table, before)
    for h in hands:
        assert min_plays_memo(h, flags, table) == naive_min_plays(h, flags), format_cards(h)


def test_search_in_a_work_array_of_any_size():
    """min_plays_memo_in says -1 when the caller's work array is too small and
    loses nothing: doubling it until the call succeeds gives the reference's
    value, whatever the first size (from no room for plays at all)."""
    flags = Rules.parse("standard").flags
    table = new_memo_table(12)
    tiny = SEARCH_WORK - 6 * 1024 + 6 * 2
    too_small = 0
    for h in random_hands(31, 60, sizes=(5, 20)):
        size = tiny
        while (v := min_plays_memo_in(h, flags, table, np.empty(size, np.int64))) < 0:
            too_small += 1
            size *= 2
        assert v == naive_min_plays(h, flags), format_cards(h)
        assert min_plays_memo_in(h, flags, table, np.empty(tiny, np.int64)) == v  # now memoised
    assert too_small > 0
    assert min_plays_memo_in(0, flags, table, np.empty(tiny, np.int64)) == 0


def test_kernel_callable_from_kernels():
    @numba.njit
    def total(hands, flags):
        s = 0
        for i in range(hands.shape[0]):
            s += min_plays_fresh(hands[i], flags)
        return s

    hands = random_hands(6, 30, sizes=(5, 17))
    assert total(np.array(hands, np.int64), 5) == sum(min_plays(h) for h in hands)


# Properties ------------------------------------------------------------------------

_hand = st.lists(st.sampled_from(range(54)), min_size=1, max_size=20, unique=True).map(
    lambda ids: sum(1 << (4 * DECK[i]) for i in ids))


_hand_small = st.lists(st.sampled_from(range(54)), min_size=1, max_size=12, unique=True).map(
    lambda ids: sum(1 << (4 * DECK[i]) for i in ids))


@settings(max_examples=150, deadline=None)
@given(_hand_small, _hand_small)
def test_subadditive(a, b):
    # Only when a + b is still a legal hand of at most 20 cards.
    total = a + b
    counts = [(total >> (4 * r)) & 15 for r in range(15)]
    assume(not (any(c > 4 for c in counts[:13]) or counts[13] > 1 or counts[14] > 1))
    assume(sum(counts) <= 20)
    assert min_plays(total) <= min_plays(a) + min_plays(b)


@settings(max_examples=150, deadline=None)
@given(_hand)
def test_bounds_and_rule_monotonicity(h):
    n_ranks = sum(1 for r in range(15) if (h >> (4 * r)) & 15)
    m = min_plays(h)
    assert 1 <= m <= n_ranks
    # douzero and encyclopedia only add plays to standard.
    assert min_plays(h, "douzero") <= m
    assert min_plays(h, "encyclopedia") <= m
    assert min_plays(h, "douzero,four_with_one=on,chains_with_two=on") <= min_plays(h, "douzero")


@settings(max_examples=100, deadline=None)
@given(_hand, st.integers(0, 10_000))
def test_one_play_step(h, pick):
    """min(h) <= 1 + min(h - p) for every lead p, with equality for some p."""
    plays = generate(h)
    m = min_plays(h)
    steps = [1 + min_plays(h - c) for c in set(plays.cards.tolist())]
    assert min(steps) == m
    assert steps[pick % len(steps)] >= m
