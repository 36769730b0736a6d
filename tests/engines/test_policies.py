"""Policy kernels: legality and uniformity of ``random``, the behaviour the
``heuristic`` promises (one scenario per rule of its documentation), its
splits against the plain-Python decomposer, and the bid rules."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import random_deal, random_hands, random_laizi_hand, rules_with_flips
from naive import naive_answers, naive_beats, naive_leads, naive_readings, unpack
from naive_decompose import naive_min_plays
from ddz_tools.core.cards import format_cards, packed_count, parse_cards
from ddz_tools.engines.decompose import min_plays
from ddz_tools.engines.kernels import gen_all, min_plays_memo
from ddz_tools.core.kinds import T_BOMB, T_ROCKET
from ddz_tools.engines.policies import (
    BID_T1,
    BID_T2,
    BID_T3,
    BUFFER,
    DOUBLE_FARMER_T2,
    DOUBLE_LANDLORD_T2,
    DOUBLE_LANDLORD_T4,
    SHOW_T,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    POLICY_SOLO,
    _best_split,
    _bid_rule,
    _controls,
    _strength,
    new_table,
    policy_double,
    policy_number,
    policy_play,
    policy_show,
    seed_rng,
    strength,
)
from ddz_tools.core.errors import DdzError
from ddz_tools.core.rules import Play, Rules

STANDARD = Rules()


def choose(hands, seat, landlord, prev=None, prev_seat=None, policy=POLICY_HEURISTIC, rules=STANDARD):
    """Ask the policy kernel; hands and prev as text.  Returns the play's text ('' = pass)."""
    arr = np.array([parse_cards(h) for h in hands], np.int64)
    pk = 0
    if prev is not None:
        p = Play.parse(prev, rules)
        pk = p.kind
    c, k = policy_play(arr, seat, landlord, pk, landlord if prev_seat is None else prev_seat, policy,
                       rules.flags, new_table(), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    return format_cards(int(c)) if k else ""


# Helpers ---------------------------------------------------------------------------------


@settings(deadline=None)
@given(st.lists(st.integers(0, 4), min_size=13, max_size=13), st.integers(0, 1), st.integers(0, 1))
def test_card_counters_match_python(counts, x, d):
    h = sum(c << (4 * r) for r, c in enumerate(counts + [x, d]))
    assert packed_count(h) == sum(counts) + x + d
    assert _controls(h) == counts[12] + x + d


def test_policy_names():
    assert policy_number("random") == POLICY_RANDOM and policy_number("Heuristic") == POLICY_HEURISTIC
    assert policy_number(1) == 1 and policy_number("heuristic-solo") == 2
    with pytest.raises(DdzError, match="unknown policy"):
        policy_number("greedy")
    with pytest.raises(DdzError):
        policy_number(7)


# Random policy ----------------------------------------------------------------------------


@pytest.mark.parametrize("hand,prev", [("3345XD", None), ("33445566", "33"), ("3456789TJ", "34567"),
                                       ("333444556", None)])
def test_random_policy_is_uniform_over_legal_actions(hand, prev):
    h = parse_cards(hand)
    legal = naive_leads(h, STANDARD) if prev is None else naive_answers(h, Play.parse(prev).kind, STANDARD)
    options = {(c, k) for c, k in legal} | (set() if prev is None else {(0, 0)})
    arr = np.array([h, parse_cards("3"), parse_cards("4")], np.int64)
    pk = 0 if prev is None else Play.parse(prev).kind
    table, bufc, bufk = new_table(), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    seed_rng(123)
    n = 400 * len(options)
    seen: dict = {}
    for _ in range(n):
        c, k = policy_play(arr, 0, 0, pk, 1, POLICY_RANDOM, 5, table, bufc, bufk)
        seen[(int(c), int(k))] = seen.get((int(c), int(k)), 0) + 1
    assert set(seen) == options
    expect = n / len(options)
    sigma = (expect * (1 - 1 / len(options))) ** 0.5
    assert all(abs(v - expect) < 5 * sigma for v in seen.values()), seen


def test_random_bids_are_legal_and_uniform():
    seed_rng(9)
    h = parse_cards("33456789TJQKA22XD")
    for highest in range(4):
        legal = [0] + list(range(highest + 1, 4))
        got = [int(_bid_rule(h, POLICY_RANDOM, 5, highest)) for _ in range(2000)]
        assert set(got) == set(legal)
        for v in legal:
            assert abs(got.count(v) - 2000 / len(legal)) < 5 * (2000 / len(legal)) ** 0.5


# Heuristic: its split is a minimal split -------------------------------------------------------


@pytest.mark.parametrize("rules", rules_with_flips()[:6], ids=lambda r: r.describe())
def test_best_split_is_minimal_and_legal(rules):
    table = new_table()
    bufc, bufk = np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    oc, ok = np.empty(24, np.int64), np.empty(24, np.int64)
    for size in (5, 8, 11, 14):
        for h in random_hands(12, size, seed=size):
            m = _best_split(h, rules.flags, table, bufc, bufk, oc, ok)
            plays = list(zip(oc[:m].tolist(), ok[:m].tolist()))
            assert sum(c for c, _ in plays) == h
            for c, k in plays:
                assert (c, k) in naive_readings(c, rules), format_cards(c)
            assert m == naive_min_plays(h, rules.flags), format_cards(h)


def reference_split(hand, flags, table):
    """The split the heuristic documents, the plain way: at each step ask the
    decomposer about every play holding the lowest rank left and keep, among
    those leaving one play fewer, the most wanted (16 a card, -20 a control
    card, -100 a bomb that does not end the hand), the first generated on a tie."""
    bufc, bufk = np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    out, h = [], hand
    v = min_plays_memo(h, flags, table)
    while h:
        n, mc, mk = gen_all(h, flags, 0, bufc, bufk)
        low = next(r for r in range(15) if (h >> (4 * r)) & 15)
        best = None
        for c, k in zip(mc[:n].tolist(), mk[:n].tolist()):
            if (c >> (4 * low)) & 15 == 0 or min_plays_memo(h - c, flags, table) != v - 1:
                continue
            pref = 16 * packed_count(c) - 20 * int(_controls(c))
            if (k & 31) in (T_BOMB, T_ROCKET) and c != h:
                pref -= 100
            if best is None or pref > best[0]:
                best = (pref, c, k)
        out.append(best[1:])
        h -= best[1]
        v -= 1
    return out


@pytest.mark.parametrize("spec", ["standard", "laizi", "tiandi"])
def test_best_split_is_the_documented_choice(spec):
    """The kernel tries plays from the most wanted down and stops at the first
    that fits: the same split as asking about every play."""
    rng = random.Random(f"split-{spec}")
    table = new_table()
    bufc, bufk = np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    oc, ok = np.empty(24, np.int64), np.empty(24, np.int64)
    for _ in range(40):
        if spec == "standard":
            h, flags = random_hands(1, rng.randint(6, 20), seed=rng.randrange(1 << 30))[0], STANDARD.flags
        else:
            h, rules = random_laizi_hand(rng, spec, 6, 17)
            flags = rules.flags
        m = _best_split(h, flags, table, bufc, bufk, oc, ok)
        assert list(zip(oc[:m].tolist(), ok[:m].tolist())) == reference_split(h, flags, table), format_cards(h)


# Heuristic: behaviour ----------------------------------------------------------------------


def test_goes_out_when_the_hand_is_one_play():
    assert choose(["345678", "3", "4"], 0, 0) == "345678"
    assert choose(["3", "99", "3456"], 1, 0, prev="55", prev_seat=0) == "99"
    assert choose(["3", "KKKK", "3456"], 1, 0, prev="55", prev_seat=0) == "KKKK"


def test_does_not_overtake_a_partner_about_to_go_out():
    # Landlord 0; farmer 1 (one card left) led a 5; farmer 2 could beat it cheaply.
    assert choose(["3456789TJQKA", "8", "6KKQQ"], 2, 0, prev="5", prev_seat=1) == ""
    assert choose(["3456789TJQKA", "88", "6KKQQ"], 2, 0, prev="5", prev_seat=1) == ""
    # ...but goes out over the partner when it can.
    assert choose(["3456789TJQKA", "8", "6"], 2, 0, prev="5", prev_seat=1) == "6"


def test_does_not_overtake_a_partner_with_control_or_high_cards():
    assert choose(["3456789TJQKA", "8888JQK", "2KKQQ55"], 2, 0, prev="T", prev_seat=1) == ""


def test_takes_the_lead_over_a_partners_low_solo():
    # The partner's lone 3 or 4 says his hand is weak: take the lead with the split's answer (a K
    # here); over his 8 only a low answer overtakes him, so the K waits.
    assert choose(["3456789TJQKA", "3QQQ99", "K5566778899"], 2, 0, prev="3", prev_seat=1) == "K"
    assert choose(["3456789TJQKA", "4QQQ99", "K5566778899"], 2, 0, prev="4", prev_seat=1) == "K"
    assert choose(["3456789TJQKA", "8QQQ99", "K5566778899"], 2, 0, prev="8", prev_seat=1) == ""
    # Never with a 2 or a joker, never when the partner or the landlord is about to go out.
    assert choose(["3456789TJQKA", "3QQQ99", "25566778899"], 2, 0, prev="3", prev_seat=1) == ""
    assert choose(["3456789TJQKA", "39", "K5566778899"], 2, 0, prev="3", prev_seat=1) == ""
    assert choose(["A", "3QQQ99", "K5566778899"], 2, 0, prev="3", prev_seat=1) == ""
    # heuristic-solo answers it as it would the landlord's 3.
    assert choose(["3456789TJQKA", "3QQQ99", "K5566778899"], 2, 0, prev="3", prev_seat=1, policy=POLICY_SOLO) == "K"


def test_feeds_a_partner_with_one_or_two_cards():
    # Farmer 1 leads; partner 2 holds one card, the landlord many: lowest solo.
    assert choose(["3456789TJQKAA", "3559KKK", "T"], 1, 0) == "3"
    assert choose(["3456789TJQKAA", "3559KKK", "TT"], 1, 0) == "55"


def test_solo_heuristic_plays_without_the_conventions():
    # heuristic-solo: the partner's play is answered as the landlord's would be, and no feeding.
    assert choose(["3456789TJQKA", "8", "6KKQQ"], 2, 0, prev="5", prev_seat=1, policy=POLICY_SOLO) != ""
    assert choose(["3456789TJQKAA", "3559KKK", "T"], 1, 0, policy=POLICY_SOLO) != "3"
    # Where no partner is concerned it plays as the heuristic does.
    assert choose(["3", "99", "3456"], 1, 0, prev="55", prev_seat=0, policy=POLICY_SOLO) == "99"
    assert choose(["34567D", "56789T", "4AA"], 0, 0, policy=POLICY_SOLO) == "D"


def test_bombs_when_that_wins():
    # After the bomb only one play is left: bomb.
    assert choose(["3456789TJQKA2", "777799", "4556"], 1, 0, prev="A", prev_seat=0) == "7777"
    # The landlord is about to go out: bomb.
    assert choose(["2J", "7777359J", "4556"], 1, 0, prev="A", prev_seat=0) == "7777"
    # Early, with a long hand and no danger: keep the bomb.
    assert choose(["3456789TJQKA2", "7777359JQ", "4556"], 1, 0, prev="A", prev_seat=0) == ""


def test_does_not_lead_what_a_one_card_opponent_can_take():
    # Landlord to lead, a farmer holds one card: the pair goes first.
    assert choose(["3599K", "4", "33456789"], 0, 0) == "99"
    # Only solos: the highest card, not the 3.
    assert choose(["35K", "4", "33456789"], 0, 0) == "K"


def test_two_plays_left_leads_the_unbeatable_one_first():
    # Split {34567, D}: 56789 beats the chain, nothing beats D (no bomb, no X outside): D first.
    assert choose(["34567D", "56789T", "4AA"], 0, 0) == "D"
    # A pair nobody can beat before a solo that can be beaten.
    assert choose(["322", "4AX", "56789"], 0, 0) == "22"


def test_answers_without_breaking_its_split():
    # 56789T is a chain; the cheap answer to a 4 is the Q, not a card of the chain.
    assert choose(["4J", "3", "56789TQ"], 2, 0, prev="4", prev_seat=0) == "Q"


def test_keeps_control_cards_early_and_spends_them_late():
    hand = "2" + "334455"
    assert choose(["3456789TJQKA2", "5", hand], 2, 0, prev="5", prev_seat=0) == ""
    assert choose(["3A", "5", hand], 2, 0, prev="5", prev_seat=0) == "2"


def _legal_move(hand, prev_kind, c, k, rules):
    if k == 0:
        return prev_kind != 0
    if any(a < b for a, b in zip(unpack(hand), unpack(c))):
        return False
    if (c, k) not in naive_readings(c, rules):
        return False
    return prev_kind == 0 or naive_beats(k, prev_kind)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["standard", "douzero", "encyclopedia"]))
