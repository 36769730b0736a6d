"""The game state machine: bidding options, play, illegal actions, scoring."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import TYPE_OF_NAME, decode, naive_beats, naive_readings

from ddz_tools.core.cards import FULL_DECK, card_count, parse_cards
from ddz_tools.core.errors import DdzError, GameError
from ddz_tools.engines.game import (
    FINISHED,
    PLAYING,
    REDEAL,
    Auction,
    Game,
    IllegalAction,
    choose_reading,
    random_game,
    score,
)
from ddz_tools.core.rules import Play, Rules

DEAL = dict(hands=["3333444455556666D", "777788889999TTTTX", "JJJJQQQQKKKKAAAA2"], bottom="222")


def auction(bids, first=0, bidding="single-round", all_pass="redeal"):
    a = Auction(first, bidding, all_pass)
    for seat, v in bids:
        a.bid(seat, v)
    return a


# Bidding ---------------------------------------------------------------------------


def test_single_round_highest_bidder_wins():
    a = auction([(1, 1), (2, 0), (0, 2)], first=1)
    assert (a.done, a.landlord, a.base) == (True, 0, 2)


def test_single_round_three_ends_at_once():
    a = auction([(2, 3)], first=2)
    assert (a.done, a.landlord, a.base) == (True, 2, 3)
    with pytest.raises(IllegalAction) as exc:
        a.bid(0, 0)
    assert exc.value.code == "not_bidding"


def test_single_round_bid_must_be_higher():
    a = auction([(0, 2)])
    with pytest.raises(IllegalAction, match="must be 0 \\(pass\\) or 3..3") as exc:
        a.bid(1, 2)
    assert exc.value.code == "bad_bid"
    assert a.bids == [(0, 2)] and a.turn == 1


def test_all_pass_redeal_and_botzone_rule():
    a = auction([(0, 0), (1, 0), (2, 0)])
    assert a.done and a.void and a.landlord is None
    b = auction([(1, 0), (2, 0), (0, 0)], first=1, all_pass="seat0")
    assert (b.landlord, b.base, b.void) == (0, 1, False)


def test_until_two_pass_goes_round():
    a = auction([(0, 1), (1, 2), (2, 0), (0, 0)], bidding="until-two-pass")
    assert (a.landlord, a.base) == (1, 2)
    a = auction([(0, 1), (1, 0), (2, 2)], bidding="until-two-pass")
    assert not a.done and a.turn == 0          # seat 1 is out, seat 0 speaks again
    a.bid(0, 3)
    assert (a.landlord, a.base) == (0, 3)
    a = auction([(0, 0), (1, 0), (2, 1)], bidding="until-two-pass")
    assert (a.landlord, a.base) == (2, 1)
    a = auction([(0, 0), (1, 0), (2, 0)], bidding="until-two-pass")
    assert a.void


def test_call_grab_doubles_per_grab():
    a = auction([(0, 1), (1, 1), (2, 1), (0, 1)], bidding="call-grab")
    assert (a.landlord, a.base, a.grabs) == (0, 8, 3)
    a = auction([(0, 1), (1, 0), (2, 0)], bidding="call-grab")
    assert (a.landlord, a.base) == (0, 1)
    a = auction([(0, 0), (1, 1), (2, 1), (1, 0)], bidding="call-grab")
    assert (a.landlord, a.base) == (2, 2)
    a = auction([(0, 0), (1, 0), (2, 1)], bidding="call-grab")
    assert (a.landlord, a.base) == (2, 1)
    with pytest.raises(IllegalAction) as exc:
        auction([(0, 2)], bidding="call-grab")
    assert exc.value.code == "bad_bid"


def test_game_redeal_moves_first_bidder_and_deals_again():
    g = Game(seed=4, first_bidder=1)
    before = g.dealt
    for _ in range(3):
        g.bid(0)
    assert g.phase == REDEAL
    g.redeal()
    assert g.first_bidder == 2 and g.turn == 2 and g.dealt != before
    assert sum(g.dealt) + g.bottom == FULL_DECK


def test_first_bidder_options():
    assert Game(seed=1, rules="standard,first_bidder=left-of-dealer", dealer=1).first_bidder == 2
    seen = {Game(seed=s).first_bidder for s in range(30)}
    assert seen == {0, 1, 2}
    assert Game(seed=1).dealt == Game(seed=1).dealt   # same seed, same deal


def test_landlord_takes_bottom():
    g = Game(**DEAL, first_bidder=0)
    g.bid(2)
    g.bid(3)
    assert g.landlord == 1 and g.base == 3 and g.turn == 1
    assert g.hand(1) == "777788889999TTTT222X" and len(g.hand(0)) == 17


# Play ------------------------------------------------------------------------------


def test_lead_returns_after_two_passes_and_passes_rules():
    g = Game(**DEAL, first_bidder=0)
    g.bid(3)
    g.play("333444555666")
    g.pass_()
    assert not g.leading and g.turn == 2
    g.pass_()
    assert g.leading and g.turn == 0
    with pytest.raises(IllegalAction, match="must lead") as exc:
        g.pass_()
    assert exc.value.code == "pass_on_lead"


@pytest.mark.parametrize("action, code, message", [
    (lambda g: g.play("X", seat=1), "does_not_beat", "seat 1 played X, which does not beat 333444555666"),
    (lambda g: g.play("J"), "not_in_hand", "seat 1 played J but holds 777788889999TTTTX"),
    (lambda g: g.play("78"), "not_a_combination", "seat 1 played 78: not a legal play under standard rules"),
    (lambda g: g.play("7Z"), "bad_cards", "unknown card character"),
    (lambda g: g.play("7", seat=2), "wrong_turn", "seat 2 played 7 but it is seat 1's turn"),
    (lambda g: g.bid(1), "not_bidding", "bid 1 in the playing phase"),
])
def test_illegal_action_names_it_and_changes_nothing(action, code, message):
    g = Game(**DEAL, first_bidder=0)
    g.bid(3)
    g.play("333444555666")
    before = g.state()
    with pytest.raises(IllegalAction, match=message) as exc:
        action(g)
    assert exc.value.code == code
    assert isinstance(exc.value, DdzError)
    assert g.state() == before


def test_bomb_and_rocket_answer_anything():
    g = Game(**DEAL, first_bidder=0)
    g.bid(3)
    g.play("3")
    g.play("7777")
    assert g.bombs == 1 and g.last_play.type_name == "bomb"
    g.play("JJJJ")
    assert g.bombs == 2
    with pytest.raises(IllegalAction) as exc:
        g.play("4444")        # a lower bomb
    assert exc.value.code == "does_not_beat"
    g.pass_()
    g.pass_()
    assert g.leading and g.turn == 2


def test_rocket_beats_bomb_and_nothing_beats_rocket():
    g = Game(hands=["333344445555666XD", "777788889999TTTT6", "JJJJQQQQKKKKAAAA2"], bottom="222",
             first_bidder=0)
    g.bid(3)
    g.play("3333")
    g.play("7777")
    g.pass_()
    assert g.play("XD").type_name == "rocket"
    with pytest.raises(IllegalAction) as exc:
        g.play("8888")
    assert exc.value.code == "does_not_beat"
    g.pass_()
    g.pass_()
    assert g.leading and g.turn == 0 and g.bombs == 3


def test_game_ends_when_a_hand_is_empty():
    g = Game(**DEAL, first_bidder=0)
    g.bid(3)
    for p in ["333444555666", "", "", "2223", "", "", "4", "", "", "5", "", "", "6", "", "", "D"]:
        g.play(p)
    assert g.phase == FINISHED and g.turn is None
    r = g.result
    assert (r.winner, r.spring, r.multiplier, r.scores) == ("landlord", True, 2, (12, -6, -6))
    with pytest.raises(IllegalAction) as exc:
        g.play("")
    assert exc.value.code == "game_over"


def test_anti_spring_and_bombs():
    g = Game(**DEAL, first_bidder=0)
    g.bid(1)
    g.bid(0)
    g.bid(0)
    for p in ["3", "X", "", "", "7777", "", "", "8888", "", "", "9999", "", "", "TTTT"]:
        g.play(p)
    r = g.result
    assert (r.winner, r.anti_spring, r.bombs, r.multiplier, r.scores) == ("farmers", True, 4, 32, (-64, 32, 32))


# Scoring ---------------------------------------------------------------------------


def test_rules_md_example():
    # "bid 3, two bombs, landlord wins: each farmer pays 12, landlord +24"
    assert score(2, 2, 3, 2, 7, [3, 4]).scores == (-12, -12, 24)


def test_spring_options():
    r = score(0, 0, 1, 0, 5, [0, 2])
    assert not r.spring and r.multiplier == 1
    r = score(0, 0, 1, 0, 5, [0, 2], spring_rule="any-player")
    assert r.spring and r.scores == (4, -2, -2)
    r = score(0, 0, 1, 1, 5, [0, 0])
    assert r.spring and r.multiplier == 4
    r = score(0, 1, 2, 0, 2, [3, 0])     # farmers win, landlord played twice
    assert not r.anti_spring and r.scores == (-4, 2, 2)


@given(st.integers(0, 2), st.integers(0, 2), st.sampled_from([1, 2, 3, 4, 8]), st.integers(0, 6),
       st.integers(1, 20), st.integers(0, 10), st.integers(0, 10), st.booleans())
def test_scores_zero_sum_and_sign(landlord, winner, base, bombs, lp, f1, f2, any_player):
    r = score(landlord, winner, base, bombs, lp, [f1, f2], "any-player" if any_player else "landlord")
    assert sum(r.scores) == 0
    assert r.scores[landlord] == (2 if winner == landlord else -2) * base * r.multiplier
    assert r.multiplier == 2 ** (bombs + r.spring + r.anti_spring)
    assert not (r.spring and r.anti_spring)


# The reading of bare cards ------------------------------------------------------------


def _naive_choice(cards, prev, rules):
    legal = [k for _, k in naive_readings(cards, rules) if prev == 0 or naive_beats(k, prev)]
    if not legal:
        return None
    return max(legal, key=lambda k: (decode(k)[2], decode(k)[1], TYPE_OF_NAME[decode(k)[0]]))


def test_choose_reading_matches_reference(rule_variants):
    """On random multisets (mostly airplanes and fours, where readings collide)."""
    rng = random.Random(11)
    checked = 0
    for rules in rule_variants:
        for _ in range(60):
            counts = [0] * 15
            for r in rng.sample(range(12), rng.randint(1, 5)):
                counts[r] = rng.choice([3, 3, 4, 1, 2])
            for r in rng.sample(range(15), rng.randint(0, 3)):
                counts[r] = min(counts[r] + 1, 1 if r >= 13 else 4)
            cards = sum(c << (4 * r) for r, c in enumerate(counts))
            if card_count(cards) > 20:
                continue
            prevs = [0] + [k for _, k in naive_readings(cards, rules)]
            for prev in prevs[:4]:
                assert choose_reading(cards, prev, rules) == _naive_choice(cards, prev, rules)
                checked += 1
    assert checked > 500


def test_ambiguous_airplane_takes_strongest_reading():
    douzero = Rules.parse("douzero")
    c = parse_cards("333444555666")
    assert Play(c, choose_reading(c, 0, douzero)).notation() == "333444555666"
    prev = Play.parse("333444555-789", douzero).kind
    c2 = parse_cards("444555666777")
    assert Play(c2, choose_reading(c2, prev, douzero)).notation() == "555666777-444"


# Whole random games --------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard", "douzero", "encyclopedia,bidding=call-grab",
                                   "standard,bidding=until-two-pass,spring=any-player"])
def test_random_games_conserve_cards_and_score(rules):
    for seed in range(15):
        g = random_game(seed, rules)
        assert g.phase == FINISHED
        played = sum(p.cards for _, p in g.plays)
        assert played + sum(g.hands) == FULL_DECK
        assert g.hands[g.result.winner_seat] == 0
        assert sum(g.result.scores) == 0
        assert random_game(seed, rules).plays == g.plays      # seeded: reproducible


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 60), st.data())
def test_illegal_actions_leave_state_unchanged(seed, steps, data):
    """Play some random legal moves, then try a random action; if it raises,
    nothing changed; if it is legal it was in legal_plays()."""
    rng = random.Random(seed)
    g = Game(rng=rng)
    while g.phase != PLAYING:
        if g.phase == REDEAL:
            g.redeal()
        else:
            g.bid(rng.choice(g.legal_bids()))
    for _ in range(steps):
        if g.phase != PLAYING:
            break
        opts = g.legal_plays()
        g.play(rng.choice(opts))
    if g.phase != PLAYING:
        return
    seat = data.draw(st.integers(0, 2))
    text = data.draw(st.sampled_from(["", "3", "33", "345", "34567", "2222", "XD", "X", "D", "333-4",
                                      "3334", "JJJQQQ-3K", "AA", "22", "Z"]))
    before = g.state()
    legal = {(p.cards, p.kind) for p in g.legal_plays()}
    try:
        p = g.play(text, seat)
    except IllegalAction:
        assert g.state() == before
    else:
        assert seat == before.turn and (p.cards, p.kind) in legal or p.is_pass


def test_bad_construction():
    with pytest.raises(DdzError, match="hand 0 has 16 cards"):
        Game(hands=["3333444455556666", "777788889999TTTTX", "JJJJQQQQKKKKAAAA2"], bottom="222D")
    with pytest.raises(DdzError, match="not one 54-card deck: they hold 3 2s, not 4"):
        Game(hands=["3333444455556666D", "777788889999TTTTX", "JJJJQQQQKKKKAAAA2"], bottom="22X")
    with pytest.raises(GameError, match="seat must be"):
        Game(seed=1, first_bidder=3)
    with pytest.raises(GameError, match="all_pass"):
        Game(seed=1, all_pass="again")


def test_card_ids_deal():
    ids = list(range(54))
    random.Random(3).shuffle(ids)
    g = Game(hands=[ids[:17], ids[17:34], ids[34:51]], bottom=ids[51:])
    assert g.hand_ids[0] == sorted(ids[:17]) and g.bottom_ids == sorted(ids[51:])
    with pytest.raises(DdzError, match="appears twice"):
        Game(hands=[ids[:17], ids[17:34], ids[34:50] + [0]], bottom=ids[51:])


# Bidding against the reference auction of tests/naive_game.py ------------------------------


def _engine_auction(bids, first, mode, all_pass):
    a = Auction(first, mode, all_pass)
    for i, (seat, v) in enumerate(bids):
        try:
            a.bid(seat, v)
        except IllegalAction as exc:
            return ("error", exc.code, i)
    if not a.done:
        return (None, "unfinished")
    if a.void:
        return (None, "void")
    return (a.landlord, a.base)


def _naive_auction(bids, first, mode, all_pass):
    from naive_game import Bad, auction as naive
    try:
        return naive(bids, first, mode, all_pass)
    except Bad as exc:
        return ("error",) + tuple(exc.code)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2), st.sampled_from(["single-round", "until-two-pass", "call-grab"]),
       st.sampled_from(["redeal", "seat0"]), st.data())
def test_auction_matches_reference(first, mode, all_pass, data):
    """Random bid sequences, mostly in turn and mostly plausible values, some illegal."""
    a = Auction(first, mode, all_pass)
    bids = []
    for _ in range(data.draw(st.integers(0, 7))):
        in_turn = data.draw(st.integers(0, 9)) > 0 and not a.done
        seat = a.turn if in_turn else data.draw(st.integers(0, 2))
        top = 1 if mode == "call-grab" else 3
        value = data.draw(st.integers(0, top + (1 if data.draw(st.integers(0, 9)) == 0 else 0)))
        bids.append((seat, value))
        try:
            a.bid(seat, value)
        except IllegalAction:
            pass
    assert _engine_auction(bids, first, mode, all_pass) == _naive_auction(bids, first, mode, all_pass)
