"""The game rules of ``ddz_tools.core.gamerules``: each kernel, compiled and run by
Python, against the plain-Python references of ``naive_gamerules.py`` and
``naive_game.auction`` on many seeded random inputs, plus property tests of
the rules' invariants."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_game import Bad, auction as naive_auction
from naive_gamerules import play_to_answer, settlement, stake_of

from ddz_tools.core import gamerules as gr
from ddz_tools.core._jit import interpreted
from ddz_tools.core.kinds import F_STAKE_TIERS

# Each rule is checked compiled (called from Python through Numba's dispatcher)
# and interpreted (the form the Python game runs).
FORMS = {"kernel": lambda f: f, "interpreted": interpreted}


def settled(fn, landlord, won, stake, seats=3, doubles=None, doubling=gr.DOUBLING_OFF):
    """The scores :func:`~ddz_tools.core.gamerules.settle_seats` (``fn``, a FORMS form of it)
    writes for a table of ``seats``."""
    d = np.array(doubles if doubles is not None else [1] * seats, np.int64)
    out = np.zeros(seats, np.int64)
    fn(landlord, int(won), stake, seats, doubling, d, 0, out, 0)
    return out.tolist()


def _kind(rng: random.Random) -> int:
    return rng.randint(1, 16) | (rng.randint(0, 14) << 5) | (rng.randint(1, 12) << 9)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("nplayers", [2, 3, 4])
def test_trick_after_agrees_with_the_history_reference(form, nplayers):
    trick_after, may_pass = FORMS[form](gr.trick_after), FORMS[form](gr.may_pass)
    next_seat = FORMS[form](gr.next_seat)
    rng = random.Random(10 + nplayers)
    for game in range(300):
        seat = rng.randrange(nplayers)
        kind, by = 0, 0
        moves = []
        for _ in range(rng.randint(1, 40)):
            assert bool(may_pass(kind)) == (play_to_answer(moves, nplayers)[0] != 0)
            if may_pass(kind) and rng.random() < 0.5:
                move = rng.choice([0, -1])      # the solver writes its pass as -1
            else:
                move = _kind(rng)
            moves.append((seat, max(move, 0)))
            kind, by = trick_after(move, seat, kind, by, nplayers)
            assert (kind, by) == play_to_answer(moves, nplayers), (game, moves)
            seat = next_seat(seat, nplayers)
            assert seat == (moves[0][0] + len(moves)) % nplayers


@pytest.mark.parametrize("form", FORMS)
def test_stake_and_settlement_agree_with_the_reference(form):
    doublings, springs = FORMS[form](gr.stake_doublings), FORMS[form](gr.spring_doubles)
    mult_of, settle = FORMS[form](gr.multiplier), FORMS[form](gr.settle_seats)
    rng = random.Random(21)
    for i in range(3000):
        landlord, winner, base = rng.randrange(3), rng.randrange(3), rng.randint(1, 3)
        any_player = rng.random() < 0.5
        tiers = i % 3 == 0        # the Laizi multipliers: bombs by tier
        flags = F_STAKE_TIERS if tiers else 0
        n = rng.choice([0, 1, 2, rng.randint(3, 30)])
        plays = [(rng.randrange(3), (13 if rng.random() < 0.1 else rng.randint(1, 16)) | (rng.randint(0, 14) << 5)
                  | (rng.randint(0, 3) << 13)) for _ in range(n)]
        made = [sum(1 for s, _ in plays if s == seat) for seat in range(3)]
        won = winner == landlord
        total = sum(doublings(k, flags) for _, k in plays)
        spring, anti = springs(won, made[landlord], made[(landlord + 1) % 3], made[(landlord + 2) % 3],
                               int(any_player))
        mult = mult_of(total, spring, anti)
        want = stake_of(base, plays, landlord, winner, any_player, tiers)
        assert (spring, anti, mult, base * mult) == want
        assert settled(settle, landlord, won, base * mult) == settlement(landlord, won, base * mult)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2), st.booleans(), st.integers(0, 3 * 2 ** 12))
def test_settlement_sums_to_zero_and_the_landlord_takes_both_sides(landlord, won, stake):
    scores = settled(gr.settle_seats, landlord, won, stake)
    assert sum(scores) == 0
    farmers = [s for s in range(3) if s != landlord]
    assert scores[farmers[0]] == scores[farmers[1]] == -scores[landlord] // 2
    assert (scores[landlord] >= 0) == (won or stake == 0)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 3), st.integers(1, 16), st.integers(0, 14), st.integers(1, 12))
def test_the_trick_returns_to_the_last_player_after_everyone_else_passed(nplayers, seat, t, main, length):
    seat %= nplayers
    kind = t | (main << 5) | (length << 9)
    k, by = gr.trick_after(kind, seat, 0, 0, nplayers)
    assert (k, by) == (kind, seat)
    s = gr.next_seat(seat, nplayers)
    for _ in range(nplayers - 2):          # passes that leave the play standing
        k, by = gr.trick_after(0, s, k, by, nplayers)
        assert (k, by) == (kind, seat)
        s = gr.next_seat(s, nplayers)
    k, by = gr.trick_after(0, s, k, by, nplayers)   # the last pass ends the trick
    assert k == 0 and gr.next_seat(s, nplayers) == seat and not gr.may_pass(k)


_CODES = {gr.BID_OVER: "not_bidding", gr.BID_WRONG_TURN: "wrong_turn", gr.BID_BAD: "bad_bid"}


def _run_auction(form, mode, first, all_pass, bids, forced=(), seats=3):
    """The kernels on a bid sequence: ('error', code, index) or (landlord, base / 'void' / 'unfinished')."""
    start, error, bid = FORMS[form](gr.auction_start), FORMS[form](gr.bid_error), FORMS[form](gr.auction_bid)
    state = np.zeros(gr.AUCTION_SIZE, np.int64) if form == "kernel" else [0] * gr.AUCTION_SIZE
    start(state, gr.BIDDING_MODES[mode], first, int(all_pass == "seat0"))
    if seats != 3:
        FORMS[form](gr.auction_seats)(state, seats)
    for s in forced:
        FORMS[form](gr.auction_must_call)(state, s)
    for i, (s, v) in enumerate(bids):
        err = error(state, s, v)
        if err != gr.BID_OK:
            return ("error", _CODES[int(err)], i)
        bid(state, s, v)
    if state[gr.A_OUTCOME] == gr.AUCTION_WON:
        return (int(state[gr.A_LANDLORD]), int(state[gr.A_BASE]))
    return (None, "void" if state[gr.A_OUTCOME] == gr.AUCTION_VOID else "unfinished")


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("mode", list(gr.BIDDING_MODES))
@pytest.mark.parametrize("seats", [3, 4])
def test_auction_agrees_with_the_reference(form, mode, seats):
    rng = random.Random(hash(mode) % 1000 + 7 + 100 * seats)
    seen = set()
    start, error, bid = interpreted(gr.auction_start), interpreted(gr.bid_error), interpreted(gr.auction_bid)
    for _ in range(1500 if seats == 3 else 600):
        first, all_pass = rng.randrange(seats), rng.choice(["redeal", "seat0"])
        forced = tuple(s for s in range(seats) if rng.random() < 0.15)     # must_call seats
        # Mostly legal sequences (the turn from the rule itself), with some wrong seats and values.
        state = [0] * gr.AUCTION_SIZE
        start(state, gr.BIDDING_MODES[mode], first, int(all_pass == "seat0"))
        interpreted(gr.auction_seats)(state, seats)
        for s in forced:
            interpreted(gr.auction_must_call)(state, s)
        bids = []
        for _ in range(rng.randint(0, 9)):
            turn = state[gr.A_TURN]
            s = turn if turn >= 0 and rng.random() < 0.93 else rng.randrange(seats)
            legal = [v for v in range(4) if error(state, s, v) == gr.BID_OK]
            v = rng.choice(legal) if legal and rng.random() < 0.93 else rng.randint(-1, 4)
            bids.append((s, v))
            if error(state, s, v) != gr.BID_OK:
                break
            bid(state, s, v)
        try:
            want = naive_auction(bids, first, mode, all_pass, forced, seats)
        except Bad as exc:
            want = ("error",) + exc.code
        got = _run_auction(form, mode, first, all_pass, bids, forced, seats)
        assert got == want, (mode, first, all_pass, bids, forced, seats)
        seen.add(got[0] if got[0] == "error" else got[1] if got[0] is None else "won")
    assert seen >= {"error", "won", "unfinished"}, seen


def test_a_four_seat_single_round_auction():
    """Four seats bid once each; a bid must top every earlier one, a 3 ends it
    at once; all four passing voids the deal (the three-seat auction is
    unchanged: it stops after three bids)."""
    assert _run_auction("kernel", "single-round", 1, "redeal", [(1, 1), (2, 0), (3, 2), (0, 0)], seats=4) == (3, 2)
    assert _run_auction("kernel", "single-round", 1, "redeal", [(1, 1), (2, 0), (3, 2)], seats=4) == (
        None, "unfinished")
    assert _run_auction("kernel", "single-round", 1, "redeal", [(1, 1), (2, 0), (0, 2)], seats=3) == (0, 2)
    assert _run_auction("kernel", "single-round", 2, "redeal", [(2, 0), (3, 3)], seats=4) == (3, 3)
    assert _run_auction("kernel", "single-round", 3, "redeal", [(3, 0), (0, 0), (1, 0), (2, 0)], seats=4) == (
        None, "void")
    assert _run_auction("kernel", "single-round", 0, "redeal", [(0, 2), (1, 2)], seats=4) == ("error", "bad_bid", 1)
    assert _run_auction("kernel", "single-round", 0, "redeal", [(0, 1), (2, 2)], seats=4) == (
        "error", "wrong_turn", 1)


# Four players: the stake by bomb_doubles, the spring of three farmers, +3s / -s ----------------

from naive_gamerules import FOUR_FACTORS  # noqa: E402

from ddz_tools.core.kinds import F_BOMBS_LADDER, F_BOMBS_SIX_PLUS, F_FOUR  # noqa: E402

FOUR_FLAGS = {"all": F_FOUR, "six-plus": F_FOUR | F_BOMBS_SIX_PLUS, "ladder": F_FOUR | F_BOMBS_LADDER}


def _four_kind(rng: random.Random) -> int:
    """A random four-player kind: often a bomb of 4 to 8 cards or the four jokers."""
    x = rng.random()
    if x < 0.25:
        return 13 | (rng.randint(0, 12) << 5) | (rng.randint(1, 5) << 9)
    if x < 0.35:
        return 14 | (14 << 5) | (1 << 9)
    return rng.choice([1, 2, 3, 5, 6, 7, 8, 10]) | (rng.randint(0, 14) << 5) | (rng.randint(1, 8) << 9)


def test_the_flags_of_bomb_doubles_are_the_rules_flags():
    for name, flags in FOUR_FLAGS.items():
        rf = Rules.parse(f"four,bomb_doubles={name}").flags
        assert rf & (F_FOUR | F_BOMBS_SIX_PLUS | F_BOMBS_LADDER) == flags


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("option", list(FOUR_FLAGS))
def test_four_player_stake_and_settlement_agree_with_the_reference(form, option):
    doublings, spring_silent = FORMS[form](gr.stake_doublings), FORMS[form](gr.spring_silent)
    mult_of, settle = FORMS[form](gr.multiplier), FORMS[form](gr.settle_seats)
    flags = FOUR_FLAGS[option]
    rng = random.Random(f"four-stake-{option}")
    seen = set()
    for _ in range(2000):
        landlord, winner, base = rng.randrange(4), rng.randrange(4), rng.randint(1, 3)
        any_player = rng.random() < 0.5
        n = rng.choice([0, 1, 2, rng.randint(3, 40)])
        plays = [(rng.randrange(4), _four_kind(rng)) for _ in range(n)]
        made = [sum(1 for s, _ in plays if s == seat) for seat in range(4)]
        won = winner == landlord
        total = sum(doublings(k, flags) for _, k in plays)
        silent = sum(1 for f in range(4) if f != landlord and made[f] == 0)
        spring, anti = spring_silent(won, made[landlord], silent, 3, int(any_player))
        mult = mult_of(total, spring, anti)
        want = stake_of(base, plays, landlord, winner, any_player, seats=4, bomb_doubles=option)
        assert (spring, anti, mult, base * mult) == want, (plays, landlord, winner)
        scores = settled(settle, landlord, won, base * mult, seats=4)
        assert scores == settlement(landlord, won, base * mult, seats=4) and sum(scores) == 0
        seen.add(mult % 3 == 0)
    assert seen == ({True, False} if option == "ladder" else {False})


def test_four_player_stake_table():
    """What each bomb size and the four jokers multiply the stake by, per option."""
    def factor(kind, option):
        return gr.multiplier(gr.stake_doublings(kind, FOUR_FLAGS[option]), 0, 0)
    bombs = {n: 13 | (5 << 5) | ((n - 3) << 9) for n in range(4, 9)}
    jokers = 14 | (14 << 5) | (1 << 9)
    for option, table in FOUR_FACTORS.items():
        assert {n: factor(k, option) for n, k in bombs.items()} == {n: table[n] for n in bombs}
        assert factor(jokers, option) == table["jokers"]
    # A play that is no bomb never counts; three-player rules are untouched (every bomb x2).
    assert gr.stake_doublings(2 | (13 << 5) | (1 << 9), FOUR_FLAGS["ladder"]) == 0
    assert gr.stake_doublings(bombs[4], 0) == 1 and gr.multiplier(3, 1, 0) == 16


def test_the_worked_four_player_scores():
    """docs/game.md: bid 2, the landlord wins; 4444, 555555 and XXDD were played."""
    plays = [13 | (1 << 5) | (1 << 9), 13 | (2 << 5) | (3 << 9), 14 | (14 << 5) | (1 << 9)]
    for option, mult, pays in (("six-plus", 4, 8), ("ladder", 6, 12), ("all", 8, 16)):
        d = sum(gr.stake_doublings(k, FOUR_FLAGS[option]) for k in plays)
        assert gr.multiplier(d, 0, 0) == mult
        assert settled(gr.settle_seats, 0, 1, 2 * mult, seats=4) == [3 * pays, -pays, -pays, -pays]


# Stake stages (Happy Dou Dizhu) ------------------------------------------------------------

from naive_gamerules import bottom_multiple, settlement_doubled, show_multiple  # noqa: E402

from ddz_tools.core.rules import Rules  # noqa: E402


def _stage_code(stage) -> int:
    if stage == "before-deal":
        return gr.SHOW_BEFORE_DEAL
    if stage == "first-play":
        return gr.SHOW_FIRST_PLAY
    return stage[1]


@pytest.mark.parametrize("form", FORMS)
def test_show_factor_agrees_with_the_tables(form):
    show_factor = FORMS[form](gr.show_factor)
    stages = ["before-deal", "first-play"] + [("deal", n) for n in range(0, 19)]
    for mode in ("off", "qq", "dianle"):
        for split in (1, 6, 8, 12, 17):
            flags = Rules.parse(f"happy,show={mode},show_split={split}").stage_flags
            for stage in stages:
                for landlord in (False, True):
                    if stage == ("deal", 0):
                        continue
                    want = show_multiple(mode, split, stage, landlord)
                    assert show_factor(flags, _stage_code(stage), landlord) == (want or 0), (mode, split, stage)
            assert show_factor(flags, gr.SHOW_NONE, False) == 1


@pytest.mark.parametrize("form", FORMS)
def test_show_merge_and_double_options(form):
    merge, ok = FORMS[form](gr.merge_show), FORMS[form](gr.double_ok)
    mx = Rules.parse("happy").stage_flags
    prod = Rules.parse("happy,show_merge=product").stage_flags
    assert merge(mx, merge(mx, 1, 2), 5) == 5 and merge(mx, 5, 2) == 5
    assert merge(prod, merge(prod, 1, 2), 5) == 10
    assert [f for f in range(6) if ok(Rules.parse("happy").stage_flags, f)] == [1, 2, 4]
    assert [f for f in range(6) if ok(Rules.parse("happy,super_double=off").stage_flags, f)] == [1, 2]
    assert [f for f in range(6) if ok(Rules.parse("happy,doubling=off").stage_flags, f)] == [1]
    assert [f for f in range(6) if ok(Rules.parse("standard").stage_flags, f)] == [1]


@pytest.mark.parametrize("form", FORMS)
def test_bottom_bonus_agrees_with_the_reference(form):
    bonus = FORMS[form](gr.bottom_bonus)
    on = Rules.parse("happy,bottom_bonus=table").stage_flags
    off = Rules.parse("happy").stage_flags
    rng = random.Random(44)
    deck = list(range(54))
    seen = set()
    for _ in range(4000):
        ids = rng.sample(deck, 3)
        ranks = [i // 4 if i < 52 else 13 + i - 52 for i in ids]
        packed = sum(1 << (4 * r) for r in ranks)
        flush = int(all(i < 52 for i in ids) and len({i % 4 for i in ids}) == 1)
        want = bottom_multiple(ranks, [i % 4 for i in ids] if all(i < 52 for i in ids) else None)
        assert bonus(on, packed, flush) == want, ids
        assert bonus(off, packed, flush) == 1
        seen.add(want)
    assert seen == {1, 2, 3, 4}
    # Named cases: both jokers, trips, a straight, a flush, one joker, two 2s, nothing.
    cases = {(13, 14, 0): 4, (5, 5, 5): 4, (9, 10, 11): 3, (10, 11, 12): 1, (12, 12, 3): 2, (13, 0, 7): 2,
             (0, 4, 9): 1}
    for ranks, want in cases.items():
        assert bonus(on, sum(1 << (4 * r) for r in ranks), 0) == want, ranks
    assert bonus(on, sum(1 << (4 * r) for r in (0, 4, 9)), 1) == 3


@pytest.mark.parametrize("form", FORMS)
def test_settlement_with_doubles_agrees_with_the_reference(form):
    settle = FORMS[form](gr.settle_seats)
    rng = random.Random(45)
    for _ in range(3000):
        landlord, won, stake = rng.randrange(3), rng.random() < 0.5, rng.randint(1, 500)
        doubles = [rng.choice([1, 2, 4]) for _ in range(3)]
        for mode, code in gr.DOUBLING_MODES.items():
            got = settled(settle, landlord, won, stake, doubles=doubles, doubling=code)
            assert got == settlement_doubled(landlord, won, stake, doubles, mode)
            assert sum(got) == 0
        assert settled(settle, landlord, won, stake, doubles=[1, 1, 1], doubling=gr.DOUBLING_PER_PAIR) == \
            settled(settle, landlord, won, stake)


def test_the_worked_examples_of_happy_dou_dizhu():
    """VARIANTS §2: one grab (base 2), the landlord shows at his first play (x2),
    a bomb and the rocket (x4): P = 16; doubles landlord x2, F1 x4, F2 x1;
    landlord (seat 0) wins.  And no show, grab or double, base 1, spring."""
    flags = Rules.parse("happy").stage_flags
    show = gr.show_factor(flags, gr.SHOW_FIRST_PLAY, True)
    stake = 2 * show * gr.multiplier(2, 0, 0)
    assert stake == 16
    assert settled(gr.settle_seats, 0, 1, stake, doubles=[2, 4, 1], doubling=gr.DOUBLING_PER_PAIR) == [160, -128, -32]
    assert settled(gr.settle_seats, 0, 1, stake, doubles=[2, 4, 1], doubling=gr.DOUBLING_GLOBAL) == [256, -128, -128]
    assert settled(gr.settle_seats, 0, 1, 1 * gr.multiplier(0, 1, 0), doubles=[1, 1, 1],
                   doubling=gr.DOUBLING_PER_PAIR) == [4, -2, -2]


def test_must_call_hands():
    from ddz_tools.core.cards import parse_cards
    jokers = Rules.parse("happy,must_call=jokers").stage_flags
    both = Rules.parse("happy,must_call=jokers+2s").stage_flags
    off = Rules.parse("happy").stage_flags
    assert gr.must_call(jokers, parse_cards("3456789TJQKAXD"))
    assert not gr.must_call(jokers, parse_cards("3456789TJQKA2X"))
    assert not gr.must_call(both, parse_cards("3456789TJQKAXD"))
    assert gr.must_call(both, parse_cards("34562222XD"))
    assert not gr.must_call(off, parse_cards("34562222XD"))


@pytest.mark.parametrize("form", FORMS)
def test_draw_card_takes_the_index_th_card(form):
    draw = FORMS[form](gr.draw_card)
    from ddz_tools.core.cards import parse_cards
    hand = parse_cards("3345KKD")
    assert [draw(hand, i) for i in range(7)] == [parse_cards(c) for c in "3345KKD"]
    assert draw(hand, 7) == 0