def test_heuristic_moves_are_legal(seed, spec):
    """Random mid-game states: whatever the heuristic plays is legal."""
    rules = Rules.parse(spec)
    rng = random.Random(seed)
    hands, bottom = random_deal(rng)
    ll = rng.randrange(3)
    hands[ll] += bottom
    # Remove a few random cards from each hand to reach a mid-game state.
    for s in range(3):
        counts = list(unpack(hands[s]))
        for _ in range(rng.randrange(0, 12)):
            ranks = [r for r in range(15) if counts[r]]
            counts[rng.choice(ranks)] -= 1
        if sum(counts):
            hands[s] = sum(c << (4 * r) for r, c in enumerate(counts))
    seat = rng.randrange(3)
    prev_seat = rng.choice([s for s in range(3) if s != seat])
    prev = 0
    if rng.random() < 0.7:
        opts = sorted(naive_leads(hands[prev_seat], rules))
        prev = rng.choice(opts)[1]
    arr = np.array(hands, np.int64)
    c, k = policy_play(arr, seat, ll, prev, prev_seat, POLICY_HEURISTIC, rules.flags, new_table(),
                       np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64))
    assert _legal_move(hands[seat], prev, int(c), int(k), rules)


@pytest.mark.parametrize("spec", ["laizi", "tiandi", "laizi,natural_first=on"])
def test_heuristic_spends_no_laizi_where_natural_cards_make_the_same_play(spec):
    """Every play of laizi self-play games: no legal play of the same kind
    (type, main face, length, tier) holds fewer laizi (the legal plays from
    the move generator, itself checked against the plain-Python laizi
    reference in tests/moves/test_movegen.py)."""
    from ddz_tools.moves.movegen import generate
    from ddz_tools.engines.records import parse_record
    from ddz_tools.analysis.review import replay_states
    from ddz_tools.engines.selfplay import simulate

    checked = 0
    for r in simulate(8, "heuristic", seed=17, rules=spec):
        rec = parse_record(r)
        rules = rec.rules
        mask = sum(15 << (4 * w) for w in rules.wild)

        def laizi(c):
            return sum((c & mask) >> (4 * r) & 15 for r in range(13))

        states, _, plays = replay_states(rec)
        for st, (seat, play) in zip(states, plays):
            if play.is_pass or laizi(play.cards) == 0:
                continue
            hand = st.hands[seat]
            moves = generate(hand, st.last_play, rules)
            legal = list(zip(moves.cards.tolist(), moves.kinds.tolist()))
            assert (play.cards, play.kind) in legal
            same = [c for c, k in legal if k == play.kind]
            assert laizi(play.cards) == min(laizi(c) for c in same), (format_cards(hand), play.notation(rules))
            checked += 1
    assert checked > 5


