"""The game rules of ``ddz_tools.gamerules``: each kernel, compiled and run by
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

from ddz_tools import gamerules as gr
from ddz_tools._jit import interpreted
from ddz_tools.kinds import F_STAKE_TIERS

# Each rule is checked compiled (called from Python through Numba's dispatcher)
# and interpreted (the form the Python game runs).
FORMS = {"kernel": lambda f: f, "interpreted": interpreted}


def _kind(rng: random.Random) -> int:
    return rng.randint(1, 16) | (rng.randint(0, 14) << 5) | (rng.randint(1, 12) << 9)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("nplayers", [2, 3])
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
    mult_of, settle = FORMS[form](gr.multiplier), FORMS[form](gr.settle)
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
        assert list(settle(landlord, won, base * mult)) == settlement(landlord, won, base * mult)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2), st.booleans(), st.integers(0, 3 * 2 ** 12))
def test_settlement_sums_to_zero_and_the_landlord_takes_both_sides(landlord, won, stake):
    scores = gr.settle(landlord, won, stake)
    assert sum(scores) == 0
    farmers = [s for s in range(3) if s != landlord]
    assert scores[farmers[0]] == scores[farmers[1]] == -scores[landlord] // 2
    assert (scores[landlord] >= 0) == (won or stake == 0)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3]), st.integers(0, 2), st.integers(1, 16), st.integers(0, 14), st.integers(1, 12))
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


def _run_auction(form, mode, first, all_pass, bids):
    """The kernels on a bid sequence: ('error', code, index) or (landlord, base / 'void' / 'unfinished')."""
    start, error, bid = FORMS[form](gr.auction_start), FORMS[form](gr.bid_error), FORMS[form](gr.auction_bid)
    state = np.zeros(gr.AUCTION_SIZE, np.int64) if form == "kernel" else [0] * gr.AUCTION_SIZE
    start(state, gr.BIDDING_MODES[mode], first, int(all_pass == "seat0"))
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
def test_auction_agrees_with_the_reference(form, mode):
    rng = random.Random(hash(mode) % 1000 + 7)
    seen = set()
    start, error, bid = interpreted(gr.auction_start), interpreted(gr.bid_error), interpreted(gr.auction_bid)
    for _ in range(1500):
        first, all_pass = rng.randrange(3), rng.choice(["redeal", "seat0"])
        # Mostly legal sequences (the turn from the rule itself), with some wrong seats and values.
        state = [0] * gr.AUCTION_SIZE
        start(state, gr.BIDDING_MODES[mode], first, int(all_pass == "seat0"))
        bids = []
        for _ in range(rng.randint(0, 8)):
            turn = state[gr.A_TURN]
            s = turn if turn >= 0 and rng.random() < 0.93 else rng.randrange(3)
            legal = [v for v in range(4) if error(state, s, v) == gr.BID_OK]
            v = rng.choice(legal) if legal and rng.random() < 0.93 else rng.randint(-1, 4)
            bids.append((s, v))
            if error(state, s, v) != gr.BID_OK:
                break
            bid(state, s, v)
        try:
            want = naive_auction(bids, first, mode, all_pass)
        except Bad as exc:
            want = ("error",) + exc.code
        got = _run_auction(form, mode, first, all_pass, bids)
        assert got == want, (mode, first, all_pass, bids)
        seen.add(got[0] if got[0] == "error" else got[1] if got[0] is None else "won")
    assert seen >= {"error", "won", "unfinished"}, seen
