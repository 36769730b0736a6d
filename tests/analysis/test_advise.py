"""The advisor: views, sampled deals, exact answers, playouts, reproducibility."""

import json
import random

import numpy as np
import pytest

from ddz_tools.analysis import advise as adv
from ddz_tools.analysis.advise import advisor, sampling, scoring
from ddz_tools.analysis.advise import (
    View,
    ViewError,
    advise,
    counts_view,
    history_view,
    sample_deals,
    two_player_view,
    view_from_record,
)
from ddz_tools.core.cards import FULL_DECK, card_count, counts_of, format_cards, parse_cards
from ddz_tools.core.errors import DdzError
from ddz_tools.cli import main
from ddz_tools.engines.game import random_game
from ddz_tools.engines.kernels import BUFFER, new_table
from ddz_tools.engines.policies import choose
from ddz_tools.engines.position import Position
from ddz_tools.engines.records import record_from_game, record_to_dict
from ddz_tools.core.rules import Play, classify
from ddz_tools.engines.solver import solve
from ddz_tools.moves.movegen import generate

SEATS = ("landlord", "farmer1", "farmer2")


def _random_hands(rng, sizes):
    deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    rng.shuffle(deck)
    out, pos = [], 0
    for n in sizes:
        out.append(sum(1 << (4 * r) for r in deck[pos:pos + n]))
        pos += n
    return out


def _contains(big, small):
    return all(a >= b for a, b in zip(counts_of(big), counts_of(small)))


# The exact two-player form against the solver ----------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_two_player_equals_solve_all(seed):
    rng = random.Random(seed)
    me, opp = _random_hands(rng, (rng.randint(1, 6), rng.randint(1, 6)))
    after = None
    if seed % 2:
        # Answer one of the opponent's plays from cards out of the game.
        leads = list(generate(opp))
        after = leads[rng.randrange(len(leads))].notation()
        opp_after = opp
    view = two_player_view(me, opp, after=after)
    a = advise(view)
    assert a.exact and a.samples == 1
    assert {c.win_prob for c in a.candidates} <= {0.0, 1.0}
    pos = Position.two_player(format_cards(me), format_cards(opp), after=after)
    want = set(solve(pos, all_plays=True, line=False).winning_plays)
    assert {c.play for c in a.candidates if c.win_prob == 1.0} == want
    assert len(a.candidates) == len(view.candidates())


def test_nothing_hidden_three_players_is_exact():
    # The two other seats' cards are all 3s: one deal only.
    v = counts_view("KKA", "farmer2", "2,2,3", after="QQ", by="farmer1", unseen="3333")
    assert adv.distinct_deals(v) == 1
    a = advise(v)
    assert a.exact and a.samples == 1
    pos = Position.three_player("33", "33", "KKA", to_move="farmer2", after="QQ", by="farmer1")
    want = set(solve(pos, all_plays=True, line=False).winning_plays)
    assert {c.play for c in a.candidates if c.win_prob == 1.0} == want


# Views ---------------------------------------------------------------------------------


def _game_and_record(seed):
    g = random_game(seed)
    return g, record_from_game(g)


@pytest.mark.parametrize("seed", range(6))
def test_view_from_record_equals_view_by_hand(seed):
    g, rec = _game_and_record(seed)
    n = len(rec.plays)
    move = (seed * 7) % n
    v = view_from_record(rec, move + 1)
    ll = g.landlord
    name = {(ll + k) % 3: SEATS[k] for k in range(3)}
    played = [f"{name[s]}:{(p.notation() if not p.is_pass else 'pass')}" for s, p in g.plays[:move]]
    seat = name[g.plays[move][0]]
    # This seat's cards now: its deal (the bottom with it for the landlord) minus its plays.
    cards = g.dealt[(ll + SEATS.index(seat)) % 3] + (g.bottom if seat == "landlord" else 0)
    for s, p in g.plays[:move]:
        if name[s] == seat:
            cards -= p.cards
    bids = ",".join(f"{name[s]}:{b or 'pass'}" for s, b in g.bids)
    by_hand = history_view(format_cards(cards), seat, ",".join(played), format_cards(g.bottom), bids=bids)
    assert v == by_hand and v.base == g.base
    assert v.seat == seat and v.hand == cards
    # The round trip through ddz-view/1.
    assert View.from_json(v.to_json()) == v


@pytest.mark.parametrize("seed", range(8))
def test_sampled_deals_are_consistent(seed):
    g, rec = _game_and_record(100 + seed)
    move = (seed * 11) % len(rec.plays)
    v = view_from_record(rec, move + 1)
    ll = g.landlord
    played_by = [0, 0, 0]
    for s, p in g.plays[:move]:
        played_by[(s - ll) % 3] += p.cards
    for deal in sample_deals(v, 0, 40, seed):
        assert deal[v.me] == v.hand
        assert tuple(card_count(h) for h in deal) == v.counts
        assert sum(deal) + sum(played_by) == FULL_DECK
        # The landlord's cards before the first play hold the bottom.
        assert _contains(deal[0] + played_by[0], g.bottom)