# Bid rules ----------------------------------------------------------------------------------


def strength_ref(hand: int) -> int:
    """The documented hand-strength score, from the public decomposer."""
    counts = unpack(hand)
    pts = 4 * counts[14] + 3 * counts[13] + 2 * counts[12] + 5 * sum(1 for r in range(13) if counts[r] == 4)
    return pts - min_plays(hand)


def test_strength_matches_reference_and_bid_follows_it():
    table = new_table()
    for h in random_hands(150, 17, seed=3):
        s = strength_ref(h)
        assert _strength(h, 5, table) == s
        want = 3 if s >= BID_T3 else 2 if s >= BID_T2 else 1 if s >= BID_T1 else 0
        for highest in range(4):
            b = int(_bid_rule(h, POLICY_HEURISTIC, 5, highest))
            assert b == (want if want > highest else 0)


def test_public_strength_is_the_kernels_score():
    """``strength`` (the wrapper) gives the documented score of any hand, as
    text or packed, 17 cards or the landlord's 20; no cards is an error."""
    for n in (17, 20):
        for h in random_hands(60, n, seed=n):
            assert strength(h) == strength(format_cards(h)) == strength_ref(h)
    with pytest.raises(DdzError):
        strength("")


def test_heuristic_bids_on_strong_hands_and_passes_on_weak_ones():
    assert _bid_rule(parse_cards("3456789TJQKA222XD"), POLICY_HEURISTIC, 5, 0) == 3
    assert _bid_rule(parse_cards("3355779JQK4689TAK"), POLICY_HEURISTIC, 5, 0) == 0