def _hand17(deal, played_by, s, bottom):
    return deal[s] + played_by[s] - (bottom if s == 0 else 0)


@pytest.mark.parametrize("seed", range(8))
def test_sampled_deals_fit_the_bids(seed):
    # Property: every deal drawn with the auction is consistent with the view, and each
    # hidden seat's 17 cards before the auction would have bid as it did (heuristic rule);
    # the first draw of every index is the unconditioned one.
    from ddz_tools.engines.policies import bid_rule

    from ddz_tools.engines.records import parse_record

    rec = parse_record(adv.play_game(seed, 11))
    move = 1 + (seed * 5) % len(rec.plays)
    v = view_from_record(rec, move)
    assert v.bids and sampling._auction_check(v) is not None
    played_by = [0, 0, 0]
    for s, p in v.played:
        played_by[SEATS.index(s)] += p.cards

    def fits(deal):
        high = 0
        for seat, b in v.bids:
            s = SEATS.index(seat)
            if s != v.me and bid_rule(_hand17(deal, played_by, s, rec.bottom), high, rules=v.rules) != b:
                return False
            high = max(high, b)
        return True

    deals, draws, unfit = sampling.draw_deals(v, 0, 24, seed)
    assert draws >= 24 and unfit == 0
    assert deals == sample_deals(v, 0, 24, seed)
    for deal in deals:
        assert deal[v.me] == v.hand
        assert tuple(card_count(h) for h in deal) == v.counts
        assert sum(deal) + sum(played_by) == FULL_DECK
        assert _contains(deal[0] + played_by[0], rec.bottom)
        assert fits(deal)
    # Attempt 0 of each index is the unconditioned draw: kept whenever it fits.
    plain = sample_deals(v, 0, 24, seed, auction=False)
    for d, p in zip(deals, plain):
        assert d == p or not fits(p)


def test_auction_falls_back_to_the_plain_draw_when_nothing_fits(monkeypatch):
    # The landlord bid 3, but farmer1 holds both jokers, every 2 and one card of every
    # other rank but the ace: no draw of 5 fits, so each index keeps its first
    # (unconditioned) draw and counts as unfit.
    monkeypatch.setattr(sampling, "AUCTION_ATTEMPTS", 5)
    v = history_view("3456789TJQK2222XD", "farmer1", "landlord:A", bottom="AKK", bids="landlord:3")
    check = sampling._auction_check(v)
    assert check is not None and list(check.values) == [3]
    deals, draws, unfit = sampling.draw_deals(v, 0, 4, 2)
    assert (draws, unfit) == (20, 4)
    assert deals == sample_deals(v, 0, 4, 2, auction=False)


def test_bids_in_views():
    v = history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass",
                     bottom="22A", bids="farmer1:pass,farmer2:1,landlord:2")
    assert v.base == 2 and v.bids == (("farmer1", 0), ("farmer2", 1), ("landlord", 2))
    assert View.from_json(v.to_json()) == v
    assert v.to_dict()["bids"] == ["farmer1:pass", "farmer2:1", "landlord:2"]
    # All pass: the landlord seat takes it at base 1 (Botzone's rule).
    assert history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bids="landlord:0,farmer1:0,farmer2:0").base == 1
    for bids, message in (("farmer1:2,farmer2:1", "must be 0"), ("farmer1:2,landlord:1", "farmer2.s turn"), ("farmer1:3", "farmer1 the landlord"),
                          ("landlord:1", "unfinished"), ("landlord:4", "a bid is pass"),
                          ("landlord 3", "SEAT:BID")):
        with pytest.raises(ViewError, match=message):
            history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bids=bids)
    with pytest.raises(ViewError, match="base is 1, but the bids make it 3"):
        history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bids="landlord:3", base=1)
    with pytest.raises(ViewError, match="not with counts"):
        adv.build_view("KKA", "farmer2", counts="4,5,3", bids="landlord:3")
    # Call-grab bids are checked but say nothing to the sampler.
    cg = history_view("3456789TJQKA2XD55", "farmer1", "landlord:33", bids="landlord:1,farmer1:0,farmer2:0",
                      rules="standard,bidding=call-grab")
    assert cg.base == 1 and sampling._auction_check(cg) is None


def test_sampling_is_uniform_enough():
    # One hidden card of each of two ranks between two seats: each split equally often.
    v = counts_view("KKA", "farmer2", "1,1,3", after="QQ", by="farmer1", unseen="34")
    deals = sample_deals(v, 0, 2000, 3)
    share = sum(1 for d in deals if d[0] == 1) / len(deals)  # the landlord holds the 3
    assert 0.45 < share < 0.55


def test_counts_view_without_unseen_draws_from_every_unseen_card():
    v = counts_view("KKA", "farmer2", "4,5,3", after="QQ", by="farmer1")
    assert not v.pool_exact
    for d in sample_deals(v, 0, 20, 1):
        assert card_count(d[0]) == 4 and card_count(d[1]) == 5
        assert _contains(FULL_DECK - v.hand - Play.parse("QQ").cards, d[0] + d[1])


@pytest.mark.parametrize("kwargs, message", [
    (dict(hand="33", unseen="33", after="33"), "deck has 4"),
    (dict(hand="33334444555566667", seat="farmer1", played="landlord:33"), "6 x 3; the deck has 4"),
    (dict(hand="3456789TJQKA2XD55", seat="farmer1", played="landlord:33,farmer1:4"), "does not beat"),
    (dict(hand="3456789TJQKA2XD55", seat="farmer1", played="landlord:pass"), "must lead"),
    (dict(hand="3456789TJQKA2XD55", seat="farmer1", bottom="XKK", played="landlord:33"), "small joker"),
    (dict(hand="3456789TJQKA2XD55", seat="farmer1", played="landlord:33,farmer2:44"), "turn"),
    (dict(hand="3456789TJQKA2", seat="farmer1", played="landlord:33"), "hand has 13 cards"),
    (dict(hand="KKA", seat="farmer2", counts="4,5,4", after="QQ", by="farmer1"), "counts give farmer2"),
    (dict(hand="KKA", seat="farmer2", counts="4,5,3", after="QQ", by="farmer2"), "never answers"),
    (dict(hand="KKA", seat="farmer2", counts="4,5,3", unseen="3456"), "unseen has 4 cards"),
    (dict(hand="33", seat="landlord", counts="21,5,3"), "landlord holds 21"),
    # A fourth seat under three-player rules.
    (dict(hand="KQ6", seat="farmer3", counts="3,3,2,3"),
     "seat must be one of landlord, farmer1, farmer2, not 'farmer3'"),
    (dict(hand="KQ6", seat="farmer1", counts="3,3,2,2"), "counts must be three numbers L,F1,F2"),
])
def test_impossible_views_are_errors(kwargs, message):
    with pytest.raises(ViewError, match=message):
        adv.build_view(**kwargs)


@pytest.mark.parametrize("after, by, message", [
    ("6", None, "needs"), (None, "landlord", "needs"), ("  ", "landlord", "needs"), ("6", "farmer2", "side to move"),
    ("6", "nobody", "must be one of"), ("pass", "landlord", "not a pass"), ("67", "landlord", "not a legal play"),
])
def test_positions_and_views_read_the_play_to_answer_alike(after, by, message):
    """Position.build and the advisor's views read the play on the table and its maker
    with one function (rules.play_on_table): the same checks, each error naming the
    caller's own field (last_play/last_by, after/by)."""
    from ddz_tools.core.errors import PositionError

    with pytest.raises(PositionError, match=message) as pos:
        Position.build({"landlord": "3", "farmer1": "4", "farmer2": "5"}, "farmer2", after, by)
    with pytest.raises(ViewError, match=message) as view:
        counts_view("5", "farmer2", "1,1,1", after=after, by=by)
    assert str(pos.value).replace("last_play", "after").replace("last_by", "by") == str(view.value)
    assert view.value.param is not None


def test_played_as_play_objects_keep_their_reading():
    """A Play in played (play_game passes the game's own) is read under the view's rules:
    four + two solos of one rank stay that under rules where the same cards are four + a pair."""
    rules = "encyclopedia,kickers_distinct=off"
    four_two = [p for p in classify("333344", rules) if p.type_name == "four_two_solo"][0]
    v = history_view("56789TJQKA2XD5", "landlord", [("landlord", four_two), ("farmer1", "pass"), ("farmer2", "pass")],
                     rules=rules)
    assert v.played[0][1] == four_two


def test_blank_play_to_answer_is_a_lead():
    assert two_player_view("3", "4", after=" ").is_lead
    assert counts_view("5", "farmer2", "1,1,1", after="").is_lead
    assert Position.build({"me": "3", "opponent": "4"}, "me", "", None).is_lead


START = "3334456789TTJQKA22XD"   # the landlord hand