@given(st.integers(0, 2**31 - 1), st.integers(0, 3), st.sampled_from([POLICY_RANDOM, POLICY_HEURISTIC]))
@settings(max_examples=60, deadline=None)
def test_bids_are_legal(seed, highest, policy):
    hands, _ = random_deal(random.Random(seed))
    seed_rng(seed)
    b = int(_bid_rule(hands[0], policy, 5, highest))
    assert b == 0 or highest < b <= 3


def test_public_wrappers():
    from ddz_tools.engines.policies import bid_rule, choose as choose_play

    assert str(choose_play(["345678", "3", "4"], 0, 0)) == "345678"
    p = choose_play(["3456", "99", "3"], 1, 0, prev="55", prev_seat=0)
    assert str(p) == "99" and p.type_name == "pair"
    a = choose_play(["3456789", "99", "3"], 0, 0, policy="random", seed=5)
    assert a == choose_play(["3456789", "99", "3"], 0, 0, policy="random", seed=5)
    assert bid_rule("3456789TJQKA222XD", highest=2) == 3
    assert bid_rule("3456789TJQKA222XD", policy="random", seed=1) in (0, 1, 2, 3)
    with pytest.raises(DdzError, match="prev_seat"):
        choose_play(["3456", "99", "3"], 1, 0, prev="55")
    with pytest.raises(DdzError, match="give 3 hands"):
        choose_play(["3456", "99"], 1, 0)
    with pytest.raises(DdzError, match="holds no cards"):
        choose_play(["3456", "", "3"], 1, 0)
    with pytest.raises(DdzError, match="highest"):
        bid_rule("3456789TJQKA222XD", highest=4)
    with pytest.raises(DdzError, match="holds 17 cards"):
        bid_rule("3456789TJQKA222X")