def test_game_start_from_the_hand_alone():
    """A landlord's 20 cards with no plays and no counts are the game start: his first lead,
    the others 17 each, every other card unseen; build_view, game_start, history_view with
    no plays and a ddz-view/1 line without played or counts give the same view."""
    v = adv.build_view(START, seat="landlord")
    assert v.form == "history" and v.is_lead and v.played == () and v.counts == (20, 17, 17)
    assert v.pool == FULL_DECK - v.hand and v.pool_exact and v.must == (0, 0, 0)
    assert v == adv.game_start(START) == history_view(START, "landlord", []) == history_view(START, "landlord", "")
    assert View.from_dict({"schema": "ddz-view/1", "seat": "landlord", "hand": START}) == v
    with_bottom = adv.build_view(START, seat="landlord", bottom="2XD", bids="landlord:3")
    assert with_bottom.bottom == parse_cards("2XD") and with_bottom.base == 3
    with pytest.raises(ViewError, match="not in the landlord's cards"):
        adv.build_view(START, seat="landlord", bottom="444")
    a = advise(v, samples=16, seed=1)
    assert "pass" not in [c.play for c in a.candidates] and a.recommendation == a.candidates[0].play
    assert a.samples == 16 and not a.exact


@pytest.mark.parametrize("kwargs, message, param", [
    (dict(hand=START[:17], seat="farmer1"),
     "farmer1's 17 cards with no history: the game start needs bottom (the landlord's 3 extra cards, public after "
     "the auction) or counts", ("bottom", "counts")),
    (dict(hand=START[:17], seat="farmer2", bottom="2XD"),
     "before any play the landlord leads (the game start): farmer2 is not to move; give played (every play so far) "
     "once it is farmer2's turn", "played"),
    (dict(hand=START[:17], seat="landlord"),
     "landlord holds 17 cards, not the 20 of the game start (the bottom included): give played (every play so far) "
     "or counts (the cards each seat holds now)", ("played", "counts")),
    (dict(hand=START, seat="farmer1"), "farmer1 holds 20 cards, not the 17 of the game start:", ("played", "counts")),
    (dict(hand=START, seat="landlord", after="3", by="farmer2"), "after goes with counts", ("after", "counts")),
    (dict(hand=START, seat="landlord", unseen="3"), "unseen goes with counts", ("unseen", "counts")),
    (dict(hand=START), "without a seat the view is the two-player form, which needs unseen", ("unseen", "seat")),
])
def test_what_the_game_start_needs(kwargs, message, param):
    with pytest.raises(ViewError) as exc:
        adv.build_view(**kwargs)
    assert str(exc.value).startswith(message) and exc.value.param == param
    if "seat" in kwargs and "after" not in kwargs and "unseen" not in kwargs:
        d = {"schema": "ddz-view/1", **kwargs}
        with pytest.raises(ViewError, match=message[:30]):
            View.from_dict(d)


@pytest.mark.parametrize("rules", ["standard,bidding=call-grab", "encyclopedia,bidding=until-two-pass", "douzero"])
def test_history_views_under_every_bidding_option(rules):
    v = history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass",
                     rules=rules)
    assert v.is_lead and v.counts == (18, 15, 17) and v.rules.describe() == rules


def test_view_json_forms_round_trip():
    views = [
        two_player_view("33JJQK2", "4455A", after="6"),
        counts_view("KKA", "farmer2", "4,5,3", after="QQ", by="farmer1", unseen="3456789TJ"),
        counts_view("KKA", "farmer2", "4,5,3"),
        history_view("3456789TJQKA2XD", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass",
                     bottom="22A", base=2, id="x"),
    ]
    for v in views:
        assert View.from_json(v.to_json()) == v
    with pytest.raises(ViewError, match="unknown key"):
        View.from_dict({"schema": "ddz-view/1", "hand": "3", "colour": 1})


# Playouts: the kernel against a plain-Python twin ----------------------------------------


def _naive_play_on(hands, seat, prev, prev_seat, passes=0, made=None):
    """Heuristic play in every seat (each choice from policies.choose); the trick
    rule written out: after two passes the last player leads.  ``made`` (a list)
    gets the ``(seat, play)`` of every play (not the passes)."""
    hands = list(hands)
    while True:
        p = choose(hands, seat, 0, prev=prev, prev_seat=prev_seat)
        if p.is_pass:
            passes += 1
            if passes == 2:
                prev, passes = None, 0
        else:
            if made is not None:
                made.append((seat, p))
            hands[seat] -= p.cards
            if hands[seat] == 0:
                return seat
            prev, prev_seat, passes = p, seat, 0
        seat = (seat + 1) % 3


def _naive_stake(before, after, landlord_won):
    """(doublings, spring, anti_spring) from the plays: each bomb and rocket after
    the candidate doubles; spring when the landlord won and no farmer played a
    card all game, anti-spring when the farmers won and the landlord played once."""
    dbl = sum(1 for _, p in after if p.type_name in ("bomb", "rocket"))
    every = before + after
    farmers_played = any(s != 0 for s, _ in every)
    landlord_plays = sum(1 for s, _ in every if s == 0)
    return dbl, int(landlord_won and not farmers_played), int(not landlord_won and landlord_plays == 1)


@pytest.mark.parametrize("seed", range(10))
def test_playout_kernel_matches_naive(seed):
    g, rec = _game_and_record(200 + seed)
    move = (seed * 5) % len(rec.plays)
    v = view_from_record(rec, move + 1)
    deal = sample_deals(v, 0, 1, seed)[0]
    cands = v.candidates()
    out = np.zeros(len(cands), np.int64)
    stake = np.zeros((len(cands), 3), np.int64)
    table, bufc, bufk = new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    pk = v.last_play.kind if v.last_play else 0
    ps = SEATS.index(v.last_by) if v.last_by else v.me
    scoring._playout_candidates(np.array(deal, np.int64), 0, v.me, np.array([p.cards for p in cands], np.int64),
                            np.array([p.kind for p in cands], np.int64), pk, ps, v.rules.flags,
                            table, bufc, bufk, v.spring_start(), 0, out, stake)
    before = [(SEATS.index(s), p) for s, p in v.played if not p.is_pass]
    for i, p in enumerate(cands):
        hs = list(deal)
        nxt = (v.me + 1) % 3
        made = [] if p.is_pass else [(v.me, p)]
        if p.is_pass:
            prev, prev_seat = (v.last_play, ps) if SEATS[nxt] != v.last_by else (None, ps)
            winner = _naive_play_on(hs, nxt, prev, prev_seat, 1 if prev is not None else 0, made)
        else:
            hs[v.me] -= p.cards
            winner = v.me if hs[v.me] == 0 else _naive_play_on(hs, nxt, p, v.me, made=made)
        assert out[i] == int((winner == 0) == (v.me == 0)), p.notation()
        assert tuple(stake[i]) == _naive_stake(before, made, winner == 0), p.notation()


def test_deal_score_settles_the_whole_stake():
    # The landlord's view at the start: +-2 x base x 2^(doublings + spring + anti).
    v = history_view("3334456789TTJQKA22XD", "landlord", [], bottom="22X", bids="landlord:3")
    assert v.deal_score(True) == 6 and v.deal_score(False) == -6
    assert v.deal_score(True, 2, 1, 0) == 6 * 8 and v.deal_score(False, 1, 0, 1) == -6 * 4
    f = counts_view("KQ", "farmer1", "3,2,2", after="J", by="landlord")
    assert f.deal_score(True) == 1 and f.deal_score(False, 1) == -2
    assert list(f.spring_start()) == [0, 2, 0b110]
    assert list(v.spring_start()) == [0, 0, 0]
    assert two_player_view("33", "44").deal_score(False, 3) == -1


# The method ------------------------------------------------------------------------------


def _whole_hand_view():
    return history_view("3456789TJQKA2XD55", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass",
                        bottom="22A")


def test_reproducible_for_any_workers():
    v = _whole_hand_view()
    a1 = advise(v, samples=48, seed=3, workers=1, early_stop=False)
    a2 = advise(v, samples=48, seed=3, workers=2, early_stop=False)
    d1, d2 = a1.to_dict(), a2.to_dict()
    d1.pop("seconds"), d2.pop("seconds")
    assert d1 == d2
    # Deals conditioned on the auction: the same draws for any number of workers.
    vb = history_view("3456789TJQKA2XD55", "farmer1", "landlord:33,farmer1:55,farmer2:pass,landlord:pass",
                      bottom="22A", bids="farmer1:pass,farmer2:pass,landlord:3")
    c1, c2 = (advise(vb, samples=48, seed=5, workers=w, early_stop=False).to_dict() for w in (1, 2))
    c1.pop("seconds"), c2.pop("seconds")
    assert c1 == c2 and c1["draws"] > 48
    small = counts_view("KQ", "farmer1", "3,2,2", after="J", by="landlord")
    b1 = advise(small, samples=64, seed=1, workers=1)
    b2 = advise(small, samples=64, seed=1, workers=2)
    assert [c.to_dict() for c in b1.candidates] == [c.to_dict() for c in b2.candidates]
    assert b1.candidates[0].solved == b1.samples  # small hands: every deal solved


def test_candidates_sorted_and_complete():
    v = _whole_hand_view()
    a = advise(v, samples=32, seed=0)
    probs = [c.win_prob for c in a.candidates]
    assert probs == sorted(probs, reverse=True)
    assert sorted(c.play for c in a.candidates) == sorted(p.notation() for p in v.candidates())
    assert a.recommendation == a.candidates[0].play
    for c in a.candidates:
        assert c.win_ci[0] <= c.win_prob <= c.win_ci[1]
        assert c.solved + c.played_out == a.samples