def test_public_wrappers_four_seats():
    """Under four-player rules the wrappers take four hands and the 25 cards dealt."""
    from ddz_tools.engines.policies import bid_rule, choose as choose_play

    hands = ["33445566778899TTJJQQKKAA22XXDD", "3", "4", "5"]
    # The farmer on the landlord's right holds one card: the landlord tops the 4 with its highest solo.
    p = choose_play(["3456789TJQKA2", "5", "K", "4"], 0, 0, prev="4", prev_seat=3, rules="four")
    assert str(p) == "2"
    assert str(choose_play(hands, 1, 0, prev="22", prev_seat=0, rules="four")) == ""
    with pytest.raises(DdzError, match="give 4 hands"):
        choose_play(hands[:3], 1, 0, rules="four")
    with pytest.raises(DdzError, match="seat must be 0 to 3"):
        choose_play(hands, 4, 0, rules="four")
    dealt = "3334445566778899TTJQKA22X"
    assert bid_rule(dealt, rules="four") in (0, 1, 2, 3)
    assert bid_rule(dealt, rules="four") == bid_rule(dealt, rules="four", highest=0)
    with pytest.raises(DdzError, match="holds 25 cards"):
        bid_rule("3456789TJQKA222XD", rules="four")


def test_tops_an_opponent_about_to_go_out():
    # The landlord leads a 5 and keeps one card: the farmer answers with its highest solo.
    assert choose(["7", "69KK2", "3456789"], 1, 0, prev="5", prev_seat=0) == "2"
    # The same lead early in the hand: the cheap answer of its split.
    assert choose(["7899JJQQKKA", "69KK2", "3456789"], 1, 0, prev="5", prev_seat=0) == "6"


def test_spends_a_control_card_on_a_high_play():
    # Early, against a K: the 2 of its split goes (against a 5 it was kept, see above).
    assert choose(["3456789TJQKA2", "5", "2334455"], 2, 0, prev="K", prev_seat=0) == "2"


# Stake stages: doubles and shows (Happy Dou Dizhu) -------------------------------------------------