def test_tie_playouts_on_solved_deals():
    # Small hands: every deal is solved; where all candidates have the same solved value
    # the playouts of the candidates are recorded and break ties in the ranking.
    v = counts_view("KQ6", "farmer1", "3,3,2", after="J", by="landlord")
    cands = v.candidates()
    plan = scoring.Plan(v, cands, np.array([p.cards for p in cands], np.int64),
                     np.array([p.kind for p in cands], np.int64), adv.DEFAULT_NODES, adv.DEFAULT_EXACT_CARDS, 4)
    wins, solved, draws, unfit, ties, points, weighing = scoring.score_chunk(plan, 0, 16)
    assert weighing is None                  # no inference asked
    assert solved.all() and draws == 16 and unfit == 0
    deals = sample_deals(v, 0, 16, 4)
    table, bufc, bufk = new_table(12), np.empty(BUFFER, np.int64), np.empty(BUFFER, np.int64)
    for j, deal in enumerate(deals):
        if wins[j].min() == wins[j].max():
            want = np.zeros(len(cands), np.int64)
            scoring._playout_candidates(np.array(deal, np.int64), 0, v.me, plan.cand_c, plan.cand_k,
                                    Play.parse("J").kind, 0, v.rules.flags, table, bufc, bufk, v.spring_start(), 0,
                                    want, np.zeros((len(cands), 3), np.int64))
            assert ties[j].tolist() == want.tolist()
        else:
            assert not ties[j].any()
    # Ranking: the objective first, then the other one, then tie-break wins, then the principle.
    w = np.array([[1, 1, 0], [0, 0, 0]])
    pts = np.array([[2, 2, -1], [-1, -1, -1]])
    assert advisor._order(w, pts, np.array([[0, 0, 0], [0, 1, 0]])) == [1, 0, 2]
    assert advisor._order(w, pts, np.zeros((2, 3), np.int64), lambda i: (-i,)) == [1, 0, 2]
    assert advisor._order(w, pts, np.zeros((2, 3), np.int64), lambda i: (i,)) == [0, 1, 2]
    assert advisor._order(w, np.array([[2, 4, -1], [-1, -1, -1]]), None, lambda i: (-i,)) == [1, 0, 2]
    # With z, a second figure within the noise is a tie: the principle decides.
    w8 = np.ones((8, 2), np.int64)
    p8 = np.array([[2, 2]] * 7 + [[2, 4]])
    assert advisor._order(w8, p8, None, lambda i: (i,)) == [1, 0]
    assert advisor._order(w8, p8, None, lambda i: (i,), z=1.96) == [0, 1]
    assert advisor._order(w8, np.array([[2, 4]] * 8), None, lambda i: (i,), z=1.96) == [1, 0]


def test_pass_is_a_candidate_when_answering():
    v = counts_view("KKA", "farmer2", "4,5,3", after="QQ", by="farmer1")
    a = advise(v, samples=16)
    assert "pass" in [c.play for c in a.candidates]


# The command line -----------------------------------------------------------------------------


def _run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_json_and_errors(tmp_path, capsys):
    code, out, err = _run(capsys, "advise", "--hand", "33JJQK2", "--unseen", "4455A", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["recommendation"] in [c["play"] for c in d["candidates"]]
    assert set(d) >= {"recommendation", "candidates", "samples", "seconds", "rules"}
    assert set(d["candidates"][0]) == {"play", "win_prob", "win_ci", "expected_score", "score_ci", "solved",
                                       "played_out"}
    assert d["objective"] == "win"
    code, out, err = _run(capsys, "advise", "--hand", "33", "--unseen", "3333")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    g, rec = _game_and_record(5)
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(record_to_dict(rec)) + "\n")
    code, out, err = _run(capsys, "advise", "--record", str(path), "--move", "3", "--samples", "16",
                          "--format", "json")
    assert code == 0, err
    assert json.loads(out)["view"] == view_from_record(rec, 3).to_dict() | {"id": json.loads(out)["view"]["id"]}
    code, out, err = _run(capsys, "advise", "--record", str(path), "--move", "999", "--samples", "16")
    assert code == 1 and "move 999" in err
    code, out, err = _run(capsys, "advise", "--seat", "farmer1", "--hand", "3456789TJQKA2XD55", "--played",
                          "landlord:33", "--bids", "farmer1:pass,farmer2:pass,landlord:3", "--samples", "16",
                          "--no-early-stop", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["view"]["bids"] == ["farmer1:pass", "farmer2:pass", "landlord:3"] and d["view"]["base"] == 3
    assert d["draws"] > d["samples"] == 16 and d["unfit"] == 0
    code, out, err = _run(capsys, "advise", "--seat", "farmer1", "--hand", "3456789TJQKA2XD55", "--played",
                          "landlord:33", "--bids", "farmer1:pass,farmer2:pass,landlord:3", "--samples", "16",
                          "--no-early-stop", "--no-auction", "--format", "json")
    assert code == 0 and json.loads(out)["draws"] == 16
    code, out, err = _run(capsys, "advise", "--seat", "farmer1", "--hand", "3456789TJQKA2XD55", "--played",
                          "landlord:33", "--bids", "farmer1:3")
    assert code == 2 and "farmer1 the landlord" in err
    views = tmp_path / "v.jsonl"
    views.write_text(two_player_view("3", "4").to_json() + "\n" + '{"schema": "ddz-view/1"}\n')
    code, out, err = _run(capsys, "advise", "--file", str(views), "--format", "json")
    assert code == 1
    assert "missing key 'hand'" in err and len(out.splitlines()) == 1


def test_cli_game_start(tmp_path, capsys):
    """ddz advise --seat landlord --hand <20 cards>: the first lead; a farmer's 17 cards
    alone: one error line saying what is missing; --seat left out: the two-player form."""
    code, out, err = _run(capsys, "advise", "--seat", "landlord", "--hand", START, "--samples", "16",
                          "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["view"]["played"] == [] and d["view"]["seat"] == "landlord" and d["samples"] == 16
    assert d["recommendation"] == d["candidates"][0]["play"] != "pass"
    code, out, err = _run(capsys, "advise", "--seat", "landlord", "--hand", START, "--samples", "16")
    assert code == 0 and out.startswith("landlord holds 3334456789TTJQKA22XD (landlord 20, farmer1 17, farmer2 17 "
                                        "cards); leads; rules standard\n")
    assert "recommendation: " in out
    code, out, err = _run(capsys, "advise", "--seat", "farmer1", "--hand", START[:17])
    assert code == 2 and out == "" and err == (
        "error: farmer1's 17 cards with no history: the game start needs --bottom (the landlord's 3 extra cards, "
        "public after the auction) or --counts\n")
    code, out, err = _run(capsys, "advise", "--seat", "farmer1", "--hand", START[:17], "--bottom", "2XD")
    assert code == 2 and err == ("error: before any play the landlord leads (the game start): farmer1 is not to "
                                 "move; give --played (every play so far) once it is farmer1's turn\n")
    code, out, err = _run(capsys, "advise", "--seat", "landlord", "--hand", START[:17])
    assert code == 2 and "not the 20 of the game start (the bottom included): give --played" in err
    code, out, err = _run(capsys, "advise", "--hand", START)          # --seat left out: two-player
    assert code == 2 and err == ("error: without a seat the view is the two-player form, which needs --unseen (the "
                                 "opponent's cards); give --seat (landlord, farmer1 or farmer2) for the three-player "
                                 "game\n")
    code, out, err = _run(capsys, "advise", "--hand", "3", "--unseen", "4", "--format", "json")
    assert code == 0 and json.loads(out)["view"]["seat"] is None
    views = tmp_path / "v.jsonl"
    views.write_text(json.dumps({"schema": "ddz-view/1", "seat": "landlord", "hand": START}) + "\n"
                     + json.dumps({"schema": "ddz-view/1", "seat": "farmer2", "hand": START[:17]}) + "\n")
    code, out, err = _run(capsys, "advise", "--file", str(views), "--samples", "16", "--format", "json")
    assert code == 1 and len(out.splitlines()) == 1
    assert f"{views}:2: farmer2's 17 cards with no history: the game start needs bottom" in err


def test_simulate_with_the_advisor(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    code, stdout, err = _run(capsys, "simulate", "--games", "2", "--seed", "3", "--landlord-policy", "advisor",
                             "--farmer-policy", "heuristic", "--advisor-samples", "8", "--out", str(out),
                             "--format", "json")
    assert code == 0, err
    assert json.loads(stdout)["policy"] == "landlord=advisor,farmers=heuristic"
    from ddz_tools.engines.records import replay_record

    for line in out.read_text().splitlines():
        rec = json.loads(line)
        ll = rec["landlord"]
        assert rec["players"] == ["advisor" if s == ll else "heuristic" for s in range(3)]
        assert replay_record(rec).status == "ok"
    # The heuristic in every seat through the same driver: the same deal and landlord.
    base = adv.play_game(0, 3)
    assert base["deal"] == json.loads(out.read_text().splitlines()[0])["deal"]


# Happy Dou Dizhu: shown hands, doubles and the whole stake ---------------------------------


def _happy_record_with_a_show(seed0: int = 0) -> dict:
    """A random happy game in which the landlord showed at his first play."""
    for seed in range(seed0, seed0 + 200):
        g = random_game(seed, "happy")
        if g.shown and len(g.plays) >= 4:
            return record_to_dict(record_from_game(g, id=f"h{seed}"))
    raise AssertionError("no game with a show")


def test_a_view_from_a_happy_record_knows_the_shown_hand_and_the_stake():
    from ddz_tools.analysis.advise import view_from_record
    from ddz_tools.core._jit import interpreted
    from ddz_tools.core.gamerules import DOUBLING_MODES, settle_seats

    rec = _happy_record_with_a_show()
    view = view_from_record(rec, 3)           # move 3: a farmer, or the landlord after two answers
    roles = ("landlord", "farmer1", "farmer2")
    if view.seat != "landlord":
        # The landlord showed: his cards are known exactly, whatever the view's own seat.
        assert view.shown == ("landlord",)
        assert card_count(view.must[0]) == view.counts[0]
        assert adv.distinct_deals(view) == 1 or card_count(view.must[3 - view.me]) < view.counts[3 - view.me]
    assert view.stage == 2 * 1                # the first-play show; no bottom bonus under happy
    landlord = rec["landlord"]
    doubles = tuple(rec["doubles"][(landlord + i) % 3] for i in range(3))
    assert view.doubles == doubles
    won_stake = rec["result"]["base"] * 2
    scores = [0, 0, 0]
    interpreted(settle_seats)(0, int(view.me == 0), won_stake, 3, DOUBLING_MODES["per-pair"], doubles, 0, scores, 0)
    assert view.win_score() == scores[roles.index(view.seat)]
    again = View.from_dict(json.loads(json.dumps(view.to_dict())))
    assert again.to_dict() == view.to_dict() and again.shown == view.shown and again.doubles == view.doubles


def test_happy_views_are_advised_with_the_whole_stake():
    rec = _happy_record_with_a_show(50)
    from ddz_tools.analysis.advise import view_from_record
    view = view_from_record(rec, 3)
    res = advise(view, samples=16, seed=1, workers=1)
    best = res.candidates[0]
    assert best.expected_score == pytest.approx(view.win_score() * (2 * best.win_prob - 1))


def test_bad_stage_fields_of_a_view_are_named():
    d = {"schema": "ddz-view/1", "rules": "happy", "seat": "landlord", "hand": "3456789TJQKA2XD33344",
         "played": [], "doubles": [1, 3, 1]}
    with pytest.raises(DdzError, match="doubles: 3"):
        View.from_dict(d)
    with pytest.raises(DdzError, match="goes with 'played'"):
        View.from_dict({"schema": "ddz-view/1", "seat": "farmer1", "hand": "3456789TJQKA2XD33", "counts": [20, 17, 17],
                        "doubles": [1, 1, 1]})


def test_the_stake_counts_what_each_bomb_multiplies_it_by():
    """A history view's stake is the replayed game's: under laizi_multipliers=hlddz a
    hard bomb multiplies it by 4 (by 2 in the classic game)."""
    from ddz_tools.core.rules import Rules

    laizi = Rules.parse("laizi").with_wild("9")
    v = history_view("3356789TJQKA2XD55", "farmer1", "landlord:4444", rules=laizi)
    assert (v.bombs, v.stake, v.win_score()) == (1, 4, 4)
    v = history_view("3356789TJQKA2XD55", "farmer1", "landlord:4444")
    assert (v.bombs, v.stake, v.win_score()) == (1, 2, 2)


# Objective and ties ------------------------------------------------------------------------


def test_objective_ranks_and_ties_follow_the_principle():
    v = history_view("3334456789TTJQKA22XD", "landlord", [])
    win = advise(v, samples=32, seed=1, early_stop=False)
    score = advise(v, samples=32, seed=1, early_stop=False, objective="score")
    assert win.objective == "win" and score.objective == "score"
    assert win.to_dict()["objective"] == "win"
    # The same deals: the same figures, ranked by another key.
    assert {c.play: (c.win_prob, c.expected_score) for c in win.candidates} == \
        {c.play: (c.win_prob, c.expected_score) for c in score.candidates}
    probs = [c.win_prob for c in win.candidates]
    assert probs == sorted(probs, reverse=True)
    scores = [c.expected_score for c in score.candidates]
    assert scores == sorted(scores, reverse=True)
    for c in win.candidates:
        assert c.score_ci[0] <= c.expected_score <= c.score_ci[1]
    # Among the sure wins, the points decide: not the lone 2 of the generator's order.
    assert win.candidates[0].win_prob == 1.0 and win.recommendation != "2"
    with pytest.raises(ViewError, match="objective must be"):
        advise(v, samples=16, objective="points")


def test_principle_key():
    v = counts_view("KQ6", "farmer1", "3,3,2", after="J", by="landlord")
    keys = {p.notation(): adv.principle_key(v, p) for p in v.candidates()}
    assert keys["Q"] < keys["K"] < keys["pass"]   # the same plays left, the lower play first; the pass last
    partner = counts_view("KQ6", "farmer2", "3,3,3", after="J", by="farmer1")
    pk = {("pass" if p.is_pass else p.notation()): adv.principle_key(partner, p) for p in partner.candidates()}
    assert min(pk, key=pk.get) == "pass"   # do not beat the partner's play
    lead = counts_view("3345", "landlord", "4,3,3")
    lk = {p.notation(): adv.principle_key(lead, p) for p in lead.candidates()}
    assert lk["33"][1] == 2 and lk["3"][1] == 3 and min(lk, key=lk.get) == "33"   # fewest plays left, lowest