HAPPY = Rules.parse("happy")


def test_random_doubles_are_legal_and_uniform():
    seed_rng(4)
    h = parse_cards("33456789TJQKA22XD")
    table = new_table()
    for spec, legal in (("happy", [1, 2, 4]), ("happy,super_double=off", [1, 2]), ("standard", [1]),
                        ("happy,doubling=off", [1])):
        sf = Rules.parse(spec).stage_flags
        for landlord in (0, 1):
            got = [int(policy_double(h, POLICY_RANDOM, 5, sf, landlord, table)) for _ in range(1500)]
            assert set(got) == set(legal), spec
            for v in legal:
                assert abs(got.count(v) - 1500 / len(legal)) < 5 * (1500 / len(legal)) ** 0.5


def test_heuristic_doubles_follow_strength():
    """The landlord x2 from DOUBLE_LANDLORD_T2, x4 from DOUBLE_LANDLORD_T4 (x2
    without super_double); a farmer x2 from DOUBLE_FARMER_T2, never x4."""
    table = new_table()
    sf = HAPPY.stage_flags
    no_super = Rules.parse("happy,super_double=off").stage_flags
    seen = set()
    for size, landlord in ((20, 1), (17, 0)):
        for h in random_hands(300, size, seed=11) + [parse_cards("2222AAAAKKKKXDQQQQ"[:size])]:
            s = strength_ref(h)
            if landlord:
                want = 4 if s >= DOUBLE_LANDLORD_T4 else 2 if s >= DOUBLE_LANDLORD_T2 else 1
            else:
                want = 2 if s >= DOUBLE_FARMER_T2 else 1
            assert policy_double(h, POLICY_HEURISTIC, 5, sf, landlord, table) == want
            assert policy_double(h, POLICY_HEURISTIC, 5, no_super, landlord, table) == min(want, 2)
            assert policy_double(h, POLICY_HEURISTIC, 5, STANDARD.stage_flags, landlord, table) == 1
            seen.add((landlord, want))
    # The derived thresholds send the landlord from x1 straight to x4 (x2 only without super_double).
    x2 = {(1, 2)} if DOUBLE_LANDLORD_T2 < DOUBLE_LANDLORD_T4 else set()
    assert seen == {(1, 1), (1, 4), (0, 1), (0, 2)} | x2


def test_shows_only_at_the_landlords_first_play():
    """Neither policy shows before the auction (nor draws from the generator
    there); at his first play the random landlord shows half of the time, the
    heuristic one from strength SHOW_T; never a farmer, never under show=off."""
    from ddz_tools.core.gamerules import SHOW_FIRST_PLAY

    table = new_table()
    sf = HAPPY.stage_flags
    h = parse_cards("33456789TJQKA22XD")
    for policy in (POLICY_RANDOM, POLICY_HEURISTIC):
        for stage in range(18):
            seed_rng(1)
            assert policy_show(h, policy, 5, sf, stage, 0, table) == 0
            assert policy_show(h, policy, 5, sf, stage, 1, table) == 0
            assert policy_double(h, POLICY_RANDOM, 5, sf, 0, table) == _first_random_double(1, sf)
        assert policy_show(h, policy, 5, sf, SHOW_FIRST_PLAY, 0, table) == 0
        assert policy_show(h, policy, 5, STANDARD.stage_flags, SHOW_FIRST_PLAY, 1, table) == 0
    seed_rng(2)
    got = [int(policy_show(h, POLICY_RANDOM, 5, sf, SHOW_FIRST_PLAY, 1, table)) for _ in range(2000)]
    assert set(got) == {0, 1} and abs(sum(got) - 1000) < 5 * 500 ** 0.5
    shown = set()
    for hand in random_hands(200, 20, seed=12) + [parse_cards("2222AAAAKKKKXDQQQQ3")]:
        want = int(strength_ref(hand) >= SHOW_T)
        assert policy_show(hand, POLICY_HEURISTIC, 5, sf, SHOW_FIRST_PLAY, 1, table) == want
        shown.add(want)
    assert shown == {0, 1}


def _first_random_double(seed, stage_flags):
    seed_rng(seed)
    return int(policy_double(parse_cards("3"), POLICY_RANDOM, 5, stage_flags, 0, new_table(4)))
